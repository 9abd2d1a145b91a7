package ops

import (
	"errors"
	"fmt"
	"slices"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// ProcTimeSort is ORDER BY a processing-time attribute (ascending, first)
// over an insert-only input of parallelism 1, after Flink's
// StreamExecTemporalSort and ProcTimeSortOperator:
//
//   - without further keys the rows are in order as they arrive, and pass
//     at once (Flink forwards them);
//   - with further keys (cfg.Order) the rows wait: the first row to wait,
//     arrived in millisecond t, sets Flink's processing-time timer at
//     t + 1, which rings a millisecond after its time, so when the clock
//     reaches t + 2 ms; then every row waiting is emitted, sorted by the
//     further keys (stably, so rows alike keep their order of arrival);
//   - watermarks pass on; at the end of the input the rows still waiting
//     are dropped, as Flink cancels a finished task's pending
//     processing-time timers (FLINK-14231).
//
// The waiting rows are state, under the millisecond of the first; a
// restored instance sets its timer again, which rings at once when due.
type ProcTimeSort struct {
	cfg  TemporalSortConfig
	cmp  comparator
	st   state.Backend
	rows *state.Table[[]types.Row]
	pt   *runtime.ProcessingTimeService
	out  *output
	// waiting is set while rows wait, since the millisecond since (whose
	// encoding key is the rows' key).
	waiting bool
	since   int64
	key     []byte
	// restoreErr is a restored key that is no time, reported when the
	// instance opens.
	restoreErr error
}

// NewProcTimeSort returns a ProcTimeSort for cfg, whose TimeCol is the
// processing-time attribute.
func NewProcTimeSort(cfg TemporalSortConfig, st state.Backend) (*ProcTimeSort, error) {
	if err := checkCols("processing-time sort time column", []int{cfg.TimeCol}, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	if err := checkSortKeys(cfg.Order, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	s := &ProcTimeSort{cfg: cfg, cmp: newComparator(cfg.Order, cfg.InputTypes), st: st, out: newOutput(cfg.InputTypes)}
	s.rows = state.NewTable(s.st, "rows", rowsCodec(cfg.InputTypes))
	s.rows.OnRestore(func() {
		s.waiting = false
		for k := range s.rows.All() {
			t, err := state.Int64Codec.Decode([]byte(k))
			if err != nil {
				s.restoreErr = fmt.Errorf("processing-time sort: restored key %x is no time: %w", k, err)
				return
			}
			s.waiting, s.since, s.key = true, t, []byte(k)
		}
	})
	return s, nil
}

// State implements Stateful; its Len is 1 while rows wait.
func (s *ProcTimeSort) State() state.Backend { return s.st }

// Open implements runtime.Operator.
func (s *ProcTimeSort) Open(ctx *runtime.Context) error {
	s.pt = ctx.ProcessingTime
	if s.restoreErr != nil {
		return s.restoreErr
	}
	if s.waiting {
		s.pt.Register(s.since + 2*millisecond)
	}
	return nil
}

// ProcessChunk implements runtime.Operator.
func (s *ProcTimeSort) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	for i := range c.Len() {
		if c.Ops[i] != types.Insert {
			return errors.New("processing-time sort: input must be insert-only")
		}
	}
	if len(s.cfg.Order) == 0 {
		out.Emit(c)
		return nil
	}
	rows, _ := s.rows.Get(s.key)
	if !s.waiting {
		s.waiting, s.since = true, floorMilli(s.pt.Now())
		s.key = state.AppendVarint(s.key[:0], s.since)
		rows = nil
		s.pt.Register(s.since + 2*millisecond)
	}
	for i := range c.Len() {
		rows = append(rows, c.Row(i))
	}
	s.rows.Put(s.key, rows)
	return nil
}

// OnProcessingTime implements runtime.ProcessingTimer: once the clock is
// 2 ms past the millisecond of the first row waiting, every row waiting
// is emitted, sorted.
func (s *ProcTimeSort) OnProcessingTime(now int64, out runtime.Emitter) error {
	if !s.waiting {
		return nil
	}
	if floorMilli(now) < s.since+2*millisecond {
		s.pt.Register(s.since + 2*millisecond)
		return nil
	}
	rows, _ := s.rows.Get(s.key)
	slices.SortStableFunc(rows, s.cmp.compare)
	w := s.out.to(out)
	for _, r := range rows {
		w.add(types.Insert, r)
	}
	w.flush()
	s.rows.Delete(s.key)
	s.waiting = false
	return nil
}

// ProcessWatermark implements runtime.Operator: watermarks pass on.
func (s *ProcTimeSort) ProcessWatermark(wm int64, out runtime.Emitter) error {
	out.EmitWatermark(wm)
	return nil
}

// Finish implements runtime.Operator: the rows still waiting are dropped.
func (s *ProcTimeSort) Finish(runtime.Emitter) error { return nil }
