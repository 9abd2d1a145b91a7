package ops

import (
	"bytes"

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
	// The flat form: the calls, their groups' states, and a copy of a
	// group's state before the row at hand changes it.
	flat       *flatAggs
	flatGroups *state.FlatTable
	before     []byte
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
	w := g.out.to(out)
	defer w.flush()
	if g.flat != nil {
		return g.processFlat(c, w)
	}
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
func (g *GroupAggregate) processFlat(c *types.Chunk, w *output) error {
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
		var err error
		switch {
		case g.flat.count(s) == 0: // found: a new group counts its row
			err = g.emitFlat(w, types.Delete, c, i, g.before, 1)
			g.flatGroups.Delete(g.key)
		case !found:
			err = g.emitFlat(w, types.Insert, c, i, s, 1)
		case bytes.Equal(g.before[8:], s[8:]): // the same accumulators give the same results
		default:
			err = g.emitFlatUpdate(w, c, i, s)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// emitFlatUpdate emits the change of row i's group from g.before to s:
// -U (with GenerateUpdateBefore) and +U, or nothing if the results are
// the same.
func (g *GroupAggregate) emitFlatUpdate(w *output, c *types.Chunk, i int, s []byte) error {
	nk := len(g.cfg.Keys)
	if g.cfg.GenerateUpdateBefore {
		if err := g.emitFlat(w, types.UpdateBefore, c, i, g.before, 2); err != nil {
			return err
		}
		if err := g.emitFlat(w, types.UpdateAfter, c, i, s, 1); err != nil {
			return err
		}
		if n := w.c.Len(); resultsEqual(w.c.Cols[nk:], n-2, n-1) {
			w.truncate(n - 2)
		}
		return nil
	}
	// The previous results go last, to be compared and dropped.
	if err := g.emitFlat(w, types.UpdateAfter, c, i, s, 2); err != nil {
		return err
	}
	if err := g.emitFlat(w, types.UpdateBefore, c, i, g.before, 1); err != nil {
		return err
	}
	n := w.c.Len()
	if resultsEqual(w.c.Cols[nk:], n-2, n-1) {
		n -= 2
	} else {
		n--
	}
	w.truncate(n)
	return nil
}

// emitFlat emits a row of kind k: row i's key columns of c, then the
// results of the state s. room is the number of rows, this one included,
// that must go into the same chunk.
func (g *GroupAggregate) emitFlat(w *output, k types.RowKind, c *types.Chunk, i int, s []byte, room int) error {
	oc := w.start(k, room)
	for j, col := range g.cfg.Keys {
		appendFrom(oc.Cols[j], c.Cols[col], i)
	}
	return g.flat.appendResults(oc.Cols[len(g.cfg.Keys):], s)
}

// start begins a row of kind k, whose columns the caller appends to the
// chunk returned, first emitting the chunk at hand unless room rows, this
// one included, fit in it.
func (o *output) start(k types.RowKind, room int) *types.Chunk {
	if o.c != nil && o.c.Len()+room > types.ChunkSize {
		o.flush()
	}
	if o.c == nil {
		o.c = types.NewChunk(o.types, max(o.last, 16))
	}
	o.c.Ops = append(o.c.Ops, k)
	return o.c
}

// truncate drops the rows of the chunk at hand from the n-th on.
func (o *output) truncate(n int) {
	o.c.Ops = o.c.Ops[:n]
	for _, v := range o.c.Cols {
		v.Nulls = v.Nulls[:n]
		switch v.Type.Physical() {
		case types.PhysFloat:
			v.F64 = v.F64[:n]
		case types.PhysString:
			v.Str = v.Str[:n]
		default:
			v.I64 = v.I64[:n]
		}
	}
}

// appendFrom appends row i of src to dst, of the same type.
func appendFrom(dst, src *types.Vector, i int) {
	dst.Nulls = append(dst.Nulls, src.Nulls[i])
	switch src.Type.Physical() {
	case types.PhysFloat:
		dst.F64 = append(dst.F64, src.F64[i])
	case types.PhysString:
		dst.Str = append(dst.Str, src.Str[i])
	default:
		dst.I64 = append(dst.I64, src.I64[i])
	}
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
