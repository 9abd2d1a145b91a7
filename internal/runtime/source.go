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
type Quiescer interface {
	CaughtUp(ctx context.Context) (bool, error)
}
