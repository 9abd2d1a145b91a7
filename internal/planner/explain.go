package planner

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/types"
)

// Inputs implements Node.
func (n *Scan) Inputs() []Node { return nil }

// Inputs implements Node.
func (n *Values) Inputs() []Node { return nil }

// Inputs implements Node.
func (n *Calc) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *Expand) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *Normalize) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *GroupAggregate) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *WindowTableFunction) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *WindowAggregate) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *Rank) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *Deduplicate) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *Join) Inputs() []Node { return []Node{n.Left, n.Right} }

// Inputs implements Node.
func (n *Union) Inputs() []Node { return n.Items }

// Inputs implements Node.
func (n *Limit) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *Sort) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *BatchSort) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *Sink) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *Collect) Inputs() []Node { return []Node{n.Input} }

// Mode implements Node.
func (n *Scan) Mode() Mode {
	switch {
	case n.Upsert:
		return connector.Upsert
	case n.Changelog:
		return connector.Retract
	}
	return connector.InsertOnly
}

// Mode implements Node.
func (n *Values) Mode() Mode { return connector.InsertOnly }

// Mode implements Node.
func (n *Calc) Mode() Mode { return n.Input.Mode() }

// Mode implements Node.
func (n *Expand) Mode() Mode { return n.Input.Mode() }

// Mode implements Node.
func (n *Normalize) Mode() Mode { return connector.Retract }

// Mode implements Node: updates, and deletes only when the input retracts
// (a group's count can then drop to zero), as Flink infers it.
func (n *GroupAggregate) Mode() Mode { return updatesOf(n.Input) }

// updatesOf is the mode of an operator that updates its results: without
// deletes over an append-only input.
func updatesOf(in Node) Mode {
	if in.Mode() == connector.InsertOnly {
		return connector.Update
	}
	return connector.Retract
}

// Mode implements Node.
func (n *WindowTableFunction) Mode() Mode { return n.Input.Mode() }

// Mode implements Node.
func (n *WindowAggregate) Mode() Mode { return connector.InsertOnly }

// Mode implements Node.
func (n *Rank) Mode() Mode {
	switch {
	case n.Window != nil:
		return connector.InsertOnly
	case n.unfilteredRanking():
		return n.Input.Mode() // an OVER aggregation once finalized
	case n.Start == 1 && n.End == 1 && !n.OutputRankNumber:
		return updatesOf(n.Input) // a Top-1 replaces its row by an update
	}
	return connector.Retract
}

// Mode implements Node.
func (n *Deduplicate) Mode() Mode {
	if n.Window != nil || (!n.KeepLast && !n.RowTime) {
		return connector.InsertOnly
	}
	return connector.Update
}

// Mode implements Node.
func (n *Join) Mode() Mode {
	if n.Kind == InnerJoin && n.Left.Mode() == connector.InsertOnly && n.Right.Mode() == connector.InsertOnly {
		return connector.InsertOnly
	}
	return connector.Retract
}

// Mode implements Node.
func (n *IntervalJoin) Mode() Mode { return connector.InsertOnly }

// Mode implements Node.
func (n *Union) Mode() Mode {
	m := connector.InsertOnly
	for _, in := range n.Items {
		if in.Mode() != connector.InsertOnly {
			m = connector.Retract
		}
	}
	return m
}

// Mode implements Node.
func (n *Limit) Mode() Mode {
	if len(n.Order) == 0 && n.Input.Mode() == connector.InsertOnly {
		return connector.InsertOnly
	}
	return connector.Retract
}

// Mode implements Node.
func (n *Sort) Mode() Mode { return connector.InsertOnly }

// Mode implements Node.
func (n *BatchSort) Mode() Mode { return connector.InsertOnly }

// Mode implements Node.
func (n *Sink) Mode() Mode { return n.Input.Mode() }

// Mode implements Node.
func (n *Collect) Mode() Mode { return n.Input.Mode() }

func names(s types.Schema, cols []int) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = s[c].Name
	}
	return strings.Join(out, ", ")
}

