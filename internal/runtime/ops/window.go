package ops

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// WindowKind is the kind of a window table-valued function.
type WindowKind int

// Window kinds.
const (
	// Tumble windows of Size, aligned to Offset.
	Tumble WindowKind = iota
	// Hop windows of Size every Slide, aligned to Offset.
	Hop
	// Cumulate windows grow by Slide (the step) from the start of a
	// period of Size (the max size), aligned to Offset.
	Cumulate
	// Session windows close after Gap without rows (per key).
	Session
)

// millisecond is the unit Flink's window ends and watermarks are compared in:
// a window [start, end) fires when the watermark reaches end - 1ms. Event
// time, like a TIMESTAMP(3) time attribute, is in microseconds.
const (
	millisecond     = int64(time.Millisecond / time.Microsecond)
	microsPerSecond = int64(time.Second / time.Microsecond)
)

// Window is a window TVF's specification. Durations are microseconds.
type Window struct {
	// Kind is the window function.
	Kind WindowKind
	// TimeCol is the event-time attribute (TIMESTAMP(p) or TIMESTAMP_LTZ(p)).
	TimeCol int
	// Size is the TUMBLE or HOP size, or the CUMULATE max size.
	Size int64
	// Slide is the HOP slide or the CUMULATE step.
	Slide int64
	// Offset shifts the window alignment (TUMBLE, HOP, CUMULATE).
	Offset int64
	// Gap is the SESSION gap.
	Gap int64
	// Zone is the session time zone (table.local-time-zone). It only
	// matters when TimeCol is a TIMESTAMP_LTZ: windows then align to the
	// zone's wall clock, window_start and window_end are wall-clock
	// TIMESTAMPs and window_time is an instant. nil means UTC.
	Zone *time.Location
}

// span is one window: [start, end) in wall-clock time.
type span struct{ start, end int64 }

// validate checks w against the input types.
func (w Window) validate(in []types.Type) error {
	if w.TimeCol < 0 || w.TimeCol >= len(in) || !in[w.TimeCol].IsTimestamp() {
		return fmt.Errorf("window: time column %d is not a timestamp", w.TimeCol)
	}
	switch w.Kind {
	case Tumble:
		if w.Size <= 0 {
			return errors.New("window: TUMBLE size must be positive")
		}
	case Hop:
		if w.Size <= 0 || w.Slide <= 0 {
			return errors.New("window: HOP size and slide must be positive")
		}
	case Cumulate:
		if w.Size <= 0 || w.Slide <= 0 || w.Size%w.Slide != 0 {
			return errors.New("window: CUMULATE max size must be a positive multiple of the step")
		}
	case Session:
		if w.Gap <= 0 {
			return errors.New("window: SESSION gap must be positive")
		}
	default:
		return fmt.Errorf("window: unknown kind %d", w.Kind)
	}
	return nil
}

// clock converts between event time (instants, the watermark's scale) and
// the wall-clock time windows are computed in, after Flink's
// TimeWindowUtil: the identity unless the time column is a TIMESTAMP_LTZ
// and the zone is not UTC.
type clock struct{ zone *time.Location }

func newClock(w Window, in []types.Type) clock {
	if in[w.TimeCol].Kind != types.TimestampLTZ {
		return clock{}
	}
	return zoneClock(w.Zone)
}

// zoneClock returns the clock of wall-clock times in zone z.
func zoneClock(z *time.Location) clock {
	if z == nil || z == time.UTC {
		return clock{}
	}
	return clock{zone: z}
}

// local returns the wall-clock time of instant t (toUtcTimestampMills).
func (c clock) local(t int64) int64 {
	if c.zone == nil {
		return t
	}
	_, off := time.UnixMicro(t).In(c.zone).Zone()
	return t + int64(off)*microsPerSecond
}

// instant returns the instant of wall-clock time t (toEpochMillsForTimer).
func (c clock) instant(t int64) int64 {
	if c.zone == nil {
		return t
	}
	u := time.UnixMicro(t).UTC()
	return time.Date(u.Year(), u.Month(), u.Day(), u.Hour(), u.Minute(), u.Second(), u.Nanosecond(), c.zone).UnixMicro()
}

