package ops

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// countSumConfig is COUNT(*) and SUM of column 1 GROUP BY column 0 of
// in, with -U.
func countSumConfig(t testing.TB, in []types.Type) GroupAggregateConfig {
	return GroupAggregateConfig{InputTypes: in, Keys: []int{0},
		Aggs:                 []AggSpec{aggCall(t, "COUNT", in), aggCall(t, "SUM", in, 1)},
		GenerateUpdateBefore: true}
}

// TestMiniBatchGroupAggregate: the rows of a batch are folded per key and
// emit one change per key when the batch ends, as Flink's
// MiniBatchGroupAggFunction.finishBundle: the retractions a key without
// state begins with are dropped, a new key emits +I, a changed one -U/+U,
// an unchanged one nothing, one whose count reaches zero -D.
func TestMiniBatchGroupAggregate(t *testing.T) {
	g, err := NewMiniBatchGroupAggregate(countSumConfig(t, kvTypes), MiniBatchConfig{Size: 100}, state.NewMemory())
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
// On the wall clock, the operator is not caught up while it holds rows:
// the batch ends as time passes.
func TestMiniBatchSizeEndsBatch(t *testing.T) {
	g, err := NewMiniBatchGroupAggregate(countSumConfig(t, kvTypes), MiniBatchConfig{Size: 3, ProcTime: true}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(runtime.WallClock, nil)}); err != nil {
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

// TestMiniBatchManualClockCaughtUp: on a manual clock, rows held for a
// processing-time batch wait for the clock to be advanced, so the
// operator holding them is caught up (a session's WaitQuiet returns with
// the batch held, before the caller moves the clock).
func TestMiniBatchManualClockCaughtUp(t *testing.T) {
	g, err := NewMiniBatchGroupAggregate(countSumConfig(t, kvTypes), MiniBatchConfig{Size: 3, ProcTime: true}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	clock := runtime.NewManualClock(time.Unix(0, 0))
	if err := g.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feed(t, g, r, chunk(kvTypes, ins("a", 1))))
	if ok, _ := g.CaughtUp(t.Context()); !ok {
		t.Fatal("not caught up while holding a batch on a manual clock")
	}
}

// TestLocalGlobalAggregate: the local phase sends one row per key and
// batch, the global phase merges them into its state: the same results
// as the one-phase mini-batch aggregation over the same batches.
func TestLocalGlobalAggregate(t *testing.T) {
	cfg := countSumConfig(t, kvTypes)
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
	if next, ok := pt.Next(); !ok || next != 101e6 {
		t.Fatalf("the first timer is at %d (%v); want the next batch's start 101e6 µs", next, ok)
	}
	r := &recorder{}
	expect(t, feed(t, a, r, chunk(kvTypes, ins("a", 1))), "WM 100000000", "+I[a, 1]")
	expect(t, feed(t, a, r, chunk(kvTypes, ins("b", 1))), "+I[b, 1]")
	expect(t, watermark(t, a, r, 5))
	clock.Advance(600 * time.Millisecond)
	if err := pt.Fire(a, r); err != nil {
		t.Fatal(err)
	}
	expect(t, r.take(), "WM 101000000")
	if next, _ := pt.Next(); next != 102e6 {
		t.Fatalf("after firing, the timer is at %d; want 102e6", next)
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
	expect(t, got, "WM 4000", "WM 9000", "WM 14000", "WM 20000")
}

// boxedMerger hides an accumulator's flat form, as boxedOnly does, and
// keeps its merge.
type boxedMerger struct{ fn.Accumulator }

func (b boxedMerger) Merge(o fn.Accumulator) error {
	return b.Accumulator.(fn.Merger).Merge(o.(boxedMerger).Accumulator)
}

// aggPipe is a mini-batch aggregation under test: one phase, or a local
// and a global phase.
type aggPipe struct {
	op    runtime.Operator // the first
	final Stateful
	feed  func(c *types.Chunk) []string
	wm    func(wm int64) []string
}

// newAggPipe returns a mini-batch aggregation of aggs over in, keyed by
// columns 0 and 1, in one phase or two, its accumulators flat or boxed
// (in two phases the local one's, then the global one's), its state in
// st, in batches of size rows.
func newAggPipe(t *testing.T, in []types.Type, aggs []AggSpec, twoPhase bool, flat [2]bool, gub bool, st state.Backend, size int64) *aggPipe {
	t.Helper()
	cfgOf := func(flat bool) GroupAggregateConfig {
		aggs := slices.Clone(aggs)
		if !flat {
			for i := range aggs {
				newAcc := aggs[i].New
				aggs[i].New = func() Accumulator { return boxedMerger{newAcc()} }
			}
		}
		return GroupAggregateConfig{InputTypes: in, Keys: []int{0, 1}, Aggs: aggs, GenerateUpdateBefore: gub || twoPhase}
	}
	mb := MiniBatchConfig{Size: size}
	r := &recorder{}
	if !twoPhase {
		g, err := NewMiniBatchGroupAggregate(cfgOf(flat[0]), mb, st)
		if err != nil {
			t.Fatal(err)
		}
		if (g.groups.flat != nil) != flat[0] {
			t.Fatalf("flat form: %v, want %v", g.groups.flat != nil, flat[0])
		}
		return &aggPipe{op: g, final: g, feed: func(c *types.Chunk) []string { return feed(t, g, r, c) },
			wm: func(wm int64) []string { return watermark(t, g, r, wm) }}
	}
	l, err := NewLocalGroupAggregate(cfgOf(flat[0]), mb)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGlobalGroupAggregate(cfgOf(flat[1]), mb, st)
	if err != nil {
		t.Fatal(err)
	}
	if (l.batch.flat != nil) != flat[0] || (g.groups.flat != nil) != flat[1] {
		t.Fatalf("flat forms: %v, %v, want %v", l.batch.flat != nil, g.groups.flat != nil, flat)
	}
	toGlobal := &emitTo{emit: func(c *types.Chunk) {
		if err := g.ProcessChunk(0, c, r); err != nil {
			t.Fatal(err)
		}
	}}
	return &aggPipe{op: l, final: g,
		feed: func(c *types.Chunk) []string {
			if err := l.ProcessChunk(0, c, toGlobal); err != nil {
				t.Fatal(err)
			}
			return r.take()
		},
		wm: func(wm int64) []string {
			if err := l.ProcessWatermark(wm, toGlobal); err != nil {
				t.Fatal(err)
			}
			return watermark(t, g, r, wm)
		}}
}

// TestMiniBatchFlatMatchesBoxed: mini-batch aggregations, in one phase or
// two, give the same output over random changelogs (those of
// TestGroupAggregateFlatMatchesBoxed, in batches ended by their size
// within chunks and by watermarks) whether their accumulators are flat or
// boxed, in either phase, with and without -U, their state moving between
// the forms midway; so does the flat form on the Pebble backend, written
// back after every chunk.
func TestMiniBatchFlatMatchesBoxed(t *testing.T) {
	in, retracting, appendOnly := flatTestCalls(t)
	for _, c := range []struct {
		name    string
		aggs    []AggSpec
		retract bool
	}{{"retracting", retracting, true}, {"append-only", appendOnly, false}, {"count-star", retracting[:1], true}} {
		for _, phases := range []string{"one-phase", "two-phase"} {
			for _, gub := range []bool{true, false} {
				if phases == "two-phase" && !gub {
					continue // the global phase always emits -U
				}
				t.Run(fmt.Sprintf("%s/%s/update-before=%v", c.name, phases, gub), func(t *testing.T) {
					two := phases == "two-phase"
					pipe := func(flat [2]bool) *aggPipe {
						return newAggPipe(t, in, c.aggs, two, flat, gub, state.NewMemory(), 150)
					}
					onPebble := func() *aggPipe {
						return newAggPipe(t, in, c.aggs, two, [2]bool{true, true}, gub, writingBack(t), 150)
					}
					// Flat, boxed, boxed then flat (in two phases, a boxed
					// local phase before a flat global one, and the
					// reverse), and flat on Pebble.
					forms := [][2]bool{{true, true}, {false, false}, {false, true}}
					if two {
						forms = append(forms, [2]bool{true, false})
					}
					var pipes []*aggPipe
					for _, f := range forms {
						pipes = append(pipes, pipe(f))
					}
					pipes = append(pipes, onPebble())
					chunks := randomChangelog(in, c.retract)
					ended := make([][]string, len(pipes))
					for n, ch := range chunks {
						if n == len(chunks)/2 { // the state changes form
							for k := range pipes {
								f := forms[(k+1)%len(forms)]
								if k == len(pipes)-1 {
									f = [2]bool{true, true}
								}
								var moved *aggPipe
								if k == len(pipes)-1 {
									moved = onPebble()
								} else {
									moved = pipe(f)
								}
								// A checkpoint's barrier ends the batch.
								ended[k] = pipes[k].wm(int64(n))
								moveState(t, pipes[k].final, moved.final)
								pipes[k] = moved
							}
						}
						var outs [][]string
						for k, p := range pipes {
							got := append(ended[k], p.feed(ch)...)
							ended[k] = nil
							if n%3 == 0 {
								got = append(got, p.wm(int64(n))...)
							}
							if k == len(pipes)-1 {
								if err := p.final.State().Release(); err != nil {
									t.Fatal(err)
								}
							}
							outs = append(outs, got)
						}
						for k := 1; k < len(outs); k++ {
							if !slices.Equal(outs[k], outs[0]) {
								t.Fatalf("chunk %d: pipeline %d gives\n%s\nflat gives\n%s", n, k,
									strings.Join(outs[k], "\n"), strings.Join(outs[0], "\n"))
							}
						}
						if n == 0 && len(outs[0]) == 0 {
							t.Fatal("no output for the first chunk")
						}
					}
				})
			}
		}
	}
}

// TestRowBufferKeys: a batch's rows are found by key, keys in the order
// they first arrived and rows in arrival order, past the growth of the
// index and after a reset.
func TestRowBufferKeys(t *testing.T) {
	b := newRowBuffer()
	for round := range 2 {
		const keys, rows = 5000, 12000
		ci := b.addChunk(nil)
		for i := range rows {
			k := (i * 7) % keys
			e, first := b.add(fmt.Appendf(nil, "key-%d", k), ci, i)
			if wantFirst := i < keys; e != i%keys || first != wantFirst {
				t.Fatalf("round %d, row %d (key %d): entry %d (first %v), want %d (%v)", round, i, k, e, first, i%keys, wantFirst)
			}
		}
		if len(b.entries) != keys {
			t.Fatalf("%d entries, want %d", len(b.entries), keys)
		}
		for e := range b.entries {
			ent := &b.entries[e]
			if got, want := string(b.key(ent)), fmt.Sprintf("key-%d", (e*7)%keys); got != want {
				t.Fatalf("entry %d has key %s, want %s", e, got, want)
			}
			refs := b.rowsOf(ent)
			if want := (rows - e + keys - 1) / keys; len(refs) != want {
				t.Fatalf("entry %d has %d rows, want %d", e, len(refs), want)
			}
			for n, r := range refs {
				if row := int(b.refs[r].row); row != e+n*keys {
					t.Fatalf("entry %d, row %d is %d, want %d", e, n, row, e+n*keys)
				}
			}
		}
		b.reset()
	}
}
