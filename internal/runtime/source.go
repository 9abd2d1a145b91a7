package runtime

import (
	"context"

	"github.com/sluicesql/sluice/internal/types"
)

// SourceContext is what a source instance gets to run with.
type SourceContext struct {
	*Context
	// Ctx is cancelled when the job stops.
	Ctx context.Context

	out   *emitter
	inst  *sourceInstance
	timer *sourceTimer
}

// Waiting tells the runtime that the source waits for input from now on
// (records to fetch, the next row its rate allows): until it calls
// Working, its chain's time counts as idle rather than busy, as a Flink
// source task is idle while its reader has nothing available. A source
// that never waits is busy whenever its output is not backpressured.
func (s *SourceContext) Waiting() { s.timer.wait(true) }

// Working tells the runtime that the source's wait (see Waiting) is over.
func (s *SourceContext) Working() { s.timer.wait(false) }

// sourceOutput is what a source emits to: its emitter, which brings the
// chain's busy and idle time up to date after every chunk, when the
// chain is done with it.
type sourceOutput struct {
	*emitter
	timer *sourceTimer
}

// Emit implements Emitter.
func (o *sourceOutput) Emit(c *types.Chunk) { o.EmitLease(c, nil) }

// EmitLease implements LeaseEmitter.
func (o *sourceOutput) EmitLease(c *types.Chunk, l *Lease) {
	o.emitter.EmitLease(c, l)
	o.timer.lap()
}

// Checkpointing reports whether the job takes checkpoints (savepoints
// alone do not count): a source then commits its positions when they
// complete rather than periodically.
func (s *SourceContext) Checkpointing() bool {
	return s.Job.coord != nil && s.Job.coord.cfg.Storage != nil
}

// Batch reports whether the job runs in batch mode (Graph.HoldWatermarks):
// nothing it computes is final before its whole input is processed, and a
// restarted batch job reads its input again from the start.
func (s *SourceContext) Batch() bool { return s.out.hold }

// CheckpointRequested is signalled when a checkpoint wants this source's
// barrier; the source then calls EmitBarriers at its next point where
// everything read so far has been emitted. It never fires when
// checkpointing is off.
func (s *SourceContext) CheckpointRequested() <-chan struct{} { return s.inst.barrier }

// EmitBarriers emits the barrier of every checkpoint requested so far, in
// order, each after snapshotting the source (if it is a Snapshotter): the
// source's state at the barrier is its position after everything emitted.
// It is called from the source's own goroutine. Before the barrier of a
// savepoint that drains the job, it emits the maximum watermark, so that
// every event-time timer downstream fires ahead of the barrier; after it,
// the source emits nothing more (what it reads later is read again by a
// job restored from the savepoint).
func (s *SourceContext) EmitBarriers() {
	s.inst.mu.Lock()
	ids := s.inst.requested
	s.inst.requested = nil
	s.inst.mu.Unlock()
	coord := s.Job.coord
	for _, id := range ids {
		if s.out.muted {
			return
		}
		drain := coord.drains(id)
		if drain {
			s.out.EmitWatermark(MaxWatermark)
		}
		state, files, err := snapshot(s.inst.src, id, s.Context)
		if state != nil {
			state = encodePart(sourceHeader(s.Context), state)
		}
		coord.ack(id, s.inst.part, state, files, err)
		s.out.broadcast(envelope{kind: msgBarrier, wm: id})
		s.out.muted = drain
	}
}

// sourceHeader is the header of a source instance's part.
func sourceHeader(ctx *Context) partHeader {
	return partHeader{wm: MinWatermark, maxParallelism: ctx.Job.maxParallelism, parallelism: ctx.Parallelism, instance: ctx.Instance}
}

// MarkIdle tells downstream operators to leave this instance out of their
// watermark until it emits again (Flink's idle watermark status). Marking
// an instance that is already idle does nothing.
func (s *SourceContext) MarkIdle() { s.out.idle() }

// Quiescer is implemented by sources and operators that hold work outside
// the job's channels (unread input, unflushed output). CaughtUp reports
// whether everything currently available has been processed and emitted.
// A source that is about to end by itself is not caught up: the runtime
// sees its end. A running source that is no Quiescer is never caught up
// (a generator always has more rows).
type Quiescer interface {
	CaughtUp(ctx context.Context) (bool, error)
}
