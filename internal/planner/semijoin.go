package planner

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// SemiJoin keeps the rows of Left whose keys have (or, Anti, have no) equal
// keys in Right: `x [NOT] IN (subquery)` and `[NOT] EXISTS (subquery)` in a
// WHERE clause.
type SemiJoin struct {
	base
	Left, Right         Node
	LeftKeys, RightKeys []int
	Anti                bool
	// NullAware is set for NOT IN over a nullable subquery column, whose
	// NULLs make NOT IN UNKNOWN for every row.
	NullAware bool
	// KeepNullKeys is set for NOT EXISTS: a left row with a NULL key
	// matches nothing, so it passes.
	KeepNullKeys bool
	// NullSafe makes NULL keys equal (INTERSECT and EXCEPT).
	NullSafe bool
	// Cond is the rest of the condition a right row must meet, over the
	// left row followed by the right one, nil for none: a correlation
	// other than equalities (Flink's semi join with a non-equi condition).
	Cond expr.Expr
	// ttl is the idle state retention of the left and right rows.
	ttl stateTTL
}

// Inputs implements Node.
func (n *SemiJoin) Inputs() []Node { return []Node{n.Left, n.Right} }

// Mode implements Node: a semi join of appends only appends; an anti join,
// or any input that retracts, retracts.
func (n *SemiJoin) Mode() Mode {
	if !n.Anti && n.Left.Mode() == connector.InsertOnly && n.Right.Mode() == connector.InsertOnly {
		return connector.InsertOnly
	}
	return connector.Retract
}

// Describe implements Node.
func (n *SemiJoin) Describe() string { return n.describe(prefix) }

func (n *SemiJoin) describe(f exprFormat) string {
	kind := "LeftSemiJoin"
	if n.Anti {
		kind = "LeftAntiJoin"
	}
	ls, rs := n.Left.Schema(), n.Right.Schema()
	conds := make([]string, len(n.LeftKeys))
	for i := range n.LeftKeys {
		l, r := ls[n.LeftKeys[i]].Name, rs[n.RightKeys[i]].Name
		conds[i] = equalsText(l, r, f)
		if n.NullSafe {
			// not among the operators Flink writes infix
			conds[i] = fmt.Sprintf("IS NOT DISTINCT FROM(%s, %s)", l, r)
		}
	}
	if n.Cond != nil {
		conds = append(conds, exprText(n.Cond, append(append(types.Schema{}, ls...), rs...), f))
	}
	return fmt.Sprintf("Join(joinType=[%s], where=[%s], select=[%s])", kind, andText(conds, f), strings.Join(n.schema.Names(), ", "))
}

// splitSubqueries takes the `x [NOT] IN (subquery)` and `[NOT] EXISTS
// (subquery)` conjuncts (and `= ANY`, `<> ALL`) out of a WHERE clause
// (they become semi and anti joins, applied after the other conditions
// filter the rows), returning them and the conditions left.
func (b *Binder) splitSubqueries(where ast.Expr) ([]ast.Expr, ast.Expr) {
	var subqueries, rest []ast.Expr
	for _, c := range astConjuncts(where) {
		if b.isSubqueryCondition(c) {
			subqueries = append(subqueries, c)
		} else {
			rest = append(rest, c)
		}
	}
	return subqueries, andAST(rest)
}

// isSubqueryCondition reports `x [NOT] IN (subquery)` and `[NOT] EXISTS
// (subquery)`, and the quantified comparisons rewritten as IN.
func (b *Binder) isSubqueryCondition(e ast.Expr) bool {
	if u, ok := e.(*ast.Unary); ok && u.Op == "NOT" {
		e = u.X
	}
	switch x := b.rewriteQuantified(e).(type) {
	case *ast.In:
		return x.Subquery != nil
	case *ast.SubqueryExpr:
		return x.Exists
	}
	return false
}

func astConjuncts(e ast.Expr) []ast.Expr {
	if b, ok := e.(*ast.Binary); ok && b.Op == "AND" {
		return append(astConjuncts(b.L), astConjuncts(b.R)...)
	}
	return []ast.Expr{e}
}

// andAST joins conditions with AND, skipping nil ones; nil when none.
func andAST(es []ast.Expr) ast.Expr {
	var out ast.Expr
	for _, e := range es {
		switch {
		case e == nil:
		case out == nil:
			out = e
		default:
			out = &ast.Binary{Pos: out.Position(), Op: "AND", L: out, R: e}
		}
	}
	return out
}

