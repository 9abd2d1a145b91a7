package ops

import (
	"fmt"
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

// TestSemiAntiJoinTTL follows Flink's StreamingSemiAntiJoinOperator with
// a state TTL: each side's rows expire on their own, from their last
// write (a left row's also when its number of matches changes); an
// expired right row lets no new left row through, emits nothing when it
// expires, and its retraction still lowers the numbers of matches the
// left rows kept (processElement2 does not look the row up first): a left
// row held back by it alone passes again (anti) or is retracted (semi),
// and one that arrived after it expired goes below zero and so ignores
// the next match, as Flink's does. Nothing expired is snapshotted.
func TestSemiAntiJoinTTL(t *testing.T) {
	for _, anti := range []bool{true, false} {
		t.Run(fmt.Sprintf("anti=%v", anti), func(t *testing.T) {
			cfg := SemiJoinConfig{LeftTypes: semiLeftTypes, RightTypes: semiRightTypes, LeftKeys: []int{0}, RightKeys: []int{0},
				Anti: anti, StateTTL: [2]time.Duration{time.Minute, time.Minute}}
			j, err := NewSemiJoin(cfg, state.NewMemory())
			if err != nil {
				t.Fatal(err)
			}
			clock := runtime.NewManualClock(time.Unix(1000, 0))
			if err := j.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
				t.Fatal(err)
			}
			r := &recorder{}
			pass := func(anti bool, rows ...string) []string {
				if anti == cfg.Anti {
					return rows
				}
				return nil
			}
			flip := func(kind string, row string) []string {
				if cfg.Anti {
					return []string{kind + row}
				}
				if kind == "+I" {
					return []string{"-D" + row}
				}
				return []string{"+I" + row}
			}
			expect(t, feedInput(t, j, r, 1, chunk(semiRightTypes, ins(1))))
			clock.Advance(30 * time.Second)
			expect(t, feedInput(t, j, r, 0, chunk(semiLeftTypes, ins(1, "a"))), pass(false, "+I[1, a]")...)
			clock.Advance(31 * time.Second) // the right row expires, silently
			expect(t, feedInput(t, j, r, 0, chunk(semiLeftTypes, ins(1, "b"))), pass(true, "+I[1, b]")...)
			// The retraction of the expired right row: a's last match goes,
			// b's count goes to -1.
			expect(t, feedInput(t, j, r, 1, chunk(semiRightTypes, del(1))), flip("+I", "[1, a]")...)
			// A new right row: a gains its first match, b only gets back to 0.
			expect(t, feedInput(t, j, r, 1, chunk(semiRightTypes, ins(1))), flip("-D", "[1, a]")...)
			clock.Advance(time.Minute) // everything idle for the minute
			back, _ := NewSemiJoin(cfg, state.NewMemory())
			moveState(t, j, back)
			if n := back.State().Len(); n != 0 {
				t.Fatalf("the snapshot holds %d entries idle for the minute", n)
			}
		})
	}
}

// TestJoinRowsRestoredWithoutWriteTimeStay: a join's rows snapshotted
// without a retention carry no write time; restored into a join with one,
// they stay (as the other operators keep restored keys until written)
// rather than expire at once, while rows written after the restore expire.
func TestJoinRowsRestoredWithoutWriteTimeStay(t *testing.T) {
	before, r := newJoin(t, InnerJoin), &recorder{}
	expect(t, feedSide(t, before, r, 1, chunk(shipmentTypes, ins(1, "Boston"))))
	after, err := NewJoin(JoinSpec{Kind: InnerJoin, LeftTypes: orderTypes, RightTypes: shipmentTypes,
		LeftKeys: []int{0}, RightKeys: []int{0}, StateTTL: [2]time.Duration{time.Minute, time.Minute}}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	moveState(t, before, after)
	clock := runtime.NewManualClock(time.Unix(1000, 0))
	if err := after.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
		t.Fatal(err)
	}
	expect(t, feedSide(t, after, r, 1, chunk(shipmentTypes, ins(2, "Austin"))))
	clock.Advance(2 * time.Minute)
	expect(t, feedSide(t, after, r, 0, chunk(orderTypes, ins(1, 100), ins(2, 200))), "+I[1, 100, 1, Boston]")
}

