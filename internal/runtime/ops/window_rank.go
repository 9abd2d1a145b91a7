package ops

import (
	"errors"
	"slices"
	"sort"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// WindowRankConfig configures a window Top-N (NewWindowRank).
type WindowRankConfig struct {
	// InputTypes are the input's column types: the output of a window TVF.
	InputTypes []types.Type
	// PartitionKeys are the PARTITION BY columns, including window_start
	// and window_end.
	PartitionKeys []int
	// Order is the ORDER BY of the ROW_NUMBER.
	Order []SortKey
	// Start and End are the 1-based inclusive range of row numbers kept.
	Start, End int64
	// OutputRankNumber appends the row number as a BIGINT NOT NULL column.
	OutputRankNumber bool
	// WindowEndCol is the window_end column; a window's rows are emitted
	// when the watermark reaches window_end - 1ms.
	WindowEndCol int
	// Zone is the session time zone when the windows were assigned over a
	// TIMESTAMP_LTZ column (window_end is then a wall-clock time in it);
	// nil otherwise.
	Zone *time.Location
}

// WindowDeduplicateConfig configures a window deduplication
// (NewWindowDeduplicate).
type WindowDeduplicateConfig struct {
	// InputTypes are the input's column types: the output of a window TVF.
	InputTypes []types.Type
	// PartitionKeys are the PARTITION BY columns, including window_start
	// and window_end.
	PartitionKeys []int
	// TimeCol is the event-time attribute in the ORDER BY.
	TimeCol int
	// KeepLast keeps the row with the latest time (ORDER BY time DESC);
	// otherwise the earliest.
	KeepLast bool
	// OutputRankNumber appends the row number, always 1, as a BIGINT NOT
	// NULL column.
	OutputRankNumber bool
	// WindowEndCol is the window_end column.
	WindowEndCol int
	// Zone is as in WindowRankConfig.
	Zone *time.Location
}

// WindowRank buffers the rows of each window and partition and, when the
// watermark passes the window, emits the partition's Top-N as +I rows in
// rank order, after Flink's WindowRankOperator (TopNRecordsCombiner: only
// the best End rows are kept, equal order keys keep their arrival order)
// and RowTimeWindowDeduplicateOperator (RowTimeDeduplicateRecordsCombiner:
// keep-first replaces the kept row only with a strictly earlier one,
// keep-last with one at least as late). Rows whose window has fired are
// late and dropped, as are rows with a NULL window_end. The input must be
// insert-only.
type WindowRank struct {
	counter
	onWatermark
	types   []types.Type
	parts   []int
	end     int
	start   int
	endCol  int
	number  bool
	combine func(rows []types.Row, row types.Row) []types.Row
	st      state.Backend
	windows *windowed[[]types.Row]
	out     *output
	key     []byte
	buf     types.Row
}

// NewWindowRank returns a window Top-N for cfg.
func NewWindowRank(cfg WindowRankConfig, st state.Backend) (*WindowRank, error) {
	if err := checkSortKeys(cfg.Order, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	if cfg.Start < 1 || cfg.End < cfg.Start {
		return nil, errors.New("window rank: invalid row number range")
	}
	cmp := newComparator(cfg.Order, cfg.InputTypes)
	end := int(cfg.End)
	combine := func(rows []types.Row, row types.Row) []types.Row {
		p := sort.Search(len(rows), func(j int) bool { return cmp.compare(rows[j], row) > 0 })
		if p >= end {
			return rows
		}
		rows = slices.Insert(rows, p, row)
		return rows[:min(len(rows), end)]
	}
	return newWindowRank(cfg.InputTypes, cfg.PartitionKeys, cfg.WindowEndCol, cfg.Zone, int(cfg.Start), end, cfg.OutputRankNumber, combine, st)
}

// NewWindowDeduplicate returns a WindowRank that keeps the first or last
// row of each window and partition by event time.
func NewWindowDeduplicate(cfg WindowDeduplicateConfig, st state.Backend) (*WindowRank, error) {
	if err := checkCols("window deduplicate time column", []int{cfg.TimeCol}, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	tc := cfg.TimeCol
	combine := func(rows []types.Row, row types.Row) []types.Row {
		if len(rows) == 0 {
			return []types.Row{row}
		}
		if shouldKeep(cfg.KeepLast, rows[0][tc].I, row[tc].I) {
			rows[0] = row
		}
		return rows
	}
	return newWindowRank(cfg.InputTypes, cfg.PartitionKeys, cfg.WindowEndCol, cfg.Zone, 1, 1, cfg.OutputRankNumber, combine, st)
}

func newWindowRank(in []types.Type, parts []int, endCol int, zone *time.Location, start, end int, number bool,
	combine func([]types.Row, types.Row) []types.Row, st state.Backend) (*WindowRank, error) {
	if err := checkCols("window rank partition key", parts, len(in)); err != nil {
		return nil, err
	}
	if err := checkCols("window_end column", []int{endCol}, len(in)); err != nil {
		return nil, err
	}
	r := &WindowRank{
		types: in, parts: parts, start: start, end: end, endCol: endCol, number: number, combine: combine,
		st:  st,
		out: newOutput(rankOutputTypes(in, number)),
	}
	r.windows = newWindowed(r.st, zoneClock(zone), rowsCodec(in))
	r.onWatermark = newOnWatermark(r.fire)
	return r, nil
}

// State implements Stateful; its Len is the number of partitions with
// open windows.
func (r *WindowRank) State() state.Backend { return r.st }

// ProcessChunk implements runtime.Operator.
func (r *WindowRank) ProcessChunk(_ int, c *types.Chunk, _ runtime.Emitter) error {
	ec := c.Cols[r.endCol]
	for i := range c.Len() {
		if c.Ops[i] != types.Insert {
			return errors.New("window rank: input must be insert-only")
		}
		if ec.Nulls[i] || r.windows.fired(ec.I64[i], r.wm) {
			r.n.Add(1)
			continue
		}
		r.key = state.AppendChunkKey(r.key[:0], c, i, r.parts)
		rows, _ := r.windows.value(span{end: ec.I64[i]}, r.key)
		*rows = r.combine(*rows, c.Row(i))
	}
	return nil
}

func (r *WindowRank) fire(wm int64, out runtime.Emitter) error {
	w := r.out.to(out)
	defer w.flush()
	return r.windows.fire(wm, func(_ span, _ string, rows []types.Row) error {
		for k := r.start; k <= min(r.end, len(rows)); k++ {
			row := rows[k-1]
			if r.number {
				row = appendRank(&r.buf, row, int64(k))
			}
			w.add(types.Insert, row)
		}
		return nil
	})
}