// Describe implements Node.
func (n *Scan) Describe() string {
	id := n.Table.ID()
	return fmt.Sprintf("TableSourceScan(table=[[%s, %s, %s%s]], fields=[%s])", id.Catalog, id.Database, id.Object, n.projectText(), strings.Join(n.schema.Names(), ", "))
}

// Describe implements Node.
func (n *Values) Describe() string {
	return fmt.Sprintf("Values(tuples=[%d rows], values=[%s])", len(n.Rows), strings.Join(n.schema.Names(), ", "))
}

// Describe implements Node.
func (n *Calc) Describe() string { return n.describe(prefix) }

func (n *Calc) describe(f exprFormat) string {
	in := n.Input.Schema()
	items := make([]string, len(n.Projects))
	for i, p := range n.Projects {
		// A column (or a value shown as one, such as a sink's NOT NULL
		// check) under its own name is shown without AS.
		items[i] = exprText(p, in, f)
		if items[i] != n.schema[i].Name {
			items[i] += " AS " + n.schema[i].Name
		}
	}
	s := "Calc(select=[" + strings.Join(items, ", ") + "]"
	if n.Filter != nil {
		s += ", where=[" + exprText(n.Filter, in, f) + "]"
	}
	return s + ")"
}

// Describe implements Node, as Flink prints an Expand: one list per
// projection, each item a column under its own name or a value AS the
// column.
func (n *Expand) Describe() string { return n.describe(prefix) }

func (n *Expand) describe(f exprFormat) string {
	in := n.Input.Schema()
	lists := make([]string, len(n.Projects))
	for i, ps := range n.Projects {
		items := make([]string, len(ps))
		for j, p := range ps {
			items[j] = exprText(p, in, f)
			if items[j] != n.schema[j].Name {
				items[j] += " AS " + n.schema[j].Name
			}
		}
		lists[i] = "{" + strings.Join(items, ", ") + "}"
	}
	return "Expand(projects=[" + strings.Join(lists, ", ") + "])"
}

// exprFormat is how EXPLAIN writes expressions: Flink writes its
// physical plan in prefix form, >(a, 10), and its execution plan in infix
// form, (a > 10) (RelExplainUtil.preferExpressionFormat: Infix for the
// RelDescriptionWriterImpl that describes ExecNodes).
type exprFormat bool

const (
	prefix exprFormat = false
	infix  exprFormat = true
)

// describer is a node whose description holds expressions, written in
// either format. Every node embedding another that is a describer (the
// joins embedding Join) is one itself, so no description is promoted.
type describer interface {
	describe(f exprFormat) string
}

// execDescription is n's line in the execution plan: its description with
// expressions in infix form.
func execDescription(n Node) string {
	if d, ok := n.(describer); ok {
		return d.describe(infix)
	}
	return n.Describe()
}

// exprText renders e in format f naming the columns of in.
func exprText(e expr.Expr, in types.Schema, f exprFormat) string {
	e = expr.Remap(e, func(c *expr.Column) expr.Expr {
		return &expr.Column{Index: c.Index, Name: in[c.Index].Name, T: c.T}
	})
	if f == infix {
		return expr.Infix(e)
	}
	return e.String()
}

// Describe implements Node.
func (n *Normalize) Describe() string {
	return fmt.Sprintf("ChangelogNormalize(key=[%s])", names(n.Input.Schema(), n.Keys))
}

func aggSelect(in, out types.Schema, keys []int, aggs []AggCall) string {
	items := make([]string, 0, len(keys)+len(aggs))
	for _, k := range keys {
		items = append(items, in[k].Name)
	}
	for i, a := range aggs {
		items = append(items, a.String(in)+" AS "+out[len(keys)+i].Name)
	}
	return strings.Join(items, ", ")
}

// Describe implements Node.
func (n *GroupAggregate) Describe() string {
	in := n.Input.Schema()
	if len(n.Keys) == 0 {
		return fmt.Sprintf("GroupAggregate(select=[%s])", aggSelect(in, n.schema, n.Keys, n.Aggs))
	}
	return fmt.Sprintf("GroupAggregate(groupBy=[%s], select=[%s])", names(in, n.Keys), aggSelect(in, n.schema, n.Keys, n.Aggs))
}

