package format

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

func TestJSONEncodeAllTypes(t *testing.T) {
	c := newCodec(t, "json", allTypesSchema, nil)
	got := string(mustEncode(t, c, allTypesRow))
	want := `{"b":true,"ti":-5,"si":300,"i":-70000,"bi":1099511627776,"f":1.5,"d":404.89,"dec":-123.45,` +
		`"s":"héllo \"w\"\n","c":"abc","by":"AP8Q","dt":"2023-07-09","tm":"01:02:03","ts":"2023-07-09 01:00:00.123"}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	c = newCodec(t, "json", allTypesSchema, map[string]string{"encode.ignore-null-fields": "true"})
	row := append(types.Row{}, allTypesRow...)
	for i := range row {
		if i != 4 {
			row[i] = types.NullValue
		}
	}
	if got := string(mustEncode(t, c, row)); got != `{"bi":1099511627776}` {
		t.Errorf("ignore-null-fields: got %s", got)
	}
}

// TestJSONEncodeValues checks the text of single values against what
// Jackson writes for the nodes RowDataToJsonConverters builds.
func TestJSONEncodeValues(t *testing.T) {
	ts := func(p int, s string) types.Value {
		v, err := parseTimestamp(s, p, false, false)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		t    types.Type
		v    types.Value
		opts map[string]string
		want string
	}{
		{types.DoubleType, types.FloatValue(1e10), nil, "1.0E10"},
		{types.DoubleType, types.FloatValue(1e7), nil, "1.0E7"},
		{types.DoubleType, types.FloatValue(9999999), nil, "9999999.0"},
		{types.DoubleType, types.FloatValue(0.001), nil, "0.001"},
		{types.DoubleType, types.FloatValue(0.0001), nil, "1.0E-4"},
		{types.DoubleType, types.FloatValue(123456789.125), nil, "1.23456789125E8"},
		{types.DoubleType, types.FloatValue(math.Copysign(0, -1)), nil, "-0.0"},
		{types.DoubleType, types.FloatValue(1), nil, "1.0"},
		{types.DoubleType, types.FloatValue(math.NaN()), nil, `"NaN"`},
		{types.DoubleType, types.FloatValue(math.Inf(-1)), nil, `"-Infinity"`},
		{types.DoubleType, types.FloatValue(math.MaxFloat64), nil, "1.7976931348623157E308"},
		{types.DoubleType, types.FloatValue(5e-324), nil, "4.9E-324"},
		{floatT, types.FloatValue(float64(float32(0.1))), nil, "0.1"},
		{floatT, types.FloatValue(float64(float32(3.4028235e38))), nil, "3.4028235E38"},
		{types.DecimalType(10, 2), types.IntValue(10000), nil, "1E+2"},
		{types.DecimalType(10, 2), types.IntValue(150), nil, "1.5"},
		{types.DecimalType(10, 2), types.IntValue(0), nil, "0"},
		{types.DecimalType(10, 2), types.IntValue(-1), nil, "-0.01"},
		{types.DecimalType(10, 0), types.IntValue(1200), nil, "1.2E+3"},
		{types.DecimalType(18, 10), types.IntValue(1), nil, "1E-10"},
		{types.DecimalType(18, 10), types.IntValue(1000), nil, "1E-7"},
		{types.DecimalType(18, 10), types.IntValue(10000), nil, "0.000001"},
		{types.DecimalType(10, 2), types.IntValue(10000), map[string]string{"encode.decimal-as-plain-number": "true"}, "100"},
		{types.DecimalType(18, 10), types.IntValue(1), map[string]string{"encode.decimal-as-plain-number": "true"}, "0.0000000001"},
		{types.StringType, types.StringValue("\x00\x1f\t\b\f\r/<>\u2028é\x7f"), nil, `"\u0000\u001F\t\b\f\r/<>` + "\u2028é\x7f" + `"`},
		{types.StringType, types.StringValue("a\xffb"), nil, "\"a\uFFFDb\""},
		{bytesT, types.StringValue(""), nil, `""`},
		{dateT, types.IntValue(-719528), nil, `"0000-01-01"`},
		{dateT, types.IntValue(2932897), nil, `"+10000-01-01"`},
		{timeT, types.IntValue(86399_999_999_999), nil, `"23:59:59"`},
		{types.TimestampType(9), ts(9, "1969-12-31 23:59:59.000000001"), nil, `"1969-12-31 23:59:59.000000001"`},
		{types.TimestampType(3), ts(3, "2023-07-09 01:00:00.5"), map[string]string{"timestamp-format.standard": "ISO-8601"}, `"2023-07-09T01:00:00.5"`},
		{types.TimestampType(0), ts(0, "2023-07-09 01:00:00"), nil, `"2023-07-09 01:00:00"`},
		{types.TimestampLTZType(3), ts(3, "2023-07-09 01:00:00.12"), nil, `"2023-07-09 01:00:00.12Z"`},
		{types.TimestampLTZType(3), ts(3, "2023-07-09 01:00:00"), map[string]string{"timestamp-format.standard": "ISO-8601"}, `"2023-07-09T01:00:00Z"`},
		{intervalDT, types.IntValue(-86400000), nil, "-86400000"},
		{intervalYM, types.IntValue(14), nil, "14"},
		{types.NullType, types.NullValue, nil, "null"},
	} {
		c := newCodec(t, "json", types.Schema{field("v", tc.t)}, tc.opts)
		got := string(mustEncode(t, c, types.Row{tc.v}))
		if want := `{"v":` + tc.want + `}`; got != want {
			t.Errorf("%s %v: got %s, want %s", tc.t, tc.v, got, want)
		}
	}
}

func TestJSONFieldNameEscaping(t *testing.T) {
	fields := types.Schema{field(`a"b`, types.IntType)}
	c := newCodec(t, "json", fields, nil)
	data := mustEncode(t, c, types.Row{types.IntValue(1)})
	if string(data) != `{"a\"b":1}` {
		t.Errorf("got %s", data)
	}
	if got := mustDecode(t, c, fields, data); got[0].I != 1 {
		t.Errorf("decoded %v", got)
	}
}

