package kafka

import (
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/format"
	"github.com/sluicesql/sluice/internal/types"
)

// kafkaOpts returns a valid 'kafka' table's options with changes applied
// (an empty value removes the option).
func kafkaOpts(changes ...string) map[string]string {
	o := map[string]string{
		"connector":                    "kafka",
		"topic":                        "t",
		"properties.bootstrap.servers": "127.0.0.1:9092",
		"format":                       "json",
	}
	for i := 0; i < len(changes); i += 2 {
		if changes[i+1] == "" {
			delete(o, changes[i])
		} else {
			o[changes[i]] = changes[i+1]
		}
	}
	return o
}

func upsertOpts(changes ...string) map[string]string {
	o := kafkaOpts("connector", "upsert-kafka", "format", "", "key.format", "json", "value.format", "json")
	for i := 0; i < len(changes); i += 2 {
		if changes[i+1] == "" {
			delete(o, changes[i])
		} else {
			o[changes[i]] = changes[i+1]
		}
	}
	return o
}

func TestValidateMessages(t *testing.T) {
	two := []catalog.Column{column("id", types.BigIntType), column("name", types.StringType)}
	one := []catalog.Column{column("line", types.StringType)}
	cases := []struct {
		name string
		cols []catalog.Column
		opts map[string]string
		pk   []string
		want string
	}{
		{"unknown option", one, kafkaOpts("format", "raw", "scan.startup.mod", "earliest-offset", "properties.client.id", "me"),
			nil, "Unsupported options found for 'kafka'.\n\nUnsupported options:\n\nscan.startup.mod\n\nSupported options:\n\n" +
				"connector\nformat\nkey.fields\nkey.fields-prefix\nkey.format\nproperties.bootstrap.servers\nproperties.client.id\nproperties.group.id\n" +
				"raw.charset\nraw.endianness\nscan.bounded.mode\nscan.bounded.specific-offsets\nscan.bounded.timestamp-millis\n" +
				"scan.startup.mode\nscan.startup.specific-offsets\nscan.startup.timestamp-millis\nscan.topic-partition-discovery.interval\n" +
				"sink.delivery-guarantee\nsink.parallelism\nsink.partitioner\nsink.semantic (deprecated)\nsink.transactional-id-prefix\n" +
				"topic\ntopic-pattern\nvalue.fields-include\nvalue.format"},
		{"unknown format option", two, kafkaOpts("json.fail-on-missing", "true"), nil,
			"Unsupported options found for 'kafka'.\n\nUnsupported options:\n\njson.fail-on-missing\n\nSupported options:"},
		{"missing servers", two, kafkaOpts("properties.bootstrap.servers", ""), nil,
			"One or more required options are missing.\n\nMissing required options are:\n\nproperties.bootstrap.servers"},
		{"missing topic", two, kafkaOpts("topic", ""), nil, "Either 'topic' or 'topic-pattern' must be set."},
		{"topic and pattern", two, kafkaOpts("topic-pattern", "t.*"), nil, "Option 'topic' and 'topic-pattern' shouldn't be set together."},
		{"topic pattern", two, kafkaOpts("topic", "", "topic-pattern", "t.*"), nil,
			"Option 'topic-pattern' is not supported yet; list the topics in 'topic', separated by ';'."},
		{"no format", two, kafkaOpts("format", ""), nil, "Could not find required format: set 'format' or 'value.format'."},
		{"two formats", two, kafkaOpts("value.format", "json"), nil, "Option 'format' and 'value.format' shouldn't be set together."},
		{"unknown format", two, kafkaOpts("format", "xml"), nil,
			"invalid value for option 'format': unknown format 'xml'; available formats: " + strings.Join(format.Names(), ", ")},
		{"bad format option", two, kafkaOpts("json.fail-on-missing-field", "maybe"), nil,
			"value format 'json': invalid value 'maybe' for option 'json.fail-on-missing-field': expected true or false"},
		{"raw with two columns", two, kafkaOpts("format", "raw"), nil,
			"value format 'raw': the 'raw' format only supports a single physical column, but the schema has 2: [id BIGINT, name STRING]"},
		{"key field missing", two, kafkaOpts("key.format", "raw", "key.fields", "nope"), nil,
			"Could not find the field 'nope' in the table schema for usage in the key format. A key field must be a regular, physical column. " +
				"The following columns can be selected in the 'key.fields' option:\n[id, name]"},
		{"key format without fields", two, kafkaOpts("key.format", "raw"), nil,
			"A key format 'key.format' requires the declaration of one or more of key fields using 'key.fields'."},
		{"key fields without format", two, kafkaOpts("key.fields", "id"), nil,
			"The option 'key.fields' can only be declared if a key format is defined using 'key.format'."},
		{"prefix with ALL", two, kafkaOpts("key.format", "raw", "key.fields", "id", "key.fields-prefix", "k_"), nil,
			"A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'. Set it to 'EXCEPT_KEY' instead to avoid field overlaps."},
		{"field without prefix", two, kafkaOpts("key.format", "raw", "key.fields", "id", "key.fields-prefix", "k_", "value.fields-include", "EXCEPT_KEY"), nil,
			"All fields in 'key.fields' must be prefixed with 'k_' when option 'key.fields-prefix' is set but field 'id' is not prefixed."},
		{"bad fields include", two, kafkaOpts("value.fields-include", "SOME"), nil,
			"Could not parse value 'SOME' for key 'value.fields-include'. Expected one of: [ALL, EXCEPT_KEY]"},
		{"bad startup mode", two, kafkaOpts("scan.startup.mode", "bogus"), nil,
			"Could not parse value 'bogus' for key 'scan.startup.mode'. Expected one of: [earliest-offset, latest-offset, group-offsets, timestamp, specific-offsets]"},
		{"startup timestamp missing", two, kafkaOpts("scan.startup.mode", "timestamp"), nil,
			"'scan.startup.timestamp-millis' is required in 'timestamp' startup mode but missing."},
		{"startup timestamp bad", two, kafkaOpts("scan.startup.mode", "timestamp", "scan.startup.timestamp-millis", "noon"), nil,
			"Could not parse value 'noon' for key 'scan.startup.timestamp-millis'."},
		{"startup offsets missing", two, kafkaOpts("scan.startup.mode", "specific-offsets"), nil,
			"'scan.startup.specific-offsets' is required in 'specific-offsets' startup mode but missing."},
		{"startup offsets bad", two, kafkaOpts("scan.startup.mode", "specific-offsets", "scan.startup.specific-offsets", "partition:0"), nil,
			"Invalid properties 'scan.startup.specific-offsets' should follow the format 'partition:0,offset:42;partition:1,offset:300', but is 'partition:0'."},
		{"offsets with two topics", two, kafkaOpts("topic", "a;b", "scan.startup.mode", "specific-offsets", "scan.startup.specific-offsets", "partition:0,offset:1"), nil,
			"Currently Kafka source only supports specific offset for single topic."},
		{"bounded timestamp missing", two, kafkaOpts("scan.bounded.mode", "timestamp"), nil,
			"'scan.bounded.timestamp-millis' is required in 'timestamp' bounded mode but missing."},
		{"bad discovery interval", two, kafkaOpts("scan.topic-partition-discovery.interval", "soon"), nil,
			"Could not parse value 'soon' for key 'scan.topic-partition-discovery.interval'."},
		{"round robin with key", two, kafkaOpts("key.format", "raw", "key.fields", "id", "sink.partitioner", "round-robin"), nil,
			"Currently 'round-robin' partitioner only works when option 'key.fields' is not specified."},
		{"partitioner class", two, kafkaOpts("sink.partitioner", "com.example.P"), nil,
			"Could not find and instantiate partitioner class 'com.example.P'"},
		{"transaction timeout without transactions", two, kafkaOpts("properties.transaction.timeout.ms", "60000"), nil,
			"Invalid value '60000' for option 'properties.transaction.timeout.ms': takes effect only with 'sink.delivery-guarantee' = 'exactly-once'"},
		{"unknown guarantee", two, kafkaOpts("sink.delivery-guarantee", "exactly_once"), nil,
			"Could not parse value 'exactly_once' for key 'sink.delivery-guarantee'. Expected one of: [at-least-once, exactly-once, none]"},
		{"bad parallelism", two, kafkaOpts("sink.parallelism", "0"), nil,
			"Invalid value for option 'sink.parallelism': 0. It must be a positive integer."},
		{"bad property", two, kafkaOpts("properties.acks", "2"), nil,
			"Invalid value '2' for option 'properties.acks': expected all, -1, 1 or 0"},
		{"primary key", two, kafkaOpts(), []string{"id"},
			"The Kafka table 't' with 'json' format doesn't support defining PRIMARY KEY constraint on the table, because it can't guarantee the semantic of primary key."},
		{"metadata key", append(two, metadata("m", types.StringType, "foo", true)), kafkaOpts(), nil,
			"Invalid metadata key 'foo' in column 'm' of table 't'. The 'kafka' connector supports the following metadata keys for reading:\n" +
				"topic\npartition\nleader-epoch\noffset\ntimestamp\ntimestamp-type"},
		{"metadata headers", append(two, metadata("headers", types.StringType, "", true)), kafkaOpts(), nil,
			"Metadata key 'headers' in column 'headers' of table 't' is not supported yet."},
		{"metadata type", append(two, metadata("o", types.IntType, "offset", true)), kafkaOpts(), nil,
			"Invalid data type for metadata column 'o' of table 't': metadata key 'offset' is of type BIGINT NOT NULL and cannot be read as INT."},

		{"upsert without key", two, upsertOpts(), nil,
			"'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY specifies which columns should be read from or write to the Kafka message key. " +
				"The PRIMARY KEY also defines records in the 'upsert-kafka' table should update or delete on which keys."},
		{"upsert formats missing", two, upsertOpts("key.format", "", "value.format", ""), []string{"id"},
			"One or more required options are missing.\n\nMissing required options are:\n\nkey.format\nvalue.format"},
		{"upsert startup mode", two, upsertOpts("key.format", "raw", "value.format", "raw", "value.fields-include", "EXCEPT_KEY", "scan.startup.mode", "latest-offset"), []string{"id"},
			"Unsupported options found for 'upsert-kafka'.\n\nUnsupported options:\n\nscan.startup.mode\n\nSupported options:\n\n" +
				"connector\nkey.fields-prefix\nkey.format\nkey.raw.charset\nkey.raw.endianness\nproperties.bootstrap.servers\n" +
				"scan.bounded.mode\nscan.bounded.specific-offsets\nscan.bounded.timestamp-millis\n" +
				"sink.buffer-flush.interval\nsink.buffer-flush.max-rows\nsink.delivery-guarantee\nsink.parallelism\nsink.transactional-id-prefix\n" +
				"topic\ntopic-pattern\nvalue.fields-include\nvalue.format\nvalue.raw.charset\nvalue.raw.endianness"},
		{"upsert key fields", two, upsertOpts("key.fields", "id"), []string{"id"},
			"Unsupported options found for 'upsert-kafka'.\n\nUnsupported options:\n\nkey.fields\n\nSupported options:"},
		{"upsert flush rows only", two, upsertOpts("sink.buffer-flush.max-rows", "10"), []string{"id"},
			"'sink.buffer-flush.max-rows' and 'sink.buffer-flush.interval' must be set to be greater than zero together to enable sink buffer flushing."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tbl := &catalog.Table{Name: "t", Columns: c.cols, Options: c.opts, PrimaryKey: c.pk}
			err := factoryFor(t, tbl).Validate(tbl)
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			got := err.Error()
			// The supported-options lists of json tables are long: those
			// cases compare up to the list.
			const list = "Supported options:"
			if i := strings.Index(got, list); i >= 0 && strings.HasSuffix(c.want, list) {
				got = got[:i+len(list)]
			}
			if got != c.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

func TestValidateAccepts(t *testing.T) {
	cols := []catalog.Column{column("k_id", types.BigIntType), column("name", types.StringType),
		metadata("ts", types.TimestampLTZType(3), "timestamp", false),
		metadata("off", types.BigIntType, "offset", true)}
	for name, opts := range map[string]map[string]string{
		"key prefix": kafkaOpts("key.format", "json", "key.fields", "k_id", "key.fields-prefix", "k_", "value.fields-include", "EXCEPT_KEY",
			"scan.startup.mode", "specific-offsets", "scan.startup.specific-offsets", "partition:0,offset:42;partition:1,offset:300",
			"scan.bounded.mode", "timestamp", "scan.bounded.timestamp-millis", "1700000000000",
			"scan.topic-partition-discovery.interval", "10 s", "sink.partitioner", "fixed", "sink.parallelism", "2"),
		"value.format and properties": kafkaOpts("format", "", "value.format", "json", "value.json.ignore-parse-errors", "true",
			"properties.client.id", "me", "properties.compression.type", "zstd",
			"scan.startup.mode", "GROUP-OFFSETS", "sink.delivery-guarantee", "none"),
		"except key without key": kafkaOpts("value.fields-include", "EXCEPT_KEY"),
	} {
		tbl := table(cols, opts)
		if err := factoryFor(t, tbl).Validate(tbl); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestSourceAndSinkOnlyChecks(t *testing.T) {
	cols := []catalog.Column{column("id", types.BigIntType), metadata("off", types.BigIntType, "offset", false)}

	// Reading a non-virtual 'offset' column is fine; writing it is not.
	tbl := table(cols, kafkaOpts("scan.startup.mode", "earliest-offset"))
	f := factoryFor(t, tbl)
	if _, err := f.NewSource(tbl, connector.SourceSpec{}); err != nil {
		t.Fatal(err)
	}
	_, err := f.NewSink(tbl, connector.Env{})
	want := "Invalid metadata key 'offset' in column 'off' of table 't'. The 'kafka' connector supports the following metadata keys for writing:\n" +
		"timestamp\nDeclare the column VIRTUAL to read it without writing it."
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}

	// group-offsets, the default, needs a group.
	tbl = table(cols[:1], kafkaOpts())
	if err := f.Validate(tbl); err != nil {
		t.Fatal(err)
	}
	_, err = f.NewSource(tbl, connector.SourceSpec{})
	if want := "Property group.id is required when using committed offset for offsets initializer"; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	if _, err := f.NewSink(tbl, connector.Env{}); err != nil {
		t.Fatal(err)
	}

	// Flink checks an exactly-once sink's options when it creates the
	// sink (KafkaDynamicTableFactory.validateDeliveryGuarantee): a table
	// that is only read needs no prefix.
	eos := func(extra ...string) *catalog.Table {
		return table(cols[:1], kafkaOpts(append([]string{"scan.startup.mode", "earliest-offset", "sink.delivery-guarantee", "exactly-once"}, extra...)...))
	}
	emptyPrefix := eos()
	emptyPrefix.Options["sink.transactional-id-prefix"] = ""
	for _, c := range []struct {
		tbl  *catalog.Table
		want string
	}{
		{eos(), "sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE."},
		{table(cols[:1], kafkaOpts("scan.startup.mode", "earliest-offset", "sink.semantic", "EXACTLY_ONCE")), "sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE."},
		{emptyPrefix, "'sink.transactional-id-prefix' must not be empty: it keeps the transactions of this sink apart from those of other applications."},
		{eos("sink.transactional-id-prefix", strings.Repeat("p", maxTxnPrefix+1)), "The configured prefix is too long and the resulting transactionalId might exceed Kafka's transactionalIds size: " +
			"'sink.transactional-id-prefix' has 32742 bytes, at most 32741 are allowed."},
		{eos("sink.transactional-id-prefix", "app", "properties.enable.idempotence", "FALSE"),
			"'sink.delivery-guarantee' = 'exactly-once' needs the idempotent producer, which 'properties.enable.idempotence' = 'FALSE' turns off."},
		{eos("sink.transactional-id-prefix", "app", "properties.acks", "1"),
			"'sink.delivery-guarantee' = 'exactly-once' needs the idempotent producer, which 'properties.acks' = '1' turns off."},
		{eos("sink.transactional-id-prefix", "app", "properties.retries", "0"),
			"'sink.delivery-guarantee' = 'exactly-once' needs the idempotent producer, which 'properties.retries' = '0' turns off."},
		{eos("sink.transactional-id-prefix", "app", "properties.max.in.flight.requests.per.connection", "6"),
			"'sink.delivery-guarantee' = 'exactly-once' needs the idempotent producer, which 'properties.max.in.flight.requests.per.connection' = '6' turns off."},
	} {
		if _, err := f.NewSource(c.tbl, connector.SourceSpec{}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.NewSink(c.tbl, connector.Env{}); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	if _, err := f.NewSink(eos("sink.transactional-id-prefix", "app", "properties.acks", "all"), connector.Env{}); err != nil {
		t.Fatal(err)
	}

	// A sink writes one topic.
	tbl = table(cols[:1], kafkaOpts("topic", "a;b", "scan.startup.mode", "earliest-offset"))
	if _, err := f.NewSource(tbl, connector.SourceSpec{}); err != nil {
		t.Fatal(err)
	}
	_, err = f.NewSink(tbl, connector.Env{})
	if want := "The 'kafka' sink writes to a single topic, but 'topic' lists 2: a;b"; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

func TestOptionsDocumented(t *testing.T) {
	for _, name := range []string{"kafka", "upsert-kafka"} {
		tbl := table(nil, map[string]string{"connector": name})
		f := factoryFor(t, tbl)
		seen := map[string]bool{}
		for _, o := range f.Options() {
			if o.Description == "" || seen[o.Key] {
				t.Errorf("%s: option %q undocumented or listed twice", name, o.Key)
			}
			seen[o.Key] = true
		}
		if !seen["properties.bootstrap.servers"] || !seen["properties.*"] {
			t.Errorf("%s: missing connection options", name)
		}
	}
}
