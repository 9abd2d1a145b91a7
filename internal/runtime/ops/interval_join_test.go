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
		LowerBound: 0, UpperBound: us(2 * time.Hour),
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
	// The watermark is held back by the larger relative size (2h). Key
	// 2's clean-up timers (11:00:00.001 for its right row, 11:30:00.001
	// for its left one: row time + relative size + 1 ms, Flink's minimum
	// clean-up interval being 0) have come, so its rows are gone.
	expect(t, watermark(t, j, r, ts("2023-08-23 12:00:00")), "WM 1692784800000000")
	if n := j.State().Len(); n != 2 {
		t.Fatalf("state has %d entries before expiry", n)
	}
	expect(t, watermark(t, j, r, ts("2023-08-23 13:00:01")), "WM 1692788401000000")
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
		"+I[NULL, NULL, 3, 2023-08-23 10:00:00]", "WM 1692781201000000")
	// Late left row: not cached, no match: padded at once.
	expect(t, side(t, j, r, 0, ins(4, ts("2023-08-23 08:00:00"))), "+I[4, 2023-08-23 08:00:00, NULL, NULL]")
	k := newIntervalJoin(t, FullJoin)
	moveState(t, j, k)
	expect(t, side(t, k, r, 0, ins(5, ts("2023-08-23 12:00:00"))))
	expect(t, finish(t, k, r),
		"+I[5, 2023-08-23 12:00:00, NULL, NULL]", "WM 9223372036854775807")
}

// TestIntervalJoinCachedValues: cached rows keep every kind of value
// (strings, doubles, NULLs) through the compact cache, a state move and
// compaction after expiry, and the residual condition sees them.
func TestIntervalJoinCachedValues(t *testing.T) {
	// (id, ts, name, score) on both sides.
	ts := []types.Type{types.IntType, types.TimestampType(0), types.StringType, types.DoubleType}
	newJoin := func() *IntervalJoin {
		j, err := NewIntervalJoin(IntervalJoinConfig{
			JoinSpec: JoinSpec{
				Kind: LeftJoin, LeftTypes: ts, RightTypes: ts, LeftKeys: []int{0}, RightKeys: []int{0},
				// l.name <> r.name or either is NULL
				Cond: func(row types.Row) (bool, error) { return row[2].Null || row[6].Null || row[2].S != row[6].S, nil },
			},
			LeftTime: 1, RightTime: 1, LowerBound: -us(time.Hour), UpperBound: us(time.Hour),
		}, state.NewMemory())
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	run := func(j *IntervalJoin, r *recorder, input int, recs ...rec) []string {
		t.Helper()
		if err := j.ProcessChunk(input, chunk(ts, recs...), r); err != nil {
			t.Fatal(err)
		}
		return r.take()
	}
	j, r := newJoin(), &recorder{}
	expect(t, run(j, r, 0,
		ins(1, ts_("10:00:00"), "a", 1.5),
		ins(1, ts_("10:10:00"), nil, -0.25),
		ins(1, ts_("11:30:00"), "b", nil),
		ins(2, ts_("10:30:00"), "c", 3.0)))
	k := newJoin()
	moveState(t, j, k)
	expect(t, run(k, r, 1, ins(1, ts_("10:30:00"), "a", 9.5)),
		"+I[1, 2023-08-23 10:10:00, NULL, -0.25, 1, 2023-08-23 10:30:00, a, 9.5]",
		"+I[1, 2023-08-23 11:30:00, b, NULL, 1, 2023-08-23 10:30:00, a, 9.5]")
	// The left rows up to 11:15 expire, the unjoined ones padded (key 2's
	// clean-up timer, at 11:30:00.001, has come too); the last stays,
	// compacted to the front of the cache, and still joins.
	expect(t, watermark(t, k, r, ts_("12:15:00")),
		"+I[1, 2023-08-23 10:00:00, a, 1.5, NULL, NULL, NULL, NULL]",
		"+I[2, 2023-08-23 10:30:00, c, 3.0, NULL, NULL, NULL, NULL]", "WM 1692789300000000")
	expect(t, run(k, r, 1, ins(1, ts_("12:20:00"), "z", 0.0)),
		"+I[1, 2023-08-23 11:30:00, b, NULL, 1, 2023-08-23 12:20:00, z, 0.0]")
	expect(t, finish(t, k, r), "WM 9223372036854775807")
}

// ts_ is a time of 2023-08-23.
func ts_(hms string) int64 { return ts("2023-08-23 " + hms) }

// TestIntervalJoinBeforeTheEpoch: rows of times before 1970-01-01 join
// and expire as any others: the operator's time is the watermark, not
// Flink's watermark clamped at 0, under which every such row would be
// late (never cached, an outer row padded at once).
func TestIntervalJoinBeforeTheEpoch(t *testing.T) {
	j, r := newIntervalJoin(t, LeftJoin), &recorder{}
	expect(t, side(t, j, r, 0, ins(1, ts("1000-01-01 10:00:00")), ins(2, ts("1000-01-01 10:00:00"))))
	expect(t, side(t, j, r, 1, ins(1, ts("1000-01-01 11:00:00"))),
		"+I[1, 1000-01-01 10:00:00, 1, 1000-01-01 11:00:00]")
	expect(t, side(t, j, r, 0, ins(1, ts("1000-01-01 09:00:00"))),
		"+I[1, 1000-01-01 09:00:00, 1, 1000-01-01 11:00:00]")
	// The left row of key 2 found no match by the time the watermark
	// passed its interval's end: it is padded then.
	expect(t, watermark(t, j, r, ts("1000-01-01 12:00:01")),
		"+I[2, 1000-01-01 10:00:00, NULL, NULL]", "WM -30610187999000000")
	if n := j.State().Len(); n != 0 {
		t.Fatalf("state has %d entries after the watermark passed everything", n)
	}
}
