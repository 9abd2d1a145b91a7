package planner

import (
	"strings"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// aggregate plans GROUP BY and aggregate calls. It returns the aggregated
// relation and a hook that maps group expressions and aggregate calls of
// the select list and HAVING onto its columns. Grouping by window_start and
// window_end of a window table function becomes a window aggregation.
//
// names gives the output name of aggregate calls that are select items
// (their alias, or Flink's EXPR$n); others are named $f<n>.
func (b *Binder) aggregate(rel *relation, groupBy []ast.Expr, calls []*ast.FuncCall, names map[*ast.FuncCall]string) (*relation, func(ast.Expr) (expr.Expr, bool, error), error) {
	in := &exprBinder{b: b, sc: rel.sc, where: "GROUP BY"}
	sets, err := expandGroupBy(groupBy)
	if err != nil {
		return nil, nil, err
	}
	groupBy = sets.exprs
	tvf, over := windowInput(rel.node)
	var win *Window
	winCols := map[int]int{} // input column -> position among window_start/end/time
	groupWindow, err := b.groupWindow(rel, groupBy)
	if err != nil {
		return nil, nil, err
	}
	if groupWindow != nil {
		tvf, over, win = nil, nil, &groupWindow.window
	}
	if tvf != nil {
		n := len(tvf.Input.Schema())
		w := tvf.Window
		win = &w
		for _, g := range groupBy {
			if id, ok := g.(*ast.Ident); ok {
				if i, err := rel.sc.resolve(id); err == nil && through(over, i) >= n {
					winCols[i] = through(over, i) - n
				}
			}
		}
		hasStart, hasEnd := false, false
		for _, pos := range winCols {
			hasStart, hasEnd = hasStart || pos == 0, hasEnd || pos == 1
		}
		if !hasStart || !hasEnd {
			win = nil
		}
	}
	var pre []expr.Expr
	var preSchema types.Schema
	// add appends e to the pre-aggregation projection, named after the
	// column it reads or $f<position> as Flink names computed fields.
	add := func(e expr.Expr, name string) int {
		if c, ok := e.(*expr.Column); ok && name == "" {
			name = rel.sc.cols[c.Index].name
		}
		if name == "" {
			name = "$f" + itoa(len(pre))
		}
		pre = append(pre, e)
		preSchema = append(preSchema, types.Field{Name: name, Type: e.Type()})
		return len(pre) - 1
	}
	type group struct {
		ast  ast.Expr
		col  int // position in the output
		name string
		qual string
		set  int // position among the grouping expressions
	}
	var groups []group
	var keys []int
	var winGroups []group
	// window columns (and a legacy group window) are in every grouping set
	inAll := func(i int, g ast.Expr) error {
		if !sets.inAll(i) {
			return errorf(g, "every grouping set of a window aggregation must contain the window's columns (window_start and window_end, or the group window)")
		}
		return nil
	}
	for i, g := range groupBy {
		if groupWindow != nil && g == ast.Expr(groupWindow.call) {
			if err := inAll(i, g); err != nil {
				return nil, nil, err
			}
			continue
		}
		e, err := in.bind(g)
		if err != nil {
			return nil, nil, err
		}
		if _, isAgg := e.(*expr.Call); isAgg && len(findAggregates(g)) > 0 {
			return nil, nil, errorf(g, "Aggregate functions are not allowed in GROUP BY")
		}
		name, qual := "$f"+itoa(i), ""
		if c, ok := e.(*expr.Column); ok {
			name, qual = rel.sc.cols[c.Index].name, rel.sc.cols[c.Index].qual
			if win != nil {
				if pos, isWin := winCols[c.Index]; isWin {
					if err := inAll(i, g); err != nil {
						return nil, nil, err
					}
					winGroups = append(winGroups, group{ast: g, col: pos, name: name, qual: qual, set: i})
					continue
				}
			}
		}
		groups = append(groups, group{ast: g, col: len(keys), name: name, qual: qual, set: i})
		keys = append(keys, add(e, name))
	}
	sets.keys = make([]int, len(groups))
	for i, g := range groups {
		sets.keys[i] = g.set
	}
	aggs := make([]AggCall, len(calls))
	for j, c := range calls {
		a, err := b.aggCall(in, c, add)
		if err != nil {
			return nil, nil, err
		}
		if len(groupBy) > 0 && c.Filter == nil {
			argTypes := make([]types.Type, len(a.Args))
			for k, col := range a.Args {
				argTypes[k] = preSchema[col].Type
			}
			a.Type = a.Type.WithNotNull(a.Type.NotNull || fn.GroupedNotNull(a.Name, argTypes, a.Type))
		}
		if win != nil && (win.Kind == Hop || win.Kind == Session) && jsonAggregate(c.Name) == "JSON_ARRAYAGG" {
			// Flink's documentation: "not supported in ... unbounded
			// session windows, or hop windows" (JsonArrayAggFunction
			// cannot merge accumulators).
			return nil, nil, errorf(c, "JSON_ARRAYAGG is not supported in HOP and SESSION windows")
		}
		aggs[j] = a
	}
	var out types.Schema
	for _, g := range groups {
		t := preSchema[keys[g.col]].Type.Plain()
		if !sets.inAll(g.set) {
			t = t.Nullable()
		}
		out = append(out, types.Field{Name: g.name, Type: t})
	}
	eCol := -1 // the expand id's column, with grouping sets
	if sets.expanded() {
		eCol = len(out)
		out = append(out, types.Field{Name: "$e", Type: types.BigIntType.WithNotNull(true)})
	}
	aggBase := len(out)
	for j := range aggs {
		name, ok := names[calls[j]]
		if !ok {
			name = "$f" + itoa(len(out))
		}
		out = append(out, types.Field{Name: name, Type: aggs[j].Type})
	}
	var node Node
	if win != nil {
		// The pre-aggregation projection reads the window function's
		// columns; it applies to the function's input, which has them all
		// but the window columns.
		var filter expr.Expr
		if over != nil {
			for i, e := range pre {
				pre[i] = expr.Remap(e, func(c *expr.Column) expr.Expr { return over.Projects[c.Index] })
			}
			filter = over.Filter
		}
		source := rel.node // the rows the windows are assigned to
		if tvf != nil {
			source = tvf.Input
			if len(findTimeUse(pre, len(source.Schema()))) > 0 {
				return nil, nil, errorf(groupBy[0], "window columns can only be grouped by, not used in expressions of a window aggregation")
			}
		}
		w := *win
		tc := source.Schema()[win.TimeCol]
		w.TimeCol = add(&expr.Column{Index: win.TimeCol, Name: tc.Name, T: tc.Type}, tc.Name)
		ts := types.TimestampType(3).WithNotNull(true)
		wt := windowTime(w)
		out = append(out, types.Field{Name: "window_start", Type: ts}, types.Field{Name: "window_end", Type: ts}, types.Field{Name: "window_time", Type: wt})
		input, keyCols := sets.expand(newCalc(source, pre, filter, preSchema), keys)
		node = &WindowAggregate{base: base{schema: out}, Input: input, Window: w, Keys: keyCols, Aggs: aggs}
	} else {
		input, keyCols := sets.expand(newCalc(rel.node, pre, nil, preSchema), keys)
		node = &GroupAggregate{base: base{schema: out}, Input: input, Keys: keyCols, Aggs: aggs}
	}
	// The scope hides aggregate results behind internal names: they are
	// reached through the hook, never by a name a query could write.
	sc := &scope{}
	for i, f := range out {
		name := f.Name
		if i >= len(groups) {
			name = "$agg" + itoa(i)
		}
		sc.cols = append(sc.cols, scopeCol{name: name, typ: f.Type})
	}
	for _, g := range groups {
		sc.cols[g.col].qual = g.qual
	}
	winBase := aggBase + len(aggs)
	hook := func(e ast.Expr) (expr.Expr, bool, error) {
		if f, ok := e.(*ast.FuncCall); ok && groupWindow != nil {
			if pos, isProp := groupWindow.property(f); isProp {
				col := winBase + pos
				return &expr.Column{Index: col, Name: out[col].Name, T: out[col].Type}, true, nil
			}
			if f == groupWindow.call || f.Name == groupWindow.call.Name && sameExpr(f, groupWindow.call) {
				return nil, false, errorf(f, "the group window %s can only be grouped by; select its bounds with %s_START, %s_END or %s_ROWTIME", f.Name, f.Name, f.Name, f.Name)
			}
		}
		if f, ok := e.(*ast.FuncCall); ok && f.Over == nil && isGroupingFunction(f.Name) {
			out, err := sets.groupingFunction(in, f, eCol)
			return out, err == nil, err
		}
		if f, ok := e.(*ast.FuncCall); ok {
			for j, c := range calls {
				if c == f {
					col := aggBase + j
					return &expr.Column{Index: col, Name: out[col].Name, T: out[col].Type}, true, nil
				}
			}
		}
		for _, g := range groups {
			if sameExpr(e, g.ast) {
				return &expr.Column{Index: g.col, Name: g.name, T: out[g.col].Type}, true, nil
			}
		}
		for _, g := range winGroups {
			if sameExpr(e, g.ast) {
				col := winBase + g.col
				return &expr.Column{Index: col, Name: out[col].Name, T: out[col].Type}, true, nil
			}
		}
		if id, ok := e.(*ast.Ident); ok {
			if win != nil && id.Parts[len(id.Parts)-1] == "window_time" {
				col := winBase + 2
				return &expr.Column{Index: col, Name: "window_time", T: out[col].Type}, true, nil
			}
			if _, err := rel.sc.resolve(id); err == nil {
				return nil, false, errorf(id, "Expression '%s' is not being grouped", exprTextAST(id))
			}
		}
		return nil, false, nil
	}
	return &relation{node: node, sc: sc}, hook, nil
}

// legacyWindow is a group window of Flink's legacy syntax, GROUP BY
// TUMBLE(ts, size) | HOP(ts, slide, size) | SESSION(ts, gap), whose bounds
// the select list reads with TUMBLE_START(...), TUMBLE_END, TUMBLE_ROWTIME
// (HOP_*, SESSION_*).
type legacyWindow struct {
	call   *ast.FuncCall
	window Window
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
		for _, a := range f.Args[1:] {
			e, err := (&exprBinder{b: b, sc: &scope{}}).bind(a)
			if err != nil {
				return nil, err
			}
			lit, ok := e.(*expr.Literal)
			if !ok || lit.T.Kind != types.IntervalDayTime || lit.V.I <= 0 {
				return nil, errorf(a, "%s expects positive day-time interval literals such as INTERVAL '1' HOUR", f.Name)
			}
			durs = append(durs, lit.V.I*1e6)
		}
		w := Window{TimeCol: col.Index, LocalTime: col.T.Kind == types.TimestampLTZ, ProcTime: col.T.Attr == types.ProcTime}
		switch f.Name {
		case "TUMBLE":
			w.Kind, w.Size = Tumble, durs[0]
		case "HOP":
			// Any size and slide, as Flink's legacy group window
			// operator (SlidingWindowAssigner) takes them; only the
			// window table function wants a multiple.
			w.Kind, w.Slide, w.Size = Hop, durs[0], durs[1]
		case "SESSION":
			w.Kind, w.Gap = Session, durs[0]
		}
		found = &legacyWindow{call: f, window: w}
	}
	return found, nil
}

