package format

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sluicesql/sluice/internal/types"
)

// csvField builds a codec over (f0 STRING, f1 t, f2 STRING), the row
// Flink's CsvRowDataSerDeSchemaTest.testField wraps each value in.
func csvField(t *testing.T, typ types.Type, opts map[string]string) (Codec, types.Schema) {
	t.Helper()
	fields := types.Schema{field("f0", types.StringType), field("f1", typ), field("f2", types.StringType)}
	return newCodec(t, "csv", fields, opts), fields
}

// TestCSVFlinkFields replays CsvRowDataSerDeSchemaTest.testSerializeDeserialize
// (null literal "null"): each text is read and written back unchanged.
func TestCSVFlinkFields(t *testing.T) {
	tsT := types.TimestampType(0)
	for _, tc := range []struct {
		typ  types.Type
		text string
		want types.Value
	}{
		{types.BigIntType, "null", types.NullValue},
		{types.StringType, "null", types.NullValue},
		{types.StringType, `"This is a test."`, types.StringValue("This is a test.")},
		{types.StringType, "\"This is a test\n\r.\"", types.StringValue("This is a test\n\r.")},
		{types.BooleanType, "true", types.BoolValue(true)},
		{types.BooleanType, "null", types.NullValue},
		{tinyIntT, "124", types.IntValue(124)},
		{smallIntT, "10000", types.IntValue(10000)},
		{types.IntType, "1234567", types.IntValue(1234567)},
		{types.BigIntType, "12345678910", types.IntValue(12345678910)},
		{floatT, "0.33333334", types.FloatValue(float64(float32(0.33333334)))},
		{types.DoubleType, "0.33333333332", types.FloatValue(0.33333333332)},
		{types.DecimalType(18, 10), `12345678.0000000001`, types.IntValue(123456780000000001)},
		{dateT, "2018-10-12", types.IntValue(17816)},
		{types.Type{Kind: types.Time}, "12:12:12", types.IntValue(43932 * nanosPerSecond)},
		{tsT, `"2018-10-12 12:12:12"`, types.IntValue(1539346332_000_000)},
		{types.ArrayOf(types.StringType), "a;b;c", types.EncodeArray(types.StringType, []types.Value{
			types.StringValue("a"), types.StringValue("b"), types.StringValue("c")})},
		{types.ArrayOf(tinyIntT), "12;4;null", types.EncodeArray(tinyIntT, []types.Value{
			types.IntValue(12), types.IntValue(4), types.NullValue})},
		{bytesT, "awML", types.StringValue("k\x03\x0b")},
		{types.Type{Kind: types.Time, Precision: 3}, "12:12:12.232", types.IntValue(43932232 * nanosPerMilli)},
		{types.Type{Kind: types.Time, Precision: 2}, "12:12:12.23", types.IntValue(43932230 * nanosPerMilli)},
		{types.Type{Kind: types.Time, Precision: 1}, "12:12:12.2", types.IntValue(43932200 * nanosPerMilli)},
	} {
		c, fields := csvField(t, tc.typ, map[string]string{"null-literal": "null"})
		text := "BEGIN," + tc.text + ",END"
		row := mustDecode(t, c, fields, []byte(text))
		if !sameRow(row, types.Row{types.StringValue("BEGIN"), tc.want, types.StringValue("END")}) {
			t.Errorf("%s %q: read %v, want %v", tc.typ, text, row[1], tc.want)
		}
		if got := string(mustEncode(t, c, row)); got != text {
			t.Errorf("%s: wrote %q, want %q", tc.typ, got, text)
		}
	}
	rowT := types.RowOf(types.Schema{field("f0", types.StringType), field("f1", types.IntType), field("f2", types.BooleanType)})
	c, fields := csvField(t, rowT, map[string]string{"null-literal": "null"})
	row := mustDecode(t, c, fields, []byte("BEGIN,Hello;42;false,END"))
	want := types.EncodeRow(rowT, []types.Value{types.StringValue("Hello"), types.IntValue(42), types.BoolValue(false)})
	if row[1] != want {
		t.Errorf("nested row: read %v", row[1])
	}
	if got := string(mustEncode(t, c, row)); got != "BEGIN,Hello;42;false,END" {
		t.Errorf("nested row: wrote %q", got)
	}
}

