package ops

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"slices"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// distinctView holds, for the flat form of an aggregation (flatAggs), the
// distinct argument tuples of its DISTINCT calls over one list of
// argument columns, one view shared by all those calls whatever their
// FILTER clauses, as Flink's DistinctInfo gathers the distinct calls on
// the same fields into one MapView (DistinctAggCodeGen) with a count per
// call. Each group has a set (valueSet) of the tuples' keys
// (fn.AppendDistinctKey), each with one count per call: the rows holding
// the tuple that the call's filter let through, less those retracted. A
// call feeds its accumulator a tuple when the tuple's count goes from 0
// to 1 and retracts it when it goes back to 0, as the DISTINCT
// accumulator (fn's distinctAcc) does; a retraction of a tuple the call
// holds no row of changes nothing. A row that no call's filter lets
// through does not look the set up (Flink's DistinctAggCodeGen skips the
// view when every call over it has a filter and none holds).
//
// A group's state holds its set's handle (4 bytes, 0 until the group's
// first tuple); the sets live in the view, their keys in one byte string
// and their counts in one slice of integers each: no pointer and no
// allocation per value. A snapshot writes each call's part of a group as
// the DISTINCT accumulator's MarshalState writes it, so that the boxed and
// the flat form restore each other's state.
type distinctView struct {
	// args are the argument columns, calls the calls over them (indexes
	// of flatAggs' calls), in order; at is where a group's state holds
	// its set's handle.
	args  []int
	calls []int
	at    int
	// sets are the sets by handle less one; free the handles of sets
	// given back.
	sets []valueSet
	free []uint32
	seed maphash.Seed
	// cols are the argument columns of the chunk bound; on, per call,
	// whether its filter lets the row at hand through; key the key of
	// the row at hand; order and sel the entries of the set at hand by
	// key, and those a call holds (snapshots).
	cols       []*types.Vector
	on         []bool
	key        []byte
	order, sel []int32
}

func newDistinctView(args []int) *distinctView {
	return &distinctView{args: args, seed: maphash.MakeSeed(), cols: make([]*types.Vector, len(args))}
}

// handle returns the handle of the set of the group whose state is s.
func (v *distinctView) handle(s []byte) uint32 { return binary.LittleEndian.Uint32(s[v.at:]) }

// set returns the set of the group whose state is s, creating one if
// create is set; nil if it has none.
func (v *distinctView) set(s []byte, create bool) *valueSet {
	if h := v.handle(s); h != 0 {
		return &v.sets[h-1]
	}
	if !create {
		return nil
	}
	var h uint32
	if n := len(v.free); n > 0 {
		h, v.free = v.free[n-1], v.free[:n-1]
	} else {
		if len(v.sets) == math.MaxUint32 {
			panic("ops: more than 2^32-1 groups with distinct values")
		}
		v.sets = append(v.sets, valueSet{})
		h = uint32(len(v.sets))
	}
	binary.LittleEndian.PutUint32(s[v.at:], h)
	v.sets[h-1].init(len(v.calls))
	return &v.sets[h-1]
}

// drop gives back the set of the group whose state is s, which is gone.
func (v *distinctView) drop(s []byte) {
	if h := v.handle(s); h != 0 {
		v.sets[h-1] = valueSet{}
		v.free = append(v.free, h)
		binary.LittleEndian.PutUint32(s[v.at:], 0)
	}
}