// subqueryJoin applies one subquery condition to rel.
func (b *Binder) subqueryJoin(rel *relation, cond ast.Expr) (*relation, error) {
	not := false
	if u, ok := cond.(*ast.Unary); ok && u.Op == "NOT" {
		not, cond = true, u.X
	}
	if in, ok := b.rewriteQuantified(cond).(*ast.In); ok {
		return b.inSubquery(rel, in, in.Not != not)
	}
	return b.exists(rel, cond.(*ast.SubqueryExpr), not)
}

// inSubquery plans `x [NOT] IN (subquery)`.
func (b *Binder) inSubquery(rel *relation, in *ast.In, not bool) (*relation, error) {
	x, err := (&exprBinder{b: b, sc: rel.sc, where: "WHERE"}).bind(in.X)
	if err != nil {
		return nil, err
	}
	if err := wantOrderable(in.X, x.Type()); err != nil {
		return nil, err
	}
	sub, err := b.query(in.Subquery)
	if err != nil {
		// A name the subquery cannot resolve may be a correlation with the
		// outer query.
		if agg, aerr := b.inAggregate(rel, in, not); !errors.Is(aerr, errNotCorrelated) {
			return agg, aerr
		}
		if sel, ok := in.Subquery.(*ast.Select); ok && sel.From != nil && len(sel.GroupBy) > 0 && len(sel.Items) == 1 && !sel.Items[0].Star && sel.Limit == nil && sel.Offset == nil {
			g, gerr := b.groupedCorrelation(rel, &exprBinder{b: b, sc: rel.sc, where: "WHERE"}, sel, sel.Items, "IN subquery")
			if !errors.Is(gerr, errNotCorrelated) {
				if gerr != nil {
					return nil, gerr
				}
				ys := g.node.Schema()
				return b.correlatedSemiJoin(rel, in, not, g, x, &expr.Column{Index: 0, Name: ys[0].Name, T: ys[0].Type})
			}
		}
		c, y, cerr := b.correlatedIn(in, rel)
		if cerr != nil {
			if errors.Is(cerr, errNotCorrelated) {
				return nil, err
			}
			return nil, cerr
		}
		return b.correlatedSemiJoin(rel, in, not, c, x, y)
	}
	ss := sub.node.Schema()
	if len(ss) != 1 {
		return nil, errorf(in.Subquery, "a subquery in IN must return exactly one column, not %d", len(ss))
	}
	y := &expr.Column{Index: 0, Name: ss[0].Name, T: ss[0].Type}
	j := &SemiJoin{Anti: not, NullAware: not && !y.T.NotNull}
	return b.semiJoin(rel, j, sub.node, []expr.Expr{x}, []expr.Expr{y}, nil, in)
}

// correlatedSemiJoin semi (anti) joins rel with the correlated subquery
// c of `x [NOT] IN`, matching x with y (over c's relation) beside the
// correlation.
func (b *Binder) correlatedSemiJoin(rel *relation, in *ast.In, not bool, c *correlated, x, y expr.Expr) (*relation, error) {
	if not && !(x.Type().NotNull && y.Type().NotNull) {
		return nil, errorf(in, "NOT IN over a correlated subquery is supported when both sides are NOT NULL; use NOT EXISTS")
	}
	j := &SemiJoin{Anti: not}
	return b.semiJoin(rel, j, c.node, append([]expr.Expr{x}, c.outer...), append([]expr.Expr{y}, c.inner...), c.residual, in)
}

// correlatedIn binds the subquery of `x IN (SELECT y FROM ... WHERE ...)`
// whose WHERE correlates it with the outer query: its correlation (the
// inner relation filtered by its own conditions, the outer and inner sides
// of the equalities, which join as keys beside x = y, and the other
// correlated conditions) and y over the inner relation.
func (b *Binder) correlatedIn(in *ast.In, rel *relation) (*correlated, expr.Expr, error) {
	sel, ok := in.Subquery.(*ast.Select)
	if !ok || sel.From == nil || sel.Where == nil || len(sel.Items) != 1 || sel.Items[0].Star {
		return nil, nil, errNotCorrelated
	}
	if len(sel.GroupBy) > 0 || sel.Having != nil || sel.Limit != nil || sel.Offset != nil || len(findAggregates(sel.Items[0].Expr)) > 0 {
		return nil, nil, errNotCorrelated
	}
	inner, err := b.from(sel.From)
	if err != nil {
		return nil, nil, errNotCorrelated
	}
	ib := &exprBinder{b: b, sc: inner.sc, where: "WHERE"}
	c, err := b.correlate(sel.Where, inner.node, ib, &exprBinder{b: b, sc: rel.sc, where: "WHERE"}, "IN subquery")
	if err != nil {
		return nil, nil, err
	}
	y, err := ib.bind(sel.Items[0].Expr)
	if err != nil {
		return nil, nil, err
	}
	return c, y, nil
}