// TestCSVFlinkCustomized replays testSerializeDeserializeCustomizedProperties:
// escape '*', quote '\”, array delimiter ':' and field delimiter ';'.
func TestCSVFlinkCustomized(t *testing.T) {
	opts := map[string]string{"escape-character": "*", "quote-character": "'", "array-element-delimiter": ":", "field-delimiter": ";"}
	for _, tc := range []struct {
		typ        types.Type
		text       string
		want       types.Value
		written    string // "" when Flink's test only reads
		fullString bool
	}{
		{types.StringType, "123*'4**", types.StringValue("123'4*"), "", false},
		{types.StringType, "'123''4**'", types.StringValue("123'4*"), "'123''4**'", false},
		{types.StringType, "'a;b*'c'", types.StringValue("a;b'c"), "", false},
		{types.StringType, "'a;b''c'", types.StringValue("a;b'c"), "'a;b''c'", false},
		{types.IntType, "       12          ", types.IntValue(12), "", false},
		{types.IntType, "12", types.IntValue(12), "12", false},
		{types.StringType, "null", types.StringValue("null"), "null", false}, // no null literal set
		{types.Type{Kind: types.Time, Precision: 3}, "12:12:12.232342", types.IntValue(43932232 * nanosPerMilli), "", false},
		{types.Type{Kind: types.Time, Precision: 2}, "12:12:12.232312", types.IntValue(43932230 * nanosPerMilli), "", false},
		{types.Type{Kind: types.Time, Precision: 1}, "12:12:12.2235", types.IntValue(43932200 * nanosPerMilli), "", false},
		{types.Type{Kind: types.Time, Precision: 1}, "12:12:12", types.IntValue(43932 * nanosPerSecond), "", false},
		{types.Type{Kind: types.Time}, "12:12:12.45", types.IntValue(43932 * nanosPerSecond), "", false},
	} {
		c, fields := csvField(t, tc.typ, opts)
		text := "BEGIN;" + tc.text + ";END"
		row := mustDecode(t, c, fields, []byte(text))
		if !sameRow(row[1:2], types.Row{tc.want}) {
			t.Errorf("%s %q: read %v, want %v", tc.typ, text, row[1], tc.want)
		}
		if tc.written != "" {
			if got, want := string(mustEncode(t, c, row)), "BEGIN;"+tc.written+";END"; got != want {
				t.Errorf("%s: wrote %q, want %q", tc.typ, got, want)
			}
		}
	}
	two := types.RowOf(types.Schema{field("f0", types.StringType), field("f1", types.StringType)})
	c, fields := csvField(t, two, opts)
	for _, tc := range []struct{ in, out, s1 string }{
		{"1:hello", "'1:hello'", "hello"},
		{"'1:hello world'", "'1:hello world'", "hello world"},
	} {
		row := mustDecode(t, c, fields, []byte("BEGIN;"+tc.in+";END"))
		if want := types.EncodeRow(two, []types.Value{types.StringValue("1"), types.StringValue(tc.s1)}); row[1] != want {
			t.Errorf("%q: read %v", tc.in, row[1])
		}
		if got := string(mustEncode(t, c, row)); got != "BEGIN;"+tc.out+";END" {
			t.Errorf("%q: wrote %q", tc.in, got)
		}
	}
	if _, err := New("csv", Config{Fields: types.Schema{field("t", types.Type{Kind: types.Time, Precision: 5})}}); err == nil ||
		!strings.Contains(err.Error(), "Csv does not support TIME type with precision: 5, it only supports precision 0 ~ 3.") {
		t.Errorf("TIME(5): %v", err)
	}
}