// Describe implements Node.
func (n *WindowTableFunction) Describe() string {
	return fmt.Sprintf("WindowTableFunction(window=[%s])", n.Window.String(n.Input.Schema()))
}

// Describe implements Node.
func (n *WindowAggregate) Describe() string {
	in := n.Input.Schema()
	s := "WindowAggregate("
	if len(n.Keys) > 0 {
		s += "groupBy=[" + names(in, n.Keys) + "], "
	}
	timeProp := "rowtime"
	if n.Window.ProcTime {
		timeProp = "proctime"
	}
	return s + fmt.Sprintf("window=[%s], select=[%s, start('w$) AS window_start, end('w$) AS window_end, %s('w$) AS window_time])", n.Window.String(in), aggSelect(in, n.schema, n.Keys, n.Aggs), timeProp)
}

func orderText(in types.Schema, keys []SortKey) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		dir := "ASC"
		if k.Desc {
			dir = "DESC"
		}
		out[i] = in[k.Col].Name + " " + dir
	}
	return strings.Join(out, ", ")
}

// Describe implements Node.
func (n *Rank) Describe() string {
	in := n.Input.Schema()
	kind := "Rank"
	if n.Window != nil {
		kind = "WindowRank"
	}
	strategy := ""
	if n.Window == nil {
		// Flink's RankProcessStrategy: an append-only input keeps only the
		// top rows, an updating one keeps every row to promote on retraction.
		strategy = "strategy=[RetractStrategy], "
		if n.Input.Mode() == connector.InsertOnly {
			strategy = "strategy=[AppendFastStrategy], "
		}
	}
	rankRange := fmt.Sprintf("rankStart=%d, rankEnd=%d", n.Start, n.End)
	if n.VariableEnd {
		rankRange = "rankEnd=" + in[n.EndCol].Name // VariableRankRange.toString
	}
	return fmt.Sprintf("%s(%srankType=[%s], rankRange=[%s], partitionBy=[%s], orderBy=[%s], select=[%s%s])",
		kind, strategy, n.Function, rankRange, names(in, n.PartitionKeys), orderText(in, n.Order), strings.Join(in.Names(), ", "), map[bool]string{true: ", w0$o0", false: ""}[n.OutputRankNumber])
}

// Describe implements Node.
func (n *Deduplicate) Describe() string {
	in := n.Input.Schema()
	keep := "FirstRow"
	if n.KeepLast {
		keep = "LastRow"
	}
	kind := "Deduplicate"
	if n.Window != nil {
		kind = "WindowDeduplicate"
	}
	order := "PROCTIME"
	if n.RowTime {
		order = "ROWTIME"
	}
	return fmt.Sprintf("%s(keep=[%s], key=[%s], order=[%s])", kind, keep, names(in, n.Keys), order)
}

func (n *Join) joinText(f exprFormat) string {
	conds := make([]string, 0, len(n.LeftKeys)+1)
	nl := len(n.Left.Schema())
	for i := range n.LeftKeys {
		conds = append(conds, equalsText(n.schema[n.LeftKeys[i]].Name, n.schema[nl+n.RightKeys[i]].Name, f))
	}
	if n.Cond != nil {
		for _, c := range conjuncts(n.Cond) {
			conds = append(conds, exprText(c, n.schema, f))
		}
	}
	return fmt.Sprintf("joinType=[%s], where=[%s], select=[%s]", n.Kind, andText(conds, f), strings.Join(n.schema.Names(), ", "))
}

// equalsText is the equality of columns a and b in format f.
func equalsText(a, b string, f exprFormat) string {
	if f == infix {
		return "(" + a + " = " + b + ")"
	}
	return "=(" + a + ", " + b + ")"
}

// andText is the conjunction of conds in format f.
func andText(conds []string, f exprFormat) string {
	switch {
	case len(conds) < 2:
		return strings.Join(conds, "")
	case f == infix:
		return "(" + strings.Join(conds, " AND ") + ")"
	}
	return "AND(" + strings.Join(conds, ", ") + ")"
}

