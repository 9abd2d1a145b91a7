package kafka

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

const testTimeout = 15 * time.Second

// startCluster runs a broker with the given default partition count.
func startCluster(t *testing.T, partitions int) *devcluster.Cluster {
	t.Helper()
	c, err := devcluster.Start(devcluster.Options{Partitions: partitions})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

func newClient(t *testing.T, c *devcluster.Cluster, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(c.BootstrapServers())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

func createTopic(t *testing.T, c *devcluster.Cluster, topic string, partitions int32) {
	t.Helper()
	if _, err := kadm.NewClient(newClient(t, c)).CreateTopic(testContext(t), partitions, -1, nil, topic); err != nil {
		t.Fatal(err)
	}
}

// produce writes records synchronously with a plain client.
func produce(t *testing.T, c *devcluster.Cluster, rs ...*kgo.Record) {
	t.Helper()
	if err := tryProduce(c, rs...); err != nil {
		t.Fatal(err)
	}
}

// tryProduce is produce for goroutines other than the test's.
func tryProduce(c *devcluster.Cluster, rs ...*kgo.Record) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.BootstrapServers()), kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.AllowAutoTopicCreation())
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	return cl.ProduceSync(ctx, rs...).FirstErr()
}

func rec(topic string, partition int32, key, value string) *kgo.Record {
	r := &kgo.Record{Topic: topic, Partition: partition, Value: []byte(value)}
	if key != "" {
		r.Key = []byte(key)
	}
	return r
}

// consumeAll reads every record of topic up to its current end offsets.
func consumeAll(t *testing.T, c *devcluster.Cluster, topic string) []*kgo.Record {
	t.Helper()
	ctx := testContext(t)
	cl := newClient(t, c)
	ends, err := kadm.NewClient(cl).ListEndOffsets(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	want := int64(0)
	parts := map[int32]kgo.Offset{}
	ends.Each(func(o kadm.ListedOffset) {
		want += o.Offset
		parts[o.Partition] = kgo.NewOffset().AtStart()
	})
	cl.AddConsumePartitions(map[string]map[int32]kgo.Offset{topic: parts})
	var out []*kgo.Record
	for int64(len(out)) < want {
		fs := cl.PollFetches(ctx)
		if err := fs.Err(); err != nil {
			t.Fatal(err)
		}
		out = append(out, fs.Records()...)
	}
	return out
}

// column is a shorthand for a physical column.
func column(name string, typ types.Type) catalog.Column { return catalog.Column{Name: name, Type: typ} }

func metadata(name string, typ types.Type, key string, virtual bool) catalog.Column {
	return catalog.Column{Name: name, Type: typ, Metadata: true, MetadataKey: key, Virtual: virtual}
}

func table(cols []catalog.Column, opts map[string]string, pk ...string) *catalog.Table {
	return &catalog.Table{Name: "t", Columns: cols, Options: opts, PrimaryKey: pk}
}

// options returns the options of a 'kafka' table on c, plus extra ones
// (an empty value removes a default).
func options(c *devcluster.Cluster, topic string, extra ...string) map[string]string {
	o := map[string]string{
		"connector":                    "kafka",
		"topic":                        topic,
		"properties.bootstrap.servers": c.BootstrapServers(),
		"scan.startup.mode":            "earliest-offset",
		"format":                       "json",
	}
	for i := 0; i < len(extra); i += 2 {
		if extra[i+1] == "" {
			delete(o, extra[i])
		} else {
			o[extra[i]] = extra[i+1]
		}
	}
	return o
}

func factoryFor(t *testing.T, tbl *catalog.Table) connector.Factory {
	t.Helper()
	f, err := connector.For(tbl)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// collector gathers what a source emits, rendered as "+I[a, b]".
type collector struct {
	mu       sync.Mutex
	rows     []string
	wms      []int64
	finished bool
	maxChunk int
}

func (c *collector) Open(*runtime.Context) error { return nil }

func (c *collector) ProcessChunk(_ int, ch *types.Chunk, _ runtime.Emitter) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.maxChunk = max(c.maxChunk, ch.Len())
	for i := range ch.Ops {
		c.rows = append(c.rows, renderRow(ch, i))
	}
	return nil
}

func renderRow(ch *types.Chunk, i int) string {
	vals := make([]string, len(ch.Cols))
	for j, col := range ch.Cols {
		vals[j] = types.PrintValue(col.Type, col.Get(i), time.UTC)
	}
	return ch.Ops[i].String() + "[" + strings.Join(vals, ", ") + "]"
}

func (c *collector) ProcessWatermark(wm int64, _ runtime.Emitter) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wms = append(c.wms, wm)
	return nil
}

