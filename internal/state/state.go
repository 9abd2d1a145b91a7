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
// parallelism. The memory backend (Memory) keeps values as they are, and
// a Put over an existing key does not allocate; the Pebble backend keeps
// them on disk. With either, a value got from a table may be changed in
// place, without a Put, until the backend's Release.
package state

import (
	"encoding/binary"
	"errors"
	"fmt"
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
// that are snapshotted and restored together. A backend is used by the
// instance's goroutine only.
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
	// a keyed table is an error. files reads the shared files that
	// incremental snapshots refer to (nil when there are none). On error
	// the state is left unchanged.
	Restore(snapshots [][]byte, groups KeyGroupRange, files FileSource) error
	// Release tells the backend that the operator holds no value it got
	// from a table: from then on, changing a value got before in place
	// no longer changes the state. The runtime calls it after every
	// message an operator handles; an error is a failure of the state's
	// storage.
	Release() error
	// Close releases what the backend holds (files, memory).
	Close() error
	// Len returns the number of entries over all tables.
	Len() int
	// Tables returns the names of the registered tables, sorted.
	Tables() []string
	register(name string, t table)
	// onSnapshot adds f to what runs before every snapshot.
	onSnapshot(f func())
}

// FileSource reads a shared file of an incremental snapshot by its name.
type FileSource func(name string) ([]byte, error)

// SharedFile is a file an incremental snapshot refers to: kept once in
// checkpoint storage under Name (the hex SHA-256 of its content) and
// shared by every checkpoint that refers to it. Path is where the file
// is until the snapshot is released.
type SharedFile struct {
	Name string
	Path string
	Size int64
}

// Incremental is implemented by backends whose snapshots can refer to
// files already stored for earlier checkpoints instead of holding every
// entry.
type Incremental interface {
	// SnapshotIncremental returns a snapshot that refers to files: the
	// data the snapshot holds itself, and the shared files it needs,
	// which stay in place, even after Close, until release is called
	// (from any goroutine). Restore takes it with a FileSource that reads
	// them.
	SnapshotIncremental(maxParallelism int, owned KeyGroupRange) (data []byte, files []SharedFile, release func(), err error)
}

// tableSet holds a backend's tables by name.
type tableSet[T table] struct {
	tables map[string]T
	// prepares run before every snapshot (TTL sweeps).
	prepares []func()
}

func (s *tableSet[T]) onSnapshot(f func()) { s.prepares = append(s.prepares, f) }

// prepare runs what must run before a snapshot.
func (s *tableSet[T]) prepare() {
	for _, f := range s.prepares {
		f()
	}
}

func (s *tableSet[T]) add(name string, t T) {
	if _, dup := s.tables[name]; dup {
		panic(fmt.Sprintf("state: table %q registered twice", name))
	}
	s.tables[name] = t
}

// Tables implements Backend.
func (s *tableSet[T]) Tables() []string { return slices.Sorted(maps.Keys(s.tables)) }

// split returns the names of the keyed and of the operator tables, each
// sorted.
func (s *tableSet[T]) split() (keyed, operator []string) {
	for _, name := range s.Tables() {
		if s.tables[name].operator() {
			operator = append(operator, name)
		} else {
			keyed = append(keyed, name)
		}
	}
	return keyed, operator
}

// Memory is a Backend that keeps values in memory: a Table's as Go
// values, a FlatTable's in pointer-free slabs.
type Memory struct {
	tableSet[table]
	// flat are the flat tables, which Release compacts.
	flat []*flatMap
}

// NewMemory returns an empty memory backend.
func NewMemory() *Memory { return &Memory{tableSet: tableSet[table]{tables: map[string]table{}}} }

func (m *Memory) register(name string, t table) { m.add(name, t) }

// Len implements Backend.
func (m *Memory) Len() int {
	n := 0
	for _, t := range m.tables {
		n += t.len()
	}
	return n
}

// Release implements Backend: a Table's values stay where they are; a
// FlatTable whose slabs hold more deleted entries than live ones is
// compacted, moving its values.
func (m *Memory) Release() error {
	for _, f := range m.flat {
		f.compactIfSparse()
	}
	return nil
}

