package planner

import (
	"errors"
	"slices"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
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
		corr, cerr := b.correlatedScalar(inlineQuantified(s), rel.node, outer)
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
	return b.attachScalar(rel, s, &scalarSide{node: node, values: []int{0}, empties: []expr.Expr{nil}, inner: isQuantified(s)})
}

// scalarSide is the relation a scalar subquery joins: its value columns
// (one; a LATERAL subquery's select list), and for a correlated one its
// key columns, matched with outer keys, and the values for outer rows
// without a match.
type scalarSide struct {
	node      Node
	values    []int
	keys      []int
	outerKeys []expr.Expr
	empties   []expr.Expr // per value, nil: NULL
	// inner joins rather than left joins the subquery: outer rows
	// without its row are dropped.
	inner bool
}

// join joins left with the side (LEFT, or inner) and gives its values
// over the joined rows.
func (side *scalarSide) join(left Node, at ast.Node) (*Join, []expr.Expr, error) {
	kind := LeftJoin
	if side.inner {
		kind = InnerJoin
	}
	jn, err := keyedJoin(kind, left, side.outerKeys, side.node, side.keys, at)
	if err != nil {
		return nil, nil, err
	}
	nl := len(jn.Left.Schema())
	values := make([]expr.Expr, len(side.values))
	for i, col := range side.values {
		vt := jn.schema[nl+col].Type
		values[i] = &expr.Column{Index: nl + col, Name: jn.schema[nl+col].Name, T: vt}
		empty := side.empties[i]
		if empty == nil {
			continue
		}
		// Unmatched rows have a NULL key (a matched key compared equal, so
		// it is not NULL): they take the subquery's value over no rows.
		key := nl + side.keys[0]
		t, ok := types.CommonType(vt.Plain(), empty.Type().Plain())
		if !ok {
			return nil, nil, errorf(at, "cannot combine %s with %s", vt.Plain(), empty.Type().Plain())
		}
		t = t.WithNotNull(vt.NotNull && empty.Type().NotNull)
		values[i] = &expr.Case{T: t, Else: coerce(values[i], t), Whens: []expr.When{{
			Cond: &expr.IsNull{X: &expr.Column{Index: key, Name: jn.schema[key].Name, T: jn.schema[key].Type}},
			Then: coerce(empty, t)}}}
	}
	return jn, values, nil
}