// TestJSONDecodeValues checks JsonToRowDataConverters' conversions.
func TestJSONDecodeValues(t *testing.T) {
	ts := func(p int, s string) types.Value {
		v, err := parseTimestamp(s, p, false, false)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	dec := types.DecimalType(10, 2)
	for _, tc := range []struct {
		t    types.Type
		json string // the value of member "v"
		want types.Value
		err  string // non-empty: the expected error
	}{
		{types.BooleanType, `true`, types.BoolValue(true), ""},
		{types.BooleanType, `" TRUE "`, types.BoolValue(true), ""},
		{types.BooleanType, `"yes"`, types.BoolValue(false), ""},
		{types.BooleanType, `1`, types.BoolValue(false), ""},
		{types.BooleanType, `{"a":1}`, types.BoolValue(false), ""},
		{types.IntType, `12`, types.IntValue(12), ""},
		{types.IntType, `" +12 "`, types.IntValue(12), ""},
		{types.IntType, `1.9`, types.IntValue(1), ""},
		{types.IntType, `-1.9e0`, types.IntValue(-1), ""},
		{types.IntType, `2147483647.5`, types.Value{}, "field 'v' (INT): 2147483647.5: out of range"},
		{types.IntType, `3000000000`, types.Value{}, "field 'v' (INT): 3000000000: out of range"},
		{types.IntType, `"1.5"`, types.Value{}, `field 'v' (INT): "1.5": not a number`},
		{types.IntType, `true`, types.Value{}, `field 'v' (INT): "true": not a number`},
		{types.IntType, `[1]`, types.Value{}, `field 'v' (INT): "": not a number`},
		{types.BigIntType, `9.3e18`, types.Value{}, "field 'v' (BIGINT): 9.3e18: out of range"},
		{types.BigIntType, `9.2233720368547758e18`, types.IntValue(math.MaxInt64), ""},
		{types.BigIntType, `"-9223372036854775808"`, types.IntValue(math.MinInt64), ""},
		{tinyIntT, `-128`, types.IntValue(-128), ""},
		{tinyIntT, `128`, types.Value{}, `field 'v' (TINYINT): "128": not a number`},
		{tinyIntT, `1.0`, types.Value{}, `field 'v' (TINYINT): "1.0": not a number`},
		{smallIntT, `"007"`, types.IntValue(7), ""},
		{types.DoubleType, `1`, types.FloatValue(1), ""},
		{types.DoubleType, `1e400`, types.FloatValue(math.Inf(1)), ""},
		{types.DoubleType, `"NaN"`, types.FloatValue(math.NaN()), ""},
		{types.DoubleType, `"-Infinity"`, types.FloatValue(math.Inf(-1)), ""},
		{types.DoubleType, `" 1.5d "`, types.FloatValue(1.5), ""},
		{types.DoubleType, `"0x1p3"`, types.FloatValue(8), ""},
		{types.DoubleType, `".5"`, types.FloatValue(0.5), ""},
		{types.DoubleType, `"inf"`, types.Value{}, `field 'v' (DOUBLE): "inf": not a number`},
		{types.DoubleType, `"1_0"`, types.Value{}, `field 'v' (DOUBLE): "1_0": not a number`},
		{floatT, `0.1`, types.FloatValue(float64(float32(0.1))), ""},
		{floatT, `16777217`, types.FloatValue(16777216), ""},
		{dec, `1.235`, types.IntValue(124), ""},
		{dec, `-1.235`, types.IntValue(-124), ""},
		{dec, `1.234`, types.IntValue(123), ""},
		{dec, `"12E-1"`, types.IntValue(120), ""},
		{dec, `0.004`, types.IntValue(0), ""},
		{dec, `123456789`, types.NullValue, ""},
		{dec, `123456789012345678901234e-22`, types.IntValue(1235), ""},
		{dec, `-0.00000000000000000000000000000000000000001e40`, types.IntValue(-10), ""},
		{dec, `"99999999.995"`, types.NullValue, ""},
		{dec, `1e99999999999`, types.Value{}, `field 'v' (DECIMAL(10, 2)): "1e99999999999": not a number`},
		{dec, `" 1"`, types.Value{}, `field 'v' (DECIMAL(10, 2)): " 1": not a number`},
		{types.StringType, `"a\u00e9\ud83d\ude00\n\/"`, types.StringValue("aé😀\n/"), ""},
		{types.StringType, `-0`, types.StringValue("0"), ""},
		{types.StringType, `12`, types.StringValue("12"), ""},
		{types.StringType, `1.50`, types.StringValue("1.5"), ""},
		{types.StringType, `1e2`, types.StringValue("100.0"), ""},
		{types.StringType, `false`, types.StringValue("false"), ""},
		{types.StringType, "{ \"a\" : [ 1 , 2.50, \"x\\/\\u0041\" ], \"b\":{} }", types.StringValue(`{"a":[1,2.5,"x/A"],"b":{}}`), ""},
		{bytesT, `"AP8Q"`, types.StringValue("\x00\xff\x10"), ""},
		{bytesT, `12`, types.NullValue, ""},
		{bytesT, `"!!"`, types.Value{}, "field 'v' (BYTES): unable to deserialize byte array: illegal base64 data at input byte 0"},
		{dateT, `"2023-07-09"`, types.IntValue(19547), ""},
		{dateT, `"2023-02-29"`, types.Value{}, `field 'v' (DATE): cannot parse "2023-02-29" as DATE`},
		{dateT, `20230709`, types.Value{}, `field 'v' (DATE): cannot parse "20230709" as DATE`},
		{timeT, `"01:02:03.999"`, types.IntValue(3723_000_000_000), ""},
		{timeT, `"01:02"`, types.Value{}, `field 'v' (TIME(0)): cannot parse "01:02" as TIME(0)`},
		{types.TimestampType(3), `"2023-07-09 01:00:00.5"`, ts(3, "2023-07-09 01:00:00.5"), ""},
		{types.TimestampType(3), `"2023-02-30 01:00:00"`, ts(3, "2023-02-28 01:00:00"), ""},
		{types.TimestampType(3), `"2023-07-09 24:00:00"`, ts(3, "2023-07-10 00:00:00"), ""},
		{types.TimestampType(3), `"2023-07-09T01:00:00"`, types.Value{}, `field 'v' (TIMESTAMP(3)): cannot parse "2023-07-09T01:00:00" as TIMESTAMP(3)`},
		{types.TimestampType(3), `"2023-07-09 01:00:00Z"`, types.Value{}, `field 'v' (TIMESTAMP(3)): cannot parse "2023-07-09 01:00:00Z" as TIMESTAMP(3)`},
		{types.TimestampLTZType(3), `"2023-07-09 01:00:00.123Z"`, ts(3, "2023-07-09 01:00:00.123"), ""},
		{types.TimestampLTZType(3), `"2023-07-09 01:00:00"`, types.Value{}, `field 'v' (TIMESTAMP_LTZ(3)): cannot parse "2023-07-09 01:00:00" as TIMESTAMP_LTZ(3)`},
		{intervalDT, `"-5"`, types.IntValue(-5), ""},
		{types.IntType, `null`, types.NullValue, ""},
		{types.NullType, `5`, types.NullValue, ""},
	} {
		fields := types.Schema{field("v", tc.t)}
		c := newCodec(t, "json", fields, nil)
		got, err := decodeRow(t, c, fields, []byte(`{"v":`+tc.json+`}`))
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s %s: error %v, want %s", tc.t, tc.json, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s %s: %v", tc.t, tc.json, err)
		case !sameRow(got, types.Row{tc.want}):
			t.Errorf("%s %s: got %+v, want %+v", tc.t, tc.json, got[0], tc.want)
		}
	}
}

