package ops

import (
	"math"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// TestWindowClockRange: a row time whose window would end past the range
// of timestamps is an error naming it, never a window_end wrapped to 1677.
func TestWindowClockRange(t *testing.T) {
	hour := us(time.Hour)
	w := Window{Kind: Tumble, Size: hour}
	ts := int64(1_700_000_000) * us(time.Second)
	if got, err := w.windowClock(clock{}, ts); err != nil || got != ts {
		t.Errorf("ordinary row time: %d, %v", got, err)
	}
	for _, ns := range []int64{math.MaxInt64 - hour, math.MinInt64 + hour} {
		if _, err := w.windowClock(clock{}, ns); !types.IsRangeError(err) {
			t.Errorf("row time %d: %v, want a range error", ns, err)
		}
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip(err)
	}
	if got, err := w.windowClock(zoneClock(berlin), ts); err != nil || got != ts+hour {
		t.Errorf("Berlin: %d, %v; want %d", got, err, ts+hour)
	}
}
