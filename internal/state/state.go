// Package state holds the state of operator instances.
//
// An operator instance owns one Backend and registers named tables in it,
// each a map from an encoded key (see AppendKey) to a value of one Go type
// with a Codec. Most tables are keyed: every key starts with the key the
// operator's input is partitioned by (the exchange key, in AppendKey's
// encoding), and its entry belongs to that key's key group (KeyGroup), as
// Flink's keyed state does. A few are operator tables: state of the
// instance as a whole, merged by a rule of their own when instances are
// restored together. Snapshot encodes the keyed entries split by key
// group, so that Restore can take the groups an instance owns from the
// snapshots of any number of earlier instances: a job restores at another
// parallelism. The memory backend keeps values as they are: a value that
// is a pointer may be updated in place without a Put, and a Put over an
// existing key does not allocate.
package state

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"

	"github.com/cespare/xxhash/v2"
)

// KeyHash is the hash of an encoded key: xxHash64, without a seed, so
// that a key has the same hash in every run and process. It decides the
// key's group, and so which instance a key is routed to and which
// instance's state holds it: it must never change.
func KeyHash(key []byte) uint64 { return xxhash.Sum64(key) }

// KeyGroup returns the key group, of maxParallelism, of an encoded key.
func KeyGroup(key []byte, maxParallelism int) int {
	return int(KeyHash(key) % uint64(maxParallelism))
}

// KeyGroupRange is the key groups Start through End, both included.
type KeyGroupRange struct{ Start, End int }

// Contains reports whether group g is in the range.
func (r KeyGroupRange) Contains(g int) bool { return g >= r.Start && g <= r.End }

// Intersects reports whether the ranges share a group.
func (r KeyGroupRange) Intersects(o KeyGroupRange) bool { return r.Start <= o.End && o.Start <= r.End }

// AllKeyGroups holds every key group of any max parallelism: restoring
// it takes every entry of the snapshots.
var AllKeyGroups = KeyGroupRange{Start: 0, End: math.MaxInt}

// Codec encodes and decodes the values of one table.
type Codec[V any] struct {
	// Append appends the encoding of v to b.
	Append func(b []byte, v V) []byte
	// Decode decodes a value produced by Append; it must consume all of b.
	Decode func(b []byte) (V, error)
}

// Backend is the state of one operator instance: a set of named tables
// that are snapshotted and restored together.
type Backend interface {
	// Snapshot encodes the content of every table, deterministically,
	// keyed entries by their key group of maxParallelism groups. Every
	// keyed entry must belong to a group in owned, the groups the
	// instance is given: an entry outside them is state the instance does
	// not own, an error.
	Snapshot(maxParallelism int, owned KeyGroupRange) ([]byte, error)
	// Restore replaces the content of every table with what snapshots,
	// of instances of the same operator, hold: the keyed entries of the
	// key groups in groups, and the operator tables' entries of all of
	// them, merged by each table's rule. A key found in two snapshots of
	// a keyed table is an error. On error the state is left unchanged.
	Restore(snapshots [][]byte, groups KeyGroupRange) error
	// Len returns the number of entries over all tables.
	Len() int
	// Tables returns the names of the registered tables, sorted.
	Tables() []string
	register(name string, t table)
}

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
	// stage starts collecting restored entries.
	stage() stager
}

// stager collects the entries of a table being restored.
type stager interface {
	add(key, val []byte) error
	// install replaces the table's content with the entries added.
	install()
	// restored runs the table's hook after every table is installed.
	restored()
}

// Memory is a Backend that keeps values as Go values in memory.
type Memory struct {
	tables map[string]table
}

// NewMemory returns an empty memory backend.
func NewMemory() *Memory { return &Memory{tables: map[string]table{}} }

func (m *Memory) register(name string, t table) {
	if _, dup := m.tables[name]; dup {
		panic(fmt.Sprintf("state: table %q registered twice", name))
	}
	m.tables[name] = t
}

// Tables implements Backend.
func (m *Memory) Tables() []string { return slices.Sorted(maps.Keys(m.tables)) }