// Close implements Backend.
func (m *Memory) Close() error { return nil }

// snapshotVersion is the first byte of a snapshot in the key group
// format; incrementalVersion that of an incremental snapshot (pebble.go).
// Snapshots before 3 and 0x51 held TIMESTAMP(0) to TIMESTAMP(6) values
// and event times in nanoseconds, not microseconds: they are refused, not
// read with the wrong unit.
const (
	snapshotVersion    = 3
	incrementalVersion = 0x51
)

// Table kinds in a snapshot.
const (
	kindKeyed    = 0
	kindOperator = 1
)

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
	m.prepare()
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
// parallelism. Incremental snapshots (of the Pebble backend) are refused.
func (m *Memory) Restore(snapshots [][]byte, groups KeyGroupRange, _ FileSource) error {
	stages := map[string]stager{}
	for name, t := range m.tables {
		stages[name] = t.stage()
	}
	if err := m.decodeAll(snapshots, groups, stages, nil); err != nil {
		return err
	}
	for _, s := range stages {
		if err := s.install(); err != nil {
			return err
		}
	}
	for _, s := range stages {
		s.restored()
	}
	return nil
}

// decodeAll adds the entries of snapshots, of the key groups in groups,
// to the stages. incremental takes a snapshot in the incremental format
// and returns its max parallelism; nil refuses such snapshots.
func (s *tableSet[T]) decodeAll(snapshots [][]byte, groups KeyGroupRange, stages map[string]stager, incremental func(data []byte, seen map[int]bool) (int, error)) error {
	keyed, operator := s.split()
	seen := map[int]bool{} // the key groups restored so far
	maxParallelism := 0
	for i, data := range snapshots {
		var maxP int
		var err error
		switch {
		case len(data) > 0 && data[0] == incrementalVersion && incremental != nil:
			maxP, err = incremental(data, seen)
		case len(data) > 0 && data[0] == incrementalVersion:
			err = errors.New("the state was taken incrementally by the Pebble ('rocksdb') state backend: restore it with 'state.backend.type' = 'rocksdb', or from a savepoint, which holds it whole")
		default:
			maxP, err = s.restoreOne(data, groups, keyed, operator, stages, seen)
		}
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
	return nil
}

// checkTables reads a snapshot's table list and checks it against the
// registered tables.
func (s *tableSet[T]) checkTables(r *Reader) error {
	n := r.Uvarint()
	if r.err == nil && n != uint64(len(s.tables)) {
		return fmt.Errorf("snapshot has %d tables, backend has %d", n, len(s.tables))
	}
	for i := uint64(0); i < n && r.err == nil; i++ {
		name := string(r.Bytes())
		kind := r.byte()
		t, ok := s.tables[name]
		if r.err == nil && !ok {
			return fmt.Errorf("snapshot has unknown table %q", name)
		}
		if r.err == nil && (kind == kindOperator) != t.operator() {
			return fmt.Errorf("table %q is keyed in one of the snapshot and the backend and not in the other", name)
		}
	}
	return nil
}

// restoreOne adds the entries of one snapshot to the stages, marking the
// key groups it restores in seen, and returns its max parallelism.
func (s *tableSet[T]) restoreOne(data []byte, groups KeyGroupRange, keyed, operator []string, stages map[string]stager, seen map[int]bool) (int, error) {
	r := Reader{b: data}
	if v := r.byte(); r.err == nil && v != snapshotVersion {
		return 0, fmt.Errorf("unknown snapshot version %d", v)
	}
	maxP := r.Uvarint()
	if r.err == nil && (maxP < 1 || maxP > math.MaxInt32) {
		return 0, fmt.Errorf("invalid max parallelism %d", maxP)
	}
	if err := s.checkTables(&r); err != nil {
		return 0, err
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
		if seen[blk.group] {
			return 0, fmt.Errorf("key group %d is in two snapshots", blk.group)
		}
		seen[blk.group] = true
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
