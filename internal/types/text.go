package types

import (
	"encoding/hex"
	"errors"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Text forms of values, after Flink 1.16+ with the new CAST semantics
// (table.exec.legacy-cast-behaviour = DISABLED, the default since 1.15).
//
// The rules follow the planner's *ToStringCastRule classes
// (org.apache.flink.table.planner.functions.casting) and the helpers they
// call in org.apache.flink.table.utils.DateTimeUtils:
//
//   - BooleanToStringCastRule: BinaryStringDataUtil.TRUE_STRING / FALSE_STRING,
//     i.e. "TRUE" / "FALSE" (the legacy behaviour printed "true" / "false").
//   - NumericToStringCastRule: "" + value, i.e. Java's Long.toString,
//     Float.toString, Double.toString and DecimalData.toString
//     (BigDecimal.toPlainString, so always exactly scale fraction digits).
//   - DateToStringCastRule: DateTimeUtils.formatDate, "yyyy-MM-dd".
//   - TimeToStringCastRule: DateTimeUtils.formatTimestampMillis(time, precision).
//   - TimestampToStringCastRule: DateTimeUtils.formatTimestamp(ts, zone,
//     precision), UTC for TIMESTAMP and the session zone for TIMESTAMP_LTZ.
//   - IntervalToStringCastRule: DateTimeUtils.formatIntervalDayTime /
//     formatIntervalYearMonth.
//   - BinaryToStringCastRule: the bytes decoded as UTF-8, or x'<hex>' when
//     the value is printed by the SQL client (CastRule.Context.isPrinting,
//     set by RowDataToStringConverterImpl).

// NullText is what Flink's printers show for NULL (PrintStyle.NULL_VALUE).
const NullText = "<NULL>"

// FormatValue renders v, of type t, the way Flink's CAST(v AS STRING) does.
// loc is the session time zone (table.local-time-zone); it only matters for
// TIMESTAMP_LTZ. A NULL renders as "NULL", as Flink's NullToStringCastRule does
// for the NULL type.
func FormatValue(t Type, v Value, loc *time.Location) string {
	return string(appendValue(nil, t, v, loc, false))
}

// PrintValue renders v the way Flink's SQL client and TableResult.print()
// show it: like FormatValue, except NULL is "<NULL>" and BINARY/VARBINARY are
// shown as x'0a0b' (RowDataToStringConverterImpl with isPrinting set).
func PrintValue(t Type, v Value, loc *time.Location) string {
	if v.Null {
		return NullText
	}
	return string(appendValue(nil, t, v, loc, true))
}

func appendValue(b []byte, t Type, v Value, loc *time.Location, printing bool) []byte {
	if v.Null {
		return append(b, "NULL"...)
	}
	switch t.Kind {
	case Boolean:
		if v.I != 0 {
			return append(b, "TRUE"...)
		}
		return append(b, "FALSE"...)
	case TinyInt, SmallInt, Int, BigInt:
		return strconv.AppendInt(b, v.I, 10)
	case Float:
		return AppendJavaFloat(b, v.F, 32)
	case Double:
		return AppendJavaFloat(b, v.F, 64)
	case Decimal:
		return AppendDecimal(b, DecimalUnscaled(t, v), t.Scale)
	case Char, Varchar:
		return append(b, v.S...)
	case Binary, Varbinary:
		if printing {
			b = append(b, "x'"...)
			b = hex.AppendEncode(b, []byte(v.S))
			return append(b, '\'')
		}
		return appendUTF8(b, v.S)
	case Date:
		return appendDate(b, v.I)
	case Time:
		return appendTime(b, v.I/int64(time.Millisecond), t.Precision)
	case Timestamp:
		return appendTimestamp(b, TimestampTime(t.Precision, v), t.Precision)
	case TimestampLTZ:
		if loc == nil {
			loc = time.UTC
		}
		return appendTimestamp(b, TimestampTime(t.Precision, v).In(loc), t.Precision)
	case IntervalDayTime:
		return appendIntervalDayTime(b, v.I)
	case IntervalYearMonth:
		return appendIntervalYearMonth(b, v.I)
	case Array, Multiset, Map, RowType, Structured:
		return appendComposite(b, t, v.S, loc, printing)
	case Variant:
		// Printed as its JSON text (BinaryVariant.toJson), as Flink's
		// printers do; CAST to a string is castVariant's.
		out, err := appendVariantJSON(b, v.S)
		if err != nil {
			return append(b, "<corrupt VARIANT value>"...)
		}
		return out
	}
	return append(b, "NULL"...)
}

// appendComposite renders a composite value as Flink's casts to STRING do
// (ArrayToStringCastRule, MapAndMultisetToStringCastRule,
// RowToStringCastRule, without legacy behaviour): [a, b], {k=v} (a
// MULTISET as {element=count}), (a, b), a NULL inside as NULL. The SQL
// client prints them the same way, NULL inside included: only a NULL
// column is <NULL> (RowDataToStringConverterImpl).
func appendComposite(b []byte, t Type, s string, loc *time.Location, printing bool) []byte {
	corrupt := func() []byte { return append(b, "<corrupt "+t.String()+" value>"...) }
	item := func(b []byte, t Type, v Value) []byte { return appendValue(b, t, v, loc, printing) }
	switch t.Kind {
	case Array:
		vs, err := DecodeArray(t.Elem(), s)
		if err != nil {
			return corrupt()
		}
		b = append(b, '[')
		for i, v := range vs {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = item(b, t.Elem(), v)
		}
		return append(b, ']')
	case Map, Multiset:
		ks, vs, err := DecodeMap(t, s)
		if err != nil {
			return corrupt()
		}
		b = append(b, '{')
		for i := range ks {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = item(b, t.KeyType(), ks[i])
			b = append(b, '=')
			b = item(b, t.ValueType(), vs[i])
		}
		return append(b, '}')
	}
	vs, err := DecodeRow(t, s)
	if err != nil {
		return corrupt()
	}
	b = append(b, '(')
	for i, f := range t.Fields() {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = item(b, f.Type, vs[i])
	}
	return append(b, ')')
}

// FormatDouble renders f as Java's Double.toString does: the shortest digits
// that round-trip, plain notation for 1e-3 <= |f| < 1e7 (always with a
// fraction digit, "100.0"), otherwise computerized scientific notation
// ("1.0E10", "1.0E-5"); "NaN", "Infinity", "-Infinity", "-0.0".
//
// The digits are those of JDK 19+ (Raffaello Giulietti's algorithm: the
// shortest decimal that rounds back, but at least two digits); older JDKs
// occasionally print one digit more.
func FormatDouble(f float64) string { return string(AppendJavaFloat(nil, f, 64)) }

// FormatFloat renders f as Java's Float.toString does (see FormatDouble).
func FormatFloat(f float32) string { return string(AppendJavaFloat(nil, float64(f), 32)) }

// AppendJavaFloat appends f as FormatDouble renders it, or as FormatFloat
// does when bitSize is 32.
func AppendJavaFloat(b []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	case f == 0:
		if math.Signbit(f) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	// Shortest round-trip digits as d.ddde±x, split into digits and exponent.
	var buf [32]byte
	sci := strconv.AppendFloat(buf[:0], f, 'e', -1, bitSize)
	if len(sci) > 1 && sci[1] == 'e' {
		// Java prints at least two significant digits, choosing the two-digit
		// decimal closest to the value; it differs from d.0 only for
		// subnormals such as Double.MIN_VALUE ("4.9E-324").
		var buf2 [32]byte
		two := strconv.AppendFloat(buf2[:0], f, 'e', 1, bitSize)
		if back, err := strconv.ParseFloat(string(two), bitSize); err == nil && back == f && two[2] != '0' {
			sci = append(buf[:0], two...)
		}
	}
	ePos := strings.IndexByte(string(sci), 'e')
	exp, _ := strconv.Atoi(string(sci[ePos+1:]))
	digits := make([]byte, 0, ePos)
	for _, c := range sci[:ePos] {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	if exp < -3 || exp >= 7 {
		b = append(b, digits[0], '.')
		if len(digits) > 1 {
			b = append(b, digits[1:]...)
		} else {
			b = append(b, '0')
		}
		b = append(b, 'E')
		return strconv.AppendInt(b, int64(exp), 10)
	}
	if exp < 0 {
		b = append(b, "0."...)
		for range -exp - 1 {
			b = append(b, '0')
		}
		return append(b, digits...)
	}
	intLen := exp + 1
	for len(digits) < intLen {
		digits = append(digits, '0')
	}
	b = append(b, digits[:intLen]...)
	b = append(b, '.')
	if len(digits) == intLen {
		return append(b, '0')
	}
	return append(b, digits[intLen:]...)
}

// FormatDecimal renders an unscaled DECIMAL value with exactly scale fraction
// digits, as BigDecimal.toPlainString does ("404.89", "0.50", "-0.05").
func FormatDecimal(unscaled int64, scale int) string {
	return string(AppendDecimal(nil, Int128Of(unscaled), scale))
}

// AppendDecimal appends what FormatDecimal gives for a 128-bit unscaled
// value.
func AppendDecimal(b []byte, unscaled Int128, scale int) []byte {
	var buf [48]byte
	digits := appendInt128(buf[:0], unscaled)
	if digits[0] == '-' {
		b = append(b, '-')
		digits = digits[1:]
	}
	if scale <= 0 {
		return append(b, digits...)
	}
	if len(digits) <= scale {
		b = append(b, "0."...)
		for range scale - len(digits) {
			b = append(b, '0')
		}
		return append(b, digits...)
	}
	point := len(digits) - scale
	b = append(b, digits[:point]...)
	b = append(b, '.')
	return append(b, digits[point:]...)
}

// appendUTF8 appends s with every byte that is not part of valid UTF-8
// replaced by U+FFFD, as new String(bytes, UTF_8) does.
func appendUTF8(b []byte, s string) []byte {
	if utf8.ValidString(s) {
		return append(b, s...)
	}
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		b = utf8.AppendRune(b, r)
		s = s[n:]
	}
	return b
}

// appendPadded appends v (>= 0) with at least width digits.
func appendPadded(b []byte, v int64, width int) []byte {
	var buf [20]byte
	d := strconv.AppendInt(buf[:0], v, 10)
	for i := len(d); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, d...)
}

