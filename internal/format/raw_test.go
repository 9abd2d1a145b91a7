package format

import (
	"bytes"
	"math"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

func TestRawBytes(t *testing.T) {
	for _, tc := range []struct {
		t    types.Type
		v    types.Value
		opts map[string]string
		want []byte
	}{
		{types.IntType, types.IntValue(1), nil, []byte{0, 0, 0, 1}},
		{types.IntType, types.IntValue(1), map[string]string{"endianness": "LITTLE-ENDIAN"}, []byte{1, 0, 0, 0}},
		{smallIntT, types.IntValue(-2), nil, []byte{0xff, 0xfe}},
		{types.BigIntType, types.IntValue(258), nil, []byte{0, 0, 0, 0, 0, 0, 1, 2}},
		{tinyIntT, types.IntValue(-1), nil, []byte{0xff}},
		{types.BooleanType, types.BoolValue(true), nil, []byte{1}},
		{types.BooleanType, types.BoolValue(false), nil, []byte{0}},
		{floatT, types.FloatValue(1), nil, []byte{0x3f, 0x80, 0, 0}},
		{types.DoubleType, types.FloatValue(-2), nil, []byte{0xc0, 0, 0, 0, 0, 0, 0, 0}},
		{types.StringType, types.StringValue("é"), nil, []byte{0xc3, 0xa9}},
		{types.StringType, types.StringValue("é?"), map[string]string{"charset": "ISO-8859-1"}, []byte{0xe9, '?'}},
		{types.StringType, types.StringValue("é"), map[string]string{"charset": "utf-16"}, []byte{0xfe, 0xff, 0, 0xe9}},
		{types.StringType, types.StringValue("é"), map[string]string{"charset": "UTF-16LE"}, []byte{0xe9, 0}},
		{types.StringType, types.StringValue("é"), map[string]string{"charset": "US-ASCII"}, []byte{'?'}},
		{types.StringType, types.StringValue(""), nil, []byte{}},
		{bytesT, types.StringValue("\x00\x01"), nil, []byte{0, 1}},
	} {
		fields := types.Schema{field("v", tc.t)}
		c := newCodec(t, "raw", fields, tc.opts)
		got := mustEncode(t, c, types.Row{tc.v})
		if !bytes.Equal(got, tc.want) || got == nil {
			t.Errorf("%s %v %v: encoded % x, want % x", tc.t, tc.v, tc.opts, got, tc.want)
		}
	}
}

func TestRawDecode(t *testing.T) {
	for _, tc := range []struct {
		t    types.Type
		opts map[string]string
		data []byte
		want types.Value
	}{
		{types.IntType, nil, nil, types.NullValue},
		{types.StringType, nil, nil, types.NullValue},
		{types.StringType, nil, []byte{}, types.StringValue("")},
		{types.StringType, nil, []byte{0xff}, types.StringValue("\xff")}, // kept as is, like StringData.fromBytes
		{types.StringType, map[string]string{"charset": "latin1"}, []byte{0xe9}, types.StringValue("é")},
		{types.StringType, map[string]string{"charset": "UTF-16"}, []byte{0xff, 0xfe, 0xe9, 0}, types.StringValue("é")},
		{types.StringType, map[string]string{"charset": "ascii"}, []byte{'a', 0x80}, types.StringValue("a\uFFFD")},
		{types.BooleanType, nil, []byte{2}, types.BoolValue(true)},
		{types.IntType, map[string]string{"endianness": "little-endian"}, []byte{0xff, 0xff, 0xff, 0x7f}, types.IntValue(math.MaxInt32)},
		{floatT, nil, []byte{0x7f, 0xc0, 0, 0}, types.FloatValue(math.NaN())},
	} {
		fields := types.Schema{field("v", tc.t)}
		c := newCodec(t, "raw", fields, tc.opts)
		got := mustDecode(t, c, fields, tc.data)
		if !sameRow(got, types.Row{tc.want}) {
			t.Errorf("%s % x: got %v, want %v", tc.t, tc.data, got[0], tc.want)
		}
	}
}

func TestRawWrongLength(t *testing.T) {
	for _, tc := range []struct {
		t    types.Type
		data []byte
		want string
	}{
		{types.IntType, []byte{1, 2, 3}, "raw format: INT needs 4 bytes, got 3"},
		{types.BigIntType.WithNotNull(true), []byte{}, "raw format: BIGINT needs 8 bytes, got 0"},
		{types.BooleanType, []byte{1, 0}, "raw format: BOOLEAN needs 1 bytes, got 2"},
		{types.DoubleType, []byte{1}, "raw format: DOUBLE needs 8 bytes, got 1"},
	} {
		fields := types.Schema{field("v", tc.t)}
		c := newCodec(t, "raw", fields, nil)
		_, err := decodeRow(t, c, fields, tc.data)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.t, err, tc.want)
		}
	}
}
