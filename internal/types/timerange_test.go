package types

import (
	"math"
	"strings"
	"testing"
	"time"
)

// TestTimestampRangeEdges parses literals at the edges of the range of
// timestamps (Flink's 0000-01-01 to 9999-12-31 at every precision): inside
// they are exact, one step outside they are RangeErrors, never a wrapped
// value.
func TestTimestampRangeEdges(t *testing.T) {
	year1500 := time.Date(1500, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	for _, c := range []struct {
		text   string
		p      int
		us, ns int64
		err    bool
	}{
		{"2262-04-11 23:47:16.854775807", 9, math.MaxInt64 / 1000, 807, false},
		{"2262-04-11 23:47:16.854775808", 9, math.MaxInt64 / 1000, 808, false},
		{"1677-09-21 00:12:43.999", 8, time.Date(1677, 9, 21, 0, 12, 43, 999_000_000, time.UTC).UnixMicro(), 0, false},
		{"1500-01-01 00:00:00", 0, year1500, 0, false},
		{"1500-01-01 00:00:00.123456789", 6, year1500 + 123456, 0, false},
		{"1500-01-01 00:00:00.123456789", 3, year1500 + 123000, 0, false},
		{"1500-01-01 00:00:00.123456789", 9, year1500 + 123456, 789, false},
		{"1500-01-01 00:00:00.123456789", 8, year1500 + 123456, 780, false},
		{"1500-01-01 00:00:00.123456789", 7, year1500 + 123456, 700, false},
		{"0000-01-01 00:00:00", 0, minMicros, 0, false},
		{"0000-01-01 00:00:00", 9, minMicros, 0, false},
		{"9999-12-31 23:59:59.999999999", 6, maxMicros, 0, false},
		{"9999-12-31 23:59:59.999999999", 9, maxMicros, 999, false},
		{"9999-12-31 23:59:59.999999999", 0, maxMicros - 999999, 0, false},
		{"-0001-12-31 23:59:59.999999999", 9, 0, 0, true},
		{"10000-01-01 00:00:00", 9, 0, 0, true},
	} {
		v, err := ParseValue(TimestampType(c.p), c.text, nil)
		us, ns := TimestampParts(c.p, v)
		switch {
		case c.err && err == nil:
			t.Errorf("%s (%d): got %v; want an error", c.text, c.p, v)
		case !c.err && (err != nil || us != c.us || ns != c.ns):
			t.Errorf("%s (%d): got %d+%d, %v; want %d+%d", c.text, c.p, us, ns, err, c.us, c.ns)
		}
	}
	if _, err := ParseValue(TimestampType(0), "2020-13-01 00:00:00", nil); err == nil || IsRangeError(err) {
		t.Errorf("a bad month is a parse error, not a range error: %v", err)
	}
}

// TestNanoTimestampOrder checks that the string form of TIMESTAMP(7..9)
// orders as the values do, across the epoch and the whole range.
func TestNanoTimestampOrder(t *testing.T) {
	texts := []string{"0000-01-01 00:00:00", "0000-01-01 00:00:00.000000001", "0001-01-01 00:00:00", "1000-06-15 12:00:00.5",
		"1500-01-01 00:00:00.123456789", "1969-12-31 23:59:59.999999999", "1970-01-01 00:00:00", "1970-01-01 00:00:00.000000001",
		"2262-04-11 23:47:16.854775808", "9999-12-31 23:59:59.999999998", "9999-12-31 23:59:59.999999999"}
	var prev Value
	for i, text := range texts {
		v, err := ParseValue(TimestampType(9), text, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.S) != nanoTimestampLen {
			t.Fatalf("%s: %d bytes", text, len(v.S))
		}
		if i > 0 && (prev.S >= v.S || CompareTimestamps(9, prev, 9, v) >= 0) {
			t.Errorf("%s does not order after %s", text, texts[i-1])
		}
		if got := FormatValue(TimestampType(9), v, nil); got != text && got != text+strings.Repeat("0", 29-len(text)) && !strings.HasPrefix(got, text) {
			t.Errorf("%s printed as %s", text, got)
		}
		prev = v
	}
}

// TestTimestampPrintRoundTrip prints timestamps of every precision across
// the range and parses them back.
func TestTimestampPrintRoundTrip(t *testing.T) {
	for _, text := range []string{"0000-01-01 00:00:00", "0001-01-01 00:00:00.1", "1000-02-28 12:34:56.123456", "0004-02-29 00:00:00",
		"1500-06-15 23:59:59.999999", "9999-12-31 23:59:59.999999", "1969-12-31 23:59:59.999999"} {
		for p := 0; p <= 9; p++ {
			for _, typ := range []Type{TimestampType(p), TimestampLTZType(p)} {
				v, err := ParseValue(typ, text, time.UTC)
				if err != nil {
					t.Fatalf("%s as %s: %v", text, typ, err)
				}
				back, err := ParseValue(typ, FormatValue(typ, v, time.UTC), time.UTC)
				if err != nil || back != v {
					t.Errorf("%s as %s printed %s, read back %v, %v", text, typ, FormatValue(typ, v, time.UTC), back, err)
				}
			}
		}
	}
}

// TestCastTemporalRange casts dates and timestamps whose results leave the
// range: an error naming the cast, never a wrapped value.
func TestCastTemporalRange(t *testing.T) {
	d, _ := ParseValue(Type{Kind: Date}, "3000-01-01", nil)
	ts, err := Cast(d, Type{Kind: Date}, TimestampType(6), nil)
	if err != nil || FormatValue(TimestampType(6), ts, nil) != "3000-01-01 00:00:00.000000" {
		t.Errorf("DATE 3000-01-01 to TIMESTAMP(6): %v, %v", ts, err)
	}
	ts9, err := Cast(d, Type{Kind: Date}, TimestampType(9), nil)
	if err != nil || FormatValue(TimestampType(9), ts9, nil) != "3000-01-01 00:00:00.000000000" {
		t.Errorf("DATE 3000-01-01 to TIMESTAMP(9): %v, %v", ts9, err)
	}
	d = IntValue(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).Unix() / 86400)
	_, err = Cast(d, Type{Kind: Date}, TimestampType(9), nil)
	if !IsRangeError(err) || err.Error() != "CAST(DATE '10000-01-01' AS TIMESTAMP(9)) is outside the range of timestamps Sluice supports ("+TimestampRangeText+")" {
		t.Errorf("DATE 10000-01-01 to TIMESTAMP(9): %v", err)
	}
	// The last instant shown in a zone east of UTC is past the range as a
	// wall clock: TIMESTAMP refuses it, DATE has its day.
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Skip(err)
	}
	last := IntValue(maxMicros)
	if _, err := Cast(last, TimestampLTZType(6), TimestampType(6), tokyo); !IsRangeError(err) {
		t.Errorf("LTZ max to TIMESTAMP in Tokyo: %v", err)
	}
	day, err := Cast(last, TimestampLTZType(6), Type{Kind: Date}, tokyo)
	if err != nil || FormatValue(Type{Kind: Date}, day, nil) != "10000-01-01" {
		t.Errorf("LTZ max to DATE in Tokyo: %v, %v", FormatValue(Type{Kind: Date}, day, nil), err)
	}
	// Precision 9 to 3 and back.
	ns, _ := TimestampFromParts(9, 1_500_000_000_123_456, 789)
	ms, err := Cast(ns, TimestampType(9), TimestampType(3), nil)
	if err != nil || ms.I != 1_500_000_000_123_000 {
		t.Errorf("TIMESTAMP(9) to TIMESTAMP(3): %v, %v", ms, err)
	}
	if back, err := Cast(ms, TimestampType(3), TimestampType(9), nil); err != nil || back != mustParts(t, 9, 1_500_000_000_123_000, 0) {
		t.Errorf("TIMESTAMP(3) to TIMESTAMP(9): %v, %v", back, err)
	}
}

