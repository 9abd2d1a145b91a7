package ops

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// rescaleMaxParallelism is the number of key groups of the rescale tests.
const rescaleMaxParallelism = 16

// sent is a chunk for one input of an operator.
type sent struct {
	input int
	c     *types.Chunk
}

// rescaleCase is a keyed operator and its input: the rows before a
// snapshot, the watermark reached then (0: none) and the rows after.
type rescaleCase struct {
	name          string
	op            func(t *testing.T) runtime.Operator
	keys          [][]int // per input, the key it is partitioned by
	first, second []sent
	wm            int64
}

// route splits c among p instances by the key groups of its keys, as the
// runtime's hash exchange does.
func route(c *types.Chunk, keys []int, p int) []*types.Chunk {
	sel := make([][]int, p)
	var key []byte
	for i := range c.Len() {
		key = state.AppendChunkKey(key[:0], c, i, keys)
		g := runtime.KeyGroupFor(runtime.KeyHash(key), rescaleMaxParallelism)
		k := runtime.InstanceForKeyGroup(g, rescaleMaxParallelism, p)
		sel[k] = append(sel[k], i)
	}
	out := make([]*types.Chunk, p)
	for k := range p {
		if len(sel[k]) > 0 {
			out[k] = runtime.SelectRows(c, sel[k])
		}
	}
	return out
}

