package state

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// forEachBackend runs a test on the memory backend and on the Pebble
// backend, with a cache of one entry so that values are written back and
// read again at every Release.
func forEachBackend(t *testing.T, test func(t *testing.T, newBackend func(maxP int) Backend)) {
	t.Run("memory", func(t *testing.T) {
		test(t, func(int) Backend { return NewMemory() })
	})
	t.Run("pebble", func(t *testing.T) {
		test(t, func(maxP int) Backend { return testPebble(t, maxP) })
	})
}

// testPebble returns a Pebble backend in a temporary directory, closed
// when the test ends, with a cache of one entry.
func testPebble(t testing.TB, maxP int) *Pebble { return newTunedPebble(t, maxP, nil) }

// newTunedPebble is testPebble with its databases' options changed by
// tune.
func newTunedPebble(t testing.TB, maxP int, tune func(*pebble.Options)) *Pebble {
	t.Helper()
	p, err := newPebble(filepath.Join(t.TempDir(), "state"), maxP, tune)
	if err != nil {
		t.Fatal(err)
	}
	p.CacheEntries = 1
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
	return p
}

// counter is a value changed in place, as operators change their
// accumulators.
type counter struct{ n int64 }

var counterCodec = Codec[*counter]{
	Append: func(b []byte, c *counter) []byte { return AppendVarint(b, c.n) },
	Decode: func(b []byte) (*counter, error) {
		r := NewReader(b)
		c := &counter{r.Varint()}
		return c, r.Done()
	},
}

// TestPebbleKeepsChangesInPlace: a value got from Get or yielded by All
// and changed without a Put is written back, whether Release writes the
// cache back or the snapshot does; deletions during All are seen.
func TestPebbleKeepsChangesInPlace(t *testing.T) {
	p := testPebble(t, 8)
	tab := NewTable(p, "c", counterCodec)
	key := func(i int) []byte { return []byte(fmt.Sprintf("k%03d", i)) }
	for i := range 50 {
		tab.Put(key(i), &counter{int64(i)})
	}
	if err := p.Release(); err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		c, ok := tab.Get(key(i))
		if !ok {
			t.Fatalf("key %d lost", i)
		}
		c.n += 1000 // in place, no Put
	}
	if err := p.Release(); err != nil { // written back: the cache holds 50 > 1
		t.Fatal(err)
	}
	for k, c := range tab.All() {
		c.n++ // in place, on values decoded for the iteration
		if k == string(key(10)) {
			tab.Delete(key(11))
			tab.Delete(key(9))
		}
	}
	if err := p.Release(); err != nil {
		t.Fatal(err)
	}
	if n := tab.Len(); n != 48 {
		t.Fatalf("Len = %d, want 48", n)
	}
	for i := range 50 {
		c, ok := tab.Get(key(i))
		if i == 9 || i == 11 {
			if ok {
				t.Fatalf("deleted key %d is there", i)
			}
			continue
		}
		if !ok || c.n != int64(i)+1001 {
			t.Fatalf("key %d: got %v %v, want %d", i, c, ok, i+1001)
		}
	}
}

// TestSnapshotFormatIsShared: the Pebble backend's full snapshot is the
// memory backend's, byte for byte, and each restores the other's.
func TestSnapshotFormatIsShared(t *testing.T) {
	const maxP = 16
	m, p := NewMemory(), testPebble(t, maxP)
	for _, b := range []Backend{m, p} {
		rows, counts := newTables(b)
		op := NewOperatorTable(b, "op", Int64Codec, func(a, b int64) int64 { return a + b })
		for i, r := range sampleRows() {
			rows.Put([]byte{byte(i)}, r)
		}
		for i := range 100 {
			counts.Put(AppendVarint(nil, int64(i)), int64(i))
		}
		op.Put([]byte("x"), 7)
	}
	ms, err := m.Snapshot(maxP, AllKeyGroups)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := p.Snapshot(maxP, AllKeyGroups)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ms, ps) {
		t.Fatal("the backends' snapshots of the same state differ")
	}
	m2, p2 := NewMemory(), testPebble(t, maxP)
	for _, b := range []Backend{m2, p2} {
		newTables(b)
		NewOperatorTable(b, "op", Int64Codec, func(a, b int64) int64 { return a + b })
	}
	if err := m2.Restore([][]byte{ps}, AllKeyGroups, nil); err != nil {
		t.Fatal(err)
	}
	if err := p2.Restore([][]byte{ms}, AllKeyGroups, nil); err != nil {
		t.Fatal(err)
	}
	for _, b := range []Backend{m2, p2} {
		again, err := b.Snapshot(maxP, AllKeyGroups)
		if err != nil || !bytes.Equal(again, ms) {
			t.Fatalf("%T: restored state snapshots differently (%v)", b, err)
		}
	}
}

