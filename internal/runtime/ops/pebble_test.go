package ops

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
)

// writingBack returns a Pebble backend that writes back every value it
// handed out after each message, as a cache of one entry does, closed
// when the test ends.
func writingBack(t *testing.T) *state.Pebble {
	t.Helper()
	st, err := state.NewPebble(filepath.Join(t.TempDir(), "state"), runtime.DefaultMaxParallelism)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	st.CacheEntries = 1
	return st
}

// TestWindowAggregateOnPebble: the window aggregation changes a window's
// accumulators in place, without a Put. On the Pebble backend, which
// writes back and forgets every value it handed out after each message
// (here a cache of one entry, released as the runtime does), every row
// still counts.
func TestWindowAggregateOnPebble(t *testing.T) {
	st := writingBack(t)
	a, err := NewWindowAggregate(WindowAggregateConfig{
		InputTypes: ratingTypes,
		Window:     Window{Kind: Tumble, Size: us(6 * time.Hour), TimeCol: 2},
		Keys:       []int{0},
		Aggs:       []AggSpec{aggCall(t, "COUNT", ratingTypes), aggCall(t, "AVG", ratingTypes, 1)},
	}, st)
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	for _, row := range []rec{
		ins("Die Hard", 8.2, ts("2023-07-09 01:00:00")),
		ins("The Big Lebowski", 4.2, ts("2023-07-09 02:00:00")),
		ins("Die Hard", 4.5, ts("2023-07-09 05:00:00")),
		ins("The Big Lebowski", 9.0, ts("2023-07-09 05:30:00")),
		ins("Die Hard", 5.3, ts("2023-07-09 05:45:00")),
	} {
		feed(t, a, r, chunk(ratingTypes, row))
		if err := st.Release(); err != nil {
			t.Fatal(err)
		}
	}
	expectSet(t, watermark(t, a, r, ts("2023-07-09 06:00:00")),
		"WM 1688882400000000",
		"+I[Die Hard, 3, 6.0, 2023-07-09 00:00:00.000, 2023-07-09 06:00:00.000, 2023-07-09 05:59:59.999]",
		"+I[The Big Lebowski, 2, 6.6, 2023-07-09 00:00:00.000, 2023-07-09 06:00:00.000, 2023-07-09 05:59:59.999]")
	if err := st.Release(); err != nil {
		t.Fatal(err)
	}
	if n := st.Len(); n != 0 {
		t.Fatalf("%d entries left after the window fired", n)
	}
}
