package types

import (
	"math"
	"strings"
	"testing"
	"time"
)

var (
	tinyIntType  = Type{Kind: TinyInt}
	smallIntType = Type{Kind: SmallInt}
	floatType    = Type{Kind: Float}
	dateType     = Type{Kind: Date}
	bytesType    = Type{Kind: Varbinary, Length: MaxVarcharLength}
)

func charType(n int) Type    { return Type{Kind: Char, Length: n} }
func varcharType(n int) Type { return Type{Kind: Varchar, Length: n} }
func timeType(p int) Type    { return Type{Kind: Time, Precision: p} }

func TestCast(t *testing.T) {
	berlin := mustLoc(t, "Europe/Berlin")
	ts := instant("2023-07-09T10:20:30.123456789Z")
	cases := []struct {
		name     string
		v        Value
		from, to Type
		loc      *time.Location
		want     Value
	}{
		{"int narrows with wrap-around", IntValue(300), IntType, tinyIntType, nil, IntValue(44)},
		{"bigint to int wraps", IntValue(1 << 31), BigIntType, IntType, nil, IntValue(math.MinInt32)},
		{"int widens", IntValue(-5), IntType, BigIntType, nil, IntValue(-5)},
		{"double truncates", FloatValue(3.9), DoubleType, IntType, nil, IntValue(3)},
		{"negative double truncates toward zero", FloatValue(-3.9), DoubleType, IntType, nil, IntValue(-3)},
		{"NaN is zero", FloatValue(math.NaN()), DoubleType, BigIntType, nil, IntValue(0)},
		{"double saturates bigint", FloatValue(1e20), DoubleType, BigIntType, nil, IntValue(math.MaxInt64)},
		{"double saturates int", FloatValue(-1e20), DoubleType, IntType, nil, IntValue(math.MinInt32)},
		{"double to smallint via int", FloatValue(1e10), DoubleType, smallIntType, nil, IntValue(-1)},
		{"decimal truncates", IntValue(-40489), DecimalType(5, 2), IntType, nil, IntValue(-404)},
		{"decimal to double", IntValue(40489), DecimalType(5, 2), DoubleType, nil, FloatValue(404.89)},
		{"int to float", IntValue(16777217), IntType, floatType, nil, FloatValue(16777216)},
		{"double to float", FloatValue(0.1), DoubleType, floatType, nil, FloatValue(float64(float32(0.1)))},
		{"int to decimal", IntValue(123), IntType, DecimalType(5, 2), nil, IntValue(12300)},
		{"int to decimal overflow is NULL", IntValue(1234), IntType, DecimalType(5, 2), nil, NullValue},
		{"bigint min to decimal overflow", IntValue(math.MinInt64), BigIntType, DecimalType(18, 0), nil, NullValue},
		{"double to decimal via Double.toString", FloatValue(1.005), DoubleType, DecimalType(4, 2), nil, IntValue(101)},
		{"negative double rounds half up", FloatValue(-1.005), DoubleType, DecimalType(4, 2), nil, IntValue(-101)},
		{"large double to decimal", FloatValue(1e10), DoubleType, DecimalType(12, 1), nil, IntValue(100000000000)},
		{"float widens before decimal", FloatValue(float64(float32(0.1))), floatType, DecimalType(10, 9), nil, IntValue(100000001)},
		{"decimal rescale half up", IntValue(12345), DecimalType(5, 3), DecimalType(4, 2), nil, IntValue(1235)},
		{"negative decimal rescale", IntValue(-12345), DecimalType(5, 3), DecimalType(4, 2), nil, IntValue(-1235)},
		{"decimal rescale overflow is NULL", IntValue(99999), DecimalType(5, 2), DecimalType(4, 1), nil, NullValue},
		{"decimal widens scale", IntValue(15), DecimalType(2, 1), DecimalType(5, 3), nil, IntValue(1500)},
		{"boolean to int", BoolValue(true), BooleanType, IntType, nil, IntValue(1)},
		{"boolean to decimal", BoolValue(true), BooleanType, DecimalType(3, 1), nil, IntValue(10)},
		{"boolean to double", BoolValue(false), BooleanType, DoubleType, nil, FloatValue(0)},
		{"int to boolean", IntValue(-7), IntType, BooleanType, nil, BoolValue(true)},
		{"zero to boolean", IntValue(0), tinyIntType, BooleanType, nil, BoolValue(false)},
		{"int to char pads", IntValue(123), IntType, charType(5), nil, StringValue("123  ")},
		{"int to varchar cuts", IntValue(12345), IntType, varcharType(3), nil, StringValue("123")},
		{"double to string", FloatValue(1e10), DoubleType, StringType, nil, StringValue("1.0E10")},
		{"boolean to string", BoolValue(true), BooleanType, StringType, nil, StringValue("TRUE")},
		{"timestamp to string", nanoTS(ts), TimestampType(9), StringType, nil, StringValue("2023-07-09 10:20:30.123456789")},
		{"ltz to string in zone", nanoTS(ts), TimestampLTZType(9), StringType, berlin, StringValue("2023-07-09 12:20:30.123456789")},
		{"bytes to string", StringValue("h\xc3\xa9"), bytesType, StringType, nil, StringValue("hé")},
		{"interval to string", IntValue(1000), Type{Kind: IntervalDayTime}, StringType, nil, StringValue("+0 00:00:01.000")},
		{"string to int", StringValue(" 12 "), StringType, IntType, nil, IntValue(12)},
		{"string to bytes", StringValue("hé"), StringType, bytesType, nil, StringValue("h\xc3\xa9")},
		{"binary to varbinary cuts", StringValue("abcd"), Type{Kind: Binary, Length: 4}, Type{Kind: Varbinary, Length: 2}, nil, StringValue("ab")},
		{"char to varchar keeps padding", StringValue("ab   "), charType(5), StringType, nil, StringValue("ab   ")},
		{"timestamp to date", IntValue(ts / 1000), TimestampType(6), dateType, nil, IntValue(19547)},
		{"early timestamp to date", IntValue(-3_600_000_000), TimestampType(3), dateType, nil, IntValue(-1)},
		{"timestamp to time", nanoTS(ts), TimestampType(9), timeType(3), nil, IntValue(int64(10*time.Hour + 20*time.Minute + 30*time.Second + 123*time.Millisecond))},
		{"timestamp to time(0)", nanoTS(ts), TimestampType(9), timeType(0), nil, IntValue(int64(10*time.Hour + 20*time.Minute + 30*time.Second))},
		{"date to timestamp", IntValue(19547), dateType, TimestampType(3), nil, IntValue(micros("2023-07-09T00:00:00Z"))},
		{"time to timestamp", IntValue(int64(time.Hour)), timeType(0), TimestampType(0), nil, IntValue(3_600_000_000)},
		{"timestamp precision truncates", nanoTS(ts), TimestampType(9), TimestampType(3), nil, IntValue(micros("2023-07-09T10:20:30.123Z"))},
		{"negative timestamp truncates down", nanoTS(-1), TimestampType(9), TimestampType(0), nil, IntValue(-1_000_000)},
		{"timestamp to ltz", IntValue(micros("2023-07-09T02:00:00Z")), TimestampType(3), TimestampLTZType(3), berlin, IntValue(micros("2023-07-09T00:00:00Z"))},
		{"ltz to timestamp", IntValue(micros("2023-07-09T00:00:00Z")), TimestampLTZType(3), TimestampType(3), berlin, IntValue(micros("2023-07-09T02:00:00Z"))},
		{"ltz to date in zone", IntValue(micros("2023-07-08T23:30:00Z")), TimestampLTZType(3), dateType, berlin, IntValue(19547)},
		{"ltz to time in zone", IntValue(micros("2023-07-08T23:30:00Z")), TimestampLTZType(3), timeType(0), berlin, IntValue(int64(90 * time.Minute))},
		{"date to ltz", IntValue(19547), dateType, TimestampLTZType(3), berlin, IntValue(micros("2023-07-08T22:00:00Z"))},
		{"ltz to ltz without zone", nanoTS(ts), TimestampLTZType(9), TimestampLTZType(6), nil, IntValue(micros("2023-07-09T10:20:30.123456Z"))},
		{"NULL stays NULL", NullValue, IntType, StringType, nil, NullValue},
		{"NULL type casts to anything", NullValue, NullType, IntType, nil, NullValue},
		{"interval identity", IntValue(14), Type{Kind: IntervalYearMonth}, Type{Kind: IntervalYearMonth}, nil, IntValue(14)},
	}
	for _, c := range cases {
		got, err := Cast(c.v, c.from, c.to, c.loc)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s: CAST(%+v AS %s) from %s = %+v, want %+v", c.name, c.v, c.to, c.from, got, c.want)
		}
	}
}

