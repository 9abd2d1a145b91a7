package ops

import (
	"bytes"
	"slices"

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
//
// When every call's accumulator is flat (fn.FlatAccumulator: COUNT, SUM,
// SUM0, AVG, and MIN and MAX of numbers and times over an input without
// retractions), a group's state is one byte string in a state.FlatTable,
// which holds no pointers, and rows are read from and written to the
// chunks' columns; otherwise each group keeps its accumulators as Go
// values.
type GroupAggregate struct {
	passThrough
	cfg GroupAggregateConfig
	agg *aggregator
	st  state.Backend
	out *output
	key []byte
	// The flat form: the calls, their groups' states, a copy of a group's
	// state before the row at hand changes it, and the output rows not
	// emitted yet.
	flat       *flatAggs
	flatGroups *state.FlatTable
	before     []byte
	pend       flatRows
	// Otherwise: the groups, and a group's row before and after a change.
	groups *state.Table[*group]
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
	g := &GroupAggregate{cfg: cfg, agg: agg, st: st, flat: newFlatAggs(agg)}
	if g.flat != nil {
		g.flatGroups = state.NewFlatTable(g.st, "groups", g.flat.width, g.flat.codec())
	} else {
		g.groups = state.NewTable(g.st, "groups", groupCodec(agg))
	}
	g.out = newOutput(append(keyTypes(cfg.InputTypes, cfg.Keys), agg.resultTypes()...))
	return g, nil
}

// State implements Stateful.
func (g *GroupAggregate) State() state.Backend { return g.st }

// ProcessChunk implements runtime.Operator.
func (g *GroupAggregate) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	if g.flat != nil {
		return g.processFlat(c, out)
	}
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

// processFlat is ProcessChunk for flat accumulators.
func (g *GroupAggregate) processFlat(c *types.Chunk, out runtime.Emitter) error {
	g.flat.bind(c)
	for i := range c.Len() {
		retract := !c.Ops[i].IsAccumulate()
		g.key = state.AppendChunkKey(g.key[:0], c, i, g.cfg.Keys)
		var s []byte
		var found bool
		if retract {
			if s, found = g.flatGroups.Get(g.key); !found {
				continue
			}
		} else {
			s, found = g.flatGroups.Upsert(g.key)
		}
		g.before = append(g.before[:0], s...)
		if err := g.flat.update(s, c, i, retract); err != nil {
			return err
		}
		if len(g.pend.kinds)+2 > types.ChunkSize {
			if err := g.emitFlat(c, out); err != nil {
				return err
			}
		}
		switch {
		case g.flat.count(s) == 0: // found: a new group counts its row
			g.pend.add(types.Delete, i, g.before)
			g.flatGroups.Delete(g.key)
		case !found:
			g.pend.add(types.Insert, i, s)
		case bytes.Equal(g.before[8:], s[8:]): // the same accumulators give the same results
		case g.cfg.GenerateUpdateBefore:
			g.pend.pairs = append(g.pend.pairs, len(g.pend.kinds))
			g.pend.add(types.UpdateBefore, i, g.before)
			g.pend.add(types.UpdateAfter, i, s)
		default: // the previous results only to compare with
			g.pend.pairs = append(g.pend.pairs, len(g.pend.kinds))
			g.pend.add(types.UpdateAfter, i, s)
			g.pend.add(types.UpdateBefore, i, g.before)
		}
	}
	return g.emitFlat(c, out)
}

// flatRows are the output rows of the flat form not emitted yet.
type flatRows struct {
	kinds []types.RowKind
	// rows are the input rows whose keys the output rows take, states
	// their groups' states, one after the other.
	rows   []int
	states []byte
	// pairs are the first rows of -U/+U pairs (with GenerateUpdateBefore)
	// or of +U rows followed by their group's previous results: a pair
	// whose results are equal is dropped, and without
	// GenerateUpdateBefore the second row always is.
	pairs []int
}

func (p *flatRows) add(k types.RowKind, row int, s []byte) {
	p.kinds = append(p.kinds, k)
	p.rows = append(p.rows, row)
	p.states = append(p.states, s...)
}

// emitFlat emits the pending rows, whose keys are rows of c, as one
// chunk built column by column: the key columns gathered from c, each
// call's results from the states.
func (g *GroupAggregate) emitFlat(c *types.Chunk, out runtime.Emitter) error {
	p := &g.pend
	n := len(p.kinds)
	if n == 0 {
		return nil
	}
	nk := len(g.cfg.Keys)
	oc := &types.Chunk{Ops: slices.Clone(p.kinds), Cols: make([]*types.Vector, len(g.out.types))}
	for j, col := range g.cfg.Keys {
		oc.Cols[j] = runtime.Gather(c.Cols[col], g.out.types[j], p.rows)
	}
	for j, acc := range g.flat.accs {
		v := types.NewVector(g.out.types[nk+j], n)
		if err := acc.AppendFlatResults(v, p.states[g.flat.offs[j]:], g.flat.width, n); err != nil {
			return err
		}
		oc.Cols[nk+j] = v
	}
	var keep []int // the rows kept, when some are dropped
	next := 0      // the first row not decided yet
	for _, first := range p.pairs {
		drop := resultsEqual(oc.Cols[nk:], first, first+1)
		if !drop && g.cfg.GenerateUpdateBefore {
			continue
		}
		if keep == nil {
			keep = make([]int, 0, n)
		}
		for r := next; r < first; r++ {
			keep = append(keep, r)
		}
		if !drop {
			keep = append(keep, first)
		}
		next = first + 2
	}
	if keep != nil {
		for r := next; r < n; r++ {
			keep = append(keep, r)
		}
		oc = gatherChunk(oc, keep)
	}
	p.kinds, p.rows, p.states, p.pairs = p.kinds[:0], p.rows[:0], p.states[:0], p.pairs[:0]
	if oc.Len() > 0 {
		out.Emit(oc)
	}
	return nil
}

// gatherChunk returns the rows sel of c.
func gatherChunk(c *types.Chunk, sel []int) *types.Chunk {
	out := &types.Chunk{Ops: make([]types.RowKind, len(sel)), Cols: make([]*types.Vector, len(c.Cols))}
	for j, r := range sel {
		out.Ops[j] = c.Ops[r]
	}
	for j, v := range c.Cols {
		out.Cols[j] = runtime.Gather(v, v.Type, sel)
	}
	return out
}

// resultsEqual reports whether rows a and b of cols hold the same values.
func resultsEqual(cols []*types.Vector, a, b int) bool {
	for _, v := range cols {
		if !valueEqual(v.Get(a), v.Get(b)) {
			return false
		}
	}
	return true
}
