package kafka

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/sluicesql/sluice/internal/connector"
)

// clientFor builds a franz-go client from a table's properties (given as
// key, value pairs), as the source and the sink do.
func clientFor(t *testing.T, kv ...string) *kgo.Client {
	t.Helper()
	props := map[string]string{"bootstrap.servers": "127.0.0.1:1"}
	for i := 0; i < len(kv); i += 2 {
		props[kv[i]] = kv[i+1]
	}
	opts, err := clientOptions(props)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		t.Fatalf("%v: franz-go refuses the options: %v", kv, err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// testedBy names, for each honoured property other than the ssl.* and
// sasl.* ones (tls_test.go, sasl_test.go), the tests showing it takes
// effect.
var testedBy = map[string]string{
	"acks":                                     "TestHonouredPropertiesReachTheClient",
	"allow.auto.create.topics":                 "TestOneValueProperties",
	"auto.commit.interval.ms":                  "TestCommitErrorsAreLoggedAndRetried",
	"auto.include.jmx.reporter":                "TestOneValueProperties",
	"auto.offset.reset":                        "TestStartupModes",
	"batch.size":                               "TestPartitionerProperties",
	"bootstrap.servers":                        "TestHonouredPropertiesReachTheClient",
	"buffer.memory":                            "TestHonouredPropertiesReachTheClient, TestBufferAndRequestSize",
	"check.crcs":                               "TestHonouredPropertiesReachTheClient",
	"client.dns.lookup":                        "TestOneValueProperties",
	"client.id":                                "TestHonouredPropertiesReachTheClient",
	"client.rack":                              "TestHonouredPropertiesReachTheClient, TestFetchPropertiesReachTheBroker",
	"commit.offsets.on.checkpoint":             "TestSourceResumesFromCheckpoint, TestOneValueProperties, TestCommitNeedsGroup",
	"compression.gzip.level":                   "TestHonouredPropertiesReachTheClient",
	"compression.type":                         "TestHonouredPropertiesReachTheClient",
	"compression.zstd.level":                   "TestHonouredPropertiesReachTheClient",
	"connections.max.idle.ms":                  "TestHonouredPropertiesReachTheClient",
	"default.api.timeout.ms":                   "TestHonouredPropertiesReachTheClient, TestSourceFailsWhenTheBrokerStaysAway",
	"delivery.timeout.ms":                      "TestSinkFailsWhenItsTopicDisappears",
	"enable.auto.commit":                       "TestOneValueProperties",
	"enable.idempotence":                       "TestHonouredPropertiesReachTheClient",
	"enable.metrics.push":                      "TestHonouredPropertiesReachTheClient",
	"fetch.max.bytes":                          "TestHonouredPropertiesReachTheClient, TestFetchPropertiesReachTheBroker",
	"fetch.max.wait.ms":                        "TestHonouredPropertiesReachTheClient, TestFetchPropertiesReachTheBroker",
	"fetch.min.bytes":                          "TestHonouredPropertiesReachTheClient, TestFetchPropertiesReachTheBroker",
	"group.id":                                 "TestStartupModes, TestGroupOffsetsAreCommitted",
	"isolation.level":                          "TestHonouredPropertiesReachTheClient, TestFetchPropertiesReachTheBroker",
	"linger.ms":                                "TestHonouredPropertiesReachTheClient",
	"max.block.ms":                             "TestSinkWaitsMaxBlockForItsTopic, TestSinkFullBufferFailsAfterMaxBlock",
	"max.in.flight.requests.per.connection":    "TestHonouredPropertiesReachTheClient",
	"max.partition.fetch.bytes":                "TestHonouredPropertiesReachTheClient, TestFetchPropertiesReachTheBroker",
	"max.request.size":                         "TestHonouredPropertiesReachTheClient, TestBufferAndRequestSize",
	"metadata.max.age.ms":                      "TestHonouredPropertiesReachTheClient",
	"metadata.recovery.strategy":               "TestOneValueProperties",
	"partitioner.adaptive.partitioning.enable": "TestPartitionerProperties",
	"partitioner.availability.timeout.ms":      "TestOneValueProperties",
	"partitioner.ignore.keys":                  "TestPartitionerProperties",
	"receive.buffer.bytes":                     "TestSocketBuffers, TestConnectionPropertiesOnAPlainConnection",
	"register.consumer.metrics":                "TestOneValueProperties",
	"register.producer.metrics":                "TestOneValueProperties",
	"request.timeout.ms":                       "TestHonouredPropertiesReachTheClient",
	"retries":                                  "TestHonouredPropertiesReachTheClient",
	"retry.backoff.max.ms":                     "TestRetryBackoff",
	"retry.backoff.ms":                         "TestRetryBackoff",
	"security.protocol":                        "TestTLS*, TestSASLProperties",
	"send.buffer.bytes":                        "TestSocketBuffers, TestConnectionPropertiesOnAPlainConnection",
	"socket.connection.setup.timeout.max.ms":   "TestConnectTimeouts, TestDialerCountsFailuresPerAddress",
	"socket.connection.setup.timeout.ms":       "TestConnectTimeouts, TestConnectionPropertiesOnAPlainConnection",
	"transaction.timeout.ms":                   "TestExactlyOnceTransactionTimedOut, TestExactlyOnceTransactionTimeoutRefused",
}

// TestEveryHonouredPropertyIsTested fails when an honoured property is
// added without a test showing it takes effect.
func TestEveryHonouredPropertyIsTested(t *testing.T) {
	for k, p := range kafkaProperties {
		security := strings.HasPrefix(k, "ssl.") || strings.HasPrefix(k, "sasl.")
		if p.class == honoured && !security && testedBy[k] == "" {
			t.Errorf("honoured property %s is not tested", k)
		}
	}
	for k := range testedBy {
		if p, ok := kafkaProperties[k]; !ok || p.class != honoured {
			t.Errorf("%s is not an honoured property", k)
		}
	}
}

func TestHonouredPropertiesReachTheClient(t *testing.T) {
	for _, c := range []struct {
		props []string
		opt   any
		want  any
	}{
		{[]string{"bootstrap.servers", "a:1, b:2"}, kgo.SeedBrokers, []string{"a:1", "b:2"}},
		{[]string{"client.id", "orders-app"}, kgo.ClientID, "orders-app"},
		{[]string{"client.rack", "eu-west-1a"}, kgo.Rack, "eu-west-1a"},
		{[]string{"connections.max.idle.ms", "60000"}, kgo.ConnIdleTimeout, time.Minute},
		{[]string{"default.api.timeout.ms", "1500"}, kgo.RetryTimeout, 1500 * time.Millisecond},
		{[]string{"enable.metrics.push", "false"}, kgo.DisableClientMetrics, true},
		{[]string{"metadata.max.age.ms", "60000"}, kgo.MetadataMaxAge, time.Minute},
		{[]string{"metadata.max.age.ms", "1000"}, kgo.MetadataMinAge, time.Second},
		{[]string{"request.timeout.ms", "2000"}, kgo.RequestTimeoutOverhead, 2 * time.Second},
		{[]string{"request.timeout.ms", "2000"}, kgo.ProduceRequestTimeout, 2 * time.Second},
		{[]string{"check.crcs", "FALSE"}, kgo.DisableFetchCRCValidation, true},
		{[]string{"fetch.max.bytes", "1000"}, kgo.FetchMaxBytes, int32(1000)},
		{[]string{"fetch.max.bytes", "200000000"}, kgo.BrokerMaxReadBytes, int32(400000000)},
		{[]string{"fetch.max.wait.ms", "250"}, kgo.FetchMaxWait, 250 * time.Millisecond},
		{[]string{"fetch.min.bytes", "10"}, kgo.FetchMinBytes, int32(10)},
		{[]string{"max.partition.fetch.bytes", "4096"}, kgo.FetchMaxPartitionBytes, int32(4096)},
		{[]string{"isolation.level", "read_committed"}, kgo.FetchIsolationLevel, int8(1)}, // kgo.ReadCommitted()
		{[]string{"acks", "1"}, kgo.RequiredAcks, kgo.LeaderAck()},
		{[]string{"acks", "1"}, kgo.DisableIdempotentWrite, true},
		{[]string{"buffer.memory", "1048576"}, kgo.MaxBufferedBytes, int64(1048576)},
		{[]string{"compression.type", "lz4"}, kgo.ProducerBatchCompression, []kgo.CompressionCodec{kgo.Lz4Compression()}},
		{[]string{"compression.type", "gzip", "compression.gzip.level", "9"}, kgo.ProducerBatchCompression,
			[]kgo.CompressionCodec{kgo.GzipCompression().WithLevel(9)}},
		{[]string{"compression.type", "zstd", "compression.zstd.level", "19"}, kgo.ProducerBatchCompression,
			[]kgo.CompressionCodec{kgo.ZstdCompression().WithLevel(int(zstd.SpeedBestCompression))}},
		{[]string{"enable.idempotence", "false"}, kgo.DisableIdempotentWrite, true},
		{[]string{"max.in.flight.requests.per.connection", "3", "enable.idempotence", "false"}, kgo.MaxProduceRequestsInflightPerBroker, 3},
		{[]string{"max.in.flight.requests.per.connection", "7"}, kgo.MaxProduceRequestsInflightPerBroker, 7}, // without idempotence, as in Java
		{[]string{"max.in.flight.requests.per.connection", "5"}, kgo.DisableIdempotentWrite, false},
		{[]string{"linger.ms", "20"}, kgo.ProducerLinger, 20 * time.Millisecond},
		{[]string{"max.request.size", "2097152"}, kgo.BrokerMaxWriteBytes, int32(2097152)},
		{[]string{"max.request.size", "2097152"}, kgo.ProducerBatchMaxBytes, int32(2097152)},
		{[]string{"retries", "3"}, kgo.RecordRetries, int64(3)},
		{[]string{"retries", "0"}, kgo.DisableIdempotentWrite, true},
	} {
		cl := clientFor(t, c.props...)
		if got := cl.OptValue(c.opt); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: got %v, want %v", c.props, got, c.want)
		}
	}
}

// TestRetryBackoff checks Kafka's exponential backoff: retry.backoff.ms
// doubled per failure, give or take 20%, up to retry.backoff.max.ms.
func TestRetryBackoff(t *testing.T) {
	backoff := func(kv ...string) func(int) time.Duration {
		return clientFor(t, kv...).OptValue(kgo.RetryBackoffFn).(func(int) time.Duration)
	}
	within := func(what string, got, want time.Duration) {
		t.Helper()
		if got < want*8/10 || got > want*12/10 {
			t.Errorf("%s: %v, want %v ± 20%%", what, got, want)
		}
	}
	b := backoff("retry.backoff.ms", "200", "retry.backoff.max.ms", "1000")
	within("first retry", b(1), 200*time.Millisecond)
	within("second retry", b(2), 400*time.Millisecond)
	if got := b(10); got != time.Second {
		t.Errorf("tenth retry: %v, want the maximum", got)
	}
	within("default base", backoff("retry.backoff.max.ms", "5000")(1), 100*time.Millisecond)
	if got := backoff("retry.backoff.ms", "5000")(1); got != time.Second {
		t.Errorf("a base above the default maximum (1000): %v, want the maximum, as Kafka applies", got)
	}
}

// TestPartitionerProperties writes records through the sink and looks at
// the partitions they land in.
func TestPartitionerProperties(t *testing.T) {
	c := startCluster(t, 3)
	var rows [][]any
	for i := range 30 {
		rows = append(rows, []any{i, string(rune('a' + i%26))})
	}
	partitions := func(topic string, extra ...string) int {
		t.Helper()
		tbl := table(userCols, options(c, topic, extra...))
		writeRows(t, tbl, 0, 1, chunk(tbl.Schema().Types(), rows...))
		got := map[int32]bool{}
		for _, r := range consumeAll(t, c, topic) {
			got[r.Partition] = true
		}
		return len(got)
	}
	// Without key, records stick to a partition for batch.size bytes.
	if n := partitions("sticky", "properties.batch.size", "1000000", "properties.partitioner.adaptive.partitioning.enable", "false"); n != 1 {
		t.Errorf("batch.size above what is written: %d partitions, want 1", n)
	}
	if n := partitions("moving", "properties.batch.size", "1", "properties.partitioner.adaptive.partitioning.enable", "false"); n == 1 {
		t.Errorf("batch.size 1: all records in one partition, want them spread")
	}
	// Keys hash to partitions, unless partitioner.ignore.keys.
	keyed := []string{"key.format", "raw", "key.fields", "name", "properties.batch.size", "1000000"}
	if n := partitions("hashed", keyed...); n == 1 {
		t.Errorf("keys hashed: all records in one partition, want them spread")
	}
	if n := partitions("ignored", append(keyed, "properties.partitioner.ignore.keys", "true")...); n != 1 {
		t.Errorf("keys ignored: %d partitions, want 1", n)
	}
}

// TestFetchPropertiesReachTheBroker reads a topic and looks at the fetch
// requests the broker receives.
func TestFetchPropertiesReachTheBroker(t *testing.T) {
	c := startCluster(t, 1)
	createTopic(t, c, "fetched", 1)
	produce(t, c, rec("fetched", 0, "", `{"id":1}`))
	fetches := make(chan *kmsg.FetchRequest, 1)
	c.Kafka().ControlKey(int16(kmsg.Fetch), func(r kmsg.Request) (kmsg.Response, error, bool) {
		c.Kafka().KeepControl()
		select {
		case fetches <- r.(*kmsg.FetchRequest):
		default:
		}
		return nil, nil, false
	})
	tbl := table(idCols, options(c, "fetched", "scan.bounded.mode", "latest-offset",
		"properties.fetch.max.bytes", "123456", "properties.fetch.min.bytes", "7", "properties.fetch.max.wait.ms", "50",
		"properties.max.partition.fetch.bytes", "2345", "properties.client.rack", "rack-1", "properties.isolation.level", "read_committed"))
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	if got := coll.sorted(); !slices.Equal(got, ids(1)) {
		t.Fatalf("read %v", got)
	}
	req := <-fetches
	if req.MaxBytes != 123456 || req.MinBytes != 7 || req.MaxWaitMillis != 50 || req.Rack != "rack-1" || req.IsolationLevel != 1 {
		t.Errorf("fetch request: max bytes %d, min bytes %d, max wait %d ms, rack %q, isolation level %d",
			req.MaxBytes, req.MinBytes, req.MaxWaitMillis, req.Rack, req.IsolationLevel)
	}
	if p := req.Topics[0].Partitions[0]; p.PartitionMaxBytes != 2345 {
		t.Errorf("partition max bytes %d, want 2345", p.PartitionMaxBytes)
	}
}

// TestBufferAndRequestSize produces a record larger than buffer.memory,
// then one larger than max.request.size: the Java producer fails both.
func TestBufferAndRequestSize(t *testing.T) {
	c := startCluster(t, 1)
	createTopic(t, c, "sized", 1)
	big := rec("sized", 0, "", strings.Repeat("x", 4000))
	for _, kv := range [][]string{{"buffer.memory", "2048"}, {"max.request.size", "2048"}} {
		cl := clientFor(t, "bootstrap.servers", c.BootstrapServers(), kv[0], kv[1])
		if err := cl.ProduceSync(testContext(t), big).FirstErr(); err == nil || !strings.Contains(err.Error(), "MESSAGE_TOO_LARGE") {
			t.Errorf("%s=%s: got %v, want a message too large", kv[0], kv[1], err)
		}
		if err := cl.ProduceSync(testContext(t), rec("sized", 0, "", "small")).FirstErr(); err != nil {
			t.Errorf("%s=%s: a small record: %v", kv[0], kv[1], err)
		}
	}
}

// TestOneValueProperties covers the properties that take only the value
// Sluice behaves as, and refuse the other by name.
func TestOneValueProperties(t *testing.T) {
	for _, c := range []struct{ key, ok, bad, why string }{
		{"enable.auto.commit", "false", "true", "not supported yet: a source with 'properties.group.id' commits the offsets of the rows it emitted " +
			"when a checkpoint completes, or every 'properties.auto.commit.interval.ms' in a job without checkpoints"},
		{"enable.auto.commit", "FALSE", "maybe", "expected true or false"},
		{"commit.offsets.on.checkpoint", "true", "false", "not supported yet: a source with 'properties.group.id' commits the offsets of the rows it emitted"},
		{"allow.auto.create.topics", "TRUE", "false", "not supported yet: Sluice creates the missing topics of a table, as a broker with auto.create.topics.enable does"},
		{"auto.include.jmx.reporter", "false", "true", noMetrics},
		{"register.consumer.metrics", "false", "true", noMetrics},
		{"register.producer.metrics", "false", "true", noMetrics},
		{"client.dns.lookup", "use_all_dns_ips", "resolve_canonical_bootstrap_servers_only",
			"not supported: Sluice connects to the bootstrap servers as given, trying every address a name resolves to (use_all_dns_ips)"},
		{"client.dns.lookup", "use_all_dns_ips", "default", "expected use_all_dns_ips or resolve_canonical_bootstrap_servers_only"},
		{"metadata.recovery.strategy", "REBOOTSTRAP", "none",
			"not supported: the Kafka client Sluice uses goes back to the bootstrap servers when no broker it knows answers (rebootstrap)"},
		{"partitioner.availability.timeout.ms", "0", "100",
			"not supported: the Kafka client Sluice uses has no partition availability timeout; only 0 (off, the default)"},
		{"interceptor.classes", "", "com.example.Audit", "not supported: Java interceptor classes are not available"},
		{"metric.reporters", "", "org.apache.kafka.common.metrics.JmxReporter", noMetrics},
		{"key.deserializer", "org.apache.flink.kafka.shaded.org.apache.kafka.common.serialization.ByteArrayDeserializer",
			"org.apache.kafka.common.serialization.StringDeserializer",
			"not supported: records are encoded and decoded by the table's formats; the only class is org.apache.kafka.common.serialization.ByteArrayDeserializer, which Flink sets"},
		{"value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer", "org.apache.kafka.common.serialization.StringSerializer",
			"not supported: records are encoded and decoded by the table's formats; the only class is org.apache.kafka.common.serialization.ByteArraySerializer, which Flink sets"},
		{"partition.assignment.strategy", "org.apache.kafka.clients.consumer.RangeAssignor, org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
			"com.example.MyAssignor", "not supported: 'com.example.MyAssignor' is not one of Kafka's assignors (Java classes are not available)"},
		{"group.protocol", "CONSUMER", "eager", "expected classic or consumer"},
		{"group.instance.id", "reader-1", "", "expected a non-empty string"},
		{"session.timeout.ms", "45000", "45s", "expected a number of milliseconds from -2147483648 to 2147483647"},
		{"partition.discovery.interval.ms", "-1", "often", "expected a number of milliseconds from -9223372036854775808 to 9223372036854775807"},
	} {
		if _, err := clientOptions(map[string]string{c.key: c.ok}); err != nil {
			t.Errorf("%s=%s: %v", c.key, c.ok, err)
		}
		_, err := clientOptions(map[string]string{c.key: c.bad})
		if want := "Invalid value '" + c.bad + "' for option 'properties." + c.key + "': " + c.why; err == nil || err.Error() != want {
			t.Errorf("%s=%s: got %v, want %q", c.key, c.bad, err, want)
		}
	}
}

// TestPropertyValueErrors covers Kafka's types and ranges, the narrower
// ones of franz-go, and the settings that contradict others.
func TestPropertyValueErrors(t *testing.T) {
	for _, c := range []struct {
		props []string
		want  string
	}{
		{[]string{"fetch.max.bytes", "-1"}, "Invalid value '-1' for option 'properties.fetch.max.bytes': expected a number of bytes from 0 to 2147483647"},
		{[]string{"fetch.max.bytes", "2000000000"}, "Invalid value '2000000000' for option 'properties.fetch.max.bytes': the Kafka client Sluice uses takes 0 to 1073741824 bytes"},
		{[]string{"fetch.max.wait.ms", "5"}, "Invalid value '5' for option 'properties.fetch.max.wait.ms': the Kafka client Sluice uses takes 10 to 2147483647 milliseconds"},
		{[]string{"connections.max.idle.ms", "-1"}, "Invalid value '-1' for option 'properties.connections.max.idle.ms': the Kafka client Sluice uses takes 100 to 900000 milliseconds"},
		{[]string{"metadata.max.age.ms", "7200000"}, "Invalid value '7200000' for option 'properties.metadata.max.age.ms': the Kafka client Sluice uses takes 10 to 3600000 milliseconds"},
		{[]string{"linger.ms", "120000"}, "Invalid value '120000' for option 'properties.linger.ms': the Kafka client Sluice uses takes 0 to 60000 milliseconds"},
		{[]string{"max.request.size", "100"}, "Invalid value '100' for option 'properties.max.request.size': the Kafka client Sluice uses takes 1024 to 1073741824 bytes"},
		{[]string{"buffer.memory", "0"}, "Invalid value '0' for option 'properties.buffer.memory': the Kafka client Sluice uses takes 1 to 9223372036854775807 bytes"},
		{[]string{"retries", "-1"}, "Invalid value '-1' for option 'properties.retries': expected an integer from 0 to 2147483647"},
		{[]string{"send.buffer.bytes", "0"}, "Invalid value '0' for option 'properties.send.buffer.bytes': expected -1 (the system's default) or a positive number of bytes"},
		{[]string{"client.id", strings.Repeat("x", 300)}, "Invalid value '" + strings.Repeat("x", 300) + "' for option 'properties.client.id': the Kafka client Sluice uses takes at most 256 bytes"},
		{[]string{"retries", "0", "enable.idempotence", "true"}, "Invalid value '0' for option 'properties.retries': idempotence requires retries above 0"},
		{[]string{"max.in.flight.requests.per.connection", "6", "enable.idempotence", "true"},
			"Invalid value '6' for option 'properties.max.in.flight.requests.per.connection': idempotence requires at most 5"},
		{[]string{"max.in.flight.requests.per.connection", "1"},
			"Invalid value '1' for option 'properties.max.in.flight.requests.per.connection': with idempotent writes the Kafka client Sluice uses keeps up to 5 requests in flight per broker, in order; set 'properties.enable.idempotence' to 'false' to keep fewer"},
		{[]string{"compression.gzip.level", "9"}, "Invalid value '9' for option 'properties.compression.gzip.level': takes effect only with 'properties.compression.type' = 'gzip'"},
		{[]string{"compression.gzip.level", "0", "compression.type", "gzip"}, "Invalid value '0' for option 'properties.compression.gzip.level': expected -1 (the default) or an integer from 1 to 9"},
		{[]string{"compression.zstd.level", "23", "compression.type", "zstd"}, "Invalid value '23' for option 'properties.compression.zstd.level': expected an integer from -131072 to 22"},
		{[]string{"group.remote.assignor", "uniform"}, "Invalid value 'uniform' for option 'properties.group.remote.assignor': cannot be set when 'properties.group.protocol' is classic"},
	} {
		props := map[string]string{}
		for i := 0; i < len(c.props); i += 2 {
			props[c.props[i]] = c.props[i+1]
		}
		if _, err := clientOptions(props); err == nil || err.Error() != c.want {
			t.Errorf("%v: got %v, want %q", c.props, err, c.want)
		}
	}
	// Bounds franz-go accepts.
	for _, kv := range [][]string{
		{"fetch.max.bytes", "1073741824"}, {"fetch.max.wait.ms", "10"}, {"connections.max.idle.ms", "100"},
		{"connections.max.idle.ms", "900000"}, {"metadata.max.age.ms", "10"}, {"metadata.max.age.ms", "3600000"},
		{"linger.ms", "60000"}, {"max.request.size", "1024"}, {"max.request.size", "1073741824"}, {"buffer.memory", "1"},
		{"client.id", strings.Repeat("x", 256)}, {"client.rack", strings.Repeat("x", 512)}, {"fetch.min.bytes", "0"},
		{"max.partition.fetch.bytes", "0"}, {"retries", "2147483647"}, {"compression.type", "gzip", "compression.gzip.level", "-1"},
		{"compression.type", "zstd", "compression.zstd.level", "-131072"},
	} {
		clientFor(t, kv...)
	}
}

// TestRefusedProperties refuses each refused property with its reason,
// naming it, when a table is created.
func TestRefusedProperties(t *testing.T) {
	for k, p := range kafkaProperties {
		if p.class != refused {
			continue
		}
		tbl := table(idCols, kafkaOpts("properties."+k, "x"))
		err := factoryFor(t, tbl).Validate(tbl)
		if prefix := "Invalid value 'x' for option 'properties." + k + "': not supported"; err == nil || !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("%s: got %v, want %q...", k, err, prefix)
		}
	}
	for k, want := range map[string]string{
		"max.poll.records":  "not supported yet: the source polls up to 1024 records at a time",
		"partitioner.class": "not supported: Java partitioner classes are not available; use 'sink.partitioner' (default, fixed or round-robin)",
		"transactional.id":  "not supported: an exactly-once sink names its transactions after 'sink.transactional-id-prefix'",
		"reconnect.backoff.ms": "not supported: the Kafka client Sluice uses waits between attempts to reach a broker with the retry backoff; " +
			"set 'properties.retry.backoff.ms' and 'properties.retry.backoff.max.ms'",
		"metrics.recording.level": noMetrics,
	} {
		_, err := clientOptions(map[string]string{k: "1"})
		if want := "Invalid value '1' for option 'properties." + k + "': " + want; err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %q", k, err, want)
		}
	}
}

