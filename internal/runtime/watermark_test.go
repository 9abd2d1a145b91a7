package runtime

import (
	"testing"
	"time"
)

func TestWatermarkTrackerMinAcrossPartitions(t *testing.T) {
	t0 := time.Unix(0, 0)
	tr := NewWatermarkTracker(0)
	tr.AddPartition(0, t0)
	tr.AddPartition(1, t0)
	tr.Observe(0, 100, t0)
	if _, ok := tr.Due(t0); ok {
		t.Fatal("partition 1 has no data yet: no watermark may be emitted")
	}
	tr.Observe(1, 50, t0)
	if wm, ok := tr.Due(t0); !ok || wm != 50 {
		t.Fatalf("got %d %v, want 50 (the minimum)", wm, ok)
	}
	// Out of order within a partition: a smaller value never lowers it.
	tr.Observe(1, 40, t0)
	if _, ok := tr.Due(t0); ok {
		t.Fatal("watermark must not move backwards or re-emit")
	}
	tr.Observe(1, 120, t0)
	if wm, ok := tr.Due(t0); !ok || wm != 100 {
		t.Fatalf("got %d %v, want 100", wm, ok)
	}
}

func TestWatermarkTrackerIdlePartition(t *testing.T) {
	t0 := time.Unix(0, 0)
	tr := NewWatermarkTracker(time.Second)
	tr.AddPartition(0, t0)
	tr.AddPartition(1, t0)
	tr.Observe(0, 100, t0.Add(900*time.Millisecond))
	if _, ok := tr.Due(t0.Add(900 * time.Millisecond)); ok {
		t.Fatal("partition 1 is not idle yet")
	}
	// Partition 1 idle after the timeout: left out of the minimum.
	if wm, ok := tr.Due(t0.Add(1500 * time.Millisecond)); !ok || wm != 100 {
		t.Fatalf("got %d %v, want 100 once partition 1 is idle", wm, ok)
	}
	// Data on partition 1 makes it active again; its lower watermark holds
	// the merged one back but never lowers what was emitted.
	tr.Observe(1, 10, t0.Add(1600*time.Millisecond))
	if _, ok := tr.Due(t0.Add(1600 * time.Millisecond)); ok {
		t.Fatal("an active partition behind must hold the watermark")
	}
	tr.Observe(1, 200, t0.Add(1700*time.Millisecond))
	tr.Observe(0, 150, t0.Add(1700*time.Millisecond))
	if wm, ok := tr.Due(t0.Add(1700 * time.Millisecond)); !ok || wm != 150 {
		t.Fatalf("got %d %v, want 150", wm, ok)
	}
	// Everything idle: nothing to emit.
	if _, ok := tr.Due(t0.Add(10 * time.Second)); ok {
		t.Fatal("all partitions idle: no new watermark")
	}
}

func TestWatermarkTrackerNoIdlenessWithoutTimeout(t *testing.T) {
	t0 := time.Unix(0, 0)
	tr := NewWatermarkTracker(0)
	tr.AddPartition(0, t0)
	tr.AddPartition(1, t0)
	tr.Observe(0, 100, t0)
	if _, ok := tr.Due(t0.Add(time.Hour)); ok {
		t.Fatal("without an idle timeout an empty partition holds the watermark forever")
	}
}

// TestWatermarkTrackerRowsWithoutTime: a partition whose rows carry no
// watermark candidate (NULL times) is active and holds the watermark back,
// as an active partition without a watermark does in Flink.
func TestWatermarkTrackerRowsWithoutTime(t *testing.T) {
	t0 := time.Unix(0, 0)
	tr := NewWatermarkTracker(time.Second)
	tr.Observe(0, 100, t0)
	tr.Touch(1, t0)
	if _, ok := tr.Due(t0); ok {
		t.Fatal("partition 1 has rows but no watermark yet: it must hold the watermark back")
	}
	if wm, ok := tr.Due(t0.Add(2 * time.Second)); ok || wm != 0 {
		t.Fatalf("both partitions idle: got %d %v, want nothing", wm, ok)
	}
}