// runRescaled runs c's operator at parallelism from over the first rows,
// snapshots every instance, restores the snapshots into instances at
// parallelism to (each taking its key groups, starting at the watermark
// reached) and runs them over the second rows to the end. It returns the
// rows output, sorted, without watermarks.
func runRescaled(t *testing.T, c rescaleCase, from, to int) []string {
	t.Helper()
	r := &recorder{}
	start := func(p int, snaps [][]byte) []runtime.Operator {
		ops := make([]runtime.Operator, p)
		for k := range ops {
			ops[k] = c.op(t)
			owned := runtime.KeyGroupsOf(k, p, rescaleMaxParallelism)
			if snaps != nil {
				if err := ops[k].(Stateful).State().Restore(snaps, owned, nil); err != nil {
					t.Fatal(err)
				}
			}
			if err := ops[k].Open(&runtime.Context{Instance: k, Parallelism: p, KeyGroups: owned}); err != nil {
				t.Fatal(err)
			}
			if snaps != nil && c.wm != 0 {
				if err := ops[k].ProcessWatermark(c.wm, r); err != nil {
					t.Fatal(err)
				}
			}
		}
		return ops
	}
	send := func(ops []runtime.Operator, in []sent) {
		for _, s := range in {
			for k, part := range route(s.c, c.keys[s.input], len(ops)) {
				if part == nil {
					continue
				}
				if err := ops[k].ProcessChunk(s.input, part, r); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	before := start(from, nil)
	send(before, c.first)
	var snaps [][]byte
	kept := 0
	for k, op := range before {
		if c.wm != 0 {
			if err := op.ProcessWatermark(c.wm, r); err != nil {
				t.Fatal(err)
			}
		}
		snap, err := op.(Stateful).State().Snapshot(rescaleMaxParallelism, runtime.KeyGroupsOf(k, from, rescaleMaxParallelism))
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, snap)
		kept += op.(Stateful).State().Len()
	}
	if kept == 0 {
		t.Fatal("no state at the snapshot: the case tests nothing")
	}
	after := start(to, snaps)
	send(after, c.second)
	for _, op := range after {
		if err := op.ProcessWatermark(runtime.MaxWatermark, r); err != nil {
			t.Fatal(err)
		}
		if err := op.Finish(r); err != nil {
			t.Fatal(err)
		}
	}
	var rows []string
	for _, l := range r.take() {
		if !strings.HasPrefix(l, "WM ") {
			rows = append(rows, l)
		}
	}
	slices.Sort(rows)
	return rows
}

// runStraight runs c's operator as one instance over all its rows,
// without a snapshot, and returns what runRescaled returns.
func runStraight(t *testing.T, c rescaleCase) []string {
	t.Helper()
	r := &recorder{}
	op := c.op(t)
	if err := op.Open(&runtime.Context{Parallelism: 1, KeyGroups: runtime.KeyGroupsOf(0, 1, rescaleMaxParallelism)}); err != nil {
		t.Fatal(err)
	}
	send := func(in []sent) {
		for _, s := range in {
			if err := op.ProcessChunk(s.input, s.c, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	send(c.first)
	if c.wm != 0 {
		if err := op.ProcessWatermark(c.wm, r); err != nil {
			t.Fatal(err)
		}
	}
	send(c.second)
	if err := op.ProcessWatermark(runtime.MaxWatermark, r); err != nil {
		t.Fatal(err)
	}
	if err := op.Finish(r); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, l := range r.take() {
		if !strings.HasPrefix(l, "WM ") {
			rows = append(rows, l)
		}
	}
	slices.Sort(rows)
	return rows
}

// TestKeyedOperatorsRestoreAtAnotherParallelism: every keyed operator,
// snapshotted at parallelism 1, 2 or 3 and restored at 1, 2 or 3, outputs
// what one instance outputs without a restore.
func TestKeyedOperatorsRestoreAtAnotherParallelism(t *testing.T) {
	kv := func(recs ...rec) []sent { return []sent{{0, chunk(kvTypes, recs...)}} }
	many := func(from, to int, f func(i int) rec) []rec {
		var out []rec
		for i := from; i < to; i++ {
			out = append(out, f(i))
		}
		return out
	}
	key := func(i int) string { return fmt.Sprintf("k%d", i%23) }
	hour := us(time.Hour)
	ratings := func(from, to int) []sent {
		return []sent{{0, chunk(ratingTypes, many(from, to, func(i int) rec {
			return ins(key(i), float64(i), ts("2023-07-09 00:00:00")+int64(i)*int64(7*time.Minute))
		})...)}}
	}
	// The watermark after the first 60 ratings (up to 6:53): 5 hours in.
	ratingsWM := ts("2023-07-09 05:00:00")
	windowed := func(from, to int) []sent {
		in := []types.Type{types.TimestampType(3), types.TimestampType(3), types.StringType, types.BigIntType}
		return []sent{{0, chunk(in, many(from, to, func(i int) rec {
			s := ts("2023-07-09 00:00:00") + int64(i/10)*hour
			return ins(s, s+hour, key(i), i*37%101)
		})...)}}
	}
	timed := func(input, from, to int) sent {
		return sent{input, chunk(timedTypes, many(from, to, func(i int) rec {
			return ins(i%11, ts("2023-08-23 10:00:00")+int64(i)*int64(10*time.Minute))
		})...)}
	}
	wjRows := func(input, from, to int) sent {
		return sent{input, chunk(wjTypes, many(from, to, func(i int) rec {
			if i%7 == 0 {
				return ins(nil, ms(int64(i/10*10)), ms(int64(i/10*10+10)))
			}
			return ins(i%5+input, ms(int64(i/10*10)), ms(int64(i/10*10+10)))
		})...)}
	}
	cases := []rescaleCase{
		{name: "group aggregate", op: func(t *testing.T) runtime.Operator { return newCountSum(t, true) }, keys: [][]int{{0}},
			first:  kv(many(0, 50, func(i int) rec { return ins(key(i), i) })...),
			second: kv(append(many(50, 90, func(i int) rec { return ins(key(i), i) }), del(key(3), 3), del(key(4), 4))...)},
		{name: "changelog normalize", op: func(t *testing.T) runtime.Operator {
			n, err := NewChangelogNormalize(ChangelogNormalizeConfig{InputTypes: kvTypes, Keys: []int{0}, GenerateUpdateBefore: true}, state.NewMemory())
			if err != nil {
				t.Fatal(err)
			}
			return n
		}, keys: [][]int{{0}},
			first:  kv(many(0, 50, func(i int) rec { return ins(key(i), i%3) })...),
			second: kv(many(50, 90, func(i int) rec { return ins(key(i), i%4) })...)},
		{name: "tumble window", op: func(t *testing.T) runtime.Operator {
			return newRatingsAgg(t, Window{Kind: Tumble, Size: hour})
		}, keys: [][]int{{0}}, first: ratings(0, 60), second: ratings(60, 120), wm: ratingsWM},
		{name: "hop window", op: func(t *testing.T) runtime.Operator {
			return newRatingsAgg(t, Window{Kind: Hop, Size: 2 * hour, Slide: hour})
		}, keys: [][]int{{0}}, first: ratings(0, 60), second: ratings(60, 120), wm: ratingsWM},
		{name: "session window", op: func(t *testing.T) runtime.Operator {
			return newRatingsAgg(t, Window{Kind: Session, Gap: us(3 * time.Hour)})
		}, keys: [][]int{{0}}, first: ratings(0, 60), second: ratings(60, 120), wm: ratingsWM},
		{name: "window top-n", op: func(t *testing.T) runtime.Operator {
			in := []types.Type{types.TimestampType(3), types.TimestampType(3), types.StringType, types.BigIntType}
			r, err := NewWindowRank(WindowRankConfig{InputTypes: in, PartitionKeys: []int{0, 1, 2}, Order: []SortKey{{Col: 3, Desc: true}},
				Start: 1, End: 2, OutputRankNumber: true, WindowEndCol: 1}, state.NewMemory())
			if err != nil {
				t.Fatal(err)
			}
			return r
		}, keys: [][]int{{0, 1, 2}}, first: windowed(0, 50), second: windowed(50, 100), wm: ts("2023-07-09 03:00:00")},
		{name: "deduplicate", op: func(t *testing.T) runtime.Operator {
			return newDedup(t, DeduplicateConfig{KeepLast: true, RowTime: true, OutputRankNumber: true})
		}, keys: [][]int{{0}},
			first:  []sent{{0, chunk(evTypes, many(0, 50, func(i int) rec { return ins(key(i), i, ms(int64(i%9))) })...)}},
			second: []sent{{0, chunk(evTypes, many(50, 90, func(i int) rec { return ins(key(i), i, ms(int64(i%13))) })...)}}},
		{name: "top-n", op: func(t *testing.T) runtime.Operator {
			return newRank(t, RankConfig{InputTypes: clickTypes, PartitionKeys: []int{0}, Order: []SortKey{{Col: 2}},
				Start: 1, End: 2, InputInsertOnly: true, GenerateUpdateBefore: true})
		}, keys: [][]int{{0}},
			first: []sent{{0, chunk(clickTypes, many(0, 50, func(i int) rec {
				return ins(key(i), fmt.Sprint(i), ts("2023-08-23 10:00:00")+int64(i*31%17)*us(time.Minute))
			})...)}},
			second: []sent{{0, chunk(clickTypes, many(50, 90, func(i int) rec {
				return ins(key(i), fmt.Sprint(i), ts("2023-08-23 10:00:00")+int64(i*31%17)*us(time.Minute))
			})...)}}},
		{name: "over aggregate", op: func(t *testing.T) runtime.Operator { return newOver(t, true, 2) }, keys: [][]int{{0}},
			first:  []sent{{0, chunk(evTypes, many(0, 50, func(i int) rec { return ins(key(i), i, ms(int64(i))) })...)}},
			second: []sent{{0, chunk(evTypes, many(50, 90, func(i int) rec { return ins(key(i), i, ms(int64(i))) })...)}}, wm: ms(40)},
		{name: "join", op: func(t *testing.T) runtime.Operator { return newJoin(t, FullJoin) }, keys: [][]int{{0}, {0}},
			first: []sent{
				{0, chunk(orderTypes, many(0, 30, func(i int) rec { return ins(i%13, i) })...)},
				{1, chunk(shipmentTypes, many(0, 20, func(i int) rec { return ins(i%17, fmt.Sprint("w", i)) })...)},
			},
			second: []sent{
				{1, chunk(shipmentTypes, many(20, 40, func(i int) rec { return ins(i%17, fmt.Sprint("w", i)) })...)},
				{0, chunk(orderTypes, del(1, 1), del(2, 2), ins(nil, 5))},
			}},
		{name: "semi join", op: func(t *testing.T) runtime.Operator { return newSemiJoin(t, true) }, keys: [][]int{{0}, {0}},
			first: []sent{
				{0, chunk(semiLeftTypes, many(0, 30, func(i int) rec { return ins(i%13, fmt.Sprint(i)) })...)},
				{1, chunk(semiRightTypes, many(0, 10, func(i int) rec { return ins(i % 7) })...)},
			},
			second: []sent{{1, chunk(semiRightTypes, del(1), del(1), ins(9), ins(12))}}},
		{name: "interval join", op: func(t *testing.T) runtime.Operator { return newIntervalJoin(t, FullJoin) }, keys: [][]int{{0}, {0}},
			first:  []sent{timed(0, 0, 30), timed(1, 5, 25)},
			second: []sent{timed(0, 30, 60), timed(1, 25, 70)}, wm: ts("2023-08-23 13:00:00")},
		{name: "window join", op: func(t *testing.T) runtime.Operator { return newWindowJoin(t, FullJoin) }, keys: [][]int{{0, 1, 2}, {0, 1, 2}},
			first:  []sent{wjRows(0, 0, 40), wjRows(1, 0, 30)},
			second: []sent{wjRows(0, 40, 80), wjRows(1, 30, 80)}, wm: ms(19)},
		{name: "temporal join", op: func(t *testing.T) runtime.Operator { return newTemporalJoin(t, LeftJoin) }, keys: [][]int{{0}, {0}},
			first: []sent{
				{1, chunk(tjRateTypes, many(0, 20, func(i int) rec { return ins(key(i), i, ms(int64(i*10))) })...)},
				{0, chunk(tjOrderTypes, many(0, 30, func(i int) rec { return ins(key(i), i, ms(int64(i*7))) })...)},
			},
			second: []sent{
				{1, chunk(tjRateTypes, many(20, 40, func(i int) rec { return ins(key(i), i, ms(int64(i*10))) })...)},
				{0, chunk(tjOrderTypes, many(30, 60, func(i int) rec { return ins(key(i), i, ms(int64(i*7))) })...)},
			}, wm: ms(100)},
	}
	// Restored state must hold what a run without a restore still has
	// to output, timers included: the same cases with nothing after the
	// restore but the end of input.
	for _, c := range slices.Clone(cases) {
		if c.wm != 0 {
			c.name += ", only the end after the restore"
			c.second = nil
			cases = append(cases, c)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := runStraight(t, c)
			if len(want) == 0 {
				t.Fatal("the case outputs nothing")
			}
			for _, p := range [][2]int{{1, 1}, {2, 3}, {2, 1}, {3, 2}} {
				if got := runRescaled(t, c, p[0], p[1]); !slices.Equal(got, want) {
					t.Errorf("parallelism %d then %d:\n  %s\nwant:\n  %s", p[0], p[1], strings.Join(got, "\n  "), strings.Join(want, "\n  "))
				}
			}
		})
	}
}

// TestWindowKeysKeepTheirOrderAcrossRestores: the keys of a window fire in
// order of their first arrival, also after a restore, where the keys
// gathered from several instances interleave by their position.
func TestWindowKeysKeepTheirOrderAcrossRestores(t *testing.T) {
	w := Window{Kind: Tumble, Size: us(time.Hour)}
	rows := func(names ...string) *types.Chunk {
		var recs []rec
		for i, n := range names {
			recs = append(recs, ins(n, 1.0, ts("2023-07-09 00:00:00")+int64(i)*us(time.Minute)))
		}
		return chunk(ratingTypes, recs...)
	}
	a, r := newRatingsAgg(t, w), &recorder{}
	feed(t, a, r, rows("c", "a", "d", "b", "a"))
	b := newRatingsAgg(t, w)
	moveState(t, a, b)
	feed(t, b, r, rows("e", "b"))
	got := finish(t, b, r)
	var order []string
	for _, l := range got[:len(got)-1] {
		order = append(order, l[3:4])
	}
	if want := []string{"c", "a", "d", "b", "e"}; !slices.Equal(order, want) {
		t.Fatalf("keys fired in order %v, want %v", order, want)
	}
}
