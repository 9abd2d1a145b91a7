package ops

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
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
// first tuple); the sets live in the view, each a slice of integers
// holding its keys and counts (valueSet): no pointer and no allocation per
// value. A snapshot writes each call's part of a group as
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
	hash keyHash
	// cols are the argument columns of the chunk bound; on, per call,
	// whether its filter lets the row at hand through; key the key of
	// the row at hand; order and sel the entries of the set at hand by
	// key, and those a call holds (snapshots).
	cols       []*types.Vector
	on         []bool
	key        []byte
	at1        setKey
	order, sel []int32
}

func newDistinctView(args []int) *distinctView {
	return &distinctView{args: args, hash: newKeyHash(), cols: make([]*types.Vector, len(args))}
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
	k := &v.at1
	v.hash.of(k, v.key)
	slot, found := set.find(k)
	var e int
	switch {
	case found:
		e = set.entryAt(slot)
	case retract:
		return nil // retracting a tuple never added: nothing to undo
	default:
		var err error
		if e, err = set.insert(k, slot); err != nil {
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
		set.remove(slot, &v.hash)
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
	for e := range set.len() {
		v.order = append(v.order, int32(e))
	}
	var x, y [16]byte
	slices.SortFunc(v.order, func(a, b int32) int { return bytes.Compare(set.keyOf(int(a), &x), set.keyOf(int(b), &y)) })
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
	var buf [16]byte
	return fn.AppendDistinctState(b, f.scratch2, len(v.sel), func(i int) ([]byte, int64) {
		e := int(v.sel[i])
		return set.keyOf(e, &buf), set.countsOf(e)[k]
	})
}

// readCall sets call j (the k-th of the view) of the group whose state is
// s from an encoding of appendCall.
func (v *distinctView) readCall(s, b []byte, f *flatAggs, j, k int) error {
	inner, err := fn.ReadDistinctState(b, func(key []byte, n int64) error {
		set := v.set(s, true)
		var at setKey
		v.hash.of(&at, key)
		slot, found := set.find(&at)
		e := set.entryAt(slot)
		if !found {
			var err error
			if e, err = set.insert(&at, slot); err != nil {
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

// valueSet is the distinct tuples of one group: its entries one after the
// other in words, each two words of key and then a count per call, found
// through an open-addressing index probed linearly from the key's hash: a
// slot is 0 when empty, and otherwise holds the top 32 bits of the key's
// hash above the entry's number plus one. A key of up to 15 bytes (a
// BIGINT's, a short string's) lies in its entry's two words, its length
// in the top byte, with the top bit set; a longer one lies in keys, its
// entry's words its offset there and its length. Entries are dense: a
// removed entry's place is taken by the last one.
type valueSet struct {
	width int
	slots []uint64
	words []int64
	keys  []byte
	// garbage is the bytes of keys of removed entries.
	garbage int
}

// inlineMax is the length of the longest key kept in its entry's words.
const inlineMax = 15

// setKey is a key being looked up: its bytes, its two words as an entry
// holds them (inline, when short enough) and its hash's top 32 bits.
type setKey struct {
	b      []byte
	w0, w1 int64
	inline bool
	tag    uint64
}

// keyHash hashes the keys of a view's sets, with seeds of this process.
type keyHash struct {
	seed   maphash.Seed
	k0, k1 uint64
}

func newKeyHash() keyHash {
	seed := maphash.MakeSeed()
	return keyHash{seed: seed, k0: maphash.Comparable(seed, 0), k1: maphash.Comparable(seed, 1)}
}

// of sets k to key.
func (h *keyHash) of(k *setKey, key []byte) {
	k.b, k.inline = key, len(key) <= inlineMax
	if !k.inline {
		k.w0, k.w1 = 0, 0
		k.tag = maphash.Bytes(h.seed, key) >> 32
		return
	}
	var b [16]byte
	copy(b[:], key)
	b[15] = 0x80 | byte(len(key))
	k.w0, k.w1 = int64(binary.LittleEndian.Uint64(b[:8])), int64(binary.LittleEndian.Uint64(b[8:]))
	// Multiplying the words, each offset by a seed, mixes every bit of
	// both into the product's middle bits.
	hi, lo := bits.Mul64(uint64(k.w0)^h.k0, uint64(k.w1)^h.k1)
	k.tag = (hi ^ lo) >> 32
}

func (s *valueSet) init(width int) {
	*s = valueSet{width: 2 + width, slots: make([]uint64, 8)}
}

func (s *valueSet) len() int { return len(s.words) / s.width }

func (s *valueSet) entry(e int) []int64 { return s.words[e*s.width : (e+1)*s.width] }

// keyOf returns the key of entry e, in buf if it lies in the entry.
func (s *valueSet) keyOf(e int, buf *[16]byte) []byte {
	w := s.entry(e)
	if w[1] >= 0 {
		return s.keys[w[0] : w[0]+w[1]]
	}
	binary.LittleEndian.PutUint64(buf[:8], uint64(w[0]))
	binary.LittleEndian.PutUint64(buf[8:], uint64(w[1]))
	return buf[:buf[15]&0x7f]
}

// countsOf returns the counts of entry e, one per call.
func (s *valueSet) countsOf(e int) []int64 { return s.entry(e)[2:] }

// entryAt returns the entry of a slot that holds one.
func (s *valueSet) entryAt(slot int) int { return int(uint32(s.slots[slot])) - 1 }

// holds reports whether entry e's key is k.
func (s *valueSet) holds(e int, k *setKey) bool {
	w := s.entry(e)
	if k.inline {
		return w[0] == k.w0 && w[1] == k.w1
	}
	return w[1] >= 0 && bytes.Equal(s.keys[w[0]:w[0]+w[1]], k.b)
}

// find returns the slot holding k and true, or the empty slot where to
// insert it and false.
func (s *valueSet) find(k *setKey) (int, bool) {
	mask := uint64(len(s.slots) - 1)
	for i := k.tag & mask; ; i = (i + 1) & mask {
		x := s.slots[i]
		if x == 0 {
			return int(i), false
		}
		if x>>32 == k.tag && s.holds(int(uint32(x))-1, k) {
			return int(i), true
		}
	}
}

// insert adds k with zero counts, and returns its entry; slot is where
// find said to insert it.
func (s *valueSet) insert(k *setKey, slot int) (int, error) {
	w0, w1 := k.w0, k.w1
	if !k.inline {
		if uint64(len(s.keys))+uint64(len(k.b)) > math.MaxUint32 {
			s.compact()
			if uint64(len(s.keys))+uint64(len(k.b)) > math.MaxUint32 {
				return 0, errSetTooLarge
			}
		}
		w0, w1 = int64(len(s.keys)), int64(len(k.b))
		s.keys = append(s.keys, k.b...)
	}
	e := s.len()
	s.words = append(s.words, w0, w1)
	s.words = append(s.words, make([]int64, s.width-2)...)
	if (e+1)*8 > len(s.slots)*7 {
		s.grow()
		slot, _ = s.find(k)
	}
	s.slots[slot] = k.tag<<32 | uint64(e+1)
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
func (s *valueSet) remove(slot int, h *keyHash) {
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
	if w := s.entry(e); w[1] >= 0 {
		s.garbage += int(w[1])
	}
	last := s.len() - 1
	if e != last {
		var buf [16]byte
		var k setKey
		h.of(&k, s.keyOf(last, &buf))
		moved, _ := s.find(&k)
		s.slots[moved] = s.slots[moved]&^math.MaxUint32 | uint64(e+1)
		copy(s.entry(e), s.entry(last))
	}
	s.words = s.words[:last*s.width]
	if s.garbage > 4096 && s.garbage*2 > len(s.keys) {
		s.compact()
	}
}

// compact lays the long keys of the entries down again without those of
// removed ones.
func (s *valueSet) compact() {
	keys := make([]byte, 0, len(s.keys)-s.garbage)
	for e := range s.len() {
		if w := s.entry(e); w[1] >= 0 {
			off := len(keys)
			keys = append(keys, s.keys[w[0]:w[0]+w[1]]...)
			w[0] = int64(off)
		}
	}
	s.keys, s.garbage = keys, 0
}

// errSetTooLarge refuses a group whose distinct values take more bytes
// than a set addresses.
var errSetTooLarge = errors.New("the distinct values of a group take more than 4 GiB")

// inMemory reports whether st is the memory backend, whose flat tables
// keep a group's state, and so the handles of its distinct views, where
// they are between snapshots.
func inMemory(st state.Backend) bool {
	_, ok := st.(*state.Memory)
	return ok
}
