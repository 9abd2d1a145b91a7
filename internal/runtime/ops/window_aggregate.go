package ops

import (
	"unsafe"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// WindowAggregateConfig configures a WindowAggregate.
type WindowAggregateConfig struct {
	// InputTypes are the input's column types.
	InputTypes []types.Type
	// Window is the window function over the input; its TimeCol is the
	// event-time attribute.
	Window Window
	// Keys are the GROUP BY columns other than window_start/window_end
	// (for SESSION windows they also partition the sessions).
	Keys []int
	// Aggs are the aggregate calls, in output order.
	Aggs []AggSpec
}

// WindowAggregate aggregates per key and window and emits each window's
// results once, when the watermark passes the window, after Flink's
// WindowAggOperator with the slicing (TUMBLE, HOP, CUMULATE) and
// unslicing (SESSION) processors.
//
// Output rows are insert-only: the key columns, one column per aggregate
// call, then window_start, window_end (TIMESTAMP(3)) and window_time (the
// window's last millisecond, a rowtime attribute).
//
// A window [start, end) fires when the watermark reaches end - 1ms (Flink's
// isWindowFired: watermark >= toEpochMillsForTimer(end - 1)). Windows fire
// in order of end; the keys of one window in order of first arrival. A row
// is added to each of its windows that has not fired; when all have fired
// it is late and dropped (AbstractWindowAggProcessor drops an element when
// the last window of its slice has fired). Rows with a NULL time are
// dropped too. Retractions are accepted: a key whose rows were all
// retracted emits nothing. At the end of a bounded input the maximum
// watermark fires every window.
type WindowAggregate struct {
	counter
	onWatermark
	cfg      WindowAggregateConfig
	agg      *aggregator
	clock    clock
	st       state.Backend
	windows  *windowed[group]
	sessions *sessions
	keyTypes []types.Type
	out      *output
	key      []byte
	spans    []span
	buf      types.Row
}

// NewWindowAggregate returns a WindowAggregate for cfg.
func NewWindowAggregate(cfg WindowAggregateConfig, st state.Backend) (*WindowAggregate, error) {
	if err := cfg.Window.validate(cfg.InputTypes); err != nil {
		return nil, err
	}
	if err := checkCols("window group key", cfg.Keys, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	agg, err := newAggregator(cfg.Aggs, len(cfg.InputTypes))
	if err != nil {
		return nil, err
	}
	a := &WindowAggregate{
		cfg:      cfg,
		agg:      agg,
		clock:    newClock(cfg.Window, cfg.InputTypes),
		st:       st,
		keyTypes: keyTypes(cfg.InputTypes, cfg.Keys),
	}
	if cfg.Window.Kind == Session {
		a.sessions = newSessions(a.st, cfg.InputTypes, cfg.Window.Gap, a.clock)
	} else {
		a.windows = newWindowed(a.st, a.clock, groupValueCodec(agg))
	}
	outTypes := append(append(a.keyTypes, agg.resultTypes()...), windowColumnTypes(cfg.InputTypes[cfg.Window.TimeCol])...)
	a.out = newOutput(outTypes)
	a.onWatermark = newOnWatermark(a.fire)
	return a, nil
}

// State implements Stateful; its Len is the number of keys with open
// windows (or sessions).
func (a *WindowAggregate) State() state.Backend { return a.st }

// ProcessLeased implements runtime.LeaseTaker: nothing of c is kept (keys
// are encoded, a session's rows and the accumulators' values copied).
func (a *WindowAggregate) ProcessLeased(input int, c *types.Chunk, l *runtime.Lease, out runtime.Emitter) error {
	return releaseAfter(a.ProcessChunk(input, c, out), l)
}

// ProcessChunk implements runtime.Operator.
func (a *WindowAggregate) ProcessChunk(_ int, c *types.Chunk, _ runtime.Emitter) error {
	tc := c.Cols[a.cfg.Window.TimeCol]
	for i := range c.Len() {
		if tc.Nulls[i] {
			a.n.Add(1)
			continue
		}
		t, err := a.cfg.Window.windowClock(a.clock, tc.I64[i])
		if err != nil {
			return err
		}
		a.key = state.AppendChunkKey(a.key[:0], c, i, a.cfg.Keys)
		if a.sessions != nil {
			if !a.sessions.add(a.key, t, c.Ops[i], c.Row(i), a.wm) {
				a.n.Add(1)
			}
			continue
		}
		a.spans = a.cfg.Window.assign(a.spans[:0], t)
		added := false
		for _, s := range a.spans {
			if a.windows.fired(s.end, a.wm) {
				continue
			}
			added = true
			grp, fresh := a.windows.value(s, a.key)
			if fresh {
				grp.accs = a.agg.create()
			}
			if err := a.agg.update(grp, c, i); err != nil {
				return err
			}
		}
		if !added {
			a.n.Add(1)
		}
	}
	return nil
}

func (a *WindowAggregate) fire(wm int64, out runtime.Emitter) error {
	w := a.out.to(out)
	defer w.flush()
	if a.sessions != nil {
		return a.sessions.fire(wm, func(key string, s *session) error {
			grp := &group{accs: a.agg.create()}
			for i, r := range s.rows {
				retract := !s.kinds[i].IsAccumulate()
				if err := a.agg.applyRow(grp.accs, r, retract); err != nil {
					return err
				}
				if retract {
					grp.count--
				} else {
					grp.count++
				}
			}
			return a.emit(w, key, grp, s.span)
		})
	}
	return a.windows.fire(wm, func(s span, key string, grp group) error { return a.emit(w, key, &grp, s) })
}

// groupValueCodec is groupCodec for groups kept by value, in the keys'
// windows rather than behind a pointer each.
func groupValueCodec(agg *aggregator) state.Codec[group] {
	c := groupCodec(agg)
	return state.Codec[group]{
		Append: func(b []byte, g group) []byte { return c.Append(b, &g) },
		Decode: func(b []byte) (group, error) {
			g, err := c.Decode(b)
			if err != nil {
				return group{}, err
			}
			return *g, nil
		},
	}
}

// emit outputs the result of one key in one window, unless all its rows
// were retracted.
func (a *WindowAggregate) emit(w *output, key string, grp *group, s span) error {
	if grp.count <= 0 {
		return nil
	}
	// The key is only read: its bytes are not copied.
	keyRow, _, err := state.DecodeRow(unsafe.Slice(unsafe.StringData(key), len(key)), a.keyTypes)
	if err != nil {
		return err
	}
	a.buf = append(a.buf[:0], keyRow...)
	if a.buf, err = a.agg.appendResults(a.buf, grp.accs); err != nil {
		return err
	}
	a.buf = a.clock.appendWindow(a.buf, s)
	w.add(types.Insert, a.buf)
	return nil
}