func TestJSONDecodeISO(t *testing.T) {
	fields := types.Schema{field("a", types.TimestampType(3)), field("b", types.TimestampLTZType(3))}
	c := newCodec(t, "json", fields, map[string]string{"timestamp-format.standard": "ISO-8601"})
	got := mustDecode(t, c, fields, []byte(`{"a":"2023-07-09T01:00","b":"2023-07-09T01:00:00.1Z"}`))
	a, _ := parseTimestamp("2023-07-09 01:00:00", 3, false, false)
	b, _ := parseTimestamp("2023-07-09 01:00:00.1", 3, false, false)
	if got[0] != a || got[1] != b {
		t.Errorf("got %v", got)
	}
	if _, err := decodeRow(t, c, fields, []byte(`{"a":"2023-07-09 01:00:00"}`)); err == nil {
		t.Error("SQL text accepted in ISO-8601 mode")
	}
}

// TestJSONStringsWithDecimals covers Flink reading JSON fractions as
// BigDecimal (normalised) when the row has a DECIMAL column.
func TestJSONStringsWithDecimals(t *testing.T) {
	fields := types.Schema{field("s", types.StringType), field("d", types.DecimalType(5, 1))}
	c := newCodec(t, "json", fields, nil)
	for in, want := range map[string]string{`1.50`: "1.5", `1e2`: "1E+2", `0.0`: "0", `[1.10]`: "[1.1]"} {
		got := mustDecode(t, c, fields, []byte(`{"s":`+in+`}`))
		if got[0].S != want {
			t.Errorf("%s: got %q, want %q", in, got[0].S, want)
		}
	}
}

