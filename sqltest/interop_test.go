package sqltest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/testenv"
)

// debianPython is the interpreter Debian's python3-confluent-kafka and
// python3-avro packages install into.
const debianPython = "/usr/bin/python3"

// wantUpserts are the records of movie-ticket-sales-by-title in the
// count-a-stream tutorial, as kafka-avro-console-consumer shows them there,
// grouped by key (the order across keys depends on partition assignment;
// within a key it is the order of the updates).
var wantUpserts = map[string][]string{
	"Aliens":           {`{"tickets_sold": 1}`},
	"Die Hard":         {`{"tickets_sold": 1}`, `{"tickets_sold": 2}`, `{"tickets_sold": 3}`},
	"The Godfather":    {`{"tickets_sold": 1}`, `{"tickets_sold": 2}`, `{"tickets_sold": 3}`, `{"tickets_sold": 4}`},
	"The Big Lebowski": {`{"tickets_sold": 1}`, `{"tickets_sold": 2}`},
}

// TestUpsertTopicReadByIndependentClients runs the count-a-stream case and
// reads its upsert-kafka sink topic with Debian's kcat (raw keys and
// Confluent-framed values) and with python3-confluent-kafka's Avro consumer
// (values decoded through the Schema Registry).
func TestUpsertTopicReadByIndependentClients(t *testing.T) {
	testenv.LookPath(t, "kcat", "apt-get install kcat")
	testenv.PythonModules(t, debianPython, "apt-get install python3-confluent-kafka python3-avro python3-requests", "confluent_kafka", "avro", "requests")
	script, err := os.ReadFile(filepath.Join(acceptanceDir, "aggregate-count.sql"))
	if err != nil {
		t.Fatal(err)
	}
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	if _, err := RunOn(cluster, string(script), Options{Parallelism: 4}); err != nil {
		t.Fatal(err)
	}
	const topic = "movie-ticket-sales-by-title"

	// kcat: keys are the raw UTF-8 titles; values start with the Confluent
	// magic byte 0 and a 4-byte schema id.
	out, err := exec.Command("kcat", "-C", "-b", cluster.BootstrapServers(), "-t", topic, "-e", "-q",
		"-f", `%k\t%S\t%h\n`).CombinedOutput()
	if err != nil {
		t.Fatalf("kcat: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 10 {
		t.Fatalf("kcat read %d records, want 10:\n%s", len(lines), out)
	}
	keys := map[string]int{}
	for _, l := range lines {
		k, _, _ := strings.Cut(l, "\t")
		keys[k]++
	}
	for k, want := range wantUpserts {
		if keys[k] != len(want) {
			t.Errorf("kcat: key %q has %d records, want %d", k, keys[k], len(want))
		}
	}

	// python3-confluent-kafka: keys are raw strings, so values are decoded
	// with the library's Avro message serializer and registry client.
	prog := fmt.Sprintf(`
import json
from confluent_kafka import Consumer
from confluent_kafka.avro import CachedSchemaRegistryClient
from confluent_kafka.avro.serializer.message_serializer import MessageSerializer
serde = MessageSerializer(CachedSchemaRegistryClient({"url": %q}))
c = Consumer({"bootstrap.servers": %q, "group.id": "interop", "auto.offset.reset": "earliest"})
c.subscribe([%q])
n = 0
while n < 10:
    m = c.poll(10)
    if m is None:
        break
    if m.error():
        raise SystemExit(str(m.error()))
    print(m.key().decode(), json.dumps(serde.decode_message(m.value()), sort_keys=True), sep="\t")
    n += 1
c.close()
`, cluster.RegistryURL(), cluster.BootstrapServers(), topic)
	cmd := exec.Command(debianPython, "-c", prog)
	cmd.Env = append(os.Environ(), "PYTHONPATH=")
	out, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 AvroConsumer: %v\n%s", err, out)
	}
	got := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(l, "\t")
		got[k] = append(got[k], v)
	}
	for k, want := range wantUpserts {
		if strings.Join(got[k], " ") != strings.Join(want, " ") {
			t.Errorf("key %q: got %v, want %v", k, got[k], want)
		}
	}
}

