package datagen

import (
	"context"
	"encoding/binary"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/checkpoint"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// ids collects the first column of what it receives.
type ids struct {
	mu  sync.Mutex
	got []int64
}

func (c *ids) Open(*runtime.Context) error { return nil }
func (c *ids) ProcessChunk(_ int, ch *types.Chunk, _ runtime.Emitter) error {
	c.mu.Lock()
	c.got = append(c.got, ch.Cols[0].I64...)
	c.mu.Unlock()
	return nil
}
func (c *ids) ProcessWatermark(int64, runtime.Emitter) error { return nil }
func (c *ids) Finish(runtime.Emitter) error                  { return nil }

func sequenceJob(t *testing.T, cfg *runtime.CheckpointConfig) (*runtime.Job, *ids) {
	t.Helper()
	tbl := table([]catalog.Column{col("id", types.BigIntType)},
		"rows-per-second", "50000", "fields.id.kind", "sequence", "fields.id.start", "1", "fields.id.end", "5000")
	src, err := factory{}.NewSource(tbl, connector.SourceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	out := &ids{}
	j, err := runtime.Start(context.Background(), &runtime.Graph{Checkpoints: cfg, Stages: []*runtime.Stage{
		{Name: "gen", ID: "gen", Parallelism: 1, NewSource: func(i int) (runtime.Source, error) { return src.NewInstance(i, 1) }},
		{Name: "ids", Parallelism: 1, Inputs: []runtime.Input{{Stage: 0, Exchange: runtime.Single}},
			NewOperator: func(int) (runtime.Operator, error) { return out, nil }},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return j, out
}

// TestSequenceResumesFromCheckpoint: a sequence restored from a checkpoint
// goes on after the rows it had produced at the checkpoint, wherever the
// checkpoint fell.
func TestSequenceResumesFromCheckpoint(t *testing.T) {
	store, err := checkpoint.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	j, _ := sequenceJob(t, &runtime.CheckpointConfig{Storage: store, Job: "gen"})
	id, err := j.Checkpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	j.Cancel()
	<-j.Done()
	meta, state, err := checkpoint.Latest(ctx, store, "gen")
	if err != nil {
		t.Fatal(err)
	}
	var emitted int64
	own, err := runtime.PartState(state["gen-0"])
	if err != nil {
		t.Fatal(err)
	}
	if len(own) > 0 {
		emitted, _ = binary.Varint(own)
	} else if slices.Equal(meta.Finished, []string{"gen-0"}) {
		emitted = 5000 // the source had ended before the checkpoint
	} else {
		t.Fatalf("checkpoint %d has neither the source's state nor its end: %+v", id, meta)
	}

	j, out := sequenceJob(t, &runtime.CheckpointConfig{Storage: store, Job: "gen", Restore: state, RestoredFrom: id, Finished: meta.Finished})
	<-j.Done()
	if err := j.Err(); err != nil {
		t.Fatal(err)
	}
	var want []int64
	for v := emitted + 1; v <= 5000; v++ {
		want = append(want, v)
	}
	if !slices.Equal(out.got, want) {
		t.Fatalf("restored after %d rows: got %d rows from %v, want %d from %d", emitted, len(out.got), out.got[:min(3, len(out.got))], len(want), emitted+1)
	}
}
