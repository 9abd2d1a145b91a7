// Package ops implements Sluice's stream operators with the semantics of
// Flink's table runtime (org.apache.flink.table.runtime.operators): Calc,
// group aggregation (also in mini-batches, and as local and global
// phases, after a MiniBatchAssigner), window table functions and window
// aggregation, OVER aggregation (event and processing time), changelog
// normalization, deduplication, Top-N and window Top-N, regular, semi and
// anti, interval, window and temporal joins, Correlate (UNNEST), Expand
// (grouping sets), MATCH_RECOGNIZE, union, values, limit and temporal
// sort.
//
// Each operator is built from a plain config struct and implements
// runtime.Operator. Expressions arrive as Go closures over rows, so this
// package does not depend on the planner. Operators keep their state in a
// state.Backend (see Stateful) so it can be snapshotted and restored.
package ops

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// Stateful is implemented by every operator that keeps state; the runtime
// checkpoints and restores its backend.
type Stateful = runtime.Stateful

// output builds an operator's output chunks of up to types.ChunkSize rows,
// leased from a pool of its own, and emits each when full or on flush.
type output struct {
	types []types.Type
	out   runtime.Emitter
	// c is the chunk of lease l being filled, from pool.
	c    *types.Chunk
	l    *runtime.Lease
	pool *runtime.ChunkPool
	// last is the length of the previous chunk, the capacity of the next.
	last int
}

func newOutput(ts []types.Type) *output {
	return &output{types: ts, pool: runtime.NewChunkPool(runtime.PooledChunks)}
}

// to directs the following rows to out; callers flush before returning.
func (o *output) to(out runtime.Emitter) *output {
	o.out = out
	return o
}

// add appends one row; r is copied.
func (o *output) add(k types.RowKind, r types.Row) {
	for j, col := range o.next().Cols {
		col.Append(r[j])
	}
	o.added(k)
}

// next returns the chunk the next row goes into, for a caller that
// appends the row's values to its columns itself and then calls added.
func (o *output) next() *types.Chunk {
	if o.c == nil {
		o.l = o.pool.Get()
		o.c = o.l.Empty(o.types, max(o.last, 16))
	}
	return o.c
}

// added completes the row appended to the columns of the chunk next
// returned, of kind k.
func (o *output) added(k types.RowKind) {
	o.c.Ops = append(o.c.Ops, k)
	if o.c.Len() >= types.ChunkSize {
		o.flush()
	}
}

// flush emits the pending rows, if any, with their chunk's lease.
func (o *output) flush() {
	if o.c == nil {
		return
	}
	if n := o.c.Len(); n > 0 {
		o.last = n
		runtime.EmitLeased(o.out, o.l)
	} else {
		o.l.Release()
	}
	o.c, o.l = nil, nil
}

// releaseAfter releases the lease l of the chunk an operator processed,
// keeping nothing of it, with err the processing's outcome, and returns
// err. An operator embedding one that takes leases must take them itself
// (or else the embedded ProcessLeased bypasses its ProcessChunk).
func releaseAfter(err error, l *runtime.Lease) error {
	l.Release()
	return err
}

// keyTypes returns the types of columns cols of ts.
func keyTypes(ts []types.Type, cols []int) []types.Type {
	out := make([]types.Type, len(cols))
	for i, c := range cols {
		out[i] = ts[c]
	}
	return out
}

// checkCols reports a column index outside a row of width n.
func checkCols(what string, cols []int, n int) error {
	for _, c := range cols {
		if c < 0 || c >= n {
			return fmt.Errorf("%s: column %d out of range (row has %d columns)", what, c, n)
		}
	}
	return nil
}

// valueEqual reports whether two values are the same: both NULL, or equal
// in every physical field (NaN equals NaN, as Flink's binary equality has it).
func valueEqual(a, b types.Value) bool {
	if a.Null || b.Null {
		return a.Null == b.Null
	}
	return a.I == b.I && a.S == b.S && (a.F == b.F || a.F != a.F && b.F != b.F)
}

// rowHashSeed seeds rowHash within the process: the hashes are never
// stored.
var rowHashSeed = maphash.MakeSeed()

