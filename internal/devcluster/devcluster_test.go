package devcluster

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sr"
)

// start runs a cluster until the test ends; clients made afterwards are
// closed before it.
func start(t *testing.T, opts Options) *Cluster {
	t.Helper()
	c, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func client(t *testing.T, c *Cluster, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(c.BootstrapServers())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

func TestProduceConsumeAndRegistry(t *testing.T) {
	c := start(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// Auto-creation is on, with one partition by default (Kafka's
	// num.partitions default).
	p := client(t, c, kgo.AllowAutoTopicCreation())
	if err := p.ProduceSync(ctx, &kgo.Record{Topic: "t", Key: []byte("k"), Value: []byte("v")}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	topics, err := kadm.NewClient(p).ListTopics(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(topics["t"].Partitions); n != 1 {
		t.Fatalf("auto-created topic has %d partitions, want 1", n)
	}

	cons := client(t, c, kgo.ConsumeTopics("t"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	fs := cons.PollFetches(ctx)
	if err := fs.Err(); err != nil {
		t.Fatal(err)
	}
	recs := fs.Records()
	if len(recs) != 1 || string(recs[0].Key) != "k" || string(recs[0].Value) != "v" {
		t.Fatalf("got %v", recs)
	}

	reg, err := sr.NewClient(sr.URLs(c.RegistryURL()))
	if err != nil {
		t.Fatal(err)
	}
	ss, err := reg.CreateSchema(ctx, "t-value", sr.Schema{Schema: `"string"`, Type: sr.TypeAvro})
	if err != nil {
		t.Fatal(err)
	}
	got, err := reg.SchemaByID(ctx, ss.ID)
	if err != nil || got.Schema != `"string"` {
		t.Fatalf("schema by id: %v %v", got, err)
	}
}

func TestPartitionsAndPorts(t *testing.T) {
	c := start(t, Options{Partitions: 3})
	if c.KafkaPort() == 0 || c.RegistryPort() == 0 {
		t.Fatalf("ports not picked: %d %d", c.KafkaPort(), c.RegistryPort())
	}
	ctx := context.Background()
	adm := kadm.NewClient(client(t, c))
	if _, err := adm.CreateTopic(ctx, -1, -1, nil, "three"); err != nil {
		t.Fatal(err)
	}
	topics, err := adm.ListTopics(ctx, "three")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(topics["three"].Partitions); n != 3 {
		t.Fatalf("got %d partitions, want 3", n)
	}

	// A second cluster cannot take the same ports.
	if _, err := Start(Options{KafkaPort: c.KafkaPort()}); err == nil {
		t.Fatal("expected an error for a port in use")
	}
	if _, err := Start(Options{RegistryPort: c.RegistryPort()}); err == nil {
		t.Fatal("expected an error for a registry port in use")
	}
}

func TestDataDirSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	c, err := Start(Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	port := c.KafkaPort()
	p := client(t, c, kgo.AllowAutoTopicCreation())
	if err := p.ProduceSync(ctx, &kgo.Record{Topic: "kept", Value: []byte("1")}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	p.Close()
	c.Close()

	c = start(t, Options{DataDir: dir, KafkaPort: port})
	ends, err := kadm.NewClient(client(t, c)).ListEndOffsets(ctx, "kept")
	if err != nil {
		t.Fatal(err)
	}
	if o, _ := ends.Lookup("kept", 0); o.Offset != 1 {
		t.Fatalf("end offset after restart = %d, want 1", o.Offset)
	}
}

func TestRegistryClosed(t *testing.T) {
	c, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	url := c.RegistryURL()
	c.Close()
	if resp, err := http.Get(url + "/subjects"); err == nil {
		resp.Body.Close()
		t.Fatal("registry still serving after Close")
	}
}

// TestSchemasSurviveRestart: with a DataDir, schemas registered through the
// registry's REST API are stored in the _schemas topic and served again,
// with the same ids, after a restart; new registrations continue the ids.
func TestSchemasSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	schema := func(field string) sr.Schema {
		return sr.Schema{Schema: `{"type":"record","name":"record","fields":[{"name":"` + field + `","type":"long"}]}`}
	}

	c, err := Start(Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	rc, err := sr.NewClient(sr.URLs(c.RegistryURL()))
	if err != nil {
		t.Fatal(err)
	}
	first, err := rc.CreateSchema(ctx, "sales-value", schema("a"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := rc.CreateSchema(ctx, "sales-value", schema("b"))
	if err != nil {
		t.Fatal(err)
	}
	// Registering the same schema again is answered, not stored twice.
	if again, err := rc.CreateSchema(ctx, "sales-value", schema("a")); err != nil || again.ID != first.ID {
		t.Fatalf("re-registration = %+v, %v; want id %d", again, err, first.ID)
	}
	c.Close()

	c = start(t, Options{DataDir: dir})
	rc, err = sr.NewClient(sr.URLs(c.RegistryURL()))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []sr.SubjectSchema{first, second} {
		got, err := rc.SchemaByID(ctx, want.ID)
		if err != nil {
			t.Fatalf("schema %d after restart: %v", want.ID, err)
		}
		if got.Schema != want.Schema.Schema {
			t.Errorf("schema %d after restart = %s, want %s", want.ID, got.Schema, want.Schema.Schema)
		}
	}
	third, err := rc.CreateSchema(ctx, "sales-value", schema("c"))
	if err != nil {
		t.Fatal(err)
	}
	if third.ID <= second.ID || third.Version != 3 {
		t.Fatalf("registration after restart = id %d version %d; want a new id after %d and version 3", third.ID, third.Version, second.ID)
	}
}

// TestStopAndStartKafka restarts the broker on its port: with a DataDir it
// keeps its records, without one it comes back empty.
func TestStopAndStartKafka(t *testing.T) {
	for _, dir := range []string{t.TempDir(), ""} {
		c := start(t, Options{DataDir: dir})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		p := client(t, c, kgo.AllowAutoTopicCreation())
		if err := p.ProduceSync(ctx, &kgo.Record{Topic: "kept", Value: []byte("1")}).FirstErr(); err != nil {
			t.Fatal(err)
		}
		c.StopKafka()
		c.StopKafka() // stopping twice is harmless
		if c.Kafka() != nil {
			t.Fatal("a stopped broker is still there")
		}
		down := client(t, c, kgo.RetryTimeout(100*time.Millisecond))
		if _, err := kadm.NewClient(down).ListEndOffsets(ctx, "kept"); err == nil {
			t.Fatal("a stopped broker answered")
		}
		if err := c.StartKafka(); err != nil {
			t.Fatal(err)
		}
		if err := c.StartKafka(); err != nil || c.Kafka() == nil {
			t.Fatalf("starting a running broker: %v", err)
		}
		ends, err := kadm.NewClient(client(t, c)).ListEndOffsets(ctx, "kept")
		if err != nil {
			t.Fatal(err)
		}
		o, found := ends.Lookup("kept", 0)
		kept := found && o.Err == nil && o.Offset == 1
		gone := !found || errors.Is(o.Err, kerr.UnknownTopicOrPartition)
		if dir != "" && !kept || dir == "" && !gone {
			t.Errorf("data dir %q: after the restart, found %v, end offset %d, error %v", dir, found, o.Offset, o.Err)
		}
	}
}
