package sluice_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/testenv"
)

// TestDataDirOwnerOnly: a data directory, even one made wider before, and
// everything Sluice writes in it (catalog, job store, checkpoints,
// savepoints) is readable by its owner only: directories 0700, files 0600.
func TestDataDirOwnerOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cat, err := sluice.OpenCatalog(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	jobs := sluice.NewJobManager()
	if err := jobs.SetDataDir(dir); err != nil {
		t.Fatal(err)
	}
	defer jobs.Close()
	s := sluice.NewSession(cat, jobs)
	res, err := s.Execute(ctx, `
SET 'execution.checkpointing.interval' = '20 ms';
CREATE TABLE g (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100');
CREATE TABLE bh (a BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO bh SELECT a FROM g;`)
	if err != nil {
		t.Fatal(err)
	}
	job := res[len(res)-1].JobID
	for { // until a checkpoint is complete (any: older ones are pruned)
		if done, _ := filepath.Glob(filepath.Join(dir, "checkpoints", job, "chk-*", "_metadata")); len(done) > 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("no checkpoint was taken")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := s.Execute(ctx, "STOP JOB '"+job+"' WITH SAVEPOINT"); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, rel := range testenv.OwnerOnly(t, dir) {
		seen[strings.SplitN(rel, "/", 2)[0]] = true
	}
	for _, want := range []string{"catalog.json", "jobs", "checkpoints", "savepoints"} {
		if !seen[want] {
			t.Errorf("the data directory has no %s: %v", want, seen)
		}
	}
}
