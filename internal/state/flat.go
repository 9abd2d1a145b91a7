package state

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
)

// FlatCodec writes the values of a FlatTable to snapshots and reads them
// back. The encoding is the table's own; a FlatTable and a Table whose
// codec writes the same bytes restore each other's snapshots.
type FlatCodec struct {
	// Append appends the encoding of the value v.
	Append func(b, v []byte) []byte
	// Decode sets v, zeroed and of the table's width, from an encoding
	// made by Append; it must consume all of b.
	Decode func(v, b []byte) error
}

// FlatTable is a keyed table (as NewTable's) whose values are byte
// strings of one fixed width, for state that needs no pointers, such as
// the accumulators of a group aggregation.
//
// The memory backend keeps its keys and values in slabs of bytes found
// through an open-addressing hash index of integers: the table holds no
// pointer per entry, so the garbage collector never scans it, and an
// entry costs its key, its value and about 12 bytes. Other backends keep
// it as a Table of byte strings.
//
// A value returned by Get or Upsert is the value stored: the caller
// changes it in place. As with Table, it stays the stored value until the
// backend's Release; in the memory backend, Release may then move the
// values (compacting slabs that deletions left mostly empty).
type FlatTable struct {
	width int
	mem   *flatMap
	kept  *Table[[]byte]
}

// NewFlatTable registers a keyed FlatTable named name in b, of values of
// width bytes written to snapshots by c.
func NewFlatTable(b Backend, name string, width int, c FlatCodec) *FlatTable {
	t := &FlatTable{width: width}
	if m, ok := b.(*Memory); ok {
		t.mem = newFlatMap(width, c)
		m.register(name, t.mem)
		m.flat = append(m.flat, t.mem)
		return t
	}
	t.kept = NewTable(b, name, Codec[[]byte]{
		Append: c.Append,
		Decode: func(enc []byte) ([]byte, error) {
			v := make([]byte, width)
			return v, c.Decode(v, enc)
		},
	})
	return t
}

// Get returns the value stored under key.
func (t *FlatTable) Get(key []byte) ([]byte, bool) {
	if t.mem != nil {
		return t.mem.get(key)
	}
	return t.kept.Get(key)
}

// Upsert returns the value stored under key, first storing one of zero
// bytes if there is none; found reports whether there was one.
func (t *FlatTable) Upsert(key []byte) (v []byte, found bool) {
	if t.mem != nil {
		return t.mem.upsert(key)
	}
	if v, ok := t.kept.Get(key); ok {
		return v, true
	}
	v = make([]byte, t.width)
	t.kept.Put(key, v)
	return v, false
}

// Delete removes key.
func (t *FlatTable) Delete(key []byte) {
	if t.mem != nil {
		t.mem.delete(key)
		return
	}
	t.kept.Delete(key)
}

// Len returns the number of keys.
func (t *FlatTable) Len() int {
	if t.mem != nil {
		return t.mem.len()
	}
	return t.kept.Len()
}

// The memory backend's flat table.
//
// An entry is its key's length (a uvarint), its key and its value, laid
// down in a slab (a page) and never moved until a compaction. An entry is
// found by its reference, the page's index times 2^16 plus the entry's
// offset in the page: pages are at most 64 KiB, but for one holding a
// single larger entry, at offset 0. The index is a power-of-two array of
// slots probed linearly from the key's hash: 0 is empty, tombstone a
// deleted entry's slot, and any other slot holds the top 24 bits of the
// key's hash above its entry's reference plus one.
const (
	flatRefBits   = 40
	flatRefMask   = 1<<flatRefBits - 1
	flatTombstone = 1 << flatRefBits
	flatPageBits  = 16
	flatPageMax   = 1 << flatPageBits
	flatPageMin   = 256
	flatMaxPages  = 1 << (flatRefBits - flatPageBits)
)

