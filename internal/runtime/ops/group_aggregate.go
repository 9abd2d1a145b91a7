package ops

import (
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// GroupAggregateConfig configures a GroupAggregate.
type GroupAggregateConfig struct {
	// InputTypes are the input's column types.
	InputTypes []types.Type
	// Keys are the GROUP BY columns; empty for a global aggregate.
	Keys []int
	// Aggs are the aggregate calls, in output order.
	Aggs []AggSpec
	// GenerateUpdateBefore emits -U(old) before each +U(new); without it an
	// update is a lone +U (for upsert consumers).
	GenerateUpdateBefore bool
	// StateTTL is the groups' idle state retention (Flink's
	// table.exec.state.ttl); 0 keeps them for ever.
	StateTTL time.Duration
	// EmptyResult makes a global aggregate (no Keys) that holds no group
	// when its input ends emit the calls' results over no rows (COUNT 0,
	// SUM NULL, ...): the one row of an aggregation without GROUP BY in
	// batch mode, which a streaming aggregation leaves out.
	EmptyResult bool
}

// GroupAggregate is an unbounded GROUP BY aggregation over a changelog,
// after Flink's GroupAggFunction. Output rows are the key columns followed
// by one column per aggregate call.
//
// Per key it keeps the accumulators and the number of rows accumulated
// minus rows retracted. +I/+U rows accumulate, -U/-D rows retract; a
// retraction for a key without state is ignored. The first row of a key
// emits +I; later changes emit -U(previous) (with GenerateUpdateBefore) and
// +U(new), and nothing when the result is unchanged (GroupAggFunction skips
// equal results unless state TTL is configured: then it emits them). A
// group idle for StateTTL is dropped, and its key starts afresh. When the count drops to zero the key emits -D(previous) and its
// state is cleared. A global aggregate is the same with an empty key: its
// first row emits +I, as in Flink.
//
// When every call's accumulator is flat (fn.FlatAccumulator: COUNT, SUM,
// SUM0, AVG, and MIN and MAX of numbers and times over an input without
// retractions), a group's state is one byte string in a state.FlatTable,
// which holds no pointers, and rows are read from and written to the
// chunks' columns; otherwise each group keeps its accumulators as Go
// values.
type GroupAggregate struct {
	passThrough
	cfg    GroupAggregateConfig
	agg    *aggregator
	st     state.Backend
	groups *aggGroups
	key    []byte
}

// NewGroupAggregate returns a GroupAggregate for cfg.
func NewGroupAggregate(cfg GroupAggregateConfig, st state.Backend) (*GroupAggregate, error) {
	if err := checkCols("group key", cfg.Keys, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	agg, err := newAggregator(cfg.Aggs, len(cfg.InputTypes))
	if err != nil {
		return nil, err
	}
	g := &GroupAggregate{cfg: cfg, agg: agg, st: st}
	g.groups = newAggGroups(cfg, agg, cfg.Keys, st, newFlatAggs(agg, inMemory(st)))
	return g, nil
}

// State implements Stateful.
func (g *GroupAggregate) State() state.Backend { return g.st }

// Finish implements runtime.Operator: with EmptyResult, a global
// aggregate without a group emits its results over no rows.
func (g *GroupAggregate) Finish(out runtime.Emitter) error {
	if !g.cfg.EmptyResult || len(g.cfg.Keys) > 0 || g.groups.has(nil) {
		return nil
	}
	r, err := g.agg.appendResults(nil, g.agg.create())
	if err != nil {
		return err
	}
	o := newOutput(g.agg.resultTypes()).to(out)
	o.add(types.Insert, r)
	o.flush()
	return nil
}

// Open implements runtime.Operator.
func (g *GroupAggregate) Open(ctx *runtime.Context) error { return g.groups.open(ctx) }

// ProcessChunk implements runtime.Operator.
func (g *GroupAggregate) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	return g.groups.emit(out, nil, c, func() error { return g.process(c) })
}

// ProcessLeased implements runtime.LeaseTaker: nothing of c is kept
// (the output copies its key columns' values).
func (g *GroupAggregate) ProcessLeased(input int, c *types.Chunk, l *runtime.Lease, out runtime.Emitter) error {
	return releaseAfter(g.ProcessChunk(input, c, out), l)
}

// process applies the rows of c, each to its group.
func (g *GroupAggregate) process(c *types.Chunk) error {
	a := g.groups
	for i := range c.Len() {
		retract := !c.Ops[i].IsAccumulate()
		g.key = state.AppendChunkKey(g.key[:0], c, i, g.cfg.Keys)
		src := rowRef{row: int32(i)}
		if a.flat != nil {
			s, found := a.openFlat(g.key, !retract)
			if s == nil {
				continue // a retraction for a key without state
			}
			if err := a.flat.update(s, c, i, retract); err != nil {
				return err
			}
			if err := a.closeFlat(g.key, s, found, src); err != nil {
				return err
			}
			continue
		}
		grp, found, err := a.openBoxed(g.key, !retract, src)
		if err != nil {
			return err
		}
		if grp == nil {
			continue // a retraction for a key without state
		}
		if err := g.agg.update(grp, c, i); err != nil {
			return err
		}
		if err := a.closeBoxed(g.key, grp, found); err != nil {
			return err
		}
	}
	return nil
}
