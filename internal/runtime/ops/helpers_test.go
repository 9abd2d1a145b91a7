package ops

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// recorder is an Emitter that renders what it receives as lines such as
// "+I[a, 1]" and "WM 5". It takes leases (runtime.LeaseEmitter) and
// releases them once a chunk is rendered, so that operators that lease
// their output chunks fill them again.
type recorder struct {
	lines  []string
	chunks int
}

func (r *recorder) Emit(c *types.Chunk) {
	r.chunks++
	if c.Len() > types.ChunkSize {
		panic(fmt.Sprintf("chunk of %d rows", c.Len()))
	}
	ts := c.Types()
	for i := range c.Len() {
		vals := make([]string, len(ts))
		for j, t := range ts {
			v := c.Cols[j].Get(i)
			if v.Null {
				vals[j] = "NULL"
			} else {
				vals[j] = types.FormatValue(t, v, time.UTC)
			}
		}
		r.lines = append(r.lines, c.Ops[i].String()+"["+strings.Join(vals, ", ")+"]")
	}
}

func (r *recorder) EmitLease(c *types.Chunk, l *runtime.Lease) {
	r.Emit(c)
	l.Release()
}

func (r *recorder) EmitWatermark(wm int64) { r.lines = append(r.lines, fmt.Sprintf("WM %d", wm)) }

// take returns the lines recorded so far and forgets them.
func (r *recorder) take() []string {
	l := r.lines
	r.lines = nil
	return l
}

// value converts a Go literal to a Value: nil is NULL; int, int64, float64,
// string and bool map to the obvious physical fields.
func value(x any) types.Value {
	switch x := x.(type) {
	case nil:
		return types.NullValue
	case int:
		return types.IntValue(int64(x))
	case int64:
		return types.IntValue(x)
	case float64:
		return types.FloatValue(x)
	case string:
		return types.StringValue(x)
	case bool:
		return types.BoolValue(x)
	case types.Value:
		return x
	}
	panic(fmt.Sprintf("value: unsupported %T", x))
}

// rec is one input row: a kind and its values.
type rec struct {
	kind types.RowKind
	vals []any
}

func ins(vals ...any) rec { return rec{types.Insert, vals} }
func ub(vals ...any) rec  { return rec{types.UpdateBefore, vals} }
func ua(vals ...any) rec  { return rec{types.UpdateAfter, vals} }
func del(vals ...any) rec { return rec{types.Delete, vals} }

// chunk builds a chunk of types ts.
func chunk(ts []types.Type, recs ...rec) *types.Chunk {
	c := types.NewChunk(ts, len(recs))
	for _, r := range recs {
		row := make(types.Row, len(r.vals))
		for i, x := range r.vals {
			row[i] = value(x)
		}
		c.AppendRow(r.kind, row)
	}
	return c
}

// ts returns microseconds (a TIMESTAMP(3) value) for a "2006-01-02
// 15:04:05" UTC time.
func ts(s string) int64 {
	t, err := time.Parse(time.DateTime, s)
	if err != nil {
		panic(err)
	}
	return t.UnixMicro()
}

// ms returns n milliseconds in microseconds, the unit of event time.
func ms(n int64) int64 { return n * 1e3 }

// us returns d in microseconds, the unit of event time.
func us(d time.Duration) int64 { return d.Microseconds() }

// aggCall binds a built-in aggregate over argument columns of ts.
func aggCall(t testing.TB, name string, in []types.Type, args ...int) AggSpec {
	t.Helper()
	a, ok := fn.LookupAggregate(name)
	if !ok {
		t.Fatalf("no aggregate %s", name)
	}
	fa := make([]fn.Arg, len(args))
	for i, c := range args {
		fa[i] = fn.Arg{Type: in[c]}
	}
	typ, newAcc, err := a.Bind(fa, false)
	if err != nil {
		t.Fatal(err)
	}
	return AggSpec{New: newAcc, Args: args, Filter: -1, Type: typ}
}

// feed sends chunks to input 0 of op and returns the output lines.
func feed(t *testing.T, op runtime.Operator, r *recorder, cs ...*types.Chunk) []string {
	t.Helper()
	for _, c := range cs {
		if err := op.ProcessChunk(0, c, r); err != nil {
			t.Fatal(err)
		}
	}
	return r.take()
}

// watermark sends a watermark to op and returns the output lines.
func watermark(t *testing.T, op runtime.Operator, r *recorder, wm int64) []string {
	t.Helper()
	if err := op.ProcessWatermark(wm, r); err != nil {
		t.Fatal(err)
	}
	return r.take()
}

// finish ends op's input as the runtime does (maximum watermark, then
// Finish) and returns the output lines.
func finish(t *testing.T, op runtime.Operator, r *recorder) []string {
	t.Helper()
	if err := op.ProcessWatermark(runtime.MaxWatermark, r); err != nil {
		t.Fatal(err)
	}
	if err := op.Finish(r); err != nil {
		t.Fatal(err)
	}
	return r.take()
}

func expect(t *testing.T, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// expectSet compares ignoring order.
func expectSet(t *testing.T, got []string, want ...string) {
	t.Helper()
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	expect(t, g, w...)
}

// moveState snapshots from's state and restores it into to.
func moveState(t *testing.T, from, to Stateful) {
	t.Helper()
	snap, err := from.State().Snapshot(runtime.DefaultMaxParallelism, state.AllKeyGroups)
	if err != nil {
		t.Fatal(err)
	}
	if err := to.State().Restore([][]byte{snap}, state.AllKeyGroups, nil); err != nil {
		t.Fatal(err)
	}
}
