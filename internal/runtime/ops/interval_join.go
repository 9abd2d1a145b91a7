package ops

import (
	"errors"
	"math"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// IntervalJoinConfig configures an IntervalJoin.
type IntervalJoinConfig struct {
	JoinSpec
	// LeftTime and RightTime are the event-time attributes of the left and
	// right rows.
	LeftTime, RightTime int
	// LowerBound and UpperBound bound the right time relative to the left
	// (microseconds): right.time BETWEEN left.time + LowerBound AND
	// left.time + UpperBound.
	LowerBound, UpperBound int64
	// ProcTime is set when the times are processing-time attributes
	// (ProcTimeIntervalJoin sets it): the operator's time is then the
	// clock, not the watermark.
	ProcTime bool
}

// IntervalJoin joins two insert-only streams on keys and an event-time
// interval, after Flink's RowTimeIntervalJoin (TimeIntervalJoin). Output is
// insert-only.
//
// Each side caches its rows per key while rows of the other side may still
// match them. A row arriving at time t joins the cached rows of the other
// side in its interval and is cached itself unless the watermark has
// already passed the last time a matching row could have (watermark >=
// t + UpperBound for a left row, >= t - LowerBound for a right row). A row
// that is not cached and found no match is emitted null-padded right away
// on an outer side; a late row thus only joins what is still cached.
//
// Cached rows expire once they can only match rows behind the watermark:
// a left row at t when t + UpperBound < watermark, a right row at t when
// t - LowerBound < watermark. Expiry runs on the per-key clean-up timers
// of TimeIntervalJoin (row time + relative size + 1 ms: Flink's
// minCleanUpInterval is table.exec.interval-join.min-cleanup-interval,
// 0 ms, since Flink 1.18) and while joining; on an outer side an expired row that
// never matched is emitted null-padded then. The timers are kept in the
// keys' entries and fire through a timer queue (timerQueue), so a
// watermark costs the keys whose timers are due, not every key. The operator's
// time is the watermark (Flink's clamped at 0), and the watermark it forwards is held
// back by max(UpperBound, -LowerBound) (getMaxOutputDelay), except the
// final one. Rows with a NULL key column match nothing.
type IntervalJoin struct {
	*joiner
	cfg IntervalJoinConfig
	// leftSize and rightSize are Flink's leftRelativeSize and
	// rightRelativeSize.
	leftSize, rightSize int64
	// leftExpired and rightExpired are the times up to which the caches
	// were last cleaned (leftExpirationTime, rightExpirationTime), the
	// least int64 before any.
	leftExpired, rightExpired int64
	st                        state.Backend
	keys                      *state.Table[*intervalKey]
	timers                    *timerQueue
	wm                        int64
	// now is the operator's time over processing time: the clock, to the
	// millisecond, when the row or timer at hand came.
	now int64
	// sides are the left and the right side's layouts of cached rows and
	// time columns.
	sides [2]intervalSide
	// lrow and rrow are reused for the rows the residual condition sees.
	lrow, rrow types.Row
}

// intervalSide is one input of the join: the layout of its cached rows,
// its time column and its first column in output rows.
type intervalSide struct {
	layout  *types.RowLayout
	timeCol int
	outCol  int
}

// intervalKey is the state of one join key: the cached rows of each side
// and the clean-up timer of each cache (0 for none).
type intervalKey struct {
	left, right           rowCache
	leftTimer, rightTimer int64
}

// rowCache is a side's cached rows of a key, in the side's layout, and
// whether each has been joined.
type rowCache struct {
	rows    types.Rows
	emitted []bool
}

// drop keeps the first n rows of the cache.
func (c *rowCache) truncate(l *types.RowLayout, n int) {
	l.Truncate(&c.rows, n)
	c.emitted = c.emitted[:n]
}

// move copies row from over row to.
func (c *rowCache) move(l *types.RowLayout, to, from int) {
	l.Move(&c.rows, to, from)
	c.emitted[to] = c.emitted[from]
}

// NewIntervalJoin returns an IntervalJoin for cfg.
func NewIntervalJoin(cfg IntervalJoinConfig, st state.Backend) (*IntervalJoin, error) {
	jn, err := newJoiner(cfg.JoinSpec)
	if err != nil {
		return nil, err
	}
	if err := checkCols("interval join left time", []int{cfg.LeftTime}, len(cfg.LeftTypes)); err != nil {
		return nil, err
	}
	if err := checkCols("interval join right time", []int{cfg.RightTime}, len(cfg.RightTypes)); err != nil {
		return nil, err
	}
	j := &IntervalJoin{
		joiner:    jn,
		cfg:       cfg,
		leftSize:  cfg.UpperBound,
		rightSize: -cfg.LowerBound,
		st:        st,
		timers:    newTimerQueue(),
		wm:        runtime.MinWatermark,
		// Flink's 0 would skip the cache of every row before 1970-01-01.
		leftExpired:  math.MinInt64,
		rightExpired: math.MinInt64,
	}
	j.sides[0] = intervalSide{layout: types.NewRowLayout(cfg.LeftTypes), timeCol: cfg.LeftTime}
	j.sides[1] = intervalSide{layout: types.NewRowLayout(cfg.RightTypes), timeCol: cfg.RightTime, outCol: len(cfg.LeftTypes)}
	var row types.Row // for encoding, in the operator's goroutine
	j.keys = state.NewTable(j.st, "keys", state.Codec[*intervalKey]{
		Append: func(b []byte, k *intervalKey) []byte {
			b = state.AppendVarint(b, k.leftTimer)
			b = state.AppendVarint(b, k.rightTimer)
			b, row = j.sides[0].appendCache(b, row, &k.left)
			b, row = j.sides[1].appendCache(b, row, &k.right)
			return b
		},
		Decode: func(b []byte) (*intervalKey, error) {
			r := state.NewReader(b)
			k := &intervalKey{leftTimer: r.Varint(), rightTimer: r.Varint()}
			j.sides[0].readCache(r, &k.left)
			j.sides[1].readCache(r, &k.right)
			return k, r.Done()
		},
	})
	j.keys.OnRestore(j.restoreTimers)
	return j, nil
}

// restoreTimers rebuilds the timer queue from the restored keys.
func (j *IntervalJoin) restoreTimers() {
	var ts []timer
	for k, ks := range j.keys.All() {
		if ks.leftTimer != 0 {
			ts = append(ts, timer{time: ks.leftTimer, key: k})
		}
		if ks.rightTimer != 0 && ks.rightTimer != ks.leftTimer {
			ts = append(ts, timer{time: ks.rightTimer, key: k})
		}
	}
	j.timers.rebuildTimers(ts)
}

// State implements Stateful; its Len counts join keys with cached rows.
func (j *IntervalJoin) State() state.Backend { return j.st }

// Open implements runtime.Operator.
func (j *IntervalJoin) Open(*runtime.Context) error { return nil }

// operatorTime is the watermark, or over processing time the clock
// (updateOperatorTime). Flink clamps the watermark at 0, which makes every
// row before 1970-01-01 late; Sluice's times reach back to 0000-01-01.
func (j *IntervalJoin) operatorTime() int64 {
	if j.cfg.ProcTime {
		return j.now
	}
	return j.wm
}

// expiration returns the time up to which a cache whose rows reach size
// past their time can be cleaned (calExpirationTime; times are whole
// milliseconds): none before the first watermark.
func (j *IntervalJoin) expiration(size int64) int64 {
	if j.wm == runtime.MaxWatermark {
		return runtime.MaxWatermark
	}
	t, ok := types.AddExact(j.operatorTime(), -size-millisecond)
	if !ok {
		return math.MinInt64
	}
	return t
}

// emptyWindow reports bounds that no pair of rows can meet (the upper
// below the lower): Flink's StreamExecIntervalJoin then keeps no state
// and joins nothing (createNegativeWindowSizeJoin): an outer side's rows
// are emitted null-padded as they come, the others dropped, and
// watermarks pass on as they are.
func (j *IntervalJoin) emptyWindow() bool { return j.cfg.UpperBound < j.cfg.LowerBound }

// ProcessLeased implements runtime.LeaseTaker: nothing of c is kept (the
// rows cached and emitted are copied).
func (j *IntervalJoin) ProcessLeased(input int, c *types.Chunk, l *runtime.Lease, out runtime.Emitter) error {
	return releaseAfter(j.ProcessChunk(input, c, out), l)
}

// ProcessChunk implements runtime.Operator.
func (j *IntervalJoin) ProcessChunk(input int, c *types.Chunk, out runtime.Emitter) error {
	w := j.out.to(out)
	defer w.flush()
	left := input == 0
	outer := left && j.spec.Kind.leftOuter() || !left && j.spec.Kind.rightOuter()
	tc := c.Cols[j.sides[input].timeCol]
	for i := range c.Len() {
		if c.Ops[i] != types.Insert {
			return errors.New("interval join: inputs must be insert-only")
		}
		if j.emptyWindow() {
			if outer {
				j.emitChunkPadded(w, c, i, left)
			}
			continue
		}
		t := tc.I64[i]
		if tc.Nulls[i] {
			t = 0
		}
		key, ok := j.sideKey(c, i, left)
		if !ok {
			if outer {
				j.emitChunkPadded(w, c, i, left)
			}
			continue
		}
		if err := j.process(w, key, c, i, t, left); err != nil {
			return err
		}
	}
	return nil
}

// side returns the side of input left and the other side.
func (j *IntervalJoin) side(left bool) (own, other *intervalSide) {
	if left {
		return &j.sides[0], &j.sides[1]
	}
	return &j.sides[1], &j.sides[0]
}

// emitJoined outputs row i of c, of the side `left`, joined with cached
// row k of the other side, copying the values column by column.
func (j *IntervalJoin) emitJoined(w *output, c *types.Chunk, i int, left bool, other *rowCache, k int) {
	own, oth := j.side(left)
	o := w.next()
	c.AppendRowTo(o.Cols[own.outCol:own.outCol+len(c.Cols)], i)
	oth.layout.AppendTo(o.Cols[oth.outCol:oth.outCol+len(oth.layout.Types())], &other.rows, k)
	w.added(types.Insert)
}

// emitChunkPadded outputs row i of c, of the side `left`, padded with
// NULLs for the other side.
func (j *IntervalJoin) emitChunkPadded(w *output, c *types.Chunk, i int, left bool) {
	own, oth := j.side(left)
	o := w.next()
	c.AppendRowTo(o.Cols[own.outCol:own.outCol+len(c.Cols)], i)
	appendNullsTo(o.Cols[oth.outCol : oth.outCol+len(oth.layout.Types())])
	w.added(types.Insert)
}

// emitCachedPadded outputs cached row k of the side `left` padded with
// NULLs for the other side.
func (j *IntervalJoin) emitCachedPadded(w *output, cache *rowCache, k int, left bool) {
	own, oth := j.side(left)
	o := w.next()
	own.layout.AppendTo(o.Cols[own.outCol:own.outCol+len(own.layout.Types())], &cache.rows, k)
	appendNullsTo(o.Cols[oth.outCol : oth.outCol+len(oth.layout.Types())])
	w.added(types.Insert)
}

// matches evaluates the residual condition on row i of c, of the side
// `left`, and cached row k of the other side.
func (j *IntervalJoin) matchesCached(c *types.Chunk, i int, left bool, other *rowCache, k int) (bool, error) {
	if j.spec.Cond == nil {
		return true, nil
	}
	_, oth := j.side(left)
	j.lrow = j.lrow[:0]
	for _, v := range c.Cols {
		j.lrow = append(j.lrow, v.Get(i))
	}
	j.rrow = oth.layout.Row(j.rrow[:0], &other.rows, k)
	l, r := pair(j.lrow, j.rrow, left)
	return j.matches(l, r)
}

// appendNullsTo appends a NULL to each vector.
func appendNullsTo(vs []*types.Vector) {
	for _, v := range vs {
		v.AppendNull()
	}
}

// process is TimeIntervalJoin.processElement1/2 for one row of the side
// `left` at time t.
func (j *IntervalJoin) process(w *output, key []byte, c *types.Chunk, i int, t int64, left bool) error {
	ks, found := j.keys.Get(key)
	if !found {
		ks = &intervalKey{}
	}
	// skey is the key as a string, made once for the entry and the
	// timers.
	var skey string
	// Sizes, caches and timers seen from the input side ("own") and the
	// other side.
	ownSize, otherSize := j.leftSize, j.rightSize
	otherExpired := &j.rightExpired
	own, other := &ks.left, &ks.right
	ownSide, otherSide := j.side(left)
	ownTimer := &ks.leftTimer
	ownOuter, otherOuter := j.spec.Kind.leftOuter(), j.spec.Kind.rightOuter()
	if !left {
		ownSize, otherSize = otherSize, ownSize
		otherExpired = &j.leftExpired
		own, other = other, own
		ownTimer = &ks.rightTimer
		ownOuter, otherOuter = otherOuter, ownOuter
	}
	lower, upper := t-otherSize, t+ownSize
	emitted := false
	if *otherExpired < upper {
		*otherExpired = j.expiration(otherSize)
		ol := otherSide.layout
		keep := 0
		for k := range other.rows.Len() {
			ot := otherSide.time(other, k)
			if ot >= lower && ot <= upper {
				m, err := j.matchesCached(c, i, left, other, k)
				if err != nil {
					return err
				}
				if m {
					j.emitJoined(w, c, i, left, other, k)
					emitted = true
					other.emitted[k] = true
				}
			}
			if ot <= *otherExpired {
				if otherOuter && !other.emitted[k] {
					j.emitCachedPadded(w, other, k, !left)
				}
				continue
			}
			other.move(ol, keep, k)
			keep++
		}
		other.truncate(ol, keep)
	}
	if j.operatorTime() < upper {
		ownSide.layout.AppendChunkRow(&own.rows, c, i)
		own.emitted = append(own.emitted, emitted)
		if *ownTimer == 0 {
			*ownTimer = t + ownSize + millisecond
			skey = string(key)
			j.setTimer(*ownTimer, ks, skey)
		}
	} else if !emitted && ownOuter {
		j.emitChunkPadded(w, c, i, left)
	}
	switch {
	case ks.left.rows.Len() == 0 && ks.right.rows.Len() == 0:
		j.keys.Delete(key)
	case found || skey == "":
		j.keys.Put(key, ks)
	default:
		j.keys.PutString(skey, ks)
	}
	return nil
}

// setTimer sets the timer at t (not 0) of key ks, unless its other
// timer is already at t.
func (j *IntervalJoin) setTimer(t int64, ks *intervalKey, key string) {
	if t != 0 && (ks.leftTimer != t || ks.rightTimer != t) {
		j.timers.add(t, key)
	}
}

// ProcessWatermark implements runtime.Operator: it runs the clean-up
// timers the watermark reached, then forwards the watermark held back by
// the join's maximum output delay.
func (j *IntervalJoin) ProcessWatermark(wm int64, out runtime.Emitter) error {
	j.wm = wm
	w := j.out.to(out)
	err := j.timers.fire(wm, func(t int64, key string) error {
		j.onTimer(w, t, key)
		return nil
	})
	w.flush()
	if err != nil {
		return err
	}
	if wm != runtime.MaxWatermark && !j.emptyWindow() {
		wm -= max(j.leftSize, j.rightSize)
	}
	out.EmitWatermark(wm)
	return nil
}

// Finish implements runtime.Operator.
func (j *IntervalJoin) Finish(runtime.Emitter) error { return nil }

// onTimer runs the clean-up timer of key at t (TimeIntervalJoin.onTimer):
// the timer on the left stream cleans the right cache, then the one on
// the right stream cleans the left cache. A timer the key's entry no
// longer holds is stale and does nothing.
func (j *IntervalJoin) onTimer(w *output, t int64, key string) {
	ks, ok := j.keys.GetString(key)
	if !ok || ks.leftTimer != t && ks.rightTimer != t {
		return
	}
	if ks.rightTimer == t {
		j.rightExpired = j.expiration(j.rightSize)
		ks.rightTimer = j.expire(w, &ks.right, j.rightExpired, false)
		j.setTimer(ks.rightTimer, ks, key)
	}
	if ks.leftTimer == t {
		j.leftExpired = j.expiration(j.leftSize)
		ks.leftTimer = j.expire(w, &ks.left, j.leftExpired, true)
		j.setTimer(ks.leftTimer, ks, key)
	}
	if ks.left.rows.Len() == 0 && ks.right.rows.Len() == 0 {
		j.keys.DeleteString(key)
	} else {
		j.keys.PutString(key, ks)
	}
}

// expire removes the rows of a cache up to time exp, emitting the unjoined
// ones null-padded on an outer side, and returns the cache's next timer
// (removeExpiredRows).
func (j *IntervalJoin) expire(w *output, cache *rowCache, exp int64, left bool) int64 {
	outer := left && j.spec.Kind.leftOuter() || !left && j.spec.Kind.rightOuter()
	size := j.rightSize
	if left {
		size = j.leftSize
	}
	side, _ := j.side(left)
	keep := 0
	earliest, any := int64(0), false
	for k := range cache.rows.Len() {
		t := side.time(cache, k)
		if t <= exp {
			if outer && !cache.emitted[k] {
				j.emitCachedPadded(w, cache, k, left)
			}
			continue
		}
		if !any || t < earliest {
			earliest, any = t, true
		}
		cache.move(side.layout, keep, k)
		keep++
	}
	cache.truncate(side.layout, keep)
	if !any {
		return 0
	}
	return earliest + size + millisecond
}

// time returns the time of cached row k (0 for NULL).
func (s *intervalSide) time(c *rowCache, k int) int64 {
	return s.layout.Int(&c.rows, k, s.timeCol)
}

// appendCache appends the rows of a cache, each as its time, whether it
// was joined and its values; row is a buffer, returned for reuse.
func (s *intervalSide) appendCache(b []byte, row types.Row, c *rowCache) ([]byte, types.Row) {
	b = state.AppendUvarint(b, uint64(c.rows.Len()))
	for k := range c.rows.Len() {
		b = state.AppendVarint(b, s.time(c, k))
		emitted := uint64(0)
		if c.emitted[k] {
			emitted = 1
		}
		b = state.AppendUvarint(b, emitted)
		row = s.layout.Row(row[:0], &c.rows, k)
		b = state.AppendRow(b, s.layout.Types(), row)
	}
	return b, row
}

// readCache reads a cache written by appendCache into c.
func (s *intervalSide) readCache(r *state.Reader, c *rowCache) {
	for n := r.Uvarint(); n > 0 && r.Err() == nil; n-- {
		r.Varint() // the time, also in the row
		c.emitted = append(c.emitted, r.Uvarint() == 1)
		row := r.Row(s.layout.Types())
		if r.Err() != nil {
			return
		}
		s.layout.AppendRow(&c.rows, row)
	}
}
