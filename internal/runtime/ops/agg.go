package ops

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// Accumulator is the running state of one aggregate call for one group.
type Accumulator = fn.Accumulator

// AggSpec is one aggregate call.
type AggSpec struct {
	// New returns a fresh accumulator.
	New func() Accumulator
	// Args are the input columns passed to the accumulator, in order
	// (empty for COUNT(*)).
	Args []int
	// Filter is the input column of a FILTER (WHERE ...) clause: the row
	// counts for this call only when that column is TRUE. -1 for none.
	Filter int
	// Type is the result type.
	Type types.Type
}

// aggregator evaluates a list of aggregate calls over chunk rows.
type aggregator struct {
	specs []AggSpec
	args  [][]types.Value // per call, reused argument buffer
}

func newAggregator(specs []AggSpec, width int) (*aggregator, error) {
	a := &aggregator{specs: specs, args: make([][]types.Value, len(specs))}
	for i, s := range specs {
		if s.New == nil {
			return nil, fmt.Errorf("aggregate %d: no accumulator factory", i)
		}
		if err := checkCols("aggregate argument", s.Args, width); err != nil {
			return nil, err
		}
		if s.Filter >= width {
			return nil, fmt.Errorf("aggregate %d: filter column %d out of range", i, s.Filter)
		}
		a.args[i] = make([]types.Value, len(s.Args))
	}
	return a, nil
}

// resultTypes returns the types of the calls' results.
func (a *aggregator) resultTypes() []types.Type {
	ts := make([]types.Type, len(a.specs))
	for i, s := range a.specs {
		ts[i] = s.Type
	}
	return ts
}

// create returns fresh accumulators, one per call.
func (a *aggregator) create() []Accumulator {
	accs := make([]Accumulator, len(a.specs))
	for i, s := range a.specs {
		accs[i] = s.New()
	}
	return accs
}

// apply adds (or, with retract, removes) row i of c to accs.
func (a *aggregator) apply(accs []Accumulator, c *types.Chunk, i int, retract bool) error {
	return a.applyFrom(accs, func(col int) types.Value { return c.Cols[col].Get(i) }, retract)
}

// applyRow adds (or, with retract, removes) row r to accs.
func (a *aggregator) applyRow(accs []Accumulator, r types.Row, retract bool) error {
	return a.applyFrom(accs, func(col int) types.Value { return r[col] }, retract)
}

// applyFrom adds or removes the row whose columns get reads.
func (a *aggregator) applyFrom(accs []Accumulator, get func(col int) types.Value, retract bool) error {
	for j, s := range a.specs {
		if s.Filter >= 0 {
			if f := get(s.Filter); f.Null || f.I == 0 {
				continue
			}
		}
		args := a.args[j]
		for k, col := range s.Args {
			args[k] = get(col)
		}
		if !retract {
			accs[j].Add(args)
		} else if err := accs[j].Retract(args); err != nil {
			return err
		}
	}
	return nil
}

// group is the aggregation state of one key: its accumulators and the
// number of rows accumulated minus rows retracted (Flink's RecordCounter).
type group struct {
	accs  []Accumulator
	count int64
}

// update applies row i of c to g: +I/+U accumulate, -U/-D retract.
func (a *aggregator) update(g *group, c *types.Chunk, i int) error {
	retract := !c.Ops[i].IsAccumulate()
	if err := a.apply(g.accs, c, i, retract); err != nil {
		return err
	}
	if retract {
		g.count--
	} else {
		g.count++
	}
	return nil
}

// appendResults appends the calls' current results to dst; it fails for a
// result Sluice cannot represent.
func (a *aggregator) appendResults(dst types.Row, accs []Accumulator) (types.Row, error) {
	for _, acc := range accs {
		v, err := acc.Result()
		if err != nil {
			return dst, err
		}
		dst = append(dst, v)
	}
	return dst, nil
}

// emitWithResults writes r followed by the calls' current results as an
// insertion to w, in buf (reused between calls): an OVER aggregation's
// output row.
func (a *aggregator) emitWithResults(buf *types.Row, r types.Row, accs []Accumulator, w *output) error {
	var err error
	if *buf, err = a.appendResults(append((*buf)[:0], r...), accs); err != nil {
		return err
	}
	w.add(types.Insert, *buf)
	return nil
}

