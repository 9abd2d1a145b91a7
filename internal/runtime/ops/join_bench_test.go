//go:build unix

package ops

import (
	"fmt"
	"testing"

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

// BenchmarkTemporalJoinKeys keeps a version of every key on the right of
// an event-time temporal join while left rows arrive; a watermark after
// every chunk of 1024 rows makes that chunk's left rows due. Its cost per
// row must not grow with the number of keys.
func BenchmarkTemporalJoinKeys(b *testing.B) {
	for _, keys := range benchKeyCounts {
		b.Run(fmt.Sprintf("keys=%d", keys), func(b *testing.B) {
			cs := benchChunks(256, keys)
			in := cs[0].Types()
			j, err := NewTemporalJoin(TemporalJoinConfig{
				JoinSpec: JoinSpec{Kind: LeftJoin, LeftTypes: in, RightTypes: in, LeftKeys: []int{0}, RightKeys: []int{0}},
				LeftTime: 2, RightTime: 2,
			}, state.NewMemory())
			if err != nil {
				b.Fatal(err)
			}
			benchTimed(b, j, cs, 2)
		})
	}
}
