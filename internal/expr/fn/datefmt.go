package fn

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// dateFormat is a compiled Java date-time pattern, the kind Flink's
// DATE_FORMAT, FROM_UNIXTIME, UNIX_TIMESTAMP, TO_TIMESTAMP and TO_DATE take
// (java.text.SimpleDateFormat, or java.time.format.DateTimeFormatter, whose
// letters agree for everything supported here).
//
// Supported letters, with English (Locale.US) names:
//
//	G era (AD)          y, Y year            M, L month (MM 01, MMM Jan, MMMM January)
//	d day of month      D day of year        w week of year (weeks start on Sunday)
//	E day name (Mon)    u day of week (1 = Monday)
//	a AM/PM             H hour 0-23          k hour 1-24
//	K hour 0-11         h hour 1-12          m minute
//	s second            S fraction of second (n digits, truncated)
//	z zone name         Z offset +0800       X offset Z, +08, +0800, +08:00
//
// Text in single quotes is literal (two quotes stand for one); other non-letters are
// literal. Any other letter is an error, as in Java.
type dateFormat struct {
	items []fmtItem
}

// fmtItem is one pattern letter run, or literal text when letter is 0.
type fmtItem struct {
	letter byte
	count  int
	lit    string
}

// defaultTimestampFormat is Flink's default 'yyyy-MM-dd HH:mm:ss'.
const defaultTimestampFormat = "yyyy-MM-dd HH:mm:ss"

const patternLetters = "GyYMLdDwEuaHkKhmsSzZX"

// compileDateFormat compiles a Java date-time pattern.
func compileDateFormat(p string) (*dateFormat, error) {
	f := &dateFormat{}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			f.items = append(f.items, fmtItem{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			if i+1 < len(p) && p[i+1] == '\'' {
				lit.WriteByte('\'')
				i += 2
				continue
			}
			i++ // inside quotes, up to the closing quote; '' is a quote
			for {
				if i >= len(p) {
					return nil, fmt.Errorf("unterminated quote in date format %q", p)
				}
				if p[i] == '\'' {
					if i+1 < len(p) && p[i+1] == '\'' {
						lit.WriteByte('\'')
						i += 2
						continue
					}
					i++
					break
				}
				lit.WriteByte(p[i])
				i++
			}
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			if strings.IndexByte(patternLetters, c) < 0 {
				return nil, fmt.Errorf("illegal pattern character '%c' in date format %q", c, p)
			}
			n := 1
			for i+n < len(p) && p[i+n] == c {
				n++
			}
			flush()
			f.items = append(f.items, fmtItem{letter: c, count: n})
			i += n
		default:
			lit.WriteByte(c)
			i++
		}
	}
	flush()
	return f, nil
}

var formatCache = struct {
	sync.Mutex
	m map[string]*dateFormat
}{m: map[string]*dateFormat{}}

// cachedDateFormat compiles p, remembering recent patterns for formats that
// are not constant.
func cachedDateFormat(p string) (*dateFormat, error) {
	formatCache.Lock()
	defer formatCache.Unlock()
	if f, ok := formatCache.m[p]; ok {
		return f, nil
	}
	f, err := compileDateFormat(p)
	if err != nil {
		return nil, err
	}
	if len(formatCache.m) >= 256 {
		clear(formatCache.m)
	}
	formatCache.m[p] = f
	return f, nil
}

// format renders t (already in the wanted location).
func (f *dateFormat) format(t time.Time) string { return string(f.appendFormat(nil, t)) }

// The units a pattern's rendering is constant over (dateFormat.unit).
const (
	unitInstant = iota
	unitSecond
	unitDay
)

// unit returns the unit of time within which every instant renders the
// same: a day of the wall clock for a pattern of date fields only, a
// second for one without fractions of a second (zone offsets are whole
// seconds and change on whole seconds), else only the instant itself.
func (f *dateFormat) unit() int {
	u := unitDay
	for _, it := range f.items {
		switch {
		case it.letter == 'S':
			return unitInstant
		case it.letter != 0 && strings.IndexByte("GyYMLdDwEu", it.letter) < 0:
			u = unitSecond
		}
	}
	return u
}