// correlated is a subquery's relation with its correlation to the outer
// query: the inner relation filtered by the conditions on it alone, and
// the equalities between an outer and an inner expression.
type correlated struct {
	node         Node
	outer, inner []expr.Expr
	innerAST     []ast.Expr // the inner sides as written
	// residual are the other conditions that read the outer query (Flink's
	// non-equi correlation conditions), bound over the outer row followed
	// by the inner one; residualAST as written.
	residual    []expr.Expr
	residualAST []ast.Expr
}

// onlyEqualities refuses c's residual conditions, for a subquery whose
// plan takes equalities only (what names the subquery in the error).
func (c *correlated) onlyEqualities(what string) error {
	if len(c.residualAST) > 0 {
		return errorf(c.residualAST[0], "a correlated %s condition must be an equality between an outer and an inner expression", what)
	}
	return nil
}

// correlate splits the WHERE of a subquery over inner into conditions on
// the inner relation alone, correlating equalities and the other
// conditions that read the outer query, as Flink's SubQueryDecorrelator
// (analyzeCorConditions) splits them. A condition with an OR over the
// outer query is refused, as Flink does not decorrelate it (what names the
// subquery in the error); one that fails to bind for another reason gives
// its error, and without any correlation the error is errNotCorrelated.
func (b *Binder) correlate(where ast.Expr, inner Node, ib, ob *exprBinder, what string) (*correlated, error) {
	if where == nil {
		return nil, errNotCorrelated
	}
	out := &correlated{node: inner}
	var filters []expr.Expr
	both := &exprBinder{b: b, sc: correlationScope(ob.sc, ib.sc), where: "WHERE"}
	for _, c := range astConjuncts(where) {
		f, err := ib.bind(c)
		if err == nil {
			filters = append(filters, f)
			continue
		}
		o, in, ok := correlationAST(c, ob, ib)
		if !ok {
			r, berr := both.bind(c)
			if berr != nil {
				if ob.hook != nil {
					// Over an aggregation the outer query's columns are its
					// group keys: another is refused as the outer query
					// refuses it (Expression 'a.v' is not being grouped).
					if oerr := outerBindError(c, ib, ob); oerr != nil {
						return nil, oerr
					}
				}
				return nil, err
			}
			if or := correlatedOr(c, ib); or != nil {
				return nil, errorf(or, "a correlated %s condition with OR over the outer query is not supported (Flink does not decorrelate it)", what)
			}
			if err := wantBoolean(c, r); err != nil {
				return nil, err
			}
			out.residual, out.residualAST = append(out.residual, r), append(out.residualAST, c)
			continue
		}
		i, err := ib.bind(in)
		if err != nil {
			return nil, err
		}
		out.outer, out.inner, out.innerAST = append(out.outer, o), append(out.inner, i), append(out.innerAST, in)
	}
	if len(out.outer) == 0 && len(out.residual) == 0 {
		return nil, errNotCorrelated
	}
	if len(filters) > 0 {
		out.node = newCalc(inner, identity(inner.Schema()), and(filters), inner.Schema())
	}
	return out, nil
}

// outerBindError is the error of the outer binder ob on the first name
// of c that the inner binder ib does not resolve, nil when ob binds them.
func outerBindError(c ast.Expr, ib, ob *exprBinder) error {
	var err error
	walkAST(c, func(n ast.Expr) bool {
		if id, ok := n.(*ast.Ident); ok && err == nil {
			if _, ierr := ib.bind(id); ierr != nil {
				_, err = ob.bind(id)
			}
		}
		_, sub := n.(*ast.SubqueryExpr)
		return err == nil && !sub
	})
	return err
}

// outerHaving refuses a HAVING of sel that reads the outer query (outer
// is its scope), outside EXISTS and IN with GROUP BY (groupedCorrelation).
func (b *Binder) outerHaving(sel *ast.Select, outer *scope) error {
	if sel.Having == nil || sel.From == nil {
		return nil
	}
	inner, err := b.from(sel.From)
	if err != nil {
		return nil
	}
	if id := outerName(sel.Having, inner.sc, correlationScope(outer, inner.sc)); id != nil {
		return errorf(id, "a HAVING that reads the outer query ('%s') is supported in EXISTS and IN subqueries with GROUP BY only", exprTextAST(id))
	}
	return nil
}

// correlationScope is the scope of a correlated condition: the outer
// columns followed by the inner ones, a name meaning the inner column when
// both have it (the outer column stays reachable through its qualifier
// when the inner query has no table of that name).
func correlationScope(outer, inner *scope) *scope {
	out := &scope{}
	for _, c := range outer.cols {
		for _, ic := range inner.cols {
			if ic.name == c.name {
				c.merged = true
			}
			if ic.qual == c.qual && c.qual != "" {
				c.qual, c.merged = "\x00", true
			}
		}
		out.cols = append(out.cols, c)
	}
	out.cols = append(out.cols, inner.cols...)
	return out
}

