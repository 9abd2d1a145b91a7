package types

import (
	"errors"
	"strings"
	"testing"
)

// TestParseVariantJSON checks the typing and printing of parsed JSON
// against BinaryVariantInternalBuilderTest and BinaryVariant.toJson:
// integers in the smallest integer kind, decimals while they fit 38
// digits, doubles otherwise, objects ordered by key.
func TestParseVariantJSON(t *testing.T) {
	for _, c := range []struct {
		in, json, kind string
	}{
		{"1", "1", "TINYINT"},
		{"128", "128", "SMALLINT"},
		{"32768", "32768", "INT"},
		{"2147483648", "2147483648", "BIGINT"},
		{"-9223372036854775808", "-9223372036854775808", "BIGINT"},
		{"9223372036854775808", "9223372036854775808", "DECIMAL"},
		{"123456789012345678901234567890123456789", "1.2345678901234568E38", "DOUBLE"},
		{"0.000000000000000000000000000000000000001", "1.0E-39", "DOUBLE"},
		{"1.123", "1.123", "DECIMAL"},
		{"0.10", "0.10", "DECIMAL"},
		{"-0", "0", "TINYINT"},
		{"1e10", "1.0E10", "DOUBLE"},
		{"-1.5e3", "-1500.0", "DOUBLE"},
		{`"hello"`, `"hello"`, "STRING"},
		{"true", "true", "BOOLEAN"},
		{"null", "null", "NULL"},
		{" [1,\"hello\",3.1, null] ", `[1,"hello",3.1,null]`, "ARRAY"},
		{`{"b":{"d":[3.1],"c":"hello"},"a":1}`, `{"a":1,"b":{"c":"hello","d":[3.1]}}`, "OBJECT"},
		{`{"schlüssel":"Grüße, 世界 🚀","キー":["äöü"]}`, `{"schlüssel":"Grüße, 世界 🚀","キー":["äöü"]}`, "OBJECT"},
		{`"\u00e9\ud83d\ude80\n\u0001\/"`, "\"é🚀\\n\\u0001/\"", "STRING"},
		{`{"a":1} trailing`, `{"a":1}`, "OBJECT"},
		{"{}", "{}", "OBJECT"},
		{"[]", "[]", "ARRAY"},
	} {
		enc, err := ParseVariantJSON(c.in, false)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got, err := VariantJSON(enc); err != nil || got != c.json {
			t.Errorf("%s prints %s (%v), want %s", c.in, got, err, c.json)
		}
		if got := variantKindNames[enc[0]]; got != c.kind {
			t.Errorf("%s is a %s, want %s", c.in, got, c.kind)
		}
		if err := CheckEncoding(VariantType, enc); err != nil {
			t.Errorf("%s: CheckEncoding: %v", c.in, err)
		}
	}
}

// TestVariantKeyOrder checks that keys order as Java's String.compareTo
// does, by UTF-16 code units: U+FF61 sorts after U+1F680, whose first
// unit is a surrogate (0xD83D), though its UTF-8 bytes sort before.
func TestVariantKeyOrder(t *testing.T) {
	enc, err := ParseVariantJSON(`{"｡":1,"🚀":2,"a":3}`, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := VariantJSON(enc); got != `{"a":3,"🚀":2,"｡":1}` {
		t.Errorf("got %s", got)
	}
	for key, want := range map[string]string{"｡": "1", "🚀": "2", "a": "3"} {
		v, ok, err := VariantField(enc, key)
		if !ok || err != nil {
			t.Fatalf("field %q: %v %v", key, ok, err)
		}
		if got, _ := VariantJSON(v); got != want {
			t.Errorf("field %q is %s, want %s", key, got, want)
		}
	}
}

func TestParseVariantJSONDuplicateKeys(t *testing.T) {
	in := `{"k1":1,"k1":2,"k2":1.5}`
	if _, err := ParseVariantJSON(in, false); !errors.Is(err, ErrVariantDuplicateKey) {
		t.Errorf("got %v, want VARIANT_DUPLICATE_KEY", err)
	}
	enc, err := ParseVariantJSON(in, true)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := VariantJSON(enc); got != `{"k1":2,"k2":1.5}` {
		t.Errorf("got %s", got)
	}
}

// TestParseVariantJSONErrors checks that malformed text fails with its
// position, as Jackson's parser reports it.
func TestParseVariantJSONErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":         "Unexpected end of JSON input. at line 1, column 1",
		"  \n ":    "Unexpected end of JSON input. at line 2, column 2",
		`{"a":}`:   "Unexpected character ('}' (code 125)): expected a valid value",
		"[1,2":     "Unexpected end-of-input: expected close marker for ARRAY at line 1, column 5",
		`{"a" 1}`:  "was expecting a colon to separate field name and value at line 1, column 6",
		`{a:1}`:    "was expecting double-quote to start field name at line 1, column 2",
		"01":       "Invalid numeric value: Leading zeroes not allowed at line 1, column 1",
		"+5":       "Unexpected character ('+' (code 43))",
		"1.":       "Decimal point not followed by a digit",
		"1e":       "Exponent indicator not followed by a digit",
		"NaN":      "Unrecognized token 'NaN'",
		"1e400":    "Numeric value '1e400' is out of the range of double precision and cannot be stored as a Variant.",
		"5 6x":     "",
		"1x":       "Expected space separating root-level values at line 1, column 2",
		"truex":    "Unrecognized token 'truex'",
		"\"a\nb\"": "Illegal unquoted character ((CTRL-CHAR, code 10))",
		`"\x"`:     "Unrecognized character escape 'x' (code 120)",
		`"\u12"`:   "expected a hex-digit for character escape sequence",
		// Jackson keeps a lone surrogate, which Flink's UTF-8 encoding
		// writes as '?'; Sluice refuses it.
		`"a\ud83d"`:        `\ud83d escapes a lone UTF-16 surrogate, which encodes no character at line 1, column 3`,
		`"\ud83d\u0041"`:   `\ud83d escapes a lone UTF-16 surrogate, which encodes no character at line 1, column 2`,
		`{"\uDE00":1}`:     `\uDE00 escapes a lone UTF-16 surrogate, which encodes no character at line 1, column 3`,
		`["\ude00\ud83d"]`: `\ude00 escapes a lone UTF-16 surrogate, which encodes no character at line 1, column 3`,
		`[1 2]`:            "was expecting comma to separate Array entries at line 1, column 4",
		`{"a":1 "b"}`:      "was expecting comma to separate Object entries at line 1, column 8",
	} {
		_, err := ParseVariantJSON(in, false)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", in, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: got %v, want %q", in, err, want)
		}
	}
	deep := strings.Repeat("[", MaxVariantNesting+1) + strings.Repeat("]", MaxVariantNesting+1)
	if _, err := ParseVariantJSON(deep, false); err == nil || !strings.Contains(err.Error(), "Document nesting depth (1001)") {
		t.Errorf("nesting: %v", err)
	}
	ok := strings.Repeat("[", MaxVariantNesting) + strings.Repeat("]", MaxVariantNesting)
	if _, err := ParseVariantJSON(ok, false); err != nil {
		t.Errorf("nesting %d: %v", MaxVariantNesting, err)
	}
}

