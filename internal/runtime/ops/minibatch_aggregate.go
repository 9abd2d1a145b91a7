package ops

import (
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// MiniBatchGroupAggregate is a GroupAggregate that buffers its input per
// key until the batch ends, then folds each key's rows into its
// accumulators at once and emits one change per key and batch, after
// Flink's MiniBatchGroupAggFunction: a key without state ignores the
// retractions its batch begins with and, if nothing else is left, is
// skipped; a new key emits +I, a key whose results changed -U/+U (-U
// only with GenerateUpdateBefore), one whose row count fell to zero -D
// and loses its state; an unchanged result emits nothing. Keys are
// handled in the order they first arrived in the batch. Its state is the
// GroupAggregate's.
type MiniBatchGroupAggregate struct {
	bundleEnds
	*bundle
	cfg    GroupAggregateConfig
	agg    *aggregator
	st     state.Backend
	groups *state.Table[*group]
	out    *output
	buf    rowBuffer
	key    []byte
	prev   types.Row
	next   types.Row
}

// NewMiniBatchGroupAggregate returns a MiniBatchGroupAggregate.
func NewMiniBatchGroupAggregate(cfg GroupAggregateConfig, mb MiniBatchConfig, st state.Backend) (*MiniBatchGroupAggregate, error) {
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
	g := &MiniBatchGroupAggregate{bundle: b, cfg: cfg, agg: agg, st: st, buf: newRowBuffer()}
	g.bundleEnds = bundleEnds{op: g}
	g.groups = state.NewTable(st, "groups", groupCodec(agg))
	g.out = newOutput(append(keyTypes(cfg.InputTypes, cfg.Keys), agg.resultTypes()...))
	return g, nil
}

// State implements Stateful.
func (g *MiniBatchGroupAggregate) State() state.Backend { return g.st }

// ProcessChunk implements runtime.Operator.
func (g *MiniBatchGroupAggregate) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	ci := g.buf.addChunk(c)
	for i := range c.Len() {
		g.key = state.AppendChunkKey(g.key[:0], c, i, g.cfg.Keys)
		g.buf.add(g.key, ci, i)
		if g.add() {
			if err := g.finishBundle(out); err != nil {
				return err
			}
			ci = g.buf.addChunk(c)
		}
	}
	return nil
}

// finishBundle folds the buffered rows in, key by key.
func (g *MiniBatchGroupAggregate) finishBundle(out runtime.Emitter) error {
	if g.empty() {
		return nil
	}
	w := g.out.to(out)
	defer w.flush()
	nk := len(g.cfg.Keys)
	for e := range g.buf.entries {
		ent := &g.buf.entries[e]
		refs := g.buf.rowsOf(ent)
		grp, ok := g.groups.GetString(ent.key)
		if !ok {
			for len(refs) > 0 && !g.buf.ref(refs[0]).Ops[g.buf.refs[refs[0]].row].IsAccumulate() {
				refs = refs[1:]
			}
			if len(refs) == 0 {
				continue
			}
			grp = &group{accs: g.agg.create()}
		}
		first := g.buf.refs[refs[0]]
		fc := g.buf.chunks[first.chunk]
		g.prev = g.prev[:0]
		for _, k := range g.cfg.Keys {
			g.prev = append(g.prev, fc.Cols[k].Get(int(first.row)))
		}
		g.next = append(g.next[:0], g.prev...)
		var err error
		if ok {
			if g.prev, err = g.agg.appendResults(g.prev, grp.accs); err != nil {
				return err
			}
		}
		for _, r := range refs {
			ref := g.buf.refs[r]
			if err := g.agg.update(grp, g.buf.chunks[ref.chunk], int(ref.row)); err != nil {
				return err
			}
		}
		if grp.count == 0 {
			if ok {
				w.add(types.Delete, g.prev)
			}
			g.groups.DeleteString(ent.key)
			continue
		}
		if !ok {
			g.groups.PutString(ent.key, grp)
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
	g.buf.reset()
	g.rows.Store(0)
	return nil
}

// rowBuffer holds a batch's rows by key, in the order keys first arrived
// and, per key, in arrival order: references into the chunks received,
// which senders never change after emitting them.
type rowBuffer struct {
	chunks  []*types.Chunk
	refs    []rowRef
	keys    map[string]int32
	entries []bufEntry
	scratch []int32
}

// rowRef is a buffered row: its chunk, its row there, and the next row
// of its key (-1 for none).
type rowRef struct {
	chunk, row, next int32
}

// bufEntry is one key of the batch: its first and last row.
type bufEntry struct {
	key        string
	head, tail int32
}

func newRowBuffer() rowBuffer { return rowBuffer{keys: map[string]int32{}} }

// addChunk makes c the chunk the following rows are in.
func (b *rowBuffer) addChunk(c *types.Chunk) int32 {
	b.chunks = append(b.chunks, c)
	return int32(len(b.chunks) - 1)
}

// add buffers row i of chunk ci under key.
func (b *rowBuffer) add(key []byte, ci int32, i int) {
	r := int32(len(b.refs))
	b.refs = append(b.refs, rowRef{chunk: ci, row: int32(i), next: -1})
	if e, ok := b.keys[string(key)]; ok {
		ent := &b.entries[e]
		b.refs[ent.tail].next = r
		ent.tail = r
		return
	}
	b.keys[string(key)] = int32(len(b.entries))
	b.entries = append(b.entries, bufEntry{key: string(key), head: r, tail: r})
}

// rowsOf returns the references of an entry's rows, in order; the slice
// is reused by the next call.
func (b *rowBuffer) rowsOf(e *bufEntry) []int32 {
	b.scratch = b.scratch[:0]
	for r := e.head; r >= 0; r = b.refs[r].next {
		b.scratch = append(b.scratch, r)
	}
	return b.scratch
}

// ref returns the chunk of reference r.
func (b *rowBuffer) ref(r int32) *types.Chunk { return b.chunks[b.refs[r].chunk] }

// reset empties the buffer, keeping its memory.
func (b *rowBuffer) reset() {
	clear(b.chunks)
	b.chunks = b.chunks[:0]
	b.refs = b.refs[:0]
	clear(b.keys)
	b.entries = b.entries[:0]
}
