package kafka

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// keyValue renders records as "key|value@partition".
func keyValue(rs []*kgo.Record) []string {
	var out []string
	for _, r := range rs {
		k := "<null>"
		if r.Key != nil {
			k = string(r.Key)
		}
		v := "<null>"
		if r.Value != nil {
			v = string(r.Value)
		}
		out = append(out, k+"|"+v)
	}
	return out
}

func TestSinkKeyValueAndTimestamp(t *testing.T) {
	c := startCluster(t, 1)
	cols := []catalog.Column{
		column("k_name", types.StringType),
		metadata("ts", types.TimestampType(3), "timestamp", false),
		metadata("off", types.BigIntType, "offset", true),
		column("cnt", types.IntType),
	}
	tbl := table(cols, options(c, "kv-out", "key.format", "raw", "key.fields", "k_name", "key.fields-prefix", "k_",
		"value.fields-include", "EXCEPT_KEY"))
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	sink, err := factoryFor(t, tbl).NewSink(tbl, connector.Env{TimeZone: shanghai})
	if err != nil {
		t.Fatal(err)
	}
	if m := factoryFor(t, tbl).Accepts(tbl); m != connector.InsertOnly {
		t.Fatalf("accepts %v", m)
	}
	op, err := sink.NewInstance(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Open(&runtime.Context{Parallelism: 1}); err != nil {
		t.Fatal(err)
	}
	// Input columns: the persisted ones, k_name, ts and cnt. The TIMESTAMP
	// is wall-clock time in Shanghai: 08:00 there is midnight UTC.
	wall := time.Date(2024, 5, 6, 8, 0, 0, 0, time.UTC).UnixMicro()
	in := chunk([]types.Type{types.StringType, types.TimestampType(3), types.IntType},
		[]any{"ann", wall, 1}, []any{"bob", nil, 2})
	if err := op.ProcessChunk(0, in, nil); err != nil {
		t.Fatal(err)
	}
	if err := op.Finish(nil); err != nil {
		t.Fatal(err)
	}
	rs := consumeAll(t, c, "kv-out")
	if got, want := keyValue(rs), []string{`ann|{"cnt":1}`, `bob|{"cnt":2}`}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if want := time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC); !rs[0].Timestamp.Equal(want) {
		t.Fatalf("timestamp %v, want %v", rs[0].Timestamp, want)
	}
	if time.Since(rs[1].Timestamp) > time.Minute {
		t.Fatalf("a NULL timestamp should give the current time, got %v", rs[1].Timestamp)
	}
}

func TestSinkPartitioners(t *testing.T) {
	c := startCluster(t, 3)
	rows := [][]any{{1, "a"}, {2, "b"}, {3, "c"}, {4, "d"}, {5, "e"}, {6, "f"}}
	partitions := func(topic string, extra []string, instance int) map[int32]int {
		t.Helper()
		tbl := table(userCols, options(c, topic, extra...))
		writeRows(t, tbl, instance, 2, chunk(tbl.Schema().Types(), rows...))
		got := map[int32]int{}
		for _, r := range consumeAll(t, c, topic) {
			got[r.Partition]++
		}
		return got
	}
	if got := partitions("fixed", []string{"sink.partitioner", "fixed"}, 1); len(got) != 1 || got[1] != 6 {
		t.Errorf("fixed: instance 1 wrote to %v, want all in partition 1", got)
	}
	if got := partitions("rr", []string{"sink.partitioner", "round-robin"}, 0); got[0] != 2 || got[1] != 2 || got[2] != 2 {
		t.Errorf("round-robin: got %v, want 2 per partition", got)
	}

	// The default partitioner hashes keys with murmur2, as Kafka's does.
	tbl := table(userCols, options(c, "keyed", "key.format", "raw", "key.fields", "name"))
	writeRows(t, tbl, 0, 1, chunk(tbl.Schema().Types(), rows...))
	kafka := kgo.StickyKeyPartitioner(nil).ForTopic("keyed")
	for _, r := range consumeAll(t, c, "keyed") {
		if want := int32(kafka.Partition(r, 3)); r.Partition != want {
			t.Errorf("key %q in partition %d, want %d", r.Key, r.Partition, want)
		}
	}
}

