package sluice

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestProcTimeSortOnTheClock: ORDER BY a processing-time attribute, then
// another column (Flink's StreamExecTemporalSort with ProcTimeSortOperator):
// the rows wait until the clock is 2 ms past the millisecond the first of
// them arrived in (its timer at that millisecond + 1 rings a millisecond
// after its time), then all the rows waiting come out sorted by the other
// column; ORDER BY the attribute alone passes rows as they arrive. At
// parallelism 1 and 4 (the sort runs on one instance), on a manual clock.
func TestProcTimeSortOnTheClock(t *testing.T) {
	brokers := startCluster(t).BootstrapServers()
	n := 0
	for _, p := range []string{"1", "4"} {
		t.Run("parallelism="+p, func(t *testing.T) {
			n++
			e, clock := procTimeEngine(t, p)
			mustExecute(t, e, kafkaTable("clicks", "u STRING, v INT, pt AS PROCTIME()", fmt.Sprintf("proctime-sort-%d", n), brokers, "json"))
			res := mustExecute(t, e, "SELECT u, v FROM clicks ORDER BY pt, v DESC;")
			s := res[0].Stream
			t.Cleanup(s.Close)
			for i, step := range []procTimeStep{
				{insert: "INSERT INTO clicks VALUES ('a', 1), ('b', 3), ('c', 2);", advance: time.Millisecond},
				{insert: "INSERT INTO clicks VALUES ('d', 3);", advance: 500 * time.Microsecond},
				{advance: 500 * time.Microsecond, want: []string{"+I[b, 3]", "+I[d, 3]", "+I[c, 2]", "+I[a, 1]"}},
				{insert: "INSERT INTO clicks VALUES ('e', 0), ('f', 9);", advance: time.Second, want: []string{"+I[f, 9]", "+I[e, 0]"}},
			} {
				got := step.run(t, e, clock, s)
				// b and d tie on v; within one INSERT the source keeps their
				// order only on one partition, so ties compare as a set.
				if !sameRows(got, step.want) || !slices.IsSortedFunc(got, func(a, b string) int { return rowV(b) - rowV(a) }) {
					t.Fatalf("step %d: got %q, want %q in order of v descending", i, got, step.want)
				}
			}
		})
	}
}

// rowV reads v from a printed row "+I[u, v]".
func rowV(row string) int {
	var u string
	var v int
	fmt.Sscanf(row[3:len(row)-1], "%1s, %d", &u, &v)
	return v
}
