package runtime

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// wmSource emits one watermark, or goes idle when its watermark is
// MinWatermark, then blocks until the job stops.
type wmSource struct{ wm int64 }

func (s wmSource) Run(ctx *SourceContext, out Emitter) error {
	if s.wm == MinWatermark {
		ctx.MarkIdle()
	} else {
		out.EmitWatermark(s.wm)
	}
	<-ctx.Ctx.Done()
	return nil
}

// forwardOp passes watermarks on.
type forwardOp struct{}

func (forwardOp) Open(*Context) error                                 { return nil }
func (forwardOp) ProcessChunk(_ int, c *types.Chunk, o Emitter) error { o.Emit(c); return nil }
func (forwardOp) ProcessWatermark(wm int64, o Emitter) error          { o.EmitWatermark(wm); return nil }
func (forwardOp) Finish(Emitter) error                                { return nil }

// wmRecorder records the merged watermarks it sees.
type wmRecorder struct {
	forwardOp
	mu  sync.Mutex
	wms []int64
}

func (r *wmRecorder) ProcessWatermark(wm int64, _ Emitter) error {
	r.mu.Lock()
	r.wms = append(r.wms, wm)
	r.mu.Unlock()
	return nil
}

func (r *wmRecorder) last() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.wms) == 0 {
		return MinWatermark
	}
	return r.wms[len(r.wms)-1]
}

// TestWatermarksThroughForwardAndHash: each instance behind a forward
// exchange hears only its own upstream instance, so an idle instance next
// to an active one must not hold the watermark back after a hash exchange.
func TestWatermarksThroughForwardAndHash(t *testing.T) {
	wms := []int64{MinWatermark, 500, MinWatermark, 700}
	rec := &wmRecorder{}
	g := &Graph{Stages: []*Stage{
		{Name: "source", Parallelism: 4, NewSource: func(i int) (Source, error) { return wmSource{wms[i]}, nil }},
		{Name: "forward", Parallelism: 4, Inputs: []Input{{Stage: 0, Exchange: Forward}},
			NewOperator: func(int) (Operator, error) { return forwardOp{}, nil }},
		{Name: "keyed", Parallelism: 2, Inputs: []Input{{Stage: 1, Exchange: Hash, Keys: []int{0}}},
			NewOperator: func(int) (Operator, error) { return forwardOp{}, nil }},
		{Name: "sink", Parallelism: 1, Inputs: []Input{{Stage: 2, Exchange: Single}},
			NewOperator: func(int) (Operator, error) { return rec, nil }},
	}}
	j, err := Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Cancel()
	deadline := time.Now().Add(5 * time.Second)
	for rec.last() != 500 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := rec.last(); got != 500 {
		t.Fatalf("merged watermark = %d, want 500 (the minimum of the active sources)", got)
	}
}
