package kafka

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// upsertTable is (id BIGINT, name STRING, PRIMARY KEY (id)) on topic.
func upsertTable(c *devcluster.Cluster, topic string, extra ...string) *catalog.Table {
	o := map[string]string{
		"connector":                    "upsert-kafka",
		"topic":                        topic,
		"properties.bootstrap.servers": c.BootstrapServers(),
		"key.format":                   "json",
		"value.format":                 "json",
	}
	for i := 0; i < len(extra); i += 2 {
		o[extra[i]] = extra[i+1]
	}
	return table(userCols, o, "id")
}

func tombstone(topic, key string) *kgo.Record {
	return &kgo.Record{Topic: topic, Key: []byte(key)}
}

func TestUpsertSourceTombstones(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c,
		rec("all", 0, `{"id":1}`, `{"id":1,"name":"a"}`),
		rec("all", 0, `{"id":2}`, `{"id":2,"name":"b"}`),
		tombstone("all", `{"id":1}`),
		// With EXCEPT_KEY the value holds only the other columns.
		rec("except", 0, `{"id":1}`, `{"name":"a"}`),
		rec("except", 0, `{"id":2}`, `{"name":"b"}`),
		tombstone("except", `{"id":1}`),
	)
	for topic, include := range map[string]string{"all": "ALL", "except": "EXCEPT_KEY"} {
		t.Run(topic, func(t *testing.T) {
			tbl := upsertTable(c, topic, "value.fields-include", include, "scan.bounded.mode", "latest-offset")
			job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
			if m := factoryFor(t, tbl).Produces(tbl); m != connector.Upsert {
				t.Fatalf("an upsert-kafka table is read as %v, want upserts", m)
			}
			if err := waitDone(t, job); err != nil {
				t.Fatal(err)
			}
			coll.mu.Lock()
			defer coll.mu.Unlock()
			if want := []string{"+I[1, a]", "+I[2, b]", "-D[1, <NULL>]"}; !slices.Equal(coll.rows, want) {
				t.Fatalf("got %v, want %v", coll.rows, want)
			}
		})
	}
}

