package ops

import (
	"errors"
	"slices"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// TemporalJoinConfig configures a TemporalJoin.
type TemporalJoinConfig struct {
	// JoinSpec gives the sides, keys (which include the versioned table's
	// primary key) and residual condition; Kind is InnerJoin or LeftJoin.
	JoinSpec
	// LeftTime is the left side's event-time attribute (FOR SYSTEM_TIME AS
	// OF it); RightTime the versioned table's.
	LeftTime, RightTime int
	// StateTTL is the keys' idle state retention (temporalCleanup); 0
	// keeps them for ever.
	StateTTL time.Duration
}

// TemporalJoin joins each row of an append-only left side with the version
// of the right side's row for its key that was valid at the left row's
// event time: the last right row with a time at or before it (an event-time
// temporal join, after Flink's TemporalRowTimeJoinOperator). Left rows wait
// until the watermark (the minimum of both sides) reaches their time; the
// right side is a changelog of versions keyed by their time: +I and +U rows
// are versions, a -D row marks its time as deleted, -U rows are skipped. Versions older than the last one before the watermark are
// dropped. Output is insert-only: joined rows, and for a LEFT join left
// rows without a valid version padded with NULLs.
//
// A key is visited at a watermark only when the watermark reaches its
// timer (timerQueue): the earliest time at which a visit would change
// anything, that is join a pending left row or drop a version (see
// due). The key's entry keeps that time, so the timers are checkpointed
// and redistributed with the keys, and a watermark costs the keys due,
// not every key.
//
// With a retention (StateTTL) a key idle for between it and 1.5 times it
// loses its waiting left rows and its versions, as Flink's operator
// cleans up with a processing-time timer (temporalCleanup).
type TemporalJoin struct {
	*joiner
	onWatermark
	cfg    TemporalJoinConfig
	st     state.Backend
	keys   *state.Table[*temporalKey]
	timers *timerQueue
	// due holds the visited key's left rows due (a reused buffer).
	due []types.Row
	// ttl is the keys' retention, nil without one.
	ttl *temporalCleanup
}

// temporalKey is the state of one join key.
type temporalKey struct {
	pending  []types.Row    // left rows waiting for the watermark
	versions []rightVersion // right versions by ascending time
	// timer is the time of the key's timer when hasTimer: at or before
	// the first watermark at which visiting the key changes anything.
	timer    int64
	hasTimer bool
}

// rightVersion is the right row valid from time on; row is nil when the
// version is a deletion.
type rightVersion struct {
	time int64
	row  types.Row
}

// NewTemporalJoin returns a TemporalJoin for cfg.
func NewTemporalJoin(cfg TemporalJoinConfig, st state.Backend) (*TemporalJoin, error) {
	if cfg.Kind != InnerJoin && cfg.Kind != LeftJoin {
		return nil, errors.New("temporal join: only INNER and LEFT joins are supported")
	}
	if err := checkCols("temporal join left time", []int{cfg.LeftTime}, len(cfg.LeftTypes)); err != nil {
		return nil, err
	}
	if err := checkCols("temporal join right time", []int{cfg.RightTime}, len(cfg.RightTypes)); err != nil {
		return nil, err
	}
	j, err := newJoiner(cfg.JoinSpec)
	if err != nil {
		return nil, err
	}
	t := &TemporalJoin{joiner: j, cfg: cfg, st: st, timers: newTimerQueue()}
	t.keys = state.NewTable(t.st, "keys", t.codec())
	t.keys.OnRestore(t.restoreTimers)
	t.ttl = newTemporalCleanup(t.st, cfg.StateTTL)
	t.onWatermark = newOnWatermark(func(wm int64, e runtime.Emitter) error { return t.fire(wm, t.out.to(e)) })
	return t, nil
}

// Open implements runtime.Operator.
func (t *TemporalJoin) Open(ctx *runtime.Context) error {
	if t.ttl != nil {
		t.ttl.start(ctx)
	}
	return nil
}

// OnProcessingTime implements runtime.ProcessingTimer: the keys whose
// cleanup timers are due lose their state.
func (t *TemporalJoin) OnProcessingTime(now int64, _ runtime.Emitter) error {
	if t.ttl.enabled() {
		t.ttl.clean(now, t.keys.DeleteString)
	}
	return nil
}

// waiting returns the earliest time of key's left rows waiting for the
// watermark, if it has any.
func (t *TemporalJoin) waiting(key string) (int64, bool) {
	k, ok := t.keys.GetString(key)
	if !ok || len(k.pending) == 0 {
		return 0, false
	}
	first := k.pending[0][t.cfg.LeftTime].I
	for _, r := range k.pending[1:] {
		first = min(first, r[t.cfg.LeftTime].I)
	}
	return first, true
}

// restoreTimers rebuilds the timer queue from the restored keys.
func (t *TemporalJoin) restoreTimers() {
	var ts []timer
	for key, k := range t.keys.All() {
		if k.hasTimer {
			ts = append(ts, timer{time: k.timer, key: key})
		}
	}
	t.timers.rebuildTimers(ts)
}

// State implements Stateful; its Len is the number of keys.
func (t *TemporalJoin) State() state.Backend { return t.st }

// ProcessChunk implements runtime.Operator.
func (t *TemporalJoin) ProcessChunk(input int, c *types.Chunk, out runtime.Emitter) error {
	left := input == 0
	w := t.out.to(out)
	defer w.flush()
	for i := range c.Len() {
		key, ok := t.sideKey(c, i, left)
		if !ok {
			// A NULL key matches nothing: a left row is padded at once on
			// a LEFT join, a right row is no version of anything.
			if left && t.cfg.Kind == LeftJoin {
				t.emitPadded(w, types.Insert, c.Row(i), true)
			}
			continue
		}
		if left && c.Ops[i] != types.Insert {
			return errors.New("temporal join: the left input must be insert-only")
		}
		if !left && (c.Cols[t.cfg.RightTime].Nulls[i] || c.Ops[i] == types.UpdateBefore) {
			// The +U that follows a -U is the next version; Flink's
			// versioned table input carries no -U at all.
			continue
		}
		k, found := t.keys.Get(key)
		if !found {
			k = &temporalKey{}
		}
		// due is when a visit could first change anything after this
		// row: its own time for a left row (a NULL time is due at once),
		// the versions' for a right row. The key's timer, at or before
		// when the key was due so far, moves to it if it is earlier.
		var due int64
		var hasDue bool
		if left {
			k.pending = append(k.pending, c.Row(i))
			due, hasDue = runtime.MinWatermark, true
			if lt := c.Cols[t.cfg.LeftTime]; !lt.Nulls[i] {
				due = lt.I64[i]
			}
		} else {
			v := rightVersion{time: c.Cols[t.cfg.RightTime].I64[i]}
			if c.Ops[i].IsAccumulate() {
				v.row = c.Row(i)
			}
			k.addVersion(v)
			due, hasDue = k.versionsDue()
		}
		var skey string
		if hasDue && (!k.hasTimer || due < k.timer) {
			k.timer, k.hasTimer = due, true
			skey = string(key)
			t.timers.add(due, skey)
		}
		if found || skey == "" {
			t.keys.Put(key, k)
		} else {
			t.keys.PutString(skey, k)
		}
		if t.ttl.enabled() {
			if skey == "" {
				skey = string(key)
			}
			rowTime := due
			if !left {
				rowTime = c.Cols[t.cfg.RightTime].I64[i]
			}
			t.ttl.row(skey, rowTime, !left)
		}
	}
	return nil
}

// versionsDue returns the first watermark at which expire changes the
// versions: when it reaches the first version if that is a deletion,
// else when it reaches the second. expire(wm) leaves at most one version
// at or before wm, not a deletion, so a watermark before this time
// changes nothing.
func (k *temporalKey) versionsDue() (int64, bool) {
	switch {
	case len(k.versions) > 0 && k.versions[0].row == nil:
		return k.versions[0].time, true
	case len(k.versions) > 1:
		return k.versions[1].time, true
	}
	return 0, false
}

// addVersion inserts v in time order; a later change at the same time
// replaces the earlier one.
func (k *temporalKey) addVersion(v rightVersion) {
	i, found := slices.BinarySearchFunc(k.versions, v.time, func(x rightVersion, t int64) int {
		switch {
		case x.time < t:
			return -1
		case x.time > t:
			return 1
		}
		return 0
	})
	if found {
		k.versions[i] = v
		return
	}
	k.versions = slices.Insert(k.versions, i, v)
}

// at returns the right row valid at time t, or nil.
func (k *temporalKey) at(t int64) types.Row {
	var row types.Row
	for _, v := range k.versions {
		if v.time > t {
			break
		}
		row = v.row
	}
	return row
}

// fire visits the keys whose timers wm reached.
func (t *TemporalJoin) fire(wm int64, w *output) error {
	defer w.flush()
	if err := t.timers.fire(wm, func(tm int64, key string) error { return t.visit(w, wm, tm, key) }); err != nil {
		return err
	}
	t.ttl.fire(wm, t.waiting)
	return nil
}

// visit joins the left rows of key up to wm and drops the versions no
// left row can need any more, for its timer at tm; a timer the key's
// entry no longer holds is stale and does nothing. It then sets the
// key's next timer, after wm.
func (t *TemporalJoin) visit(w *output, wm, tm int64, key string) error {
	k, ok := t.keys.GetString(key)
	if !ok || !k.hasTimer || k.timer != tm {
		return nil
	}
	lt := t.cfg.LeftTime
	due, kept := t.due[:0], k.pending[:0]
	next, hasNext := int64(0), false
	for _, r := range k.pending {
		if r[lt].Null || r[lt].I <= wm {
			due = append(due, r)
			continue
		}
		kept = append(kept, r)
		if !hasNext || r[lt].I < next {
			next, hasNext = r[lt].I, true
		}
	}
	slices.SortStableFunc(due, func(a, b types.Row) int { return cmpTime(a[lt], b[lt]) })
	for _, r := range due {
		if err := t.joinLeft(w, k, r); err != nil {
			return err
		}
	}
	clear(due)
	t.due = due[:0]
	clear(k.pending[len(kept):])
	k.pending = kept
	if len(kept) == 0 {
		k.pending = nil
	}
	k.expire(wm)
	if len(k.pending) == 0 && len(k.versions) == 0 {
		t.keys.DeleteString(key)
		return nil
	}
	if vd, ok := k.versionsDue(); ok && (!hasNext || vd < next) {
		next, hasNext = vd, true
	}
	k.timer, k.hasTimer = next, hasNext
	if hasNext {
		t.timers.add(next, key)
	}
	t.keys.PutString(key, k)
	return nil
}

func cmpTime(a, b types.Value) int {
	switch {
	case a.Null && b.Null:
		return 0
	case a.Null:
		return -1
	case b.Null:
		return 1
	}
	return int(min(max(a.I-b.I, -1), 1))
}

// joinLeft emits the result of one left row.
func (t *TemporalJoin) joinLeft(w *output, k *temporalKey, left types.Row) error {
	if tv := left[t.cfg.LeftTime]; !tv.Null {
		if right := k.at(tv.I); right != nil {
			ok, err := t.matches(left, right)
			if err != nil {
				return err
			}
			if ok {
				t.emit(w, types.Insert, left, right)
				return nil
			}
		}
	}
	if t.cfg.Kind == LeftJoin {
		t.emitPadded(w, types.Insert, left, true)
	}
	return nil
}

// expire keeps, of the versions at or before wm, only the last one (pending
// left rows are all after wm); a last version that is a deletion goes too.
func (k *temporalKey) expire(wm int64) {
	last := -1
	for i, v := range k.versions {
		if v.time <= wm {
			last = i
		}
	}
	if last < 0 {
		return
	}
	if k.versions[last].row == nil {
		last++
	}
	k.versions = k.versions[last:]
}

// codec encodes a key's state for snapshots.
func (t *TemporalJoin) codec() state.Codec[*temporalKey] {
	lt, rt := t.cfg.LeftTypes, t.cfg.RightTypes
	return state.Codec[*temporalKey]{
		Append: func(b []byte, k *temporalKey) []byte {
			if k.hasTimer {
				b = state.AppendVarint(append(b, 1), k.timer)
			} else {
				b = append(b, 0)
			}
			b = rowsCodec(lt).Append(b, k.pending)
			b = state.AppendUvarint(b, uint64(len(k.versions)))
			for _, v := range k.versions {
				b = state.AppendVarint(b, v.time)
				if v.row == nil {
					b = append(b, 0)
					continue
				}
				b = state.AppendRow(append(b, 1), rt, v.row)
			}
			return b
		},
		Decode: func(b []byte) (*temporalKey, error) {
			r := state.NewReader(b)
			k := &temporalKey{}
			if r.Uvarint() == 1 {
				k.timer, k.hasTimer = r.Varint(), true
			}
			k.pending = readRows(r, lt)
			n := r.Uvarint()
			for i := uint64(0); i < n && r.Err() == nil; i++ {
				v := rightVersion{time: r.Varint()}
				if r.Uvarint() == 1 {
					v.row = r.Row(rt)
				}
				k.versions = append(k.versions, v)
			}
			return k, r.Done()
		},
	}
}
