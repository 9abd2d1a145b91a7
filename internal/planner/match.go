package planner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// Match is MATCH_RECOGNIZE (Flink's StreamPhysicalMatch): one row per
// match of a pattern over each partition's rows in time order, the
// partition columns followed by the measures. It is planned after
// Flink's StreamExecMatch, whose checks and messages it keeps.
type Match struct {
	base
	Input         Node
	PartitionKeys []int
	TimeCol       int
	RowTime       bool
	Order         []SortKey
	Vars          []MatchVar
	// After is the AFTER MATCH SKIP strategy: "PAST LAST ROW", "TO NEXT
	// ROW", "TO FIRST" or "TO LAST" (of AfterVar).
	After    string
	AfterVar string
	// Within is the WITHIN bound in nanoseconds, 0 for none.
	Within   int64
	Measures MatchExprs
	// text holds the clauses as written, for EXPLAIN.
	text matchText
}

// MatchVar is one pattern variable with its quantifier (Min to Max rows,
// Max -1 for no bound) and DEFINE condition (nil: every row).
type MatchVar struct {
	Name     string
	Min, Max int
	Greedy   bool
	Cond     *MatchExprs
	// at is the variable in the pattern, where errors about it point.
	at ast.Node
}

// MatchExprs are expressions whose column i is the value of Slots[i].
type MatchExprs struct {
	Slots []MatchSlot
	Exprs []expr.Expr
}

// MatchSlot is one value computed from a match: Kind "value" (Value, over
// the input row, on the row Offset after the first or before the last of
// Var's rows), "aggregate" (Function over Args on every row of Var),
// "rowtime" or "proctime". Var "" means every row of the match.
type MatchSlot struct {
	Kind     string
	Var      string
	First    bool
	Offset   int
	Value    expr.Expr
	Function string
	Args     []expr.Expr
	Type     types.Type
}

type matchText struct {
	measures, after, pattern, define string
}

// Inputs implements Node.
func (n *Match) Inputs() []Node { return []Node{n.Input} }

// Mode implements Node: a match is final once emitted.
func (n *Match) Mode() Mode { return connector.InsertOnly }

// Describe implements Node.
func (n *Match) Describe() string {
	in := n.Input.Schema()
	order := []string{in[n.TimeCol].Name + " ASC"}
	for _, k := range n.Order {
		dir := " ASC"
		if k.Desc {
			dir = " DESC"
		}
		order = append(order, in[k.Col].Name+dir)
	}
	s := "Match("
	if len(n.PartitionKeys) > 0 {
		s += "partitionBy=[" + names(in, n.PartitionKeys) + "], "
	}
	s += "orderBy=[" + strings.Join(order, ", ") + "], measures=[" + n.text.measures + "], rowsPerMatch=[ONE ROW PER MATCH], after=[" + n.text.after + "], pattern=[" + n.text.pattern + "]"
	if n.Within > 0 {
		s += ", within=[" + duration(n.Within) + "]"
	}
	return s + ", define=[" + n.text.define + "])"
}

