package runtime

import "time"

// WatermarkTracker merges the watermarks of the partitions one source
// instance reads, the way Flink's Kafka source does with per-partition
// watermarks: the instance's watermark is the minimum over its partitions,
// where a partition that has had no data for the idle timeout is left out
// until it receives data again. Emission is periodic (Flink's
// pipeline.auto-watermark-interval); Due says whether a new watermark is
// ready to send.
type WatermarkTracker struct {
	idleTimeout time.Duration
	parts       map[int32]*partitionWatermark
	emitted     int64
}

type partitionWatermark struct {
	wm       int64
	lastData time.Time
	idle     bool
}

// NewWatermarkTracker returns a tracker; idleTimeout 0 disables idleness.
func NewWatermarkTracker(idleTimeout time.Duration) *WatermarkTracker {
	return &WatermarkTracker{idleTimeout: idleTimeout, parts: map[int32]*partitionWatermark{}, emitted: MinWatermark}
}

// AddPartition registers a partition before it has any data; until it has,
// it holds the merged watermark back (unless it goes idle).
func (t *WatermarkTracker) AddPartition(p int32, now time.Time) {
	if _, ok := t.parts[p]; !ok {
		t.parts[p] = &partitionWatermark{wm: MinWatermark, lastData: now}
	}
}

// Observe records a row's watermark candidate (the watermark expression's
// value) for partition p at wall-clock time now.
func (t *WatermarkTracker) Observe(p int32, wm int64, now time.Time) {
	if pw := t.touch(p, now); wm > pw.wm {
		pw.wm = wm
	}
}

// Touch records that partition p had data at now without a watermark
// candidate (for example a row whose time column is NULL).
func (t *WatermarkTracker) Touch(p int32, now time.Time) { t.touch(p, now) }

// touch marks partition p active at now and returns its state.
func (t *WatermarkTracker) touch(p int32, now time.Time) *partitionWatermark {
	pw, ok := t.parts[p]
	if !ok {
		pw = &partitionWatermark{wm: MinWatermark}
		t.parts[p] = pw
	}
	pw.lastData = now
	pw.idle = false
	return pw
}

// Current returns the merged watermark at now and whether every partition
// is idle.
func (t *WatermarkTracker) Current(now time.Time) (wm int64, allIdle bool) {
	wm, active := int64(MaxWatermark), false
	for _, pw := range t.parts {
		if t.idleTimeout > 0 && now.Sub(pw.lastData) >= t.idleTimeout {
			pw.idle = true
		}
		if pw.idle {
			continue
		}
		active = true
		if pw.wm < wm {
			wm = pw.wm
		}
	}
	if !active {
		return t.emitted, len(t.parts) > 0 || t.idleTimeout > 0
	}
	return wm, false
}

// Due returns the watermark to emit now, if it advanced past the last one
// emitted, and marks it emitted.
func (t *WatermarkTracker) Due(now time.Time) (int64, bool) {
	wm, allIdle := t.Current(now)
	if allIdle || wm <= t.emitted {
		return 0, false
	}
	t.emitted = wm
	return wm, true
}

// Emit is a source instance's periodic watermark step: it sends the
// watermark due at now, or marks the instance idle when all its partitions
// are idle.
func (t *WatermarkTracker) Emit(ctx *SourceContext, out Emitter, now time.Time) {
	if wm, ok := t.Due(now); ok {
		out.EmitWatermark(wm)
		return
	}
	if _, allIdle := t.Current(now); allIdle {
		ctx.MarkIdle()
	}
}

// Pending reports whether Due would emit a watermark now.
func (t *WatermarkTracker) Pending(now time.Time) bool {
	wm, allIdle := t.Current(now)
	return !allIdle && wm > t.emitted
}
