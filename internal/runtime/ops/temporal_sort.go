package ops

import (
	"errors"
	"fmt"
	"slices"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// TemporalSortConfig configures a TemporalSort.
type TemporalSortConfig struct {
	// InputTypes are the input's column types.
	InputTypes []types.Type
	// TimeCol is the event-time attribute the rows are sorted on first,
	// ascending.
	TimeCol int
	// Order holds the secondary sort keys, applied among rows of equal
	// time.
	Order []SortKey
}

// TemporalSort is ORDER BY rowtime [, more keys] without LIMIT over an
// insert-only input of parallelism 1, after Flink's RowTimeSortOperator:
// rows are buffered by time and emitted in time order as the watermark
// passes their time, rows of one time sorted by the secondary keys (stably).
// A row whose time is not after the last time emitted is late and dropped;
// a row behind the watermark but after that time waits for the next
// watermark. Each buffered time has a timer (timerQueue), so a watermark
// visits only the times due.
type TemporalSort struct {
	counter
	onWatermark
	cfg    TemporalSortConfig
	cmp    comparator
	st     state.Backend
	rows   *state.Table[[]types.Row]
	last   *state.Table[int64]
	timers *timerQueue
	// restoreErr is a restored key that is no time, reported by the next
	// watermark.
	restoreErr error
	tkey       []byte
}

// lastKey is the key of the one entry of the last-emitted-time table.
var lastKey = []byte{}

// NewTemporalSort returns a TemporalSort for cfg.
func NewTemporalSort(cfg TemporalSortConfig, st state.Backend) (*TemporalSort, error) {
	if err := checkCols("temporal sort time column", []int{cfg.TimeCol}, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	if err := checkSortKeys(cfg.Order, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	s := &TemporalSort{cfg: cfg, cmp: newComparator(cfg.Order, cfg.InputTypes), st: st, timers: newTimerQueue()}
	s.rows = state.NewTable(s.st, "rows", rowsCodec(cfg.InputTypes))
	s.rows.OnRestore(func() {
		var ts []timer
		for k := range s.rows.All() {
			t, err := state.Int64Codec.Decode([]byte(k))
			if err != nil {
				s.restoreErr = fmt.Errorf("temporal sort: restored key %x is no time: %w", k, err)
			}
			ts = append(ts, timer{time: t, key: k})
		}
		s.timers.rebuildTimers(ts)
	})
	s.last = state.NewOperatorTable(s.st, "last", state.Int64Codec, func(a, b int64) int64 { return max(a, b) })
	out := newOutput(cfg.InputTypes)
	s.onWatermark = newOnWatermark(func(wm int64, e runtime.Emitter) error { return s.fire(wm, out.to(e)) })
	return s, nil
}

// State implements Stateful; its Len is the number of buffered distinct
// times (plus one once a time has been emitted).
func (s *TemporalSort) State() state.Backend { return s.st }

// ProcessChunk implements runtime.Operator.
func (s *TemporalSort) ProcessChunk(_ int, c *types.Chunk, _ runtime.Emitter) error {
	last, emitted := s.last.Get(lastKey)
	tc := c.Cols[s.cfg.TimeCol]
	for i := range c.Len() {
		if c.Ops[i] != types.Insert {
			return errors.New("temporal sort: input must be insert-only")
		}
		t := tc.Get(i).I
		if emitted && t <= last {
			s.n.Add(1)
			continue
		}
		s.tkey = state.AppendVarint(s.tkey[:0], t)
		rows, found := s.rows.Get(s.tkey)
		if found {
			s.rows.Put(s.tkey, append(rows, c.Row(i)))
			continue
		}
		k := string(s.tkey)
		s.rows.PutString(k, []types.Row{c.Row(i)})
		s.timers.add(t, k)
	}
	return nil
}

// fire emits the rows of every time up to wm, in order.
func (s *TemporalSort) fire(wm int64, w *output) error {
	defer w.flush()
	if s.restoreErr != nil {
		return s.restoreErr
	}
	return s.timers.fire(wm, func(t int64, k string) error {
		rows, ok := s.rows.GetString(k)
		if !ok {
			return nil
		}
		slices.SortStableFunc(rows, s.cmp.compare)
		for _, r := range rows {
			w.add(types.Insert, r)
		}
		s.rows.DeleteString(k)
		s.last.Put(lastKey, t)
		return nil
	})
}
