package sluice

import (
	"testing"
	"time"
)

// TestProcTimeOverOnTheClock: OVER aggregations ordered by a PROCTIME()
// attribute, on a manual clock, at parallelism 1 and 4. With a ROWS frame
// each row is emitted as it arrives (Flink's
// ProcTimeRowsBoundedPrecedingFunction); with a RANGE frame the rows of a
// millisecond wait until the clock is 2 ms past it (Flink's timer at
// t + 1, which its timer service rings a millisecond late), are emitted
// with one result, and rows that arrived more than the interval earlier
// leave the frame (ProcTimeRangeBoundedPrecedingFunction).
func TestProcTimeOverOnTheClock(t *testing.T) {
	cases := []procTimeCase{{
		name:  "rows",
		query: `SELECT u, v, SUM(v) OVER (PARTITION BY u ORDER BY pt ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM clicks;`,
		steps: []procTimeStep{
			{insert: "INSERT INTO clicks VALUES ('a', 1), ('b', 2), ('a', 3);", want: []string{"+I[a, 1, 1]", "+I[b, 2, 2]", "+I[a, 3, 4]"}},
			{insert: "INSERT INTO clicks VALUES ('a', 5);", want: []string{"+I[a, 5, 8]"}},
		},
	}, {
		name: "range",
		query: `SELECT u, v,
  SUM(v) OVER (PARTITION BY u ORDER BY pt RANGE BETWEEN INTERVAL '1' SECOND PRECEDING AND CURRENT ROW),
  COUNT(*) OVER (PARTITION BY u ORDER BY pt RANGE BETWEEN INTERVAL '1' SECOND PRECEDING AND CURRENT ROW)
FROM clicks;`,
		steps: []procTimeStep{
			// At 10:00:00.000.
			{insert: "INSERT INTO clicks VALUES ('a', 1), ('b', 2), ('a', 3);", advance: time.Millisecond},
			{advance: time.Millisecond, want: []string{"+I[a, 1, 4, 2]", "+I[a, 3, 4, 2]", "+I[b, 2, 2, 1]"}},
			// At 10:00:01.000 the rows of 10:00:00.000 are still in the
			// frame,
			{advance: 998 * time.Millisecond},
			{insert: "INSERT INTO clicks VALUES ('a', 5);", advance: 2 * time.Millisecond, want: []string{"+I[a, 5, 9, 3]"}},
			// and at 10:00:01.002 they are not.
			{insert: "INSERT INTO clicks VALUES ('a', 7);", advance: 2 * time.Millisecond, want: []string{"+I[a, 7, 12, 2]"}},
		},
	}}
	runProcTimeCases(t, "u STRING, v INT, pt AS PROCTIME()", "over-clicks", cases)
}

// TestProcTimeOverRestore: the rows waiting for their millisecond, the
// frame and the timers are state: a job stopped with a savepoint and
// restarted at another parallelism emits the waiting row when the clock
// passes its millisecond, over the rows from before the restart.
func TestProcTimeOverRestore(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	ctx := testContext(t)
	e, clock := procTimeEngine(t, "2")
	mustExecute(t, e, kafkaTable("clicks", "u STRING, v INT, pt AS PROCTIME()", "clicks", brokers, "json")+
		kafkaTable("sums", "u STRING, v INT, total INT", "sums", brokers, "json"))
	job := mustExecute(t, e, `INSERT INTO sums SELECT u, v,
  SUM(v) OVER (PARTITION BY u ORDER BY pt RANGE BETWEEN INTERVAL '1' MINUTE PRECEDING AND CURRENT ROW)
FROM clicks;`)[0].JobID
	res := mustExecute(t, e, "SELECT * FROM sums;")
	s := res[0].Stream
	t.Cleanup(s.Close)
	runProcTimeSteps(t, e, clock, s, []procTimeStep{
		{insert: "INSERT INTO clicks VALUES ('a', 1);", advance: 2 * time.Millisecond, want: []string{"+I[a, 1, 1]"}},
		{insert: "INSERT INTO clicks VALUES ('a', 2);"},
	})
	if _, err := e.RestartFromSavepoint(ctx, job, t.TempDir(), 3); err != nil {
		t.Fatal(err)
	}
	runProcTimeSteps(t, e, clock, s, []procTimeStep{
		{advance: time.Millisecond},
		{advance: time.Millisecond, want: []string{"+I[a, 2, 3]"}},
	})
}