func TestCastErrors(t *testing.T) {
	cases := []struct {
		from, to Type
		message  string
	}{
		{TimestampType(3), BigIntType, "The cast from TIMESTAMP type to NUMERIC type is not allowed. It's recommended to use UNIX_TIMESTAMP(CAST(timestamp_col AS STRING)) instead."},
		{TimestampLTZType(3), DecimalType(10, 0), "The cast from TIMESTAMP_LTZ type to NUMERIC type is not allowed."},
		{IntType, TimestampType(3), "The cast from NUMERIC type to TIMESTAMP type is not allowed. It's recommended to use TO_TIMESTAMP(FROM_UNIXTIME(numeric_col)) instead, note the numeric is in seconds."},
		{DoubleType, TimestampLTZType(3), "The cast from NUMERIC type to TIMESTAMP_LTZ type is not allowed. It's recommended to use TO_TIMESTAMP_LTZ(numeric_col, precision) instead."},
		{dateType, IntType, "Cast function cannot convert value of type DATE to type INT"},
		{DecimalType(5, 2), BooleanType, "Cast function cannot convert value of type DECIMAL(5, 2) to type BOOLEAN"},
		{DoubleType, BooleanType, "cannot convert value of type DOUBLE to type BOOLEAN"},
		{BooleanType, dateType, "cannot convert value of type BOOLEAN to type DATE"},
		{IntType, bytesType, "cannot convert value of type INT to type BYTES"},
		{bytesType, IntType, "cannot convert value of type BYTES to type INT"},
		{timeType(0), dateType, "cannot convert value of type TIME(0) to type DATE"},
		{StringType, Type{Kind: IntervalDayTime}, "CAST from STRING to INTERVAL SECOND(3) is not supported"},
		{Type{Kind: IntervalYearMonth}, BigIntType, "CAST from INTERVAL MONTH to BIGINT is not supported"},
	}
	for _, c := range cases {
		err := ValidateCast(c.from, c.to)
		if err == nil || !strings.Contains(err.Error(), c.message) {
			t.Errorf("ValidateCast(%s, %s) = %v, want %q", c.from, c.to, err, c.message)
		}
		if CanCast(c.from, c.to) {
			t.Errorf("CanCast(%s, %s) = true", c.from, c.to)
		}
		if _, err := Cast(IntValue(1), c.from, c.to, nil); err == nil {
			t.Errorf("Cast from %s to %s succeeded", c.from, c.to)
		}
	}
}

