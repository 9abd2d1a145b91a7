package ops

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// newMatch builds PATTERN (A+ B) over evTypes (key, v, time), partitioned
// by key: A takes rows whose v is not a multiple of 3 (greedy), B any
// other row; the measures are COUNT(A.v) and LAST(A.v), with skip (to
// variable afterVar) and within.
func newMatch(t testing.TB, skip MatchSkip, afterVar int, within int64) *Match {
	t.Helper()
	col := func(i int) expr.Evaluator {
		return func(_ *expr.Context, r types.Row) (types.Value, error) { return r[i], nil }
	}
	notThird := func(_ *expr.Context, r types.Row) (types.Value, error) {
		return types.BoolValue(r[0].I%3 != 0), nil
	}
	count, err := expr.BindAggregate("COUNT", []types.Type{types.BigIntType}, nil, false, true, types.BigIntType.WithNotNull(true))
	if err != nil {
		t.Fatal(err)
	}
	cfg := MatchConfig{InputTypes: evTypes, PartitionKeys: []int{0}, TimeCol: 2, RowTime: true, After: skip, AfterVar: afterVar, Within: within,
		Vars: []MatchVar{
			{Name: "A", Min: 1, Max: -1, Greedy: true, Cond: &MatchExprs{
				Slots: []MatchSlot{{Kind: SlotValue, Var: 0, Value: col(1)}}, Exprs: []expr.Evaluator{notThird}}},
			{Name: "B", Min: 1, Max: 1},
		},
		Measures: MatchExprs{
			Slots: []MatchSlot{{Kind: SlotAggregate, Var: 0, NewAcc: count, Args: []expr.Evaluator{col(1)}}, {Kind: SlotValue, Var: 0, Value: col(1)}},
			Exprs: []expr.Evaluator{col(0), col(1)},
		},
		OutputTypes: []types.Type{types.StringType, types.BigIntType, types.BigIntType},
	}
	m, err := NewMatch(cfg, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMatchRestoresAtAnotherParallelism: the rows waiting for the
// watermark, the partial matches and the matches waiting for earlier ones
// move with their key groups.
func TestMatchRestoresAtAnotherParallelism(t *testing.T) {
	rows := func(from, to int) []sent {
		var recs []rec
		for i := from; i < to; i++ {
			recs = append(recs, ins(fmt.Sprintf("k%d", i%7), int64(i*7%11), ms(int64(i))))
		}
		return []sent{{0, chunk(evTypes, recs...)}}
	}
	// With WITHIN, partial matches time out after the restore, through
	// the timers rebuilt from the partitions each instance takes.
	for _, within := range []int64{0, ms(12)} {
		for _, skip := range []MatchSkip{SkipPastLastRow, SkipToNextRow, SkipToLast} {
			c := rescaleCase{name: "match", op: func(t *testing.T) runtime.Operator { return newMatch(t, skip, 1, within) }, keys: [][]int{{0}},
				first: rows(0, 50), second: rows(50, 90), wm: ms(30)}
			want := runRescaled(t, c, 1, 1)
			if len(want) == 0 {
				t.Fatal("the case outputs nothing")
			}
			for _, p := range [][2]int{{2, 3}, {2, 1}, {3, 2}} {
				if got := runRescaled(t, c, p[0], p[1]); !slices.Equal(got, want) {
					t.Errorf("within %d, skip %d, parallelism %d then %d:\n  %s\nwant:\n  %s", within, skip, p[0], p[1], strings.Join(got, "\n  "), strings.Join(want, "\n  "))
				}
			}
		}
	}
}

// TestMatchLateRowsAndWithin: a row not after the watermark is dropped;
// WITHIN ends a partial match once its first row is that old, and a
// partition with nothing left is forgotten.
func TestMatchLateRowsAndWithin(t *testing.T) {
	m, r := newMatch(t, SkipPastLastRow, -1, ms(4)), &recorder{}
	feed(t, m, r, chunk(evTypes, ins("k", int64(1), ms(1)), ins("k", int64(2), ms(2))))
	if err := m.ProcessWatermark(ms(2), r); err != nil {
		t.Fatal(err)
	}
	// Late (at the watermark): dropped.
	feed(t, m, r, chunk(evTypes, ins("k", int64(3), ms(2))))
	if m.Dropped() != 1 {
		t.Fatalf("dropped %d rows, want 1", m.Dropped())
	}
	// At 5 the match that began at 1 is 4 ms old and ends; the one that
	// began at 2 takes 4 and ends with 6, of the same time.
	feed(t, m, r, chunk(evTypes, ins("k", int64(4), ms(5)), ins("k", int64(6), ms(5))))
	got := finish(t, m, r)
	if want := []string{"+I[k, 2, 4]", "WM 9223372036854775807"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if n := m.State().Len(); n != 0 {
		t.Fatalf("%d partitions kept after the end, want none", n)
	}
}

// TestStateQueueIsJavasPriorityQueue: ties come out in the order Java's
// PriorityQueue gives them (a binary heap, sifted the same way).
func TestStateQueueIsJavasPriorityQueue(t *testing.T) {
	var q stateQueue
	at := func(ts int64, tag int) *mState {
		return &mState{started: true, start: eventID{ts, 0}, st: tag}
	}
	for i, ts := range []int64{5, 1, 5, 3, 1, 5} {
		q.add(at(ts, i))
	}
	q.add(&mState{st: 99})
	q.removeIf(func(s *mState) bool { return s.st == 3 })
	var order []int
	for len(q) > 0 {
		order = append(order, q.poll().st)
	}
	// java.util.PriorityQueue with the same adds, removeIf and polls.
	if want := []int{1, 4, 5, 0, 2, 99}; !slices.Equal(order, want) {
		t.Fatalf("order %v, want %v", order, want)
	}
}

// TestMatchRefusesWithinInProcessingTime: partial matches time out only
// at watermarks, so WITHIN needs an event-time attribute (the planner
// refuses it on PROCTIME() too).
func TestMatchRefusesWithinInProcessingTime(t *testing.T) {
	cfg := newMatch(t, SkipPastLastRow, -1, ms(4)).cfg
	cfg.RowTime = false
	if _, err := NewMatch(cfg, state.NewMemory()); err == nil || !strings.Contains(err.Error(), "WITHIN needs an event-time attribute") {
		t.Fatalf("got %v, want WITHIN refused", err)
	}
}
