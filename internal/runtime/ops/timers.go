package ops

import (
	"cmp"
	"slices"
)

// timerQueue holds an operator instance's event-time timers, after
// Flink's InternalTimerService: a timer is a time and a key, and a
// watermark fires the timers at or before it, in order of time, those of
// one time in the order they were set. Setting a timer and firing one
// cost O(log t) for t timers, without allocating, so a watermark costs
// what is due, not what the state holds.
//
// The timers are part of the operator's state: an operator keeps the
// time of each timer it sets in its keyed entry for that key, so that the
// timers are checkpointed with the entries, split by key group, and
// restored and redistributed with them at any parallelism, on either
// state backend. The queue, in memory, is derived from the entries: a
// restored operator rebuilds it (rebuildTimers) from the entries of the
// key groups it was given. A timer whose entry no longer asks for it
// (its key was cleared, or the timer moved) is stale: the operator's
// handler sees that from the entry and does nothing, as Flink's operators
// check their timer state in onTimer.
type timerQueue struct {
	// h is a min-heap of the timers by time, then order of setting.
	h []timerEntry
	// seq numbers the timers in order of setting.
	seq uint64
}

// timerEntry is one timer: its time, its number in order of setting and
// its key.
type timerEntry struct {
	time int64
	seq  uint64
	key  string
}

func (a *timerEntry) before(b *timerEntry) bool {
	return a.time < b.time || a.time == b.time && a.seq < b.seq
}

func newTimerQueue() *timerQueue { return &timerQueue{} }

// add sets a timer for key at time t. The key string is kept as it is
// (pass the string the state entry is kept under to share it).
func (q *timerQueue) add(t int64, key string) {
	q.seq++
	q.h = append(q.h, timerEntry{time: t, seq: q.seq, key: key})
	h := q.h
	i := len(h) - 1
	e := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !e.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

// fire removes the timers at or before wm and calls f for each, in order
// of time, those of one time in the order they were set. Timers f sets at
// or before wm fire in the same call, after those of their time already
// set. On an error from f the timers not yet fired stay.
func (q *timerQueue) fire(wm int64, f func(t int64, key string) error) error {
	for len(q.h) > 0 && q.h[0].time <= wm {
		e := q.pop()
		if err := f(e.time, e.key); err != nil {
			return err
		}
	}
	return nil
}

// reset drops every timer.
func (q *timerQueue) reset() {
	clear(q.h)
	q.h = q.h[:0]
}

// timer is a timer found in an operator's restored state; order ranks
// the timers of one time (their order of setting, where the state keeps
// it), keys rank those of equal order.
type timer struct {
	time  int64
	order int64
	key   string
}

// rebuildTimers replaces the queue's timers with ts, set in order of
// time, then order, then key.
func (q *timerQueue) rebuildTimers(ts []timer) {
	q.reset()
	slices.SortFunc(ts, func(a, b timer) int {
		return cmp.Or(cmp.Compare(a.time, b.time), cmp.Compare(a.order, b.order), cmp.Compare(a.key, b.key))
	})
	for _, t := range ts {
		q.add(t.time, t.key)
	}
}

// pop removes and returns the first timer of the heap.
func (q *timerQueue) pop() timerEntry {
	h := q.h
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h[n] = timerEntry{}
	h = h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r].before(&h[l]) {
			m = r
		}
		if !h[m].before(&last) {
			break
		}
		h[i] = h[m]
		i = m
	}
	if n > 0 {
		h[i] = last
	}
	q.h = h
	return top
}

// next returns the least time of the queue, if any.
func (q *timerQueue) next() (int64, bool) {
	if len(q.h) == 0 {
		return 0, false
	}
	return q.h[0].time, true
}
