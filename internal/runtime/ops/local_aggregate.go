package ops

import (
	"fmt"

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

// localEntry is a key's accumulation within a batch.
type localEntry struct {
	key []types.Value
	group
}

// LocalGroupAggregate accumulates its input per key within a batch and, at
// the end of the batch, emits one insert per key: the key, its
// accumulators and its row count. It keeps no state: a checkpoint's
// barrier ends the batch.
type LocalGroupAggregate struct {
	bundleEnds
	*bundle
	cfg     GroupAggregateConfig
	agg     *aggregator
	keys    map[string]int
	entries []localEntry
	out     *output
	key     []byte
	row     types.Row
}

// NewLocalGroupAggregate returns a LocalGroupAggregate; cfg's
// GenerateUpdateBefore is not used.
func NewLocalGroupAggregate(cfg GroupAggregateConfig, mb MiniBatchConfig) (*LocalGroupAggregate, error) {
	b, err := newBundle(mb)
	if err != nil {
		return nil, err
	}
	if err := checkCols("group key", cfg.Keys, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	agg, err := newAggregator(cfg.Aggs, len(cfg.InputTypes))
	if err != nil {
		return nil, err
	}
	if err := checkMergeable(agg); err != nil {
		return nil, err
	}
	l := &LocalGroupAggregate{bundle: b, cfg: cfg, agg: agg, keys: map[string]int{}}
	l.bundleEnds = bundleEnds{op: l}
	l.out = newOutput(LocalAggregateTypes(keyTypes(cfg.InputTypes, cfg.Keys), len(cfg.Aggs)))
	return l, nil
}

// checkMergeable refuses calls whose accumulators cannot merge.
func checkMergeable(agg *aggregator) error {
	for i, acc := range agg.create() {
		if _, ok := acc.(fn.Merger); !ok {
			return fmt.Errorf("aggregate %d cannot run in two phases: its accumulator does not merge", i)
		}
	}
	return nil
}

// ProcessChunk implements runtime.Operator.
func (l *LocalGroupAggregate) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	for i := range c.Len() {
		l.key = state.AppendChunkKey(l.key[:0], c, i, l.cfg.Keys)
		e, ok := l.keys[string(l.key)]
		if !ok {
			e = len(l.entries)
			l.keys[string(l.key)] = e
			ent := localEntry{group: group{accs: l.agg.create()}}
			for _, k := range l.cfg.Keys {
				ent.key = append(ent.key, c.Cols[k].Get(i))
			}
			l.entries = append(l.entries, ent)
		}
		if err := l.agg.update(&l.entries[e].group, c, i); err != nil {
			return err
		}
		if l.add() {
			if err := l.finishBundle(out); err != nil {
				return err
			}
		}
	}
	return nil
}

// finishBundle emits every key's accumulators.
func (l *LocalGroupAggregate) finishBundle(out runtime.Emitter) error {
	if l.empty() {
		return nil
	}
	w := l.out.to(out)
	defer w.flush()
	for i := range l.entries {
		e := &l.entries[i]
		l.row = append(l.row[:0], e.key...)
		for _, acc := range e.accs {
			l.row = append(l.row, types.StringValue(string(acc.MarshalState())))
		}
		l.row = append(l.row, types.IntValue(e.count))
		w.add(types.Insert, l.row)
	}
	clear(l.keys)
	clear(l.entries)
	l.entries = l.entries[:0]
	l.rows.Store(0)
	return nil
}

// GlobalGroupAggregate merges the accumulators of LocalGroupAggregates
// per key within a batch and, at the end of the batch, into the key's
// state, emitting as MiniBatchGroupAggregate does: +I for a new key, -U/+U
// for a changed result, -D when the key's row count falls to zero, which
// clears its state, and nothing for an unchanged result. Its input is the
// LocalGroupAggregate's output, keyed by its first columns; its state is
// a GroupAggregate's over the local phase's input.
type GlobalGroupAggregate struct {
	bundleEnds
	*bundle
	cfg     GroupAggregateConfig
	agg     *aggregator
	st      state.Backend
	groups  *state.Table[*group]
	keys    map[string]int
	entries []globalEntry
	scratch []Accumulator
	out     *output
	keyCols []int
	key     []byte
	prev    types.Row
	next    types.Row
}

// globalEntry is a key's merged accumulation within a batch.
type globalEntry struct {
	key  string
	vals []types.Value
	group
}

// NewGlobalGroupAggregate returns a GlobalGroupAggregate; cfg describes
// the aggregation over the local phase's input (its InputTypes and Keys).
func NewGlobalGroupAggregate(cfg GroupAggregateConfig, mb MiniBatchConfig, st state.Backend) (*GlobalGroupAggregate, error) {
	b, err := newBundle(mb)
	if err != nil {
		return nil, err
	}
	if err := checkCols("group key", cfg.Keys, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	agg, err := newAggregator(cfg.Aggs, len(cfg.InputTypes))
	if err != nil {
		return nil, err
	}
	if err := checkMergeable(agg); err != nil {
		return nil, err
	}
	g := &GlobalGroupAggregate{bundle: b, cfg: cfg, agg: agg, st: st, keys: map[string]int{}, scratch: agg.create()}
	g.bundleEnds = bundleEnds{op: g}
	g.groups = state.NewTable(st, "groups", groupCodec(agg))
	kt := keyTypes(cfg.InputTypes, cfg.Keys)
	g.out = newOutput(append(kt, agg.resultTypes()...))
	g.keyCols = seqCols(len(kt))
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

// ProcessChunk implements runtime.Operator.
func (g *GlobalGroupAggregate) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	nk, na := len(g.keyCols), len(g.cfg.Aggs)
	if len(c.Cols) != nk+na+1 {
		return fmt.Errorf("global aggregate: %d input columns, expected %d", len(c.Cols), nk+na+1)
	}
	for i := range c.Len() {
		g.key = state.AppendChunkKey(g.key[:0], c, i, g.keyCols)
		e, ok := g.keys[string(g.key)]
		if !ok {
			e = len(g.entries)
			g.keys[string(g.key)] = e
			ent := globalEntry{key: string(g.key), group: group{accs: g.agg.create()}}
			for _, k := range g.keyCols {
				ent.vals = append(ent.vals, c.Cols[k].Get(i))
			}
			g.entries = append(g.entries, ent)
		}
		ent := &g.entries[e]
		for j, acc := range ent.accs {
			if err := mergeEncoded(acc, g.scratch[j], c.Cols[nk+j].Get(i).S); err != nil {
				return err
			}
		}
		ent.count += c.Cols[nk+na].Get(i).I
		if g.add() {
			if err := g.finishBundle(out); err != nil {
				return err
			}
		}
	}
	return nil
}

// mergeEncoded decodes an accumulator's state into scratch and merges it
// into acc.
func mergeEncoded(acc, scratch Accumulator, enc string) error {
	if err := scratch.UnmarshalState([]byte(enc)); err != nil {
		return err
	}
	return acc.(fn.Merger).Merge(scratch)
}

// finishBundle merges each key's batch into its state.
func (g *GlobalGroupAggregate) finishBundle(out runtime.Emitter) error {
	if g.empty() {
		return nil
	}
	w := g.out.to(out)
	defer w.flush()
	nk := len(g.keyCols)
	for i := range g.entries {
		e := &g.entries[i]
		grp, ok := g.groups.GetString(e.key)
		if !ok {
			grp = &group{accs: g.agg.create()}
		}
		g.prev = append(g.prev[:0], e.vals...)
		g.next = append(g.next[:0], e.vals...)
		var err error
		if ok {
			if g.prev, err = g.agg.appendResults(g.prev, grp.accs); err != nil {
				return err
			}
		}
		for j, acc := range grp.accs {
			if err := acc.(fn.Merger).Merge(e.accs[j]); err != nil {
				return err
			}
		}
		grp.count += e.count
		if grp.count == 0 {
			if ok {
				w.add(types.Delete, g.prev)
			}
			g.groups.DeleteString(e.key)
			continue
		}
		if !ok {
			g.groups.PutString(e.key, grp)
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
	clear(g.keys)
	clear(g.entries)
	g.entries = g.entries[:0]
	g.rows.Store(0)
	return nil
}