func TestCastFailsOnValue(t *testing.T) {
	_, err := Cast(StringValue("abc"), StringType, IntType, nil)
	if err == nil || !strings.Contains(err.Error(), "cannot cast 'abc' to INT") {
		t.Errorf("bad string: %v", err)
	}
	_, err = Cast(FloatValue(math.NaN()), DoubleType, DecimalType(10, 2), nil)
	if err == nil || err.Error() != "cannot cast NaN to DECIMAL(10, 2)" {
		t.Errorf("NaN to DECIMAL: %v", err)
	}
}

func TestCanCastNullability(t *testing.T) {
	// An explicit CAST may target NOT NULL; an implicit one may not.
	notNullBig := BigIntType.WithNotNull(true)
	if !CanCast(IntType, notNullBig) {
		t.Error("explicit CAST to NOT NULL rejected")
	}
	if ImplicitCast(IntType, notNullBig) {
		t.Error("implicit cast from nullable to NOT NULL allowed")
	}
	if !ImplicitCast(IntType.WithNotNull(true), BigIntType) {
		t.Error("implicit cast from NOT NULL to nullable rejected")
	}
}

func TestImplicitCast(t *testing.T) {
	rowtime := TimestampType(3)
	rowtime.Attr = RowTime
	cases := []struct {
		from, to Type
		want     bool
	}{
		{IntType, BigIntType, true},
		{BigIntType, IntType, false},
		{IntType, DoubleType, true},
		{DecimalType(10, 2), floatType, true},
		{DoubleType, DecimalType(10, 2), true}, // DECIMAL takes every NUMERIC implicitly
		{DoubleType, floatType, false},
		{charType(3), StringType, true},
		{StringType, charType(3), false},
		{StringType, IntType, false},
		{TimestampType(3), TimestampLTZType(3), true},
		{TimestampLTZType(3), TimestampType(3), true},
		{rowtime, TimestampType(6), true},
		{TimestampType(3), dateType, true},
		{dateType, TimestampType(3), false},
		{NullType, dateType, true},
		{Type{Kind: Binary, Length: 2}, bytesType, true},
		{bytesType, Type{Kind: Binary, Length: 2}, false},
		{BooleanType, IntType, false},
		{IntType, Type{Kind: IntervalDayTime}, false},
	}
	for _, c := range cases {
		if got := ImplicitCast(c.from, c.to); got != c.want {
			t.Errorf("ImplicitCast(%s, %s) = %v, want %v", c.from, c.to, got, c.want)
		}
	}
}