// matchRecognize plans a MATCH_RECOGNIZE clause: the checks of Calcite's
// validator and of Flink's StreamExecMatch, in their order, with their
// messages.
func (b *Binder) matchRecognize(n *ast.MatchRecognize) (*relation, error) {
	rel, err := b.from(n.Input)
	if err != nil {
		return nil, err
	}
	// The input's changelog is the one the rules leave it (a Top-1 they
	// make a deduplication appends), so they rewrite it first.
	in := rewrite(rel.node)
	if in.Mode() != connector.InsertOnly {
		return nil, errorf(n, "Match Recognize doesn't support consuming update changes which is produced by node %s", updatingNode(in).Describe())
	}
	m := &Match{Input: in, After: "TO NEXT ROW"}
	schema := in.Schema()
	x := &exprBinder{b: b, sc: rel.sc, where: "MATCH_RECOGNIZE"}
	for _, p := range n.PartitionBy {
		e, err := x.bind(p)
		if err != nil {
			return nil, err
		}
		c, ok := e.(*expr.Column)
		if !ok {
			return nil, errorf(p, "PARTITION BY of MATCH_RECOGNIZE takes columns of its input, not expressions")
		}
		m.PartitionKeys = append(m.PartitionKeys, c.Index)
	}
	if err := b.matchOrder(m, n, x); err != nil {
		return nil, err
	}
	vars, err := b.matchPattern(m, n)
	if err != nil {
		return nil, err
	}
	defined := map[string]bool{}
	for _, d := range n.Define {
		if defined[d.Var] {
			return nil, errorf(d, "Pattern variable '%s' has already been defined", d.Var)
		}
		defined[d.Var] = true
	}
	if err := b.matchAfter(m, n, vars, defined); err != nil {
		return nil, err
	}
	if len(n.Subsets) > 0 {
		return nil, errorf(n.Subsets[0], "SUBSET is not supported: Flink's MATCH_RECOGNIZE does not support it yet")
	}
	if n.StrictStart != nil {
		return nil, errorf(*n.StrictStart, "Anchors (^ and $) are not supported: Flink's MATCH_RECOGNIZE does not support them")
	}
	if n.StrictEnd != nil {
		return nil, errorf(*n.StrictEnd, "Anchors (^ and $) are not supported: Flink's MATCH_RECOGNIZE does not support them")
	}
	mb := &matchBinder{b: b, in: rel.sc, vars: vars, defined: defined, rowTime: m.RowTime}
	var defines []string
	for _, d := range n.Define {
		i, ok := vars[d.Var]
		if !ok {
			// Calcite accepts a definition of a variable the pattern does
			// not use; Flink's translation never looks it up.
			continue
		}
		mb.reset(false)
		cond, err := mb.bind(d.Cond)
		if err != nil {
			return nil, err
		}
		if err := wantBoolean(d.Cond, cond); err != nil {
			return nil, err
		}
		m.Vars[i].Cond = &MatchExprs{Slots: mb.slots, Exprs: []expr.Expr{cond}}
		defines = append(defines, quoteName(d.Var)+"="+parser.FormatExpr(d.Cond))
	}
	m.text.define = "{" + strings.Join(defines, ", ") + "}"
	if err := m.checkPattern(n); err != nil {
		return nil, err
	}
	if n.AllRows != nil {
		return nil, errorf(*n.AllRows, "All rows per match mode is not supported yet.")
	}
	// Output: the partition columns, then the measures.
	var out types.Schema
	sc := &scope{}
	for _, k := range m.PartitionKeys {
		f := types.Field{Name: schema[k].Name, Type: schema[k].Type.Plain()}
		out = append(out, f)
		sc.cols = append(sc.cols, scopeCol{name: f.Name, typ: f.Type})
	}
	var ambiguous []string
	var measures []expr.Expr
	var texts []string
	mb.reset(true)
	for _, it := range n.Measures {
		// Calcite's validator: a measure named like a partition column or
		// another measure.
		for _, f := range out {
			if f.Name == it.Alias {
				ambiguous = append(ambiguous, it.Alias)
				break
			}
		}
		e, err := mb.bind(it.Expr)
		if err != nil {
			return nil, err
		}
		measures = append(measures, e)
		t := e.Type()
		if c, ok := it.Expr.(*ast.FuncCall); !ok || c.Name != "MATCH_ROWTIME" && c.Name != "MATCH_PROCTIME" {
			t = t.Plain()
		}
		out = append(out, types.Field{Name: it.Alias, Type: t})
		sc.cols = append(sc.cols, scopeCol{name: it.Alias, typ: t})
		texts = append(texts, parser.FormatExpr(it.Expr)+" AS "+quoteName(it.Alias))
	}
	if len(ambiguous) > 0 {
		return nil, errorf(n, "Columns ambiguously defined: {%s}", strings.Join(ambiguous, ", "))
	}
	m.Measures = MatchExprs{Slots: mb.slots, Exprs: measures}
	m.text.measures = strings.Join(texts, ", ")
	m.schema = out
	return aliased(&relation{node: m, sc: sc}, n.Alias, n.ColumnAliases, n)
}

func quoteName(s string) string { return parser.FormatExpr(&ast.Ident{Parts: []string{s}}) }

