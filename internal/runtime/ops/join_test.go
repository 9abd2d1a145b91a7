package ops

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// orders are (order_id, amount); shipments are (order_id, warehouse).
var (
	orderTypes    = []types.Type{types.IntType, types.BigIntType}
	shipmentTypes = []types.Type{types.IntType, types.StringType}
)

func newJoin(t *testing.T, kind JoinKind) *Join {
	t.Helper()
	j, err := NewJoin(JoinSpec{
		Kind: kind, LeftTypes: orderTypes, RightTypes: shipmentTypes,
		LeftKeys: []int{0}, RightKeys: []int{0},
		Cond: func(row types.Row) (bool, error) { return row[3].S != "nowhere", nil },
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func feedSide(t *testing.T, j *Join, r *recorder, input int, c *types.Chunk) []string {
	t.Helper()
	if err := j.ProcessChunk(input, c, r); err != nil {
		t.Fatal(err)
	}
	return r.take()
}

func TestInnerJoinForwardsRowKinds(t *testing.T) {
	j, r := newJoin(t, InnerJoin), &recorder{}
	expect(t, feedSide(t, j, r, 0, chunk(orderTypes, ins(1, 100), ins(1, 100), ins(2, 50), ins(nil, 7))))
	expect(t, feedSide(t, j, r, 1, chunk(shipmentTypes, ins(1, "Boston"), ins(1, "nowhere"), ins(nil, "x"))),
		"+I[1, 100, 1, Boston]", "+I[1, 100, 1, Boston]")
	expect(t, feedSide(t, j, r, 0, chunk(orderTypes, ub(2, 50), ua(2, 60), ub(1, 100), ua(1, 101))),
		"-U[1, 100, 1, Boston]", "+U[1, 101, 1, Boston]")
	expect(t, feedSide(t, j, r, 1, chunk(shipmentTypes, ins(2, "Providence"), del(1, "Boston"))),
		"+I[2, 60, 2, Providence]", "-D[1, 100, 1, Boston]", "-D[1, 101, 1, Boston]")
	expect(t, feedSide(t, j, r, 1, chunk(shipmentTypes, del(1, "nowhere"))))
	expect(t, feedSide(t, j, r, 0, chunk(orderTypes, del(1, 100), del(1, 101))))
	// left: 2/60; right: 2/Providence.
	if n := j.State().Len(); n != 2 {
		t.Fatalf("state has %d keys, want 2", n)
	}
}

func TestLeftJoinPaddingAndRetraction(t *testing.T) {
	j, r := newJoin(t, LeftJoin), &recorder{}
	expect(t, feedSide(t, j, r, 0, chunk(orderTypes, ins(1, 100), ins(nil, 5))),
		"+I[1, 100, NULL, NULL]", "+I[NULL, 5, NULL, NULL]")
	// First match: the padded row is retracted before the joined row.
	expect(t, feedSide(t, j, r, 1, chunk(shipmentTypes, ins(1, "Boston"), ins(1, "Austin"))),
		"-D[1, 100, NULL, NULL]", "+I[1, 100, 1, Boston]", "+I[1, 100, 1, Austin]")
	// A right row that fails the condition changes nothing.
	expect(t, feedSide(t, j, r, 1, chunk(shipmentTypes, ins(1, "nowhere"))))
	// An update on the outer side: -D/+I, never -U/+U.
	expect(t, feedSide(t, j, r, 0, chunk(orderTypes, ub(1, 100), ua(1, 200))),
		"-D[1, 100, 1, Boston]", "-D[1, 100, 1, Austin]", "+I[1, 200, 1, Boston]", "+I[1, 200, 1, Austin]")
	// Last match gone: the padded row comes back after the retraction.
	expect(t, feedSide(t, j, r, 1, chunk(shipmentTypes, del(1, "Boston"), del(1, "Austin"))),
		"-D[1, 200, 1, Boston]", "-D[1, 200, 1, Austin]", "+I[1, 200, NULL, NULL]")
	expect(t, feedSide(t, j, r, 0, chunk(orderTypes, del(1, 200), del(nil, 5))),
		"-D[1, 200, NULL, NULL]", "-D[NULL, 5, NULL, NULL]")
	if n := j.State().Len(); n != 1 { // the "nowhere" shipment
		t.Fatalf("state has %d keys, want 1", n)
	}
}

func TestRightAndFullJoin(t *testing.T) {
	j, r := newJoin(t, RightJoin), &recorder{}
	expect(t, feedSide(t, j, r, 1, chunk(shipmentTypes, ins(3, "Boston"))), "+I[NULL, NULL, 3, Boston]")
	expect(t, feedSide(t, j, r, 0, chunk(orderTypes, ins(3, 1), ins(4, 2))),
		"-D[NULL, NULL, 3, Boston]", "+I[3, 1, 3, Boston]")
	expect(t, feedSide(t, j, r, 0, chunk(orderTypes, del(3, 1))),
		"-D[3, 1, 3, Boston]", "+I[NULL, NULL, 3, Boston]")

	f, r := newJoin(t, FullJoin), &recorder{}
	expect(t, feedSide(t, f, r, 0, chunk(orderTypes, ins(1, 10), ins(1, 10))),
		"+I[1, 10, NULL, NULL]", "+I[1, 10, NULL, NULL]")
	// Both copies of the padded left row are retracted.
	expect(t, feedSide(t, f, r, 1, chunk(shipmentTypes, ins(1, "Boston"))),
		"-D[1, 10, NULL, NULL]", "-D[1, 10, NULL, NULL]", "+I[1, 10, 1, Boston]", "+I[1, 10, 1, Boston]")
	expect(t, feedSide(t, f, r, 1, chunk(shipmentTypes, ins(1, "Austin"))),
		"+I[1, 10, 1, Austin]", "+I[1, 10, 1, Austin]")
	g, _ := NewJoin(f.spec, state.NewMemory())
	moveState(t, f, g)
	expect(t, feedSide(t, g, r, 0, chunk(orderTypes, del(1, 10))),
		"-D[1, 10, 1, Boston]", "-D[1, 10, 1, Austin]")
	expect(t, feedSide(t, g, r, 0, chunk(orderTypes, del(1, 10))),
		"-D[1, 10, 1, Boston]", "-D[1, 10, 1, Austin]", "+I[NULL, NULL, 1, Boston]", "+I[NULL, NULL, 1, Austin]")
}

func TestJoinNullSafeKeys(t *testing.T) {
	j, err := NewJoin(JoinSpec{
		Kind: InnerJoin, LeftTypes: orderTypes, RightTypes: shipmentTypes,
		LeftKeys: []int{0}, RightKeys: []int{0}, NullSafeKeys: []bool{true},
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	feedSide(t, j, r, 0, chunk(orderTypes, ins(nil, 1)))
	expect(t, feedSide(t, j, r, 1, chunk(shipmentTypes, ins(nil, "x"))), "+I[NULL, 1, NULL, x]")
}

// TestJoinRowsKeepOrderAndCounts: a key's rows, added and retracted at
// random (hashes folded so that rows share them, and past the index's
// threshold), stay the multiset a plain list in order of first arrival
// gives, and encode and decode to it.
func TestJoinRowsKeepOrderAndCounts(t *testing.T) {
	type ref struct {
		v     int64
		count int64
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ distinct, hashes int64 }{
		{3, 2}, {joinIndexMin + 1, 5}, {200, 5}, {200, 150}, {200, 1 << 40},
	} {
		distinct := int(c.distinct)
		var s joinRows
		var want []ref
		hash := func(v int64) uint64 { return uint64(v % c.hashes) } // collisions on purpose
		for step := range 5000 {
			v := rng.Int64N(int64(distinct))
			row := types.Row{types.IntValue(v)}
			i := slices.IndexFunc(want, func(r ref) bool { return r.v == v })
			if rng.IntN(2) == 0 {
				s.add(row, hash(v), int64(step))
				if i < 0 {
					want = append(want, ref{v: v, count: 1})
				} else {
					want[i].count++
				}
			} else {
				s.remove(row, hash(v))
				if i >= 0 {
					if want[i].count--; want[i].count == 0 {
						want = slices.Delete(want, i, i+1)
					}
				}
			}
			var got []ref
			for r := range s.all() {
				got = append(got, ref{v: r.row[0].I, count: r.count})
			}
			if !slices.Equal(got, want) || s.live != len(want) {
				t.Fatalf("%d distinct, step %d: rows %v (live %d), want %v", distinct, step, got, s.live, want)
			}
			if distinct <= joinIndexMin && s.index != nil {
				t.Fatalf("%d distinct: an index below the threshold", distinct)
			}
		}
		codec := joinRowsCodec([]types.Type{types.BigIntType})
		back, err := codec.Decode(codec.Append(nil, s))
		if err != nil {
			t.Fatal(err)
		}
		var got, orig []string
		for r := range back.all() {
			got = append(got, fmt.Sprint(r.row, r.count, r.assoc))
		}
		for r := range s.all() {
			orig = append(orig, fmt.Sprint(r.row, r.count, r.assoc))
		}
		if !slices.Equal(got, orig) {
			t.Fatalf("decoded %v, want %v", got, orig)
		}
	}
}

// TestJoinRowsIndexCollision: of two rows with one hash past the index's
// threshold, the one the index does not point at is still found once
// the other goes.
func TestJoinRowsIndexCollision(t *testing.T) {
	var s joinRows
	for v := range int64(joinIndexMin + 1) {
		s.add(types.Row{types.IntValue(v)}, uint64(v), 0)
	}
	a, b := types.Row{types.IntValue(100)}, types.Row{types.IntValue(101)}
	s.add(a, 7, 0) // shares hash 7 with the row 7
	s.add(b, 7, 0)
	s.remove(types.Row{types.IntValue(7)}, 7)
	s.remove(a, 7)
	if p := s.find(b, 7); p < 0 || !rowsEqual(s.recs[p].row, b) {
		t.Fatalf("find(%v) = %d after the rows of its hash before it went", b, p)
	}
	s.add(b, 7, 0)
	if n := s.recs[s.find(b, 7)].count; n != 2 || s.live != joinIndexMin+1 {
		t.Fatalf("count %d, %d rows: want 2 and %d", n, s.live, joinIndexMin+1)
	}
}

// TestJoinOnPebbleManyRowsPerKey: a FULL join whose keys hold many rows
// (past the index's threshold) gives on the Pebble backend, which writes
// back and forgets every entry after each message, and across restores,
// exactly the output, in order, of the memory backend.
func TestJoinOnPebbleManyRowsPerKey(t *testing.T) {
	spec := JoinSpec{
		Kind: FullJoin, LeftTypes: orderTypes, RightTypes: shipmentTypes,
		LeftKeys: []int{0}, RightKeys: []int{0},
		Cond: func(row types.Row) (bool, error) { return (row[1].I+int64(len(row[3].S)))%3 != 0, nil },
	}
	newPebble := func() *state.Pebble {
		st, err := state.NewPebble(filepath.Join(t.TempDir(), "state"), runtime.DefaultMaxParallelism)
		if err != nil {
			t.Fatal(err)
		}
		st.CacheEntries = 1
		t.Cleanup(func() { st.Close() })
		return st
	}
	mem, err := NewJoin(spec, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	pb, err := NewJoin(spec, newPebble())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var kept [2][]types.Row // rows in the state, to retract
	rm, rp := &recorder{}, &recorder{}
	for step := range 1500 {
		in := rng.IntN(2)
		var row types.Row
		kind := types.Insert
		if n := len(kept[in]); n > 0 && rng.IntN(3) == 0 {
			i := rng.IntN(n)
			row, kind = kept[in][i], types.Delete
			kept[in] = slices.Delete(kept[in], i, i+1)
		} else {
			key := types.IntValue(rng.Int64N(3))
			if in == 0 {
				row = types.Row{key, types.IntValue(rng.Int64N(60))}
			} else {
				row = types.Row{key, types.StringValue(fmt.Sprint("w", rng.IntN(60)))}
			}
			kept[in] = append(kept[in], row)
		}
		ts := [2][]types.Type{orderTypes, shipmentTypes}[in]
		c := types.NewChunk(ts, 1)
		c.AppendRow(kind, row)
		want := feedSide(t, mem, rm, in, c)
		got := feedSide(t, pb, rp, in, c)
		if err := pb.State().Release(); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: %v\nwant %v", step, got, want)
		}
		if step%300 == 299 {
			next, err := NewJoin(spec, newPebble())
			if err != nil {
				t.Fatal(err)
			}
			moveState(t, pb, next)
			pb = next
		}
	}
}
