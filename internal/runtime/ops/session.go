package ops

import (
	"slices"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// sessions holds the open session windows of each key with their rows,
// after Flink's session assigner and MergingWindowSet: a row at time t
// opens the window [t, t+gap), which merges with every open window of the
// key it intersects (touching windows merge too: TimeWindow.intersects).
// A row whose merged window has already fired is late. Rows are buffered
// because a merge must combine whole windows.
//
// Each key has one timer (timerQueue), at or before the time its earliest
// session fires; when it fires, the key's due sessions fire and the timer
// moves to the next one's time. A watermark thus visits only the keys
// with a session due.
type sessions struct {
	table  *state.Table[*keySessions]
	timers *timerQueue
	types  []types.Type
	gap    int64
	clock  clock
}

// keySessions is the state of one key: its open sessions, sorted by start
// and apart (no two intersect), and the time of its timer.
type keySessions struct {
	timer int64
	open  []*session
}

// session is one open session window and its rows.
type session struct {
	span  span
	kinds []types.RowKind
	rows  []types.Row
}

func newSessions(st state.Backend, ts []types.Type, gap int64, c clock) *sessions {
	codec := state.Codec[*keySessions]{
		Append: func(b []byte, ks *keySessions) []byte {
			b = state.AppendVarint(b, ks.timer)
			b = state.AppendUvarint(b, uint64(len(ks.open)))
			for _, s := range ks.open {
				b = state.AppendVarint(b, s.span.start)
				b = state.AppendVarint(b, s.span.end)
				b = state.AppendUvarint(b, uint64(len(s.rows)))
				for i, r := range s.rows {
					b = state.AppendRow(state.AppendUvarint(b, uint64(s.kinds[i])), ts, r)
				}
			}
			return b
		},
		Decode: func(b []byte) (*keySessions, error) {
			r := state.NewReader(b)
			ks := &keySessions{timer: r.Varint()}
			for n := r.Uvarint(); n > 0 && r.Err() == nil; n-- {
				s := &session{span: span{r.Varint(), r.Varint()}}
				for m := r.Uvarint(); m > 0 && r.Err() == nil; m-- {
					s.kinds = append(s.kinds, types.RowKind(r.Uvarint()))
					s.rows = append(s.rows, r.Row(ts))
				}
				ks.open = append(ks.open, s)
			}
			return ks, r.Done()
		},
	}
	ss := &sessions{table: state.NewTable(st, "sessions", codec), timers: newTimerQueue(), types: ts, gap: gap, clock: c}
	ss.table.OnRestore(func() {
		var ts []timer
		for k, ks := range ss.table.All() {
			ts = append(ts, timer{time: ks.timer, key: k})
		}
		ss.timers.rebuildTimers(ts)
	})
	return ss
}

// add puts a row at wall-clock time t into the sessions of key, merging
// windows as needed. It reports false, changing nothing, when the row is
// late at watermark wm. The row goes into the earliest session it merges,
// the rows of the later ones after it, so a row that extends a session
// costs no copy.
func (ss *sessions) add(key []byte, t int64, k types.RowKind, row types.Row, wm int64) bool {
	ks, found := ss.table.Get(key)
	if !found {
		ks = &keySessions{}
	}
	// The sessions the new window [t, t+gap) intersects are
	// open[first:first+n]; with none, first is where it goes.
	merged := span{t, t + ss.gap}
	first, n := len(ks.open), 0
	for i, s := range ks.open {
		if s.span.start <= merged.end && s.span.end >= merged.start {
			if n == 0 {
				first = i
			}
			n++
		} else if n > 0 || s.span.start > merged.end {
			if n == 0 {
				first = i
			}
			break
		}
	}
	if n > 0 {
		merged = span{min(merged.start, ks.open[first].span.start), max(merged.end, ks.open[first+n-1].span.end)}
	}
	fires := ss.clock.windowTime(merged.end)
	if fires <= wm {
		return false
	}
	if n == 0 {
		ks.open = slices.Insert(ks.open, first, &session{span: merged, kinds: []types.RowKind{k}, rows: []types.Row{row}})
	} else {
		s := ks.open[first]
		for _, o := range ks.open[first+1 : first+n] {
			s.kinds = append(s.kinds, o.kinds...)
			s.rows = append(s.rows, o.rows...)
		}
		s.span = merged
		s.kinds = append(s.kinds, k)
		s.rows = append(s.rows, row)
		ks.open = slices.Delete(ks.open, first+1, first+n)
	}
	switch {
	case !found:
		ks.timer = fires
		skey := string(key)
		ss.table.PutString(skey, ks)
		ss.timers.add(fires, skey)
	case fires < ks.timer:
		// A session earlier than the key's timer.
		ks.timer = fires
		ss.timers.add(fires, string(key))
	}
	return true
}

// fire removes the sessions that fired at watermark wm and calls f for
// each, in order of the time they fire.
func (ss *sessions) fire(wm int64, f func(key string, s *session) error) error {
	var due []*session
	return ss.timers.fire(wm, func(t int64, key string) error {
		ks, ok := ss.table.GetString(key)
		if !ok || ks.timer != t {
			return nil // stale
		}
		due = due[:0]
		next, keep := int64(0), ks.open[:0]
		for _, s := range ks.open {
			if at := ss.clock.windowTime(s.span.end); at <= t {
				due = append(due, s)
			} else {
				if len(keep) == 0 || at < next {
					next = at
				}
				keep = append(keep, s)
			}
		}
		clear(ks.open[len(keep):])
		ks.open = keep
		if len(keep) == 0 {
			ss.table.DeleteString(key)
		} else {
			ks.timer = next
			ss.timers.add(next, key)
		}
		for _, s := range due {
			if err := f(key, s); err != nil {
				return err
			}
		}
		return nil
	})
}
