package ops

import (
	"errors"
	"slices"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// ProcTimeOverAggregate computes an OVER aggregation ordered by a
// processing-time attribute, as Flink's ProcTimeUnboundedPrecedingFunction,
// ProcTimeRowsBoundedPrecedingFunction and
// ProcTimeRangeBoundedPrecedingFunction do:
//
//   - a row's time is the operator's clock when the row arrives, to the
//     millisecond (Flink reads its timer service's current time; the
//     row's column is not read);
//   - UNBOUNDED PRECEDING, ROWS and RANGE alike: each row is emitted at
//     once, with the aggregates over every row of its partition so far,
//     itself included;
//   - ROWS n PRECEDING: each row is emitted at once, over itself and the n
//     rows of its partition before it;
//   - RANGE interval PRECEDING: the rows that arrive in millisecond t
//     wait for Flink's processing-time timer at t + 1, which its timer
//     service rings a millisecond after its time
//     (ProcessingTimeServiceUtil's delay + 1), so when the clock reaches
//     t + 2 ms. Then the rows that arrived before t - interval leave the
//     frame, the rows of t enter it, and each is emitted with the same
//     aggregates (they are peers). A partition whose rows have all left
//     any future frame is cleared by a timer (Flink's cleanup timer),
//     so its accumulators start afresh;
//   - watermarks pass on; at the end of the input the rows still waiting
//     are dropped, as Flink cancels a finished task's pending
//     processing-time timers (FLINK-14231).
//
// With a retention (StateTTL) over an UNBOUNDED PRECEDING frame, a
// partition not written for that long is dropped, as Flink's
// ProcTimeUnboundedPrecedingFunction expires its accumulators by state
// TTL (since FLINK-29349): its next row starts from fresh accumulators.
// Over a ROWS frame, each row registers the partition's cleanup timer
// (cleanupTimers), which drops the partition when it rings, as Flink's
// ProcTimeRowsBoundedPrecedingFunction's does. A RANGE frame ignores the
// retention, as ProcTimeRangeBoundedPrecedingFunction does.
//
// Output is insert-only. The accumulators, the rows of bounded frames and
// the waiting rows are state; a restored instance sets its timers again
// from it and, once open, fires at once what came due while the job was
// down.
type ProcTimeOverAggregate struct {
	cfg    OverAggregateConfig
	agg    *aggregator
	st     state.Backend
	parts  *state.Table[*procOverPartition]
	timers *timerQueue
	// ttl is the partitions' retention over an UNBOUNDED PRECEDING
	// frame, nil without one; cleanup, with cleanupAt holding the times
	// of its timers, over a ROWS frame.
	ttl       *state.TTL
	cleanup   *cleanupTimers
	cleanupAt *state.Table[int64]
	pt        *runtime.ProcessingTimeService
	out       *output
	key       []byte
	row       types.Row
}

// procOverPartition is the state of one partition.
type procOverPartition struct {
	accs []Accumulator
	// rows holds the rows of a bounded ROWS frame, oldest first.
	rows []types.Row
	// frame holds the rows of a bounded RANGE frame by the millisecond
	// they arrived, oldest first; pending those waiting for their
	// millisecond to pass.
	frame, pending []msRows
	// last is the millisecond of the rows that entered the RANGE frame
	// last.
	last int64
}

// msRows are the rows of a partition that arrived in one millisecond.
type msRows struct {
	time int64
	rows []types.Row
}

// NewProcTimeOverAggregate returns a ProcTimeOverAggregate for cfg, whose
// TimeCol is the processing-time attribute.
func NewProcTimeOverAggregate(cfg OverAggregateConfig, st state.Backend) (*ProcTimeOverAggregate, error) {
	agg, err := overAggregator(cfg)
	if err != nil {
		return nil, err
	}
	o := &ProcTimeOverAggregate{cfg: cfg, agg: agg, st: st, timers: newTimerQueue(),
		out: newOutput(append(slices.Clone(cfg.InputTypes), agg.resultTypes()...))}
	o.parts = state.NewTable(o.st, "partitions", o.codec())
	switch {
	case cfg.Preceding < 0:
		o.ttl = state.NewTTL(o.st, "partitions", cfg.StateTTL, func(key string) { o.parts.DeleteString(key) })
	case cfg.Rows && cfg.StateTTL > 0:
		o.cleanup = newCleanupTimers(cfg.StateTTL)
		o.cleanupAt = o.cleanup.partitionTable(o.st)
	}
	o.parts.OnRestore(func() {
		var ts []timer
		for k, p := range o.parts.All() {
			for _, m := range p.pending {
				ts = append(ts, timer{time: m.time, key: k})
			}
			if len(p.frame) > 0 {
				ts = append(ts, timer{time: o.cleanupTime(p), key: k})
			}
		}
		o.timers.rebuildTimers(ts)
	})
	return o, nil
}

// State implements Stateful; its Len is the number of partitions.
func (o *ProcTimeOverAggregate) State() state.Backend { return o.st }

// rangeFrame reports a bounded RANGE frame, the one whose rows wait.
func (o *ProcTimeOverAggregate) rangeFrame() bool { return !o.cfg.Rows && o.cfg.Preceding >= 0 }

// Open implements runtime.Operator.
func (o *ProcTimeOverAggregate) Open(ctx *runtime.Context) error {
	o.pt = ctx.ProcessingTime
	startTTL(ctx, o.ttl)
	o.cleanup.start(ctx)
	o.arm()
	return nil
}

// ProcessChunk implements runtime.Operator.
func (o *ProcTimeOverAggregate) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	now := floorMilli(o.pt.Now())
	w := o.out.to(out)
	defer w.flush()
	for i := range c.Len() {
		if c.Ops[i] != types.Insert {
			return errors.New("over aggregate: input must be insert-only")
		}
		o.key = state.AppendChunkKey(o.key[:0], c, i, o.cfg.PartitionKeys)
		if o.ttl != nil {
			o.ttl.Expire(o.key)
			o.ttl.Touch(o.key)
		}
		if o.cleanup.enabled() {
			at, has := o.cleanupAt.Get(o.key)
			o.cleanupAt.Put(o.key, o.cleanup.register(string(o.key), at, has))
		}
		p, found := o.parts.Get(o.key)
		if !found {
			p = &procOverPartition{accs: o.agg.create()}
			o.parts.Put(o.key, p)
		}
		if o.rangeFrame() {
			o.wait(p, now, c.Row(i))
			continue
		}
		r := c.Row(i)
		if o.cfg.Preceding >= 0 {
			if int64(len(p.rows)) > o.cfg.Preceding {
				if err := o.agg.applyRow(p.accs, p.rows[0], true); err != nil {
					return err
				}
				p.rows = p.rows[1:]
			}
			p.rows = append(p.rows, r)
		}
		if err := o.agg.applyRow(p.accs, r, false); err != nil {
			return err
		}
		if err := o.agg.emitWithResults(&o.row, r, p.accs, w); err != nil {
			return err
		}
	}
	o.arm()
	return nil
}

