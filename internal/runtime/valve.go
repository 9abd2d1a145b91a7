package runtime

import "container/heap"

// valve merges the watermarks an operator instance receives from its
// upstream senders (the instances of all its inputs), as Flink's
// StatusWatermarkValve does: the merged watermark is the minimum over the
// senders that are not idle; a finished sender counts as the maximum
// watermark.
//
// The senders that are not idle sit in a min-heap on their watermark, so
// a message costs O(log senders). Behind a hash exchange at parallelism p
// every instance has p senders and every sender sends each watermark to
// all p instances: rescanning all senders per message would cost p³ per
// round of watermarks.
type valve struct {
	first []int   // first sender number of each input
	wm    []int64 // per sender number
	idle  []bool
	h     senderHeap
}

// newValve returns a valve for inputs with the given numbers of senders,
// all active at MinWatermark.
func newValve(senders []int) *valve {
	v := &valve{first: make([]int, len(senders))}
	total := 0
	for n, c := range senders {
		v.first[n] = total
		total += c
	}
	v.wm = make([]int64, total)
	v.idle = make([]bool, total)
	v.h = senderHeap{wm: v.wm, pos: make([]int, total), ids: make([]int, total)}
	for s := range total {
		v.wm[s] = MinWatermark
		v.h.ids[s], v.h.pos[s] = s, s
	}
	return v
}

// sender returns the sender number of instance k of input n.
func (v *valve) sender(n, k int) int { return v.first[n] + k }

// activate marks sender s as not idle.
func (v *valve) activate(s int) {
	if v.idle[s] {
		v.idle[s] = false
		heap.Push(&v.h, s)
	}
}

// observe records sender s's watermark wm (a watermark never goes back)
// and marks s active.
func (v *valve) observe(s int, wm int64) {
	v.activate(s)
	if wm > v.wm[s] {
		v.wm[s] = wm
		heap.Fix(&v.h, v.h.pos[s])
	}
}

// markIdle leaves sender s out of the minimum until it is active again.
func (v *valve) markIdle(s int) {
	if !v.idle[s] {
		v.idle[s] = true
		heap.Remove(&v.h, v.h.pos[s])
	}
}

// merged returns the minimum watermark over the active senders, and false
// when every sender is idle.
func (v *valve) merged() (int64, bool) {
	if v.h.Len() == 0 {
		return 0, false
	}
	return v.wm[v.h.ids[0]], true
}

// senderHeap is a min-heap of sender numbers on their watermarks; pos
// tracks each sender's index in ids.
type senderHeap struct {
	ids []int
	pos []int
	wm  []int64
}

func (h *senderHeap) Len() int           { return len(h.ids) }
func (h *senderHeap) Less(i, j int) bool { return h.wm[h.ids[i]] < h.wm[h.ids[j]] }

func (h *senderHeap) Swap(i, j int) {
	h.ids[i], h.ids[j] = h.ids[j], h.ids[i]
	h.pos[h.ids[i]], h.pos[h.ids[j]] = i, j
}

func (h *senderHeap) Push(x any) {
	s := x.(int)
	h.pos[s] = len(h.ids)
	h.ids = append(h.ids, s)
}

func (h *senderHeap) Pop() any {
	s := h.ids[len(h.ids)-1]
	h.ids = h.ids[:len(h.ids)-1]
	return s
}