// Len implements Backend.
func (m *Memory) Len() int {
	n := 0
	for _, t := range m.tables {
		n += t.len()
	}
	return n
}

// snapshotVersion is the first byte of a snapshot.
const snapshotVersion = 2

// Table kinds in a snapshot.
const (
	kindKeyed    = 0
	kindOperator = 1
)

// split returns the names of the keyed and of the operator tables, each
// sorted.
func (m *Memory) split() (keyed, operator []string) {
	for _, name := range m.Tables() {
		if m.tables[name].operator() {
			operator = append(operator, name)
		} else {
			keyed = append(keyed, name)
		}
	}
	return keyed, operator
}

// Snapshot implements Backend. Layout: version byte, max parallelism,
// table count, then per table (sorted by name) its name and kind; then
// the operator tables' entries (per table its entry count and its
// entries sorted by key, each a length-prefixed key and a
// length-prefixed value); then the index of the key groups that hold
// entries (count, then per group its number and its block's length), and
// the blocks in that order: per keyed table the group's entry count and
// entries, sorted by key.
func (m *Memory) Snapshot(maxParallelism int, owned KeyGroupRange) ([]byte, error) {
	if maxParallelism < 1 {
		return nil, fmt.Errorf("state: invalid max parallelism %d", maxParallelism)
	}
	keyed, operator := m.split()
	b := appendSnapshotHeader([]byte{snapshotVersion}, maxParallelism, m.Tables(), func(name string) bool { return m.tables[name].operator() })
	for _, name := range operator {
		b = m.tables[name].appendSorted(b)
	}
	// Each keyed table's entries bucketed by group in one pass.
	byTable := make([]grouped, len(keyed))
	for i, name := range keyed {
		g := m.tables[name].bucket(maxParallelism)
		if bad := g.outside(owned); bad >= 0 {
			return nil, fmt.Errorf("state: table %q holds a key of key group %d, outside the instance's key groups %d-%d", name, bad, owned.Start, owned.End)
		}
		byTable[i] = g
	}
	return appendGroupBlocks(b, maxParallelism, byTable), nil
}

// appendSnapshotHeader appends the version-independent start of a
// snapshot: max parallelism, table count, then per table its name and
// kind.
func appendSnapshotHeader(b []byte, maxParallelism int, names []string, operator func(string) bool) []byte {
	b = binary.AppendUvarint(b, uint64(maxParallelism))
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, name := range names {
		b = appendBytes(b, []byte(name))
		kind := byte(kindKeyed)
		if operator(name) {
			kind = kindOperator
		}
		b = append(b, kind)
	}
	return b
}

// appendGroupBlocks appends the key group index and the blocks of the
// keyed tables' entries.
func appendGroupBlocks(b []byte, maxParallelism int, tables []grouped) []byte {
	var groups []int
	for g := range maxParallelism {
		for _, t := range tables {
			if t.count(g) > 0 {
				groups = append(groups, g)
				break
			}
		}
	}
	var blocks []byte
	lens := make([]int, len(groups))
	for gi, g := range groups {
		start := len(blocks)
		for _, t := range tables {
			blocks = t.appendGroup(blocks, g)
		}
		lens[gi] = len(blocks) - start
	}
	b = binary.AppendUvarint(b, uint64(len(groups)))
	for gi, g := range groups {
		b = binary.AppendUvarint(b, uint64(g))
		b = binary.AppendUvarint(b, uint64(lens[gi]))
	}
	return append(b, blocks...)
}

// Restore implements Backend. Every snapshot must hold exactly the
// registered tables, of the same kinds, and all must have the same max
// parallelism.
func (m *Memory) Restore(snapshots [][]byte, groups KeyGroupRange) error {
	keyed, operator := m.split()
	stages := map[string]stager{}
	for name, t := range m.tables {
		stages[name] = t.stage()
	}
	maxParallelism := 0
	for i, data := range snapshots {
		maxP, err := m.restoreOne(data, groups, keyed, operator, stages)
		if err != nil {
			if len(snapshots) > 1 {
				return fmt.Errorf("state: snapshot %d of %d: %w", i+1, len(snapshots), err)
			}
			return fmt.Errorf("state: %w", err)
		}
		if maxParallelism != 0 && maxP != maxParallelism {
			return fmt.Errorf("state: the snapshots have max parallelism %d and %d", maxParallelism, maxP)
		}
		maxParallelism = maxP
	}
	for _, s := range stages {
		s.install()
	}
	for _, s := range stages {
		s.restored()
	}
	return nil
}

