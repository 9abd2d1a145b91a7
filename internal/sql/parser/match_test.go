package parser

import (
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// TestMatchRecognize parses MATCH_RECOGNIZE clauses (the forms of Flink's
// Pattern Recognition page and Calcite's grammar) into their canonical
// form, which reads back as itself.
func TestMatchRecognize(t *testing.T) {
	tests := []struct{ src, want string }{
		{`SELECT * FROM Ticker MATCH_RECOGNIZE (
			PARTITION BY symbol ORDER BY rowtime
			MEASURES START_ROW.rowtime AS start_tstamp, LAST(PRICE_DOWN.rowtime) AS bottom_tstamp
			ONE ROW PER MATCH AFTER MATCH SKIP TO LAST PRICE_UP
			PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
			DEFINE PRICE_DOWN AS PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1), PRICE_UP AS PRICE_UP.price > 1) MR`,
			"SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime MEASURES START_ROW.rowtime AS start_tstamp, " +
				"LAST(PRICE_DOWN.rowtime) AS bottom_tstamp ONE ROW PER MATCH AFTER MATCH SKIP TO LAST PRICE_UP PATTERN (START_ROW PRICE_DOWN+ PRICE_UP) " +
				"DEFINE PRICE_DOWN AS (PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1)), PRICE_UP AS (PRICE_UP.price > 1)) AS MR"},
		{"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES A.x AS x PATTERN (A* B+? C? D{2} E{2,} F{2,3}? G{,4} H) WITHIN INTERVAL '1' HOUR DEFINE A AS TRUE)",
			"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES A.x AS x ONE ROW PER MATCH PATTERN (A* B+? C? D{2} E{2,} F{2,3}? G{,4} H) " +
				"WITHIN INTERVAL '1' HOUR DEFINE A AS TRUE)"},
		{"SELECT * FROM (SELECT * FROM t) MATCH_RECOGNIZE (ORDER BY ts MEASURES A.x AS x AFTER MATCH SKIP TO A PATTERN ((A | B) (C D)+ PERMUTE(E, F) {- G -}) DEFINE A AS TRUE) AS m (y)",
			"SELECT * FROM (SELECT * FROM t) MATCH_RECOGNIZE (ORDER BY ts MEASURES A.x AS x ONE ROW PER MATCH AFTER MATCH SKIP TO LAST A " +
				"PATTERN ((A | B) (C D)+ PERMUTE(E, F) {- G -}) DEFINE A AS TRUE) AS m(y)"},
		{"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES A.x AS x ALL ROWS PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (^ A $) DEFINE A AS TRUE)",
			"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES A.x AS x ALL ROWS PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (^ A $) DEFINE A AS TRUE)"},
	}
	for _, tt := range tests {
		s, err := ParseStatement(tt.src)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		q := s.(*ast.QueryStatement).Query
		if got := FormatQuery(q); got != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.src, got, tt.want)
		}
		checkQueryRoundTrip(t, q)
	}
}

// TestMatchRecognizeQuantifiers: each quantifier's bounds and greediness.
func TestMatchRecognizeQuantifiers(t *testing.T) {
	tests := []struct {
		q             string
		min, max      int
		reluctant     bool
		canonicalText string
	}{
		{"*", 0, -1, false, "*"}, {"+", 1, -1, false, "+"}, {"?", 0, 1, false, "?"},
		{"{3}", 3, 3, false, "{3}"}, {"{2,}", 2, -1, false, "{2,}"}, {"{2,5}", 2, 5, false, "{2,5}"},
		{"{,4}", 0, 4, false, "{,4}"}, {"*?", 0, -1, true, "*"}, {"+?", 1, -1, true, "+"}, {"??", 0, 1, true, "?"},
		{"{2,5}?", 2, 5, true, "{2,5}"}, {"{ 1 , 1 }", 1, 1, false, "{1,1}"},
	}
	for _, tt := range tests {
		s, err := ParseStatement("SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES A.x AS x PATTERN (A" + tt.q + " B) DEFINE A AS TRUE)")
		if err != nil {
			t.Fatalf("%s: %v", tt.q, err)
		}
		m := s.(*ast.QueryStatement).Query.(*ast.Select).From.(*ast.MatchRecognize)
		q := m.Pattern.(*ast.PatternSeq).Items[0].(*ast.PatternQuant)
		if q.Min != tt.min || q.Max != tt.max || q.Reluctant != tt.reluctant || q.Text != tt.canonicalText {
			t.Errorf("%s: got {%d,%d} reluctant %v %q", tt.q, q.Min, q.Max, q.Reluctant, q.Text)
		}
	}
}

// TestMatchRecognizeSyntaxErrors: malformed clauses fail where they go
// wrong.
func TestMatchRecognizeSyntaxErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES A.x PATTERN (A) DEFINE A AS TRUE)", "line 1, column 59: expected AS, found 'PATTERN'"},
		{"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts PATTERN () DEFINE A AS TRUE)", "line 1, column 55: expected a pattern variable, found ')'"},
		{"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts PATTERN (A{x}) DEFINE A AS TRUE)", "line 1, column 57: expected an unsigned integer, found 'x'"},
		{"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts PATTERN (A))", "line 1, column 57: expected DEFINE, found ')'"},
		{"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts AFTER MATCH SKIP TO PATTERN (A) DEFINE A AS TRUE)", "line 1, column 74: expected PATTERN, found '('"},
	}
	for _, tt := range tests {
		_, err := ParseStatement(tt.src)
		if err == nil {
			t.Errorf("%s: no error", tt.src)
			continue
		}
		if pe, ok := err.(*Error); !ok || !strings.Contains(pe.Error(), tt.want) {
			t.Errorf("%s:\n got %v\nwant %s", tt.src, err, tt.want)
		}
	}
}