// TestCSVRows covers the record-level cases of CsvRowDataSerDeSchemaTest
// over (STRING, INT, STRING).
func TestCSVRows(t *testing.T) {
	fields := types.Schema{field("a", types.StringType), field("b", types.IntType), field("c", types.StringType)}
	strict := newCodec(t, "csv", fields, nil)
	lenient := newCodec(t, "csv", fields, map[string]string{"ignore-parse-errors": "true"})
	comments := newCodec(t, "csv", fields, map[string]string{"ignore-parse-errors": "true", "allow-comments": "true"})
	s, i, null := types.StringValue, types.IntValue, types.NullValue
	for _, tc := range []struct {
		name string
		c    Codec
		in   string
		want types.Row // nil: no row
		err  string
	}{
		{"parse error", strict, "Test,null,Test", nil, `field 'b' (INT): "null": not a number`},
		{"unsupported null", lenient, "Test,null,Test", types.Row{s("Test"), null, s("Test")}, ""},
		{"incomplete row", lenient, "Test", types.Row{s("Test"), null, null}, ""},
		{"incomplete row, strict", strict, "Test", nil, "invalid CSV row: 3 fields expected but was 1"},
		{"more columns", lenient, "Test,12,Test,Test", nil, ""},
		{"more columns, strict", strict, "Test,12,Test,Test", nil, `invalid CSV: too many entries: expected at most 3 (value #3 (4 chars) "Test")`},
		{"trailing delimiter", strict, "Test,12,Test, ", types.Row{s("Test"), i(12), s("Test")}, ""},
		{"comment is data", strict, "#Test,12,Test", types.Row{s("#Test"), i(12), s("Test")}, ""},
		{"comment", comments, "#Test,12,Test", nil, ""},
		{"comment, strict", newCodec(t, "csv", fields, map[string]string{"allow-comments": "true"}), "#Test,12,Test", nil,
			"invalid CSV: no content (an empty message, or only comment lines)"},
		{"comment then record", comments, "# x\r\n#y\na,1,b", types.Row{s("a"), i(1), s("b")}, ""},
		{"empty", strict, "", nil, "invalid CSV: no content (an empty message, or only comment lines)"},
		{"only the first record", strict, "a,1,b\nc,2,\"", types.Row{s("a"), i(1), s("b")}, ""},
		{"missing quote", strict, `a,1,"b`, nil, "invalid CSV: missing closing quote for value"},
		{"after quote", strict, `"a"x,1,b`, nil, `invalid CSV: unexpected character 'x' after the closing quote: expected the field delimiter or the end of line`},
		{"blanks after quote", strict, "\"a\" \t,1,\"b\"  ", types.Row{s("a"), i(1), s("b")}, ""},
		{"empty values", strict, ",1,", types.Row{s(""), i(1), s("")}, ""},
		{"empty number", strict, "a,,b", nil, `field 'b' (INT): "": not a number`},
		{"quote inside", strict, `a"b,1,c`, types.Row{s(`a"b`), i(1), s("c")}, ""},
		{"invalid UTF-8", strict, "a\xff,1,b", nil, "invalid CSV: invalid UTF-8"},
	} {
		row, err := decodeRow(t, tc.c, fields, []byte(tc.in))
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
		case tc.want == nil:
			if !errors.Is(err, ErrNoRow) {
				t.Errorf("%s: got %v, %v; want no row", tc.name, row, err)
			}
		case err != nil || !sameRow(row, tc.want):
			t.Errorf("%s: got %v, %v; want %v", tc.name, row, err, tc.want)
		}
	}
	if _, err := decodeRow(t, strict, fields, nil); !errors.Is(err, ErrNoRow) {
		t.Errorf("a Kafka null: %v", err)
	}
}

