package ops

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// RankConfig configures a Rank.
type RankConfig struct {
	// InputTypes are the input's column types.
	InputTypes []types.Type
	// PartitionKeys are the PARTITION BY columns; empty for a global Top-N.
	PartitionKeys []int
	// Order is the ORDER BY of the ROW_NUMBER.
	Order []SortKey
	// Start and End are the 1-based inclusive range of row numbers kept:
	// rownum <= N is 1..N, rownum = 1 is 1..1, rownum BETWEEN a AND b is a..b.
	Start, End int64
	// VariableEnd takes End from the input column EndCol instead (rownum <=
	// col, Flink's VariableRankRange): each partition keeps the value of
	// its first row, as AbstractTopNFunction.initRankEnd does.
	VariableEnd bool
	EndCol      int
	// OutputRankNumber appends the row number as a BIGINT NOT NULL column.
	OutputRankNumber bool
	// InputInsertOnly says the input only has +I rows (Flink's append-only
	// strategy); otherwise any row kind may arrive (the retract strategy).
	InputInsertOnly bool
	// GenerateUpdateBefore emits -U rows before +U rows.
	GenerateUpdateBefore bool
	// StateTTL is the partitions' idle state retention, which only the
	// first-N form takes; 0 keeps them for ever.
	StateTTL time.Duration
}

// Rank is ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) filtered to a
// range of row numbers, with Flink's changelog. Rows with equal order keys
// keep their arrival order (the earlier row ranks first), so a later row
// never displaces an equal one.
//
// Flink picks one of several functions (StreamExecRank); Sluice reproduces
// the output of the one Flink would pick:
//
//   - Insert-only input, range 1..1: FastTop1Function. A row that sorts
//     strictly before the current top replaces it with -U(old)/+U(new)
//     (update kinds, because the partition key is then a unique key), with
//     or without the row number. This is what `WHERE rownum = 1` over an
//     append-only input with a non-time ORDER BY produces.
//   - Insert-only input ordered by one ascending processing-time
//     attribute: AppendOnlyFirstNFunction, which Flink picks before the
//     others. A partition's rows rank in their order of arrival, whatever
//     their times, and only its first End rows are kept and emitted.
//   - Insert-only input, other ranges: AppendOnlyTopNFunction. Only the
//     best End rows of a partition are kept.
//   - Updating input: RetractableTopNFunction. All rows are kept so that a
//     retraction can promote the next one.
//
// With the row number, or with Start > 1 (the "with row number" algorithm
// of both functions), a change at rank p re-emits every rank from p to End
// as -U(row previously at that rank)/+U(row now at it), +I for a rank newly
// filled and -D for a rank left empty. Without the row number and with
// Start = 1 the output is a set: an accumulated row that enters the top
// emits -D of the row pushed out of rank End (if any), then +I of itself; a
// retracted row in the top emits -D of itself, then +I of the row that moves
// up to rank End (if any).
//
// With a retention (StateTTL), the first-N form expires a partition's rows
// a retention after the last row that entered them, and its rank end
// (VariableEnd) a retention after it was taken, as Flink's
// AppendOnlyFirstNFunction expires its count of rows and its rank end by
// state TTL: the next row then ranks first again. (The other forms keep
// partitions in a heap cache Flink expires apart from the state, and
// take no retention.)
type Rank struct {
	passThrough
	cfg        RankConfig
	cmp        comparator
	st         state.Backend
	parts      *state.Table[[]types.Row]
	out        *output
	withNumber bool
	top1       bool
	key        []byte
	buf        types.Row
	// ends holds each partition's rank end with VariableEnd; end is the
	// rank end of the row being processed.
	ends *state.Table[int64]
	end  int64
	// firstN is the first-N form; ttl and endTTL are the retentions of
	// parts and ends, nil without one.
	firstN      bool
	ttl, endTTL *state.TTL
}