// attachScalar LEFT JOINs rel with side and projects rel's columns and the
// subquery's value, a hidden column bound to s.
func (b *Binder) attachScalar(rel *relation, s *ast.SubqueryExpr, side *scalarSide) (*relation, error) {
	ls := rel.node.Schema()
	jn, values, err := side.join(rel.node, s)
	if err != nil {
		return nil, err
	}
	value := values[0]
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
// WHERE ... over the outer rows of outerNode (outer binds over them), as
// correlatedValues does with e (SINGLE_VALUE(e) when it aggregates
// nothing).
func (b *Binder) correlatedScalar(s *ast.SubqueryExpr, outerNode Node, outer *exprBinder) (*scalarSide, error) {
	sel, ok := s.Query.(*ast.Select)
	if !ok || sel.From == nil || len(sel.Items) != 1 || sel.Items[0].Star {
		return nil, errNotCorrelated
	}
	return b.correlatedValues(s, sel, []ast.Expr{sel.Items[0].Expr}, outerNode, outer, scalarWhat)
}

// scalarWhat names a scalar subquery in errors.
const scalarWhat = "scalar subquery"

// groupedScalar plans a scalar subquery over a GROUP BY correlated by
// equalities, as Calcite's RelDecorrelator plans it for Flink: the groups
// of each correlation value (the inner sides of the equalities join the
// group keys, as for EXISTS and IN), whose one value SINGLE_VALUE takes
// per correlation value (failing at run time on a second group); an
// outer row without any group takes NULL (the subquery has no row). Its
// HAVING does not read the outer query (correlatedValues refuses it).
func (b *Binder) groupedScalar(sel *ast.Select, outerNode Node, outer *exprBinder) (*scalarSide, error) {
	g, err := b.groupedCorrelation(&relation{node: outerNode, sc: outer.sc}, outer, sel, sel.Items, scalarWhat)
	if err != nil {
		return nil, err
	}
	gs := g.node.Schema()
	var keys []int
	var schema types.Schema
	for _, k := range g.inner {
		i := k.(*expr.Column).Index
		keys = append(keys, i)
		schema = append(schema, gs[i])
	}
	t := gs[0].Type.Nullable()
	schema = append(schema, types.Field{Name: "$f" + itoa(len(schema)), Type: t})
	ga := &GroupAggregate{base: base{schema: schema}, Input: g.node, Keys: keys,
		Aggs: []AggCall{{Name: "SINGLE_VALUE", Args: []int{0}, Filter: -1, Type: t}}}
	return &scalarSide{node: ga, keys: seq(len(keys)), outerKeys: g.outer, values: []int{len(keys)}, empties: []expr.Expr{nil}}, nil
}

// correlatedValues plans the values items of a correlated subquery
// SELECT items FROM ... WHERE ... [HAVING ...] (what names it) over the
// outer rows of outerNode. A correlation of equalities between an outer
// and an inner expression groups the inner relation, filtered by the
// other conditions, by the inner sides, with the items per group. Other
// correlated conditions are planned as Calcite's RelDecorrelator plans
// them for Flink (valueGenerated).
func (b *Binder) correlatedValues(s ast.Node, sel *ast.Select, items []ast.Expr, outerNode Node, outer *exprBinder, what string) (*scalarSide, error) {
	inner, err := b.from(sel.From)
	if err != nil {
		return nil, errNotCorrelated
	}
	if err := b.outerHaving(sel, outer.sc); err != nil {
		return nil, err
	}
	c, err := b.correlate(sel.Where, inner.node, &exprBinder{b: b, sc: inner.sc, where: "WHERE"}, outer, what)
	if err != nil {
		return nil, err
	}
	if len(sel.GroupBy) > 0 && !sel.Distinct && sel.Limit == nil && sel.Offset == nil && what == scalarWhat {
		return b.groupedScalar(sel, outerNode, outer)
	}
	if len(sel.GroupBy) > 0 || sel.Distinct || sel.Limit != nil || sel.Offset != nil {
		return nil, errorf(s, "a correlated %s with GROUP BY, DISTINCT, LIMIT or OFFSET is not supported yet", what)
	}
	node, sc := c.node, inner.sc
	innerKeys, outerKeys := c.innerAST, c.outer
	var gen *valueGenerator
	if len(c.residual) > 0 {
		if gen, err = b.valueGenerated(c, outerNode, inner.sc, s); err != nil {
			return nil, err
		}
		node, sc, innerKeys = gen.node, gen.sc, gen.keys
	}
	items = slices.Clone(items)
	var calls []*ast.FuncCall
	for i, item := range items {
		if sel.Having != nil {
			// HAVING without GROUP BY filters the subquery's one group:
			// its value is e where HAVING holds and NULL (no row) where it
			// does not, over the outer row's inner rows or over none
			// (where COUNT(*) = 0 holds), as Calcite's RelDecorrelator
			// gives each outer value its group, empty or not, before the
			// filter.
			if len(findAggregates(item)) == 0 && len(findAggregates(sel.Having)) == 0 {
				return nil, errorf(sel.Having, "a correlated %s with HAVING and no aggregate is not supported yet", what)
			}
			items[i] = &ast.Case{Pos: item.Position(), Whens: []*ast.When{{Pos: sel.Having.Position(), Cond: sel.Having, Result: item}}}
		}
		calls = append(calls, findAggregates(items[i])...)
	}
	if len(calls) == 0 && len(items) == 1 {
		single := &ast.FuncCall{Pos: items[0].Position(), Name: "SINGLE_VALUE", Args: []ast.Expr{items[0]}}
		items[0], calls = single, []*ast.FuncCall{single}
	}
	for _, item := range items {
		// The subquery is one group (it aggregates without GROUP BY), so
		// its columns are read in aggregates only, whatever it is grouped
		// by below.
		if id := ungroupedColumn(item, inner.sc); id != nil {
			return nil, errorf(id, "Expression '%s' is not being grouped", exprTextAST(id))
		}
	}
	grouped, hook, err := b.aggregate(&relation{node: node, sc: sc}, innerKeys, calls, map[*ast.FuncCall]string{})
	if err != nil {
		return nil, err
	}
	ga, ok := grouped.node.(*GroupAggregate)
	if !ok {
		return nil, errorf(s, "this correlated %s is not supported yet", what)
	}
	gx := &exprBinder{b: b, sc: grouped.sc, hook: hook, where: "the select list"}
	if sel.Having != nil {
		h, err := gx.bind(sel.Having)
		if err != nil {
			return nil, err
		}
		if err := wantBoolean(sel.Having, h); err != nil {
			return nil, err
		}
	}
	values := make([]expr.Expr, len(items))
	for i, item := range items {
		if values[i], err = gx.bind(item); err != nil {
			return nil, err
		}
	}
	// The value over no rows: each aggregate's result on an empty group.
	emptyCalls := map[*ast.FuncCall]expr.Expr{}
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
		emptyCalls[c] = valueLiteral(v, a.Type.WithNotNull(!v.Null))
	}
	ex := &exprBinder{b: b, sc: &scope{}, hook: func(e ast.Expr) (expr.Expr, bool, error) {
		if f, ok := e.(*ast.FuncCall); ok && emptyCalls[f] != nil {
			return emptyCalls[f], true, nil
		}
		return nil, false, nil
	}, where: "the select list"}
	empties := make([]expr.Expr, len(items))
	for i, item := range items {
		empty, err := ex.bind(item)
		if err != nil {
			return nil, err
		}
		if lit, ok := empty.(*expr.Literal); !ok || !lit.V.Null {
			empties[i] = empty
		}
	}
	if gen != nil {
		return gen.side(ga, values, empties), nil
	}
	keys := seq(len(innerKeys))
	out := append(types.Schema{}, ga.Schema()[:len(keys)]...)
	projects := identity(out)
	side := &scalarSide{keys: keys, outerKeys: outerKeys, empties: empties}
	for _, v := range values {
		side.values = append(side.values, len(out))
		out = append(out, types.Field{Name: "$f" + itoa(len(out)), Type: v.Type()})
		projects = append(projects, v)
	}
	side.node = newCalc(ga, projects, nil, out)
	return side, nil
}

