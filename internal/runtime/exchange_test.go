package runtime

import (
	"context"
	"fmt"
	"slices"
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
// inboxes, over maxParallelism key groups.
func hashEmitter(n, maxParallelism int, keys []int) (*emitter, []chan envelope) {
	j := &Job{ctx: context.Background(), maxParallelism: maxParallelism}
	inboxes := make([]chan envelope, n)
	for i := range inboxes {
		inboxes[i] = make(chan envelope, 64)
	}
	return newEmitter(j, []*edge{{exchange: Hash, keys: keys, inboxes: inboxes}}, 0), inboxes
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

// TestHashExchange: every row reaches exactly one instance, all rows of a
// key the same one, in their original order and unchanged.
func TestHashExchange(t *testing.T) {
	// The default max parallelism takes key groups with a mask, others
	// with a division.
	for _, maxPar := range []int{DefaultMaxParallelism, 100} {
		t.Run(fmt.Sprint(maxPar), func(t *testing.T) { testHashExchange(t, maxPar) })
	}
}

func testHashExchange(t *testing.T, maxPar int) {
	c := exchangeChunk(3*types.ChunkSize/2, 50)
	e, inboxes := hashEmitter(4, maxPar, []int{0})
	e.Emit(c)
	seen := 0
	owner := map[types.Value]int{}
	for k, chunks := range drain(inboxes) {
		last := int64(-1)
		for _, p := range chunks {
			for i := range p.Len() {
				key, v := p.Cols[0].Get(i), p.Cols[1].Get(i).I
				g := KeyGroupFor(e.hash.hash(p, []int{0}, i), maxPar)
				if !KeyGroupsOf(k, 4, maxPar).Contains(g) {
					t.Fatalf("key %v of key group %d reached instance %d, which owns %+v", key, g, k, KeyGroupsOf(k, 4, maxPar))
				}
				if o, ok := owner[key]; ok && o != k {
					t.Fatalf("key %v on instances %d and %d", key, o, k)
				}
				owner[key] = k
				if v <= last {
					t.Fatalf("instance %d: row %d after row %d", k, v, last)
				}
				last = v
				want := types.Row{c.Cols[0].Get(int(v)), c.Cols[1].Get(int(v)), c.Cols[2].Get(int(v))}
				if got := p.Row(i); p.Ops[i] != c.Ops[v] || !slices.Equal(got, want) {
					t.Fatalf("instance %d: %v %v, want %v %v", k, p.Ops[i], got, c.Ops[v], want)
				}
				seen++
			}
		}
	}
	if seen != c.Len() || len(owner) != 51 {
		t.Fatalf("%d rows over %d keys arrived, want %d over 51", seen, len(owner), c.Len())
	}

	// A chunk whose rows all go to one instance is passed on as it is.
	one := exchangeChunk(10, 1)
	one.Cols[0] = types.NewVector(types.StringType, 10)
	for range 10 {
		one.Cols[0].AppendString("same")
	}
	e.Emit(one)
	var got []*types.Chunk
	for _, chunks := range drain(inboxes) {
		got = append(got, chunks...)
	}
	if len(got) != 1 || got[0] != one {
		t.Fatalf("one key's chunk arrived as %d chunks", len(got))
	}
}

func BenchmarkHashExchange(b *testing.B) {
	c := exchangeChunk(types.ChunkSize, 50)
	for _, n := range []int{2, 4} {
		b.Run(fmt.Sprintf("instances=%d", n), func(b *testing.B) {
			e, inboxes := hashEmitter(n, DefaultMaxParallelism, []int{0})
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
