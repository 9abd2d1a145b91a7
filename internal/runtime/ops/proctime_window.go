package ops

import (
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// ProcTimeWindowAggregate runs a WindowAggregate over processing time, as
// Flink's window aggregation over a PROCTIME() attribute:
//
//   - a row belongs to the windows of the processing time at which it
//     arrives (Flink's slice assigners read the operator's clock, not the
//     row's column), so no row is ever late;
//   - a window [start, end) fires when the clock reaches end: Flink sets a
//     processing-time timer at end - 1ms, and its timer service rings a
//     millisecond after a timer's time (ProcessingTimeServiceUtil's delay
//   - 1);
//   - window_time is processing time: Flink's aggregate leaves it NULL
//     and materializes the proc-time attribute (PROCTIME_MATERIALIZE) with
//     the current time as the result passes on, here the firing's time;
//   - watermarks pass through and fire nothing; at the end of the input
//     the windows not yet fired are dropped, as Flink cancels a finished
//     task's pending processing-time timers (FLINK-14231).
//
// The windows are the WindowAggregate's, kept in its state: a restored
// instance registers the earliest window's end again when it opens, and
// fires at once what came due while the job was down.
type ProcTimeWindowAggregate struct {
	*WindowAggregate
	pt *runtime.ProcessingTimeService
	// now is the time of the firing under way, for window_time.
	now  int64
	out  procTimeOutput
	rows []int64
}

// NewProcTimeWindowAggregate returns a ProcTimeWindowAggregate for cfg,
// whose Window.TimeCol is the processing-time attribute.
func NewProcTimeWindowAggregate(cfg WindowAggregateConfig, st state.Backend) (*ProcTimeWindowAggregate, error) {
	a, err := NewWindowAggregate(cfg, st)
	if err != nil {
		return nil, err
	}
	p := &ProcTimeWindowAggregate{WindowAggregate: a}
	p.out.windowTime = len(a.keyTypes) + len(cfg.Aggs) + 2
	p.out.p = p
	return p, nil
}

// Open implements runtime.Operator.
func (p *ProcTimeWindowAggregate) Open(ctx *runtime.Context) error {
	p.pt = ctx.ProcessingTime
	p.arm()
	return p.WindowAggregate.Open(ctx)
}

// ProcessLeased implements runtime.LeaseTaker in place of the window
// aggregation's, so that the rows are stamped: nothing of c is kept.
func (p *ProcTimeWindowAggregate) ProcessLeased(input int, c *types.Chunk, l *runtime.Lease, out runtime.Emitter) error {
	return releaseAfter(p.ProcessChunk(input, c, out), l)
}

// ProcessChunk implements runtime.Operator: the rows take the current
// processing time, to the millisecond, as their time.
func (p *ProcTimeWindowAggregate) ProcessChunk(input int, c *types.Chunk, out runtime.Emitter) error {
	now := floorMilli(p.pt.Now())
	tc := p.cfg.Window.TimeCol
	p.rows = p.rows[:0]
	for range c.Len() {
		p.rows = append(p.rows, now)
	}
	stamped := &types.Chunk{Ops: c.Ops, Cols: append([]*types.Vector(nil), c.Cols...)}
	stamped.Cols[tc] = &types.Vector{Type: c.Cols[tc].Type, Nulls: make([]bool, c.Len()), I64: p.rows}
	if err := p.WindowAggregate.ProcessChunk(input, stamped, out); err != nil {
		return err
	}
	p.arm()
	return nil
}

// ProcessWatermark implements runtime.Operator: watermarks pass on.
func (p *ProcTimeWindowAggregate) ProcessWatermark(wm int64, out runtime.Emitter) error {
	out.EmitWatermark(wm)
	return nil
}

// OnProcessingTime implements runtime.ProcessingTimer: the windows whose
// end the clock has reached fire, as they would at the event-time
// watermark of the millisecond before.
func (p *ProcTimeWindowAggregate) OnProcessingTime(now int64, out runtime.Emitter) error {
	p.now = floorMilli(now)
	p.out.to = out
	if err := p.onWatermark.ProcessWatermark(p.now-millisecond, &p.out); err != nil {
		return err
	}
	p.arm()
	return nil
}

// Finish implements runtime.Operator: the windows not yet fired are
// dropped.
func (p *ProcTimeWindowAggregate) Finish(runtime.Emitter) error { return nil }

// arm registers a wake-up when the earliest open window ends.
func (p *ProcTimeWindowAggregate) arm() {
	var t int64
	var ok bool
	if p.sessions != nil {
		t, ok = p.sessions.timers.next()
	} else {
		t, ok = p.windows.next()
	}
	if ok {
		p.pt.Register(t + millisecond)
	}
}

// next returns the time at which the earliest open window fires.
func (w *windowed[V]) next() (int64, bool) {
	var first int64
	found := false
	for end := range w.index {
		if t := w.clock.windowTime(end); !found || t < first {
			first, found = t, true
		}
	}
	return first, found
}

// procTimeOutput passes a firing's results on with window_time set to the
// firing's processing time, and drops the watermark the firing ends with.
type procTimeOutput struct {
	p          *ProcTimeWindowAggregate
	to         runtime.Emitter
	windowTime int
}

func (o *procTimeOutput) Emit(c *types.Chunk) {
	v := c.Cols[o.windowTime]
	for i := range v.I64 {
		v.I64[i] = o.p.now
	}
	o.to.Emit(c)
}

func (o *procTimeOutput) EmitWatermark(int64) {}

// floorMilli truncates microseconds since the epoch to the millisecond.
func floorMilli(ns int64) int64 {
	r := ns % millisecond
	if r < 0 {
		r += millisecond
	}
	return ns - r
}