// Describe implements Node.
func (n *Join) Describe() string { return n.describe(prefix) }

func (n *Join) describe(f exprFormat) string {
	return "Join(" + n.joinText(f) + n.ttl.hintText() + ")"
}

// Describe implements Node.
func (n *IntervalJoin) Describe() string { return n.describe(prefix) }

func (n *IntervalJoin) describe(f exprFormat) string {
	return fmt.Sprintf("IntervalJoin(%s, windowBounds=[isRowTime=%t, leftLowerBound=%d, leftUpperBound=%d, leftTimeIndex=%d, rightTimeIndex=%d])",
		n.joinText(f), !n.ProcTime, -n.Upper/1e6, -n.Lower/1e6, n.LeftTime, n.RightTime)
}

// Describe implements Node.
func (n *Union) Describe() string {
	return "Union(all=[true], union=[" + strings.Join(n.schema.Names(), ", ") + "])"
}

// Describe implements Node.
func (n *Limit) Describe() string {
	// Flink prints a missing FETCH as "unlimited" (RelExplainUtil.fetchToString).
	fetch := "unlimited"
	if n.N >= 0 {
		fetch = strconv.FormatInt(n.N, 10)
	}
	if len(n.Order) > 0 {
		return fmt.Sprintf("SortLimit(orderBy=[%s], offset=[%d], fetch=[%s])", orderText(n.Input.Schema(), n.Order), n.Offset, fetch)
	}
	return fmt.Sprintf("Limit(offset=[%d], fetch=[%s])", n.Offset, fetch)
}

// Describe implements Node.
func (n *Sort) Describe() string {
	return "TemporalSort(orderBy=[" + orderText(n.Input.Schema(), n.Keys) + "])"
}

// Describe implements Node: as Flink's batch Sort and SortLimit, or, for
// the final result of an updating query, what it materializes.
func (n *BatchSort) Describe() string {
	switch {
	case len(n.Order) == 0 && n.Offset == 0 && n.N < 0:
		return "BatchMaterialize"
	case n.Offset == 0 && n.N < 0:
		return "Sort(orderBy=[" + orderText(n.Input.Schema(), n.Order) + "])"
	}
	fetch := "unlimited"
	if n.N >= 0 {
		fetch = strconv.FormatInt(n.N, 10)
	}
	return fmt.Sprintf("SortLimit(orderBy=[%s], offset=[%d], fetch=[%s], global=[true])", orderText(n.Input.Schema(), n.Order), n.Offset, fetch)
}

// Describe implements Node.
func (n *Sink) Describe() string {
	return fmt.Sprintf("Sink(table=[%s], fields=[%s])", n.Table.ID().Summary(), strings.Join(n.Input.Schema().Names(), ", "))
}

// Describe implements Node.
func (n *Collect) Describe() string {
	return fmt.Sprintf("Collect(fields=[%s])", strings.Join(n.schema.Names(), ", "))
}

// Section is one titled part of EXPLAIN's text.
type Section struct {
	// Title is the section's name, printed as "== Title ==".
	Title string
	// Body is the section's text.
	Body string
}

// Explain joins sections as Flink's EXPLAIN prints them
// (StreamPlanner.explain): each title on a line of its own, then its
// body, and a blank line before the next title.
func Explain(sections ...Section) string {
	var b strings.Builder
	for i, s := range sections {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("== " + s.Title + " ==\n" + s.Body)
	}
	return b.String()
}