func TestUnknownPropertiesSuggestTheClosest(t *testing.T) {
	for key, want := range map[string]string{
		"fetch.max.byte":            "Unsupported option 'properties.fetch.max.byte': not a Kafka client configuration; did you mean 'properties.fetch.max.bytes'?",
		"auto.offset.rest":          "Unsupported option 'properties.auto.offset.rest': not a Kafka client configuration; did you mean 'properties.auto.offset.reset'?",
		"linger_ms":                 "Unsupported option 'properties.linger_ms': not a Kafka client configuration; did you mean 'properties.linger.ms'?",
		"ssl.truststore.location.x": "Invalid value 'x' for option 'properties.ssl.truststore.location.x': not supported; the supported ssl.* properties are " + strings.Join(sslProperties, ", "),
		"some.unknown":              "Unsupported option 'properties.some.unknown': not a Kafka client configuration",
	} {
		tbl := table(idCols, kafkaOpts("properties."+key, "x"))
		if err := factoryFor(t, tbl).Validate(tbl); err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %q", key, err, want)
		}
	}
}

// TestPartitionerPropertiesNeedTheDefaultPartitioner: the fixed and
// round-robin sink partitioners choose partitions themselves.
func TestPartitionerPropertiesNeedTheDefaultPartitioner(t *testing.T) {
	tbl := table(idCols, kafkaOpts("sink.partitioner", "fixed", "properties.batch.size", "1000"))
	want := "Invalid value '1000' for option 'properties.batch.size': takes effect only with 'sink.partitioner' = 'default'"
	if err := factoryFor(t, tbl).Validate(tbl); err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestCommitNeedsGroup: Flink's KafkaSourceBuilder requires group.id when
// offset commits are asked for.
func TestCommitNeedsGroup(t *testing.T) {
	tbl := table(idCols, kafkaOpts("scan.startup.mode", "earliest-offset", "properties.commit.offsets.on.checkpoint", "true"))
	_, err := factoryFor(t, tbl).NewSource(tbl, connector.SourceSpec{})
	if want := "Property group.id is required when offset commit is enabled"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	tbl.Options["properties.group.id"] = "readers"
	if _, err := factoryFor(t, tbl).NewSource(tbl, connector.SourceSpec{}); err != nil {
		t.Errorf("with a group: %v", err)
	}
}
