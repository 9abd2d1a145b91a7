package sluice

import (
	"errors"
	"maps"
	"strings"
	"testing"
	"time"
)

func TestRestartStrategies(t *testing.T) {
	c := NewConfig()
	if s := c.restartStrategy(false); s.kind != "none" {
		t.Errorf("default without checkpoints: %s, want none (Flink's)", s.kind)
	}
	s := c.restartStrategy(true)
	if s.kind != "exponential-delay" {
		t.Fatalf("default with checkpoints: %s, want exponential-delay (Flink's)", s.kind)
	}
	s.jitter = 0
	now := time.Unix(0, 0)
	var delays []time.Duration
	for range 12 {
		d, ok := s.next(now)
		if !ok {
			t.Fatal("exponential delay gave up")
		}
		delays = append(delays, d)
		now = now.Add(time.Second)
	}
	if delays[0] != time.Second || delays[1] != 1500*time.Millisecond || delays[11] != time.Minute {
		t.Errorf("backoffs %v: want 1 s, 1.5 s, ... capped at 1 min", delays)
	}
	// An hour without failure starts the backoff over.
	if d, _ := s.next(now.Add(2 * time.Hour)); d != time.Second {
		t.Errorf("after the reset threshold: %v, want 1 s", d)
	}

	for _, kv := range [][2]string{{ConfRestartStrategy, "fixed-delay"}, {ConfFixedDelayAttempts, "2"}, {ConfFixedDelayDelay, "20 ms"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	f := c.restartStrategy(true)
	for i := range 3 {
		d, ok := f.next(now)
		if ok != (i < 2) || ok && d != 20*time.Millisecond {
			t.Errorf("fixed delay, failure %d: %v, %v", i+1, d, ok)
		}
	}
	// Failure rate, as Flink's: at most 2 failures within 1 min; a third
	// within a minute of the first of the latest three fails the job.
	c = NewConfig()
	for _, kv := range [][2]string{{ConfRestartStrategy, "failure-rate"}, {ConfRateMaxFailures, "2"}, {ConfRateInterval, "1 min"}, {ConfRateDelay, "5 ms"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	r := c.restartStrategy(true)
	for i, at := range []time.Duration{0, 10 * time.Second, 70 * time.Second, 75 * time.Second} {
		d, ok := r.next(now.Add(at))
		if !ok || d != 5*time.Millisecond {
			t.Errorf("failure rate, failure %d at %v: %v, %v; want a restart after 5 ms", i+1, at, d, ok)
		}
	}
	if _, ok := r.next(now.Add(80 * time.Second)); ok {
		t.Error("failure rate: a third failure within a minute restarted the job")
	}
	// Defaults: 1 failure per minute, 1 s delay.
	c = NewConfig()
	if err := c.Set(ConfRestartStrategy, "failure-rate"); err != nil {
		t.Fatal(err)
	}
	r = c.restartStrategy(true)
	if d, ok := r.next(now); !ok || d != time.Second {
		t.Errorf("failure rate defaults: first failure %v, %v; want a restart after 1 s", d, ok)
	}
	if _, ok := r.next(now.Add(30 * time.Second)); ok {
		t.Error("failure rate defaults: a second failure within a minute restarted the job")
	}
	for _, c := range []struct{ key, value, want string }{
		{ConfRestartStrategy, "sometimes", "invalid value 'sometimes' for 'restart-strategy.type': expected none, fixed-delay, exponential-delay or failure-rate"},
		{ConfRateMaxFailures, "0", "expected a positive integer"},
		{ConfRateInterval, "0 s", "expected a positive duration"},
		{ConfFixedDelayAttempts, "-1", "expected a non-negative integer"},
		{ConfExpMultiplier, "0.5", "expected a number of at least 1"},
		{ConfExpJitter, "2", "expected a number from 0 to 1"},
		{ConfExpMaxBackoff, "soon", "invalid value 'soon' for 'restart-strategy.exponential-delay.max-backoff'"},
	} {
		if err := NewConfig().Set(c.key, c.value); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SET '%s' = '%s': %v, want %q", c.key, c.value, err, c.want)
		}
	}
}

// TestJobRestartsFromLatestCheckpoint: a job that fails is started again
// from its latest complete checkpoint, keeping its ID: its counts go on
// from the checkpoint's state and positions, so every row counts once.
// Without restarts left, it fails for good with the cause.
func TestJobRestartsFromLatestCheckpoint(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	ctx := testContext(t)
	e := newEngine(t)
	res := mustExecute(t, e, countsDDL(brokers, "earliest-offset")+`
SET 'execution.checkpointing.interval' = '1 h';
SET 'state.checkpoints.dir' = '`+t.TempDir()+`';
SET 'restart-strategy.type' = 'fixed-delay';
SET 'restart-strategy.fixed-delay.attempts' = '1';
SET 'restart-strategy.fixed-delay.delay' = '10 ms';
INSERT INTO clicks VALUES ('a'), ('b'), ('a');
INSERT INTO counts SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id;`)
	job := e.jobs.jobs[res[len(res)-1].JobID]
	if err := e.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := job.current().Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	mustExecute(t, e, "INSERT INTO clicks VALUES ('a'), ('c');")
	if err := e.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	first := job.current()
	first.Fail(errors.New("injected failure"))
	for job.current() == first {
		if st := job.Status(); strings.HasPrefix(st, "FAILED") || ctx.Err() != nil {
			t.Fatalf("the job did not restart: %s", st)
		}
		time.Sleep(time.Millisecond)
	}
	if err := e.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	if job.Restarts() != 1 || job.Status() != "RUNNING" {
		t.Fatalf("after the restart: %d restarts, %s", job.Restarts(), job.Status())
	}
	mustExecute(t, e, "INSERT INTO clicks VALUES ('b');")
	if err := e.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := latestCounts(t, brokers), map[string]int64{"a": 3, "b": 2, "c": 1}; !maps.Equal(got, want) {
		t.Fatalf("counts after the restart: %v, want %v", got, want)
	}

	// The one restart is used: the next failure is final.
	job.current().Fail(errors.New("second failure"))
	<-job.Done()
	if st := job.Status(); st != "FAILED: second failure" {
		t.Fatalf("after the second failure: %s", st)
	}
	if err := e.JobFailures(); err == nil || !strings.Contains(err.Error(), "second failure") {
		t.Fatalf("JobFailures: %v", err)
	}
}
