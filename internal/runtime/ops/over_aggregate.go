package ops

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// OverAggregateConfig configures an OverAggregate.
type OverAggregateConfig struct {
	// InputTypes are the input's column types.
	InputTypes []types.Type
	// PartitionKeys are the PARTITION BY columns; empty for one partition.
	PartitionKeys []int
	// TimeCol is the event-time attribute of the ORDER BY (ascending).
	TimeCol int
	// Aggs are the aggregate calls, in output order.
	Aggs []AggSpec
	// Rows selects a ROWS frame; otherwise the frame is a RANGE.
	Rows bool
	// Preceding is the frame's lower bound: a number of rows (ROWS) or a
	// duration in microseconds (RANGE) before the current row; -1 for
	// UNBOUNDED PRECEDING. The upper bound is always CURRENT ROW.
	Preceding int64
	// StateTTL is the partitions' idle state retention, which a RANGE
	// frame bounded by an interval does not take; 0 keeps them for ever.
	StateTTL time.Duration
}

// OverAggregate computes aggregates over a window of rows preceding each
// row of its partition, ordered by event time (an OVER window), after
// Flink's RowTimeRowsBoundedPrecedingFunction,
// RowTimeRangeBoundedPrecedingFunction and their unbounded variants. Each
// input row is emitted once, with the aggregates appended, when the
// watermark reaches its time: rows are buffered until then and processed in
// time order. A RANGE frame treats rows of equal time as peers: they are
// all in each other's frame and get the same results. A row whose time is
// not after the last time processed for its partition (a bounded frame,
// as Flink's RowTimeRowsBoundedPrecedingFunction and
// RowTimeRangeBoundedPrecedingFunction check), or not after the current
// watermark (UNBOUNDED PRECEDING, as Flink's
// AbstractRowTimeUnboundedPrecedingOver checks), is late and dropped.
// Output is insert-only. Each partition sets a timer (timerQueue) per time
// it holds rows of, as Flink's functions do, so a watermark visits only
// the partitions with rows due, in order of time.
//
// With a retention (StateTTL), each row of a partition and each firing
// of its rows registers its cleanup timer (cleanupTimers), as Flink's
// RowTimeRowsBoundedPrecedingFunction and the unbounded functions do;
// when it rings, a partition with rows waiting for the watermark
// registers it again, and one without is dropped (with its last time
// processed, so that no row is late for it any more). Flink's unbounded
// functions keep one event-time timer per key, at the watermark after the
// current one (at 0 before the watermark reaches 0), which each firing
// sets again while the key has rows waiting: every watermark from 0 on
// fires each key with rows waiting, so each registers its cleanup timer
// then (waiting holds those keys).
type OverAggregate struct {
	counter
	onWatermark
	cfg    OverAggregateConfig
	agg    *aggregator
	st     state.Backend
	parts  *state.Table[*overPartition]
	timers *timerQueue
	key    []byte
	row    types.Row
	// cleanup are the partitions' cleanup timers, with cleanupAt holding
	// their times; nil without a retention.
	cleanup   *cleanupTimers
	cleanupAt *state.Table[int64]
	// waiting holds the partitions with rows waiting for the watermark,
	// with a retention over UNBOUNDED PRECEDING.
	waiting map[string]struct{}
}

// overPartition is the state of one partition.
type overPartition struct {
	// pending holds rows waiting for the watermark, by time.
	pending map[int64][]types.Row
	// frame holds the processed rows still inside some future row's frame
	// (bounded frames only), in processing order.
	frame []types.Row
	accs  []Accumulator
	// last is the last time processed (Flink's lastTriggeringTs), the
	// least int64 before any: Flink's 0 would take every row before
	// 1970-01-01 for late. (State written with 0 keeps it.)
	last int64
}

