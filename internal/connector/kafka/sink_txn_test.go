package kafka

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/checkpoint"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// The exactly-once sink after Flink's KafkaSink with
// DeliveryGuarantee.EXACTLY_ONCE: records between two barriers form one
// transaction, committed when the checkpoint completes; readers with
// isolation.level=read_committed see exactly the rows of complete
// checkpoints.

// idRecords are records {"id": from}, {"id": from+1}, ... of a partition.
func idRecords(topic string, partition int32, from, n int) []*kgo.Record {
	rs := make([]*kgo.Record, n)
	for i := range rs {
		rs[i] = rec(topic, partition, "", fmt.Sprintf(`{"id":%d}`, from+i))
	}
	return rs
}

// idRange is the rows from, from+1, ..., to-1, sorted as collector.sorted.
func idRange(from, to int) []string {
	var n []int
	for i := from; i < to; i++ {
		n = append(n, i)
	}
	return ids(n...)
}

// union merges sorted row lists, keeping duplicates.
func union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return out
}

// eosTable is an exactly-once 'kafka' table writing topic with prefix
// 'copy'.
func eosTable(c *devcluster.Cluster, topic string, extra ...string) *catalog.Table {
	return table(idCols, options(c, topic, append([]string{"sink.delivery-guarantee", "exactly-once", "sink.transactional-id-prefix", "copy"}, extra...)...))
}

// copyJob is a job copying one table into another with n source and n
// sink instances.
type copyJob struct {
	job   *runtime.Job
	n     int
	sinks []*sinkInstance
}

// deafSink is a sink instance that never hears of completed checkpoints,
// as one whose job stops before the notice reaches it.
type deafSink struct{ s *sinkInstance }

func (d deafSink) Open(ctx *runtime.Context) error { return d.s.Open(ctx) }
func (d deafSink) ProcessChunk(input int, c *types.Chunk, out runtime.Emitter) error {
	return d.s.ProcessChunk(input, c, out)
}
func (d deafSink) ProcessWatermark(wm int64, out runtime.Emitter) error {
	return d.s.ProcessWatermark(wm, out)
}
func (d deafSink) Finish(out runtime.Emitter) error           { return d.s.Finish(out) }
func (d deafSink) SnapshotState(id int64) ([]byte, error)     { return d.s.SnapshotState(id) }
func (d deafSink) RestoreState(data []byte) error             { return d.s.RestoreState(data) }
func (d deafSink) CaughtUp(ctx context.Context) (bool, error) { return d.s.CaughtUp(ctx) }

// startCopy starts a copy of in into out, taking checkpoints as cfg says
// (nil: none).
func startCopy(t *testing.T, in, out *catalog.Table, n int, cfg *runtime.CheckpointConfig) *copyJob {
	t.Helper()
	return startCopyWith(t, in, out, n, cfg, false)
}