// windowInput finds the window table function under a relation that is
// either the function itself or a projection and filter over it (a WHERE,
// a subquery selecting some columns) that reads the window columns only by
// passing them on. It returns the function and that Calc (nil for none),
// or a nil function.
func windowInput(n Node) (*WindowTableFunction, *Calc) {
	if tvf, ok := n.(*WindowTableFunction); ok {
		return tvf, nil
	}
	c, ok := n.(*Calc)
	if !ok {
		return nil, nil
	}
	tvf, ok := c.Input.(*WindowTableFunction)
	if !ok {
		return nil, nil
	}
	n0 := len(tvf.Input.Schema())
	computed := []expr.Expr{}
	if c.Filter != nil {
		computed = append(computed, c.Filter)
	}
	for _, p := range c.Projects {
		if _, plain := p.(*expr.Column); !plain {
			computed = append(computed, p)
		}
	}
	if len(findTimeUse(computed, n0)) > 0 {
		return nil, nil
	}
	return tvf, c
}

// through maps column i of a relation to the column of the window table
// function under it that it passes on (see windowInput), or -1.
func through(over *Calc, i int) int {
	if over == nil {
		return i
	}
	if c, ok := over.Projects[i].(*expr.Column); ok {
		return c.Index
	}
	return -1
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
