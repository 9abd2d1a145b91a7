package planner

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// EXPLAIN's "Abstract Syntax Tree" section is the logical plan before the
// optimizer runs, which Flink prints with Calcite's RelOptUtil.toString:
// one Logical* relational operator a line, its inputs below it drawn as
// the other sections draw theirs, columns as $n (the n-th column of the
// operator's input, of the concatenation of both inputs in a join),
// calls in prefix form, >($1, 10), and literals as Calcite writes them
// (10, _UTF-16LE'abc', 5000:INTERVAL SECOND, null:INTEGER).
//
// Sluice prints the binder's plan before the rules rewrite it
// (rules.go), in Calcite's operators:
//
//   - a scan is the LogicalTableScan of the table's physical and metadata
//     columns, under a LogicalProject putting them in the table's order
//     and computing its computed columns, when it has either, and the
//     LogicalWatermarkAssigner of its watermark (Flink expands a table's
//     schema so);
//   - a Calc is a LogicalProject over a LogicalFilter; a query whose
//     projection the binder dropped as the identity (SELECT *, TABLE t)
//     still has its LogicalProject, as Calcite's converter always gives
//     one, but one over an aggregation, a UNION, VALUES or an ORDER BY
//     has none, as Calcite drops a trivial projection there;
//   - an aggregation is a LogicalAggregate, a join a LogicalJoin, UNION
//     ALL a LogicalUnion, VALUES LogicalValues, a window table function a
//     LogicalTableFunctionScan, LIMIT and ORDER BY a LogicalSort, a
//     ranking function the LogicalProject of its OVER call, a sink a
//     LogicalSink;
//   - a ChangelogNormalize, which only the optimizer adds in Flink, is
//     left out.
//
// The binder merges the projections and filters of stacked queries; the
// projection of a subquery or view in FROM is kept apart for this tree
// (Calc.stacked), as Calcite keeps a LogicalProject per query. It plans
// some constructs as it binds them (OVER aggregations, temporal,
// subquery and window joins, UNNEST, MATCH_RECOGNIZE, grouping sets):
// those nodes are printed as in the physical plan, between the logical
// operators around them (docs/coming-from-flink.md lists the
// differences).

// AbstractSyntaxTree is the "Abstract Syntax Tree" section of the trees
// LogicalPlan printed (a statement set's sinks', a blank line between
// them).
func AbstractSyntaxTree(trees ...string) Section {
	return Section{Title: "Abstract Syntax Tree", Body: strings.Join(trees, "\n")}
}

// LogicalPlan is the text of the plan under root in Calcite's form, for
// the Abstract Syntax Tree section. root is a plan as the binder built it,
// before the rules (Binder.Logical): a query's Collect or an INSERT's Sink,
// whose schema names the query's columns.
func LogicalPlan(root Node) string {
	w := &astWriter{rankNames: map[*Rank]string{}}
	w.nameRanks(root, map[Node]bool{})
	var rel *relLine
	switch r := root.(type) {
	case *Collect:
		rel = w.query(r.Input, r.schema)
		rel.top = true
	case *Sink:
		q := w.query(r.Input, r.schema)
		q.top = true
		rel = &relLine{
			text:   fmt.Sprintf("LogicalSink(table=[%s], fields=[%s])", r.Table.ID().Summary(), strings.Join(r.schema.Names(), ", ")),
			inputs: []*relLine{q},
		}
	default:
		rel = w.rel(root)
	}
	if hinted(rel) {
		showHints(rel, nil, "")
	}
	var b strings.Builder
	writeTree(&b, rel, func(l *relLine) []*relLine { return l.inputs }, func(l *relLine) string { return l.text }, "", "")
	return b.String()
}

// hinted reports whether a join under l has a STATE_TTL hint: Flink then
// shows the hints of the statement's operators (its tables' ALIAS hints
// too), and none without one.
func hinted(l *relLine) bool {
	if l.join != nil && l.join.hint != nil {
		return true
	}
	return slices.ContainsFunc(l.inputs, hinted)
}