func TestJSONDecodeMessages(t *testing.T) {
	fields := types.Schema{field("i", types.IntType), field("s", types.StringType)}
	c := newCodec(t, "json", fields, nil)
	for _, tc := range []struct {
		in   string
		want types.Row
	}{
		{`{"i":1,"s":"x"}`, types.Row{types.IntValue(1), types.StringValue("x")}},
		{` {"s":"x"} `, types.Row{types.NullValue, types.StringValue("x")}},
		{`{}`, types.Row{types.NullValue, types.NullValue}},
		{`{"i":1,"i":2}`, types.Row{types.IntValue(2), types.NullValue}},
		{`{"i":1} trailing garbage`, types.Row{types.IntValue(1), types.NullValue}},
		{`{"\u0069":3}`, types.Row{types.IntValue(3), types.NullValue}},
		{`{"I":3,"x":{"y":[1,{"z":null}],"w":"}"}}`, types.Row{types.NullValue, types.NullValue}},
		{"{\"x\":" + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + ",\"i\":4}", types.Row{types.IntValue(4), types.NullValue}},
	} {
		got := mustDecode(t, c, fields, []byte(tc.in))
		if !sameRow(got, tc.want) {
			t.Errorf("%.40s: got %v, want %v", tc.in, got, tc.want)
		}
	}
	for _, in := range []string{"", "  ", "null", " null "} {
		if _, err := decodeRow(t, c, fields, []byte(in)); !errors.Is(err, ErrNoRow) {
			t.Errorf("%q: error %v, want ErrNoRow", in, err)
		}
	}
}

