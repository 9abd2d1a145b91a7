package planner

import (
	"slices"
	"strings"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// aggregate plans GROUP BY and aggregate calls: an aggregation over a
// projection of the group keys and the calls' arguments. It returns the
// aggregated relation and a hook that maps group expressions and aggregate
// calls of the select list and HAVING onto its columns.
//
// An aggregation that groups by window_start and window_end of a window
// table function, or by a legacy group window (GROUP BY TUMBLE(ts, ...),
// grouped by its start, end and time), is planned the same way; the rule
// WindowAggregate makes it a window aggregation (Flink's SqlToRelConverter
// likewise builds a LogicalAggregate that StreamPhysicalWindowAggregateRule
// converts). The binder only types such an aggregation's window_time as a
// time attribute, as Flink's RelTimeIndicatorConverter does, and raises
// the errors that point into the statement (aggregation.window).
//
// names gives the output name of aggregate calls that are select items
// (their alias, or Flink's EXPR$n); others are named $f<n>.
func (b *Binder) aggregate(rel *relation, groupBy []ast.Expr, calls []*ast.FuncCall, names map[*ast.FuncCall]string) (*relation, func(ast.Expr) (expr.Expr, bool, error), error) {
	sets, err := expandGroupBy(groupBy)
	if err != nil {
		return nil, nil, err
	}
	a := &aggregation{rel: rel, in: &exprBinder{b: b, sc: rel.sc, where: "GROUP BY"}, sets: sets, calls: calls}
	if a.groupWindow, err = b.groupWindow(rel, sets.exprs); err != nil {
		return nil, nil, err
	}
	for i, g := range sets.exprs {
		if a.groupWindow != nil && g == ast.Expr(a.groupWindow.call) {
			for pos, k := range a.groupWindow.keys() {
				name := windowColumnNames[pos]
				if pos == 2 {
					name = a.groupWindow.time.Name // the time attribute's, which the rule reads
				}
				a.group(aggGroup{name: windowColumnNames[pos], set: i, win: pos}, k, name)
			}
			a.extra += 2
			continue
		}
		e, err := a.in.bind(g)
		if err != nil {
			return nil, nil, err
		}
		if _, isAgg := e.(*expr.Call); isAgg && len(findAggregates(g)) > 0 {
			return nil, nil, errorf(g, "Aggregate functions are not allowed in GROUP BY")
		}
		if err := wantOrderable(g, e.Type()); err != nil {
			return nil, nil, err
		}
		if j := a.sameKey(e); j >= 0 {
			// Calcite's AggConverter.addGroupExpr looks a grouping
			// expression up among those before it: GROUP BY a, a groups
			// by one key (group=[{0}]), which both name.
			a.groups[j].same = append(a.groups[j].same, g)
			continue
		}
		name, qual := "$f"+itoa(i), ""
		if c, ok := e.(*expr.Column); ok {
			name, qual = rel.sc.cols[c.Index].name, rel.sc.cols[c.Index].qual
		}
		a.group(aggGroup{ast: g, name: name, qual: qual, set: i, win: -1}, e, name)
	}
	// Calcite's AggConverter computes each distinct argument and each
	// distinct call once (COUNT(*) in the select list and in HAVING is one
	// aggregate); an argument reuses a key's column too, unless grouping
	// sets null the keys out for some rows.
	shared := 0
	if sets.expanded() {
		shared = len(a.pre)
	}
	arg := func(e expr.Expr, name string) int {
		if i := slices.IndexFunc(a.pre[shared:], func(p expr.Expr) bool { return expr.Equal(p, e) }); i >= 0 {
			return shared + i
		}
		return a.add(e, name)
	}
	a.callAt = make([]int, len(calls))
	for j, c := range calls {
		call, err := b.aggCall(a.in, c, arg)
		if err != nil {
			return nil, nil, err
		}
		if len(sets.exprs) > 0 && c.Filter == nil {
			argTypes := make([]types.Type, len(call.Args))
			for k, col := range call.Args {
				argTypes[k] = a.preSchema[col].Type
			}
			call.Type = call.Type.WithNotNull(call.Type.NotNull || fn.GroupedNotNull(call.Name, argTypes, call.Type))
		}
		a.callAt[j] = slices.IndexFunc(a.aggs, call.same)
		if a.callAt[j] < 0 {
			a.callAt[j] = len(a.aggs)
			a.aggs = append(a.aggs, call)
			a.first = append(a.first, c)
		}
	}
	if err := a.window(); err != nil {
		return nil, nil, err
	}
	a.output(names)
	input, keyCols := sets.expand(newCalc(rel.node, a.pre, nil, a.preSchema), a.keys)
	node := &GroupAggregate{base: base{schema: a.out}, Input: input, Keys: keyCols, Aggs: a.aggs}
	// The scope hides aggregate results and window columns behind internal
	// names: they are reached through the hook, never by a name a query
	// could write.
	sc := &scope{}
	for i, f := range a.out {
		col := scopeCol{name: "$agg" + itoa(i), typ: f.Type}
		if i < len(a.groups) && a.groups[i].win < 0 {
			col.name, col.qual = f.Name, a.groups[i].qual
		}
		sc.cols = append(sc.cols, col)
	}
	return &relation{node: node, sc: sc}, a.hook, nil
}

// aggregation is an aggregation as the binder builds it.
type aggregation struct {
	rel   *relation
	in    *exprBinder // binds over rel
	sets  *groupingSets
	calls []*ast.FuncCall
	// pre is the projection under the aggregation: its keys and the
	// arguments of its calls.
	pre       []expr.Expr
	preSchema types.Schema
	// extra counts the columns of a group window beyond the one Calcite's
	// projection gives it: Flink's names of computed fields and aggregates
	// do not count them.
	extra int
	// groups are the keys, keys their columns of pre.
	groups []aggGroup
	keys   []int
	aggs   []AggCall
	// callAt maps each of calls to its aggregate in aggs, where equal calls
	// share one; first is the first of calls for each aggregate.
	callAt []int
	first  []*ast.FuncCall
	// groupWindow is the legacy group window grouped by, if any; wg the
	// window grouped by, if any.
	groupWindow *legacyWindow
	wg          *windowGrouping
	// out is the output: keys (the expand id after them), then aggregates
	// from aggBase on.
	out     types.Schema
	eCol    int
	aggBase int
}

// aggGroup is one key of an aggregation.
type aggGroup struct {
	ast  ast.Expr // nil for a group window's properties
	col  int      // position in the output
	name string
	qual string
	set  int // position among the grouping expressions
	win  int // position among the window's start, end and time, -1 for none
	// same are the grouping expressions after ast that are the same key.
	same []ast.Expr
}

// sameKey is the group whose key is e, bound, or -1. Only one grouping
// set is looked in: grouping sets give each of their expressions its own
// key (expandGroupBy gives one to each written differently).
func (a *aggregation) sameKey(e expr.Expr) int {
	if a.sets.expanded() {
		return -1
	}
	return slices.IndexFunc(a.groups, func(g aggGroup) bool { return g.ast != nil && expr.Equal(a.pre[a.keys[g.col]], e) })
}

// names tells whether the group is grouped by e, as written.
func (g *aggGroup) names(e ast.Expr) bool {
	return g.ast != nil && (sameExpr(e, g.ast) || slices.ContainsFunc(g.same, func(x ast.Expr) bool { return sameExpr(e, x) }))
}

// add appends e to the pre-aggregation projection, named after the column
// it reads or $f<position> as Flink names computed fields.
func (a *aggregation) add(e expr.Expr, name string) int {
	if c, ok := e.(*expr.Column); ok && name == "" {
		name = a.rel.sc.cols[c.Index].name
	}
	if name == "" {
		name = "$f" + itoa(len(a.pre)-a.extra)
	}
	a.pre = append(a.pre, e)
	a.preSchema = append(a.preSchema, types.Field{Name: name, Type: e.Type()})
	return len(a.pre) - 1
}

// group adds the key g, e in the pre-aggregation projection.
func (a *aggregation) group(g aggGroup, e expr.Expr, name string) {
	g.col = len(a.keys)
	a.groups = append(a.groups, g)
	a.keys = append(a.keys, a.add(e, name))
}

// window finds whether the aggregation groups by a window, with the rule
// WindowAggregate's own test (groupsByWindow), and marks the keys that are
// the window's columns. It refuses what a window aggregation cannot
// compute: a window column in another expression than a key, a grouping
// set without the window, JSON_ARRAYAGG in HOP and SESSION windows.
func (a *aggregation) window() error {
	if a.wg = groupsByWindow(newCalc(a.rel.node, a.pre, nil, a.preSchema), a.keys); a.wg == nil {
		if _, cols := windowColumns(a.rel.node); cols != nil {
			found := [3]bool{}
			for _, k := range a.keys {
				if c, ok := a.pre[k].(*expr.Column); ok {
					if pos, isWin := cols[c.Index]; isWin {
						found[pos] = true
					}
				}
			}
			if found[0] && found[1] {
				return errorf(a.sets.exprs[0], "window columns can only be grouped by, not used in expressions of a window aggregation")
			}
		}
		return nil
	}
	for i := range a.groups {
		g := &a.groups[i]
		if g.win = a.wg.prop(a.keys[g.col]); g.win >= 0 && !a.sets.inAll(g.set) {
			return errorf(a.sets.exprs[g.set], "every grouping set of a window aggregation must contain the window's columns (window_start and window_end, or the group window)")
		}
	}
	for _, c := range a.calls {
		if w := a.wg.window; (w.Kind == Hop || w.Kind == Session) && jsonAggregate(c.Name) == "JSON_ARRAYAGG" {
			// Flink's documentation: "not supported in ... unbounded
			// session windows, or hop windows" (JsonArrayAggFunction
			// cannot merge accumulators).
			return errorf(c, "JSON_ARRAYAGG is not supported in HOP and SESSION windows")
		}
	}
	return nil
}

// output lays out the aggregation's output columns; names gives the names
// of aggregate calls that are select items.
func (a *aggregation) output(names map[*ast.FuncCall]string) {
	a.sets.keys = make([]int, len(a.groups))
	for i, g := range a.groups {
		a.sets.keys[i] = g.set
		t := a.preSchema[a.keys[g.col]].Type.Plain()
		if g.win >= 0 {
			t = windowPropType(a.wg.window, g.win)
		} else if !a.sets.inAll(g.set) {
			t = t.Nullable()
		}
		a.out = append(a.out, types.Field{Name: g.name, Type: t})
	}
	a.eCol = -1
	if a.sets.expanded() {
		a.eCol = len(a.out)
		a.out = append(a.out, types.Field{Name: "$e", Type: types.BigIntType.WithNotNull(true)})
	}
	a.aggBase = len(a.out)
	for j := range a.aggs {
		name, ok := names[a.first[j]]
		if !ok {
			name = "$f" + itoa(len(a.out)-a.extra)
		}
		a.out = append(a.out, types.Field{Name: name, Type: a.aggs[j].Type})
	}
}

// column reads output column col.
func (a *aggregation) column(col int) *expr.Column {
	return &expr.Column{Index: col, Name: a.out[col].Name, T: a.out[col].Type}
}

// hook maps a group expression, aggregate call, group window property or
// grouping function of the select list or HAVING onto the output.
func (a *aggregation) hook(e ast.Expr) (expr.Expr, bool, error) {
	if f, ok := e.(*ast.FuncCall); ok && a.groupWindow != nil {
		if pos, isProp := a.groupWindow.property(f); isProp {
			return a.column(a.groups[slices.IndexFunc(a.groups, func(g aggGroup) bool { return g.win == pos })].col), true, nil
		}
		if call := a.groupWindow.call; f == call || f.Name == call.Name && sameExpr(f, call) {
			return nil, false, errorf(f, "the group window %s can only be grouped by; select its bounds with %s_START, %s_END or %s_ROWTIME", f.Name, f.Name, f.Name, f.Name)
		}
	}
	if f, ok := e.(*ast.FuncCall); ok && f.Over == nil && isGroupingFunction(f.Name) {
		out, err := a.sets.groupingFunction(a.in, f, a.eCol)
		return out, err == nil, err
	}
	if f, ok := e.(*ast.FuncCall); ok {
		if j := slices.Index(a.calls, f); j >= 0 {
			return a.column(a.aggBase + a.callAt[j]), true, nil
		}
	}
	for _, g := range a.groups {
		if g.names(e) {
			return a.column(g.col), true, nil
		}
	}
	if id, ok := e.(*ast.Ident); ok {
		if col, err := a.rel.sc.resolve(id); err == nil {
			// A column grouped by as written otherwise (k and t.k): Calcite
			// compares the validator's fully qualified names.
			for _, g := range a.groups {
				if c, ok := a.pre[a.keys[g.col]].(*expr.Column); ok && g.ast != nil && c.Index == col {
					return a.column(g.col), true, nil
				}
			}
			return nil, false, errorf(id, "Expression '%s' is not being grouped", exprTextAST(id))
		}
	}
	return nil, false, nil
}

// legacyWindow is a group window of Flink's legacy syntax, GROUP BY
// TUMBLE(ts, size) | HOP(ts, slide, size) | SESSION(ts, gap), whose bounds
// the select list reads with TUMBLE_START(...), TUMBLE_END, TUMBLE_ROWTIME
// (HOP_*, SESSION_*).
type legacyWindow struct {
	call   *ast.FuncCall
	window Window
	// time reads the time attribute; durations are the interval literals.
	time      *expr.Column
	durations []expr.Expr
}

// windowColumnNames are the names of a window's start, end and time.
var windowColumnNames = [3]string{"window_start", "window_end", "window_time"}

// keys are what the aggregation groups by for the group window (which
// groups no finer than the window itself): its start, end and time
// (TUMBLE_START(ts, size), ..., which groupWindowProperty reads back).
func (g *legacyWindow) keys() []expr.Expr {
	args := append([]expr.Expr{g.time}, g.durations...)
	names := groupWindowProperties[:3]
	if g.window.ProcTime {
		names = []string{"START", "END", "PROCTIME"}
	}
	var out []expr.Expr
	for pos, name := range names {
		t := windowPropType(g.window, pos)
		if pos == 2 {
			t = g.time.T
		}
		out = append(out, &expr.Call{Name: g.call.Name + "_" + name, Args: args, T: t})
	}
	return out
}

// property maps a window property call of this window (same arguments) to
// its position among window_start, window_end and window_time.
func (g *legacyWindow) property(f *ast.FuncCall) (int, bool) {
	prefix, suffix, ok := strings.Cut(f.Name, "_")
	if !ok || prefix != g.call.Name || len(f.Args) != len(g.call.Args) {
		return 0, false
	}
	for i := range f.Args {
		if !sameExpr(f.Args[i], g.call.Args[i]) {
			return 0, false
		}
	}
	// The time property is TUMBLE_ROWTIME over event time and
	// TUMBLE_PROCTIME over processing time.
	timeProp := "ROWTIME"
	if g.window.ProcTime {
		timeProp = "PROCTIME"
	}
	pos, known := map[string]int{"START": 0, "END": 1, timeProp: 2}[suffix]
	return pos, known
}

// groupWindow finds a legacy group window among the GROUP BY expressions.
func (b *Binder) groupWindow(rel *relation, groupBy []ast.Expr) (*legacyWindow, error) {
	var found *legacyWindow
	for _, g := range groupBy {
		f, ok := g.(*ast.FuncCall)
		if !ok || (f.Name != "TUMBLE" && f.Name != "HOP" && f.Name != "SESSION") {
			continue
		}
		if found != nil {
			return nil, errorf(f, "only one group window is allowed per GROUP BY")
		}
		want := map[string]int{"TUMBLE": 2, "HOP": 3, "SESSION": 2}[f.Name]
		if len(f.Args) != want {
			return nil, errorf(f, "%s expects %d arguments: the time attribute and the interval(s)", f.Name, want)
		}
		t, err := (&exprBinder{b: b, sc: rel.sc, where: "GROUP BY"}).bind(f.Args[0])
		if err != nil {
			return nil, err
		}
		col, ok := t.(*expr.Column)
		if !ok || col.T.Attr == types.NoTimeAttr {
			return nil, errorf(f.Args[0], "Window can only be defined over a time attribute column, but is %s", t.Type().Plain())
		}
		var durs []int64
		var lits []expr.Expr
		for _, a := range f.Args[1:] {
			e, err := (&exprBinder{b: b, sc: &scope{}}).bind(a)
			if err != nil {
				return nil, err
			}
			lit, ok := e.(*expr.Literal)
			if !ok || lit.T.Kind != types.IntervalDayTime || lit.V.I <= 0 {
				return nil, errorf(a, "%s expects positive day-time interval literals such as INTERVAL '1' HOUR", f.Name)
			}
			durs, lits = append(durs, lit.V.I*1e6), append(lits, lit)
		}
		tc := rel.node.Schema()[col.Index]
		time := &expr.Column{Index: col.Index, Name: tc.Name, T: tc.Type}
		w, _ := groupWindowSpec(f.Name, time.T, durs)
		found = &legacyWindow{call: f, window: w, time: time, durations: lits}
	}
	return found, nil
}

// jsonAggregate returns the name JSON_OBJECTAGG or JSON_ARRAYAGG for the
// functions of those aggregates (named after their ON NULL behavior), or
// "".
func jsonAggregate(name string) string {
	for _, j := range []string{"JSON_OBJECTAGG", "JSON_ARRAYAGG"} {
		if strings.HasPrefix(name, j) {
			return j
		}
	}
	return ""
}

// aggCall binds one aggregate call, adding its arguments to the
// pre-aggregation projection through add.
func (b *Binder) aggCall(in *exprBinder, c *ast.FuncCall, add func(expr.Expr, string) int) (AggCall, error) {
	f, _ := fn.LookupAggregate(c.Name)
	a := AggCall{Name: f.Name, Distinct: c.Distinct, Filter: -1}
	if f.OverOnly && c.Over == nil {
		return a, errorf(c, "OVER clause is necessary for window functions")
	}
	var fargs []fn.Arg
	for _, arg := range c.Args {
		if len(findAggregates(arg)) > 0 {
			return a, errorf(arg, "nested aggregate calls are not allowed")
		}
		e, err := in.bind(arg)
		if err != nil {
			return a, err
		}
		a.Args = append(a.Args, add(e, ""))
		fa := fn.Arg{Type: e.Type()}
		if lit, ok := e.(*expr.Literal); ok {
			v := lit.V
			fa.Const = &v
			if a.Consts == nil {
				a.Consts = make([]*types.Value, len(c.Args))
			}
			a.Consts[len(fargs)] = &v
		}
		fargs = append(fargs, fa)
	}
	if c.Filter != nil {
		e, err := in.bind(c.Filter)
		if err != nil {
			return a, err
		}
		if err := wantBoolean(c.Filter, e); err != nil {
			return a, err
		}
		if !e.Type().NotNull {
			// as Calcite's AggConverter, which projects IS TRUE of a
			// nullable FILTER condition
			if e, err = in.call(c.Filter, "IS TRUE", []expr.Expr{e}, nil); err != nil {
				return a, err
			}
		}
		a.Filter = add(e, "")
	}
	t, _, err := f.Bind(fargs, c.Distinct)
	if err != nil {
		return a, errorf(c, "%v", err)
	}
	a.Type = t
	return a, nil
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// findTimeUse lists the columns >= n that es read.
func findTimeUse(es []expr.Expr, n int) []int {
	var out []int
	for _, e := range es {
		expr.Walk(e, func(x expr.Expr) {
			if c, ok := x.(*expr.Column); ok && c.Index >= n {
				out = append(out, c.Index)
			}
		})
	}
	return out
}
