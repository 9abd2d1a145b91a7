package kafka

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// startPersistentCluster runs a broker that keeps its state in a data
// directory across StopKafka and StartKafka.
func startPersistentCluster(t *testing.T) *devcluster.Cluster {
	t.Helper()
	c, err := devcluster.Start(devcluster.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// committed returns the offset group committed for partition 0 of topic,
// -1 if none.
func committed(t *testing.T, c *devcluster.Cluster, group, topic string) int64 {
	t.Helper()
	offsets, err := kadm.NewClient(newClient(t, c)).FetchOffsets(testContext(t), group)
	if errors.Is(err, kerr.GroupIDNotFound) {
		return -1 // nothing committed yet
	}
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := offsets.Lookup(topic, 0); ok {
		return o.At
	}
	return -1
}

// endOffset returns the end offset of partition 0 of topic, -1 while the
// topic does not exist.
func endOffset(t *testing.T, c *devcluster.Cluster, topic string) int64 {
	t.Helper()
	ends, err := kadm.NewClient(newClient(t, c)).ListEndOffsets(testContext(t), topic)
	if err != nil {
		return -1
	}
	o, _ := ends.Lookup(topic, 0)
	if o.Err != nil {
		return -1
	}
	return o.Offset
}

// seesBrokerDown reports whether a client's health shows failed requests.
func seesBrokerDown(h *brokerHealth) func() (bool, error) {
	return func() (bool, error) {
		_, err := h.failing(time.Now())
		return err != nil, nil
	}
}

// logBuffer collects what is logged through slog while a test runs.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func captureLogs(t *testing.T) *logBuffer {
	logs := &logBuffer{}
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(logs, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return logs
}

// TestSourceSurvivesBrokerRestart restarts the broker under a reading
// source with a consumer group: nothing is lost or read twice, and the
// committed offsets follow.
func TestSourceSurvivesBrokerRestart(t *testing.T) {
	c := startPersistentCluster(t)
	produce(t, c, numbered("restart", 0, 3)...)
	tbl := table(idCols, options(c, "restart", "properties.group.id", "restart-readers", "properties.auto.commit.interval.ms", "20"))
	job, coll, src := runSourceInstances(t, tbl, connector.SourceSpec{}, 1)
	waitFor(t, "offset 3 committed", func() (bool, error) {
		return committed(t, c, "restart-readers", "restart") == 3, job.Err()
	})

	c.StopKafka()
	waitFor(t, "the source to see the broker gone", seesBrokerDown(src[0].health))
	if err := c.StartKafka(); err != nil {
		t.Fatal(err)
	}
	produce(t, c, numbered("restart", 0, 5)[3:]...)
	waitFor(t, "offset 5 committed", func() (bool, error) {
		return committed(t, c, "restart-readers", "restart") == 5, job.Err()
	})
	if got := coll.sorted(); !slices.Equal(got, ids(0, 1, 2, 3, 4)) {
		t.Fatalf("got %v", got)
	}
}

// TestSourceFailsWhenTheBrokerStaysAway: a broker that does not come back
// within 'properties.default.api.timeout.ms' fails the job, naming it.
func TestSourceFailsWhenTheBrokerStaysAway(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, numbered("away", 0, 1)...)
	tbl := table(idCols, options(c, "away", "properties.default.api.timeout.ms", "300"))
	job, _ := runSource(t, tbl, connector.SourceSpec{}, 1)
	waitQuiet(t, job)
	c.StopKafka()
	err := waitDone(t, job)
	want := fmt.Sprintf("kafka source: no broker of '%s' ('properties.bootstrap.servers') answered for 300 ms ('properties.default.api.timeout.ms'): ",
		c.BootstrapServers())
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestCommitErrorsAreLoggedAndRetried: failed commits neither stop the
// job nor lose the offsets, which a later commit stores.
func TestCommitErrorsAreLoggedAndRetried(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, numbered("commits", 0, 3)...)
	logs := captureLogs(t)
	fault := c.Kafka().Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetCommit}, Group: "flaky", Err: kerr.UnknownServerError, Count: 2})
	tbl := table(idCols, options(c, "commits", "properties.group.id", "flaky", "properties.auto.commit.interval.ms", "20"))
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	waitFor(t, "offset 3 committed", func() (bool, error) {
		return committed(t, c, "flaky", "commits") == 3, job.Err()
	})
	if hits := fault.Hits(); hits != 2 {
		t.Errorf("%d commits failed, want 2", hits)
	}
	want := "kafka source: committing offsets of group 'flaky': UNKNOWN_SERVER_ERROR"
	if got := logs.String(); strings.Count(got, want) != 2 || !strings.Contains(got, "retrying in 20 ms") {
		t.Errorf("logged:\n%s\nwant two warnings with %q", got, want)
	}
	if got := coll.sorted(); !slices.Equal(got, ids(0, 1, 2)) {
		t.Fatalf("got %v", got)
	}
}

