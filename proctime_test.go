package sluice

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
)

// procTimeEngine returns an engine whose jobs run on a manual clock
// standing at 2024-01-01 10:00:00 UTC, in the UTC session time zone, at
// parallelism p.
func procTimeEngine(t *testing.T, p string) (*Engine, *runtime.ManualClock) {
	t.Helper()
	e := newEngine(t)
	clock := runtime.NewManualClock(time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC))
	e.SetClock(clock)
	for k, v := range map[string]string{ConfParallelism: p, "table.local-time-zone": "UTC"} {
		if err := e.Config().Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	return e, clock
}

// procTimeStep inserts rows (if any), advances the clock, and checks what
// the stream printed since the last step, in any order.
type procTimeStep struct {
	insert  string
	advance time.Duration
	want    []string
}

func runProcTimeSteps(t *testing.T, e *Engine, clock *runtime.ManualClock, s *Stream, steps []procTimeStep) {
	t.Helper()
	for i, step := range steps {
		if got := step.run(t, e, clock, s); !sameRows(got, step.want) {
			t.Fatalf("step %d (%q, then %s on the clock): got %q, want %q", i, step.insert, step.advance, got, step.want)
		}
	}
}

// run runs the step's INSERT (if any) until the job is quiet, advances the
// clock until it is quiet again, and returns the rows s received.
func (step procTimeStep) run(t *testing.T, e *Engine, clock *runtime.ManualClock, s *Stream) []string {
	t.Helper()
	ctx := testContext(t)
	if step.insert != "" {
		mustExecute(t, e, step.insert)
		if err := e.WaitQuiet(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(step.advance)
	if err := e.WaitQuiet(ctx, s); err != nil {
		t.Fatal(err)
	}
	return changelog(s, s.Drain())
}

func sameRows(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	left := map[string]int{}
	for _, w := range want {
		left[w]++
	}
	for _, g := range got {
		if left[g] == 0 {
			return false
		}
		left[g]--
	}
	return true
}

// TestProcTimeWindowsFireOnTheClock: windows over PROCTIME() collect the
// rows that arrive while the clock is inside them and fire when the clock
// reaches their end, not before (Flink's processing-time timer at end -
// 1ms rings a millisecond after its time); TUMBLE, HOP, CUMULATE, SESSION
// and the legacy GROUP BY TUMBLE, at parallelism 1 and 4.
func TestProcTimeWindowsFireOnTheClock(t *testing.T) {
	cases := []procTimeCase{{
		name: "tumble",
		query: `SELECT u, COUNT(*) AS cnt, window_start, window_end FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(pt), INTERVAL '1' MINUTE))
GROUP BY u, window_start, window_end;`,
		steps: []procTimeStep{
			{insert: "INSERT INTO clicks VALUES ('a'), ('b'), ('a');", advance: 59999 * time.Millisecond},
			{advance: time.Millisecond, want: []string{"+I[a, 2, 2024-01-01 10:00:00.000, 2024-01-01 10:01:00.000]", "+I[b, 1, 2024-01-01 10:00:00.000, 2024-01-01 10:01:00.000]"}},
			{insert: "INSERT INTO clicks VALUES ('c');", advance: 2 * time.Minute, want: []string{"+I[c, 1, 2024-01-01 10:01:00.000, 2024-01-01 10:02:00.000]"}},
		},
	}, {
		name: "hop",
		query: `SELECT COUNT(*) AS cnt, window_start, window_end FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(pt), INTERVAL '30' SECOND, INTERVAL '1' MINUTE))
GROUP BY window_start, window_end;`,
		steps: []procTimeStep{
			{insert: "INSERT INTO clicks VALUES ('a'), ('b');", advance: 30 * time.Second, want: []string{"+I[2, 2024-01-01 09:59:30.000, 2024-01-01 10:00:30.000]"}},
			{insert: "INSERT INTO clicks VALUES ('c');", advance: 30 * time.Second, want: []string{"+I[3, 2024-01-01 10:00:00.000, 2024-01-01 10:01:00.000]"}},
			{advance: 30 * time.Second, want: []string{"+I[1, 2024-01-01 10:00:30.000, 2024-01-01 10:01:30.000]"}},
		},
	}, {
		name: "cumulate",
		query: `SELECT COUNT(*) AS cnt, window_start, window_end FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(pt), INTERVAL '20' SECOND, INTERVAL '1' MINUTE))
GROUP BY window_start, window_end;`,
		steps: []procTimeStep{
			{insert: "INSERT INTO clicks VALUES ('a');", advance: 20 * time.Second, want: []string{"+I[1, 2024-01-01 10:00:00.000, 2024-01-01 10:00:20.000]"}},
			{insert: "INSERT INTO clicks VALUES ('b');", advance: 20 * time.Second, want: []string{"+I[2, 2024-01-01 10:00:00.000, 2024-01-01 10:00:40.000]"}},
		},
	}, {
		name: "session",
		query: `SELECT u, COUNT(*) AS cnt, window_start, window_end FROM TABLE(SESSION(TABLE clicks PARTITION BY u, DESCRIPTOR(pt), INTERVAL '10' SECOND))
GROUP BY u, window_start, window_end;`,
		steps: []procTimeStep{
			{insert: "INSERT INTO clicks VALUES ('a');", advance: 5 * time.Second},
			{insert: "INSERT INTO clicks VALUES ('a'), ('b');", advance: 10 * time.Second,
				want: []string{"+I[a, 2, 2024-01-01 10:00:00.000, 2024-01-01 10:00:15.000]", "+I[b, 1, 2024-01-01 10:00:05.000, 2024-01-01 10:00:15.000]"}},
		},
	}, {
		name: "legacy tumble",
		query: `SELECT u, COUNT(*) AS cnt, TUMBLE_START(pt, INTERVAL '1' MINUTE) AS s, TUMBLE_END(pt, INTERVAL '1' MINUTE) AS e
FROM clicks GROUP BY u, TUMBLE(pt, INTERVAL '1' MINUTE);`,
		steps: []procTimeStep{
			{insert: "INSERT INTO clicks VALUES ('a'), ('a');", advance: time.Minute, want: []string{"+I[a, 2, 2024-01-01 10:00:00.000, 2024-01-01 10:01:00.000]"}},
		},
	}, {
		// A size that is not a multiple of the slide, as Flink's legacy
		// window operator takes it: 30-second windows every 20 seconds.
		name: "legacy hop",
		query: `SELECT COUNT(*) AS cnt, HOP_START(pt, INTERVAL '20' SECOND, INTERVAL '30' SECOND) AS s
FROM clicks GROUP BY HOP(pt, INTERVAL '20' SECOND, INTERVAL '30' SECOND);`,
		steps: []procTimeStep{
			{insert: "INSERT INTO clicks VALUES ('a'), ('b');", advance: 10 * time.Second, want: []string{"+I[2, 2024-01-01 09:59:40.000]"}},
			// At 10:00:10, in [10:00:00, 10:00:30) only.
			{insert: "INSERT INTO clicks VALUES ('c');", advance: 20 * time.Second, want: []string{"+I[3, 2024-01-01 10:00:00.000]"}},
			// At 10:00:45, in [10:00:20, 10:00:50) and [10:00:40, 10:01:10).
			{advance: 15 * time.Second},
			{insert: "INSERT INTO clicks VALUES ('d');", advance: 5 * time.Second, want: []string{"+I[1, 2024-01-01 10:00:20.000]"}},
			{advance: 20 * time.Second, want: []string{"+I[1, 2024-01-01 10:00:40.000]"}},
		},
	}}
	runProcTimeCases(t, "u STRING, pt AS PROCTIME()", "clicks", cases)
}

// procTimeCase is a query over the table clicks and the steps that feed
// it and check what it prints.
type procTimeCase struct {
	name, query string
	steps       []procTimeStep
}

// runProcTimeCases runs each case at parallelism 1 and 4, on an engine
// with a manual clock and a fresh topic (named after prefix) behind the
// table clicks of the given columns.
func runProcTimeCases(t *testing.T, columns, prefix string, cases []procTimeCase) {
	t.Helper()
	brokers := startCluster(t).BootstrapServers()
	n := 0
	for _, p := range []string{"1", "4"} {
		for _, c := range cases {
			t.Run(c.name+"/parallelism="+p, func(t *testing.T) {
				n++
				e, clock := procTimeEngine(t, p)
				mustExecute(t, e, kafkaTable("clicks", columns, fmt.Sprintf("%s-%d", prefix, n), brokers, "json"))
				res := mustExecute(t, e, c.query)
				s := res[0].Stream
				t.Cleanup(s.Close)
				runProcTimeSteps(t, e, clock, s, c.steps)
			})
		}
	}
}

// TestProcTimeWindowsRestore: a processing-time window's rows and its
// timer are state: a job stopped with a savepoint and restarted at
// another parallelism fires the window, with the rows from before the
// restart, when the clock reaches its end.
func TestProcTimeWindowsRestore(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	ctx := testContext(t)
	e, clock := procTimeEngine(t, "2")
	mustExecute(t, e, kafkaTable("clicks", "u STRING, pt AS PROCTIME()", "clicks", brokers, "json")+
		kafkaTable("counts", "u STRING, cnt BIGINT, ws TIMESTAMP(3)", "counts", brokers, "json"))
	job := mustExecute(t, e, `INSERT INTO counts SELECT u, COUNT(*), window_start
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(pt), INTERVAL '1' MINUTE)) GROUP BY u, window_start, window_end;`)[0].JobID
	res := mustExecute(t, e, "SELECT * FROM counts;")
	s := res[0].Stream
	t.Cleanup(s.Close)
	runProcTimeSteps(t, e, clock, s, []procTimeStep{{insert: "INSERT INTO clicks VALUES ('a'), ('b'), ('a');", advance: 30 * time.Second}})
	if _, err := e.RestartFromSavepoint(ctx, job, t.TempDir(), 3); err != nil {
		t.Fatal(err)
	}
	// No row arrives after the restart: the restored window's timer
	// alone fires it.
	runProcTimeSteps(t, e, clock, s, []procTimeStep{
		{advance: 29 * time.Second},
		{advance: time.Second, want: []string{"+I[a, 2, 2024-01-01 10:00:00.000]", "+I[b, 1, 2024-01-01 10:00:00.000]"}},
	})
}

// TestProcTimeWindowEndOfInput: when a bounded input ends, the windows
// over processing time that have not fired are dropped, as Flink cancels
// a finished task's pending processing-time timers (FLINK-14231): the
// query ends with no rows.
func TestProcTimeWindowEndOfInput(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	ctx := testContext(t)
	e, clock := procTimeEngine(t, "1")
	ddl := strings.Replace(kafkaTable("clicks", "u STRING, pt AS PROCTIME()", "clicks", brokers, "json"),
		"'value.format'", "'scan.bounded.mode' = 'latest-offset',\n    'value.format'", 1)
	mustExecute(t, e, ddl+"INSERT INTO clicks VALUES ('a'), ('b');")
	res := mustExecute(t, e, `SELECT u, COUNT(*) FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(pt), INTERVAL '1' MINUTE))
GROUP BY u, window_start, window_end;`)
	s := res[0].Stream
	t.Cleanup(s.Close)
	if err := e.WaitQuiet(ctx, s); err != nil {
		t.Fatal(err)
	}
	if !s.Ended() {
		t.Fatal("the bounded query did not end")
	}
	clock.Advance(time.Hour)
	if got := changelog(s, s.Drain()); len(got) != 0 {
		t.Fatalf("got %q; want no rows", got)
	}
}