// matchOrder checks ORDER BY as StreamExecMatch.checkOrderKeys does: a
// time attribute first, ascending; further keys order rows of one time.
func (b *Binder) matchOrder(m *Match, n *ast.MatchRecognize, x *exprBinder) error {
	if len(n.OrderBy) == 0 {
		if n.Within != nil {
			return errorf(n.Within, "Must contain an ORDER BY clause when WITHIN is used")
		}
		return errorf(n, "You must specify either rowtime or proctime for order by.")
	}
	for i, o := range n.OrderBy {
		e, err := x.bind(o.Expr)
		if err != nil {
			return err
		}
		c, ok := e.(*expr.Column)
		if i == 0 {
			if !ok || c.T.Attr == types.NoTimeAttr {
				if n.Within != nil && e.Type().Kind != types.Timestamp && e.Type().Kind != types.TimestampLTZ {
					return errorf(n.Within, "First column of ORDER BY must be of type TIMESTAMP")
				}
				return errorf(o, "You must specify either rowtime or proctime for order by as the first one.")
			}
			if o.Desc {
				return errorf(o, "Primary sort order of a streaming table must be ascending on time.")
			}
			m.TimeCol, m.RowTime = c.Index, c.T.Attr == types.RowTime
			continue
		}
		if !ok {
			return errorf(o, "ORDER BY of MATCH_RECOGNIZE takes columns of its input, not expressions")
		}
		if !m.RowTime {
			return errorf(o, "ORDER BY keys after a processing-time attribute are not supported in MATCH_RECOGNIZE yet")
		}
		nullsFirst := !o.Desc
		if o.NullsFirst != nil {
			nullsFirst = *o.NullsFirst
		}
		m.Order = append(m.Order, SortKey{Col: c.Index, Desc: o.Desc, NullsFirst: nullsFirst})
	}
	if n.Within != nil {
		e, err := (&exprBinder{b: b, sc: &scope{}}).bind(n.Within)
		if err != nil {
			return err
		}
		lit, ok := e.(*expr.Literal)
		switch {
		case !ok || lit.T.Kind != types.IntervalDayTime && lit.T.Kind != types.IntervalYearMonth:
			return errorf(n.Within, "WITHIN takes an interval literal such as INTERVAL '1' HOUR")
		case lit.V.I < 0:
			return errorf(n.Within, "Interval must be non-negative '%s'", parser.FormatExpr(n.Within))
		case lit.T.Kind != types.IntervalDayTime:
			return errorf(n.Within, "Only constant intervals with millisecond resolution are supported as time constraints of patterns.")
		}
		m.Within = lit.V.I * 1e6
		if !m.RowTime && m.Within > 0 {
			return errorf(n.Within, "WITHIN over a processing-time attribute is not supported yet; order MATCH_RECOGNIZE by an event-time attribute")
		}
	}
	return nil
}

// matchPattern flattens the pattern into its variables, as Flink's
// PatternVisitor does: concatenations of variables, each with a
// quantifier; groups only without one.
func (b *Binder) matchPattern(m *Match, n *ast.MatchRecognize) (map[string]int, error) {
	vars := map[string]int{}
	var walk func(t ast.PatternTerm) error
	add := func(v *ast.PatternVar, q *ast.PatternQuant) error {
		if _, dup := vars[v.Name]; dup {
			return errorf(v, "Pattern variables must be unique. That might change in the future.")
		}
		vars[v.Name] = len(m.Vars)
		mv := MatchVar{Name: v.Name, Min: 1, Max: 1, at: v}
		if q != nil {
			mv.at = q
			mv.Min, mv.Max = q.Min, q.Max
			switch {
			case q.Min == 0 && q.Max == 0:
				return errorf(q, "The from and to should not be both equal to 0.")
			case q.Max >= 0 && q.Max < q.Min:
				return errorf(q, "The to should be a number greater than or equal to from: %d.", q.Min)
			}
			optional := q.Min == 0 && q.Max == 1
			if q.Reluctant && optional {
				return errorf(q, "Reluctant optional variables are not supported yet.")
			}
			mv.Greedy = !q.Reluctant && !optional && q.Min != q.Max
		}
		m.Vars = append(m.Vars, mv)
		return nil
	}
	walk = func(t ast.PatternTerm) error {
		switch t := t.(type) {
		case *ast.PatternVar:
			return add(t, nil)
		case *ast.PatternSeq:
			for _, it := range t.Items {
				if err := walk(it); err != nil {
					return err
				}
			}
			return nil
		case *ast.PatternQuant:
			x := t.X
			for {
				seq, ok := x.(*ast.PatternSeq)
				if !ok || len(seq.Items) != 1 {
					break
				}
				x = seq.Items[0]
			}
			v, ok := x.(*ast.PatternVar)
			if !ok {
				return errorf(t.X, "Expression not supported: %s Group patterns are not supported yet.", parser.FormatPattern(t.X))
			}
			return add(v, t)
		case *ast.PatternAlt:
			return errorf(t, "Expression not supported: %s. Currently, CEP doesn't support branching patterns.", parser.FormatPattern(t))
		case *ast.PatternPermute:
			return errorf(t, "Expression not supported: %s. Currently, CEP doesn't support PERMUTE patterns.", parser.FormatPattern(t))
		case *ast.PatternExclude:
			return errorf(t, "Expression not supported: %s. Currently, CEP doesn't support '{-' '-}' patterns.", parser.FormatPattern(t))
		}
		return errorf(t, "Unsupported expression within Pattern: [%s]", parser.FormatPattern(t))
	}
	if err := walk(n.Pattern); err != nil {
		return nil, err
	}
	m.text.pattern = parser.FormatPattern(n.Pattern)
	return vars, nil
}

