package runtime

import "context"

// SourceContext is what a source instance gets to run with.
type SourceContext struct {
	*Context
	// Ctx is cancelled when the job stops.
	Ctx context.Context

	out *emitter
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
