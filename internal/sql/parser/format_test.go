package parser

import (
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// TestFormatFlinkExpr: computed columns and watermarks as Flink's SHOW
// CREATE TABLE and DESCRIBE print them (table.q of Flink's SQL client:
// WATERMARK FOR `ts` AS `ts` - INTERVAL '1' SECOND, `ptime` AS
// PROCTIME()): identifiers backquoted, parentheses only where an operand
// needs them; each reads back as the expression it was formatted from.
func TestFormatFlinkExpr(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ts - INTERVAL '1' SECONDS", "`ts` - INTERVAL '1' SECOND"},
		{"PROCTIME()", "PROCTIME()"},
		{"amount * 2 + 1", "`amount` * 2 + 1"},
		{"amount * (2 + 1)", "`amount` * (2 + 1)"},
		{"a - (b - c)", "`a` - (`b` - `c`)"},
		{"(a - b) - c", "`a` - `b` - `c`"},
		{"UPPER(t.product) || 'x'", "UPPER(`t`.`product`) || 'x'"},
		{"a || b * c", "`a` || (`b` * `c`)"},
		{"(a + b) || c", "(`a` + `b`) || `c`"},
		{"CAST(amount AS BIGINT)", "CAST(`amount` AS BIGINT)"},
		{"CASE WHEN amount > 1 AND NOT b THEN 'a' ELSE 'b' END", "CASE WHEN `amount` > 1 AND NOT `b` THEN 'a' ELSE 'b' END"},
		{"(a OR b) AND c", "(`a` OR `b`) AND `c`"},
		{"NOT (a AND b)", "NOT (`a` AND `b`)"},
		{"a IS NULL OR a BETWEEN 1 AND 2 + 3", "`a` IS NULL OR `a` BETWEEN 1 AND 2 + 3"},
		{"(a = b) IS TRUE", "(`a` = `b`) IS TRUE"},
		{"a NOT LIKE 'x%' AND b IN (1, 2)", "`a` NOT LIKE 'x%' AND `b` IN (1, 2)"},
		{"-(a + 1)", "-(`a` + 1)"},
		{"(a + 1)[2]", "(`a` + 1)[2]"},
		{"r.`f g`", "`r`.`f g`"},
		{"`select` + 1", "`select` + 1"},
		{"a > ANY (1, b + 1) AND a = ALL (2)", "`a` > ANY (1, `b` + 1) AND `a` = ALL (2)"},
		{"a + 1 > SOME (SELECT b FROM t) OR (a = b) <= ALL (SELECT b FROM t)", "`a` + 1 > SOME (SELECT `b` FROM t) OR (`a` = `b`) <= ALL (SELECT `b` FROM t)"},
	} {
		e, err := ParseExpr(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if got := FormatFlinkExpr(e); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.in, got, tc.want)
		}
		checkExprRoundTrip(t, e)
	}
}

// TestNamedWindows: OVER w, OVER (w ...) and a WINDOW clause (Flink's
// "Over Aggregation" page) print as written and read back alike.
func TestNamedWindows(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT SUM(x) OVER w FROM t WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)",
			"SELECT SUM(x) OVER w FROM t WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)"},
		{"SELECT COUNT(*) OVER (w ROWS 1 PRECEDING), MAX(x) OVER `my w` FROM t WINDOW w AS (ORDER BY ts), `my w` AS (w RANGE UNBOUNDED PRECEDING)",
			"SELECT COUNT(*) OVER (w ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), MAX(x) OVER `my w` FROM t WINDOW w AS (ORDER BY ts), `my w` AS (w RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
	} {
		s, err := ParseStatement(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		q := s.(*ast.QueryStatement).Query
		if got := FormatQuery(q); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
		checkQueryRoundTrip(t, q)
	}
	for _, in := range []string{
		"SELECT SUM(x) OVER FROM t",
		"SELECT x FROM t WINDOW w (ORDER BY ts)",
		"SELECT x FROM t WINDOW w AS w2",
	} {
		if _, err := ParseStatement(in); err == nil {
			t.Errorf("%s: parsed", in)
		}
	}
}

// TestUnnestSeveral: UNNEST of several collections prints as written.
func TestUnnestSeveral(t *testing.T) {
	const in = "SELECT x, y FROM t CROSS JOIN UNNEST(t.a, t.b) WITH ORDINALITY AS u (x, y, n)"
	s, err := ParseStatement(in)
	if err != nil {
		t.Fatal(err)
	}
	q := s.(*ast.QueryStatement).Query
	if got := FormatQuery(q); !strings.Contains(got, "UNNEST(t.a, t.b) WITH ORDINALITY") {
		t.Errorf("got %s", got)
	}
	checkQueryRoundTrip(t, q)
}
