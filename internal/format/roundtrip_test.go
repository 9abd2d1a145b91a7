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
