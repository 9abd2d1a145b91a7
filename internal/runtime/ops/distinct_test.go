package ops

import (
	"fmt"
	"math/rand/v2"
	"testing"
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