func TestCommonType(t *testing.T) {
	nn := func(t Type) Type { return t.WithNotNull(true) }
	rowtime := TimestampType(3)
	rowtime.Attr = RowTime
	interval := Type{Kind: IntervalDayTime}
	cases := []struct {
		a, b Type
		want Type
		ok   bool
	}{
		{IntType, BigIntType, BigIntType, true},
		{tinyIntType, smallIntType, smallIntType, true},
		{IntType, DoubleType, DoubleType, true},
		{floatType, IntType, floatType, true},
		{nn(IntType), nn(DecimalType(2, 2)), nn(DecimalType(12, 2)), true},
		{BigIntType, DecimalType(2, 2), DecimalType(21, 2), true},
		{DecimalType(10, 2), DecimalType(5, 4), DecimalType(12, 4), true},
		{DecimalType(10, 2), floatType, floatType, true},
		{floatType, DecimalType(10, 2), DoubleType, true},
		{charType(3), varcharType(5), varcharType(5), true},
		{charType(3), charType(5), varcharType(5), true},
		{charType(3), charType(3), charType(3), true},
		{StringType, charType(3), StringType, true},
		{Type{Kind: Binary, Length: 2}, Type{Kind: Binary, Length: 4}, Type{Kind: Varbinary, Length: 4}, true},
		{TimestampType(0), TimestampLTZType(3), TimestampLTZType(3), true},
		{rowtime, TimestampType(6), TimestampType(6), true},
		{timeType(0), timeType(3), timeType(3), true},
		{NullType, nn(IntType), IntType, true},
		{nn(BooleanType), nn(BooleanType), nn(BooleanType), true},
		{dateType, IntType, dateType, true},
		{dateType, TimestampType(3), dateType, true},
		{dateType, interval, dateType, true},
		{interval, interval, interval, true},
		{NullType, NullType, Type{}, false},
		{IntType, StringType, Type{}, false},
		{BooleanType, IntType, Type{}, false},
		{dateType, timeType(0), Type{}, false},
	}
	for _, c := range cases {
		got, ok := CommonType(c.a, c.b)
		if ok != c.ok || got != c.want {
			t.Errorf("CommonType(%s, %s) = %s, %v; want %s, %v", c.a, c.b, got, ok, c.want, c.ok)
		}
	}
}

func TestDecimalResultTypes(t *testing.T) {
	d := func(p, s int) Type { return Type{Kind: Decimal, NotNull: true, Precision: p, Scale: s} }
	cases := []struct {
		name string
		got  Type
		want Type
	}{
		{"add", DecimalAddType(DecimalType(5, 2), DecimalType(7, 3)), d(8, 3)},
		{"add int", DecimalAddType(IntType, DecimalType(2, 2)), d(13, 2)},
		{"add capped", DecimalAddType(DecimalType(38, 8), DecimalType(32, 8)), d(38, 7)},
		{"multiply", DecimalMultiplyType(DecimalType(5, 2), DecimalType(7, 3)), d(13, 5)},
		{"divide", DecimalDivideType(DecimalType(5, 2), DecimalType(7, 3)), d(16, 10)},
		{"divide capped", DecimalDivideType(DecimalType(38, 10), DecimalType(38, 10)), d(38, 6)},
		{"mod", DecimalModType(DecimalType(5, 2), DecimalType(7, 3)), d(6, 3)},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.name, c.got, c.want)
		}
	}
}

// TestMoreDigits checks moreDigits against digitCount around every power
// of 10 and at the ends of int64.
func TestMoreDigits(t *testing.T) {
	vals := []int64{0, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for _, p := range powersOf10 {
		vals = append(vals, p-1, p, p+1, -p+1, -p, -p-1)
	}
	for _, v := range vals {
		for p := range 21 {
			if got, want := moreDigits(v, p), digitCount(v) > p; got != want {
				t.Errorf("moreDigits(%d, %d) = %v, want %v", v, p, got, want)
			}
		}
	}
}

// nanoTS returns the TIMESTAMP(9) ns nanoseconds after the epoch.
func nanoTS(ns int64) Value {
	v, _ := TimestampFromParts(9, 0, ns)
	return v
}
