package runtime

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// leasedChunk takes a lease from p and fills its chunk, reused or new,
// with n rows (BIGINT from, from+1, ...).
func leasedChunk(p *ChunkPool, from, n int) *Lease { return fill(p.Get(), from, n) }

// fill fills the chunk of l, reused or new, with n rows (BIGINT from,
// from+1, ...).
func fill(l *Lease, from, n int) *Lease {
	if l.Chunk == nil {
		l.Chunk = types.NewChunk([]types.Type{types.BigIntType}, n)
	}
	c := l.Chunk
	c.Ops = c.Ops[:0]
	c.Cols[0].Reset()
	for i := range n {
		c.Ops = append(c.Ops, types.Insert)
		c.Cols[0].AppendInt(int64(from + i))
	}
	return l
}

// TestLeaseThroughExchanges: a lease goes with its chunk to its one
// consumer; a hash exchange that splits the chunk copies it and hands it
// back at once; a chunk going to two consumers, or to none, is not
// handed to anyone with its lease.
func TestLeaseThroughExchanges(t *testing.T) {
	p := NewChunkPool(4)
	e, inboxes := hashEmitter(4, DefaultMaxParallelism, []int{0})

	// Split over the instances: the rows are copied, the lease released.
	l := leasedChunk(p, 0, 100)
	e.EmitLease(l.Chunk, l)
	if len(p.free) != 1 {
		t.Fatalf("after a split, %d chunks back in the pool, want 1", len(p.free))
	}
	n := 0
	for _, ch := range inboxes {
		for len(ch) > 0 {
			env := <-ch
			if env.lease != nil || env.chunk == l.Chunk {
				t.Fatal("a part of a split chunk arrived with the chunk or its lease")
			}
			n += env.chunk.Len()
		}
	}
	if n != 100 {
		t.Fatalf("%d rows arrived, want 100", n)
	}

	// Every row to one instance: the chunk goes on with its lease.
	l = leasedChunk(p, 0, 1)
	e.EmitLease(l.Chunk, l)
	var got []envelope
	for _, ch := range inboxes {
		for len(ch) > 0 {
			got = append(got, <-ch)
		}
	}
	if len(got) != 1 || got[0].chunk != l.Chunk || got[0].lease != l || len(p.free) != 0 {
		t.Fatalf("a chunk for one instance arrived as %d messages, or its lease was released", len(got))
	}

	// Two consumers: neither gets the lease.
	in1, in2 := make(chan envelope, 1), make(chan envelope, 1)
	two := newEmitter(&Job{ctx: context.Background()}, []*edge{{exchange: Forward, inboxes: []chan envelope{in1}}, {exchange: Forward, inboxes: []chan envelope{in2}}}, 0)
	l2 := leasedChunk(p, 0, 3)
	two.EmitLease(l2.Chunk, l2)
	if a, b := <-in1, <-in2; a.lease != nil || b.lease != nil || a.chunk != l2.Chunk || b.chunk != l2.Chunk {
		t.Fatal("a chunk for two consumers went with its lease")
	}

	// No rows: the lease comes back at once.
	got[0].lease.Release()
	l3 := leasedChunk(p, 0, 0)
	e.EmitLease(l3.Chunk, l3)
	if len(p.free) != 1 || <-p.free != l3 {
		t.Fatalf("%d chunks in the pool, want the empty one", len(p.free))
	}
}

// TestLeaseReleasedTwice: a second release of a lease panics rather than
// put one chunk in the pool twice, where two producers' chunks would be
// one.
func TestLeaseReleasedTwice(t *testing.T) {
	l := leasedChunk(NewChunkPool(2), 0, 1)
	l.Release()
	defer func() {
		if recover() == nil {
			t.Fatal("releasing a lease twice did not panic")
		}
	}()
	l.Release()
}

