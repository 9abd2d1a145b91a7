package expr

import (
	"math"
	"slices"

	"github.com/sluicesql/sluice/internal/types"
)

// Equal reports whether a and b are the same expression: the same kinds
// of node with the same operators, types, column positions and literal
// values, operand by operand. What only labels a node for printing is not
// compared: a column's name, a literal's text or the expression it was
// folded from. Two literals are equal when their types and values are
// (floats bit for bit, so NaN equals NaN; all NULLs of a type are equal).
// nil equals only nil.
func Equal(a, b Expr) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch x := a.(type) {
	case *Column:
		y, ok := b.(*Column)
		return ok && x.Index == y.Index && x.T == y.T
	case *Literal:
		y, ok := b.(*Literal)
		return ok && x.T == y.T && sameValue(x.V, y.V)
	case *Call:
		y, ok := b.(*Call)
		return ok && x.Name == y.Name && x.T == y.T && equalAll(x.Args, y.Args) && slices.Equal(x.Units, y.Units)
	case *Cast:
		y, ok := b.(*Cast)
		return ok && x.T == y.T && x.Try == y.Try && Equal(x.X, y.X)
	case *Logic:
		y, ok := b.(*Logic)
		return ok && x.Or == y.Or && equalAll(x.Args, y.Args)
	case *Not:
		y, ok := b.(*Not)
		return ok && Equal(x.X, y.X)
	case *IsNull:
		y, ok := b.(*IsNull)
		return ok && x.Neg == y.Neg && Equal(x.X, y.X)
	case *Case:
		y, ok := b.(*Case)
		if !ok || x.T != y.T || len(x.Whens) != len(y.Whens) || !Equal(x.Else, y.Else) {
			return false
		}
		for i, w := range x.Whens {
			if !Equal(w.Cond, y.Whens[i].Cond) || !Equal(w.Then, y.Whens[i].Then) {
				return false
			}
		}
		return true
	case *Coalesce:
		y, ok := b.(*Coalesce)
		return ok && x.T == y.T && equalAll(x.Args, y.Args)
	case *In:
		y, ok := b.(*In)
		return ok && x.Neg == y.Neg && Equal(x.X, y.X) && equalAll(x.List, y.List)
	case *CurrentWatermark:
		y, ok := b.(*CurrentWatermark)
		return ok && x.T == y.T
	}
	return false
}

// EqualAll reports whether a and b hold equal expressions, position by
// position.
func EqualAll(a, b []Expr) bool { return equalAll(a, b) }

func equalAll(a, b []Expr) bool {
	return slices.EqualFunc(a, b, Equal)
}

// sameValue compares two values of one type by their representation.
func sameValue(a, b types.Value) bool {
	if a.Null || b.Null {
		return a.Null == b.Null
	}
	return a.I == b.I && a.S == b.S && math.Float64bits(a.F) == math.Float64bits(b.F)
}
