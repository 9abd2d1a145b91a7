package ops

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/runtime"
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

// boxedOnly hides an accumulator's flat form: an aggregation of it keeps
// its groups' accumulators as Go values.
type boxedOnly struct{ fn.Accumulator }

// boxed returns spec with its accumulators' flat form hidden.
func boxed(spec AggSpec) AggSpec {
	newAcc := spec.New
	spec.New = func() Accumulator { return boxedOnly{newAcc()} }
	return spec
}

// appendOnlyCall binds an aggregate for an input without retractions.
func appendOnlyCall(t testing.TB, name string, in []types.Type, arg int) AggSpec {
	t.Helper()
	a, _ := fn.LookupAggregate(name)
	typ, newAcc, err := a.BindAppendOnly([]fn.Arg{{Type: in[arg]}}, false)
	if err != nil {
		t.Fatal(err)
	}
	return AggSpec{New: newAcc, Args: []int{arg}, Filter: -1, Type: typ}
}

// TestGroupAggregateFlatMatchesBoxed: random changelogs (keys of two
// columns with NULLs, NULL and filtered arguments, retractions of known
// and unknown rows) give the same output whether the accumulators are
// kept flat or boxed, with and without -U, and the state moves between
// the two forms midway, in either direction, written alike; so does the
// flat form on the Pebble backend, written back after every chunk (which
// keeps DISTINCT calls, and MIN and MAX of strings, whose values their
// accumulator holds, boxed).
func TestGroupAggregateFlatMatchesBoxed(t *testing.T) {
	in, retracting, appendOnly := flatTestCalls(t)
	both := []int{0, 1}
	for _, c := range []struct {
		name    string
		aggs    []AggSpec
		retract bool
		keys    []int
	}{{"retracting", retracting, true, both}, {"append-only", appendOnly, false, both}, {"distinct", distinctTestCalls(t, in), true, both},
		// Grouped by the BIGINT alone, so that the STRING varies in a group.
		{"held", append(distinctTestCalls(t, in), appendOnlyCall(t, "MAX", in, 0), filteredOn(appendOnlyCall(t, "MIN", in, 0), 4)), false, []int{1}}} {
		for _, gub := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/update-before=%v", c.name, gub), func(t *testing.T) {
				newAggIn := func(flat bool, st state.Backend) *GroupAggregate {
					aggs := slices.Clone(c.aggs)
					if !flat {
						for i := range aggs {
							aggs[i] = boxed(aggs[i])
						}
					}
					g, err := NewGroupAggregate(GroupAggregateConfig{InputTypes: in, Keys: c.keys, Aggs: aggs, GenerateUpdateBefore: gub}, st)
					if err != nil {
						t.Fatal(err)
					}
					if (g.groups.flat != nil) != flat {
						t.Fatalf("flat form: %v, want %v", g.groups.flat != nil, flat)
					}
					return g
				}
				newAgg := func(flat bool) *GroupAggregate { return newAggIn(flat, state.NewMemory()) }
				onPebble := func() *GroupAggregate {
					return newAggIn(c.name == "retracting" || c.name == "append-only", writingBack(t))
				}
				chunks := randomChangelog(in, c.retract)
				flat, box, pb := newAgg(true), newAgg(false), onPebble()
				rf, rb, rp := &recorder{}, &recorder{}, &recorder{}
				for n, ch := range chunks {
					if n == len(chunks)/2 { // the state changes form
						fs, err1 := flat.State().Snapshot(runtime.DefaultMaxParallelism, state.AllKeyGroups)
						bs, err2 := box.State().Snapshot(runtime.DefaultMaxParallelism, state.AllKeyGroups)
						if err1 != nil || err2 != nil || !bytes.Equal(fs, bs) {
							t.Fatalf("the flat and boxed forms write different snapshots (%v, %v)", err1, err2)
						}
						f2, b2, p2 := newAgg(true), newAgg(false), onPebble()
						moveState(t, flat, b2)
						moveState(t, box, f2)
						moveState(t, pb, p2)
						flat, box, pb = f2, b2, p2
					}
					got, want, onDisk := feed(t, flat, rf, ch), feed(t, box, rb, ch), feed(t, pb, rp, ch)
					if err := pb.State().Release(); err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want) || !slices.Equal(onDisk, want) {
						t.Fatalf("chunk %d: flat gives\n%s\nflat on Pebble\n%s\nboxed gives\n%s", n,
							strings.Join(got, "\n"), strings.Join(onDisk, "\n"), strings.Join(want, "\n"))
					}
				}
				if flat.State().Len() != box.State().Len() {
					t.Fatalf("%d groups flat, %d boxed", flat.State().Len(), box.State().Len())
				}
			})
		}
	}
}