// TestProcTimeOverUnboundedTTL follows Flink's
// ProcTimeUnboundedPrecedingFunction with a state TTL: the accumulators
// of a partition expire a minute after their last write, every row
// writing them, so a partition idle for the minute starts afresh and one
// written within it goes on, ROWS and RANGE alike. A snapshot leaves the
// expired partitions out, and a restored instance keeps the live ones
// with their write times.
func TestProcTimeOverUnboundedTTL(t *testing.T) {
	for _, rows := range []bool{false, true} {
		t.Run(fmt.Sprintf("rows=%v", rows), func(t *testing.T) {
			clock := runtime.NewManualClock(time.Unix(1000, 0))
			open := func() *ProcTimeOverAggregate { return procOverOn(t, clock, rows, -1, time.Minute) }
			o, r := open(), &recorder{}
			expect(t, feed(t, o, r, chunk(evTypes, ins("a", 1, ms(0)), ins("b", 5, ms(0)))),
				"+I[a, 1, 1970-01-01 00:00:00.000, 1, 1]", "+I[b, 5, 1970-01-01 00:00:00.000, 5, 1]")
			clock.Advance(40 * time.Second)
			expect(t, feed(t, o, r, chunk(evTypes, ins("a", 2, ms(0)))), "+I[a, 2, 1970-01-01 00:00:00.000, 3, 2]")
			clock.Advance(20 * time.Second) // b idle for the minute, a for 20 s
			expect(t, feed(t, o, r, chunk(evTypes, ins("a", 4, ms(0)), ins("b", 7, ms(0)))),
				"+I[a, 4, 1970-01-01 00:00:00.000, 7, 3]", "+I[b, 7, 1970-01-01 00:00:00.000, 7, 1]")
			clock.Advance(30 * time.Second)
			expect(t, feed(t, o, r, chunk(evTypes, ins("b", 1, ms(0)))), "+I[b, 1, 1970-01-01 00:00:00.000, 8, 2]")
			// a idle for 30 s, b written now: the snapshot holds both; a
			// is idle for the minute 30 s after the restore, b is not.
			back := open()
			moveState(t, o, back)
			clock.Advance(30 * time.Second)
			expect(t, feed(t, back, r, chunk(evTypes, ins("a", 1, ms(0)), ins("b", 1, ms(0)))),
				"+I[a, 1, 1970-01-01 00:00:00.000, 1, 1]", "+I[b, 1, 1970-01-01 00:00:00.000, 9, 3]")
			clock.Advance(time.Minute) // both idle for the minute
			empty := open()
			moveState(t, back, empty)
			if n := empty.State().Len(); n != 0 {
				t.Fatalf("the snapshot holds %d entries of partitions idle for the minute", n)
			}
		})
	}
}

// TestProcTimeOverRowsCleanup follows Flink's
// ProcTimeRowsBoundedPrecedingFunction with a one-minute retention
// (KeyedProcessFunctionWithCleanupState): a row sets its partition's
// cleanup timer 90 s ahead, and a later row moves it only when the
// minute from then lies past it; the timer rings a millisecond after its
// time and drops the partition, whose next row's frame holds itself
// alone. The timers are restored with the state.
func TestProcTimeOverRowsCleanup(t *testing.T) {
	clock := runtime.NewManualClock(time.Unix(1000, 0))
	open := func() *ProcTimeOverAggregate { return procOverOn(t, clock, true, 1, time.Minute) }
	o, r := open(), &recorder{}
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 1, ms(0)), ins("b", 5, ms(0)))),
		"+I[a, 1, 1970-01-01 00:00:00.000, 1, 1]", "+I[b, 5, 1970-01-01 00:00:00.000, 5, 1]")
	// At 20 s a's timer stays at 90 s (20 s + the minute is not past it);
	// at 40 s b's moves to 130 s.
	expect(t, fireAt(t, o, clock, 20*time.Second, r))
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 2, ms(0)))), "+I[a, 2, 1970-01-01 00:00:00.000, 3, 2]")
	expect(t, fireAt(t, o, clock, 20*time.Second, r))
	expect(t, feed(t, o, r, chunk(evTypes, ins("b", 6, ms(0)))), "+I[b, 6, 1970-01-01 00:00:00.000, 11, 2]")
	expect(t, fireAt(t, o, clock, 50*time.Second, r)) // 90 s: a's timer is due a millisecond later
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 3, ms(0)))), "+I[a, 3, 1970-01-01 00:00:00.000, 5, 2]")
	expect(t, fireAt(t, o, clock, 40*time.Second+time.Millisecond, r)) // 130.001 s: b's timer rings
	expect(t, feed(t, o, r, chunk(evTypes, ins("b", 7, ms(0)))), "+I[b, 7, 1970-01-01 00:00:00.000, 7, 1]")
	// a's timer, moved to 180 s at 90 s, rings after a restore.
	back := open()
	moveState(t, o, back)
	if err := back.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
		t.Fatal(err)
	}
	expect(t, fireAt(t, back, clock, 50*time.Second, r))
	expect(t, feed(t, back, r, chunk(evTypes, ins("a", 4, ms(0)), ins("b", 8, ms(0)))),
		"+I[a, 4, 1970-01-01 00:00:00.000, 4, 1]", "+I[b, 8, 1970-01-01 00:00:00.000, 15, 2]")
}

