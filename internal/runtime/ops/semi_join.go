package ops

import (
	"errors"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// SemiJoinConfig configures a SemiJoin.
type SemiJoinConfig struct {
	// LeftTypes and RightTypes are the column types of input 0 (the rows
	// kept) and input 1 (the rows looked up).
	LeftTypes, RightTypes []types.Type
	// LeftKeys and RightKeys are the columns compared for equality.
	LeftKeys, RightKeys []int
	// Anti keeps the left rows without a match (NOT IN) instead of those
	// with one (IN).
	Anti bool
	// NullAware gives an anti join NOT IN's treatment of NULLs on the
	// right: while the right side has a NULL key, x NOT IN (...) is never
	// TRUE, so no left row passes. It needs every right row on one
	// instance (parallelism 1).
	NullAware bool
	// KeepNullKeys makes an anti join pass left rows with a NULL key, which
	// match nothing: NOT EXISTS (...) is TRUE for them, where NOT IN is
	// UNKNOWN.
	KeepNullKeys bool
	// NullSafe compares keys with IS NOT DISTINCT FROM (NULL equals NULL),
	// as INTERSECT and EXCEPT do.
	NullSafe bool
	// Cond is the rest of the condition a right row of the key must meet
	// to match, over the left row followed by the right one, which it must
	// not retain; nil means TRUE. With it the right rows are kept, and
	// each left row's number of matches (a correlation other than
	// equalities, Flink's semi join with a non-equi condition).
	Cond func(joined types.Row) (bool, error)
	// StateTTL is the idle state retention of the left and right rows
	// (0: none). With one, the right rows are kept as with a condition,
	// each with the time it was last written, as Flink's
	// StreamingSemiAntiJoinOperator keeps both sides in state views whose
	// entries expire on their own.
	StateTTL [2]time.Duration
}

// SemiJoin keeps the rows of its left input that have (or, Anti, have no)
// row with an equal key on its right input: `x IN (SELECT y ...)` and
// `x NOT IN (SELECT y ...)` over changelogs, after Flink's
// StreamingSemiAntiJoinOperator. It keeps the left rows per key with their
// multiplicity and the number of right rows per key; when a key gains its
// first right row or loses its last one, the left rows of the key are
// retracted or emitted. Output rows are left rows: +I and -D (an accumulated
// left row is forwarded with its own kind while its match state holds). A
// row with a NULL key never matches.
type SemiJoin struct {
	passThrough
	cfg   SemiJoinConfig
	st    state.Backend
	left  *state.Table[joinRows]
	right *state.Table[int64]
	// rightRows holds the right rows per key instead of right when there
	// is a condition; buf is the joined row it is evaluated on.
	rightRows *state.Table[joinRows]
	buf       types.Row
	out       *output
	key       []byte
	// now is the processing time with a retention (nil until Open, and
	// without one); writes counts the writes since the last sweep.
	now    func() int64
	writes int
	keys   []string
}

// nullsKey is the right table's entry counting right rows with a NULL key
// (NullAware); the encoded keys of a join with keys are never empty. A
// join without keys (an uncorrelated EXISTS) keeps everything under the
// empty key.
var nullsKey = []byte{}

// NewSemiJoin returns a SemiJoin for cfg.
func NewSemiJoin(cfg SemiJoinConfig, st state.Backend) (*SemiJoin, error) {
	if len(cfg.LeftKeys) != len(cfg.RightKeys) {
		return nil, errors.New("semi join: the sides need the same number of keys")
	}
	if cfg.Cond != nil && cfg.NullAware {
		return nil, errors.New("semi join: a NULL-aware anti join takes no condition")
	}
	if cfg.NullAware && (cfg.StateTTL[0] > 0 || cfg.StateTTL[1] > 0) {
		return nil, errors.New("semi join: a NULL-aware anti join keeps no state retention")
	}
	if len(cfg.LeftKeys) == 0 && cfg.NullAware {
		// Without keys every row's key is the empty one, which nullsKey is.
		return nil, errors.New("semi join: a NULL-aware anti join needs keys")
	}
	if err := checkCols("semi join left key", cfg.LeftKeys, len(cfg.LeftTypes)); err != nil {
		return nil, err
	}
	if err := checkCols("semi join right key", cfg.RightKeys, len(cfg.RightTypes)); err != nil {
		return nil, err
	}
	j := &SemiJoin{cfg: cfg, st: st, out: newOutput(cfg.LeftTypes)}
	j.left = state.NewTable(j.st, "left", joinRowsCodec(cfg.LeftTypes))
	if cfg.Cond != nil || cfg.StateTTL[0] > 0 || cfg.StateTTL[1] > 0 {
		j.rightRows = state.NewTable(j.st, "right", rightRowsCodec(cfg.RightTypes))
		// A backend that decodes entries as they are read (Pebble) reads
		// one at the restore, so that a checkpoint of the other layout
		// fails it, as the memory backend's restore does.
		j.rightRows.OnRestore(func() {
			for range j.rightRows.All() {
				break
			}
		})
	} else {
		j.right = state.NewTable(j.st, "right", rightCountCodec(cfg.RightTypes))
	}
	return j, nil
}

// The right side's state has two layouts: the number of right rows per
// key, and, with a condition or a retention, the rows themselves (with
// the times they were written). A savepoint of one layout restores into
// the other as far as it can: rows restore as their number, so a job
// restored without the retention it was taken with goes on (as Flink 2.2
// restores state taken with a TTL without one); a number of rows cannot
// restore as rows, which a retention expires and retracts one by one, so
// that restore is refused, naming the setting.

// rightCountCodec encodes the number of right rows of a key. It also
// reads the right rows a join with a retention kept, as their number.
func rightCountCodec(ts []types.Type) state.Codec[int64] {
	rows := joinRowsCodec(ts)
	return state.Codec[int64]{
		Append: state.Int64Codec.Append,
		Decode: func(b []byte) (int64, error) {
			if n, err := state.Int64Codec.Decode(b); err == nil {
				return n, nil
			}
			recs, err := rows.Decode(b)
			if err != nil {
				return 0, err
			}
			n := int64(0)
			for rec := range recs.all() {
				n += rec.count
			}
			return n, nil
		},
	}
}

// errRightCounts refuses to restore the number of right rows of a key
// where the rows themselves are kept.
var errRightCounts = errors.New("the checkpoint holds the number of right rows per key, as a semi or anti join keeps them " +
	"without 'table.exec.state.ttl'; with a retention it keeps the rows themselves, to expire them one by one, " +
	"which the checkpoint does not have: restore it with 'table.exec.state.ttl' = '0 ms', as the job it was taken from ran")

// rightRowsCodec encodes the right rows of a key (joinRowsCodec); it
// refuses the number of right rows rightCountCodec writes, a single
// varint no encoding of rows is (one of no rows is never stored).
func rightRowsCodec(ts []types.Type) state.Codec[joinRows] {
	rows := joinRowsCodec(ts)
	return state.Codec[joinRows]{
		Append: rows.Append,
		Decode: func(b []byte) (joinRows, error) {
			if n, err := state.Int64Codec.Decode(b); err == nil && n != 0 {
				return joinRows{}, errRightCounts
			}
			return rows.Decode(b)
		},
	}
}

// State implements Stateful.
func (j *SemiJoin) State() state.Backend { return j.st }

// Open implements runtime.Operator: with a retention, the rows take
// their times from the instance's processing time.
func (j *SemiJoin) Open(ctx *runtime.Context) error {
	if (j.cfg.StateTTL[0] > 0 || j.cfg.StateTTL[1] > 0) && ctx != nil && ctx.ProcessingTime != nil {
		j.now = ctx.ProcessingTime.Now
		state.BeforeSnapshot(j.st, j.sweep)
	}
	return nil
}

// ttl returns the retention of the side `left`, 0 when its rows are kept
// for ever.
func (j *SemiJoin) ttl(left bool) time.Duration {
	if j.now == nil {
		return 0
	}
	if left {
		return j.cfg.StateTTL[0]
	}
	return j.cfg.StateTTL[1]
}

// rows returns the rows of the side `left` under the current key, its
// expired rows dropped, as Flink's state TTL never returns them.
func (j *SemiJoin) rows(left bool) (joinRows, bool) {
	t := j.rightRows
	if left {
		t = j.left
	}
	return liveRows(t, j.key, j.now, j.ttl(left))
}

// stamp records a write of rec, of the side `left`, now.
func (j *SemiJoin) stamp(rec *joinRecord, left bool) {
	if j.ttl(left) > 0 {
		rec.at = j.now()
		j.writes++
	}
}

// store writes recs, the rows of the side `left` under the current key
// after row (of hash h) was added or removed, back to its table: the
// key is deleted when no row is left (and not written when there was
// none before either), and row's record, if kept, is stamped now.
func (j *SemiJoin) store(left bool, recs joinRows, found bool, row types.Row, h uint64) {
	if j.now != nil {
		if p := recs.find(row, h); p >= 0 {
			j.stamp(recs.recs[p], left)
		}
	}
	t := j.rightRows
	if left {
		t = j.left
	}
	switch {
	case !found && recs.live == 0:
	case recs.live == 0:
		t.Delete(j.key)
	default:
		t.Put(j.key, recs)
	}
}

// sweep drops the expired rows of both sides, before every snapshot and
// once the writes since the last sweep outnumber the keys.
func (j *SemiJoin) sweep() {
	j.writes = 0
	for side, t := range []*state.Table[joinRows]{j.left, j.rightRows} {
		ttl := j.ttl(side == 0)
		if ttl <= 0 {
			continue
		}
		for k := range t.All() {
			j.keys = append(j.keys, k)
		}
		for _, k := range j.keys {
			liveRows(t, bytesOf(k), j.now, ttl)
		}
		clear(j.keys)
		j.keys = j.keys[:0]
	}
}

// ProcessChunk implements runtime.Operator.
func (j *SemiJoin) ProcessChunk(input int, c *types.Chunk, out runtime.Emitter) error {
	w := j.out.to(out)
	defer w.flush()
	if j.now != nil && j.writes > max(1024, j.left.Len()+j.rightRows.Len()) {
		j.sweep()
	}
	keys := j.cfg.LeftKeys
	if input == 1 {
		keys = j.cfg.RightKeys
	}
	for i := range c.Len() {
		nullKey := false
		for _, k := range keys {
			nullKey = nullKey || (c.Cols[k].Nulls[i] && !j.cfg.NullSafe)
		}
		if nullKey {
			// x IN (...) and x NOT IN (...) are UNKNOWN for a NULL x, which
			// a WHERE drops; a NULL on the right matches nothing, but makes
			// NOT IN UNKNOWN for every x.
			switch {
			case input == 1 && j.cfg.NullAware:
				j.processRightNull(w, c.Ops[i].IsAccumulate())
			case input == 0 && j.cfg.Anti && j.cfg.KeepNullKeys:
				w.add(forwardKind(c.Ops[i]), c.Row(i))
			}
			continue
		}
		j.key = state.AppendChunkKey(j.key[:0], c, i, keys)
		var err error
		switch {
		case j.rightRows != nil && input == 0:
			err = j.processLeftCond(w, c, i)
		case j.rightRows != nil:
			err = j.processRightCond(w, c, i)
		case input == 0:
			j.processLeft(w, c, i)
		default:
			j.processRight(w, c.Ops[i].IsAccumulate())
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// matches evaluates the condition for a left and a right row; without
// one, rows of the same key match.
func (j *SemiJoin) matches(left, right types.Row) (bool, error) {
	if j.cfg.Cond == nil {
		return true, nil
	}
	j.buf = append(append(j.buf[:0], left...), right...)
	return j.cfg.Cond(j.buf)
}

// processLeftCond stores or retracts a left row with its number of
// matching right rows, and forwards it when it passes.
func (j *SemiJoin) processLeftCond(w *output, c *types.Chunk, i int) error {
	row := c.Row(i)
	matched := int64(0)
	rights, _ := j.rows(false)
	for r := range rights.all() {
		m, err := j.matches(row, r.row)
		if err != nil {
			return err
		}
		if m {
			matched += r.count
		}
	}
	recs, found := j.rows(true)
	h := rowHash(row)
	if c.Ops[i].IsAccumulate() {
		recs.add(row, h, matched)
	} else {
		recs.remove(row, h)
	}
	j.store(true, recs, found, row, h)
	if (matched > 0) != j.cfg.Anti {
		w.add(forwardKind(c.Ops[i]), row)
	}
	return nil
}

// processRightCond stores or retracts a right row and updates the number
// of matches of the left rows it meets the condition with: a left row
// that gains its first match or loses its last one is emitted or
// retracted. With a retention, the retraction of a right row no longer
// kept (expired) still counts against the left rows it meets the
// condition with, as StreamingSemiAntiJoinOperator.processElement2
// takes it: their counts of matches were not lowered when it expired.
func (j *SemiJoin) processRightCond(w *output, c *types.Chunk, i int) error {
	row := c.Row(i)
	accumulate := c.Ops[i].IsAccumulate()
	rights, found := j.rows(false)
	h := rowHash(row)
	if accumulate {
		rights.add(row, h, 0)
	} else {
		if rights.find(row, h) < 0 && j.now == nil {
			return nil // nothing of it was kept
		}
		rights.remove(row, h)
	}
	j.store(false, rights, found, row, h)
	recs, _ := j.rows(true)
	changed := false
	for rec := range recs.all() {
		m, err := j.matches(rec.row, row)
		if err != nil {
			return err
		}
		if !m {
			continue
		}
		before := rec.assoc
		if accumulate {
			rec.assoc++
		} else {
			rec.assoc--
		}
		changed = true
		j.stamp(rec, true)
		if (before > 0) == (rec.assoc > 0) {
			continue
		}
		kind := types.Delete
		if (rec.assoc > 0) != j.cfg.Anti {
			kind = types.Insert
		}
		for range rec.count {
			w.add(kind, rec.row)
		}
	}
	if changed {
		j.left.Put(j.key, recs)
	}
	return nil
}

// passes reports whether left rows of the current key are emitted.
func (j *SemiJoin) passes() bool {
	n, _ := j.right.Get(j.key)
	if j.cfg.Anti && j.cfg.NullAware {
		if nulls, _ := j.right.Get(nullsKey); nulls > 0 {
			return false
		}
	}
	return (n > 0) != j.cfg.Anti
}

// processRightNull counts a right row with a NULL key; when the first
// arrives or the last goes, every unmatched left row is retracted or
// emitted again.
func (j *SemiJoin) processRightNull(w *output, accumulate bool) {
	nulls, _ := j.right.Get(nullsKey)
	before := nulls
	if accumulate {
		nulls++
	} else if nulls > 0 {
		nulls--
	}
	j.right.Put(nullsKey, nulls)
	if (before == 0) == (nulls == 0) {
		return
	}
	kind := types.Delete
	if nulls == 0 {
		kind = types.Insert
	}
	for k, recs := range j.left.All() {
		if n, _ := j.right.Get([]byte(k)); n > 0 {
			continue // matched: not emitted either way
		}
		emitRecords(w, kind, recs)
	}
}

func (j *SemiJoin) processLeft(w *output, c *types.Chunk, i int) {
	row := c.Row(i)
	recs, found := j.left.Get(j.key)
	h := rowHash(row)
	if c.Ops[i].IsAccumulate() {
		recs.add(row, h, 0)
	} else {
		recs.remove(row, h)
	}
	j.store(true, recs, found, row, h)
	if j.passes() {
		w.add(forwardKind(c.Ops[i]), row)
	}
}

// forwardKind is the kind a passing left row is emitted with: +I for an
// accumulation, -D for a retraction.
func forwardKind(k types.RowKind) types.RowKind {
	if k.IsAccumulate() {
		return types.Insert
	}
	return types.Delete
}

func (j *SemiJoin) processRight(w *output, accumulate bool) {
	before := j.passes()
	n, _ := j.right.Get(j.key)
	if accumulate {
		n++
	} else if n > 0 {
		n--
	}
	if n == 0 {
		j.right.Delete(j.key)
	} else {
		j.right.Put(j.key, n)
	}
	after := j.passes()
	if before == after {
		return
	}
	kind := types.Insert
	if before {
		kind = types.Delete
	}
	recs, _ := j.left.Get(j.key)
	emitRecords(w, kind, recs)
}

// emitRecords outputs each row of a multiset as often as it occurs.
func emitRecords(w *output, kind types.RowKind, recs joinRows) {
	for r := range recs.all() {
		for range r.count {
			w.add(kind, r.row)
		}
	}
}
