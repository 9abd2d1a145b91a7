package parser

import "github.com/sluicesql/sluice/internal/sql/ast"

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
