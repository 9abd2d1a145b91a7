package state

import (
	"bytes"
	"math"
	"reflect"
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

func TestSnapshotRestore(t *testing.T) {
	b := NewMemory()
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
	snap, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := b.Snapshot()
	if !bytes.Equal(snap, again) {
		t.Fatal("snapshots of the same state differ")
	}

	b2 := NewMemory()
	rows2, counts2 := newTables(b2)
	rows2.Put(key("zzz"), sampleRows()[0]) // replaced by Restore
	if err := b2.Restore(snap); err != nil {
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
	snap2, _ := b2.Snapshot()
	if !bytes.Equal(snap, snap2) {
		t.Fatal("snapshot of restored state differs")
	}
}

func TestRestoreErrorsLeaveStateUnchanged(t *testing.T) {
	b := NewMemory()
	rows, _ := newTables(b)
	rows.Put([]byte("k"), sampleRows()[0])
	snap, _ := b.Snapshot()

	other := NewMemory()
	NewTable(other, "rows", RowCodec(rowTypes))
	NewTable(other, "other", Int64Codec)
	if err := other.Restore(snap); err == nil {
		t.Fatal("restore with a different table set succeeded")
	}
	for _, bad := range [][]byte{nil, {7}, snap[:len(snap)-1], append(append([]byte{}, snap...), 0)} {
		if err := b.Restore(bad); err == nil {
			t.Fatalf("restore of %x succeeded", bad)
		}
	}
	if got, ok := rows.Get([]byte("k")); !ok || !reflect.DeepEqual(got, sampleRows()[0]) {
		t.Fatal("failed restore changed the state")
	}
}
