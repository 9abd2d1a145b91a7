package ops

import (
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// WindowTableFunctionConfig configures a WindowTableFunction.
type WindowTableFunctionConfig struct {
	// InputTypes are the input's column types.
	InputTypes []types.Type
	// Window is the window function; its TimeCol is the DESCRIPTOR column.
	Window Window
	// PartitionKeys are the PARTITION BY columns of a SESSION window (each
	// partition has its own sessions); unused for other kinds.
	PartitionKeys []int
}

// WindowTableFunction is a window table-valued function (TUMBLE, HOP,
// CUMULATE, SESSION) not followed by an aggregation: each row is emitted
// once per window it belongs to, with window_start, window_end
// (TIMESTAMP(3)) and window_time (window_end - 1ms, a rowtime attribute)
// appended.
//
// Aligned windows are assigned as rows arrive, keeping their row kind, and
// late rows are not dropped (Flink's WindowTableFunctionOperator). Session
// windows are only known when they close, so their rows are buffered and
// emitted when the watermark passes the session's end, and rows late
// for their session are dropped (UnalignedWindowTableFunctionOperator).
// Rows with a NULL time are dropped.
type WindowTableFunction struct {
	counter
	onWatermark
	cfg      WindowTableFunctionConfig
	clock    clock
	st       state.Backend
	sessions *sessions
	out      *output
	spans    []span
	key      []byte
	buf      types.Row
}

// NewWindowTableFunction returns a WindowTableFunction for cfg.
func NewWindowTableFunction(cfg WindowTableFunctionConfig, st state.Backend) (*WindowTableFunction, error) {
	if err := cfg.Window.validate(cfg.InputTypes); err != nil {
		return nil, err
	}
	if err := checkCols("session partition key", cfg.PartitionKeys, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	f := &WindowTableFunction{
		cfg:   cfg,
		clock: newClock(cfg.Window, cfg.InputTypes),
		st:    st,
		out:   newOutput(append(append([]types.Type{}, cfg.InputTypes...), windowColumnTypes(cfg.InputTypes[cfg.Window.TimeCol])...)),
	}
	if cfg.Window.Kind == Session {
		f.sessions = newSessions(f.st, cfg.InputTypes, cfg.Window.Gap, f.clock)
	}
	f.onWatermark = newOnWatermark(f.fireSessions)
	return f, nil
}

// State implements Stateful (only sessions keep state).
func (f *WindowTableFunction) State() state.Backend { return f.st }

// ProcessChunk implements runtime.Operator.
func (f *WindowTableFunction) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	w := f.out.to(out)
	defer w.flush()
	tc := c.Cols[f.cfg.Window.TimeCol]
	for i := range c.Len() {
		if tc.Nulls[i] {
			f.n.Add(1)
			continue
		}
		t, err := f.cfg.Window.windowClock(f.clock, tc.I64[i])
		if err != nil {
			return err
		}
		if f.sessions != nil {
			f.key = state.AppendChunkKey(f.key[:0], c, i, f.cfg.PartitionKeys)
			if !f.sessions.add(f.key, t, c.Ops[i], c.Row(i), f.wm) {
				f.n.Add(1)
			}
			continue
		}
		row := c.Row(i)
		f.spans = f.cfg.Window.assign(f.spans[:0], t)
		for _, s := range f.spans {
			f.buf = f.clock.appendWindow(append(f.buf[:0], row...), s)
			w.add(c.Ops[i], f.buf)
		}
	}
	return nil
}

func (f *WindowTableFunction) fireSessions(wm int64, out runtime.Emitter) error {
	if f.sessions == nil {
		return nil
	}
	w := f.out.to(out)
	defer w.flush()
	return f.sessions.fire(wm, func(_ string, s *session) error {
		for i, r := range s.rows {
			f.buf = f.clock.appendWindow(append(f.buf[:0], r...), s.span)
			w.add(s.kinds[i], f.buf)
		}
		return nil
	})
}