// TestChunkPoolTrims: a pool lets go of one of the chunks that stayed free
// for a round of Gets, round by round, down to what the producer needed.
func TestChunkPoolTrims(t *testing.T) {
	p := NewChunkPool(8)
	ls := make([]*Lease, 8)
	for i := range ls {
		ls[i] = leasedChunk(p, 0, 1)
	}
	for _, l := range ls {
		l.Release()
	}
	if len(p.free) != 8 {
		t.Fatalf("%d chunks in the pool, want 8", len(p.free))
	}
	// The round of the first Gets, which found none free, ends; in the
	// next, seven chunks are never needed, and one goes.
	for range 2*poolRound - len(ls) {
		leasedChunk(p, 0, 1).Release()
	}
	if len(p.free) != 7 {
		t.Fatalf("after a round needing one chunk at a time, %d in the pool, want 7", len(p.free))
	}
	// Six rounds more, and the one chunk needed is left, for good.
	for range 10 * poolRound {
		leasedChunk(p, 0, 1).Release()
	}
	if len(p.free) != 1 {
		t.Fatalf("after rounds needing one chunk at a time, %d in the pool, want 1", len(p.free))
	}
}

// leaseSource emits chunks of consecutive numbers leased from its pool.
type leaseSource struct {
	pool   *ChunkPool
	chunks int
	// fresh counts the chunks made new rather than reused.
	fresh int
}

const leaseRows = 10

func (s *leaseSource) Run(_ *SourceContext, out Emitter) error {
	for k := range s.chunks {
		l := s.pool.Get()
		if l.Chunk == nil {
			s.fresh++
		}
		EmitLeased(out, fill(l, k*leaseRows, leaseRows))
	}
	return nil
}

// sharer passes each input on as a new chunk sharing its columns, with
// the input's lease, as a Calc keeping every row does.
type sharer struct{ forwardOp }

func (sharer) ProcessLeased(_ int, c *types.Chunk, l *Lease, out Emitter) error {
	EmitShared(out, &types.Chunk{Ops: c.Ops, Cols: c.Cols}, l)
	return nil
}

// numberSink checks that it gets the numbers 0, 1, ... in order, and
// keeps its chunks unless it takes their leases.
type numberSink struct {
	forwardOp
	mu   sync.Mutex
	next int64
	kept []*types.Chunk
	err  error
}

func (s *numberSink) ProcessChunk(_ int, c *types.Chunk, _ Emitter) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kept = append(s.kept, c)
	return s.check(c)
}

func (s *numberSink) check(c *types.Chunk) error {
	for _, v := range c.Cols[0].I64 {
		if v != s.next {
			return fmt.Errorf("got %d, want %d", v, s.next)
		}
		s.next++
	}
	return nil
}

// leaseSink is a numberSink that takes leases and releases them.
type leaseSink struct{ numberSink }

func (s *leaseSink) ProcessLeased(_ int, c *types.Chunk, l *Lease, _ Emitter) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.check(c)
	l.Release()
	return err
}

// TestLeasedChunksThroughAJob: chunks a source reuses reach the sink
// intact: a sink that takes leases hands each back, through an operator
// passing the lease on with an output sharing the chunk's columns; a
// sink that does not take them keeps chunks never reused.
func TestLeasedChunksThroughAJob(t *testing.T) {
	const chunks = 50 // fewer than poolRound: nothing is trimmed
	for _, takes := range []bool{true, false} {
		t.Run(fmt.Sprintf("sink takes leases %v", takes), func(t *testing.T) {
			src := &leaseSource{pool: NewChunkPool(chunks), chunks: chunks}
			var sink Operator = &numberSink{}
			check := func() *numberSink { return sink.(*numberSink) }
			if takes {
				ls := &leaseSink{}
				sink, check = ls, func() *numberSink { return &ls.numberSink }
			}
			g := &Graph{Stages: []*Stage{
				{Name: "source", Parallelism: 1, NewSource: func(int) (Source, error) { return src, nil }},
				{Name: "share", Parallelism: 1, Inputs: []Input{{Stage: 0, Exchange: Forward}},
					NewOperator: func(int) (Operator, error) { return sharer{}, nil }},
				{Name: "sink", Parallelism: 1, Inputs: []Input{{Stage: 1, Exchange: Forward}},
					NewOperator: func(int) (Operator, error) { return sink, nil }},
			}}
			runToEnd(t, g)
			s := check()
			if s.err != nil || s.next != chunks*leaseRows {
				t.Fatalf("the sink saw %d numbers in order (%v), want %d", s.next, s.err, chunks*leaseRows)
			}
			if !takes {
				// Nothing came back, so nothing the sink keeps was reused.
				s.next = 0
				for _, c := range s.kept {
					if err := s.check(c); err != nil {
						t.Fatalf("a kept chunk changed: %v", err)
					}
				}
				if len(src.pool.free) != 0 {
					t.Fatalf("%d chunks came back from a sink that keeps them", len(src.pool.free))
				}
				return
			}
			// Every chunk made came back: the pool holds them all.
			back := map[*types.Chunk]bool{}
			for len(src.pool.free) > 0 {
				back[(<-src.pool.free).Chunk] = true
			}
			if len(back) != src.fresh {
				t.Fatalf("%d chunks came back of the %d made", len(back), src.fresh)
			}
		})
	}
}

