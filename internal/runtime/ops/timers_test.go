package ops

import (
	"fmt"
	"slices"
	"testing"

	sruntime "github.com/sluicesql/sluice/internal/runtime"
)

// fired runs q.fire(wm) and returns "time:key" per timer fired; in f,
// key "again" sets a timer for key "later" at the same time.
func fired(t *testing.T, q *timerQueue, wm int64) []string {
	t.Helper()
	var got []string
	if err := q.fire(wm, func(tm int64, key string) error {
		got = append(got, fmt.Sprintf("%d:%s", tm, key))
		if key == "again" {
			q.add(tm, "later")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestTimerQueueFiresInOrderOfTimeThenSetting(t *testing.T) {
	q := newTimerQueue()
	for _, tm := range []struct {
		t   int64
		key string
	}{{30, "c"}, {10, "b"}, {20, "x"}, {10, "a"}, {40, "d"}, {10, "again"}, {20, "y"}, {5, "e"}} {
		q.add(tm.t, tm.key)
	}
	if got, want := fired(t, q, 4), []string(nil); !slices.Equal(got, want) {
		t.Fatalf("fire(4) = %v, want %v", got, want)
	}
	// Timers of one time keep the order they were set in; one set while
	// its time fires comes after those already set.
	want := []string{"5:e", "10:b", "10:a", "10:again", "10:later", "20:x", "20:y"}
	if got := fired(t, q, 29); !slices.Equal(got, want) {
		t.Fatalf("fire(29) = %v, want %v", got, want)
	}
	q.add(35, "f")
	if got, want := fired(t, q, sruntime.MaxWatermark), []string{"30:c", "35:f", "40:d"}; !slices.Equal(got, want) {
		t.Fatalf("fire(max) = %v, want %v", got, want)
	}
	if got := fired(t, q, sruntime.MaxWatermark); got != nil {
		t.Fatalf("fired again: %v", got)
	}
}

func TestTimerQueueRebuildOrdersByTimeOrderKey(t *testing.T) {
	q := newTimerQueue()
	q.add(1, "stale")
	q.rebuildTimers([]timer{{time: 7, key: "b"}, {time: 3, order: 2, key: "a"}, {time: 3, order: 1, key: "z"}, {time: 7, key: "a"}})
	want := []string{"3:z", "3:a", "7:a", "7:b"}
	if got := fired(t, q, 10); !slices.Equal(got, want) {
		t.Fatalf("fire = %v, want %v", got, want)
	}
}
