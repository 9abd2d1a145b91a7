package planner

import (
	"errors"
	"slices"
	"strings"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// lateralJoin plans a join with a LATERAL subquery that reads the columns
// of the rows before it, as Calcite decorrelates one: `FROM t, LATERAL
// (SELECT ... FROM u WHERE u.k = t.k AND ... [ORDER BY ... LIMIT n]) AS x`
// (or CROSS JOIN, or LEFT JOIN ... ON TRUE) joins t with the subquery's
// rows computed once for every value of the correlation keys: the inner
// rows filtered by the conditions on them alone, and with ORDER BY ...
// LIMIT the first n of each key (a Top-N partitioned by the keys). An
// uncorrelated LATERAL subquery is an ordinary derived table; cause is
// the error binding it that way gave.
func (b *Binder) lateralJoin(j *ast.Join, l *relation, ref *ast.SubqueryRef, cause error) (*relation, error) {
	sel, ok := ref.Query.(*ast.Select)
	if !ok || sel.From == nil {
		return nil, uncorrelated(ref.Query, l.sc, cause)
	}
	inner, err := b.from(sel.From)
	if err != nil {
		return nil, uncorrelated(ref.Query, l.sc, cause)
	}
	ib := &exprBinder{b: b, sc: inner.sc, where: "WHERE"}
	c, err := b.correlate(sel.Where, inner.node, ib, &exprBinder{b: b, sc: l.sc, where: "WHERE"}, "LATERAL subquery")
	if errors.Is(err, errNotCorrelated) {
		return nil, uncorrelated(ref.Query, l.sc, cause)
	}
	if err != nil {
		return nil, err
	}
	if err := c.onlyEqualities("LATERAL subquery"); err != nil {
		return nil, err
	}
	var kind JoinKind
	switch {
	case j.Kind == ast.InnerJoin && j.On == nil, j.Kind == ast.CrossJoin:
		kind = InnerJoin
		if j.On != nil {
			// The WHERE of a comma or CROSS JOIN, which whereIntoJoin made
			// its condition: it filters the joined rows.
			rel, err := b.lateralJoin(&ast.Join{Pos: j.Pos, Kind: ast.CrossJoin, Left: j.Left, Right: j.Right}, l, ref, cause)
			if err != nil {
				return nil, err
			}
			return b.where(rel, j.On)
		}
	case j.Kind == ast.LeftJoin && isTrueLiteral(j.On):
		kind = LeftJoin
	default:
		return nil, errorf(j, "a correlated LATERAL subquery is joined with a comma, CROSS JOIN or LEFT JOIN ... ON TRUE")
	}
	if len(sel.GroupBy) > 0 || sel.Distinct {
		return nil, errorf(ref, "a correlated LATERAL subquery with GROUP BY or DISTINCT is not supported yet")
	}
	items, err := expandStars(sel.Items, inner.sc)
	if err != nil {
		return nil, err
	}
	if sel.Having != nil || slices.ContainsFunc(items, func(it *ast.SelectItem) bool { return len(findAggregates(it.Expr)) > 0 }) {
		return b.lateralAggregate(l, ref, sel, items, kind)
	}
	var projects []expr.Expr
	var schema types.Schema
	outScope := &scope{}
	used := map[string]int{}
	for i, it := range items {
		if calls := append(findAggregates(it.Expr), findOvers(it.Expr)...); len(calls) > 0 {
			return nil, errorf(calls[0], "a correlated LATERAL subquery with aggregates or window functions is not supported yet")
		}
		e, err := (&exprBinder{b: b, sc: inner.sc, where: "the select list"}).bind(it.Expr)
		if err != nil {
			return nil, err
		}
		name := itemName(used, it, i)
		projects = append(projects, e)
		schema = append(schema, types.Field{Name: name, Type: e.Type()})
		outScope.cols = append(outScope.cols, scopeCol{name: name, typ: e.Type()})
	}
	// ORDER BY names select-list columns, or inner expressions that
	// travel as hidden columns; then the inner sides of the correlation,
	// to partition the Top-N and to join on.
	nItems := len(projects)
	var order []SortKey
	for _, o := range sel.OrderBy {
		e, err := (&exprBinder{b: b, sc: outScope, where: "ORDER BY"}).bind(o.Expr)
		if err != nil {
			if e, err = (&exprBinder{b: b, sc: inner.sc, where: "ORDER BY"}).bind(o.Expr); err != nil {
				return nil, err
			}
			projects = append(projects, e)
			schema = append(schema, types.Field{Name: "$o" + itoa(len(order)), Type: e.Type()})
			e = &expr.Column{Index: len(projects) - 1, T: e.Type()}
		}
		k, err := sortKey(o, e)
		if err != nil {
			return nil, err
		}
		order = append(order, k)
	}
	var keys []int
	for k, e := range c.inner {
		keys = append(keys, len(projects))
		projects = append(projects, e)
		schema = append(schema, types.Field{Name: "$k" + itoa(k), Type: e.Type()})
	}
	var right Node = newCalc(c.node, projects, nil, schema)
	if sel.Limit != nil || sel.Offset != nil {
		if right, err = lateralTopN(sel, right, order, keys); err != nil {
			return nil, err
		}
	}
	jn, err := keyedJoin(kind, l.node, c.outer, right, keys, ref)
	if err != nil {
		return nil, err
	}
	// The output: the left columns, then the subquery's select list.
	ls := l.node.Schema()
	nl := len(jn.Left.Schema())
	out := append(types.Schema{}, jn.schema[:len(ls)]...)
	outProj := identity(jn.schema[:len(ls)])
	sc := &scope{cols: append([]scopeCol{}, l.sc.cols...)}
	for i := range sc.cols {
		sc.cols[i].typ = out[i].Type
	}
	for i := range nItems {
		f := jn.schema[nl+i]
		outProj = append(outProj, &expr.Column{Index: nl + i, Name: f.Name, T: f.Type})
		name := schema[i].Name
		if i < len(ref.ColumnAliases) {
			name = ref.ColumnAliases[i]
		}
		out = append(out, types.Field{Name: name, Type: f.Type})
		sc.cols = append(sc.cols, scopeCol{qual: ref.Alias, name: name, typ: f.Type})
	}
	if len(ref.ColumnAliases) > 0 && len(ref.ColumnAliases) != nItems {
		return nil, errorf(ref, "List of column aliases must have same degree as table; table has %d columns, whereas alias list has %d columns", nItems, len(ref.ColumnAliases))
	}
	return &relation{node: newCalc(jn, outProj, nil, plainSchema(out)), sc: sc}, nil
}

// lateralAggregate plans a correlated LATERAL subquery that aggregates
// without GROUP BY, `FROM t, LATERAL (SELECT COUNT(*) AS c, SUM(u.x) AS s
// FROM u WHERE u.k = t.k [HAVING ...])`: it has one row for every outer
// row (where its HAVING holds), its aggregates over the outer row's group
// of inner rows, the empty one included (c is 0 and s NULL for an outer
// row without inner rows), as Calcite's RelDecorrelator gives each outer
// value its group. The outer rows are LEFT JOINed with the aggregates per
// correlation key, as scalar subqueries are; with a comma or CROSS JOIN,
// the rows whose group fails HAVING are dropped (with LEFT JOIN ... ON
// TRUE they keep NULLs).
func (b *Binder) lateralAggregate(l *relation, ref *ast.SubqueryRef, sel *ast.Select, items []*ast.SelectItem, kind JoinKind) (*relation, error) {
	if len(sel.OrderBy) > 0 || sel.Limit != nil || sel.Offset != nil {
		return nil, errorf(ref, "a correlated LATERAL subquery with aggregates and ORDER BY, LIMIT or OFFSET is not supported yet")
	}
	exprs := make([]ast.Expr, 0, len(items)+1)
	for _, it := range items {
		if calls := findOvers(it.Expr); len(calls) > 0 {
			return nil, errorf(calls[0], "a correlated LATERAL subquery with window functions is not supported yet")
		}
		exprs = append(exprs, it.Expr)
	}
	filtered := kind == InnerJoin && sel.Having != nil
	if filtered {
		exprs = append(exprs, sel.Having) // whether the subquery has its row
	}
	side, err := b.correlatedValues(ref, sel, exprs, l.node, &exprBinder{b: b, sc: l.sc, where: "WHERE"}, "LATERAL subquery")
	if err != nil {
		return nil, err
	}
	jn, values, err := side.join(l.node, ref)
	if err != nil {
		return nil, err
	}
	if len(ref.ColumnAliases) > 0 && len(ref.ColumnAliases) != len(items) {
		return nil, errorf(ref, "List of column aliases must have same degree as table; table has %d columns, whereas alias list has %d columns", len(items), len(ref.ColumnAliases))
	}
	ls := l.node.Schema()
	out := append(types.Schema{}, jn.schema[:len(ls)]...)
	outProj := identity(out)
	sc := &scope{cols: append([]scopeCol{}, l.sc.cols...)}
	for i := range sc.cols {
		sc.cols[i].typ = out[i].Type
	}
	used := map[string]int{}
	for i, it := range items {
		name := itemName(used, it, i)
		if i < len(ref.ColumnAliases) {
			name = ref.ColumnAliases[i]
		}
		out = append(out, types.Field{Name: name, Type: values[i].Type()})
		outProj = append(outProj, values[i])
		sc.cols = append(sc.cols, scopeCol{qual: ref.Alias, name: name, typ: values[i].Type()})
	}
	var filter expr.Expr
	if filtered {
		jb := &exprBinder{b: b, sc: l.sc, where: "HAVING"}
		if filter, err = jb.call(sel.Having, "IS TRUE", []expr.Expr{values[len(items)]}, nil); err != nil {
			return nil, err
		}
	}
	return &relation{node: newCalc(jn, outProj, filter, plainSchema(out)), sc: sc}, nil
}

// uncorrelated is the error of a LATERAL subquery that is no correlation
// lateralJoin plans: cause, the error binding it on its own, unless it
// reads a column of the relations before it (outer), which it then names.
func uncorrelated(q ast.Query, outer *scope, cause error) error {
	if id := outerReference(q, outer); id != nil {
		return errorf(id, "a correlated LATERAL subquery reads the columns before it only in equalities of its WHERE with its own columns (FROM u WHERE u.k = t.k); reading '%s' here is not supported yet", strings.Join(id.Parts, "."))
	}
	return cause
}

// outerReference finds a name in q that reads a column of outer: one
// qualified by a relation of outer that q's FROM items do not name, or,
// in a SELECT without FROM, any name outer resolves.
func outerReference(q ast.Query, outer *scope) *ast.Ident {
	switch n := q.(type) {
	case *ast.SetOp:
		if id := outerReference(n.Left, outer); id != nil {
			return id
		}
		return outerReference(n.Right, outer)
	case *ast.Select:
		own := map[string]bool{}
		var exprs []ast.Expr
		var visit func(ast.TableRef)
		visit = func(r ast.TableRef) {
			switch f := r.(type) {
			case *ast.TableName:
				if f.Alias != "" {
					own[f.Alias] = true
				} else {
					own[f.Name.Parts[len(f.Name.Parts)-1]] = true
				}
			case *ast.SubqueryRef:
				own[f.Alias] = true
			case *ast.UnnestRef:
				own[f.Alias] = true
				exprs = append(append(exprs, f.Collection), f.More...)
			case *ast.Join:
				visit(f.Left)
				visit(f.Right)
				exprs = append(exprs, f.On)
			}
		}
		if n.From != nil {
			visit(n.From)
		}
		for _, it := range n.Items {
			exprs = append(exprs, it.Expr)
		}
		exprs = append(append(exprs, n.Where, n.Having), n.GroupBy...)
		var found *ast.Ident
		for _, e := range exprs {
			walkAST(e, func(e ast.Expr) bool {
				id, ok := e.(*ast.Ident)
				if !ok || found != nil {
					return found == nil
				}
				if len(id.Parts) > 1 {
					qual := id.Parts[len(id.Parts)-2]
					if !own[qual] && outer.hasQualifier(qual) {
						found = id
					}
				} else if _, err := outer.resolve(id); err == nil && n.From == nil {
					found = id
				}
				return true
			})
			if found != nil {
				return found
			}
		}
	}
	return nil
}

// lateralTopN keeps, for each value of the correlation keys, the rows of
// the subquery's ORDER BY ... LIMIT: a ROW_NUMBER Top-N partitioned by
// the keys.
func lateralTopN(sel *ast.Select, in Node, order []SortKey, keys []int) (Node, error) {
	n, err := rowCount("LIMIT", sel.Limit, -1)
	if err != nil {
		return nil, err
	}
	off, err := rowCount("OFFSET", sel.Offset, 0)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, errorf(sel.Offset, "an OFFSET without LIMIT in a correlated LATERAL subquery is not supported yet")
	}
	if len(order) == 0 {
		return nil, errorf(sel.Limit, "a LIMIT in a correlated LATERAL subquery needs an ORDER BY")
	}
	schema := in.Schema()
	if n == 0 {
		return &Values{base: base{schema: schema}}, nil
	}
	r := &Rank{Function: "ROW_NUMBER", Input: in, PartitionKeys: keys, Order: order, Start: off + 1, End: off + n}
	r.schema = append(append(types.Schema{}, schema...), types.Field{Name: "w0$o0", Type: types.BigIntType.WithNotNull(true)})
	return newCalc(r, identity(schema), nil, schema), nil
}

// isTrueLiteral reports whether e is the literal TRUE.
func isTrueLiteral(e ast.Expr) bool {
	l, ok := e.(*ast.Literal)
	return ok && l.Kind == ast.BoolLit && strings.EqualFold(l.Text, "TRUE")
}
