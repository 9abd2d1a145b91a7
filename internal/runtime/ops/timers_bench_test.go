//go:build unix

package ops

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	sruntime "github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// The benchmarks below keep state of many keys while few timers are due
// at each watermark: a watermark follows every chunk of 1024 rows, so
// about a chunk's worth of keys is due each time, whatever the number of
// keys held. Their cost per row must not grow with the number of keys.

// benchTimed runs op over rounds of cs (time rising across rounds), a
// watermark at the last row's time after each chunk, input i%inputs for
// chunk i; it runs one round before timing, so the state is full. It
// reports rows/s, ns/row, the process's CPU time per row (cpu-ns/row,
// garbage collection included: steadier than the elapsed time on a
// shared machine) and allocs/row.
func benchTimed(b *testing.B, op sruntime.Operator, cs []*types.Chunk, inputs int) {
	b.Helper()
	shift := int64(0)
	i := 0
	step := func() {
		c := cs[i%len(cs)]
		if i > 0 && i%len(cs) == 0 {
			shift += int64(len(cs)*types.ChunkSize) * us(time.Millisecond)
		}
		if shift != 0 {
			c = shifted(c, shift)
		}
		if err := op.ProcessChunk(i%inputs, c, discard{}); err != nil {
			b.Fatal(err)
		}
		if err := op.ProcessWatermark(c.Cols[2].I64[c.Len()-1], discard{}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	for range cs {
		step()
	}
	b.Logf("%d state entries", op.(Stateful).State().Len())
	rows := measureRows(b, step)
	reportRows(b, rows)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rows), "ns/row")
}

// measureRows runs step, a chunk of rows each, for the benchmark's
// iterations and reports the CPU time and allocations per row; it
// returns the rows processed.
func measureRows(b *testing.B, step func()) int {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime(b)
	rows := 0
	b.ResetTimer()
	for b.Loop() {
		step()
		rows += types.ChunkSize
	}
	b.StopTimer()
	cpu := cpuTime(b) - cpu0
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(rows), "cpu-ns/row")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(rows), "allocs/row")
	return rows
}

// cpuTime returns the CPU time the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchKeyCounts are the numbers of distinct keys of the benchmarks.
var benchKeyCounts = []int{1_000, 100_000}

func BenchmarkIntervalJoinKeys(b *testing.B) {
	for _, keys := range benchKeyCounts {
		b.Run(fmt.Sprintf("keys=%d", keys), func(b *testing.B) {
			cs := benchChunks(256, keys)
			in := cs[0].Types()
			// A key comes back every `keys` ms: rows stay cached for
			// two of its rows, so the state holds every key.
			j, err := NewIntervalJoin(IntervalJoinConfig{
				JoinSpec: JoinSpec{Kind: InnerJoin, LeftTypes: in, RightTypes: in, LeftKeys: []int{0}, RightKeys: []int{0}},
				LeftTime: 2, RightTime: 2,
				LowerBound: -int64(keys) * 2 * us(time.Millisecond), UpperBound: int64(keys) * 2 * us(time.Millisecond),
			}, state.NewMemory())
			if err != nil {
				b.Fatal(err)
			}
			benchTimed(b, j, cs, 2)
		})
	}
}

func BenchmarkTumbleWindowKeys(b *testing.B) {
	for _, keys := range benchKeyCounts {
		b.Run(fmt.Sprintf("keys=%d", keys), func(b *testing.B) {
			cs := benchChunks(256, keys)
			in := cs[0].Types()
			// Windows of twice the time between a key's rows: every
			// window holds every key.
			a, err := NewWindowAggregate(WindowAggregateConfig{
				InputTypes: in, Keys: []int{0},
				Window: Window{Kind: Tumble, TimeCol: 2, Size: int64(keys) * 2 * us(time.Millisecond)},
				Aggs:   []AggSpec{aggCall(b, "COUNT", in), aggCall(b, "SUM", in, 1)},
			}, state.NewMemory())
			if err != nil {
				b.Fatal(err)
			}
			benchTimed(b, a, cs, 1)
		})
	}
}

func BenchmarkSessionWindowKeys(b *testing.B) {
	for _, keys := range benchKeyCounts {
		b.Run(fmt.Sprintf("keys=%d", keys), func(b *testing.B) {
			cs := benchChunks(256, keys)
			in := cs[0].Types()
			// A gap of half the time between a key's rows: every row
			// opens a session, and half the keys have one open.
			a, err := NewWindowAggregate(WindowAggregateConfig{
				InputTypes: in, Keys: []int{0},
				Window: Window{Kind: Session, TimeCol: 2, Gap: int64(keys/2) * us(time.Millisecond)},
				Aggs:   []AggSpec{aggCall(b, "COUNT", in), aggCall(b, "SUM", in, 1)},
			}, state.NewMemory())
			if err != nil {
				b.Fatal(err)
			}
			benchTimed(b, a, cs, 1)
		})
	}
}

func BenchmarkOverAggregateKeys(b *testing.B) {
	for _, keys := range benchKeyCounts {
		b.Run(fmt.Sprintf("keys=%d", keys), func(b *testing.B) {
			cs := benchChunks(256, keys)
			in := cs[0].Types()
			o, err := NewOverAggregate(OverAggregateConfig{
				InputTypes: in, PartitionKeys: []int{0}, TimeCol: 2, Rows: true, Preceding: -1,
				Aggs: []AggSpec{aggCall(b, "COUNT", in), aggCall(b, "SUM", in, 1)},
			}, state.NewMemory())
			if err != nil {
				b.Fatal(err)
			}
			benchTimed(b, o, cs, 1)
		})
	}
}

// BenchmarkMatchKeys runs MATCH_RECOGNIZE (PATTERN (A+ B), see newMatch)
// partitioned by key, a key's v counting its rows (so a match ends at
// every third): nearly every partition keeps an open partial match, and
// a watermark after every chunk makes that chunk's rows due. Its cost
// per row must not grow with the number of partitions, with WITHIN
// (a partial match times out two rows of its key after it began) or
// without.
func BenchmarkMatchKeys(b *testing.B) {
	for _, keys := range benchKeyCounts {
		for _, within := range []bool{false, true} {
			b.Run(fmt.Sprintf("keys=%d/within=%t", keys, within), func(b *testing.B) {
				cs := benchChunks(256, keys)
				for i, c := range cs {
					for j := range c.Len() {
						c.Cols[1].I64[j] = int64((i*types.ChunkSize + j) / keys)
					}
				}
				w := int64(0)
				if within {
					w = int64(keys) * 2 * int64(time.Millisecond)
				}
				benchTimed(b, newMatch(b, SkipPastLastRow, -1, w), cs, 1)
			})
		}
	}
}
