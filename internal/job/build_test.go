package job

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/types"
)

// salesChunk returns n rows of (title STRING, sales_ts STRING,
// total_ticket_value BIGINT, ts TIMESTAMP(3)), one second apart.
func salesChunk(n int) *types.Chunk {
	c := types.NewChunk([]types.Type{types.StringType, types.StringType, types.BigIntType, types.TimestampType(3)}, n)
	start := time.Date(2019, 7, 18, 10, 0, 0, 0, time.UTC)
	for i := range n {
		ts := start.Add(time.Duration(i) * time.Second)
		c.AppendRow(types.Insert, types.Row{types.StringValue("Die Hard"), types.StringValue(ts.Format(time.RFC3339)),
			types.IntValue(int64(i % 40)), types.IntValue(ts.UnixMicro())})
	}
	return c
}

// watermarkExpr is ts - INTERVAL '5' SECOND (held in milliseconds) over a
// salesChunk.
func watermarkExpr(tb testing.TB) expr.Expr {
	ts := &expr.Column{Index: 3, Name: "ts", T: types.TimestampType(3)}
	five := &expr.Literal{V: types.IntValue(5000), T: types.Type{Kind: types.IntervalDayTime, Precision: 3, NotNull: true}}
	return bind(tb, "-", ts, five)
}

// bind binds the scalar function name to args.
func bind(tb testing.TB, name string, args ...expr.Expr) *expr.Call {
	tb.Helper()
	f, _ := fn.LookupScalar(name)
	fa := make([]fn.Arg, len(args))
	for i, a := range args {
		fa[i] = fn.Arg{Type: a.Type()}
		if l, ok := a.(*expr.Literal); ok {
			fa[i].Const = &l.V
		}
	}
	t, _, err := f.Bind(fa)
	if err != nil {
		tb.Fatal(err)
	}
	return &expr.Call{Name: name, Args: args, T: t}
}

// TestChunkEvaluator: computed columns see the physical columns and the
// computed ones before them; several source instances share an evaluator.
func TestChunkEvaluator(t *testing.T) {
	src := salesChunk(100)
	one := &expr.Literal{V: types.IntValue(1), T: types.BigIntType.WithNotNull(true)}
	doubled := bind(t, "+", &expr.Column{Index: 2, T: types.BigIntType}, &expr.Column{Index: 2, T: types.BigIntType})
	plusOne := bind(t, "+", &expr.Column{Index: 4, T: doubled.T}, one)
	computed := []expr.Expr{4: doubled, 5: plusOne}
	ev, err := newChunkEvaluator(&fn.Context{}, computed)
	if err != nil {
		t.Fatal(err)
	}
	wm, err := newChunkEvaluator(&fn.Context{}, []expr.Expr{watermarkExpr(t)})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			c := &types.Chunk{Ops: src.Ops, Cols: append(slices.Clone(src.Cols),
				types.NewVector(doubled.T, 0), types.NewVector(plusOne.T, 0))}
			if err := ev.fill(c, []int{4, 5}); err != nil {
				t.Error(err)
				return
			}
			w := &types.Vector{}
			if err := wm.column(c, types.TimestampType(3), w); err != nil {
				t.Error(err)
				return
			}
			for i := range c.Len() {
				v, ts := c.Cols[2].I64[i], c.Cols[3].I64[i]
				if c.Cols[4].I64[i] != 2*v || c.Cols[5].I64[i] != 2*v+1 || w.I64[i] != ts-(5*time.Second).Microseconds() {
					t.Errorf("row %d: %v, watermark %d", i, c.Row(i), w.I64[i])
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestWatermarkShift: a time column plus or minus an interval literal is
// computed column-wise, giving what row by row evaluation gives: NULL for
// NULL, and the row by row error where a time leaves the range.
func TestWatermarkShift(t *testing.T) {
	ts := &expr.Column{Index: 3, Name: "ts", T: types.TimestampType(3)}
	iv := func(ms int64) *expr.Literal {
		return &expr.Literal{V: types.IntValue(ms), T: types.Type{Kind: types.IntervalDayTime, Precision: 3, NotNull: true}}
	}
	c := salesChunk(4)
	c.Cols[3].Nulls[1] = true
	_, last := types.TimestampBounds()
	c.Cols[3].I64[2] = last - 1000 // 9999-12-31 23:59:59.998999
	for _, tc := range []struct {
		e       *expr.Call
		wantErr bool
	}{
		{bind(t, "-", ts, iv(5000)), false},
		{bind(t, "+", ts, iv(-2)), false},
		{bind(t, "+", ts, iv(5000)), true},
	} {
		fast, err := newChunkEvaluator(&fn.Context{}, []expr.Expr{tc.e})
		if err != nil {
			t.Fatal(err)
		}
		if fast.shift == nil {
			t.Fatalf("%s %d: not computed column-wise", tc.e.Name, tc.e.Args[1].(*expr.Literal).V.I)
		}
		slow, _ := newChunkEvaluator(&fn.Context{}, []expr.Expr{tc.e})
		slow.shift = nil
		// The vectors are reused ones, holding a row of a chunk before.
		got, want := types.NewVector(tc.e.T, 1), types.NewVector(tc.e.T, 1)
		got.AppendInt(7)
		want.AppendInt(7)
		err1 := fast.column(c, tc.e.T, got)
		err2 := slow.column(c, tc.e.T, want)
		if tc.wantErr {
			if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
				t.Errorf("errors %v and %v, want the same error", err1, err2)
			}
			continue
		}
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if got.Len() != c.Len() || want.Len() != c.Len() {
			t.Fatalf("%d and %d candidates for %d rows", got.Len(), want.Len(), c.Len())
		}
		for i := range c.Len() {
			if got.Get(i) != want.Get(i) {
				t.Errorf("%s row %d: %v, want %v", tc.e.Name, i, got.Get(i), want.Get(i))
			}
		}
	}
}

func BenchmarkWatermarkColumn(b *testing.B) {
	c := salesChunk(types.ChunkSize)
	e := watermarkExpr(b)
	ev, err := newChunkEvaluator(&fn.Context{}, []expr.Expr{e})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	wms := &types.Vector{}
	for b.Loop() {
		if err := ev.column(c, e.Type(), wms); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*c.Len())/b.Elapsed().Seconds(), "rows/s")
}
