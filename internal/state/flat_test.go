package state

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
)

// counterFlat is a FlatTable codec of one int64, written as Int64Codec
// writes it, so that a FlatTable and a Table[int64] share snapshots.
var counterFlat = FlatCodec{
	Append: func(b, v []byte) []byte { return AppendVarint(b, int64(binary.LittleEndian.Uint64(v))) },
	Decode: func(v, b []byte) error {
		n, err := Int64Codec.Decode(b)
		binary.LittleEndian.PutUint64(v, uint64(n))
		return err
	},
}

func flatInt(v []byte) int64 { return int64(binary.LittleEndian.Uint64(v)) }

// flatKey returns the key of n: short keys, keys past the one-byte
// length (128 bytes) and, for every 997th, a key past a page (64 KiB).
func flatKey(n int) []byte {
	k := fmt.Appendf(nil, "k%d", n)
	switch {
	case n%997 == 0:
		k = append(k, bytes.Repeat([]byte{'x'}, flatPageMax+n%7)...)
	case n%3 == 0:
		k = append(k, bytes.Repeat([]byte{'y'}, 130)...)
	}
	return k
}

// TestFlatTableAgainstMap: random upserts, changes in place and deletes
// over both backends, with Release between batches (compacting the
// memory backend's slabs), agree with a map at every step, and the
// content survives a snapshot and restore.
func TestFlatTableAgainstMap(t *testing.T) { forEachBackend(t, testFlatTableAgainstMap) }

func testFlatTableAgainstMap(t *testing.T, newBackend func(maxP int) Backend) {
	b := newBackend(128)
	tab := NewFlatTable(b, "sums", 8, counterFlat)
	want := map[string]int64{}
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(step int) {
		t.Helper()
		if tab.Len() != len(want) || b.Len() != len(want) {
			t.Fatalf("step %d: Len = %d (backend %d), want %d", step, tab.Len(), b.Len(), len(want))
		}
		for k, n := range want {
			if v, ok := tab.Get([]byte(k)); !ok || flatInt(v) != n {
				t.Fatalf("step %d: key %.20q: got %v %v, want %d", step, k, v, ok, n)
			}
		}
	}
	for step := range 6 {
		for range 3000 {
			n := rng.IntN(2000)
			k := flatKey(n)
			switch {
			case step >= 3 && rng.IntN(3) > 0, rng.IntN(5) == 0:
				tab.Delete(k)
				delete(want, string(k))
			default:
				v, found := tab.Upsert(k)
				if _, ok := want[string(k)]; ok != found || !found && flatInt(v) != 0 {
					t.Fatalf("Upsert(%.20q) = %v %v, map has it: %v", k, v, found, ok)
				}
				binary.LittleEndian.PutUint64(v, uint64(flatInt(v)+int64(n)))
				want[string(k)] += int64(n)
			}
			if _, ok := tab.Get(flatKey(n + 2000)); ok {
				t.Fatal("Get found a key never put")
			}
		}
		if err := b.Release(); err != nil {
			t.Fatal(err)
		}
		check(step)
	}
	snap, err := b.Snapshot(128, AllKeyGroups)
	if err != nil {
		t.Fatal(err)
	}
	b2 := newBackend(128)
	tab = NewFlatTable(b2, "sums", 8, counterFlat)
	tab.Upsert([]byte("gone")) // replaced by Restore
	if err := b2.Restore([][]byte{snap}, AllKeyGroups, nil); err != nil {
		t.Fatal(err)
	}
	check(-1)
	if err := b2.Restore([][]byte{snap, snap}, AllKeyGroups, nil); err == nil {
		t.Fatal("restore of a key held twice succeeded")
	}
	check(-2)
}

// TestFlatTableSharesTableSnapshots: a FlatTable snapshots byte for byte
// as a Table whose codec writes the same bytes, in either backend, and
// restores either's snapshot at other key groups (rescaling).
func TestFlatTableSharesTableSnapshots(t *testing.T) {
	const maxP, keys = 16, 3000
	fill := func(b Backend, flat bool) {
		var put func(k []byte, n int64)
		if flat {
			tab := NewFlatTable(b, "t", 8, counterFlat)
			put = func(k []byte, n int64) { v, _ := tab.Upsert(k); binary.LittleEndian.PutUint64(v, uint64(n)) }
		} else {
			tab := NewTable(b, "t", Int64Codec)
			put = func(k []byte, n int64) { tab.Put(k, n) }
		}
		for n := range keys {
			put(flatKey(n), int64(n-keys/2))
		}
	}
	var snaps [][]byte
	for _, flat := range []bool{false, true} {
		for _, b := range []Backend{NewMemory(), testPebble(t, maxP)} {
			fill(b, flat)
			s, err := b.Snapshot(maxP, AllKeyGroups)
			if err != nil {
				t.Fatal(err)
			}
			snaps = append(snaps, s)
		}
	}
	for i, s := range snaps[1:] {
		if !bytes.Equal(s, snaps[0]) {
			t.Fatalf("snapshot %d differs from a memory Table's", i+1)
		}
	}
	for _, b := range []func() Backend{func() Backend { return NewMemory() }, func() Backend { return testPebble(t, maxP) }} {
		seen := 0
		for i := range 3 {
			owned := keyGroupsOf(i, 3, maxP)
			be := b()
			tab := NewFlatTable(be, "t", 8, counterFlat)
			if err := be.Restore([][]byte{snaps[0]}, owned, nil); err != nil {
				t.Fatal(err)
			}
			for n := range keys {
				k := flatKey(n)
				v, ok := tab.Get(k)
				if mine := owned.Contains(KeyGroup(k, maxP)); ok != mine || ok && flatInt(v) != int64(n-keys/2) {
					t.Fatalf("instance %d, key %d: got %v %v, owned %v", i, n, v, ok, mine)
				}
				if ok {
					seen++
				}
			}
			if _, err := be.Snapshot(maxP, owned); err != nil {
				t.Fatal(err)
			}
		}
		if seen != keys {
			t.Fatalf("%d keys restored, want %d", seen, keys)
		}
	}
}

// TestFlatTableCompacts: deleting most entries and releasing gives the
// slabs back, and values changed in place before the Release survive the
// move.
func TestFlatTableCompacts(t *testing.T) {
	m := NewMemory()
	tab := NewFlatTable(m, "t", 8, counterFlat)
	for n := range 100_000 {
		v, _ := tab.Upsert(fmt.Appendf(nil, "key-%d", n))
		binary.LittleEndian.PutUint64(v, uint64(n))
	}
	before := tab.mem.used
	for n := range 100_000 {
		if n%10 != 0 {
			tab.Delete(fmt.Appendf(nil, "key-%d", n))
		}
	}
	if err := m.Release(); err != nil {
		t.Fatal(err)
	}
	if tab.mem.used*5 > before || tab.mem.garbage != 0 || len(tab.mem.slots) > 1<<15 {
		t.Fatalf("after deleting 90%%: %d bytes of slabs (from %d), %d garbage, %d slots", tab.mem.used, before, tab.mem.garbage, len(tab.mem.slots))
	}
	for n := range 100_000 {
		v, ok := tab.Get(fmt.Appendf(nil, "key-%d", n))
		if ok != (n%10 == 0) || ok && flatInt(v) != int64(n) {
			t.Fatalf("key %d: %v %v", n, v, ok)
		}
	}
}
