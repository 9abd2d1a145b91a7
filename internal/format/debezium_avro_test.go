package format

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"
	"github.com/twmb/franz-go/pkg/sr"
	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/sluicesql/sluice/internal/types"
)

// debeziumEnvelopeSchema is the writer schema Debezium's MySQL connector
// with Confluent's Avro converter registers for inventory.products (as in
// Debezium's tutorial): Envelope, Value and Source records, fields the
// table does not read, an Enum-annotated union.
const debeziumEnvelopeSchema = `{"type":"record","name":"Envelope","namespace":"dbserver1.inventory.products","fields":[
 {"name":"before","type":["null",{"type":"record","name":"Value","fields":[
   {"name":"id","type":"int"},{"name":"name","type":"string"},
   {"name":"description","type":["null","string"],"default":null},{"name":"weight","type":["null","double"],"default":null}],
   "connect.name":"dbserver1.inventory.products.Value"}],"default":null},
 {"name":"after","type":["null","Value"],"default":null},
 {"name":"source","type":{"type":"record","name":"Source","namespace":"io.debezium.connector.mysql","fields":[
   {"name":"version","type":"string"},{"name":"connector","type":"string"},{"name":"name","type":"string"},
   {"name":"ts_ms","type":"long"},
   {"name":"snapshot","type":[{"type":"string","connect.version":1,"connect.parameters":{"allowed":"true,last,false"},"connect.default":"false","connect.name":"io.debezium.data.Enum"},"null"],"default":"false"},
   {"name":"db","type":"string"},{"name":"sequence","type":["null","string"],"default":null},
   {"name":"table","type":["null","string"],"default":null},{"name":"server_id","type":"long"},
   {"name":"gtid","type":["null","string"],"default":null},{"name":"file","type":"string"},{"name":"pos","type":"long"},
   {"name":"row","type":"int"},{"name":"thread","type":["null","long"],"default":null},{"name":"query","type":["null","string"],"default":null}]}},
 {"name":"op","type":"string"},
 {"name":"ts_ms","type":["null","long"],"default":null},
 {"name":"transaction","type":["null",{"type":"record","name":"ConnectDefault","namespace":"io.confluent.connect.avro","fields":[
   {"name":"id","type":"string"},{"name":"total_order","type":"long"},{"name":"data_collection_order","type":"long"}]}],"default":null}],
 "connect.name":"dbserver1.inventory.products.Envelope"}`

// debeziumAvroMessage encodes one Debezium change in Confluent's wire format
// with the schema of id.
func debeziumAvroMessage(t *testing.T, schema avro.Schema, id int, before, after map[string]any, op string, ts int64) []byte {
	t.Helper()
	var b, a any // a record in a union is named
	if before != nil {
		b = map[string]any{"dbserver1.inventory.products.Value": before}
	}
	if after != nil {
		a = map[string]any{"dbserver1.inventory.products.Value": after}
	}
	msg := map[string]any{
		"before": b, "after": a, "op": op, "ts_ms": ts + 100, "transaction": nil,
		"source": map[string]any{"version": "2.5.0.Final", "connector": "mysql", "name": "dbserver1", "ts_ms": ts,
			"snapshot": "false", "db": "inventory", "sequence": nil, "table": "products", "server_id": int64(223344),
			"gtid": nil, "file": "mysql-bin.000003", "pos": int64(154), "row": 0, "thread": int64(7), "query": nil},
	}
	body, err := avro.Marshal(schema, msg)
	if err != nil {
		t.Fatal(err)
	}
	return append(binary.BigEndian.AppendUint32([]byte{0}, uint32(id)), body...)
}

func product(id int, name string, weight float64) map[string]any {
	return map[string]any{"id": id, "name": name, "description": "d", "weight": weight}
}

