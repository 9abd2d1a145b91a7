package parser

import "github.com/sluicesql/sluice/internal/sql/ast"

// opposite is the comparison that holds exactly when op does not (for
// values that are not NULL).
var opposite = map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<"}

// some rewrites `x op SOME (q)` for an ordering comparison op as Calcite's
// SubQueryRemoveRule rewrites it (rewriteSome), over two scalar
// subqueries of q's rows: m, their least value for > and >= (the greatest
// for < and <=), and s, 0 when q has no row, 2 when one of its values is
// NULL, 1 otherwise:
//
//	CASE WHEN s = 0 THEN FALSE      -- no row: no comparison holds
//	     WHEN x op m THEN TRUE      -- it holds for m
//	     WHEN s = 2 THEN NULL       -- it might hold for a NULL
//	     ELSE x op m END            -- FALSE, or NULL for a NULL x
//
// The planner joins the outer rows with them as Calcite does: an
// uncorrelated q by an inner join, a correlated one by a left join on
// the correlation (planner/quantified.go).
func some(pos ast.Pos, x ast.Expr, op string, q ast.Query) ast.Expr {
	value := &ast.Ident{Pos: pos, Parts: []string{"$q", "$v"}}
	over := func(e ast.Expr) *ast.SubqueryExpr {
		from := &ast.SubqueryRef{Pos: pos, Query: q, Alias: "$q", ColumnAliases: []string{"$v"}}
		return &ast.SubqueryExpr{Pos: pos, Query: &ast.Select{Pos: pos, From: from, Items: []*ast.SelectItem{{Pos: pos, Expr: e}}}}
	}
	lit := func(kind ast.LiteralKind, text string) ast.Expr {
		return &ast.Literal{Pos: pos, Kind: kind, Text: text}
	}
	count := func(args ...ast.Expr) ast.Expr {
		return &ast.FuncCall{Pos: pos, Name: "COUNT", Args: args, Star: len(args) == 0}
	}
	agg := "MIN"
	if op == "<" || op == "<=" {
		agg = "MAX"
	}
	m := over(&ast.FuncCall{Pos: pos, Name: agg, Args: []ast.Expr{value}})
	s := over(&ast.Case{Pos: pos, Whens: []*ast.When{
		{Pos: pos, Cond: &ast.Binary{Pos: pos, Op: "=", L: count(), R: lit(ast.NumberLit, "0")}, Result: lit(ast.NumberLit, "0")},
		{Pos: pos, Cond: &ast.Binary{Pos: pos, Op: ">", L: count(), R: count(value)}, Result: lit(ast.NumberLit, "2")},
	}, Else: lit(ast.NumberLit, "1")})
	return &ast.Case{Pos: pos, Whens: []*ast.When{
		{Pos: pos, Cond: &ast.Binary{Pos: pos, Op: "=", L: s, R: lit(ast.NumberLit, "0")}, Result: lit(ast.BoolLit, "FALSE")},
		{Pos: pos, Cond: &ast.Binary{Pos: pos, Op: op, L: x, R: m}, Result: lit(ast.BoolLit, "TRUE")},
		{Pos: pos, Cond: &ast.Binary{Pos: pos, Op: "=", L: s, R: lit(ast.NumberLit, "2")}, Result: lit(ast.NullLit, "NULL")},
	}, Else: &ast.Binary{Pos: pos, Op: op, L: x, R: m}}
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
