package ops

import (
	"errors"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// WindowJoinConfig configures a WindowJoin.
type WindowJoinConfig struct {
	// JoinSpec gives the sides, the equality keys (which include both
	// sides' window_start and window_end) and the residual condition.
	JoinSpec
	// LeftEnd and RightEnd are the sides' window_end columns.
	LeftEnd, RightEnd int
}

// WindowJoin joins the rows of two windowed inputs that fall in the same
// window and have equal keys, after Flink's WindowJoinOperator: rows are
// buffered per window and key until the watermark passes the window's end
// (window_end - 1 ms), then joined once; an outer side's rows without a
// match are emitted padded with NULLs. Output is insert-only and a window's
// state is dropped once it fired. Rows of a window that already fired are
// late and dropped. Each window and key sets a timer (timerQueue) at its
// end, so a watermark visits only the windows due.
type WindowJoin struct {
	*joiner
	counter
	onWatermark
	cfg    WindowJoinConfig
	st     state.Backend
	keys   *state.Table[*windowJoinKey]
	timers *timerQueue
	fired  int64 // the watermark windows fired at, or MinWatermark
}

// windowJoinKey holds the buffered rows of one window and key. The rows
// of a key with a NULL that matches nothing are unmatched: kept for
// their window's end, then emitted padded.
type windowJoinKey struct {
	end         int64
	unmatched   bool
	left, right []types.Row
}

// NewWindowJoin returns a WindowJoin for cfg.
func NewWindowJoin(cfg WindowJoinConfig, st state.Backend) (*WindowJoin, error) {
	if err := checkCols("window join left window_end", []int{cfg.LeftEnd}, len(cfg.LeftTypes)); err != nil {
		return nil, err
	}
	if err := checkCols("window join right window_end", []int{cfg.RightEnd}, len(cfg.RightTypes)); err != nil {
		return nil, err
	}
	j, err := newJoiner(cfg.JoinSpec)
	if err != nil {
		return nil, err
	}
	w := &WindowJoin{joiner: j, cfg: cfg, st: st, timers: newTimerQueue(), fired: runtime.MinWatermark}
	w.keys = state.NewTable(w.st, "windows", w.codec())
	w.keys.OnRestore(func() {
		var ts []timer
		for key, k := range w.keys.All() {
			ts = append(ts, timer{time: k.end - millisecond, key: key})
		}
		w.timers.rebuildTimers(ts)
	})
	w.onWatermark = newOnWatermark(func(wm int64, e runtime.Emitter) error { return w.fire(wm, w.out.to(e)) })
	return w, nil
}

// State implements Stateful; its Len is the number of windows and keys
// buffered.
func (w *WindowJoin) State() state.Backend { return w.st }

// ProcessChunk implements runtime.Operator.
func (w *WindowJoin) ProcessChunk(input int, c *types.Chunk, out runtime.Emitter) error {
	left := input == 0
	end := w.cfg.RightEnd
	if left {
		end = w.cfg.LeftEnd
	}
	wr := w.out.to(out)
	defer wr.flush()
	for i := range c.Len() {
		if c.Ops[i] != types.Insert {
			return errors.New("window join: the inputs must be insert-only")
		}
		e := c.Cols[end].I64[i]
		if e-millisecond <= w.fired {
			w.n.Add(1) // its window already fired
			continue
		}
		key, ok := w.sideKey(c, i, left)
		if !ok {
			// A NULL key matches nothing; on an outer side the row is
			// emitted padded when its window fires, so keep it under its
			// key (the one it was routed by), marked unmatched.
			if !(left && w.cfg.Kind.leftOuter() || !left && w.cfg.Kind.rightOuter()) {
				continue
			}
			key = w.routedKey(c, i, left)
		}
		k, found := w.keys.Get(key)
		if !found {
			k = &windowJoinKey{end: e, unmatched: !ok}
			s := string(key)
			w.keys.PutString(s, k)
			w.timers.add(e-millisecond, s)
		}
		if left {
			k.left = append(k.left, c.Row(i))
		} else {
			k.right = append(k.right, c.Row(i))
		}
	}
	return nil
}

// fire joins the windows whose end the watermark has passed, in order of
// end.
func (w *WindowJoin) fire(wm int64, out *output) error {
	defer out.flush()
	err := w.timers.fire(wm, func(t int64, key string) error {
		k, ok := w.keys.GetString(key)
		if !ok || k.end-millisecond != t {
			return nil
		}
		w.keys.DeleteString(key)
		return w.joinWindow(out, k)
	})
	w.fired = max(w.fired, wm)
	return err
}

// joinWindow emits the result of one window and key.
func (w *WindowJoin) joinWindow(out *output, k *windowJoinKey) error {
	if k.unmatched {
		for _, l := range k.left {
			w.emitPadded(out, types.Insert, l, true)
		}
		for _, r := range k.right {
			w.emitPadded(out, types.Insert, r, false)
		}
		return nil
	}
	rightMatched := make([]bool, len(k.right))
	for _, l := range k.left {
		matched := false
		for ri, r := range k.right {
			ok, err := w.matches(l, r)
			if err != nil {
				return err
			}
			if ok {
				matched, rightMatched[ri] = true, true
				w.emit(out, types.Insert, l, r)
			}
		}
		if !matched && w.cfg.Kind.leftOuter() {
			w.emitPadded(out, types.Insert, l, true)
		}
	}
	if w.cfg.Kind.rightOuter() {
		for ri, r := range k.right {
			if !rightMatched[ri] {
				w.emitPadded(out, types.Insert, r, false)
			}
		}
	}
	return nil
}

// codec encodes a window and key's buffered rows for snapshots.
func (w *WindowJoin) codec() state.Codec[*windowJoinKey] {
	lt, rt := w.cfg.LeftTypes, w.cfg.RightTypes
	return state.Codec[*windowJoinKey]{
		Append: func(b []byte, k *windowJoinKey) []byte {
			b = state.AppendVarint(b, k.end)
			unmatched := uint64(0)
			if k.unmatched {
				unmatched = 1
			}
			b = state.AppendUvarint(b, unmatched)
			b = rowsCodec(lt).Append(b, k.left)
			return rowsCodec(rt).Append(b, k.right)
		},
		Decode: func(b []byte) (*windowJoinKey, error) {
			r := state.NewReader(b)
			k := &windowJoinKey{end: r.Varint(), unmatched: r.Uvarint() == 1}
			k.left = readRows(r, lt)
			k.right = readRows(r, rt)
			return k, r.Done()
		},
	}
}
