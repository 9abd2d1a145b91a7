package runtime

import "context"

// SourceContext is what a source instance gets to run with.
type SourceContext struct {
	*Context
	// Ctx is cancelled when the job stops.
	Ctx context.Context

	out  *emitter
	inst *sourceInstance
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