// TestRetriableFetchErrorsAreRetried: fetch errors the client retries do
// not reach the job.
func TestRetriableFetchErrorsAreRetried(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, numbered("fetches", 0, 3)...)
	fault := c.Kafka().Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: "fetches", Err: kerr.NotLeaderForPartition, Count: 3})
	job, coll := runSource(t, table(idCols, options(c, "fetches")), connector.SourceSpec{}, 1)
	waitFor(t, "the rows", func() (bool, error) { return slices.Equal(coll.sorted(), ids(0, 1, 2)), job.Err() })
	if hits := fault.Hits(); hits != 3 {
		t.Errorf("%d fetches failed, want 3", hits)
	}
}

// TestSourceFailsWhenItsTopicIsDeleted deletes the topic of a bounded
// source before it reached its end (every fetch of it fails with an error
// the client retries): the source fails naming the topic at its next look
// ('scan.topic-partition-discovery.interval'), once the topic has stayed
// unknown for the metadata wait, instead of waiting for ever for records
// that are gone. Kafka Streams fails a task whose source topic is deleted
// (KAFKA-10355).
func TestSourceFailsWhenItsTopicIsDeleted(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, numbered("deleted", 0, 3)...)
	fetches := c.Kafka().Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: "deleted", Err: kerr.NotLeaderForPartition, Count: -1})
	job, coll := runSource(t, table(idCols, options(c, "deleted", "scan.bounded.mode", "latest-offset",
		"scan.topic-partition-discovery.interval", "100 ms")), connector.SourceSpec{}, 1)
	waitFor(t, "a fetch", func() (bool, error) { return fetches.Hits() > 0, job.Err() })
	if _, err := kadm.NewClient(newClient(t, c)).DeleteTopic(testContext(t), "deleted"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-job.Done():
	case <-time.After(metadataWait + testTimeout):
		t.Fatal("the source still waits for its deleted topic")
	}
	want := "kafka source: topic 'deleted': UNKNOWN_TOPIC_OR_PARTITION"
	if err := job.Err(); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an error with %q", err, want)
	}
	if rows := coll.sorted(); len(rows) != 0 {
		t.Errorf("rows %v read through a failing fetch", rows)
	}
}

// TestFinalCommitIsBounded: the commit at the end of a bounded input that
// the broker keeps refusing is given up after its bound, and the job ends
// cleanly.
func TestFinalCommitIsBounded(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c, numbered("final", 0, 3)...)
	logs := captureLogs(t)
	fault := c.Kafka().Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetCommit}, Group: "final-readers", Err: kerr.UnknownServerError, Count: 1 << 30})
	// No periodic commit comes before the final one.
	tbl := table(idCols, options(c, "final", "properties.group.id", "final-readers", "properties.auto.commit.interval.ms", "3600000",
		"properties.default.api.timeout.ms", "1000", "scan.bounded.mode", "latest-offset"))
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	if got := coll.sorted(); !slices.Equal(got, ids(0, 1, 2)) {
		t.Fatalf("got %v", got)
	}
	want := "kafka source: committing offsets of group 'final-readers': UNKNOWN_SERVER_ERROR"
	if got := logs.String(); fault.Hits() == 0 || !strings.Contains(got, want) || !strings.Contains(got, "giving up after 1000 ms") {
		t.Errorf("%d commits refused; logged:\n%s\nwant %q", fault.Hits(), got, want)
	}
}

// feed is a source for sink tests: it emits the chunks it is sent and ends
// when the channel is closed.
func feed(chunks <-chan *types.Chunk) runtime.Source {
	return sourceFunc(func(ctx *runtime.SourceContext, out runtime.Emitter) error {
		for {
			select {
			case c, ok := <-chunks:
				if !ok {
					return nil
				}
				out.Emit(c)
			case <-ctx.Ctx.Done():
				return nil
			}
		}
	})
}