// appendAccs appends the accumulators' state.
func appendAccs(b []byte, accs []Accumulator) []byte {
	for _, acc := range accs {
		b = state.AppendBytes(b, acc.MarshalState())
	}
	return b
}

// readAccs reads accumulators written by appendAccs.
func (a *aggregator) readAccs(r *state.Reader) ([]Accumulator, error) {
	accs := a.create()
	for _, acc := range accs {
		if err := acc.UnmarshalState(r.Bytes()); err != nil {
			return nil, err
		}
	}
	return accs, nil
}

// groupCodec encodes a group's row count and accumulators.
func groupCodec(agg *aggregator) state.Codec[*group] {
	return state.Codec[*group]{
		Append: func(b []byte, v *group) []byte {
			return appendAccs(state.AppendVarint(b, v.count), v.accs)
		},
		Decode: func(b []byte) (*group, error) {
			r := state.NewReader(b)
			v := &group{count: r.Varint()}
			accs, err := agg.readAccs(r)
			if err != nil {
				return nil, err
			}
			v.accs = accs
			return v, r.Done()
		},
	}
}

// flatAggs evaluates aggregate calls whose accumulators are all flat
// (fn.FlatAccumulator): a group's state is one byte string, the number
// of rows accumulated less those retracted (a little-endian word, as
// group's count) followed by each call's state, kept in a
// state.FlatTable, which holds no pointers. A COUNT(*) without FILTER
// keeps no state of its own: it reads the group's count, which is the
// same number. DISTINCT calls whose accumulator feeds a flat one keep
// their distinct tuples in views (distinctView), one per list of argument
// columns, which a group's state refers to by handles after the calls'
// states.
type flatAggs struct {
	specs []AggSpec
	accs  []fn.FlatAccumulator
	// offs and ends delimit the calls' states (the count for a shared
	// COUNT(*)), width is the size of a group's.
	offs, ends []int
	width      int
	// shared marks the calls that read the count; from is where the part
	// of a state that the results depend on begins: the count is part of
	// it when a call reads it.
	shared []bool
	from   int
	// merges is set when every call's accumulator merges (fn.FlatMerger).
	merges bool
	// views are the distinct views; viewOf is, per call, the index of
	// its view and its index there, both -1 for a call that is not
	// DISTINCT (or is kept boxed).
	views  []*distinctView
	viewOf [][2]int
	// holders are the accumulators that hold values (fn.FlatHolder), of
	// the calls held.
	holders []fn.FlatHolder
	held    []int
	// args are, per call, its argument columns of the chunk bound.
	args              [][]*types.Vector
	bound             *types.Chunk
	scratch, scratch2 []byte
	word              [8]byte
}

// newFlatAggs returns the flat form of a's calls, or nil if one of them
// has no flat accumulator. One accumulator per call serves every group.
// States that refer to values kept beside them need a backend that keeps
// a group's state where it is between snapshots (state.Memory: memory
// set): only then is a DISTINCT call over a flat accumulator flat (its
// distinct tuples kept in a distinctView), and a fn.FlatHolder's call.
func newFlatAggs(a *aggregator, memory bool) *flatAggs {
	f := &flatAggs{specs: a.specs, width: 8, from: 8, merges: true}
	for j, s := range a.specs {
		acc := s.New()
		view := [2]int{-1, -1}
		if inner, ok := fn.DistinctInner(acc); ok && memory {
			acc = inner
			view = f.viewFor(s.Args, j)
		}
		flat, ok := acc.(fn.FlatAccumulator)
		if !ok {
			return nil
		}
		if h, holds := flat.(fn.FlatHolder); holds {
			if !memory {
				return nil
			}
			f.holders = append(f.holders, h)
			f.held = append(f.held, j)
		}
		_, merges := acc.(fn.FlatMerger)
		f.merges = f.merges && merges && view[0] < 0
		shared := len(s.Args) == 0 && s.Filter < 0 && fn.CountsRows(acc)
		f.accs = append(f.accs, flat)
		f.viewOf = append(f.viewOf, view)
		f.shared = append(f.shared, shared)
		if shared {
			f.offs, f.ends, f.from = append(f.offs, 0), append(f.ends, 8), 0
		} else {
			f.offs = append(f.offs, f.width)
			f.width += flat.FlatSize()
			f.ends = append(f.ends, f.width)
		}
		f.args = append(f.args, make([]*types.Vector, len(s.Args)))
	}
	for _, v := range f.views {
		v.at = f.width
		f.width += 4
		v.on = make([]bool, len(v.calls))
	}
	return f
}