// matchAfter reads AFTER MATCH SKIP; SKIP TO NEXT ROW is the default.
func (b *Binder) matchAfter(m *Match, n *ast.MatchRecognize, vars map[string]int, defined map[string]bool) error {
	m.text.after = "SKIP TO NEXT ROW"
	a := n.After
	if a == nil {
		return nil
	}
	m.After = a.Kind
	m.text.after = "SKIP " + a.Kind
	if a.Var == nil {
		return nil
	}
	if _, ok := vars[a.Var.Name]; !ok {
		if defined[a.Var.Name] {
			// Calcite knows the variable from DEFINE; the CEP library
			// does not find it in the pattern.
			return errorf(a.Var, "The pattern name specified in AfterMatchSkipStrategy can not be found in the given Pattern")
		}
		return errorf(a.Var, "Unknown pattern '%s'", a.Var.Name)
	}
	m.AfterVar = a.Var.Name
	m.text.after += " " + quoteName(a.Var.Name)
	return nil
}

// checkPattern refuses the patterns StreamExecMatch refuses once
// translated: those that can match no row, and a greedy quantifier last.
func (m *Match) checkPattern(n *ast.MatchRecognize) error {
	empty := true
	for _, v := range m.Vars {
		empty = empty && v.Min == 0
	}
	if empty {
		return errorf(n.Pattern, "Patterns that can produce empty matches are not supported. There must be at least one non-optional state.")
	}
	if last := m.Vars[len(m.Vars)-1]; last.Greedy {
		return errorf(last.at, "Greedy quantifiers are not allowed as the last element of a Pattern yet. Finish your pattern with either a simple variable or reluctant quantifier.")
	}
	return nil
}

// matchBinder binds DEFINE conditions and MEASURES: references to rows of
// pattern variables (A.price, LAST(A.price, 1), price for the row of all
// variables) and aggregates over them become slots, computed from the
// match, that the expression reads as columns.
type matchBinder struct {
	b       *Binder
	in      *scope
	vars    map[string]int
	defined map[string]bool
	rowTime bool
	// measures is set while binding MEASURES (else DEFINE).
	measures bool
	slots    []MatchSlot
	seen     map[string][]int
}

// reset starts the slots of a DEFINE condition, or of all the measures
// (computed once per match).
func (mb *matchBinder) reset(measures bool) {
	mb.measures, mb.slots, mb.seen = measures, nil, map[string][]int{}
}

// bind binds a condition or measure over the slots bound since reset.
func (mb *matchBinder) bind(e ast.Expr) (expr.Expr, error) {
	where := "DEFINE"
	if mb.measures {
		where = "MEASURES"
	}
	return (&exprBinder{b: mb.b, sc: &scope{}, hook: mb.hook, where: where}).bind(e)
}

