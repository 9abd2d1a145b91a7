package format

import (
	"math"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
	"github.com/twmb/franz-go/pkg/sr/srfake"
)

func TestRoundTripAllTypes(t *testing.T) {
	reg := srfake.New()
	defer reg.Close()
	nullRow := make(types.Row, len(allTypesRow))
	for i := range nullRow {
		nullRow[i] = types.NullValue
	}
	nullRow[4] = types.IntValue(0) // bi is NOT NULL
	for _, tc := range []struct {
		name string
		opts map[string]string
	}{
		{"json", nil},
		{"json", map[string]string{"timestamp-format.standard": "ISO-8601"}},
		{"avro", nil},
		{"avro-confluent", map[string]string{"url": reg.URL()}},
	} {
		c := newCodec(t, tc.name, allTypesSchema, tc.opts)
		for _, row := range []types.Row{allTypesRow, nullRow} {
			data := mustEncode(t, c, row)
			got := mustDecode(t, c, allTypesSchema, data)
			if !sameRow(got, row) {
				t.Errorf("%s %v: round trip of %v gave %v (encoded %q)", tc.name, tc.opts, row, got, data)
			}
		}
	}
}

func TestRawRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		t types.Type
		v types.Value
	}{
		{types.StringType, types.StringValue("héllo")},
		{charT, types.StringValue("")},
		{bytesT, types.StringValue("\x00\x01")},
		{types.BooleanType, types.BoolValue(true)},
		{tinyIntT, types.IntValue(-128)},
		{smallIntT, types.IntValue(-2)},
		{types.IntType, types.IntValue(math.MinInt32)},
		{types.BigIntType, types.IntValue(math.MaxInt64)},
		{floatT, types.FloatValue(-0.25)},
		{types.DoubleType, types.FloatValue(math.Inf(-1))},
		{types.IntType, types.NullValue},
	} {
		for _, end := range []string{"big-endian", "little-endian"} {
			fields := types.Schema{field("v", tc.t)}
			c := newCodec(t, "raw", fields, map[string]string{"endianness": end})
			data := mustEncode(t, c, types.Row{tc.v})
			if tc.v.Null != (data == nil) {
				t.Errorf("%s %v: encoded %v", tc.t, tc.v, data)
			}
			got := mustDecode(t, c, fields, data)
			if !sameRow(got, types.Row{tc.v}) {
				t.Errorf("%s %s: round trip of %v gave %v", tc.t, end, tc.v, got[0])
			}
		}
	}
}

// TestDecodeErrorKeepsColumns checks that a bad message leaves columns that
// already hold rows as they were.
func TestDecodeErrorKeepsColumns(t *testing.T) {
	reg := srfake.New()
	defer reg.Close()
	for _, tc := range []struct {
		name string
		opts map[string]string
		bad  func(good []byte) []byte
	}{
		{"json", nil, func([]byte) []byte { return []byte(`{"b":true,"s":"x","ts":"nope"}`) }},
		{"avro", nil, func(good []byte) []byte { return good[:len(good)-2] }},
		{"avro-confluent", map[string]string{"url": reg.URL()}, func(good []byte) []byte { return good[:len(good)-2] }},
	} {
		c := newCodec(t, tc.name, allTypesSchema, tc.opts)
		good := mustEncode(t, c, allTypesRow)
		cols := vectors(allTypesSchema)
		if err := c.Decode(good, cols); err != nil {
			t.Fatal(err)
		}
		if err := c.Decode(tc.bad(good), cols); err == nil {
			t.Fatalf("%s: bad message decoded", tc.name)
		}
		for i, col := range cols {
			if col.Len() != 1 || len(col.I64)+len(col.F64)+len(col.Str) != 1 {
				t.Errorf("%s: column %d holds %d values after a failed decode", tc.name, i, col.Len())
			}
		}
	}
}

func TestNoFields(t *testing.T) {
	for _, name := range []string{"json", "avro"} {
		c := newCodec(t, name, nil, nil)
		data := mustEncode(t, c, nil)
		if data == nil {
			t.Errorf("%s: an empty row encoded as a Kafka null", name)
		}
		if err := c.Decode(data, nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