// appendFormat appends the rendering of t (already in the wanted
// location) to b.
func (f *dateFormat) appendFormat(b []byte, t time.Time) []byte {
	for _, it := range f.items {
		n := it.count
		switch it.letter {
		case 0:
			b = append(b, it.lit...)
		case 'G':
			b = append(b, "AD"...)
		case 'y', 'Y':
			y := t.Year()
			if n == 2 {
				b = appendPad(b, int64(y%100), 2)
			} else {
				b = appendPad(b, int64(y), n)
			}
		case 'M', 'L':
			switch {
			case n >= 4:
				b = append(b, t.Month().String()...)
			case n == 3:
				b = append(b, t.Month().String()[:3]...)
			default:
				b = appendPad(b, int64(t.Month()), n)
			}
		case 'd':
			b = appendPad(b, int64(t.Day()), n)
		case 'D':
			b = appendPad(b, int64(t.YearDay()), n)
		case 'w':
			b = appendPad(b, int64(usWeekOfYear(t)), n)
		case 'E':
			if n >= 4 {
				b = append(b, t.Weekday().String()...)
			} else {
				b = append(b, t.Weekday().String()[:3]...)
			}
		case 'u':
			b = appendPad(b, int64(isoWeekday(t.Weekday())), n)
		case 'a':
			if t.Hour() < 12 {
				b = append(b, "AM"...)
			} else {
				b = append(b, "PM"...)
			}
		case 'H':
			b = appendPad(b, int64(t.Hour()), n)
		case 'k':
			b = appendPad(b, int64((t.Hour()+23)%24+1), n)
		case 'K':
			b = appendPad(b, int64(t.Hour()%12), n)
		case 'h':
			b = appendPad(b, int64((t.Hour()+11)%12+1), n)
		case 'm':
			b = appendPad(b, int64(t.Minute()), n)
		case 's':
			b = appendPad(b, int64(t.Second()), n)
		case 'S':
			frac := fmt.Sprintf("%09d", t.Nanosecond())
			for len(frac) < n {
				frac += "0"
			}
			b = append(b, frac[:n]...)
		case 'z':
			name, _ := t.Zone()
			b = append(b, name...)
		case 'Z':
			b = appendOffset(b, t, false, false)
		case 'X':
			b = appendOffset(b, t, true, n == 3 || n >= 5)
			if n == 1 {
				if _, off := t.Zone(); off != 0 && off%3600 == 0 {
					b = b[:len(b)-2] // X is hours only
				}
			}
		}
	}
	return b
}

func appendPad(b []byte, v int64, width int) []byte {
	var digits [20]byte
	s := strconv.AppendInt(digits[:0], v, 10)
	neg := v < 0
	if neg {
		s = s[1:]
		b = append(b, '-')
	}
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

func appendOffset(b []byte, t time.Time, zulu, colon bool) []byte {
	_, off := t.Zone()
	if off == 0 && zulu {
		return append(b, 'Z')
	}
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	b = append(b, sign)
	b = appendPad(b, int64(off/3600), 2)
	if colon {
		b = append(b, ':')
	}
	return appendPad(b, int64(off%3600/60), 2)
}

// isoWeekday numbers days from Monday = 1 to Sunday = 7.
func isoWeekday(d time.Weekday) int { return (int(d)+6)%7 + 1 }

// usWeekOfYear is the week of year with weeks starting on Sunday and week 1
// the one containing January 1 (java.util.Calendar in Locale.US).
func usWeekOfYear(t time.Time) int {
	jan1 := time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	offset := int(jan1.Weekday()) // days of week 1 before January 1
	w := (t.YearDay()-1+offset)/7 + 1
	if w == 53 {
		// the last days of December belong to week 1 of the next year when
		// that week contains the next January 1
		if next := time.Date(t.Year()+1, 1, 1, 0, 0, 0, 0, time.UTC).Weekday(); next != time.Sunday &&
			t.YearDay()+int(next) > yearDays(t.Year()) {
			return 1
		}
	}
	return w
}

func yearDays(y int) int {
	if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		return 366
	}
	return 365
}

// parseMode selects between SimpleDateFormat's and DateTimeFormatter's
// parsing rules.
type parseMode struct {
	// trailing allows text after the pattern (SimpleDateFormat.parse(String)
	// stops at the end of the pattern); DateTimeFormatter rejects it.
	trailing bool
	// lenient rolls out-of-range days over into the next month
	// (SimpleDateFormat is lenient); otherwise a day past the month's end is
	// clamped to the last day (DateTimeFormatter's SMART resolver).
	lenient bool
}

var (
	simpleDateFormatMode = parseMode{trailing: true, lenient: true}
	dateTimeFormatMode   = parseMode{}
)