// viewFor adds call j, DISTINCT over the columns args, to the view of
// those columns, new or not, and returns the view's index and the call's
// index in it.
func (f *flatAggs) viewFor(args []int, j int) [2]int {
	for i, v := range f.views {
		if slices.Equal(v.args, args) {
			v.calls = append(v.calls, j)
			return [2]int{i, len(v.calls) - 1}
		}
	}
	v := newDistinctView(args)
	v.calls = []int{j}
	f.views = append(f.views, v)
	return [2]int{len(f.views) - 1, 0}
}

// drop gives back what the views and the holders hold for the group
// whose state is s, which is gone.
func (f *flatAggs) drop(s []byte) {
	for _, v := range f.views {
		v.drop(s)
	}
	for k, h := range f.holders {
		h.FlatDrop(f.state(s, f.held[k]))
	}
}

// settle lets the holders reuse what the states dropped or changed held:
// no copy of a state made before is read afterwards.
func (f *flatAggs) settle() {
	for _, h := range f.holders {
		h.FlatSettle()
	}
}

// state returns call j's part of a group's state s.
func (f *flatAggs) state(s []byte, j int) []byte { return s[f.offs[j]:f.ends[j]] }

// count returns the number of rows a group's state s holds.
func (f *flatAggs) count(s []byte) int64 { return int64(binary.LittleEndian.Uint64(s)) }

// addCount adds n to the number of rows s holds.
func (f *flatAggs) addCount(s []byte, n int64) {
	binary.LittleEndian.PutUint64(s, uint64(f.count(s)+n))
}

// update applies row i of c to the state s: it accumulates the row, or
// retracts it.
func (f *flatAggs) update(s []byte, c *types.Chunk, i int, retract bool) error {
	if c != f.bound {
		f.bound = c
		for j, spec := range f.specs {
			for k, col := range spec.Args {
				f.args[j][k] = c.Cols[col]
			}
		}
		for _, v := range f.views {
			for k, col := range v.args {
				v.cols[k] = c.Cols[col]
			}
		}
	}
	for j, spec := range f.specs {
		if f.shared[j] || f.viewOf[j][0] >= 0 {
			continue
		}
		if spec.Filter >= 0 {
			if fc := c.Cols[spec.Filter]; fc.Nulls[i] || fc.I64[i] == 0 {
				continue
			}
		}
		if !retract {
			f.accs[j].FlatAdd(f.state(s, j), f.args[j], i)
		} else if err := f.accs[j].FlatRetract(f.state(s, j), f.args[j], i); err != nil {
			return err
		}
	}
	for _, v := range f.views {
		if err := v.update(f, s, c, i, retract); err != nil {
			return err
		}
	}
	if retract {
		f.addCount(s, -1)
	} else {
		f.addCount(s, 1)
	}
	return nil
}

// unbind forgets the chunk bound, which update would otherwise keep.
func (f *flatAggs) unbind() {
	f.bound = nil
	for _, a := range f.args {
		clear(a)
	}
	for _, v := range f.views {
		clear(v.cols)
	}
}

// merge adds the rows of the state o to the state s (f.merges is set).
func (f *flatAggs) merge(s, o []byte) error {
	for j, acc := range f.accs {
		if f.shared[j] {
			continue
		}
		if err := acc.(fn.FlatMerger).FlatMerge(f.state(s, j), f.state(o, j)); err != nil {
			return err
		}
	}
	f.addCount(s, f.count(o))
	return nil
}

