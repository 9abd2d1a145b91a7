package planner

import (
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