// correlatedOr returns an OR in c that reads the outer query, nil when
// there is none.
func correlatedOr(c ast.Expr, ib *exprBinder) ast.Expr {
	var found ast.Expr
	walkAST(c, func(n ast.Expr) bool {
		if or, ok := n.(*ast.Binary); ok && or.Op == "OR" && found == nil {
			if _, err := ib.bind(or); err != nil {
				found = or
			}
		}
		return found == nil
	})
	return found
}

// exists plans `[NOT] EXISTS (SELECT ... FROM ... WHERE ...)` correlated
// with the outer query: a semi (anti) join on its equalities between outer
// and inner expressions, and on its other correlated conditions (Flink's
// semi join with a non-equi condition; without equalities, a semi join
// without keys on one instance).
func (b *Binder) exists(rel *relation, e *ast.SubqueryExpr, not bool) (*relation, error) {
	if atLeastOneRow(e.Query) {
		// Calcite's SqlToRelConverter (convertExists) replaces EXISTS over a
		// query whose least row count is one by TRUE, so NOT EXISTS is FALSE.
		if err := b.checkExistsQuery(rel, e.Query); err != nil {
			return nil, err
		}
		if !not {
			return rel, nil
		}
		schema := rel.node.Schema()
		return &relation{node: newCalc(rel.node, identity(schema), falseLit(), schema), sc: rel.sc}, nil
	}
	sel, ok := e.Query.(*ast.Select)
	if ok && sel.From != nil && sel.Having != nil && len(sel.GroupBy) == 0 && sel.Limit == nil && sel.Offset == nil && !sel.Distinct {
		if rel, err := b.existsHaving(rel, e, sel, not); !errors.Is(err, errNotCorrelated) {
			return rel, err
		}
	}
	if !ok || sel.From == nil || len(sel.GroupBy) > 0 || sel.Having != nil || sel.Limit != nil || sel.Offset != nil || sel.Distinct {
		sub, err := b.query(e.Query)
		if err == nil {
			// Uncorrelated: every outer row passes while the query has a
			// row, whatever its shape (Flink's FlinkSubQueryRemoveRule
			// semi joins on IS NOT NULL(MIN(TRUE)) over it).
			return b.semiJoin(rel, &SemiJoin{Anti: not}, sub.node, nil, nil, nil, e)
		}
		if ok && sel.From != nil && len(sel.GroupBy) > 0 && sel.Limit == nil && sel.Offset == nil {
			// The select list is not computed, but must be valid over the
			// groups.
			if g, gerr := b.groupedCorrelation(rel, &exprBinder{b: b, sc: rel.sc, where: "WHERE"}, sel, sel.Items, "EXISTS subquery"); !errors.Is(gerr, errNotCorrelated) {
				if gerr != nil {
					return nil, gerr
				}
				return b.semiJoin(rel, &SemiJoin{Anti: not, KeepNullKeys: not}, g.node, g.outer, g.inner, g.residual, e)
			}
		}
		if ok && sel.From != nil {
			if outer, nerr := b.outerNames(rel, sel); nerr != nil || !outer {
				return nil, cmp.Or(nerr, err)
			}
			if herr := b.outerHaving(sel, rel.sc); herr != nil {
				return nil, herr
			}
		}
		return nil, errorf(e, "a correlated EXISTS is supported over SELECT ... FROM ... WHERE ... [GROUP BY ...] [HAVING ...] without DISTINCT, LIMIT or OFFSET")
	}
	inner, err := b.from(sel.From)
	if err != nil {
		return nil, err
	}
	ib := &exprBinder{b: b, sc: inner.sc, where: "WHERE"}
	c, err := b.correlate(sel.Where, inner.node, ib, &exprBinder{b: b, sc: rel.sc, where: "WHERE"}, "EXISTS")
	if errors.Is(err, errNotCorrelated) {
		// Uncorrelated: every outer row passes while the subquery has a
		// row (a semi join without keys).
		sub, err := b.query(e.Query)
		if err != nil {
			return nil, err
		}
		return b.semiJoin(rel, &SemiJoin{Anti: not}, sub.node, nil, nil, nil, e)
	}
	if err != nil {
		return nil, err
	}
	if err := nonEquiAggregates(c, sel, "EXISTS"); err != nil {
		return nil, err
	}
	// The select list is not computed, but its names must exist.
	both := &exprBinder{b: b, sc: correlationScope(rel.sc, inner.sc), where: "WHERE"}
	if _, err := checkNames(itemExprs(sel.Items), ib, both); err != nil {
		return nil, err
	}
	j := &SemiJoin{Anti: not, KeepNullKeys: not}
	return b.semiJoin(rel, j, c.node, c.outer, c.inner, c.residual, e)
}