// wait holds r, arrived at now, until its millisecond has passed; the
// partition is the one of o.key. A
// partition's times never go back, even if the clock does.
func (o *ProcTimeOverAggregate) wait(p *procOverPartition, now int64, r types.Row) {
	now = max(now, p.last)
	if n := len(p.pending); n > 0 {
		if last := &p.pending[n-1]; last.time >= now {
			last.rows = append(last.rows, r)
			return
		}
	}
	p.pending = append(p.pending, msRows{time: now, rows: []types.Row{r}})
	o.timers.add(now, string(o.key))
}

// ProcessWatermark implements runtime.Operator: watermarks pass on.
func (o *ProcTimeOverAggregate) ProcessWatermark(wm int64, out runtime.Emitter) error {
	out.EmitWatermark(wm)
	return nil
}

// Finish implements runtime.Operator: the rows still waiting are dropped.
func (o *ProcTimeOverAggregate) Finish(runtime.Emitter) error { return nil }

// OnProcessingTime implements runtime.ProcessingTimer: the rows of the
// milliseconds at least 2 ms before now fire, in order of time, and the
// partitions whose cleanup time has come are cleared.
func (o *ProcTimeOverAggregate) OnProcessingTime(now int64, out runtime.Emitter) error {
	w := o.out.to(out)
	defer w.flush()
	err := o.timers.fire(floorMilli(now)-2*millisecond, func(t int64, k string) error {
		p, ok := o.parts.GetString(k)
		if !ok {
			return nil
		}
		if len(p.pending) > 0 && p.pending[0].time == t {
			return o.fire(p, k, w)
		}
		if len(p.frame) > 0 && t >= o.cleanupTime(p) {
			// No row that arrives from now on has the frame's rows in
			// its frame.
			p.frame, p.accs = nil, o.agg.create()
			if len(p.pending) == 0 {
				o.parts.DeleteString(k)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if o.cleanup.enabled() {
		o.cleanup.ring(now, func(at int64, key string) {
			if cur, ok := o.cleanupAt.GetString(key); ok && cur == at {
				o.parts.DeleteString(key)
				o.cleanupAt.DeleteString(key)
			}
		})
	}
	o.arm()
	return nil
}

// fire moves a partition's oldest waiting rows into the RANGE frame,
// retiring the rows that leave it, and emits them.
func (o *ProcTimeOverAggregate) fire(p *procOverPartition, k string, w *output) error {
	cur := p.pending[0]
	p.pending = p.pending[1:]
	for len(p.frame) > 0 && p.frame[0].time < cur.time-o.cfg.Preceding {
		for _, r := range p.frame[0].rows {
			if err := o.agg.applyRow(p.accs, r, true); err != nil {
				return err
			}
		}
		p.frame = p.frame[1:]
	}
	for _, r := range cur.rows {
		if err := o.agg.applyRow(p.accs, r, false); err != nil {
			return err
		}
	}
	p.frame = append(p.frame, cur)
	p.last = cur.time
	if len(p.pending) == 0 {
		o.timers.add(o.cleanupTime(p), k)
	}
	for _, r := range cur.rows {
		if err := o.agg.emitWithResults(&o.row, r, p.accs, w); err != nil {
			return err
		}
	}
	return nil
}

// cleanupTime is the timer's time (a millisecond of arrival) at which a
// RANGE partition's frame is past: a row arriving then is more than the
// interval after the frame's last rows.
func (o *ProcTimeOverAggregate) cleanupTime(p *procOverPartition) int64 {
	return p.last + o.cfg.Preceding + millisecond
}

// arm registers a wake-up for the earliest timer, which rings 2 ms after
// its millisecond (Flink's timer at t + 1, rung a millisecond late).
func (o *ProcTimeOverAggregate) arm() {
	if t, ok := o.timers.next(); ok {
		o.pt.Register(t + 2*millisecond)
	}
}

// codec encodes a partition's state for snapshots.
func (o *ProcTimeOverAggregate) codec() state.Codec[*procOverPartition] {
	rows := rowsCodec(o.cfg.InputTypes)
	appendMs := func(b []byte, ms []msRows) []byte {
		b = state.AppendUvarint(b, uint64(len(ms)))
		for _, m := range ms {
			b = rows.Append(state.AppendVarint(b, m.time), m.rows)
		}
		return b
	}
	readMs := func(r *state.Reader) []msRows {
		n := r.Uvarint()
		var ms []msRows
		for i := uint64(0); i < n && r.Err() == nil; i++ {
			t := r.Varint()
			ms = append(ms, msRows{time: t, rows: readRows(r, o.cfg.InputTypes)})
		}
		return ms
	}
	return state.Codec[*procOverPartition]{
		Append: func(b []byte, p *procOverPartition) []byte {
			b = rows.Append(b, p.rows)
			b = appendMs(b, p.frame)
			b = appendMs(b, p.pending)
			b = state.AppendVarint(b, p.last)
			return appendAccs(b, p.accs)
		},
		Decode: func(b []byte) (*procOverPartition, error) {
			r := state.NewReader(b)
			p := &procOverPartition{rows: readRows(r, o.cfg.InputTypes)}
			p.frame = readMs(r)
			p.pending = readMs(r)
			p.last = r.Varint()
			accs, err := o.agg.readAccs(r)
			if err != nil {
				return nil, err
			}
			p.accs = accs
			return p, r.Done()
		},
	}
}
