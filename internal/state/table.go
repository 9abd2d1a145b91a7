package state

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"iter"
	"maps"
	"slices"
	"unsafe"

	"github.com/cockroachdb/pebble/v2"
)

// table is what a backend needs of a table whatever its value type.
type table interface {
	len() int
	// operator reports an operator table (not keyed).
	operator() bool
	// appendSorted appends the entry count and the entries sorted by
	// key, each a length-prefixed key and a length-prefixed value.
	appendSorted(b []byte) []byte
	// bucket returns the entries split by key group.
	bucket(maxParallelism int) grouped
	// stage starts collecting restored entries for the memory backend.
	stage() stager
	// restored runs the table's restore hook.
	restored()
}

// storedTable is a table the Pebble backend can keep.
type storedTable interface {
	table
	// attach binds the table to the backend; writeBack
	// adds the decoded values and the deletions to b; dropCache forgets
	// the decoded values and deletions; cached counts them; recount
	// counts the entries of the database (after a restore); storeStage starts
	// collecting restored entries into w.
	attach(p *Pebble, prefix []byte)
	writeBack(b *pebble.Batch) error
	dropCache()
	cached() int
	recount()
	storeStage(w *stagingWriter) stager
}

// stager collects the entries of a table being restored.
type stager interface {
	add(key, val []byte) error
	// install replaces the table's content with the entries added.
	install() error
	// restored runs the table's hook after every table is installed.
	restored()
}

// Table is one named piece of state: values of type V by encoded key.
// Keys are byte strings; a key passed to a method is not retained, so the
// caller may reuse its buffer.
//
// A value got from Get or All may be changed in place until the runtime
// calls the backend's Release (after the message the operator is
// handling): in the memory backend the value is the state itself; the
// Pebble backend keeps every value it hands out decoded and writes it
// back when it releases them, so a change in place is never lost.
type Table[V any] struct {
	name  string
	codec Codec[V]
	// m holds the values: in the memory backend all of them, in the
	// Pebble backend those decoded or put since the last write-back,
	// every one of which counts as changed.
	m map[string]*cell[V]
	// merge is an operator table's rule (nil for a keyed table).
	merge func(a, b V) V
	// onRestore runs after a restore.
	onRestore func()
	// scratch holds a value being encoded.
	scratch []byte

	// The Pebble backend's: the backend, the table's key prefix there,
	// the keys deleted since the last write-back, and the entry All is
	// yielding when it is not in m.
	pb     *Pebble
	prefix []byte
	gone   map[string]struct{}
	// inDB is what is known of keys in the database since the last
	// write-back (a value whose encoding still equals the bytes it was
	// read from is not written back), and n the number of entries the
	// database holds.
	inDB    map[string]dbEntry
	n       int
	iterOn  bool
	iterKey string
	iterVal V
	kbuf    []byte
}

// cell boxes a value so that overwriting an existing key does not allocate.
type cell[V any] struct{ v V }

// NewTable registers a keyed table named name in b: every key is, or
// starts with, the key the operator's input is partitioned by, in
// AppendKey's encoding, and the entry belongs to that key's key group.
// When a key has more after the partitioning key (a namespace, such as a
// window), the partitioning key's group must still be the whole key's:
// such state is kept as one entry per partitioning key. Names are unique
// per backend.
func NewTable[V any](b Backend, name string, c Codec[V]) *Table[V] {
	t := &Table[V]{name: name, codec: c, m: map[string]*cell[V]{}}
	b.register(name, t)
	return t
}

// NewOperatorTable registers an operator table named name in b: state of
// the instance as a whole rather than of keys. Restored from the
// snapshots of several instances (at another parallelism), the values of
// equal keys are combined with merge (for example the minimum of
// timers), as Flink's union redistribution of operator state.
func NewOperatorTable[V any](b Backend, name string, c Codec[V], merge func(a, b V) V) *Table[V] {
	t := &Table[V]{name: name, codec: c, m: map[string]*cell[V]{}, merge: merge}
	b.register(name, t)
	return t
}

// OnRestore sets f to run after every Restore of the table's backend,
// once every table holds its restored content: operators rebuild there
// what they derive from their state.
func (t *Table[V]) OnRestore(f func()) { t.onRestore = f }

