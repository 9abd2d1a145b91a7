package ops

import (
	"fmt"
	goruntime "runtime"
	"runtime/metrics"
	"slices"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// discard is an Emitter that drops its input.
type discard struct{}

func (discard) Emit(*types.Chunk)   {}
func (discard) EmitWatermark(int64) {}

// EmitLease drops c and hands its storage back at once, as a sink that
// takes leases does.
func (discard) EmitLease(_ *types.Chunk, l *runtime.Lease) { l.Release() }

// benchChunks returns n chunks of (key STRING, v BIGINT, ts TIMESTAMP(3))
// rows with keys keys distinct keys and times rising 1ms per row.
func benchChunks(n, keys int) []*types.Chunk {
	in := []types.Type{types.StringType, types.BigIntType, types.TimestampType(3)}
	names := make([]string, keys)
	for i := range names {
		names[i] = fmt.Sprintf("key-%d", i)
	}
	cs := make([]*types.Chunk, n)
	row := 0
	for i := range cs {
		c := types.NewChunk(in, types.ChunkSize)
		for range types.ChunkSize {
			c.AppendRow(types.Insert, types.Row{
				types.StringValue(names[(row*7919)%keys]), types.IntValue(int64(row % 100)), types.IntValue(int64(row) * us(time.Millisecond)),
			})
			row++
		}
		cs[i] = c
	}
	return cs
}

func reportRows(b *testing.B, rows int) {
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// benchChunksThrough hands process the chunks cs, round and round, one
// per iteration, and reports rows per second and allocations.
func benchChunksThrough(b *testing.B, process func(*types.Chunk) error, cs []*types.Chunk) {
	rows := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if err := process(cs[i%len(cs)]); err != nil {
			b.Fatal(err)
		}
		rows += types.ChunkSize
	}
	reportRows(b, rows)
}

// toDiscard returns a function handing op a chunk, its output dropped.
func toDiscard(op runtime.Operator) func(*types.Chunk) error {
	return func(c *types.Chunk) error { return op.ProcessChunk(0, c, discard{}) }
}

func BenchmarkGroupAggregate(b *testing.B) {
	cs := benchChunks(64, 10_000)
	in := cs[0].Types()
	g, err := NewGroupAggregate(countSumConfig(b, in), state.NewMemory())
	if err != nil {
		b.Fatal(err)
	}
	benchChunksThrough(b, toDiscard(g), cs)
}

// BenchmarkGroupAggregateMiniBatch is BenchmarkGroupAggregate with
// mini-batches of 5,000 rows (table.exec.mini-batch.size, as Flink's
// Nexmark runs), in one phase and in two: a local phase feeding a
// global one.
func BenchmarkGroupAggregateMiniBatch(b *testing.B) {
	cs := benchChunks(64, 10_000)
	in := cs[0].Types()
	cfg := countSumConfig(b, in)
	mb := MiniBatchConfig{Size: 5000}
	b.Run("one-phase", func(b *testing.B) {
		g, err := NewMiniBatchGroupAggregate(cfg, mb, state.NewMemory())
		if err != nil {
			b.Fatal(err)
		}
		benchChunksThrough(b, toDiscard(g), cs)
	})
	b.Run("two-phase", func(b *testing.B) {
		l, err := NewLocalGroupAggregate(cfg, mb)
		if err != nil {
			b.Fatal(err)
		}
		g, err := NewGlobalGroupAggregate(cfg, mb, state.NewMemory())
		if err != nil {
			b.Fatal(err)
		}
		toGlobal := &emitTo{emit: func(c *types.Chunk) {
			if err := g.ProcessChunk(0, c, discard{}); err != nil {
				b.Fatal(err)
			}
		}}
		benchChunksThrough(b, func(c *types.Chunk) error { return l.ProcessChunk(0, c, toGlobal) }, cs)
	})
}

// BenchmarkGroupAggregateFilters is the aggregation of Nexmark's q17:
// GROUP BY a BIGINT and a STRING, COUNT(*) four times (three with a
// FILTER), MIN, MAX, AVG and SUM of a BIGINT over an input without
// retractions, with 10,000 groups.
func BenchmarkGroupAggregateFilters(b *testing.B) {
	in := []types.Type{types.BigIntType, types.StringType, types.BigIntType, types.BooleanType, types.BooleanType, types.BooleanType}
	cs := make([]*types.Chunk, 64)
	row := 0
	for i := range cs {
		c := types.NewChunk(in, types.ChunkSize)
		for range types.ChunkSize {
			price := int64(row*7919) % 2_000_000
			c.AppendRow(types.Insert, types.Row{types.IntValue(int64(row*31) % 5000), types.StringValue([]string{"2015-07-15", "2015-07-16"}[row%2]),
				types.IntValue(price), types.BoolValue(price < 10000), types.BoolValue(price >= 10000 && price < 1000000), types.BoolValue(price >= 1000000)})
			row++
		}
		cs[i] = c
	}
	filtered := func(s AggSpec, col int) AggSpec { s.Filter = col; return s }
	g, err := NewGroupAggregate(GroupAggregateConfig{
		InputTypes: in, Keys: []int{0, 1},
		Aggs: []AggSpec{aggCall(b, "COUNT", in), filtered(aggCall(b, "COUNT", in), 3), filtered(aggCall(b, "COUNT", in), 4), filtered(aggCall(b, "COUNT", in), 5),
			appendOnlyCall(b, "MIN", in, 2), appendOnlyCall(b, "MAX", in, 2), aggCall(b, "AVG", in, 2), aggCall(b, "SUM", in, 2)},
		GenerateUpdateBefore: true,
	}, state.NewMemory())
	if err != nil {
		b.Fatal(err)
	}
	benchChunksThrough(b, toDiscard(g), cs)
}

// BenchmarkGroupAggregateManyKeys is COUNT(*), SUM(v) GROUP BY a BIGINT
// key over 1,000,000 keys, each already holding state (as after the
// first million rows): per chunk of updates, with the live heap the
// state takes per key and the share of the CPU time spent in garbage
// collection while updating (run it long enough for a few collections:
// -benchtime 20000x).
func BenchmarkGroupAggregateManyKeys(b *testing.B) {
	const keys = 1_000_000
	in := []types.Type{types.BigIntType, types.BigIntType}
	cs := make([]*types.Chunk, 64)
	row := 0
	for i := range cs {
		c := types.NewChunk(in, types.ChunkSize)
		for range types.ChunkSize {
			c.AppendRow(types.Insert, types.Row{types.IntValue(int64(row*7919) % keys), types.IntValue(int64(row % 100))})
			row++
		}
		cs[i] = c
	}
	fill := types.NewChunk(in, types.ChunkSize)
	heapBefore := liveHeap()
	g, err := NewGroupAggregate(countSumConfig(b, in), state.NewMemory())
	if err != nil {
		b.Fatal(err)
	}
	for k := range int64(keys) {
		fill.AppendRow(types.Insert, types.Row{types.IntValue(k), types.IntValue(k)})
		if fill.Len() == types.ChunkSize || k == keys-1 {
			if err := g.ProcessChunk(0, fill, discard{}); err != nil {
				b.Fatal(err)
			}
			fill = types.NewChunk(in, types.ChunkSize)
		}
	}
	heap := liveHeap() - heapBefore
	gc0, cpu0 := gcCPU()
	rows := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if err := g.ProcessChunk(0, cs[i%len(cs)], discard{}); err != nil {
			b.Fatal(err)
		}
		rows += types.ChunkSize
	}
	b.StopTimer()
	// The runtime counts CPU time by class at the end of each collection:
	// a run too short for one has no figure.
	if gc1, cpu1 := gcCPU(); cpu1 > cpu0 {
		b.ReportMetric((gc1-gc0)/(cpu1-cpu0), "gc-cpu-fraction")
	}
	b.ReportMetric(float64(heap)/keys, "heap-B/key")
	reportRows(b, rows)
	if g.State().Len() != keys {
		b.Fatalf("%d keys, want %d", g.State().Len(), keys)
	}
}