func TestJSONMalformed(t *testing.T) {
	fields := types.Schema{field("i", types.IntType), field("s", types.StringType)}
	c := newCodec(t, "json", fields, nil)
	for in, want := range map[string]string{
		`{"i":1`:                "invalid JSON: unexpected end of input at offset 6",
		`{"i":01}`:              "invalid JSON: invalid number: leading zeroes at offset 7",
		`{"i":1.}`:              "invalid JSON: invalid number: no digit after the decimal point at offset 7",
		`{"i":+1}`:              "invalid JSON: unexpected character '+' at offset 5",
		`{"i":NaN}`:             "invalid JSON: unexpected character 'N' at offset 5",
		`{"i":tru}`:             "invalid JSON: unrecognized token at offset 5",
		`{"i":truex}`:           "invalid JSON: unrecognized token at offset 5",
		`{"s":"a` + "\n" + `"}`: "invalid JSON: unescaped control character in string at offset 7",
		`{"s":"\q"}`:            "invalid JSON: invalid escape at offset 6",
		`{"s":"\u12G4"}`:        `invalid JSON: invalid \u escape at offset 6`,
		// A surrogate escaped without its other half: Flink's Jackson keeps
		// it and its UTF-8 encoding writes '?'; Sluice refuses the record.
		`{"s":"a\ud83d"}`:      `invalid JSON: \ud83d escapes a lone UTF-16 surrogate, which encodes no character at offset 7`,
		`{"s":"\ud83dx"}`:      `invalid JSON: \ud83d escapes a lone UTF-16 surrogate, which encodes no character at offset 6`,
		`{"s":"\ud83d\u0041"}`: `invalid JSON: \ud83d escapes a lone UTF-16 surrogate, which encodes no character at offset 6`,
		`{"s":"\ude00\ud83d"}`: `invalid JSON: \ude00 escapes a lone UTF-16 surrogate, which encodes no character at offset 6`,
		`{"x":["\uDE00"]}`:     `invalid JSON: \uDE00 escapes a lone UTF-16 surrogate, which encodes no character at offset 7`,
		"{\"s\":\"\xff\"}":     "invalid JSON: invalid UTF-8 at offset 6",
		`{"i":1,}`:             "invalid JSON: unexpected character '}' at offset 7",
		`{"i" 1}`:              "invalid JSON: unexpected character '1' at offset 5",
		`{'i':1}`:              "invalid JSON: unexpected character ''' at offset 1",
		`{"x":[1,]}`:           "invalid JSON: unexpected character ']' at offset 8",
		`{"x":{"a"}}`:          "invalid JSON: unexpected character '}' at offset 9",
		`{"x":[1 2]}`:          "invalid JSON: unexpected character '2' at offset 8",
		"\x00":                 "invalid JSON: unexpected byte 0x00 at offset 0",
		`[1,2]`:                "invalid JSON row: a top-level JSON array is read as one row per element only in a table's value",
		`"text"`:               "invalid JSON row: expected an object, got string",
		`{"i":"x"}`:            `field 'i' (INT): "x": not a number`,
	} {
		_, err := decodeRow(t, c, fields, []byte(in))
		if err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %s", in, err, want)
		}
	}
}

func TestJSONOptionsDecode(t *testing.T) {
	fields := types.Schema{field("i", types.IntType), field("s", types.StringType)}
	strict := newCodec(t, "json", fields, map[string]string{"fail-on-missing-field": "true"})
	if _, err := decodeRow(t, strict, fields, []byte(`{"i":1}`)); err == nil || err.Error() != "could not find field with name 's'" {
		t.Errorf("fail-on-missing-field: %v", err)
	}
	if _, err := decodeRow(t, strict, fields, []byte(`{"i":1,"s":null}`)); err != nil {
		t.Errorf("fail-on-missing-field with null: %v", err)
	}
	lax := newCodec(t, "json", fields, map[string]string{"ignore-parse-errors": "true"})
	got := mustDecode(t, lax, fields, []byte(`{"i":"x","s":"ok"}`))
	if !sameRow(got, types.Row{types.NullValue, types.StringValue("ok")}) {
		t.Errorf("ignore-parse-errors: got %v", got)
	}
	for _, in := range []string{`{"i":`, `[1]`, "\xff"} {
		if _, err := decodeRow(t, lax, fields, []byte(in)); !errors.Is(err, ErrNoRow) {
			t.Errorf("ignore-parse-errors %q: %v, want ErrNoRow", in, err)
		}
	}
}

