package topic

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/format"
	"github.com/sluicesql/sluice/internal/types"
)

// start runs an embedded cluster and returns a client of it; both end with
// the test.
func start(t *testing.T) (*devcluster.Cluster, *Client) {
	t.Helper()
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Close)
	c, err := New(cluster.BootstrapServers())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return cluster, c
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// topicConfig returns the value and source of a config in d.
func topicConfig(d *Description, key string) (Config, bool) {
	i := slices.IndexFunc(d.Configs, func(c Config) bool { return c.Key == key })
	if i < 0 {
		return Config{}, false
	}
	return d.Configs[i], true
}

func TestCreateListDescribeAlterDelete(t *testing.T) {
	_, c := start(t)
	ctx := testContext(t)

	if err := c.Create(ctx, "ratings", 3, -1, map[string]string{"retention.ms": "3600000"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Create(ctx, "ratings", 3, -1, nil); err == nil || !strings.Contains(err.Error(), "'ratings'") {
		t.Fatalf("creating an existing topic: got %v, want an error naming it", err)
	}
	topics, err := c.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(topics, Summary{Name: "ratings", Partitions: 3}) {
		t.Fatalf("List = %v, want ratings with 3 partitions", topics)
	}
	var out strings.Builder
	if err := WriteList(&out, topics); err != nil {
		t.Fatal(err)
	}
	if want := "TOPIC    PARTITIONS\nratings  3\n"; out.String() != want {
		t.Fatalf("WriteList printed\n%s\nwant\n%s", out.String(), want)
	}

	if _, err := c.Produce(ctx, "ratings", ProduceOptions{ValueFormat: FormatRaw}, strings.NewReader("a\nb\n")); err != nil {
		t.Fatal(err)
	}
	d, err := c.Describe(ctx, "ratings")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Partitions) != 3 {
		t.Fatalf("Describe: %d partitions, want 3", len(d.Partitions))
	}
	var end int64
	for i, p := range d.Partitions {
		if p.ID != int32(i) || p.StartOffset != 0 {
			t.Fatalf("Describe: partition %d is %+v", i, p)
		}
		end += p.EndOffset
	}
	if end != 2 {
		t.Fatalf("Describe: end offsets sum to %d, want the 2 records produced", end)
	}
	if cfg, ok := topicConfig(d, "retention.ms"); !ok || cfg.Value != "3600000" || cfg.Source != "topic" {
		t.Fatalf("Describe: retention.ms is %+v, want 3600000 set on the topic", cfg)
	}

	if err := c.AlterConfig(ctx, "ratings", map[string]string{"cleanup.policy": "compact"}, []string{"retention.ms"}); err != nil {
		t.Fatal(err)
	}
	if d, err = c.Describe(ctx, "ratings"); err != nil {
		t.Fatal(err)
	}
	if cfg, ok := topicConfig(d, "cleanup.policy"); !ok || cfg.Value != "compact" || cfg.Source != "topic" {
		t.Fatalf("after alter-config, cleanup.policy is %+v, want compact set on the topic", cfg)
	}
	if cfg, ok := topicConfig(d, "retention.ms"); ok && cfg.Source == "topic" {
		t.Fatalf("after alter-config, retention.ms is still set on the topic: %+v", cfg)
	}
	out.Reset()
	if err := d.Write(&out, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Topic: ratings  Partitions: 3\n", "PARTITION  LEADER", "Configs:\n  cleanup.policy=compact\n"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("description lacks %q:\n%s", want, out.String())
		}
	}

	if err := c.Delete(ctx, "ratings"); err != nil {
		t.Fatal(err)
	}
	if topics, err = c.List(ctx); err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(topics, func(s Summary) bool { return s.Name == "ratings" }) {
		t.Fatalf("List after Delete = %v", topics)
	}
}