// parse reads s with the pattern. Fields the pattern lacks default to
// 1970-01-01 00:00:00; the wall clock is placed in loc unless the text has a
// zone or offset. It reports false when s does not match.
func (f *dateFormat) parse(s string, loc *time.Location, mode parseMode) (time.Time, bool) {
	year, month, day := 1970, 1, 1
	hour, minute, sec, nanos := 0, 0, 0, 0
	pm, hour12 := -1, false
	pos := 0
	for i, it := range f.items {
		if it.letter == 0 {
			if !strings.HasPrefix(s[pos:], it.lit) {
				return time.Time{}, false
			}
			pos += len(it.lit)
			continue
		}
		// A numeric field followed directly by another numeric field takes
		// exactly count digits; otherwise it takes all the digits there are.
		width := 0
		if i+1 < len(f.items) && isNumericItem(f.items[i+1]) {
			width = it.count
		}
		switch it.letter {
		case 'M', 'L':
			if it.count >= 3 {
				m, n := parseName(s[pos:], monthNames[:], it.count == 3)
				if n == 0 {
					return time.Time{}, false
				}
				month, pos = m+1, pos+n
				continue
			}
		case 'E':
			_, n := parseName(s[pos:], dayNames[:], it.count < 4)
			if n == 0 {
				return time.Time{}, false
			}
			pos += n
			continue
		case 'a':
			switch {
			case hasPrefixFold(s[pos:], "AM"):
				pm = 0
			case hasPrefixFold(s[pos:], "PM"):
				pm = 1
			default:
				return time.Time{}, false
			}
			pos += 2
			continue
		case 'G':
			if !hasPrefixFold(s[pos:], "AD") {
				return time.Time{}, false
			}
			pos += 2
			continue
		case 'z', 'Z', 'X':
			z, n := parseZone(s[pos:])
			if n == 0 {
				return time.Time{}, false
			}
			loc, pos = z, pos+n
			continue
		}
		v, digits, n := parseDigits(s[pos:], width)
		if n == 0 {
			return time.Time{}, false
		}
		pos += n
		switch it.letter {
		case 'y', 'Y':
			year = v
			if it.count <= 2 && digits == 2 {
				year = twoDigitYear(v)
			}
		case 'M', 'L':
			month = v
		case 'd':
			day = v
		case 'H', 'k':
			hour = v % 24
		case 'K', 'h':
			hour, hour12 = v%12, true
		case 'm':
			minute = v
		case 's':
			sec = v
		case 'S':
			for ; digits < 9; digits++ {
				v *= 10
			}
			for ; digits > 9; digits-- {
				v /= 10
			}
			nanos = v
		case 'D', 'w', 'u':
			// accepted, but they do not determine the date
		}
	}
	if pos != len(s) && !mode.trailing {
		return time.Time{}, false
	}
	if hour12 && pm == 1 {
		hour += 12
	}
	if !mode.lenient {
		if month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 59 {
			return time.Time{}, false
		}
		day = min(day, daysIn(year, month))
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nanos, loc), true
}

func isNumericItem(it fmtItem) bool {
	switch it.letter {
	case 0, 'G', 'E', 'a', 'z', 'Z', 'X':
		return false
	case 'M', 'L':
		return it.count < 3
	}
	return true
}

// parseDigits reads a run of ASCII digits (exactly width of them when
// width > 0), returning the value, the number of digits and the bytes used.
func parseDigits(s string, width int) (v, digits, n int) {
	sign := 1
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') && width == 0 {
		if s[0] == '-' {
			sign = -1
		}
		n = 1
	}
	for n < len(s) && s[n] >= '0' && s[n] <= '9' && (width == 0 || digits < width) && digits < 18 {
		v = v*10 + int(s[n]-'0')
		n++
		digits++
	}
	if digits == 0 || width > 0 && digits < width {
		return 0, 0, 0
	}
	return sign * v, digits, n
}

// twoDigitYear places a two-digit year within 80 years before and 20 years
// after now, as SimpleDateFormat does.
func twoDigitYear(v int) int {
	now := time.Now().Year()
	y := now/100*100 + v
	switch {
	case y > now+20:
		y -= 100
	case y <= now-80:
		y += 100
	}
	return y
}

var monthNames = [12]string{"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"}

var dayNames = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

// parseName matches a (short or full) English name at the start of s,
// ignoring case, returning its index and length.
func parseName(s string, names []string, short bool) (int, int) {
	for i, name := range names {
		if !short && hasPrefixFold(s, name) {
			return i, len(name)
		}
	}
	for i, name := range names {
		if hasPrefixFold(s, name[:3]) {
			return i, 3
		}
	}
	return 0, 0
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// parseZone reads Z, UTC, GMT or an offset +hh[[:]mm] at the start of s.
func parseZone(s string) (*time.Location, int) {
	for _, name := range []string{"UTC", "GMT", "Z"} {
		if strings.HasPrefix(s, name) && (len(s) == len(name) || s[len(name)] != '+' && s[len(name)] != '-') {
			return time.UTC, len(name)
		}
	}
	n := 0
	if strings.HasPrefix(s, "GMT") || strings.HasPrefix(s, "UTC") {
		n = 3
	}
	if n >= len(s) || s[n] != '+' && s[n] != '-' {
		return nil, 0
	}
	sign := 1
	if s[n] == '-' {
		sign = -1
	}
	n++
	h, _, k := parseDigits(s[n:], 2)
	if k == 0 {
		return nil, 0
	}
	n += k
	m := 0
	if n < len(s) && s[n] == ':' {
		n++
	}
	if mm, _, k := parseDigits(s[n:], 2); k > 0 {
		m, n = mm, n+k
	}
	off := sign * (h*3600 + m*60)
	return time.FixedZone("", off), n
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
