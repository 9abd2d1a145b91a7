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
// output chunk that shares the input's storage (EmitShared), or holds it
// with a lease of its own (Hold) whose chunk shares the input's storage.
// Every other consumer drops it. A lease is released at most once; a
// dropped lease only costs the reuse.
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

// poolRound is how many Gets a pool looks back on to drop a chunk none of
// them needed.
const poolRound = 64

// PooledChunks is the most chunks handed back a producer's pool keeps for
// reuse, as a rule: a producer that runs ahead of its consumers has up to
// an inbox of them (64) in flight, and two when a consumer passes them on
// (an output sharing their storage waits in the next inbox).
const PooledChunks = 128

// NewChunkPool returns a pool that keeps up to n chunks handed back.
func NewChunkPool(n int) *ChunkPool { return &ChunkPool{free: make(chan *Lease, n), spare: n} }

// Lease is a producer's chunk on its way: whoever holds the lease may
// read the chunk, and releases it once nothing of it is used any more.
type Lease struct {
	// Chunk is the leased chunk: nil in a new lease, whose holder sets
	// it; a chunk handed back keeps its columns' storage for reuse.
	Chunk *types.Chunk
	// View is the producer's too, kept with the lease for reuse: a chunk
	// it emits instead of Chunk, sharing Chunk's storage (and a held
	// lease's, see Hold), such as one with only some of Chunk's columns.
	// Nil until the producer sets it; never poisoned, since it owns no
	// storage.
	View *types.Chunk
	// held is the lease of the storage the emitted chunk shares, released
	// with this one.
	held *Lease
	pool *ChunkPool
	// out is set while the lease is taken from its pool.
	out atomic.Bool
}

// Hold makes l keep h (nil for none), the lease of a chunk whose storage
// the chunk l's holder emits shares, until l is released: h is released
// with it.
func (l *Lease) Hold(h *Lease) { l.held = h }

// Get returns a lease of a chunk handed back, whose holder empties and
// refills it, or a new lease with no chunk when none is free.
func (p *ChunkPool) Get() *Lease {
	p.spare = min(p.spare, len(p.free))
	if p.gets++; p.gets == poolRound {
		// When chunks stayed free through a round (but the one taken
		// now), one is left to the garbage collector: a pool shrinks,
		// round by round, to what its consumers' pace needs, not the
		// most a burst did, while the bursts that recur every few rounds
		// (a consumer's goroutine waiting for a core) find their chunks.
		if p.spare > 1 {
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

// Empty returns the lease's chunk emptied for refilling, or, in a new
// lease, sets a new chunk of columns of types ts with room for n rows.
func (l *Lease) Empty(ts []types.Type, n int) *types.Chunk {
	c := l.Chunk
	if c == nil {
		l.Chunk = types.NewChunk(ts, n)
		return l.Chunk
	}
	c.Ops = c.Ops[:0]
	for _, v := range c.Cols {
		v.Reset()
	}
	return c
}

// ViewChunk sets the lease's View to the whole of its Chunk (the same row
// kinds and columns, in a list of columns of its own) and returns it: a
// chunk its holder may drop columns of, as a source completing its
// computed columns does, while Chunk keeps them for the next time.
func (l *Lease) ViewChunk() *types.Chunk {
	if l.View == nil {
		l.View = &types.Chunk{}
	}
	l.View.Ops, l.View.Cols = l.Chunk.Ops, append(l.View.Cols[:0], l.Chunk.Cols...)
	return l.View
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
	held := l.held
	l.held = nil
	if poison.Load() {
		poisonChunk(l.Chunk)
	}
	select {
	case l.pool.free <- l:
	default: // the pool is full: the chunk is left to the garbage collector
	}
	held.Release()
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

// AppendSelected appends rows sel of src to dst, a vector of the same
// storage class.
func AppendSelected(dst, src *types.Vector, sel []int) {
	for _, i := range sel {
		dst.Nulls = append(dst.Nulls, src.Nulls[i])
	}
	switch dst.Type.Physical() {
	case types.PhysFloat:
		for _, i := range sel {
			dst.F64 = append(dst.F64, src.F64[i])
		}
	case types.PhysString:
		for _, i := range sel {
			dst.Str = append(dst.Str, src.Str[i])
		}
	default:
		for _, i := range sel {
			dst.I64 = append(dst.I64, src.I64[i])
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