// TestCSVWriting replays testSerializationProperties and the factory tests
// of 'write-bigdecimal-in-scientific-notation' (CsvFormatFactoryTest, with
// its options: delimiter ';', quote '\”, escape '\\', null literal 'n/a').
func TestCSVWriting(t *testing.T) {
	fields := types.Schema{field("a", types.StringType), field("b", types.IntType), field("c", types.StringType)}
	row := func(a string, b int64, c string) types.Row {
		return types.Row{types.StringValue(a), types.IntValue(b), types.StringValue(c)}
	}
	for _, tc := range []struct {
		opts map[string]string
		row  types.Row
		want string
	}{
		{nil, row("Test", 12, "Hello"), "Test,12,Hello"},
		{map[string]string{"quote-character": "#"}, row("Test", 12, "2019-12-26 12:12:12"), "Test,12,#2019-12-26 12:12:12#"},
		{map[string]string{"disable-quote-character": "true"}, row("Test", 12, "2019-12-26 12:12:12"), "Test,12,2019-12-26 12:12:12"},
		{nil, row("a\"b", -1, "x,y"), `"a""b",-1,"x,y"`},
		{nil, row("abcdefghijklmnopqrstuvwxyz", 0, ""), `"abcdefghijklmnopqrstuvwxyz",0,`},
		{map[string]string{"escape-character": "\\"}, row(`a\b`, 0, `"`), `"a\\b",0,""""`},
		{map[string]string{"field-delimiter": "\\t"}, row("a b", 1, "c"), "\"a b\"\t1\tc"},
		{map[string]string{"field-delimiter": "\\u0001"}, row("a", 1, "c"), "a\x011\x01c"},
		{map[string]string{"null-literal": "n/a"}, types.Row{types.NullValue, types.NullValue, types.StringValue("")}, "n/a,n/a,"},
	} {
		c := newCodec(t, "csv", fields, tc.opts)
		if got := string(mustEncode(t, c, tc.row)); got != tc.want {
			t.Errorf("%v: wrote %q, want %q", tc.opts, got, tc.want)
		}
		if back := mustDecode(t, c, fields, []byte(tc.want)); !sameRow(back, tc.row) && tc.opts["null-literal"] == "" {
			t.Errorf("%v: read back %v, want %v", tc.opts, back, tc.row)
		}
	}
	decFields := types.Schema{field("a", types.StringType), field("b", types.DecimalType(10, 3)), field("c", types.BooleanType)}
	decRow := types.Row{types.StringValue("abc"), types.IntValue(100000000), types.BoolValue(false)}
	base := map[string]string{"field-delimiter": ";", "quote-character": "'", "allow-comments": "true", "ignore-parse-errors": "true",
		"array-element-delimiter": "|", "escape-character": "\\", "null-literal": "n/a"}
	for _, tc := range []struct{ scientific, want string }{{"true", "abc;'1E+5';false"}, {"false", "abc;'100000';false"}} {
		opts := map[string]string{"write-bigdecimal-in-scientific-notation": tc.scientific}
		for k, v := range base {
			opts[k] = v
		}
		c := newCodec(t, "csv", decFields, opts)
		if got := string(mustEncode(t, c, decRow)); got != tc.want {
			t.Errorf("scientific %s: wrote %q, want %q", tc.scientific, got, tc.want)
		}
		if back := mustDecode(t, c, decFields, []byte(tc.want)); !sameRow(back, decRow) {
			t.Errorf("scientific %s: read back %v", tc.scientific, back)
		}
	}
}

func TestCSVOptionsAndTypes(t *testing.T) {
	str := types.Schema{field("s", types.StringType)}
	for _, tc := range []struct {
		opts   map[string]string
		fields types.Schema
		want   string
	}{
		{map[string]string{"quote-character": "'", "disable-quote-character": "true"}, str,
			"Format cannot define a quote character and disabled quote character at the same time."},
		{map[string]string{"field-delimiter": "||"}, str, "Option 'csv.field-delimiter' must be a string with single character, but was: ||"},
		{map[string]string{"quote-character": ""}, str, "Option 'csv.quote-character' must be a string with single character, but was: "},
		{map[string]string{"escape-character": "😀"}, str, "Option 'csv.escape-character' must be a string with single character, but was: 😀"},
		{map[string]string{"array-element-delimiter": ";;"}, str, "Option 'csv.array-element-delimiter' must be a string with single character, but was: ;;"},
		{map[string]string{"allow-comments": "yes"}, str, "invalid value 'yes' for option 'csv.allow-comments': expected true or false"},
		{map[string]string{"line-delimiter": "\n"}, str, "unsupported option 'csv.line-delimiter' for format 'csv'; supported options: " +
			"csv.field-delimiter, csv.disable-quote-character, csv.quote-character, csv.allow-comments, csv.ignore-parse-errors, " +
			"csv.array-element-delimiter, csv.escape-character, csv.null-literal, csv.write-bigdecimal-in-scientific-notation"},
		{nil, types.Schema{field("m", types.MapOf(types.StringType, types.IntType))}, "Unsupported type 'MAP<STRING, INT>' for field 'm'."},
		{nil, types.Schema{field("i", intervalDT)}, "Unsupported type 'INTERVAL SECOND(3)' for field 'i'."},
		{nil, types.Schema{field("a", types.ArrayOf(types.ArrayOf(types.IntType)))},
			"Only simple types are supported in the second level nesting of fields 'a' but was: ARRAY<INT>"},
	} {
		_, err := New("csv", Config{Fields: tc.fields, Options: tc.opts})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%v %v: error %v, want %q", tc.opts, tc.fields, err, tc.want)
		}
	}
	if got, err := unescapeJava(`\t\101\u00e9\\\x`); err != nil || got != "\tAé\\x" {
		t.Errorf("unescapeJava = %q, %v", got, err)
	}
}

