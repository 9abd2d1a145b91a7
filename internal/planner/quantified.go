package planner

import (
	"slices"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// A quantified comparison, `x op ANY (q)` (or SOME) or `x op ALL (q)` with
// a subquery or a list of values, stays as written in the syntax tree
// (ast.Quantified); the binder rewrites it as Calcite's SqlToRelConverter
// and SubQueryRemoveRule do, once per node (Binder.rewriteQuantified),
// and binds the rewrite:
//
//   - over a list of values, the comparisons with each (quantifiedList);
//   - `x = ANY (q)` is `x IN (q)` and `x <> ALL (q)` is `x NOT IN (q)`,
//     with the same NULL semantics;
//   - `x op SOME (q)` for another comparison op (<>, <, <=, >, >=) is a
//     CASE over scalar subqueries of q's rows (some);
//   - `x op ALL (q)` is NOT (x op' SOME (q)) for the opposite op' (`x =
//     ALL (q)` is NOT (x <> SOME (q))).
//
// Each scalar subquery is `SELECT agg($q.$v) FROM (q) AS $q($v)`. When q
// is correlated with the outer query, that wrapper does not bind; if q is
// `SELECT e FROM ... WHERE ...` without aggregates, the wrapper's
// aggregates are taken over e in q itself, which is then a correlated
// scalar subquery (correlatedScalar), as Calcite's SubQueryRemoveRule
// rewrites a correlated SOME over q's rows grouped by the correlation.

// rewriteQuantified returns e's rewrite when e is a quantified
// comparison, e itself otherwise. The rewrite of a node is built once
// and kept, since its scalar subqueries are joined to the rows and then
// found again by identity when the rewrite is bound.
func (b *Binder) rewriteQuantified(e ast.Expr) ast.Expr {
	q, ok := e.(*ast.Quantified)
	if !ok {
		return e
	}
	if r, ok := b.quantified[q]; ok {
		return r
	}
	var r ast.Expr
	switch {
	case q.Subquery == nil:
		r = quantifiedList(q.Left, q.Op, q.All(), q.List)
	case q.Op == "=" && !q.All():
		r = &ast.In{Pos: q.Pos, X: q.Left, Subquery: q.Subquery}
	case q.Op == "<>" && q.All():
		r = &ast.In{Pos: q.Pos, X: q.Left, Subquery: q.Subquery, Not: true}
	case q.All():
		r = &ast.Unary{Pos: q.Pos, Op: "NOT", X: some(q.At, q.Left, opposite[q.Op], q.Subquery)}
	default:
		r = some(q.At, q.Left, q.Op, q.Subquery)
	}
	if b.quantified == nil {
		b.quantified = map[*ast.Quantified]ast.Expr{}
	}
	b.quantified[q] = r
	return r
}

// quantifiedList rewrites `x op ANY (v1, v2, ...)` (or SOME) as `x op v1
// OR x op v2 OR ...` and `x op ALL (...)` as `x op v1 AND x op v2 AND
// ...`, as Calcite's SqlToRelConverter (convertInToOr) rewrites a
// quantified comparison over a list of values: NULLs follow from three-
// valued OR and AND (`x > ALL (1, NULL)` is NULL when x > 1, FALSE
// otherwise).
func quantifiedList(x ast.Expr, op string, all bool, values []ast.Expr) ast.Expr {
	join := "OR"
	if all {
		join = "AND"
	}
	var e ast.Expr
	for _, v := range values {
		c := &ast.Binary{Pos: x.Position(), Op: op, L: x, R: v}
		if e == nil {
			e = c
			continue
		}
		e = &ast.Binary{Pos: x.Position(), Op: join, L: e, R: c}
	}
	return e
}

// opposite is the comparison that holds exactly when op does not (for
// values that are not NULL).
var opposite = map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<", "=": "<>"}

// some rewrites `x op SOME (q)` for op other than = as Calcite's
// SubQueryRemoveRule rewrites it (rewriteSome), over two scalar
// subqueries of q's rows. For an ordering comparison they are m, the
// rows' least value for > and >= (the greatest for < and <=), and s, 0
// when q has no row, 2 when one of its values is NULL, 1 otherwise:
//
//	CASE WHEN s = 0 THEN FALSE      -- no row: no comparison holds
//	     WHEN x op m THEN TRUE      -- it holds for m
//	     WHEN s = 2 THEN NULL       -- it might hold for a NULL
//	     ELSE x op m END            -- FALSE, or NULL for a NULL x
//
// For <> they are m, the greatest value, and s, 0 when q has no row, 3
// when it has two different values, 2 when it has a NULL and one value
// at most, 1 when it has one value and no NULL (Calcite counts the
// distinct values; two differ exactly when the least is below the
// greatest):
//
//	CASE WHEN s = 0 THEN FALSE      -- no row
//	     WHEN x IS NULL THEN NULL   -- unknown against every row
//	     WHEN s = 3 THEN TRUE       -- x differs from one of two values
//	     WHEN x <> m THEN TRUE      -- it differs from the one value
//	     WHEN s = 2 THEN NULL       -- it might differ from the NULL
//	     ELSE FALSE END             -- it is the one value
//
// The outer rows are joined with them as Calcite joins them: with an
// uncorrelated q by an inner join, with a correlated one by a left join
// on the correlation.
func some(pos ast.Pos, x ast.Expr, op string, q ast.Query) ast.Expr {
	value := &ast.Ident{Pos: pos, Parts: []string{"$q", "$v"}}
	over := func(e ast.Expr) *ast.SubqueryExpr {
		from := &ast.SubqueryRef{Pos: pos, Query: q, Alias: "$q", ColumnAliases: []string{"$v"}}
		return &ast.SubqueryExpr{Pos: pos, Query: &ast.Select{Pos: pos, From: from, Items: []*ast.SelectItem{{Pos: pos, Expr: e}}}}
	}
	lit := func(kind ast.LiteralKind, text string) ast.Expr {
		return &ast.Literal{Pos: pos, Kind: kind, Text: text}
	}
	call := func(name string, args ...ast.Expr) ast.Expr {
		return &ast.FuncCall{Pos: pos, Name: name, Args: args, Star: name == "COUNT" && len(args) == 0}
	}
	bin := func(l ast.Expr, op string, r ast.Expr) ast.Expr { return &ast.Binary{Pos: pos, Op: op, L: l, R: r} }
	when := func(cond ast.Expr, result ast.Expr) *ast.When { return &ast.When{Pos: pos, Cond: cond, Result: result} }
	number := func(n string) ast.Expr { return lit(ast.NumberLit, n) }
	falseLit, trueLit, null := lit(ast.BoolLit, "FALSE"), lit(ast.BoolLit, "TRUE"), lit(ast.NullLit, "NULL")
	empty := when(bin(call("COUNT"), "=", number("0")), number("0"))
	hasNull := when(bin(call("COUNT"), ">", call("COUNT", value)), number("2"))
	if op == "<>" {
		m := over(call("MAX", value))
		s := over(&ast.Case{Pos: pos, Whens: []*ast.When{
			empty, when(bin(call("MIN", value), "<", call("MAX", value)), number("3")), hasNull,
		}, Else: number("1")})
		return &ast.Case{Pos: pos, Whens: []*ast.When{
			when(bin(s, "=", number("0")), falseLit),
			when(&ast.IsPredicate{Pos: pos, X: x, What: "NULL"}, null),
			when(bin(s, "=", number("3")), trueLit),
			when(bin(x, "<>", m), trueLit),
			when(bin(s, "=", number("2")), null),
		}, Else: falseLit}
	}
	agg := "MIN"
	if op == "<" || op == "<=" {
		agg = "MAX"
	}
	m := over(call(agg, value))
	s := over(&ast.Case{Pos: pos, Whens: []*ast.When{empty, hasNull}, Else: number("1")})
	return &ast.Case{Pos: pos, Whens: []*ast.When{
		when(bin(s, "=", number("0")), falseLit),
		when(bin(x, op, m), trueLit),
		when(bin(s, "=", number("2")), null),
	}, Else: bin(x, op, m)}
}

// isQuantified reports one of the scalar subqueries over the
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
// FROM item of the rewrite's wrapper) that gives more than one column:
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

// substituteValue returns e, of the shapes some builds,
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
// the rewrite's wrapper) that inlineQuantified could not take apart and
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
