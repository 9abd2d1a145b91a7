package state

import "testing"

// BenchmarkMemorySnapshot snapshots a backend holding 200k keyed entries
// (an encoded BIGINT key each, as a GROUP BY keeps) in two tables.
func BenchmarkMemorySnapshot(b *testing.B) {
	m := NewMemory()
	groups := NewTable(m, "groups", Int64Codec)
	counts := NewTable(m, "counts", Int64Codec)
	var key []byte
	for i := range int64(100_000) {
		key = AppendVarint(key[:0], i)
		groups.Put(key, i)
		counts.Put(key, -i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.Snapshot(128, AllKeyGroups); err != nil {
			b.Fatal(err)
		}
	}
}
