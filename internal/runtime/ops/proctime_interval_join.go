package ops

import (
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// ProcTimeIntervalJoin runs an IntervalJoin over processing-time
// attributes, as Flink's ProcTimeIntervalJoin does:
//
//   - a row's time is the operator's clock when it arrives, to the
//     millisecond (Flink reads its timer service's current time; the
//     row's column is not read), and the operator's time is the clock;
//     the row's time column is set to that time, so the joined rows carry
//     the times they were matched by;
//   - a row is cached only while rows of the other side arriving later
//     can still match it: with `a.pt BETWEEN b.pt - INTERVAL '1' MINUTE
//     AND b.pt` a row of a waits a minute for rows of b, and a row of b is
//     never cached (no later row of a can be within its bounds);
//   - cached rows expire on processing-time clean-up timers (row time +
//     relative size + 1 ms, which Flink's timer service rings a
//     millisecond late, so when the clock is 2 ms past the bound); on an
//     outer side an expired row that never matched is emitted null-padded
//     then;
//   - watermarks pass on, not held back; at the end of the input the
//     pending timers are dropped, as Flink cancels a finished task's
//     processing-time timers (FLINK-14231), so cached outer rows are not
//     padded then.
//
// Output is insert-only. The cached rows and their timers are state; a
// restored instance sets its timers again and fires at once what came due
// while the job was down.
type ProcTimeIntervalJoin struct {
	*IntervalJoin
	pt *runtime.ProcessingTimeService
	// times is reused for the stamped time column.
	times []int64
}

// NewProcTimeIntervalJoin returns a ProcTimeIntervalJoin for cfg, whose
// LeftTime and RightTime are processing-time attributes.
func NewProcTimeIntervalJoin(cfg IntervalJoinConfig, st state.Backend) (*ProcTimeIntervalJoin, error) {
	cfg.ProcTime = true
	j, err := NewIntervalJoin(cfg, st)
	if err != nil {
		return nil, err
	}
	return &ProcTimeIntervalJoin{IntervalJoin: j}, nil
}

// Open implements runtime.Operator.
func (p *ProcTimeIntervalJoin) Open(ctx *runtime.Context) error {
	p.pt = ctx.ProcessingTime
	p.arm()
	return p.IntervalJoin.Open(ctx)
}

// ProcessLeased implements runtime.LeaseTaker in place of the interval
// join's, so that the rows are stamped: nothing of c is kept.
func (p *ProcTimeIntervalJoin) ProcessLeased(input int, c *types.Chunk, l *runtime.Lease, out runtime.Emitter) error {
	return releaseAfter(p.ProcessChunk(input, c, out), l)
}

// ProcessChunk implements runtime.Operator: the rows take the current
// processing time, to the millisecond, as their time.
func (p *ProcTimeIntervalJoin) ProcessChunk(input int, c *types.Chunk, out runtime.Emitter) error {
	p.now = floorMilli(p.pt.Now())
	tc := p.sides[input].timeCol
	p.times = p.times[:0]
	for range c.Len() {
		p.times = append(p.times, p.now)
	}
	stamped := &types.Chunk{Ops: c.Ops, Cols: append([]*types.Vector(nil), c.Cols...)}
	stamped.Cols[tc] = &types.Vector{Type: c.Cols[tc].Type, Nulls: make([]bool, c.Len()), I64: p.times}
	if err := p.IntervalJoin.ProcessChunk(input, stamped, out); err != nil {
		return err
	}
	p.arm()
	return nil
}

// ProcessWatermark implements runtime.Operator: watermarks pass on.
func (p *ProcTimeIntervalJoin) ProcessWatermark(wm int64, out runtime.Emitter) error {
	out.EmitWatermark(wm)
	return nil
}

// OnProcessingTime implements runtime.ProcessingTimer: the clean-up
// timers at least a millisecond before now fire, in order of time.
func (p *ProcTimeIntervalJoin) OnProcessingTime(now int64, out runtime.Emitter) error {
	p.now = floorMilli(now)
	w := p.out.to(out)
	err := p.timers.fire(p.now-millisecond, func(t int64, key string) error {
		p.onTimer(w, t, key)
		return nil
	})
	w.flush()
	if err != nil {
		return err
	}
	p.arm()
	return nil
}

// arm registers a wake-up for the earliest timer, which rings a
// millisecond after its time.
func (p *ProcTimeIntervalJoin) arm() {
	if t, ok := p.timers.next(); ok {
		p.pt.Register(t + millisecond)
	}
}