// restoreOne adds the entries of one snapshot to the stages and returns
// its max parallelism.
func (m *Memory) restoreOne(data []byte, groups KeyGroupRange, keyed, operator []string, stages map[string]stager) (int, error) {
	r := Reader{b: data}
	if v := r.byte(); r.err == nil && v != snapshotVersion {
		return 0, fmt.Errorf("unknown snapshot version %d", v)
	}
	maxP := r.Uvarint()
	n := r.Uvarint()
	if r.err == nil && n != uint64(len(m.tables)) {
		return 0, fmt.Errorf("snapshot has %d tables, backend has %d", n, len(m.tables))
	}
	if r.err == nil && (maxP < 1 || maxP > math.MaxInt32) {
		return 0, fmt.Errorf("invalid max parallelism %d", maxP)
	}
	for i := uint64(0); i < n && r.err == nil; i++ {
		name := string(r.Bytes())
		kind := r.byte()
		t, ok := m.tables[name]
		if r.err == nil && !ok {
			return 0, fmt.Errorf("snapshot has unknown table %q", name)
		}
		if r.err == nil && (kind == kindOperator) != t.operator() {
			return 0, fmt.Errorf("table %q is keyed in one of the snapshot and the backend and not in the other", name)
		}
	}
	entries := func(r *Reader, name string, check func(key []byte) error) error {
		cnt := r.Uvarint()
		for range cnt {
			k, v := r.Bytes(), r.Bytes()
			if r.err != nil {
				return nil
			}
			if check != nil {
				if err := check(k); err != nil {
					return err
				}
			}
			if err := stages[name].add(k, v); err != nil {
				return fmt.Errorf("table %q: %w", name, err)
			}
		}
		return nil
	}
	for _, name := range operator {
		if err := entries(&r, name, nil); err != nil {
			return 0, err
		}
	}
	type block struct{ group, size int }
	var index []block
	for cnt := r.Uvarint(); cnt > 0 && r.err == nil; cnt-- {
		g, size := r.Uvarint(), r.Uvarint()
		if r.err == nil && (g >= maxP || size > uint64(len(r.b))) {
			return 0, errors.New("corrupt snapshot: bad key group index")
		}
		index = append(index, block{int(g), int(size)})
	}
	for _, blk := range index {
		if r.err != nil {
			break
		}
		if len(r.b) < blk.size {
			r.fail(errShort)
			break
		}
		body, rest := r.b[:blk.size], r.b[blk.size:]
		r.b = rest
		if !groups.Contains(blk.group) {
			continue
		}
		br := Reader{b: body}
		check := func(key []byte) error {
			if g := KeyGroup(key, int(maxP)); g != blk.group {
				return fmt.Errorf("corrupt snapshot: a key of key group %d in the block of group %d", g, blk.group)
			}
			return nil
		}
		for _, name := range keyed {
			if err := entries(&br, name, check); err != nil {
				return 0, err
			}
		}
		if br.err == nil && len(br.b) != 0 {
			br.fail(errors.New("trailing bytes in a key group's block"))
		}
		if br.err != nil {
			return 0, fmt.Errorf("corrupt snapshot: %w", br.err)
		}
	}
	if r.err != nil {
		return 0, fmt.Errorf("corrupt snapshot: %w", r.err)
	}
	if len(r.b) != 0 {
		return 0, errors.New("corrupt snapshot: trailing bytes")
	}
	return int(maxP), nil
}

// Table is one named piece of state: values of type V by encoded key.
// Keys are byte strings; a key passed to a method is not retained, so the
// caller may reuse its buffer.
type Table[V any] struct {
	codec Codec[V]
	m     map[string]*cell[V]
	// merge is an operator table's rule (nil for a keyed table).
	merge func(a, b V) V
	// onRestore runs after a restore.
	onRestore func()
	// scratch holds a value being encoded for a snapshot.
	scratch []byte
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
	t := &Table[V]{codec: c, m: map[string]*cell[V]{}}
	b.register(name, t)
	return t
}