// showHints adds to the operators under l the hints Flink's Abstract
// Syntax Tree shows (StateTtlHintTest.xml): a join's STATE_TTL hints,
// stateTtlHints=[[[STATE_TTL inheritPath:[0] options:{T1=1d, T2=2d}]]],
// each hint's options by name, with the path of inputs from the operator
// of the query they were written in; a table's ALIAS hint, hints=[[[ALIAS
// inheritPath:[] options:[T1]]]]; a subquery's or view's on its
// LogicalProject, hints=[[[ALIAS options:[v]]]], and on the joins of its
// query, with their path (testJoinStateTtlHintNotPropagateIntoView). path
// is l's from the query's operator, alias the query's name.
func showHints(l *relLine, path []int, alias string) {
	if l.top {
		path, alias = []int{}, l.alias
	}
	var hints string
	switch {
	case l.top && l.alias != "":
		hints = ", hints=[[[ALIAS options:[" + l.alias + "]]]]"
	case l.join != nil:
		var written []*ast.QueryHint
		if l.join.hint != nil {
			written = l.join.hint.hints
		}
		for _, h := range written {
			options := map[string]string{}
			for _, o := range h.Options {
				options[o.Key] = o.Value
			}
			items := make([]string, 0, len(options))
			for _, k := range slices.Sorted(maps.Keys(options)) {
				items = append(items, k+"="+options[k])
			}
			hints += "[STATE_TTL inheritPath:" + pathText(path) + " options:{" + strings.Join(items, ", ") + "}]"
		}
		if hints != "" {
			hints = ", stateTtlHints=[[" + hints + "]]"
		}
		if alias != "" {
			hints += ", hints=[[[ALIAS inheritPath:" + pathText(path) + " options:[" + alias + "]]]]"
		}
	case l.scan != nil && l.scan.alias != "":
		hints = ", hints=[[[ALIAS inheritPath:[] options:[" + l.scan.alias + "]]]]"
	}
	if hints != "" {
		l.text = strings.TrimSuffix(l.text, ")") + hints + ")"
	}
	for i, in := range l.inputs {
		showHints(in, append(slices.Clone(path), i), alias)
	}
}