// PhysicalPlan is the "Optimized Physical Plan" section of one or more
// roots (a statement set's sinks, a blank line between their trees): an
// indented tree, one node per line, each with its changelog mode when
// changelogMode is set (EXPLAIN CHANGELOG_MODE), as Flink prints it. The
// exchanges the translation into an execution plan puts between nodes are
// lines of their own, as in OptimizedExecutionPlan. A query's tree ends
// below its Collect, as Flink explains a query without the sink that
// collects its result.
func PhysicalPlan(changelogMode bool, roots ...Node) Section {
	t := &translator{p: plan.New(), routes: map[Node][]plan.Input{}}
	for _, r := range roots {
		if _, err := t.node(r); err != nil {
			// EXPLAIN reports the error with the execution plan; the
			// nodes translated so far have their exchanges.
			break
		}
	}
	shapes := explainShapes(roots...)
	// shapeOf is what EXPLAIN prints for n (explainShapes).
	shapeOf := func(n Node) []Node {
		if s, ok := shapes[n]; ok {
			return s
		}
		return []Node{n}
	}
	// shown is the line of n, or of the first input under it that is
	// printed.
	shown := func(n Node) physicalLine {
		for len(shapeOf(n)) == 0 {
			n = n.Inputs()[0]
		}
		return physicalLine{node: n}
	}
	inputs := func(l physicalLine) []physicalLine {
		if l.exchange != nil {
			return []physicalLine{shown(l.node)}
		}
		if l.part < len(shapeOf(l.node))-1 {
			return []physicalLine{{node: l.node, part: l.part + 1}}
		}
		ins := l.node.Inputs()
		routes := t.routes[l.node]
		out := make([]physicalLine, len(ins))
		for i, in := range ins {
			out[i] = shown(in)
			if len(routes) == len(ins) && routes[i].Exchange != plan.Forward {
				out[i] = physicalLine{node: in, exchange: &routes[i]}
			}
		}
		return out
	}
	line := func(l physicalLine) string {
		var d string
		if l.exchange != nil {
			d = exchangeText(*l.exchange, l.node.Schema().Names())
		} else {
			d = shapeOf(l.node)[l.part].Describe()
		}
		if !changelogMode {
			return d
		}
		mode := "changelogMode=[" + l.node.Mode().String() + "]"
		if _, ok := l.node.(*Sink); ok && l.exchange == nil {
			mode = "changelogMode=[NONE]"
		}
		return strings.TrimSuffix(d, ")") + ", " + mode + ")"
	}
	var b strings.Builder
	for i, n := range roots {
		if i > 0 {
			b.WriteString("\n")
		}
		if c, ok := n.(*Collect); ok {
			n = c.Input
		}
		writeTree(&b, shown(n), inputs, line, "", "")
	}
	return Section{Title: "Optimized Physical Plan", Body: b.String()}
}

// physicalLine is a line of the physical plan's text: a node (the part of
// its shape, explainShapes), or the exchange in front of it (with the
// node's changelog mode).
type physicalLine struct {
	node     Node
	part     int
	exchange *plan.Input
}

// exchangeText is an exchange as Flink prints it, naming the keys of a
// hash exchange among the columns of its input.
func exchangeText(in plan.Input, columns []string) string {
	if in.Exchange != plan.Hash {
		return "Exchange(distribution=[" + string(in.Exchange) + "])"
	}
	keys := make([]string, len(in.Keys))
	for i, k := range in.Keys {
		keys[i] = columns[k]
	}
	return "Exchange(distribution=[hash[" + strings.Join(keys, ", ") + "]])"
}