// appendEncoded appends the encoding of call j's part of s, as its
// boxed accumulator's MarshalState; for a DISTINCT call, after its view's
// sortKeys of s.
func (f *flatAggs) appendEncoded(b, s []byte, j int) []byte {
	if v := f.viewOf[j]; v[0] >= 0 {
		return f.views[v[0]].appendCall(b, f, s, j, v[1])
	}
	return f.accs[j].AppendFlatState(b, f.state(s, j))
}

// readEncoded sets call j's part of s from an encoding of
// appendEncoded; the part a shared COUNT(*) reads is the count, which
// must be the same number.
func (f *flatAggs) readEncoded(s, b []byte, j int) error {
	if v := f.viewOf[j]; v[0] >= 0 {
		return f.views[v[0]].readCall(s, b, f, j, v[1])
	}
	if !f.shared[j] {
		return f.accs[j].ReadFlatState(f.state(s, j), b)
	}
	n := f.word[:]
	if err := f.accs[j].ReadFlatState(n, b); err != nil {
		return err
	}
	if c := f.count(n); c != f.count(s) {
		return fmt.Errorf("aggregate %d: COUNT(*) is %d, the group's row count %d", j, c, f.count(s))
	}
	return nil
}

// codec writes a group's state as groupCodec writes a group of the same
// accumulators, so that either form restores the other's state.
func (f *flatAggs) codec() state.FlatCodec {
	return state.FlatCodec{
		Append: func(b, s []byte) []byte {
			for _, v := range f.views {
				v.sortKeys(s)
			}
			b = state.AppendVarint(b, f.count(s))
			for j := range f.accs {
				f.scratch = f.appendEncoded(f.scratch[:0], s, j)
				b = state.AppendBytes(b, f.scratch)
			}
			return b
		},
		Decode: func(s, b []byte) error {
			r := state.NewReader(b)
			binary.LittleEndian.PutUint64(s, uint64(r.Varint()))
			for j := range f.accs {
				if err := f.readEncoded(s, r.Bytes(), j); err != nil {
					return err
				}
			}
			return r.Done()
		},
	}
}

// aggGroups keeps the groups of a GroupAggregate, a
// MiniBatchGroupAggregate or a GlobalGroupAggregate, flat when every
// call's accumulator is (flatAggs), and emits their changes by the rules
// of Flink's GroupAggFunction, MiniBatchGroupAggFunction and
// MiniBatchGlobalGroupAggFunction. An operator opens a group's change
// (openFlat, openBoxed: the group's state, noting its results before),
// applies rows or merges accumulators into it, and closes it (closeFlat,
// closeBoxed): a new group emits +I; a group whose row count fell to
// zero emits -D with its previous results, if it had any, and loses its
// state; a changed result emits -U (with GenerateUpdateBefore) and +U;
// an unchanged one nothing, unless the groups expire (GroupAggFunction
// skips equal results only without state retention, which then renews
// the state downstream too). With a retention (GroupAggregateConfig's
// StateTTL) a group idle past it is dropped: its key starts afresh, and
// a retraction for it is ignored, as for a key never seen. The output rows
// are the key columns, taken from a row of the chunks emit is given,
// followed by the calls' results.
type aggGroups struct {
	agg *aggregator
	// keyCols are the key columns of the chunks keys are taken from.
	keyCols []int
	gub     bool
	types   []types.Type
	out     runtime.Emitter
	chunks  []*types.Chunk
	one     [1]*types.Chunk
	// The flat form: the calls, the groups' states, a copy of the state
	// of the group at hand before its change, the output rows not
	// emitted yet, the output chunks consumers handed back, and the rows
	// of an output chunk kept.
	flat   *flatAggs
	table  *state.FlatTable
	before []byte
	pend   flatRows
	pool   *runtime.ChunkPool
	keep   []int
	// Otherwise: the groups, and a group's row before and after a change.
	groups     *state.Table[*group]
	w          *output
	prev, next types.Row
	// ttl is the groups' retention, nil for none; emitEqual emits a
	// change whose results equal the previous ones, as GroupAggFunction
	// and MiniBatchGroupAggFunction do with a retention.
	ttl       *state.TTL
	emitEqual bool
}

