package runtime

import (
	"fmt"
	"math"

	"github.com/cespare/xxhash/v2"

	"github.com/sluicesql/sluice/internal/types"
)

// Key groups, as in Flink: a key's hash picks one of MaxParallelism key
// groups, and each instance of a keyed stage owns a contiguous range of
// them. The hash has no per-job seed, so a key lands in the same group in
// every run and process; state kept per key group can be restored at
// another parallelism. The hash (xxHash64 of the key's encoding below) is
// part of that contract and must not change.
const (
	// DefaultMaxParallelism is Flink's default pipeline.max-parallelism.
	DefaultMaxParallelism = 128
	// UpperBoundMaxParallelism is the largest max parallelism Flink allows
	// (KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM).
	UpperBoundMaxParallelism = 1 << 15
)

// KeyGroupRange is the key groups Start through End, both included.
type KeyGroupRange struct{ Start, End int }

// Contains reports whether group g is in the range.
func (r KeyGroupRange) Contains(g int) bool { return g >= r.Start && g <= r.End }

// KeyGroupFor returns the key group of a key hash.
func KeyGroupFor(hash uint64, maxParallelism int) int {
	return int(hash % uint64(maxParallelism))
}

// InstanceForKeyGroup returns the instance, of parallelism p, that owns key
// group g (Flink's computeOperatorIndexForKeyGroup).
func InstanceForKeyGroup(g, maxParallelism, p int) int {
	return g * p / maxParallelism
}

// KeyGroupsOf returns the key groups instance i of p owns (Flink's
// computeKeyGroupRangeForOperatorIndex).
func KeyGroupsOf(i, p, maxParallelism int) KeyGroupRange {
	return KeyGroupRange{
		Start: (i*maxParallelism + p - 1) / p,
		End:   ((i+1)*maxParallelism - 1) / p,
	}
}

// CheckMaxParallelism validates a max parallelism against the parallelism
// of a job's stages, with Flink's bounds.
func CheckMaxParallelism(maxParallelism, parallelism int) error {
	if maxParallelism < 1 || maxParallelism > UpperBoundMaxParallelism {
		return fmt.Errorf("the maximum parallelism must be between 1 and %d, not %d", UpperBoundMaxParallelism, maxParallelism)
	}
	if parallelism > maxParallelism {
		return fmt.Errorf("the parallelism (%d) is larger than the maximum parallelism (%d): raise 'pipeline.max-parallelism' or lower 'parallelism.default'", parallelism, maxParallelism)
	}
	return nil
}

// keyHasher hashes the key columns of a row deterministically: equal keys
// hash equally in every run (no seed).
type keyHasher struct {
	d   xxhash.Digest
	buf [9]byte
}

// hash returns the hash of the key columns keys of row i of c.
func (h *keyHasher) hash(c *types.Chunk, keys []int, i int) uint64 {
	h.d.Reset()
	for _, k := range keys {
		h.writeValue(c.Cols[k], i)
	}
	return h.d.Sum64()
}

// writeValue writes one value: a null flag, then the value (strings end
// with 0xff so that ("a", "b") and ("ab", "") differ).
func (h *keyHasher) writeValue(v *types.Vector, i int) {
	if v.Nulls[i] {
		_, _ = h.d.Write(h.buf[:1]) // buf[0] is 0 after each use
		return
	}
	switch v.Type.Physical() {
	case types.PhysString:
		h.buf[0] = 1
		_, _ = h.d.Write(h.buf[:1])
		_, _ = h.d.WriteString(v.Str[i])
		h.buf[0] = 0xff
		_, _ = h.d.Write(h.buf[:1])
		h.buf[0] = 0
		return
	case types.PhysFloat:
		f := v.F64[i]
		if f == 0 {
			f = 0 // -0.0 and 0.0 hash alike
		}
		h.put(math.Float64bits(f))
	default:
		h.put(uint64(v.I64[i]))
	}
}

// put writes the non-null flag and x in little-endian order.
func (h *keyHasher) put(x uint64) {
	h.buf[0] = 1
	for k := range 8 {
		h.buf[1+k] = byte(x >> (8 * k))
	}
	_, _ = h.d.Write(h.buf[:])
	h.buf[0] = 0
}
