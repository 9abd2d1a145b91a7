package runtime

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// gatedSource emits one row when its gate opens, then ends. It is no
// Quiescer, like a generator.
type gatedSource struct{ gate chan struct{} }

func (s gatedSource) Run(ctx *SourceContext, out Emitter) error {
	select {
	case <-s.gate:
	case <-ctx.Ctx.Done():
		return nil
	}
	c := types.NewChunk([]types.Type{{Kind: types.BigInt}}, 1)
	c.Cols[0].AppendInt(1)
	c.Ops = append(c.Ops, types.Insert)
	out.Emit(c)
	return nil
}

// countingSink counts rows and records whether its input ended.
type countingSink struct {
	forwardOp
	rows  atomic.Int64
	ended atomic.Bool
}

func (s *countingSink) ProcessChunk(_ int, c *types.Chunk, _ Emitter) error {
	s.rows.Add(int64(c.Len()))
	return nil
}

func (s *countingSink) Finish(Emitter) error { s.ended.Store(true); return nil }

// TestQuietWaitsForRunningSources: a running source that is no Quiescer may
// still emit, so its job is not quiet, and once it has ended the job is
// quiet only with the end delivered (the sink finished). Before, such a
// source counted as caught up and a harness could read the result before
// its rows arrived.
func TestQuietWaitsForRunningSources(t *testing.T) {
	gate := make(chan struct{})
	sink := &countingSink{}
	g := &Graph{Stages: []*Stage{
		{Name: "source", Parallelism: 2, NewSource: func(int) (Source, error) { return gatedSource{gate}, nil }},
		{Name: "sink", Parallelism: 1, Inputs: []Input{{Stage: 0, Exchange: Single}},
			NewOperator: func(int) (Operator, error) { return sink, nil }},
	}}
	j, err := Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Cancel()
	if q, err := j.Quiet(context.Background()); err != nil || q {
		t.Fatalf("Quiet = %v, %v while the sources run; want false", q, err)
	}
	before := j.Progress()
	close(gate)
	<-j.Done()
	if q, err := j.Quiet(context.Background()); err != nil || !q {
		t.Fatalf("Quiet = %v, %v after the job finished; want true", q, err)
	}
	if got := sink.rows.Load(); got != 2 || !sink.ended.Load() {
		t.Fatalf("sink saw %d rows, ended %v; want 2 rows and the end", got, sink.ended.Load())
	}
	// Two rows, two watermarks and two ends were sent.
	if got := j.Progress() - before; got != 6 {
		t.Fatalf("progress advanced by %d, want 6 messages", got)
	}
}