const (
	nanosPerDay    = int64(24 * time.Hour)
	millisPerDay   = nanosPerDay / int64(time.Millisecond)
	secondsPerDay  = nanosPerDay / int64(time.Second)
	millisPerHour  = int64(time.Hour / time.Millisecond)
	millisPerMin   = int64(time.Minute / time.Millisecond)
	millisPerSec   = int64(time.Second / time.Millisecond)
	nanosPerMillis = int64(time.Millisecond)
)

// appendYMD appends yyyy-MM-dd; years beyond 0..9999 are printed in full.
func appendYMD(b []byte, year int, month time.Month, day int) []byte {
	if year < 0 {
		b = append(b, '-')
		year = -year
	}
	b = appendPadded(b, int64(year), 4)
	b = append(b, '-')
	b = appendPadded(b, int64(month), 2)
	b = append(b, '-')
	return appendPadded(b, int64(day), 2)
}

// appendDate appends a DATE (days since the epoch) as yyyy-MM-dd.
func appendDate(b []byte, days int64) []byte {
	y, m, d := time.Unix(days*secondsPerDay, 0).UTC().Date()
	return appendYMD(b, y, m, d)
}

// appendTime appends a TIME of day given in milliseconds as HH:mm:ss plus,
// for precision > 0, the fraction as DateTimeUtils.formatTimestampMillis
// writes it: at least one digit, at most precision digits, and no trailing
// zeros after the first ("01:02:03.0", "01:02:03.12"). Like Flink it moves
// negative times into the day but prints the last two digits of an hour
// beyond it.
func appendTime(b []byte, ms int64, precision int) []byte {
	for ms < 0 {
		ms += millisPerDay
	}
	b = appendPadded(b, ms/millisPerHour%100, 2)
	b = append(b, ':')
	b = appendPadded(b, ms%millisPerHour/millisPerMin, 2)
	b = append(b, ':')
	b = appendPadded(b, ms%millisPerMin/millisPerSec, 2)
	if precision <= 0 {
		return b
	}
	b = append(b, '.')
	frac := ms % millisPerSec
	for ; precision > 0; precision-- {
		b = append(b, byte('0'+frac/100))
		frac = frac % 100 * 10
		if frac == 0 {
			break
		}
	}
	return b
}