// pathText is a hint's inheritPath as Calcite writes it: [0, 0].
func pathText(path []int) string {
	items := make([]string, len(path))
	for i, p := range path {
		items[i] = strconv.Itoa(p)
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// hintAlias gives the scan n plans (directly or under its
// normalization) the name hints refer to it by.
func hintAlias(n Node, alias string) {
	if nz, ok := n.(*Normalize); ok {
		n = nz.Input
	}
	if s, ok := n.(*Scan); ok {
		s.alias = alias
	}
}

// logicalSinkSchema is the schema an INSERT's LogicalSink names: the
// query's columns in the order of t's written columns, as Flink reorders
// a query writing a list of columns, a column the list leaves out being
// the NULL named EXPR$ and its position. in is the query's schema,
// targets the column of t each of its columns writes.
func logicalSinkSchema(in types.Schema, targets []int, t *catalog.Table) types.Schema {
	var out types.Schema
	for i, c := range t.Columns {
		if c.Computed != nil || c.Virtual {
			continue
		}
		f := types.Field{Name: "EXPR$" + strconv.Itoa(len(out)), Type: c.Type}
		if q := slices.Index(targets, i); q >= 0 {
			f = in[q]
		}
		out = append(out, f)
	}
	return out
}

// astWriter writes a logical plan.
type astWriter struct {
	// rankNames names the column of a ranking function as the query
	// over it reads it (the binder's Rank calls it w0$o0).
	rankNames map[*Rank]string
}

// nameRanks fills rankNames from the Calcs under n that read a Rank's
// ranking column under a name.
func (w *astWriter) nameRanks(n Node, seen map[Node]bool) {
	if seen[n] {
		return
	}
	seen[n] = true
	if c, ok := n.(*Calc); ok {
		if r, ok := c.Input.(*Rank); ok {
			for i, p := range c.Projects {
				if col, ok := p.(*expr.Column); ok && col.Index == len(r.schema)-1 {
					w.rankNames[r] = c.schema[i].Name
				}
			}
		}
	}
	for _, in := range n.Inputs() {
		w.nameRanks(in, seen)
	}
}

// relLine is one operator of the logical plan's text and its inputs.
type relLine struct {
	text   string
	inputs []*relLine
	// top marks the operator a query's hints are attached to (the
	// statement's query, a subquery's LogicalProject); join and scan the
	// operators hints are shown on.
	top  bool
	join *Join
	scan *Scan
	// alias is the name of the subquery or view whose LogicalProject
	// this is.
	alias string
}

// query is the logical plan of n as the body of a query whose columns
// are named by names: its LogicalProject, the identity when the binder
// dropped it, except over an aggregation, a set operation, VALUES or an
// ORDER BY, where Calcite drops a trivial projection (SortLimitTest.xml,
// JoinTest.xml).
func (w *astWriter) query(n Node, names types.Schema) *relLine {
	if c, ok := n.(*Calc); ok {
		return w.calc(c, names)
	}
	if trivialOver(n) {
		return w.rel(n)
	}
	in := n.Schema()
	items := make([]string, len(in))
	for i := range in {
		items[i] = fmt.Sprintf("%s=[$%d]", names[i].Name, i)
	}
	return &relLine{text: "LogicalProject(" + strings.Join(items, ", ") + ")", inputs: []*relLine{w.rel(n)}}
}

// trivialOver reports whether Calcite drops a query's projection over n
// when it only passes n's columns on.
func trivialOver(n Node) bool {
	switch n.(type) {
	case *GroupAggregate, *WindowAggregate, *Union, *Values, *Limit, *Sort, *BatchSort:
		return true
	}
	return false
}

// passesOn reports whether ps pass the n columns of their input on in
// order.
func passesOn(ps []expr.Expr, n int) bool {
	if len(ps) != n {
		return false
	}
	for i, p := range ps {
		if call, ok := p.(*expr.Call); ok && call.Name == fn.NotNullEnforcer && len(call.Args) == 2 {
			// a sink's NOT NULL check, which Flink runs in the sink
			p = call.Args[0]
		}
		if c, ok := p.(*expr.Column); !ok || c.Index != i {
			return false
		}
	}
	return true
}

// calc is c as a LogicalProject, its columns named by names, over a
// LogicalFilter when c filters. There is no LogicalProject where Calcite
// has none: one that reads no column (under COUNT(*), AggregateTest.xml,
// testCountStart) or only passes on the columns of an aggregation
// (testCountStartWithHaving) or the like (trivialOver). A Calc merged
// over the projection of a subquery or view prints as the query's
// projection over the subquery's; a projection of a ranking's columns is
// the LogicalProject of its OVER call.
func (w *astWriter) calc(c *Calc, names types.Schema) *relLine {
	if c.stacked != nil {
		c = c.stacked
	}
	if r, ok := c.Input.(*Rank); ok && r.Window == nil && c.Filter == nil && readsRankBare(c, r) {
		// The ranking function is in the select list of the query the
		// Calc is the projection of (RankTest.xml, testRankEndLessThan1).
		key := func(col int) string { return "$" + strconv.Itoa(col) }
		var in *relLine
		if ic, ok := r.Input.(*Calc); ok && keysBelow(c, r, ic) {
			// The binder computes a key that is an expression below the
			// ranking (after the query's WHERE); Calcite writes it in the
			// OVER call.
			key = func(col int) string { return rexText(ic.Projects[col]) }
			in = w.rankInput(ic.Input)
			if ic.Filter != nil {
				in = &relLine{text: "LogicalFilter(condition=[" + rexText(ic.Filter) + "])", inputs: []*relLine{w.rel(ic.Input)}}
			}
		} else {
			in = w.rankInput(r.Input)
		}
		items := make([]string, len(c.Projects))
		for i, p := range c.Projects {
			v := rexText(p)
			if col, ok := p.(*expr.Column); ok && col.Index == len(r.schema)-1 {
				v = overText(r, key)
			}
			items[i] = names[i].Name + "=[" + v + "]"
		}
		return &relLine{text: "LogicalProject(" + strings.Join(items, ", ") + ")", inputs: []*relLine{in}, top: c.level, alias: c.alias}
	}
	in := w.rel(c.Input)
	if c.Filter != nil {
		in = &relLine{text: "LogicalFilter(condition=[" + rexText(c.Filter) + "])", inputs: []*relLine{in}}
	}
	if len(c.Projects) == 0 || trivialOver(c.Input) && passesOn(c.Projects, len(c.Input.Schema())) && slices.Equal(names.Names(), c.Input.Schema().Names()) {
		return in
	}
	items := make([]string, len(c.Projects))
	for i, p := range c.Projects {
		items[i] = names[i].Name + "=[" + rexText(p) + "]"
	}
	return &relLine{text: "LogicalProject(" + strings.Join(items, ", ") + ")", inputs: []*relLine{in}, top: c.level, alias: c.alias}
}

// rel is the logical plan under n.
func (w *astWriter) rel(n Node) *relLine {
	switch x := n.(type) {
	case *Scan:
		l := logicalScan(x)
		for s := l; ; s = s.inputs[0] {
			if len(s.inputs) == 0 {
				s.scan = x
				break
			}
		}
		return l
	case *Normalize:
		return w.rel(x.Input)
	case *Calc:
		return w.calc(x, x.schema)
	case *Rank:
		if x.Window == nil {
			return &relLine{text: w.rankText(x), inputs: []*relLine{w.rankInput(x.Input)}}
		}
	case *Values:
		return &relLine{text: "LogicalValues(tuples=[" + valuesText(x) + "])"}
	case *GroupAggregate:
		if _, ok := x.Input.(*Expand); !ok {
			return &relLine{text: aggregateText(x), inputs: []*relLine{w.rel(x.Input)}}
		}
	case *WindowTableFunction:
		return &relLine{text: tableFunctionScanText(x), inputs: []*relLine{w.query(x.Input, x.Input.Schema())}}
	case *Join:
		return &relLine{text: joinText(x), inputs: []*relLine{w.rel(x.Left), w.rel(x.Right)}, join: x}
	case *Union:
		ins := make([]*relLine, len(x.Items))
		for i, it := range x.Items {
			ins[i] = w.query(it, it.Schema())
		}
		return &relLine{text: "LogicalUnion(all=[true])", inputs: ins}
	case *Limit:
		return &relLine{text: sortText(x.Order, x.Offset, x.N), inputs: []*relLine{w.query(x.Input, x.Input.Schema())}}
	case *Sort:
		return &relLine{text: sortText(x.Keys, 0, -1), inputs: []*relLine{w.query(x.Input, x.Input.Schema())}}
	case *BatchSort:
		return &relLine{text: sortText(x.Order, x.Offset, x.N), inputs: []*relLine{w.query(x.Input, x.Input.Schema())}}
	}
	// A node the binder plans as the optimizer would: as in the physical
	// plan.
	ins := n.Inputs()
	out := &relLine{text: n.Describe(), inputs: make([]*relLine, len(ins))}
	for i, in := range ins {
		out.inputs[i] = w.rel(in)
	}
	return out
}

// rankInput is the logical plan of a ranking's input: a filter that
// passes its input's columns on (under the names the ranking's
// LogicalProject gives them) is the WHERE of the query whose select list
// holds the ranking function, which has no projection of its own
// (RankTest.xml, testRankWithAnotherRankAsInput).
func (w *astWriter) rankInput(n Node) *relLine {
	c, ok := n.(*Calc)
	if !ok || c.Filter == nil || !passesOn(c.Projects, len(c.Input.Schema())) {
		return w.rel(n)
	}
	return &relLine{text: "LogicalFilter(condition=[" + rexText(c.Filter) + "])", inputs: []*relLine{w.rel(c.Input)}}
}

// keysBelow reports whether ic, the input of the ranking r that c reads,
// only passes its own input's columns on (those it keeps) and adds
// expressions r's keys read and c does not.
func keysBelow(c *Calc, r *Rank, ic *Calc) bool {
	n := len(ic.Input.Schema())
	if ic.level || ic.stacked != nil || len(ic.Projects) <= n || !passesOn(ic.Projects[:n], n) {
		return false
	}
	for _, col := range expr.Columns(c.Projects...) {
		if col >= n && col != len(r.schema)-1 {
			return false
		}
	}
	return true
}

// readsRankBare reports whether c reads the ranking column of r only as
// a column of its own.
func readsRankBare(c *Calc, r *Rank) bool {
	last := len(r.schema) - 1
	for _, p := range c.Projects {
		if col, ok := p.(*expr.Column); ok && col.Index == last {
			continue
		}
		if slices.Contains(expr.Columns(p), last) {
			return false
		}
	}
	return true
}

// rankText is a ranking function as Calcite plans it, a LogicalProject
// passing its input's columns on and adding the function's OVER call
// (RankTest.xml): row_num=[ROW_NUMBER() OVER (PARTITION BY $0 ORDER BY
// $1 DESC NULLS LAST)].
func (w *astWriter) rankText(r *Rank) string {
	in := r.Input.Schema()
	items := make([]string, 0, len(in)+1)
	for i, f := range in {
		items = append(items, fmt.Sprintf("%s=[$%d]", f.Name, i))
	}
	name, ok := w.rankNames[r]
	if !ok {
		name = r.schema[len(r.schema)-1].Name
	}
	items = append(items, name+"=["+overText(r, func(col int) string { return "$" + strconv.Itoa(col) })+"]")
	return "LogicalProject(" + strings.Join(items, ", ") + ")"
}

// overText is r's function with its OVER clause, as Calcite writes the
// call: ROW_NUMBER() OVER (PARTITION BY $0 ORDER BY $1 DESC NULLS LAST),
// each key written by key.
func overText(r *Rank, key func(col int) string) string {
	var over []string
	if len(r.PartitionKeys) > 0 {
		keys := make([]string, len(r.PartitionKeys))
		for i, k := range r.PartitionKeys {
			keys[i] = key(k)
		}
		over = append(over, "PARTITION BY "+strings.Join(keys, ", "))
	}
	if len(r.Order) > 0 {
		keys := make([]string, len(r.Order))
		for i, k := range r.Order {
			keys[i] = key(k.Col)
			if k.Desc {
				keys[i] += " DESC"
			}
			if k.NullsFirst {
				keys[i] += " NULLS FIRST"
			} else {
				keys[i] += " NULLS LAST"
			}
		}
		over = append(over, "ORDER BY "+strings.Join(keys, ", "))
	}
	return fmt.Sprintf("%s() OVER (%s)", r.Function, strings.Join(over, " "))
}

// logicalScan is a table's scan as Flink expands its schema: the
// LogicalTableScan of its physical columns and then its metadata columns
// (their keys listed in its table), a LogicalProject putting them in the
// table's order and computing its computed columns, and the
// LogicalWatermarkAssigner of its watermark (sql-client table.q's
// explain plan for select; AggregateTest.xml, testCountStartWithMetadata).
func logicalScan(s *Scan) *relLine {
	id := s.Table.ID()
	cols := s.Table.Columns
	// pos[i] is the position of table column i among the scan's.
	pos := make([]int, len(cols))
	n := 0
	for i, c := range cols {
		if c.IsPhysical() {
			pos[i], n = n, n+1
		}
	}
	var keys []string
	project := false
	for i, c := range cols {
		project = project || !c.IsPhysical()
		if !c.Metadata {
			continue
		}
		key := cmp.Or(c.MetadataKey, c.Name)
		k := slices.Index(keys, key)
		if k < 0 {
			k, keys = len(keys), append(keys, key)
		}
		pos[i] = n + k
	}
	table := fmt.Sprintf("%s, %s, %s", id.Catalog, id.Database, id.Object)
	if len(keys) > 0 {
		table += ", metadata=[" + strings.Join(keys, ", ") + "]"
	}
	rel := &relLine{text: "LogicalTableScan(table=[[" + table + "]])"}
	if project {
		items := make([]string, len(cols))
		for i, c := range cols {
			v := "$" + strconv.Itoa(pos[i])
			if i < len(s.Computed) && s.Computed[i] != nil {
				v = rexText(expr.Remap(s.Computed[i], func(c *expr.Column) expr.Expr {
					return &expr.Column{Index: pos[c.Index], T: c.T}
				}))
			}
			items[i] = c.Name + "=[" + v + "]"
		}
		rel = &relLine{text: "LogicalProject(" + strings.Join(items, ", ") + ")", inputs: []*relLine{rel}}
	}
	if s.Watermark != nil {
		rowtime := ""
		for _, f := range s.schema {
			if f.Type.Attr == types.RowTime {
				rowtime = f.Name
			}
		}
		rel = &relLine{text: fmt.Sprintf("LogicalWatermarkAssigner(rowtime=[%s], watermark=[%s])", rowtime, rexText(s.Watermark)), inputs: []*relLine{rel}}
	}
	return rel
}

// valuesText is the rows of v as Calcite's LogicalValues lists them:
// [{ 1, _UTF-16LE'a' }, { 2, _UTF-16LE'b' }], a row of no columns { 0 }.
func valuesText(v *Values) string {
	rows := make([]string, len(v.Rows))
	for i, r := range v.Rows {
		items := make([]string, len(r))
		for j, x := range r {
			t := v.schema[j].Type
			if t.Kind == types.Varchar {
				// Calcite types a VALUES string as CHAR.
				t.Kind = types.Char
			}
			items[j] = valueText(x, t)
		}
		if len(items) == 0 {
			items = []string{"0"}
		}
		rows[i] = "{ " + strings.Join(items, ", ") + " }"
	}
	return "[" + strings.Join(rows, ", ") + "]"
}

// aggregateText is a LogicalAggregate: its group keys as a set of input
// columns, then each call under its name.
func aggregateText(a *GroupAggregate) string {
	keys := slices.Sorted(slices.Values(a.Keys))
	ks := make([]string, len(keys))
	for i, k := range keys {
		ks[i] = strconv.Itoa(k)
	}
	s := "LogicalAggregate(group=[{" + strings.Join(ks, ", ") + "}]"
	for i, c := range a.Aggs {
		s += ", " + a.schema[len(a.Keys)+i].Name + "=[" + aggCallText(c) + "]"
	}
	return s + ")"
}

// aggCallText is an aggregate call as Calcite's AggregateCall writes it:
// COUNT() for COUNT(*), COUNT(DISTINCT $1), SUM($2) FILTER $3.
func aggCallText(c AggCall) string {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = "$" + strconv.Itoa(a)
	}
	s := c.Name + "("
	if c.Distinct {
		s += "DISTINCT "
	}
	s += strings.Join(args, ", ") + ")"
	if c.Filter >= 0 {
		s += " FILTER $" + strconv.Itoa(c.Filter)
	}
	return s
}

// tableFunctionScanText is a window table function's
// LogicalTableFunctionScan: its invocation with the time column as a
// DESCRIPTOR and the sizes as interval literals (Flink's
// WindowTableFunctionTest.xml), and its row type.
func tableFunctionScanText(w *WindowTableFunction) string {
	// The row type keeps the input's time attributes, as Flink's does
	// until the optimizer materializes them.
	in := w.Input.Schema()
	row := append(slices.Clone(in), w.schema[len(in):]...)
	win := w.Window
	args := []string{"DESCRIPTOR($" + strconv.Itoa(win.TimeCol) + ")"}
	name := "TUMBLE"
	switch win.Kind {
	case Tumble:
		args = append(args, intervalText(win.Size))
	case Hop:
		name = "HOP"
		args = append(args, intervalText(win.Slide), intervalText(win.Size))
	case Cumulate:
		name = "CUMULATE"
		args = append(args, intervalText(win.Slide), intervalText(win.Size))
	case Session:
		name = "SESSION"
		args = append(args, intervalText(win.Gap))
		if len(win.PartitionKeys) > 0 {
			keys := make([]string, len(win.PartitionKeys))
			for i, k := range win.PartitionKeys {
				keys[i] = "$" + strconv.Itoa(k)
			}
			args = append([]string{"PARTITION BY(" + strings.Join(keys, ", ") + ")"}, args...)
		}
	}
	if win.Offset != 0 {
		args = append(args, intervalText(win.Offset))
	}
	return fmt.Sprintf("LogicalTableFunctionScan(invocation=[%s(%s)], rowType=[%s])", name, strings.Join(args, ", "), rowTypeText(row))
}

// intervalText is a duration in nanoseconds as the day-time interval
// literal of the largest unit that divides it, 600000:INTERVAL MINUTE.
func intervalText(ns int64) string {
	ms := ns / 1e6
	unit := "SECOND"
	for _, u := range []struct {
		ms   int64
		name string
	}{{86400000, "DAY"}, {3600000, "HOUR"}, {60000, "MINUTE"}} {
		if ms != 0 && ms%u.ms == 0 {
			unit = u.name
			break
		}
	}
	return strconv.FormatInt(ms, 10) + ":INTERVAL " + unit
}

// rowTypeText is a schema as Calcite writes a row type:
// RecordType(INTEGER a, TIMESTAMP(3) *ROWTIME* ts).
func rowTypeText(s types.Schema) string {
	fields := make([]string, len(s))
	for i, f := range s {
		fields[i] = calciteType(f.Type, false) + " " + f.Name
	}
	return "RecordType(" + strings.Join(fields, ", ") + ")"
}

// joinText is a LogicalJoin: its condition (the equalities of its keys,
// then its other conditions) over both inputs' columns, and its kind.
func joinText(j *Join) string {
	nl := len(j.Left.Schema())
	var conds []string
	for i := range j.LeftKeys {
		conds = append(conds, fmt.Sprintf("=($%d, $%d)", j.LeftKeys[i], nl+j.RightKeys[i]))
	}
	if j.Cond != nil {
		for _, c := range conjuncts(j.Cond) {
			conds = append(conds, rexText(c))
		}
	}
	cond := "true"
	switch len(conds) {
	case 0:
	case 1:
		cond = conds[0]
	default:
		cond = "AND(" + strings.Join(conds, ", ") + ")"
	}
	kind := [...]string{InnerJoin: "inner", LeftJoin: "left", RightJoin: "right", FullJoin: "full"}[j.Kind]
	return fmt.Sprintf("LogicalJoin(condition=[%s], joinType=[%s])", cond, kind)
}

// sortText is a LogicalSort: its keys as sort0=[$1], dir0=[DESC-nulls-last]
// (Flink orders NULLs first ascending and last descending unless told),
// then its offset and fetch when it has them.
func sortText(keys []SortKey, offset, fetch int64) string {
	var items []string
	for i, k := range keys {
		items = append(items, fmt.Sprintf("sort%d=[$%d]", i, k.Col))
	}
	for i, k := range keys {
		dir := "ASC"
		if k.Desc {
			dir = "DESC"
		}
		nulls := "-nulls-last"
		if k.NullsFirst {
			nulls = "-nulls-first"
		}
		items = append(items, fmt.Sprintf("dir%d=[%s%s]", i, dir, nulls))
	}
	if offset > 0 {
		items = append(items, fmt.Sprintf("offset=[%d]", offset))
	}
	if fetch >= 0 {
		items = append(items, fmt.Sprintf("fetch=[%d]", fetch))
	}
	return "LogicalSort(" + strings.Join(items, ", ") + ")"
}

// rexText is e as Calcite's RexNode.toString writes it.
func rexText(e expr.Expr) string {
	var b strings.Builder
	writeRex(&b, e)
	return b.String()
}

// rexOperators are the names Calcite's operators print under where they
// differ from Sluice's.
var rexOperators = map[string]string{"%": "MOD", "NEG": "-"}

// writeRex appends e in Calcite's form to b.
func writeRex(b *strings.Builder, e expr.Expr) {
	call := func(name string, args ...expr.Expr) {
		b.WriteString(name + "(")
		for i, a := range args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRex(b, a)
		}
		b.WriteByte(')')
	}
	switch x := e.(type) {
	case *expr.Column:
		b.WriteString("$" + strconv.Itoa(x.Index))
	case *expr.Literal:
		if x.Folded != nil {
			// The AST is the plan before constants are folded.
			writeRex(b, x.Folded)
			return
		}
		b.WriteString(literalText(x))
	case *expr.Call:
		switch {
		case x.Name == fn.NotNullEnforcer && len(x.Args) == 2:
			// Flink enforces a sink's NOT NULL columns in the sink.
			writeRex(b, x.Args[0])
			return
		case x.Name == fn.Dot && len(x.Args) == 2:
			if lit, ok := x.Args[1].(*expr.Literal); ok {
				writeRex(b, x.Args[0])
				b.WriteString("." + lit.V.S)
				return
			}
		}
		name := x.Name
		if n, ok := rexOperators[name]; ok {
			name = n
		} else if name == fn.ArrayCtor || name == fn.MapCtor || name == fn.RowCtor || name == fn.Item {
			name = name[1:]
		}
		b.WriteString(name + "(")
		for i, a := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			if i < len(x.Units) && x.Units[i] != "" {
				b.WriteString("FLAG(" + x.Units[i] + ")")
			} else {
				writeRex(b, a)
			}
		}
		b.WriteByte(')')
	case *expr.Cast:
		name := "CAST"
		if x.Try {
			name = "TRY_CAST"
		}
		call(name, x.X)
		b.WriteString(":" + calciteType(x.T, true))
	case *expr.Logic:
		name := "AND"
		if x.Or {
			name = "OR"
		}
		call(name, x.Args...)
	case *expr.Not:
		call("NOT", x.X)
	case *expr.IsNull:
		name := "IS NULL"
		if x.Neg {
			name = "IS NOT NULL"
		}
		call(name, x.X)
	case *expr.Case:
		var args []expr.Expr
		for _, w := range x.Whens {
			args = append(args, w.Cond, w.Then)
		}
		if x.Else != nil {
			args = append(args, x.Else)
		} else {
			args = append(args, &expr.Literal{V: types.NullValue, T: x.T.WithNotNull(false)})
		}
		call("CASE", args...)
	case *expr.Coalesce:
		call("COALESCE", x.Args...)
	case *expr.In:
		// Calcite converts IN over a list of values into an OR of
		// equalities, NOT IN into its negation (CalcTest.xml, testIn and
		// testNotIn).
		items := make([]expr.Expr, len(x.List))
		for i, it := range x.List {
			items[i] = &expr.Call{Name: "=", Args: []expr.Expr{x.X, it}}
		}
		var in expr.Expr = &expr.Logic{Or: true, Args: items}
		if len(items) == 1 {
			in = items[0]
		}
		if x.Neg {
			in = &expr.Not{X: in}
		}
		writeRex(b, in)
	case *expr.CurrentWatermark:
		b.WriteString("CURRENT_WATERMARK()")
	default:
		b.WriteString(e.String())
	}
}