// existsHaving plans [NOT] EXISTS over a correlated SELECT ... FROM ...
// WHERE ... HAVING ... without GROUP BY, whose one group gives a row where
// HAVING holds: EXISTS is the HAVING condition over the outer row's group
// of inner rows, empty or not (COUNT(*) = 0 holds for an outer row without
// inner rows). It is the correlated scalar subquery of that condition
// (a LEFT JOIN with its value per correlation key, the value over no rows
// for the keys without any), whose value IS TRUE (IS NOT TRUE for NOT
// EXISTS), as Calcite's RelDecorrelator gives each outer value its group
// before the HAVING filter. (Flink's SubQueryDecorrelator, which plans
// EXISTS in WHERE, groups the inner rows by the correlation keys instead,
// so the outer rows without inner rows never meet the HAVING.) An
// uncorrelated subquery is errNotCorrelated.
func (b *Binder) existsHaving(rel *relation, e *ast.SubqueryExpr, sel *ast.Select, not bool) (*relation, error) {
	for _, it := range sel.Items {
		if it.Star {
			return nil, errorf(it, "a correlated EXISTS subquery with HAVING selects no *: its columns are not grouped")
		}
	}
	if err := b.outerHaving(sel, rel.sc); err != nil {
		return nil, err
	}
	ob := &exprBinder{b: b, sc: rel.sc, where: "WHERE"}
	scalar := func(item ast.Expr) (*ast.SubqueryExpr, *scalarSide, error) {
		s := &ast.SubqueryExpr{Pos: e.Pos, Query: &ast.Select{Pos: sel.Pos, From: sel.From, Where: sel.Where,
			Items: []*ast.SelectItem{{Pos: item.Position(), Expr: item}}}}
		side, err := b.correlatedScalar(s, rel.node, ob)
		return s, side, err
	}
	cond, side, err := scalar(sel.Having)
	if err != nil {
		return nil, err
	}
	if err := wantBoolean(sel.Having, &expr.Column{T: side.node.Schema()[side.values[0]].Type}); err != nil {
		return nil, err
	}
	if len(findAggregates(sel.Having)) == 0 {
		return nil, errorf(sel.Having, "a correlated EXISTS subquery with HAVING and no aggregate is not supported yet")
	}
	// The select list is not computed, but must be valid over the group.
	for _, it := range sel.Items {
		if _, isLit := it.Expr.(*ast.Literal); !isLit {
			if _, _, err := scalar(&ast.Case{Pos: it.Pos, Whens: []*ast.When{{Pos: it.Pos, Cond: sel.Having, Result: it.Expr}}}); err != nil {
				return nil, err
			}
		}
	}
	test := "IS TRUE"
	if not {
		test = "IS NOT TRUE"
	}
	return b.filterOnScalar(rel, cond, side, func(jb *exprBinder, value expr.Expr) (expr.Expr, error) {
		return jb.call(e, test, []expr.Expr{value}, nil)
	})
}

// filterOnScalar joins rel with the scalar subquery s (side) and keeps
// the rows where the condition cond makes of its value holds (cond binds
// over the joined rows with jb); the value is left out again.
func (b *Binder) filterOnScalar(rel *relation, s *ast.SubqueryExpr, side *scalarSide, cond func(jb *exprBinder, value expr.Expr) (expr.Expr, error)) (*relation, error) {
	joined, err := b.attachScalar(rel, s, side)
	if err != nil {
		return nil, err
	}
	js := joined.node.Schema()
	n := len(js) - 1
	filter, err := cond(&exprBinder{b: b, sc: &scope{cols: joined.sc.cols[:n]}, where: "WHERE"}, &expr.Column{Index: n, Name: js[n].Name, T: js[n].Type})
	if err != nil {
		return nil, err
	}
	return &relation{node: newCalc(joined.node, identity(js[:n]), filter, js[:n]), sc: &scope{cols: joined.sc.cols[:n]}}, nil
}

