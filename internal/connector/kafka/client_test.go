package kafka

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/sluicesql/sluice/internal/connector"
)

func TestPropertyErrors(t *testing.T) {
	for props, want := range map[[2]string]string{
		{"isolation.level", "dirty"}:        "Invalid value 'dirty' for option 'properties.isolation.level': expected read_uncommitted or read_committed",
		{"linger.ms", "-5"}:                 "Invalid value '-5' for option 'properties.linger.ms': expected a number of milliseconds from 0 to 9223372036854775807",
		{"compression.type", "brotli"}:      "Invalid value 'brotli' for option 'properties.compression.type': expected none, gzip, snappy, lz4 or zstd",
		{"auto.offset.reset", "smallest"}:   "Invalid value 'smallest' for option 'properties.auto.offset.reset': expected one of earliest, latest, none",
		{"security.protocol", "SASL_SSL"}:   `Invalid value 'SASL_SSL' for option 'properties.security.protocol': SASL needs 'properties.sasl.jaas.config' with username="..." and password="..."`,
		{"security.protocol", "KERBEROS"}:   "Invalid value 'KERBEROS' for option 'properties.security.protocol': expected PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL",
		{"enable.idempotence", "sometimes"}: "Invalid value 'sometimes' for option 'properties.enable.idempotence': expected true or false",
		{"bootstrap.servers", " , "}:        "Invalid value ' , ' for option 'properties.bootstrap.servers': no broker address",
	} {
		_, err := clientOptions(map[string]string{props[0]: props[1]})
		if err == nil || err.Error() != want {
			t.Errorf("%s=%s: got %v, want %q", props[0], props[1], err, want)
		}
	}
	_, err := clientOptions(map[string]string{"acks": "1", "enable.idempotence": "true"})
	if want := "Invalid value '1' for option 'properties.acks': idempotence requires acks=all"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

func TestSASLProperties(t *testing.T) {
	kc, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(),
		kfake.Superuser("SCRAM-SHA-256", "alice", "secret"), kfake.SeedTopics(1, "secure"))
	if err != nil {
		t.Fatal(err)
	}
	defer kc.Close()
	brokers := kc.ListenAddrs()[0]
	p, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.SASL(scram.Auth{User: "alice", Pass: "secret"}.AsSha256Mechanism()))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.ProduceSync(testContext(t), rec("secure", 0, "", `{"id":1}`)).FirstErr(); err != nil {
		t.Fatal(err)
	}

	opts := func(password string) map[string]string {
		return map[string]string{
			"connector": "kafka", "topic": "secure", "format": "json",
			"properties.bootstrap.servers": brokers,
			"properties.security.protocol": "SASL_PLAINTEXT",
			"properties.sasl.mechanism":    "SCRAM-SHA-256",
			"properties.sasl.jaas.config":  `org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="` + password + `";`,
			"scan.startup.mode":            "earliest-offset",
			"scan.bounded.mode":            "latest-offset",
		}
	}
	job, coll := runSource(t, table(idCols, opts("secret")), connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	if got := coll.sorted(); !slices.Equal(got, ids(1)) {
		t.Fatalf("got %v", got)
	}
	wrong := opts("wrong")
	wrong["properties.default.api.timeout.ms"] = "500"
	job, _ = runSource(t, table(idCols, wrong), connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err == nil {
		t.Fatal("a wrong password should fail the job")
	}
}

// TestProducerDefaults: unset, linger.ms is the Java 3.x producer's 0
// (Flink's connector), not franz-go's 10 ms, and compression.type is
// Java's none, not franz-go's snappy; set, they are honoured.
func TestProducerDefaults(t *testing.T) {
	for _, c := range []struct {
		props  map[string]string
		linger time.Duration
		codecs []kgo.CompressionCodec
	}{
		{map[string]string{}, 0, nil},
		{map[string]string{"linger.ms": "7", "compression.type": "snappy"}, 7 * time.Millisecond, []kgo.CompressionCodec{kgo.SnappyCompression()}},
	} {
		opts, err := clientOptions(c.props)
		if err != nil {
			t.Fatal(err)
		}
		cl, err := kgo.NewClient(append(opts, kgo.SeedBrokers("127.0.0.1:1"))...)
		if err != nil {
			t.Fatal(err)
		}
		linger, codecs := cl.OptValue(kgo.ProducerLinger), cl.OptValue(kgo.ProducerBatchCompression)
		cl.Close()
		if linger != c.linger {
			t.Errorf("%v: linger %v, want %v", c.props, linger, c.linger)
		}
		if got, ok := codecs.([]kgo.CompressionCodec); !ok || !slices.Equal(got, c.codecs) {
			t.Errorf("%v: compression %v, want %v", c.props, codecs, c.codecs)
		}
	}
}

// TestCompressionOptionsShared: a table's client options are shared by its
// clients, made concurrently; the client rewrites a list of codecs in
// place, so the options must not hand it one (run with -race).
func TestCompressionOptionsShared(t *testing.T) {
	for _, codec := range []string{"", "none", "gzip", "zstd"} {
		props := map[string]string{}
		if codec != "" {
			props["compression.type"] = codec
		}
		opts, err := clientOptions(props)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				cl, err := kgo.NewClient(append(slices.Clone(opts), kgo.SeedBrokers("127.0.0.1:1"))...)
				if err != nil {
					t.Error(err)
					return
				}
				cl.Close()
			})
		}
		wg.Wait()
	}
}