// windowClock returns the wall-clock time of row time ns for assigning
// windows, and an error when a window around it would leave the range of
// timestamps (its window_end or window_time would wrap around).
func (w Window) windowClock(c clock, ns int64) (int64, error) {
	// A window reaches at most its size (or gap) from the row time; a day
	// more covers any zone offset between wall clock and instant.
	reach := max(w.Size, w.Gap) + 86400*microsPerSecond
	_, offset := time.UnixMicro(ns).In(c.zoneOrUTC()).Zone()
	t, ok := types.AddMicros(ns, int64(offset)*microsPerSecond)
	if ok {
		_, up := types.AddMicros(t, reach)
		_, down := types.AddMicros(t, -reach)
		ok = up && down
	}
	if !ok {
		return 0, &types.RangeError{What: "a window of the row time " + types.LiteralText(types.TimestampLTZType(6), types.IntValue(ns), time.UTC) + " (UTC)"}
	}
	return c.local(ns), nil
}

func (c clock) zoneOrUTC() *time.Location {
	if c.zone == nil {
		return time.UTC
	}
	return c.zone
}

// windowTime returns a window's window_time, the instant of its last
// millisecond; the window fires when the watermark reaches it.
func (c clock) windowTime(end int64) int64 { return c.instant(end - millisecond) }

// startOf returns the start of the window of size that contains t
// (TimeWindow.getWindowStartWithOffset, with a floor modulo).
func startOf(t, offset, size int64) int64 {
	rem := (t - offset) % size
	if rem < 0 {
		rem += size
	}
	return t - rem
}

// assign appends the windows of an aligned window function containing
// wall-clock time t, in the order Flink's assigners list them: hop windows
// from the latest start, cumulate windows from the smallest end.
func (w Window) assign(dst []span, t int64) []span {
	switch w.Kind {
	case Tumble:
		s := startOf(t, w.Offset, w.Size)
		return append(dst, span{s, s + w.Size})
	case Hop:
		for s := startOf(t, w.Offset, w.Slide); s > t-w.Size; s -= w.Slide {
			dst = append(dst, span{s, s + w.Size})
		}
		return dst
	default: // Cumulate
		s := startOf(t, w.Offset, w.Size)
		for e := s + w.Slide; e <= s+w.Size; e += w.Slide {
			if e > t {
				dst = append(dst, span{s, e})
			}
		}
		return dst
	}
}

// windowColumnTypes returns the types of window_start, window_end and
// window_time for a time column of type t: TIMESTAMP(3) NOT NULL twice,
// then a rowtime TIMESTAMP(3) or TIMESTAMP_LTZ(3) NOT NULL.
func windowColumnTypes(t types.Type) []types.Type {
	ts := types.TimestampType(3).WithNotNull(true)
	wt := ts
	if t.Kind == types.TimestampLTZ {
		wt = types.TimestampLTZType(3).WithNotNull(true)
	}
	wt.Attr = types.RowTime
	return []types.Type{ts, ts, wt}
}

// appendWindow appends window_start, window_end and window_time to r.
func (c clock) appendWindow(r types.Row, s span) types.Row {
	return append(r, types.IntValue(s.start), types.IntValue(s.end), types.IntValue(c.windowTime(s.end)))
}

// counter counts dropped rows; it may be read from other goroutines.
type counter struct{ n atomic.Int64 }

// Dropped returns the number of input rows dropped as late, or for a NULL
// time, as the operator's documentation describes.
func (c *counter) Dropped() int64 { return c.n.Load() }

// windowed holds values of type V per key and window, and fires whole
// windows in order of their end, the keys of a window in order of their
// first arrival in it. The state is one entry per key (the operator's
// partitioning key, so the entry has that key's group) holding the key's
// open windows; windows are told apart by their end, which is unique
// among the windows of one aligned window function. An index of the open
// windows, each with its keys in order, is derived from the entries: each
// key's window keeps its position among the window's keys, so the index
// is rebuilt in the same order after a restore, and keys gathered from
// several instances interleave by position.
type windowed[V any] struct {
	table *state.Table[[]keyWindow[V]]
	index map[int64]*windowIndex
	clock clock
}

// keyWindow is a key's value in one window and the key's position among
// the window's keys.
type keyWindow[V any] struct {
	span span
	pos  int64
	v    V
}

// windowIndex is one open window: its keys in order of first arrival,
// and the position of the next new key.
type windowIndex struct {
	span span
	keys []string
	next int64
}