// TestRowTimeOverRowsCleanup follows Flink's
// RowTimeRowsBoundedPrecedingFunction with a one-minute retention: a row
// and each firing of a partition's rows register its cleanup timer (90 s
// ahead, moved only when the minute from then lies past it). When it
// rings, a partition with rows waiting for the watermark registers it
// again; one without is dropped, with its last time processed, so that a
// row older than that is no longer late. The timers are restored with the
// state.
func TestRowTimeOverRowsCleanup(t *testing.T) {
	clock := runtime.NewManualClock(time.Unix(1000, 0))
	open := func() (*OverAggregate, runtime.ProcessingTimer, *runtime.ProcessingTimeService) {
		return rowOverOn(t, clock, true, 1, time.Minute)
	}
	o, timer, pt := open()
	r := &recorder{}
	ring := func(d time.Duration) {
		t.Helper()
		clock.Advance(d)
		if err := pt.Fire(timer, r); err != nil {
			t.Fatal(err)
		}
		expect(t, r.take())
	}
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 1, ms(10)), ins("b", 5, ms(10)), ins("b", 6, ms(50)))))
	ring(40 * time.Second)
	// At 40 s the watermark fires a's and b's rows at 10 ms: both timers
	// move to 130 s.
	expectSet(t, watermark(t, o, r, ms(20)),
		"+I[a, 1, 1970-01-01 00:00:00.010, 1, 1]", "+I[b, 5, 1970-01-01 00:00:00.010, 5, 1]", "WM 20000")
	// At 130.001 s both ring: a is dropped; b, whose row at 50 ms waits,
	// registers again (220.001 s).
	ring(90*time.Second + time.Millisecond)
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 2, ms(5)))))
	expectSet(t, watermark(t, o, r, ms(60)),
		"+I[a, 2, 1970-01-01 00:00:00.005, 2, 1]", "+I[b, 6, 1970-01-01 00:00:00.050, 11, 2]", "WM 60000")
	back, timer, pt := open()
	moveState(t, o, back)
	o = back
	if err := o.Open(&runtime.Context{ProcessingTime: pt}); err != nil { // open after the restore, as the runtime does
		t.Fatal(err)
	}
	// At 200.001 s a's row moves its timer to 290.001 s; at 220.002 s
	// b's rings.
	ring(70 * time.Second)
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 3, ms(70)))))
	ring(20*time.Second + time.Millisecond)
	expect(t, feed(t, o, r, chunk(evTypes, ins("b", 7, ms(70)))))
	expectSet(t, watermark(t, o, r, ms(80)),
		"+I[a, 3, 1970-01-01 00:00:00.070, 5, 2]", "+I[b, 7, 1970-01-01 00:00:00.070, 7, 1]", "WM 80000")
}

// TestRowTimeOverUnboundedCleanup follows Flink's
// AbstractRowTimeUnboundedPrecedingOver with a one-minute retention: a
// row at or before the watermark is late (even for a partition that was
// dropped), and each watermark from 0 on fires every partition with rows
// waiting (Flink's timer at the watermark after the one a row arrived
// at), which registers its cleanup timer even when none of its rows is
// due. The partitions waiting are known again after a restore.
func TestRowTimeOverUnboundedCleanup(t *testing.T) {
	for _, rows := range []bool{false, true} {
		t.Run(fmt.Sprintf("rows=%v", rows), func(t *testing.T) {
			clock := runtime.NewManualClock(time.Unix(1000, 0))
			open := func() (*OverAggregate, runtime.ProcessingTimer, *runtime.ProcessingTimeService) {
				return rowOverOn(t, clock, rows, -1, time.Minute)
			}
			o, timer, pt := open()
			r := &recorder{}
			ring := func(d time.Duration) {
				t.Helper()
				clock.Advance(d)
				if err := pt.Fire(timer, r); err != nil {
					t.Fatal(err)
				}
				expect(t, r.take())
			}
			expect(t, feed(t, o, r, chunk(evTypes, ins("a", 1, ms(10)), ins("b", 5, ms(10)))))
			expectSet(t, watermark(t, o, r, ms(20)),
				"+I[a, 1, 1970-01-01 00:00:00.010, 1, 1]", "+I[b, 5, 1970-01-01 00:00:00.010, 5, 1]", "WM 20000")
			expect(t, feed(t, o, r, chunk(evTypes, ins("b", 6, ms(50)))))
			back, timer, pt := open()
			moveState(t, o, back)
			if err := back.Open(&runtime.Context{ProcessingTime: pt}); err != nil {
				t.Fatal(err)
			}
			o = back
			// At 40 s the watermark fires b, whose row waits: its timer
			// moves to 130 s; at 70 s its row is due, which leaves it there.
			clock.Advance(40 * time.Second)
			expect(t, watermark(t, o, r, ms(30)), "WM 30000")
			clock.Advance(30 * time.Second)
			expect(t, watermark(t, o, r, ms(50)), "+I[b, 6, 1970-01-01 00:00:00.050, 11, 2]", "WM 50000")
			ring(20*time.Second + time.Millisecond) // 90.001 s: a is dropped
			expect(t, feed(t, o, r, chunk(evTypes, ins("a", 2, ms(40)), ins("a", 3, ms(55)))))
			if o.Dropped() != 1 {
				t.Fatalf("dropped %d rows, want a's row at 40 ms, before the watermark", o.Dropped())
			}
			ring(40 * time.Second) // 130.001 s: b is dropped
			expect(t, feed(t, o, r, chunk(evTypes, ins("b", 7, ms(60)))))
			expectSet(t, watermark(t, o, r, ms(70)),
				"+I[a, 3, 1970-01-01 00:00:00.055, 3, 1]", "+I[b, 7, 1970-01-01 00:00:00.060, 7, 1]", "WM 70000")
		})
	}
}