type flatMap struct {
	width int
	codec FlatCodec
	// seed seeds the hash of the index (hash): the index lives in this
	// process only, so it need not be KeyHash, which must stay the same
	// everywhere.
	seed  maphash.Seed
	slots []uint64
	// live counts the entries, dead the tombstones among the slots.
	live, dead int
	pages      [][]byte
	// used is the bytes of every entry laid down in the pages, garbage
	// those of the deleted ones.
	used, garbage int
	scratch       []byte
}

func newFlatMap(width int, c FlatCodec) *flatMap {
	return &flatMap{width: width, codec: c, seed: maphash.MakeSeed()}
}

// hash is the hash of key in the index: the runtime's hash of memory
// (AES-based where the processor has it), cheaper than KeyHash's xxHash64
// for short keys.
func (f *flatMap) hash(key []byte) uint64 { return maphash.Bytes(f.seed, key) }

// entry returns the key and the value of the entry at ref.
func (f *flatMap) entry(ref uint64) (key, val []byte) {
	p := f.pages[ref>>flatPageBits][ref&(flatPageMax-1):]
	n, w := uint64(p[0]), 1
	if n >= 0x80 {
		n, w = binary.Uvarint(p)
	}
	end := w + int(n)
	return p[w:end:end], p[end : end+f.width : end+f.width]
}

// find returns the slot holding key, whose hash is h, and true; or the
// slot where to insert it and false. The index must not be empty.
func (f *flatMap) find(key []byte, h uint64) (int, bool) {
	mask := uint64(len(f.slots) - 1)
	tag := h &^ flatRefMask
	free := -1
	for i := h & mask; ; i = (i + 1) & mask {
		s := f.slots[i]
		switch {
		case s == 0:
			if free < 0 {
				free = int(i)
			}
			return free, false
		case s == flatTombstone:
			if free < 0 {
				free = int(i)
			}
		case s&^flatRefMask == tag:
			if k, _ := f.entry(s&flatRefMask - 1); bytes.Equal(k, key) {
				return int(i), true
			}
		}
	}
}

func (f *flatMap) get(key []byte) ([]byte, bool) {
	if f.live == 0 {
		return nil, false
	}
	i, ok := f.find(key, f.hash(key))
	if !ok {
		return nil, false
	}
	_, v := f.entry(f.slots[i]&flatRefMask - 1)
	return v, true
}

func (f *flatMap) upsert(key []byte) ([]byte, bool) {
	h := f.hash(key)
	if f.live > 0 {
		if i, ok := f.find(key, h); ok {
			_, v := f.entry(f.slots[i]&flatRefMask - 1)
			return v, true
		}
	}
	return f.insert(key, h), false
}

// insert adds key, which the table does not hold, with a value of zero
// bytes, and returns the value.
func (f *flatMap) insert(key []byte, h uint64) []byte {
	if (f.live+f.dead+1)*8 > len(f.slots)*7 {
		f.rehash()
	}
	i, _ := f.find(key, h)
	if f.slots[i] == flatTombstone {
		f.dead--
	}
	ref := f.lay(key)
	f.slots[i] = h&^flatRefMask | (ref + 1)
	f.live++
	_, v := f.entry(ref)
	return v
}

// rehash rebuilds the index without tombstones, at most half full.
func (f *flatMap) rehash() {
	size := 16
	for size < (f.live+1)*2 {
		size *= 2
	}
	old := f.slots
	f.slots, f.dead = make([]uint64, size), 0
	mask := uint64(size - 1)
	for _, s := range old {
		if s == 0 || s == flatTombstone {
			continue
		}
		k, _ := f.entry(s&flatRefMask - 1)
		i := f.hash(k) & mask
		for f.slots[i] != 0 {
			i = (i + 1) & mask
		}
		f.slots[i] = s
	}
}

