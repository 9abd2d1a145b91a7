package ops

import (
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
)

// procOver returns a ProcTimeOverAggregate of SUM(v), COUNT(v) OVER
// (PARTITION BY k ORDER BY pt <frame>) over evTypes, opened on a manual
// clock standing at 10 s and 500 µs after the epoch.
func procOver(t *testing.T, rows bool, preceding int64) (*ProcTimeOverAggregate, *runtime.ManualClock) {
	t.Helper()
	clock := runtime.NewManualClock(time.Unix(10, 500e3))
	return procOverOn(t, clock, rows, preceding, 0), clock
}

// procOverOn opens a processing-time OVER aggregation of SUM and COUNT of
// evTypes' second column per first column on clock, with the given frame
// and state retention.
func procOverOn(t *testing.T, clock *runtime.ManualClock, rows bool, preceding int64, ttl time.Duration) *ProcTimeOverAggregate {
	t.Helper()
	o, err := NewProcTimeOverAggregate(OverAggregateConfig{
		InputTypes: evTypes, PartitionKeys: []int{0}, TimeCol: 2, Rows: rows, Preceding: preceding, StateTTL: ttl,
		Aggs: []AggSpec{aggCall(t, "SUM", evTypes, 1), aggCall(t, "COUNT", evTypes, 1)},
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
		t.Fatal(err)
	}
	return o
}

// rowOverOn opens an event-time OVER aggregation of SUM and COUNT of
// evTypes' second column per first column, with the given frame and
// state retention, whose cleanup timers run on clock; it returns the
// operator, its timer and the timer service.
func rowOverOn(t *testing.T, clock *runtime.ManualClock, rows bool, preceding int64, ttl time.Duration) (*OverAggregate, runtime.ProcessingTimer, *runtime.ProcessingTimeService) {
	t.Helper()
	o, err := NewOverAggregate(OverAggregateConfig{
		InputTypes: evTypes, PartitionKeys: []int{0}, TimeCol: 2, Rows: rows, Preceding: preceding, StateTTL: ttl,
		Aggs: []AggSpec{aggCall(t, "SUM", evTypes, 1), aggCall(t, "COUNT", evTypes, 1)},
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	pt := runtime.NewProcessingTimeService(clock, nil)
	if err := o.Open(&runtime.Context{ProcessingTime: pt}); err != nil {
		t.Fatal(err)
	}
	return o, o.Operator().(runtime.ProcessingTimer), pt
}

// fireAt advances clock by d and fires o's due wake-up, returning what it
// emitted.
func fireAt(t *testing.T, o *ProcTimeOverAggregate, clock *runtime.ManualClock, d time.Duration, r *recorder) []string {
	t.Helper()
	clock.Advance(d)
	if err := o.pt.Fire(o, r); err != nil {
		t.Fatal(err)
	}
	return r.take()
}

// TestProcTimeOverUnbounded: RANGE (or ROWS) BETWEEN UNBOUNDED PRECEDING
// AND CURRENT ROW over processing time emits each row as it arrives,
// with the aggregates over every row of its partition so far, rows of one
// millisecond included one by one (Flink's
// ProcTimeUnboundedPrecedingFunction); no timer is set and watermarks
// pass on.
func TestProcTimeOverUnbounded(t *testing.T) {
	for _, rows := range []bool{false, true} {
		o, clock := procOver(t, rows, -1)
		r := &recorder{}
		expect(t, feed(t, o, r, chunk(evTypes, ins("a", 1, ms(0)), ins("b", 5, ms(0)), ins("a", 2, ms(0)))),
			"+I[a, 1, 1970-01-01 00:00:00.000, 1, 1]",
			"+I[b, 5, 1970-01-01 00:00:00.000, 5, 1]",
			"+I[a, 2, 1970-01-01 00:00:00.000, 3, 2]")
		clock.Advance(time.Hour)
		expect(t, feed(t, o, r, chunk(evTypes, ins("a", 4, ms(0)))), "+I[a, 4, 1970-01-01 00:00:00.000, 7, 3]")
		if _, ok := o.pt.Next(); ok {
			t.Fatal("an unbounded frame set a timer")
		}
		expect(t, watermark(t, o, r, 7), "WM 7")
	}
}

// TestProcTimeOverRows: ROWS BETWEEN 1 PRECEDING AND CURRENT ROW emits
// each row as it arrives, over itself and the row of its partition before
// it (Flink's ProcTimeRowsBoundedPrecedingFunction); the frame's rows
// survive a snapshot and restore.
func TestProcTimeOverRows(t *testing.T) {
	o, clock := procOver(t, true, 1)
	r := &recorder{}
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 1, ms(0)), ins("a", 2, ms(0)), ins("b", 5, ms(0)), ins("a", 4, ms(0)))),
		"+I[a, 1, 1970-01-01 00:00:00.000, 1, 1]",
		"+I[a, 2, 1970-01-01 00:00:00.000, 3, 2]",
		"+I[b, 5, 1970-01-01 00:00:00.000, 5, 1]",
		"+I[a, 4, 1970-01-01 00:00:00.000, 6, 2]")
	restored := procOverOn(t, clock, true, 1, 0)
	moveState(t, o, restored)
	expect(t, feed(t, restored, r, chunk(evTypes, ins("a", 8, ms(0)), ins("b", 1, ms(0)))),
		"+I[a, 8, 1970-01-01 00:00:00.000, 12, 2]",
		"+I[b, 1, 1970-01-01 00:00:00.000, 6, 2]")

	// ROWS BETWEEN CURRENT ROW AND CURRENT ROW: each row alone.
	cur, _ := procOver(t, true, 0)
	expect(t, feed(t, cur, r, chunk(evTypes, ins("a", 1, ms(0)), ins("a", 2, ms(0)))),
		"+I[a, 1, 1970-01-01 00:00:00.000, 1, 1]",
		"+I[a, 2, 1970-01-01 00:00:00.000, 2, 1]")
}

