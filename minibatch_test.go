package sluice

import (
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// miniBatchSettings turn mini-batches on with a batch far longer than a
// test: a batch ends only at a checkpoint's barrier or a watermark.
const miniBatchSettings = `
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 d';
SET 'table.exec.mini-batch.size' = '1000000';
`

// waitRowsIn waits until the instances of the job's operator whose name
// starts with prefix have taken in n rows.
func waitRowsIn(t *testing.T, j *Job, prefix string, n int64) {
	t.Helper()
	ctx := testContext(t)
	for {
		var got int64
		for _, v := range j.Vertices() {
			for _, op := range v.Operators {
				if strings.HasPrefix(op.Name, prefix) {
					for _, im := range op.Instances {
						got += im.RecordsIn
					}
				}
			}
		}
		if got >= n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s took in %d rows, want %d", prefix, got, n)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestMiniBatchEndsAtSavepointAndRestores: a batch in progress ends at a
// checkpoint's barrier, as Flink's mini-batch operators finish their
// bundle in prepareSnapshotPreBarrier: stopping the job with a savepoint
// while the local aggregation holds rows writes their counts, once per
// key (one change per key and batch), and a job restored from the
// savepoint goes on from those counts without the rows again.
func TestMiniBatchEndsAtSavepointAndRestores(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	dir := t.TempDir()
	const insert = "INSERT INTO counts SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id;"

	e1 := newEngine(t)
	mustExecute(t, e1, countsDDL(brokers, "earliest-offset")+miniBatchSettings+
		"SET 'state.savepoints.dir' = '"+dir+"';\nINSERT INTO clicks VALUES ('a'), ('b'), ('a');")
	job := mustExecute(t, e1, insert)[0].JobID
	j1 := e1.Jobs()[len(e1.Jobs())-1]
	waitRowsIn(t, j1, "LocalGroupAggregate", 3)
	if n := len(readTopic(t, brokers, "counts")); n != 0 {
		t.Fatalf("%d counts written while the batch lasts", n)
	}
	mustExecute(t, e1, "STOP JOB '"+job+"' WITH SAVEPOINT;")
	if n := len(readTopic(t, brokers, "counts")); n != 2 {
		t.Fatalf("%d counts written by the savepoint's barrier, want one per user", n)
	}
	if got := latestCounts(t, brokers); !maps.Equal(got, map[string]int64{"a": 2, "b": 1}) {
		t.Fatalf("counts at the savepoint: %v", got)
	}

	e2 := newEngine(t)
	mustExecute(t, e2, countsDDL(brokers, "latest-offset")+miniBatchSettings+
		"SET 'state.savepoints.dir' = '"+dir+"';\nINSERT INTO clicks VALUES ('a'), ('c');\n"+
		"SET 'execution.savepoint.path' = '"+filepath.Join(dir, job, "chk-1")+"';\n"+insert)
	j2 := e2.Jobs()[len(e2.Jobs())-1]
	waitRowsIn(t, j2, "LocalGroupAggregate", 2)
	mustExecute(t, e2, "STOP JOB '"+j2.ID+"' WITH SAVEPOINT;")
	if got, want := latestCounts(t, brokers), map[string]int64{"a": 3, "b": 1, "c": 1}; !maps.Equal(got, want) {
		t.Fatalf("counts after the restore: %v, want %v", got, want)
	}
	if n := len(readTopic(t, brokers, "counts")); n != 4 {
		t.Fatalf("%d counts written in all, want 2 and then one per user of the second batch", n)
	}
}