// newAggGroups returns the groups of an aggregation of cfg in st, whose
// keys are the columns keyCols of the chunks it is given; flat is the
// calls' flat form, nil to keep them boxed.
func newAggGroups(cfg GroupAggregateConfig, agg *aggregator, keyCols []int, st state.Backend, flat *flatAggs) *aggGroups {
	a := &aggGroups{agg: agg, keyCols: keyCols, gub: cfg.GenerateUpdateBefore, flat: flat}
	a.types = append(keyTypes(cfg.InputTypes, cfg.Keys), agg.resultTypes()...)
	if flat != nil {
		a.table = state.NewFlatTable(st, "groups", flat.width, flat.codec())
		a.pool = runtime.NewChunkPool(runtime.PooledChunks) // about 3 MB of q17's chunks
	} else {
		a.groups = state.NewTable(st, "groups", groupCodec(agg))
		a.w = newOutput(a.types)
	}
	a.ttl = state.NewTTL(st, "groups", cfg.StateTTL, func(key string) {
		if a.table != nil {
			a.deleteFlat(bytesOf(key))
		} else {
			a.groups.DeleteString(key)
		}
	})
	a.emitEqual = a.ttl != nil
	return a
}

// has reports whether key's group has state.
func (a *aggGroups) has(key []byte) bool {
	if a.table != nil {
		_, found := a.table.Get(key)
		return found
	}
	_, found := a.groups.Get(key)
	return found
}

// deleteFlat removes key's group and what its state refers to.
func (a *aggGroups) deleteFlat(key []byte) {
	if s, ok := a.table.Get(key); ok {
		a.flat.drop(s)
		a.table.Delete(key)
	}
}

// open starts the groups' retention on the instance's clock.
func (a *aggGroups) open(ctx *runtime.Context) error {
	startTTL(ctx, a.ttl)
	return nil
}

// changed ends a change of key's group: it renews the group's time, or
// forgets it when the group is gone.
func (a *aggGroups) changed(key []byte, gone bool) {
	if gone {
		a.ttl.Forget(key)
	} else {
		a.ttl.Touch(key)
	}
}

// emit runs change, which opens and closes groups, with their output
// directed to out and their keys taken from chunks (nil: from c), and
// then emits the rows not emitted yet.
func (a *aggGroups) emit(out runtime.Emitter, chunks []*types.Chunk, c *types.Chunk, change func() error) error {
	a.out = out
	if chunks == nil {
		a.one[0] = c
		chunks = a.one[:]
	}
	a.chunks = chunks
	if a.w != nil {
		a.w.to(out)
	}
	err := change()
	if a.flat != nil {
		if e := a.flushFlat(); err == nil {
			err = e
		}
		a.flat.unbind()
		a.flat.settle()
	} else {
		a.w.flush()
	}
	a.one[0], a.chunks, a.out = nil, nil, nil
	return err
}

// openFlat returns the state of key's group and whether it had one; a
// group without one gets a fresh state if create is set, and nil
// otherwise.
func (a *aggGroups) openFlat(key []byte, create bool) (s []byte, found bool) {
	if a.ttl != nil {
		a.ttl.Expire(key)
	}
	if create {
		s, found = a.table.Upsert(key)
	} else if s, found = a.table.Get(key); !found {
		return nil, false
	}
	a.before = append(a.before[:0], s...)
	return s, found
}

// closeFlat ends the change of key's group, whose state s openFlat
// returned, taking its key columns from row src of the chunks.
func (a *aggGroups) closeFlat(key, s []byte, found bool, src rowRef) error {
	if len(a.pend.kinds)+2 > types.ChunkSize {
		if err := a.flushFlat(); err != nil {
			return err
		}
	}
	p := &a.pend
	if a.ttl != nil {
		a.changed(key, a.flat.count(s) == 0)
	}
	switch {
	case a.flat.count(s) == 0:
		if found {
			p.add(types.Delete, src, a.before)
		}
		a.flat.drop(s)
		a.table.Delete(key)
	case !found:
		p.add(types.Insert, src, s)
	case !a.emitEqual && bytes.Equal(a.before[a.flat.from:], s[a.flat.from:]): // the same accumulators give the same results
	case a.gub:
		p.pairs = append(p.pairs, len(p.kinds))
		p.add(types.UpdateBefore, src, a.before)
		p.add(types.UpdateAfter, src, s)
	default: // the previous results only to compare with
		p.pairs = append(p.pairs, len(p.kinds))
		p.add(types.UpdateAfter, src, s)
		p.add(types.UpdateBefore, src, a.before)
	}
	return nil
}