// literalText is a literal as Calcite's RexLiteral writes it: its value,
// followed by its type where the value alone does not give it
// (10, 10:BIGINT, 1.5:DECIMAL(2, 1), _UTF-16LE'abc', 5000:INTERVAL
// SECOND, null:INTEGER).
func literalText(l *expr.Literal) string {
	switch l.T.Kind {
	case types.Decimal:
		if l.Text != "" {
			// As written, its precision all the digits written
			// (SqlLiteral.createExactNumeric; CalcTest.xml,
			// testDecimalMapWithDifferentPrecision: 0.12:DECIMAL(3, 2)).
			digits := strings.Count(l.Text, "") - 1 - strings.Count(l.Text, ".") - strings.Count(l.Text, "-")
			_, frac, _ := strings.Cut(l.Text, ".")
			return fmt.Sprintf("%s:DECIMAL(%d, %d)", l.Text, digits, len(frac))
		}
	case types.Double:
		if l.Text != "" {
			return strings.ToUpper(l.Text) + ":DOUBLE"
		}
	case types.IntervalDayTime, types.IntervalYearMonth:
		unit := "SECOND"
		if q, ok := strings.CutPrefix(l.Text, "INTERVAL '"); ok {
			if _, u, ok := strings.Cut(q, "' "); ok {
				unit = u
			}
		}
		// Calcite's interval type omits the precisions.
		unit = strings.NewReplacer("(3)", "", "(2)", "", "(1)", "", "(4)", "", "(5)", "", "(6)", "", "(7)", "", "(8)", "", "(9)", "").Replace(unit)
		return strconv.FormatInt(l.V.I, 10) + ":INTERVAL " + unit
	}
	return valueText(l.V, l.T)
}

