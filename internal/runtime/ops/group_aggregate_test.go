package ops

import (
	"testing"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

var kvTypes = []types.Type{types.StringType, types.BigIntType}

func newCountSum(t *testing.T, gub bool) *GroupAggregate {
	t.Helper()
	g, err := NewGroupAggregate(GroupAggregateConfig{
		InputTypes:           kvTypes,
		Keys:                 []int{0},
		Aggs:                 []AggSpec{aggCall(t, "COUNT", kvTypes), aggCall(t, "SUM", kvTypes, 1)},
		GenerateUpdateBefore: gub,
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGroupAggregateChangelog(t *testing.T) {
	g, r := newCountSum(t, true), &recorder{}
	expect(t, feed(t, g, r, chunk(kvTypes,
		ins("a", 1), ins("a", 2), ins("b", 5),
		del("x", 1), // unknown key: ignored
		ub("a", 1), ua("a", 10),
	)),
		"+I[a, 1, 1]",
		"-U[a, 1, 1]", "+U[a, 2, 3]",
		"+I[b, 1, 5]",
		"-U[a, 2, 3]", "+U[a, 1, 2]",
		"-U[a, 1, 2]", "+U[a, 2, 12]",
	)
	expect(t, feed(t, g, r, chunk(kvTypes, del("a", 2), del("a", 10), del("b", 5), ins("a", 7))),
		"-U[a, 2, 12]", "+U[a, 1, 10]",
		"-D[a, 1, 10]",
		"-D[b, 1, 5]",
		"+I[a, 1, 7]",
	)
	if n := g.State().Len(); n != 1 {
		t.Fatalf("state has %d keys, want 1", n)
	}
	expect(t, watermark(t, g, r, 42), "WM 42")
}

func TestGroupAggregateWithoutUpdateBefore(t *testing.T) {
	g, r := newCountSum(t, false), &recorder{}
	expect(t, feed(t, g, r, chunk(kvTypes, ins("a", 1), ins("a", 2), del("a", 1), del("a", 2))),
		"+I[a, 1, 1]", "+U[a, 2, 3]", "+U[a, 1, 2]", "-D[a, 1, 2]")
}

func TestGroupAggregateUnchangedResultEmitsNothing(t *testing.T) {
	g, err := NewGroupAggregate(GroupAggregateConfig{
		InputTypes: kvTypes, Keys: []int{0},
		Aggs:                 []AggSpec{aggCall(t, "MAX", kvTypes, 1)},
		GenerateUpdateBefore: true,
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feed(t, g, r, chunk(kvTypes, ins("a", 5), ins("a", 3), ins("a", 5), del("a", 3), ins("a", 9))),
		"+I[a, 5]", "-U[a, 5]", "+U[a, 9]")
}

func TestGlobalAggregateAndFilter(t *testing.T) {
	in := []types.Type{types.BigIntType, types.BooleanType}
	filtered := aggCall(t, "COUNT", in)
	filtered.Filter = 1
	g, err := NewGroupAggregate(GroupAggregateConfig{
		InputTypes:           in,
		Aggs:                 []AggSpec{aggCall(t, "COUNT", in), filtered, aggCall(t, "SUM", in, 0)},
		GenerateUpdateBefore: true,
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feed(t, g, r, chunk(in, ins(4, true), ins(6, false), ins(1, nil), del(4, true))),
		"+I[1, 1, 4]",
		"-U[1, 1, 4]", "+U[2, 1, 10]",
		"-U[2, 1, 10]", "+U[3, 1, 11]",
		"-U[3, 1, 11]", "+U[2, 0, 7]",
	)
	expect(t, feed(t, g, r, chunk(in, del(6, false), del(1, nil))),
		"-U[2, 0, 7]", "+U[1, 0, 1]", "-D[1, 0, 1]")
}

func TestGroupAggregateSnapshotRestore(t *testing.T) {
	first := chunk(kvTypes, ins("a", 1), ins("b", 2), ins("a", 3))
	second := chunk(kvTypes, del("a", 1), ins("b", 4), del("b", 2), del("b", 4))

	whole, r := newCountSum(t, true), &recorder{}
	feed(t, whole, r, first)
	want := feed(t, whole, r, second)

	before := newCountSum(t, true)
	feed(t, before, r, first)
	after := newCountSum(t, true)
	moveState(t, before, after)
	expect(t, feed(t, after, r, second), want...)
}

func TestGroupAggregateChunking(t *testing.T) {
	g, r := newCountSum(t, true), &recorder{}
	c := types.NewChunk(kvTypes, 3000)
	for i := range 3000 {
		c.AppendRow(types.Insert, types.Row{types.StringValue(string(rune('a' + i%2000))), types.IntValue(1)})
	}
	if got := len(feed(t, g, r, c)); got != 2000+2*1000 {
		t.Fatalf("got %d rows", got)
	}
	if r.chunks != 4 {
		t.Fatalf("got %d chunks, want 4 (1024-row chunks)", r.chunks)
	}
}
