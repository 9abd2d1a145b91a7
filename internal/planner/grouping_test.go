package planner_test

import (
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/planner"
)

const groupingTable = `CREATE TABLE t (a INT, b STRING, c BIGINT) WITH (
    'connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset', 'value.format' = 'json');
`

// expandOf returns the description of the Expand in a plan, or "".
func expandOf(n planner.Node) string {
	if strings.HasPrefix(n.Describe(), "Expand(") {
		return n.Describe()
	}
	for _, in := range n.Inputs() {
		if d := expandOf(in); d != "" {
			return d
		}
	}
	return ""
}

// The grouping sets of each GROUP BY form, as the Expand's projections:
// one per set, in Calcite's expansion order, the columns a set leaves out
// NULL and its expand id last (a bit per grouping expression, the first
// the highest, for those left out; a repeated set's occurrence above).
func TestGroupingSetsExpand(t *testing.T) {
	for _, c := range []struct{ groupBy, want string }{
		{"ROLLUP (a, b)", "Expand(projects=[{a, b, 0 AS $e}, {a, null AS b, 1 AS $e}, {null AS a, null AS b, 3 AS $e}])"},
		{"CUBE (a, b)", "Expand(projects=[{a, b, 0 AS $e}, {a, null AS b, 1 AS $e}, {null AS a, b, 2 AS $e}, {null AS a, null AS b, 3 AS $e}])"},
		{"a, ROLLUP (b)", "Expand(projects=[{a, b, 0 AS $e}, {a, null AS b, 1 AS $e}])"},
		{"GROUPING SETS (a, ROLLUP (b), (a, b))", "Expand(projects=[{a, null AS b, 1 AS $e}, {null AS a, b, 2 AS $e}, {null AS a, null AS b, 3 AS $e}, {a, b, 0 AS $e}])"},
		{"ROLLUP ((a, b))", "Expand(projects=[{a, b, 0 AS $e}, {null AS a, null AS b, 3 AS $e}])"},
		{"GROUPING SETS ((), a, ())", "Expand(projects=[{null AS a, 1 AS $e}, {a, 0 AS $e}, {null AS a, 3 AS $e}])"},
		// one grouping set needs no Expand
		{"GROUPING SETS ((a, b))", ""},
		{"()", ""},
	} {
		n := plan(t, groupingTable+"SELECT COUNT(*) FROM t GROUP BY "+c.groupBy+";")
		if got := expandOf(n); got != c.want {
			t.Errorf("GROUP BY %s:\n got  %s\n want %s", c.groupBy, got, c.want)
		}
	}
}
