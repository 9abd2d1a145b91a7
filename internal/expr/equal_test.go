package expr

import (
	"math"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

func TestEqual(t *testing.T) {
	col := func(i int, name string) Expr { return &Column{Index: i, Name: name, T: types.IntType} }
	lit := func(i int64, text string) Expr {
		return &Literal{V: types.IntValue(i), T: types.IntType.WithNotNull(true), Text: text}
	}
	nan := &Literal{V: types.FloatValue(math.NaN()), T: types.DoubleType}
	plus := func(a, b Expr) Expr { return &Call{Name: "+", Args: []Expr{a, b}, T: types.IntType} }
	cases := []struct {
		name  string
		a, b  Expr
		equal bool
	}{
		{"column names only label", col(1, "a"), col(1, "b"), true},
		{"column positions differ", col(1, "a"), col(2, "a"), false},
		{"column types differ", col(1, "a"), &Column{Index: 1, Name: "a", T: types.BigIntType}, false},
		{"literal text only labels", lit(1, "1"), lit(1, "01"), true},
		{"literal values differ", lit(1, "1"), lit(2, "1"), false},
		{"NaN equals NaN", nan, &Literal{V: types.FloatValue(math.NaN()), T: types.DoubleType}, true},
		{"NULLs of a type", &Literal{V: types.NullValue, T: types.IntType}, &Literal{V: types.Value{Null: true, I: 3}, T: types.IntType}, true},
		{"calls", plus(col(0, "a"), lit(1, "1")), plus(col(0, "x"), lit(1, "1")), true},
		{"call operands in order", plus(col(0, "a"), lit(1, "1")), plus(lit(1, "1"), col(0, "a")), false},
		{"call names", plus(col(0, "a"), col(1, "b")), &Call{Name: "-", Args: []Expr{col(0, "a"), col(1, "b")}, T: types.IntType}, false},
		{"AND and OR", &Logic{Args: []Expr{col(0, ""), col(1, "")}}, &Logic{Or: true, Args: []Expr{col(0, ""), col(1, "")}}, false},
		{"casts", &Cast{X: col(0, "a"), T: types.BigIntType}, &Cast{X: col(0, "a"), T: types.BigIntType, Try: true}, false},
		{"CASE without and with ELSE", &Case{Whens: []When{{col(0, ""), col(1, "")}}, T: types.IntType},
			&Case{Whens: []When{{col(0, ""), col(1, "")}}, Else: lit(0, "0"), T: types.IntType}, false},
		{"IN and NOT IN", &In{X: col(0, ""), List: []Expr{lit(1, "1")}}, &In{X: col(0, ""), List: []Expr{lit(1, "1")}, Neg: true}, false},
		{"kinds", &Not{X: col(0, "")}, &IsNull{X: col(0, "")}, false},
		{"nil", nil, col(0, ""), false},
	}
	for _, c := range cases {
		if got := Equal(c.a, c.b); got != c.equal {
			t.Errorf("%s: Equal(%v, %v) = %v", c.name, c.a, c.b, got)
		}
		if got := Equal(c.b, c.a); got != c.equal {
			t.Errorf("%s (swapped): Equal = %v", c.name, got)
		}
	}
}
