package ops

import (
	"testing"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// clickTypes are (ip, url, ts).
var clickTypes = []types.Type{types.StringType, types.StringType, types.TimestampType(0)}

func newRank(t *testing.T, cfg RankConfig) *Rank {
	t.Helper()
	r, err := NewRank(cfg, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRankTop1ReplacesOnEarlierRow is the finding-distinct case: ROW_NUMBER
// over an append-only input ordered by a non-time column, rownum = 1.
func TestRankTop1ReplacesOnEarlierRow(t *testing.T) {
	for _, gub := range []bool{true, false} {
		op := newRank(t, RankConfig{
			InputTypes: clickTypes, PartitionKeys: []int{0}, Order: []SortKey{{Col: 2}},
			Start: 1, End: 1, InputInsertOnly: true, GenerateUpdateBefore: gub,
		})
		r := &recorder{}
		got := feed(t, op, r, chunk(clickTypes,
			ins("10.0.0.1", "acme", ts("2023-08-23 17:36:15")),
			ins("10.0.0.12", "amazon", ts("2023-08-23 21:36:15")),
			ins("10.0.0.13", "confluent", ts("2023-08-23 21:36:15")),
			ins("10.0.0.1", "acme-again", ts("2023-08-23 17:36:15")), // tie: the first stays
			ins("10.0.0.12", "amazon", ts("2023-08-23 19:36:15")),    // earlier: replaces
			ins("10.0.0.13", "confluent", ts("2023-08-23 21:36:15")),
			ins("10.0.0.13", "later", ts("2023-08-23 22:00:00")),
		))
		want := []string{
			"+I[10.0.0.1, acme, 2023-08-23 17:36:15]",
			"+I[10.0.0.12, amazon, 2023-08-23 21:36:15]",
			"+I[10.0.0.13, confluent, 2023-08-23 21:36:15]",
			"-U[10.0.0.12, amazon, 2023-08-23 21:36:15]",
			"+U[10.0.0.12, amazon, 2023-08-23 19:36:15]",
		}
		if !gub {
			want = append(want[:3:3], want[4])
		}
		expect(t, got, want...)
		if op.State().Len() != 3 {
			t.Fatalf("state has %d partitions", op.State().Len())
		}
	}
}

var numTypes = []types.Type{types.StringType, types.BigIntType}

func TestRankAppendOnlyTopNWithoutNumber(t *testing.T) {
	op := newRank(t, RankConfig{
		InputTypes: numTypes, PartitionKeys: []int{0}, Order: []SortKey{{Col: 1}},
		Start: 1, End: 2, InputInsertOnly: true, GenerateUpdateBefore: true,
	})
	r := &recorder{}
	expect(t, feed(t, op, r, chunk(numTypes, ins("p", 5), ins("p", 3), ins("p", 1), ins("p", 9), ins("p", 3), ins("q", 0))),
		"+I[p, 5]", "+I[p, 3]",
		"-D[p, 5]", "+I[p, 1]",
		"+I[q, 0]",
	)
	if n := op.State().Len(); n != 2 {
		t.Fatalf("state has %d partitions", n)
	}
}

func TestRankAppendOnlyTopNWithNumber(t *testing.T) {
	op := newRank(t, RankConfig{
		InputTypes: numTypes, PartitionKeys: []int{0}, Order: []SortKey{{Col: 1, Desc: true}},
		Start: 1, End: 3, OutputRankNumber: true, InputInsertOnly: true, GenerateUpdateBefore: true,
	})
	r := &recorder{}
	expect(t, feed(t, op, r, chunk(numTypes, ins("p", 1), ins("p", 3), ins("p", 2), ins("p", 9), ins("p", 0))),
		"+I[p, 1, 1]",
		"-U[p, 1, 1]", "+U[p, 3, 1]", "+I[p, 1, 2]",
		"-U[p, 1, 2]", "+U[p, 2, 2]", "+I[p, 1, 3]",
		"-U[p, 3, 1]", "+U[p, 9, 1]", "-U[p, 2, 2]", "+U[p, 3, 2]", "-U[p, 1, 3]", "+U[p, 2, 3]",
	)
}

func TestRankRetractableWithoutNumber(t *testing.T) {
	op := newRank(t, RankConfig{
		InputTypes: numTypes, Order: []SortKey{{Col: 1}}, Start: 1, End: 2, GenerateUpdateBefore: true,
	})
	r := &recorder{}
	expect(t, feed(t, op, r, chunk(numTypes, ins("a", 1), ins("b", 2), ins("c", 3), ins("d", 0))),
		"+I[a, 1]", "+I[b, 2]", "-D[b, 2]", "+I[d, 0]")
	expect(t, feed(t, op, r, chunk(numTypes,
		del("d", 0),     // leaves the top: b moves up to rank 2
		del("x", 1),     // unknown row: ignored
		ub("c", 3),      // outside the top: nothing
		ua("c", -1),     // enters at rank 1: b leaves
		del("a", 1),     // b comes back
		del("nope", 42), // unknown
	)),
		"-D[d, 0]", "+I[b, 2]",
		"-D[b, 2]", "+I[c, -1]",
		"-D[a, 1]", "+I[b, 2]",
	)
	if n := op.State().Len(); n != 1 {
		t.Fatalf("state has %d partitions", n)
	}
}

func TestRankRetractableWithNumberAndOffset(t *testing.T) {
	cfg := RankConfig{
		InputTypes: numTypes, Order: []SortKey{{Col: 1}}, Start: 2, End: 3,
		OutputRankNumber: true, GenerateUpdateBefore: true,
	}
	op := newRank(t, cfg)
	r := &recorder{}
	expect(t, feed(t, op, r, chunk(numTypes, ins("a", 10), ins("b", 20), ins("c", 30), ins("d", 5))),
		"+I[b, 20, 2]",
		"+I[c, 30, 3]",
		"-U[b, 20, 2]", "+U[a, 10, 2]", "-U[c, 30, 3]", "+U[b, 20, 3]",
	)
	// Snapshot, restore into a new instance and retract there.
	op2 := newRank(t, cfg)
	moveState(t, op, op2)
	expect(t, feed(t, op2, r, chunk(numTypes, del("d", 5), del("b", 20), del("a", 10))),
		"-U[a, 10, 2]", "+U[b, 20, 2]", "-U[b, 20, 3]", "+U[c, 30, 3]",
		"-U[b, 20, 2]", "+U[c, 30, 2]", "-D[c, 30, 3]",
		"-D[c, 30, 2]",
	)
}

func TestRankNullOrdering(t *testing.T) {
	op := newRank(t, RankConfig{
		InputTypes: numTypes, Order: []SortKey{{Col: 1, NullsFirst: true}}, Start: 1, End: 1,
		InputInsertOnly: true, GenerateUpdateBefore: true,
	})
	r := &recorder{}
	expect(t, feed(t, op, r, chunk(numTypes, ins("a", 1), ins("n", nil), ins("m", nil))),
		"+I[a, 1]", "-U[a, 1]", "+U[n, NULL]")
	if err := op.ProcessChunk(0, chunk(numTypes, del("n", nil)), r); err == nil {
		t.Fatal("retraction on insert-only input accepted")
	}
}