// slot adds s (once) and returns the column that reads it. Slots are told
// apart by their fields, expressions compared structurally.
func (mb *matchBinder) slot(s MatchSlot) expr.Expr {
	key := fmt.Sprintf("%s|%s|%v|%d|%s|%v", s.Kind, s.Var, s.First, s.Offset, s.Function, s.Type)
	i := slices.IndexFunc(mb.seen[key], func(j int) bool {
		t := mb.slots[j]
		return expr.Equal(s.Value, t.Value) && expr.EqualAll(s.Args, t.Args)
	})
	if i >= 0 {
		i = mb.seen[key][i]
	} else {
		i = len(mb.slots)
		mb.seen[key] = append(mb.seen[key], i)
		mb.slots = append(mb.slots, s)
	}
	return &expr.Column{Index: i, Name: "$s" + strconv.Itoa(i), T: s.Type}
}

// split tells which variable an identifier reads ("" for all rows) and
// the column path within the row.
func (mb *matchBinder) split(id *ast.Ident) (string, *ast.Ident, error) {
	if len(id.Parts) >= 2 {
		q := id.Parts[0]
		if _, ok := mb.vars[q]; ok {
			return q, &ast.Ident{Pos: id.Pos, Parts: id.Parts[1:]}, nil
		}
		if mb.defined[q] {
			return "", nil, errorf(id, "pattern variable '%s' is defined but not used in PATTERN", q)
		}
		if !mb.hasColumn(q) {
			return "", nil, errorf(id, "Table '%s' not found", q)
		}
	}
	return "", id, nil
}

func (mb *matchBinder) hasColumn(name string) bool {
	for _, c := range mb.in.cols {
		if c.name == name {
			return true
		}
	}
	return false
}

// rowExpr binds a column path over the input row.
func (mb *matchBinder) rowExpr(id *ast.Ident) (expr.Expr, error) {
	return (&exprBinder{b: mb.b, sc: mb.in}).bind(id)
}

func (mb *matchBinder) hook(e ast.Expr) (expr.Expr, bool, error) {
	switch n := e.(type) {
	case *ast.Ident:
		v, id, err := mb.split(n)
		if err != nil {
			return nil, true, err
		}
		val, err := mb.rowExpr(id)
		if err != nil {
			return nil, true, err
		}
		return mb.slot(MatchSlot{Kind: "value", Var: v, Value: val, Type: val.Type().Plain().Nullable()}), true, nil
	case *ast.FuncCall:
		out, err := mb.call(n)
		return out, out != nil || err != nil, err
	}
	return nil, false, nil
}

// call binds the functions MATCH_RECOGNIZE gives a meaning of its own; it
// returns nil for the others.
func (mb *matchBinder) call(n *ast.FuncCall) (expr.Expr, error) {
	text := parser.FormatExpr(n)
	switch n.Name {
	case "FIRST", "LAST":
		return mb.navigation(n, text)
	case "PREV", "NEXT":
		if mb.measures {
			return nil, errorf(n, "Cannot use PREV/NEXT in MEASURE '%s'", text)
		}
		off, err := offsetArg(n, 1)
		if err != nil {
			return nil, err
		}
		if off != 0 {
			return nil, errorf(n, "Flink does not support physical offsets within partition.")
		}
		return mb.bind(n.Args[0])
	case "MATCH_ROWTIME":
		if !mb.measures {
			return nil, errorf(n, "MATCH_ROWTIME() is only supported in MEASURES")
		}
		if !mb.rowTime {
			return nil, errorf(n, "MATCH_ROWTIME() needs MATCH_RECOGNIZE ordered by an event-time attribute")
		}
		t := types.Type{Kind: types.Timestamp, Precision: 3, NotNull: true, Attr: types.RowTime}
		if len(n.Args) > 1 {
			return nil, errorf(n, "MATCH_ROWTIME takes zero or one argument")
		}
		if len(n.Args) == 1 {
			id, ok := n.Args[0].(*ast.Ident)
			var a expr.Expr
			var err error
			if ok {
				a, err = mb.rowExpr(id)
			}
			if err != nil {
				return nil, err
			}
			if !ok || a.Type().Attr != types.RowTime {
				return nil, errorf(n.Args[0], "The function MATCH_ROWTIME requires argument to be a row time attribute type")
			}
			t = a.Type().WithNotNull(true)
		}
		return mb.slot(MatchSlot{Kind: "rowtime", Type: t}), nil
	case "MATCH_PROCTIME":
		if !mb.measures {
			return nil, errorf(n, "MATCH_PROCTIME() is only supported in MEASURES")
		}
		if len(n.Args) > 0 {
			return nil, errorf(n, "MATCH_PROCTIME takes no arguments")
		}
		return mb.slot(MatchSlot{Kind: "proctime", Type: types.Type{Kind: types.TimestampLTZ, Precision: 3, NotNull: true, Attr: types.ProcTime}}), nil
	case "CLASSIFIER":
		return nil, errorf(n, "CLASSIFIER() is not supported: Flink's MATCH_RECOGNIZE does not support it yet")
	case "RUNNING", "FINAL":
		return nil, errorf(n, "%s is not supported in MATCH_RECOGNIZE: with ONE ROW PER MATCH every measure is final", n.Name)
	}
	if f, ok := fn.LookupAggregate(n.Name); ok && !f.OverOnly && n.Over == nil {
		return mb.aggregate(n, f, text)
	}
	return nil, nil
}