// TestProcTimeOverRange: RANGE BETWEEN INTERVAL '10' MILLISECOND
// PRECEDING AND CURRENT ROW, as Flink's
// ProcTimeRangeBoundedPrecedingFunction: the rows of millisecond t wait
// for the timer at t + 1, which rings when the clock reaches t + 2 ms;
// rows of one millisecond are peers with one result; rows that arrived
// more than 10 ms before leave the frame.
func TestProcTimeOverRange(t *testing.T) {
	o, clock := procOver(t, false, ms(10))
	r := &recorder{}
	// At 10000 ms (and 500 µs).
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 1, ms(0)), ins("b", 5, ms(0)))))
	if next, ok := o.pt.Next(); !ok || next != ms(10002) {
		t.Fatalf("wake-up at %d (%v), want at 10002 ms", next, ok)
	}
	clock.Advance(500 * time.Microsecond) // 10001 ms: a new millisecond
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 2, ms(0)))))
	expect(t, fireAt(t, o, clock, 999*time.Microsecond, r)) // just before 10002 ms
	expect(t, fireAt(t, o, clock, time.Microsecond, r),
		"+I[a, 1, 1970-01-01 00:00:00.000, 1, 1]",
		"+I[b, 5, 1970-01-01 00:00:00.000, 5, 1]")
	expect(t, fireAt(t, o, clock, time.Millisecond, r), "+I[a, 2, 1970-01-01 00:00:00.000, 3, 2]")
	// At 10010 ms, two peers: the rows of 10000 ms are still in the frame.
	clock.Advance(7 * time.Millisecond)
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 3, ms(0)), ins("a", 4, ms(0)))))
	expect(t, fireAt(t, o, clock, time.Millisecond, r))
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 6, ms(0))))) // at 10011 ms
	expect(t, fireAt(t, o, clock, time.Millisecond, r),
		"+I[a, 3, 1970-01-01 00:00:00.000, 10, 4]",
		"+I[a, 4, 1970-01-01 00:00:00.000, 10, 4]")
	// The row of 10011 ms: its frame holds the row of 10001 ms, not that
	// of 10000 ms.
	expect(t, fireAt(t, o, clock, time.Millisecond, r), "+I[a, 6, 1970-01-01 00:00:00.000, 15, 4]")
	// Watermarks fire nothing and pass on; at the end of the input the
	// waiting rows are dropped.
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 7, ms(0)))))
	expect(t, finish(t, o, r), "WM 9223372036854775807")
}

// TestProcTimeOverRangeCleanup: once no row has arrived in a partition
// for longer than the interval, its state is cleared (Flink's cleanup
// timer) and its aggregates start afresh.
func TestProcTimeOverRangeCleanup(t *testing.T) {
	o, clock := procOver(t, false, ms(10))
	r := &recorder{}
	feed(t, o, r, chunk(evTypes, ins("a", 1, ms(0)), ins("b", 2, ms(0))))
	expect(t, fireAt(t, o, clock, 2*time.Millisecond, r),
		"+I[a, 1, 1970-01-01 00:00:00.000, 1, 1]",
		"+I[b, 2, 1970-01-01 00:00:00.000, 2, 1]")
	expect(t, fireAt(t, o, clock, 10*time.Millisecond, r))
	if n := o.parts.Len(); n != 2 {
		t.Fatalf("%d partitions before their cleanup time, want 2", n)
	}
	expect(t, fireAt(t, o, clock, time.Millisecond, r))
	if n := o.parts.Len(); n != 0 {
		t.Fatalf("%d partitions after their cleanup time, want none", n)
	}
	if _, ok := o.pt.Next(); ok {
		t.Fatal("a timer is left after the cleanup")
	}
	feed(t, o, r, chunk(evTypes, ins("a", 4, ms(0))))
	expect(t, fireAt(t, o, clock, 2*time.Millisecond, r), "+I[a, 4, 1970-01-01 00:00:00.000, 4, 1]")
}

// TestProcTimeOverRangeRestore: the waiting rows, the frame and the
// timers survive a snapshot; the restored operator fires at once, when it
// opens, the rows whose time passed while it was down.
func TestProcTimeOverRangeRestore(t *testing.T) {
	o, clock := procOver(t, false, ms(10))
	r := &recorder{}
	feed(t, o, r, chunk(evTypes, ins("a", 1, ms(0))))
	expect(t, fireAt(t, o, clock, 2*time.Millisecond, r), "+I[a, 1, 1970-01-01 00:00:00.000, 1, 1]")
	feed(t, o, r, chunk(evTypes, ins("a", 2, ms(0))))
	clock.Advance(5 * time.Millisecond)
	restored, err := NewProcTimeOverAggregate(o.cfg, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	moveState(t, o, restored)
	if err := restored.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
		t.Fatal(err)
	}
	if next, ok := restored.pt.Next(); !ok || next != ms(10004) {
		t.Fatalf("the restored wake-up is at %d (%v), want 10004 ms", next, ok)
	}
	expect(t, fireAt(t, restored, clock, 0, r), "+I[a, 2, 1970-01-01 00:00:00.000, 3, 2]")
	// The cleanup timer, set again from the restored frame.
	expect(t, fireAt(t, restored, clock, 10*time.Millisecond, r))
	if n := restored.parts.Len(); n != 0 {
		t.Fatalf("%d partitions after the cleanup time, want none", n)
	}
}
