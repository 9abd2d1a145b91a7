package ops

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

var (
	// orders(currency, amount, order_time) and rates(currency, rate, update_time).
	tjOrderTypes = []types.Type{types.StringType, types.BigIntType, types.TimestampType(3)}
	tjRateTypes  = []types.Type{types.StringType, types.BigIntType, types.TimestampType(3)}
)

func newTemporalJoin(t *testing.T, kind JoinKind) *TemporalJoin {
	t.Helper()
	j, err := NewTemporalJoin(TemporalJoinConfig{
		JoinSpec: JoinSpec{Kind: kind, LeftTypes: tjOrderTypes, RightTypes: tjRateTypes, LeftKeys: []int{0}, RightKeys: []int{0}},
		LeftTime: 2, RightTime: 2,
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// feedInput sends c to the given input of op and returns the output lines.
func feedInput(t *testing.T, op runtime.Operator, r *recorder, input int, c *types.Chunk) []string {
	t.Helper()
	if err := op.ProcessChunk(input, c, r); err != nil {
		t.Fatal(err)
	}
	return r.take()
}

// TestTemporalJoinPicksTheVersionValidAtTheLeftTime follows Flink's
// event-time temporal join example: each order joins the rate of its
// currency that was valid at the order's time, once the watermark reaches
// it.
func TestTemporalJoinPicksTheVersionValidAtTheLeftTime(t *testing.T) {
	j, r := newTemporalJoin(t, InnerJoin), &recorder{}
	expect(t, feedInput(t, j, r, 1, chunk(tjRateTypes,
		ins("EUR", 114, ms(10)), ins("EUR", 116, ms(30)), ins("USD", 1, ms(5)))))
	expect(t, feedInput(t, j, r, 0, chunk(tjOrderTypes,
		ins("EUR", 2, ms(20)), ins("EUR", 3, ms(30)), ins("EUR", 4, ms(5)), ins("GBP", 9, ms(20)))))
	// The EUR order at 5ms precedes every EUR rate: no match (inner).
	expectSet(t, watermark(t, j, r, ms(30)),
		"+I[EUR, 2, 1970-01-01 00:00:00.020, EUR, 114, 1970-01-01 00:00:00.010]",
		"+I[EUR, 3, 1970-01-01 00:00:00.030, EUR, 116, 1970-01-01 00:00:00.030]",
		"WM 30000")
}

// TestTemporalJoinLeftDeletesAndCleanup: a LEFT temporal join pads orders
// without a valid version; a deleted rate ends its version; versions no
// pending order can need are dropped.
func TestTemporalJoinLeftDeletesAndCleanup(t *testing.T) {
	j, r := newTemporalJoin(t, LeftJoin), &recorder{}
	feedInput(t, j, r, 1, chunk(tjRateTypes, ins("EUR", 114, ms(10)), ub("EUR", 114, ms(10)), ua("EUR", 115, ms(20)), del("EUR", 115, ms(40))))
	feedInput(t, j, r, 0, chunk(tjOrderTypes,
		ins("EUR", 1, ms(5)), ins("EUR", 2, ms(15)), ins("EUR", 3, ms(25)), ins("EUR", 4, ms(45))))
	expect(t, watermark(t, j, r, ms(50)),
		"+I[EUR, 1, 1970-01-01 00:00:00.005, NULL, NULL, NULL]",
		"+I[EUR, 2, 1970-01-01 00:00:00.015, EUR, 114, 1970-01-01 00:00:00.010]",
		"+I[EUR, 3, 1970-01-01 00:00:00.025, EUR, 115, 1970-01-01 00:00:00.020]",
		"+I[EUR, 4, 1970-01-01 00:00:00.045, NULL, NULL, NULL]",
		"WM 50000")
	if n := j.State().Len(); n != 0 {
		t.Fatalf("state holds %d keys after every version expired, want 0", n)
	}
}

// visitAll visits every key at wm, as the temporal join did before it
// had timers: the reference its timers must agree with.
func (t *TemporalJoin) visitAll(wm int64, e runtime.Emitter) error {
	w := t.out.to(e)
	defer w.flush()
	var keys []string
	for k := range t.keys.All() {
		keys = append(keys, k)
	}
	for _, key := range keys {
		k, _ := t.keys.GetString(key)
		k.timer, k.hasTimer = wm, true
		if err := t.visit(w, wm, wm, key); err != nil {
			return err
		}
	}
	return nil
}

// TestTemporalJoinTimersVisitWhatIsDue: visiting only the keys whose
// timers a watermark reaches gives what visiting every key at every
// watermark gives, on random input with late rows on both sides,
// deletions, NULL times and restores (on the Pebble backend too, which
// forgets decoded entries after every message).
func TestTemporalJoinTimersVisitWhatIsDue(t *testing.T) {
	for _, backend := range []string{"hashmap", "rocksdb"} {
		t.Run(backend, func(t *testing.T) {
			newState := func() state.Backend {
				if backend == "hashmap" {
					return state.NewMemory()
				}
				st, err := state.NewPebble(filepath.Join(t.TempDir(), "state"), runtime.DefaultMaxParallelism)
				if err != nil {
					t.Fatal(err)
				}
				st.CacheEntries = 1
				t.Cleanup(func() { st.Close() })
				return st
			}
			cfg := TemporalJoinConfig{
				JoinSpec: JoinSpec{Kind: LeftJoin, LeftTypes: tjOrderTypes, RightTypes: tjRateTypes, LeftKeys: []int{0}, RightKeys: []int{0}},
				LeftTime: 2, RightTime: 2,
			}
			j, err := NewTemporalJoin(cfg, newState())
			if err != nil {
				t.Fatal(err)
			}
			ref, err := NewTemporalJoin(cfg, state.NewMemory())
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			wm := int64(0)
			r, rr := &recorder{}, &recorder{}
			timeNear := func() any {
				if rng.IntN(50) == 0 {
					return nil
				}
				return ms(wm/1e6 + rng.Int64N(40) - 10)
			}
			for step := range 3000 {
				key := fmt.Sprintf("k%d", rng.IntN(12))
				var in int
				var c *types.Chunk
				if rng.IntN(2) == 0 {
					in, c = 0, chunk(tjOrderTypes, ins(key, int64(step), timeNear()))
				} else {
					kinds := []func(...any) rec{ins, ua, ub, del}
					in, c = 1, chunk(tjRateTypes, kinds[rng.IntN(4)](key, int64(step), timeNear()))
				}
				feedInput(t, j, r, in, c)
				feedInput(t, ref, rr, in, c)
				if err := j.State().Release(); err != nil {
					t.Fatal(err)
				}
				switch rng.IntN(10) {
				case 0:
					wm += ms(rng.Int64N(8))
					got := watermark(t, j, r, wm)
					if err := j.State().Release(); err != nil {
						t.Fatal(err)
					}
					if err := ref.visitAll(wm, rr); err != nil {
						t.Fatal(err)
					}
					rr.EmitWatermark(wm)
					want := rr.take()
					slices.Sort(got)
					slices.Sort(want)
					if !slices.Equal(got, want) {
						t.Fatalf("step %d, watermark %d:\n%s\nwant:\n%s", step, wm, strings.Join(got, "\n"), strings.Join(want, "\n"))
					}
				case 1:
					if backend == "rocksdb" && step%10 != 0 {
						break // a new database per restore is slow
					}
					next, err := NewTemporalJoin(cfg, newState())
					if err != nil {
						t.Fatal(err)
					}
					moveState(t, j, next)
					j = next
				}
			}
		})
	}
}

// newTemporalJoinTTL returns a LEFT temporal join with a one-minute
// retention, opened on clock.
func newTemporalJoinTTL(t *testing.T, clock *runtime.ManualClock) *TemporalJoin {
	t.Helper()
	j, err := NewTemporalJoin(TemporalJoinConfig{
		JoinSpec: JoinSpec{Kind: LeftJoin, LeftTypes: tjOrderTypes, RightTypes: tjRateTypes, LeftKeys: []int{0}, RightKeys: []int{0}},
		LeftTime: 2, RightTime: 2, StateTTL: time.Minute,
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
		t.Fatal(err)
	}
	return j
}

// TestTemporalJoinTTL follows Flink's TemporalRowTimeJoinOperator with a
// one-minute retention (BaseTwoInputStreamOperatorWithStateRetention,
// CleanupState): a key's cleanup timer is set 90 s (1.5 times the
// retention) after a row, and moved by a later row, or a firing of the
// key's event-time timer, only when the minute from then lies past it. It
// rings a millisecond after its time and drops the key's versions without
// output: a later order of that key finds no version, while a key whose
// timer fired keeps its own. A firing that
// leaves no order waiting and no version deletes the timer. The cleanup
// timers are restored with the state.
func TestTemporalJoinTTL(t *testing.T) {
	start := time.Unix(1000, 0)
	clock := runtime.NewManualClock(start)
	j, r := newTemporalJoinTTL(t, clock), &recorder{}
	at := func(d time.Duration) int64 { return start.Add(d).UnixMicro() }
	expect(t, feedInput(t, j, r, 1, chunk(tjRateTypes, ins("EUR", 114, ms(10)), ins("USD", 1, ms(100)))))
	clock.Advance(50 * time.Second)
	// EUR's timer (at its rate's time) fires: its cleanup moves to 140 s.
	expect(t, watermark(t, j, r, ms(10)), "WM 10000")
	if next, _ := j.ttl.pt.Next(); next != at(90*time.Second+time.Millisecond) {
		t.Fatalf("wake-up at %d, want USD's cleanup a millisecond after 90 s", next)
	}
	for _, d := range []time.Duration{40 * time.Second, time.Millisecond} {
		clock.Advance(d) // at 90 s nothing rings; at 90.001 s USD's cleanup
		if err := j.ttl.pt.Fire(j, r); err != nil {
			t.Fatal(err)
		}
		expect(t, r.take())
	}
	expect(t, feedInput(t, j, r, 0, chunk(tjOrderTypes, ins("USD", 8, ms(200)), ins("EUR", 2, ms(200)))))
	expectSet(t, watermark(t, j, r, ms(300)),
		"+I[EUR, 2, 1970-01-01 00:00:00.200, EUR, 114, 1970-01-01 00:00:00.010]",
		"+I[USD, 8, 1970-01-01 00:00:00.200, NULL, NULL, NULL]",
		"WM 300000")
	// EUR's rows at 90.001 s set its cleanup at 180.001 s; USD has no
	// version and no order waiting: nothing is left of it.
	back := newTemporalJoinTTL(t, clock)
	moveState(t, j, back)
	if n := back.State().Len(); n != 2 {
		t.Fatalf("the snapshot holds %d entries, want EUR's key and its cleanup", n)
	}
	if err := back.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(90*time.Second + time.Millisecond)
	if err := back.ttl.pt.Fire(back, r); err != nil {
		t.Fatal(err)
	}
	expect(t, feedInput(t, back, r, 0, chunk(tjOrderTypes, ins("EUR", 3, ms(400)))))
	expect(t, watermark(t, back, r, ms(500)), "+I[EUR, 3, 1970-01-01 00:00:00.400, NULL, NULL, NULL]", "WM 500000")
	if n := back.State().Len(); n != 0 {
		t.Fatalf("state holds %d entries once the key was cleaned up and its order joined", n)
	}
}