// NewRank returns a Rank for cfg.
func NewRank(cfg RankConfig, st state.Backend) (*Rank, error) {
	if err := checkCols("rank partition key", cfg.PartitionKeys, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	if err := checkSortKeys(cfg.Order, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	if cfg.VariableEnd {
		if err := checkCols("rank end", []int{cfg.EndCol}, len(cfg.InputTypes)); err != nil {
			return nil, err
		}
		if !cfg.InputTypes[cfg.EndCol].IsInteger() {
			return nil, fmt.Errorf("rank: the rank end column %d is %s, not an integer", cfg.EndCol, cfg.InputTypes[cfg.EndCol])
		}
	}
	if cfg.Start < 1 || !cfg.VariableEnd && cfg.End < cfg.Start {
		return nil, fmt.Errorf("rank: invalid row number range %d..%d", cfg.Start, cfg.End)
	}
	firstN := cfg.InputInsertOnly && len(cfg.Order) == 1 && !cfg.Order[0].Desc && cfg.InputTypes[cfg.Order[0].Col].Attr == types.ProcTime
	if cfg.StateTTL != 0 && !firstN {
		return nil, errors.New("rank: an idle state retention is only supported for a Top-N ordered by an ascending processing-time attribute over an append-only input")
	}
	r := &Rank{
		cfg:        cfg,
		cmp:        newComparator(cfg.Order, cfg.InputTypes),
		st:         st,
		out:        newOutput(rankOutputTypes(cfg.InputTypes, cfg.OutputRankNumber)),
		withNumber: cfg.OutputRankNumber || cfg.Start > 1,
		top1:       !firstN && !cfg.VariableEnd && cfg.InputInsertOnly && cfg.Start == 1 && cfg.End == 1,
		end:        cfg.End,
		firstN:     firstN,
	}
	r.parts = state.NewTable(r.st, "partitions", rowsCodec(cfg.InputTypes))
	r.ttl = state.NewTTL(r.st, "partitions", cfg.StateTTL, func(key string) { r.parts.DeleteString(key) })
	if cfg.VariableEnd {
		r.ends = state.NewTable(r.st, "rank-end", state.Int64Codec)
		r.endTTL = state.NewTTL(r.st, "rank-end", cfg.StateTTL, func(key string) { r.ends.DeleteString(key) })
	}
	return r, nil
}

// Open implements runtime.Operator.
func (r *Rank) Open(ctx *runtime.Context) error {
	startTTL(ctx, r.ttl, r.endTTL)
	return nil
}

// rankEnd sets r.end for the partition of the current key: the constant
// end, or the partition's stored one, taken from its first row.
func (r *Rank) rankEnd(c *types.Chunk, i int) error {
	if !r.cfg.VariableEnd {
		return nil
	}
	if r.endTTL != nil {
		r.endTTL.Expire(r.key)
	}
	if end, ok := r.ends.Get(r.key); ok {
		r.end = end
		return nil
	}
	col := c.Cols[r.cfg.EndCol]
	if col.Nulls[i] {
		return errors.New("rank: the Top-N bound is NULL for a partition's first row")
	}
	r.end = col.I64[i]
	r.ends.Put(r.key, r.end)
	if r.endTTL != nil {
		r.endTTL.Touch(r.key)
	}
	return nil
}

// State implements Stateful.
func (r *Rank) State() state.Backend { return r.st }

// ProcessChunk implements runtime.Operator.
func (r *Rank) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	w := r.out.to(out)
	defer w.flush()
	for i := range c.Len() {
		accumulate := c.Ops[i].IsAccumulate()
		if !accumulate && r.cfg.InputInsertOnly {
			return errors.New("rank: retraction on an insert-only input")
		}
		r.key = state.AppendChunkKey(r.key[:0], c, i, r.cfg.PartitionKeys)
		if err := r.rankEnd(c, i); err != nil {
			return err
		}
		if r.ttl != nil {
			r.ttl.Expire(r.key)
		}
		rows, _ := r.parts.Get(r.key)
		row := c.Row(i)
		var ch change
		if accumulate {
			p := len(rows)
			if !r.firstN {
				p = sort.Search(len(rows), func(j int) bool { return r.cmp.compare(rows[j], row) > 0 })
			}
			if r.cfg.InputInsertOnly && int64(p) >= r.end {
				continue // not in the top: AppendOnlyTopNFunction does not keep it
			}
			ch = change{rows: slices.Insert(rows, p, row), p: p}
			r.emitInsert(w, ch)
			if r.cfg.InputInsertOnly && int64(len(ch.rows)) > r.end {
				ch.rows = ch.rows[:r.end]
			}
		} else {
			p := r.find(rows, row)
			if p < 0 {
				continue // retracting an unknown row
			}
			ch = change{removed: rows[p], p: p}
			ch.rows = slices.Delete(rows, p, p+1)
			r.emitRetract(w, ch)
		}
		if len(ch.rows) == 0 {
			r.parts.Delete(r.key)
		} else {
			r.parts.Put(r.key, ch.rows)
			if r.ttl != nil {
				r.ttl.Touch(r.key)
			}
		}
	}
	return nil
}

// change is one change to a partition's sorted rows: rows is the list after
// it and p the index where a row was inserted, or where removed was.
type change struct {
	rows    []types.Row
	p       int
	removed types.Row // nil for an insert
}

// oldLen returns the length of the list before the change.
func (c change) oldLen() int {
	if c.removed == nil {
		return len(c.rows) - 1
	}
	return len(c.rows) + 1
}

// old returns the row at index k before the change.
func (c change) old(k int) types.Row {
	switch {
	case k < c.p:
		return c.rows[k]
	case c.removed == nil:
		return c.rows[k+1]
	case k == c.p:
		return c.removed
	default:
		return c.rows[k-1]
	}
}

// find returns the index of the first row equal to row among rows with its
// order key, or -1.
func (r *Rank) find(rows []types.Row, row types.Row) int {
	lo := sort.Search(len(rows), func(j int) bool { return r.cmp.compare(rows[j], row) >= 0 })
	for j := lo; j < len(rows) && r.cmp.compare(rows[j], row) == 0; j++ {
		if rowsEqual(rows[j], row) {
			return j
		}
	}
	return -1
}

// emitInsert emits the changes of an insert.
func (r *Rank) emitInsert(w *output, c change) {
	end := int(r.end)
	switch {
	case c.p >= end:
	case r.top1 && c.oldLen() > 0:
		r.emit(w, types.UpdateBefore, c.old(0), 1)
		r.emit(w, types.UpdateAfter, c.rows[0], 1)
	case r.withNumber:
		r.emitRanks(w, c)
	default:
		if c.oldLen() >= end {
			r.emit(w, types.Delete, c.old(end-1), int64(end))
		}
		r.emit(w, types.Insert, c.rows[c.p], int64(c.p+1))
	}
}

// emitRetract emits the changes of a retraction.
func (r *Rank) emitRetract(w *output, c change) {
	end := int(r.end)
	switch {
	case c.p >= end:
	case r.withNumber:
		r.emitRanks(w, c)
	default:
		r.emit(w, types.Delete, c.removed, int64(c.p+1))
		if len(c.rows) >= end {
			r.emit(w, types.Insert, c.rows[end-1], int64(end))
		}
	}
}

// emitRanks re-emits the ranks from the changed one to End, or to the
// last one filled before or after the change when End lies beyond (an
// open-ended range, as of an OFFSET without LIMIT).
func (r *Rank) emitRanks(w *output, c change) {
	oldLen := c.oldLen()
	last := min(r.end, int64(max(oldLen, len(c.rows))))
	for k := c.p; k < int(last); k++ {
		switch {
		case k < oldLen && k < len(c.rows):
			r.emit(w, types.UpdateBefore, c.old(k), int64(k+1))
			r.emit(w, types.UpdateAfter, c.rows[k], int64(k+1))
		case k < len(c.rows):
			r.emit(w, types.Insert, c.rows[k], int64(k+1))
		case k < oldLen:
			r.emit(w, types.Delete, c.old(k), int64(k+1))
		}
	}
}

// emit outputs row at rank n if n is in the range, as Flink's
// AbstractTopNFunction.collect* do (-U only with GenerateUpdateBefore).
func (r *Rank) emit(w *output, k types.RowKind, row types.Row, n int64) {
	if n < r.cfg.Start || n > r.end || k == types.UpdateBefore && !r.cfg.GenerateUpdateBefore {
		return
	}
	if !r.cfg.OutputRankNumber {
		w.add(k, row)
		return
	}
	w.add(k, appendRank(&r.buf, row, n))
}

// appendRank returns row followed by the row number n, built in *buf.
func appendRank(buf *types.Row, row types.Row, n int64) types.Row {
	*buf = append(append((*buf)[:0], row...), types.IntValue(n))
	return *buf
}

// rankOutputTypes returns the input types, plus the row number column when
// withNumber is set.
func rankOutputTypes(in []types.Type, withNumber bool) []types.Type {
	out := slices.Clone(in)
	if withNumber {
		out = append(out, types.BigIntType.WithNotNull(true))
	}
	return out
}

// checkSortKeys reports a sort key column outside a row of width n.
func checkSortKeys(keys []SortKey, n int) error {
	for _, k := range keys {
		if k.Col < 0 || k.Col >= n {
			return fmt.Errorf("sort key column %d out of range (row has %d columns)", k.Col, n)
		}
	}
	return nil
}

// rowsCodec encodes lists of rows of types ts.
func rowsCodec(ts []types.Type) state.Codec[[]types.Row] {
	return state.Codec[[]types.Row]{
		Append: func(b []byte, rows []types.Row) []byte {
			b = state.AppendUvarint(b, uint64(len(rows)))
			for _, row := range rows {
				b = state.AppendRow(b, ts, row)
			}
			return b
		},
		Decode: func(b []byte) ([]types.Row, error) {
			r := state.NewReader(b)
			rows := readRows(r, ts)
			return rows, r.Done()
		},
	}
}
