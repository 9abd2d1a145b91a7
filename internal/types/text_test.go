package types

import (
	"math"
	"strings"
	"testing"
	"time"
)

func mustLoc(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Skipf("time zone %s not available: %v", name, err)
	}
	return loc
}

// instant returns nanoseconds since the epoch of an RFC 3339 time.
func instant(s string) int64 {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.UnixNano()
}

// micros is instant in microseconds, the unit of timestamps up to precision 6.
func micros(s string) int64 {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.UnixMicro()
}

func TestFormatDouble(t *testing.T) {
	cases := map[float64]string{
		6.35:                            "6.35",
		4.2:                             "4.2",
		100:                             "100.0",
		1e10:                            "1.0E10",
		1e-5:                            "1.0E-5",
		1e7:                             "1.0E7",
		9999999:                         "9999999.0",
		0.001:                           "0.001",
		0.0001:                          "1.0E-4",
		123456789.012:                   "1.23456789012E8",
		-1.5:                            "-1.5",
		math.MaxFloat64:                 "1.7976931348623157E308",
		math.SmallestNonzeroFloat64:     "4.9E-324",
		2 * math.SmallestNonzeroFloat64: "9.9E-324",
		math.Inf(1):                     "Infinity",
		math.Inf(-1):                    "-Infinity",
		0:                               "0.0",
		math.Copysign(0, -1):            "-0.0",
		1234567.5:                       "1234567.5",
		-2.5e-3:                         "-0.0025",
	}
	for f, want := range cases {
		if got := FormatDouble(f); got != want {
			t.Errorf("FormatDouble(%v) = %q, want %q", f, got, want)
		}
	}
	a, b := 0.1, 0.2
	if got := FormatDouble(a + b); got != "0.30000000000000004" {
		t.Errorf("0.1+0.2: %q", got)
	}
	if got := FormatDouble(math.NaN()); got != "NaN" {
		t.Errorf("NaN: %q", got)
	}
}

