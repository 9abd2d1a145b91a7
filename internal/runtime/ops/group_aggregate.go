package ops

import (
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
// equal results unless state TTL is configured, which Sluice does not
// have). When the count drops to zero the key emits -D(previous) and its
// state is cleared. A global aggregate is the same with an empty key: its
// first row emits +I, as in Flink.
type GroupAggregate struct {
	passThrough
	cfg    GroupAggregateConfig
	agg    *aggregator
	st     state.Backend
	groups *state.Table[*group]
	out    *output
	key    []byte
	prev   types.Row
	next   types.Row
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
	g.groups = state.NewTable(g.st, "groups", groupCodec(agg))
	g.out = newOutput(append(keyTypes(cfg.InputTypes, cfg.Keys), agg.resultTypes()...))
	return g, nil
}

// State implements Stateful.
func (g *GroupAggregate) State() state.Backend { return g.st }

// ProcessChunk implements runtime.Operator.
func (g *GroupAggregate) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	w := g.out.to(out)
	defer w.flush()
	nk := len(g.cfg.Keys)
	var err error
	for i := range c.Len() {
		retract := !c.Ops[i].IsAccumulate()
		g.key = state.AppendChunkKey(g.key[:0], c, i, g.cfg.Keys)
		grp, ok := g.groups.Get(g.key)
		if !ok {
			if retract {
				continue
			}
			grp = &group{accs: g.agg.create()}
		}
		// Key columns, then results: before (prev) and after (next).
		g.prev = g.prev[:0]
		for _, k := range g.cfg.Keys {
			g.prev = append(g.prev, c.Cols[k].Get(i))
		}
		g.next = append(g.next[:0], g.prev...)
		if ok {
			if g.prev, err = g.agg.appendResults(g.prev, grp.accs); err != nil {
				return err
			}
		}
		if err := g.agg.update(grp, c, i); err != nil {
			return err
		}
		if grp.count == 0 {
			if ok {
				w.add(types.Delete, g.prev)
			}
			g.groups.Delete(g.key)
			continue
		}
		if !ok {
			g.groups.Put(g.key, grp) // existing groups are updated in place
		}
		if g.next, err = g.agg.appendResults(g.next, grp.accs); err != nil {
			return err
		}
		switch {
		case !ok:
			w.add(types.Insert, g.next)
		case rowsEqual(g.prev[nk:], g.next[nk:]):
		default:
			if g.cfg.GenerateUpdateBefore {
				w.add(types.UpdateBefore, g.prev)
			}
			w.add(types.UpdateAfter, g.next)
		}
	}
	return nil
}
