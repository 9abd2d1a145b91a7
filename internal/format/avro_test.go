package format

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hamba/avro/v2"
	"github.com/twmb/franz-go/pkg/sr"
	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/sluicesql/sluice/internal/types"
)

// allTypesAvroSchema is what Flink's AvroSchemaConverter.convertToSchema
// gives for allTypesSchema, in Schema.toString() layout; compare the
// expectations of Flink's AvroSchemaConverterTest (record "record" in
// namespace "org.apache.flink.avro.generated", nullable fields as
// ["null", T] with "default": null).
const allTypesAvroSchema = `{"type":"record","name":"record","namespace":"org.apache.flink.avro.generated","fields":[` +
	`{"name":"b","type":["null","boolean"],"default":null},` +
	`{"name":"ti","type":["null","int"],"default":null},` +
	`{"name":"si","type":["null","int"],"default":null},` +
	`{"name":"i","type":["null","int"],"default":null},` +
	`{"name":"bi","type":"long"},` +
	`{"name":"f","type":["null","float"],"default":null},` +
	`{"name":"d","type":["null","double"],"default":null},` +
	`{"name":"dec","type":["null",{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}],"default":null},` +
	`{"name":"s","type":["null","string"],"default":null},` +
	`{"name":"c","type":["null","string"],"default":null},` +
	`{"name":"by","type":["null","bytes"],"default":null},` +
	`{"name":"dt","type":["null",{"type":"int","logicalType":"date"}],"default":null},` +
	`{"name":"tm","type":["null",{"type":"int","logicalType":"time-millis"}],"default":null},` +
	`{"name":"ts","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null}]}`