func newWindowed[V any](st state.Backend, c clock, vc state.Codec[V]) *windowed[V] {
	var val []byte
	codec := state.Codec[[]keyWindow[V]]{
		Append: func(b []byte, wins []keyWindow[V]) []byte {
			b = state.AppendUvarint(b, uint64(len(wins)))
			for _, win := range wins {
				b = state.AppendVarint(b, win.span.start)
				b = state.AppendVarint(b, win.span.end)
				b = state.AppendVarint(b, win.pos)
				val = vc.Append(val[:0], win.v)
				b = state.AppendBytes(b, val)
			}
			return b
		},
		Decode: func(b []byte) ([]keyWindow[V], error) {
			r := state.NewReader(b)
			var wins []keyWindow[V]
			for n := r.Uvarint(); n > 0 && r.Err() == nil; n-- {
				win := keyWindow[V]{span: span{r.Varint(), r.Varint()}, pos: r.Varint()}
				v, err := vc.Decode(r.Bytes())
				if err != nil {
					return nil, err
				}
				win.v = v
				wins = append(wins, win)
			}
			return wins, r.Done()
		},
	}
	w := &windowed[V]{table: state.NewTable(st, "windows", codec), index: map[int64]*windowIndex{}, clock: c}
	w.table.OnRestore(w.reindex)
	return w
}

// reindex rebuilds the index of open windows from the entries.
func (w *windowed[V]) reindex() {
	type positioned struct {
		pos int64
		key string
	}
	keys := map[int64][]positioned{}
	w.index = map[int64]*windowIndex{}
	for k, wins := range w.table.All() {
		for _, win := range wins {
			idx := w.index[win.span.end]
			if idx == nil {
				idx = &windowIndex{span: win.span}
				w.index[win.span.end] = idx
			}
			idx.next = max(idx.next, win.pos+1)
			keys[win.span.end] = append(keys[win.span.end], positioned{win.pos, k})
		}
	}
	for end, ks := range keys {
		slices.SortFunc(ks, func(a, b positioned) int { return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(a.key, b.key)) })
		idx := w.index[end]
		for _, pk := range ks {
			idx.keys = append(idx.keys, pk.key)
		}
	}
}

// fired reports whether the window ending at end fired at watermark wm.
func (w *windowed[V]) fired(end, wm int64) bool { return w.clock.windowTime(end) <= wm }

// value returns where key's value in window s is kept, adding the key to
// the window (with V's zero value, and fresh set) if it has none yet. The
// pointer is valid until the next call.
func (w *windowed[V]) value(s span, key []byte) (v *V, fresh bool) {
	wins, found := w.table.Get(key)
	for i := range wins {
		if wins[i].span.end == s.end {
			return &wins[i].v, false
		}
	}
	idx := w.index[s.end]
	if idx == nil {
		idx = &windowIndex{span: s}
		w.index[s.end] = idx
	}
	wins = append(wins, keyWindow[V]{span: s, pos: idx.next})
	idx.next++
	if found {
		w.table.Put(key, wins)
		idx.keys = append(idx.keys, string(key))
	} else {
		// One string for the entry and the index.
		k := string(key)
		w.table.PutString(k, wins)
		idx.keys = append(idx.keys, k)
	}
	return &wins[len(wins)-1].v, true
}

// fire removes the windows that fired at watermark wm and calls f for
// each key of each, windows in order of end, keys in order of first
// arrival.
func (w *windowed[V]) fire(wm int64, f func(s span, key string, v V) error) error {
	var due []*windowIndex
	for end, idx := range w.index {
		if w.fired(end, wm) {
			due = append(due, idx)
		}
	}
	slices.SortFunc(due, func(a, b *windowIndex) int { return cmp.Compare(a.span.end, b.span.end) })
	for _, idx := range due {
		delete(w.index, idx.span.end)
		for _, k := range idx.keys {
			wins, _ := w.table.GetString(k)
			i := slices.IndexFunc(wins, func(win keyWindow[V]) bool { return win.span.end == idx.span.end })
			v := wins[i].v
			if wins = slices.Delete(wins, i, i+1); len(wins) == 0 {
				w.table.DeleteString(k)
			} else {
				w.table.PutString(k, wins)
			}
			if err := f(idx.span, k, v); err != nil {
				return err
			}
		}
	}
	return nil
}