// appendTimestamp appends nanoseconds since the epoch as the wall clock in
// loc, "yyyy-MM-dd HH:mm:ss" plus the nanoseconds with trailing zeros removed
// down to precision digits (DateTimeUtils.formatTimestamp): TIMESTAMP(3)
// always shows three fraction digits, TIMESTAMP(0) none unless non-zero.
func appendTimestamp(b []byte, t time.Time, precision int) []byte {
	b = appendYMD(b, t.Year(), t.Month(), t.Day())
	b = append(b, ' ')
	b = appendPadded(b, int64(t.Hour()), 2)
	b = append(b, ':')
	b = appendPadded(b, int64(t.Minute()), 2)
	b = append(b, ':')
	b = appendPadded(b, int64(t.Second()), 2)
	frac := appendPadded(nil, int64(t.Nanosecond()), 9)
	n := len(frac)
	for n > precision && frac[n-1] == '0' {
		n--
	}
	if n == 0 {
		return b
	}
	b = append(b, '.')
	return append(b, frac[:n]...)
}

// appendIntervalDayTime appends an INTERVAL DAY TO SECOND given in
// milliseconds as DateTimeUtils.formatIntervalDayTime does: "+6 06:00:00.000".
func appendIntervalDayTime(b []byte, ms int64) []byte {
	mag := uint64(ms)
	if ms < 0 {
		b = append(b, '-')
		mag = -mag
	} else {
		b = append(b, '+')
	}
	b = strconv.AppendUint(b, mag/uint64(millisPerDay), 10)
	rest := int64(mag % uint64(millisPerDay))
	b = append(b, ' ')
	b = appendPadded(b, rest/millisPerHour, 2)
	b = append(b, ':')
	b = appendPadded(b, rest%millisPerHour/millisPerMin, 2)
	b = append(b, ':')
	b = appendPadded(b, rest%millisPerMin/millisPerSec, 2)
	b = append(b, '.')
	return appendPadded(b, rest%millisPerSec, 3)
}

