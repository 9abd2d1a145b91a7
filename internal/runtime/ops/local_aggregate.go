package ops

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// Two-phase aggregation (table.optimizer.agg-phase-strategy), after
// Flink's MiniBatchLocalGroupAggFunction and
// MiniBatchGlobalGroupAggFunction: a LocalGroupAggregate before the hash
// exchange folds each batch's rows per key into accumulators and sends
// them on; a GlobalGroupAggregate after it merges them into the key's
// state. Accumulators travel as their encoded state, one VARBINARY column
// per call, followed by the batch's row count (rows accumulated minus
// rows retracted) in a BIGINT column.

// AccumulatorType is the type of the columns that carry accumulators
// from a LocalGroupAggregate to its GlobalGroupAggregate.
var AccumulatorType = types.Type{Kind: types.Varbinary, Length: types.MaxVarcharLength, NotNull: true}

// LocalAggregateTypes returns the columns of a LocalGroupAggregate's
// output: the keys, an accumulator per call, and the row count.
func LocalAggregateTypes(keys []types.Type, calls int) []types.Type {
	out := append([]types.Type(nil), keys...)
	for range calls {
		out = append(out, AccumulatorType)
	}
	return append(out, types.BigIntType.WithNotNull(true))
}

// batchGroups are the groups of a batch of a LocalGroupAggregate or a
// GlobalGroupAggregate: the batch's rows by key (a rowBuffer, whose
// entries are the groups, in the order their keys first arrived) and
// each group's accumulators, flat (one state after the other) or boxed.
type batchGroups struct {
	rowBuffer
	flat   *flatAggs
	states []byte
	boxed  []group
	agg    *aggregator
}

func newBatchGroups(agg *aggregator, flat *flatAggs) batchGroups {
	return batchGroups{rowBuffer: newRowBuffer(), flat: flat, agg: agg}
}

// group returns group e, new if first: its state in the flat form, or
// its accumulators.
func (b *batchGroups) group(e int, first bool) (s []byte, grp *group) {
	if b.flat == nil {
		if first {
			b.boxed = append(b.boxed, group{accs: b.agg.create()})
		}
		return nil, &b.boxed[e]
	}
	if first {
		n := len(b.states)
		b.states = slices.Grow(b.states, b.flat.width)[:n+b.flat.width]
		clear(b.states[n:])
	}
	return b.state(e), nil
}

// state returns the flat state of group e.
func (b *batchGroups) state(e int) []byte {
	w := b.flat.width
	return b.states[e*w : (e+1)*w]
}

// reset empties the batch, keeping its memory.
func (b *batchGroups) reset() {
	b.rowBuffer.reset()
	b.states = b.states[:0]
	clear(b.boxed)
	b.boxed = b.boxed[:0]
	if b.flat != nil {
		b.flat.unbind()
	}
}

// LocalGroupAggregate accumulates its input per key within a batch and, at
// the end of the batch, emits one insert per key: the key, its
// accumulators and its row count. It keeps no state: a checkpoint's
// barrier ends the batch. Its accumulators are flat (fn.FlatAccumulator)
// when every call's is.
type LocalGroupAggregate struct {
	bundleEnds
	*bundle
	cfg   GroupAggregateConfig
	agg   *aggregator
	batch batchGroups
	types []types.Type
	enc   []byte
	ends  []int
}

// NewLocalGroupAggregate returns a LocalGroupAggregate; cfg's
// GenerateUpdateBefore is not used.
func NewLocalGroupAggregate(cfg GroupAggregateConfig, mb MiniBatchConfig) (*LocalGroupAggregate, error) {
	agg, b, err := newTwoPhase(cfg, mb)
	if err != nil {
		return nil, err
	}
	l := &LocalGroupAggregate{bundle: b, cfg: cfg, agg: agg, batch: newBatchGroups(agg, twoPhaseFlat(agg))}
	l.bundleEnds = bundleEnds{op: l}
	l.types = LocalAggregateTypes(keyTypes(cfg.InputTypes, cfg.Keys), len(cfg.Aggs))
	return l, nil
}