// decodeChangeRows decodes one message and prints its rows.
func decodeChangeRows(t *testing.T, c ChangelogCodec, fields types.Schema, meta []MetadataColumn, data []byte) (string, error) {
	t.Helper()
	cols := vectors(fields)
	for _, m := range meta {
		cols = append(cols, types.NewVector(m.Type, 1))
	}
	return printChanges(t, c, cols, data)
}

// TestDebeziumAvroReadsDebezium reads changes written with Debezium's own
// schema: the row kinds of DebeziumAvroDeserializationSchema and the
// metadata of DebeziumAvroDecodingFormat.
func TestDebeziumAvroReadsDebezium(t *testing.T) {
	reg := srfake.New()
	defer reg.Close()
	reg.SeedSchema("products-value", 1, 7, sr.Schema{Schema: debeziumEnvelopeSchema})
	writer := avro.MustParse(debeziumEnvelopeSchema)
	fields := types.Schema{field("id", types.IntType.WithNotNull(true)), field("name", types.StringType), field("weight", types.DoubleType)}
	meta := []MetadataColumn{
		{Key: "source.table", Type: types.StringType},
		{Key: "ingestion-timestamp", Type: types.Type{Kind: types.TimestampLTZ, Precision: 3}},
		{Key: "source.timestamp", Type: types.TimestampType(9)}, // the wall clock in UTC, in nanoseconds
		{Key: "source.database", Type: types.StringType},
	}
	c, err := NewChangelog(debeziumAvroName, Config{Fields: fields, Options: map[string]string{"url": reg.URL()}, Topic: "products", Metadata: meta})
	if err != nil {
		t.Fatal(err)
	}
	const ts = 1589355606100
	for _, tc := range []struct {
		data []byte
		want string
	}{
		{debeziumAvroMessage(t, writer, 7, nil, product(101, "scooter", 3.14), "r", ts),
			"+I[101, scooter, 3.14, products, 2020-05-13 07:40:06.200, 2020-05-13 07:40:06.100000000, inventory]"},
		{debeziumAvroMessage(t, writer, 7, product(101, "scooter", 3.14), product(102, "scooter", 5.5), "u", ts),
			"-U[101, scooter, 3.14, products, 2020-05-13 07:40:06.200, 2020-05-13 07:40:06.100000000, inventory] " +
				"+U[102, scooter, 5.5, products, 2020-05-13 07:40:06.200, 2020-05-13 07:40:06.100000000, inventory]"},
		{debeziumAvroMessage(t, writer, 7, product(102, "scooter", 5.5), nil, "d", ts),
			"-D[102, scooter, 5.5, products, 2020-05-13 07:40:06.200, 2020-05-13 07:40:06.100000000, inventory]"},
		{nil, ""},
		{[]byte{}, ""},
	} {
		got, err := decodeChangeRows(t, c, fields, meta, tc.data)
		if err != nil || got != tc.want {
			t.Errorf("got %q, %v; want %q", got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		data []byte
		err  string
	}{
		{debeziumAvroMessage(t, writer, 7, nil, product(1, "a", 1), "u", ts),
			`Can't deserialize Debezium Avro message: The "before" field of UPDATE message is null`},
		{debeziumAvroMessage(t, writer, 7, nil, product(1, "a", 1), "t", ts), `Can't deserialize Debezium Avro message: unknown "op" value "t"`},
		{debeziumAvroMessage(t, writer, 7, nil, nil, "c", ts), `Can't deserialize Debezium Avro message: the "after" field is null`},
		{[]byte{0, 0, 0, 0, 7, 9}, "Can't deserialize Debezium Avro message: invalid Avro record"},
	} {
		if _, err := decodeChangeRows(t, c, fields, meta, tc.data); err == nil || !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("error %v, want one starting with %q", err, tc.err)
		}
	}

	// source.properties: every field Flink reads, ts_ms as a LocalDateTime.
	props := []MetadataColumn{{Key: "source.properties", Type: sourceMapType}}
	pc, err := NewChangelog(debeziumAvroName, Config{Fields: fields, Options: map[string]string{"url": reg.URL()}, Metadata: props})
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeChangeRows(t, pc, fields, props, debeziumAvroMessage(t, writer, 7, nil, product(1, "a", 1), "c", ts))
	want := "+I[1, a, 1.0, {version=2.5.0.Final, connector=mysql, name=dbserver1, ts_ms=2020-05-13T07:40:06.100, snapshot=false, " +
		"db=inventory, sequence=NULL, schema=NULL, table=products, txId=NULL, scn=NULL, commit_scn=NULL, lcr_position=NULL}]"
	if err != nil || got != want {
		t.Errorf("source.properties: got %q, %v\nwant %q", got, err, want)
	}
}

// TestDebeziumAvroWrites writes changes as DebeziumAvroSerializationSchema
// does, with the schema AvroSchemaConverter derives for the envelope, and
// reads them back.
func TestDebeziumAvroWrites(t *testing.T) {
	reg := srfake.New()
	defer reg.Close()
	fields := types.Schema{field("id", types.IntType.WithNotNull(true)), field("name", types.StringType)}
	c, err := NewChangelog(debeziumAvroName, Config{Fields: fields, Options: map[string]string{"url": reg.URL()}, Topic: "out"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CanEncode(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range []types.RowKind{types.Insert, types.UpdateBefore, types.UpdateAfter, types.Delete} {
		data, err := c.EncodeChange(nil, k, types.Row{types.IntValue(1), types.StringValue(k.String())})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := decodeChangeRows(t, c, fields, nil, data)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rows)
	}
	if want := "+I[1, +I] -D[1, -U] +I[1, +U] -D[1, -D]"; strings.Join(got, " ") != want {
		t.Errorf("read back %q, want %q", strings.Join(got, " "), want)
	}
	cl, err := sr.NewClient(sr.URLs(reg.URL()))
	if err != nil {
		t.Fatal(err)
	}
	s, err := cl.SchemaByVersion(context.Background(), "out-value", -1)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"record","name":"record","namespace":"org.apache.flink.avro.generated","fields":[` +
		`{"name":"before","type":["null",{"type":"record","name":"record_before","fields":[{"name":"id","type":"int"},{"name":"name","type":["null","string"],"default":null}]}],"default":null},` +
		`{"name":"after","type":["null",{"type":"record","name":"record_after","fields":[{"name":"id","type":"int"},{"name":"name","type":["null","string"],"default":null}]}],"default":null},` +
		`{"name":"op","type":["null","string"],"default":null}]}`
	if s.Schema.Schema != want {
		t.Errorf("registered schema\n%s\nwant\n%s", s.Schema.Schema, want)
	}
}

func TestDebeziumAvroRefuses(t *testing.T) {
	str := types.Schema{field("s", types.StringType)}
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Fields: str, IsKey: true, Options: map[string]string{"url": "http://r"}},
			"format 'debezium-avro-confluent' produces a changelog; a key format must be insert-only"},
		{Config{Fields: str, Options: map[string]string{"url": "http://r", "schema": "{}"}},
			"option 'debezium-avro-confluent.schema' is not supported yet"},
		{Config{Fields: str, Options: map[string]string{}}, "missing required option 'debezium-avro-confluent.url'"},
		{Config{Fields: str, Options: map[string]string{"url": "http://r"}, Metadata: []MetadataColumn{{Key: "schema", Type: types.StringType}}},
			"format 'debezium-avro-confluent' has no metadata key 'schema'"},
		{Config{Fields: str, Options: map[string]string{"url": "http://r"}, Metadata: []MetadataColumn{{Key: "source.table", Type: types.IntType}}},
			"metadata key 'source.table' of format 'debezium-avro-confluent' is of type STRING and cannot be read as INT"},
	} {
		if _, err := NewChangelog(debeziumAvroName, tc.cfg); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("error %v, want one starting with %q", err, tc.want)
		}
	}
}
