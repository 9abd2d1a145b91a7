package expr

import (
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// TestInfix: Flink's physical plans write expressions in prefix form and
// its execution plans in infix form (FlinkRexUtil.getExpressionString's
// ExpressionFormat.Prefix and Infix, as the planner's explain tests
// testExecuteSqlWithExplainSelect.out show: where=[>(a, 10)] and
// where=[(a > 10)]). Operators outside Flink's infix list (MOD, ||, LIKE,
// NOT, IN, CASE, casts and functions) keep their prefix form in both.
func TestInfix(t *testing.T) {
	ten := &Literal{V: types.IntValue(10), T: types.IntType.WithNotNull(true), Text: "10"}
	two := &Literal{V: types.IntValue(2), T: types.IntType.WithNotNull(true), Text: "2"}
	s := &Literal{V: types.StringValue("a%"), T: types.StringType.WithNotNull(true), Text: "'a%'"}
	for _, tc := range []struct {
		e             Expr
		prefix, infix string
	}{
		{call(t, ">", call(t, "*", value, two), ten), ">(*(value, 2), 10)", "((value * 2) > 10)"},
		{&Logic{Args: []Expr{call(t, "LIKE", title, s), call(t, "<>", value, ten), &IsNull{X: title, Neg: true}}},
			"AND(LIKE(title, 'a%'), <>(value, 10), IS NOT NULL(title))",
			"(LIKE(title, 'a%') AND (value <> 10) AND title IS NOT NULL)"},
		{&Logic{Or: true, Args: []Expr{&IsNull{X: value}, &Not{X: call(t, "IS TRUE", call(t, "=", value, two))}}},
			"OR(IS NULL(value), NOT(IS TRUE(=(value, 2))))",
			"(value IS NULL OR NOT((value = 2) IS TRUE))"},
		{call(t, "%", call(t, "NEG", value), two), "MOD(-(value), 2)", "MOD(-(value), 2)"},
		{&Case{Whens: []When{{Cond: call(t, "<=", value, two), Then: call(t, "||", title, s)}}, Else: title},
			"CASE(<=(value, 2), ||(title, 'a%'), title)", "CASE((value <= 2), ||(title, 'a%'), title)"},
	} {
		if got := tc.e.String(); got != tc.prefix {
			t.Errorf("String: %s, want %s", got, tc.prefix)
		}
		if got := Infix(tc.e); got != tc.infix {
			t.Errorf("Infix: %s, want %s", got, tc.infix)
		}
	}
}
