package ops

import (
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// TestGroupAggregationsExpireIdleGroups: with a one-minute retention the
// one-phase, mini-batch and two-phase (global) aggregations drop a group
// idle for the minute, as Flink's GroupAggFunction,
// MiniBatchGroupAggFunction and MiniBatchGlobalGroupAggFunction with
// state TTL: a retraction for it is dropped and its next row starts it
// afresh with +I; a group written within the minute goes on; an unchanged
// result is emitted as -U/+U by the one-phase functions, and not by the
// global one (MiniBatchGlobalGroupAggFunction compares results whatever
// the retention, and takes a key without state's accumulators as they
// come, retractions too). A snapshot leaves the expired groups out.
func TestGroupAggregationsExpireIdleGroups(t *testing.T) {
	cfg := countSumConfig(t, kvTypes)
	cfg.StateTTL = time.Minute
	type op interface {
		runtime.Operator
		Stateful
	}
	for _, c := range []struct {
		name string
		make func() (op, func(c *types.Chunk) []string)
	}{
		{"one phase", func() (op, func(c *types.Chunk) []string) {
			g, err := NewGroupAggregate(cfg, state.NewMemory())
			if err != nil {
				t.Fatal(err)
			}
			r := &recorder{}
			return g, func(c *types.Chunk) []string { return feed(t, g, r, c) }
		}},
		{"mini-batch", func() (op, func(c *types.Chunk) []string) {
			g, err := NewMiniBatchGroupAggregate(cfg, MiniBatchConfig{Size: 100}, state.NewMemory())
			if err != nil {
				t.Fatal(err)
			}
			r := &recorder{}
			return g, func(c *types.Chunk) []string {
				feed(t, g, r, c)
				return watermark(t, g, r, 1)
			}
		}},
		{"two phases", func() (op, func(c *types.Chunk) []string) {
			l, err := NewLocalGroupAggregate(countSumConfig(t, kvTypes), MiniBatchConfig{Size: 100})
			if err != nil {
				t.Fatal(err)
			}
			g, err := NewGlobalGroupAggregate(cfg, MiniBatchConfig{Size: 100}, state.NewMemory())
			if err != nil {
				t.Fatal(err)
			}
			r := &recorder{}
			toGlobal := &emitTo{emit: func(c *types.Chunk) {
				if err := g.ProcessChunk(0, c, r); err != nil {
					t.Fatal(err)
				}
			}}
			return g, func(c *types.Chunk) []string {
				if err := l.ProcessChunk(0, c, toGlobal); err != nil {
					t.Fatal(err)
				}
				if err := l.ProcessWatermark(1, toGlobal); err != nil {
					t.Fatal(err)
				}
				return watermark(t, g, r, 1)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			clock := runtime.NewManualClock(time.Unix(1000, 0))
			g, run := c.make()
			if err := g.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
				t.Fatal(err)
			}
			expectSet(t, dropWatermarks(run(chunk(kvTypes, ins("a", 1), ins("b", 5)))), "+I[a, 1, 1]", "+I[b, 1, 5]")
			clock.Advance(40 * time.Second)
			expect(t, dropWatermarks(run(chunk(kvTypes, ins("a", 2)))), "-U[a, 1, 1]", "+U[a, 2, 3]")
			clock.Advance(20 * time.Second) // b idle for the minute
			if c.name != "two phases" {
				expect(t, dropWatermarks(run(chunk(kvTypes, del("b", 5)))))
			}
			expect(t, dropWatermarks(run(chunk(kvTypes, ins("b", 1)))), "+I[b, 1, 1]")
			// An unchanged result is emitted all the same: a batch's rows
			// that cancel out, or (one phase) the row that undoes the
			// change before it.
			want := []string{"-U[a, 2, 3]", "+U[a, 2, 3]"}
			switch c.name {
			case "one phase":
				want = []string{"-U[a, 2, 3]", "+U[a, 3, 3]", "-U[a, 3, 3]", "+U[a, 2, 3]"}
			case "two phases":
				want = nil
			}
			expect(t, dropWatermarks(run(chunk(kvTypes, ins("a", 0), del("a", 0)))), want...)
			clock.Advance(time.Minute) // both idle for the minute
			back, _ := NewGroupAggregate(cfg, state.NewMemory())
			moveState(t, g, back)
			if n := back.State().Len(); n != 0 {
				t.Fatalf("the snapshot holds %d entries of groups idle for the minute", n)
			}
		})
	}
}

// dropWatermarks returns lines without the watermarks.
func dropWatermarks(lines []string) []string {
	var out []string
	for _, l := range lines {
		if len(l) < 3 || l[:3] != "WM " {
			out = append(out, l)
		}
	}
	return out
}