// runSink writes the chunks sent on the returned channel to tbl.
func runSink(t *testing.T, tbl *catalog.Table) (*runtime.Job, chan<- *types.Chunk, *sinkInstance) {
	t.Helper()
	sink, err := factoryFor(t, tbl).NewSink(tbl, connector.Env{})
	if err != nil {
		t.Fatal(err)
	}
	chunks := make(chan *types.Chunk)
	var inst *sinkInstance
	g := &runtime.Graph{Stages: []*runtime.Stage{
		{Name: "rows", Parallelism: 1, NewSource: func(int) (runtime.Source, error) { return feed(chunks), nil }},
		{Name: "sink", Parallelism: 1, NewOperator: func(i int) (runtime.Operator, error) {
			op, err := sink.NewInstance(i, 1)
			if err == nil {
				inst = op.(*sinkInstance)
			}
			return op, err
		}, Inputs: []runtime.Input{{Stage: 0, Exchange: runtime.Forward}}},
	}}
	job, err := runtime.Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		job.Cancel()
		<-job.Done()
	})
	return job, chunks, inst
}

// lines returns a chunk of one STRING column holding "line <i>" for i in
// [from, to).
func lines(from, to int) *types.Chunk {
	var rows [][]any
	for i := from; i < to; i++ {
		rows = append(rows, []any{fmt.Sprint("line ", i)})
	}
	return chunk([]types.Type{types.StringType}, rows...)
}

var lineCols = []catalog.Column{column("line", types.StringType)}

// TestSinkSurvivesBrokerRestart: rows handed to the sink while the broker
// is down are written once it is back, each exactly once.
func TestSinkSurvivesBrokerRestart(t *testing.T) {
	c := startPersistentCluster(t)
	job, chunks, sink := runSink(t, table(lineCols, options(c, "kept", "format", "raw")))
	chunks <- lines(0, 100)
	waitFor(t, "the first rows written", func() (bool, error) { return endOffset(t, c, "kept") == 100, job.Err() })
	c.StopKafka()
	chunks <- lines(100, 200)
	waitFor(t, "the sink to see the broker gone", seesBrokerDown(sink.health))
	if err := c.StartKafka(); err != nil {
		t.Fatal(err)
	}
	close(chunks)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 200 {
		want = append(want, fmt.Sprint("<null>|line ", i))
	}
	if got := keyValue(consumeAll(t, c, "kept")); !slices.Equal(got, want) {
		t.Fatalf("got %d records %v, want %d", len(got), got, len(want))
	}
}

