package types

import (
	"errors"
	"math"
	"time"
)

// A TIMESTAMP(p) or TIMESTAMP_LTZ(p) value counts time since the epoch
// (1970-01-01 00:00:00, read as UTC for TIMESTAMP; the instant for
// TIMESTAMP_LTZ) over Flink's range (TimestampData), 0000-01-01 00:00:00 to
// 9999-12-31 23:59:59.999999999, at every precision. How it is held follows
// the precision:
//
//   - p ≤ 6: an int64 of microseconds (Value.I).
//   - p 7 to 9: 10 bytes in the string slot (Value.S): the microseconds,
//     big-endian with the sign bit flipped, then the nanoseconds of the
//     microsecond (0 to 999) in two big-endian bytes, so that the bytes
//     order as the values do and equal values have equal bytes.
//
// TimestampParts and TimestampFromParts read and write both forms as
// microseconds plus nanoseconds of the microsecond. A value outside the
// range is refused with a RangeError, never wrapped around.

// MaxMicrosPrecision is the largest timestamp precision held in
// microseconds; above it a timestamp is held in the string slot.
const MaxMicrosPrecision = 6

var (
	minTimestamp = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTimestamp = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)

	minMicros = minTimestamp.UnixMicro()
	maxMicros = maxTimestamp.UnixMicro()
)

// nanoTimestampLen is the length of the string that holds a timestamp of
// precision 7 to 9.
const nanoTimestampLen = 10

// TimestampRangeText describes the range of timestamps Sluice stores.
const TimestampRangeText = "0000-01-01 00:00:00 to 9999-12-31 23:59:59.999999999"

// RangeError reports a timestamp outside the range Sluice stores
// (TimestampRangeText), or an interval or timestamp arithmetic result
// beyond 64 bits. TRY_CAST does not turn it into NULL.
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

// IsNanoTimestamp reports whether t is a TIMESTAMP or TIMESTAMP_LTZ held in
// the string slot (precision 7 to 9).
func (t Type) IsNanoTimestamp() bool { return t.IsTimestamp() && t.Precision > MaxMicrosPrecision }

// TimestampBounds returns the first and last microsecond of the range of
// timestamps.
func TimestampBounds() (lo, hi int64) { return minMicros, maxMicros }

// DateInRange reports whether the days since the epoch are a DATE of the
// range, 0000-01-01 to 9999-12-31.
func DateInRange(days int64) bool {
	return days >= minTimestamp.Unix()/secondsPerDay && days <= maxTimestamp.Unix()/secondsPerDay
}

// TimestampInRange reports whether the microseconds since the epoch us are
// in the range of timestamps.
func TimestampInRange(us int64) bool { return us >= minMicros && us <= maxMicros }

// TimestampParts returns the timestamp v of precision p as microseconds
// since the epoch and nanoseconds of the microsecond (0 to 999).
func TimestampParts(p int, v Value) (us, ns int64) {
	if p <= MaxMicrosPrecision {
		return v.I, 0
	}
	s := v.S
	if len(s) != nanoTimestampLen {
		return 0, 0
	}
	u := uint64(0)
	for i := 0; i < 8; i++ {
		u = u<<8 | uint64(s[i])
	}
	return int64(u ^ 1<<63), int64(s[8])<<8 | int64(s[9])
}

// TimestampFromParts returns the timestamp us microseconds plus ns
// nanoseconds (any int64) after the epoch as a value of precision p; false
// when it is outside the range. As Flink's TimestampData, the value keeps
// the digits its form holds (microseconds up to precision 6, nanoseconds
// above) whatever p; casts and TimestampOf cut them to p.
func TimestampFromParts(p int, us, ns int64) (Value, bool) {
	if ns < 0 || ns >= 1000 {
		var ok bool
		if us, ok = AddExact(us, floorDiv(ns, 1000)); !ok {
			return NullValue, false
		}
		ns = floorMod(ns, 1000)
	}
	if !TimestampInRange(us) {
		return NullValue, false
	}
	if p <= MaxMicrosPrecision {
		return Value{I: us}, true
	}
	var b [nanoTimestampLen]byte
	u := uint64(us) ^ 1<<63
	for i := 7; i >= 0; i-- {
		b[i] = byte(u)
		u >>= 8
	}
	b[8], b[9] = byte(ns>>8), byte(ns)
	return Value{S: string(b[:])}, true
}

