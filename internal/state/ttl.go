package state

import "time"

// TTL is idle state retention for the entries of an operator's keyed
// tables, as Flink's table runtime configures its state
// (StateConfigUtil.createTtlConfig): an entry's time is set when it is
// created or written (UpdateType.OnCreateAndWrite), reading does not
// renew it, an entry whose time lies the retention or more behind the
// processing time is never returned (StateVisibility.NeverReturnExpired),
// and expired entries are left out of snapshots, so that a key idle past
// the retention is not restored.
//
// The times are kept in a keyed table of their own, named after the
// table they time (TTLTableName), by the same keys: an operator without
// retention keeps no times and pays nothing. Expired keys are dropped
// when the operator next opens them (Expire), before every snapshot, and
// by a sweep over every time once the writes since the last sweep
// outnumber the keys, so that state idle past the retention does not
// stay in memory either, at a cost per write that does not grow with the
// state.
type TTL struct {
	ttl  int64 // microseconds
	now  func() int64
	at   *Table[int64]
	drop func(key string)
	// writes counts the writes since the last sweep.
	writes int
	// expired collects the keys a sweep drops.
	expired []string
}

// TTLTableName is the name of the table holding the write times of the
// entries of the table named table.
func TTLTableName(table string) string { return table + "/ttl" }

// sweepMin is the fewest writes between two sweeps.
const sweepMin = 1024

// NewTTL returns the retention ttl of the keys of the table named table
// in b, which calls drop to remove a key's entries from every table the
// operator keeps under it; nil when ttl is not positive (no retention).
// The processing time is given by Start.
func NewTTL(b Backend, table string, ttl time.Duration, drop func(key string)) *TTL {
	if ttl <= 0 {
		return nil
	}
	t := &TTL{ttl: TTLMicros(ttl), drop: drop}
	t.at = NewTable(b, TTLTableName(table), Codec[int64]{
		Append: func(b []byte, v int64) []byte { return AppendVarint(b, v) },
		Decode: func(b []byte) (int64, error) {
			r := NewReader(b)
			v := r.Varint()
			return v, r.Done()
		},
	})
	b.onSnapshot(t.Sweep)
	return t
}

// BeforeSnapshot runs f before every snapshot of b: an operator that
// times its entries itself drops the expired ones there.
func BeforeSnapshot(b Backend, f func()) { b.onSnapshot(f) }

// Start gives the retention its processing time, in microseconds since
// the epoch; until then nothing expires.
func (t *TTL) Start(now func() int64) { t.now = now }

// Expired reports whether an entry written at the time at has expired
// at the time now (Flink's TtlUtils.expired: at + ttl <= now).
func Expired(at, now int64, ttl time.Duration) bool {
	return ttl > 0 && at <= now-TTLMicros(ttl)
}

// TTLMicros is a positive retention in whole microseconds, at least one:
// a retention under a microsecond still expires what it retains.
func TTLMicros(ttl time.Duration) int64 { return max(ttl.Microseconds(), 1) }

// Expire drops key's entries, and reports so, when they have expired:
// the operator then sees the key as new. It runs a sweep first when one
// is due.
func (t *TTL) Expire(key []byte) bool {
	if t.now == nil {
		return false
	}
	if t.writes > max(sweepMin, t.at.Len()) {
		t.Sweep()
	}
	at, ok := t.at.Get(key)
	if !ok || at > t.now()-t.ttl {
		return false
	}
	t.drop(string(key))
	t.at.Delete(key)
	return true
}

// Touch records a write of key's entries now.
func (t *TTL) Touch(key []byte) {
	if t.now == nil {
		return
	}
	t.at.Put(key, t.now())
	t.writes++
}

// Forget forgets the time of key, whose entries the operator removed.
func (t *TTL) Forget(key []byte) { t.at.Delete(key) }

// Sweep drops every expired key.
func (t *TTL) Sweep() {
	t.writes = 0
	if t.now == nil {
		return
	}
	limit := t.now() - t.ttl
	for k, at := range t.at.All() {
		if at <= limit {
			t.expired = append(t.expired, k)
		}
	}
	for _, k := range t.expired {
		t.drop(k)
		t.at.DeleteString(k)
	}
	clear(t.expired)
	t.expired = t.expired[:0]
}
