package format

import (
	"context"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"
	"github.com/twmb/franz-go/pkg/sr"

	"github.com/sluicesql/sluice/internal/types"
)

// avroNestedFields has every composite kind, nested, nullable and not.
var avroNestedFields = types.Schema{
	{Name: "tags", Type: types.ArrayOf(types.StringType)},
	{Name: "attrs", Type: types.MapOf(types.StringType, types.BigIntType.WithNotNull(true)).WithNotNull(true)},
	{Name: "r", Type: types.RowOf([]types.Field{
		{Name: "x", Type: types.IntType.WithNotNull(true)},
		{Name: "s", Type: types.RowOf([]types.Field{{Name: "d", Type: types.DoubleType}})},
		{Name: "items", Type: types.ArrayOf(types.RowOf([]types.Field{{Name: "sku", Type: types.StringType}}))},
	})},
	{Name: "bag", Type: types.MultisetOf(types.StringType)},
}

// TestDeriveNestedAvroSchema follows AvroSchemaConverter.convertToSchema:
// nested records named after their path (record_r, record_r_s), array
// items and map values taking their column's name, nullable children in
// unions with null, nullable nested fields with a null default, MULTISET
// counts a nullable int.
func TestDeriveNestedAvroSchema(t *testing.T) {
	text, _, err := deriveAvroSchema(avroNestedFields, true)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"record","name":"record","namespace":"org.apache.flink.avro.generated","fields":[` +
		`{"name":"tags","type":["null",{"type":"array","items":["null","string"]}],"default":null},` +
		`{"name":"attrs","type":{"type":"map","values":"long"}},` +
		`{"name":"r","type":["null",{"type":"record","name":"record_r","fields":[` +
		`{"name":"x","type":"int"},` +
		`{"name":"s","type":["null",{"type":"record","name":"record_r_s","fields":[{"name":"d","type":["null","double"],"default":null}]}],"default":null},` +
		`{"name":"items","type":["null",{"type":"array","items":["null",{"type":"record","name":"record_r_items","fields":[{"name":"sku","type":["null","string"],"default":null}]}]}],"default":null}` +
		`]}],"default":null},` +
		`{"name":"bag","type":["null",{"type":"map","values":["null","int"]}],"default":null}]}`
	if text != want {
		t.Errorf("derived\n%s\nwant\n%s", text, want)
	}
	if _, err := parseAvroSchema(text); err != nil {
		t.Errorf("the derived schema does not parse: %v", err)
	}
	_, _, err = deriveAvroSchema(types.Schema{{Name: "m", Type: types.ArrayOf(types.MapOf(types.IntType, types.IntType))}}, true)
	if err == nil || !strings.Contains(err.Error(), "Avro format doesn't support non-string as key type of map. The key type is: INT") {
		t.Errorf("got %v", err)
	}
}

func nestedAvroRow() types.Row {
	f := avroNestedFields
	inner := f[2].Type.Fields()
	item := inner[2].Type.Elem()
	return types.Row{
		types.EncodeArray(types.StringType, []types.Value{types.StringValue("a"), types.NullValue}),
		types.EncodeMap(f[1].Type, []types.Value{types.StringValue("k"), types.StringValue("j")}, []types.Value{types.IntValue(1), types.IntValue(-2)}),
		types.EncodeRow(f[2].Type, []types.Value{
			types.IntValue(7),
			types.EncodeRow(inner[1].Type, []types.Value{types.FloatValue(0.5)}),
			types.EncodeArray(item, []types.Value{types.EncodeRow(item, []types.Value{types.StringValue("p")}), types.NullValue}),
		}),
		types.EncodeMap(f[3].Type, []types.Value{types.StringValue("u")}, []types.Value{types.IntValue(3)}),
	}
}

func printRow(fields types.Schema, row types.Row) string {
	var out []string
	for i, f := range fields {
		out = append(out, types.PrintValue(f.Type, row[i], nil))
	}
	return strings.Join(out, " | ")
}

// TestAvroNestedRoundTrip writes nested values with the derived schema,
// reads them back, and has hamba/avro read the bytes independently.
func TestAvroNestedRoundTrip(t *testing.T) {
	c := newCodec(t, "avro", avroNestedFields, nil)
	row := nestedAvroRow()
	data := mustEncode(t, c, row)
	got := mustDecode(t, c, avroNestedFields, data)
	want := "[a, NULL] | {k=1, j=-2} | (7, (0.5), [(p), NULL]) | {u=3}"
	if p := printRow(avroNestedFields, got); p != want {
		t.Errorf("round trip %s, want %s", p, want)
	}
	text, _, _ := deriveAvroSchema(avroNestedFields, true)
	var generic map[string]any
	if err := avro.Unmarshal(avro.MustParse(text), data, &generic); err != nil {
		t.Fatalf("an independent reader fails: %v", err)
	}
	r := generic["r"].(map[string]any)["org.apache.flink.avro.generated.record_r"].(map[string]any)
	if r["x"] != 7 || generic["attrs"].(map[string]any)["j"] != int64(-2) {
		t.Errorf("independent reader got %v", generic)
	}
	// Empty and NULL collections.
	empty := types.Row{types.EncodeArray(types.StringType, nil), types.EncodeMap(avroNestedFields[1].Type, nil, nil), types.NullValue, types.NullValue}
	if p := printRow(avroNestedFields, mustDecode(t, c, avroNestedFields, mustEncode(t, c, empty))); p != "[] | {} | <NULL> | <NULL>" {
		t.Errorf("empty: %s", p)
	}
}

// TestConfluentNestedWriterSchema reads records written with an existing
// registry schema whose nested records have other names, other field
// orders, extra fields and unions, into a table that
// declares the nested types; and registers the derived nested schema.
func TestConfluentNestedWriterSchema(t *testing.T) {
	reg, cl := registry(t)
	fields := types.Schema{
		{Name: "id", Type: types.BigIntType},
		{Name: "buyer", Type: types.RowOf([]types.Field{{Name: "name", Type: types.StringType}, {Name: "age", Type: types.IntType}})},
		{Name: "lines", Type: types.ArrayOf(types.RowOf([]types.Field{{Name: "sku", Type: types.StringType}, {Name: "qty", Type: types.BigIntType}}))},
		{Name: "attrs", Type: types.MapOf(types.StringType, types.StringType)},
	}
	c := newCodec(t, "avro-confluent", fields, map[string]string{"url": reg.URL()})
	writer := `{"type":"record","name":"Order","namespace":"com.shop","fields":[
		{"name":"lines","type":{"type":"array","items":{"type":"record","name":"Line","fields":[
			{"name":"qty","type":"int"},{"name":"note","type":"string"},{"name":"sku","type":"string"}]}}},
		{"name":"id","type":"long"},
		{"name":"buyer","type":["null",{"type":"record","name":"Person","fields":[{"name":"name","type":"string"},{"name":"email","type":"string"}]}]},
		{"name":"attrs","type":{"type":"map","values":["null","string"]}}
	]}`
	reg.SeedSchema("orders-value", 1, 31, sr.Schema{Schema: writer})
	v := map[string]any{
		"lines": []any{
			map[string]any{"qty": 2, "note": "n", "sku": "a"},
			map[string]any{"qty": 1, "note": "", "sku": "b"},
		},
		"id":    int64(9),
		"buyer": map[string]any{"com.shop.Person": map[string]any{"name": "ann", "email": "e"}},
		"attrs": map[string]any{"k": map[string]any{"string": "v"}},
	}
	got := mustDecode(t, c, fields, confluentRecord(t, 31, writer, v))
	if p := printRow(fields, got); p != "9 | (ann, NULL) | [(a, 2), (b, 1)] | {k=v}" {
		t.Errorf("got %s", p)
	}
	// A writer record field whose type does not resolve fails when met,
	// naming the path.
	bad := `{"type":"record","name":"R","fields":[{"name":"buyer","type":{"type":"record","name":"P","fields":[{"name":"name","type":"double"}]}}]}`
	reg.SeedSchema("orders-value", 2, 32, sr.Schema{Schema: bad})
	_, err := decodeRow(t, c, fields, confluentRecord(t, 32, bad, map[string]any{"buyer": map[string]any{"name": 1.5}}))
	if err == nil || !strings.Contains(err.Error(), "field 'buyer.name': Found double, expecting union") {
		t.Errorf("got %v", err)
	}
	// An array where the table declares a row.
	bad2 := `{"type":"record","name":"R","fields":[{"name":"buyer","type":{"type":"array","items":"int"}}]}`
	reg.SeedSchema("orders-value", 3, 33, sr.Schema{Schema: bad2})
	_, err = decodeRow(t, c, fields, confluentRecord(t, 33, bad2, map[string]any{"buyer": []int{1}}))
	if err == nil || !strings.Contains(err.Error(), "field 'buyer': Found array, expecting record") {
		t.Errorf("got %v", err)
	}
	// Writing registers the derived schema.
	w := newCodec(t, "avro-confluent", fields, map[string]string{"url": reg.URL()})
	mustEncode(t, w, got)
	ss, err := cl.SchemaByVersion(context.Background(), "t-value", 1)
	if err != nil || !strings.Contains(ss.Schema.Schema, `{"type":"record","name":"record_buyer","fields":[{"name":"name","type":["null","string"],"default":null}`) {
		t.Errorf("registered %v %v", ss.Schema.Schema, err)
	}
}