// Get returns the value stored under key.
func (t *Table[V]) Get(key []byte) (V, bool) {
	if c, ok := t.m[string(key)]; ok {
		return c.v, true
	}
	if t.pb == nil {
		var zero V
		return zero, false
	}
	return t.load(string(key))
}

// GetString is Get of a key held as a string (as All yields keys).
func (t *Table[V]) GetString(key string) (V, bool) {
	if c, ok := t.m[key]; ok {
		return c.v, true
	}
	if t.pb == nil {
		var zero V
		return zero, false
	}
	return t.load(key)
}

// Put stores v under key.
func (t *Table[V]) Put(key []byte, v V) {
	if c, ok := t.m[string(key)]; ok {
		c.v = v
		return
	}
	t.m[string(key)] = &cell[V]{v: v}
	if t.pb != nil {
		delete(t.gone, string(key))
	}
}

// PutString is Put of a key held as a string; a new entry keeps the
// string itself.
func (t *Table[V]) PutString(key string, v V) {
	if c, ok := t.m[key]; ok {
		c.v = v
		return
	}
	t.m[key] = &cell[V]{v: v}
	if t.pb != nil {
		delete(t.gone, key)
	}
}

// Delete removes key.
func (t *Table[V]) Delete(key []byte) {
	delete(t.m, string(key))
	if t.pb != nil {
		t.gone[string(key)] = struct{}{}
	}
}

// DeleteString is Delete of a key held as a string.
func (t *Table[V]) DeleteString(key string) {
	delete(t.m, key)
	if t.pb != nil {
		t.gone[key] = struct{}{}
	}
}

// Len returns the number of keys.
func (t *Table[V]) Len() int { return t.len() }

// All iterates over the entries in no particular order. Entries may be
// deleted during the iteration; one put during it may or may not be
// yielded. All must not be nested over one table.
func (t *Table[V]) All() iter.Seq2[string, V] {
	if t.pb != nil {
		return t.stored()
	}
	return func(yield func(string, V) bool) {
		for k, c := range t.m {
			if !yield(k, c.v) {
				return
			}
		}
	}
}

// len counts the database's entries, those put since the last
// write-back that it does not hold, less those deleted that it does.
func (t *Table[V]) len() int {
	if t.pb == nil {
		return len(t.m)
	}
	n := t.n
	for k := range t.m {
		if !t.inDatabase(k) {
			n++
		}
	}
	for k := range t.gone {
		if t.inDatabase(k) {
			n--
		}
	}
	return n
}

func (t *Table[V]) operator() bool { return t.merge != nil }

func (t *Table[V]) appendSorted(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(t.m)))
	for _, k := range slices.Sorted(maps.Keys(t.m)) {
		b = t.appendEntry(b, k, t.m[k].v)
	}
	return b
}

// appendEntry appends a length-prefixed key and a length-prefixed value.
func (t *Table[V]) appendEntry(b []byte, key string, v V) []byte {
	b = appendBytes(b, []byte(key))
	t.scratch = t.codec.Append(t.scratch[:0], v)
	return appendBytes(b, t.scratch)
}

// grouped is a keyed table's entries split by key group.
type grouped interface {
	// count returns the number of entries of group g.
	count(g int) int
	// appendGroup appends group g's entry count and entries, sorted by
	// key.
	appendGroup(b []byte, g int) []byte
	// outside returns a non-empty group outside owned, or -1.
	outside(owned KeyGroupRange) int
}

// entry is a key and its value.
type entry[V any] struct {
	key string
	v   V
}

// groupedTable is a Table's entries ordered by key group, then key.
type groupedTable[V any] struct {
	t       *Table[V]
	entries []entry[V]
	byGroup
}

func (g *groupedTable[V]) appendGroup(b []byte, n int) []byte {
	es := g.group(n)
	b = binary.AppendUvarint(b, uint64(len(es)))
	for _, i := range es {
		e := &g.entries[i]
		b = g.t.appendEntry(b, e.key, e.v)
	}
	return b
}

// bucket collects the entries in one pass over the map and orders them
// by key group, then key.
func (t *Table[V]) bucket(maxParallelism int) grouped {
	entries := make([]entry[V], 0, len(t.m))
	for k, c := range t.m {
		entries = append(entries, entry[V]{k, c.v})
	}
	key := func(i int) []byte { return unsafe.Slice(unsafe.StringData(entries[i].key), len(entries[i].key)) }
	return &groupedTable[V]{t: t, entries: entries, byGroup: orderByGroup(len(entries), maxParallelism, key)}
}

