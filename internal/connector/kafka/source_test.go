package kafka

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// stamped returns a record with a timestamp in epoch milliseconds.
func stamped(topic string, partition int32, ms int64, value string) *kgo.Record {
	r := rec(topic, partition, "", value)
	r.Timestamp = time.UnixMilli(ms)
	return r
}

// numbered returns n JSON records {"id":i} for i = 0..n-1 with timestamps
// (i+1) seconds after the epoch.
func numbered(topic string, partition int32, n int) []*kgo.Record {
	var rs []*kgo.Record
	for i := range n {
		rs = append(rs, stamped(topic, partition, int64(i+1)*1000, fmt.Sprintf(`{"id":%d}`, i)))
	}
	return rs
}

var idCols = []catalog.Column{column("id", types.BigIntType)}

func ids(n ...int) []string {
	var out []string
	for _, i := range n {
		out = append(out, fmt.Sprintf("+I[%d]", i))
	}
	return slices.Sorted(slices.Values(out))
}

func TestKeyValueAndMetadataColumns(t *testing.T) {
	c := startCluster(t, 1)
	cols := []catalog.Column{
		column("k_id", types.BigIntType),
		column("name", types.StringType),
		metadata("topic", types.StringType, "", true),
		metadata("part", types.IntType, "partition", true),
		metadata("off", types.BigIntType, "offset", true),
		metadata("ts", types.TimestampLTZType(3), "timestamp", false),
		metadata("local_ts", types.TimestampType(3), "timestamp", true),
		metadata("tt", types.StringType, "timestamp-type", true),
		metadata("epoch", types.IntType, "leader-epoch", true),
	}
	tbl := table(cols, options(c, "people", "key.format", "json", "key.fields", "k_id", "key.fields-prefix", "k_",
		"value.fields-include", "EXCEPT_KEY", "scan.bounded.mode", "latest-offset"))
	r := rec("people", 0, `{"id":7}`, `{"name":"ann"}`)
	r.Timestamp = time.Date(2024, 1, 2, 3, 4, 5, 678e6, time.UTC)
	nokey := rec("people", 0, "", `{"name":"bob"}`)
	nokey.Timestamp = r.Timestamp
	produce(t, c, r, nokey)

	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	job, coll := runSource(t, tbl, connector.SourceSpec{Env: connector.Env{TimeZone: shanghai}}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	// TIMESTAMP_LTZ prints in UTC here; TIMESTAMP is the wall-clock time
	// in the session zone.
	want := []string{
		"+I[7, ann, people, 0, 0, 2024-01-02 03:04:05.678, 2024-01-02 11:04:05.678, CreateTime, 0]",
		"+I[<NULL>, bob, people, 0, 1, 2024-01-02 03:04:05.678, 2024-01-02 11:04:05.678, CreateTime, 0]",
	}
	if got := coll.sorted(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestValueWinsOverKeyWithAll(t *testing.T) {
	c := startCluster(t, 1)
	cols := []catalog.Column{column("id", types.BigIntType), column("name", types.StringType)}
	tbl := table(cols, options(c, "kv", "key.format", "json", "key.fields", "id", "scan.bounded.mode", "latest-offset"))
	produce(t, c, rec("kv", 0, `{"id":1}`, `{"id":2,"name":"x"}`))
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	if got, want := coll.sorted(), []string{"+I[2, x]"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestNullValuesAreSkippedByJSON(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, rec("n", 0, "", `{"id":1}`), &kgo.Record{Topic: "n"}, rec("n", 0, "", `{"id":2}`))
	job, coll := runSource(t, table(idCols, options(c, "n")), connector.SourceSpec{}, 1)
	waitQuiet(t, job)
	if got := coll.sorted(); !slices.Equal(got, ids(1, 2)) {
		t.Fatalf("got %v", got)
	}
}

func TestDecodeErrorStopsTheJob(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, rec("ratings", 0, "", `{"id":1}`), rec("ratings", 0, "", `{"id":`))
	job, _ := runSource(t, table(idCols, options(c, "ratings")), connector.SourceSpec{}, 1)
	err := waitDone(t, job)
	const want = "source: kafka source: cannot decode value of record at topic 'ratings' partition 0 offset 1: "
	if err == nil || !strings.HasPrefix(err.Error(), want) || len(err.Error()) == len(want) {
		t.Fatalf("got %v, want %q and a reason", err, want)
	}
}

func TestStartupModes(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, numbered("s", 0, 5)...)
	adm := kadm.NewClient(newClient(t, c))
	var committed kadm.Offsets
	committed.AddOffset("s", 0, 3, -1)
	if _, err := adm.CommitOffsets(testContext(t), "g", committed); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts []string
		want []string
	}{
		{"earliest", nil, ids(0, 1, 2, 3, 4)},
		{"timestamp", []string{"scan.startup.mode", "timestamp", "scan.startup.timestamp-millis", "3000"}, ids(2, 3, 4)},
		{"timestamp after the end", []string{"scan.startup.mode", "timestamp", "scan.startup.timestamp-millis", "9000"}, nil},
		{"specific", []string{"scan.startup.mode", "specific-offsets", "scan.startup.specific-offsets", "partition:0,offset:4"}, ids(4)},
		{"group", []string{"scan.startup.mode", "group-offsets", "properties.group.id", "g"}, ids(3, 4)},
		{"group without commits", []string{"scan.startup.mode", "group-offsets", "properties.group.id", "new", "properties.auto.offset.reset", "earliest"}, ids(0, 1, 2, 3, 4)},
		{"latest", []string{"scan.startup.mode", "latest-offset"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := append([]string{"scan.bounded.mode", "latest-offset"}, tc.opts...)
			job, coll := runSource(t, table(idCols, options(c, "s", opts...)), connector.SourceSpec{}, 1)
			if err := waitDone(t, job); err != nil {
				t.Fatal(err)
			}
			if got := coll.sorted(); !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}

	t.Run("group without commits or reset", func(t *testing.T) {
		job, _ := runSource(t, table(idCols, options(c, "s", "scan.startup.mode", "group-offsets", "properties.group.id", "other")), connector.SourceSpec{}, 1)
		err := waitDone(t, job)
		want := "source: kafka source: undefined offset with no reset policy for topic 's' partition 0: group 'other' has no committed offset; " +
			"set 'properties.auto.offset.reset' to 'earliest' or 'latest'"
		if err == nil || err.Error() != want {
			t.Fatalf("got %v, want %q", err, want)
		}
	})

	t.Run("latest reads new records", func(t *testing.T) {
		job, coll := runSource(t, table(idCols, options(c, "s", "scan.startup.mode", "latest-offset")), connector.SourceSpec{}, 1)
		waitQuiet(t, job)
		produce(t, c, rec("s", 0, "", `{"id":10}`))
		waitQuiet(t, job)
		if got := coll.sorted(); !slices.Equal(got, ids(10)) {
			t.Fatalf("got %v", got)
		}
	})
}

func TestBoundedModes(t *testing.T) {
	c := startCluster(t, 2)
	produce(t, c, numbered("b", 0, 5)...)
	produce(t, c, numbered("b", 1, 2)...)
	adm := kadm.NewClient(newClient(t, c))
	var committed kadm.Offsets
	committed.AddOffset("b", 0, 2, -1)
	committed.AddOffset("b", 1, 1, -1)
	if _, err := adm.CommitOffsets(testContext(t), "g", committed); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts []string
		want []string
	}{
		{"timestamp", []string{"scan.bounded.mode", "timestamp", "scan.bounded.timestamp-millis", "2000"}, ids(0, 0)},
		{"specific", []string{"scan.bounded.mode", "specific-offsets", "scan.bounded.specific-offsets", "partition:0,offset:3"}, ids(0, 1, 2)},
		{"group", []string{"scan.bounded.mode", "group-offsets", "properties.group.id", "g"}, ids(0, 0, 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			job, coll := runSource(t, table(idCols, options(c, "b", tc.opts...)), connector.SourceSpec{}, 1)
			if err := waitDone(t, job); err != nil {
				t.Fatal(err)
			}
			if got := coll.sorted(); !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}

	t.Run("latest offsets are fixed at start", func(t *testing.T) {
		cols := append(slices.Clone(idCols), metadata("part", types.IntType, "partition", true))
		tbl := table(cols, options(c, "b", "scan.bounded.mode", "latest-offset"))
		var (
			more sync.Once
			mu   sync.Mutex
			seen = map[int64]bool{}
		)
		// Records written once both instances have begun reading (each
		// fixed its partition's end before its first row) are past the end.
		spec := connector.SourceSpec{Complete: func(ch *types.Chunk) error {
			mu.Lock()
			for i := range ch.Len() {
				seen[ch.Cols[1].Get(i).I] = true
			}
			both := len(seen) == 2
			mu.Unlock()
			var err error
			if both {
				more.Do(func() { err = tryProduce(c, rec("b", 0, "", `{"id":100}`), rec("b", 1, "", `{"id":101}`)) })
			}
			return err
		}}
		job, coll := runSource(t, tbl, spec, 2)
		if err := waitDone(t, job); err != nil {
			t.Fatal(err)
		}
		want := []string{"+I[0, 0]", "+I[0, 1]", "+I[1, 0]", "+I[1, 1]", "+I[2, 0]", "+I[3, 0]", "+I[4, 0]"}
		if got := coll.sorted(); !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
		coll.mu.Lock()
		defer coll.mu.Unlock()
		if !coll.finished || coll.wms[len(coll.wms)-1] != runtime.MaxWatermark {
			t.Fatalf("finished=%v watermarks=%v: a bounded source ends with the max watermark", coll.finished, coll.wms)
		}
	})
}

func TestInstancesSplitPartitions(t *testing.T) {
	c := startCluster(t, 4)
	cols := append(slices.Clone(idCols), metadata("part", types.IntType, "partition", true))
	var rs []*kgo.Record
	var want []string
	for p := range int32(4) {
		for i := range 3 {
			rs = append(rs, rec("parts", p, "", fmt.Sprintf(`{"id":%d}`, int(p)*10+i)))
			want = append(want, fmt.Sprintf("+I[%d, %d]", int(p)*10+i, p))
		}
	}
	produce(t, c, rs...)
	slices.Sort(want)
	job, coll := runSource(t, table(cols, options(c, "parts")), connector.SourceSpec{}, 3)
	waitQuiet(t, job)
	if got := coll.sorted(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}

	// Instance i reads the partitions p with p mod n = i.
	src, err := factoryFor(t, table(cols, options(c, "parts"))).NewSource(table(cols, options(c, "parts")), connector.SourceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	cl := newClient(t, c)
	for i, want := range [][]int32{{0, 3}, {1}, {2}} {
		in, err := src.NewInstance(i, 3)
		if err != nil {
			t.Fatal(err)
		}
		owned, err := in.(*sourceInstance).ownedPartitions(testContext(t), cl)
		if err != nil {
			t.Fatal(err)
		}
		var got []int32
		for _, tp := range owned {
			got = append(got, tp.partition)
		}
		if !slices.Equal(got, want) {
			t.Errorf("instance %d reads %v, want %v", i, got, want)
		}
	}
}

func TestMultipleTopics(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, rec("ta", 0, "", `{"id":1}`), rec("tb", 0, "", `{"id":2}`))
	cols := append(slices.Clone(idCols), metadata("topic", types.StringType, "", true))
	job, coll := runSource(t, table(cols, options(c, "ta;tb")), connector.SourceSpec{}, 2)
	waitQuiet(t, job)
	if got, want := coll.sorted(), []string{"+I[1, ta]", "+I[2, tb]"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// tsWatermark is a watermark strategy on the 'ts' column (the last one):
// WATERMARK FOR ts AS ts.
func tsWatermark(c *types.Chunk, wms *types.Vector) error {
	ts := c.Cols[len(c.Cols)-1]
	wms.Type = ts.Type
	wms.Reset()
	wms.Nulls = append(wms.Nulls, ts.Nulls...)
	wms.I64 = append(wms.I64, ts.I64...)
	return nil
}

var tsCols = append(slices.Clone(idCols), metadata("ts", types.TimestampLTZType(3), "timestamp", false))

// ms returns n milliseconds as event time (microseconds).
func ms(n int64) int64 { return n * 1000 }

// waitWatermark waits until coll has received wm.
func waitWatermark(t *testing.T, coll *collector, wm int64) {
	t.Helper()
	waitFor(t, fmt.Sprintf("watermark %d", wm), func() (bool, error) {
		return slices.Contains(coll.watermarks(), wm), nil
	})
}

func TestWatermarksArePerPartition(t *testing.T) {
	c := startCluster(t, 2)
	produce(t, c, stamped("w", 0, 5000, `{"id":1}`), stamped("w", 1, 3000, `{"id":2}`))
	spec := connector.SourceSpec{Env: connector.Env{WatermarkInterval: 10 * time.Millisecond}, Watermark: tsWatermark}

	// One instance, two partitions: the minimum.
	job, coll := runSource(t, table(tsCols, options(c, "w")), spec, 1)
	waitWatermark(t, coll, ms(3000))
	waitQuiet(t, job)
	produce(t, c, stamped("w", 1, 9000, `{"id":3}`))
	waitWatermark(t, coll, ms(5000))
	waitQuiet(t, job)
	for _, wm := range coll.watermarks() {
		if wm > ms(5000) {
			t.Fatalf("watermarks %v pass partition 0", coll.watermarks())
		}
	}
	job.Cancel()

	// Three instances on two partitions: the third is idle and does not
	// hold the watermark back.
	job, coll = runSource(t, table(tsCols, options(c, "w")), spec, 3)
	waitWatermark(t, coll, ms(5000))
	waitQuiet(t, job)
}

func TestIdlePartitionReleasesWatermark(t *testing.T) {
	c := startCluster(t, 2)
	produce(t, c, stamped("idle", 0, 5000, `{"id":1}`))
	spec := connector.SourceSpec{
		Env:       connector.Env{WatermarkInterval: 10 * time.Millisecond, IdleTimeout: 50 * time.Millisecond},
		Watermark: tsWatermark,
	}
	_, coll := runSource(t, table(tsCols, options(c, "idle")), spec, 1)
	// Partition 0 keeps receiving data; partition 1 never does, and after
	// the idle timeout it is left out.
	waitFor(t, "watermark 5000", func() (bool, error) {
		produce(t, c, stamped("idle", 0, 5000, `{"id":1}`))
		return slices.Contains(coll.watermarks(), ms(5000)), nil
	})
}

func TestCaughtUpWaitsForUnreadRecords(t *testing.T) {
	c := startCluster(t, 1)
	entered, release := make(chan struct{}), make(chan struct{})
	first := true
	spec := connector.SourceSpec{Complete: func(*types.Chunk) error {
		if first {
			first = false
			close(entered)
			<-release
		}
		return nil
	}}
	job, coll := runSource(t, table(idCols, options(c, "cu")), spec, 1)
	waitQuiet(t, job) // an empty topic: caught up
	produce(t, c, rec("cu", 0, "", `{"id":1}`), rec("cu", 0, "", `{"id":2}`))
	<-entered
	// The records are fetched but not emitted yet.
	if quiet, err := job.Quiet(testContext(t)); err != nil || quiet {
		t.Fatalf("quiet=%v err=%v with unemitted records", quiet, err)
	}
	close(release)
	waitQuiet(t, job)
	if got := coll.sorted(); !slices.Equal(got, ids(1, 2)) {
		t.Fatalf("got %v", got)
	}
}

func TestPartitionDiscovery(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, rec("grow", 0, "", `{"id":1}`))
	tbl := table(idCols, options(c, "grow", "scan.topic-partition-discovery.interval", "20 ms"))
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 2)
	waitQuiet(t, job)
	if _, err := kadm.NewClient(newClient(t, c)).CreatePartitions(testContext(t), 1, "grow"); err != nil {
		t.Fatal(err)
	}
	produce(t, c, rec("grow", 1, "", `{"id":2}`))
	waitFor(t, "the new partition's record", func() (bool, error) {
		return slices.Equal(coll.sorted(), ids(1, 2)), job.Err()
	})
}

func TestGroupOffsetsAreCommitted(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, numbered("g", 0, 3)...)
	tbl := table(idCols, options(c, "g", "properties.group.id", "readers", "properties.auto.commit.interval.ms", "20"))
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	waitQuiet(t, job)
	adm := kadm.NewClient(newClient(t, c))
	waitFor(t, "the periodic commit", func() (bool, error) {
		offsets, err := adm.FetchOffsets(testContext(t), "readers")
		if errors.Is(err, kerr.GroupIDNotFound) {
			return false, nil
		}
		o, ok := offsets.Lookup("g", 0)
		return ok && o.At == 3, err
	})
	job.Cancel()
	<-job.Done()
	if got := coll.sorted(); !slices.Equal(got, ids(0, 1, 2)) {
		t.Fatalf("got %v", got)
	}

	// The next run resumes after the committed offset.
	produce(t, c, rec("g", 0, "", `{"id":3}`))
	job, coll = runSource(t, table(idCols, options(c, "g", "properties.group.id", "readers", "scan.startup.mode", "group-offsets")), connector.SourceSpec{}, 1)
	waitQuiet(t, job)
	if got := coll.sorted(); !slices.Equal(got, ids(3)) {
		t.Fatalf("got %v", got)
	}
}

func TestCaughtUpAfterTransactionMarkers(t *testing.T) {
	c := startCluster(t, 1)
	createTopic(t, c, "tx", 1)
	p := newClient(t, c, kgo.TransactionalID("writer"), kgo.DefaultProduceTopic("tx"))
	ctx := testContext(t)
	if err := p.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	if err := p.ProduceSync(ctx, rec("tx", 0, "", `{"id":1}`)).FirstErr(); err != nil {
		t.Fatal(err)
	}
	if err := p.EndTransaction(ctx, kgo.TryCommit); err != nil {
		t.Fatal(err)
	}
	// The partition ends with a commit marker, which is no row but must be
	// read past.
	for _, iso := range []string{"read_uncommitted", "read_committed"} {
		job, coll := runSource(t, table(idCols, options(c, "tx", "properties.isolation.level", iso)), connector.SourceSpec{}, 1)
		waitQuiet(t, job)
		if got := coll.sorted(); !slices.Equal(got, ids(1)) {
			t.Fatalf("%s: got %v", iso, got)
		}
	}
}

func TestChunksAreBounded(t *testing.T) {
	c := startCluster(t, 1)
	const n = 2*types.ChunkSize + 100
	produce(t, c, numbered("many", 0, n)...)
	job, coll := runSource(t, table(idCols, options(c, "many", "scan.bounded.mode", "latest-offset")), connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	coll.mu.Lock()
	defer coll.mu.Unlock()
	if len(coll.rows) != n || coll.maxChunk > types.ChunkSize {
		t.Fatalf("%d rows in chunks of up to %d, want %d in chunks of at most %d", len(coll.rows), coll.maxChunk, n, types.ChunkSize)
	}
}

// TestBoundedSourceLeavesItsEndToTheRuntime: a bounded source that has read
// everything is about to end, so it does not call itself caught up, not
// even once Run has returned: between that return and its end of input
// reaching downstream, only the runtime can tell (runtime.Job.Quiet).
func TestBoundedSourceLeavesItsEndToTheRuntime(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, numbered("bounded", 0, 3)...)
	tbl := table(idCols, options(c, "bounded", "scan.bounded.mode", "latest-offset"))
	src, err := factoryFor(t, tbl).NewSource(tbl, connector.SourceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	inst, err := src.NewInstance(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	coll := &collector{}
	g := &runtime.Graph{Stages: []*runtime.Stage{
		{Name: "source", Parallelism: 1, NewSource: func(int) (runtime.Source, error) { return inst, nil }},
		{Name: "collect", Parallelism: 1, NewOperator: func(int) (runtime.Operator, error) { return coll, nil },
			Inputs: []runtime.Input{{Stage: 0, Exchange: runtime.Single}}},
	}}
	job, err := runtime.Start(testContext(t), g)
	if err != nil {
		t.Fatal(err)
	}
	<-job.Done()
	if err := job.Err(); err != nil {
		t.Fatal(err)
	}
	if got := coll.sorted(); !slices.Equal(got, ids(0, 1, 2)) {
		t.Fatalf("got %v", got)
	}
	if ok, err := inst.(runtime.Quiescer).CaughtUp(testContext(t)); err != nil || ok {
		t.Fatalf("CaughtUp = %v, %v after the bounded source ended; want false", ok, err)
	}
}

// A projection pushed into the source: only the columns asked for, in
// that order, are read; a key no column reads is not decoded, as in
// Flink's KafkaDynamicSource.
func TestProjectedColumns(t *testing.T) {
	c := startCluster(t, 1)
	cols := []catalog.Column{
		column("k_id", types.BigIntType),
		column("name", types.StringType),
		column("age", types.IntType),
		metadata("part", types.IntType, "partition", true),
		metadata("off", types.BigIntType, "offset", true),
	}
	tbl := table(cols, options(c, "people", "key.format", "json", "key.fields", "k_id", "key.fields-prefix", "k_",
		"value.fields-include", "EXCEPT_KEY", "scan.bounded.mode", "latest-offset"))
	// The second key is no JSON and the second age no INT: neither is read.
	produce(t, c, rec("people", 0, `{"id":7}`, `{"name":"ann","age":3}`), rec("people", 0, `{`, `{"name":"bob","age":"x"}`))
	job, coll := runSource(t, tbl, connector.SourceSpec{Columns: []int{4, 1}}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	if got, want := coll.sorted(), []string{"+I[0, ann]", "+I[1, bob]"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// Reading the key again, its error names the record.
	job, _ = runSource(t, tbl, connector.SourceSpec{Columns: []int{0, 1}}, 1)
	const want = "source: kafka source: cannot decode key of record at topic 'people' partition 0 offset 1: "
	if err := waitDone(t, job); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v, want %q and a reason", err, want)
	}
}

// A message that is no JSON fails the job with its position even when
// none of its fields is read.
func TestProjectedDecodeErrorStopsTheJob(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, rec("r", 0, "", `{"id":1}`), rec("r", 0, "", `{"id":`))
	cols := []catalog.Column{column("id", types.BigIntType), metadata("off", types.BigIntType, "offset", true)}
	job, _ := runSource(t, table(cols, options(c, "r")), connector.SourceSpec{Columns: []int{1}}, 1)
	err := waitDone(t, job)
	const want = "source: kafka source: cannot decode value of record at topic 'r' partition 0 offset 1: invalid JSON"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// failAt is an operator that fails the job at the row whose first column
// is id, as a sink refusing a row or a failing expression does.
type failAt struct {
	collector
	id int64
}

func (f *failAt) ProcessChunk(input int, ch *types.Chunk, out runtime.Emitter) error {
	for i := range ch.Ops {
		if ch.Cols[0].Get(i) == types.IntValue(f.id) {
			return fmt.Errorf("row %d refused", f.id)
		}
	}
	return f.collector.ProcessChunk(input, ch, out)
}

// TestStoppedJobCommitsNoFurtherOffsets: a job without checkpoints that is
// cancelled commits none of the positions its source emitted since its
// last periodic commit (rows in flight are dropped with the job), so that
// the group reads them again.
func TestStoppedJobCommitsNoFurtherOffsets(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, numbered("stops", 0, 3)...)
	tbl := table(idCols, options(c, "stops", "properties.group.id", "stopping", "properties.auto.commit.interval.ms", "3600000"))
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	waitFor(t, "the rows", func() (bool, error) { return slices.Equal(coll.sorted(), ids(0, 1, 2)), job.Err() })
	job.Cancel()
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	offsets, err := kadm.NewClient(newClient(t, c)).FetchOffsets(testContext(t), "stopping")
	if err != nil && !errors.Is(err, kerr.GroupIDNotFound) {
		t.Fatal(err)
	}
	if o, ok := offsets.Lookup("stops", 0); ok {
		t.Fatalf("committed offset %d at the stop", o.At)
	}
}

// TestFailedJobCommitsNoFurtherOffsets: a job without checkpoints that
// fails downstream of its source commits none of the positions the source
// emitted (the rows in flight never reached a sink), so that the group
// reads the failing row and those after it again.
func TestFailedJobCommitsNoFurtherOffsets(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, numbered("fails", 0, 5)...)
	// No periodic commit: what the group holds is the final commit's.
	tbl := table(idCols, options(c, "fails", "properties.group.id", "failing", "properties.auto.commit.interval.ms", "3600000"))
	src, err := factoryFor(t, tbl).NewSource(tbl, connector.SourceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	g := &runtime.Graph{Stages: []*runtime.Stage{
		{Name: "source", Parallelism: 1, NewSource: func(i int) (runtime.Source, error) { return src.NewInstance(i, 1) }},
		{Name: "fail", Parallelism: 1, NewOperator: func(int) (runtime.Operator, error) { return &failAt{id: 2}, nil },
			Inputs: []runtime.Input{{Stage: 0, Exchange: runtime.Forward}}},
	}}
	job, err := runtime.Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if err := waitDone(t, job); err == nil || !strings.Contains(err.Error(), "row 2 refused") {
		t.Fatalf("job ended with %v, want the refused row", err)
	}
	offsets, err := kadm.NewClient(newClient(t, c)).FetchOffsets(testContext(t), "failing")
	if err != nil && !errors.Is(err, kerr.GroupIDNotFound) {
		t.Fatal(err)
	}
	if o, ok := offsets.Lookup("fails", 0); ok && o.At > 2 {
		t.Fatalf("committed offset %d past the failing row at offset 2", o.At)
	}
}

// TestBatchJobCommitsNoOffsets: a job in batch mode takes no checkpoints,
// so its source commits no offsets, neither on the way (the group would
// skip rows a restarted job had not written yet) nor at the end of its
// input, as Flink's KafkaSource commits only when a checkpoint completes.
func TestBatchJobCommitsNoOffsets(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, numbered("batch", 0, 5)...)
	tbl := table(idCols, options(c, "batch", "properties.group.id", "batching", "properties.auto.commit.interval.ms", "1",
		"scan.bounded.mode", "latest-offset"))
	src, err := factoryFor(t, tbl).NewSource(tbl, connector.SourceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	coll := &collector{}
	g := &runtime.Graph{HoldWatermarks: true, Stages: []*runtime.Stage{
		{Name: "source", Parallelism: 1, NewSource: func(i int) (runtime.Source, error) { return src.NewInstance(i, 1) }},
		{Name: "collect", Parallelism: 1, NewOperator: func(int) (runtime.Operator, error) { return coll, nil },
			Inputs: []runtime.Input{{Stage: 0, Exchange: runtime.Forward}}},
	}}
	job, err := runtime.Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	if got := coll.sorted(); !slices.Equal(got, ids(0, 1, 2, 3, 4)) {
		t.Fatalf("rows %v", got)
	}
	offsets, err := kadm.NewClient(newClient(t, c)).FetchOffsets(testContext(t), "batching")
	if err != nil && !errors.Is(err, kerr.GroupIDNotFound) {
		t.Fatal(err)
	}
	if o, ok := offsets.Lookup("batch", 0); ok {
		t.Fatalf("a batch job committed offset %d", o.At)
	}
}

// TestJSONArrayValueGivesOneRowPerElement: since Flink 2.1 (FLINK-18590)
// the json format reads a value whose top-level value is an array as one
// row per element, each with the record's key and metadata.
func TestJSONArrayValueGivesOneRowPerElement(t *testing.T) {
	c := startCluster(t, 1)
	cols := []catalog.Column{
		column("k_id", types.BigIntType),
		column("a", types.BigIntType),
		metadata("off", types.BigIntType, "offset", true),
	}
	tbl := table(cols, options(c, "arrays", "key.format", "json", "key.fields", "k_id", "key.fields-prefix", "k_",
		"value.fields-include", "EXCEPT_KEY", "scan.bounded.mode", "latest-offset"))
	produce(t, c,
		rec("arrays", 0, `{"id":7}`, `[{"a":1},{"a":2}]`),
		rec("arrays", 0, `{"id":8}`, `[]`),
		rec("arrays", 0, `{"id":9}`, `{"a":3}`),
	)
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	want := []string{"+I[7, 1, 0]", "+I[7, 2, 0]", "+I[9, 3, 2]"}
	if got := coll.sorted(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestJSONArrayElementNotAnObjectStopsTheJob: an element that is not an
// object is an error naming the record, unless 'json.ignore-parse-errors'
// is set, when the element gives no row.
func TestJSONArrayElementNotAnObjectStopsTheJob(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, rec("elems", 0, "", `[{"id":1}]`), rec("elems", 0, "", `[{"id":2},3,{"id":4}]`))
	job, _ := runSource(t, table(idCols, options(c, "elems", "scan.bounded.mode", "latest-offset")), connector.SourceSpec{}, 1)
	err := waitDone(t, job)
	const want = "source: kafka source: cannot decode value of record at topic 'elems' partition 0 offset 1: " +
		"element 1 of the top-level array: invalid JSON row: expected an object, got number"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}

	job, coll := runSource(t, table(idCols, options(c, "elems", "scan.bounded.mode", "latest-offset", "json.ignore-parse-errors", "true")), connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	if got := coll.sorted(); !slices.Equal(got, ids(1, 2, 4)) {
		t.Fatalf("got %v", got)
	}
}