// newTwoPhase returns the aggregator and the batches of a phase of a
// two-phase aggregation of cfg, whose calls must all merge.
func newTwoPhase(cfg GroupAggregateConfig, mb MiniBatchConfig) (*aggregator, *bundle, error) {
	b, err := newBundle(mb)
	if err != nil {
		return nil, nil, err
	}
	if err := checkCols("group key", cfg.Keys, len(cfg.InputTypes)); err != nil {
		return nil, nil, err
	}
	agg, err := newAggregator(cfg.Aggs, len(cfg.InputTypes))
	if err != nil {
		return nil, nil, err
	}
	for i, acc := range agg.create() {
		if _, ok := acc.(fn.Merger); !ok {
			return nil, nil, fmt.Errorf("aggregate %d cannot run in two phases: its accumulator does not merge", i)
		}
	}
	return agg, b, nil
}

// twoPhaseFlat returns the flat form of agg's calls for a two-phase
// aggregation, or nil if one of them has none or does not merge flat.
func twoPhaseFlat(agg *aggregator) *flatAggs {
	if f := newFlatAggs(agg, false); f != nil && f.merges {
		return f
	}
	return nil
}

// ProcessChunk implements runtime.Operator.
func (l *LocalGroupAggregate) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	b := &l.batch
	return l.buffer(&b.rowBuffer, c, l.cfg.Keys, func(e int, first bool, i int) error {
		s, grp := b.group(e, first)
		if s == nil {
			return l.agg.update(grp, c, i)
		}
		return b.flat.update(s, c, i, !c.Ops[i].IsAccumulate())
	}, func() error { return l.finishBundle(out) })
}

// finishBundle emits every key's accumulators, in chunks built column by
// column.
func (l *LocalGroupAggregate) finishBundle(out runtime.Emitter) error {
	if l.empty() {
		return nil
	}
	b := &l.batch
	nk, na := len(l.cfg.Keys), len(l.cfg.Aggs)
	heads := make([]rowRef, 0, min(len(b.entries), types.ChunkSize))
	for start := 0; start < len(b.entries); start += types.ChunkSize {
		ents := b.entries[start:min(start+types.ChunkSize, len(b.entries))]
		heads = heads[:0]
		for _, ent := range ents {
			heads = append(heads, b.refs[ent.head])
		}
		n := len(ents)
		oc := &types.Chunk{Ops: make([]types.RowKind, n), Cols: make([]*types.Vector, len(l.types))}
		for j, col := range l.cfg.Keys {
			oc.Cols[j] = gatherRows(b.chunks, col, l.types[j], heads)
		}
		for j := range na {
			// One string holds the column's encodings.
			l.enc, l.ends = l.enc[:0], l.ends[:0]
			for e := start; e < start+n; e++ {
				if b.flat != nil {
					l.enc = b.flat.appendEncoded(l.enc, b.state(e), j)
				} else {
					l.enc = append(l.enc, b.boxed[e].accs[j].MarshalState()...)
				}
				l.ends = append(l.ends, len(l.enc))
			}
			all, v := string(l.enc), types.NewVector(AccumulatorType, n)
			from := 0
			for _, end := range l.ends {
				v.AppendString(all[from:end])
				from = end
			}
			oc.Cols[nk+j] = v
		}
		counts := types.NewVector(l.types[nk+na], n)
		for e := start; e < start+n; e++ {
			if b.flat != nil {
				counts.AppendInt(b.flat.count(b.state(e)))
			} else {
				counts.AppendInt(b.boxed[e].count)
			}
		}
		oc.Cols[nk+na] = counts
		out.Emit(oc)
	}
	b.reset()
	l.rows.Store(0)
	return nil
}

// GlobalGroupAggregate merges the accumulators of LocalGroupAggregates
// per key within a batch and, at the end of the batch, into the key's
// state, emitting as MiniBatchGroupAggregate does: +I for a new key, -U/+U
// for a changed result, -D when the key's row count falls to zero, which
// clears its state, and nothing for an unchanged result. Its input is the
// LocalGroupAggregate's output, keyed by its first columns; its state is
// a GroupAggregate's over the local phase's input, flat when every
// call's accumulator is and merges flat.
type GlobalGroupAggregate struct {
	bundleEnds
	*bundle
	cfg     GroupAggregateConfig
	agg     *aggregator
	st      state.Backend
	groups  *aggGroups
	batch   batchGroups
	keyCols []int
	// scratch holds an accumulator read from the input: a flat state, or
	// boxed accumulators.
	scratch  []byte
	scratchA []Accumulator
}

