package kafka

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/checkpoint"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/runtime"
)

// runCheckpointed reads tbl with one source instance into a collector, the
// job taking checkpoints to store (restored from a checkpoint when
// restore is set).
func runCheckpointed(t *testing.T, tbl *catalog.Table, store checkpoint.Storage, restore *checkpoint.Metadata, state map[string][]byte) (*runtime.Job, *collector) {
	t.Helper()
	src, err := factoryFor(t, tbl).NewSource(tbl, connector.SourceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := &runtime.CheckpointConfig{Storage: store, Job: "read"}
	if restore != nil {
		cfg.Restore, cfg.RestoredFrom, cfg.Finished = state, restore.ID, restore.Finished
	}
	coll := &collector{}
	job, err := runtime.Start(testContext(t), &runtime.Graph{Checkpoints: cfg, Stages: []*runtime.Stage{
		{Name: "source", ID: "source", Parallelism: 1, NewSource: func(i int) (runtime.Source, error) { return src.NewInstance(i, 1) }},
		{Name: "collect", ID: "collect", Parallelism: 1, NewOperator: func(int) (runtime.Operator, error) { return coll, nil },
			Inputs: []runtime.Input{{Stage: 0, Exchange: runtime.Single}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		job.Cancel()
		<-job.Done()
	})
	return job, coll
}

// TestSourceResumesFromCheckpoint: a source restored from a checkpoint
// reads from the positions it had at the checkpoint's barrier, whatever
// the group's offsets or the startup mode say; its group offsets are
// committed when a checkpoint completes, and only then.
func TestSourceResumesFromCheckpoint(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, numbered("ck", 0, 3)...)
	store, err := checkpoint.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tbl := table(idCols, options(c, "ck", "properties.group.id", "ckg", "properties.auto.commit.interval.ms", "1"))
	job, coll := runCheckpointed(t, tbl, store, nil, nil)
	waitQuiet(t, job)
	if _, err := job.Checkpoint(testContext(t)); err != nil {
		t.Fatal(err)
	}
	committed := func() int64 {
		t.Helper()
		offsets, err := kadm.NewClient(newClient(t, c)).FetchOffsets(testContext(t), "ckg")
		if err != nil {
			t.Fatal(err)
		}
		o, _ := offsets.Lookup("ck", 0)
		return o.At
	}
	if got := committed(); got != 3 {
		t.Fatalf("after the checkpoint the group's offset is %d, want 3", got)
	}
	// Rows after the checkpoint are read but not committed, however
	// often the commit interval comes round: the job stops before its next
	// checkpoint and they are read again after the restore.
	produce(t, c, rec("ck", 0, "", `{"id":3}`), rec("ck", 0, "", `{"id":4}`))
	waitQuiet(t, job)
	if got := coll.sorted(); !slices.Equal(got, ids(0, 1, 2, 3, 4)) {
		t.Fatalf("first run read %v", got)
	}
	job.Cancel()
	<-job.Done()
	if got := committed(); got != 3 {
		t.Fatalf("after the job stopped the group's offset is %d, want 3 (the checkpoint's)", got)
	}

	meta, state, err := checkpoint.Latest(testContext(t), store, "read")
	if err != nil {
		t.Fatal(err)
	}
	// 'latest-offset' would skip everything: the checkpoint wins.
	tbl = table(idCols, options(c, "ck", "properties.group.id", "ckg", "scan.startup.mode", "latest-offset"))
	job, coll = runCheckpointed(t, tbl, store, meta, state)
	waitQuiet(t, job)
	if got := coll.sorted(); !slices.Equal(got, ids(3, 4)) {
		t.Fatalf("restored run read %v, want the rows after the checkpoint", got)
	}
}

// TestBoundedSourceKeepsItsEnd: a bounded source restored from a
// checkpoint stops where the first run would have stopped, not at the
// end offsets of the time of the restore.
func TestBoundedSourceKeepsItsEnd(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, numbered("bk", 0, 4)...)
	src, err := factoryFor(t, table(idCols, options(c, "bk", "scan.bounded.mode", "latest-offset"))).
		NewSource(table(idCols, options(c, "bk", "scan.bounded.mode", "latest-offset")), connector.SourceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	// A checkpoint taken after two records: position 2, end 4.
	first, err := src.NewInstance(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	data := []byte{snapshotVersion, 1}
	data = append(data, byte(len("bk")))
	data = append(data, "bk"...)
	data = append(data, 0, 4, 8) // partition 0, next 2, end 4 as zig-zag varints
	if err := first.(runtime.Snapshotter).RestoreState(data); err != nil {
		t.Fatal(err)
	}
	produce(t, c, rec("bk", 0, "", `{"id":4}`))
	coll := &collector{}
	job, err := runtime.Start(testContext(t), &runtime.Graph{Stages: []*runtime.Stage{
		{Name: "source", Parallelism: 1, NewSource: func(int) (runtime.Source, error) { return first, nil }},
		{Name: "collect", Parallelism: 1, NewOperator: func(int) (runtime.Operator, error) { return coll, nil },
			Inputs: []runtime.Input{{Stage: 0, Exchange: runtime.Single}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	<-job.Done()
	if err := job.Err(); err != nil {
		t.Fatal(err)
	}
	if got := coll.sorted(); !slices.Equal(got, ids(2, 3)) {
		t.Fatalf("read %v, want rows 2 and 3", got)
	}
	if err := first.(runtime.Snapshotter).RestoreState([]byte{snapshotVersion, 1, 9}); err == nil {
		t.Fatal("corrupt state accepted")
	}
}

// TestAtLeastOnceSinkFlushesAtCheckpoint: with 'sink.delivery-guarantee'
// at-least-once, a checkpoint completes only once every row the sink
// received before its barrier is in the topic, even when linger.ms would
// hold the records much longer; with 'none' it does not wait.
func TestAtLeastOnceSinkFlushesAtCheckpoint(t *testing.T) {
	for _, guarantee := range []string{guaranteeAtLeastOnce, guaranteeNone} {
		t.Run(guarantee, func(t *testing.T) {
			c := startCluster(t, 1)
			produce(t, c, numbered("in-"+guarantee, 0, 50)...)
			in := table(idCols, options(c, "in-"+guarantee))
			out := table(idCols, options(c, "out-"+guarantee, "properties.linger.ms", "50000", "sink.delivery-guarantee", guarantee))
			src, err := factoryFor(t, in).NewSource(in, connector.SourceSpec{})
			if err != nil {
				t.Fatal(err)
			}
			sink, err := factoryFor(t, out).NewSink(out, connector.Env{})
			if err != nil {
				t.Fatal(err)
			}
			store, err := checkpoint.NewDir(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			job, err := runtime.Start(testContext(t), &runtime.Graph{
				Checkpoints: &runtime.CheckpointConfig{Storage: store, Job: "copy"},
				Stages: []*runtime.Stage{
					{Name: "source", ID: "source", Parallelism: 1, NewSource: func(i int) (runtime.Source, error) { return src.NewInstance(i, 1) }},
					{Name: "sink", ID: "sink", Parallelism: 1, NewOperator: func(i int) (runtime.Operator, error) { return sink.NewInstance(i, 1) },
						Inputs: []runtime.Input{{Stage: 0, Exchange: runtime.Forward}}},
				}})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				job.Cancel()
				<-job.Done()
			}()
			id, err := job.Checkpoint(testContext(t))
			if err != nil {
				t.Fatal(err)
			}
			data, err := store.ReadState(testContext(t), "copy", id, "source-0")
			if err != nil {
				t.Fatal(err)
			}
			r := statePositions(t, data)
			ends, err := kadm.NewClient(newClient(t, c)).ListEndOffsets(testContext(t), "out-"+guarantee)
			if err != nil {
				t.Fatal(err)
			}
			o, _ := ends.Lookup("out-"+guarantee, 0)
			switch {
			case guarantee == guaranteeAtLeastOnce && o.Offset < r:
				t.Fatalf("the checkpoint covers %d source rows but the output holds %d", r, o.Offset)
			case guarantee == guaranteeNone && r > 0 && o.Offset >= r:
				t.Fatalf("with 'none' the output holds %d of %d rows: linger.ms was not in force, the test proves nothing", o.Offset, r)
			}
		})
	}
}

// statePositions returns the position of partition 0 in a source's
// checkpoint state of one partition.
func statePositions(t *testing.T, data []byte) int64 {
	t.Helper()
	src := &sourceInstance{cfg: &tableConfig{connector: "kafka"}}
	st, err := runtime.PartState(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.RestoreState(st); err != nil {
		t.Fatal(err)
	}
	for _, pos := range src.restored {
		return pos.next
	}
	t.Fatal("no partition in the state")
	return 0
}

// TestSourceRestoresAtAnotherParallelism: positions taken by two source
// instances over three partitions restore at three instances and at one,
// each instance resuming the partitions it now owns where the checkpoint
// left them (runtime.UnionRestorer): every record after the checkpoint is
// read exactly once, none before it.
func TestSourceRestoresAtAnotherParallelism(t *testing.T) {
	c := startCluster(t, 3)
	batch := func(from int) []*kgo.Record {
		var rs []*kgo.Record
		for p := range int32(3) {
			for k := range 4 {
				rs = append(rs, rec("rs", p, "", fmt.Sprintf(`{"id":%d}`, from+int(p)*10+k)))
			}
		}
		return rs
	}
	produce(t, c, batch(0)...)
	tbl := table(idCols, options(c, "rs"))
	store, err := checkpoint.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	run := func(p int, cfg *runtime.CheckpointConfig) (*runtime.Job, *collector) {
		t.Helper()
		src, err := factoryFor(t, tbl).NewSource(tbl, connector.SourceSpec{})
		if err != nil {
			t.Fatal(err)
		}
		coll := &collector{}
		job, err := runtime.Start(testContext(t), &runtime.Graph{Checkpoints: cfg, Stages: []*runtime.Stage{
			{Name: "source", ID: "source", Parallelism: p, NewSource: func(i int) (runtime.Source, error) { return src.NewInstance(i, p) }},
			{Name: "collect", ID: "collect", Parallelism: 1, NewOperator: func(int) (runtime.Operator, error) { return coll, nil },
				Inputs: []runtime.Input{{Stage: 0, Exchange: runtime.Single}}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			job.Cancel()
			<-job.Done()
		})
		return job, coll
	}
	job, coll := run(2, &runtime.CheckpointConfig{Storage: store, Job: "read"})
	waitQuiet(t, job)
	if got := len(coll.sorted()); got != 12 {
		t.Fatalf("first run read %d records, want 12", got)
	}
	id, err := job.Checkpoint(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	produce(t, c, batch(100)...) // after the checkpoint: read again after the restore
	waitQuiet(t, job)
	job.Cancel()
	<-job.Done()
	meta, state, err := checkpoint.Latest(testContext(t), store, "read")
	if err != nil || meta.ID != id {
		t.Fatalf("latest checkpoint %v, %v; want %d", meta, err, id)
	}
	var want []string
	for _, r := range batch(100) {
		var v struct{ ID int }
		if err := json.Unmarshal(r.Value, &v); err != nil {
			t.Fatal(err)
		}
		want = append(want, fmt.Sprintf("+I[%d]", v.ID))
	}
	slices.Sort(want)
	for _, p := range []int{3, 1} {
		job, coll := run(p, &runtime.CheckpointConfig{Job: fmt.Sprint("at-", p), Restore: state, RestoredFrom: id})
		waitQuiet(t, job)
		if got := coll.sorted(); !slices.Equal(got, want) {
			t.Fatalf("restored at parallelism %d read %v, want %v", p, got, want)
		}
	}
}