// inAggregate plans `x [NOT] IN (SELECT agg FROM ... WHERE ...)`, a
// correlated aggregation without GROUP BY: its one row (where its HAVING
// holds) holds the aggregate over the outer row's group of inner rows,
// empty or not (COUNT(*) is 0 for an outer row without inner rows), so
// IN is x = that value, as the scalar subquery below gives it, and NOT IN
// x <> it (without HAVING there is always that row). An uncorrelated
// subquery is errNotCorrelated.
func (b *Binder) inAggregate(rel *relation, in *ast.In, not bool) (*relation, error) {
	sel, ok := in.Subquery.(*ast.Select)
	if !ok || sel.From == nil || len(sel.Items) != 1 || sel.Items[0].Star || len(sel.GroupBy) > 0 || sel.Distinct || sel.Limit != nil || sel.Offset != nil ||
		len(findAggregates(sel.Items[0].Expr)) == 0 && (sel.Having == nil || len(findAggregates(sel.Having)) == 0) {
		return nil, errNotCorrelated
	}
	s := &ast.SubqueryExpr{Pos: in.Pos, Query: sel}
	side, err := b.correlatedScalar(s, rel.node, &exprBinder{b: b, sc: rel.sc, where: "WHERE"})
	if err != nil {
		return nil, err
	}
	if not && sel.Having != nil {
		return nil, errorf(in, "NOT IN over a correlated aggregation with HAVING is not supported yet; use NOT EXISTS")
	}
	op := "="
	if not {
		op = "<>"
	}
	return b.filterOnScalar(rel, s, side, func(jb *exprBinder, value expr.Expr) (expr.Expr, error) {
		x, err := jb.bind(in.X)
		if err != nil {
			return nil, err
		}
		return jb.call(in, op, []expr.Expr{x, value}, nil)
	})
}

// groupedCorrelation decorrelates SELECT items FROM ... WHERE ... GROUP BY
// ... [HAVING ...] correlated with the outer query rel for a semi join, as
// Flink's SubQueryDecorrelator decorrelates an aggregation: the inner
// sides of the WHERE's correlating equalities join the group keys, and
// the HAVING's correlated conditions leave it for the join's condition
// (its filter is above the aggregation). The query without its correlated
// conditions, grouped by its keys and those inner sides, selects items,
// the aggregates and columns the correlated HAVING reads, then the inner
// sides, which the outer sides (outer) match (inner); residual is the
// correlated HAVING over the outer row followed by that row. A query
// without correlation is errNotCorrelated.
func (b *Binder) groupedCorrelation(rel *relation, ob *exprBinder, sel *ast.Select, items []*ast.SelectItem, what string) (*correlated, error) {
	inner, err := b.from(sel.From)
	if err != nil {
		return nil, errNotCorrelated
	}
	ib := &exprBinder{b: b, sc: inner.sc, where: "WHERE"}
	c, err := b.correlate(sel.Where, inner.node, ib, ob, what)
	switch {
	case errors.Is(err, errNotCorrelated):
		c = &correlated{}
	case err != nil:
		return nil, err
	case len(c.residualAST) > 0:
		// Flink's SubQueryDecorrelator (checkCorCondition) decorrelates an
		// aggregation over equalities only.
		if what == scalarWhat {
			// Calcite's RelDecorrelator plans it with a value generator.
			return nil, errorf(c.residualAST[0], "a correlated scalar subquery with GROUP BY correlated by other conditions than equalities is not supported yet")
		}
		return nil, errorf(c.residualAST[0], "a correlated %s with GROUP BY is supported when its correlation is equalities only (as in Flink)", what)
	}
	for _, g := range sel.GroupBy {
		if gs, sets := g.(*ast.GroupingSets); sets {
			return nil, errorf(g, "a correlated %s grouped by %s is not supported yet", what, gs.Kind)
		}
	}
	q := *sel
	var local, having, correlatedHaving []ast.Expr
	if sel.Where != nil {
		for _, f := range astConjuncts(sel.Where) {
			if _, err := ib.bind(f); err == nil {
				local = append(local, f)
			}
		}
	}
	// A HAVING condition reads the outer query when a name of it, outside
	// its subqueries, is no inner column but an outer one; the aggregates
	// and inner columns it reads are selected for the join's condition.
	both := correlationScope(rel.sc, inner.sc)
	var reads []ast.Expr
	if sel.Having != nil {
		for _, h := range astConjuncts(sel.Having) {
			if outerName(h, inner.sc, both) == nil {
				having = append(having, h)
				continue
			}
			correlatedHaving = append(correlatedHaving, h)
			walkAST(h, func(n ast.Expr) bool {
				if f, ok := n.(*ast.FuncCall); ok && len(findAggregates(f)) > 0 && findAggregates(f)[0] == f {
					reads = append(reads, f)
					return false
				}
				if id, ok := n.(*ast.Ident); ok {
					if _, err := inner.sc.resolve(id); err == nil {
						reads = append(reads, id)
					}
				}
				return true
			})
		}
	}
	if len(c.outer) == 0 && len(correlatedHaving) == 0 {
		return nil, errNotCorrelated
	}
	q.Where, q.Having = andAST(local), andAST(having)
	q.Items = slices.Clone(items)
	for _, r := range reads {
		q.Items = append(q.Items, &ast.SelectItem{Pos: r.Position(), Expr: r})
	}
	q.GroupBy = slices.Clone(sel.GroupBy)
	for _, in := range c.innerAST {
		q.Items = append(q.Items, &ast.SelectItem{Pos: in.Position(), Expr: in})
		q.GroupBy = append(q.GroupBy, in)
	}
	sub, err := b.query(&q)
	if err != nil {
		return nil, err
	}
	ss := sub.node.Schema()
	out := &correlated{node: sub.node, outer: c.outer}
	for k := range c.innerAST {
		i := len(ss) - len(c.innerAST) + k
		out.inner = append(out.inner, &expr.Column{Index: i, Name: ss[i].Name, T: ss[i].Type})
	}
	first, n := len(ss)-len(c.innerAST)-len(reads), len(rel.node.Schema())
	hb := &exprBinder{b: b, sc: rel.sc, where: "HAVING", hook: func(e ast.Expr) (expr.Expr, bool, error) {
		if i := slices.Index(reads, e); i >= 0 {
			j := first + i
			return &expr.Column{Index: n + j, Name: ss[j].Name, T: ss[j].Type}, true, nil
		}
		return nil, false, nil
	}}
	for _, h := range correlatedHaving {
		r, err := hb.bind(h)
		if err != nil {
			return nil, err
		}
		if err := wantBoolean(h, r); err != nil {
			return nil, err
		}
		out.residual = append(out.residual, r)
	}
	return out, nil
}

