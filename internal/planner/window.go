package planner

import (
	"slices"
	"strings"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// windowParams lists each window TVF's parameters in positional order.
var windowParams = map[string][]string{
	"TUMBLE":   {"DATA", "TIMECOL", "SIZE", "OFFSET"},
	"HOP":      {"DATA", "TIMECOL", "SLIDE", "SIZE", "OFFSET"},
	"CUMULATE": {"DATA", "TIMECOL", "STEP", "SIZE", "OFFSET"},
	"SESSION":  {"DATA", "TIMECOL", "GAP"},
}

// windowTime is the type of window_time: a time attribute of the time
// column's kind (a processing-time one over processing time).
func windowTime(w Window) types.Type {
	t := types.TimestampType(3).WithNotNull(true)
	if w.LocalTime {
		t = types.TimestampLTZType(3).WithNotNull(true)
	}
	t.Attr = types.RowTime
	if w.ProcTime {
		t.Attr = types.ProcTime
	}
	return t
}

// windowTVF plans TABLE(TUMBLE|HOP|CUMULATE|SESSION(TABLE t, DESCRIPTOR(ts), ...)).
func (b *Binder) windowTVF(ref *ast.TableFunctionRef) (*relation, error) {
	call := ref.Call
	params, ok := windowParams[call.Name]
	if !ok {
		return nil, errorf(call, "table function %s is not supported; window table functions are TUMBLE, HOP, CUMULATE and SESSION", call.Name)
	}
	args := map[string]ast.Expr{}
	for i, a := range call.Args {
		name := ""
		if i < len(call.ArgNames) && call.ArgNames[i] != "" {
			name = strings.ToUpper(call.ArgNames[i])
		} else if i < len(params) {
			name = params[i]
		}
		if name == "" {
			return nil, errorf(a, "too many arguments for %s", call.Name)
		}
		args[name] = a
	}
	data, ok := args["DATA"].(*ast.TableArg)
	if !ok {
		return nil, errorf(call, "%s expects TABLE name as its first argument", call.Name)
	}
	rel, err := b.tableName(&ast.TableName{Pos: data.Pos, Name: data.Name})
	if err != nil {
		return nil, err
	}
	desc, ok := args["TIMECOL"].(*ast.Descriptor)
	if !ok || len(desc.Columns) != 1 {
		return nil, errorf(call, "%s expects DESCRIPTOR(time_column) as its second argument", call.Name)
	}
	timeCol, err := rel.sc.resolve(&ast.Ident{Pos: desc.Pos, Parts: []string{desc.Columns[0]}})
	if err != nil {
		return nil, err
	}
	tt := rel.sc.cols[timeCol].typ
	if tt.Attr == types.NoTimeAttr {
		return nil, errorf(desc, "The window function requires the timecol is a time attribute type, but is %s.", tt.Plain())
	}
	w := Window{TimeCol: timeCol, LocalTime: tt.Kind == types.TimestampLTZ, ProcTime: tt.Attr == types.ProcTime}
	for _, k := range data.PartitionBy {
		i, err := rel.sc.resolve(&ast.Ident{Pos: data.Pos, Parts: []string{k}})
		if err != nil {
			return nil, err
		}
		w.PartitionKeys = append(w.PartitionKeys, i)
	}
	if len(w.PartitionKeys) > 0 && call.Name != "SESSION" {
		return nil, errorf(data, "PARTITION BY is only allowed in SESSION windows")
	}
	dur := func(name string, required bool) (int64, error) {
		a, ok := args[name]
		if !ok {
			if required {
				return 0, errorf(call, "%s requires the %s argument", call.Name, name)
			}
			return 0, nil
		}
		e, err := (&exprBinder{b: b, sc: &scope{}}).bind(a)
		if err != nil {
			return 0, err
		}
		lit, ok := e.(*expr.Literal)
		if !ok || lit.T.Kind != types.IntervalDayTime {
			return 0, errorf(a, "%s of %s must be a day-time interval literal such as INTERVAL '10' MINUTES", name, call.Name)
		}
		return lit.V.I * 1e6, nil
	}
	switch call.Name {
	case "SESSION":
		w.Kind = Session
		if w.Gap, err = dur("GAP", true); err != nil {
			return nil, err
		}
		if w.Gap <= 0 {
			return nil, errorf(call, "SESSION requires a positive gap")
		}
	case "TUMBLE":
		w.Kind = Tumble
		if w.Size, err = dur("SIZE", true); err != nil {
			return nil, err
		}
	case "HOP", "CUMULATE":
		w.Kind = Hop
		if call.Name == "CUMULATE" {
			w.Kind = Cumulate
		}
		step := "SLIDE"
		if w.Kind == Cumulate {
			step = "STEP"
		}
		if w.Slide, err = dur(step, true); err != nil {
			return nil, err
		}
		if w.Size, err = dur("SIZE", true); err != nil {
			return nil, err
		}
		if w.Slide <= 0 || w.Size%w.Slide != 0 {
			return nil, errorf(call, "%s requires the size to be an integral multiple of the %s, got size %s and %s %s", call.Name, strings.ToLower(step), duration(w.Size), strings.ToLower(step), duration(w.Slide))
		}
	}
	if w.Size <= 0 && w.Kind != Session {
		return nil, errorf(call, "%s requires a positive window size", call.Name)
	}
	if w.Offset, err = dur("OFFSET", false); err != nil {
		return nil, err
	}
	in := rel.node.Schema()
	schema := make(types.Schema, 0, len(in)+3)
	for _, f := range in {
		schema = append(schema, types.Field{Name: f.Name, Type: f.Type.Plain()})
	}
	ts := types.TimestampType(3).WithNotNull(true)
	wt := windowTime(w)
	schema = append(schema, types.Field{Name: "window_start", Type: ts}, types.Field{Name: "window_end", Type: ts}, types.Field{Name: "window_time", Type: wt})
	node := &WindowTableFunction{base: base{schema: schema}, Input: rel.node, Window: w}
	return &relation{node: node, sc: newScope("", schema)}, nil
}

// windowPropType is the type of a window aggregation's window_start (0),
// window_end (1) or window_time (2): window_time stays a time attribute,
// as Flink's RelTimeIndicatorConverter keeps the window_time a window
// aggregation groups by ("for window aggregate we should reserve the time
// attribute of window_time column", gatherIndicesToMaterialize), where it
// materializes any other time attribute an aggregation groups by.
func windowPropType(w Window, pos int) types.Type {
	if pos == 2 {
		return windowTime(w)
	}
	return types.TimestampType(3).WithNotNull(true)
}

// windowColumns finds the window table function under a relation that is
// either the function itself or a projection and filter over it (a WHERE,
// a subquery selecting some columns) that reads the window columns only by
// passing them on, as Flink's FlinkRelMdWindowProperties follows them. It
// returns the function and, for each column of the relation that is one
// of its window columns, that column's position among window_start,
// window_end and window_time; or a nil function.
func windowColumns(n Node) (*WindowTableFunction, map[int]int) {
	if tvf, ok := n.(*WindowTableFunction); ok {
		n0 := len(tvf.Input.Schema())
		return tvf, map[int]int{n0: 0, n0 + 1: 1, n0 + 2: 2}
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
	if c.Filter != nil && len(findTimeUse([]expr.Expr{c.Filter}, n0)) > 0 {
		return nil, nil
	}
	cols := map[int]int{}
	for i, p := range c.Projects {
		if col, plain := p.(*expr.Column); plain {
			if col.Index >= n0 {
				cols[i] = col.Index - n0
			}
		} else if len(findTimeUse([]expr.Expr{p}, n0)) > 0 {
			return nil, nil
		}
	}
	return tvf, cols
}

// windowGrouping is what makes an aggregation a window aggregation: the
// projection under it (its input, or the input of the Expand of its
// grouping sets) groups by the start and end of one window.
type windowGrouping struct {
	window Window
	// calc is the projection under the aggregation.
	calc *Calc
	// source is the input of the window aggregation's own projection: the
	// window table function's input, or calc's input for a group window.
	source Node
	// time reads the time attribute from source, named and typed as field.
	time  expr.Expr
	field types.Field
	// props gives, for each column of calc, its position among
	// window_start, window_end and window_time when the aggregation groups
	// by it, -1 else.
	props []int
}

// groupsByWindow tells whether an aggregation with the key columns keys
// over in (its input, under the Expand of grouping sets) is a window
// aggregation, as Flink's WindowUtil.groupingContainsWindowStartEnd
// decides: it groups by window_start and window_end of a window table
// function under a projection that reads no window column but the keys
// (a window column in another expression has no value before the window
// is assigned), or by a legacy group window (the binder groups by its
// start, end and time, legacyWindow.keys).
func groupsByWindow(in Node, keys []int) *windowGrouping {
	c, ok := in.(*Calc)
	if !ok {
		tvf, isTVF := in.(*WindowTableFunction)
		if !isTVF {
			return nil
		}
		c = &Calc{base: base{schema: tvf.Schema()}, Input: tvf, Projects: identity(tvf.Schema())}
	}
	g := &windowGrouping{calc: c, props: make([]int, len(c.Projects))}
	for i := range g.props {
		g.props[i] = -1
	}
	found := [3]bool{}
	if !g.groupWindow(keys, &found) {
		tvf, cols := windowColumns(c)
		if tvf == nil {
			return nil
		}
		for i, pos := range cols {
			if !slices.Contains(keys, i) {
				return nil // a window column read as a value
			}
			g.props[i], found[pos] = pos, true
		}
		g.window, g.source = tvf.Window, tvf.Input
		g.field = tvf.Input.Schema()[tvf.Window.TimeCol]
		g.time = &expr.Column{Index: tvf.Window.TimeCol, Name: g.field.Name, T: g.field.Type}
	}
	if !found[0] || !found[1] {
		return nil
	}
	return g
}

// groupWindow finds the keys that are a legacy group window's properties,
// filling in g; it tells whether there are any.
func (g *windowGrouping) groupWindow(keys []int, found *[3]bool) bool {
	some := false
	for _, k := range keys {
		if k >= len(g.calc.Projects) {
			continue // the expand id
		}
		call, ok := g.calc.Projects[k].(*expr.Call)
		if !ok {
			continue
		}
		w, pos, ok := groupWindowProperty(call)
		if !ok {
			continue
		}
		some = true
		g.window, g.props[k], found[pos] = w, pos, true
		if pos == 2 {
			g.time, g.field = call.Args[0], g.calc.Schema()[k]
		}
	}
	g.source = g.calc.Input
	return some && g.time != nil
}

// groupWindowProperties are the names of a legacy group window's
// properties by position, the time one over event and processing time.
var groupWindowProperties = [...]string{"START", "END", "ROWTIME", "PROCTIME"}

// groupWindowProperty reads a legacy group window property call the
// binder groups by (legacyWindow.keys): TUMBLE_START(time, size), ...
func groupWindowProperty(call *expr.Call) (Window, int, bool) {
	name, suffix, ok := strings.Cut(call.Name, "_")
	if !ok || len(call.Args) == 0 {
		return Window{}, 0, false
	}
	pos := slices.Index(groupWindowProperties[:], suffix)
	var durs []int64
	for _, a := range call.Args[1:] {
		lit, ok := a.(*expr.Literal)
		if !ok || lit.T.Kind != types.IntervalDayTime {
			return Window{}, 0, false
		}
		durs = append(durs, lit.V.I*1e6)
	}
	w, ok := groupWindowSpec(name, call.Args[0].Type(), durs)
	if pos < 0 || !ok {
		return Window{}, 0, false
	}
	return w, min(pos, 2), true
}

// groupWindowSpec is the window of a legacy group window TUMBLE(time,
// size), HOP(time, slide, size) or SESSION(time, gap) over a time
// attribute of type t, its durations in nanoseconds.
func groupWindowSpec(name string, t types.Type, durs []int64) (Window, bool) {
	want := map[string]int{"TUMBLE": 1, "HOP": 2, "SESSION": 1}[name]
	if want == 0 || len(durs) != want {
		return Window{}, false
	}
	w := Window{LocalTime: t.Kind == types.TimestampLTZ, ProcTime: t.Attr == types.ProcTime}
	switch name {
	case "TUMBLE":
		w.Kind, w.Size = Tumble, durs[0]
	case "HOP":
		// Any size and slide, as Flink's legacy group window operator
		// (SlidingWindowAssigner) takes them; only the window table
		// function wants a multiple.
		w.Kind, w.Slide, w.Size = Hop, durs[0], durs[1]
	case "SESSION":
		w.Kind, w.Gap = Session, durs[0]
	}
	return w, true
}

// windowAggregate is the rule WindowAggregate (Flink's
// StreamPhysicalWindowAggregateRule): an aggregation that groups by a
// window (groupsByWindow) aggregates window by window. The window
// aggregation reads the rows the windows are assigned to (the window
// table function's input: it assigns them itself), groups by the other
// keys and emits the window's start, end and time after its aggregates;
// a projection above it gives the columns the aggregation's order, as
// Flink's rule does (buildCalcProjection), which the rule CalcMerge then
// merges into the projection above.
func windowAggregate(n Node) Node {
	g, ok := n.(*GroupAggregate)
	if !ok {
		return n
	}
	x, _ := g.Input.(*Expand)
	in := g.Input
	if x != nil {
		in = x.Input
	}
	wg := groupsByWindow(in, g.Keys)
	if wg == nil || slices.ContainsFunc(g.Aggs, func(a AggCall) bool { return wg.readsWindow(a) }) {
		return n
	}
	// The aggregation's projection without the window columns it groups
	// by, and with the time attribute last.
	calcSchema := wg.calc.Schema()
	moved := make([]int, len(calcSchema)+1) // column of in -> column of the new input
	moved[len(calcSchema)] = -1             // the expand id, if any: below
	var pre []expr.Expr
	var preSchema types.Schema
	for i, p := range wg.calc.Projects {
		moved[i] = -1
		if wg.props[i] < 0 {
			moved[i] = len(pre)
			pre = append(pre, p)
			preSchema = append(preSchema, calcSchema[i])
		}
	}
	w := wg.window
	w.TimeCol = len(pre)
	pre = append(pre, wg.time)
	preSchema = append(preSchema, wg.field)
	input := newCalc(wg.source, pre, wg.calc.Filter, preSchema)
	if x != nil {
		moved[len(calcSchema)] = len(pre) // the expand id
		input = dropWindowColumns(x, input, moved, w.TimeCol)
	}
	wa := &WindowAggregate{Input: input, Window: w}
	var out types.Schema
	perm := make([]int, 0, len(g.Schema())) // column of g -> column of wa
	gs := g.Schema()
	for i, k := range g.Keys {
		if moved[k] >= 0 {
			perm = append(perm, len(wa.Keys))
			wa.Keys = append(wa.Keys, moved[k])
			out = append(out, gs[i])
		}
	}
	for _, a := range g.Aggs {
		a.Args = slices.Clone(a.Args)
		for j, c := range a.Args {
			a.Args[j] = moved[c]
		}
		if a.Filter >= 0 {
			a.Filter = moved[a.Filter]
		}
		wa.Aggs = append(wa.Aggs, a)
	}
	out = append(out, gs[len(g.Keys):]...)
	props := len(out)
	out = append(out, types.Field{Name: "window_start", Type: windowPropType(w, 0)}, types.Field{Name: "window_end", Type: windowPropType(w, 1)}, types.Field{Name: "window_time", Type: windowPropType(w, 2)})
	wa.schema = out
	projects := make([]expr.Expr, len(gs))
	for i, k := range g.Keys {
		col := props + wg.prop(k)
		if moved[k] >= 0 {
			col, perm = perm[0], perm[1:]
		}
		projects[i] = &expr.Column{Index: col, Name: out[col].Name, T: out[col].Type}
	}
	for j := range g.Aggs {
		col := len(wa.Keys) + j
		projects[len(g.Keys)+j] = &expr.Column{Index: col, Name: out[col].Name, T: out[col].Type}
	}
	return newCalc(wa, projects, nil, gs)
}

// readsWindow tells whether the aggregate call a reads a window column,
// which has no value before the window aggregation assigns it.
func (g *windowGrouping) readsWindow(a AggCall) bool {
	return slices.ContainsFunc(a.Args, func(c int) bool { return g.prop(c) >= 0 }) || g.prop(a.Filter) >= 0
}

// prop is the window property position of column k of the aggregation's
// projection, -1 for none (the expand id and no column among them).
func (g *windowGrouping) prop(k int) int {
	if k < 0 || k >= len(g.props) {
		return -1
	}
	return g.props[k]
}

// dropWindowColumns rebuilds the Expand x of grouping sets over in, the
// window aggregation's projection: x's columns that moved (moved gives
// their new position, -1 for the window columns it drops) and the time
// attribute, column timeCol of in, before the expand id.
func dropWindowColumns(x *Expand, in Node, moved []int, timeCol int) Node {
	xs := x.Schema()
	schema := make(types.Schema, timeCol+2)
	for i, f := range xs {
		if moved[i] >= 0 {
			schema[moved[i]] = f
		}
	}
	schema[timeCol] = in.Schema()[timeCol]
	out := &Expand{base: base{schema: schema}, Input: in}
	for _, ps := range x.Projects {
		nps := make([]expr.Expr, len(schema))
		for i, p := range ps {
			if moved[i] < 0 {
				continue
			}
			if c, ok := p.(*expr.Column); ok {
				p = &expr.Column{Index: moved[c.Index], Name: c.Name, T: c.T}
			}
			nps[moved[i]] = p
		}
		tc := schema[timeCol]
		nps[timeCol] = &expr.Column{Index: timeCol, Name: tc.Name, T: tc.Type}
		out.Projects = append(out.Projects, nps)
	}
	return out
}

// calcMerge is the rule CalcMerge (Flink's FlinkCalcMergeRule, which
// merges the projection StreamPhysicalWindowAggregateRule leaves into the
// one above): a projection over the projection the rule WindowAggregate
// leaves over a window aggregation is one, as the binder merges the
// projections it stacks. A merged projection that passes its input's
// columns on unchanged is none.
func calcMerge(n Node) Node {
	c, ok := n.(*Calc)
	if !ok {
		return n
	}
	in, ok := c.Input.(*Calc)
	if !ok {
		return n
	}
	if _, ok := in.Input.(*WindowAggregate); !ok {
		return n
	}
	m := newCalc(in, c.Projects, c.Filter, c.Schema())
	if mc, ok := m.(*Calc); ok {
		return newCalc(mc.Input, mc.Projects, mc.Filter, mc.Schema())
	}
	return m
}