// liveHeap returns the bytes of live heap objects after a collection.
func liveHeap() int64 {
	goruntime.GC()
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// gcCPU returns the CPU seconds spent in garbage collection and in all
// (user and runtime, not idle), as the runtime estimates them.
func gcCPU() (gc, busy float64) {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/cpu/classes/total:cpu-seconds"}, {Name: "/cpu/classes/idle:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64(), s[1].Value.Float64() - s[2].Value.Float64()
}

func BenchmarkWindowAggregate(b *testing.B) {
	for _, w := range []Window{
		{Kind: Tumble, Size: us(time.Minute)},
		{Kind: Hop, Size: us(time.Minute), Slide: us(10 * time.Second)},
	} {
		name := map[WindowKind]string{Tumble: "tumble", Hop: "hop6"}[w.Kind]
		b.Run(name, func(b *testing.B) {
			cs := benchChunks(64, 1_000)
			in := cs[0].Types()
			w.TimeCol = 2
			a, err := NewWindowAggregate(WindowAggregateConfig{
				InputTypes: in, Window: w, Keys: []int{0},
				Aggs: []AggSpec{aggCall(b, "COUNT", in), aggCall(b, "SUM", in, 1)},
			}, state.NewMemory())
			if err != nil {
				b.Fatal(err)
			}
			rows := 0
			shift := int64(0) // keeps time rising across rounds of the chunks
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				c := cs[i%len(cs)]
				if i > 0 && i%len(cs) == 0 {
					shift += int64(len(cs)*types.ChunkSize) * us(time.Millisecond)
				}
				if shift != 0 {
					c = shifted(c, shift)
				}
				if err := a.ProcessChunk(0, c, discard{}); err != nil {
					b.Fatal(err)
				}
				last := c.Cols[2].I64[c.Len()-1]
				if err := a.ProcessWatermark(last, discard{}); err != nil {
					b.Fatal(err)
				}
				rows += types.ChunkSize
			}
			reportRows(b, rows)
		})
	}
}

