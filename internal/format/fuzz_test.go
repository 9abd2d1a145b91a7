package format

import (
	"testing"

	"github.com/twmb/franz-go/pkg/sr"
	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/sluicesql/sluice/internal/types"
)

// checkDecode decodes data and checks the all-or-nothing contract: on
// success every column grew by one value, on error none did.
func checkDecode(t *testing.T, c Decoder, fields types.Schema, data []byte) error {
	cols := vectors(fields)
	err := c.Decode(data, cols)
	want := 1
	if err != nil {
		want = 0
	}
	for i, col := range cols {
		if col.Len() != want {
			t.Fatalf("column %d has %d values after Decode error %v", i, col.Len(), err)
		}
	}
	// Decoding only every other column (the others projected away) checks
	// less, never more, and gives the same values.
	projected := vectors(fields)
	for i := 1; i < len(projected); i += 2 {
		projected[i] = nil
	}
	perr := c.Decode(data, projected)
	if perr != nil && err == nil {
		t.Fatalf("the projected decoding fails (%v) where the whole one does not", perr)
	}
	for i, col := range projected {
		if col == nil {
			continue
		}
		if perr != nil && col.Len() != 0 {
			t.Fatalf("column %d has %d values after Decode error %v", i, col.Len(), perr)
		}
		if err == nil && !sameRow(types.Row{col.Get(0)}, types.Row{cols[i].Get(0)}) {
			t.Fatalf("column %d: projected %v, whole %v", i, col.Get(0), cols[i].Get(0))
		}
	}
	return err
}

// FuzzRawDecode feeds arbitrary bytes to the raw format's decoders and
// checks the all-or-nothing contract of checkDecode.
func FuzzRawDecode(f *testing.F) {
	for _, s := range [][]byte{nil, {}, {1}, {0, 0, 0, 1}, []byte("héllo"), {0xff, 0xfe, 0, 'a'}} {
		f.Add(s, uint8(0), false)
	}
	kinds := []types.Type{types.StringType, bytesT, types.BooleanType, tinyIntT, smallIntT,
		types.IntType, types.BigIntType, floatT, types.DoubleType}
	f.Fuzz(func(t *testing.T, data []byte, kind uint8, little bool) {
		fields := types.Schema{field("v", kinds[int(kind)%len(kinds)])}
		opts := map[string]string{"charset": "UTF-16"}
		if little {
			opts = map[string]string{"endianness": "little-endian", "charset": "ISO-8859-1"}
		}
		c := newCodec(t, "raw", fields, opts)
		if err := checkDecode(t, c, fields, data); err == nil {
			// Whatever decodes must encode again.
			row := make(types.Row, 1)
			cols := vectors(fields)
			_ = c.Decode(data, cols)
			row[0] = cols[0].Get(0)
			if _, err := c.Encode(nil, row); err != nil {
				t.Fatalf("re-encode: %v", err)
			}
		}
	})
}

// FuzzJSONDecode feeds arbitrary records to the json decoder over every
// leaf type and checks that it decodes all of a record or none of it.
func FuzzJSONDecode(f *testing.F) {
	for _, s := range []string{
		`{"b":true,"ti":-5,"si":300,"i":-70000,"bi":1099511627776,"f":1.5,"d":404.89,"dec":-123.45,"s":"x","c":"abc","by":"AP8Q","dt":"2023-07-09","tm":"01:02:03","ts":"2023-07-09 01:00:00.123"}`,
		`{"s":{"a":[1,2.5e3,"\u00e9",null,true]},"i":"12","d":"NaN","dec":"1E-2"}`,
		`null`, `[]`, `{"i":1} x`, `{"ts":"2023-02-30 24:00:00"}`, `{"s":"\ud83d\ude00"}`,
	} {
		f.Add([]byte(s), false)
	}
	strict := newCodec(f, "json", allTypesSchema, map[string]string{"timestamp-format.standard": "ISO-8601"})
	lenient := newCodec(f, "json", allTypesSchema, map[string]string{"ignore-parse-errors": "true"})
	f.Fuzz(func(t *testing.T, data []byte, lax bool) {
		c := strict
		if lax {
			c = lenient
		}
		if err := checkDecode(t, c, allTypesSchema, data); err != nil {
			return
		}
		// A decoded row encodes, and the encoding decodes to the same row
		// except for what JSON text cannot carry (TIME fractions).
		cols := vectors(allTypesSchema)
		_ = c.Decode(data, cols)
		row := make(types.Row, len(cols))
		for i, col := range cols {
			row[i] = col.Get(0)
		}
		out, err := c.Encode(nil, row)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		cols = vectors(allTypesSchema)
		if err := c.Decode(out, cols); err != nil {
			t.Fatalf("decoding our own encoding %s: %v", out, err)
		}
	})
}