// lay lays down an entry of key and a zero value in the pages and returns
// its reference.
func (f *flatMap) lay(key []byte) uint64 {
	size := uvarintLen(len(key)) + len(key) + f.width
	last := len(f.pages) - 1
	if last < 0 || len(f.pages[last])+size > cap(f.pages[last]) {
		c := flatPageMin
		if last >= 0 {
			c = min(2*cap(f.pages[last]), flatPageMax)
		}
		if len(f.pages) == flatMaxPages {
			panic(fmt.Sprintf("state: a flat table of more than %d pages", flatMaxPages))
		}
		f.pages = append(f.pages, make([]byte, 0, max(c, size)))
		last++
	}
	p := f.pages[last]
	off := len(p)
	p = binary.AppendUvarint(p, uint64(len(key)))
	p = append(p, key...)
	f.pages[last] = p[:len(p)+f.width] // a new page's bytes are zero
	f.used += size
	return uint64(last)<<flatPageBits | uint64(off)
}

func (f *flatMap) delete(key []byte) {
	if f.live == 0 {
		return
	}
	i, ok := f.find(key, f.hash(key))
	if !ok {
		return
	}
	k, v := f.entry(f.slots[i]&flatRefMask - 1)
	f.garbage += uvarintLen(len(k)) + len(k) + len(v)
	f.slots[i] = flatTombstone
	f.live--
	f.dead++
}

func uvarintLen(n int) int {
	l := 1
	for ; n >= 0x80; n >>= 7 {
		l++
	}
	return l
}

// compactIfSparse copies the live entries into new pages when deleted
// ones take more than half of the pages (and at least a page).
func (f *flatMap) compactIfSparse() {
	if f.garbage < flatPageMax || f.garbage*2 < f.used {
		return
	}
	c := newFlatMap(f.width, f.codec)
	f.each(func(k, v []byte) { copy(c.insert(k, c.hash(k)), v) })
	*f = *c
}

// each calls fn with every entry, in no particular order.
func (f *flatMap) each(fn func(k, v []byte)) {
	for _, s := range f.slots {
		if s != 0 && s != flatTombstone {
			fn(f.entry(s&flatRefMask - 1))
		}
	}
}

func (f *flatMap) len() int       { return f.live }
func (f *flatMap) operator() bool { return false }

// restored does nothing: a FlatTable has no restore hook.
func (f *flatMap) restored() {}

func (f *flatMap) appendSorted(b []byte) []byte { return f.bucket(1).appendGroup(b, 0) }

func (f *flatMap) bucket(maxParallelism int) grouped {
	refs := make([]uint64, 0, f.live)
	for _, s := range f.slots {
		if s != 0 && s != flatTombstone {
			refs = append(refs, s&flatRefMask-1)
		}
	}
	key := func(i int) []byte { k, _ := f.entry(refs[i]); return k }
	return &flatGrouped{f: f, refs: refs, byGroup: orderByGroup(len(refs), maxParallelism, key)}
}

// flatGrouped is a flatMap's entries ordered by key group, then key.
type flatGrouped struct {
	f    *flatMap
	refs []uint64
	byGroup
}

func (g *flatGrouped) appendGroup(b []byte, n int) []byte {
	es := g.group(n)
	b = binary.AppendUvarint(b, uint64(len(es)))
	for _, i := range es {
		k, v := g.f.entry(g.refs[i])
		b = appendBytes(b, k)
		g.f.scratch = g.f.codec.Append(g.f.scratch[:0], v)
		b = appendBytes(b, g.f.scratch)
	}
	return b
}

// flatStage collects a flatMap's restored entries.
type flatStage struct {
	f, into *flatMap
}

func (f *flatMap) stage() stager { return &flatStage{f: f, into: newFlatMap(f.width, f.codec)} }

func (s *flatStage) add(key, val []byte) error {
	h := s.into.hash(key)
	if s.into.live > 0 {
		if _, dup := s.into.find(key, h); dup {
			return fmt.Errorf("key %x is in two snapshots", key)
		}
	}
	return s.f.codec.Decode(s.into.insert(key, h), val)
}

func (s *flatStage) install() error {
	*s.f = *s.into
	return nil
}

func (s *flatStage) restored() {}