// offsetArg reads the optional second argument of a navigation function,
// a non-negative integer literal.
func offsetArg(n *ast.FuncCall, def int) (int, error) {
	switch len(n.Args) {
	case 1:
		return def, nil
	case 2:
	default:
		return 0, errorf(n, "%s takes one or two arguments", n.Name)
	}
	lit, ok := n.Args[1].(*ast.Literal)
	if ok && lit.Kind == ast.NumberLit {
		if v, err := strconv.Atoi(lit.Text); err == nil && v >= 0 {
			return v, nil
		}
	}
	return 0, errorf(n.Args[1], "the offset of %s must be a non-negative integer literal", n.Name)
}

// navigation binds FIRST(x [, n]) and LAST(x [, n]): x over one row of a
// single variable.
func (mb *matchBinder) navigation(n *ast.FuncCall, text string) (expr.Expr, error) {
	off, err := offsetArg(n, 0)
	if err != nil {
		return nil, err
	}
	v, val, err := mb.rowScoped(n.Args[0], func(inner *ast.FuncCall) error {
		switch inner.Name {
		case "PREV", "NEXT":
			return errorf(inner, "Cannot nest PREV/NEXT under LAST/FIRST '%s'", text)
		case "FIRST", "LAST":
			return errorf(inner, "Cannot nest FIRST/LAST under LAST/FIRST '%s'", text)
		}
		if _, ok := fn.LookupAggregate(inner.Name); ok {
			return errorf(inner, "Cannot use aggregation in navigation '%s'", text)
		}
		return nil
	}, func(*ast.Ident) error { return errorf(n, "Multiple pattern variables in '%s'", text) })
	if err != nil {
		return nil, err
	}
	return mb.slot(MatchSlot{Kind: "value", Var: v, First: n.Name == "FIRST", Offset: off, Value: val, Type: val.Type().Plain().Nullable()}), nil
}

// aggregate binds an aggregate over the rows of one variable.
func (mb *matchBinder) aggregate(n *ast.FuncCall, f *fn.Aggregate, text string) (expr.Expr, error) {
	if n.Distinct {
		return nil, errorf(n, "DISTINCT aggregations are not supported in MATCH_RECOGNIZE")
	}
	if n.Filter != nil {
		return nil, errorf(n.Filter, "FILTER is not supported for aggregations in MATCH_RECOGNIZE")
	}
	var args []expr.Expr
	var fargs []fn.Arg
	v, found := "", n.Star
	for _, a := range n.Args {
		av, e, err := mb.rowScoped(a, func(inner *ast.FuncCall) error {
			if _, ok := fn.LookupAggregate(inner.Name); ok {
				return errorf(inner, "nested aggregate calls are not allowed")
			}
			switch inner.Name {
			case "FIRST", "LAST", "PREV", "NEXT":
				return errorf(inner, "Cannot use navigation inside the aggregation '%s'", text)
			}
			return nil
		}, func(*ast.Ident) error { return errorf(n, "Aggregation must be applied to a single pattern variable") })
		if err != nil {
			return nil, err
		}
		if mb.reads(a) {
			if found && av != v {
				return nil, errorf(n, "Aggregation must be applied to a single pattern variable")
			}
			v, found = av, true
		}
		args = append(args, e)
		fa := fn.Arg{Type: e.Type()}
		if lit, ok := e.(*expr.Literal); ok {
			c := lit.V
			fa.Const = &c
		}
		fargs = append(fargs, fa)
	}
	if !found {
		return nil, errorf(n, "No pattern variable specified in aggregate")
	}
	t, _, err := f.Bind(fargs, false)
	if err != nil {
		return nil, errorf(n, "%v", err)
	}
	return mb.slot(MatchSlot{Kind: "aggregate", Var: v, Function: f.Name, Args: args, Type: t}), nil
}

