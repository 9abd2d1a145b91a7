package runtime

import (
	"math"
	"testing"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// TestKeyGroupRanges: for every parallelism up to the max parallelism, the
// instances' ranges are contiguous, cover every key group once, and the
// instance InstanceForKeyGroup names owns the group (Flink's
// KeyGroupRangeAssignment formulas).
func TestKeyGroupRanges(t *testing.T) {
	for _, maxP := range []int{1, 7, DefaultMaxParallelism, 1000} {
		for p := 1; p <= maxP && p <= 300; p++ {
			next := 0
			for i := range p {
				r := KeyGroupsOf(i, p, maxP)
				if r.Start != next || r.End < r.Start {
					t.Fatalf("max %d, p %d: instance %d owns %+v after group %d", maxP, p, i, r, next-1)
				}
				for g := r.Start; g <= r.End; g++ {
					if o := InstanceForKeyGroup(g, maxP, p); o != i {
						t.Fatalf("max %d, p %d: group %d in instance %d's range, assigned to %d", maxP, p, g, i, o)
					}
				}
				next = r.End + 1
			}
			if next != maxP {
				t.Fatalf("max %d, p %d: ranges end at %d", maxP, p, next-1)
			}
		}
	}
}

// TestKeyHashIsStable: the key hash has no seed, so these values hold in
// every run and process; state stored per key group depends on them.
func TestKeyHashIsStable(t *testing.T) {
	c := types.NewChunk([]types.Type{types.StringType, types.BigIntType, types.DoubleType}, 3)
	c.Cols[0].AppendString("Aliens")
	c.Cols[1].AppendInt(42)
	c.Cols[2].AppendFloat(math.Copysign(0, -1))
	c.Cols[0].AppendNull()
	c.Cols[1].AppendInt(-1)
	c.Cols[2].AppendFloat(0.0)
	c.Ops = append(c.Ops, types.Insert, types.Insert)
	var h keyHasher
	all := []int{0, 1, 2}
	first, second := h.hash(c, all, 0), h.hash(c, all, 1)
	if again := h.hash(c, all, 0); again != first {
		t.Fatalf("hash changed between calls: %x, %x", first, again)
	}
	const wantFirst, wantSecond = 0x686e10c6786241d2, 0xc286b175bb2ac5a2
	if first != wantFirst || second != wantSecond {
		t.Fatalf("hashes %#x, %#x; want %#x, %#x", first, second, uint64(wantFirst), uint64(wantSecond))
	}
	if a, b := h.hash(c, []int{2}, 0), h.hash(c, []int{2}, 1); a != b {
		t.Fatalf("-0.0 and 0.0 hash to %x and %x", a, b)
	}
	// A key's state is stored under the same encoding, so its key group
	// can be found from the state too.
	if k := state.AppendKey(nil, c.Types(), c.Row(0)); KeyHash(k) != first {
		t.Fatalf("the hash of the stored key %x differs from the row's", KeyHash(k))
	}
}

func TestCheckMaxParallelism(t *testing.T) {
	for _, c := range []struct {
		maxP, p int
		want    string
	}{
		{128, 128, ""},
		{128, 129, "the parallelism (129) is larger than the maximum parallelism (128): raise 'pipeline.max-parallelism' or lower 'parallelism.default'"},
		{0, 1, "the maximum parallelism must be between 1 and 32768, not 0"},
		{1 << 15, 1, ""},
		{1<<15 + 1, 1, "the maximum parallelism must be between 1 and 32768, not 32769"},
	} {
		err := CheckMaxParallelism(c.maxP, c.p)
		if got := ""; err != nil {
			got = err.Error()
			if got != c.want {
				t.Errorf("(%d, %d): %q, want %q", c.maxP, c.p, got, c.want)
			}
		} else if c.want != "" {
			t.Errorf("(%d, %d): no error, want %q", c.maxP, c.p, c.want)
		}
	}
}
