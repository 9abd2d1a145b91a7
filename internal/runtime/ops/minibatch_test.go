package ops

import (
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

func countSumConfig(t *testing.T) GroupAggregateConfig {
	return GroupAggregateConfig{InputTypes: kvTypes, Keys: []int{0},
		Aggs:                 []AggSpec{aggCall(t, "COUNT", kvTypes), aggCall(t, "SUM", kvTypes, 1)},
		GenerateUpdateBefore: true}
}

// TestMiniBatchGroupAggregate: the rows of a batch are folded per key and
// emit one change per key when the batch ends, as Flink's
// MiniBatchGroupAggFunction.finishBundle: the retractions a key without
// state begins with are dropped, a new key emits +I, a changed one -U/+U,
// an unchanged one nothing, one whose count reaches zero -D.
func TestMiniBatchGroupAggregate(t *testing.T) {
	g, err := NewMiniBatchGroupAggregate(countSumConfig(t), MiniBatchConfig{Size: 100}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feed(t, g, r, chunk(kvTypes, ins("a", 1), ins("a", 2), del("x", 1), ins("b", 5), del("y", 3), ins("y", 4))))
	expect(t, watermark(t, g, r, 42), "+I[a, 2, 3]", "+I[b, 1, 5]", "+I[y, 1, 4]", "WM 42")
	expect(t, feed(t, g, r, chunk(kvTypes, ub("a", 1), ua("a", 1), del("b", 5), ins("y", 6), ins("b", 2))))
	expect(t, finish(t, g, r), "-U[b, 1, 5]", "+U[b, 1, 2]", "-U[y, 1, 4]", "+U[y, 2, 10]", "WM 9223372036854775807")
	expect(t, feed(t, g, r, chunk(kvTypes, del("a", 1), del("a", 2))))
	expect(t, watermark(t, g, r, 43), "-D[a, 2, 3]", "WM 43")
	if n := g.State().Len(); n != 2 {
		t.Fatalf("state has %d keys, want 2", n)
	}
}

// TestMiniBatchSizeEndsBatch: a batch ends at the size-th row (Flink's
// CountBundleTrigger), within a chunk, and before a checkpoint's barrier.
func TestMiniBatchSizeEndsBatch(t *testing.T) {
	g, err := NewMiniBatchGroupAggregate(countSumConfig(t), MiniBatchConfig{Size: 3, ProcTime: true}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feed(t, g, r, chunk(kvTypes, ins("a", 1), ins("a", 2), ins("a", 3), ins("a", 4))), "+I[a, 3, 6]")
	if ok, _ := g.CaughtUp(t.Context()); ok {
		t.Fatal("caught up while holding a processing-time batch")
	}
	if err := g.PrepareSnapshotPreBarrier(r); err != nil {
		t.Fatal(err)
	}
	expect(t, r.take(), "-U[a, 3, 6]", "+U[a, 4, 10]")
	if ok, _ := g.CaughtUp(t.Context()); !ok {
		t.Fatal("not caught up with an empty batch")
	}
}

// TestLocalGlobalAggregate: the local phase sends one row per key and
// batch, the global phase merges them into its state: the same results
// as the one-phase mini-batch aggregation over the same batches.
func TestLocalGlobalAggregate(t *testing.T) {
	cfg := countSumConfig(t)
	l1, err := NewLocalGroupAggregate(cfg, MiniBatchConfig{Size: 100})
	if err != nil {
		t.Fatal(err)
	}
	l2, _ := NewLocalGroupAggregate(cfg, MiniBatchConfig{Size: 100})
	g, err := NewGlobalGroupAggregate(cfg, MiniBatchConfig{Size: 100}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	rg := &recorder{}
	toGlobal := &emitTo{emit: func(c *types.Chunk) {
		if err := g.ProcessChunk(0, c, rg); err != nil {
			t.Fatal(err)
		}
	}}
	forward := func(l *LocalGroupAggregate, c *types.Chunk) {
		e := toGlobal
		if err := l.ProcessChunk(0, c, e); err != nil {
			t.Fatal(err)
		}
		if err := l.ProcessWatermark(1, e); err != nil {
			t.Fatal(err)
		}
	}
	forward(l1, chunk(kvTypes, ins("a", 1), ins("a", 2), ins("b", 5)))
	forward(l2, chunk(kvTypes, ins("a", 10), ins("c", 1), del("c", 1)))
	expect(t, watermark(t, g, rg, 1), "+I[a, 3, 13]", "+I[b, 1, 5]", "WM 1")
	forward(l1, chunk(kvTypes, del("a", 1), del("b", 5)))
	forward(l2, chunk(kvTypes, ins("b", 7)))
	expect(t, watermark(t, g, rg, 2), "-U[a, 3, 13]", "+U[a, 2, 12]", "-U[b, 1, 5]", "+U[b, 1, 7]", "WM 2")
	forward(l1, chunk(kvTypes, del("b", 7)))
	expect(t, watermark(t, g, rg, 3), "-D[b, 1, 7]", "WM 3")
}

// emitTo hands emitted chunks to a function and drops watermarks.
type emitTo struct{ emit func(*types.Chunk) }

func (e *emitTo) Emit(c *types.Chunk) { e.emit(c) }
func (e *emitTo) EmitWatermark(int64) {}

// TestMiniBatchAssignerProcTime: in processing time, the assigner sends
// the start of the current batch when a row or the timer finds a new one,
// and of the upstream watermarks only the last (Flink's
// ProcTimeMiniBatchAssignerOperator).
func TestMiniBatchAssignerProcTime(t *testing.T) {
	clock := runtime.NewManualClock(time.Unix(100, 500e6))
	pt := runtime.NewProcessingTimeService(clock, nil)
	a, err := NewMiniBatchAssigner(MiniBatchAssignerConfig{Interval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Open(&runtime.Context{ProcessingTime: pt}); err != nil {
		t.Fatal(err)
	}
	if next, ok := pt.Next(); !ok || next != 101e9 {
		t.Fatalf("the first timer is at %d (%v); want the next batch's start 101e9", next, ok)
	}
	r := &recorder{}
	expect(t, feed(t, a, r, chunk(kvTypes, ins("a", 1))), "WM 100000000000", "+I[a, 1]")
	expect(t, feed(t, a, r, chunk(kvTypes, ins("b", 1))), "+I[b, 1]")
	expect(t, watermark(t, a, r, 5))
	clock.Advance(600 * time.Millisecond)
	if err := pt.Fire(a, r); err != nil {
		t.Fatal(err)
	}
	expect(t, r.take(), "WM 101000000000")
	if next, _ := pt.Next(); next != 102e9 {
		t.Fatalf("after firing, the timer is at %d; want 102e9", next)
	}
	expect(t, watermark(t, a, r, runtime.MaxWatermark), "WM 9223372036854775807")
}

// TestMiniBatchAssignerRowTime: in event time, only the watermarks that
// reach the last millisecond of a batch pass (Flink's
// RowTimeMiniBatchAssginerOperatorTest with an interval of 5).
func TestMiniBatchAssignerRowTime(t *testing.T) {
	a, err := NewMiniBatchAssigner(MiniBatchAssignerConfig{Interval: 5 * time.Millisecond, RowTime: true})
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	var got []string
	for _, wm := range []int64{2, 3, 4, 5, 8, 9, 10, 14, 20} {
		got = append(got, watermark(t, a, r, ms(wm))...)
	}
	expect(t, got, "WM 4000000", "WM 9000000", "WM 14000000", "WM 20000000")
}