// TestSinkFailsWhenItsTopicDisappears restarts the broker without its
// data: the records for the topic that is gone fail the job after
// 'properties.delivery.timeout.ms' instead of waiting for ever.
func TestSinkFailsWhenItsTopicDisappears(t *testing.T) {
	c := startCluster(t, 1) // in memory: a restart comes back empty
	tbl := table(lineCols, options(c, "vanishing", "format", "raw",
		"properties.delivery.timeout.ms", "1000", "properties.request.timeout.ms", "500"))
	job, chunks, _ := runSink(t, tbl)
	chunks <- lines(0, 1)
	waitFor(t, "the first row written", func() (bool, error) { return endOffset(t, c, "vanishing") == 1, job.Err() })
	c.StopKafka()
	if err := c.StartKafka(); err != nil {
		t.Fatal(err)
	}
	chunks <- lines(1, 3)
	err := waitDone(t, job)
	want := "kafka sink: writing to topic 'vanishing': 2 record(s) not acknowledged within 1000 ms ('properties.delivery.timeout.ms')"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestSinkFullBufferFailsAfterMaxBlock: with the broker gone, a sink whose
// buffer is full waits 'properties.max.block.ms' for room, then fails.
func TestSinkFullBufferFailsAfterMaxBlock(t *testing.T) {
	c := startCluster(t, 1)
	job, chunks, sink := runSink(t, table(lineCols, options(c, "full", "format", "raw", "properties.max.block.ms", "200")))
	chunks <- lines(0, 1)
	waitFor(t, "the first row written", func() (bool, error) { return endOffset(t, c, "full") == 1, job.Err() })
	c.StopKafka()
	rows := lines(0, 1000)
	go func() {
		for {
			select {
			case chunks <- rows:
			case <-job.Done():
				return
			}
		}
	}()
	err := waitDone(t, job)
	want := fmt.Sprintf("kafka sink: writing to topic 'full': no room in the client's buffer (%d records not acknowledged) within 200 ms ('properties.max.block.ms'): no broker of '%s' ('properties.bootstrap.servers') answers: ",
		maxBuffered, c.BootstrapServers())
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
	waitFor(t, "every record answered", func() (bool, error) { return sink.unacked.Load() == 0, nil })
}

// TestSinkWaitsMaxBlockForItsTopic: a sink that cannot learn its topic's
// partitions within 'properties.max.block.ms' does not start.
func TestSinkWaitsMaxBlockForItsTopic(t *testing.T) {
	c := startCluster(t, 1)
	c.StopKafka()
	tbl := table(lineCols, options(c, "unseen", "format", "raw", "properties.max.block.ms", "200"))
	sink, err := factoryFor(t, tbl).NewSink(tbl, connector.Env{})
	if err != nil {
		t.Fatal(err)
	}
	op, err := sink.NewInstance(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	err = op.Open(&runtime.Context{Parallelism: 1})
	want := fmt.Sprintf("kafka sink: topic 'unseen' not present in metadata after 200 ms ('properties.max.block.ms'): no broker of '%s' ('properties.bootstrap.servers') answers: ",
		c.BootstrapServers())
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestRetriableProduceErrorsAreRetried: produce errors the client retries
// cost nothing: every row is written once. The broker answers
// REQUEST_TIMED_OUT after appending the records, so only the idempotent
// producer keeps the retries from writing them twice.
func TestRetriableProduceErrorsAreRetried(t *testing.T) {
	c := startCluster(t, 1)
	createTopic(t, c, "produces", 1)
	fault := c.Kafka().Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Produce}, Topic: "produces", Err: kerr.RequestTimedOut, Count: 3})
	writeRows(t, table(lineCols, options(c, "produces", "format", "raw")), 0, 1, lines(0, 5))
	if hits := fault.Hits(); hits != 3 {
		t.Errorf("%d produce requests failed, want 3", hits)
	}
	want := []string{"<null>|line 0", "<null>|line 1", "<null>|line 2", "<null>|line 3", "<null>|line 4"}
	if got := keyValue(consumeAll(t, c, "produces")); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestTimeoutPropertyErrors(t *testing.T) {
	for _, tc := range []struct {
		props map[string]string
		want  string
	}{
		{map[string]string{"delivery.timeout.ms": "1000"},
			"Invalid value '1000' for option 'properties.delivery.timeout.ms': it should be equal to or larger than 'properties.linger.ms' + 'properties.request.timeout.ms' (30000 ms)"},
		{map[string]string{"delivery.timeout.ms": "1000", "request.timeout.ms": "900", "linger.ms": "200"},
			"Invalid value '1000' for option 'properties.delivery.timeout.ms': it should be equal to or larger than 'properties.linger.ms' + 'properties.request.timeout.ms' (1100 ms)"},
		{map[string]string{"request.timeout.ms": "50"},
			"Invalid value '50' for option 'properties.request.timeout.ms': the Kafka client Sluice uses needs at least 100 milliseconds"},
		{map[string]string{"max.block.ms": "soon"},
			"Invalid value 'soon' for option 'properties.max.block.ms': expected a number of milliseconds from 0 to 2147483647"},
		{map[string]string{"auto.commit.interval.ms": "-1"},
			"Invalid value '-1' for option 'properties.auto.commit.interval.ms': expected a number of milliseconds from 0 to 2147483647"},
		{map[string]string{"delivery.timeout.ms": "2147483648"},
			"Invalid value '2147483648' for option 'properties.delivery.timeout.ms': expected a number of milliseconds from 0 to 2147483647"},
	} {
		_, err := clientOptions(tc.props)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%v: got %v, want %q", tc.props, err, tc.want)
		}
	}
	if _, err := clientOptions(map[string]string{"delivery.timeout.ms": "1000", "request.timeout.ms": "1000"}); err != nil {
		t.Error(err)
	}
}
