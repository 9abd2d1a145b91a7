// Package state holds the keyed state of operator instances.
//
// An operator instance owns one Backend and registers named tables in it,
// each a map from an encoded key (see AppendKey) to a value of one Go type
// with a Codec. Snapshot encodes every table of a backend to bytes and
// Restore reads them back, so checkpoints and recovery work the same for
// every operator. The memory backend keeps values as they are: a value that
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
	"slices"
)

// Codec encodes and decodes the values of one table.
type Codec[V any] struct {
	// Append appends the encoding of v to b.
	Append func(b []byte, v V) []byte
	// Decode decodes a value produced by Append; it must consume all of b.
	Decode func(b []byte) (V, error)
}

// Backend is the keyed state of one operator instance: a set of named
// tables that are snapshotted and restored together.
type Backend interface {
	// Snapshot encodes the content of every table, deterministically.
	Snapshot() ([]byte, error)
	// Restore replaces the content of every table with a snapshot's. On
	// error the state is left unchanged.
	Restore(data []byte) error
	// Len returns the number of entries over all tables.
	Len() int
	// Tables returns the names of the registered tables, sorted.
	Tables() []string
	register(name string, t table)
}

// table is what a backend needs of a table whatever its value type.
type table interface {
	len() int
	// appendEntries appends the entries sorted by key.
	appendEntries(b []byte) []byte
	// decodeEntries decodes entries into a fresh map, returned as a
	// function that installs it.
	decodeEntries(n int, next func() (key, val []byte, err error)) (install func(), err error)
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
const snapshotVersion = 1

// Snapshot implements Backend. Layout: version byte, table count, then per
// table (sorted by name) its name, entry count and entries sorted by key,
// each a length-prefixed key and a length-prefixed value.
func (m *Memory) Snapshot() ([]byte, error) {
	b := []byte{snapshotVersion}
	b = binary.AppendUvarint(b, uint64(len(m.tables)))
	for _, name := range slices.Sorted(maps.Keys(m.tables)) {
		t := m.tables[name]
		b = appendBytes(b, []byte(name))
		b = binary.AppendUvarint(b, uint64(t.len()))
		b = t.appendEntries(b)
	}
	return b, nil
}

// Restore implements Backend. Every registered table must appear in the
// snapshot and the snapshot may hold no other table.
func (m *Memory) Restore(data []byte) error {
	r := Reader{b: data}
	if v := r.byte(); v != snapshotVersion {
		return fmt.Errorf("state: unknown snapshot version %d", v)
	}
	n := r.Uvarint()
	if r.err == nil && n != uint64(len(m.tables)) {
		return fmt.Errorf("state: snapshot has %d tables, backend has %d", n, len(m.tables))
	}
	installs := make([]func(), 0, len(m.tables))
	for i := uint64(0); i < n && r.err == nil; i++ {
		name := string(r.Bytes())
		cnt := r.Uvarint()
		if r.err != nil {
			break
		}
		t, ok := m.tables[name]
		if !ok {
			return fmt.Errorf("state: snapshot has unknown table %q", name)
		}
		install, err := t.decodeEntries(int(cnt), func() ([]byte, []byte, error) {
			k, v := r.Bytes(), r.Bytes()
			return k, v, r.err
		})
		if err != nil {
			return fmt.Errorf("state: table %q: %w", name, err)
		}
		installs = append(installs, install)
	}
	if r.err != nil {
		return fmt.Errorf("state: corrupt snapshot: %w", r.err)
	}
	if len(r.b) != 0 {
		return errors.New("state: corrupt snapshot: trailing bytes")
	}
	for _, install := range installs {
		install()
	}
	return nil
}

// Table is one named piece of keyed state: values of type V by encoded key.
// Keys are byte strings; a key passed to a method is not retained, so the
// caller may reuse its buffer.
type Table[V any] struct {
	codec Codec[V]
	m     map[string]*cell[V]
}

// cell boxes a value so that overwriting an existing key does not allocate.
type cell[V any] struct{ v V }

// NewTable registers a table named name in b. Names are unique per backend.
func NewTable[V any](b Backend, name string, c Codec[V]) *Table[V] {
	t := &Table[V]{codec: c, m: map[string]*cell[V]{}}
	b.register(name, t)
	return t
}

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

// Delete removes key.
func (t *Table[V]) Delete(key []byte) { delete(t.m, string(key)) }

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

func (t *Table[V]) appendEntries(b []byte) []byte {
	var val []byte
	for _, k := range slices.SortedFunc(maps.Keys(t.m), cmp.Compare) {
		b = appendBytes(b, []byte(k))
		val = t.codec.Append(val[:0], t.m[k].v)
		b = appendBytes(b, val)
	}
	return b
}

func (t *Table[V]) decodeEntries(n int, next func() ([]byte, []byte, error)) (func(), error) {
	m := make(map[string]*cell[V], n)
	for range n {
		k, val, err := next()
		if err != nil {
			return nil, err
		}
		v, err := t.codec.Decode(val)
		if err != nil {
			return nil, err
		}
		m[string(k)] = &cell[V]{v: v}
	}
	return func() { t.m = m }, nil
}
