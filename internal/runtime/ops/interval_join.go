package ops

import (
	"errors"

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
	// (nanoseconds): right.time BETWEEN left.time + LowerBound AND
	// left.time + UpperBound.
	LowerBound, UpperBound int64
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
// of TimeIntervalJoin (row time + relative size + (UpperBound -
// LowerBound)/2 + 1) and while joining; on an outer side an expired row that
// never matched is emitted null-padded then. The timers are kept in the
// keys' entries and fire through a timer queue (timerQueue), so a
// watermark costs the keys whose timers are due, not every key. As in Flink the operator's
// time is the watermark clamped at 0, and the watermark it forwards is held
// back by max(UpperBound, -LowerBound) (getMaxOutputDelay), except the
// final one. Rows with a NULL key column match nothing.
type IntervalJoin struct {
	*joiner
	cfg IntervalJoinConfig
	// leftSize and rightSize are Flink's leftRelativeSize and
	// rightRelativeSize; cleanUp is its minCleanUpInterval.
	leftSize, rightSize, cleanUp int64
	// leftExpired and rightExpired are the times up to which the caches
	// were last cleaned (leftExpirationTime, rightExpirationTime).
	leftExpired, rightExpired int64
	st                        state.Backend
	keys                      *state.Table[*intervalKey]
	timers                    *timerQueue
	wm                        int64
}

// intervalKey is the state of one join key: the cached rows of each side
// and the clean-up timer of each cache (0 for none).
type intervalKey struct {
	left, right           []cachedRow
	leftTimer, rightTimer int64
}

// cachedRow is a cached row, its time and whether it has been joined.
type cachedRow struct {
	time    int64
	row     types.Row
	emitted bool
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
	}
	j.cleanUp = (j.leftSize + j.rightSize) / 2
	lt, rt := cfg.LeftTypes, cfg.RightTypes
	j.keys = state.NewTable(j.st, "keys", state.Codec[*intervalKey]{
		Append: func(b []byte, k *intervalKey) []byte {
			b = state.AppendVarint(b, k.leftTimer)
			b = state.AppendVarint(b, k.rightTimer)
			return appendCachedRows(appendCachedRows(b, lt, k.left), rt, k.right)
		},
		Decode: func(b []byte) (*intervalKey, error) {
			r := state.NewReader(b)
			k := &intervalKey{leftTimer: r.Varint(), rightTimer: r.Varint()}
			k.left = readCachedRows(r, lt)
			k.right = readCachedRows(r, rt)
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

// operatorTime is the watermark clamped at 0 (updateOperatorTime).
func (j *IntervalJoin) operatorTime() int64 { return max(j.wm, 0) }

// expiration returns the time up to which a cache whose rows reach size
// past their time can be cleaned (calExpirationTime).
func (j *IntervalJoin) expiration(size int64) int64 {
	if j.wm == runtime.MaxWatermark {
		return runtime.MaxWatermark
	}
	return j.operatorTime() - size - 1
}

// ProcessChunk implements runtime.Operator.
func (j *IntervalJoin) ProcessChunk(input int, c *types.Chunk, out runtime.Emitter) error {
	w := j.out.to(out)
	defer w.flush()
	left := input == 0
	timeCol := j.cfg.RightTime
	if left {
		timeCol = j.cfg.LeftTime
	}
	for i := range c.Len() {
		if c.Ops[i] != types.Insert {
			return errors.New("interval join: inputs must be insert-only")
		}
		row, t := c.Row(i), c.Cols[timeCol].Get(i).I
		key, ok := j.sideKey(c, i, left)
		if !ok {
			if left && j.spec.Kind.leftOuter() || !left && j.spec.Kind.rightOuter() {
				j.emitPadded(w, types.Insert, row, left)
			}
			continue
		}
		if err := j.process(w, key, row, t, left); err != nil {
			return err
		}
	}
	return nil
}

// process is TimeIntervalJoin.processElement1/2 for one row of the side
// `left` at time t.
func (j *IntervalJoin) process(w *output, key []byte, row types.Row, t int64, left bool) error {
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
		keep := (*other)[:0]
		for _, o := range *other {
			if o.time >= lower && o.time <= upper {
				l, r := pair(row, o.row, left)
				m, err := j.matches(l, r)
				if err != nil {
					return err
				}
				if m {
					j.emit(w, types.Insert, l, r)
					emitted = true
					o.emitted = true
				}
			}
			if o.time <= *otherExpired {
				if otherOuter && !o.emitted {
					j.emitPadded(w, types.Insert, o.row, !left)
				}
				continue
			}
			keep = append(keep, o)
		}
		clear((*other)[len(keep):])
		*other = keep
	}
	if j.operatorTime() < upper {
		*own = append(*own, cachedRow{time: t, row: row, emitted: emitted})
		if *ownTimer == 0 {
			*ownTimer = t + ownSize + j.cleanUp + 1
			skey = string(key)
			j.setTimer(*ownTimer, ks, skey)
		}
	} else if !emitted && ownOuter {
		j.emitPadded(w, types.Insert, row, left)
	}
	switch {
	case len(ks.left) == 0 && len(ks.right) == 0:
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
	if wm != runtime.MaxWatermark {
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
	if len(ks.left) == 0 && len(ks.right) == 0 {
		j.keys.DeleteString(key)
	} else {
		j.keys.PutString(key, ks)
	}
}

// expire removes the rows of a cache up to time exp, emitting the unjoined
// ones null-padded on an outer side, and returns the cache's next timer
// (removeExpiredRows).
func (j *IntervalJoin) expire(w *output, cache *[]cachedRow, exp int64, left bool) int64 {
	outer := left && j.spec.Kind.leftOuter() || !left && j.spec.Kind.rightOuter()
	size := j.rightSize
	if left {
		size = j.leftSize
	}
	keep := (*cache)[:0]
	earliest, any := int64(0), false
	for _, c := range *cache {
		if c.time <= exp {
			if outer && !c.emitted {
				j.emitPadded(w, types.Insert, c.row, left)
			}
			continue
		}
		if !any || c.time < earliest {
			earliest, any = c.time, true
		}
		keep = append(keep, c)
	}
	clear((*cache)[len(keep):])
	*cache = keep
	if !any {
		return 0
	}
	return earliest + size + j.cleanUp + 1
}

// appendCachedRows appends a cache of rows of types ts.
func appendCachedRows(b []byte, ts []types.Type, rows []cachedRow) []byte {
	b = state.AppendUvarint(b, uint64(len(rows)))
	for _, c := range rows {
		b = state.AppendVarint(b, c.time)
		emitted := uint64(0)
		if c.emitted {
			emitted = 1
		}
		b = state.AppendUvarint(b, emitted)
		b = state.AppendRow(b, ts, c.row)
	}
	return b
}

// readCachedRows reads a cache written by appendCachedRows.
func readCachedRows(r *state.Reader, ts []types.Type) []cachedRow {
	var rows []cachedRow
	for n := r.Uvarint(); n > 0 && r.Err() == nil; n-- {
		c := cachedRow{time: r.Varint(), emitted: r.Uvarint() == 1}
		c.row = r.Row(ts)
		rows = append(rows, c)
	}
	return rows
}
