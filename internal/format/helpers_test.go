package format

import (
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// newCodec builds a codec or fails the test.
func newCodec(t testing.TB, name string, fields types.Schema, opts map[string]string) Codec {
	t.Helper()
	c, err := New(name, Config{Fields: fields, Options: opts, Topic: "t"})
	if err != nil {
		t.Fatalf("New(%s): %v", name, err)
	}
	return c
}

// vectors returns empty vectors for fields.
func vectors(fields types.Schema) []*types.Vector {
	cols := make([]*types.Vector, len(fields))
	for i, f := range fields {
		cols[i] = types.NewVector(f.Type, 4)
	}
	return cols
}

// decodeRow decodes one message into a row.
func decodeRow(t testing.TB, c Codec, fields types.Schema, data []byte) (types.Row, error) {
	t.Helper()
	cols := vectors(fields)
	if err := c.Decode(data, cols); err != nil {
		for _, col := range cols {
			if col.Len() != 0 {
				t.Fatalf("Decode failed with %v but appended values", err)
			}
		}
		return nil, err
	}
	row := make(types.Row, len(cols))
	for i, col := range cols {
		if col.Len() != 1 {
			t.Fatalf("column %d has %d values, want 1", i, col.Len())
		}
		row[i] = col.Get(0)
	}
	return row, nil
}

func mustDecode(t testing.TB, c Codec, fields types.Schema, data []byte) types.Row {
	t.Helper()
	row, err := decodeRow(t, c, fields, data)
	if err != nil {
		t.Fatalf("Decode(%q): %v", data, err)
	}
	return row
}

func mustEncode(t testing.TB, c Codec, row types.Row) []byte {
	t.Helper()
	b, err := c.Encode(nil, row)
	if err != nil {
		t.Fatalf("Encode(%v): %v", row, err)
	}
	return b
}

// sameRow compares rows value by value (NaN equals NaN).
func sameRow(a, b types.Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Null != y.Null {
			return false
		}
		if x.Null {
			continue
		}
		if x.I != y.I || x.S != y.S || x.F != y.F && (x.F == x.F || y.F == y.F) {
			return false
		}
	}
	return true
}

func field(name string, t types.Type) types.Field { return types.Field{Name: name, Type: t} }

// Types used across the tests.
var (
	tinyIntT   = types.Type{Kind: types.TinyInt}
	smallIntT  = types.Type{Kind: types.SmallInt}
	floatT     = types.Type{Kind: types.Float}
	bytesT     = types.Type{Kind: types.Varbinary, Length: types.MaxVarcharLength}
	dateT      = types.Type{Kind: types.Date}
	timeT      = types.Type{Kind: types.Time}
	charT      = types.Type{Kind: types.Char, Length: 3}
	intervalDT = types.Type{Kind: types.IntervalDayTime}
	intervalYM = types.Type{Kind: types.IntervalYearMonth}
)

// allTypesSchema has one nullable column of each scalar type the Avro
// formats support, plus a NOT NULL one.
var allTypesSchema = types.Schema{
	field("b", types.BooleanType),
	field("ti", tinyIntT),
	field("si", smallIntT),
	field("i", types.IntType),
	field("bi", types.BigIntType.WithNotNull(true)),
	field("f", floatT),
	field("d", types.DoubleType),
	field("dec", types.DecimalType(10, 2)),
	field("s", types.StringType),
	field("c", charT),
	field("by", bytesT),
	field("dt", dateT),
	field("tm", timeT),
	field("ts", types.TimestampType(3)),
}

// allTypesRow is a row of allTypesSchema.
var allTypesRow = types.Row{
	types.BoolValue(true),
	types.IntValue(-5),
	types.IntValue(300),
	types.IntValue(-70000),
	types.IntValue(1 << 40),
	types.FloatValue(1.5),
	types.FloatValue(404.89),
	types.IntValue(-12345), // -123.45
	types.StringValue("héllo \"w\"\n"),
	types.StringValue("abc"),
	types.StringValue("\x00\xff\x10"),
	types.IntValue(19547),                // 2023-07-09
	types.IntValue(3723 * 1_000_000_000), // 01:02:03
	types.IntValue(1688864400123 * 1000), // 2023-07-09 01:00:00.123
}
