package runtime

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// chunkSource emits n chunks of 10 rows and the watermark wm, then ends.
type chunkSource struct {
	n  int
	wm int64
}

func (s chunkSource) Run(ctx *SourceContext, out Emitter) error {
	for range s.n {
		out.Emit(exchangeChunk(10, 3))
	}
	out.EmitWatermark(s.wm)
	return nil
}

// gateSink blocks on its first chunk until release is closed, telling
// blocked when it starts waiting.
type gateSink struct {
	forwardOp
	blocked, release chan struct{}
	waited           bool
}

func (g *gateSink) ProcessChunk(int, *types.Chunk, Emitter) error {
	if !g.waited {
		g.waited = true
		close(g.blocked)
		<-g.release
	}
	return nil
}

// TestVertexMetrics: with chaining disabled every stage is a vertex of
// its own (pipeline.operator-chaining.enabled = false): records in and
// out per stage, the watermark, busy time of an operator that works and
// backpressure of the source it holds up (its inbox of 64 fills while it
// waits).
func TestVertexMetrics(t *testing.T) {
	const chunks = 200
	sink := &gateSink{blocked: make(chan struct{}), release: make(chan struct{})}
	g := &Graph{Stages: []*Stage{
		{Name: "source", ID: "src", Parallelism: 1, NewSource: func(int) (Source, error) { return chunkSource{chunks, 1000}, nil }},
		{Name: "forward", Parallelism: 1, Inputs: []Input{{Stage: 0, Exchange: Forward}},
			NewOperator: func(int) (Operator, error) { return forwardOp{}, nil }},
		{Name: "sink", Parallelism: 1, Inputs: []Input{{Stage: 1, Exchange: Forward}},
			NewOperator: func(int) (Operator, error) { return sink, nil }},
	}, DisableChaining: true}
	j, err := Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Cancel()
	<-sink.blocked
	// The forward operator's inbox and the sink's hold 64 messages each,
	// one is in the sink, one in the forward operator, which waits to
	// send one more, and so does the source: both are held up.
	for j.inflight.Load() < 64+64+4 {
		select {
		case <-j.Done():
			t.Fatal("the job ended while its sink was blocked")
		default:
			time.Sleep(time.Millisecond)
		}
	}
	held := time.Now()
	for time.Since(held) < 20*time.Millisecond { // time to measure
		time.Sleep(time.Millisecond)
	}
	close(sink.release)
	<-j.Done()
	if err := j.Err(); err != nil {
		t.Fatal(err)
	}
	vs := j.Vertices()
	if len(vs) != 3 {
		t.Fatalf("%d vertices, want 3", len(vs))
	}
	src, fwd, snk := vs[0].Instances[0], vs[1].Instances[0], vs[2].Instances[0]
	if vs[0].ID != "src" || !vs[0].Source || vs[1].ID != "forward" || len(vs[2].Inputs) != 1 || vs[2].Inputs[0].Stage != 1 {
		t.Errorf("vertices = %+v", vs)
	}
	for n, name := range []string{"source", "forward", "sink"} {
		if vs[n].Name != name || len(vs[n].Operators) != 1 || vs[n].Operators[0].Name != name {
			t.Errorf("vertex %d: %q with operators %+v, want %s alone", n, vs[n].Name, vs[n].Operators, name)
		}
	}
	if src.RecordsOut != chunks*10 || fwd.RecordsIn != chunks*10 || fwd.RecordsOut != chunks*10 || snk.RecordsIn != chunks*10 {
		t.Errorf("records: source out %d, forward in %d out %d, sink in %d; want %d each", src.RecordsOut, fwd.RecordsIn, fwd.RecordsOut, snk.RecordsIn, chunks*10)
	}
	if src.Watermark != MaxWatermark || fwd.Watermark != MaxWatermark {
		t.Errorf("watermarks %d, %d: want the end's", src.Watermark, fwd.Watermark)
	}
	if src.Backpressured < 20*time.Millisecond {
		t.Errorf("source backpressured %s, want at least 20ms", src.Backpressured)
	}
	if snk.Busy < 20*time.Millisecond {
		t.Errorf("sink busy %s, want at least the 20ms it held its chunk", snk.Busy)
	}
	if fwd.Backpressured < 20*time.Millisecond || fwd.Busy < 0 || fwd.Busy > fwd.Backpressured {
		t.Errorf("forward operator busy %s, backpressured %s: it mostly waited on the sink", fwd.Busy, fwd.Backpressured)
	}
	if !src.Ended || !snk.Ended {
		t.Errorf("instances not ended: %+v", vs)
	}
}