// flatTestCalls returns the input types of randomChangelog and calls
// over them with a flat form: calls that retract (a COUNT(*) among them,
// which reads the groups' row count, and one with a FILTER, which does
// not) and calls for an input without retractions.
func flatTestCalls(t *testing.T) (in []types.Type, retracting, appendOnly []AggSpec) {
	in = []types.Type{types.StringType, types.BigIntType, types.BigIntType, types.DoubleType, types.BooleanType}
	filtered := func(s AggSpec) AggSpec { s.Filter = 4; return s }
	retracting = []AggSpec{
		aggCall(t, "COUNT", in), filtered(aggCall(t, "COUNT", in, 2)), aggCall(t, "SUM", in, 2),
		aggCall(t, "SUM", in, 3), aggCall(t, "AVG", in, 2), aggCall(t, "AVG", in, 3), filtered(aggCall(t, "SUM0", in, 2)),
		filtered(aggCall(t, "COUNT", in)),
	}
	appendOnly = []AggSpec{
		aggCall(t, "COUNT", in, 2), appendOnlyCall(t, "MIN", in, 2), appendOnlyCall(t, "MAX", in, 3),
		filtered(appendOnlyCall(t, "MAX", in, 1)), aggCall(t, "AVG", in, 2), aggCall(t, "COUNT", in),
	}
	return in, retracting, appendOnly
}

// filteredOn returns s with the FILTER column col.
func filteredOn(s AggSpec, col int) AggSpec { s.Filter = col; return s }

// distinctTestCalls returns DISTINCT calls over the columns of
// randomChangelog, several sharing an argument with and without FILTER,
// and one of two arguments.
func distinctTestCalls(t *testing.T, in []types.Type) []AggSpec {
	distinct := func(name string, filter int, args ...int) AggSpec {
		a, _ := fn.LookupAggregate(name)
		fa := make([]fn.Arg, len(args))
		for i, c := range args {
			fa[i] = fn.Arg{Type: in[c]}
		}
		typ, newAcc, err := a.Bind(fa, true)
		if err != nil {
			t.Fatal(err)
		}
		return AggSpec{New: newAcc, Args: args, Filter: filter, Type: typ}
	}
	return []AggSpec{
		aggCall(t, "COUNT", in), distinct("COUNT", -1, 2), distinct("COUNT", 4, 2), distinct("SUM", -1, 2),
		distinct("AVG", 4, 3), distinct("COUNT", -1, 1, 2), distinct("COUNT", 4, 1, 2), aggCall(t, "SUM", in, 2),
	}
}

// randomChangelog returns chunks of rows of (STRING, BIGINT, BIGINT,
// DOUBLE, BOOLEAN) over a few keys; with retract, a third of the rows
// retract an earlier row (or, sometimes, one never sent).
func randomChangelog(in []types.Type, retract bool) []*types.Chunk {
	rng := rand.New(rand.NewPCG(7, 9))
	pick := func(vs ...any) any { return vs[rng.IntN(len(vs))] }
	var sent []types.Row
	var chunks []*types.Chunk
	for range 20 {
		c := types.NewChunk(in, 200)
		for range rng.IntN(200) + 1 {
			if retract && len(sent) > 0 && rng.IntN(3) == 0 {
				kind := pick(types.Delete, types.UpdateBefore).(types.RowKind)
				if rng.IntN(10) == 0 { // a row never sent
					c.AppendRow(kind, types.Row{value("zz"), value(1), value(2), value(3.0), value(true)})
					continue
				}
				k := rng.IntN(len(sent))
				c.AppendRow(kind, sent[k])
				sent = slices.Delete(sent, k, k+1)
				continue
			}
			row := types.Row{value(pick("a", "b", "c", "", "zz")), value(pick(nil, 1, 2)), value(pick(nil, 0, 5, -7, 100)),
				value(pick(nil, 0.5, -2.25, 1e300)), value(pick(nil, true, false))}
			c.AppendRow(pick(types.Insert, types.UpdateAfter).(types.RowKind), row)
			sent = append(sent, row)
		}
		chunks = append(chunks, c)
	}
	return chunks
}

