package types

import (
	"math"
	"testing"
	"time"
)

// TestTimestampRangeEdges parses literals at the edges of the range of
// timestamps: inside they are exact, one step outside they are RangeErrors
// (never a wrapped value), and TIMESTAMP '1500-01-01 00:00:00', which Flink
// has, is refused by name.
func TestTimestampRangeEdges(t *testing.T) {
	for _, c := range []struct {
		text string
		p    int
		want int64
		err  bool
	}{
		{"2262-04-11 23:47:16.854775807", 9, math.MaxInt64, false},
		{"2262-04-11 23:47:16.854775808", 9, 0, true},
		{"2262-04-11 23:47:16.854", 3, math.MaxInt64 - 775807, false},
		{"1677-09-21 00:12:44", 0, minNanos, false},
		{"1677-09-21 00:12:43.999", 3, 0, true},
		{"1500-01-01 00:00:00", 0, 0, true},
		{"3000-01-01 00:00:00", 3, 0, true},
		{"9999-12-31 23:59:59.999999999", 9, 0, true},
	} {
		v, err := ParseValue(TimestampType(c.p), c.text, nil)
		switch {
		case c.err && !IsRangeError(err):
			t.Errorf("%s: got %v, %v; want a RangeError", c.text, v, err)
		case !c.err && (err != nil || v.I != c.want):
			t.Errorf("%s: got %v, %v; want %d", c.text, v, err, c.want)
		}
	}
	if _, err := ParseValue(TimestampType(0), "2020-13-01 00:00:00", nil); err == nil || IsRangeError(err) {
		t.Errorf("a bad month is a parse error, not a range error: %v", err)
	}
}

// TestCastTemporalRange casts dates and timestamps whose results leave the
// range: an error naming the cast, never a wrapped value. CAST(DATE
// '3000-01-01' AS TIMESTAMP) used to give 1830-11-23 00:50:52.580896.
func TestCastTemporalRange(t *testing.T) {
	d, _ := ParseValue(Type{Kind: Date}, "3000-01-01", nil)
	_, err := Cast(d, Type{Kind: Date}, TimestampType(6), nil)
	if !IsRangeError(err) || err.Error() != "CAST(DATE '3000-01-01' AS TIMESTAMP(6)) is outside the range of timestamps Sluice supports ("+TimestampRangeText+")" {
		t.Errorf("DATE 3000-01-01 to TIMESTAMP: %v", err)
	}
	if _, err := Cast(d, Type{Kind: Date}, TimestampLTZType(3), time.UTC); !IsRangeError(err) {
		t.Errorf("DATE 3000-01-01 to TIMESTAMP_LTZ: %v", err)
	}
	// The last instant shown in a zone east of UTC is past the range as a
	// wall clock: TIMESTAMP refuses it, DATE still has its day.
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Skip(err)
	}
	last := IntValue(math.MaxInt64)
	if _, err := Cast(last, TimestampLTZType(9), TimestampType(9), tokyo); !IsRangeError(err) {
		t.Errorf("LTZ max to TIMESTAMP in Tokyo: %v", err)
	}
	day, err := Cast(last, TimestampLTZType(9), Type{Kind: Date}, tokyo)
	if err != nil || FormatValue(Type{Kind: Date}, day, nil) != "2262-04-12" {
		t.Errorf("LTZ max to DATE in Tokyo: %v, %v", FormatValue(Type{Kind: Date}, day, nil), err)
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
	if _, ok := AddNanos(minNanos, -1); ok {
		t.Error("one nanosecond before the range was accepted")
	}
	if _, ok := DaysToNanos(106752); ok { // 2262-04-12
		t.Error("DATE 2262-04-12 became a timestamp")
	}
}
