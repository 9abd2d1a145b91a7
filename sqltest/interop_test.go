package sqltest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