// appendIntervalYearMonth appends an INTERVAL YEAR TO MONTH given in months
// as DateTimeUtils.formatIntervalYearMonth does: "+1-02".
func appendIntervalYearMonth(b []byte, months int64) []byte {
	mag := uint64(months)
	if months < 0 {
		b = append(b, '-')
		mag = -mag
	} else {
		b = append(b, '+')
	}
	b = strconv.AppendUint(b, mag/12, 10)
	b = append(b, '-')
	return appendPadded(b, int64(mag%12), 2)
}

// ParseValue converts s to a value of type t the way Flink's CAST(s AS t)
// does for a character string s (the String*CastRule classes and the
// BinaryStringDataUtil / DateTimeUtils parsers they call). loc is the session
// time zone, used for TIMESTAMP_LTZ. Where Flink's CAST fails at run time
// ParseValue returns an error that names the input and the target type.
//
//   - BOOLEAN: 't', 'true', 'y', 'yes', '1' and 'f', 'false', 'n', 'no', '0',
//     in any case (BinaryStringDataUtil.toBoolean).
//   - TINYINT..BIGINT: surrounding spaces dropped, an optional sign, digits,
//     and an optional fraction of digits that is cut off ("1.9" is 1);
//     out-of-range values fail (BinaryStringDataUtil.toLong / toInt).
//   - FLOAT, DOUBLE: Java's Float.parseFloat / Double.parseDouble.
//   - DECIMAL(p, s): an optional sign, digits with at most one point and an
//     optional exponent, rounded HALF_UP to s digits; more than p digits fail.
//   - DATE: 'yyyy-MM-dd' (one-digit month and day allowed, missing parts
//     default to 1, anything after a space ignored), years 0..9999
//     (DateTimeUtils.parseDate).
//   - TIME: 'HH:mm:ss[.fff]' with optional parts, milliseconds rounded from
//     the fourth fraction digit (DateTimeUtils.parseTime).
//   - TIMESTAMP(p), TIMESTAMP_LTZ(p): 'yyyy-MM-dd[ HH:mm:ss[.f...]]' with a
//     space, not 'T', before the time (one-digit fields allowed), the
//     fraction cut to p digits; TIMESTAMP_LTZ reads the wall clock in loc
//     (DateTimeUtils.parseTimestampData).
//   - CHAR(n), VARCHAR(n), BINARY(n), VARBINARY(n): as Cast from STRING.
//
// Strings cannot be converted to intervals; ParseValue reports that.
func ParseValue(t Type, s string, loc *time.Location) (Value, error) {
	switch t.Kind {
	case Boolean:
		if b, ok := parseBool(s); ok {
			return BoolValue(b), nil
		}
		return NullValue, parseError(s, t, "")
	case TinyInt, SmallInt, Int, BigInt:
		lo, hi := integerRange(t.Kind)
		n, reason := parseInteger(s, lo, hi)
		if reason != "" {
			return NullValue, parseError(s, t, reason)
		}
		return IntValue(n), nil
	case Float, Double:
		bits := 64
		if t.Kind == Float {
			bits = 32
		}
		if f, ok := parseJavaFloat(strings.Trim(s, " "), bits); ok {
			return FloatValue(f), nil
		}
		return NullValue, parseError(s, t, "")
	case Decimal:
		v, ok, overflow := parseDecimal(s, t.Precision, t.Scale)
		switch {
		case !ok:
			return NullValue, parseError(s, t, "")
		case overflow:
			return NullValue, parseError(s, t, "overflow")
		}
		return DecimalOf(t, v), nil
	case Date:
		if d, ok := parseDate(s); ok {
			return IntValue(d), nil
		}
		return NullValue, parseError(s, t, "")
	case Time:
		if ms, ok := parseTime(s); ok {
			return IntValue(ms * nanosPerMillis), nil
		}
		return NullValue, parseError(s, t, "")
	case Timestamp, TimestampLTZ:
		wall, ok := parseTimestamp(s)
		if ok && t.Kind == TimestampLTZ {
			if loc == nil {
				loc = time.UTC
			}
			wall = wallToInstant(wall, loc)
		}
		v, inRange := TimestampOf(t.Precision, wall)
		switch {
		case !ok:
			return NullValue, parseError(s, t, "")
		case !inRange:
			return NullValue, &RangeError{What: typeName(t) + " '" + s + "'"}
		}
		return v, nil
	case Char, Varchar:
		return StringValue(fitChars(s, t)), nil
	case Binary, Varbinary:
		return StringValue(fitBytes(s, t)), nil
	}
	return NullValue, errors.New("cannot cast a string to " + typeName(t) + ": not supported")
}