// update applies row i of the bound chunk to the group whose state is s:
// it accumulates the row, or retracts it.
func (v *distinctView) update(f *flatAggs, s []byte, c *types.Chunk, i int, retract bool) error {
	through := false
	for k, j := range v.calls {
		on := true
		if fc := f.specs[j].Filter; fc >= 0 {
			col := c.Cols[fc]
			on = !col.Nulls[i] && col.I64[i] != 0
		}
		v.on[k] = on
		through = through || on
	}
	if !through {
		return nil
	}
	set := v.set(s, !retract)
	if set == nil {
		return nil // no tuple to retract
	}
	v.key = fn.AppendDistinctKey(v.key[:0], v.cols, i)
	tag := maphash.Bytes(v.seed, v.key) >> 32
	slot, found := set.find(v.key, tag)
	var e int
	switch {
	case found:
		e = set.entryAt(slot)
	case retract:
		return nil // retracting a tuple never added: nothing to undo
	default:
		var err error
		if e, err = set.insert(v.key, tag, slot); err != nil {
			return err
		}
	}
	counts := set.countsOf(e)
	for k, j := range v.calls {
		if !v.on[k] {
			continue
		}
		if !retract {
			counts[k]++
			if counts[k] == 1 {
				f.accs[j].FlatAdd(f.state(s, j), v.cols, i)
			}
			continue
		}
		if counts[k] == 0 {
			continue
		}
		counts[k]--
		if counts[k] == 0 {
			if err := f.accs[j].FlatRetract(f.state(s, j), v.cols, i); err != nil {
				return err
			}
		}
	}
	if retract && !slices.ContainsFunc(counts, func(n int64) bool { return n != 0 }) {
		set.remove(slot, v.seed)
	}
	return nil
}

// sortKeys orders the entries of the set of the group whose state is s
// by key, for appendCall.
func (v *distinctView) sortKeys(s []byte) {
	v.order = v.order[:0]
	set := v.set(s, false)
	if set == nil {
		return
	}
	for e := range set.ents {
		v.order = append(v.order, int32(e))
	}
	slices.SortFunc(v.order, func(a, b int32) int { return bytes.Compare(set.keyOf(int(a)), set.keyOf(int(b))) })
}

// appendCall appends the encoding of call j (the k-th of the view) of the
// group whose state is s, sorted by sortKeys: its accumulator's state and
// the tuples it holds, as the DISTINCT accumulator's MarshalState.
func (v *distinctView) appendCall(b []byte, f *flatAggs, s []byte, j, k int) []byte {
	v.sel = v.sel[:0]
	set := v.set(s, false)
	for _, e := range v.order {
		if set.countsOf(int(e))[k] > 0 {
			v.sel = append(v.sel, e)
		}
	}
	f.scratch2 = f.accs[j].AppendFlatState(f.scratch2[:0], f.state(s, j))
	return fn.AppendDistinctState(b, f.scratch2, len(v.sel), func(i int) ([]byte, int64) {
		e := int(v.sel[i])
		return set.keyOf(e), set.countsOf(e)[k]
	})
}

// readCall sets call j (the k-th of the view) of the group whose state is
// s from an encoding of appendCall.
func (v *distinctView) readCall(s, b []byte, f *flatAggs, j, k int) error {
	inner, err := fn.ReadDistinctState(b, func(key []byte, n int64) error {
		set := v.set(s, true)
		tag := maphash.Bytes(v.seed, key) >> 32
		slot, found := set.find(key, tag)
		e := set.entryAt(slot)
		if !found {
			var err error
			if e, err = set.insert(key, tag, slot); err != nil {
				return err
			}
		}
		counts := set.countsOf(e)
		if counts[k] != 0 {
			return fmt.Errorf("aggregate %d: a distinct value held twice", j)
		}
		counts[k] = n
		return nil
	})
	if err != nil {
		return err
	}
	return f.accs[j].ReadFlatState(f.state(s, j), inner)
}

// valueSet is the distinct tuples of one group: their keys laid one
// after the other in keys, their counts width per entry in counts, found
// through an open-addressing index probed linearly from the key's hash:
// a slot is 0 when empty, and otherwise holds the top 32 bits of the
// key's hash above the entry's number plus one. Entries are dense: a
// removed entry's place is taken by the last one.
type valueSet struct {
	width  int
	slots  []uint64
	ents   []keyRef
	counts []int64
	keys   []byte
	// garbage is the bytes of keys of removed entries.
	garbage int
}

// keyRef is where an entry's key lies in keys.
type keyRef struct{ off, n uint32 }

// errSetTooLarge refuses a group whose distinct values take more bytes
// than a set addresses.
var errSetTooLarge = errors.New("the distinct values of a group take more than 4 GiB")

