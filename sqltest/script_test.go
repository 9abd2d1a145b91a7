package sqltest

import (
	"strings"
	"testing"
)

func TestParseScriptTestErrors(t *testing.T) {
	for src, want := range map[string]string{
		"---- rows\nx\n":                           "line 1: an expectation without a statement before it",
		"SELECT 1;\n---- rows sideways\nx\n":       "line 2: expected '---- rows', '---- rows ordered', '---- rows final' or '---- rows per key COLUMNS', found '---- rows sideways'",
		"SELECT 1;\n---- error oops\nx\n":          "line 2: unknown error kind 'oops': expected parse, validation, runtime or error",
		"SELECT 1;\n---- error parse 0:1\nx\n":     "line 2: expected a position LINE:COL, found '0:1'",
		"SELECT 1;\n---- rows\n":                   "line 2: '---- rows' needs the printed output below it",
		"SELECT 1;\n---- rows per key a,\nx\n":     "line 2: an empty column name in '---- rows per key a,'",
		"SELECT 1;\nSELECT 2\n---- rows\nx\n":      "line 2: the statement does not end with ';'",
		"SELECT 1;\n---- whatever\n":               "line 2: expected '---- rows' or '---- error KIND', found '---- whatever'",
		"# only a comment\nSELECT 1\n":             "line 2: the statement does not end with ';'",
		"SELECT 1;\n---- error parse 1:2 3\nx\n":   "line 2: expected '---- error KIND [LINE:COL]', found '---- error parse 1:2 3'",
		"SELECT 1;\n----\nx\n":                     "line 2: expected '---- rows' or '---- error KIND'",
		"SELECT 1;\n---- rows ordered please\nx\n": "line 2: expected '---- rows', '---- rows ordered', '---- rows final' or '---- rows per key COLUMNS', found '---- rows ordered please'",
	} {
		_, err := ParseScriptTest(src)
		if err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %q", src, err, want)
		}
	}
}

func TestParseScriptTestSteps(t *testing.T) {
	steps, err := ParseScriptTest(`# setup
SET 'a' = 'b'; SET 'c' = 'd';

SELECT 1,
  2;
---- error validation 2:3
first line
...

SELECT k FROM t;
---- rows per key k, v
| x |
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 4 {
		t.Fatalf("got %d steps, want 4: %+v", len(steps), steps)
	}
	if s := steps[1]; s.Line != 2 || s.Text != "SET 'c' = 'd';" || s.Expect != nil {
		t.Errorf("step 2 = %+v", s)
	}
	e := steps[2].Expect
	if steps[2].Line != 4 || e == nil || e.Error != "validation" || e.Pos.Line != 2 || e.Pos.Col != 3 || !e.Prefix || e.Message != "first line" {
		t.Errorf("step 3 = %+v, expectation %+v", steps[2], e)
	}
	e = steps[3].Expect
	if steps[3].Line != 10 || e == nil || e.Order != RowsPerKey || strings.Join(e.Keys, "/") != "k/v" || e.Rows != "| x |" {
		t.Errorf("step 4 = %+v, expectation %+v", steps[3], e)
	}
}

func TestCompareRows(t *testing.T) {
	const frame = "+----+---+---+\n| op | k | v |\n+----+---+---+\n"
	got := frame + "| +I | a | 1 |\n| +I | b | 1 |\n| -U | a | 1 |\n| +U | a | 2 |\n"
	reordered := frame + "| +I | b | 1 |\n| +I | a | 1 |\n| -U | a | 1 |\n| +U | a | 2 |\n"
	keyBroken := frame + "| -U | a | 1 |\n| +I | b | 1 |\n| +I | a | 1 |\n| +U | a | 2 |\n"
	duplicated := frame + "| +I | a | 1 |\n| +I | a | 1 |\n| -U | a | 1 |\n| +U | a | 2 |\n"
	for _, c := range []struct {
		name  string
		want  string
		order RowOrder
		ok    bool
	}{
		{"same, ordered", got, RowsOrdered, true},
		{"reordered, ordered", reordered, RowsOrdered, false},
		{"reordered, any order", reordered, RowsAnyOrder, true},
		{"reordered across keys, per key", reordered, RowsPerKey, true},
		{"reordered within a key, per key", keyBroken, RowsPerKey, false},
		{"reordered within a key, any order", keyBroken, RowsAnyOrder, true},
		{"a row twice, any order", duplicated, RowsAnyOrder, false},
		{"another frame", strings.Replace(got, "| op | k | v |", "| op | k | w |", 1), RowsAnyOrder, false},
		{"a footer missing", got + "Received a total of 4 rows\n", RowsAnyOrder, false},
		{"the final rows", frame + "| +I | b | 1 |\n| +I | a | 2 |\nReceived a total of 2 rows\n", RowsFinal, true},
		{"an updated row as it was, final", frame + "| +I | a | 1 |\n| +I | b | 1 |\n", RowsFinal, false},
		{"a row missing, final", frame + "| +I | a | 2 |\n", RowsFinal, false},
	} {
		diff := compareRows(got, &Expectation{Rows: c.want, Order: c.order, Keys: []string{"k"}})
		if (diff == "") != c.ok {
			t.Errorf("%s: diff %q, want ok=%v", c.name, diff, c.ok)
		}
	}
	if diff := compareRows(got, &Expectation{Rows: got, Order: RowsPerKey, Keys: []string{"nope"}}); !strings.Contains(diff, "no column 'nope'") {
		t.Errorf("an unknown key column: %q", diff)
	}
}

// TestScriptReportsEveryMismatch: a script whose expectations are wrong
// fails at each statement that differs, and goes on after each.
func TestScriptReportsEveryMismatch(t *testing.T) {
	failures, err := RunScript(`
CREATE TABLE t (k STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3', 'fields.k.length' = '1');

SELECT COUNT(*) AS n FROM t;
---- rows
+----+----------------------+
| op |                    n |
+----+----------------------+
| +I |                    3 |
+----+----------------------+
Received a total of 1 rows

SELECT nope FROM t;
---- error validation 1:9
Column 'nope' not found in any table

SELECT 1;

SHOW TABLES;

SELECT k FROM t;
---- error parse
x

SELEC 1;
`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range failures {
		got = append(got, f.String())
	}
	want := []string{
		"line 4: printed\n",
		"line 13: failed with validation error at 1:8: Column 'nope' not found in any table; expected the position 1:9",
		"line 17: a query needs '---- rows' or '---- error' after it",
		"line 21: succeeded; expected a parse error",
		"line 25: failed with parse error at 1:1: expected a statement, found 'SELEC'",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d failures, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("failure %d = %q, want it to start with %q", i, got[i], want[i])
		}
	}
}