func TestFormatFloat(t *testing.T) {
	cases := map[float32]string{
		0.1:          "0.1",
		1.1:          "1.1",
		3.4028235e38: "3.4028235E38",
		1e-3:         "0.001",
		16777216:     "1.6777216E7",
		-7.25:        "-7.25",
	}
	for f, want := range cases {
		if got := FormatFloat(f); got != want {
			t.Errorf("FormatFloat(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestFormatValue(t *testing.T) {
	berlin := mustLoc(t, "Europe/Berlin")
	ts := instant("2023-07-09T00:00:00Z")
	us := ts / 1000
	cases := []struct {
		typ  Type
		v    Value
		loc  *time.Location
		want string
	}{
		{BooleanType, BoolValue(true), nil, "TRUE"},
		{BooleanType, BoolValue(false), nil, "FALSE"},
		{IntType, IntValue(-42), nil, "-42"},
		{BigIntType, IntValue(math.MinInt64), nil, "-9223372036854775808"},
		{DoubleType, FloatValue(404.89), nil, "404.89"},
		{Type{Kind: Float}, FloatValue(float64(float32(0.1))), nil, "0.1"},
		{DecimalType(5, 2), IntValue(40489), nil, "404.89"},
		{DecimalType(3, 2), IntValue(50), nil, "0.50"},
		{DecimalType(3, 2), IntValue(-5), nil, "-0.05"},
		{DecimalType(10, 0), IntValue(-7), nil, "-7"},
		{StringType, StringValue("Die Hard"), nil, "Die Hard"},
		{Type{Kind: Char, Length: 5}, StringValue("ab   "), nil, "ab   "},
		{Type{Kind: Varbinary, Length: MaxVarcharLength}, StringValue("hi\xff"), nil, "hi\uFFFD"},
		{Type{Kind: Date}, IntValue(19547), nil, "2023-07-09"},
		{Type{Kind: Date}, IntValue(-1), nil, "1969-12-31"},
		{Type{Kind: Time}, IntValue(int64(time.Hour + 2*time.Minute + 3*time.Second)), nil, "01:02:03"},
		{Type{Kind: Time, Precision: 3}, IntValue(int64(time.Hour)), nil, "01:00:00.0"},
		{Type{Kind: Time, Precision: 3}, IntValue(int64(time.Hour + 120*time.Millisecond)), nil, "01:00:00.12"},
		{Type{Kind: Time, Precision: 1}, IntValue(int64(time.Hour + 123*time.Millisecond)), nil, "01:00:00.1"},
		{Type{Kind: Time}, IntValue(-int64(time.Hour)), nil, "23:00:00"},
		{Type{Kind: Time}, IntValue(int64(25 * time.Hour)), nil, "25:00:00"},
		{TimestampType(3), IntValue(us), nil, "2023-07-09 00:00:00.000"},
		{TimestampType(0), IntValue(us), nil, "2023-07-09 00:00:00"},
		{TimestampType(0), IntValue(us + 500_000), nil, "2023-07-09 00:00:00.5"},
		{TimestampType(6), IntValue(us + 100_000), nil, "2023-07-09 00:00:00.100000"},
		{TimestampType(3), IntValue(us + 123), nil, "2023-07-09 00:00:00.000123"},
		{TimestampType(9), nanoTS(ts + 1), nil, "2023-07-09 00:00:00.000000001"},
		{TimestampType(3), IntValue(-1), nil, "1969-12-31 23:59:59.999999"},
		{TimestampType(0), IntValue(micros("0000-01-01T00:00:00Z")), nil, "0000-01-01 00:00:00"},
		{TimestampType(3), IntValue(micros("1500-06-15T12:00:00.5Z")), nil, "1500-06-15 12:00:00.500"},
		{TimestampType(6), IntValue(micros("9999-12-31T23:59:59.999999Z")), nil, "9999-12-31 23:59:59.999999"},
		{TimestampLTZType(3), IntValue(us), berlin, "2023-07-09 02:00:00.000"},
		{TimestampLTZType(3), IntValue(us), nil, "2023-07-09 00:00:00.000"},
		{Type{Kind: IntervalDayTime}, IntValue(int64((6*24 + 6) * time.Hour / time.Millisecond)), nil, "+6 06:00:00.000"},
		{Type{Kind: IntervalDayTime}, IntValue(-5400001), nil, "-0 01:30:00.001"},
		{Type{Kind: IntervalYearMonth}, IntValue(14), nil, "+1-02"},
		{Type{Kind: IntervalYearMonth}, IntValue(-3), nil, "-0-03"},
		{IntType, NullValue, nil, "NULL"},
	}
	for _, c := range cases {
		if got := FormatValue(c.typ, c.v, c.loc); got != c.want {
			t.Errorf("FormatValue(%s, %+v) = %q, want %q", c.typ, c.v, got, c.want)
		}
	}
}

func TestPrintValue(t *testing.T) {
	bytes := Type{Kind: Varbinary, Length: MaxVarcharLength}
	if got := PrintValue(bytes, StringValue("\x0a\x0b"), nil); got != "x'0a0b'" {
		t.Errorf("binary: %q", got)
	}
	if got := PrintValue(IntType, NullValue, nil); got != "<NULL>" {
		t.Errorf("null: %q", got)
	}
	if got := PrintValue(BooleanType, BoolValue(true), nil); got != "TRUE" {
		t.Errorf("boolean: %q", got)
	}
}

func TestParseValue(t *testing.T) {
	berlin := mustLoc(t, "Europe/Berlin")
	cases := []struct {
		typ  Type
		in   string
		loc  *time.Location
		want Value
	}{
		{BooleanType, "TRUE", nil, BoolValue(true)},
		{BooleanType, "yes", nil, BoolValue(true)},
		{BooleanType, "0", nil, BoolValue(false)},
		{BooleanType, "F", nil, BoolValue(false)},
		{IntType, " 42 ", nil, IntValue(42)},
		{IntType, "+7", nil, IntValue(7)},
		{IntType, "1.9", nil, IntValue(1)},
		{IntType, "-1.9", nil, IntValue(-1)},
		{IntType, "-2147483648", nil, IntValue(math.MinInt32)},
		{BigIntType, "9223372036854775807", nil, IntValue(math.MaxInt64)},
		{BigIntType, "-9223372036854775808", nil, IntValue(math.MinInt64)},
		{Type{Kind: TinyInt}, "-128", nil, IntValue(-128)},
		{DoubleType, " 1.5 ", nil, FloatValue(1.5)},
		{DoubleType, "1e3", nil, FloatValue(1000)},
		{DoubleType, "-Infinity", nil, FloatValue(math.Inf(-1))},
		{DoubleType, "2.5d", nil, FloatValue(2.5)},
		{DoubleType, ".5", nil, FloatValue(0.5)},
		{DoubleType, "0x1p3", nil, FloatValue(8)},
		{Type{Kind: Float}, "0.1", nil, FloatValue(float64(float32(0.1)))},
		{DecimalType(5, 2), "404.885", nil, IntValue(40489)},
		{DecimalType(5, 2), "-404.885", nil, IntValue(-40489)},
		{DecimalType(5, 2), "404.884", nil, IntValue(40488)},
		{DecimalType(3, 2), "-0.005", nil, IntValue(-1)},
		{DecimalType(3, 2), "0.004", nil, IntValue(0)},
		{DecimalType(5, 0), "1e2", nil, IntValue(100)},
		{DecimalType(5, 2), "\t1.5\n", nil, IntValue(150)},
		{DecimalType(4, 1), "000123.45", nil, IntValue(1235)},
		{DecimalType(18, 2), "1.5E-20", nil, IntValue(0)},
		{Type{Kind: Date}, "2023-07-09", nil, IntValue(19547)},
		{Type{Kind: Date}, "2023-7-9", nil, IntValue(19547)},
		{Type{Kind: Date}, "2023-07-09 12:34:56", nil, IntValue(19547)},
		{Type{Kind: Date}, "2023", nil, IntValue(19358)},
		{Type{Kind: Date}, "2024-02-29", nil, IntValue(19782)},
		{Type{Kind: Time}, "01:02:03", nil, IntValue(int64(time.Hour + 2*time.Minute + 3*time.Second))},
		{Type{Kind: Time}, "01:02:03.1234", nil, IntValue(int64(time.Hour + 2*time.Minute + 3*time.Second + 123*time.Millisecond))},
		{Type{Kind: Time}, "01:02:03.9995", nil, IntValue(int64(time.Hour + 2*time.Minute + 4*time.Second))},
		{Type{Kind: Time}, "10:00:00+01:00", nil, IntValue(int64(11 * time.Hour))},
		{Type{Kind: Time}, "7", nil, IntValue(int64(7 * time.Hour))},
		{TimestampType(3), "2023-07-09 00:00:00.123456789", nil, IntValue(micros("2023-07-09T00:00:00.123Z"))},
		{TimestampType(9), "2023-07-09 00:00:00.123456789", nil, nanoTS(instant("2023-07-09T00:00:00.123456789Z"))},
		{TimestampType(3), "2023-07-09", nil, IntValue(micros("2023-07-09T00:00:00Z"))},
		{TimestampType(3), "2023-7-9 1:2:3", nil, IntValue(micros("2023-07-09T01:02:03Z"))},
		{TimestampType(3), "2023-07-09 01:02:03.", nil, IntValue(micros("2023-07-09T01:02:03Z"))},
		{TimestampLTZType(3), "2023-07-09 02:00:00", berlin, IntValue(micros("2023-07-09T00:00:00Z"))},
		{TimestampLTZType(3), "2023-03-26 02:30:00", berlin, IntValue(micros("2023-03-26T01:30:00Z"))},
		{TimestampLTZType(3), "2023-10-29 02:30:00", berlin, IntValue(micros("2023-10-29T00:30:00Z"))},
		{Type{Kind: Char, Length: 5}, "ab", nil, StringValue("ab   ")},
		{Type{Kind: Varchar, Length: 2}, "abc", nil, StringValue("ab")},
		{Type{Kind: Varchar, Length: 2}, "a😀", nil, StringValue("a")},
		{StringType, "  keep  ", nil, StringValue("  keep  ")},
		{Type{Kind: Binary, Length: 3}, "a", nil, StringValue("a\x00\x00")},
		{Type{Kind: Varbinary, Length: 2}, "abc", nil, StringValue("ab")},
	}
	for _, c := range cases {
		got, err := ParseValue(c.typ, c.in, c.loc)
		if err != nil {
			t.Errorf("ParseValue(%s, %q): %v", c.typ, c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("ParseValue(%s, %q) = %+v, want %+v", c.typ, c.in, got, c.want)
		}
	}
}

func TestParseValueErrors(t *testing.T) {
	cases := []struct {
		typ     Type
		in      string
		message string
	}{
		{IntType, "abc", "cannot cast 'abc' to INT: invalid character found"},
		{IntType, "", "cannot cast '' to INT: input is empty"},
		{IntType, "-", "cannot cast '-' to INT: input has only a sign"},
		{IntType, "2147483648", "cannot cast '2147483648' to INT: overflow"},
		{Type{Kind: TinyInt}, "128", "cannot cast '128' to TINYINT: overflow"},
		{BigIntType, "99999999999999999999", "cannot cast '99999999999999999999' to BIGINT: overflow"},
		{IntType, "1e3", "invalid character"},
		{IntType, "1.2.3", "invalid character"},
		{BooleanType, "maybe", "cannot cast 'maybe' to BOOLEAN"},
		{BooleanType, " true", "cannot cast ' true' to BOOLEAN"},
		{DoubleType, "inf", "cannot cast 'inf' to DOUBLE"},
		{DoubleType, "1_000", "cannot cast '1_000' to DOUBLE"},
		{DoubleType, "--1", "cannot cast '--1' to DOUBLE"},
		{DecimalType(4, 0), "12345", "cannot cast '12345' to DECIMAL(4, 0): overflow"},
		{DecimalType(3, 2), "9.995", "overflow"},
		{DecimalType(3, 2), "1.2.3", "cannot cast '1.2.3' to DECIMAL(3, 2)"},
		{Type{Kind: Date}, "2023-02-29", "cannot cast '2023-02-29' to DATE"},
		{Type{Kind: Date}, "2023-04-31", "to DATE"},
		{Type{Kind: Date}, "July 9", "to DATE"},
		{Type{Kind: Time}, "ab:cd", "to TIME(0)"},
		{TimestampType(3), "2023-07-09T00:00:00", "cannot cast '2023-07-09T00:00:00' to TIMESTAMP(3)"},
		{TimestampType(3), " 2023-07-09", "to TIMESTAMP(3)"},
		{TimestampType(3), "2023-07-09 25:00:00", "to TIMESTAMP(3)"},
		{TimestampType(3), "2023-07-09 10:00", "to TIMESTAMP(3)"},
		{Type{Kind: IntervalDayTime}, "1", "not supported"},
	}
	for _, c := range cases {
		v, err := ParseValue(c.typ, c.in, nil)
		if err == nil {
			t.Errorf("ParseValue(%s, %q) = %+v, want error", c.typ, c.in, v)
			continue
		}
		if !strings.Contains(err.Error(), c.message) {
			t.Errorf("ParseValue(%s, %q): %q does not contain %q", c.typ, c.in, err, c.message)
		}
	}
}

// TestFormatParseRoundTrip checks that every text FormatValue produces
// parses back to the same value.
func TestFormatParseRoundTrip(t *testing.T) {
	cases := []struct {
		typ Type
		v   Value
	}{
		{BooleanType, BoolValue(true)},
		{BigIntType, IntValue(-123456789012)},
		{DoubleType, FloatValue(0.1 + 0.2)},
		{DoubleType, FloatValue(-1.25e-300)},
		{Type{Kind: Float}, FloatValue(float64(float32(3.3)))},
		{DecimalType(18, 4), IntValue(-123456789012345678)},
		{Type{Kind: Date}, IntValue(-719528)}, // 0000-01-01
		{TimestampType(9), nanoTS(instant("2262-04-11T23:47:16.854775807Z"))},
		{TimestampType(9), mustParts(t, 9, minMicros, 1)},
		{TimestampType(7), mustParts(t, 7, maxMicros, 900)},
		{TimestampType(6), IntValue(micros("1900-01-01T00:00:00.000001Z"))},
	}
	for _, c := range cases {
		s := FormatValue(c.typ, c.v, nil)
		got, err := ParseValue(c.typ, s, nil)
		if err != nil || got != c.v {
			t.Errorf("%s %+v: formatted %q, parsed %+v, %v", c.typ, c.v, s, got, err)
		}
	}
}
