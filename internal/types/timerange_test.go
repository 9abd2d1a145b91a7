package types

import (
	"math"
	"testing"
	"time"
)

// TestTimestampRangeEdges parses literals at the edges of the ranges of
// timestamps (Flink's 0000-01-01 to 9999-12-31 up to precision 6, int64
// nanoseconds above): inside they are exact, one step outside they are
// RangeErrors, never a wrapped value.
func TestTimestampRangeEdges(t *testing.T) {
	year1500 := time.Date(1500, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	for _, c := range []struct {
		text string
		p    int
		want int64
		err  bool
	}{
		{"2262-04-11 23:47:16.854775807", 9, math.MaxInt64, false},
		{"2262-04-11 23:47:16.854775808", 9, 0, true},
		{"1677-09-21 00:12:44", 7, minNanos, false},
		{"1677-09-21 00:12:43.999", 8, 0, true},
		{"1500-01-01 00:00:00", 0, year1500, false},
		{"1500-01-01 00:00:00.123456789", 6, year1500 + 123456, false},
		{"1500-01-01 00:00:00.123456789", 3, year1500 + 123000, false},
		{"1500-01-01 00:00:00", 9, 0, true},
		{"0000-01-01 00:00:00", 0, minMicros, false},
		{"9999-12-31 23:59:59.999999999", 6, maxMicros, false},
		{"9999-12-31 23:59:59.999999999", 0, maxMicros - 999999, false},
	} {
		v, err := ParseValue(TimestampType(c.p), c.text, nil)
		switch {
		case c.err && !IsRangeError(err):
			t.Errorf("%s (%d): got %v, %v; want a RangeError", c.text, c.p, v, err)
		case !c.err && (err != nil || v.I != c.want):
			t.Errorf("%s (%d): got %v, %v; want %d", c.text, c.p, v, err, c.want)
		}
	}
	if _, err := ParseValue(TimestampType(0), "2020-13-01 00:00:00", nil); err == nil || IsRangeError(err) {
		t.Errorf("a bad month is a parse error, not a range error: %v", err)
	}
}

// TestTimestampPrintRoundTrip prints timestamps of every precision across
// the range and parses them back.
func TestTimestampPrintRoundTrip(t *testing.T) {
	for _, text := range []string{"0000-01-01 00:00:00", "0001-01-01 00:00:00.1", "1000-02-28 12:34:56.123456", "0004-02-29 00:00:00",
		"1500-06-15 23:59:59.999999", "9999-12-31 23:59:59.999999", "1969-12-31 23:59:59.999999"} {
		for p := 0; p <= 6; p++ {
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
	_, err = Cast(d, Type{Kind: Date}, TimestampType(9), nil)
	if !IsRangeError(err) || err.Error() != "CAST(DATE '3000-01-01' AS TIMESTAMP(9)) is outside the range of timestamps Sluice supports ("+TimestampRangeText+")" {
		t.Errorf("DATE 3000-01-01 to TIMESTAMP(9): %v", err)
	}
	if _, err := Cast(ts, TimestampType(6), TimestampLTZType(9), time.UTC); !IsRangeError(err) {
		t.Errorf("TIMESTAMP(6) 3000-01-01 to TIMESTAMP_LTZ(9): %v", err)
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
	ns := IntValue(1_500_000_000_123_456_789)
	ms, err := Cast(ns, TimestampType(9), TimestampType(3), nil)
	if err != nil || ms.I != 1_500_000_000_123_000 {
		t.Errorf("TIMESTAMP(9) to TIMESTAMP(3): %v, %v", ms, err)
	}
	if back, err := Cast(ms, TimestampType(3), TimestampType(9), nil); err != nil || back.I != 1_500_000_000_123_000_000 {
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
	if _, ok := AddTimestamp(9, minNanos, -1); ok {
		t.Error("one nanosecond before the range was accepted")
	}
	if _, ok := AddTimestamp(3, minMicros, -1); ok {
		t.Error("one microsecond before 0000-01-01 was accepted")
	}
	if _, ok := DaysToTimestamp(9, 106752); ok { // 2262-04-12
		t.Error("DATE 2262-04-12 became a TIMESTAMP(9)")
	}
	if us, ok := DaysToTimestamp(3, 106752); !ok || us != 106752*86400*1e6 {
		t.Errorf("DATE 2262-04-12 as TIMESTAMP(3): %d, %v", us, ok)
	}
}
