package ops

import (
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// ptTypes are (id, pt) on both sides of a processing-time join.
var ptTypes = []types.Type{types.IntType, types.TimestampType(3)}

// procJoin returns a ProcTimeIntervalJoin of kind over ptTypes for
// `l.pt BETWEEN r.pt - INTERVAL '1' MINUTE AND r.pt` (r.pt - l.pt within
// [0, 1 min]), opened on clock.
func procJoin(t *testing.T, kind JoinKind, clock *runtime.ManualClock) *ProcTimeIntervalJoin {
	t.Helper()
	j, err := NewProcTimeIntervalJoin(IntervalJoinConfig{
		JoinSpec:   JoinSpec{Kind: kind, LeftTypes: ptTypes, RightTypes: ptTypes, LeftKeys: []int{0}, RightKeys: []int{0}},
		LeftTime:   1,
		RightTime:  1,
		LowerBound: 0, UpperBound: us(time.Minute),
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
		t.Fatal(err)
	}
	return j
}

// arrive feeds rows of the given ids to input (their time column holds
// 0, which the join does not read) and returns what it emitted.
func arrive(t *testing.T, j *ProcTimeIntervalJoin, r *recorder, input int, ids ...any) []string {
	t.Helper()
	var recs []rec
	for _, id := range ids {
		recs = append(recs, ins(id, int64(0)))
	}
	if err := j.ProcessChunk(input, chunk(ptTypes, recs...), r); err != nil {
		t.Fatal(err)
	}
	return r.take()
}

// advance moves clock by d and fires j's due wake-up.
func advance(t *testing.T, j *ProcTimeIntervalJoin, clock *runtime.ManualClock, d time.Duration, r *recorder) []string {
	t.Helper()
	clock.Advance(d)
	if err := j.pt.Fire(j, r); err != nil {
		t.Fatal(err)
	}
	return r.take()
}

// TestProcTimeIntervalJoinArrival: rows are timed by their arrival (Flink's
// ProcTimeIntervalJoin). A left row waits a minute for right rows; a right
// row is never cached, since no later left row can be within its bounds,
// so a left row arriving after it does not join it. Watermarks pass on.
func TestProcTimeIntervalJoinArrival(t *testing.T) {
	clock := runtime.NewManualClock(time.Unix(600, 0))
	j, r := procJoin(t, InnerJoin, clock), &recorder{}
	expect(t, arrive(t, j, r, 0, 1))
	expect(t, advance(t, j, clock, 30*time.Second, r))
	expect(t, arrive(t, j, r, 1, 1), "+I[1, 1970-01-01 00:10:00.000, 1, 1970-01-01 00:10:30.000]")
	expect(t, arrive(t, j, r, 1, 2))
	expect(t, arrive(t, j, r, 0, 2))
	// The upper bound is inclusive: at 00:11:00 the left row of 00:10:00
	// still joins, a millisecond later it does not.
	expect(t, advance(t, j, clock, 30*time.Second, r))
	expect(t, arrive(t, j, r, 1, 1), "+I[1, 1970-01-01 00:10:00.000, 1, 1970-01-01 00:11:00.000]")
	expect(t, advance(t, j, clock, time.Millisecond, r))
	expect(t, arrive(t, j, r, 1, 1))
	expect(t, watermark(t, j, r, 5), "WM 5")
	// Key 2's left row (00:10:30) leaves when its clean-up timer (00:11:30.001)
	// rings, a millisecond late.
	expect(t, advance(t, j, clock, 30*time.Second, r))
	if n := j.State().Len(); n != 1 {
		t.Fatalf("state has %d keys, want 1", n)
	}
	expect(t, advance(t, j, clock, time.Millisecond, r))
	if n := j.State().Len(); n != 0 {
		t.Fatalf("state has %d keys, want 0", n)
	}
}

// TestProcTimeIntervalJoinOuter: an unmatched left row is padded when its
// clean-up timer rings (row time + 1 min + 1 ms, rung a millisecond late);
// an unmatched right row, never cached, at once. At the end of the input
// the cached rows are dropped, not padded, as Flink cancels the pending
// processing-time timers. The cache and its timers survive a restore.
func TestProcTimeIntervalJoinOuter(t *testing.T) {
	clock := runtime.NewManualClock(time.Unix(600, 0))
	j, r := procJoin(t, FullJoin, clock), &recorder{}
	expect(t, arrive(t, j, r, 0, 1, 2))
	expect(t, arrive(t, j, r, 1, 3), "+I[NULL, NULL, 3, 1970-01-01 00:10:00.000]")
	expect(t, advance(t, j, clock, 10*time.Second, r))
	expect(t, arrive(t, j, r, 1, 2), "+I[2, 1970-01-01 00:10:00.000, 2, 1970-01-01 00:10:10.000]")
	k := procJoin(t, FullJoin, clock)
	moveState(t, j, k)
	if err := k.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
		t.Fatal(err)
	}
	expect(t, advance(t, k, clock, 50*time.Second+time.Millisecond, r))
	expect(t, advance(t, k, clock, time.Millisecond, r), "+I[1, 1970-01-01 00:10:00.000, NULL, NULL]")
	if n := k.State().Len(); n != 0 {
		t.Fatalf("state has %d keys, want 0", n)
	}
	expect(t, arrive(t, k, r, 0, 4))
	expect(t, finish(t, k, r), "WM 9223372036854775807")
}
