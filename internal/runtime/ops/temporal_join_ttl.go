package ops

import (
	"slices"
	"time"

	"github.com/sluicesql/sluice/internal/state"
)

// temporalCleanup is the idle state retention of a TemporalJoin, after
// Flink's TemporalRowTimeJoinOperator and its base,
// BaseTwoInputStreamOperatorWithStateRetention: a row of either side
// registers the key's cleanup timer (cleanupTimers), and so does each
// firing of the key's event-time timer that leaves left rows waiting or
// right rows kept, while a firing that leaves neither deletes it. When
// it rings, the key's waiting left rows and right versions are dropped
// without output.
//
// The processing times at which Flink's event-time timer of a key fires
// decide when its cleanup timer moves, so the key's timers are kept as
// Flink's operator sets them (registerSmallestTimer: the earliest time of
// a row since the last firing, then the earliest time of the left rows
// still waiting), apart from the join's own timers, which visit the key
// only when that changes its output. Flink's cleanup clears the value
// that names the key's timer but not the timer itself, which still fires
// later: such timers are kept too. The cleanup state is a table of its
// own (keys/ttl).
type temporalCleanup struct {
	*cleanupTimers
	keys *state.Table[*keyCleanup]
	// events holds the keys' event-time timers (Flink's), by watermark.
	events *timerQueue
}

// keyCleanup is the cleanup state of one key.
type keyCleanup struct {
	// at is the time of the key's cleanup timer, in milliseconds, when
	// hasAt (Flink's latestRegisteredCleanupTimer).
	at    int64
	hasAt bool
	// timer is the time of the key's event-time timer, when hasTimer
	// (Flink's registeredTimer); timers holds every event-time timer set
	// and not yet fired, in ascending order.
	timer    int64
	hasTimer bool
	timers   []int64
	// right says the key has right rows (Flink's rightState, which
	// keeps a version whatever the watermark, is not empty).
	right bool
}

// empty reports whether the key's cleanup state holds nothing.
func (k *keyCleanup) empty() bool {
	return !k.hasAt && !k.hasTimer && len(k.timers) == 0 && !k.right
}

// newTemporalCleanup returns the retention ttl of the keys of a temporal
// join keeping its state in st, nil without one.
func newTemporalCleanup(st state.Backend, ttl time.Duration) *temporalCleanup {
	timers := newCleanupTimers(ttl)
	if timers == nil {
		return nil
	}
	c := &temporalCleanup{cleanupTimers: timers, events: newTimerQueue()}
	c.keys = state.NewTable(st, state.TTLTableName("keys"), keyCleanupCodec)
	c.keys.OnRestore(func() {
		var events, cleanups []timer
		for key, k := range c.keys.All() {
			for _, t := range k.timers {
				events = append(events, timer{time: t, key: key})
			}
			if k.hasAt {
				cleanups = append(cleanups, timer{time: k.at, key: key})
			}
		}
		c.events.rebuildTimers(events)
		c.rebuild(cleanups)
	})
	return c
}

// enabled reports whether state is cleaned up.
func (c *temporalCleanup) enabled() bool { return c != nil && c.cleanupTimers.enabled() }

// get returns key's cleanup state, new if it has none.
func (c *temporalCleanup) get(key string) *keyCleanup {
	if k, ok := c.keys.GetString(key); ok {
		return k
	}
	return &keyCleanup{}
}

// put stores key's cleanup state, or drops it when it holds nothing.
func (c *temporalCleanup) put(key string, k *keyCleanup) {
	if k.empty() {
		c.keys.DeleteString(key)
		return
	}
	c.keys.PutString(key, k)
}

// row records a row of key at time t (a right row when right):
// Flink's processElement1 and processElement2.
func (c *temporalCleanup) row(key string, t int64, right bool) {
	if !c.enabled() {
		return
	}
	k := c.get(key)
	if !k.hasTimer || k.timer > t {
		if k.hasTimer {
			k.timers = removeTime(k.timers, k.timer)
		}
		c.setTimer(k, key, t)
	}
	k.right = k.right || right
	c.moveCleanup(k, key)
	c.put(key, k)
}

// setTimer sets key's event-time timer at t (Flink's registerTimer).
func (c *temporalCleanup) setTimer(k *keyCleanup, key string, t int64) {
	k.timer, k.hasTimer = t, true
	if i, found := slices.BinarySearch(k.timers, t); !found {
		k.timers = slices.Insert(k.timers, i, t)
		c.events.add(t, key)
	}
}

// removeTime returns ts without t.
func removeTime(ts []int64, t int64) []int64 {
	if i, found := slices.BinarySearch(ts, t); found {
		return slices.Delete(ts, i, i+1)
	}
	return ts
}

// moveCleanup registers key's cleanup timer now.
func (c *temporalCleanup) moveCleanup(k *keyCleanup, key string) {
	k.at, k.hasAt = c.register(key, k.at, k.hasAt), true
}

// fire fires the event-time timers at or before wm, once the join has
// visited its keys for wm (Flink's onEventTime): waiting gives the
// earliest time of a key's left rows still waiting, if any.
func (c *temporalCleanup) fire(wm int64, waiting func(key string) (int64, bool)) {
	if !c.enabled() {
		return
	}
	_ = c.events.fire(wm, func(t int64, key string) error {
		k, ok := c.keys.GetString(key)
		if !ok {
			return nil
		}
		i, found := slices.BinarySearch(k.timers, t)
		if !found {
			return nil
		}
		k.timers = slices.Delete(k.timers, i, i+1)
		k.hasTimer = false
		next, has := waiting(key)
		if has {
			c.setTimer(k, key, next)
		}
		if has || k.right {
			c.moveCleanup(k, key)
		} else {
			k.hasAt = false
		}
		c.put(key, k)
		return nil
	})
}

// clean clears the keys whose cleanup timers are due at now (in
// microseconds), calling drop for each (Flink's cleanupState).
func (c *temporalCleanup) clean(now int64, drop func(key string)) {
	c.ring(now, func(at int64, key string) {
		k, ok := c.keys.GetString(key)
		if !ok || !k.hasAt || k.at != at {
			return
		}
		drop(key)
		k.hasAt, k.hasTimer, k.right = false, false, false
		c.put(key, k)
	})
}

// keyCleanupCodec encodes a key's cleanup state.
var keyCleanupCodec = state.Codec[*keyCleanup]{
	Append: func(b []byte, k *keyCleanup) []byte {
		var flags byte
		if k.hasAt {
			flags |= 1
		}
		if k.hasTimer {
			flags |= 2
		}
		if k.right {
			flags |= 4
		}
		b = state.AppendVarint(state.AppendVarint(state.AppendUvarint(b, uint64(flags)), k.at), k.timer)
		b = state.AppendUvarint(b, uint64(len(k.timers)))
		for _, t := range k.timers {
			b = state.AppendVarint(b, t)
		}
		return b
	},
	Decode: func(b []byte) (*keyCleanup, error) {
		r := state.NewReader(b)
		flags := r.Uvarint()
		k := &keyCleanup{hasAt: flags&1 != 0, hasTimer: flags&2 != 0, right: flags&4 != 0}
		k.at, k.timer = r.Varint(), r.Varint()
		n := r.Uvarint()
		for i := uint64(0); i < n && r.Err() == nil; i++ {
			k.timers = append(k.timers, r.Varint())
		}
		return k, r.Done()
	},
}
