package ops

import (
	"testing"

	"github.com/sluicesql/sluice/internal/state"
)

func TestChangelogNormalize(t *testing.T) {
	for _, gub := range []bool{true, false} {
		n, err := NewChangelogNormalize(ChangelogNormalizeConfig{InputTypes: kvTypes, Keys: []int{0}, GenerateUpdateBefore: gub}, state.NewMemory())
		if err != nil {
			t.Fatal(err)
		}
		r := &recorder{}
		got := feed(t, n, r, chunk(kvTypes,
			ins("a", 1),
			ins("a", 1), // same row: nothing
			ua("a", 2),
			del("x", nil), // unknown key: ignored
			del("a", nil), // tombstone: -D with the full previous row
			ins("a", 3),
			ub("a", 3), // -U removes the key like -D
			ua("b", 4),
		))
		if gub {
			expect(t, got, "+I[a, 1]", "-U[a, 1]", "+U[a, 2]", "-D[a, 2]", "+I[a, 3]", "-D[a, 3]", "+I[b, 4]")
		} else {
			expect(t, got, "+I[a, 1]", "+U[a, 2]", "-D[a, 2]", "+I[a, 3]", "-D[a, 3]", "+I[b, 4]")
		}
		if n.State().Len() != 1 {
			t.Fatalf("state has %d keys, want 1", n.State().Len())
		}
		m, _ := NewChangelogNormalize(ChangelogNormalizeConfig{InputTypes: kvTypes, Keys: []int{0}, GenerateUpdateBefore: gub}, state.NewMemory())
		moveState(t, n, m)
		if gub {
			expect(t, feed(t, m, r, chunk(kvTypes, ins("b", 5))), "-U[b, 4]", "+U[b, 5]")
		}
	}
}