// byGroup orders a table's entries by key group, then key: group(g)
// holds the indexes of group g's entries.
type byGroup struct {
	order []int
	// start[g] is the position in order of group g's first entry;
	// start[g+1] ends it.
	start []int
}

// orderByGroup orders n entries, entry i of key key(i), by key group of
// maxParallelism (a counting sort), then by key.
func orderByGroup(n, maxParallelism int, key func(i int) []byte) byGroup {
	groups := make([]int32, n)
	start := make([]int, maxParallelism+1)
	for i := range n {
		g := KeyGroup(key(i), maxParallelism)
		groups[i] = int32(g)
		start[g+1]++
	}
	for g := range maxParallelism {
		start[g+1] += start[g]
	}
	next := slices.Clone(start[:maxParallelism])
	order := make([]int, n)
	for i, g := range groups {
		order[next[g]] = i
		next[g]++
	}
	for g := range maxParallelism {
		slices.SortFunc(order[start[g]:start[g+1]], func(a, b int) int { return bytes.Compare(key(a), key(b)) })
	}
	return byGroup{order: order, start: start}
}

func (g byGroup) group(n int) []int { return g.order[g.start[n]:g.start[n+1]] }

func (g byGroup) count(n int) int { return g.start[n+1] - g.start[n] }

func (g byGroup) outside(owned KeyGroupRange) int {
	for n := range len(g.start) - 1 {
		if g.count(n) > 0 && !owned.Contains(n) {
			return n
		}
	}
	return -1
}

// tableStage collects a table's restored entries for the memory backend.
type tableStage[V any] struct {
	t *Table[V]
	m map[string]*cell[V]
}

func (t *Table[V]) stage() stager { return &tableStage[V]{t: t, m: map[string]*cell[V]{}} }

func (s *tableStage[V]) add(key, val []byte) error {
	v, err := s.t.codec.Decode(val)
	if err != nil {
		return err
	}
	if c, dup := s.m[string(key)]; dup {
		if s.t.merge == nil {
			return fmt.Errorf("key %x is in two snapshots", key)
		}
		c.v = s.t.merge(c.v, v)
		return nil
	}
	s.m[string(key)] = &cell[V]{v: v}
	return nil
}

func (s *tableStage[V]) install() error {
	s.t.m = s.m
	return nil
}

func (s *tableStage[V]) restored() { s.t.restored() }

// restored runs the table's restore hook.
func (t *Table[V]) restored() {
	if t.onRestore != nil {
		t.onRestore()
	}
}

// The Pebble backend's side of a table.

func (t *Table[V]) attach(p *Pebble, prefix []byte) {
	t.pb, t.prefix, t.gone, t.inDB = p, prefix, map[string]struct{}{}, map[string]dbEntry{}
}

// dbKey returns key's key in the database, in t.kbuf.
func (t *Table[V]) dbKey(key string) []byte {
	t.kbuf = t.pb.dbKey(t.kbuf[:0], t.prefix, t.operator(), key)
	return t.kbuf
}

// load reads a value that is not in m from the database, keeping it in m.
func (t *Table[V]) load(key string) (V, bool) {
	var zero V
	if _, dead := t.gone[key]; dead {
		return zero, false
	}
	if t.iterOn && t.iterKey == key {
		t.m[key] = &cell[V]{v: t.iterVal}
		return t.iterVal, true
	}
	raw, found := t.pb.get(t.dbKey(key))
	if !found {
		t.inDB[key] = dbEntry{}
		return zero, false
	}
	// Decoded from a copy: a value may keep and change what it was
	// decoded from.
	v, err := t.codec.Decode(bytes.Clone(raw))
	if err != nil {
		t.pb.fail(fmt.Errorf("table %q: key %x: %w", t.name, key, err))
		return zero, false
	}
	t.m[key] = &cell[V]{v: v}
	t.inDB[key] = dbEntry{exists: true, read: true, raw: raw}
	return v, true
}

