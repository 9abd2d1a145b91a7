package planner

import (
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// setOpAll plans INTERSECT ALL and EXCEPT ALL of left and right (both of
// schema) as Flink's RewriteIntersectAllRule and RewriteMinusAllRule do:
// the two inputs, each row marked with its side, in one UNION ALL; a count
// per distinct row of each side (INTERSECT ALL: COUNT of each side's
// marker; EXCEPT ALL: SUM of +1 for the left, -1 for the right); the rows
// the result keeps (INTERSECT ALL: on both sides; EXCEPT ALL: more on the
// left); and each of those replicated as many times as it occurs in the
// result (the smaller count, or the difference) by $REPLICATE_ROWS$. NULLs
// compare equal, as in grouping.
func (b *Binder) setOpAll(s *ast.SetOp, schema types.Schema, left, right Node) (Node, error) {
	n := len(schema)
	intersect := s.Op == "INTERSECT"
	// marked appends the side's markers to each row of in.
	marked := func(in Node, isLeft bool) Node {
		ps := identity(in.Schema())
		out := append(types.Schema{}, schema...)
		if intersect {
			l, r := trueLit(), nullBool()
			if !isLeft {
				l, r = r, l
			}
			ps = append(ps, l, r)
			out = append(out, types.Field{Name: "vcol_left_marker", Type: types.BooleanType},
				types.Field{Name: "vcol_right_marker", Type: types.BooleanType})
		} else {
			v := int64(1)
			if !isLeft {
				v = -1
			}
			ps = append(ps, &expr.Literal{V: types.IntValue(v), T: types.BigIntType.WithNotNull(true), Text: itoa(int(v)) + ":BIGINT"})
			out = append(out, types.Field{Name: "vcol_marker", Type: types.BigIntType.WithNotNull(true)})
		}
		return newCalc(in, ps, nil, out)
	}
	l, r := marked(left, true), marked(right, false)
	union := &Union{base: base{schema: l.Schema()}, Items: []Node{l, r}}
	agg := &GroupAggregate{Input: union, Keys: seq(n)}
	us := union.Schema()
	out := append(types.Schema{}, schema...)
	names := []string{"vcol_left_cnt", "vcol_right_cnt"}
	fnName := "COUNT"
	if !intersect {
		names, fnName = []string{"sum_vcol_marker"}, "SUM"
	}
	for i, name := range names {
		col := n + i
		f, _ := fn.LookupAggregate(fnName)
		t, _, err := f.Bind([]fn.Arg{{Type: us[col].Type}}, false)
		if err != nil {
			return nil, errorf(s, "%v", err)
		}
		agg.Aggs = append(agg.Aggs, AggCall{Name: fnName, Args: []int{col}, Filter: -1, Type: t, Alias: name})
		out = append(out, types.Field{Name: name, Type: t})
	}
	agg.schema = out
	x := &exprBinder{b: b, sc: newScope("", out)}
	one := &expr.Literal{V: types.IntValue(1), T: types.IntType.WithNotNull(true), Text: "1"}
	colExpr := func(i int) expr.Expr { return &expr.Column{Index: i, Name: out[i].Name, T: out[i].Type} }
	var keep, count expr.Expr
	if intersect {
		ge := func(i int) (expr.Expr, error) { return x.call(s, ">=", []expr.Expr{colExpr(i), one}, nil) }
		lk, err := ge(n)
		if err != nil {
			return nil, err
		}
		rk, err := ge(n + 1)
		if err != nil {
			return nil, err
		}
		keep = and([]expr.Expr{lk, rk})
		more, err := x.call(s, ">", []expr.Expr{colExpr(n), colExpr(n + 1)}, nil)
		if err != nil {
			return nil, err
		}
		count = &expr.Case{T: out[n].Type, Whens: []expr.When{{Cond: more, Then: colExpr(n + 1)}}, Else: colExpr(n)}
	} else {
		var err error
		zero := &expr.Literal{V: types.IntValue(0), T: types.IntType.WithNotNull(true), Text: "0"}
		if keep, err = x.call(s, ">", []expr.Expr{colExpr(n), zero}, nil); err != nil {
			return nil, err
		}
		count = colExpr(n)
	}
	counted := append(append(types.Schema{}, schema...), types.Field{Name: "$f" + itoa(n), Type: count.Type()})
	filtered := newCalc(agg, append(identity(out[:n]), count), keep, counted)
	rep := &Correlate{base: base{schema: counted}, Input: filtered, Collection: &expr.Column{Index: n, Name: counted[n].Name, T: counted[n].Type}, Replicate: true}
	return newCalc(rep, identity(schema), nil, schema), nil
}

func trueLit() expr.Expr {
	return &expr.Literal{V: types.BoolValue(true), T: types.BooleanType.WithNotNull(true), Text: "true"}
}

func nullBool() expr.Expr {
	return &expr.Literal{V: types.NullValue, T: types.BooleanType, Text: "null:BOOLEAN"}
}
