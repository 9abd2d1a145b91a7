package types

import (
	"errors"
	"math"
	"time"
)

// A TIMESTAMP(p) or TIMESTAMP_LTZ(p) value is an int64 counting units since
// the epoch (1970-01-01 00:00:00, read as UTC for TIMESTAMP; the instant for
// TIMESTAMP_LTZ). The unit follows the precision (TimestampUnit):
//
//   - p ≤ 6: microseconds. Sluice's range is Flink's (TimestampData):
//     0000-01-01 00:00:00 to 9999-12-31 23:59:59.999999.
//   - p 7 to 9: nanoseconds, which an int64 holds from 1677-09-21
//     00:12:43.145224192 to 2262-04-11 23:47:16.854775807; the range starts
//     at the first whole second in it, so that truncating a fraction never
//     leaves it.
//
// A value outside the range of its precision is refused with a RangeError,
// never wrapped around.

// MaxMicrosPrecision is the largest timestamp precision held in
// microseconds.
const MaxMicrosPrecision = 6

var (
	minTimestamp      = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTimestamp      = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	minNanosTimestamp = time.Unix(math.MinInt64/int64(time.Second), 0).UTC()
	maxNanosTimestamp = time.Unix(0, math.MaxInt64).UTC()

	minMicros = minTimestamp.UnixMicro()
	maxMicros = maxTimestamp.UnixMicro()
)

// minNanos is the first nanosecond of the range of TIMESTAMP(7) to
// TIMESTAMP(9).
const minNanos = math.MinInt64 / int64(time.Second) * int64(time.Second)

// TimestampRangeText describes the ranges of timestamps Sluice stores.
const TimestampRangeText = "0000-01-01 00:00:00 to 9999-12-31 23:59:59.999999; " +
	"TIMESTAMP(7) to TIMESTAMP(9): 1677-09-21 00:12:44 to 2262-04-11 23:47:16.854775807"

// RangeError reports a timestamp outside the range Sluice stores for its
// precision (TimestampRangeText), or an interval or timestamp arithmetic
// result beyond 64 bits. TRY_CAST does not turn it into NULL.
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

// TimestampUnit returns the nanoseconds in one unit of the int64 that holds
// a timestamp of precision p: 1000 (microseconds) up to precision 6, 1
// above.
func TimestampUnit(p int) int64 {
	if p <= MaxMicrosPrecision {
		return 1000
	}
	return 1
}

// TimestampBounds returns the first and last value of the range of
// timestamps of precision p, in its unit.
func TimestampBounds(p int) (lo, hi int64) {
	if p <= MaxMicrosPrecision {
		return minMicros, maxMicros
	}
	return minNanos, math.MaxInt64
}

// TimestampInRange reports whether i (in the unit of precision p) is in the
// range of timestamps of precision p.
func TimestampInRange(p int, i int64) bool {
	lo, hi := TimestampBounds(p)
	return i >= lo && i <= hi
}

// TimestampTime returns the timestamp i of precision p as a time in UTC.
func TimestampTime(p int, i int64) time.Time {
	if p <= MaxMicrosPrecision {
		return time.UnixMicro(i).UTC()
	}
	return time.Unix(0, i).UTC()
}

// TimestampOf returns t as a timestamp of precision p, its fraction cut to
// p digits toward the past (DateTimeUtils.truncate); false when t is outside
// the range of precision p.
func TimestampOf(p int, t time.Time) (int64, bool) {
	if p <= MaxMicrosPrecision {
		if t.Before(minTimestamp) || t.After(maxTimestamp) {
			return 0, false
		}
		return TruncateTimestamp(p, t.UnixMicro()), true
	}
	if t.Before(minNanosTimestamp) || t.After(maxNanosTimestamp) {
		return 0, false
	}
	return TruncateTimestamp(p, t.UnixNano()), true
}

// TruncateTimestamp drops the fraction digits of i (in the unit of
// precision p) beyond p, rounding toward negative infinity.
func TruncateTimestamp(p int, i int64) int64 {
	if p < 0 || p >= 9 || p == MaxMicrosPrecision {
		return i
	}
	digits := 9 - p
	if p < MaxMicrosPrecision {
		digits = MaxMicrosPrecision - p
	}
	unit := pow10(digits)
	return floorDiv(i, unit) * unit
}

// RescaleTimestamp converts a timestamp of precision from into one of
// precision to, truncated to its digits; false when it is outside the range
// of precision to.
func RescaleTimestamp(from, to int, i int64) (int64, bool) {
	switch uf, ut := TimestampUnit(from), TimestampUnit(to); {
	case uf == ut:
		return TruncateTimestamp(to, i), true
	case uf > ut: // microseconds to nanoseconds
		ns, ok := MultiplyExact(i, uf)
		return ns, ok && ns >= minNanos
	default:
		return TruncateTimestamp(to, floorDiv(i, ut/uf)), true
	}
}

// DaysToTimestamp returns midnight of a DATE (days since the epoch) as a
// timestamp of precision p, false when it is outside the range.
func DaysToTimestamp(p int, days int64) (int64, bool) {
	i, ok := MultiplyExact(days, nanosPerDay/TimestampUnit(p))
	return i, ok && TimestampInRange(p, i)
}

// AddTimestamp returns the timestamp a + b of precision p (b in its unit),
// false when it is outside the range.
func AddTimestamp(p int, a, b int64) (int64, bool) {
	s, ok := AddExact(a, b)
	return s, ok && TimestampInRange(p, s)
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