// TestCheckpointStats: completed checkpoints and a savepoint are counted
// with their sizes, the newest first; a restored attempt sharing the
// statistics records where it started.
func TestCheckpointStats(t *testing.T) {
	store := newStorage(t)
	gate := make(chan struct{})
	stats := &CheckpointStats{}
	sources := []*countingSource{{next: 0, end: 1000, gate: gate}}
	j, err := Start(context.Background(), countingGraph(1000, sources, make([]*summer, 1), &CheckpointConfig{Storage: store, Job: "j", Retained: 5, Stats: stats}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	gate <- struct{}{}
	first, err := j.Checkpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	gate <- struct{}{}
	sp, err := j.Savepoint(ctx, newStorage(t), false)
	if err != nil {
		t.Fatal(err)
	}
	j.Cancel()
	<-j.Done()
	sum := j.Checkpoints()
	if sum.Total != 2 || sum.Completed != 2 || sum.Failed != 0 || sum.InProgress != 0 || len(sum.History) != 2 {
		t.Fatalf("summary = %+v", sum)
	}
	if h := sum.History[0]; h.ID != sp || !h.Savepoint || h.Status != CheckpointCompleted || h.Size == 0 || h.Ended.Before(h.Triggered) {
		t.Errorf("newest = %+v, want the completed savepoint %d", h, sp)
	}
	if sum.LatestCompleted == nil || sum.LatestCompleted.ID != first || sum.LatestSavepoint == nil || sum.LatestSavepoint.ID != sp {
		t.Errorf("latest = %+v, %+v", sum.LatestCompleted, sum.LatestSavepoint)
	}
	// The source's part holds its position: the summer's too.
	if sum.LatestCompleted.Size < 2 {
		t.Errorf("checkpoint size %d", sum.LatestCompleted.Size)
	}

	j, err = Start(context.Background(), countingGraph(1000, []*countingSource{{next: 3, end: 1000, gate: gate}}, make([]*summer, 1),
		&CheckpointConfig{Storage: store, Job: "j", Retained: 5, Stats: stats, RestoredFrom: first, IgnoreUnclaimed: true}))
	if err != nil {
		t.Fatal(err)
	}
	j.Cancel()
	<-j.Done()
	if sum := stats.Summary(); sum.Restored != first || sum.Restores != 1 || sum.Total != 2 {
		t.Errorf("after a restore: %+v", sum)
	}
}

// rowCounter is a stateful operator whose state entries are the rows it
// received.
type rowCounter struct {
	forwardOp
	rows int
}

func (r *rowCounter) ProcessChunk(_ int, c *types.Chunk, _ Emitter) error {
	r.rows += c.Len()
	return nil
}

func (r *rowCounter) State() state.Backend { return rowCountBackend{r: r} }

// rowCountBackend tells the rows of its counter as its entries.
type rowCountBackend struct {
	state.Backend
	r *rowCounter
}

func (b rowCountBackend) Len() int { return b.r.rows }

func (rowCountBackend) Release() error { return nil }

func (rowCountBackend) Close() error { return nil }

// holdingSource emits n chunks of 10 rows, then waits for the end of the
// job.
type holdingSource struct{ n int }

func (s holdingSource) Run(ctx *SourceContext, out Emitter) error {
	for range s.n {
		out.Emit(exchangeChunk(10, 3))
	}
	<-ctx.Ctx.Done()
	return nil
}

// TestStateEntriesNotStale: state entries are counted at most every
// stateCountInterval, yet a count skipped for that is made once the
// interval has passed, even when no message follows.
func TestStateEntriesNotStale(t *testing.T) {
	g := &Graph{Stages: []*Stage{
		{Name: "source", Parallelism: 1, NewSource: func(int) (Source, error) { return holdingSource{5}, nil }},
		{Name: "count", Parallelism: 1, Inputs: []Input{{Stage: 0, Exchange: Forward}},
			NewOperator: func(int) (Operator, error) { return &rowCounter{}, nil }},
	}}
	j, err := Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Cancel()
	deadline := time.Now().Add(time.Minute)
	for {
		m := j.Vertices()[1].Instances[0]
		if !m.Stateful {
			t.Fatal("the counting operator is not stateful")
		}
		if m.StateEntries == 50 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("state entries %d, want 50", m.StateEntries)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitingSource emits n chunks of 10 rows, then waits for input
// (SourceContext.Waiting) until arrived is closed, then emits the
// watermark wm and ends. It reads the clock itself: ran is how long Run
// took, emitting how long it took to emit the chunks, and the wait
// took at least waitedIn (from after Waiting to before Working) and at
// most waitedOut (from before Waiting to after Working).
type waitingSource struct {
	n       int
	wm      int64
	arrived chan struct{}

	ran, emitting, waitedIn, waitedOut time.Duration
}

func (s *waitingSource) Run(ctx *SourceContext, out Emitter) error {
	start := time.Now()
	for range s.n {
		out.Emit(exchangeChunk(10, 3))
	}
	s.emitting = time.Since(start)
	outer := time.Now()
	ctx.Waiting()
	inner := time.Now()
	<-s.arrived
	s.waitedIn = time.Since(inner)
	ctx.Working()
	s.waitedOut = time.Since(outer)
	out.EmitWatermark(s.wm)
	s.ran = time.Since(start)
	return nil
}

// fullSink is a sink that closes full once it has been given n rows.
type fullSink struct {
	wmRecorder
	n    int
	full chan struct{}
}

func (r *fullSink) ProcessChunk(_ int, c *types.Chunk, _ Emitter) error {
	if r.n -= c.Len(); r.n == 0 {
		close(r.full)
	}
	return nil
}

// TestChainedVertexMetrics: a vertex is a chain, as Flink's job vertex.
// A source chains a Calc that chains two outputs, one sent on to a
// second vertex by a single exchange: the vertices are named as Flink
// names chains, count the rows that come into the chain and those that
// leave it once, and time the chain as one task; each operator keeps
// its own records in and out (B, which sends nothing on, emits none).
// The source's chain is timed as Flink times a FLIP-27 source's task:
// busy while it emits, idle while the source waits for input (here,
// until its rows have come through the other vertex), and its times add
// up to the time the source ran.
func TestChainedVertexMetrics(t *testing.T) {
	const chunks = 200
	rows := int64(chunks * 10)
	fwd := func(int) (Operator, error) { return forwardOp{}, nil }
	tail := &fullSink{n: int(rows), full: make(chan struct{})}
	source := &waitingSource{n: chunks, wm: 1000, arrived: tail.full}
	g := &Graph{Stages: []*Stage{
		{Name: "Source: s", ID: "src", Parallelism: 1, NewSource: func(int) (Source, error) { return source, nil }},
		{Name: "Calc", ID: "calc", Parallelism: 1, Inputs: []Input{{Stage: 0, Exchange: Forward}}, NewOperator: fwd},
		{Name: "A", ID: "a", Parallelism: 1, Inputs: []Input{{Stage: 1, Exchange: Forward}}, NewOperator: fwd},
		{Name: "B", ID: "b", Parallelism: 1, Inputs: []Input{{Stage: 1, Exchange: Forward}}, NewOperator: fwd},
		// Two exchanges out of the chain from A: its rows leave the
		// chain once.
		{Name: "Sink: x", ID: "x", Parallelism: 1, Inputs: []Input{{Stage: 2, Exchange: Single}}, NewOperator: fwd},
		// Sinks of their own kind: they emit no watermark, y heading a
		// vertex, Tail chained.
		{Name: "Sink: y", ID: "y", Parallelism: 1, Inputs: []Input{{Stage: 2, Exchange: Single}},
			NewOperator: func(int) (Operator, error) { return &wmRecorder{}, nil }},
		{Name: "Tail", ID: "tail", Parallelism: 1, Inputs: []Input{{Stage: 4, Exchange: Forward}},
			NewOperator: func(int) (Operator, error) { return tail, nil }},
	}}
	began := time.Now()
	j, err := Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	<-j.Done()
	wall := time.Since(began)
	if err := j.Err(); err != nil {
		t.Fatal(err)
	}
	vs := j.Vertices()
	var names []string
	for _, v := range vs {
		names = append(names, v.Name)
	}
	want := []string{"Source: s -> Calc -> (A, B)", "Sink: x -> Tail", "Sink: y"}
	if !slices.Equal(names, want) {
		t.Fatalf("vertices %q, want %q", names, want)
	}
	if vs[0].ID != "src" || vs[1].ID != "x" || len(vs[1].Inputs) != 1 || vs[1].Inputs[0].Stage != 0 || vs[2].Inputs[0].Stage != 0 {
		t.Errorf("vertex IDs and inputs: %+v", vs)
	}
	src, sink, other := vs[0].Instances[0], vs[1].Instances[0], vs[2].Instances[0]
	if src.RecordsIn != 0 || src.RecordsOut != rows || sink.RecordsIn != rows || sink.RecordsOut != 0 || other.RecordsIn != rows {
		t.Errorf("records: source chain in %d out %d, sink chain in %d out %d, other sink in %d; want 0, %d, %d, 0, %d",
			src.RecordsIn, src.RecordsOut, sink.RecordsIn, sink.RecordsOut, other.RecordsIn, rows, rows, rows)
	}
	if sink.Busy <= 0 || sink.Idle < 0 {
		t.Errorf("times: sink chain busy %s idle %s", sink.Busy, sink.Idle)
	}
	// The source chain's clock readings bracket the source's own: its
	// idle time is its one wait, its busy and backpressured time cover
	// its emitting, and the three add up to no less than the source ran
	// and no more than the job.
	total := src.Busy + src.Idle + src.Backpressured
	if src.Busy <= 0 || src.Backpressured < 0 || src.Idle < source.waitedIn || src.Idle > source.waitedOut ||
		src.Busy+src.Backpressured < source.emitting || total < source.ran || total > wall {
		t.Errorf("source chain busy %s idle %s backpressured %s (total %s): the source emitted for %s, waited %s to %s, ran %s, the job %s",
			src.Busy, src.Idle, src.Backpressured, total, source.emitting, source.waitedIn, source.waitedOut, source.ran, wall)
	}
	// The sink chains' watermark is the one their sink was given.
	if src.Watermark != MaxWatermark || sink.Watermark != MaxWatermark || other.Watermark != MaxWatermark || !src.Ended || !sink.Ended {
		t.Errorf("watermarks %d, %d, %d (want the end's), ended %v, %v", src.Watermark, sink.Watermark, other.Watermark, src.Ended, sink.Ended)
	}
	var ops []string
	for _, op := range vs[0].Operators {
		m := op.Instances[0]
		ops = append(ops, fmt.Sprintf("%s %s %d/%d", op.ID, op.Name, m.RecordsIn, m.RecordsOut))
	}
	wantOps := []string{"src Source: s 0/2000", "calc Calc 2000/2000", "a A 2000/2000", "b B 2000/0"}
	if !slices.Equal(ops, wantOps) {
		t.Errorf("operators %q, want %q", ops, wantOps)
	}
}