// reads reports whether e reads a column.
func (mb *matchBinder) reads(e ast.Expr) bool {
	found := false
	walkAST(e, func(x ast.Expr) bool {
		if _, ok := x.(*ast.Ident); ok {
			found = true
		}
		return !found
	})
	return found
}

// rowScoped binds e over one row of a single pattern variable (all rows
// for unqualified columns) and returns that variable; check refuses the
// calls e may not contain, conflict reports a second variable.
func (mb *matchBinder) rowScoped(e ast.Expr, check func(*ast.FuncCall) error, conflict func(*ast.Ident) error) (string, expr.Expr, error) {
	v, found := "", false
	hook := func(x ast.Expr) (expr.Expr, bool, error) {
		switch n := x.(type) {
		case *ast.Ident:
			iv, id, err := mb.split(n)
			if err != nil {
				return nil, true, err
			}
			if found && iv != v {
				return nil, true, conflict(n)
			}
			v, found = iv, true
			out, err := mb.rowExpr(id)
			return out, true, err
		case *ast.FuncCall:
			if err := check(n); err != nil {
				return nil, true, err
			}
			switch n.Name {
			case "MATCH_ROWTIME", "MATCH_PROCTIME", "CLASSIFIER":
				return nil, true, errorf(n, "%s() is not allowed here", n.Name)
			}
		}
		return nil, false, nil
	}
	out, err := (&exprBinder{b: mb.b, sc: mb.in, hook: hook, where: "MATCH_RECOGNIZE"}).bind(e)
	return v, out, err
}

// ---------------------------------------------------------------- execution plan

// match translates a Match: keyed by the partition columns, or on one
// instance without them, as Flink's StreamExecMatch.
func (t *translator) match(x *Match, in added) (added, error) {
	par, input := keyed(in, x.PartitionKeys)
	index := map[string]int{}
	cfg := &plan.MatchConfig{PartitionKeys: x.PartitionKeys, TimeColumn: x.TimeCol, RowTime: x.RowTime, Order: sortKeys(x.Order),
		After: x.After, AfterVariable: x.AfterVar, Within: x.Within, Measures: matchExprs(x.Measures)}
	for i, v := range x.Vars {
		index[v.Name] = i
		pv := plan.MatchVariable{Name: v.Name, Min: v.Min, Max: v.Max, Greedy: v.Greedy}
		if v.Cond != nil {
			c := matchExprs(*v.Cond)
			pv.Condition = &c
		}
		cfg.Variables = append(cfg.Variables, pv)
	}
	return t.add(like(x, plan.KindMatch, par, []plan.Input{input}, cfg,
		state("partitions", in.schema, x.PartitionKeys, "the rows waiting for the watermark, the partial matches and the matches waiting for earlier ones, "+rowType(in.schema))))
}

func matchExprs(m MatchExprs) plan.MatchExprs {
	out := plan.MatchExprs{Exprs: plan.Exprs(m.Exprs)}
	for _, s := range m.Slots {
		out.Slots = append(out.Slots, plan.MatchSlot{Kind: s.Kind, Variable: s.Var, First: s.First, Offset: s.Offset,
			Value: plan.Expr{E: s.Value}, Function: s.Function, Args: plan.Exprs(s.Args), Type: plan.Type(s.Type)})
	}
	return out
}
