package runtime

import (
	"context"
	"fmt"
	"hash/maphash"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// exchangeChunk returns n rows of (key STRING, v BIGINT, d DOUBLE) over
// keys distinct keys, with a NULL key every 97th row and mixed row kinds.
func exchangeChunk(n, keys int) *types.Chunk {
	c := types.NewChunk([]types.Type{types.StringType, types.BigIntType, types.DoubleType}, n)
	for i := range n {
		k := types.StringValue(fmt.Sprintf("key-%d", i%keys))
		if i%97 == 0 {
			k = types.NullValue
		}
		c.AppendRow(types.RowKind(i%4), types.Row{k, types.IntValue(int64(i)), types.FloatValue(float64(i) / 2)})
	}
	return c
}

// hashEmitter returns an emitter whose only edge hashes on keys to n
// inboxes.
func hashEmitter(n int, keys []int) (*emitter, []chan envelope) {
	j := &Job{ctx: context.Background(), seed: maphash.MakeSeed()}
	inboxes := make([]chan envelope, n)
	for i := range inboxes {
		inboxes[i] = make(chan envelope, 64)
	}
	return &emitter{job: j, edges: []*edge{{exchange: Hash, keys: keys, inboxes: inboxes}}}, inboxes
}

// drain returns the chunks waiting in the inboxes, by inbox.
func drain(inboxes []chan envelope) [][]*types.Chunk {
	out := make([][]*types.Chunk, len(inboxes))
	for i, ch := range inboxes {
		for len(ch) > 0 {
			out[i] = append(out[i], (<-ch).chunk)
		}
	}
	return out
}

func BenchmarkHashExchange(b *testing.B) {
	c := exchangeChunk(types.ChunkSize, 50)
	for _, n := range []int{2, 4} {
		b.Run(fmt.Sprintf("instances=%d", n), func(b *testing.B) {
			e, inboxes := hashEmitter(n, []int{0})
			b.ReportAllocs()
			for b.Loop() {
				e.Emit(c)
				for _, ch := range inboxes {
					for len(ch) > 0 {
						<-ch
					}
				}
			}
			b.ReportMetric(float64(b.N*c.Len())/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