// stored is All over the database: the table's decoded values and
// deletions are written back first, so that the database holds every
// entry; a value that is decoded is yielded, and one that is not is
// decoded for the yield and written back if the loop changed it.
func (t *Table[V]) stored() iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		if t.pb.writeBack(t) != nil {
			return
		}
		changed := t.pb.db.NewBatch()
		defer func() {
			t.iterOn = false
			var zero V
			t.iterVal = zero
			if changed.Len() > 0 {
				t.pb.check(changed.Commit(pebble.NoSync))
			}
			t.pb.check(changed.Close())
		}()
		t.pb.scan(t.prefix, succ(t.prefix), func(dk, raw []byte) bool {
			k := string(dk[len(t.prefix)+2:])
			if c, ok := t.m[k]; ok {
				return yield(k, c.v)
			}
			if _, dead := t.gone[k]; dead {
				return true
			}
			v, err := t.codec.Decode(bytes.Clone(raw))
			if err != nil {
				t.pb.fail(fmt.Errorf("table %q: key %x: %w", t.name, k, err))
				return false
			}
			t.iterOn, t.iterKey, t.iterVal = true, k, v
			more := yield(k, v)
			t.iterOn = false
			_, cached := t.m[k]
			_, dead := t.gone[k]
			if !cached && !dead {
				t.scratch = t.codec.Append(t.scratch[:0], v)
				if !bytes.Equal(t.scratch, raw) {
					t.pb.check(changed.Set(dk, t.scratch, nil))
				}
			}
			return more
		})
	}
}

// dbEntry is what a table knows of a key in its database: whether it is
// there and, when read, the bytes it holds.
type dbEntry struct {
	exists, read bool
	raw          []byte
}

// inDatabase reports whether key is in the database (as of the last
// write-back), reading it if nothing is known.
func (t *Table[V]) inDatabase(key string) bool {
	if e, ok := t.inDB[key]; ok {
		return e.exists
	}
	found := t.pb.has(t.dbKey(key))
	t.inDB[key] = dbEntry{exists: found}
	return found
}

func (t *Table[V]) writeBack(b *pebble.Batch) error {
	for k, c := range t.m {
		t.scratch = t.codec.Append(t.scratch[:0], c.v)
		if e := t.inDB[k]; e.read && bytes.Equal(e.raw, t.scratch) {
			continue // unchanged
		}
		if !t.inDatabase(k) {
			t.n++
		}
		if err := b.Set(t.dbKey(k), t.scratch, nil); err != nil {
			return err
		}
		t.inDB[k] = dbEntry{exists: true}
	}
	for k := range t.gone {
		if t.inDatabase(k) {
			t.n--
		}
		if err := b.Delete(t.dbKey(k), nil); err != nil {
			return err
		}
		t.inDB[k] = dbEntry{}
	}
	clear(t.gone)
	return nil
}

func (t *Table[V]) dropCache() {
	clear(t.m)
	clear(t.gone)
	clear(t.inDB)
}

func (t *Table[V]) cached() int { return len(t.m) + len(t.gone) + len(t.inDB) }

// recount counts the entries of the database.
func (t *Table[V]) recount() {
	t.n = 0
	t.pb.scan(t.prefix, succ(t.prefix), func(_, _ []byte) bool { t.n++; return true })
}

// storedStage collects a table's restored entries into a new database:
// keyed entries as they are, operator entries merged by the table's rule
// until install.
type storedStage[V any] struct {
	t  *Table[V]
	w  *stagingWriter
	op map[string]V
}

func (t *Table[V]) storeStage(w *stagingWriter) stager {
	return &storedStage[V]{t: t, w: w, op: map[string]V{}}
}

func (s *storedStage[V]) add(key, val []byte) error {
	if !s.t.operator() {
		return s.w.set(s.t.pb.dbKey(nil, s.t.prefix, false, string(key)), val)
	}
	v, err := s.t.codec.Decode(bytes.Clone(val))
	if err != nil {
		return err
	}
	if old, dup := s.op[string(key)]; dup {
		v = s.t.merge(old, v)
	}
	s.op[string(key)] = v
	return nil
}

func (s *storedStage[V]) install() error {
	for k, v := range s.op {
		s.t.scratch = s.t.codec.Append(s.t.scratch[:0], v)
		if err := s.w.set(s.t.pb.dbKey(nil, s.t.prefix, true, k), s.t.scratch); err != nil {
			return err
		}
	}
	return nil
}

func (s *storedStage[V]) restored() { s.t.restored() }