// ungroupedColumn finds a name of a column of sc that e reads outside an
// aggregate call, nil when there is none.
func ungroupedColumn(e ast.Expr, sc *scope) *ast.Ident {
	var found *ast.Ident
	walkAST(e, func(n ast.Expr) bool {
		switch x := n.(type) {
		case *ast.FuncCall:
			if _, isAgg := fn.LookupAggregate(x.Name); isAgg && x.Over == nil {
				return false
			}
		case *ast.Ident:
			if _, err := sc.resolve(x); err == nil && found == nil {
				found = x
			}
		}
		return found == nil
	})
	return found
}

// valueGenerator is the relation a scalar subquery correlated by other
// conditions than equalities aggregates, as Calcite's RelDecorrelator
// builds it (its value generator): the distinct values of the outer
// columns the correlation reads (vals, over the outer rows), each joined
// with the inner rows that meet the correlation for it. The aggregation
// groups by those values (keys, named in sc).
type valueGenerator struct {
	node Node
	sc   *scope
	keys []ast.Expr
	vals []expr.Expr
}

// valueGenerated builds the value generator of correlation c between the
// rows of outerNode and the inner relation (of scope inner).
func (b *Binder) valueGenerated(c *correlated, outerNode Node, inner *scope, at ast.Node) (*valueGenerator, error) {
	os := outerNode.Schema()
	cols := expr.Columns(append(append([]expr.Expr{}, c.residual...), c.outer...)...)
	pos := map[int]int{}
	gen := &valueGenerator{}
	var vs types.Schema
	for _, col := range cols {
		if col >= len(os) {
			continue // an inner column of a residual condition
		}
		if _, ok := pos[col]; ok {
			continue
		}
		if t := os[col].Type; t.IsComposite() || t.IsWideDecimal() || t.Kind == types.Variant || t.Kind == types.Structured {
			// side needs a placeholder value of the type.
			return nil, errorf(at, "a scalar subquery correlated by a column of type %s other than by equalities is not supported", t.Plain().Nullable())
		}
		pos[col] = len(vs)
		v := &expr.Column{Index: col, Name: os[col].Name, T: os[col].Type}
		gen.vals = append(gen.vals, v)
		vs = append(vs, types.Field{Name: "$v" + itoa(len(vs)), Type: os[col].Type.Plain()})
	}
	distinct := &GroupAggregate{base: base{schema: vs}, Input: newCalc(outerNode, gen.vals, nil, vs), Keys: seq(len(vs))}
	toV := func(e expr.Expr) expr.Expr {
		return expr.Remap(e, func(c *expr.Column) expr.Expr {
			return &expr.Column{Index: pos[c.Index], Name: vs[pos[c.Index]].Name, T: c.T}
		})
	}
	// The equalities are the join's keys, computed beside each side's
	// columns; the other conditions its condition, over the values
	// followed by the inner columns.
	ls, rs := append(types.Schema{}, vs...), append(types.Schema{}, c.node.Schema()...)
	leftProj, rightProj := identity(vs), identity(rs)
	jn := &Join{Kind: InnerJoin}
	for k := range c.outer {
		o, i := toV(c.outer[k]), c.inner[k]
		t, ok := types.CommonType(o.Type().Plain(), i.Type().Plain())
		if !ok {
			return nil, errorf(at, "cannot compare %s with %s", o.Type().Plain(), i.Type().Plain())
		}
		jn.LeftKeys, jn.RightKeys = append(jn.LeftKeys, len(ls)), append(jn.RightKeys, len(rs))
		ls = append(ls, types.Field{Name: "$k" + itoa(len(ls)), Type: t.WithNotNull(o.Type().NotNull)})
		rs = append(rs, types.Field{Name: "$k" + itoa(len(rs)), Type: t.WithNotNull(i.Type().NotNull)})
		leftProj, rightProj = append(leftProj, coerce(o, t)), append(rightProj, coerce(i, t))
	}
	nv, nl := len(vs), len(ls)
	jn.Cond = expr.Remap(and(c.residual), func(c *expr.Column) expr.Expr {
		if c.Index < len(os) {
			return &expr.Column{Index: pos[c.Index], Name: vs[pos[c.Index]].Name, T: c.T}
		}
		return &expr.Column{Index: nl + c.Index - len(os), Name: c.Name, T: c.T}
	})
	jn.Left, jn.Right = newCalc(distinct, leftProj, nil, ls), newCalc(c.node, rightProj, nil, rs)
	jn.schema = joinSchema(ls, rs, InnerJoin, false, false)
	gen.node = jn
	gen.sc = &scope{}
	for i := range ls {
		gen.sc.cols = append(gen.sc.cols, scopeCol{name: ls[i].Name, typ: jn.schema[i].Type})
	}
	gen.sc.cols = append(gen.sc.cols, inner.cols...)
	for i := len(inner.cols); i < len(rs); i++ {
		gen.sc.cols = append(gen.sc.cols, scopeCol{name: "$" + rs[i].Name, typ: jn.schema[nl+i].Type})
	}
	for i := range nv {
		gen.keys = append(gen.keys, &ast.Ident{Pos: at.Position(), Parts: []string{vs[i].Name}})
	}
	return gen, nil
}

