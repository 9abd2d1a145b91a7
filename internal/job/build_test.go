package job

import (
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
			types.IntValue(int64(i % 40)), types.IntValue(ts.UnixNano())})
	}
	return c
}

// watermarkExpr is ts - INTERVAL '5' SECOND over a salesChunk.
func watermarkExpr(tb testing.TB) expr.Expr {
	tb.Helper()
	ts := &expr.Column{Index: 3, Name: "ts", T: types.TimestampType(3)}
	iv := types.Type{Kind: types.IntervalDayTime, Precision: 3, NotNull: true}
	five := &expr.Literal{V: types.IntValue(int64(5 * time.Second)), T: iv}
	minus, _ := fn.LookupScalar("-")
	t, ev, err := minus.Bind([]fn.Arg{{Type: ts.T}, {Type: iv, Const: &five.V}})
	if err != nil {
		tb.Fatal(err)
	}
	return &expr.Call{Name: "-", Args: []expr.Expr{ts, five}, T: t, Eval: ev}
}

func BenchmarkWatermarkColumn(b *testing.B) {
	c := salesChunk(types.ChunkSize)
	e := watermarkExpr(b)
	ctx := &expr.Context{Fn: &fn.Context{}}
	ev := expr.Compile(e)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := evalColumn(ctx, c, ev, e.Type()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*c.Len())/b.Elapsed().Seconds(), "rows/s")
}