func (s *valueSet) init(width int) { *s = valueSet{width: width, slots: make([]uint64, 8)} }

func (s *valueSet) keyOf(e int) []byte {
	r := s.ents[e]
	return s.keys[r.off : r.off+r.n]
}

func (s *valueSet) countsOf(e int) []int64 { return s.counts[e*s.width : (e+1)*s.width] }

// entryAt returns the entry of a slot that holds one.
func (s *valueSet) entryAt(slot int) int { return int(uint32(s.slots[slot])) - 1 }

// find returns the slot holding key, of hash tag, and true; or the empty
// slot where to insert it and false.
func (s *valueSet) find(key []byte, tag uint64) (int, bool) {
	mask := uint64(len(s.slots) - 1)
	for i := tag & mask; ; i = (i + 1) & mask {
		x := s.slots[i]
		if x == 0 {
			return int(i), false
		}
		if x>>32 == tag && bytes.Equal(s.keyOf(int(uint32(x))-1), key) {
			return int(i), true
		}
	}
}

// insert adds key, of hash tag, with zero counts, and returns its
// entry; slot is where find said to insert it.
func (s *valueSet) insert(key []byte, tag uint64, slot int) (int, error) {
	if uint64(len(s.keys))+uint64(len(key)) > math.MaxUint32 {
		s.compact()
		if uint64(len(s.keys))+uint64(len(key)) > math.MaxUint32 {
			return 0, errSetTooLarge
		}
	}
	e := len(s.ents)
	s.ents = append(s.ents, keyRef{off: uint32(len(s.keys)), n: uint32(len(key))})
	s.keys = append(s.keys, key...)
	s.counts = append(s.counts, make([]int64, s.width)...)
	if (e+1)*8 > len(s.slots)*7 {
		s.grow()
		slot, _ = s.find(key, tag)
	}
	s.slots[slot] = tag<<32 | uint64(e+1)
	return e, nil
}

// grow doubles the index.
func (s *valueSet) grow() {
	old := s.slots
	s.slots = make([]uint64, 2*len(old))
	mask := uint64(len(s.slots) - 1)
	for _, x := range old {
		if x == 0 {
			continue
		}
		i := (x >> 32) & mask
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = x
	}
}

// remove removes the entry of slot: the slots after it move back where
// their probe sequence reaches them, and the last entry takes its place.
func (s *valueSet) remove(slot int, seed maphash.Seed) {
	e := s.entryAt(slot)
	mask := len(s.slots) - 1
	i := slot
	for j := (i + 1) & mask; s.slots[j] != 0; j = (j + 1) & mask {
		home := int(s.slots[j]>>32) & mask
		// The entry at j stays unless i lies cyclically in [home, j).
		if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
			s.slots[i] = s.slots[j]
			i = j
		}
	}
	s.slots[i] = 0
	s.garbage += int(s.ents[e].n)
	last := len(s.ents) - 1
	if e != last {
		key := s.keyOf(last)
		moved, _ := s.find(key, maphash.Bytes(seed, key)>>32)
		s.slots[moved] = s.slots[moved]&^math.MaxUint32 | uint64(e+1)
		s.ents[e] = s.ents[last]
		copy(s.countsOf(e), s.countsOf(last))
	}
	s.ents = s.ents[:last]
	s.counts = s.counts[:last*s.width]
	if s.garbage > 4096 && s.garbage*2 > len(s.keys) {
		s.compact()
	}
}

// compact lays the keys of the entries down again without those of
// removed ones.
func (s *valueSet) compact() {
	keys := make([]byte, 0, len(s.keys)-s.garbage)
	for e, r := range s.ents {
		s.ents[e].off = uint32(len(keys))
		keys = append(keys, s.keys[r.off:r.off+r.n]...)
	}
	s.keys, s.garbage = keys, 0
}

// inMemory reports whether st is the memory backend, whose flat tables
// keep a group's state, and so the handles of its distinct views, where
// they are between snapshots.
func inMemory(st state.Backend) bool {
	_, ok := st.(*state.Memory)
	return ok
}