// outerName finds a name of e, outside its subqueries, that is no column
// of the inner scope but one of both (the outer columns then the inner
// ones); nil when there is none.
func outerName(e ast.Expr, inner, both *scope) *ast.Ident {
	var found *ast.Ident
	walkAST(e, func(n ast.Expr) bool {
		if id, ok := n.(*ast.Ident); ok && found == nil {
			if _, err := inner.resolve(id); err != nil {
				if _, err := both.resolve(id); err == nil {
					found = id
				}
			}
		}
		_, sub := n.(*ast.SubqueryExpr)
		return found == nil && !sub
	})
	return found
}

// outerNames reports whether a name of sel, which failed to bind on its
// own, is a column of the outer query rel, or the first name that neither
// resolves.
func (b *Binder) outerNames(rel *relation, sel *ast.Select) (bool, error) {
	inner, err := b.from(sel.From)
	if err != nil {
		return false, err
	}
	es := append([]ast.Expr{sel.Where, sel.Having}, itemExprs(sel.Items)...)
	es = append(es, sel.GroupBy...)
	return checkNames(es, &exprBinder{b: b, sc: inner.sc, where: "WHERE"}, &exprBinder{b: b, sc: correlationScope(rel.sc, inner.sc), where: "WHERE"})
}

// atLeastOneRow reports a query that gives at least one row whatever its
// tables hold, as Calcite's RelMdMinRowCount finds it: an aggregation
// without GROUP BY and HAVING (one row even over no input), a SELECT
// without FROM and WHERE, VALUES with rows; with no LIMIT or OFFSET.
func atLeastOneRow(q ast.Query) bool {
	switch q := q.(type) {
	case *ast.Values:
		return len(q.Rows) > 0
	case *ast.Select:
		if q.Having != nil || q.Limit != nil || q.Offset != nil || len(q.GroupBy) > 0 {
			return false
		}
		if q.From == nil {
			return q.Where == nil
		}
		for _, it := range q.Items {
			if !it.Star && len(findAggregates(it.Expr)) > 0 {
				return true
			}
		}
	}
	return false
}

// checkExistsQuery validates the query of an EXISTS whose value is known
// without running it, as Calcite converts it before replacing it: the
// query as it stands or, when its names read the outer query, those names
// and its WHERE over the outer and inner columns.
func (b *Binder) checkExistsQuery(rel *relation, q ast.Query) error {
	_, err := b.query(q)
	sel, ok := q.(*ast.Select)
	if err == nil || !ok || sel.From == nil {
		return err
	}
	inner, ierr := b.from(sel.From)
	if ierr != nil {
		return ierr
	}
	ib := &exprBinder{b: b, sc: inner.sc, where: "WHERE"}
	both := &exprBinder{b: b, sc: correlationScope(rel.sc, inner.sc), where: "WHERE"}
	outer, nameErr := checkNames(append([]ast.Expr{sel.Where}, itemExprs(sel.Items)...), ib, both)
	switch {
	case nameErr != nil:
		return nameErr
	case !outer:
		return err
	case sel.Where == nil:
		return nil
	}
	c, err := both.bind(sel.Where)
	if err != nil {
		return err
	}
	return wantBoolean(sel.Where, c)
}