// overAggregator checks an OVER aggregation's configuration and returns
// the aggregator of its calls.
func overAggregator(cfg OverAggregateConfig) (*aggregator, error) {
	if err := checkCols("over partition key", cfg.PartitionKeys, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	if err := checkCols("over time column", []int{cfg.TimeCol}, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	if cfg.Preceding < -1 {
		return nil, fmt.Errorf("over: invalid preceding bound %d", cfg.Preceding)
	}
	if cfg.StateTTL != 0 && !cfg.Rows && cfg.Preceding >= 0 {
		return nil, errors.New("over: a RANGE frame bounded by an interval takes no idle state retention")
	}
	agg, err := newAggregator(cfg.Aggs, len(cfg.InputTypes))
	if err != nil {
		return nil, err
	}
	return agg, nil
}

// NewOverAggregate returns an OverAggregate for cfg.
func NewOverAggregate(cfg OverAggregateConfig, st state.Backend) (*OverAggregate, error) {
	agg, err := overAggregator(cfg)
	if err != nil {
		return nil, err
	}
	o := &OverAggregate{cfg: cfg, agg: agg, st: st, timers: newTimerQueue()}
	o.parts = state.NewTable(o.st, "partitions", o.codec())
	o.parts.OnRestore(func() {
		var ts []timer
		clear(o.waiting)
		for k, p := range o.parts.All() {
			for t := range p.pending {
				ts = append(ts, timer{time: t, key: k})
			}
			if o.waiting != nil && len(p.pending) > 0 {
				o.waiting[k] = struct{}{}
			}
		}
		o.timers.rebuildTimers(ts)
	})
	if o.cleanup = newCleanupTimers(cfg.StateTTL); o.cleanup != nil {
		o.cleanupAt = o.cleanup.partitionTable(o.st)
		if cfg.Preceding < 0 {
			o.waiting = map[string]struct{}{}
		}
	}
	out := newOutput(append(slices.Clone(cfg.InputTypes), agg.resultTypes()...))
	o.onWatermark = newOnWatermark(func(wm int64, e runtime.Emitter) error { return o.fire(wm, out.to(e)) })
	return o, nil
}

// Operator returns o as the runtime runs it: taking processing-time
// wake-ups when its partitions have cleanup timers, as only then it
// needs them.
func (o *OverAggregate) Operator() runtime.Operator {
	if o.cleanup != nil {
		return overCleanup{o}
	}
	return o
}

// overCleanup is an OverAggregate with cleanup timers.
type overCleanup struct{ *OverAggregate }

// OnProcessingTime implements runtime.ProcessingTimer: a partition whose
// cleanup timer is due is dropped, or, with rows waiting for the
// watermark, registers its timer again.
func (o overCleanup) OnProcessingTime(now int64, _ runtime.Emitter) error {
	if !o.cleanup.enabled() {
		return nil
	}
	o.cleanup.ring(now, func(at int64, key string) {
		if cur, ok := o.cleanupAt.GetString(key); !ok || cur != at {
			return
		}
		if p, ok := o.parts.GetString(key); ok && len(p.pending) > 0 {
			o.cleanupAt.PutString(key, o.cleanup.register(key, at, true))
			return
		}
		delete(o.waiting, key)
		o.parts.DeleteString(key)
		o.cleanupAt.DeleteString(key)
	})
	return nil
}

// Open implements runtime.Operator.
func (o *OverAggregate) Open(ctx *runtime.Context) error {
	o.cleanup.start(ctx)
	return nil
}

// registerCleanup registers the cleanup timer of the partition of key.
func (o *OverAggregate) registerCleanup(key string) {
	if o.cleanup.enabled() {
		at, has := o.cleanupAt.GetString(key)
		o.cleanupAt.PutString(key, o.cleanup.register(key, at, has))
	}
}

// State implements Stateful; its Len is the number of partitions.
func (o *OverAggregate) State() state.Backend { return o.st }

// ProcessChunk implements runtime.Operator.
func (o *OverAggregate) ProcessChunk(_ int, c *types.Chunk, _ runtime.Emitter) error {
	tc := c.Cols[o.cfg.TimeCol]
	for i := range c.Len() {
		if c.Ops[i] != types.Insert {
			return errors.New("over aggregate: input must be insert-only")
		}
		if tc.Nulls[i] {
			o.n.Add(1)
			continue
		}
		t := tc.I64[i]
		o.key = state.AppendChunkKey(o.key[:0], c, i, o.cfg.PartitionKeys)
		if o.cleanup.enabled() {
			o.registerCleanup(string(o.key))
		}
		p, found := o.parts.Get(o.key)
		if !found {
			p = &overPartition{pending: map[int64][]types.Row{}, accs: o.agg.create(), last: math.MinInt64}
		}
		if t <= p.last || o.cfg.Preceding < 0 && t <= o.wm {
			o.n.Add(1)
			continue
		}
		rows, waiting := p.pending[t]
		p.pending[t] = append(rows, c.Row(i))
		if o.waiting != nil {
			o.waiting[string(o.key)] = struct{}{}
		}
		switch {
		case !found:
			k := string(o.key)
			o.parts.PutString(k, p)
			o.timers.add(t, k)
		case !waiting:
			o.timers.add(t, string(o.key))
		}
	}
	return nil
}

// fire processes the rows whose time is at or before wm, in time order,
// partition by partition for rows of one time.
func (o *OverAggregate) fire(wm int64, w *output) error {
	defer w.flush()
	if o.waiting != nil && wm >= 0 {
		for k := range o.waiting {
			o.registerCleanup(k)
		}
	}
	return o.timers.fire(wm, func(t int64, k string) error {
		if o.waiting == nil {
			o.registerCleanup(k)
		}
		p, ok := o.parts.GetString(k)
		if !ok {
			return nil
		}
		rows, ok := p.pending[t]
		if !ok {
			return nil
		}
		if err := o.process(p, t, rows, w); err != nil {
			return err
		}
		delete(p.pending, t)
		p.last = t
		if o.waiting != nil && len(p.pending) == 0 {
			delete(o.waiting, k)
		}
		return nil
	})
}

// process emits the rows of one time of a partition.
func (o *OverAggregate) process(p *overPartition, t int64, rows []types.Row, w *output) error {
	if o.cfg.Rows {
		for _, r := range rows {
			if err := o.enter(p, r); err != nil {
				return err
			}
			for o.cfg.Preceding >= 0 && int64(len(p.frame)) > o.cfg.Preceding+1 {
				if err := o.leave(p); err != nil {
					return err
				}
			}
			if err := o.agg.emitWithResults(&o.row, r, p.accs, w); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range rows {
		if err := o.enter(p, r); err != nil {
			return err
		}
	}
	// RANGE: rows older than t - Preceding fall out of the frame.
	for o.cfg.Preceding >= 0 && len(p.frame) > 0 && p.frame[0][o.cfg.TimeCol].I < t-o.cfg.Preceding {
		if err := o.leave(p); err != nil {
			return err
		}
	}
	for _, r := range rows {
		if err := o.agg.emitWithResults(&o.row, r, p.accs, w); err != nil {
			return err
		}
	}
	return nil
}

// enter accumulates r, keeping it when a bounded frame may drop it later.
func (o *OverAggregate) enter(p *overPartition, r types.Row) error {
	if err := o.agg.applyRow(p.accs, r, false); err != nil {
		return err
	}
	if o.cfg.Preceding >= 0 {
		p.frame = append(p.frame, r)
	}
	return nil
}

// leave retracts the oldest row of the frame.
func (o *OverAggregate) leave(p *overPartition) error {
	r := p.frame[0]
	p.frame = p.frame[1:]
	return o.agg.applyRow(p.accs, r, true)
}

// codec encodes a partition's state for snapshots.
func (o *OverAggregate) codec() state.Codec[*overPartition] {
	rows := rowsCodec(o.cfg.InputTypes)
	return state.Codec[*overPartition]{
		Append: func(b []byte, p *overPartition) []byte {
			times := make([]int64, 0, len(p.pending))
			for t := range p.pending {
				times = append(times, t)
			}
			slices.Sort(times)
			b = state.AppendUvarint(b, uint64(len(times)))
			for _, t := range times {
				b = state.AppendVarint(b, t)
				b = rows.Append(b, p.pending[t])
			}
			b = rows.Append(b, p.frame)
			b = state.AppendVarint(b, p.last)
			return appendAccs(b, p.accs)
		},
		Decode: func(b []byte) (*overPartition, error) {
			r := state.NewReader(b)
			p := &overPartition{pending: map[int64][]types.Row{}}
			n := r.Uvarint()
			for i := uint64(0); i < n && r.Err() == nil; i++ {
				t := r.Varint()
				p.pending[t] = readRows(r, o.cfg.InputTypes)
			}
			p.frame = readRows(r, o.cfg.InputTypes)
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

// readRows reads rows written by rowsCodec's Append.
func readRows(r *state.Reader, ts []types.Type) []types.Row {
	n := r.Uvarint()
	var rows []types.Row
	for i := uint64(0); i < n && r.Err() == nil; i++ {
		rows = append(rows, r.Row(ts))
	}
	return rows
}