func TestVariantElement(t *testing.T) {
	enc, err := ParseVariantJSON(`[10, [20], {"a": 30}]`, false)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range map[int64]string{1: "10", 2: "[20]", 3: `{"a":30}`} {
		v, ok, err := VariantElement(enc, i)
		got, _ := VariantJSON(v)
		if !ok || err != nil || got != want {
			t.Errorf("[%d] = %s %v %v, want %s", i, got, ok, err, want)
		}
	}
	for _, i := range []int64{0, 4, -1} {
		if _, ok, err := VariantElement(enc, i); ok || err != nil {
			t.Errorf("[%d] found (%v)", i, err)
		}
	}
	if _, ok, _ := VariantField(enc, "a"); ok {
		t.Error("an array has no fields")
	}
}

// TestCastVariant checks CAST from VARIANT after VariantToPrimitiveCastRule
// and VariantToStringCastRule.
func TestCastVariant(t *testing.T) {
	enc := func(s string) Value {
		e, err := ParseVariantJSON(s, false)
		if err != nil {
			t.Fatal(err)
		}
		return StringValue(e)
	}
	for _, c := range []struct {
		in   string
		to   Type
		want string
		err  string
	}{
		{"300", IntType, "300", ""},
		{"300", Type{Kind: TinyInt}, "44", ""},
		{"2.75", DecimalType(5, 1), "2.8", ""},
		{"2.75", IntType, "2", ""},
		{"1e1", DoubleType, "10.0", ""},
		{"1e1", StringType, "10.0", ""},
		{`"text"`, Type{Kind: Varchar, Length: 2}, "te", ""},
		{`"ab"`, Type{Kind: Char, Length: 4}, "ab  ", ""},
		{"true", BooleanType, "TRUE", ""},
		{"true", StringType, "TRUE", ""},
		{"null", IntType, "NULL", ""},
		{"12345.5", DecimalType(3, 0), "NULL", ""},
		{"1", BooleanType, "", "Expected type BOOLEAN but got TINYINT"},
		{`"x"`, IntType, "", "Expected a numeric type but got STRING"},
		{"[1]", StringType, "", "a VARIANT holding an ARRAY does not cast to STRING"},
		{`{"a":1}`, IntType, "", "Expected type INT but got OBJECT"},
		{`"2020-01-01"`, Type{Kind: Date}, "", "Expected type DATE but got STRING"},
		{"null", IntType.WithNotNull(true), "", "Expected type INT but got NULL"},
	} {
		got, err := Cast(enc(c.in), VariantType, c.to, nil)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("CAST(%s AS %s): %v, want error %q", c.in, c.to, err, c.err)
			}
		case err != nil:
			t.Errorf("CAST(%s AS %s): %v", c.in, c.to, err)
		case FormatValue(c.to, got, nil) != c.want:
			t.Errorf("CAST(%s AS %s) = %s, want %s", c.in, c.to, FormatValue(c.to, got, nil), c.want)
		}
	}
	for _, to := range []Type{{Kind: Time}, IntType, VariantType, ArrayOf(IntType)} {
		if err := ValidateCast(to, VariantType); (err == nil) != (to.Kind == Variant) {
			t.Errorf("CAST from %s to VARIANT: %v", to, err)
		}
	}
	if err := ValidateCast(VariantType, Type{Kind: Time}); err == nil {
		t.Error("CAST(VARIANT AS TIME) is refused")
	}
}

func TestCheckVariantEncoding(t *testing.T) {
	enc, err := ParseVariantJSON(`{"a":[1,"x",2.5,1e300,null,true]}`, false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(enc) {
		if err := CheckEncoding(VariantType, enc[:i]); err == nil {
			t.Errorf("the first %d bytes pass as a VARIANT", i)
		}
	}
	for _, bad := range []string{"", "\xff", string([]byte{vInt8}), string([]byte{vNull, 0})} {
		if err := CheckEncoding(VariantType, bad); err == nil {
			t.Errorf("%q passes as a VARIANT", bad)
		}
	}
}
