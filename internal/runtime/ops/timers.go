package ops

import (
	"cmp"
	"slices"
)

// timerQueue holds an operator instance's event-time timers, after
// Flink's InternalTimerService: a timer is a time and a key, and a
// watermark fires the timers at or before it, in order of time, those of
// one time in the order they were set. Setting a timer and firing one
// cost O(log t) for t distinct times, so a watermark costs what is due,
// not what the state holds.
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
	// buckets holds the keys of each time in order of setting; times is a
	// min-heap of the buckets' times.
	buckets map[int64]*timerBucket
	times   []int64
	// free holds emptied buckets for reuse.
	free []*timerBucket
}

// timerBucket is the keys of the timers of one time.
type timerBucket struct{ keys []string }

func newTimerQueue() *timerQueue { return &timerQueue{buckets: map[int64]*timerBucket{}} }

// add sets a timer for key at time t. The key string is kept as it is
// (pass the string the state entry is kept under to share it).
func (q *timerQueue) add(t int64, key string) {
	b := q.buckets[t]
	if b == nil {
		if n := len(q.free); n > 0 {
			b, q.free = q.free[n-1], q.free[:n-1]
		} else {
			b = &timerBucket{}
		}
		q.buckets[t] = b
		q.push(t)
	}
	b.keys = append(b.keys, key)
}

// fire removes the timers at or before wm and calls f for each, in order
// of time, those of one time in the order they were set. Timers f sets at
// or before wm fire in the same call, after those of their time already
// set. On an error from f the rest of the due timers are dropped.
func (q *timerQueue) fire(wm int64, f func(t int64, key string) error) error {
	for len(q.times) > 0 && q.times[0] <= wm {
		t := q.pop()
		b := q.buckets[t]
		delete(q.buckets, t)
		for _, k := range b.keys {
			if err := f(t, k); err != nil {
				return err
			}
		}
		clear(b.keys)
		b.keys = b.keys[:0]
		q.free = append(q.free, b)
	}
	return nil
}

// reset drops every timer.
func (q *timerQueue) reset() {
	clear(q.buckets)
	q.times = q.times[:0]
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

// push adds t to the heap of times.
func (q *timerQueue) push(t int64) {
	q.times = append(q.times, t)
	h := q.times
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if h[p] <= h[i] {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

// pop removes and returns the least time of the heap.
func (q *timerQueue) pop() int64 {
	h := q.times
	t := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r] < h[l] {
			m = r
		}
		if h[i] <= h[m] {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	q.times = h
	return t
}

// next returns the least time of the queue, if any.
func (q *timerQueue) next() (int64, bool) {
	if len(q.times) == 0 {
		return 0, false
	}
	return q.times[0], true
}