// startCopyWith is startCopy, with deaf sinks if deaf is set.
func startCopyWith(t *testing.T, in, out *catalog.Table, n int, cfg *runtime.CheckpointConfig, deaf bool) *copyJob {
	t.Helper()
	src, err := factoryFor(t, in).NewSource(in, connector.SourceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	sink, err := factoryFor(t, out).NewSink(out, connector.Env{})
	if err != nil {
		t.Fatal(err)
	}
	cj := &copyJob{n: n, sinks: make([]*sinkInstance, n)}
	cj.job, err = runtime.Start(context.Background(), &runtime.Graph{Checkpoints: cfg, Stages: []*runtime.Stage{
		{Name: "source", ID: "source", Parallelism: n, NewSource: func(i int) (runtime.Source, error) { return src.NewInstance(i, n) }},
		{Name: "sink", ID: "sink", Parallelism: n, Inputs: []runtime.Input{{Stage: 0, Exchange: runtime.Forward}},
			NewOperator: func(i int) (runtime.Operator, error) {
				op, err := sink.NewInstance(i, n)
				if err != nil {
					return nil, err
				}
				cj.sinks[i] = op.(*sinkInstance)
				if deaf {
					return deafSink{cj.sinks[i]}, nil
				}
				return op, nil
			}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cj.stop)
	return cj
}

func (cj *copyJob) stop() {
	cj.job.Cancel()
	<-cj.job.Done()
}

// sourcePositions is the number of records the source had read at the
// barrier of checkpoint id: the sum of its instances' positions.
func (cj *copyJob) sourcePositions(t *testing.T, store checkpoint.Storage, job string, id int64) int64 {
	t.Helper()
	var sum int64
	for i := range cj.n {
		data, err := store.ReadState(testContext(t), job, id, fmt.Sprintf("source-%d", i))
		if err != nil {
			t.Fatal(err)
		}
		src := &sourceInstance{cfg: &tableConfig{connector: "kafka"}}
		st, err := runtime.PartState(data)
		if err != nil {
			t.Fatal(err)
		}
		if err := src.RestoreState(st); err != nil {
			t.Fatal(err)
		}
		for _, pos := range src.restored {
			sum += pos.next
		}
	}
	return sum
}

// committed waits until every sink instance has committed the
// transactions of checkpoint id: the runtime tells them after
// Job.Checkpoint returns.
func (cj *copyJob) committed(t *testing.T, id int64) {
	t.Helper()
	waitFor(t, fmt.Sprintf("the commit of checkpoint %d", id), func() (bool, error) {
		for _, s := range cj.sinks {
			s.txn.mu.Lock()
			due := slices.ContainsFunc(s.txn.pending, func(tx *transaction) bool { return tx.checkpoint <= id })
			s.txn.mu.Unlock()
			if due {
				return false, nil
			}
		}
		return true, nil
	})
}

// checkpointCovering takes checkpoints until one covers want input
// records, and returns it once its transactions are committed.
func (cj *copyJob) checkpointCovering(t *testing.T, store checkpoint.Storage, job string, want int64) int64 {
	t.Helper()
	for {
		id, err := cj.job.Checkpoint(testContext(t))
		if err != nil {
			t.Fatal(err)
		}
		if got := cj.sourcePositions(t, store, job, id); got == want {
			cj.committed(t, id)
			return id
		} else if got > want {
			t.Fatalf("checkpoint %d covers %d records, more than the %d written", id, got, want)
		}
	}
}

// readTopic reads every row of topic up to its current end, as a reader
// with the given isolation.level sees it, sorted with duplicates.
func readTopic(t *testing.T, c *devcluster.Cluster, topic, isolation string) []string {
	t.Helper()
	job, coll := runSource(t, table(idCols, options(c, topic, "scan.bounded.mode", "latest-offset", "properties.isolation.level", isolation)), connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	return coll.sorted()
}

// openTransactions reports whether a transaction is open on a partition of
// topic: its last stable offset is short of its end.
func openTransactions(t *testing.T, c *devcluster.Cluster, topic string) bool {
	t.Helper()
	adm := kadm.NewClient(newClient(t, c))
	ends, err := adm.ListEndOffsets(testContext(t), topic)
	if err != nil {
		t.Fatal(err)
	}
	stable, err := adm.ListCommittedOffsets(testContext(t), topic)
	if err != nil {
		t.Fatal(err)
	}
	open := false
	ends.Each(func(o kadm.ListedOffset) {
		s, _ := stable.Lookup(o.Topic, o.Partition)
		open = open || s.Offset < o.Offset
	})
	return open
}

// TestExactlyOnceCopiesBoundedInput: without checkpoints, an exactly-once
// sink commits at the end of its input, as Flink's CommitterOperator does
// (endInput), and a read_committed reader then sees every row once.
func TestExactlyOnceCopiesBoundedInput(t *testing.T) {
	c := startCluster(t, 2)
	createTopic(t, c, "in", 2)
	produce(t, c, idRecords("in", 0, 0, 300)...)
	produce(t, c, idRecords("in", 1, 300, 300)...)
	cj := startCopy(t, table(idCols, options(c, "in", "scan.bounded.mode", "latest-offset")), eosTable(c, "out"), 2, nil)
	if err := waitDone(t, cj.job); err != nil {
		t.Fatal(err)
	}
	want := idRange(0, 600)
	for _, iso := range []string{"read_committed", "read_uncommitted"} {
		if got := readTopic(t, c, "out", iso); !slices.Equal(got, want) {
			t.Fatalf("a %s reader sees %d rows, want the 600 rows once each", iso, len(got))
		}
	}
	if openTransactions(t, c, "out") {
		t.Fatal("a transaction is still open")
	}
}

// TestExactlyOnceCommitsWhenCheckpointsComplete: a read_committed reader
// sees exactly the rows before the barrier of the last complete
// checkpoint, while a read_uncommitted one sees the later rows too.
func TestExactlyOnceCommitsWhenCheckpointsComplete(t *testing.T) {
	c := startCluster(t, 1)
	createTopic(t, c, "out", 1)
	produce(t, c, idRecords("in", 0, 0, 5000)...)
	store, err := checkpoint.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cj := startCopy(t, table(idCols, options(c, "in")), eosTable(c, "out"), 1, &runtime.CheckpointConfig{Storage: store, Job: "copy"})
	cj.checkpointCovering(t, store, "copy", 5000)
	if got := readTopic(t, c, "out", "read_committed"); !slices.Equal(got, idRange(0, 5000)) {
		t.Fatalf("a read_committed reader sees %d rows, want all 5000", len(got))
	}

	// Rows written after the last checkpoint are there, uncommitted.
	produce(t, c, idRecords("in", 0, 5000, 50)...)
	waitFor(t, "the next rows in the open transaction", func() (bool, error) {
		return len(readTopic(t, c, "out", "read_uncommitted")) == 5050, nil
	})
	if ok, err := cj.job.Quiet(testContext(t)); err != nil || ok {
		t.Fatalf("Quiet = %v, %v with rows waiting for their commit; want false", ok, err)
	}
	if got := readTopic(t, c, "out", "read_committed"); !slices.Equal(got, idRange(0, 5000)) {
		t.Fatalf("before the next checkpoint a read_committed reader sees %d rows, want the first 5000", len(got))
	}
	cj.checkpointCovering(t, store, "copy", 5050)
	if got := readTopic(t, c, "out", "read_committed"); !slices.Equal(got, idRange(0, 5050)) {
		t.Fatalf("a read_committed reader sees %d rows, want all 5050", len(got))
	}
	waitQuiet(t, cj.job)
}

// refusingStore is checkpoint storage that fails to complete the
// checkpoints from a chosen one on: their state is written and their
// metadata is not, or, with written set, their metadata is written too
// (the checkpoint is complete in storage) but the job is told it failed,
// as when a job dies right after completing a checkpoint.
type refusingStore struct {
	checkpoint.Storage
	written bool
	from    atomic.Int64 // 0: refuse none
	refused atomic.Int64 // the last refused checkpoint
}

func (s *refusingStore) Complete(ctx context.Context, meta *checkpoint.Metadata) error {
	from := s.from.Load()
	if from == 0 || meta.ID < from {
		return s.Storage.Complete(ctx, meta)
	}
	s.refused.Store(meta.ID)
	if s.written {
		if err := s.Storage.Complete(ctx, meta); err != nil {
			return err
		}
	}
	return errors.New("the storage refuses to complete the checkpoint")
}

// refusedCovering takes checkpoints that the store refuses until one
// covers want input records.
func (cj *copyJob) refusedCovering(t *testing.T, store *refusingStore, want int64) {
	t.Helper()
	for {
		if _, err := cj.job.Checkpoint(testContext(t)); err == nil {
			t.Fatal("the storage completed a checkpoint it should refuse")
		}
		if got := cj.sourcePositions(t, store.Storage, "copy", store.refused.Load()); got == want {
			return
		} else if got > want {
			t.Fatalf("checkpoint %d covers %d records, more than the %d written", store.refused.Load(), got, want)
		}
	}
}

// restore starts a copy from the latest complete checkpoint in store,
// checking that it is checkpoint want.
func restoreCopy(t *testing.T, store checkpoint.Storage, want int64, in, out *catalog.Table, n int) (*copyJob, checkpoint.Storage) {
	t.Helper()
	meta, state, err := checkpoint.Latest(testContext(t), store, "copy")
	if err != nil {
		t.Fatal(err)
	}
	if meta.ID != want {
		t.Fatalf("the latest complete checkpoint is %d, want %d", meta.ID, want)
	}
	next, err := checkpoint.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return startCopy(t, in, out, n, &runtime.CheckpointConfig{Storage: next, Job: "copy",
		Restore: state, RestoredFrom: meta.ID, Finished: meta.Finished}), next
}

// TestExactlyOnceRestoreAfterKill: a job killed between the barriers of
// checkpoints and their completion leaves their transactions open;
// restored from the last complete checkpoint, the job commits that one's
// transactions, aborts the lingering ones (more than it opens again, so
// that reusing their ids cannot abort them), and writes the rest again: a
// read_committed reader ends up with every row exactly once. It runs on
// both Kafka transaction protocols (KIP-890's transaction.version 2, and
// 1), and restored at the same parallelism and at others: an instance
// then settles the transactions of the earlier instances it takes over.
func TestExactlyOnceRestoreAfterKill(t *testing.T) {
	for _, run := range []struct {
		tv       int16
		restored int
	}{{2, 2}, {1, 2}, {2, 1}, {2, 3}} {
		tv := run.tv
		t.Run(fmt.Sprintf("transaction.version=%d/restored-at-%d", tv, run.restored), func(t *testing.T) {
			c := startCluster(t, 2)
			if _, err := kadm.NewClient(newClient(t, c)).UpdateFeatures(testContext(t), false,
				kadm.FeatureUpdate{Feature: "transaction.version", MaxVersionLevel: tv, UpgradeType: 2}); err != nil {
				t.Fatal(err)
			}
			createTopic(t, c, "in", 2)
			in, out := table(idCols, options(c, "in")), eosTable(c, "out")
			dir, err := checkpoint.NewDir(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			store := &refusingStore{Storage: dir}
			produce(t, c, idRecords("in", 0, 0, 100)...)
			produce(t, c, idRecords("in", 1, 100, 100)...)
			first := startCopy(t, in, out, 2, &runtime.CheckpointConfig{Storage: store, Job: "copy"})
			complete := first.checkpointCovering(t, store, "copy", 200)

			// Three rounds of rows, each pre-committed at a barrier by
			// both instances, never committed.
			store.from.Store(complete + 1)
			for round := range 3 {
				produce(t, c, idRecords("in", 0, 200+100*round, 50)...)
				produce(t, c, idRecords("in", 1, 250+100*round, 50)...)
				first.refusedCovering(t, store, int64(300+100*round))
			}
			first.stop()
			if got := readTopic(t, c, "out", "read_committed"); !slices.Equal(got, idRange(0, 200)) {
				t.Fatalf("after the kill a read_committed reader sees %d rows, want the 200 of checkpoint %d", len(got), complete)
			}
			if got := readTopic(t, c, "out", "read_uncommitted"); !slices.Equal(got, idRange(0, 500)) {
				t.Fatalf("after the kill a read_uncommitted reader sees %d rows, want the 500 written", len(got))
			}

			second, next := restoreCopy(t, dir, complete, in, out, run.restored)
			// The 300 rows after the checkpoint, written again, go into
			// one transaction per instance.
			waitFor(t, "the rows written again", func() (bool, error) {
				return len(readTopic(t, c, "out", "read_uncommitted")) == 800, nil
			})
			second.checkpointCovering(t, next, "copy", 500)
			if got := readTopic(t, c, "out", "read_committed"); !slices.Equal(got, idRange(0, 500)) {
				t.Fatalf("after the restore a read_committed reader sees %d rows, want the 500 rows once each", len(got))
			}
			if openTransactions(t, c, "out") {
				t.Fatal("a transaction is still open")
			}
		})
	}
}

// diedBeforeCommit copies 100 rows with one instance into an exactly-once
// table and stops the job after a checkpoint whose metadata is in the
// storage but whose completion the job never heard of: its transactions
// are pre-committed and open. It returns the cluster, the tables, the
// checkpoint storage and that checkpoint.
func diedBeforeCommit(t *testing.T) (*devcluster.Cluster, *catalog.Table, *catalog.Table, *checkpoint.Dir, int64) {
	t.Helper()
	c := startCluster(t, 1)
	in, out := table(idCols, options(c, "in")), eosTable(c, "out")
	produce(t, c, idRecords("in", 0, 0, 100)...)
	dir, err := checkpoint.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store := &refusingStore{Storage: dir, written: true}
	store.from.Store(1)
	first := startCopy(t, in, out, 1, &runtime.CheckpointConfig{Storage: store, Job: "copy"})
	first.refusedCovering(t, store, 100)
	first.stop()
	return c, in, out, dir, store.refused.Load()
}

// TestExactlyOnceRestoreCommitsCheckpointTransactions: a job that dies
// after a checkpoint is complete in storage but before its sinks commit
// leaves the checkpoint's transactions open; restored from it, the job
// commits them (they belong to a complete checkpoint) without writing
// their rows again.
func TestExactlyOnceRestoreCommitsCheckpointTransactions(t *testing.T) {
	c, in, out, dir, chk := diedBeforeCommit(t)
	if got := readTopic(t, c, "out", "read_committed"); len(got) != 0 {
		t.Fatalf("before the restore a read_committed reader sees %d rows", len(got))
	}

	second, _ := restoreCopy(t, dir, chk, in, out, 1)
	// A checkpoint of the restored job follows the sink's start.
	if _, err := second.job.Checkpoint(testContext(t)); err != nil {
		t.Fatal(err)
	}
	if got := readTopic(t, c, "out", "read_committed"); !slices.Equal(got, idRange(0, 100)) {
		t.Fatalf("after the restore a read_committed reader sees %d rows, want the 100 rows once each", len(got))
	}
	if got := readTopic(t, c, "out", "read_uncommitted"); !slices.Equal(got, idRange(0, 100)) {
		t.Fatalf("a read_uncommitted reader sees %d rows, want the 100 rows once each", len(got))
	}
}

// openTxn leaves a transaction of id open on topic with one record.
func openTxn(t *testing.T, c *devcluster.Cluster, id, topic string, row int) {
	t.Helper()
	cl := newClient(t, c, kgo.TransactionalID(id), kgo.DefaultProduceTopic(topic))
	if err := cl.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	if err := cl.ProduceSync(testContext(t), rec(topic, 0, "", fmt.Sprintf(`{"id":%d}`, row))).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

// TestExactlyOnceAbortsLingeringTransactions: a sink starting afresh
// aborts what a previous run with its prefix and instance left open (a
// read_uncommitted reader sees those records, a read_committed one never
// does), and leaves other prefixes' and instances' transactions alone.
func TestExactlyOnceAbortsLingeringTransactions(t *testing.T) {
	c := startCluster(t, 1)
	createTopic(t, c, "out", 1)
	createTopic(t, c, "other", 1)
	openTxn(t, c, "copy-0-0", "out", 1000)
	openTxn(t, c, "copy-0-1", "out", 1001)
	openTxn(t, c, "copy-1-0", "other", 1002)
	openTxn(t, c, "elsewhere-0-0", "other", 1003)
	if got := readTopic(t, c, "out", "read_committed"); len(got) != 0 {
		t.Fatalf("a read_committed reader sees %v in open transactions", got)
	}

	produce(t, c, idRecords("in", 0, 0, 10)...)
	cj := startCopy(t, table(idCols, options(c, "in", "scan.bounded.mode", "latest-offset")), eosTable(c, "out"), 1, nil)
	if err := waitDone(t, cj.job); err != nil {
		t.Fatal(err)
	}
	if got := readTopic(t, c, "out", "read_committed"); !slices.Equal(got, idRange(0, 10)) {
		t.Fatalf("a read_committed reader sees %v, want the 10 rows copied", got)
	}
	if got := readTopic(t, c, "out", "read_uncommitted"); !slices.Equal(got, union(idRange(0, 10), ids(1000, 1001))) {
		t.Fatalf("a read_uncommitted reader sees %v, want the aborted rows too", got)
	}
	if openTransactions(t, c, "out") {
		t.Fatal("a lingering transaction is still open")
	}
	described, err := kadm.NewClient(newClient(t, c)).DescribeTransactions(testContext(t), "copy-1-0", "elsewhere-0-0")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"copy-1-0", "elsewhere-0-0"} {
		if d, ok := described[id]; !ok || d.State != "Ongoing" {
			t.Errorf("transaction '%s' of another instance or prefix is %+v, want it left open", id, d)
		}
	}
}

// TestExactlyOnceCancelAbortsOpenTransaction: a cancelled job aborts the
// transaction it has open, as Flink's writer does when it closes.
func TestExactlyOnceCancelAbortsOpenTransaction(t *testing.T) {
	c := startCluster(t, 1)
	createTopic(t, c, "out", 1)
	produce(t, c, idRecords("in", 0, 0, 50)...)
	cj := startCopy(t, table(idCols, options(c, "in")), eosTable(c, "out"), 1, nil)
	waitFor(t, "the rows in the open transaction", func() (bool, error) {
		return len(readTopic(t, c, "out", "read_uncommitted")) == 50, nil
	})
	if ok, err := cj.job.Quiet(testContext(t)); err != nil || ok {
		t.Fatalf("Quiet = %v, %v with rows that never commit without checkpoints; want false", ok, err)
	}
	cj.stop()
	waitFor(t, "the abort", func() (bool, error) { return !openTransactions(t, c, "out"), nil })
	if got := readTopic(t, c, "out", "read_committed"); len(got) != 0 {
		t.Fatalf("a read_committed reader sees %d rows of a cancelled job", len(got))
	}
}

// TestExactlyOnceStopWithSavepoint: a job stopped right after a savepoint
// has committed the savepoint's transactions, even when the notice of its
// completion did not reach the sink before the job stopped.
func TestExactlyOnceStopWithSavepoint(t *testing.T) {
	c := startCluster(t, 1)
	createTopic(t, c, "out", 1)
	produce(t, c, idRecords("in", 0, 0, 30)...)
	cj := startCopyWith(t, table(idCols, options(c, "in")), eosTable(c, "out"), 1, &runtime.CheckpointConfig{Job: "copy"}, true)
	waitFor(t, "the rows in the open transaction", func() (bool, error) {
		return len(readTopic(t, c, "out", "read_uncommitted")) == 30, nil
	})
	store, err := checkpoint.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cj.job.Savepoint(testContext(t), store, false); err != nil {
		t.Fatal(err)
	}
	cj.stop()
	waitFor(t, "the commit", func() (bool, error) { return !openTransactions(t, c, "out"), nil })
	if got := readTopic(t, c, "out", "read_committed"); !slices.Equal(got, idRange(0, 30)) {
		t.Fatalf("a read_committed reader sees %d rows, want the 30 of the savepoint", len(got))
	}
}

// TestExactlyOnceTransactionTimeoutRefused: a transaction timeout above
// the broker's transaction.max.timeout.ms fails the job, naming the
// property.
func TestExactlyOnceTransactionTimeoutRefused(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, idRecords("in", 0, 0, 5)...)
	cj := startCopy(t, table(idCols, options(c, "in", "scan.bounded.mode", "latest-offset")),
		eosTable(c, "out", "properties.transaction.timeout.ms", "7200000"), 1, nil)
	err := waitDone(t, cj.job)
	if err == nil || !strings.Contains(err.Error(), "7200000 ms ('properties.transaction.timeout.ms')") ||
		!strings.Contains(err.Error(), "transaction.max.timeout.ms") {
		t.Fatalf("got %v, want the refused transaction timeout named", err)
	}
}

// TestExactlyOnceUpsertBuffer: upsert-kafka's buffer, flushed by its own
// goroutine, goes into the transaction of the barrier that follows: a
// read_committed reader sees exactly the rows before the last complete
// checkpoint.
func TestExactlyOnceUpsertBuffer(t *testing.T) {
	c := startCluster(t, 1)
	createTopic(t, c, "out", 1)
	produce(t, c, idRecords("in", 0, 0, 5000)...)
	out := table(idCols, options(c, "out", "connector", "upsert-kafka", "format", "", "scan.startup.mode", "",
		"key.format", "json", "value.format", "json", "sink.buffer-flush.max-rows", "7", "sink.buffer-flush.interval", "1 ms",
		"sink.delivery-guarantee", "exactly-once", "sink.transactional-id-prefix", "upsert"), "id")
	store, err := checkpoint.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cj := startCopy(t, table(idCols, options(c, "in")), out, 1, &runtime.CheckpointConfig{Storage: store, Job: "copy"})
	cj.checkpointCovering(t, store, "copy", 5000)
	produce(t, c, idRecords("in", 0, 5000, 50)...)
	waitFor(t, "the next rows flushed into the open transaction", func() (bool, error) {
		return len(readTopic(t, c, "out", "read_uncommitted")) == 5050, nil
	})
	if got := readTopic(t, c, "out", "read_committed"); !slices.Equal(got, idRange(0, 5000)) {
		t.Fatalf("before the next checkpoint a read_committed reader sees %d rows, want the first 5000", len(got))
	}
	cj.checkpointCovering(t, store, "copy", 5050)
	if got := readTopic(t, c, "out", "read_committed"); !slices.Equal(got, idRange(0, 5050)) {
		t.Fatalf("a read_committed reader sees %d rows, want the 5050 rows once each", len(got))
	}
}

// TestExactlyOnceTransactionTimedOut: without checkpoints an unbounded
// job never commits; once the broker aborts its transaction after
// 'properties.transaction.timeout.ms', its next write fails the job,
// naming the timeout and the checkpointing setting.
func TestExactlyOnceTransactionTimedOut(t *testing.T) {
	c := startCluster(t, 1)
	createTopic(t, c, "out", 1)
	produce(t, c, idRecords("in", 0, 0, 5)...)
	cj := startCopy(t, table(idCols, options(c, "in")), eosTable(c, "out", "properties.transaction.timeout.ms", "300"), 1, nil)
	waitFor(t, "the rows in the open transaction", func() (bool, error) {
		return len(readTopic(t, c, "out", "read_uncommitted")) == 5, nil
	})
	waitFor(t, "the broker to abort the transaction", func() (bool, error) { return !openTransactions(t, c, "out"), nil })
	produce(t, c, idRecords("in", 0, 5, 1)...)
	err := waitDone(t, cj.job)
	if err == nil || !strings.Contains(err.Error(), "300 ms ('properties.transaction.timeout.ms')") ||
		!strings.Contains(err.Error(), "'execution.checkpointing.interval'") {
		t.Fatalf("got %v, want the aborted transaction explained", err)
	}
	if got := readTopic(t, c, "out", "read_committed"); len(got) != 0 {
		t.Fatalf("a read_committed reader sees %d rows of an aborted transaction", len(got))
	}
}

// TestExactlyOnceRestoreSkipsLostTransaction: a transaction of the
// restored checkpoint that the broker no longer has open (here another
// producer took its id over, which aborts it) cannot be committed; as
// Flink's KafkaCommitter, the restored sink logs it and goes on rather
// than failing the job at every restart: the job copies what comes next.
func TestExactlyOnceRestoreSkipsLostTransaction(t *testing.T) {
	c, in, out, dir, chk := diedBeforeCommit(t)
	// Another producer initializes the pre-committed transaction's id:
	// the broker aborts the transaction and fences its producer.
	if err := newClient(t, c, kgo.TransactionalID("copy-0-0")).BeginTransaction(); err != nil {
		t.Fatal(err)
	}

	second, _ := restoreCopy(t, dir, chk, in, out, 1)
	produce(t, c, idRecords("in", 0, 100, 10)...)
	// The checkpoint must come after the restored job wrote the new rows
	// (into its open transaction), or they wait for the next one.
	waitFor(t, "the new rows in the restored job's transaction", func() (bool, error) {
		got := readTopic(t, c, "out", "read_uncommitted")
		for _, r := range idRange(100, 110) {
			if !slices.Contains(got, r) {
				return false, nil
			}
		}
		return true, nil
	})
	if _, err := second.job.Checkpoint(testContext(t)); err != nil {
		t.Fatalf("the restored job: %v", err)
	}
	waitFor(t, "the rows after the restore", func() (bool, error) {
		got := readTopic(t, c, "out", "read_committed")
		return slices.Equal(got, idRange(100, 110)), nil
	})
}

// TestExactlyOnceCommitAfterUnconfirmedOutcome: a commit whose answer
// does not come (the broker goes away, or fails the request) leaves the
// transaction's fate unknown to its producer. Committing it again must
// not abort it: franz-go's producer would re-initialize its id first,
// which aborts the transaction. The sink commits it again by its
// producer id and epoch instead, as Flink's KafkaCommitter retries a
// commit that failed with a retriable error: every row of the complete
// checkpoint is read exactly once.
func TestExactlyOnceCommitAfterUnconfirmedOutcome(t *testing.T) {
	logs := captureLogs(t)
	c := startCluster(t, 1)
	createTopic(t, c, "out", 1)
	in, out := table(idCols, options(c, "in")), eosTable(c, "out")
	produce(t, c, idRecords("in", 0, 0, 100)...)
	dir, err := checkpoint.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	first := startCopy(t, in, out, 1, &runtime.CheckpointConfig{Storage: dir, Job: "copy"})
	waitFor(t, "the rows in the open transaction", func() (bool, error) {
		return len(readTopic(t, c, "out", "read_uncommitted")) == 100, nil
	})
	// The first EndTxn is refused before the broker acts on it; franz-go
	// takes UNKNOWN_SERVER_ERROR, as a lost answer, for an unknown
	// outcome.
	fault := c.Kafka().Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.EndTxn}, TxnID: "copy-0-0"})
	chk, err := first.job.Checkpoint(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := first.sourcePositions(t, dir, "copy", chk); got != 100 {
		t.Fatalf("checkpoint %d covers %d records, want the 100 written", chk, got)
	}
	if err := waitDone(t, first.job); err == nil || !strings.Contains(err.Error(), "committing transaction 'copy-0-0'") {
		t.Fatalf("the job ended with %v, want the failed commit", err)
	}
	if fault.Hits() != 1 {
		t.Fatalf("the fault answered %d EndTxn requests, want 1", fault.Hits())
	}

	second, _ := restoreCopy(t, dir, chk, in, out, 1)
	if _, err := second.job.Checkpoint(testContext(t)); err != nil {
		t.Fatal(err)
	}
	if got := readTopic(t, c, "out", "read_committed"); !slices.Equal(got, idRange(0, 100)) {
		t.Fatalf("a read_committed reader sees %d rows, want the 100 rows of checkpoint %d once each", len(got), chk)
	}
	if strings.Contains(logs.String(), "lost") {
		t.Fatalf("the sink reports lost records:\n%s", logs)
	}
}