// rowHash hashes a row so that rows rowsEqual finds equal hash alike
// (-0 and 0 alike, every NaN alike).
func rowHash(r types.Row) uint64 {
	var h maphash.Hash
	h.SetSeed(rowHashSeed)
	var b [17]byte
	for _, v := range r {
		if v.Null {
			_ = h.WriteByte(0)
			continue
		}
		f := v.F
		switch {
		case f == 0:
			f = 0
		case f != f:
			f = math.NaN()
		}
		b[0] = 1
		binary.LittleEndian.PutUint64(b[1:], uint64(v.I))
		binary.LittleEndian.PutUint64(b[9:], math.Float64bits(f))
		_, _ = h.Write(b[:])
		_, _ = h.WriteString(v.S)
		_ = h.WriteByte(0xff)
	}
	return h.Sum64()
}

// rowsEqual reports whether two rows hold the same values.
func rowsEqual(a, b types.Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !valueEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// SortKey is one ORDER BY key.
type SortKey struct {
	// Col is the column to order by.
	Col int
	// Desc orders descending.
	Desc bool
	// NullsFirst puts NULLs before all values (whatever the direction);
	// otherwise after them.
	NullsFirst bool
}

// comparator orders rows by sort keys, as Flink's generated
// RecordComparator does: NULL placement is independent of the direction,
// strings compare by their UTF-8 bytes.
type comparator struct {
	keys []SortKey
	phys []types.Physical
}

func newComparator(keys []SortKey, ts []types.Type) comparator {
	phys := make([]types.Physical, len(keys))
	for i, k := range keys {
		phys[i] = ts[k.Col].Physical()
	}
	return comparator{keys: keys, phys: phys}
}

// compare returns -1, 0 or +1 as a sorts before, with or after b.
func (c comparator) compare(a, b types.Row) int {
	for i, k := range c.keys {
		x, y := a[k.Col], b[k.Col]
		if x.Null || y.Null {
			switch {
			case x.Null && y.Null:
				continue
			case x.Null == k.NullsFirst:
				return -1
			default:
				return 1
			}
		}
		var r int
		switch c.phys[i] {
		case types.PhysFloat:
			r = cmp.Compare(x.F, y.F)
		case types.PhysString:
			r = cmp.Compare(x.S, y.S)
		default:
			r = cmp.Compare(x.I, y.I)
		}
		if r != 0 {
			if k.Desc {
				return -r
			}
			return r
		}
	}
	return 0
}

// startTTL gives the retentions (nil ones aside) the instance's
// processing time; in an operator's unit test without one nothing
// expires.
func startTTL(ctx *runtime.Context, ttls ...*state.TTL) {
	if ctx == nil || ctx.ProcessingTime == nil {
		return
	}
	for _, t := range ttls {
		if t != nil {
			t.Start(ctx.ProcessingTime.Now)
		}
	}
}

// passThrough provides the runtime.Operator methods of an operator that
// needs nothing at open and finish and forwards watermarks unchanged;
// operators embed it and override what they need.
type passThrough struct{}

// Open implements runtime.Operator.
func (passThrough) Open(*runtime.Context) error { return nil }

// ProcessWatermark implements runtime.Operator.
func (passThrough) ProcessWatermark(wm int64, out runtime.Emitter) error {
	out.EmitWatermark(wm)
	return nil
}

// Finish implements runtime.Operator.
func (passThrough) Finish(runtime.Emitter) error { return nil }

// onWatermark provides the runtime.Operator methods of an operator that
// emits results when the watermark advances: it records the watermark,
// calls fire, then forwards the watermark; at the end of input everything
// left fires.
type onWatermark struct {
	// wm is the current watermark.
	wm   int64
	fire func(wm int64, out runtime.Emitter) error
}

func newOnWatermark(fire func(wm int64, out runtime.Emitter) error) onWatermark {
	return onWatermark{wm: runtime.MinWatermark, fire: fire}
}

// Open implements runtime.Operator.
func (o *onWatermark) Open(*runtime.Context) error { return nil }

// ProcessWatermark implements runtime.Operator.
func (o *onWatermark) ProcessWatermark(wm int64, out runtime.Emitter) error {
	o.wm = wm
	if err := o.fire(wm, out); err != nil {
		return err
	}
	out.EmitWatermark(wm)
	return nil
}

// Finish implements runtime.Operator.
func (o *onWatermark) Finish(out runtime.Emitter) error { return o.fire(runtime.MaxWatermark, out) }