// flatRows are the output rows of the flat form not emitted yet.
type flatRows struct {
	kinds []types.RowKind
	// rows are the rows whose keys the output rows take, states their
	// groups' states, one after the other.
	rows   []rowRef
	states []byte
	// pairs are the first rows of -U/+U pairs (with GenerateUpdateBefore)
	// or of +U rows followed by their group's previous results: a pair
	// whose results are equal is dropped, and without
	// GenerateUpdateBefore the second row always is.
	pairs []int
}

func (p *flatRows) add(k types.RowKind, row rowRef, s []byte) {
	p.kinds = append(p.kinds, k)
	p.rows = append(p.rows, row)
	p.states = append(p.states, s...)
}

// flushFlat emits the pending rows as one chunk built column by column:
// the key columns gathered from the chunks, each call's results from the
// states. The chunk is leased from the aggregation's pool, so that one
// its consumers are done with is filled again.
func (a *aggGroups) flushFlat() error {
	p := &a.pend
	n := len(p.kinds)
	if n == 0 {
		return nil
	}
	l := a.pool.Get()
	oc := l.Empty(a.types, n)
	oc.Ops = append(oc.Ops, p.kinds...)
	nk := len(a.keyCols)
	for j, col := range a.keyCols {
		appendRows(oc.Cols[j], a.chunks, col, p.rows)
	}
	f := a.flat
	for j, acc := range f.accs {
		if err := acc.AppendFlatResults(oc.Cols[nk+j], p.states[f.offs[j]:], f.width, n); err != nil {
			return err
		}
	}
	keep := a.keep[:0] // the rows kept, when some are dropped
	dropped := false
	next := 0 // the first row not decided yet
	for _, first := range p.pairs {
		drop := !a.emitEqual && resultsEqual(oc.Cols[nk:], first, first+1)
		if !drop && a.gub {
			continue
		}
		dropped = true
		for r := next; r < first; r++ {
			keep = append(keep, r)
		}
		if !drop {
			keep = append(keep, first)
		}
		next = first + 2
	}
	if dropped {
		for r := next; r < n; r++ {
			keep = append(keep, r)
		}
		keepRows(oc, keep)
	}
	a.keep = keep[:0]
	p.kinds, p.rows, p.states, p.pairs = p.kinds[:0], p.rows[:0], p.states[:0], p.pairs[:0]
	if oc.Len() > 0 {
		runtime.EmitLeased(a.out, l)
	} else {
		l.Release()
	}
	return nil
}

// openBoxed returns key's group and whether it had one, as openFlat, and
// notes its results before the change.
func (a *aggGroups) openBoxed(key []byte, create bool, src rowRef) (*group, bool, error) {
	if a.ttl != nil {
		a.ttl.Expire(key)
	}
	grp, found := a.groups.Get(key)
	if !found {
		if !create {
			return nil, false, nil
		}
		grp = &group{accs: a.agg.create()}
	}
	c, i := a.chunks[src.chunk], int(src.row)
	a.prev = a.prev[:0]
	for _, k := range a.keyCols {
		a.prev = append(a.prev, c.Cols[k].Get(i))
	}
	a.next = append(a.next[:0], a.prev...)
	var err error
	if found {
		a.prev, err = a.agg.appendResults(a.prev, grp.accs)
	}
	return grp, found, err
}

