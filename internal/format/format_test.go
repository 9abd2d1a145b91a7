package format

import (
	"errors"
	"maps"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

func TestLookup(t *testing.T) {
	for _, name := range []string{"raw", "json", "avro", "avro-confluent"} {
		f, err := Lookup(name)
		if err != nil || f.Name() != name {
			t.Errorf("Lookup(%q) = %v, %v", name, f, err)
		}
	}
	_, err := Lookup("avroo")
	want := "unknown format 'avroo'; available formats: avro, avro-confluent, canal-json, csv, debezium-avro-confluent, debezium-json, json, maxwell-json, raw"
	if err == nil || err.Error() != want {
		t.Errorf("Lookup(avroo) error = %v, want %q", err, want)
	}
}

func TestExtract(t *testing.T) {
	all := map[string]string{
		"connector":                "kafka",
		"value.format":             "avro-confluent",
		"value.avro-confluent.url": "http://r",
		"value.avro-confluent.schema-registry.subject": "s",
		"key.avro-confluent.url":                       "http://k",
		"avro-confluent.url":                           "http://x",
	}
	got := Extract(all, "value.", "avro-confluent")
	want := map[string]string{"url": "http://r", "schema-registry.subject": "s"}
	if !maps.Equal(got, want) {
		t.Errorf("Extract = %v, want %v", got, want)
	}
}

func TestOptionErrors(t *testing.T) {
	str := types.Schema{field("s", types.StringType)}
	for _, tc := range []struct {
		format, prefix string
		opts           map[string]string
		fields         types.Schema
		want           string
	}{
		{"avro-confluent", "value.avro-confluent.", map[string]string{"urll": "x"}, str,
			"unsupported option 'value.avro-confluent.urll' for format 'avro-confluent'; supported options: " +
				"value.avro-confluent.url, value.avro-confluent.subject, value.avro-confluent.schema, " +
				"value.avro-confluent.properties.*, value.avro-confluent.ssl.keystore.location, " +
				"value.avro-confluent.ssl.keystore.password, value.avro-confluent.ssl.truststore.location, " +
				"value.avro-confluent.ssl.truststore.password, value.avro-confluent.basic-auth.credentials-source, " +
				"value.avro-confluent.basic-auth.user-info, value.avro-confluent.bearer-auth.credentials-source, " +
				"value.avro-confluent.bearer-auth.token"},
		{"avro-confluent", "value.avro-confluent.", map[string]string{"subject": "x"}, str,
			"missing required option 'value.avro-confluent.url' for format 'avro-confluent'"},
		{"avro-confluent", "", map[string]string{"url": "x", "properties": "y"}, str,
			"unsupported option 'avro-confluent.properties' for format 'avro-confluent'; supported options: " +
				"avro-confluent.url, avro-confluent.subject, avro-confluent.schema, avro-confluent.properties.*, " +
				"avro-confluent.ssl.keystore.location, avro-confluent.ssl.keystore.password, " +
				"avro-confluent.ssl.truststore.location, avro-confluent.ssl.truststore.password, " +
				"avro-confluent.basic-auth.credentials-source, avro-confluent.basic-auth.user-info, " +
				"avro-confluent.bearer-auth.credentials-source, avro-confluent.bearer-auth.token"},
		{"avro-confluent", "", map[string]string{"url": "x", "basic-auth.credentials-source": "SASL_INHERIT"}, str,
			"unsupported value 'SASL_INHERIT' for option 'avro-confluent.basic-auth.credentials-source'; supported values: USER_INFO, URL"},
		{"json", "", map[string]string{"fail-on-missing-field": "yes"}, str,
			"invalid value 'yes' for option 'json.fail-on-missing-field': expected true or false"},
		{"json", "", map[string]string{"fail-on-missing-field": "true", "ignore-parse-errors": "TRUE"}, str,
			"options 'json.fail-on-missing-field' and 'json.ignore-parse-errors' shouldn't both be true"},
		{"json", "", map[string]string{"timestamp-format.standard": "iso-8601"}, str,
			"invalid value 'iso-8601' for option 'json.timestamp-format.standard'; supported values: SQL, ISO-8601"},
		{"json", "key.json.", map[string]string{"map-null-key.mode": "KEEP"}, str,
			"invalid value 'KEEP' for option 'key.json.map-null-key.mode'; supported values: FAIL, DROP, LITERAL"},
		{"raw", "", map[string]string{"endianness": "middle-endian"}, str,
			"invalid value 'middle-endian' for option 'raw.endianness'; supported values: big-endian, little-endian"},
		{"raw", "", map[string]string{"charset": "EBCDIC-42"}, str,
			"unsupported 'raw.charset' name: EBCDIC-42"},
		{"raw", "", nil, types.Schema{field("a", types.IntType), field("b", types.StringType)},
			"the 'raw' format only supports a single physical column, but the schema has 2: [a INT, b STRING]"},
		{"raw", "", nil, types.Schema{field("d", dateT)},
			"the 'raw' format doesn't support 'DATE' as column type"},
		{"avro", "", map[string]string{"encoding": "json"}, str,
			"invalid value 'json' for option 'avro.encoding'; supported values: binary"},
		{"avro", "", nil, types.Schema{field("ts", types.TimestampType(6))},
			"column 'ts': Avro does not support TIMESTAMP type with precision: 6, it only supports precision less than 3"},
		{"avro", "", nil, types.Schema{field("ts", types.TimestampLTZType(3))},
			"column 'ts': Unsupported to derive Schema for type: TIMESTAMP_LTZ(3)"},
		{"avro", "", nil, types.Schema{field("t", types.Type{Kind: types.Time, Precision: 6})},
			"column 't': Avro does not support TIME type with precision: 6, it only supports precision less than 3"},
		{"avro", "", nil, types.Schema{field("iv", intervalDT)},
			"column 'iv': Unsupported to derive Schema for type: INTERVAL SECOND(3)"},
		{"avro", "", nil, types.Schema{field("my-col", types.IntType)},
			"column 'my-col' cannot be an Avro field: Illegal character in: my-col"},
	} {
		_, err := New(tc.format, Config{Fields: tc.fields, Options: tc.opts, OptionPrefix: tc.prefix, Topic: "t"})
		if err == nil || err.Error() != tc.want {
			t.Errorf("New(%s, %v):\n got %v\nwant %s", tc.format, tc.opts, err, tc.want)
		}
	}
}

func TestFallbackOptionKeys(t *testing.T) {
	fields := types.Schema{field("s", types.StringType)}
	c, err := New("avro-confluent", Config{Fields: fields, Options: map[string]string{
		"schema-registry.url":     "http://localhost:1",
		"schema-registry.subject": "subj",
		"properties.max.retries":  "3",
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.(*confluentCodec).subject; got != "subj" {
		t.Errorf("subject = %q", got)
	}
}

func TestErrNoRow(t *testing.T) {
	fields := types.Schema{field("s", types.StringType)}
	for _, name := range []string{"json", "avro"} {
		c := newCodec(t, name, fields, nil)
		if err := c.Decode(nil, vectors(fields)); !errors.Is(err, ErrNoRow) {
			t.Errorf("%s: Decode(nil) = %v, want ErrNoRow", name, err)
		}
	}
}
