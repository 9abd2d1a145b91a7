package state

import (
	"bytes"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

var rowTypes = []types.Type{types.BigIntType, types.StringType, types.DoubleType, types.TimestampType(3), types.BooleanType}

func sampleRows() []types.Row {
	return []types.Row{
		{types.IntValue(-7), types.StringValue("a"), types.FloatValue(1.5), types.IntValue(1_700_000_000_000_000_000), types.BoolValue(true)},
		{types.NullValue, types.StringValue(""), types.NullValue, types.IntValue(0), types.NullValue},
		{types.IntValue(math.MaxInt64), types.StringValue("ü\x00x"), types.FloatValue(math.Inf(-1)), types.IntValue(-1), types.BoolValue(false)},
	}
}

func TestRowRoundTrip(t *testing.T) {
	for _, r := range sampleRows() {
		b := AppendRow([]byte{9}, rowTypes, r)
		got, rest, err := DecodeRow(b[1:], rowTypes)
		if err != nil || len(rest) != 0 {
			t.Fatalf("decode %v: %v, %d bytes left", r, err, len(rest))
		}
		if !reflect.DeepEqual(got, r) {
			t.Fatalf("got %v, want %v", got, r)
		}
	}
	if _, _, err := DecodeRow([]byte{1}, rowTypes); err == nil {
		t.Fatal("truncated row decoded without error")
	}
}

func TestChunkKeyMatchesRowKey(t *testing.T) {
	c := types.NewChunk(rowTypes, 4)
	for _, r := range sampleRows() {
		c.AppendRow(types.Insert, r)
	}
	cols := []int{4, 0, 1, 2}
	keyTypes := []types.Type{rowTypes[4], rowTypes[0], rowTypes[1], rowTypes[2]}
	for i, r := range sampleRows() {
		fromChunk := AppendChunkKey(nil, c, i, cols)
		fromRow := AppendKey(nil, keyTypes, types.Row{r[4], r[0], r[1], r[2]})
		if !bytes.Equal(fromChunk, fromRow) {
			t.Fatalf("row %d: chunk key %x != row key %x", i, fromChunk, fromRow)
		}
	}
}

func TestKeyNormalizesNegativeZero(t *testing.T) {
	ts := []types.Type{types.DoubleType}
	a := AppendKey(nil, ts, types.Row{types.FloatValue(0)})
	b := AppendKey(nil, ts, types.Row{types.FloatValue(math.Copysign(0, -1))})
	if !bytes.Equal(a, b) {
		t.Fatal("0.0 and -0.0 must give the same key")
	}
	// NULL and empty string differ; adjacent strings do not run together.
	st := []types.Type{types.StringType, types.StringType}
	x := AppendKey(nil, st, types.Row{types.StringValue("ab"), types.StringValue("c")})
	y := AppendKey(nil, st, types.Row{types.StringValue("a"), types.StringValue("bc")})
	if bytes.Equal(x, y) {
		t.Fatal("string boundaries are lost in keys")
	}
}

func newTables(b Backend) (*Table[types.Row], *Table[int64]) {
	return NewTable(b, "rows", RowCodec(rowTypes)), NewTable(b, "counts", Int64Codec)
}

func TestSnapshotRestore(t *testing.T) { forEachBackend(t, testSnapshotRestore) }

func testSnapshotRestore(t *testing.T, newBackend func(maxP int) Backend) {
	b := newBackend(128)
	rows, counts := newTables(b)
	key := func(s string) []byte {
		return AppendKey(nil, []types.Type{types.StringType}, types.Row{types.StringValue(s)})
	}
	for i, r := range sampleRows() {
		rows.Put(key(string(rune('a'+i))), r)
		counts.Put(key(string(rune('a'+i))), int64(i*10))
	}
	counts.Put(key("a"), 42) // overwrite
	counts.Delete(key("c"))
	if b.Len() != 5 {
		t.Fatalf("Len = %d, want 5", b.Len())
	}
	snap, err := b.Snapshot(128, AllKeyGroups)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := b.Snapshot(128, AllKeyGroups)
	if !bytes.Equal(snap, again) {
		t.Fatal("snapshots of the same state differ")
	}

	b2 := newBackend(128)
	rows2, counts2 := newTables(b2)
	rows2.Put(key("zzz"), sampleRows()[0]) // replaced by Restore
	if err := b2.Restore([][]byte{snap}, AllKeyGroups, nil); err != nil {
		t.Fatal(err)
	}
	if b2.Len() != 5 {
		t.Fatalf("restored Len = %d, want 5", b2.Len())
	}
	if _, ok := rows2.Get(key("zzz")); ok {
		t.Fatal("Restore kept an entry that is not in the snapshot")
	}
	for i, r := range sampleRows() {
		got, ok := rows2.Get(key(string(rune('a' + i))))
		if !ok || !reflect.DeepEqual(got, r) {
			t.Fatalf("row %d: got %v %v", i, got, ok)
		}
	}
	if v, _ := counts2.Get(key("a")); v != 42 {
		t.Fatalf("count a = %d, want 42", v)
	}
	if _, ok := counts2.Get(key("c")); ok {
		t.Fatal("deleted entry came back")
	}
	snap2, _ := b2.Snapshot(128, AllKeyGroups)
	if !bytes.Equal(snap, snap2) {
		t.Fatal("snapshot of restored state differs")
	}
}

func TestRestoreErrorsLeaveStateUnchanged(t *testing.T) {
	forEachBackend(t, testRestoreErrorsLeaveStateUnchanged)
}

func testRestoreErrorsLeaveStateUnchanged(t *testing.T, newBackend func(maxP int) Backend) {
	b := newBackend(128)
	rows, _ := newTables(b)
	rows.Put([]byte("k"), sampleRows()[0])
	snap, _ := b.Snapshot(128, AllKeyGroups)

	other := newBackend(128)
	NewTable(other, "rows", RowCodec(rowTypes))
	NewTable(other, "other", Int64Codec)
	if err := other.Restore([][]byte{snap}, AllKeyGroups, nil); err == nil {
		t.Fatal("restore with a different table set succeeded")
	}
	operator := newBackend(128)
	NewOperatorTable(operator, "rows", RowCodec(rowTypes), func(a, _ types.Row) types.Row { return a })
	NewTable(operator, "counts", Int64Codec)
	if err := operator.Restore([][]byte{snap}, AllKeyGroups, nil); err == nil {
		t.Fatal("restore of a keyed table into an operator table succeeded")
	}
	for _, bad := range [][]byte{nil, {7}, snap[:len(snap)-1], append(append([]byte{}, snap...), 0)} {
		if err := b.Restore([][]byte{bad}, AllKeyGroups, nil); err == nil {
			t.Fatalf("restore of %x succeeded", bad)
		}
	}
	// The same key from two snapshots of a keyed table.
	if err := b.Restore([][]byte{snap, snap}, AllKeyGroups, nil); err == nil {
		t.Fatal("restore of a key held twice succeeded")
	}
	if got, ok := rows.Get([]byte("k")); !ok || !reflect.DeepEqual(got, sampleRows()[0]) {
		t.Fatal("failed restore changed the state")
	}
}

// keyGroupsOf is runtime.KeyGroupsOf (Flink's
// computeKeyGroupRangeForOperatorIndex), which this package cannot import.
func keyGroupsOf(i, p, maxParallelism int) KeyGroupRange {
	return KeyGroupRange{Start: (i*maxParallelism + p - 1) / p, End: ((i+1)*maxParallelism - 1) / p}
}

// TestRescale: state kept by two instances, each holding the keys of its
// key groups, restores at three instances and at one: every key lands on
// the instance that owns its group, with its value, and operator tables
// merge by their rule.
func TestRescale(t *testing.T) { forEachBackend(t, testRescale) }

func testRescale(t *testing.T, newBackend func(maxP int) Backend) {
	const maxP, keys = 16, 200
	kt := []types.Type{types.BigIntType}
	key := func(k int) []byte { return AppendKey(nil, kt, types.Row{types.IntValue(int64(k))}) }
	newTables := func() (Backend, *Table[int64], *Table[int64]) {
		b := newBackend(maxP)
		return b, NewTable(b, "sums", Int64Codec), NewOperatorTable(b, "low", Int64Codec, func(a, b int64) int64 { return min(a, b) })
	}
	snapshot := func(p int) [][]byte {
		var snaps [][]byte
		for i := range p {
			b, sums, low := newTables()
			owned := keyGroupsOf(i, p, maxP)
			for k := range keys {
				if owned.Contains(KeyGroup(key(k), maxP)) {
					sums.Put(key(k), int64(k*k))
				}
			}
			low.Put(nil, int64(100+i))
			snap, err := b.Snapshot(maxP, owned)
			if err != nil {
				t.Fatal(err)
			}
			snaps = append(snaps, snap)
		}
		return snaps
	}
	from := snapshot(2)
	for _, p := range []int{3, 1, 2} {
		seen := 0
		for i := range p {
			b, sums, low := newTables()
			owned := keyGroupsOf(i, p, maxP)
			if err := b.Restore(from, owned, nil); err != nil {
				t.Fatal(err)
			}
			for k := range keys {
				v, ok := sums.Get(key(k))
				if mine := owned.Contains(KeyGroup(key(k), maxP)); ok != mine || ok && v != int64(k*k) {
					t.Fatalf("parallelism %d, instance %d, key %d: got %d %v, owned %v", p, i, k, v, ok, mine)
				}
				if ok {
					seen++
				}
			}
			if v, _ := low.Get(nil); v != 100 {
				t.Fatalf("parallelism %d: operator table restored %d, want the least, 100", p, v)
			}
			// The restored instance snapshots what it owns.
			if _, err := b.Snapshot(maxP, owned); err != nil {
				t.Fatal(err)
			}
		}
		if seen != keys {
			t.Fatalf("parallelism %d: %d keys restored, want %d", p, seen, keys)
		}
	}
}

// TestSnapshotRefusesForeignKeys: a keyed entry outside the instance's
// key groups is state the instance does not own; so is a snapshot of
// another max parallelism among the others.
func TestSnapshotRefusesForeignKeys(t *testing.T) {
	b := NewMemory()
	tab := NewTable(b, "t", Int64Codec)
	k := []byte("key")
	g := KeyGroup(k, 8)
	tab.Put(k, 1)
	if _, err := b.Snapshot(8, KeyGroupRange{Start: g + 1, End: g + 1}); err == nil {
		t.Fatal("snapshot of a key outside the owned key groups succeeded")
	}
	s8, err := b.Snapshot(8, AllKeyGroups)
	if err != nil {
		t.Fatal(err)
	}
	tab.Delete(k)
	s16, _ := b.Snapshot(16, AllKeyGroups)
	if err := b.Restore([][]byte{s8, s16}, AllKeyGroups, nil); err == nil {
		t.Fatal("snapshots of different max parallelism restored together")
	}
}

// TestOnRestoreSeesRestoredState: the hook runs once every table holds its
// restored entries.
func TestOnRestoreSeesRestoredState(t *testing.T) { forEachBackend(t, testOnRestoreSeesRestoredState) }

func testOnRestoreSeesRestoredState(t *testing.T, newBackend func(maxP int) Backend) {
	b := newBackend(4)
	a, c := NewTable(b, "a", Int64Codec), NewTable(b, "c", Int64Codec)
	a.Put([]byte("x"), 1)
	c.Put([]byte("y"), 2)
	snap, _ := b.Snapshot(4, AllKeyGroups)
	b2 := newBackend(4)
	a2, c2 := NewTable(b2, "a", Int64Codec), NewTable(b2, "c", Int64Codec)
	var got []int
	a2.OnRestore(func() { got = append(got, a2.Len(), c2.Len()) })
	if err := b2.Restore([][]byte{snap}, AllKeyGroups, nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int{1, 1}) {
		t.Fatalf("the hook saw %v entries, want [1 1]", got)
	}
}