// valueText is a value of type t as Calcite writes a literal of that
// type.
func valueText(v types.Value, t types.Type) string {
	t = t.WithNotNull(false)
	if v.Null {
		return "null:" + calciteType(t, true)
	}
	switch t.Kind {
	case types.Null:
		return "null:NULL"
	case types.Boolean:
		return strconv.FormatBool(v.Bool())
	case types.Int:
		return strconv.FormatInt(v.I, 10)
	case types.TinyInt, types.SmallInt, types.BigInt:
		return strconv.FormatInt(v.I, 10) + ":" + calciteType(t, true)
	case types.Char:
		return "_UTF-16LE'" + strings.ReplaceAll(v.S, "'", "''") + "'"
	case types.Varchar:
		return "_UTF-16LE'" + strings.ReplaceAll(v.S, "'", "''") + "':" + calciteType(t, true)
	case types.Date, types.Time, types.Timestamp:
		// as Calcite writes a DATE, TIME or TIMESTAMP literal
		// (CalcTest.xml, testFilterWithDateType)
		return types.FormatValue(t, v, time.UTC)
	}
	return types.FormatValue(t, v, time.UTC) + ":" + calciteType(t, true)
}

// calciteType is t as Calcite names it: INTEGER, VARCHAR(2147483647),
// TIMESTAMP_WITH_LOCAL_TIME_ZONE(3); a time attribute as Flink's
// TimeIndicatorRelDataType, TIMESTAMP(3) *ROWTIME*. full adds what
// Calcite's full type string has (a CAST's type): the character set of
// a string and NOT NULL.
func calciteType(t types.Type, full bool) string {
	var s string
	switch t.Kind {
	case types.Int:
		s = "INTEGER"
	case types.Char, types.Varchar:
		s = strings.TrimSuffix(t.Plain().WithNotNull(false).String(), " NOT NULL")
		if t.Kind == types.Varchar {
			s = fmt.Sprintf("VARCHAR(%d)", t.Length)
		}
		if full {
			s += ` CHARACTER SET "UTF-16LE"`
		}
	case types.Varbinary:
		s = fmt.Sprintf("VARBINARY(%d)", t.Length)
	case types.TimestampLTZ:
		s = fmt.Sprintf("TIMESTAMP_WITH_LOCAL_TIME_ZONE(%d)", t.Precision)
	default:
		s = t.Plain().WithNotNull(false).String()
	}
	switch t.Attr {
	case types.RowTime, types.ProcTime:
		if t.Kind == types.TimestampLTZ {
			s = fmt.Sprintf("TIMESTAMP_LTZ(%d)", t.Precision)
		}
		if t.Attr == types.RowTime {
			return s + " *ROWTIME*"
		}
		return s + " *PROCTIME*"
	}
	if full && t.NotNull {
		s += " NOT NULL"
	}
	return s
}