// shifted returns c with its time column moved by d (the other columns
// are shared).
func shifted(c *types.Chunk, d int64) *types.Chunk {
	out := &types.Chunk{Ops: c.Ops, Cols: append([]*types.Vector(nil), c.Cols...)}
	tc := *c.Cols[2]
	tc.I64 = make([]int64, len(tc.I64))
	for i, t := range c.Cols[2].I64 {
		tc.I64[i] = t + d
	}
	out.Cols[2] = &tc
	return out
}

// BenchmarkSemiJoin feeds an IN semi join with no retention, alternating
// chunks of right and left rows over 1000 keys: the cost of a record on
// the path that keeps a count of right rows per key.
func BenchmarkSemiJoin(b *testing.B) {
	cs := benchChunks(64, 1000)
	in := cs[0].Types()
	j, err := NewSemiJoin(SemiJoinConfig{LeftTypes: in, RightTypes: in, LeftKeys: []int{0}, RightKeys: []int{0}}, state.NewMemory())
	if err != nil {
		b.Fatal(err)
	}
	input := 0
	benchChunksThrough(b, func(c *types.Chunk) error {
		input = 1 - input
		return j.ProcessChunk(input, c, discard{})
	}, cs)
}

// BenchmarkGroupAggregateDistinct is the aggregation of Nexmark's q15:
// GROUP BY a STRING (two days), COUNT(*) four times and COUNT(DISTINCT)
// of two BIGINT columns four times each (three with a FILTER), over an
// input without retractions whose columns have 50,000 and 5,000 values;
// flat (the DISTINCT calls sharing a set per column) and boxed (an
// accumulator per call, a Go map each), with the live heap the groups
// take per distinct value of a group.
func BenchmarkGroupAggregateDistinct(b *testing.B) {
	in := []types.Type{types.StringType, types.BigIntType, types.BigIntType, types.BooleanType, types.BooleanType, types.BooleanType}
	cs := make([]*types.Chunk, 64)
	row := 0
	for i := range cs {
		c := types.NewChunk(in, types.ChunkSize)
		for range types.ChunkSize {
			price := int64(row*7919) % 2_000_000
			c.AppendRow(types.Insert, types.Row{types.StringValue([]string{"2015-07-15", "2015-07-16"}[row/40000%2]),
				types.IntValue(int64(row*104729) % 50000), types.IntValue(int64(row*31) % 5000),
				types.BoolValue(price < 10000), types.BoolValue(price >= 10000 && price < 1000000), types.BoolValue(price >= 1000000)})
			row++
		}
		cs[i] = c
	}
	filtered := func(s AggSpec, col int) AggSpec { s.Filter = col; return s }
	distinct := func(arg, filter int) AggSpec {
		a, _ := fn.LookupAggregate("COUNT")
		typ, newAcc, err := a.Bind([]fn.Arg{{Type: in[arg]}}, true)
		if err != nil {
			b.Fatal(err)
		}
		return AggSpec{New: newAcc, Args: []int{arg}, Filter: filter, Type: typ}
	}
	aggs := []AggSpec{aggCall(b, "COUNT", in), filtered(aggCall(b, "COUNT", in), 3), filtered(aggCall(b, "COUNT", in), 4), filtered(aggCall(b, "COUNT", in), 5)}
	for _, arg := range []int{1, 2} {
		aggs = append(aggs, distinct(arg, -1), distinct(arg, 3), distinct(arg, 4), distinct(arg, 5))
	}
	for _, flat := range []bool{true, false} {
		b.Run(map[bool]string{true: "flat", false: "boxed"}[flat], func(b *testing.B) {
			calls := slices.Clone(aggs)
			if !flat {
				for i := range calls {
					calls[i] = boxed(calls[i])
				}
			}
			g, err := NewGroupAggregate(GroupAggregateConfig{InputTypes: in, Keys: []int{0}, Aggs: calls, GenerateUpdateBefore: true}, state.NewMemory())
			if err != nil {
				b.Fatal(err)
			}
			if (g.groups.flat != nil) != flat {
				b.Fatalf("flat form %v, want %v", g.groups.flat != nil, flat)
			}
			values := map[[3]int64]bool{} // (day, column, value)
			for _, c := range cs {
				for i := range c.Len() {
					day := int64(c.Cols[0].Str[i][9]) // the day's last digit
					values[[3]int64{day, 1, c.Cols[1].I64[i]}] = true
					values[[3]int64{day, 2, c.Cols[2].I64[i]}] = true
				}
			}
			heapBefore := liveHeap()
			for _, c := range cs {
				if err := g.ProcessChunk(0, c, discard{}); err != nil {
					b.Fatal(err)
				}
			}
			heap := liveHeap() - heapBefore
			benchChunksThrough(b, toDiscard(g), cs)
			b.ReportMetric(float64(heap)/float64(len(values)), "heap-B/value")
		})
	}
}
