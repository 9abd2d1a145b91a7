package ops

import (
	"bytes"
	"hash/maphash"

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
	groups *aggGroups
	buf    rowBuffer
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
	g.groups = newAggGroups(cfg, agg, cfg.Keys, st, newFlatAggs(agg, inMemory(st)))
	return g, nil
}

// State implements Stateful.
func (g *MiniBatchGroupAggregate) State() state.Backend { return g.st }

// Open implements runtime.Operator.
func (g *MiniBatchGroupAggregate) Open(ctx *runtime.Context) error {
	if err := g.bundle.Open(ctx); err != nil {
		return err
	}
	return g.groups.open(ctx)
}

// ProcessChunk implements runtime.Operator.
func (g *MiniBatchGroupAggregate) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	return g.buffer(&g.buf, c, g.cfg.Keys, nil, func() error { return g.finishBundle(out) })
}

// finishBundle folds the buffered rows in, key by key.
func (g *MiniBatchGroupAggregate) finishBundle(out runtime.Emitter) error {
	if g.empty() {
		return nil
	}
	err := g.groups.emit(out, g.buf.chunks, nil, g.fold)
	g.buf.reset()
	g.rows.Store(0)
	return err
}

// fold applies each key's rows of the batch to its group.
func (g *MiniBatchGroupAggregate) fold() error {
	a, b := g.groups, &g.buf
	for e := range b.entries {
		ent := &b.entries[e]
		key, refs, src := b.key(ent), b.rowsOf(ent), b.refs[ent.head]
		// A key without state ignores the retractions its batch begins with.
		lead := 0
		for lead < len(refs) && !b.ref(refs[lead]).Ops[b.refs[refs[lead]].row].IsAccumulate() {
			lead++
		}
		create := lead < len(refs)
		if a.flat != nil {
			s, found := a.openFlat(key, create)
			if s == nil {
				continue
			}
			if !found {
				refs = refs[lead:]
			}
			for _, r := range refs {
				c, i := b.ref(r), int(b.refs[r].row)
				if err := a.flat.update(s, c, i, !c.Ops[i].IsAccumulate()); err != nil {
					return err
				}
			}
			if err := a.closeFlat(key, s, found, src); err != nil {
				return err
			}
			continue
		}
		grp, found, err := a.openBoxed(key, create, src)
		if err != nil {
			return err
		}
		if grp == nil {
			continue
		}
		if !found {
			refs = refs[lead:]
		}
		for _, r := range refs {
			if err := g.agg.update(grp, b.ref(r), int(b.refs[r].row)); err != nil {
				return err
			}
		}
		if err := a.closeBoxed(key, grp, found); err != nil {
			return err
		}
	}
	return nil
}

// buffer buffers the rows of c in buf under their keys, the columns
// keys, hands each to step (if set) with its key's entry and whether it
// is the key's first row, and ends the batch with finish whenever it is
// full, within the chunk too.
func (bd *bundle) buffer(buf *rowBuffer, c *types.Chunk, keys []int, step func(e int, first bool, i int) error, finish func() error) error {
	ci := buf.addChunk(c)
	for i := range c.Len() {
		buf.rowKey = state.AppendChunkKey(buf.rowKey[:0], c, i, keys)
		e, first := buf.add(buf.rowKey, ci, i)
		if step != nil {
			if err := step(e, first, i); err != nil {
				return err
			}
		}
		if bd.add() {
			if err := finish(); err != nil {
				return err
			}
			ci = buf.addChunk(c)
		}
	}
	return nil
}

// rowBuffer holds a batch's rows by key, in the order keys first arrived
// and, per key, in arrival order: references into the chunks received,
// which senders never change after emitting them. Its keys are kept in
// one byte slab, found through an open-addressing index, so that a batch
// allocates nothing per key once the buffer has grown.
type rowBuffer struct {
	chunks  []*types.Chunk
	refs    []rowRef
	entries []bufEntry
	keys    []byte
	// index holds, per slot, an entry plus one (0 for an empty slot); its
	// length is a power of two at least twice the entries.
	index   []int32
	scratch []int32
	// rowKey is the encoded key of the row at hand.
	rowKey []byte
}

// bufEntry is one key of the batch: its place in the slab, its hash, and
// its first and last row.
type bufEntry struct {
	hash       uint64
	off, end   int32
	head, tail int32
}

func newRowBuffer() rowBuffer { return rowBuffer{index: make([]int32, 64)} }

// addChunk makes c the chunk the following rows are in.
func (b *rowBuffer) addChunk(c *types.Chunk) int32 {
	b.chunks = append(b.chunks, c)
	return int32(len(b.chunks) - 1)
}

// add buffers row i of chunk ci under key and returns its key's entry,
// and whether the row is the key's first.
func (b *rowBuffer) add(key []byte, ci int32, i int) (int, bool) {
	r := int32(len(b.refs))
	b.refs = append(b.refs, rowRef{chunk: ci, row: int32(i), next: -1})
	h := maphash.Bytes(rowHashSeed, key)
	mask := uint64(len(b.index) - 1)
	p := h & mask
	for ; b.index[p] != 0; p = (p + 1) & mask {
		e := b.index[p] - 1
		if ent := &b.entries[e]; ent.hash == h && bytes.Equal(b.keys[ent.off:ent.end], key) {
			b.refs[ent.tail].next = r
			ent.tail = r
			return int(e), false
		}
	}
	off := int32(len(b.keys))
	b.keys = append(b.keys, key...)
	b.entries = append(b.entries, bufEntry{hash: h, off: off, end: int32(len(b.keys)), head: r, tail: r})
	b.index[p] = int32(len(b.entries))
	if 2*len(b.entries) > len(b.index) {
		b.grow()
	}
	return len(b.entries) - 1, true
}

// grow doubles the index.
func (b *rowBuffer) grow() {
	b.index = make([]int32, 2*len(b.index))
	mask := uint64(len(b.index) - 1)
	for e := range b.entries {
		p := b.entries[e].hash & mask
		for b.index[p] != 0 {
			p = (p + 1) & mask
		}
		b.index[p] = int32(e + 1)
	}
}

// key returns the key of an entry.
func (b *rowBuffer) key(e *bufEntry) []byte { return b.keys[e.off:e.end] }

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
	b.entries = b.entries[:0]
	b.keys = b.keys[:0]
	clear(b.index)
}
