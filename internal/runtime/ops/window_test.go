package ops

import (
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// ratingTypes are (title, rating, ts).
var ratingTypes = []types.Type{types.StringType, types.DoubleType, types.TimestampType(3)}

func newRatingsAgg(t *testing.T, w Window) *WindowAggregate {
	t.Helper()
	w.TimeCol = 2
	a, err := NewWindowAggregate(WindowAggregateConfig{
		InputTypes: ratingTypes,
		Window:     w,
		Keys:       []int{0},
		Aggs:       []AggSpec{aggCall(t, "COUNT", ratingTypes), aggCall(t, "AVG", ratingTypes, 1)},
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestTumbleWindowAggregate runs the tumbling-windows tutorial: 6 hour
// windows, a watermark equal to the latest ts.
func TestTumbleWindowAggregate(t *testing.T) {
	a, r := newRatingsAgg(t, Window{Kind: Tumble, Size: us(6 * time.Hour)}), &recorder{}
	rows := []rec{
		ins("Die Hard", 8.2, ts("2023-07-09 01:00:00")),
		ins("The Big Lebowski", 4.2, ts("2023-07-09 02:00:00")),
		ins("Die Hard", 4.5, ts("2023-07-09 05:00:00")),
		ins("The Big Lebowski", 9.9, ts("2023-07-09 06:30:00")),
		ins("Die Hard", 5.1, ts("2023-07-09 07:00:00")),
		ins("Tree of Life", 5.6, ts("2023-07-09 08:00:00")),
		ins("Tree of Life", 4.9, ts("2023-07-09 09:00:00")),
		ins("A Walk in the Clouds", 3.6, ts("2023-07-09 12:00:00")),
		ins("A Walk in the Clouds", 6.0, ts("2023-07-09 15:00:00")),
		ins("Super Mario Bros.", 3.5, ts("2023-07-09 18:30:00")),
		ins("A Walk in the Clouds", 4.6, ts("2023-07-10 01:00:00")),
	}
	var got []string
	for _, row := range rows {
		got = append(got, feed(t, a, r, chunk(ratingTypes, row))...)
		got = append(got, watermark(t, a, r, value(row.vals[2]).I)...)
	}
	expect(t, got,
		"WM 1688864400000000", "WM 1688868000000000", "WM 1688878800000000",
		"+I[Die Hard, 2, 6.35, 2023-07-09 00:00:00.000, 2023-07-09 06:00:00.000, 2023-07-09 05:59:59.999]",
		"+I[The Big Lebowski, 1, 4.2, 2023-07-09 00:00:00.000, 2023-07-09 06:00:00.000, 2023-07-09 05:59:59.999]",
		"WM 1688884200000000", "WM 1688886000000000", "WM 1688889600000000", "WM 1688893200000000",
		"+I[The Big Lebowski, 1, 9.9, 2023-07-09 06:00:00.000, 2023-07-09 12:00:00.000, 2023-07-09 11:59:59.999]",
		"+I[Die Hard, 1, 5.1, 2023-07-09 06:00:00.000, 2023-07-09 12:00:00.000, 2023-07-09 11:59:59.999]",
		"+I[Tree of Life, 2, 5.25, 2023-07-09 06:00:00.000, 2023-07-09 12:00:00.000, 2023-07-09 11:59:59.999]",
		"WM 1688904000000000", "WM 1688914800000000",
		"+I[A Walk in the Clouds, 2, 4.8, 2023-07-09 12:00:00.000, 2023-07-09 18:00:00.000, 2023-07-09 17:59:59.999]",
		"WM 1688927400000000",
		"+I[Super Mario Bros., 1, 3.5, 2023-07-09 18:00:00.000, 2023-07-10 00:00:00.000, 2023-07-09 23:59:59.999]",
		"WM 1688950800000000",
	)
	// The last window fires at the end of the input.
	expect(t, finish(t, a, r),
		"+I[A Walk in the Clouds, 1, 4.6, 2023-07-10 00:00:00.000, 2023-07-10 06:00:00.000, 2023-07-10 05:59:59.999]",
		"WM 9223372036854775807")
	if a.State().Len() != 0 || a.Dropped() != 0 {
		t.Fatalf("state %d, dropped %d", a.State().Len(), a.Dropped())
	}
}

func TestWindowFiresAtEndMinusOneMilli(t *testing.T) {
	a, r := newRatingsAgg(t, Window{Kind: Tumble, Size: us(time.Hour)}), &recorder{}
	end := ts("2023-07-09 01:00:00")
	feed(t, a, r, chunk(ratingTypes,
		ins("x", 1.0, ts("2023-07-09 00:10:00")),
		ins("x", 3.0, ts("2023-07-09 00:50:00")),
	))
	expect(t, watermark(t, a, r, end-ms(1)-1), "WM 1688864399998999")
	// Out of order but not late: still counted.
	feed(t, a, r, chunk(ratingTypes, ins("x", 5.0, ts("2023-07-09 00:00:00"))))
	expect(t, watermark(t, a, r, end-ms(1)),
		"+I[x, 3, 3.0, 2023-07-09 00:00:00.000, 2023-07-09 01:00:00.000, 2023-07-09 00:59:59.999]",
		"WM 1688864399999000")
	// Late: its window has fired.
	feed(t, a, r, chunk(ratingTypes, ins("x", 7.0, ts("2023-07-09 00:59:59")), ins("x", 1.0, nil)))
	if a.Dropped() != 2 {
		t.Fatalf("dropped %d, want 2", a.Dropped())
	}
	expect(t, finish(t, a, r), "WM 9223372036854775807")
}

func TestHopWindowLateRowJoinsUnfiredWindows(t *testing.T) {
	a, r := newRatingsAgg(t, Window{Kind: Hop, Size: us(10 * time.Minute), Slide: us(5 * time.Minute)}), &recorder{}
	feed(t, a, r, chunk(ratingTypes, ins("x", 1.0, ts("2023-07-09 12:07:00"))))
	expect(t, watermark(t, a, r, ts("2023-07-09 12:10:00")),
		"+I[x, 1, 1.0, 2023-07-09 12:00:00.000, 2023-07-09 12:10:00.000, 2023-07-09 12:09:59.999]",
		"WM 1688904600000000")
	// 12:06 belongs to [12:00, 12:10) (fired) and [12:05, 12:15) (open).
	feed(t, a, r, chunk(ratingTypes, ins("x", 3.0, ts("2023-07-09 12:06:00"))))
	if a.Dropped() != 0 {
		t.Fatal("row with an open window dropped")
	}
	expect(t, finish(t, a, r),
		"+I[x, 2, 2.0, 2023-07-09 12:05:00.000, 2023-07-09 12:15:00.000, 2023-07-09 12:14:59.999]",
		"WM 9223372036854775807")
}

func TestCumulateWindowAggregate(t *testing.T) {
	a, r := newRatingsAgg(t, Window{Kind: Cumulate, Size: us(3 * time.Hour), Slide: us(time.Hour)}), &recorder{}
	feed(t, a, r, chunk(ratingTypes,
		ins("x", 1.0, ts("2023-07-09 00:30:00")),
		ins("x", 2.0, ts("2023-07-09 01:30:00")),
		ins("y", 4.0, ts("2023-07-09 02:30:00")),
		ins("x", 6.0, ts("2023-07-09 03:30:00")),
	))
	expect(t, finish(t, a, r),
		"+I[x, 1, 1.0, 2023-07-09 00:00:00.000, 2023-07-09 01:00:00.000, 2023-07-09 00:59:59.999]",
		"+I[x, 2, 1.5, 2023-07-09 00:00:00.000, 2023-07-09 02:00:00.000, 2023-07-09 01:59:59.999]",
		"+I[x, 2, 1.5, 2023-07-09 00:00:00.000, 2023-07-09 03:00:00.000, 2023-07-09 02:59:59.999]",
		"+I[y, 1, 4.0, 2023-07-09 00:00:00.000, 2023-07-09 03:00:00.000, 2023-07-09 02:59:59.999]",
		"+I[x, 1, 6.0, 2023-07-09 03:00:00.000, 2023-07-09 04:00:00.000, 2023-07-09 03:59:59.999]",
		"+I[x, 1, 6.0, 2023-07-09 03:00:00.000, 2023-07-09 05:00:00.000, 2023-07-09 04:59:59.999]",
		"+I[x, 1, 6.0, 2023-07-09 03:00:00.000, 2023-07-09 06:00:00.000, 2023-07-09 05:59:59.999]",
		"WM 9223372036854775807")
}

func TestWindowAssignmentWithOffsetAndNegativeTimes(t *testing.T) {
	w := Window{Kind: Tumble, Size: 10, Offset: 3}
	for _, c := range []struct{ t, start int64 }{{3, 3}, {12, 3}, {13, 13}, {2, -7}, {-7, -7}, {-8, -17}} {
		if got := w.assign(nil, c.t); len(got) != 1 || got[0] != (span{c.start, c.start + 10}) {
			t.Errorf("tumble(%d) = %v, want start %d", c.t, got, c.start)
		}
	}
	hop := Window{Kind: Hop, Size: 10, Slide: 5}
	if got := hop.assign(nil, 7); len(got) != 2 || got[0] != (span{5, 15}) || got[1] != (span{0, 10}) {
		t.Errorf("hop(7) = %v", got)
	}
}

func TestSessionWindowAggregate(t *testing.T) {
	a, r := newRatingsAgg(t, Window{Kind: Session, Gap: us(10 * time.Minute)}), &recorder{}
	feed(t, a, r, chunk(ratingTypes,
		ins("x", 1.0, ts("2023-07-09 12:00:00")),
		ins("x", 2.0, ts("2023-07-09 12:15:00")), // a second session
		ins("x", 3.0, ts("2023-07-09 12:08:00")), // bridges both
		ins("y", 4.0, ts("2023-07-09 12:01:00")),
	))
	if a.State().Len() != 2 {
		t.Fatalf("state has %d keys", a.State().Len())
	}
	expectSet(t, watermark(t, a, r, ts("2023-07-09 12:20:00")),
		"+I[y, 1, 4.0, 2023-07-09 12:01:00.000, 2023-07-09 12:11:00.000, 2023-07-09 12:10:59.999]",
		"WM 1688905200000000")
	// Late for y: a new session that has already ended.
	feed(t, a, r, chunk(ratingTypes, ins("y", 9.0, ts("2023-07-09 12:02:00"))))
	if a.Dropped() != 1 {
		t.Fatalf("dropped %d", a.Dropped())
	}
	b := newRatingsAgg(t, Window{Kind: Session, Gap: us(10 * time.Minute)})
	moveState(t, a, b)
	expect(t, finish(t, b, r),
		"+I[x, 3, 2.0, 2023-07-09 12:00:00.000, 2023-07-09 12:25:00.000, 2023-07-09 12:24:59.999]",
		"WM 9223372036854775807")
}

func TestWindowAggregateSnapshotRestore(t *testing.T) {
	w := Window{Kind: Hop, Size: us(2 * time.Hour), Slide: us(time.Hour)}
	first := chunk(ratingTypes, ins("x", 1.0, ts("2023-07-09 00:30:00")), ins("y", 2.0, ts("2023-07-09 01:30:00")))
	second := chunk(ratingTypes, ins("x", 3.0, ts("2023-07-09 01:45:00")))

	whole, r := newRatingsAgg(t, w), &recorder{}
	feed(t, whole, r, first, second)
	want := finish(t, whole, r)

	before := newRatingsAgg(t, w)
	feed(t, before, r, first)
	after := newRatingsAgg(t, w)
	moveState(t, before, after)
	feed(t, after, r, second)
	expect(t, finish(t, after, r), want...)
}

func TestWindowTableFunction(t *testing.T) {
	f, err := NewWindowTableFunction(WindowTableFunctionConfig{
		InputTypes: ratingTypes,
		Window:     Window{Kind: Hop, TimeCol: 2, Size: us(10 * time.Minute), Slide: us(5 * time.Minute)},
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feed(t, f, r, chunk(ratingTypes, ins("x", 1.0, ts("2023-07-09 12:07:00")), ins("n", 1.0, nil))),
		"+I[x, 1.0, 2023-07-09 12:07:00.000, 2023-07-09 12:05:00.000, 2023-07-09 12:15:00.000, 2023-07-09 12:14:59.999]",
		"+I[x, 1.0, 2023-07-09 12:07:00.000, 2023-07-09 12:00:00.000, 2023-07-09 12:10:00.000, 2023-07-09 12:09:59.999]",
	)
	if f.Dropped() != 1 {
		t.Fatalf("dropped %d", f.Dropped())
	}
	expect(t, finish(t, f, r), "WM 9223372036854775807")
}

func TestSessionWindowTableFunction(t *testing.T) {
	f, err := NewWindowTableFunction(WindowTableFunctionConfig{
		InputTypes:    ratingTypes,
		Window:        Window{Kind: Session, TimeCol: 2, Gap: us(10 * time.Minute)},
		PartitionKeys: []int{0},
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feed(t, f, r, chunk(ratingTypes, ins("x", 1.0, ts("2023-07-09 12:00:00")), ins("x", 2.0, ts("2023-07-09 12:05:00")))))
	expect(t, watermark(t, f, r, ts("2023-07-09 12:15:00")),
		"+I[x, 1.0, 2023-07-09 12:00:00.000, 2023-07-09 12:00:00.000, 2023-07-09 12:15:00.000, 2023-07-09 12:14:59.999]",
		"+I[x, 2.0, 2023-07-09 12:05:00.000, 2023-07-09 12:00:00.000, 2023-07-09 12:15:00.000, 2023-07-09 12:14:59.999]",
		"WM 1688904900000000")
}

func TestWindowOverLocalTimeZone(t *testing.T) {
	zone := time.FixedZone("UTC+8", 8*3600)
	in := []types.Type{types.StringType, types.DoubleType, types.TimestampLTZType(3)}
	a, err := NewWindowAggregate(WindowAggregateConfig{
		InputTypes: in,
		Window:     Window{Kind: Tumble, TimeCol: 2, Size: us(24 * time.Hour), Zone: zone},
		Keys:       []int{0},
		Aggs:       []AggSpec{aggCall(t, "COUNT", in)},
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	// 2023-07-09 20:00 UTC is 2023-07-10 04:00 in UTC+8: the local day
	// [07-10 00:00, 07-11 00:00) ends at 2023-07-10 16:00 UTC.
	feed(t, a, r, chunk(in, ins("x", 1.0, ts("2023-07-09 20:00:00"))))
	expect(t, watermark(t, a, r, ts("2023-07-10 15:59:59")), "WM 1689004799000000")
	expect(t, watermark(t, a, r, ts("2023-07-10 15:59:59")+ms(999)),
		"+I[x, 1, 2023-07-10 00:00:00.000, 2023-07-11 00:00:00.000, 2023-07-10 15:59:59.999]",
		"WM 1689004799999000")
}

func TestWindowRankAndDeduplicate(t *testing.T) {
	// (window_start, window_end, item, price)
	in := []types.Type{types.TimestampType(3), types.TimestampType(3), types.StringType, types.BigIntType}
	w1s, w1e, w2e := ts("2023-07-09 00:00:00"), ts("2023-07-09 01:00:00"), ts("2023-07-09 02:00:00")
	input := chunk(in,
		ins(w1s, w1e, "a", 5), ins(w1s, w1e, "b", 9), ins(w1s, w1e, "c", 9), ins(w1s, w1e, "d", 1),
		ins(w1e, w2e, "e", 3),
	)
	rank, err := NewWindowRank(WindowRankConfig{
		InputTypes: in, PartitionKeys: []int{0, 1}, Order: []SortKey{{Col: 3, Desc: true}},
		Start: 1, End: 2, OutputRankNumber: true, WindowEndCol: 1,
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	feed(t, rank, r, input)
	expect(t, watermark(t, rank, r, w1e-ms(1)),
		"+I[2023-07-09 00:00:00.000, 2023-07-09 01:00:00.000, b, 9, 1]",
		"+I[2023-07-09 00:00:00.000, 2023-07-09 01:00:00.000, c, 9, 2]",
		"WM 1688864399999000")
	feed(t, rank, r, chunk(in, ins(w1s, w1e, "late", 100)))
	if rank.Dropped() != 1 {
		t.Fatalf("dropped %d", rank.Dropped())
	}
	expect(t, finish(t, rank, r),
		"+I[2023-07-09 01:00:00.000, 2023-07-09 02:00:00.000, e, 3, 1]", "WM 9223372036854775807")

	// Deduplicate on price as the time: keep-last keeps the later of equal times.
	dedup, err := NewWindowDeduplicate(WindowDeduplicateConfig{
		InputTypes: in, PartitionKeys: []int{0, 1}, TimeCol: 3, KeepLast: true, WindowEndCol: 1,
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	feed(t, dedup, r, input)
	expect(t, finish(t, dedup, r),
		"+I[2023-07-09 00:00:00.000, 2023-07-09 01:00:00.000, c, 9]",
		"+I[2023-07-09 01:00:00.000, 2023-07-09 02:00:00.000, e, 3]",
		"WM 9223372036854775807")
	first, _ := NewWindowDeduplicate(WindowDeduplicateConfig{
		InputTypes: in, PartitionKeys: []int{0, 1}, TimeCol: 3, WindowEndCol: 1, OutputRankNumber: true,
	}, state.NewMemory())
	feed(t, first, r, input)
	expect(t, finish(t, first, r),
		"+I[2023-07-09 00:00:00.000, 2023-07-09 01:00:00.000, d, 1, 1]",
		"+I[2023-07-09 01:00:00.000, 2023-07-09 02:00:00.000, e, 3, 1]",
		"WM 9223372036854775807")
}

func TestWindowAggregateRetractedKeyEmitsNothing(t *testing.T) {
	a, r := newRatingsAgg(t, Window{Kind: Tumble, Size: us(time.Hour)}), &recorder{}
	feed(t, a, r, chunk(ratingTypes,
		ins("x", 1.0, ts("2023-07-09 00:10:00")),
		ins("y", 2.0, ts("2023-07-09 00:20:00")),
		del("x", 1.0, ts("2023-07-09 00:10:00")),
	))
	expect(t, finish(t, a, r),
		"+I[y, 1, 2.0, 2023-07-09 00:00:00.000, 2023-07-09 01:00:00.000, 2023-07-09 00:59:59.999]",
		"WM 9223372036854775807")
}