// TestNestedAvroReadByPython writes a nested record through avro-confluent
// and reads it with python3-confluent-kafka's Avro deserializer (schema
// from the registry), which must give the values written: records, arrays,
// maps, NULLs inside them, and the decimal, date and timestamp logical
// types.
func TestNestedAvroReadByPython(t *testing.T) {
	testenv.PythonModules(t, debianPython, "apt-get install python3-confluent-kafka python3-avro python3-requests", "confluent_kafka", "avro", "requests")
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	const topic = "nested-interop"
	script := `CREATE TABLE orders (
    id INT,
    buyer ROW<name STRING, tags ARRAY<STRING>, attrs MAP<STRING, INT>>,
    items ARRAY<ROW<sku STRING, qty INT, price DECIMAL(10, 2)>>,
    day DATE,
    ts TIMESTAMP(3)
) WITH (
    'connector' = 'kafka',
    'topic' = '` + topic + `',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'format' = 'avro-confluent',
    'avro-confluent.url' = 'http://localhost:SCHEMA_REGISTRY_PORT'
);
INSERT INTO orders VALUES
    (1, ROW('ann', ARRAY['x', CAST(NULL AS STRING)], MAP['a', 1, 'b', CAST(NULL AS INT)]),
        ARRAY[ROW('s1', 2, 3.25), ROW('s2', CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 2)))],
        DATE '2024-02-29', TIMESTAMP '2024-02-29 12:34:56.789'),
    (2, CAST(NULL AS ROW<name STRING, tags ARRAY<STRING>, attrs MAP<STRING, INT>>),
        CAST(NULL AS ARRAY<ROW<sku STRING, qty INT, price DECIMAL(10, 2)>>), CAST(NULL AS DATE), CAST(NULL AS TIMESTAMP(3)));
SELECT id FROM orders;
`
	if _, err := RunOn(cluster, script, Options{Parallelism: 1}); err != nil {
		t.Fatal(err)
	}
	prog := fmt.Sprintf(`
import json
from confluent_kafka import Consumer
from confluent_kafka.avro import CachedSchemaRegistryClient
from confluent_kafka.avro.serializer.message_serializer import MessageSerializer
serde = MessageSerializer(CachedSchemaRegistryClient({"url": %q}))
c = Consumer({"bootstrap.servers": %q, "group.id": "interop", "auto.offset.reset": "earliest"})
c.subscribe([%q])
n = 0
while n < 2:
    m = c.poll(10)
    if m is None:
        break
    if m.error():
        raise SystemExit(str(m.error()))
    print(json.dumps(serde.decode_message(m.value()), sort_keys=True, default=repr))
    n += 1
c.close()
`, cluster.RegistryURL(), cluster.BootstrapServers(), topic)
	cmd := exec.Command(debianPython, "-c", prog)
	cmd.Env = append(os.Environ(), "PYTHONPATH=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 Avro deserializer: %v\n%s", err, out)
	}
	want := []string{
		`{"buyer": {"attrs": {"a": 1, "b": null}, "name": "ann", "tags": ["x", null]}, "day": "datetime.date(2024, 2, 29)", "id": 1, ` +
			`"items": [{"price": "Decimal('3.25')", "qty": 2, "sku": "s1"}, {"price": null, "qty": null, "sku": "s2"}], ` +
			`"ts": "datetime.datetime(2024, 2, 29, 12, 34, 56, 789000, tzinfo=<avro.timezones.UTCTzinfo object at ADDR>)"}`,
		`{"buyer": null, "day": null, "id": 2, "items": null, "ts": null}`,
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i := range got {
		got[i] = tzAddr.ReplaceAllString(got[i], "at ADDR>")
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("python3 read\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// tzAddr is the address in the repr of avro's UTC tzinfo object.
var tzAddr = regexp.MustCompile(`at 0x[0-9a-f]+>`)