// TestGroupAggregateFlatUnchangedResults: a row that leaves the flat
// accumulators as they were (a NULL argument) or changes them but not
// their results (an average staying the same) emits nothing.
func TestGroupAggregateFlatUnchangedResults(t *testing.T) {
	for _, gub := range []bool{true, false} {
		g, err := NewGroupAggregate(GroupAggregateConfig{
			InputTypes: kvTypes, Keys: []int{0},
			Aggs:                 []AggSpec{aggCall(t, "AVG", kvTypes, 1), aggCall(t, "SUM", kvTypes, 1)},
			GenerateUpdateBefore: gub,
		}, state.NewMemory())
		if err != nil || g.groups.flat == nil {
			t.Fatalf("flat form %v, %v", g.groups.flat, err)
		}
		r := &recorder{}
		want := []string{"+I[a, 5, 5]", "-U[a, 5, 5]", "+U[a, 5, 10]"}
		if !gub {
			want = slices.Delete(want, 1, 2)
		}
		// AVG(5, 5) is AVG(5); the SUM only is new.
		expect(t, feed(t, g, r, chunk(kvTypes, ins("a", 5), ins("a", nil), ins("a", 5))), want...)
		g2, _ := NewGroupAggregate(GroupAggregateConfig{InputTypes: kvTypes, Keys: []int{0},
			Aggs: []AggSpec{aggCall(t, "AVG", kvTypes, 1)}, GenerateUpdateBefore: gub}, state.NewMemory())
		expect(t, feed(t, g2, r, chunk(kvTypes, ins("a", 5), ins("a", nil), ins("a", 5), ins("a", 8))),
			append([]string{"+I[a, 5]"}, map[bool][]string{true: {"-U[a, 5]", "+U[a, 6]"}, false: {"+U[a, 6]"}}[gub]...)...)
	}
}

// TestGroupAggregateEmptyResult: in batch mode a global aggregate emits
// its results over no rows when its input ends without a group (SQL's one
// row of an aggregation without GROUP BY), after the maximum watermark it
// passes on, and nothing more when it has one; a keyed one emits nothing
// for no rows.
func TestGroupAggregateEmptyResult(t *testing.T) {
	ts := []types.Type{types.BigIntType}
	newAgg := func(keys []int) *GroupAggregate {
		g, err := NewGroupAggregate(GroupAggregateConfig{InputTypes: ts, Keys: keys, Aggs: []AggSpec{aggCall(t, "COUNT", ts, 0), aggCall(t, "SUM", ts, 0)},
			GenerateUpdateBefore: true, EmptyResult: true}, state.NewMemory())
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	r := &recorder{}
	expect(t, finish(t, newAgg(nil), r), maxWM, "+I[0, NULL]")
	g := newAgg(nil)
	expect(t, feed(t, g, r, chunk(ts, ins(int64(2)), del(int64(2)))), "+I[1, 2]", "-D[1, 2]")
	expect(t, finish(t, g, r), maxWM, "+I[0, NULL]")
	g = newAgg(nil)
	expect(t, feed(t, g, r, chunk(ts, ins(int64(2)))), "+I[1, 2]")
	expect(t, finish(t, g, r), maxWM)
	expect(t, finish(t, newAgg([]int{0}), r), maxWM)
}
