package ops

import (
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// (id, ts) on both sides.
var timedTypes = []types.Type{types.IntType, types.TimestampType(0)}

func newIntervalJoin(t *testing.T, kind JoinKind) *IntervalJoin {
	t.Helper()
	j, err := NewIntervalJoin(IntervalJoinConfig{
		JoinSpec: JoinSpec{
			Kind: kind, LeftTypes: timedTypes, RightTypes: timedTypes,
			LeftKeys: []int{0}, RightKeys: []int{0},
		},
		LeftTime: 1, RightTime: 1,
		LowerBound: 0, UpperBound: int64(2 * time.Hour),
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func side(t *testing.T, j *IntervalJoin, r *recorder, input int, recs ...rec) []string {
	t.Helper()
	if err := j.ProcessChunk(input, chunk(timedTypes, recs...), r); err != nil {
		t.Fatal(err)
	}
	return r.take()
}

func TestIntervalJoinBoundsAndCleanup(t *testing.T) {
	j, r := newIntervalJoin(t, InnerJoin), &recorder{}
	expect(t, side(t, j, r, 0, ins(1, ts("2023-08-23 10:00:00")), ins(9, ts("2023-08-23 10:00:00"))))
	expect(t, side(t, j, r, 1,
		ins(1, ts("2023-08-23 10:00:00")), // lower bound, inclusive
		ins(1, ts("2023-08-23 12:00:00")), // upper bound, inclusive
		ins(1, ts("2023-08-23 12:00:01")), // just outside
		ins(1, ts("2023-08-23 09:59:59")), // before
	),
		"+I[1, 2023-08-23 10:00:00, 1, 2023-08-23 10:00:00]",
		"+I[1, 2023-08-23 10:00:00, 1, 2023-08-23 12:00:00]",
	)
	// A right row arriving first is joined by a later left row.
	expect(t, side(t, j, r, 1, ins(2, ts("2023-08-23 11:00:00"))))
	expect(t, side(t, j, r, 0, ins(2, ts("2023-08-23 09:30:00"))),
		"+I[2, 2023-08-23 09:30:00, 2, 2023-08-23 11:00:00]")
	if n := j.State().Len(); n != 3 { // keys 1, 2 and 9
		t.Fatalf("state has %d entries", n)
	}
	// The watermark is held back by the larger relative size (2h).
	expect(t, watermark(t, j, r, ts("2023-08-23 12:00:00")), "WM 1692784800000000000")
	if n := j.State().Len(); n != 3 {
		t.Fatalf("state has %d entries before expiry", n)
	}
	expect(t, watermark(t, j, r, ts("2023-08-23 13:00:01")), "WM 1692788401000000000")
	if n := j.State().Len(); n != 0 {
		t.Fatalf("state has %d entries after the watermark passed everything", n)
	}
}

func TestIntervalJoinOuterPadding(t *testing.T) {
	j, r := newIntervalJoin(t, FullJoin), &recorder{}
	expect(t, side(t, j, r, 0, ins(1, ts("2023-08-23 10:00:00")), ins(nil, ts("2023-08-23 10:00:00"))),
		"+I[NULL, 2023-08-23 10:00:00, NULL, NULL]")
	expect(t, side(t, j, r, 1, ins(3, ts("2023-08-23 10:00:00")), ins(1, ts("2023-08-23 10:30:00"))),
		"+I[1, 2023-08-23 10:00:00, 1, 2023-08-23 10:30:00]")
	// The unmatched right row expires first (nothing on the left can still
	// match it), then the left rows.
	expect(t, watermark(t, j, r, ts("2023-08-23 11:00:01")),
		"+I[NULL, NULL, 3, 2023-08-23 10:00:00]", "WM 1692781201000000000")
	// Late left row: not cached, no match: padded at once.
	expect(t, side(t, j, r, 0, ins(4, ts("2023-08-23 08:00:00"))), "+I[4, 2023-08-23 08:00:00, NULL, NULL]")
	k := newIntervalJoin(t, FullJoin)
	moveState(t, j, k)
	expect(t, side(t, k, r, 0, ins(5, ts("2023-08-23 12:00:00"))))
	expect(t, finish(t, k, r),
		"+I[5, 2023-08-23 12:00:00, NULL, NULL]", "WM 9223372036854775807")
}
