package ops

import (
	"fmt"
	"iter"
	"slices"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// JoinKind is the kind of a join.
type JoinKind int

// Join kinds.
const (
	InnerJoin JoinKind = iota
	LeftJoin
	RightJoin
	FullJoin
)

// leftOuter reports whether unmatched left rows are kept (null-padded).
func (k JoinKind) leftOuter() bool { return k == LeftJoin || k == FullJoin }

// rightOuter reports whether unmatched right rows are kept.
func (k JoinKind) rightOuter() bool { return k == RightJoin || k == FullJoin }

// JoinSpec is what regular and interval joins share.
type JoinSpec struct {
	// Kind is INNER, LEFT, RIGHT or FULL.
	Kind JoinKind
	// LeftTypes and RightTypes are the column types of input 0 (left) and
	// input 1 (right). Output rows are the left columns then the right
	// columns.
	LeftTypes, RightTypes []types.Type
	// LeftKeys and RightKeys are the equi-join columns, pairwise equal in
	// number and type. A row with a NULL key column never matches (SQL
	// `=`), except in columns marked in NullSafeKeys.
	LeftKeys, RightKeys []int
	// NullSafeKeys marks key pairs compared with IS NOT DISTINCT FROM
	// (NULL matches NULL); nil means none.
	NullSafeKeys []bool
	// Cond is the remaining join condition over a joined row (the left
	// row's columns then the right row's), which it must not retain; nil
	// means TRUE.
	Cond func(joined types.Row) (bool, error)
	// StateTTL is the idle state retention of the left and right rows of
	// a regular join (Join); 0 keeps them for ever.
	StateTTL [2]time.Duration
}

// joiner holds what joins share: key encoding, the residual condition and
// the construction of joined and null-padded output rows.
type joiner struct {
	spec JoinSpec
	out  *output
	key  []byte
	buf  types.Row
}

func newJoiner(spec JoinSpec) (*joiner, error) {
	if len(spec.LeftKeys) != len(spec.RightKeys) {
		return nil, fmt.Errorf("join: %d left keys but %d right keys", len(spec.LeftKeys), len(spec.RightKeys))
	}
	if err := checkCols("join left key", spec.LeftKeys, len(spec.LeftTypes)); err != nil {
		return nil, err
	}
	if err := checkCols("join right key", spec.RightKeys, len(spec.RightTypes)); err != nil {
		return nil, err
	}
	if spec.NullSafeKeys != nil && len(spec.NullSafeKeys) != len(spec.LeftKeys) {
		return nil, fmt.Errorf("join: %d null-safe flags for %d keys", len(spec.NullSafeKeys), len(spec.LeftKeys))
	}
	lt, rt := spec.LeftTypes, spec.RightTypes
	if spec.Kind.rightOuter() {
		lt = nullable(lt)
	}
	if spec.Kind.leftOuter() {
		rt = nullable(rt)
	}
	return &joiner{spec: spec, out: newOutput(append(slices.Clone(lt), rt...))}, nil
}

// nullable returns ts with every type nullable.
func nullable(ts []types.Type) []types.Type {
	out := make([]types.Type, len(ts))
	for i, t := range ts {
		out[i] = t.Nullable()
	}
	return out
}

// sideKey encodes the join key of row i of c arriving on the left (input
// 0) or right; ok is false when a NULL makes it match nothing.
func (j *joiner) sideKey(c *types.Chunk, i int, left bool) (key []byte, ok bool) {
	cols := j.spec.RightKeys
	if left {
		cols = j.spec.LeftKeys
	}
	for n, col := range cols {
		if c.Cols[col].Nulls[i] && (j.spec.NullSafeKeys == nil || !j.spec.NullSafeKeys[n]) {
			return nil, false
		}
	}
	return j.routedKey(c, i, left), true
}

// routedKey encodes the join key of row i of c arriving on the left or
// right whatever its NULLs: the key the row was routed to this instance
// by.
func (j *joiner) routedKey(c *types.Chunk, i int, left bool) []byte {
	cols := j.spec.RightKeys
	if left {
		cols = j.spec.LeftKeys
	}
	j.key = state.AppendChunkKey(j.key[:0], c, i, cols)
	return j.key
}

// matches evaluates the residual condition (over j.buf, which emit
// overwrites).
func (j *joiner) matches(left, right types.Row) (bool, error) {
	if j.spec.Cond == nil {
		return true, nil
	}
	j.buf = append(append(j.buf[:0], left...), right...)
	return j.spec.Cond(j.buf)
}

// emit outputs the joined row left+right.
func (j *joiner) emit(w *output, k types.RowKind, left, right types.Row) {
	j.buf = append(append(j.buf[:0], left...), right...)
	w.add(k, j.buf)
}

// emitPadded outputs row padded with NULLs for the other side.
func (j *joiner) emitPadded(w *output, k types.RowKind, row types.Row, left bool) {
	j.buf = j.buf[:0]
	if !left {
		j.buf = appendNulls(j.buf, len(j.spec.LeftTypes))
	}
	j.buf = append(j.buf, row...)
	if left {
		j.buf = appendNulls(j.buf, len(j.spec.RightTypes))
	}
	w.add(k, j.buf)
}

func appendNulls(r types.Row, n int) types.Row {
	for range n {
		r = append(r, types.NullValue)
	}
	return r
}

// pair orders a row of the side `left` and a row of the other side as
// (left row, right row).
func pair(row, other types.Row, left bool) (types.Row, types.Row) {
	if left {
		return row, other
	}
	return other, row
}

// Join is a regular streaming equi-join of two changelogs, after Flink's
// StreamingJoinOperator. Each side keeps its rows per join key with their
// multiplicity and, on an outer side, the number of rows of the other side
// each is joined with. Input 0 is the left side, input 1 the right.
//
// An accumulating row (+I/+U) is stored and joined with the matching rows of
// the other side; a retracting row (-U/-D) is removed and its joined rows
// retracted. The output kinds follow Flink: an inner join forwards the
// input's kind (+I/+U, -D/-U) when the other side is inner; as soon as an
// outer side is involved, joined rows are +I and -D. On an outer side, a
// row without matches is emitted null-padded (+I, and -D when it is
// retracted); the padded row of the other side is retracted (-D) when it
// gets its first match, before the joined rows, and re-emitted (+I) after
// the joined rows are retracted when it loses its last match.
//
// With an idle state retention (JoinSpec's StateTTL, per side), each
// stored row keeps the time it was last written (added, retracted
// without going, or its number of matches changed, as Flink's
// JoinRecordStateViews write the row's entry of their MapState); a row
// whose time is the retention or more behind the processing time is
// dropped, no longer matches and is no longer padded, as Flink's state
// TTL never returns it.
type Join struct {
	*joiner
	st          state.Backend
	left, right *state.Table[joinRows]
	assoc       []joinMatch
	// ttl is each side's retention, now the processing time (nil until
	// Open), writes the writes since the last sweep.
	ttl    [2]time.Duration
	now    func() int64
	writes int
	keys   []string
}

// joinRows is the multiset of rows one side keeps under one join key, as
// Flink keeps them in a MapState from row to count and number of
// associations (JoinRecordStateViews.InputSideHasNoUniqueKey). Rows are
// kept in the order they first arrived, the order their matches are
// emitted in. Past joinIndexMin distinct rows an index from hash to
// position (built when first needed, not when the rows are decoded)
// finds a row, so that adding or retracting one costs O(1), not O(rows
// under the key); a removed row leaves a hole in recs, closed up once the
// holes outnumber the rows.
type joinRows struct {
	recs []*joinRecord
	// index holds, for each hash, the position of a record of that hash;
	// nil while the key has few rows. shared counts the records whose
	// hash the index gives another record's position (hashes collide).
	index  map[uint64]int
	shared int
	// live counts the records (recs less its holes).
	live int
}

// joinIndexMin is the number of distinct rows up to which a key's rows
// are found by scanning their hashes rather than through an index.
const joinIndexMin = 32

// joinRecord is a stored row with its multiplicity and, on an outer side,
// its number of matches on the other side.
type joinRecord struct {
	row   types.Row
	count int64
	assoc int64
	// at is the time the record was last written, with a retention; 0
	// without one.
	at int64
	// hash is rowHash(row), computed when the record is made or decoded,
	// never stored.
	hash uint64
}

// all yields the records in order.
func (s *joinRows) all() iter.Seq[*joinRecord] {
	return func(yield func(*joinRecord) bool) {
		for _, r := range s.recs {
			if r != nil && !yield(r) {
				return
			}
		}
	}
}

// find returns the position of the record of a row equal to row, whose
// hash is h; -1 when there is none.
func (s *joinRows) find(row types.Row, h uint64) int {
	if s.index == nil && s.live > joinIndexMin {
		s.reindex()
	}
	if s.index != nil {
		if p, ok := s.index[h]; ok && rowsEqual(s.recs[p].row, row) {
			return p
		}
		if s.shared == 0 {
			return -1
		}
	}
	for i, r := range s.recs {
		if r != nil && r.hash == h && rowsEqual(r.row, row) {
			return i
		}
	}
	return -1
}

// add stores one more row equal to row, whose hash is h; assoc is its
// number of matches (kept on outer sides).
func (s *joinRows) add(row types.Row, h uint64, assoc int64) {
	if p := s.find(row, h); p >= 0 {
		s.recs[p].count++
		s.recs[p].assoc = assoc
		return
	}
	s.append(&joinRecord{row: row, count: 1, assoc: assoc, hash: h})
}

// append adds a record of a row not stored yet.
func (s *joinRows) append(r *joinRecord) {
	s.recs = append(s.recs, r)
	s.live++
	if s.index != nil {
		s.indexAt(len(s.recs) - 1)
	}
}

// indexAt adds the record at position p to the index.
func (s *joinRows) indexAt(p int) {
	h := s.recs[p].hash
	if _, ok := s.index[h]; ok {
		s.shared++
		return
	}
	s.index[h] = p
}

// reindex builds the index anew.
func (s *joinRows) reindex() {
	if s.index == nil {
		s.index = make(map[uint64]int, 2*s.live)
	} else {
		clear(s.index)
	}
	s.shared = 0
	for p, r := range s.recs {
		if r != nil {
			s.indexAt(p)
		}
	}
}

// remove removes one row equal to row, whose hash is h, if there is one.
func (s *joinRows) remove(row types.Row, h uint64) {
	p := s.find(row, h)
	if p < 0 {
		return
	}
	if s.recs[p].count--; s.recs[p].count > 0 {
		return
	}
	s.recs[p] = nil
	s.live--
	if s.index != nil {
		if q, ok := s.index[h]; !ok || q != p {
			s.shared--
		} else if delete(s.index, h); s.shared > 0 {
			// Another record of the hash, if any, takes its place.
			for i, r := range s.recs {
				if r != nil && r.hash == h {
					s.index[h] = i
					s.shared--
					break
				}
			}
		}
	}
	if s.index == nil || len(s.recs)-s.live > s.live {
		s.compact()
	}
}

// compact closes up the holes of recs, keeping the records' order.
func (s *joinRows) compact() {
	n := 0
	for _, r := range s.recs {
		if r != nil {
			s.recs[n] = r
			n++
		}
	}
	clear(s.recs[n:])
	s.recs = s.recs[:n]
	if s.index != nil {
		s.reindex()
	}
}

// expire drops the records written at or before limit, and reports
// whether it dropped any. A record without a write time (at 0: restored
// from a snapshot taken without a retention) is kept until written again,
// as the other operators keep their restored keys.
func (s *joinRows) expire(limit int64) bool {
	dropped := false
	for p, r := range s.recs {
		if r != nil && r.at != 0 && r.at <= limit {
			s.recs[p] = nil
			s.live--
			dropped = true
		}
	}
	if dropped {
		s.compact()
	}
	return dropped
}

// joinMatch is a stored row of the other side that matches the input row.
type joinMatch struct {
	rec   *joinRecord
	assoc int64 // rec.assoc when the match was found
}

// NewJoin returns a Join for spec.
func NewJoin(spec JoinSpec, st state.Backend) (*Join, error) {
	jn, err := newJoiner(spec)
	if err != nil {
		return nil, err
	}
	j := &Join{joiner: jn, st: st, ttl: spec.StateTTL}
	j.left = state.NewTable(j.st, "left", joinRowsCodec(spec.LeftTypes))
	j.right = state.NewTable(j.st, "right", joinRowsCodec(spec.RightTypes))
	return j, nil
}

// State implements Stateful; its Len is the number of join keys with rows
// stored, over both sides.
func (j *Join) State() state.Backend { return j.st }

// Open implements runtime.Operator.
func (j *Join) Open(ctx *runtime.Context) error {
	if (j.ttl[0] > 0 || j.ttl[1] > 0) && ctx != nil && ctx.ProcessingTime != nil {
		j.now = ctx.ProcessingTime.Now
		state.BeforeSnapshot(j.st, j.sweep)
	}
	return nil
}

// ProcessWatermark implements runtime.Operator.
func (j *Join) ProcessWatermark(wm int64, out runtime.Emitter) error {
	out.EmitWatermark(wm)
	return nil
}

// Finish implements runtime.Operator.
func (j *Join) Finish(runtime.Emitter) error { return nil }

// limit returns the time at or before which a row of the side `left`
// written has expired, and false when the side keeps its rows for ever.
func (j *Join) limit(left bool) (int64, bool) {
	ttl := j.ttl[1]
	if left {
		ttl = j.ttl[0]
	}
	if ttl <= 0 || j.now == nil {
		return 0, false
	}
	return j.now() - state.TTLMicros(ttl), true
}

// rows returns the rows of the side `left` under key, its expired rows
// dropped.
func (j *Join) rows(t *state.Table[joinRows], key []byte, left bool) joinRows {
	ttl := j.ttl[1]
	if left {
		ttl = j.ttl[0]
	}
	recs, _ := liveRows(t, key, j.now, ttl)
	return recs
}

// liveRows returns the rows of t under key and whether there are any,
// the rows written the retention ttl or more before now dropped (none
// when now is nil or ttl is not positive).
func liveRows(t *state.Table[joinRows], key []byte, now func() int64, ttl time.Duration) (joinRows, bool) {
	recs, ok := t.Get(key)
	if !ok || now == nil || ttl <= 0 {
		return recs, ok
	}
	if recs.expire(now() - state.TTLMicros(ttl)) {
		if recs.live == 0 {
			t.Delete(key)
			return recs, false
		}
		t.Put(key, recs)
	}
	return recs, true
}

// stamp records a write of rec, of the side `left`, now.
func (j *Join) stamp(rec *joinRecord, left bool) {
	if _, on := j.limit(left); on {
		rec.at = j.now()
		j.writes++
	}
}

// sweep drops the expired rows of both sides, before every snapshot and
// once the writes since the last sweep outnumber the keys.
func (j *Join) sweep() {
	j.writes = 0
	for side, t := range []*state.Table[joinRows]{j.left, j.right} {
		if _, on := j.limit(side == 0); !on {
			continue
		}
		for k := range t.All() {
			j.keys = append(j.keys, k)
		}
		for _, k := range j.keys {
			j.rows(t, bytesOf(k), side == 0)
		}
		clear(j.keys)
		j.keys = j.keys[:0]
	}
}

// ProcessChunk implements runtime.Operator.
func (j *Join) ProcessChunk(input int, c *types.Chunk, out runtime.Emitter) error {
	w := j.out.to(out)
	defer w.flush()
	left := input == 0
	own, other := j.left, j.right
	ownOuter, otherOuter := j.spec.Kind.leftOuter(), j.spec.Kind.rightOuter()
	if !left {
		own, other = other, own
		ownOuter, otherOuter = otherOuter, ownOuter
	}
	if j.now != nil && j.writes > max(1024, j.left.Len()+j.right.Len()) {
		j.sweep()
	}
	for i := range c.Len() {
		row, kind := c.Row(i), c.Ops[i]
		key, ok := j.sideKey(c, i, left)
		j.assoc = j.assoc[:0]
		if ok {
			recs := j.rows(other, key, !left)
			for rec := range recs.all() {
				l, r := pair(row, rec.row, left)
				m, err := j.matches(l, r)
				if err != nil {
					return err
				}
				if m {
					j.assoc = append(j.assoc, joinMatch{rec, rec.assoc})
				}
			}
		}
		matched := int64(0)
		for _, m := range j.assoc {
			matched += m.rec.count
		}
		if kind.IsAccumulate() {
			if ok {
				recs := j.rows(own, key, left)
				h := rowHash(row)
				recs.add(row, h, matched)
				if j.now != nil {
					j.stamp(recs.recs[recs.find(row, h)], left)
				}
				own.Put(key, recs)
			}
			if len(j.assoc) == 0 {
				if ownOuter {
					j.emitPadded(w, types.Insert, row, left)
				}
				continue
			}
			outKind := kind
			if ownOuter || otherOuter {
				outKind = types.Insert
			}
			if otherOuter {
				for _, m := range j.assoc {
					if m.assoc == 0 {
						for range m.rec.count {
							j.emitPadded(w, types.Delete, m.rec.row, !left)
						}
					}
					m.rec.assoc = m.assoc + 1
				}
			}
			j.emitMatches(w, outKind, row, left)
		} else {
			if ok {
				if recs := j.rows(own, key, left); recs.live > 0 {
					h := rowHash(row)
					if recs.remove(row, h); j.now != nil && recs.live > 0 {
						if p := recs.find(row, h); p >= 0 {
							j.stamp(recs.recs[p], left)
						}
					}
					if recs.live == 0 {
						own.Delete(key)
					} else {
						own.Put(key, recs)
					}
				}
			}
			if len(j.assoc) == 0 {
				if ownOuter {
					j.emitPadded(w, types.Delete, row, left)
				}
				continue
			}
			outKind := kind
			if ownOuter {
				outKind = types.Delete
			}
			j.emitMatches(w, outKind, row, left)
			if otherOuter {
				for _, m := range j.assoc {
					if m.assoc == 1 {
						for range m.rec.count {
							j.emitPadded(w, types.Insert, m.rec.row, !left)
						}
					}
					m.rec.assoc = m.assoc - 1
				}
			}
		}
		if otherOuter && len(j.assoc) > 0 {
			recs, _ := other.Get(key)
			for _, m := range j.assoc {
				j.stamp(m.rec, !left)
			}
			other.Put(key, recs) // write back the association counts
		}
	}
	return nil
}

// emitMatches outputs row joined with each match, repeated by multiplicity.
func (j *Join) emitMatches(w *output, k types.RowKind, row types.Row, left bool) {
	for _, m := range j.assoc {
		l, r := pair(row, m.rec.row, left)
		for range m.rec.count {
			j.emit(w, k, l, r)
		}
	}
}

// joinRowsCodec encodes the stored rows of one join key: their number,
// then each record's count, number of associations and row, in order; a
// record with a write time (a retention) has its count negated and
// followed by the time.
func joinRowsCodec(ts []types.Type) state.Codec[joinRows] {
	return state.Codec[joinRows]{
		Append: func(b []byte, s joinRows) []byte {
			b = state.AppendUvarint(b, uint64(s.live))
			for _, rec := range s.recs {
				if rec != nil {
					if rec.at != 0 {
						b = state.AppendVarint(b, -rec.count)
						b = state.AppendVarint(b, rec.at)
					} else {
						b = state.AppendVarint(b, rec.count)
					}
					b = state.AppendVarint(b, rec.assoc)
					b = state.AppendRow(b, ts, rec.row)
				}
			}
			return b
		},
		Decode: func(b []byte) (joinRows, error) {
			r := state.NewReader(b)
			var s joinRows
			for n := r.Uvarint(); n > 0 && r.Err() == nil; n-- {
				count, at := r.Varint(), int64(0)
				if count < 0 {
					count, at = -count, r.Varint()
				}
				assoc := r.Varint()
				row := r.Row(ts)
				s.append(&joinRecord{row: row, count: count, assoc: assoc, at: at, hash: rowHash(row)})
			}
			return s, r.Done()
		},
	}
}
