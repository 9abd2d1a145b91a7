package types

import (
	"errors"
	"math"
	"time"
)

// TIMESTAMP and TIMESTAMP_LTZ values are nanoseconds since the epoch in an
// int64, which covers 1677-09-21 00:12:43.145224192 to 2262-04-11
// 23:47:16.854775807; Sluice's range starts at the first whole second in it,
// so that truncating a fraction never leaves it. Flink's range is 0000-01-01 to 9999-12-31
// (TimestampData): a value Flink has but Sluice cannot store is refused with
// a RangeError, never wrapped around.

var (
	minTimestamp = time.Unix(math.MinInt64/int64(time.Second), 0).UTC()
	maxTimestamp = time.Unix(0, math.MaxInt64).UTC()
)

// TimestampRangeText describes the range of timestamps Sluice stores.
const TimestampRangeText = "1677-09-21 00:12:44 to 2262-04-11 23:47:16.854775807"

// RangeError reports a value Flink can represent but Sluice cannot: a
// timestamp outside TimestampRangeText, or an interval or timestamp
// arithmetic result beyond 64 bits. TRY_CAST does not turn it into NULL
// (the value exists in Flink, so NULL would be a wrong answer).
type RangeError struct {
	What string // the value or operation, e.g. "TIMESTAMP '1500-01-01 00:00:00'"
}

func (e *RangeError) Error() string {
	return e.What + " is outside the range of timestamps Sluice supports (" + TimestampRangeText + ")"
}

// IsRangeError reports whether err is or wraps a RangeError.
func IsRangeError(err error) bool {
	var r *RangeError
	return errors.As(err, &r)
}

// minNanos is the first nanosecond of the range.
const minNanos = math.MinInt64 / int64(time.Second) * int64(time.Second)

// InRange reports whether ns (nanoseconds since the epoch) is in the range
// of timestamps.
func InRange(ns int64) bool { return ns >= minNanos }

// TimeNanos returns t as nanoseconds since the epoch, false when t is
// outside the range of timestamps.
func TimeNanos(t time.Time) (int64, bool) {
	if t.Before(minTimestamp) || t.After(maxTimestamp) {
		return 0, false
	}
	return t.UnixNano(), true
}

// DaysToNanos returns midnight of a DATE (days since the epoch) as
// nanoseconds since the epoch, false when it is outside the range.
func DaysToNanos(days int64) (int64, bool) {
	ns, ok := MultiplyExact(days, nanosPerDay)
	return ns, ok && ns >= minNanos
}

// AddNanos returns the timestamp a + b (nanoseconds), false when it is
// outside the range of timestamps.
func AddNanos(a, b int64) (int64, bool) {
	s, ok := AddExact(a, b)
	return s, ok && s >= minNanos
}

// AddExact returns a + b, false when the sum overflows int64 (Java's
// Math.addExact).
func AddExact(a, b int64) (int64, bool) {
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		return 0, false
	}
	return s, true
}

// MultiplyExact returns a * b, false when the product overflows int64
// (Java's Math.multiplyExact).
func MultiplyExact(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) || p/b != a {
		return 0, false
	}
	return p, true
}

// LiteralText writes v as a typed literal for messages, e.g.
// "TIMESTAMP(3) '2262-04-11 23:47:16.854'".
func LiteralText(t Type, v Value, loc *time.Location) string {
	return typeName(t) + " '" + FormatValue(t, v, loc) + "'"
}
