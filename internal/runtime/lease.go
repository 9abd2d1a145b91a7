package runtime

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/sluicesql/sluice/internal/types"
)

// Chunk leases let an operator instance reuse the chunks it emits once
// every consumer is done with them, instead of leaving each to the
// garbage collector.
//
// The producer takes a Lease from a ChunkPool of its own, fills the
// lease's chunk (a new one, or one handed back, to be emptied and filled
// again) and emits it with EmitLeased. The runtime passes the lease along
// the exchange with the chunk: a forward or single exchange, and a hash
// exchange sending the whole chunk to one instance, hand it to the
// consumer; a hash exchange that splits the chunk copies its rows and
// releases it at once; an output going to more than one consumer drops
// the lease (the chunk is then left to the garbage collector). A
// consumer that takes leases (LeaseTaker) releases a chunk's lease when
// nothing of the chunk is in use any more, or passes it on with an
// output chunk that shares the input's storage (EmitShared). Every other
// consumer drops it. A lease is released at most once; a dropped lease
// only costs the reuse.
//
// Leases never cross a process: an exchange that sends chunks elsewhere
// encodes them and releases their leases on its side.

// ChunkPool holds the chunks of one producer that consumers handed back:
// up to its size, and no more than the producer needed lately. The
// producer's goroutine gets leases; any goroutine releases them.
type ChunkPool struct {
	free chan *Lease
	// gets counts the Gets of the current round of poolRound, spare is
	// the fewest leases free at any of them.
	gets, spare int
}

// poolRound is how many Gets a pool looks back on to drop the chunks
// none of them needed.
const poolRound = 64

// NewChunkPool returns a pool that keeps up to n chunks handed back.
func NewChunkPool(n int) *ChunkPool { return &ChunkPool{free: make(chan *Lease, n), spare: n} }

// Lease is a producer's chunk on its way: whoever holds the lease may
// read the chunk, and releases it once nothing of it is used any more.
type Lease struct {
	// Chunk is the leased chunk: nil in a new lease, whose holder sets
	// it; a chunk handed back keeps its columns' storage for reuse.
	Chunk *types.Chunk
	pool  *ChunkPool
	// out is set while the lease is taken from its pool.
	out atomic.Bool
}

// Get returns a lease of a chunk handed back, whose holder empties and
// refills it, or a new lease with no chunk when none is free.
func (p *ChunkPool) Get() *Lease {
	p.spare = min(p.spare, len(p.free))
	if p.gets++; p.gets == poolRound {
		// Chunks that stayed free through a round (but the one taken
		// now) are left to the garbage collector, so that a pool holds
		// what its consumers' pace needs, not the most a burst did.
		for range p.spare - 1 {
			select {
			case <-p.free:
			default:
			}
		}
		p.gets, p.spare = 0, cap(p.free)
	}
	select {
	case l := <-p.free:
		l.out.Store(true)
		return l
	default:
		l := &Lease{pool: p}
		l.out.Store(true)
		return l
	}
}

// Release hands the leased chunk back to its pool (nothing if l is nil):
// neither the chunk nor any slice of its columns may be used afterwards.
// Releasing a lease twice is a fault of the program.
func (l *Lease) Release() {
	if l == nil {
		return
	}
	if !l.out.CompareAndSwap(true, false) {
		panic(fmt.Sprintf("runtime: a lease of a chunk of %d rows released twice", l.Chunk.Len()))
	}
	if poison.Load() {
		poisonChunk(l.Chunk)
	}
	select {
	case l.pool.free <- l:
	default: // the pool is full: the chunk is left to the garbage collector
	}
}

// poison is set by PoisonReleased.
var poison atomic.Bool

// PoisonReleased sets whether releasing a lease overwrites its chunk's
// rows, so that a chunk read after its release shows it (rows of an
// invalid kind, NULL flags cleared, values no operator makes) and the
// race detector sees the writes against any read still running. For
// tests; it costs a pass over every released chunk.
func PoisonReleased(on bool) { poison.Store(on) }

// Poisoned values of released chunks.
const (
	poisonKind types.RowKind = 0xEE
	poisonInt  int64         = -0x5EA1_DEAD_BEEF_0001
	poisonStr                = "\x00released chunk"
)

func poisonChunk(c *types.Chunk) {
	if c == nil {
		return
	}
	for i := range c.Ops {
		c.Ops[i] = poisonKind
	}
	for _, v := range c.Cols {
		if v == nil {
			continue
		}
		clear(v.Nulls)
		for i := range v.I64 {
			v.I64[i] = poisonInt
		}
		for i := range v.F64 {
			v.F64[i] = math.NaN()
		}
		for i := range v.Str {
			v.Str[i] = poisonStr
		}
	}
}

// LeaseEmitter is an Emitter that passes chunks on with their leases.
type LeaseEmitter interface {
	Emitter
	// EmitLease sends c downstream, as Emit, with the lease l of the
	// chunk c shares its storage with (l.Chunk or an input chunk whose
	// columns c shares); the lease passes to c's consumers.
	EmitLease(c *types.Chunk, l *Lease)
}

// LeaseTaker is an Operator that takes the leases of its input chunks:
// the runtime hands it each chunk with ProcessLeased instead of
// ProcessChunk. The operator releases the lease (l may be nil, a chunk
// with no lease) once it holds nothing of the chunk, or passes it on
// with EmitShared.
type LeaseTaker interface {
	ProcessLeased(input int, c *types.Chunk, l *Lease, out Emitter) error
}

// EmitLeased emits the chunk of l to out with its lease. If out does not
// take leases, the chunk is emitted alone and the lease dropped.
func EmitLeased(out Emitter, l *Lease) { EmitShared(out, l.Chunk, l) }

// EmitShared emits c, which shares storage with the chunk of lease l
// (nil for none), to out: the lease passes with c. If out does not take
// leases, c is emitted alone and the lease dropped, since c's consumer
// may keep it.
func EmitShared(out Emitter, c *types.Chunk, l *Lease) {
	if le, ok := out.(LeaseEmitter); ok && l != nil {
		le.EmitLease(c, l)
		return
	}
	out.Emit(c)
}