// parseError is the error of a failed string conversion.
func parseError(s string, t Type, reason string) error {
	msg := "cannot cast '" + s + "' to " + typeName(t)
	if reason != "" {
		msg += ": " + reason
	}
	return errors.New(msg)
}

// parseBool follows BinaryStringDataUtil.toBoolean.
func parseBool(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "t", "true", "y", "yes", "1":
		return true, true
	case "f", "false", "n", "no", "0":
		return false, true
	}
	return false, false
}

// parseInteger follows BinaryStringDataUtil.toLong after the cast rule's
// trim of spaces: sign, digits, and a fraction of digits that is dropped.
// The result must lie in [lo, hi].
func parseInteger(s string, lo, hi int64) (int64, string) {
	s = strings.Trim(s, " ")
	if s == "" {
		return 0, "input is empty"
	}
	neg := s[0] == '-'
	if neg || s[0] == '+' {
		s = s[1:]
		if s == "" {
			return 0, "input has only a sign"
		}
	}
	intPart, frac, _ := strings.Cut(s, ".")
	var mag uint64
	for i := 0; i < len(intPart); i++ {
		c := intPart[i]
		if c < '0' || c > '9' {
			return 0, "invalid character found"
		}
		if mag > (math.MaxUint64-9)/10 {
			return 0, "overflow"
		}
		mag = mag*10 + uint64(c-'0')
	}
	for i := 0; i < len(frac); i++ {
		if frac[i] < '0' || frac[i] > '9' {
			return 0, "invalid character found"
		}
	}
	if neg {
		if mag > uint64(-lo) {
			return 0, "overflow"
		}
		return -int64(mag), ""
	}
	if mag > uint64(hi) {
		return 0, "overflow"
	}
	return int64(mag), ""
}

