package state

import (
	"testing"
	"time"
)

// ttlTable registers a table of strings with a one-minute retention in
// b, on the clock *now (microseconds).
func ttlTable(b Backend, now *int64) (*Table[string], *TTL) {
	t := NewTable(b, "rows", Codec[string]{
		Append: func(b []byte, v string) []byte { return append(b, v...) },
		Decode: func(b []byte) (string, error) { return string(b), nil },
	})
	ttl := NewTTL(b, "rows", time.Minute, func(key string) { t.DeleteString(key) })
	ttl.Start(func() int64 { return *now })
	return t, ttl
}

// TestTTLExpiresOnAccessAndInSnapshots: a key written a minute or more
// before the clock is dropped when opened (Flink's TtlUtils.expired: the
// write time plus the TTL at or before now) and is left out of
// snapshots, so a restore does not bring it back; a key written since is
// kept, with its time.
func TestTTLExpiresOnAccessAndInSnapshots(t *testing.T) {
	for _, backend := range []struct {
		name string
		make func(t *testing.T) Backend
	}{
		{"memory", func(*testing.T) Backend { return NewMemory() }},
		{"pebble", func(t *testing.T) Backend { return testPebble(t, 128) }},
	} {
		t.Run(backend.name, func(t *testing.T) {
			now := int64(0)
			b := backend.make(t)
			rows, ttl := ttlTable(b, &now)
			for _, k := range []string{"a", "b", "c"} {
				rows.PutString(k, k)
				ttl.Touch([]byte(k))
			}
			now = 30e6
			rows.PutString("b", "b2")
			ttl.Touch([]byte("b"))
			now = 60e6 - 1
			if ttl.Expire([]byte("a")) {
				t.Fatal("a expired a microsecond before its minute")
			}
			now = 60e6
			if !ttl.Expire([]byte("a")) {
				t.Fatal("a did not expire at its minute")
			}
			if _, ok := rows.GetString("a"); ok {
				t.Fatal("a expired but is still in the table")
			}
			if err := b.Release(); err != nil {
				t.Fatal(err)
			}
			snap, err := b.Snapshot(128, AllKeyGroups)
			if err != nil {
				t.Fatal(err)
			}
			restored := NewMemory()
			back, _ := ttlTable(restored, &now)
			if err := restored.Restore([][]byte{snap}, AllKeyGroups, nil); err != nil {
				t.Fatal(err)
			}
			if _, ok := back.GetString("c"); ok {
				t.Error("c, idle for the minute, was restored")
			}
			if v, ok := back.GetString("b"); !ok || v != "b2" {
				t.Errorf("b restored as %q, %v; want b2", v, ok)
			}
			if back.Len() != 1 || restored.Len() != 2 {
				t.Errorf("restored %d rows and %d entries; want b and its time", back.Len(), restored.Len())
			}
		})
	}
}
