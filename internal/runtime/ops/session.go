package ops

import (
	"cmp"
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
type sessions struct {
	table *state.Table[[]*session]
	types []types.Type
	gap   int64
	clock clock
}

// session is one open session window and its rows.
type session struct {
	span  span
	kinds []types.RowKind
	rows  []types.Row
}

func newSessions(st state.Backend, ts []types.Type, gap int64, c clock) *sessions {
	codec := state.Codec[[]*session]{
		Append: func(b []byte, ss []*session) []byte {
			b = state.AppendUvarint(b, uint64(len(ss)))
			for _, s := range ss {
				b = state.AppendVarint(b, s.span.start)
				b = state.AppendVarint(b, s.span.end)
				b = state.AppendUvarint(b, uint64(len(s.rows)))
				for i, r := range s.rows {
					b = state.AppendRow(state.AppendUvarint(b, uint64(s.kinds[i])), ts, r)
				}
			}
			return b
		},
		Decode: func(b []byte) ([]*session, error) {
			r := state.NewReader(b)
			var ss []*session
			for n := r.Uvarint(); n > 0 && r.Err() == nil; n-- {
				s := &session{span: span{r.Varint(), r.Varint()}}
				for m := r.Uvarint(); m > 0 && r.Err() == nil; m-- {
					s.kinds = append(s.kinds, types.RowKind(r.Uvarint()))
					s.rows = append(s.rows, r.Row(ts))
				}
				ss = append(ss, s)
			}
			return ss, r.Done()
		},
	}
	return &sessions{table: state.NewTable(st, "sessions", codec), types: ts, gap: gap, clock: c}
}

// add puts a row at wall-clock time t into the sessions of key, merging
// windows as needed. It reports false, changing nothing, when the row is
// late at watermark wm.
func (ss *sessions) add(key []byte, t int64, k types.RowKind, row types.Row, wm int64) bool {
	open, _ := ss.table.Get(key)
	merged := &session{span: span{t, t + ss.gap}}
	var keep []*session
	for _, s := range open {
		if s.span.start <= merged.span.end && s.span.end >= merged.span.start {
			merged.span = span{min(s.span.start, merged.span.start), max(s.span.end, merged.span.end)}
			merged.kinds = append(merged.kinds, s.kinds...)
			merged.rows = append(merged.rows, s.rows...)
		} else {
			keep = append(keep, s)
		}
	}
	if ss.clock.windowTime(merged.span.end) <= wm {
		return false
	}
	merged.kinds = append(merged.kinds, k)
	merged.rows = append(merged.rows, row)
	keep = append(keep, merged)
	slices.SortFunc(keep, func(a, b *session) int { return cmp.Compare(a.span.start, b.span.start) })
	ss.table.Put(key, keep)
	return true
}

// fire removes the sessions that fired at watermark wm and calls f for
// each, in order of end.
func (ss *sessions) fire(wm int64, f func(key string, s *session) error) error {
	type due struct {
		key string
		s   *session
	}
	var fired []due
	for key, open := range ss.table.All() {
		var keep []*session
		for _, s := range open {
			if ss.clock.windowTime(s.span.end) <= wm {
				fired = append(fired, due{key, s})
			} else {
				keep = append(keep, s)
			}
		}
		if len(keep) == len(open) {
			continue
		}
		if len(keep) == 0 {
			ss.table.Delete([]byte(key))
		} else {
			ss.table.Put([]byte(key), keep)
		}
	}
	slices.SortStableFunc(fired, func(a, b due) int { return cmp.Compare(a.s.span.end, b.s.span.end) })
	for _, d := range fired {
		if err := f(d.key, d.s); err != nil {
			return err
		}
	}
	return nil
}

// chunk returns the session's rows as a chunk of types ts.
func (s *session) chunk(ts []types.Type) *types.Chunk {
	c := types.NewChunk(ts, len(s.rows))
	for i, r := range s.rows {
		c.AppendRow(s.kinds[i], r)
	}
	return c
}