// parseJavaFloat follows Java's Double.parseDouble / Float.parseFloat:
// leading and trailing characters <= ' ' are ignored, an optional type
// suffix (d, D, f, F) is allowed, and so are "NaN" and "[+-]Infinity" and
// hexadecimal floating-point literals.
func parseJavaFloat(s string, bitSize int) (float64, bool) {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 {
		return 0, false
	}
	switch body {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		if s[0] == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if n := len(body); n > 0 && strings.IndexByte("dDfF", body[n-1]) >= 0 {
		body = body[:n-1]
		s = s[:len(s)-1]
	}
	if body == "" || !isJavaFloatLiteral(body) {
		return 0, false
	}
	f, err := ParseFloat(s, bitSize)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

// isJavaFloatLiteral reports whether s (without sign or suffix) is a decimal
// or hexadecimal floating-point literal Java accepts.
func isJavaFloatLiteral(s string) bool {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		mant, exp, ok := strings.Cut(s[2:], "p")
		if !ok {
			mant, exp, ok = strings.Cut(s[2:], "P")
		}
		return ok && digitsWithPoint(mant, true) && signedDigits(exp)
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	return digitsWithPoint(mant, false) && (!hasExp || signedDigits(exp))
}

// digitsWithPoint reports whether s is digits with at most one point and at
// least one digit.
func digitsWithPoint(s string, hexDigits bool) bool {
	digits, points := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9',
			hexDigits && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'):
			digits++
		case c == '.':
			points++
		default:
			return false
		}
	}
	return digits > 0 && points <= 1
}

