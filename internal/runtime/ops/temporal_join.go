package ops

import (
	"errors"
	"slices"

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
type TemporalJoin struct {
	*joiner
	onWatermark
	cfg  TemporalJoinConfig
	st   state.Backend
	keys *state.Table[*temporalKey]
}

// temporalKey is the state of one join key.
type temporalKey struct {
	pending  []types.Row    // left rows waiting for the watermark
	versions []rightVersion // right versions by ascending time
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
	t := &TemporalJoin{joiner: j, cfg: cfg, st: st}
	t.keys = state.NewTable(t.st, "keys", t.codec())
	t.onWatermark = newOnWatermark(func(wm int64, e runtime.Emitter) error { return t.fire(wm, t.out.to(e)) })
	return t, nil
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
		k, _ := t.keys.Get(key)
		if k == nil {
			k = &temporalKey{}
		}
		if left {
			if c.Ops[i] != types.Insert {
				return errors.New("temporal join: the left input must be insert-only")
			}
			k.pending = append(k.pending, c.Row(i))
		} else {
			tc := c.Cols[t.cfg.RightTime]
			if tc.Nulls[i] || c.Ops[i] == types.UpdateBefore {
				// The +U that follows a -U is the next version; Flink's
				// versioned table input carries no -U at all.
				continue
			}
			v := rightVersion{time: tc.I64[i]}
			if c.Ops[i].IsAccumulate() {
				v.row = c.Row(i)
			}
			k.addVersion(v)
		}
		t.keys.Put(key, k)
	}
	return nil
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

// fire joins the left rows up to wm and drops the versions no left row can
// need any more.
func (t *TemporalJoin) fire(wm int64, w *output) error {
	defer w.flush()
	for key, k := range t.keys.All() {
		var kept []types.Row
		var due []types.Row
		for _, r := range k.pending {
			if r[t.cfg.LeftTime].Null || r[t.cfg.LeftTime].I <= wm {
				due = append(due, r)
			} else {
				kept = append(kept, r)
			}
		}
		slices.SortStableFunc(due, func(a, b types.Row) int {
			return cmpTime(a[t.cfg.LeftTime], b[t.cfg.LeftTime])
		})
		for _, r := range due {
			if err := t.joinLeft(w, k, r); err != nil {
				return err
			}
		}
		k.pending = kept
		k.expire(wm)
		if len(k.pending) == 0 && len(k.versions) == 0 {
			t.keys.Delete([]byte(key))
			continue
		}
		t.keys.Put([]byte(key), k)
	}
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
			k := &temporalKey{pending: readRows(r, lt)}
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
