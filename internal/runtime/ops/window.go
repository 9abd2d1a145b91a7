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
// a window [start, end) fires when the watermark reaches end - 1ms.
const millisecond = int64(time.Millisecond)

// Window is a window TVF's specification. Durations are nanoseconds.
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
	_, off := time.Unix(0, t).In(c.zone).Zone()
	return t + int64(off)*int64(time.Second)
}

// instant returns the instant of wall-clock time t (toEpochMillsForTimer).
func (c clock) instant(t int64) int64 {
	if c.zone == nil {
		return t
	}
	u := time.Unix(0, t).UTC()
	return time.Date(u.Year(), u.Month(), u.Day(), u.Hour(), u.Minute(), u.Second(), u.Nanosecond(), c.zone).UnixNano()
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

// windowed holds values of type V per window and key, and fires whole
// windows in order of their end. Windows are keyed by their end, which is
// unique among the windows of one aligned window function.
type windowed[V any] struct {
	table *state.Table[*windowKeys[V]]
	clock clock
	wkey  []byte
}

// windowKeys is the state of one window: a value per key, in order of the
// keys' first arrival.
type windowKeys[V any] struct {
	span  span
	index map[string]int // key -> position in keys and vals
	keys  []string
	vals  []V
}

func newWindowed[V any](st state.Backend, c clock, vc state.Codec[V]) *windowed[V] {
	codec := state.Codec[*windowKeys[V]]{
		Append: func(b []byte, w *windowKeys[V]) []byte {
			b = state.AppendVarint(b, w.span.start)
			b = state.AppendVarint(b, w.span.end)
			b = state.AppendUvarint(b, uint64(len(w.keys)))
			for i, k := range w.keys {
				b = state.AppendBytes(b, []byte(k))
				b = state.AppendBytes(b, vc.Append(nil, w.vals[i]))
			}
			return b
		},
		Decode: func(b []byte) (*windowKeys[V], error) {
			r := state.NewReader(b)
			w := &windowKeys[V]{span: span{r.Varint(), r.Varint()}, index: map[string]int{}}
			for n := r.Uvarint(); n > 0 && r.Err() == nil; n-- {
				k := string(r.Bytes())
				v, err := vc.Decode(r.Bytes())
				if err != nil {
					return nil, err
				}
				w.index[k] = len(w.keys)
				w.keys = append(w.keys, k)
				w.vals = append(w.vals, v)
			}
			return w, r.Done()
		},
	}
	return &windowed[V]{table: state.NewTable(st, "windows", codec), clock: c}
}

// fired reports whether the window ending at end fired at watermark wm.
func (w *windowed[V]) fired(end, wm int64) bool { return w.clock.windowTime(end) <= wm }

// get returns window s, creating it if needed, and the position of key in
// it, or -1 when the key has no value yet. A window is one table entry
// updated in place by put.
func (w *windowed[V]) get(s span, key []byte) (*windowKeys[V], int) {
	w.wkey = state.AppendVarint(w.wkey[:0], s.end)
	win, found := w.table.Get(w.wkey)
	if !found {
		win = &windowKeys[V]{span: s, index: map[string]int{}}
		w.table.Put(w.wkey, win)
	}
	if i, ok := win.index[string(key)]; ok {
		return win, i
	}
	return win, -1
}

// put stores v as the value of key, at position i (-1 for a new key), in
// window win.
func (w *windowed[V]) put(win *windowKeys[V], i int, key []byte, v V) {
	if i < 0 {
		win.index[string(key)] = len(win.keys)
		win.keys = append(win.keys, string(key))
		win.vals = append(win.vals, v)
	} else {
		win.vals[i] = v
	}
}

// fire removes the windows that fired at watermark wm and calls f for each,
// in order of end.
func (w *windowed[V]) fire(wm int64, f func(win *windowKeys[V]) error) error {
	var due []*windowKeys[V]
	for _, win := range w.table.All() {
		if w.fired(win.span.end, wm) {
			due = append(due, win)
		}
	}
	slices.SortFunc(due, func(a, b *windowKeys[V]) int { return cmp.Compare(a.span.end, b.span.end) })
	for _, win := range due {
		w.wkey = state.AppendVarint(w.wkey[:0], win.span.end)
		w.table.Delete(w.wkey)
		if err := f(win); err != nil {
			return err
		}
	}
	return nil
}
