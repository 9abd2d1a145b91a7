package runtime

import (
	"context"
	"math"
	"slices"
	"sync"
	"testing"
	"time"
)

// caughtUpSource emits nothing and is always caught up, until the job
// stops, or ends at once when bounded.
type caughtUpSource struct{ bounded bool }

func (s caughtUpSource) Run(ctx *SourceContext, _ Emitter) error {
	if !s.bounded {
		<-ctx.Ctx.Done()
	}
	return nil
}

func (caughtUpSource) CaughtUp(context.Context) (bool, error) { return true, nil }

// secondTicker registers a wake-up one second after it opens and, each
// time it is called, records the time and registers the next second.
type secondTicker struct {
	forwardOp
	opened chan struct{}
	pt     *ProcessingTimeService
	mu     sync.Mutex
	fired  []int64
}

func (s *secondTicker) Open(ctx *Context) error {
	s.pt = ctx.ProcessingTime
	s.pt.Register(s.pt.Now() + us(time.Second))
	close(s.opened)
	return nil
}

func (s *secondTicker) OnProcessingTime(now int64, _ Emitter) error {
	s.mu.Lock()
	s.fired = append(s.fired, now)
	s.mu.Unlock()
	s.pt.Register(now + us(time.Second))
	return nil
}

func (s *secondTicker) times() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.fired)
}

// waitQuiet waits until j is quiet: a wake-up that rang counts as in
// flight until the operator has handled it.
func waitQuiet(t *testing.T, j *Job) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ok, err := j.Quiet(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the job did not become quiet")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestProcessingTimeWakeUps: an operator's wake-up rings when the job's
// clock reaches it, not before, and the job is not quiet until the
// operator has handled it.
func TestProcessingTimeWakeUps(t *testing.T) {
	start := time.Unix(1000, 0)
	clock := NewManualClock(start)
	op := &secondTicker{opened: make(chan struct{})}
	g := &Graph{Clock: clock, Stages: []*Stage{
		{Name: "source", Parallelism: 1, NewSource: func(int) (Source, error) { return caughtUpSource{}, nil }},
		{Name: "ticker", Parallelism: 1, Inputs: []Input{{Stage: 0, Exchange: Forward}},
			NewOperator: func(int) (Operator, error) { return op, nil }},
	}}
	j, err := Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Cancel()
	checkWakeUps(t, j, op, clock, start, 2500*time.Millisecond)
}

// checkWakeUps drives the clock of job j, started at start, past the
// first wake-up of op (a secondTicker) and then by late: the first rings
// at its second, not before, and the second, due a second later, rings
// once at the clock's time; the job is quiet only after each.
func checkWakeUps(t *testing.T, j *Job, op *secondTicker, clock *ManualClock, start time.Time, late time.Duration) {
	t.Helper()
	<-op.opened
	clock.Advance(999 * time.Millisecond)
	waitQuiet(t, j)
	if got := op.times(); len(got) != 0 {
		t.Fatalf("fired at %v before its time", got)
	}
	clock.Advance(time.Millisecond)
	waitQuiet(t, j)
	clock.Advance(late)
	waitQuiet(t, j)
	want := []int64{start.Add(time.Second).UnixMicro(), start.Add(time.Second + late).UnixMicro()}
	if got := op.times(); !slices.Equal(got, want) {
		t.Fatalf("fired at %v; want %v (a late wake-up rings once, at the clock's time)", got, want)
	}
}

// TestProcessingTimeEndOfInput: when the input ends, a pending wake-up is
// dropped (Flink cancels a finished task's processing-time timers,
// FLINK-14231) and the job ends.
func TestProcessingTimeEndOfInput(t *testing.T) {
	clock := NewManualClock(time.Unix(1000, 0))
	op := &secondTicker{opened: make(chan struct{})}
	g := &Graph{Clock: clock, Stages: []*Stage{
		{Name: "source", Parallelism: 1, NewSource: func(int) (Source, error) { return caughtUpSource{bounded: true}, nil }},
		{Name: "ticker", Parallelism: 1, Inputs: []Input{{Stage: 0, Exchange: Forward}},
			NewOperator: func(int) (Operator, error) { return op, nil }},
	}}
	j := runToEnd(t, g)
	clock.Advance(time.Hour)
	if got := op.times(); len(got) != 0 {
		t.Fatalf("fired at %v after the end of the input", got)
	}
	if n := j.inflight.Load(); n != 0 {
		t.Fatalf("%d messages in flight after the job ended", n)
	}
}

// us returns d in microseconds, the unit of processing time.
func us(d time.Duration) int64 { return d.Microseconds() }

// TestProcessingTimeFarWakeUp: a wake-up at the last microsecond an int64
// holds waits (its duration is capped, not wrapped into the past); one a
// second ahead rings when the clock gets there.
func TestProcessingTimeFarWakeUp(t *testing.T) {
	clock := NewManualClock(time.Unix(1000, 0))
	pt := NewProcessingTimeService(clock, nil)
	pt.Register(math.MaxInt64)
	clock.Advance(time.Hour)
	if len(pt.rang) != 0 {
		t.Fatal("a wake-up at the end of time rang after an hour")
	}
	pt.Register(pt.Now() + us(time.Second))
	clock.Advance(time.Second)
	if len(pt.rang) != 1 {
		t.Fatal("a wake-up a second ahead did not ring a second later")
	}
}

// runToEnd runs g until it ends, failing the test if it cannot start or
// ends with an error.
func runToEnd(t *testing.T, g *Graph) *Job {
	t.Helper()
	j, err := Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	<-j.Done()
	if err := j.Err(); err != nil {
		t.Fatal(err)
	}
	return j
}