// NewGlobalGroupAggregate returns a GlobalGroupAggregate; cfg describes
// the aggregation over the local phase's input (its InputTypes and Keys).
func NewGlobalGroupAggregate(cfg GroupAggregateConfig, mb MiniBatchConfig, st state.Backend) (*GlobalGroupAggregate, error) {
	agg, b, err := newTwoPhase(cfg, mb)
	if err != nil {
		return nil, err
	}
	flat := twoPhaseFlat(agg)
	g := &GlobalGroupAggregate{bundle: b, cfg: cfg, agg: agg, st: st, batch: newBatchGroups(agg, flat), keyCols: seqCols(len(cfg.Keys))}
	g.bundleEnds = bundleEnds{op: g}
	g.groups = newAggGroups(cfg, agg, g.keyCols, st, flat)
	// MiniBatchGlobalGroupAggFunction skips equal results even with a
	// retention, unlike the one-phase functions.
	g.groups.emitEqual = false
	if flat != nil {
		g.scratch = make([]byte, flat.width)
	} else {
		g.scratchA = agg.create()
	}
	return g, nil
}

func seqCols(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// State implements Stateful.
func (g *GlobalGroupAggregate) State() state.Backend { return g.st }

// Open implements runtime.Operator.
func (g *GlobalGroupAggregate) Open(ctx *runtime.Context) error {
	if err := g.bundle.Open(ctx); err != nil {
		return err
	}
	return g.groups.open(ctx)
}

// ProcessChunk implements runtime.Operator.
func (g *GlobalGroupAggregate) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	nk, na := len(g.keyCols), len(g.cfg.Aggs)
	if len(c.Cols) != nk+na+1 {
		return fmt.Errorf("global aggregate: %d input columns, expected %d", len(c.Cols), nk+na+1)
	}
	b := &g.batch
	return g.buffer(&b.rowBuffer, c, g.keyCols, func(e int, first bool, i int) error {
		s, grp := b.group(e, first)
		count := c.Cols[nk+na].I64[i]
		if s == nil {
			for j, acc := range grp.accs {
				if err := g.scratchA[j].UnmarshalState(bytesOf(c.Cols[nk+j].Str[i])); err != nil {
					return err
				}
				if err := acc.(fn.Merger).Merge(g.scratchA[j]); err != nil {
					return err
				}
			}
			grp.count += count
			return nil
		}
		binary.LittleEndian.PutUint64(g.scratch, uint64(count))
		for j := range na {
			if err := b.flat.readEncoded(g.scratch, bytesOf(c.Cols[nk+j].Str[i]), j); err != nil {
				return err
			}
		}
		return b.flat.merge(s, g.scratch)
	}, func() error { return g.finishBundle(out) })
}

// finishBundle merges each key's batch into its state.
func (g *GlobalGroupAggregate) finishBundle(out runtime.Emitter) error {
	if g.empty() {
		return nil
	}
	err := g.groups.emit(out, g.batch.chunks, nil, g.merge)
	g.batch.reset()
	g.rows.Store(0)
	return err
}

// merge merges each group of the batch into its state.
func (g *GlobalGroupAggregate) merge() error {
	a, b := g.groups, &g.batch
	for e := range b.entries {
		ent := &b.entries[e]
		key, src := b.key(ent), b.refs[ent.head]
		if a.flat != nil {
			s, found := a.openFlat(key, true)
			if err := a.flat.merge(s, b.state(e)); err != nil {
				return err
			}
			if err := a.closeFlat(key, s, found, src); err != nil {
				return err
			}
			continue
		}
		grp, found, err := a.openBoxed(key, true, src)
		if err != nil {
			return err
		}
		for j, acc := range grp.accs {
			if err := acc.(fn.Merger).Merge(b.boxed[e].accs[j]); err != nil {
				return err
			}
		}
		grp.count += b.boxed[e].count
		if err := a.closeBoxed(key, grp, found); err != nil {
			return err
		}
	}
	return nil
}