func TestDeriveAvroSchema(t *testing.T) {
	got, _, err := deriveAvroSchema(allTypesSchema, true)
	if err != nil {
		t.Fatal(err)
	}
	if got != allTypesAvroSchema {
		t.Errorf("got  %s\nwant %s", got, allTypesAvroSchema)
	}
	if _, err := avro.Parse(got); err != nil {
		t.Errorf("derived schema does not parse: %v", err)
	}
	// The corrected mapping ('avro.timestamp_mapping.legacy' = 'false').
	got, _, err = deriveAvroSchema(types.Schema{
		field("a", types.TimestampType(6).WithNotNull(true)),
		field("b", types.TimestampLTZType(3)),
		field("c", types.TimestampType(9)),
		field("n", types.NullType),
	}, false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"record","name":"record","namespace":"org.apache.flink.avro.generated","fields":[` +
		`{"name":"a","type":{"type":"long","logicalType":"local-timestamp-micros"}},` +
		`{"name":"b","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null},` +
		`{"name":"c","type":["null",{"type":"long","logicalType":"local-timestamp-nanos"}],"default":null},` +
		`{"name":"n","type":"null","default":null}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestAvroBytes checks encodings against hand-computed bytes.
func TestAvroBytes(t *testing.T) {
	long := types.Schema{field("v", types.BigIntType.WithNotNull(true))}
	c := newCodec(t, "avro", long, nil)
	for v, want := range map[int64][]byte{
		0:             {0x00},
		-1:            {0x01},
		1:             {0x02},
		-64:           {0x7f},
		64:            {0x80, 0x01},
		300:           {0xd8, 0x04},
		math.MaxInt64: {0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		math.MinInt64: {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
	} {
		if got := mustEncode(t, c, types.Row{types.IntValue(v)}); !bytes.Equal(got, want) {
			t.Errorf("long %d: % x, want % x", v, got, want)
		}
	}
	for _, tc := range []struct {
		t    types.Type
		v    types.Value
		want []byte
	}{
		{types.DecimalType(10, 2), types.IntValue(0), []byte{0x02, 0x02, 0x00}},
		{types.DecimalType(10, 2), types.IntValue(128), []byte{0x02, 0x04, 0x00, 0x80}},
		{types.DecimalType(10, 2), types.IntValue(-1), []byte{0x02, 0x02, 0xff}},
		{types.DecimalType(10, 2), types.IntValue(-129), []byte{0x02, 0x04, 0xff, 0x7f}},
		{types.StringType, types.StringValue("hi"), []byte{0x02, 0x04, 'h', 'i'}},
		{types.StringType, types.NullValue, []byte{0x00}},
		{types.BooleanType, types.BoolValue(true), []byte{0x02, 0x01}},
		{types.DoubleType, types.FloatValue(1), []byte{0x02, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}},
		{floatT, types.FloatValue(1), []byte{0x02, 0, 0, 0x80, 0x3f}},
		{timeT, types.IntValue(1_500_000_000), []byte{0x02, 0xb8, 0x17}},                // 1500 ms
		{types.TimestampType(3), types.IntValue(-1), []byte{0x02, 0x01}},                // floor to -1 ms
		{tinyIntT.WithNotNull(true), types.IntValue(-2), []byte{0x03}},                  // int, no union
		{types.NullType, types.NullValue, []byte{}},                                     // "null"
		{types.TimestampType(3).WithNotNull(true), types.IntValue(1_000), []byte{0x02}}, // 1 ms
		{types.DecimalType(18, 0).WithNotNull(true), types.IntValue(math.MinInt64), []byte{0x10, 0x80, 0, 0, 0, 0, 0, 0, 0}},
	} {
		fields := types.Schema{field("v", tc.t)}
		c := newCodec(t, "avro", fields, nil)
		got := mustEncode(t, c, types.Row{tc.v})
		if !bytes.Equal(got, tc.want) || got == nil {
			t.Errorf("%s %v: % x, want % x", tc.t, tc.v, got, tc.want)
		}
	}
	if _, err := c.Encode(nil, types.Row{types.NullValue}); err == nil || err.Error() != "column 'v' is NOT NULL but the row holds NULL" {
		t.Errorf("NULL in NOT NULL column: %v", err)
	}
}

// hambaValues is allTypesRow as hamba/avro's generic encoder takes it.
func hambaValues() map[string]any {
	return map[string]any{
		"b":   true,
		"ti":  -5,
		"si":  300,
		"i":   -70000,
		"bi":  int64(1) << 40,
		"f":   float32(1.5),
		"d":   404.89,
		"dec": big.NewRat(-12345, 100),
		"s":   "héllo \"w\"\n",
		"c":   "abc",
		"by":  []byte("\x00\xff\x10"),
		"dt":  time.Date(2023, 7, 9, 0, 0, 0, 0, time.UTC),
		"tm":  3723 * time.Second,
		"ts":  time.UnixMilli(1688864400123).UTC(),
	}
}

// TestAvroIndependentEncoder decodes records written by hamba/avro's own
// generic encoder, and checks that hamba reads what Sluice writes.
func TestAvroIndependentEncoder(t *testing.T) {
	schema := avro.MustParse(allTypesAvroSchema)
	data, err := avro.Marshal(schema, hambaValues())
	if err != nil {
		t.Fatal(err)
	}
	c := newCodec(t, "avro", allTypesSchema, nil)
	if got := mustDecode(t, c, allTypesSchema, data); !sameRow(got, allTypesRow) {
		t.Errorf("decoded %v\nwant    %v", got, allTypesRow)
	}
	ours := mustEncode(t, c, allTypesRow)
	if !bytes.Equal(ours, data) {
		t.Errorf("encodings differ:\nsluice % x\nhamba  % x", ours, data)
	}
	var back map[string]any
	if err := avro.Unmarshal(schema, ours, &back); err != nil {
		t.Fatalf("hamba cannot read Sluice's record: %v", err)
	}
	if back["s"] != "héllo \"w\"\n" || back["bi"] != int64(1)<<40 {
		t.Errorf("hamba read %v", back)
	}
}

// registry starts an in-memory Schema Registry and a client for it.
func registry(t *testing.T) (*srfake.Registry, *sr.Client) {
	t.Helper()
	reg := srfake.New()
	t.Cleanup(reg.Close)
	cl, err := sr.NewClient(sr.URLs(reg.URL()))
	if err != nil {
		t.Fatal(err)
	}
	return reg, cl
}

// TestConfluentWireFormat checks the record Sluice writes for a value side
// (title STRING key, tickets_sold BIGINT value, EXCEPT_KEY): the registered
// value schema holds only the value field, as a nullable union, so that
// kafka-avro-console-consumer shows {"tickets_sold":{"long":1}}.
func TestConfluentWireFormat(t *testing.T) {
	reg, cl := registry(t)
	fields := types.Schema{field("tickets_sold", types.BigIntType)}
	c, err := New("avro-confluent", Config{Fields: fields, Options: map[string]string{"url": reg.URL()}, Topic: "sales"})
	if err != nil {
		t.Fatal(err)
	}
	data := mustEncode(t, c, types.Row{types.IntValue(1)})
	ss, err := cl.SchemaByVersion(context.Background(), "sales-value", 1)
	if err != nil {
		t.Fatal(err)
	}
	wantSchema := `{"type":"record","name":"record","namespace":"org.apache.flink.avro.generated",` +
		`"fields":[{"name":"tickets_sold","type":["null","long"],"default":null}]}`
	if ss.Schema.Schema != wantSchema {
		t.Errorf("registered %s", ss.Schema.Schema)
	}
	want := binary.BigEndian.AppendUint32([]byte{0x00}, uint32(ss.ID))
	want = append(want, 0x02, 0x02) // union branch 1 (long), then zig-zag 1
	if !bytes.Equal(data, want) {
		t.Errorf("record % x, want % x", data, want)
	}
	// A second record reuses the id without registering again.
	if again := mustEncode(t, c, types.Row{types.NullValue}); !bytes.Equal(again, append(want[:5:5], 0x00)) {
		t.Errorf("second record % x", again)
	}
	if got := mustDecode(t, c, fields, data); got[0].I != 1 {
		t.Errorf("decoded %v", got)
	}
	// The key side registers under <topic>-key.
	key, err := New("avro-confluent", Config{Fields: types.Schema{field("title", types.StringType.WithNotNull(true))},
		Options: map[string]string{"url": reg.URL()}, Topic: "sales", IsKey: true})
	if err != nil {
		t.Fatal(err)
	}
	mustEncode(t, key, types.Row{types.StringValue("x")})
	ks, err := cl.SchemaByVersion(context.Background(), "sales-key", 1)
	if err != nil || !strings.Contains(ks.Schema.Schema, `{"name":"title","type":"string"}`) {
		t.Errorf("key schema %v, %v", ks.Schema.Schema, err)
	}
}

// confluentRecord frames an Avro body written with schema under id.
func confluentRecord(t *testing.T, id int, schema string, v any) []byte {
	t.Helper()
	body, err := avro.Marshal(avro.MustParse(schema), v)
	if err != nil {
		t.Fatal(err)
	}
	return append(binary.BigEndian.AppendUint32([]byte{0}, uint32(id)), body...)
}

// TestConfluentSchemaEvolution reads records written with other writer
// schemas, resolving them against the table the way Avro's resolving
// decoder does for Flink.
func TestConfluentSchemaEvolution(t *testing.T) {
	reg, _ := registry(t)
	fields := types.Schema{
		field("id", types.BigIntType.WithNotNull(true)),
		field("name", types.StringType),
		field("score", types.DoubleType),
		field("tag", bytesT),
		field("extra", types.IntType),
	}
	c := newCodec(t, "avro-confluent", fields, map[string]string{"url": reg.URL()})
	writer := `{"type":"record","name":"User","namespace":"com.example","fields":[
		{"name":"score","type":"float"},
		{"name":"nested","type":{"type":"record","name":"N","fields":[{"name":"x","type":{"type":"array","items":"string"}},{"name":"m","type":{"type":"map","values":"long"}}]}},
		{"name":"name","type":["string","null"]},
		{"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"]}},
		{"name":"fx","type":{"type":"fixed","name":"F","size":3}},
		{"name":"id","type":"int"},
		{"name":"tag","type":"string"},
		{"name":"u","type":["null","N","double"]}
	]}`
	reg.SeedSchema("other", 1, 17, sr.Schema{Schema: writer})
	v := map[string]any{
		"score":  float32(2.5),
		"nested": map[string]any{"x": []string{"a", "b"}, "m": map[string]any{"k": int64(3)}},
		"name":   "ann",
		"e":      "B",
		"fx":     [3]byte{1, 2, 3},
		"id":     42,
		"tag":    "t",
		"u":      map[string]any{"com.example.N": map[string]any{"x": []string{"c"}, "m": map[string]any{}}},
	}
	got := mustDecode(t, c, fields, confluentRecord(t, 17, writer, v))
	want := types.Row{types.IntValue(42), types.StringValue("ann"), types.FloatValue(2.5), types.StringValue("t"), types.NullValue}
	if !sameRow(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	v["name"] = nil
	got = mustDecode(t, c, fields, confluentRecord(t, 17, writer, v))
	if !got[1].Null {
		t.Errorf("name = %v, want NULL", got[1])
	}

	// A writer without the NOT NULL column cannot be read.
	reg.SeedSchema("other", 2, 18, sr.Schema{Schema: `{"type":"record","name":"R","fields":[{"name":"name","type":"string"}]}`})
	_, err := decodeRow(t, c, fields, confluentRecord(t, 18, `{"type":"record","name":"R","fields":[{"name":"name","type":"string"}]}`, map[string]any{"name": "x"}))
	if err == nil || err.Error() != "schema id 18 cannot be read into the table: the writer schema has no field 'id' and the column is NOT NULL (no default)" {
		t.Errorf("missing NOT NULL field: %v", err)
	}
	// A writer type that does not promote fails when met.
	bad := `{"type":"record","name":"R","fields":[{"name":"id","type":"long"},{"name":"extra","type":["null","long"]}]}`
	reg.SeedSchema("other", 3, 19, sr.Schema{Schema: bad})
	if got := mustDecode(t, c, fields, confluentRecord(t, 19, bad, map[string]any{"id": int64(1), "extra": nil})); !got[4].Null {
		t.Errorf("extra = %v", got[4])
	}
	_, err = decodeRow(t, c, fields, confluentRecord(t, 19, bad, map[string]any{"id": int64(1), "extra": int64(5)}))
	if err == nil || err.Error() != "invalid Avro record: field 'extra': Found long, expecting union" {
		t.Errorf("long into INT: %v", err)
	}
}

func TestConfluentMalformed(t *testing.T) {
	reg, _ := registry(t)
	fields := types.Schema{field("s", types.StringType), field("n", types.BigIntType.WithNotNull(true))}
	c := newCodec(t, "avro-confluent", fields, map[string]string{"url": reg.URL()})
	good := mustEncode(t, c, types.Row{types.StringValue("hello"), types.IntValue(7)})
	id := binary.BigEndian.Uint32(good[1:5])
	header := good[:5]
	for _, tc := range []struct {
		data []byte
		want string
	}{
		{[]byte(`{"a":1}`), "invalid Avro record: unknown magic byte 0x7b (expected 0x00)"},
		{[]byte{0x01}, "invalid Avro record: unknown magic byte 0x01 (expected 0x00)"},
		{[]byte{}, "invalid Avro record: 0 bytes are too few for the Confluent header (5 bytes)"},
		{[]byte{0, 0, 0}, "invalid Avro record: 3 bytes are too few for the Confluent header (5 bytes)"},
		{[]byte{0, 0, 0, 0, 17, 2}, "schema id 17 not found in the registry"},
		{good[:len(good)-1], "invalid Avro record: truncated data"},
		{good[:9], "invalid Avro record: truncated data"},
		{append(header[:5:5], 0x04), "invalid Avro record: union index 2 out of range"},
		{append(header[:5:5], 0x02, 0x01), "invalid Avro record: malformed data: length is negative: -1"},
		{append(header[:5:5], 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), "invalid Avro record: invalid varint encoding"},
		{append(header[:5:5], 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), "invalid Avro record: invalid varint encoding"},
	} {
		_, err := decodeRow(t, c, fields, tc.data)
		if err == nil || err.Error() != tc.want {
			t.Errorf("% x: error %v, want %s", tc.data, err, tc.want)
		}
	}
	if got := mustDecode(t, c, fields, good); got[0].S != "hello" || got[1].I != 7 || id == 0 {
		t.Errorf("good record: %v", got)
	}
	if err := c.Decode(nil, vectors(fields)); !errors.Is(err, ErrNoRow) {
		t.Errorf("tombstone: %v", err)
	}
}

func TestConfluentRegistryFailures(t *testing.T) {
	fields := types.Schema{field("s", types.StringType)}
	reg := srfake.New(srfake.WithAuth("Basic dTpw")) // u:p
	defer reg.Close()
	noAuth := newCodec(t, "avro-confluent", fields, map[string]string{"url": reg.URL()})
	if _, err := noAuth.Encode(nil, types.Row{types.StringValue("x")}); err == nil || !strings.HasPrefix(err.Error(), "registering the Avro schema under subject 't-value': ") {
		t.Errorf("unauthorised: %v", err)
	}
	withAuth := newCodec(t, "avro-confluent", fields, map[string]string{"url": reg.URL(),
		"basic-auth.credentials-source": "USER_INFO", "basic-auth.user-info": "u:p"})
	data := mustEncode(t, withAuth, types.Row{types.StringValue("x")})
	if got := mustDecode(t, withAuth, fields, data); got[0].S != "x" {
		t.Errorf("decoded %v", got)
	}
	viaProps := newCodec(t, "avro-confluent", fields, map[string]string{"url": reg.URL(),
		"properties.basic.auth.credentials.source": "USER_INFO", "properties.basic.auth.user.info": "u:p"})
	mustEncode(t, viaProps, types.Row{types.StringValue("x")})

	c, err := New("avro-confluent", Config{Fields: fields, Options: map[string]string{"url": reg.URL()}, OptionPrefix: "value.avro-confluent."})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Encode(nil, types.Row{types.StringValue("x")}); err == nil || err.Error() != "option 'value.avro-confluent.subject' is required for serialization" {
		t.Errorf("no subject: %v", err)
	}
}

func TestConfluentProvidedSchema(t *testing.T) {
	reg, cl := registry(t)
	fields := types.Schema{field("a", types.IntType), field("b", types.StringType.WithNotNull(true))}
	schema := `{"type":"record","name":"R","fields":[{"name":"b","type":"string"},{"name":"a","type":["int","null"]}]}`
	c := newCodec(t, "avro-confluent", fields, map[string]string{"url": reg.URL(), "schema": schema})
	data := mustEncode(t, c, types.Row{types.IntValue(1), types.StringValue("x")})
	if !bytes.Equal(data[5:], []byte{0x02, 'x', 0x00, 0x02}) {
		t.Errorf("body % x", data[5:])
	}
	ss, err := cl.SchemaByVersion(context.Background(), "t-value", 1)
	if err != nil || ss.Schema.Schema != schema {
		t.Errorf("registered %q, %v", ss.Schema.Schema, err)
	}
	if got := mustDecode(t, c, fields, data); got[0].I != 1 || got[1].S != "x" {
		t.Errorf("decoded %v", got)
	}
	_, err = New("avro-confluent", Config{Fields: fields, Options: map[string]string{"url": reg.URL(),
		"schema": `{"type":"record","name":"R","fields":[{"name":"b","type":"string"},{"name":"a","type":"long"}]}`}})
	if err == nil || err.Error() != `option 'avro-confluent.schema': schema field 'a' has type "long", which does not match column type INT` {
		t.Errorf("mismatched schema: %v", err)
	}
}

// TestAvroCorrectedTimestamps covers 'avro.timestamp_mapping.legacy' = 'false'.
func TestAvroCorrectedTimestamps(t *testing.T) {
	fields := types.Schema{
		field("a", types.TimestampType(6)),
		field("b", types.TimestampLTZType(3)),
		field("c", types.TimestampType(9)),
	}
	c := newCodec(t, "avro", fields, map[string]string{"timestamp_mapping.legacy": "false"})
	ns7, _ := types.TimestampFromParts(9, 0, 7)
	row := types.Row{types.IntValue(1_000_001), types.IntValue(-1_000), ns7}
	data := mustEncode(t, c, row)
	want := []byte{0x02, 0x82, 0x89, 0x7a, 0x02, 0x01, 0x02, 0x0e} // 1000001 µs, -1 ms, 7 ns
	if !bytes.Equal(data, want) {
		t.Errorf("% x, want % x", data, want)
	}
	if got := mustDecode(t, c, fields, data); !sameRow(got, row) {
		t.Errorf("decoded %v", got)
	}
	// local-timestamp-nanos holds what a long of nanoseconds holds: its
	// first nanosecond round-trips, year 1500 is refused by name.
	first, _ := types.TimestampFromParts(9, math.MinInt64/1000-1, 192)
	row[2] = first
	if got := mustDecode(t, c, fields, mustEncode(t, c, row)); !sameRow(got, row) {
		t.Errorf("first nanosecond decoded as %v", got)
	}
	row[2], _ = types.TimestampFromParts(9, time.Date(1500, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro(), 0)
	_, err := c.Encode(nil, row)
	if err == nil || !strings.Contains(err.Error(), "column 'c': TIMESTAMP(9) '1500-01-01 00:00:00.000000000' does not fit Avro's local-timestamp-nanos") {
		t.Errorf("year 1500 as local-timestamp-nanos: %v", err)
	}
}

// TestAvroResolutionConversions covers the reader-side conversions Flink's
// AvroToRowDataConverters apply.
func TestAvroResolutionConversions(t *testing.T) {
	reg, _ := registry(t)
	fields := types.Schema{
		field("ti", tinyIntT), field("d", types.DoubleType), field("f", floatT),
		field("dec", types.DecimalType(4, 2)), field("s", types.StringType), field("bi", types.BigIntType),
	}
	c := newCodec(t, "avro-confluent", fields, map[string]string{"url": reg.URL()})
	writer := `{"type":"record","name":"W","fields":[{"name":"ti","type":"int"},{"name":"d","type":"long"},
		{"name":"f","type":"int"},{"name":"dec","type":"bytes"},{"name":"s","type":"bytes"},{"name":"bi","type":"int"}]}`
	reg.SeedSchema("w", 1, 30, sr.Schema{Schema: writer})
	got := mustDecode(t, c, fields, confluentRecord(t, 30, writer, map[string]any{
		"ti": 300, "d": int64(1) << 60, "f": 16777217, "dec": []byte{0x30, 0x39}, "s": []byte("a\xffb"), "bi": -3,
	}))
	want := types.Row{types.IntValue(44), types.FloatValue(1 << 60), types.FloatValue(16777216),
		types.NullValue, types.StringValue("a\uFFFDb"), types.IntValue(-3)} // 12345 needs 5 digits: NULL
	if !sameRow(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// avroJSON renders an Avro binary body in Avro's JSON encoding, as
// kafka-avro-console-consumer prints it (records, unions, primitives).
func avroJSON(t *testing.T, s avro.Schema, r *avroReader) string {
	t.Helper()
	switch s := s.(type) {
	case *avro.RecordSchema:
		parts := make([]string, len(s.Fields()))
		for i, f := range s.Fields() {
			parts[i] = `"` + f.Name() + `":` + avroJSON(t, f.Type(), r)
		}
		return "{" + strings.Join(parts, ",") + "}"
	case *avro.UnionSchema:
		i, err := r.int()
		if err != nil {
			t.Fatal(err)
		}
		b := s.Types()[i]
		if b.Type() == avro.Null {
			return "null"
		}
		return `{"` + string(b.Type()) + `":` + avroJSON(t, b, r) + "}"
	}
	switch s.Type() {
	case avro.Long, avro.Int:
		n, err := r.long()
		if err != nil {
			t.Fatal(err)
		}
		return strconv.FormatInt(n, 10)
	case avro.String:
		b, err := r.bytes()
		if err != nil {
			t.Fatal(err)
		}
		return strconv.Quote(string(b))
	}
	t.Fatalf("avroJSON: unhandled type %s", s.Type())
	return ""
}

func TestConfluentConsoleConsumerView(t *testing.T) {
	reg, cl := registry(t)
	fields := types.Schema{field("tickets_sold", types.BigIntType)}
	c := newCodec(t, "avro-confluent", fields, map[string]string{"url": reg.URL()})
	data := mustEncode(t, c, types.Row{types.IntValue(1)})
	s, err := cl.SchemaByID(context.Background(), int(binary.BigEndian.Uint32(data[1:5])))
	if err != nil {
		t.Fatal(err)
	}
	if got := avroJSON(t, avro.MustParse(s.Schema), &avroReader{b: data[5:]}); got != `{"tickets_sold":{"long":1}}` {
		t.Errorf("console view %s", got)
	}
}