// OptimizedExecutionPlan is the "Optimized Execution Plan" section of p,
// Flink's text of its ExecNode graph (ExecNodePlanDumper): every node's
// description (expressions in infix form), an Exchange before each input
// that is hashed, Exchange(distribution=[hash[k]]), or gathered on one
// instance, Exchange(distribution=[single]); forward inputs have none.
// Each tree ends at a node nothing reads (a sink), or below a query's
// Collect as in PhysicalPlan, a blank line between trees. A node (or an
// exchange) several consumers read, shared by sub-plan reuse, is written
// once with "(reuse_id=[N])" after it, and where it is read again as
// "Reused(reference_id=[N])", as Flink's ExecNodePlanDumper writes a
// reused node, numbered in the order they are written.
func OptimizedExecutionPlan(p *plan.Plan) Section {
	nodes := make(map[string]*plan.Node, len(p.Nodes))
	read := map[string]bool{}
	for _, n := range p.Nodes {
		nodes[n.ID] = n
		for _, in := range n.Inputs {
			read[in.Node] = true
		}
	}
	// shown is the line of n, or of the first input under it that is
	// printed (a node without a description is not).
	shown := func(n *plan.Node) execLine {
		for n.Description == "" && len(n.Inputs) > 0 {
			n = nodes[n.Inputs[0].Node]
		}
		return execLine{node: n}
	}
	inputs := func(l execLine) []execLine {
		if l.reference != nil && *l.reference > 0 {
			return nil
		}
		if l.exchange != nil {
			s := shown(l.node)
			s.reference = new(int)
			return []execLine{s}
		}
		if l.part < strings.Count(l.node.Description, "\n") {
			return []execLine{{node: l.node, part: l.part + 1, reference: new(int)}}
		}
		out := make([]execLine, len(l.node.Inputs))
		for i, in := range l.node.Inputs {
			out[i] = shown(nodes[in.Node])
			out[i].reference = new(int)
			if in.Exchange != plan.Forward {
				out[i] = execLine{node: nodes[in.Node], exchange: &l.node.Inputs[i], reference: new(int)}
			}
		}
		return out
	}
	var trees []execLine
	for _, n := range p.Nodes {
		if read[n.ID] {
			continue
		}
		if n.Kind == plan.KindCollect {
			n = nodes[n.Inputs[0].Node]
		}
		top := shown(n)
		top.reference = new(int)
		trees = append(trees, top)
	}
	// Count the lines' uses, not below a use seen before, as they are
	// written; then number those used more than once as they are written.
	uses := map[string]int{}
	var count func(l execLine)
	count = func(l execLine) {
		uses[l.key()]++
		if uses[l.key()] == 1 {
			for _, in := range inputs(l) {
				count(in)
			}
		}
	}
	for _, l := range trees {
		count(l)
	}
	ids := map[string]int{}
	line := func(l execLine) string {
		k := l.key()
		if uses[k] < 2 {
			return l.String()
		}
		if id, ok := ids[k]; ok {
			*l.reference = id
			return fmt.Sprintf("Reused(reference_id=[%d])", id)
		}
		ids[k] = len(ids) + 1
		return fmt.Sprintf("%s(reuse_id=[%d])", l.String(), ids[k])
	}
	var b strings.Builder
	for i, l := range trees {
		if i > 0 {
			b.WriteString("\n")
		}
		writeTree(&b, l, inputs, line, "", "")
	}
	return Section{Title: "Optimized Execution Plan", Body: b.String()}
}

// execLine is a line of the execution plan's text: a node (one line of
// its description, which holds a line per operator Flink's plan has for
// it, top first), or the exchange in front of it. reference is set to the
// reuse ID the line refers to when it is written as a reused node's.
type execLine struct {
	node      *plan.Node
	part      int
	exchange  *plan.Input
	reference *int
}

// key identifies what the line shows: a line of its node, or the exchange
// in front of it.
func (l execLine) key() string {
	if l.exchange == nil {
		return fmt.Sprintf("%s#%d", l.node.ID, l.part)
	}
	return fmt.Sprintf("%s %s %v", l.node.ID, l.exchange.Exchange, l.exchange.Keys)
}

// String is the line's text.
func (l execLine) String() string {
	if l.exchange == nil {
		return strings.Split(l.node.Description, "\n")[l.part]
	}
	columns := make([]string, len(l.node.Schema))
	for i, f := range l.node.Schema {
		columns[i] = f.Name
	}
	return exchangeText(*l.exchange, columns)
}

// writeTree writes n and its inputs, one line each, after the prefixes
// first (n's line) and rest (its inputs' lines), as Flink draws plans
// (RelTreeWriterImpl): ":- " before every input but the last, which has
// "+- ", and ":  " continuing the lines of an input that is not the last.
func writeTree[T any](b *strings.Builder, n T, inputs func(T) []T, line func(T) string, first, rest string) {
	b.WriteString(first + line(n) + "\n")
	ins := inputs(n)
	for i, in := range ins {
		if i < len(ins)-1 {
			writeTree(b, in, inputs, line, rest+":- ", rest+":  ")
		} else {
			writeTree(b, in, inputs, line, rest+"+- ", rest+"   ")
		}
	}
}
