package planner

import (
	"fmt"
	"strings"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// OverAggregate appends to each row aggregates over the rows of its
// partition within a frame ending at the row, ordered by a rowtime or a
// processing-time attribute (Flink's OVER aggregation).
type OverAggregate struct {
	base
	Input         Node
	PartitionKeys []int
	TimeCol       int
	// ProcTime is set when TimeCol is a processing-time attribute: rows
	// are ordered by their arrival, not by the watermark.
	ProcTime bool
	Aggs     []AggCall
	// Rows selects a ROWS frame, otherwise RANGE; Preceding is its lower
	// bound in rows or nanoseconds, -1 for UNBOUNDED PRECEDING.
	Rows      bool
	Preceding int64
	ttl       stateTTL
}

// Inputs implements Node.
func (n *OverAggregate) Inputs() []Node { return []Node{n.Input} }

// Mode implements Node.
func (n *OverAggregate) Mode() Mode { return n.Input.Mode() }

// Describe implements Node.
func (n *OverAggregate) Describe() string {
	in := n.Input.Schema()
	unit, lower := "ROWS", "UNBOUNDED PRECEDING"
	if !n.Rows {
		unit = "RANGE"
	}
	switch {
	case n.Preceding >= 0 && n.Rows:
		lower = fmt.Sprintf("%d PRECEDING", n.Preceding)
	case n.Preceding >= 0:
		lower = fmt.Sprintf("%d PRECEDING", n.Preceding/1e6)
	}
	items := in.Names()
	for i, a := range n.Aggs {
		items = append(items, a.String(in)+" AS "+n.schema[len(in)+i].Name)
	}
	// As Flink prints it (OverAggregateTest): no partitionBy without
	// PARTITION BY, and a space before the frame.
	partition := ""
	if len(n.PartitionKeys) > 0 {
		partition = "partitionBy=[" + names(in, n.PartitionKeys) + "], "
	}
	return fmt.Sprintf("OverAggregate(%sorderBy=[%s ASC], window=[ %s BETWEEN %s AND CURRENT ROW], select=[%s])",
		partition, in[n.TimeCol].Name, unit, lower, strings.Join(items, ", "))
}

// overAggregate plans aggregate calls with an OVER clause in a select list.
// All of them must share one window, whose ORDER BY is a time attribute
// (rowtime or processing time) and whose frame ends at the current row,
// as Flink requires.
func (b *Binder) overAggregate(rel *relation, overs []*ast.FuncCall) (*relation, func(ast.Expr) (expr.Expr, bool, error), error) {
	spec := ownWindow(overs[0], b.over(overs[0]))
	var lag *ast.FuncCall // a window function that cannot retract
	for _, o := range overs {
		switch o.Name {
		case "LEAD", "CUME_DIST", "PERCENT_RANK", "NTILE":
			// Flink's AggFunctionFactory refuses them in streaming mode.
			return nil, nil, errorf(o, "%s Function is not supported in stream mode.", o.Name)
		}
		f, ok := fn.LookupAggregate(o.Name)
		if !ok {
			// Calcite's validator's message.
			return nil, nil, errorf(o, "OVER must be applied to aggregate function")
		}
		if j := jsonAggregate(o.Name); j != "" {
			// Flink's documentation: "not supported in OVER windows".
			return nil, nil, errorf(o, "%s is not supported in OVER windows", j)
		}
		if f.OverOnly {
			if f := b.over(o).Frame; f != nil {
				// Calcite's validator: the function does not allow framing.
				return nil, nil, errorf(f, "ROW/RANGE not allowed with RANK, DENSE_RANK or ROW_NUMBER functions")
			}
			lag = o
		}
		if !sameWindow(ownWindow(o, b.over(o)), spec) {
			return nil, nil, errorf(o, "Over Agg: Unsupported use of OVER windows. All aggregates must be computed on the same window.")
		}
	}
	if err := overOrderChecks(spec.OrderBy, overs[0]); err != nil {
		return nil, nil, err
	}
	in := &exprBinder{b: b, sc: rel.sc, where: "OVER"}
	order, err := in.bind(spec.OrderBy[0].Expr)
	if err != nil {
		return nil, nil, err
	}
	col, ok := order.(*expr.Column)
	if !ok || col.T.Attr == types.NoTimeAttr {
		return nil, nil, errorf(spec.OrderBy[0], "OVER windows' ordering in stream mode must be defined on a time attribute.")
	}
	n := &OverAggregate{TimeCol: col.Index, ProcTime: col.T.Attr == types.ProcTime, Preceding: -1}
	if err := b.overFrame(n, spec.Frame); err != nil {
		return nil, nil, err
	}
	if lag != nil && n.Preceding >= 0 {
		// A bounded frame retracts the rows leaving it; Flink's streaming
		// LAG (LagAggFunction) cannot.
		return nil, nil, errorf(lag, "LAG Function with retraction is not supported in stream mode.")
	}
	schema := rel.node.Schema()
	pre := identity(schema)
	preSchema := append(types.Schema{}, schema...)
	sc := &scope{cols: append([]scopeCol{}, rel.sc.cols...)}
	add := func(e expr.Expr, _ string) int {
		if c, ok := e.(*expr.Column); ok {
			return c.Index
		}
		pre = append(pre, e)
		name := "$f" + itoa(len(pre)-1)
		preSchema = append(preSchema, types.Field{Name: name, Type: e.Type()})
		sc.cols = append(sc.cols, scopeCol{name: name, typ: e.Type()})
		return len(pre) - 1
	}
	for _, p := range spec.PartitionBy {
		e, err := in.bind(p)
		if err != nil {
			return nil, nil, err
		}
		if err := wantOrderable(p, e.Type()); err != nil {
			return nil, nil, err
		}
		n.PartitionKeys = append(n.PartitionKeys, add(e, ""))
	}
	for _, o := range overs {
		a, err := b.aggCall(in, o, add)
		if err != nil {
			return nil, nil, err
		}
		n.Aggs = append(n.Aggs, a)
	}
	n.Input = newCalc(rel.node, pre, nil, preSchema)
	n.schema = append(types.Schema{}, preSchema...)
	for i, a := range n.Aggs {
		name := "w0$o" + itoa(i)
		n.schema = append(n.schema, types.Field{Name: name, Type: a.Type})
		sc.cols = append(sc.cols, scopeCol{name: "$" + name, typ: a.Type})
	}
	base := len(preSchema)
	hook := func(e ast.Expr) (expr.Expr, bool, error) {
		for i, o := range overs {
			if e == ast.Expr(o) {
				c := base + i
				return &expr.Column{Index: c, Name: n.schema[c].Name, T: n.schema[c].Type}, true, nil
			}
		}
		return nil, false, nil
	}
	return &relation{node: n, sc: sc}, hook, nil
}

// overOrderChecks are Flink's checks of an OVER window's order
// (StreamExecOverAggregate), in its order and with its messages: one key
// (the call's window has none or several), ascending.
func overOrderChecks(order []*ast.OrderItem, call *ast.FuncCall) error {
	if len(order) != 1 {
		return errorf(call, "The window can only be ordered by a single time column.")
	}
	if order[0].Desc {
		return errorf(order[0], "The window can only be ordered in ASCENDING mode.")
	}
	return nil
}

// ownWindow is the window a call of an OVER aggregation computes over:
// its window over, whose frame is ROWS BETWEEN UNBOUNDED PRECEDING AND
// CURRENT ROW for ROW_NUMBER, which takes no frame (Calcite's
// SqlToRelConverter gives it that one).
func ownWindow(o *ast.FuncCall, over *ast.WindowSpec) *ast.WindowSpec {
	if o.Name != "ROW_NUMBER" {
		return over
	}
	w := *over
	w.Frame = &ast.Frame{Pos: o.Pos, Rows: true, Lo: &ast.FrameBound{Pos: o.Pos, Kind: "UNBOUNDED PRECEDING"}, Hi: &ast.FrameBound{Pos: o.Pos, Kind: "CURRENT ROW"}}
	return &w
}

// overFrame reads a frame clause into n: the upper bound must be CURRENT
// ROW; no frame means RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW.
// Any other frame is refused with Flink's message (StreamExecOverAggregate
// runs frames from a preceding bound to the current row only).
func (b *Binder) overFrame(n *OverAggregate, f *ast.Frame) error {
	if f == nil {
		return nil
	}
	n.Rows = f.Rows
	const following = "OVER RANGE FOLLOWING windows are not supported yet."
	if f.Hi == nil || f.Hi.Kind != "CURRENT ROW" {
		return errorf(f.Hi, following)
	}
	switch f.Lo.Kind {
	case "UNBOUNDED PRECEDING":
		return nil
	case "CURRENT ROW":
		n.Preceding = 0
		return nil
	case "PRECEDING":
	default:
		return errorf(f.Lo, following)
	}
	e, err := (&exprBinder{b: b, sc: &scope{}}).bind(f.Lo.Offset)
	if err != nil {
		return err
	}
	lit, ok := e.(*expr.Literal)
	switch {
	case ok && f.Rows && lit.T.IsInteger() && lit.V.I >= 0:
		n.Preceding = lit.V.I
	case ok && !f.Rows && lit.T.Kind == types.IntervalDayTime && lit.V.I >= 0:
		n.Preceding = lit.V.I * 1e6
	case f.Rows:
		// Calcite's validator's message.
		return errorf(f.Lo, "ROWS value must be a non-negative integral constant")
	default:
		return errorf(f.Lo, "a RANGE frame's bound must be a day-time interval literal such as INTERVAL '1' HOUR")
	}
	return nil
}