// TestCSVNested covers ARRAY and ROW columns: blank text, NULL elements,
// an element that does not convert, and a NULL ROW.
func TestCSVNested(t *testing.T) {
	rowT := types.RowOf(types.Schema{field("x", types.IntType), field("y", types.StringType)})
	fields := types.Schema{field("a", types.ArrayOf(types.IntType)), field("r", rowT)}
	c := newCodec(t, "csv", fields, map[string]string{"null-literal": "N"})
	arr := func(vs ...types.Value) types.Value { return types.EncodeArray(types.IntType, vs) }
	for _, tc := range []struct {
		in      string
		a, r    types.Value
		written string
	}{
		{" ,1;x", arr(), types.EncodeRow(rowT, []types.Value{types.IntValue(1), types.StringValue("x")}), ",1;x"},
		{"1;N;3,", arr(types.IntValue(1), types.NullValue, types.IntValue(3)), types.NullValue, "1;N;3,N"},
		{"N,N;N", arr(types.NullValue), types.EncodeRow(rowT, []types.Value{types.NullValue, types.NullValue}), "N,N;N"},
	} {
		row := mustDecode(t, c, fields, []byte(tc.in))
		if row[0] != tc.a || row[1] != tc.r {
			t.Errorf("%q: read %v", tc.in, row)
		}
		if got := string(mustEncode(t, c, row)); got != tc.written {
			t.Errorf("%q: wrote %q, want %q", tc.in, got, tc.written)
		}
	}
	for in, want := range map[string]string{
		"1;x,1":   `field 'a' (ARRAY<INT>): element 2: "x": not a number`,
		"1,1;x;z": "field 'r' (ROW<`x` INT, `y` STRING>): row length mismatch: 2 fields expected but was 3",
	} {
		if _, err := decodeRow(t, c, fields, []byte(in)); err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
	lax := newCodec(t, "csv", fields, map[string]string{"ignore-parse-errors": "true"})
	row := mustDecode(t, lax, fields, []byte("1;x,7"))
	if row[0] != arr(types.IntValue(1), types.NullValue) ||
		row[1] != types.EncodeRow(rowT, []types.Value{types.IntValue(7), types.NullValue}) {
		t.Errorf("lenient nested: %v", row)
	}
}

// csvText makes random text from characters the format treats specially;
// inElement leaves out the element delimiter.
func csvText(r *rand.Rand, inElement bool) string {
	const alphabet = "ab,\"'\\\n\r #;|é😀\t"
	n := r.IntN(8)
	if r.IntN(10) == 0 {
		n = 30 // past the 24 characters checked for quoting
	}
	var b strings.Builder
	for range n {
		c := []rune(alphabet)[r.IntN(utf8.RuneCountInString(alphabet))]
		if inElement && c == ';' {
			c = 'x'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// csvValue makes a random value of t that CSV carries without loss with
// the null literal \N: NULL only where it is a simple type's value, no
// array element holding the element delimiter, no array of one blank
// element (it reads as an empty array).
func csvValue(r *rand.Rand, t types.Type, inElement bool) types.Value {
	if !t.IsComposite() && r.IntN(6) == 0 {
		return types.NullValue
	}
	switch t.Kind {
	case types.Boolean:
		return types.BoolValue(r.IntN(2) == 0)
	case types.TinyInt:
		return types.IntValue(int64(int8(r.Uint32())))
	case types.Int:
		return types.IntValue(int64(r.Int32()))
	case types.BigInt:
		return types.IntValue(r.Int64() - r.Int64())
	case types.Float:
		return types.FloatValue(float64(float32(r.NormFloat64() * 1e3)))
	case types.Double:
		return types.FloatValue(r.NormFloat64() * 1e9)
	case types.Decimal:
		if t.IsWideDecimal() {
			u, _ := types.Int128Of(r.Int64()).Rescale(0, 10)
			u, _ = u.Add(types.Int128Of(r.Int64N(1e10)))
			return types.DecimalOf(t, u)
		}
		return types.IntValue(r.Int64N(2e9) - 1e9)
	case types.Varchar:
		return types.StringValue(csvText(r, inElement))
	case types.Varbinary:
		return types.StringValue(csvText(r, false))
	case types.Date:
		return types.IntValue(r.Int64N(2_000_000) - 700_000)
	case types.Time:
		return types.IntValue(r.Int64N(secondsPerDay*1000) * nanosPerMilli)
	case types.Timestamp, types.TimestampLTZ:
		lo, hi := types.TimestampBounds()
		v, _ := types.TimestampFromParts(t.Precision, lo+r.Int64N(hi/2-lo/2)*2, r.Int64N(1000))
		return v
	case types.Array:
		vs := make([]types.Value, r.IntN(4))
		for i := range vs {
			vs[i] = csvValue(r, t.Elem(), true)
		}
		if len(vs) == 1 && !vs[0].Null && javaTrim(string(mustEncodeText(t.Elem(), vs[0]))) == "" {
			vs = vs[:0]
		}
		return types.EncodeArray(t.Elem(), vs)
	}
	fs := t.Fields()
	vs := make([]types.Value, len(fs))
	for i, f := range fs {
		vs[i] = csvValue(r, f.Type, true)
	}
	vs[0] = types.IntValue(int64(r.Int32())) // not all blank: a blank ROW reads as NULL
	return types.EncodeRow(t, vs)
}

// mustEncodeText is a simple value's text as an element.
func mustEncodeText(t types.Type, v types.Value) []byte {
	return (&csvCodec{}).appendText(nil, t, v)
}

// TestCSVProperty writes random rows through 'csv' with several option
// sets and reads them back: every value equals itself.
func TestCSVProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	simple := []types.Type{types.BooleanType, tinyIntT, types.IntType, types.BigIntType, floatT, types.DoubleType,
		types.DecimalType(12, 3), types.DecimalType(38, 12), types.StringType, bytesT, dateT, types.Type{Kind: types.Time, Precision: 3},
		types.TimestampType(9), {Kind: types.TimestampLTZ, Precision: 6}}
	fields := types.Schema{}
	for i, st := range simple {
		fields = append(fields, field(fmt.Sprintf("c%d", i), st))
	}
	fields = append(fields, field("arr", types.ArrayOf(types.StringType)), field("nums", types.ArrayOf(types.DoubleType)),
		field("r", types.RowOf(types.Schema{field("x", types.IntType), field("y", types.StringType), field("z", dateT)})))
	for _, opts := range []map[string]string{
		{"null-literal": `\N`},
		{"null-literal": "NUL", "escape-character": "\\"}, // (\N would read as N)
		{"null-literal": `\N`, "field-delimiter": "\\t", "quote-character": "'", "write-bigdecimal-in-scientific-notation": "false"},
		{"null-literal": "NUL", "field-delimiter": "§", "escape-character": "|"},
	} {
		c := newCodec(t, "csv", fields, opts)
		for range 300 {
			row := make(types.Row, len(fields))
			for i, f := range fields {
				row[i] = csvValue(r, f.Type, false)
			}
			data := mustEncode(t, c, row)
			got := mustDecode(t, c, fields, data)
			for i, f := range fields {
				if !sameRow(got[i:i+1], row[i:i+1]) {
					t.Fatalf("%v, %s: wrote %s as %q, read %s", opts, f.Type,
						types.PrintValue(f.Type, row[i], nil), data, types.PrintValue(f.Type, got[i], nil))
				}
			}
		}
	}
}