// checkNames resolves the column names of es in the inner scope of a
// subquery (ib) or else with the outer query's columns too (both),
// reporting whether some name is the outer query's, or the first name
// neither resolves.
func checkNames(es []ast.Expr, ib, both *exprBinder) (outer bool, err error) {
	for _, e := range es {
		walkAST(e, func(n ast.Expr) bool {
			if id, ok := n.(*ast.Ident); ok && err == nil {
				if _, ierr := ib.bind(id); ierr != nil {
					_, err = both.bind(id)
					outer = true
				}
			}
			return err == nil
		})
	}
	return outer, err
}

// itemExprs are the expressions of a select list, stars left out.
func itemExprs(items []*ast.SelectItem) []ast.Expr {
	var out []ast.Expr
	for _, it := range items {
		if !it.Star {
			out = append(out, it.Expr)
		}
	}
	return out
}

// nonEquiAggregates refuses a subquery with aggregates or OVER correlated
// by other conditions than equalities, as Flink's SubQueryDecorrelator
// does (checkCorCondition).
func nonEquiAggregates(c *correlated, sel *ast.Select, what string) error {
	if len(c.residualAST) == 0 {
		return nil
	}
	for _, it := range sel.Items {
		if calls := append(findAggregates(it.Expr), findOvers(it.Expr)...); len(calls) > 0 {
			return errorf(calls[0], "a correlated %s subquery with aggregates or OVER is supported when its correlation is equalities only (as in Flink)", what)
		}
	}
	return nil
}

// semiJoin completes j between rel and right, matching leftKeys (over rel)
// to rightKeys (over right), both compared in their common types, and
// meeting the conditions conds over rel's row followed by right's.
func (b *Binder) semiJoin(rel *relation, j *SemiJoin, right Node, leftKeys, rightKeys, conds []expr.Expr, at ast.Node) (*relation, error) {
	ls := rel.node.Schema()
	left := append(types.Schema{}, ls...)
	leftProj := identity(ls)
	var rightProj []expr.Expr
	var rightSchema types.Schema
	for k := range leftKeys {
		lt, rt := leftKeys[k].Type(), rightKeys[k].Type()
		t, ok := types.CommonType(lt.Plain(), rt.Plain())
		if !ok {
			return nil, errorf(at, "cannot compare %s with %s", lt.Plain(), rt.Plain())
		}
		if c, ok := leftKeys[k].(*expr.Column); ok && types.Equal(c.T.Nullable(), t.Nullable()) {
			j.LeftKeys = append(j.LeftKeys, c.Index)
		} else {
			// A computed or converted key travels as an extra column,
			// dropped after the join.
			j.LeftKeys = append(j.LeftKeys, len(left))
			left = append(left, types.Field{Name: "$f" + itoa(len(left)), Type: t.WithNotNull(lt.NotNull)})
			leftProj = append(leftProj, coerce(leftKeys[k], t))
		}
		j.RightKeys = append(j.RightKeys, k)
		rightSchema = append(rightSchema, types.Field{Name: keyName(rightKeys[k], right.Schema(), k), Type: t.WithNotNull(rt.NotNull)})
		rightProj = append(rightProj, coerce(rightKeys[k], t))
	}
	if len(conds) > 0 {
		// The right side carries its columns after the keys, for the
		// condition.
		rs := right.Schema()
		rightProj = append(rightProj, identity(rs)...)
		used := map[string]int{}
		for _, f := range rightSchema {
			used[f.Name] = 1
		}
		for _, f := range rs {
			// Unique names, as Calcite's (k, k0).
			name := f.Name
			for n := used[name] - 1; used[name] > 0; n++ {
				name = f.Name + itoa(n)
			}
			used[name] = 1
			rightSchema = append(rightSchema, types.Field{Name: name, Type: f.Type})
		}
		at := len(left) + len(rightKeys)
		j.Cond = expr.Remap(and(conds), func(c *expr.Column) expr.Expr {
			if c.Index < len(ls) {
				return c
			}
			return &expr.Column{Index: at + c.Index - len(ls), Name: c.Name, T: c.T}
		})
	}
	j.Left = newCalc(rel.node, leftProj, nil, left)
	j.Right = newCalc(right, rightProj, nil, rightSchema)
	j.schema = left
	if len(left) == len(ls) {
		return &relation{node: j, sc: rel.sc}, nil
	}
	return &relation{node: newCalc(j, identity(ls), nil, ls), sc: rel.sc}, nil
}

// keyName names a right key column after the column it reads.
func keyName(e expr.Expr, s types.Schema, k int) string {
	if c, ok := e.(*expr.Column); ok {
		return s[c.Index].Name
	}
	return "$f" + itoa(k)
}