func TestExactArithmetic(t *testing.T) {
	if _, ok := AddExact(math.MaxInt64, 1); ok {
		t.Error("MaxInt64 + 1 did not overflow")
	}
	if s, ok := AddExact(math.MinInt64, math.MaxInt64); !ok || s != -1 {
		t.Errorf("MinInt64 + MaxInt64 = %d, %v", s, ok)
	}
	for _, c := range [][2]int64{{math.MinInt64, -1}, {-1, math.MinInt64}, {1 << 32, 1 << 31}, {3, math.MaxInt64 / 2}} {
		if p, ok := MultiplyExact(c[0], c[1]); ok {
			t.Errorf("%d * %d = %d did not overflow", c[0], c[1], p)
		}
	}
	if p, ok := MultiplyExact(-1<<31, 1<<32); !ok || p != math.MinInt64 {
		t.Errorf("-2^31 * 2^32 = %d, %v", p, ok)
	}
	if _, ok := AddTimestamp(9, mustParts(t, 9, minMicros, 0), 0, -1); ok {
		t.Error("one nanosecond before the range was accepted")
	}
	if _, ok := AddTimestamp(3, IntValue(minMicros), -1, 0); ok {
		t.Error("one microsecond before 0000-01-01 was accepted")
	}
	if _, ok := AddTimestamp(9, mustParts(t, 9, maxMicros, 999), 0, 1); ok {
		t.Error("one nanosecond after the range was accepted")
	}
	if v, ok := AddTimestamp(9, mustParts(t, 9, maxMicros, 998), 0, 1); !ok || v != mustParts(t, 9, maxMicros, 999) {
		t.Errorf("the last nanosecond of the range: %v, %v", v, ok)
	}
	if v, ok := DaysToTimestamp(9, 106752); !ok || v != mustParts(t, 9, 106752*86400*1e6, 0) { // 2262-04-12
		t.Errorf("DATE 2262-04-12 as TIMESTAMP(9): %v, %v", v, ok)
	}
	if v, ok := DaysToTimestamp(3, 106752); !ok || v.I != 106752*86400*1e6 {
		t.Errorf("DATE 2262-04-12 as TIMESTAMP(3): %v, %v", v, ok)
	}
}

// TestTimestampNanos checks the edges of the nanoseconds an int64 holds.
func TestTimestampNanos(t *testing.T) {
	for _, n := range []int64{math.MinInt64, math.MinInt64 + 1, -1001, -1000, -999, -1, 0, 1, 999, 1000, math.MaxInt64} {
		v := mustParts(t, 9, 0, n)
		if got, ok := TimestampNanos(9, v); !ok || got != n {
			t.Errorf("%d: got %d, %v", n, got, ok)
		}
	}
	lo := mustParts(t, 9, math.MinInt64/1000-1, 191) // one nanosecond before MinInt64
	hi := mustParts(t, 9, math.MaxInt64/1000, 808)   // one after MaxInt64
	for _, v := range []Value{lo, hi} {
		if got, ok := TimestampNanos(9, v); ok {
			t.Errorf("%v: got %d; want false", v, got)
		}
	}
}

func mustParts(t *testing.T, p int, us, ns int64) Value {
	t.Helper()
	v, ok := TimestampFromParts(p, us, ns)
	if !ok {
		t.Fatalf("%d+%d is outside the range", us, ns)
	}
	return v
}