// TimestampNanos returns the timestamp v of precision p as nanoseconds
// since the epoch; false when an int64 does not hold them (before
// 1677-09-21 00:12:43.145224192 or after 2262-04-11 23:47:16.854775807).
func TimestampNanos(p int, v Value) (int64, bool) {
	us, ns := TimestampParts(p, v)
	if us < 0 { // the product may pass MinInt64 that the sum is back within
		us, ns = us+1, ns-1000
	}
	n, ok := MultiplyExact(us, 1000)
	if !ok {
		return 0, false
	}
	return AddExact(n, ns)
}

// CompareTimestamps orders the timestamp a of precision pa and b of
// precision pb: -1, 0 or 1.
func CompareTimestamps(pa int, a Value, pb int, b Value) int {
	ua, na := TimestampParts(pa, a)
	ub, nb := TimestampParts(pb, b)
	switch {
	case ua < ub || ua == ub && na < nb:
		return -1
	case ua == ub && na == nb:
		return 0
	}
	return 1
}

// TimestampTime returns the timestamp v of precision p as a time in UTC.
func TimestampTime(p int, v Value) time.Time {
	us, ns := TimestampParts(p, v)
	return time.UnixMicro(us).Add(time.Duration(ns)).UTC()
}

// TimestampOf returns t as a timestamp of precision p, its fraction cut to
// p digits toward the past (DateTimeUtils.truncate); false when t is outside
// the range.
func TimestampOf(p int, t time.Time) (Value, bool) {
	if t.Before(minTimestamp) || t.After(maxTimestamp) {
		return NullValue, false
	}
	return truncatedTimestamp(p, t.UnixMicro(), int64(t.Nanosecond()%1000))
}

// truncatedTimestamp is TimestampFromParts with the fraction cut to p
// digits toward the past (DateTimeUtils.truncate).
func truncatedTimestamp(p int, us, ns int64) (Value, bool) {
	switch {
	case p <= MaxMicrosPrecision:
		us, ns = truncateMicros(p, us), 0
	case p < 9:
		ns = floorDiv(ns, pow10(9-p)) * pow10(9-p)
	}
	return TimestampFromParts(p, us, ns)
}

// truncateMicros drops the fraction digits of the microseconds us beyond
// precision p (at most 6), rounding toward negative infinity.
func truncateMicros(p int, us int64) int64 {
	if p < 0 || p >= MaxMicrosPrecision {
		return us
	}
	unit := pow10(MaxMicrosPrecision - p)
	return floorDiv(us, unit) * unit
}

// RescaleTimestamp converts a timestamp of precision from into one of
// precision to, truncated to its digits; false when it is outside the
// range.
func RescaleTimestamp(from, to int, v Value) (Value, bool) {
	us, ns := TimestampParts(from, v)
	return truncatedTimestamp(to, us, ns)
}

// DaysToTimestamp returns midnight of a DATE (days since the epoch) as a
// timestamp of precision p, false when it is outside the range.
func DaysToTimestamp(p int, days int64) (Value, bool) {
	us, ok := MultiplyExact(days, nanosPerDay/1000)
	if !ok {
		return NullValue, false
	}
	return TimestampFromParts(p, us, 0)
}

// AddTimestamp returns the timestamp v of precision p plus us microseconds
// and ns nanoseconds, false when it is outside the range.
func AddTimestamp(p int, v Value, us, ns int64) (Value, bool) {
	u, n := TimestampParts(p, v)
	s, ok := AddExact(u, us)
	if !ok {
		return NullValue, false
	}
	if ns != 0 {
		if s, ok = AddExact(s, floorDiv(ns, 1000)); !ok {
			return NullValue, false
		}
		n += floorMod(ns, 1000)
	}
	return TimestampFromParts(p, s, n)
}

// AddMicros returns the timestamp us (microseconds, precision ≤ 6) plus d
// microseconds, false when it is outside the range.
func AddMicros(us, d int64) (int64, bool) {
	s, ok := AddExact(us, d)
	return s, ok && TimestampInRange(s)
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