// TestRankFirstNTTL follows Flink's AppendOnlyFirstNFunction (a Top-N
// ordered by an ascending processing-time attribute over an append-only
// input) with a one-minute retention: rows rank in their order of
// arrival, whatever their times; a partition's count of rows expires a
// minute after the last row it counted (rows past the end are not
// counted and do not renew it), so its next row ranks first again, and a
// variable rank end a minute after it was taken. A snapshot leaves what
// expired out.
func TestRankFirstNTTL(t *testing.T) {
	pt := types.TimestampLTZType(3)
	pt.Attr = types.ProcTime
	ts := []types.Type{types.StringType, types.BigIntType, pt}
	clock := runtime.NewManualClock(time.Unix(1000, 0))
	open := func(variable bool) *Rank {
		cfg := RankConfig{InputTypes: ts, PartitionKeys: []int{0}, Order: []SortKey{{Col: 2}}, Start: 1, End: 2,
			OutputRankNumber: true, InputInsertOnly: true, GenerateUpdateBefore: true, StateTTL: time.Minute}
		if variable {
			cfg.VariableEnd, cfg.EndCol = true, 1
		}
		r, err := NewRank(cfg, state.NewMemory())
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
			t.Fatal(err)
		}
		return r
	}
	o, r := open(false), &recorder{}
	// The second row's time is earlier: it ranks second all the same.
	expect(t, feed(t, o, r, chunk(ts, ins("a", 1, ms(20)), ins("a", 2, ms(10)), ins("b", 5, ms(30)))),
		"+I[a, 1, 1970-01-01 00:00:00.020, 1]", "+I[a, 2, 1970-01-01 00:00:00.010, 2]", "+I[b, 5, 1970-01-01 00:00:00.030, 1]")
	clock.Advance(40 * time.Second)
	expect(t, feed(t, o, r, chunk(ts, ins("a", 3, ms(40)), ins("b", 6, ms(40)))), "+I[b, 6, 1970-01-01 00:00:00.040, 2]")
	clock.Advance(20 * time.Second) // a counted last at 0 s, b at 40 s
	expect(t, feed(t, o, r, chunk(ts, ins("a", 4, ms(50)), ins("b", 7, ms(50)))), "+I[a, 4, 1970-01-01 00:00:00.050, 1]")
	clock.Advance(time.Minute)
	back := open(false)
	moveState(t, o, back)
	if n := back.State().Len(); n != 0 {
		t.Fatalf("the snapshot holds %d entries of partitions idle for the minute", n)
	}

	// A variable rank end, taken from a's first row (1), expires with its
	// count: a's next row takes 2.
	o = open(true)
	expect(t, feed(t, o, r, chunk(ts, ins("a", 1, ms(0)), ins("a", 5, ms(0)))), "+I[a, 1, 1970-01-01 00:00:00.000, 1]")
	clock.Advance(time.Minute)
	expect(t, feed(t, o, r, chunk(ts, ins("a", 2, ms(0)), ins("a", 9, ms(0)))),
		"+I[a, 2, 1970-01-01 00:00:00.000, 1]", "+I[a, 9, 1970-01-01 00:00:00.000, 2]")
}
