package runtime

import (
	"fmt"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// Key groups, as in Flink: a key's hash picks one of MaxParallelism key
// groups, and each instance of a keyed stage owns a contiguous range of
// them. The hash has no per-job seed, so a key lands in the same group in
// every run and process; state kept per key group can be restored at
// another parallelism. The hash (KeyHash: xxHash64 of the key's state
// encoding) is part of that contract and must not change.
const (
	// DefaultMaxParallelism is Flink's default pipeline.max-parallelism.
	DefaultMaxParallelism = 128
	// UpperBoundMaxParallelism is the largest max parallelism Flink allows
	// (KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM).
	UpperBoundMaxParallelism = 1 << 15
)

// KeyGroupRange is the key groups Start through End, both included.
type KeyGroupRange = state.KeyGroupRange

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

// KeyHash is the hash of an encoded key (state.AppendKey and
// state.AppendChunkKey give the encoding): the same bytes a keyed
// operator's state is stored under, so a key's group can be found from its
// state as well as from its row.
func KeyHash(key []byte) uint64 { return state.KeyHash(key) }

// keyHasher hashes the key columns of rows, reusing its buffer.
type keyHasher struct{ buf []byte }

// hash returns the KeyHash of the key columns keys of row i of c.
func (h *keyHasher) hash(c *types.Chunk, keys []int, i int) uint64 {
	h.buf = state.AppendChunkKey(h.buf[:0], c, i, keys)
	return KeyHash(h.buf)
}