// TestLeaseHold: a lease holding another releases it with itself, each
// to its own pool.
func TestLeaseHold(t *testing.T) {
	in, own := NewChunkPool(2), NewChunkPool(2)
	a := leasedChunk(in, 0, 3)
	b := own.Get()
	b.View = &types.Chunk{Ops: a.Chunk.Ops, Cols: a.Chunk.Cols}
	b.Hold(a)
	b.Release()
	if len(in.free) != 1 || len(own.free) != 1 {
		t.Fatalf("after releasing the holder, %d and %d chunks back, want 1 and 1", len(in.free), len(own.free))
	}
	// Taken again, the holder holds nothing any more.
	if b2 := own.Get(); b2 != b || b2.held != nil {
		t.Fatal("a lease taken again still holds the lease it held")
	}
}

// TestPoisonReleased: with poisoning, a chunk released shows it to whoever
// still reads it; without, it keeps its rows.
func TestPoisonReleased(t *testing.T) {
	for _, on := range []bool{false, true} {
		PoisonReleased(on)
		l := leasedChunk(NewChunkPool(1), 7, 3)
		c := l.Chunk
		l.Release()
		poisoned := c.Ops[0] == poisonKind && c.Cols[0].I64[0] == poisonInt && !c.Cols[0].Nulls[0]
		if poisoned != on {
			t.Errorf("poisoning %v: the released chunk's first row is %v %v", on, c.Ops[0], c.Cols[0].I64[0])
		}
	}
	PoisonReleased(false)
}

// releaseEarly releases its input's lease and then passes the chunk on:
// the fault poisoning is there to catch.
type releaseEarly struct{ forwardOp }

func (releaseEarly) ProcessLeased(_ int, c *types.Chunk, l *Lease, out Emitter) error {
	l.Release()
	out.Emit(c)
	return nil
}

// noteSink is a numberSink that notes the first wrong number rather than
// failing the job.
type noteSink struct{ numberSink }

func (s *noteSink) ProcessChunk(_ int, c *types.Chunk, _ Emitter) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = s.check(c)
	}
	return nil
}

// TestPoisonCatchesUseAfterRelease: an operator reading a chunk after
// handing it back sees it poisoned, so the numbers the sink checks are
// wrong from the first chunk on.
func TestPoisonCatchesUseAfterRelease(t *testing.T) {
	PoisonReleased(true)
	defer PoisonReleased(false)
	src := &leaseSource{pool: NewChunkPool(4), chunks: 3}
	sink := &noteSink{}
	g := &Graph{Stages: []*Stage{
		{Name: "source", Parallelism: 1, NewSource: func(int) (Source, error) { return src, nil }},
		{Name: "early", Parallelism: 1, Inputs: []Input{{Stage: 0, Exchange: Forward}},
			NewOperator: func(int) (Operator, error) { return releaseEarly{}, nil }},
		{Name: "sink", Parallelism: 1, Inputs: []Input{{Stage: 1, Exchange: Forward}},
			NewOperator: func(int) (Operator, error) { return sink, nil }},
	}}
	runToEnd(t, g)
	if sink.err == nil || sink.next != 0 {
		t.Fatalf("the sink read %d numbers in order from released chunks (%v)", sink.next, sink.err)
	}
}
