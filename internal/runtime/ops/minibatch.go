package ops

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// Mini-batch processing (table.exec.mini-batch.*), after Flink: a
// MiniBatchAssigner after the sources marks where batches end by the
// watermarks it sends, and the mini-batch operators downstream buffer
// their input per key until a batch ends, then handle each key's rows at
// once. A batch ends, in each buffering operator, when a watermark
// arrives, when it holds table.exec.mini-batch.size rows (Flink's
// CountBundleTrigger), before a checkpoint's barrier (Flink's
// prepareSnapshotPreBarrier), and at the end of the input.

// MiniBatchAssignerConfig configures a MiniBatchAssigner.
type MiniBatchAssignerConfig struct {
	// Interval is the length of a batch (table.exec.mini-batch.allow-latency,
	// or the event-time interval the planner inferred).
	Interval time.Duration
	// RowTime selects Flink's RowTimeMiniBatchAssginerOperator, which
	// forwards only the event-time watermarks that cross a batch boundary;
	// otherwise the assigner is Flink's ProcTimeMiniBatchAssignerOperator,
	// which sends the start of the current processing-time batch as the
	// watermark when a batch begins and ignores the upstream watermarks
	// but the last (the end of input).
	RowTime bool
}

// MiniBatchAssigner marks the ends of mini-batches in the stream with
// watermarks; rows pass unchanged.
type MiniBatchAssigner struct {
	cfg      MiniBatchAssignerConfig
	interval int64
	// current is the watermark last emitted (processing time) or reached
	// (event time); next, in event time, the watermark to emit next.
	current, next int64
	// pt is the instance's processing time.
	pt *runtime.ProcessingTimeService
}

// NewMiniBatchAssigner returns a MiniBatchAssigner for cfg.
func NewMiniBatchAssigner(cfg MiniBatchAssignerConfig) (*MiniBatchAssigner, error) {
	if cfg.Interval <= 0 {
		return nil, errors.New("the mini-batch interval must be positive")
	}
	a := &MiniBatchAssigner{cfg: cfg, interval: cfg.Interval.Microseconds()}
	a.next = batchStart(0, a.interval) + a.interval - millisecond
	return a, nil
}

// batchStart is the start of the batch of wm (Flink's getMiniBatchStart).
func batchStart(wm, interval int64) int64 { return wm - (wm+interval)%interval }

// Open implements runtime.Operator: in processing time, the assigner
// ends a batch every interval even when no row arrives, on a timer at the
// start of the next batch.
func (a *MiniBatchAssigner) Open(ctx *runtime.Context) error {
	a.pt = ctx.ProcessingTime
	if !a.cfg.RowTime {
		a.pt.Register(a.nextBatch(a.pt.Now()))
	}
	return nil
}

// nextBatch is the start of the batch after the one of now.
func (a *MiniBatchAssigner) nextBatch(now int64) int64 { return now - now%a.interval + a.interval }

// ProcessChunk implements runtime.Operator: in processing time, a row
// that arrives in a later batch than the last ends the batch first.
func (a *MiniBatchAssigner) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	if !a.cfg.RowTime {
		a.advance(a.pt.Now(), out)
	}
	out.Emit(c)
	return nil
}

// advance emits the start of now's processing-time batch if it is later
// than the last one emitted.
func (a *MiniBatchAssigner) advance(now int64, out runtime.Emitter) {
	if batch := now - now%a.interval; batch > a.current && a.current != runtime.MaxWatermark {
		a.current = batch
		out.EmitWatermark(batch)
	}
}

// OnProcessingTime implements runtime.ProcessingTimer.
func (a *MiniBatchAssigner) OnProcessingTime(now int64, out runtime.Emitter) error {
	if !a.cfg.RowTime {
		a.advance(now, out)
		a.pt.Register(a.nextBatch(now))
	}
	return nil
}

// ProcessWatermark implements runtime.Operator.
func (a *MiniBatchAssigner) ProcessWatermark(wm int64, out runtime.Emitter) error {
	if wm == runtime.MaxWatermark {
		// The end of the input passes in both modes.
		if a.current != runtime.MaxWatermark {
			a.current = runtime.MaxWatermark
			out.EmitWatermark(wm)
		}
		return nil
	}
	if !a.cfg.RowTime {
		return nil
	}
	a.current = max(a.current, wm)
	if a.current >= a.next {
		out.EmitWatermark(a.current)
		end := batchStart(a.current, a.interval) + a.interval - millisecond
		if end <= a.current {
			end += a.interval
		}
		a.next = end
	}
	return nil
}

// Finish implements runtime.Operator.
func (a *MiniBatchAssigner) Finish(runtime.Emitter) error { return nil }

// bundle counts the rows a mini-batch operator holds and tells when the
// batch is full (Flink's CountBundleTrigger). It is the operator's
// runtime.Quiescer: rows held for a processing-time batch come out
// without more input when processing time passes by itself, so the
// operator is not caught up while it holds any; on a manual clock they
// wait for the clock to be advanced, and rows held for an event-time
// batch wait for the watermark, as a window's do.
type bundle struct {
	size     int64
	procTime bool
	// passes is set by Open when the batches end as the clock passes by
	// itself; it and rows are read by CaughtUp's goroutine.
	passes atomic.Bool
	// rows is written by the operator's goroutine.
	rows atomic.Int64
}

func newBundle(c MiniBatchConfig) (*bundle, error) {
	if c.Size <= 0 {
		return nil, errors.New("the mini-batch size must be positive")
	}
	return &bundle{size: c.Size, procTime: c.ProcTime}, nil
}

// Open implements runtime.Operator: it learns whether the instance's
// processing time passes by itself.
func (b *bundle) Open(ctx *runtime.Context) error {
	b.passes.Store(b.procTime && (ctx.ProcessingTime == nil || ctx.ProcessingTime.Passes()))
	return nil
}

// add counts one row and reports whether the batch is now full.
func (b *bundle) add() bool { return b.rows.Add(1) >= b.size }

// empty reports whether the batch holds no row.
func (b *bundle) empty() bool { return b.rows.Load() == 0 }

// CaughtUp implements runtime.Quiescer.
func (b *bundle) CaughtUp(context.Context) (bool, error) {
	return !b.passes.Load() || b.rows.Load() == 0, nil
}

// MiniBatchConfig is what a buffering operator needs to know of its
// batches.
type MiniBatchConfig struct {
	// Size ends a batch when it holds this many input rows
	// (table.exec.mini-batch.size).
	Size int64
	// ProcTime is set when the batches end in processing time (the
	// assigners upstream are Flink's ProcTimeMiniBatchAssignerOperator).
	ProcTime bool
}

// batched is what a buffering operator does at the end of a batch.
type batched interface {
	finishBundle(out runtime.Emitter) error
}

// bundleEnds provides the runtime.Operator methods that end a batch: a
// watermark ends it before being forwarded, and so do a checkpoint's
// barrier and the end of the input. Open is the bundle's.
type bundleEnds struct{ op batched }

// ProcessWatermark implements runtime.Operator.
func (b bundleEnds) ProcessWatermark(wm int64, out runtime.Emitter) error {
	if err := b.op.finishBundle(out); err != nil {
		return err
	}
	out.EmitWatermark(wm)
	return nil
}

// PrepareSnapshotPreBarrier implements runtime.BarrierPreparer.
func (b bundleEnds) PrepareSnapshotPreBarrier(out runtime.Emitter) error {
	return b.op.finishBundle(out)
}

// Finish implements runtime.Operator.
func (b bundleEnds) Finish(out runtime.Emitter) error { return b.op.finishBundle(out) }