// NewOperatorTable registers an operator table named name in b: state of
// the instance as a whole rather than of keys. Restored from the
// snapshots of several instances (at another parallelism), the values of
// equal keys are combined with merge (for example the minimum of
// timers), as Flink's union redistribution of operator state.
func NewOperatorTable[V any](b Backend, name string, c Codec[V], merge func(a, b V) V) *Table[V] {
	t := &Table[V]{codec: c, m: map[string]*cell[V]{}, merge: merge}
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
	var zero V
	return zero, false
}

// Put stores v under key.
func (t *Table[V]) Put(key []byte, v V) {
	if c, ok := t.m[string(key)]; ok {
		c.v = v
		return
	}
	t.m[string(key)] = &cell[V]{v: v}
}

// GetString is Get of a key held as a string (as All yields keys).
func (t *Table[V]) GetString(key string) (V, bool) {
	if c, ok := t.m[key]; ok {
		return c.v, true
	}
	var zero V
	return zero, false
}

// PutString is Put of a key held as a string; a new entry keeps the
// string itself.
func (t *Table[V]) PutString(key string, v V) {
	if c, ok := t.m[key]; ok {
		c.v = v
		return
	}
	t.m[key] = &cell[V]{v: v}
}

// Delete removes key.
func (t *Table[V]) Delete(key []byte) { delete(t.m, string(key)) }

// DeleteString is Delete of a key held as a string.
func (t *Table[V]) DeleteString(key string) { delete(t.m, key) }

// Len returns the number of keys.
func (t *Table[V]) Len() int { return len(t.m) }

// All iterates over the entries in no particular order. Entries may be
// deleted during the iteration.
func (t *Table[V]) All() iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		for k, c := range t.m {
			if !yield(k, c.v) {
				return
			}
		}
	}
}

func (t *Table[V]) len() int { return len(t.m) }

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
	// start[g] is the index of group g's first entry; start[g+1] ends it.
	start []int
}

func (g *groupedTable[V]) count(n int) int { return g.start[n+1] - g.start[n] }

func (g *groupedTable[V]) appendGroup(b []byte, n int) []byte {
	es := g.entries[g.start[n]:g.start[n+1]]
	b = binary.AppendUvarint(b, uint64(len(es)))
	for _, e := range es {
		b = g.t.appendEntry(b, e.key, e.v)
	}
	return b
}

func (g *groupedTable[V]) outside(owned KeyGroupRange) int {
	for n := range len(g.start) - 1 {
		if g.count(n) > 0 && !owned.Contains(n) {
			return n
		}
	}
	return -1
}

// bucket splits the entries by key group in one pass over the map (a
// counting sort by group), then sorts each group's entries by key.
func (t *Table[V]) bucket(maxParallelism int) grouped {
	unsorted := make([]entry[V], 0, len(t.m))
	groups := make([]int32, 0, len(t.m))
	start := make([]int, maxParallelism+1)
	for k, c := range t.m {
		g := int(xxhash.Sum64String(k) % uint64(maxParallelism))
		unsorted = append(unsorted, entry[V]{k, c.v})
		groups = append(groups, int32(g))
		start[g+1]++
	}
	for g := range maxParallelism {
		start[g+1] += start[g]
	}
	next := slices.Clone(start[:maxParallelism])
	entries := make([]entry[V], len(unsorted))
	for i, e := range unsorted {
		g := groups[i]
		entries[next[g]] = e
		next[g]++
	}
	for g := range maxParallelism {
		slices.SortFunc(entries[start[g]:start[g+1]], func(a, b entry[V]) int { return cmp.Compare(a.key, b.key) })
	}
	return &groupedTable[V]{t: t, entries: entries, start: start}
}

// tableStage collects a table's restored entries.
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

func (s *tableStage[V]) install() { s.t.m = s.m }

func (s *tableStage[V]) restored() {
	if s.t.onRestore != nil {
		s.t.onRestore()
	}
}
