package fn

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"
)

// notHere are the names of Flink's function list that this registry does
// not resolve, each with where it stands. A name leaves this list when it
// becomes a function here (the test fails until it is removed).
var notHere = map[string]string{
	// compiled by the planner, not looked up here
	"CAST": "planner", "TRY_CAST": "planner", "CURRENT_WATERMARK": "planner",
	"GROUP_ID": "planner (aggregations)", "GROUPING": "planner (aggregations)", "GROUPING_ID": "planner (aggregations)",
	"LEAD":      "planner (refused as in Flink's streaming mode)",
	"CUME_DIST": "planner (refused as in Flink's streaming mode)", "PERCENT_RANK": "planner (refused as in Flink's streaming mode)", "NTILE": "planner (refused as in Flink's streaming mode)",
}

// flinkFunctionNames reads testdata/flink_functions.txt.
func flinkFunctionNames(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("testdata/flink_functions.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "[") {
			continue
		}
		names = append(names, strings.Fields(line)...)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

// TestFlinkFunctionCoverage checks every name of Flink's function list:
// it is a function here (listed by SHOW FUNCTIONS) or in notHere.
func TestFlinkFunctionCoverage(t *testing.T) {
	names := flinkFunctionNames(t)
	listed := Names()
	var have, other int
	for _, n := range names {
		_, scalar := LookupScalar(n)
		_, agg := LookupAggregate(n)
		why, known := notHere[n]
		switch {
		case scalar || agg:
			have++
			if known {
				t.Errorf("%s is a function now: remove it from notHere (%s)", n, why)
			}
			if !slices.Contains(listed, n) {
				t.Errorf("%s is missing from SHOW FUNCTIONS", n)
			}
		case known:
			other++
		default:
			t.Errorf("%s of Flink's function list is neither a function here nor in notHere", n)
		}
	}
	t.Logf("Flink's list names %d functions: %d are functions here, %d are compiled or refused by the planner",
		len(names), have, other)
}
