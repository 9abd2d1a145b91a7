package sluice

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/checkpoint"
)

// TestIncrementalCheckpointsOnPebble: a job on the on-disk backend works
// in DATA/work/JOB; its incremental checkpoints refer to shared files in
// the checkpoint storage, which holds exactly those the retained
// checkpoint refers to, and which a recovery reads back: rows written
// while no engine ran count once, on top of the restored counts. The
// working area is removed when the job stops.
func TestIncrementalCheckpointsOnPebble(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	dir := t.TempDir()
	ctx := testContext(t)

	e1 := NewEngine()
	if err := e1.SetDataDir(dir); err != nil {
		t.Fatal(err)
	}
	res := mustExecute(t, e1, `
SET 'state.backend.type' = 'rocksdb';
SET 'execution.checkpointing.incremental' = 'true';
SET 'execution.checkpointing.interval' = '20 ms';`+countsDDL(brokers, "earliest-offset")+`
INSERT INTO clicks VALUES ('a'), ('b'), ('a');
INSERT INTO counts SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id;`)
	job := res[len(res)-1].JobID
	store, err := checkpoint.NewDir(filepath.Join(dir, "checkpoints"))
	if err != nil {
		t.Fatal(err)
	}
	// awaitCheckpoint waits until a checkpoint after the latest now is
	// complete.
	awaitCheckpoint := func() {
		t.Helper()
		before, _ := store.Checkpoints(ctx, job)
		for {
			ids, err := store.Checkpoints(ctx, job)
			if err != nil {
				t.Fatal(err)
			}
			if len(ids) > 0 && (len(before) == 0 || ids[len(ids)-1] > before[len(before)-1]) {
				return
			}
			if ctx.Err() != nil {
				t.Fatal("no checkpoint completed")
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	if err := e1.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	awaitCheckpoint()
	// More rows, so that later checkpoints hold files the first did not.
	mustExecute(t, e1, "INSERT INTO clicks VALUES ('b'), ('d');")
	if err := e1.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	awaitCheckpoint()
	work, err := os.ReadDir(filepath.Join(dir, "work", job))
	if err != nil || len(work) == 0 {
		t.Fatalf("the job's working area holds %v (%v), want the aggregation's state", work, err)
	}
	for _, d := range []string{"work", filepath.Join("work", job), filepath.Join("work", job, work[0].Name())} {
		if st, err := os.Stat(filepath.Join(dir, d)); err != nil || st.Mode().Perm() != 0o700 {
			t.Fatalf("%s: %v (%v), want a directory of its owner only", d, st.Mode(), err)
		}
	}
	e1.Close() // takes a last checkpoint
	if _, err := os.Stat(filepath.Join(dir, "work", job)); !os.IsNotExist(err) {
		t.Fatalf("the working area is still there after the job stopped: %v", err)
	}
	meta, _, err := checkpoint.Latest(ctx, store, job)
	if err != nil {
		t.Fatal(err)
	}
	shared, err := store.Shared(ctx, job)
	if err != nil || len(meta.Shared) == 0 || !slices.Equal(shared, slices.Sorted(maps.Keys(meta.Shared))) {
		t.Fatalf("checkpoint %d refers to the shared files %v, the storage holds %v (%v)", meta.ID, slices.Sorted(maps.Keys(meta.Shared)), shared, err)
	}
	if meta.ID < 2 {
		t.Fatalf("checkpoint %d is the latest: the job took one checkpoint only", meta.ID)
	}

	e0 := newEngine(t)
	mustExecute(t, e0, countsDDL(brokers, "earliest-offset")+"INSERT INTO clicks VALUES ('a'), ('c');")
	if err := e0.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	e2 := newEngine(t)
	if err := e2.SetDataDir(dir); err != nil {
		t.Fatal(err)
	}
	if jobs, err := e2.Recover(context.Background()); err != nil || len(jobs) != 1 {
		t.Fatalf("recovered %v: %v", jobs, err)
	}
	if err := e2.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := latestCounts(t, brokers), map[string]int64{"a": 3, "b": 2, "c": 1, "d": 1}; !maps.Equal(got, want) {
		t.Fatalf("counts after the recovery: %v, want %v", got, want)
	}
}