func TestMissingTopic(t *testing.T) {
	_, c := start(t)
	ctx := testContext(t)
	errs := map[string]error{}
	_, errs["describe"] = c.Describe(ctx, "nope")
	errs["delete"] = c.Delete(ctx, "nope")
	errs["alter-config"] = c.AlterConfig(ctx, "nope", map[string]string{"cleanup.policy": "compact"}, nil)
	_, errs["consume"] = c.Consume(ctx, "nope", ConsumeOptions{ValueFormat: FormatRaw}, &strings.Builder{})
	_, errs["produce"] = c.Produce(ctx, "nope", ProduceOptions{ValueFormat: FormatRaw}, strings.NewReader("x\n"))
	for op, err := range errs {
		if !errors.Is(err, ErrNoTopic) || err.Error() != "topic 'nope': topic does not exist" {
			t.Errorf("%s of a missing topic: got %v, want ErrNoTopic naming it", op, err)
		}
	}
}

// TestConsumeAvroAsTutorial reads a topic written by Sluice's own codecs for
// a table like the count-events tutorial's (title as the raw key,
// tickets_sold as an avro-confluent value without the key) and prints what
// kafka-avro-console-consumer printed there.
func TestConsumeAvroAsTutorial(t *testing.T) {
	cluster, c := start(t)
	ctx := testContext(t)
	const name = "movie-ticket-sales-by-title"
	if err := c.Create(ctx, name, 1, -1, nil); err != nil {
		t.Fatal(err)
	}
	keyCodec, err := format.New("raw", format.Config{
		Fields: types.Schema{{Name: "title", Type: types.StringType}}, Topic: name, IsKey: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	valueCodec, err := format.New("avro-confluent", format.Config{
		Fields:  types.Schema{{Name: "tickets_sold", Type: types.BigIntType}},
		Options: map[string]string{"url": cluster.RegistryURL()},
		Topic:   name,
	})
	if err != nil {
		t.Fatal(err)
	}
	sales := []struct {
		title string
		sold  int64
	}{
		{"Aliens", 1}, {"Die Hard", 1}, {"Die Hard", 2}, {"The Godfather", 1}, {"Die Hard", 3},
		{"The Godfather", 2}, {"The Big Lebowski", 1}, {"The Big Lebowski", 2}, {"The Godfather", 3}, {"The Godfather", 4},
	}
	var want []string
	for _, s := range sales {
		key, err := keyCodec.Encode(nil, types.Row{types.StringValue(s.title)})
		if err != nil {
			t.Fatal(err)
		}
		value, err := valueCodec.Encode(nil, types.Row{types.IntValue(s.sold)})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.kc.ProduceSync(ctx, &kgo.Record{Topic: name, Key: key, Value: value}).FirstErr(); err != nil {
			t.Fatal(err)
		}
		want = append(want, s.title+`-{"tickets_sold":{"long":`+strconv.FormatInt(s.sold, 10)+"}}")
	}
	if want[0] != `Aliens-{"tickets_sold":{"long":1}}` {
		t.Fatalf("expectation built wrongly: %s", want[0])
	}

	opts := ConsumeOptions{
		FromBeginning: true, MaxMessages: 10, PrintKey: true, KeySeparator: "-",
		KeyFormat: FormatRaw, ValueFormat: FormatAvro, Registry: cluster.RegistryURL(),
	}
	var out strings.Builder
	n, err := c.Consume(ctx, name, opts, &out)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"); n != 10 || !slices.Equal(got, want) {
		t.Fatalf("consumed %d records:\n%s\nwant:\n%s", n, out.String(), strings.Join(want, "\n"))
	}

	// Without a message limit, the consumer ends once no record comes for
	// the timeout, after all ten.
	opts.MaxMessages, opts.Timeout = 0, 300*time.Millisecond
	out.Reset()
	if n, err = c.Consume(ctx, name, opts, &out); err != nil || n != 10 {
		t.Fatalf("consume with a timeout: %d records, %v", n, err)
	}

	// A record that cannot be printed is named in the error: these values
	// are Avro, not JSON.
	opts.ValueFormat = FormatJSON
	if _, err = c.Consume(ctx, name, opts, &out); err == nil || !strings.Contains(err.Error(), "topic '"+name+"' partition 0 offset 0: value: invalid JSON") {
		t.Fatalf("consume Avro as JSON: got %v", err)
	}
}