// TestJSONLongNumbers: a number of 900,000 digits, which Go's
// strconv.ParseFloat reads as 0, is read as Jackson's double: DOUBLE,
// BIGINT (through the double) and STRING (the double's text) alike.
func TestJSONLongNumbers(t *testing.T) {
	fields := types.Schema{field("d", types.DoubleType), field("i", types.BigIntType), field("s", types.StringType)}
	c := newCodec(t, "json", fields, nil)
	n := strings.Repeat("1", 900000) + ".5e-899990"
	got := mustDecode(t, c, fields, []byte(`{"d":`+n+`,"i":`+n+`,"s":`+n+`}`))
	if got[0].F != 1111111111.1111112 || got[1].I != 1111111111 || got[2].S != "1.1111111111111112E9" {
		t.Errorf("got %v, %v, %q", got[0].F, got[1].I, got[2].S)
	}
}

// decodeRows decodes one message with DecodeRows and returns its rows.
func decodeRows(t *testing.T, c Codec, fields types.Schema, data string) ([]types.Row, error) {
	t.Helper()
	cols := vectors(fields)
	n, err := c.(RowsDecoder).DecodeRows([]byte(data), cols)
	if err != nil {
		return nil, err
	}
	rows := make([]types.Row, n)
	for r := range rows {
		rows[r] = make(types.Row, len(cols))
		for i, col := range cols {
			if col.Len() != n {
				t.Fatalf("%s: column %d has %d values, want %d", data, i, col.Len(), n)
			}
			rows[r][i] = col.Get(r)
		}
	}
	return rows, nil
}

// TestJSONTopLevelArray follows Flink's json format since 2.1
// (FLINK-18590): a top-level array gives one row per element, the options
// apply per element, and an empty array gives no row.
func TestJSONTopLevelArray(t *testing.T) {
	fields := types.Schema{field("i", types.IntType), field("s", types.StringType)}
	row := func(i int64, s string) types.Row { return types.Row{types.IntValue(i), types.StringValue(s)} }
	plain := newCodec(t, "json", fields, nil)
	strict := newCodec(t, "json", fields, map[string]string{"fail-on-missing-field": "true"})
	lax := newCodec(t, "json", fields, map[string]string{"ignore-parse-errors": "true"})
	for _, tc := range []struct {
		c    Codec
		in   string
		want []types.Row
		err  string
	}{
		{c: plain, in: `{"i":1,"s":"a"}`, want: []types.Row{row(1, "a")}},
		{c: plain, in: ` [{"i":1,"s":"a"}, {"s":"b","i":2}] `, want: []types.Row{row(1, "a"), row(2, "b")}},
		{c: plain, in: `[{"i":1},null,{"s":"c"}]`, want: []types.Row{{types.IntValue(1), types.NullValue}, {types.NullValue, types.StringValue("c")}}},
		{c: plain, in: `[]`, err: ErrNoRow.Error()},
		{c: plain, in: `[null]`, err: ErrNoRow.Error()},
		{c: plain, in: `[{"i":1},2]`, err: "element 1 of the top-level array: invalid JSON row: expected an object, got number"},
		{c: plain, in: `[{"i":1},"x"]`, err: "element 1 of the top-level array: invalid JSON row: expected an object, got string"},
		{c: plain, in: `[[{"i":1}]]`, err: "element 0 of the top-level array: invalid JSON row: expected an object, got array"},
		{c: plain, in: `[{"i":"x"}]`, err: `element 0 of the top-level array: field 'i' (INT): "x": not a number`},
		{c: plain, in: `[{"i":1},{"i":`, err: "invalid JSON: unexpected end of input at offset 14"},
		{c: strict, in: `[{"i":1,"s":"a"},{"i":2}]`, err: "element 1 of the top-level array: could not find field with name 's'"},
		{c: lax, in: `[{"i":"x","s":"a"},7,"y",[],{"i":2,"s":"b"}]`, want: []types.Row{{types.NullValue, types.StringValue("a")}, row(2, "b")}},
		{c: lax, in: `[7]`, err: ErrNoRow.Error()},
		// A syntax error anywhere: no row at all, as Flink reads the whole
		// message before converting any element.
		{c: lax, in: `[{"i":1,"s":"a"},{"i":}]`, err: ErrNoRow.Error()},
	} {
		got, err := decodeRows(t, tc.c, fields, tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %s", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d rows %v, want %v", tc.in, len(got), got, tc.want)
			continue
		}
		for i := range got {
			if !sameRow(got[i], tc.want[i]) {
				t.Errorf("%s: row %d is %v, want %v", tc.in, i, got[i], tc.want[i])
			}
		}
	}
}