// closeBoxed ends the change of key's group grp, which openBoxed
// returned.
func (a *aggGroups) closeBoxed(key []byte, grp *group, found bool) error {
	if a.ttl != nil {
		a.changed(key, grp.count == 0)
	}
	if grp.count == 0 {
		if found {
			a.w.add(types.Delete, a.prev)
		}
		a.groups.Delete(key)
		return nil
	}
	if !found {
		a.groups.Put(key, grp) // existing groups are changed in place
	}
	var err error
	if a.next, err = a.agg.appendResults(a.next, grp.accs); err != nil {
		return err
	}
	nk := len(a.keyCols)
	switch {
	case !found:
		a.w.add(types.Insert, a.next)
	case !a.emitEqual && rowsEqual(a.prev[nk:], a.next[nk:]):
	default:
		if a.gub {
			a.w.add(types.UpdateBefore, a.prev)
		}
		a.w.add(types.UpdateAfter, a.next)
	}
	return nil
}

// rowRef is a row of one of a list of chunks: its chunk, its row there,
// and, in a rowBuffer, the next row of its key (-1 for none).
type rowRef struct {
	chunk, row, next int32
}

// gatherRows returns column col of the rows refs of chunks, of type t.
func gatherRows(chunks []*types.Chunk, col int, t types.Type, refs []rowRef) *types.Vector {
	out := &types.Vector{Type: t}
	appendRows(out, chunks, col, refs)
	return out
}

// appendRows appends column col of the rows refs of chunks to dst, which
// stores its values as that column does.
func appendRows(dst *types.Vector, chunks []*types.Chunk, col int, refs []rowRef) {
	dst.Nulls = appendCol(dst.Nulls, chunks, col, refs, func(v *types.Vector) []bool { return v.Nulls })
	switch dst.Type.Physical() {
	case types.PhysFloat:
		dst.F64 = appendCol(dst.F64, chunks, col, refs, func(v *types.Vector) []float64 { return v.F64 })
	case types.PhysString:
		dst.Str = appendCol(dst.Str, chunks, col, refs, func(v *types.Vector) []string { return v.Str })
	default:
		dst.I64 = appendCol(dst.I64, chunks, col, refs, func(v *types.Vector) []int64 { return v.I64 })
	}
}

// appendCol appends to dst the elements of the rows refs of the slices
// that of returns of column col of chunks.
func appendCol[T any](dst []T, chunks []*types.Chunk, col int, refs []rowRef, of func(*types.Vector) []T) []T {
	m := len(dst)
	dst = slices.Grow(dst, len(refs))[:m+len(refs)]
	out := dst[m:]
	if len(chunks) == 1 {
		src := of(chunks[0].Cols[col])
		for j, r := range refs {
			out[j] = src[r.row]
		}
		return dst
	}
	for j, r := range refs {
		out[j] = of(chunks[r.chunk].Cols[col])[r.row]
	}
	return dst
}

// keepRows keeps only the rows keep of c, in place; keep is ascending.
func keepRows(c *types.Chunk, keep []int) {
	c.Ops = keepOf(c.Ops, keep)
	for _, v := range c.Cols {
		v.Nulls = keepOf(v.Nulls, keep)
		switch v.Type.Physical() {
		case types.PhysFloat:
			v.F64 = keepOf(v.F64, keep)
		case types.PhysString:
			v.Str = keepOf(v.Str, keep)
		default:
			v.I64 = keepOf(v.I64, keep)
		}
	}
}

// keepOf moves the elements keep (ascending) of s to its front and
// returns them.
func keepOf[T any](s []T, keep []int) []T {
	for j, r := range keep {
		s[j] = s[r]
	}
	return s[:len(keep)]
}

// resultsEqual reports whether rows a and b of cols hold the same values.
func resultsEqual(cols []*types.Vector, a, b int) bool {
	for _, v := range cols {
		// valueEqual on the vectors' slots, without boxing them.
		if v.Nulls[a] || v.Nulls[b] {
			if v.Nulls[a] != v.Nulls[b] {
				return false
			}
			continue
		}
		switch v.Type.Physical() {
		case types.PhysFloat:
			if x, y := v.F64[a], v.F64[b]; x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
				return false
			}
		case types.PhysString:
			if v.Str[a] != v.Str[b] {
				return false
			}
		default:
			if v.I64[a] != v.I64[b] {
				return false
			}
		}
	}
	return true
}

// bytesOf returns the bytes of s, which must not be changed.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