// signedDigits reports whether s is an optionally signed run of digits.
func signedDigits(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// parseDecimal parses a decimal literal into an unscaled value with the
// given scale (precision at most 38), rounding HALF_UP, following
// BinaryStringDataUtil.toDecimal: spaces, tabs and newlines around the
// number are ignored. ok is false for a malformed literal; overflow is set
// when the rounded value needs more than precision digits.
func parseDecimal(s string, precision, scale int) (unscaled Int128, ok, overflow bool) {
	s = strings.Trim(s, " \t\n")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	mant, expText, hasExp := strings.Cut(strings.ToLower(s), "e")
	if !digitsWithPoint(mant, false) || hasExp && !signedDigits(expText) {
		return Int128{}, false, false
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return Int128{}, true, false
	}
	exp := 0
	if hasExp {
		// Exponents this large only matter for their sign.
		e, err := strconv.Atoi(expText)
		if err != nil || e > 1000 || e < -1000 {
			if expText[0] == '-' {
				return Int128{}, true, false
			}
			return Int128{}, true, true
		}
		exp = e
	}
	// value * 10^scale == digits * 10^shift
	shift := exp - len(frac) + scale
	if shift >= 0 {
		if len(digits)+shift > precision {
			return Int128{}, true, true
		}
		v := DecimalDigits(digits + strings.Repeat("0", shift))
		return signed(v, neg), true, false
	}
	drop := -shift
	if drop > len(digits) {
		return Int128{}, true, false
	}
	keep := len(digits) - drop
	if keep > precision {
		return Int128{}, true, true
	}
	v := DecimalDigits(digits[:keep])
	if digits[keep] >= '5' {
		v, _ = v.Add(Int128Of(1))
	}
	return signed(v, neg), true, !v.FitsDigits(precision)
}

// DecimalDigits converts a run of at most 38 ASCII digits.
func DecimalDigits(digits string) Int128 {
	if len(digits) <= 18 {
		var v int64
		for i := 0; i < len(digits); i++ {
			v = v*10 + int64(digits[i]-'0')
		}
		return Int128Of(v)
	}
	var hi, lo uint64
	for i := 0; i < len(digits); i++ {
		h, l := bits.Mul64(lo, 10)
		hi = hi*10 + h
		var c uint64
		lo, c = bits.Add64(l, uint64(digits[i]-'0'), 0)
		hi += c
	}
	return Int128{Hi: int64(hi), Lo: lo}
}

func signed(v Int128, neg bool) Int128 {
	if neg {
		return v.Neg()
	}
	return v
}

// digitCount returns the number of decimal digits of |v|.
func digitCount(v int64) int {
	mag := uint64(v)
	if v < 0 {
		mag = -mag
	}
	n := 1
	for mag >= 10 {
		mag /= 10
		n++
	}
	return n
}

// javaTrim is Java's String.trim: drops leading and trailing chars <= ' '.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// isDigits reports whether s is a non-empty run of ASCII digits
// (DateTimeUtils.isInteger).
func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// atoiField parses a trimmed run of digits as DateTimeUtils does with
// isInteger and Integer.parseInt.
func atoiField(s string) (int, bool) {
	s = javaTrim(s)
	if !isDigits(s) {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n <= math.MaxInt32
}

// parseDate follows DateTimeUtils.parseDate and returns days since the epoch.
func parseDate(s string) (int64, bool) {
	if sp := strings.IndexByte(s, ' '); sp > 0 {
		s = s[:sp]
	}
	parts := strings.SplitN(s, "-", 3)
	ymd := [3]int{0, 1, 1}
	for i, p := range parts {
		n, ok := atoiField(p)
		if !ok {
			return 0, false
		}
		ymd[i] = n
	}
	y, m, d := ymd[0], ymd[1], ymd[2]
	if !validDate(y, m, d) {
		return 0, false
	}
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / secondsPerDay, true
}

// validDate is DateTimeUtils.isIllegalDate, which despite its name reports
// whether the date is valid.
func validDate(y, m, d int) bool {
	if y < 0 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return false
	}
	return d <= time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// parseTime follows DateTimeUtils.parseTime and returns milliseconds of the
// day. Like Flink it accepts a trailing zone offset ("10:00:00+01:00" is
// 11:00) and does not range-check the fields.
func parseTime(v string) (int64, bool) {
	end := len(v)
	sign := -1
	zone := strings.IndexByte(v, '-')
	if zone < 0 {
		zone = strings.IndexByte(v, '+')
		sign = 1
	}
	var zoneHour, zoneMinute int
	if zone >= 0 {
		end = zone
		var ok bool
		zh, zm, hasMinute := strings.Cut(v[zone+1:], ":")
		if zoneHour, ok = atoiField(zh); !ok {
			return 0, false
		}
		if hasMinute {
			if zoneMinute, ok = atoiField(zm); !ok {
				return 0, false
			}
		}
	}
	fields := strings.SplitN(v[:end], ":", 3)
	var hms [3]int
	milli := 0
	for i, f := range fields {
		if i == 2 {
			if sec, frac, ok := strings.Cut(f, "."); ok {
				f = sec
				milli = parseFraction(javaTrim(frac))
			}
		}
		n, ok := atoiField(f)
		if !ok {
			return 0, false
		}
		hms[i] = n
	}
	hour := hms[0] + sign*zoneHour
	minute := hms[1] + sign*zoneMinute
	return int64(hour)*millisPerHour + int64(minute)*millisPerMin + int64(hms[2])*millisPerSec + int64(milli), true
}

// parseFraction reads up to three fraction digits as milliseconds, rounding
// up when the fourth digit is 5 or more (DateTimeUtils.parseFraction);
// non-digits count as 0.
func parseFraction(v string) int {
	r := 0
	multiplier := 100
	for i := 0; i < len(v); i++ {
		x := 0
		if c := v[i]; c >= '0' && c <= '9' {
			x = int(c - '0')
		}
		r += multiplier * x
		if multiplier < 10 {
			if i+1 < len(v) && v[i+1] >= '5' {
				r++
			}
			break
		}
		multiplier /= 10
	}
	return r
}

// parseTimestamp follows DateTimeUtils.parseTimestampData: the pattern
// "yyyy-[MM][M]-[dd][d][ [HH][H]:[mm][m]:[ss][s][.fffffffff]]", nanoseconds
// cut to precision digits by the caller. It returns the wall clock as a
// time in UTC.
func parseTimestamp(s string) (wall time.Time, ok bool) {
	date, clock, hasClock := strings.Cut(s, " ")
	ymd := strings.Split(date, "-")
	if len(ymd) != 3 || len(ymd[0]) < 4 || !isDigits(ymd[0]) {
		return time.Time{}, false
	}
	y, _ := strconv.Atoi(ymd[0])
	m, okM := shortField(ymd[1])
	d, okD := shortField(ymd[2])
	if !okM || !okD || !validDate(y, m, d) {
		return time.Time{}, false
	}
	var hh, mm, ss, nanos int
	if hasClock {
		sec, frac, hasFrac := strings.Cut(clock, ".")
		hms := strings.Split(sec, ":")
		if len(hms) != 3 {
			return time.Time{}, false
		}
		var ok [3]bool
		hh, ok[0] = shortField(hms[0])
		mm, ok[1] = shortField(hms[1])
		ss, ok[2] = shortField(hms[2])
		if !ok[0] || !ok[1] || !ok[2] || hh > 23 || mm > 59 || ss > 59 {
			return time.Time{}, false
		}
		if hasFrac {
			if len(frac) > 9 || !isDigits(frac) && frac != "" {
				return time.Time{}, false
			}
			nanos, _ = strconv.Atoi((frac + "000000000")[:9])
		}
	}
	return time.Date(y, time.Month(m), d, hh, mm, ss, nanos, time.UTC), true
}

// shortField parses a one- or two-digit field, Java's "[MM][M]" pattern.
func shortField(s string) (int, bool) {
	if len(s) < 1 || len(s) > 2 || !isDigits(s) {
		return 0, false
	}
	n, _ := strconv.Atoi(s)
	return n, true
}

// integerRange returns the range of an integer type.
func integerRange(k Kind) (lo, hi int64) {
	switch k {
	case TinyInt:
		return math.MinInt8, math.MaxInt8
	case SmallInt:
		return math.MinInt16, math.MaxInt16
	case Int:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// fitChars makes s fit CHAR(n) or VARCHAR(n) as Flink's casts do since 1.16
// (CharVarCharTrimPadCastRule): longer strings are cut to n characters and
// CHAR values are padded with spaces to n. Lengths count UTF-16 units, as
// Java's String.length does.
func fitChars(s string, t Type) string {
	n := t.Length
	if t.Kind == Varchar && n == MaxVarcharLength {
		return s
	}
	units := 0
	for i, r := range s {
		u := 1
		if r >= 0x10000 {
			u = 2
		}
		if units+u > n {
			return s[:i]
		}
		units += u
	}
	if t.Kind == Char && units < n {
		return s + strings.Repeat(" ", n-units)
	}
	return s
}

// fitBytes makes s fit BINARY(n) or VARBINARY(n) as Flink's casts do since
// 1.16: longer values are cut to n bytes and BINARY values are padded with
// zero bytes to n.
func fitBytes(s string, t Type) string {
	n := t.Length
	if len(s) > n {
		return s[:n]
	}
	if t.Kind == Binary && len(s) < n {
		return s + strings.Repeat("\x00", n-len(s))
	}
	return s
}
