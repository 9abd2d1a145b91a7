package ops

import (
	"testing"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

var (
	semiLeftTypes  = []types.Type{types.IntType, types.StringType}
	semiRightTypes = []types.Type{types.IntType}
)

func newSemiJoin(t *testing.T, anti bool) *SemiJoin {
	t.Helper()
	j, err := NewSemiJoin(SemiJoinConfig{LeftTypes: semiLeftTypes, RightTypes: semiRightTypes, LeftKeys: []int{0}, RightKeys: []int{0}, Anti: anti}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// TestSemiJoin: x IN (subquery) emits a left row once its key has a match,
// and retracts it when the last match goes; NULL keys never match.
func TestSemiJoin(t *testing.T) {
	j, r := newSemiJoin(t, false), &recorder{}
	expect(t, feedInput(t, j, r, 0, chunk(semiLeftTypes, ins(1, "a"), ins(2, "b"), ins(nil, "n"))))
	expect(t, feedInput(t, j, r, 1, chunk(semiRightTypes, ins(1), ins(1), ins(nil))), "+I[1, a]")
	expect(t, feedInput(t, j, r, 0, chunk(semiLeftTypes, ins(1, "c"))), "+I[1, c]")
	expect(t, feedInput(t, j, r, 1, chunk(semiRightTypes, del(1))))
	expect(t, feedInput(t, j, r, 1, chunk(semiRightTypes, del(1))), "-D[1, a]", "-D[1, c]")
}

// TestAntiJoin: x NOT IN (subquery) emits left rows without a match and
// retracts them when one arrives.
func TestAntiJoin(t *testing.T) {
	j, r := newSemiJoin(t, true), &recorder{}
	expect(t, feedInput(t, j, r, 0, chunk(semiLeftTypes, ins(1, "a"), ins(2, "b"))), "+I[1, a]", "+I[2, b]")
	expect(t, feedInput(t, j, r, 1, chunk(semiRightTypes, ins(2))), "-D[2, b]")
	expect(t, feedInput(t, j, r, 0, chunk(semiLeftTypes, ins(2, "c"), del(1, "a"))), "-D[1, a]")
	expect(t, feedInput(t, j, r, 1, chunk(semiRightTypes, del(2))), "+I[2, b]", "+I[2, c]")
}

// TestNullAwareAntiJoin: NOT IN is never TRUE while the subquery has a
// NULL: unmatched left rows are retracted when the first NULL arrives and
// emitted again when the last one goes.
func TestNullAwareAntiJoin(t *testing.T) {
	j, err := NewSemiJoin(SemiJoinConfig{LeftTypes: semiLeftTypes, RightTypes: semiRightTypes, LeftKeys: []int{0}, RightKeys: []int{0}, Anti: true, NullAware: true}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feedInput(t, j, r, 1, chunk(semiRightTypes, ins(2))))
	expect(t, feedInput(t, j, r, 0, chunk(semiLeftTypes, ins(1, "a"), ins(2, "b"))), "+I[1, a]")
	expect(t, feedInput(t, j, r, 1, chunk(semiRightTypes, ins(nil))), "-D[1, a]")
	expect(t, feedInput(t, j, r, 0, chunk(semiLeftTypes, ins(3, "c"))))
	expectSet(t, feedInput(t, j, r, 1, chunk(semiRightTypes, del(nil))), "+I[1, a]", "+I[3, c]")
}

// TestAntiJoinKeepingNullKeys: for NOT EXISTS a left row with a NULL key
// matches nothing and so passes.
func TestAntiJoinKeepingNullKeys(t *testing.T) {
	j, err := NewSemiJoin(SemiJoinConfig{LeftTypes: semiLeftTypes, RightTypes: semiRightTypes, LeftKeys: []int{0}, RightKeys: []int{0}, Anti: true, KeepNullKeys: true}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feedInput(t, j, r, 1, chunk(semiRightTypes, ins(nil))))
	expect(t, feedInput(t, j, r, 0, chunk(semiLeftTypes, ins(nil, "n"), ins(1, "a"))), "+I[NULL, n]", "+I[1, a]")
}

// TestNullSafeSemiJoin: INTERSECT's comparison, where NULL equals NULL.
func TestNullSafeSemiJoin(t *testing.T) {
	j, err := NewSemiJoin(SemiJoinConfig{LeftTypes: semiLeftTypes, RightTypes: semiRightTypes, LeftKeys: []int{0}, RightKeys: []int{0}, NullSafe: true}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feedInput(t, j, r, 0, chunk(semiLeftTypes, ins(nil, "n"), ins(1, "a"))))
	expect(t, feedInput(t, j, r, 1, chunk(semiRightTypes, ins(nil))), "+I[NULL, n]")
}

// TestSemiJoinCondition: with a condition beyond the keys (EXISTS
// correlated by `r.k = l.k AND r.v > l.n`), a left row passes while some
// right row of its key meets it: it is emitted at its first match and
// retracted at the loss of its last; the anti join does the opposite.
func TestSemiJoinCondition(t *testing.T) {
	left := []types.Type{types.IntType, types.IntType}
	right := []types.Type{types.IntType, types.IntType}
	cond := func(row types.Row) (bool, error) { return !row[1].Null && !row[3].Null && row[3].I > row[1].I, nil }
	for _, anti := range []bool{false, true} {
		j, err := NewSemiJoin(SemiJoinConfig{LeftTypes: left, RightTypes: right, LeftKeys: []int{0}, RightKeys: []int{0}, Anti: anti, Cond: cond}, state.NewMemory())
		if err != nil {
			t.Fatal(err)
		}
		r := &recorder{}
		if !anti {
			expect(t, feedInput(t, j, r, 0, chunk(left, ins(1, 10), ins(1, 30), ins(1, 10))))
			expect(t, feedInput(t, j, r, 1, chunk(right, ins(1, 20))), "+I[1, 10]", "+I[1, 10]")
			expect(t, feedInput(t, j, r, 1, chunk(right, ins(1, 25), ins(2, 99))))
			expect(t, feedInput(t, j, r, 0, chunk(left, ins(1, 21), del(1, 10))), "+I[1, 21]", "-D[1, 10]")
			expect(t, feedInput(t, j, r, 1, chunk(right, del(1, 25))), "-D[1, 21]")
			expect(t, feedInput(t, j, r, 1, chunk(right, del(1, 20))), "-D[1, 10]")
			continue
		}
		expect(t, feedInput(t, j, r, 0, chunk(left, ins(1, 10), ins(1, 30))), "+I[1, 10]", "+I[1, 30]")
		expect(t, feedInput(t, j, r, 1, chunk(right, ins(1, 20))), "-D[1, 10]")
		expect(t, feedInput(t, j, r, 1, chunk(right, del(1, 20))), "+I[1, 10]")
	}
}