// side is the scalar side of the aggregation ga (grouped by the values
// first) with the subquery's values: it joins the outer rows on the values
// compared as IS NOT DISTINCT FROM, as two keys each (whether the value is
// NULL, and the value or a placeholder for NULL), since an outer row with
// a NULL value has its own group.
func (g *valueGenerator) side(ga *GroupAggregate, values, empties []expr.Expr) *scalarSide {
	gs := ga.Schema()
	var projects, outerKeys []expr.Expr
	var out types.Schema
	split := func(v expr.Expr) (expr.Expr, expr.Expr) {
		t := v.Type()
		isNull := &expr.IsNull{X: v}
		placeholder := valueLiteral(types.Value{}, t.WithNotNull(true)) // the type's zero
		orNot := &expr.Case{T: t.WithNotNull(true), Whens: []expr.When{{Cond: isNull, Then: placeholder}}, Else: coerce(v, t.WithNotNull(true))}
		return isNull, orNot
	}
	for i, v := range g.vals {
		n, x := split(&expr.Column{Index: i, Name: gs[i].Name, T: gs[i].Type})
		projects = append(projects, n, x)
		out = append(out, types.Field{Name: "$n" + itoa(i), Type: n.Type()}, types.Field{Name: "$x" + itoa(i), Type: x.Type()})
		on, ox := split(v)
		outerKeys = append(outerKeys, on, ox)
	}
	side := &scalarSide{keys: seq(len(out)), outerKeys: outerKeys, empties: empties}
	for _, v := range values {
		side.values = append(side.values, len(out))
		out = append(out, types.Field{Name: "$f" + itoa(len(out)), Type: v.Type()})
		projects = append(projects, v)
	}
	side.node = newCalc(ga, projects, nil, out)
	return side
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
