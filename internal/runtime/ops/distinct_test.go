package ops

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// TestValueSetMatchesMap: random inserts and removals of keys (short and
// long, so that removals leave the keys' bytes to compact) leave a set
// holding the keys a map holds, each with its counts, and no other.
func TestValueSetMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	h := newKeyHash()
	var s valueSet
	s.init(2)
	want := map[string]int64{}
	keyOf := func(n int) []byte {
		if n%3 == 0 {
			return fmt.Appendf(nil, "%d-%0200d", n, n) // long keys fill the garbage
		}
		return fmt.Appendf(nil, "%d", n)
	}
	for step := range 200_000 {
		n := rng.IntN(3000)
		if step > 100_000 {
			n = rng.IntN(300) // fewer keys: the set shrinks
		}
		k := keyOf(n)
		var at setKey
		h.of(&at, k)
		slot, found := s.find(&at)
		if found != (want[string(k)] != 0) {
			t.Fatalf("step %d: key %d found %v, want %v", step, n, found, !found)
		}
		if !found {
			e, err := s.insert(&at, slot)
			if err != nil {
				t.Fatal(err)
			}
			s.countsOf(e)[1] = int64(n) + 1
			want[string(k)] = int64(n) + 1
			continue
		}
		if got := s.countsOf(s.entryAt(slot))[1]; got != want[string(k)] {
			t.Fatalf("step %d: key %d has count %d, want %d", step, n, got, want[string(k)])
		}
		s.remove(slot, &h)
		delete(want, string(k))
	}
	if s.len() != len(want) {
		t.Fatalf("%d entries, want %d", s.len(), len(want))
	}
	live := 0
	for k, c := range want {
		var at setKey
		h.of(&at, []byte(k))
		slot, found := s.find(&at)
		var buf [16]byte
		if !found || s.countsOf(s.entryAt(slot))[1] != c || string(s.keyOf(s.entryAt(slot), &buf)) != k {
			t.Fatalf("key %q lost", k)
		}
		if len(k) > inlineMax {
			live += len(k)
		}
	}
	if len(s.keys) > 2*live+4096 {
		t.Fatalf("%d bytes of keys for %d live ones", len(s.keys), live)
	}
}

// TestDistinctSetsOfGoneGroups: a group whose rows are all retracted, or
// that expires, gives its set of distinct values back, and the key starts
// afresh with an empty one; a group reusing the set counts only its own
// values.
func TestDistinctSetsOfGoneGroups(t *testing.T) {
	a, _ := fn.LookupAggregate("COUNT")
	typ, newAcc, err := a.Bind([]fn.Arg{{Type: types.BigIntType}}, true)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGroupAggregate(GroupAggregateConfig{InputTypes: kvTypes, Keys: []int{0},
		Aggs: []AggSpec{{New: newAcc, Args: []int{1}, Filter: -1, Type: typ}}, GenerateUpdateBefore: true, StateTTL: time.Minute}, state.NewMemory())
	if err != nil || g.groups.flat == nil || len(g.groups.flat.views) != 1 {
		t.Fatalf("no distinct view: %v", err)
	}
	clock := runtime.NewManualClock(time.Unix(1000, 0))
	if err := g.Open(&runtime.Context{ProcessingTime: runtime.NewProcessingTimeService(clock, nil)}); err != nil {
		t.Fatal(err)
	}
	v := g.groups.flat.views[0]
	r := &recorder{}
	expect(t, feed(t, g, r, chunk(kvTypes, ins("a", 1), ins("b", 1), ins("b", 2))), "+I[a, 1]", "+I[b, 1]", "-U[b, 1]", "+U[b, 2]")
	expect(t, feed(t, g, r, chunk(kvTypes, del("a", 1))), "-D[a, 1]")
	if len(v.free) != 1 {
		t.Fatalf("%d sets given back after a group emptied, want 1", len(v.free))
	}
	expect(t, feed(t, g, r, chunk(kvTypes, ins("c", 7))), "+I[c, 1]")
	clock.Advance(time.Minute) // b and c idle for the minute
	expect(t, feed(t, g, r, chunk(kvTypes, ins("b", 2))), "+I[b, 1]")
	expect(t, feed(t, g, r, chunk(kvTypes, ins("c", 7), ins("c", 8))), "+I[c, 1]", "-U[c, 1]", "+U[c, 2]")
	if len(v.sets)-len(v.free) != 2 {
		t.Fatalf("%d sets in use for 2 groups", len(v.sets)-len(v.free))
	}
}
