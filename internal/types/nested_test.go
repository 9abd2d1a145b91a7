package types

import (
	"math"
	"testing"
)

func TestCompositeTypeStringAndInterning(t *testing.T) {
	r := RowOf([]Field{{"a", IntType.WithNotNull(true)}, {"b`c", StringType}})
	cases := []struct {
		t    Type
		want string
	}{
		{ArrayOf(StringType), "ARRAY<STRING>"},
		{ArrayOf(IntType.WithNotNull(true)).WithNotNull(true), "ARRAY<INT NOT NULL> NOT NULL"},
		{MapOf(StringType, IntType), "MAP<STRING, INT>"},
		{MultisetOf(DoubleType), "MULTISET<DOUBLE>"},
		{r, "ROW<`a` INT NOT NULL, `b``c` STRING>"},
		{ArrayOf(MapOf(StringType, r)), "ARRAY<MAP<STRING, ROW<`a` INT NOT NULL, `b``c` STRING>>>"},
	}
	for _, c := range cases {
		if got := c.t.String(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
	// Structurally equal types are == (interned children).
	a, b := ArrayOf(StringType), ArrayOf(Type{Kind: Varchar, Length: MaxVarcharLength})
	if a != b || a == ArrayOf(IntType) {
		t.Error("interning: equal types must be ==, different ones not")
	}
	if RowOf([]Field{{"a", IntType}}) == RowOf([]Field{{"b", IntType}}) {
		t.Error("field names are part of a ROW type")
	}
}

// TestSerializableString: Flink's asSerializableString, as SHOW CREATE
// TABLE writes column types (ShowCreateUtil.getColumnString; table.q of
// Flink's SQL client: `user_email` VARCHAR(2147483647) NOT NULL), also
// inside composite types, without time attributes; String keeps the
// summary form DESCRIBE prints.
func TestSerializableString(t *testing.T) {
	r := RowOf([]Field{{"a", StringType.WithNotNull(true)}, {"b", bytesType}})
	cases := []struct {
		t                     Type
		serializable, summary string
	}{
		{StringType.WithNotNull(true), "VARCHAR(2147483647) NOT NULL", "STRING NOT NULL"},
		{bytesType, "VARBINARY(2147483647)", "BYTES"},
		{Type{Kind: Varchar, Length: 32}, "VARCHAR(32)", "VARCHAR(32)"},
		{TimestampLTZType(3), "TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(3)"},
		{Type{Kind: Timestamp, Precision: 3, Attr: RowTime}, "TIMESTAMP(3)", "TIMESTAMP(3) *ROWTIME*"},
		{Type{Kind: TimestampLTZ, Precision: 3, Attr: ProcTime, NotNull: true}, "TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL", "TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*"},
		{r, "ROW<`a` VARCHAR(2147483647) NOT NULL, `b` VARBINARY(2147483647)>", "ROW<`a` STRING NOT NULL, `b` BYTES>"},
		{MapOf(StringType, ArrayOf(TimestampLTZType(6))), "MAP<VARCHAR(2147483647), ARRAY<TIMESTAMP(6) WITH LOCAL TIME ZONE>>", "MAP<STRING, ARRAY<TIMESTAMP_LTZ(6)>>"},
		{MultisetOf(StringType), "MULTISET<VARCHAR(2147483647)>", "MULTISET<STRING>"},
	}
	for _, c := range cases {
		if got := c.t.SerializableString(); got != c.serializable {
			t.Errorf("SerializableString: got %s, want %s", got, c.serializable)
		}
		if got := c.t.String(); got != c.summary {
			t.Errorf("String: got %s, want %s", got, c.summary)
		}
	}
}

func TestCompositeEncodingRoundTrip(t *testing.T) {
	inner := RowOf([]Field{{"x", DoubleType}, {"y", ArrayOf(BigIntType)}})
	arr := ArrayOf(inner)
	rows := []Value{
		EncodeRow(inner, []Value{FloatValue(math.Inf(-1)), EncodeArray(BigIntType, []Value{IntValue(math.MinInt64), NullValue})}),
		NullValue,
		EncodeRow(inner, []Value{NullValue, EncodeArray(BigIntType, nil)}),
	}
	v := EncodeArray(inner, rows)
	if err := CheckEncoding(arr, v.S); err != nil {
		t.Fatal(err)
	}
	got := PrintValue(arr, v, nil)
	if want := "[(-Infinity, [-9223372036854775808, NULL]), NULL, (NULL, [])]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	m := MapOf(StringType, IntType)
	mv := EncodeMap(m, []Value{StringValue("k"), NullValue}, []Value{IntValue(1), NullValue})
	if got := PrintValue(m, mv, nil); got != "{k=1, NULL=NULL}" {
		t.Errorf("map printed as %s", got)
	}
	ms := MultisetOf(StringType)
	if got := PrintValue(ms, EncodeMap(ms, []Value{StringValue("a")}, []Value{IntValue(2)}), nil); got != "{a=2}" {
		t.Errorf("multiset printed as %s", got)
	}
	// Truncated or trailing bytes are refused, never read as values.
	for _, bad := range []string{v.S[:len(v.S)-1], v.S + "x", "\xff"} {
		if CheckEncoding(arr, bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestCompositeCasts(t *testing.T) {
	from, to := ArrayOf(IntType), ArrayOf(BigIntType)
	if !ImplicitCast(from, to) || ImplicitCast(to, from) || !CanCast(to, from) {
		t.Error("ARRAY<INT> widens implicitly to ARRAY<BIGINT> and narrows only explicitly")
	}
	if CanCast(ArrayOf(IntType), MapOf(IntType, IntType)) || CanCast(StringType, ArrayOf(IntType)) {
		t.Error("casts between roots, and from strings, are not Flink's")
	}
	if CanCast(RowOf([]Field{{"a", IntType}}), RowOf([]Field{{"a", IntType}, {"b", IntType}})) {
		t.Error("ROW casts need the same arity")
	}
	if !CanCast(RowOf([]Field{{"a", IntType}}), RowOf([]Field{{"z", StringType}})) {
		t.Error("ROW casts go by position, names ignored")
	}
	v := EncodeArray(IntType, []Value{IntValue(300), NullValue})
	w, err := Cast(v, from, ArrayOf(Type{Kind: TinyInt}), nil)
	if err != nil || PrintValue(ArrayOf(Type{Kind: TinyInt}), w, nil) != "[44, NULL]" {
		t.Errorf("got %v %v", PrintValue(ArrayOf(Type{Kind: TinyInt}), w, nil), err)
	}
	if _, err := Cast(v, from, ArrayOf(IntType.WithNotNull(true)), nil); err == nil {
		t.Error("a NULL element cast to a NOT NULL element type must fail")
	}
	s, err := Cast(v, from, StringType, nil)
	if err != nil || s.S != "[300, NULL]" {
		t.Errorf("CAST AS STRING: %q %v", s.S, err)
	}
	c, ok := CommonType(ArrayOf(IntType.WithNotNull(true)), ArrayOf(DoubleType))
	if !ok || c != ArrayOf(DoubleType) {
		t.Errorf("common type %v %v", c, ok)
	}
	wide := ArrayOf(DecimalType(30, 2))
	d, err := Cast(v, from, wide, nil)
	if err != nil || FormatValue(wide, d, nil) != "[300.00, NULL]" {
		t.Errorf("CAST AS ARRAY<DECIMAL(30, 2)>: %q %v", FormatValue(wide, d, nil), err)
	}
}