// upsertSink opens a sink instance of tbl.
func upsertSink(t *testing.T, tbl *catalog.Table) runtime.Operator {
	t.Helper()
	sink, err := factoryFor(t, tbl).NewSink(tbl, connector.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if m := factoryFor(t, tbl).Accepts(tbl); m != connector.Upsert {
		t.Fatalf("accepts %v", m)
	}
	op, err := sink.NewInstance(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Open(&runtime.Context{}); err != nil {
		t.Fatal(err)
	}
	return op
}

func TestUpsertSink(t *testing.T) {
	c := startCluster(t, 1)
	tbl := upsertTable(c, "us")
	op := upsertSink(t, tbl)
	in := chunk(tbl.Schema().Types(),
		[]any{types.Insert, 1, "a"},
		[]any{types.Insert, 2, "b"},
		[]any{types.UpdateBefore, 1, "a"},
		[]any{types.UpdateAfter, 1, "c"},
		[]any{types.Delete, 2, "b"},
	)
	if err := op.ProcessChunk(0, in, nil); err != nil {
		t.Fatal(err)
	}
	if err := op.Finish(nil); err != nil {
		t.Fatal(err)
	}
	want := []string{`{"id":1}|{"id":1,"name":"a"}`, `{"id":2}|{"id":2,"name":"b"}`, `{"id":1}|{"id":1,"name":"c"}`, `{"id":2}|<null>`}
	if got := keyValue(consumeAll(t, c, "us")); !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}

	// Reading the topic back gives the final state through the changelog.
	job, coll := runSource(t, upsertTable(c, "us", "scan.bounded.mode", "latest-offset"), connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	coll.mu.Lock()
	defer coll.mu.Unlock()
	if want := []string{"+I[1, a]", "+I[2, b]", "+I[1, c]", "-D[2, <NULL>]"}; !slices.Equal(coll.rows, want) {
		t.Fatalf("got %v, want %v", coll.rows, want)
	}
}

func TestUpsertSinkBuffer(t *testing.T) {
	c := startCluster(t, 1)
	tbl := upsertTable(c, "buf", "sink.buffer-flush.max-rows", "2", "sink.buffer-flush.interval", "1 h")
	op := upsertSink(t, tbl)
	defer op.Finish(nil)
	q := op.(runtime.Quiescer)
	// Two rows for key 1: one buffered record.
	if err := op.ProcessChunk(0, chunk(tbl.Schema().Types(), []any{types.Insert, 1, "a"}, []any{types.UpdateAfter, 1, "b"}), nil); err != nil {
		t.Fatal(err)
	}
	if ok, err := q.CaughtUp(context.Background()); ok || err != nil {
		t.Fatalf("caught up %v, %v with a buffered row", ok, err)
	}
	// A second key fills the buffer, which is then written.
	if err := op.ProcessChunk(0, chunk(tbl.Schema().Types(), []any{types.Insert, 2, "c"}), nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the buffer to be written", func() (bool, error) { return q.CaughtUp(context.Background()) })
	want := []string{`{"id":1}|{"id":1,"name":"b"}`, `{"id":2}|{"id":2,"name":"c"}`}
	if got := keyValue(consumeAll(t, c, "buf")); !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestUpsertSinkBufferInterval(t *testing.T) {
	c := startCluster(t, 1)
	tbl := upsertTable(c, "tick", "sink.buffer-flush.max-rows", "100", "sink.buffer-flush.interval", "10 ms")
	op := upsertSink(t, tbl)
	defer op.Finish(nil)
	if err := op.ProcessChunk(0, chunk(tbl.Schema().Types(), []any{types.Insert, 1, "a"}, []any{types.Delete, 1, "a"}), nil); err != nil {
		t.Fatal(err)
	}
	q := op.(runtime.Quiescer)
	waitFor(t, "the interval flush", func() (bool, error) { return q.CaughtUp(context.Background()) })
	if got, want := keyValue(consumeAll(t, c, "tick")), []string{`{"id":1}|<null>`}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestUpsertSinkBufferAboveMaxBuffered: a buffer of more rows than the
// client may hold unanswered (maxBuffered) is written in batches that
// wait for each other's room, not for their own.
func TestUpsertSinkBufferAboveMaxBuffered(t *testing.T) {
	c := startCluster(t, 1)
	n := maxBuffered + maxBatch + 1
	tbl := upsertTable(c, "big", "sink.buffer-flush.max-rows", fmt.Sprint(n), "sink.buffer-flush.interval", "1 h",
		"properties.max.block.ms", "5000")
	op := upsertSink(t, tbl)
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{types.Insert, i, "x"}
	}
	// The last row fills the buffer, which is then written.
	if err := op.ProcessChunk(0, chunk(tbl.Schema().Types(), rows...), nil); err != nil {
		t.Fatal(err)
	}
	if err := op.Finish(nil); err != nil {
		t.Fatal(err)
	}
	if got := endOffset(t, c, "big"); got != int64(n) {
		t.Fatalf("%d records written, want %d", got, n)
	}
}

// TestUpsertSourceJSONArrayValue: upsert-kafka reads a json value that is
// an array as one row per element, as Flink's Kafka source passes every
// row its value format collects on with the record's key.
func TestUpsertSourceJSONArrayValue(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, rec("arr", 0, `{"id":1}`, `[{"name":"a"},{"name":"b"}]`))
	tbl := upsertTable(c, "arr", "value.fields-include", "EXCEPT_KEY", "scan.bounded.mode", "latest-offset")
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	coll.mu.Lock()
	defer coll.mu.Unlock()
	if want := []string{"+I[1, a]", "+I[1, b]"}; !slices.Equal(coll.rows, want) {
		t.Fatalf("got %v, want %v", coll.rows, want)
	}
}
