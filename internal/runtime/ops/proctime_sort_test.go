package ops

import (
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
)

// procSort returns a ProcTimeSort of evTypes ordered by (pt, order...),
// opened on clock.
func procSort(t *testing.T, clock *runtime.ManualClock, order ...SortKey) *ProcTimeSort {
	t.Helper()
	s, err := NewProcTimeSort(TemporalSortConfig{InputTypes: evTypes, TimeCol: 2, Order: order}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestProcTimeSort: ORDER BY pt, v waits until the clock is 2 ms past the
// millisecond the first waiting row arrived in (Flink's
// ProcTimeSortOperator sets a timer at that millisecond + 1, which rings a
// millisecond later), then emits every waiting row sorted by v, stably;
// ORDER BY pt alone passes rows at once; the waiting rows survive a
// snapshot and fire when the restored operator opens.
func TestProcTimeSort(t *testing.T) {
	clock := runtime.NewManualClock(time.Unix(10, 500e3))
	s, r := procSort(t, clock, SortKey{Col: 1}), &recorder{}
	expect(t, feed(t, s, r, chunk(evTypes, ins("a", 3, ms(0)), ins("b", 1, ms(0)))))
	fire := func(s *ProcTimeSort, d time.Duration) []string {
		clock.Advance(d)
		if err := s.pt.Fire(s, r); err != nil {
			t.Fatal(err)
		}
		return r.take()
	}
	expect(t, fire(s, time.Millisecond))
	expect(t, feed(t, s, r, chunk(evTypes, ins("c", 2, ms(0)), ins("d", 1, ms(0)))))
	expect(t, fire(s, time.Millisecond),
		"+I[b, 1, 1970-01-01 00:00:00.000]", "+I[d, 1, 1970-01-01 00:00:00.000]",
		"+I[c, 2, 1970-01-01 00:00:00.000]", "+I[a, 3, 1970-01-01 00:00:00.000]")
	expect(t, fire(s, time.Hour))
	expect(t, watermark(t, s, r, 7), "WM 7")

	feed(t, s, r, chunk(evTypes, ins("e", 5, ms(0)), ins("f", 4, ms(0))))
	clock.Advance(time.Minute)
	restored, err := NewProcTimeSort(s.cfg, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	moveState(t, s, restored)
	if err := restored.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
		t.Fatal(err)
	}
	expect(t, fire(restored, 0), "+I[f, 4, 1970-01-01 00:00:00.000]", "+I[e, 5, 1970-01-01 00:00:00.000]")

	alone := procSort(t, clock)
	expect(t, feed(t, alone, r, chunk(evTypes, ins("x", 2, ms(0)), ins("y", 1, ms(0)))),
		"+I[x, 2, 1970-01-01 00:00:00.000]", "+I[y, 1, 1970-01-01 00:00:00.000]")
	if _, ok := alone.pt.Next(); ok {
		t.Fatal("ORDER BY pt alone set a timer")
	}
}
