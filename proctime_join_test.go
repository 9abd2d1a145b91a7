package sluice

import (
	"testing"
	"time"
)

// procTimeJoinQuery is a left interval join over processing time: a row of
// l waits a minute for rows of r (r.pt - l.pt within [0, 1 min]).
const procTimeJoinQuery = `SELECT a.u, a.v, b.v FROM l a LEFT JOIN r b
ON a.u = b.u AND a.pt BETWEEN b.pt - INTERVAL '1' MINUTE AND b.pt;`

// TestProcTimeIntervalJoinOnTheClock: an interval join over PROCTIME()
// attributes times rows by their arrival (Flink's ProcTimeIntervalJoin),
// at parallelism 1 and 4. A left row joins the right rows arriving within
// the minute after it, the bound included; a right row is never kept (no
// later left row can be within its bounds), so a left row arriving after
// it does not join it; an unmatched left row is padded when its clean-up
// timer (its time + 1 min + 1 ms) rings, a millisecond late.
func TestProcTimeIntervalJoinOnTheClock(t *testing.T) {
	brokers := startCluster(t).BootstrapServers()
	for _, p := range []string{"1", "4"} {
		t.Run("parallelism="+p, func(t *testing.T) {
			e, clock := procTimeEngine(t, p)
			mustExecute(t, e, kafkaTable("l", "u STRING, v INT, pt AS PROCTIME()", "l-"+p, brokers, "json")+
				kafkaTable("r", "u STRING, v INT, pt AS PROCTIME()", "r-"+p, brokers, "json"))
			s := mustExecute(t, e, procTimeJoinQuery)[0].Stream
			t.Cleanup(s.Close)
			runProcTimeSteps(t, e, clock, s, []procTimeStep{
				// At 10:00:00.
				{insert: "INSERT INTO l VALUES ('a', 1);", advance: 30 * time.Second},
				// At 10:00:30.
				{insert: "INSERT INTO r VALUES ('a', 10);", want: []string{"+I[a, 1, 10]"}},
				{insert: "INSERT INTO r VALUES ('b', 20);"},
				{insert: "INSERT INTO l VALUES ('b', 2);", advance: 30 * time.Second},
				// At 10:01:00, the upper bound of 'a' 1.
				{insert: "INSERT INTO r VALUES ('a', 11);", want: []string{"+I[a, 1, 11]"}, advance: time.Millisecond},
				{insert: "INSERT INTO r VALUES ('a', 12);", advance: 30 * time.Second},
				// At 10:01:30.001 the timer of 'b' 2 is due; it rings at
				// 10:01:30.002.
				{advance: time.Millisecond, want: []string{"+I[b, 2, <NULL>]"}},
			})
		})
	}
}

// TestProcTimeIntervalJoinRestore: the rows an interval join over
// processing time keeps and their timers are state: a job stopped with a
// savepoint and restarted at another parallelism joins the rows from
// before the restart and pads them when their timers ring.
func TestProcTimeIntervalJoinRestore(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	ctx := testContext(t)
	e, clock := procTimeEngine(t, "2")
	mustExecute(t, e, kafkaTable("l", "u STRING, v INT, pt AS PROCTIME()", "l", brokers, "json")+
		kafkaTable("r", "u STRING, v INT, pt AS PROCTIME()", "r", brokers, "json")+
		kafkaTable("joined", "u STRING, lv INT, rv INT", "joined", brokers, "json"))
	job := mustExecute(t, e, "INSERT INTO joined "+procTimeJoinQuery)[0].JobID
	s := mustExecute(t, e, "SELECT * FROM joined;")[0].Stream
	t.Cleanup(s.Close)
	runProcTimeSteps(t, e, clock, s, []procTimeStep{{insert: "INSERT INTO l VALUES ('a', 1), ('b', 2);", advance: 10 * time.Second}})
	if _, err := e.RestartFromSavepoint(ctx, job, t.TempDir(), 3); err != nil {
		t.Fatal(err)
	}
	runProcTimeSteps(t, e, clock, s, []procTimeStep{
		{insert: "INSERT INTO r VALUES ('a', 10);", want: []string{"+I[a, 1, 10]"}, advance: 50*time.Second + time.Millisecond},
		{advance: time.Millisecond, want: []string{"+I[b, 2, <NULL>]"}},
	})
}