// store is checkpoint storage for shared files in a test: by name.
type store map[string][]byte

// keep copies the shared files of a snapshot into s and returns their
// names.
func (s store) keep(t *testing.T, files []SharedFile) []string {
	t.Helper()
	var names []string
	for _, f := range files {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(data)) != f.Size {
			t.Fatalf("%s: %d bytes, listed as %d", f.Path, len(data), f.Size)
		}
		s[f.Name] = data
		names = append(names, f.Name)
	}
	slices.Sort(names)
	return names
}

func (s store) source(name string) ([]byte, error) {
	data, ok := s[name]
	if !ok {
		return nil, fmt.Errorf("no shared file %s", name)
	}
	return data, nil
}

// TestPebbleIncremental: a second incremental snapshot refers to the
// files of the first that are still live and adds only new ones; it
// restores at the same key groups (adopting the files) and at other
// ones (copying the entries of the groups owned); a corrupt shared file
// is refused and leaves the state unchanged.
func TestPebbleIncremental(t *testing.T) {
	const maxP, keys = 16, 300
	key := func(k int) []byte { return AppendVarint(nil, int64(k)) }
	newTabs := func(b Backend) (*Table[int64], *Table[int64]) {
		return NewTable(b, "sums", Int64Codec), NewOperatorTable(b, "low", Int64Codec, func(a, b int64) int64 { return min(a, b) })
	}
	st := store{}
	// Two instances, each its key groups.
	var snaps [][]byte
	var first, second []string
	for i := range 2 {
		// Without compactions, so that the first snapshot's file stays.
		p := newTunedPebble(t, maxP, func(o *pebble.Options) { o.DisableAutomaticCompactions = true })
		sums, low := newTabs(p)
		owned := keyGroupsOf(i, 2, maxP)
		put := func(from, to int) {
			for k := from; k < to; k++ {
				if owned.Contains(KeyGroup(key(k), maxP)) {
					sums.Put(key(k), int64(k))
				}
			}
		}
		put(0, keys/2)
		low.Put(nil, int64(10+i))
		_, files, release, err := p.SnapshotIncremental(maxP, owned)
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, st.keep(t, files)...)
		release()
		put(keys/2, keys)
		snap, files, release, err := p.SnapshotIncremental(maxP, owned)
		if err != nil {
			t.Fatal(err)
		}
		second = append(second, st.keep(t, files)...)
		release()
		snaps = append(snaps, snap)
		if _, _, _, err := p.SnapshotIncremental(maxP, KeyGroupRange{Start: owned.End + 1, End: owned.End + 1}); err == nil {
			t.Fatal("incremental snapshot of keys outside the owned key groups succeeded")
		}
	}
	shared := 0
	for _, n := range second {
		if slices.Contains(first, n) {
			shared++
		}
	}
	if shared == 0 || shared == len(second) {
		t.Fatalf("the second snapshots share %d of their %d files with the first: want some, not all", shared, len(second))
	}

	check := func(b Backend, sums, low *Table[int64], owned KeyGroupRange, least int64) {
		t.Helper()
		for k := range keys {
			v, ok := sums.Get(key(k))
			if mine := owned.Contains(KeyGroup(key(k), maxP)); ok != mine || ok && v != int64(k) {
				t.Fatalf("key %d: got %d %v, owned %v", k, v, ok, mine)
			}
		}
		if v, _ := low.Get(nil); v != least {
			t.Fatalf("operator table restored %d, want %d", v, least)
		}
		if err := b.Release(); err != nil {
			t.Fatal(err)
		}
	}
	// At the same key groups, and at parallelism 1 and 3.
	for i := range 2 {
		p := testPebble(t, maxP)
		sums, low := newTabs(p)
		if err := p.Restore([][]byte{snaps[i]}, keyGroupsOf(i, 2, maxP), st.source); err != nil {
			t.Fatal(err)
		}
		check(p, sums, low, keyGroupsOf(i, 2, maxP), int64(10+i))
	}
	for _, par := range []int{1, 3} {
		for i := range par {
			p := testPebble(t, maxP)
			sums, low := newTabs(p)
			owned := keyGroupsOf(i, par, maxP)
			if err := p.Restore(snaps, owned, st.source); err != nil {
				t.Fatal(err)
			}
			check(p, sums, low, owned, 10)
		}
	}
	// Adopted files are not new to the next snapshot (one file: no
	// compaction replaces it).
	one := testPebble(t, maxP)
	sums, _ := newTabs(one)
	sums.Put(key(1), 1)
	snap, files, release, err := one.SnapshotIncremental(maxP, AllKeyGroups)
	if err != nil {
		t.Fatal(err)
	}
	names := st.keep(t, files)
	release()
	adopted := testPebble(t, maxP)
	newTabs(adopted)
	if err := adopted.Restore([][]byte{snap}, AllKeyGroups, st.source); err != nil {
		t.Fatal(err)
	}
	if _, files, release, err = adopted.SnapshotIncremental(maxP, AllKeyGroups); err != nil {
		t.Fatal(err)
	}
	defer release()
	if again := st.keep(t, files); len(names) != 1 || !slices.Equal(again, names) {
		t.Fatalf("snapshot of the restored state has files %v, the restored one %v", again, names)
	}
	// The memory backend refuses incremental snapshots by name.
	m := NewMemory()
	newTabs(m)
	if err := m.Restore(snaps[:1], AllKeyGroups, st.source); err == nil || !strings.Contains(err.Error(), "rocksdb") {
		t.Fatalf("memory backend restoring an incremental snapshot: %v", err)
	}
	// A corrupt shared file.
	p := testPebble(t, maxP)
	sums, _ = newTabs(p)
	sums.Put([]byte("before"), 1)
	for _, name := range second {
		bad := maps.Clone(st)
		bad[name] = append(bytes.Clone(st[name]), 0)
		if err := p.Restore(snaps, AllKeyGroups, bad.source); err == nil || !strings.Contains(err.Error(), "corrupt") {
			t.Fatalf("restore with shared file %s corrupt: %v", name, err)
		}
	}
	if v, ok := sums.Get([]byte("before")); !ok || v != 1 {
		t.Fatal("a failed restore changed the state")
	}
}

// TestPebbleKeepsSnapshotFilesUntilReleased: the files of an incremental
// snapshot outlive Close until their release, which then removes the
// backend's directory; what is not held goes at Close.
func TestPebbleKeepsSnapshotFilesUntilReleased(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	p, err := NewPebble(dir, 4)
	if err != nil {
		t.Fatal(err)
	}
	NewTable(p, "t", Int64Codec).Put([]byte("k"), 1)
	_, files, release, err := p.SnapshotIncremental(4, AllKeyGroups)
	if err != nil || len(files) == 0 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("after Close the directory holds %v, want the held snapshot only", entries)
	}
	for _, f := range files {
		if _, err := os.Stat(f.Path); err != nil {
			t.Fatalf("a held file is gone after Close: %v", err)
		}
	}
	release()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the directory is still there after the release: %v", err)
	}
}
