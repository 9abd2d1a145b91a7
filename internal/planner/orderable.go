package planner

import (
	"fmt"

	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// unorderable returns Flink's error for a MAP, MULTISET or VARIANT value
// used as a grouping, DISTINCT, set operation, join, IN (subquery) or
// PARTITION BY key ("is not an orderable data type", as its ITCase
// testMapTypeGroupBy shows; VARIANT too: FLINK-40250), or nil for a type
// that can be a key.
func unorderable(t types.Type) error {
	if t.Kind == types.Map || t.Kind == types.Multiset || t.Kind == types.Variant {
		return fmt.Errorf("Type(%s) is not an orderable data type, it is not supported as a ORDER_BY/GROUP_BY/JOIN_EQUAL field.", t.Plain())
	}
	return nil
}

// wantOrderable refuses a key of type t (unorderable) at n, the
// expression it is computed from.
func wantOrderable(n ast.Node, t types.Type) error {
	if err := unorderable(t); err != nil {
		return errorf(n, "%s", err.Error())
	}
	return nil
}

// setOpColumn returns the expression of column i of q as written, for an
// error about it: the select item of q (or of the leftmost query of a set
// operation) when the select list has no `*`, else nil.
func setOpColumn(q ast.Query, i int) ast.Node {
	switch q := q.(type) {
	case *ast.SetOp:
		return setOpColumn(q.Left, i)
	case *ast.Select:
		for _, it := range q.Items {
			if it.Star {
				return nil
			}
		}
		if i < len(q.Items) {
			return q.Items[i].Expr
		}
	}
	return nil
}

// onConjuncts splits a join condition as written at its ANDs, as the bound
// condition's conjuncts (conjuncts) are.
func onConjuncts(e ast.Expr) []ast.Expr {
	if b, ok := e.(*ast.Binary); ok && b.Op == "AND" {
		return append(onConjuncts(b.L), onConjuncts(b.R)...)
	}
	return []ast.Expr{e}
}
