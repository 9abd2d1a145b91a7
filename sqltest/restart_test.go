package sqltest

import (
	"context"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/devcluster"
)

// TestScriptsWithRestarts runs every script test and seed case at
// parallelism 1 and 4 with every running job stopped with a savepoint and
// started again from it, at another parallelism each time, whenever the
// harness lets the jobs settle (before each INSERT and query): the
// results must be those of the straight runs, no row lost or repeated, no
// state forgotten, whichever instances the state moved to ("restore at
// another parallelism gives the same results").
func TestScriptsWithRestarts(t *testing.T) {
	forEveryCase(t, func(p int) Options { return Options{Parallelism: p, RestartJobs: true} })
}

// TestSettleRestartsRunningJobs: in RestartJobs mode settling stops each
// running job with a savepoint and starts its plan again at another
// parallelism; finished jobs stay as they are.
func TestSettleRestartsRunningJobs(t *testing.T) {
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	e, err := newEngine(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s, err := newSettler(e, Options{RestartJobs: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := e.Execute(ctx, withPorts(`
CREATE TABLE events (a BIGINT) WITH ('connector' = 'kafka', 'topic' = 'events',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
CREATE TABLE few (a BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE bh (a BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO bh SELECT a FROM few;
INSERT INTO bh SELECT a FROM events;`, cluster)); err != nil {
		t.Fatal(err)
	}
	if err := s.settle(ctx); err != nil {
		t.Fatal(err)
	}
	jobs := e.Jobs()
	if len(jobs) != 3 {
		t.Fatalf("%d jobs after settling, want the finished one, the stopped one and its restart", len(jobs))
	}
	if jobs[0].Status() != "FINISHED" || jobs[1].Status() != "FINISHED" || jobs[2].Status() != "RUNNING" || jobs[2].Statement != jobs[1].Statement {
		t.Fatalf("statuses %s, %s, %s", jobs[0].Status(), jobs[1].Status(), jobs[2].Status())
	}
	// The job ran at parallelism.default, 1: it restarted at another.
	if p := s.parallelism[jobs[2].ID]; p != restartParallelisms[0] {
		t.Fatalf("restarted at parallelism %d, want %d", p, restartParallelisms[0])
	}
}