// FuzzAvroDecode feeds arbitrary records to the avro decoder and checks
// that it decodes all of a record or none of it.
func FuzzAvroDecode(f *testing.F) {
	reg := srfake.New()
	defer reg.Close()
	// A writer schema with complex types to skip, under id 5.
	writer := `{"type":"record","name":"W","fields":[
		{"name":"x","type":{"type":"array","items":{"type":"map","values":["null","string",{"type":"fixed","name":"F","size":2}]}}},
		{"name":"s","type":["string","null"]},{"name":"bi","type":"int"},{"name":"d","type":"float"},
		{"name":"e","type":{"type":"enum","name":"E","symbols":["A"]}},{"name":"dec","type":"bytes"}]}`
	reg.SeedSchema("w", 1, 5, sr.Schema{Schema: writer})
	c := newCodec(f, "avro-confluent", allTypesSchema, map[string]string{"url": reg.URL()})
	plain := newCodec(f, "avro", allTypesSchema, nil)
	f.Add(mustEncode(f, c, allTypesRow))
	f.Add(mustEncode(f, plain, allTypesRow))
	f.Add([]byte{0, 0, 0, 0, 5, 2, 2, 2, 'k', 2, 'a', 0, 0, 0, 2, 'x', 4, 0, 0, 0, 0, 0, 2, 1})
	f.Add([]byte{0, 0, 0, 0, 5, 1, 4, 2, 'k', 4, 1, 2, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = checkDecode(t, c, allTypesSchema, data)
		_ = checkDecode(t, plain, allTypesSchema, data)
	})
}

// FuzzCSVDecode feeds arbitrary lines to csv decoders of several option
// sets, checks the all-or-nothing contract and, where the codec writes
// what it reads, that a decoded row encodes back to one that reads equal.
func FuzzCSVDecode(f *testing.F) {
	for _, s := range []string{
		`true,-5,300,-70000,1099511627776,1.5,404.89,-123.45,x,abc,AP8Q,2023-07-09,01:02:03,"2023-07-09 01:00:00.123"`,
		"\"a\"\"b\",1,\"x\ny\"\r\nmore", `#c` + "\n" + `a,\N,,`, `a\,b,1`, `"unterminated`, ",,,,,,,,,,,,,, ",
		"1;2;3,a;b,1;x;2023-01-01", "", "\xef\xbb\xbfa,b",
	} {
		f.Add([]byte(s), uint8(0))
	}
	nested := types.Schema{field("a", types.ArrayOf(types.IntType)), field("s", types.ArrayOf(types.StringType)),
		field("r", types.RowOf(types.Schema{field("x", types.IntType), field("y", types.StringType), field("d", dateT)}))}
	// (A NULL ROW is written as the null literal, which reads as a ROW
	// of one NULL field, as in Flink: that codec is not written back.)
	codecs := []struct {
		fields    types.Schema
		c         Codec
		roundTrip bool
	}{
		{allTypesSchema, newCodec(f, "csv", allTypesSchema, nil), true},
		{allTypesSchema, newCodec(f, "csv", allTypesSchema, map[string]string{"ignore-parse-errors": "true", "allow-comments": "true", "null-literal": `\N`}), true},
		{allTypesSchema, newCodec(f, "csv", allTypesSchema, map[string]string{"escape-character": "\\", "quote-character": "'", "field-delimiter": ";"}), true},
		{nested, newCodec(f, "csv", nested, map[string]string{"null-literal": "null"}), false},
		{nested, newCodec(f, "csv", nested, map[string]string{"ignore-parse-errors": "true", "disable-quote-character": "true", "array-element-delimiter": "|"}), true},
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		tc := codecs[int(which)%len(codecs)]
		if err := checkDecode(t, tc.c, tc.fields, data); err != nil || !tc.roundTrip {
			return
		}
		// A decoded row encodes, and from there on reading and writing
		// agree: the second round gives the same text.
		cols := vectors(tc.fields)
		_ = tc.c.Decode(data, cols)
		row := make(types.Row, len(cols))
		for i, col := range cols {
			row[i] = col.Get(0)
		}
		first, err := tc.c.Encode(nil, row)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		again, err := decodeRow(t, tc.c, tc.fields, first)
		if err != nil {
			t.Fatalf("decoding our own encoding %q: %v", first, err)
		}
		second, err := tc.c.Encode(nil, again)
		if err != nil || string(second) != string(first) {
			t.Fatalf("%q re-encoded as %q, then %q (%v)", data, first, second, err)
		}
	})
}
