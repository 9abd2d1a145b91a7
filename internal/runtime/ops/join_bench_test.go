//go:build unix

package ops

import (
	"fmt"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// BenchmarkJoinRowsPerKey keeps n distinct rows under one join key on the
// left side of a regular join (as Nexmark q5 keeps a window's auctions
// under the window) and replaces them: each chunk adds 512 rows and
// retracts the 512 oldest. Its cost per row must not grow with n.
func BenchmarkJoinRowsPerKey(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			in := []types.Type{types.StringType, types.BigIntType}
			j, err := NewJoin(JoinSpec{Kind: InnerJoin, LeftTypes: in, RightTypes: in, LeftKeys: []int{0}, RightKeys: []int{0}}, state.NewMemory())
			if err != nil {
				b.Fatal(err)
			}
			const half = types.ChunkSize / 2
			c := types.NewChunk(in, types.ChunkSize)
			for range half {
				c.AppendRow(types.Insert, types.Row{types.StringValue("k"), types.IntValue(0)})
				c.AppendRow(types.Delete, types.Row{types.StringValue("k"), types.IntValue(0)})
			}
			next := 0 // the next row's value; rows next-n to next-1 are kept
			step := func() {
				for i := range half {
					c.Cols[1].I64[2*i] = int64(next)
					c.Cols[1].I64[2*i+1] = int64(next - n)
					next++
				}
				if err := j.ProcessChunk(0, c, discard{}); err != nil {
					b.Fatal(err)
				}
			}
			for next < n {
				step()
			}
			measureRows(b, step)
		})
	}
}

// newBenchTemporalJoin is the benchmarks' event-time temporal LEFT JOIN
// of two inputs of types in, on column 0, with times in column 2.
func newBenchTemporalJoin(b *testing.B, in []types.Type) *TemporalJoin {
	b.Helper()
	j, err := NewTemporalJoin(TemporalJoinConfig{
		JoinSpec: JoinSpec{Kind: LeftJoin, LeftTypes: in, RightTypes: in, LeftKeys: []int{0}, RightKeys: []int{0}},
		LeftTime: 2, RightTime: 2,
	}, state.NewMemory())
	if err != nil {
		b.Fatal(err)
	}
	return j
}

// BenchmarkTemporalJoinKeys keeps a version of every key on the right of
// an event-time temporal join while left rows arrive; a watermark after
// every chunk of 1024 rows makes that chunk's left rows due. Its cost per
// row must not grow with the number of keys.
func BenchmarkTemporalJoinKeys(b *testing.B) {
	for _, keys := range benchKeyCounts {
		b.Run(fmt.Sprintf("keys=%d", keys), func(b *testing.B) {
			cs := benchChunks(256, keys)
			in := cs[0].Types()
			j := newBenchTemporalJoin(b, in)
			benchTimed(b, j, cs, 2)
		})
	}
}

// BenchmarkTemporalJoinAllDue keeps a version of every key on the right
// of an event-time temporal join, then sends a left row for every key,
// each of a time of its own, and one watermark past them all: every key
// is due at once. It reports the CPU time and allocations per left row.
func BenchmarkTemporalJoinAllDue(b *testing.B) {
	for _, keys := range benchKeyCounts {
		b.Run(fmt.Sprintf("keys=%d", keys), func(b *testing.B) {
			cs := benchChunks((keys+types.ChunkSize-1)/types.ChunkSize, keys)
			in := cs[0].Types()
			j := newBenchTemporalJoin(b, in)
			for _, c := range cs {
				if err := j.ProcessChunk(1, c, discard{}); err != nil {
					b.Fatal(err)
				}
			}
			span := int64(len(cs)*types.ChunkSize) * int64(time.Millisecond)
			shift := int64(0)
			var before, after goruntime.MemStats
			goruntime.ReadMemStats(&before)
			cpu0 := cpuTime(b)
			rows := 0
			for b.Loop() {
				shift += span
				for _, c := range cs {
					if err := j.ProcessChunk(0, shifted(c, shift), discard{}); err != nil {
						b.Fatal(err)
					}
				}
				if err := j.ProcessWatermark(shift+span, discard{}); err != nil {
					b.Fatal(err)
				}
				rows += len(cs) * types.ChunkSize
			}
			b.StopTimer()
			goruntime.ReadMemStats(&after)
			b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(rows), "cpu-ns/row")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(rows), "allocs/row")
		})
	}
}