func TestSinkRejectsUpdates(t *testing.T) {
	c := startCluster(t, 1)
	tbl := table(userCols, options(c, "ins"))
	sink, err := factoryFor(t, tbl).NewSink(tbl, connector.Env{})
	if err != nil {
		t.Fatal(err)
	}
	op, err := sink.NewInstance(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Open(&runtime.Context{}); err != nil {
		t.Fatal(err)
	}
	defer op.Finish(nil)
	err = op.ProcessChunk(0, chunk(tbl.Schema().Types(), []any{types.UpdateAfter, 1, "a"}), nil)
	want := "kafka sink: the 'kafka' connector only writes insert-only input, but got a +U row; use 'upsert-kafka' for updating results"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

func TestSinkCaughtUp(t *testing.T) {
	c := startCluster(t, 1)
	tbl := table(userCols, options(c, "q"))
	sink, err := factoryFor(t, tbl).NewSink(tbl, connector.Env{})
	if err != nil {
		t.Fatal(err)
	}
	op, err := sink.NewInstance(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Open(&runtime.Context{}); err != nil {
		t.Fatal(err)
	}
	defer op.Finish(nil)
	q := op.(runtime.Quiescer)
	if err := op.ProcessChunk(0, chunk(tbl.Schema().Types(), []any{1, "a"}, []any{2, "b"}), nil); err != nil {
		t.Fatal(err)
	}
	// Without Finish, the records are written once CaughtUp holds.
	waitFor(t, "the sink to catch up", func() (bool, error) { return q.CaughtUp(context.Background()) })
	if got := consumeAll(t, c, "q"); len(got) != 2 {
		t.Fatalf("got %d records, want 2", len(got))
	}
}

func TestSinkProduceErrorStopsTheJob(t *testing.T) {
	c := startCluster(t, 1)
	cols := []catalog.Column{column("line", types.StringType)}
	tbl := table(cols, options(c, "big", "format", "raw"))
	sink, err := factoryFor(t, tbl).NewSink(tbl, connector.Env{})
	if err != nil {
		t.Fatal(err)
	}

	// Run the sink in a job fed by a source that emits one huge row.
	g := &runtime.Graph{Stages: []*runtime.Stage{
		{Name: "rows", Parallelism: 1, NewSource: func(int) (runtime.Source, error) {
			return sourceFunc(func(ctx *runtime.SourceContext, out runtime.Emitter) error {
				out.Emit(chunk([]types.Type{types.StringType}, []any{strings.Repeat("x", 2<<20)}))
				<-ctx.Ctx.Done()
				return nil
			}), nil
		}},
		{Name: "sink", Parallelism: 1, NewOperator: func(i int) (runtime.Operator, error) { return sink.NewInstance(i, 1) },
			Inputs: []runtime.Input{{Stage: 0, Exchange: runtime.Forward}}},
	}}
	job, err := runtime.Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	err = waitDone(t, job)
	if err == nil || !strings.HasPrefix(err.Error(), "kafka sink: writing to topic 'big': ") {
		t.Fatalf("got %v, want a produce error", err)
	}
}

// sourceFunc adapts a function to runtime.Source.
type sourceFunc func(ctx *runtime.SourceContext, out runtime.Emitter) error

func (f sourceFunc) Run(ctx *runtime.SourceContext, out runtime.Emitter) error { return f(ctx, out) }

func TestAvroConfluentRoundTrip(t *testing.T) {
	c := startCluster(t, 1)
	tbl := table(userCols, options(c, "avro", "format", "", "value.format", "avro-confluent", "value.avro-confluent.url", c.RegistryURL(),
		"key.format", "avro-confluent", "key.avro-confluent.url", c.RegistryURL(), "key.fields", "id",
		"scan.bounded.mode", "latest-offset"))
	writeRows(t, tbl, 0, 1, chunk(tbl.Schema().Types(), []any{1, "ann"}, []any{2, nil}))
	for _, subject := range []string{"avro-key", "avro-value"} {
		if !c.Registry().SubjectExists(subject) {
			t.Errorf("subject %q not registered", subject)
		}
	}
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	if got, want := coll.sorted(), []string{"+I[1, ann]", "+I[2, <NULL>]"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestSinkCancelWithBrokerGone stops a job whose sink is blocked on a full
// produce buffer because the broker went away: cancelling must not wait for
// the records' delivery timeout.
func TestSinkCancelWithBrokerGone(t *testing.T) {
	c := startCluster(t, 1)
	cols := []catalog.Column{column("line", types.StringType)}
	tbl := table(cols, options(c, "gone", "format", "raw"))
	sink, err := factoryFor(t, tbl).NewSink(tbl, connector.Env{})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]any, 1000)
	for i := range rows {
		rows[i] = []any{fmt.Sprint("line ", i)}
	}
	var sent atomic.Int64
	g := &runtime.Graph{Stages: []*runtime.Stage{
		{Name: "rows", Parallelism: 1, NewSource: func(int) (runtime.Source, error) {
			return sourceFunc(func(ctx *runtime.SourceContext, out runtime.Emitter) error {
				for ctx.Ctx.Err() == nil {
					out.Emit(chunk([]types.Type{types.StringType}, rows...))
					sent.Add(int64(len(rows)))
				}
				return nil
			}), nil
		}},
		{Name: "sink", Parallelism: 1, NewOperator: func(i int) (runtime.Operator, error) { return sink.NewInstance(i, 1) },
			Inputs: []runtime.Input{{Stage: 0, Exchange: runtime.Forward}}},
	}}
	job, err := runtime.Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	adm := kadm.NewClient(newClient(t, c))
	waitFor(t, "records in the topic", func() (bool, error) {
		ends, err := adm.ListEndOffsets(context.Background(), "gone")
		if err != nil {
			return false, nil // not created yet
		}
		o, _ := ends.Lookup("gone", 0)
		return o.Offset > 0, nil
	})
	c.Close()
	// Past the client's buffer (10,000 records by default) Produce blocks.
	waitFor(t, "the source to stall", func() (bool, error) {
		before := sent.Load()
		time.Sleep(200 * time.Millisecond)
		return before > 10000 && sent.Load() == before, nil
	})
	job.Cancel()
	if err := waitDone(t, job); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled job ended with %v", err)
	}
}
