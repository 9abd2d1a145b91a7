package planner

import (
	"errors"
	"slices"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// Scalar subqueries, `(SELECT ...)` used as a value, are planned as
// Calcite's SubQueryRemoveRule and Flink's decorrelation plan them: the
// query's relation is joined to the rows that use it, and the expression
// reads the joined column.
//
//   - An uncorrelated subquery is LEFT JOINed ON TRUE. A query that may
//     return more than one row is first aggregated with SINGLE_VALUE, which
//     fails at run time on a second row ("SingleValueAggFunction received
//     more than one element.", as in Flink); one that returns no row gives
//     NULL.
//   - A correlated subquery, SELECT e FROM ... WHERE inner = outer AND ...,
//     is grouped by the inner sides of its correlating equalities and LEFT
//     JOINed on them. Where no inner row matches, the value is e over an
//     empty input (COUNT(*) is 0, SUM is NULL), not NULL: the answer the
//     subquery gives for that row.

// scalarSubqueries lists the scalar subqueries in es, those of the
// rewrites of quantified comparisons included, not looking inside other
// subqueries.
func (b *Binder) scalarSubqueries(es ...ast.Expr) []*ast.SubqueryExpr {
	var out []*ast.SubqueryExpr
	add := func(s *ast.SubqueryExpr) {
		// One subquery may be read twice (the rewrite of a quantified
		// comparison reads one of its two); it is joined once.
		if !s.Exists && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, e := range es {
		walkAST(e, func(n ast.Expr) bool {
			switch s := n.(type) {
			case *ast.SubqueryExpr:
				add(s)
				return false
			case *ast.In:
				return s.Subquery == nil
			case *ast.Quantified:
				for _, r := range b.scalarSubqueries(b.rewriteQuantified(s)) {
					add(r)
				}
				return false
			}
			return true
		})
	}
	return out
}

// joinScalarSubqueries joins rel with each of subs, whose values become
// hidden columns of the returned relation that only their subquery
// expressions read. outer binds the outer side of correlations, over
// rel's scope.
func (b *Binder) joinScalarSubqueries(rel *relation, subs []*ast.SubqueryExpr, outer *exprBinder) (*relation, error) {
	for _, s := range subs {
		var err error
		if rel, err = b.joinScalarSubquery(rel, s, outer); err != nil {
			return nil, err
		}
		outer = &exprBinder{b: b, sc: rel.sc, hook: outer.hook, where: outer.where}
	}
	return rel, nil
}

func (b *Binder) joinScalarSubquery(rel *relation, s *ast.SubqueryExpr, outer *exprBinder) (*relation, error) {
	sub, err := b.query(s.Query)
	if err != nil {
		// A name the subquery cannot resolve may be a correlation with the
		// outer query.
		corr, cerr := b.correlatedScalar(inlineQuantified(s), outer)
		if cerr != nil {
			if errors.Is(cerr, errNotCorrelated) {
				if b.quantifiedReadsOuter(s, outer) {
					return nil, errorf(s, "a correlated subquery of a quantified comparison (ANY, SOME, ALL) must be SELECT e FROM ... WHERE ... without aggregates, GROUP BY, HAVING, DISTINCT, ORDER BY, LIMIT or OFFSET")
				}
				return nil, err
			}
			return nil, cerr
		}
		return b.attachScalar(rel, s, corr)
	}
	ss := sub.node.Schema()
	if len(ss) != 1 {
		return nil, errorf(s, "a scalar subquery must return exactly one column, not %d", len(ss))
	}
	node := sub.node
	if !atMostOneRow(node) {
		t := ss[0].Type.Nullable()
		node = &GroupAggregate{base: base{schema: types.Schema{{Name: "$f0", Type: t}}}, Input: node,
			Aggs: []AggCall{{Name: "SINGLE_VALUE", Args: []int{0}, Filter: -1, Type: t}}}
	}
	return b.attachScalar(rel, s, &scalarSide{node: node, value: 0, inner: isQuantified(s)})
}

// scalarSide is the relation a scalar subquery joins: its value column,
// and for a correlated one its key columns, matched with outer keys, and
// the value for outer rows without a match.
type scalarSide struct {
	node      Node
	value     int
	keys      []int
	outerKeys []expr.Expr
	empty     expr.Expr // nil: NULL
	// inner joins rather than left joins the subquery: outer rows
	// without its row are dropped.
	inner bool
}

// attachScalar LEFT JOINs rel with side and projects rel's columns and the
// subquery's value, a hidden column bound to s.
func (b *Binder) attachScalar(rel *relation, s *ast.SubqueryExpr, side *scalarSide) (*relation, error) {
	ls := rel.node.Schema()
	kind := LeftJoin
	if side.inner {
		kind = InnerJoin
	}
	jn, err := keyedJoin(kind, rel.node, side.outerKeys, side.node, side.keys, s)
	if err != nil {
		return nil, err
	}
	nl := len(jn.Left.Schema())
	vt := jn.schema[nl+side.value].Type
	var value expr.Expr = &expr.Column{Index: nl + side.value, Name: jn.schema[nl+side.value].Name, T: vt}
	if side.empty != nil {
		// Unmatched rows have a NULL key (a matched key compared equal, so
		// it is not NULL): they take the subquery's value over no rows.
		key := nl + side.keys[0]
		t, ok := types.CommonType(vt.Plain(), side.empty.Type().Plain())
		if !ok {
			return nil, errorf(s, "cannot combine %s with %s", vt.Plain(), side.empty.Type().Plain())
		}
		t = t.WithNotNull(vt.NotNull && side.empty.Type().NotNull)
		value = &expr.Case{T: t, Else: coerce(value, t), Whens: []expr.When{{
			Cond: &expr.IsNull{X: &expr.Column{Index: key, Name: jn.schema[key].Name, T: jn.schema[key].Type}},
			Then: coerce(side.empty, t)}}}
	}
	name := "$scalar" + itoa(len(ls))
	out := append(types.Schema{}, plainSchema(ls)...)
	out = append(out, types.Field{Name: name, Type: value.Type()})
	projects := append(identity(jn.schema[:len(ls)]), value)
	sc := &scope{cols: append([]scopeCol{}, rel.sc.cols...)}
	for i := range sc.cols {
		sc.cols[i].typ = out[i].Type
	}
	sc.cols = append(sc.cols, scopeCol{name: name, typ: value.Type(), scalar: s})
	return &relation{node: newCalc(jn, projects, nil, out), sc: sc}, nil
}

// keyedJoin joins left and right on outer keys (expressions over left)
// equal to right's columns rightKeys, compared in their common types: a
// computed or converted outer key travels as an extra left column.
func keyedJoin(kind JoinKind, left Node, outer []expr.Expr, right Node, rightKeys []int, at ast.Node) (*Join, error) {
	ls, rs := left.Schema(), right.Schema()
	lschema := append(types.Schema{}, ls...)
	leftProj := identity(ls)
	jn := &Join{Kind: kind, Right: right}
	for k, o := range outer {
		kt := rs[rightKeys[k]].Type
		t, ok := types.CommonType(o.Type().Plain(), kt.Plain())
		if !ok {
			return nil, errorf(at, "cannot compare %s with %s", o.Type().Plain(), kt.Plain())
		}
		if c, isCol := o.(*expr.Column); isCol && types.Equal(c.T.Nullable(), t.Nullable()) {
			jn.LeftKeys = append(jn.LeftKeys, c.Index)
		} else {
			jn.LeftKeys = append(jn.LeftKeys, len(lschema))
			lschema = append(lschema, types.Field{Name: "$f" + itoa(len(lschema)), Type: t.WithNotNull(o.Type().NotNull)})
			leftProj = append(leftProj, coerce(o, t))
		}
		jn.RightKeys = append(jn.RightKeys, rightKeys[k])
	}
	jn.Left = newCalc(left, leftProj, nil, lschema)
	jn.schema = joinSchema(lschema, rs, kind, false, false)
	return jn, nil
}

// atMostOneRow reports whether n cannot return more than one row (Calcite's
// RelMdMaxRowCount for the shapes a subquery has): a global aggregate, a
// VALUES of one row, a LIMIT 1, or a projection or filter of one of those.
func atMostOneRow(n Node) bool {
	switch x := n.(type) {
	case *GroupAggregate:
		return len(x.Keys) == 0
	case *Values:
		return len(x.Rows) <= 1
	case *Limit:
		return x.N >= 0 && x.N <= 1
	case *Calc:
		return atMostOneRow(x.Input)
	}
	return false
}

// errNotCorrelated says a subquery that failed to bind has no correlation
// with the outer query to explain it.
var errNotCorrelated = errors.New("not correlated")

// correlatedScalar plans a correlated scalar subquery SELECT e FROM ...
// WHERE ..., whose correlation is a set of equalities between an outer and
// an inner expression: the inner relation filtered by the other
// conditions, grouped by the inner sides, with e (SINGLE_VALUE(e) when e
// aggregates nothing) per group.
func (b *Binder) correlatedScalar(s *ast.SubqueryExpr, outer *exprBinder) (*scalarSide, error) {
	sel, ok := s.Query.(*ast.Select)
	if !ok || sel.From == nil || sel.Where == nil || len(sel.Items) != 1 || sel.Items[0].Star {
		return nil, errNotCorrelated
	}
	inner, err := b.from(sel.From)
	if err != nil {
		return nil, errNotCorrelated
	}
	c, err := b.correlate(sel.Where, inner.node, &exprBinder{b: b, sc: inner.sc, where: "WHERE"}, outer, "scalar subquery")
	if err != nil {
		return nil, err
	}
	if err := c.onlyEqualities("scalar subquery"); err != nil {
		return nil, err
	}
	if len(sel.GroupBy) > 0 || sel.Having != nil || sel.Distinct || sel.Limit != nil || sel.Offset != nil {
		return nil, errorf(s, "a correlated scalar subquery with GROUP BY, HAVING, DISTINCT, LIMIT or OFFSET is not supported yet")
	}
	node := c.node
	innerKeys, outerKeys := c.innerAST, c.outer
	item := sel.Items[0].Expr
	calls := findAggregates(item)
	if len(calls) == 0 {
		single := &ast.FuncCall{Pos: item.Position(), Name: "SINGLE_VALUE", Args: []ast.Expr{item}}
		item, calls = single, []*ast.FuncCall{single}
	}
	grouped, hook, err := b.aggregate(&relation{node: node, sc: inner.sc}, innerKeys, calls, map[*ast.FuncCall]string{})
	if err != nil {
		return nil, err
	}
	ga, ok := grouped.node.(*GroupAggregate)
	if !ok {
		return nil, errorf(s, "this correlated scalar subquery is not supported yet")
	}
	gx := &exprBinder{b: b, sc: grouped.sc, hook: hook, where: "the select list"}
	value, err := gx.bind(item)
	if err != nil {
		return nil, err
	}
	// The value over no rows: each aggregate's result on an empty group.
	empties := map[*ast.FuncCall]expr.Expr{}
	for _, c := range calls {
		col, _, err := hook(c)
		if err != nil {
			return nil, err
		}
		a := ga.Aggs[col.(*expr.Column).Index-len(ga.Keys)]
		v, err := emptyAggregate(ga, a)
		if err != nil {
			return nil, err
		}
		empties[c] = valueLiteral(v, a.Type.WithNotNull(!v.Null))
	}
	ex := &exprBinder{b: b, sc: &scope{}, hook: func(e ast.Expr) (expr.Expr, bool, error) {
		if f, ok := e.(*ast.FuncCall); ok && empties[f] != nil {
			return empties[f], true, nil
		}
		return nil, false, nil
	}, where: "the select list"}
	empty, err := ex.bind(item)
	if err != nil {
		return nil, err
	}
	if lit, ok := empty.(*expr.Literal); ok && lit.V.Null {
		empty = nil
	}
	keys := seq(len(innerKeys))
	out := append(types.Schema{}, ga.Schema()[:len(keys)]...)
	out = append(out, types.Field{Name: "$f" + itoa(len(keys)), Type: value.Type()})
	projects := append(identity(out[:len(keys)]), value)
	return &scalarSide{node: newCalc(ga, projects, nil, out), value: len(keys), keys: keys, outerKeys: outerKeys, empty: empty}, nil
}

// correlationAST splits `a = b` into its outer side, bound, and its inner
// side as written.
func correlationAST(c ast.Expr, outer, inner *exprBinder) (expr.Expr, ast.Expr, bool) {
	eq, ok := c.(*ast.Binary)
	if !ok || eq.Op != "=" {
		return nil, nil, false
	}
	for _, sides := range [][2]ast.Expr{{eq.L, eq.R}, {eq.R, eq.L}} {
		o, err1 := outer.bind(sides[0])
		_, err2 := inner.bind(sides[1])
		if err1 == nil && err2 == nil {
			return o, sides[1], true
		}
	}
	return nil, nil, false
}

// emptyAggregate is a's result over no rows.
func emptyAggregate(ga *GroupAggregate, a AggCall) (types.Value, error) {
	in := ga.Input.Schema()
	argTypes := make([]types.Type, len(a.Args))
	for i, c := range a.Args {
		argTypes[i] = in[c].Type
	}
	newAcc, err := expr.BindAggregate(a.Name, argTypes, a.Consts, a.Distinct, false, a.Type)
	if err != nil {
		return types.Value{}, err
	}
	return newAcc().Result()
}

// valueLiteral is v as a literal of type t, printed as Calcite prints a
// literal of that type: its value, and the type unless it is INT, BOOLEAN
// or a string.
func valueLiteral(v types.Value, t types.Type) *expr.Literal {
	if v.Null {
		return &expr.Literal{V: v, T: t, Text: "null:" + t.Plain().String()}
	}
	text := types.FormatValue(t, v, nil)
	switch {
	case t.IsString():
		text = parser.QuoteString(text)
	case t.Kind != types.Int && t.Kind != types.Boolean:
		text += ":" + t.Plain().WithNotNull(false).String()
	}
	return &expr.Literal{V: v, T: t, Text: text}
}
