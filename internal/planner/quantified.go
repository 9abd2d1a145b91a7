package planner

import (
	"slices"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// The parser rewrites `x < ANY (q)` and the other ordering comparisons
// with ANY, SOME or ALL into scalar subqueries over q's rows, each
// `SELECT agg($q.$v) FROM (q) AS $q($v)` (parser/quantified.go). When q is
// correlated with the outer query, that wrapper does not bind; if q is
// `SELECT e FROM ... WHERE ...` without aggregates, the wrapper's
// aggregates are taken over e in q itself, which is then a correlated
// scalar subquery (correlatedScalar), as Calcite's SubQueryRemoveRule
// rewrites a correlated SOME over q's rows grouped by the correlation.

// isQuantified reports one of the parser's scalar subqueries over the
// rows of a quantified comparison's subquery. Uncorrelated, it is inner
// joined, as Calcite joins the outer rows with the subquery's aggregate
// (a streaming aggregation has no row until the subquery has one, so over
// an empty subquery there is no result at all, as in Flink).
func isQuantified(s *ast.SubqueryExpr) bool {
	w, ok := s.Query.(*ast.Select)
	if !ok {
		return false
	}
	ref, ok := w.From.(*ast.SubqueryRef)
	return ok && ref.Alias == "$q" && slices.Equal(ref.ColumnAliases, []string{"$v"})
}

// quantifiedColumns refuses the subquery of a quantified comparison (the
// FROM item of the parser's wrapper) that gives more than one column:
// columns is the number it gives once bound, or -1 before, when only a
// SELECT list without * tells.
func quantifiedColumns(ref *ast.SubqueryRef, columns int) error {
	if ref.Alias != "$q" || !slices.Equal(ref.ColumnAliases, []string{"$v"}) {
		return nil
	}
	if q, ok := ref.Query.(*ast.Select); ok && columns < 0 && !slices.ContainsFunc(q.Items, func(it *ast.SelectItem) bool { return it.Star }) {
		columns = len(q.Items)
	}
	if columns > 1 {
		return errorf(ref.Query, "a subquery in a quantified comparison must return exactly one column, not %d", columns)
	}
	return nil
}

// inlineQuantified returns s's wrapper with q's FROM and WHERE and its
// value in place of $q.$v, or s itself when s is no such wrapper.
func inlineQuantified(s *ast.SubqueryExpr) *ast.SubqueryExpr {
	if !isQuantified(s) {
		return s
	}
	w := s.Query.(*ast.Select)
	q, ok := w.From.(*ast.SubqueryRef).Query.(*ast.Select)
	if !ok || q.From == nil || q.Where == nil || len(q.Items) != 1 || q.Items[0].Star || q.Distinct ||
		len(q.GroupBy) > 0 || q.Having != nil || q.Limit != nil || q.Offset != nil || len(q.OrderBy) > 0 ||
		len(findAggregates(q.Items[0].Expr)) > 0 {
		return s
	}
	item := &ast.SelectItem{Pos: w.Items[0].Pos, Expr: substituteValue(w.Items[0].Expr, q.Items[0].Expr)}
	return &ast.SubqueryExpr{Pos: s.Pos, Query: &ast.Select{Pos: q.Pos, From: q.From, Where: q.Where, Items: []*ast.SelectItem{item}}}
}

// substituteValue returns e, of the shapes the parser's rewrite builds,
// with v in place of $q.$v.
func substituteValue(e, v ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.Ident:
		if slices.Equal(x.Parts, []string{"$q", "$v"}) {
			return v
		}
	case *ast.FuncCall:
		c := *x
		c.Args = make([]ast.Expr, len(x.Args))
		for i, a := range x.Args {
			c.Args[i] = substituteValue(a, v)
		}
		return &c
	case *ast.Binary:
		return &ast.Binary{Pos: x.Pos, Op: x.Op, L: substituteValue(x.L, v), R: substituteValue(x.R, v)}
	case *ast.Case:
		c := &ast.Case{Pos: x.Pos, Else: x.Else}
		for _, w := range x.Whens {
			c.Whens = append(c.Whens, &ast.When{Pos: w.Pos, Cond: substituteValue(w.Cond, v), Result: w.Result})
		}
		return c
	}
	return e
}

// quantifiedReadsOuter reports a subquery of a quantified comparison (s is
// the parser's wrapper) that inlineQuantified could not take apart and
// that reads a column of the outer query by a qualifier its own FROM does
// not have: a correlation of a shape that is not supported (Calcite
// decorrelates it; Sluice plans SELECT e FROM ... WHERE ... only).
func (b *Binder) quantifiedReadsOuter(s *ast.SubqueryExpr, outer *exprBinder) bool {
	if !isQuantified(s) {
		return false
	}
	q, ok := s.Query.(*ast.Select).From.(*ast.SubqueryRef).Query.(*ast.Select)
	if !ok || q.From == nil || len(q.Items) != 1 || q.Items[0].Star {
		// Not one value: the error binding q gave says so.
		return false
	}
	inner, err := b.from(q.From)
	if err != nil {
		return false
	}
	found := false
	check := func(e ast.Expr) {
		walkAST(e, func(n ast.Expr) bool {
			if id, ok := n.(*ast.Ident); ok && len(id.Parts) > 1 && !inner.sc.hasQualifier(id.Parts[len(id.Parts)-2]) {
				if _, err := outer.sc.resolve(id); err == nil {
					found = true
				}
			}
			return !found
		})
	}
	check(q.Where)
	check(q.Having)
	for _, it := range q.Items {
		check(it.Expr)
	}
	for _, g := range q.GroupBy {
		check(g)
	}
	return found
}
