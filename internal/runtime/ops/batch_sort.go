package ops

import (
	"fmt"
	"slices"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// BatchSortConfig configures a BatchSort.
type BatchSortConfig struct {
	InputTypes []types.Type
	// Order sorts the final rows; without it they keep the order they
	// were first inserted in.
	Order []SortKey
	// Offset rows are skipped, then N are emitted (-1: all).
	Offset, N int64
}

// BatchSort is the end of a batch query's pipeline (Flink's batch Sort,
// SortLimit, and the final result of a query run in batch mode): it
// applies its input's changelog, +I and +U adding a row, -U and -D taking
// back an equal one, and when the input ends emits the rows that remain,
// insert-only and sorted, then the maximum watermark. It holds the
// watermark back until then, so that nothing downstream takes the rows it
// emits at the end for late ones. It runs as one instance.
type BatchSort struct {
	cfg  BatchSortConfig
	cmp  comparator
	rows []types.Row
	// live marks the rows not taken back; byHash indexes the live rows by
	// rowHash.
	live   []bool
	byHash map[uint64][]int
	out    *output
}

// NewBatchSort returns a batch sort.
func NewBatchSort(cfg BatchSortConfig) (*BatchSort, error) {
	if err := checkSortKeys(cfg.Order, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	if cfg.Offset < 0 || cfg.N < -1 {
		return nil, fmt.Errorf("offset %d and row count %d: expected an offset of 0 or more and a count of -1 (all) or more", cfg.Offset, cfg.N)
	}
	return &BatchSort{cfg: cfg, cmp: newComparator(cfg.Order, cfg.InputTypes), byHash: map[uint64][]int{}, out: newOutput(cfg.InputTypes)}, nil
}

// Open implements runtime.Operator.
func (s *BatchSort) Open(*runtime.Context) error { return nil }

// ProcessChunk implements runtime.Operator.
func (s *BatchSort) ProcessChunk(_ int, c *types.Chunk, _ runtime.Emitter) error {
	for i := range c.Len() {
		r := c.Row(i)
		h := rowHash(r)
		if c.Ops[i].IsAccumulate() {
			s.byHash[h] = append(s.byHash[h], len(s.rows))
			s.rows = append(s.rows, r)
			s.live = append(s.live, true)
		} else if !s.retract(h, r) {
			return fmt.Errorf("a retraction (%s) of a row the result does not hold", c.Ops[i])
		}
	}
	return nil
}

// retract takes back the latest live row equal to r, whose hash is h.
func (s *BatchSort) retract(h uint64, r types.Row) bool {
	idx := s.byHash[h]
	for k := len(idx) - 1; k >= 0; k-- {
		if rowsEqual(s.rows[idx[k]], r) {
			s.live[idx[k]] = false
			s.rows[idx[k]] = nil
			if len(idx) == 1 {
				delete(s.byHash, h)
			} else {
				s.byHash[h] = slices.Delete(idx, k, k+1)
			}
			return true
		}
	}
	return false
}

// ProcessWatermark implements runtime.Operator: the watermark waits for
// the final rows.
func (s *BatchSort) ProcessWatermark(int64, runtime.Emitter) error { return nil }

// Finish implements runtime.Operator: it emits the final rows.
func (s *BatchSort) Finish(out runtime.Emitter) error {
	rows := make([]types.Row, 0, len(s.rows))
	for i, r := range s.rows {
		if s.live[i] {
			rows = append(rows, r)
		}
	}
	s.rows, s.live, s.byHash = nil, nil, nil
	if len(s.cfg.Order) > 0 {
		slices.SortStableFunc(rows, s.cmp.compare)
	}
	rows = rows[min(s.cfg.Offset, int64(len(rows))):]
	if s.cfg.N >= 0 && s.cfg.N < int64(len(rows)) {
		rows = rows[:s.cfg.N]
	}
	o := s.out.to(out)
	for _, r := range rows {
		o.add(types.Insert, r)
	}
	o.flush()
	out.EmitWatermark(runtime.MaxWatermark)
	return nil
}