func (c *collector) Finish(runtime.Emitter) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.finished = true
	return nil
}

// sorted returns the collected rows, sorted.
func (c *collector) sorted() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Sorted(slices.Values(c.rows))
}

func (c *collector) watermarks() []int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.wms)
}

// runSource reads tbl with n source instances into a collector.
func runSource(t *testing.T, tbl *catalog.Table, spec connector.SourceSpec, n int) (*runtime.Job, *collector) {
	t.Helper()
	job, coll, _ := runSourceInstances(t, tbl, spec, n)
	return job, coll
}

// runSourceInstances is runSource that also returns the source instances.
func runSourceInstances(t *testing.T, tbl *catalog.Table, spec connector.SourceSpec, n int) (*runtime.Job, *collector, []*sourceInstance) {
	t.Helper()
	src, err := factoryFor(t, tbl).NewSource(tbl, spec)
	if err != nil {
		t.Fatal(err)
	}
	coll := &collector{}
	instances := make([]*sourceInstance, n)
	g := &runtime.Graph{Stages: []*runtime.Stage{
		{Name: "source", Parallelism: n, NewSource: func(i int) (runtime.Source, error) {
			in, err := src.NewInstance(i, n)
			if err == nil {
				instances[i] = in.(*sourceInstance)
			}
			return in, err
		}},
		{Name: "collect", Parallelism: 1, NewOperator: func(int) (runtime.Operator, error) { return coll, nil },
			Inputs: []runtime.Input{{Stage: 0, Exchange: runtime.Single}}},
	}}
	job, err := runtime.Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		job.Cancel()
		<-job.Done()
	})
	return job, coll, instances
}

// waitQuiet polls until the job has processed everything available.
func waitQuiet(t *testing.T, job *runtime.Job) {
	t.Helper()
	waitFor(t, "the job to catch up", func() (bool, error) { return job.Quiet(testContext(t)) })
	if err := job.Err(); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls cond until it holds, failing the test after testTimeout.
func waitFor(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for {
		ok, err := cond()
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitDone waits for a job to end by itself and returns its error.
func waitDone(t *testing.T, job *runtime.Job) error {
	t.Helper()
	select {
	case <-job.Done():
		return job.Err()
	case <-time.After(testTimeout):
		t.Fatal("timed out waiting for the job to end")
		return nil
	}
}

// writeRows runs rows through a sink instance of tbl and finishes it.
func writeRows(t *testing.T, tbl *catalog.Table, instance, n int, ch *types.Chunk) {
	t.Helper()
	sink, err := factoryFor(t, tbl).NewSink(tbl, connector.Env{TimeZone: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	op, err := sink.NewInstance(instance, n)
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Open(&runtime.Context{Instance: instance, Parallelism: n}); err != nil {
		t.Fatal(err)
	}
	if err := op.ProcessChunk(0, ch, nil); err != nil {
		t.Fatal(err)
	}
	if err := op.Finish(nil); err != nil {
		t.Fatal(err)
	}
}

// chunk builds a chunk from rows of Go values: int, int64, string, nil.
func chunk(ts []types.Type, rows ...[]any) *types.Chunk {
	c := types.NewChunk(ts, len(rows))
	for _, r := range rows {
		kind := types.Insert
		if k, ok := r[0].(types.RowKind); ok {
			kind, r = k, r[1:]
		}
		row := make(types.Row, len(r))
		for i, v := range r {
			switch v := v.(type) {
			case nil:
				row[i] = types.NullValue
			case int:
				row[i] = types.IntValue(int64(v))
			case int64:
				row[i] = types.IntValue(v)
			case float64:
				row[i] = types.FloatValue(v)
			case string:
				row[i] = types.StringValue(v)
			default:
				panic(fmt.Sprintf("unsupported value %T", v))
			}
		}
		c.AppendRow(kind, row)
	}
	return c
}
