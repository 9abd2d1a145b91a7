package format

import (
	"errors"
	"strconv"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// Date and time text in the shapes of Flink's TimeFormats
// (org.apache.flink.formats.common.TimeFormats) and java.time's
// ISO_LOCAL_DATE / ISO_LOCAL_TIME, which its formatters are built from.

const (
	nanosPerSecond = int64(time.Second)
	nanosPerMilli  = int64(time.Millisecond)
	secondsPerDay  = 86400
)

// floorDiv returns a/b rounded towards negative infinity and a-b*q.
func floorDiv(a, b int64) (q, r int64) {
	q, r = a/b, a%b
	if r < 0 {
		q--
		r += b
	}
	return q, r
}

// appendYear appends a year as ISO_LOCAL_DATE does: four digits, a sign
// when negative or wider than four digits.
func appendYear(dst []byte, y int) []byte {
	switch {
	case y > 9999:
		dst = append(dst, '+')
	case y < 0:
		dst = append(dst, '-')
		y = -y
	}
	if y < 1000 {
		dst = append(dst, "000"[:4-digitCount(y)]...)
	}
	return strconv.AppendInt(dst, int64(y), 10)
}

func digitCount(y int) int {
	n := 1
	for ; y >= 10; y /= 10 {
		n++
	}
	return n
}

func append2(dst []byte, v int) []byte {
	return append(dst, byte('0'+v/10), byte('0'+v%10))
}

// daysFromCivil returns the days from 1970-01-01 to y-m-d in the proleptic
// Gregorian calendar (Howard Hinnant's days_from_civil).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era, yoe := floorDiv(y, 400)
	doy := (153*((m+9)%12)+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(days int64) (y, m, d int64) {
	era, doe := floorDiv(days+719468, 146097)
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// daysIn returns the number of days in month m of year y.
func daysIn(y, m int64) int64 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// appendDate appends the date days after 1970-01-01 as yyyy-MM-dd.
func appendDate(dst []byte, days int64) []byte {
	y, m, d := civilFromDays(days)
	dst = appendYear(dst, int(y))
	dst = append(dst, '-')
	dst = append2(dst, int(m))
	dst = append(dst, '-')
	return append2(dst, int(d))
}

// appendClock appends HH:mm:ss for a second of the day, then the nanosecond
// fraction with as many digits as needed (none when zero), as
// appendFraction(NANO_OF_SECOND, 0, 9, true) does.
func appendClock(dst []byte, secOfDay, nanos int64) []byte {
	dst = append2(dst, int(secOfDay/3600))
	dst = append(dst, ':')
	dst = append2(dst, int(secOfDay/60%60))
	dst = append(dst, ':')
	dst = append2(dst, int(secOfDay%60))
	if nanos == 0 {
		return dst
	}
	var frac [9]byte
	for i := 8; i >= 0; i-- {
		frac[i] = byte('0' + nanos%10)
		nanos /= 10
	}
	n := 9
	for frac[n-1] == '0' {
		n--
	}
	dst = append(dst, '.')
	return append(dst, frac[:n]...)
}

// appendTimestamp appends the TIMESTAMP(p) v (read as UTC wall-clock time)
// as date, sep, clock and fraction.
func appendTimestamp(dst []byte, p int, v types.Value, sep byte) []byte {
	us, sub := types.TimestampParts(p, v)
	secs, frac := floorDiv(us, 1_000_000)
	ns := frac*1000 + sub
	days, sod := floorDiv(secs, secondsPerDay)
	dst = appendDate(dst, days)
	dst = append(dst, sep)
	return appendClock(dst, sod, ns)
}

var errTemporal = errors.New("invalid date or time")

// textCursor walks a date/time string.
type textCursor struct {
	s   string
	pos int
}

func (c *textCursor) lit(b byte) bool {
	if c.pos < len(c.s) && c.s[c.pos] == b {
		c.pos++
		return true
	}
	return false
}

// digits reads exactly n digits.
func (c *textCursor) digits(n int) (int, bool) {
	if c.pos+n > len(c.s) {
		return 0, false
	}
	v := 0
	for _, ch := range []byte(c.s[c.pos : c.pos+n]) {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		v = v*10 + int(ch-'0')
	}
	c.pos += n
	return v, true
}

// year reads an ISO_LOCAL_DATE year: four digits, or a sign and 4 to 9
// digits.
func (c *textCursor) year() (int, bool) {
	neg := false
	signed := c.pos < len(c.s) && (c.s[c.pos] == '+' || c.s[c.pos] == '-')
	if signed {
		neg = c.s[c.pos] == '-'
		c.pos++
	}
	start := c.pos
	for c.pos < len(c.s) && c.pos-start < 9 && c.s[c.pos] >= '0' && c.s[c.pos] <= '9' {
		c.pos++
	}
	n := c.pos - start
	if n < 4 || n > 4 && !signed {
		return 0, false
	}
	y, _ := strconv.Atoi(c.s[start:c.pos])
	if neg {
		y = -y
	}
	return y, true
}

// date reads yyyy-MM-dd. With smart set, a day of month past the end of the
// month (up to 31) is moved to the month's last day, as java.time's SMART
// resolver does; otherwise it is an error (STRICT).
func (c *textCursor) date(smart bool) (int64, bool) {
	y, ok := c.year()
	if !ok || !c.lit('-') {
		return 0, false
	}
	m, ok := c.digits(2)
	if !ok || m < 1 || m > 12 || !c.lit('-') {
		return 0, false
	}
	d, ok := c.digits(2)
	if !ok || d < 1 || d > 31 {
		return 0, false
	}
	if last := int(daysIn(int64(y), int64(m))); d > last {
		if !smart {
			return 0, false
		}
		d = last
	}
	return daysFromCivil(int64(y), int64(m), int64(d)), true
}

// clock reads HH:mm, then :ss (optional when optSeconds), then an optional
// fraction of up to nine digits. It returns the second of day and the
// nanoseconds; hour 24 is returned as is for the caller to resolve.
func (c *textCursor) clock(optSeconds bool) (sod, nanos int64, ok bool) {
	h, ok := c.digits(2)
	if !ok || h > 24 || !c.lit(':') {
		return 0, 0, false
	}
	mi, ok := c.digits(2)
	if !ok || mi > 59 {
		return 0, 0, false
	}
	sec := 0
	if c.lit(':') {
		if sec, ok = c.digits(2); !ok || sec > 59 {
			return 0, 0, false
		}
		if c.lit('.') {
			scale := int64(100_000_000)
			for i := 0; i < 9 && c.pos < len(c.s) && c.s[c.pos] >= '0' && c.s[c.pos] <= '9'; i++ {
				nanos += int64(c.s[c.pos]-'0') * scale
				scale /= 10
				c.pos++
			}
		}
	} else if !optSeconds {
		return 0, 0, false
	}
	return int64(h*3600 + mi*60 + sec), nanos, true
}

// parseSQLTime parses SQL_TIME_FORMAT text (HH:mm:ss with an optional
// fraction) and returns the nanosecond of the day.
func parseSQLTime(s string) (int64, error) {
	c := textCursor{s: s}
	sod, nanos, ok := c.clock(false)
	if !ok || c.pos != len(s) || sod >= secondsPerDay {
		return 0, errTemporal
	}
	return sod*nanosPerSecond + nanos, nil
}

// parseLocalDate parses ISO_LOCAL_DATE text strictly into days since epoch.
func parseLocalDate(s string) (int64, error) {
	c := textCursor{s: s}
	days, ok := c.date(false)
	if !ok || c.pos != len(s) {
		return 0, errTemporal
	}
	return days, nil
}

// parseTimestamp parses a timestamp into a TIMESTAMP(p) (its unit since
// the epoch, the fraction beyond it cut toward the past). iso
// selects ISO-8601 (date 'T' ISO_LOCAL_TIME, strict) over SQL (date ' '
// HH:mm:ss, SMART resolution: month-end clamping and 24:00:00 as the next
// midnight); zulu requires a trailing 'Z' (the TIMESTAMP_LTZ formats).
func parseTimestamp(s string, p int, iso, zulu bool) (types.Value, error) {
	c := textCursor{s: s}
	days, ok := c.date(!iso)
	if !ok {
		return types.NullValue, errTemporal
	}
	sep := byte(' ')
	if iso {
		sep = 'T'
	}
	if !c.lit(sep) {
		return types.NullValue, errTemporal
	}
	sod, nanos, ok := c.clock(iso)
	if !ok || zulu && !c.lit('Z') || c.pos != len(s) {
		return types.NullValue, errTemporal
	}
	if sod >= secondsPerDay && (iso || sod != secondsPerDay || nanos != 0) {
		return types.NullValue, errTemporal
	}
	us, ok := types.MultiplyExact(days*secondsPerDay+sod, 1_000_000)
	var v types.Value
	if ok {
		v, ok = types.TimestampFromParts(p, us, nanos)
	}
	if !ok {
		return types.NullValue, &types.RangeError{What: strconv.Quote(s)}
	}
	return v, nil
}
