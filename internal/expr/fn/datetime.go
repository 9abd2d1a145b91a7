package fn

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// Time functions, after Flink's "Temporal Functions" documentation and
// org.apache.flink.table.utils.DateTimeUtils. TIMESTAMP values are wall
// clocks (read as UTC); TIMESTAMP_LTZ values are instants, read in the
// session time zone (Context.Loc) wherever Flink does.
//
// Sluice stores timestamps as int64 microseconds up to precision 6 and as
// microseconds plus nanoseconds in the string slot above (see
// types.TimestampParts): a result outside the range is an error that says
// so (types.RangeError), never a wrapped value; where Flink itself gives
// NULL (text that does not parse, epoch values beyond
// 0000-01-01..9999-12-31) so does Sluice.

// Flink's range of epoch milliseconds and seconds (DateTimeUtils
// MIN_EPOCH_MILLS, MAX_EPOCH_MILLS, MIN_EPOCH_SECONDS, MAX_EPOCH_SECONDS):
// 0000-01-01 00:00:00 to 9999-12-31 23:59:59.999 UTC.
const (
	flinkMinEpochMillis  = -62167219200000
	flinkMaxEpochMillis  = 253402300799999
	flinkMinEpochSeconds = -62167219200
	flinkMaxEpochSeconds = 253402300799
)

// rangeError reports that function name's result, described by what, is
// outside the range of timestamps Sluice stores.
func rangeError(name, what string) error {
	return fmt.Errorf("%s: %w", name, &types.RangeError{What: what})
}

// wallClock returns the UTC time whose fields are the wall clock of a
// TIMESTAMP(p) value.
func wallClock(p int, v types.Value) time.Time { return types.TimestampTime(p, v) }

// wallUTC is the time in UTC whose fields are the wall clock of t.
func wallUTC(t time.Time) time.Time {
	_, off := t.Zone()
	return t.UTC().Add(time.Duration(off) * time.Second)
}

// wallToInstant reads the wall clock of a TIMESTAMP(p) in loc (TIMESTAMP to
// TIMESTAMP_LTZ(p)). In a daylight-saving gap the clock moves forward, as
// java.time does. ok is false when the instant is outside the range of
// timestamps.
func wallToInstant(p int, v types.Value, loc *time.Location) (types.Value, bool) {
	w := wallClock(p, v)
	return types.TimestampOf(p, time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), loc))
}

// timeReader returns how to read a DATE, TIMESTAMP or TIMESTAMP_LTZ value as
// a time.Time whose fields are the SQL wall clock (LTZ in the session zone).
func timeReader(t types.Type) func(*Context, types.Value) time.Time {
	switch t.Kind {
	case types.Date:
		return func(_ *Context, v types.Value) time.Time { return time.Unix(v.I*86400, 0).UTC() }
	case types.TimestampLTZ:
		return func(ctx *Context, v types.Value) time.Time {
			return types.TimestampTime(t.Precision, v).In(ctx.loc())
		}
	}
	return func(_ *Context, v types.Value) time.Time { return wallClock(t.Precision, v) }
}

// epochDays is the DATE of a wall clock.
func epochDays(t time.Time) int64 {
	return floorDiv(wallSeconds(t), 86400)
}

// wallSeconds is the wall clock of t as seconds since 1970-01-01T00:00 read
// as UTC, for any year.
func wallSeconds(t time.Time) int64 {
	_, off := t.Zone()
	return t.Unix() + int64(off)
}

// addMonths adds calendar months to the wall clock of a TIMESTAMP(p),
// clamping the day to the end of the month (Calcite's
// DateTimeUtils.addMonths); false when the result is outside the range of
// timestamps.
func addMonths(p int, v types.Value, months int64) (types.Value, bool) {
	const perDay = nanosPerDay / 1000
	us, ns := types.TimestampParts(p, v)
	day, ok := types.MultiplyExact(addMonthsDays(floorDiv(us, perDay), months), perDay)
	if !ok {
		return types.NullValue, false
	}
	return types.TimestampFromParts(p, day+floorMod(us, perDay), ns)
}

// addMonthsDays adds calendar months to a DATE.
func addMonthsDays(days, months int64) int64 {
	t := time.Unix(days*86400, 0).UTC()
	m := int64(t.Year())*12 + int64(t.Month()) - 1 + months
	y, mo := int(floorDiv(m, 12)), int(floorMod(m, 12))+1
	d := min(t.Day(), daysIn(y, mo))
	return time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// addDateMonths is addMonthsDays within the range of dates: false when
// the result is not between 0000-01-01 and 9999-12-31.
func addDateMonths(days, months int64) (int64, bool) {
	const span = 12 * 10000 // more months than the range holds
	if months > span || months < -span {
		return 0, false
	}
	r := addMonthsDays(days, months)
	return r, types.DateInRange(r)
}

// diffMonths is the number of whole months from t1 to t0 (microseconds;
// negative when t0 is earlier), as Calcite's DateTimeUtils.subtractMonths:
// a month is complete once the same day (clamped to the month's end) and
// time are reached.
func diffMonths(t0, t1 int64) int64 {
	if t0 < t1 {
		return -diffMonths(t1, t0)
	}
	a, b := wallClock(6, types.IntValue(t0)), wallClock(6, types.IntValue(t1))
	m := int64(a.Year()-b.Year())*12 + int64(a.Month()-b.Month())
	if r, ok := addMonths(6, types.IntValue(t1), m); m > 0 && (!ok || r.I > t0) {
		m--
	}
	return m
}

// unitNanos is the length of the fixed-length time units.
var unitNanos = map[string]int64{
	"NANOSECOND":  1,
	"MICROSECOND": 1_000,
	"MILLISECOND": nanosPerMilli,
	"SECOND":      nanosPerSecond,
	"MINUTE":      60 * nanosPerSecond,
	"HOUR":        3600 * nanosPerSecond,
	"DAY":         nanosPerDay,
	"WEEK":        7 * nanosPerDay,
}

// unitMonths is the length of the calendar units.
var unitMonths = map[string]int64{"MONTH": 1, "QUARTER": 3, "YEAR": 12}

func init() {
	register(bindFromUnixtime, "FROM_UNIXTIME")
	registerDynamic(bindUnixTimestamp, "UNIX_TIMESTAMP")
	register(bindToTimestamp, "TO_TIMESTAMP")
	register(bindToTimestampLTZ, "TO_TIMESTAMP_LTZ")
	register(bindToDate, "TO_DATE")
	register(bindDateFormat, "DATE_FORMAT")
	register(bindTimestampDiff, "TIMESTAMPDIFF")
	register(bindTimestampAdd, "TIMESTAMPADD")
	register(bindExtract, "EXTRACT")
	for name, unit := range extractShorthands {
		register(bindExtractShorthand(name, unit), name)
	}
	for name, f := range nowFuncs {
		registerDynamic(nowFunc(name, f.t, f.read), name)
	}
}

// asMicros maps a DATE, TIMESTAMP or TIMESTAMP_LTZ value to microseconds
// since the epoch (toward the past): the wall clock for DATE and TIMESTAMP;
// the instant for TIMESTAMP_LTZ.
func asMicros(t types.Type) func(types.Value) int64 {
	switch {
	case t.Kind == types.Date:
		return func(v types.Value) int64 { return v.I * (nanosPerDay / 1000) }
	case t.IsNanoTimestamp():
		return func(v types.Value) int64 { us, _ := types.TimestampParts(t.Precision, v); return us }
	}
	return func(v types.Value) int64 { return v.I }
}

// formatArg returns the date format given as argument i, compiled once when
// it is a constant.
func formatArg(args []Arg, i int) (func(types.Value) (*dateFormat, error), error) {
	if i >= len(args) {
		f, err := compileDateFormat(defaultTimestampFormat)
		return func(types.Value) (*dateFormat, error) { return f, nil }, err
	}
	if s, ok := constString(args[i]); ok {
		f, err := compileDateFormat(s)
		return func(types.Value) (*dateFormat, error) { return f, nil }, err
	}
	return func(v types.Value) (*dateFormat, error) { return cachedDateFormat(v.S) }, nil
}

// FROM_UNIXTIME(numeric[, format]): "Returns a representation of the numeric
// argument as a value in string format (default is 'yyyy-MM-dd HH:mm:ss').
// numeric is an internal timestamp value representing seconds since
// '1970-01-01 00:00:00' UTC ... E.g., FROM_UNIXTIME(44) returns
// '1970-01-01 00:00:44' if in UTC time zone". The time zone is the session's
// (DateTimeUtils.formatUnixTimestamp); DOUBLE and DECIMAL seconds truncate.
func bindFromUnixtime(args []Arg) (types.Type, Eval, error) {
	if !match(args, numeric) && !match(args, numeric, str) {
		return types.Type{}, nil, sigError("FROM_UNIXTIME", "(NUMERIC [, STRING format])", args)
	}
	format, err := formatArg(args, 1)
	if err != nil {
		return types.Type{}, nil, err
	}
	secs := truncToInt(args[0].Type)
	// nullable whatever the arguments, as Flink types it
	// (VARCHAR_FORCE_NULLABLE in FlinkSqlOperatorTable)
	return types.StringType, strict(func(ctx *Context, v []types.Value) (types.Value, error) {
		f, err := format(argOr(v, 1))
		if err != nil {
			return types.Value{}, runtimeError("FROM_UNIXTIME", "%v", err)
		}
		return types.StringValue(f.format(time.Unix(secs(v[0]), 0).In(ctx.loc()))), nil
	}), nil
}

// argOr returns v[i] or a zero value when the call has fewer arguments.
func argOr(v []types.Value, i int) types.Value {
	if i < len(v) {
		return v[i]
	}
	return types.Value{}
}

// truncToInt converts a numeric value to int64, truncating toward zero as
// Java's (long) cast does (saturating for doubles).
func truncToInt(t types.Type) func(types.Value) int64 {
	switch t.Kind {
	case types.Float, types.Double:
		return func(v types.Value) int64 { return types.JavaDoubleToLong(v.F) }
	case types.Decimal:
		if t.IsWideDecimal() {
			return func(v types.Value) int64 {
				q, _ := types.DecimalUnscaled(t, v).QuoRem10(t.Scale)
				return int64(q.Lo) // BigDecimal.longValue: the low 64 bits
			}
		}
		p := pow10[t.Scale]
		return func(v types.Value) int64 { return v.I / p }
	}
	return func(v types.Value) int64 { return v.I }
}

// UNIX_TIMESTAMP() is the current time in seconds. UNIX_TIMESTAMP(string[,
// format]) parses string (default format 'yyyy-MM-dd HH:mm:ss') in the
// session time zone with SimpleDateFormat's rules and returns seconds; a
// string that does not parse yields Long.MIN_VALUE (-9223372036854775808),
// as DateTimeUtils.unixTimestamp does.
func bindUnixTimestamp(args []Arg) (types.Type, Eval, error) {
	if len(args) == 0 {
		return types.BigIntType.WithNotNull(true), func(ctx *Context, _ []types.Value) (types.Value, error) {
			return types.IntValue(ctx.now().Unix()), nil
		}, nil
	}
	if !match(args, str) && !match(args, str, str) {
		return types.Type{}, nil, sigError("UNIX_TIMESTAMP", "() or (STRING [, STRING format])", args)
	}
	format, err := formatArg(args, 1)
	if err != nil {
		return types.Type{}, nil, err
	}
	return strictType(types.BigIntType, args), strict(func(ctx *Context, v []types.Value) (types.Value, error) {
		f, err := format(argOr(v, 1))
		if err != nil {
			return types.Value{}, runtimeError("UNIX_TIMESTAMP", "%v", err)
		}
		t, ok := f.parse(v[0].S, ctx.loc(), simpleDateFormatMode)
		if !ok {
			return types.IntValue(math.MinInt64), nil
		}
		return types.IntValue(t.UnixMilli() / 1000), nil
	}), nil
}

// TO_TIMESTAMP(string[, format]) → TIMESTAMP(3): "Converts date time string
// string1 with format string2 (by default: 'yyyy-MM-dd HH:mm:ss') to a
// timestamp, without time zone." Without a format the text is read like
// DateTimeUtils' default formatter (yyyy-M-d[ H:m:s[.fraction]]); with one,
// like DateTimeFormatter, falling back to the default reading; text that
// does not parse yields NULL.
func bindToTimestamp(args []Arg) (types.Type, Eval, error) {
	if !match(args, str) && !match(args, str, str) {
		return types.Type{}, nil, sigError("TO_TIMESTAMP", "(STRING [, STRING format])", args)
	}
	parse, err := timestampParser("TO_TIMESTAMP", args)
	if err != nil {
		return types.Type{}, nil, err
	}
	return types.TimestampType(3), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		ts, ok, err := parse(v)
		if !ok || err != nil {
			return types.NullValue, err
		}
		return types.IntValue(ts), nil
	}), nil
}

// timestampParser reads args[0] as TO_TIMESTAMP does, with the format
// args[1] when given, into the wall clock as a TIMESTAMP(3); ok is false
// for text that does not parse.
func timestampParser(name string, args []Arg) (func(v []types.Value) (ts int64, ok bool, err error), error) {
	var format func(types.Value) (*dateFormat, error)
	if len(args) >= 2 {
		var err error
		if format, err = formatArg(args, 1); err != nil {
			return nil, err
		}
	}
	return func(v []types.Value) (int64, bool, error) {
		var t time.Time
		ok := false
		if format != nil {
			f, err := format(v[1])
			if err != nil {
				return 0, false, runtimeError(name, "%v", err)
			}
			t, ok = f.parse(v[0].S, time.UTC, dateTimeFormatMode)
		}
		if !ok {
			text := v[0].S
			if format != nil {
				text = strings.TrimSpace(text) // the fallback trims, as Flink's does
			}
			t, ok = parseDefaultTimestamp(text)
		}
		if !ok {
			return 0, false, nil
		}
		ts, inRange := types.TimestampOf(3, wallUTC(t))
		if !inRange {
			return 0, false, rangeError(name, "'"+v[0].S+"'")
		}
		return ts.I, true, nil
	}, nil
}

// parseDefaultTimestamp reads yyyy-M-d[ H:m:s[.fraction]] (one or two digits
// for every field but the year, up to nine fraction digits).
func parseDefaultTimestamp(s string) (time.Time, bool) {
	var f [6]int
	seps := "-- ::"
	pos := 0
	n := 3
	if len(s) > 10 || strings.IndexByte(s, ' ') >= 0 {
		n = 6
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			if pos >= len(s) || s[pos] != seps[i-1] {
				return time.Time{}, false
			}
			pos++
		}
		width := 2
		if i == 0 {
			width = 4
		}
		v, digits, k := parseDigits(s[pos:], 0)
		if k == 0 || digits > width || digits != k || i == 0 && digits != 4 {
			return time.Time{}, false
		}
		f[i], pos = v, pos+k
	}
	nanos := 0
	if n == 6 && pos < len(s) && s[pos] == '.' {
		v, digits, k := parseDigits(s[pos+1:], 0)
		if digits > 9 || digits != k {
			return time.Time{}, false
		}
		for ; digits < 9; digits++ {
			v *= 10
		}
		nanos, pos = v, pos+1+k
	}
	if pos != len(s) || f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > daysIn(f[0], f[1]) ||
		f[3] > 23 || f[4] > 59 || f[5] > 59 {
		return time.Time{}, false
	}
	return time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], nanos, time.UTC), true
}

// TO_TIMESTAMP_LTZ(numeric[, precision]) → TIMESTAMP_LTZ(3): "Converts an
// epoch seconds or epoch milliseconds to a TIMESTAMP_LTZ, the valid
// precision is 0 or 3, the 0 represents TO_TIMESTAMP_LTZ(epochSeconds, 0),
// the 3 represents TO_TIMESTAMP_LTZ(epochMilliseconds, 3)." The precision
// defaults to 3 and must be a constant; DOUBLE and DECIMAL inputs keep
// their fraction for seconds (DateTimeUtils.toTimestampData).
func bindToTimestampLTZ(args []Arg) (types.Type, Eval, error) {
	if len(args) > 0 && args[0].Unit == "" && args[0].Type.IsString() {
		return bindToTimestampLTZText(args)
	}
	if !match(args, numeric) && !match(args, numeric, integer) {
		return types.Type{}, nil, sigError("TO_TIMESTAMP_LTZ", "(NUMERIC [, INT precision 0 or 3]) or (STRING [, STRING format [, STRING zone]])", args)
	}
	precision := int64(3)
	if len(args) == 2 {
		p, ok := constInt(args[1])
		if !ok || p != 0 && p != 3 {
			return types.Type{}, nil, sigError("TO_TIMESTAMP_LTZ", "(NUMERIC [, INT precision 0 or 3]) with a constant precision", args)
		}
		precision = p
	}
	toF := toFloat(args[0].Type)
	exact := args[0].Type.IsInteger()
	return types.TimestampLTZType(3), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		// DateTimeUtils.toTimestampData: NULL outside 0000-01-01..9999-12-31;
		// seconds become milliseconds, a fraction beyond them is cut.
		var millis int64
		if exact {
			n := v[0].I
			if precision == 0 {
				if n < flinkMinEpochSeconds || n > flinkMaxEpochSeconds {
					return types.NullValue, nil
				}
				n *= 1000
			}
			millis = n
		} else {
			f := toF(v[0])
			if precision == 0 {
				if !(f >= flinkMinEpochSeconds && f <= flinkMaxEpochSeconds) {
					return types.NullValue, nil
				}
				f *= 1000
			}
			if !(f >= flinkMinEpochMillis && f <= flinkMaxEpochMillis) {
				return types.NullValue, nil
			}
			millis = int64(f)
		}
		if millis < flinkMinEpochMillis || millis > flinkMaxEpochMillis {
			return types.NullValue, nil
		}
		return types.IntValue(millis * 1000), nil
	}), nil
}

// TO_TIMESTAMP_LTZ(string1[, string2[, string3]]) → TIMESTAMP_LTZ(3):
// "Converts a timestamp string string1 with format string2 (by default
// 'yyyy-MM-dd HH:mm:ss.SSS') in time zone string3 (by default 'UTC') to a
// TIMESTAMP_LTZ." The text is read as TO_TIMESTAMP reads it
// (ToTimestampLtzFunction: DateTimeUtils.parseTimestampData), then placed in
// the zone; text that does not parse yields NULL, an unknown zone is an
// error.
func bindToTimestampLTZText(args []Arg) (types.Type, Eval, error) {
	if !match(args, str) && !match(args, str, str) && !match(args, str, str, str) {
		return types.Type{}, nil, sigError("TO_TIMESTAMP_LTZ", "(STRING [, STRING format [, STRING zone]])", args)
	}
	parse, err := timestampParser("TO_TIMESTAMP_LTZ", args)
	if err != nil {
		return types.Type{}, nil, err
	}
	zone := func(types.Value) (*time.Location, error) { return time.UTC, nil }
	if len(args) == 3 {
		if zone, err = zoneArg("TO_TIMESTAMP_LTZ", args, 2); err != nil {
			return types.Type{}, nil, err
		}
	}
	return types.TimestampLTZType(3), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		ts, ok, err := parse(v)
		if !ok || err != nil {
			return types.NullValue, err
		}
		loc, err := zone(argOr(v, 2))
		if err != nil {
			return types.Value{}, err
		}
		instant, ok := wallToInstant(3, types.IntValue(ts), loc)
		if !ok {
			return types.NullValue, rangeError("TO_TIMESTAMP_LTZ", "'"+v[0].S+"' in "+loc.String())
		}
		return instant, nil
	}), nil
}

// TO_DATE(string[, format]) → DATE: "Converts a date string string1 with
// format string2 (by default 'yyyy-MM-dd') to a date." Without a format the
// text is read as DateTimeUtils.parseDate does (y-m-d, with an optional time
// part ignored); text that does not parse yields NULL.
func bindToDate(args []Arg) (types.Type, Eval, error) {
	if !match(args, str) && !match(args, str, str) {
		return types.Type{}, nil, sigError("TO_DATE", "(STRING [, STRING format])", args)
	}
	var format func(types.Value) (*dateFormat, error)
	if len(args) == 2 {
		var err error
		if format, err = formatArg(args, 1); err != nil {
			return types.Type{}, nil, err
		}
	}
	return types.Type{Kind: types.Date}, strict(func(_ *Context, v []types.Value) (types.Value, error) {
		var d int64
		if format == nil {
			var ok bool
			if d, ok = parseLenientDate(v[0].S); !ok {
				return types.NullValue, nil
			}
		} else {
			f, err := format(v[1])
			if err != nil {
				return types.Value{}, runtimeError("TO_DATE", "%v", err)
			}
			t, ok := f.parse(v[0].S, time.UTC, simpleDateFormatMode)
			if !ok {
				return types.NullValue, nil
			}
			d = epochDays(t)
		}
		if !types.DateInRange(d) {
			return types.NullValue, rangeError("TO_DATE", "'"+v[0].S+"'")
		}
		return types.IntValue(d), nil
	}), nil
}

// parseLenientDate reads [space]y[-m[-d]][ anything] with unpadded fields,
// as DateTimeUtils.parseDate(String).
func parseLenientDate(s string) (int64, bool) {
	if i := strings.IndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	var f = [3]int{0, 1, 1}
	for i := range 3 {
		part := s
		if j := strings.IndexByte(s, '-'); j >= 0 && i < 2 {
			part, s = s[:j], s[j+1:]
		} else {
			s = ""
		}
		part = strings.TrimSpace(part)
		v, _, n := parseDigits(part, 0)
		if n == 0 || n != len(part) {
			return 0, false
		}
		f[i] = v
		if s == "" {
			break
		}
	}
	if s != "" || f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > daysIn(f[0], f[1]) {
		return 0, false
	}
	return time.Date(f[0], time.Month(f[1]), f[2], 0, 0, 0, 0, time.UTC).Unix() / 86400, true
}

// DATE_FORMAT(timestamp|string, format) → STRING: "Converts timestamp to a
// value of string in the format specified by the date format string. The
// format string is compatible with Java's SimpleDateFormat." A
// TIMESTAMP_LTZ is shown in the session time zone; a string is first read
// with 'yyyy-MM-dd HH:mm:ss' (DateTimeUtils.formatTimestampString), NULL if
// it does not parse.
func bindDateFormat(args []Arg) (types.Type, Eval, error) {
	if !match(args, datetime, str) && !match(args, str, str) {
		return types.Type{}, nil, sigError("DATE_FORMAT", "(TIMESTAMP|TIMESTAMP_LTZ|DATE|STRING, STRING format)", args)
	}
	format, err := formatArg(args, 1)
	if err != nil {
		return types.Type{}, nil, err
	}
	if args[0].Type.IsString() {
		in, _ := compileDateFormat(defaultTimestampFormat)
		return types.StringType, strict(func(_ *Context, v []types.Value) (types.Value, error) {
			f, err := format(v[1])
			if err != nil {
				return types.Value{}, runtimeError("DATE_FORMAT", "%v", err)
			}
			t, ok := in.parse(v[0].S, time.UTC, simpleDateFormatMode)
			if !ok {
				return types.NullValue, nil
			}
			return types.StringValue(f.format(t)), nil
		}), nil
	}
	read := timeReader(args[0].Type)
	// nullable whatever the arguments, as Flink types it
	// (VARCHAR_FORCE_NULLABLE in FlinkSqlOperatorTable)
	return types.StringType, strict(func(ctx *Context, v []types.Value) (types.Value, error) {
		f, err := format(v[1])
		if err != nil {
			return types.Value{}, runtimeError("DATE_FORMAT", "%v", err)
		}
		return types.StringValue(f.format(read(ctx, v[0]))), nil
	}), nil
}

// TIMESTAMPDIFF(unit, t1, t2) → INT: "Returns the (signed) number of
// timepointunit between timepoint1 and timepoint2." E.g.
// TIMESTAMPDIFF(DAY, TIMESTAMP '2003-01-02 10:00:00', TIMESTAMP
// '2003-01-03 10:00:00') leads to 1. Fixed units divide the difference,
// truncating; MONTH, QUARTER and YEAR count whole calendar months
// (DateTimeUtils.subtractMonths). Both points are DATE or TIMESTAMP, or
// both TIMESTAMP_LTZ. A count beyond INT is an error, where Java's (int)
// cast would wrap it around.
func bindTimestampDiff(args []Arg) (types.Type, Eval, error) {
	fail := func() (types.Type, Eval, error) {
		return types.Type{}, nil, sigError("TIMESTAMPDIFF", "(unit, DATE|TIMESTAMP, DATE|TIMESTAMP) or (unit, TIMESTAMP_LTZ, TIMESTAMP_LTZ) with unit SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER or YEAR", args)
	}
	if len(args) != 3 || args[0].Unit == "" || !match(args[1:], datetime, datetime) ||
		(args[1].Type.Kind == types.TimestampLTZ) != (args[2].Type.Kind == types.TimestampLTZ) {
		return fail()
	}
	unit := args[0].Unit
	a, b := asMicros(args[1].Type), asMicros(args[2].Type)
	var diff func(t1, t2 int64) int64
	if months, ok := unitMonths[unit]; ok {
		diff = func(t1, t2 int64) int64 { return diffMonths(t2, t1) / months }
	} else if n, ok := unitNanos[unit]; ok && n >= nanosPerSecond {
		// Flink computes on milliseconds
		diff = func(t1, t2 int64) int64 {
			return (floorDiv(t2, 1000) - floorDiv(t1, 1000)) / (n / nanosPerMilli)
		}
	} else {
		return fail()
	}
	t1, t2 := args[1].Type, args[2].Type
	return strictType(types.IntType, args[1:]), strict(func(ctx *Context, v []types.Value) (types.Value, error) {
		d := diff(a(v[1]), b(v[2]))
		if d != int64(int32(d)) {
			return types.NullValue, runtimeError("TIMESTAMPDIFF", "TIMESTAMPDIFF(%s, %s, %s) is %d, beyond the range of INT",
				unit, types.LiteralText(t1, v[1], ctx.loc()), types.LiteralText(t2, v[2], ctx.loc()), d)
		}
		return types.IntValue(d), nil
	}), nil
}

// TIMESTAMPADD(unit, interval, timepoint): "Returns a new time value that
// adds a (signed) integer interval to timepoint." The result has the type
// of timepoint, except as Flink's copy of Calcite's SqlTimestampAddFunction
// derives it (deduceType): a DATE plus hours, minutes or seconds is a
// TIMESTAMP of the default precision, 6; milliseconds give at least
// precision 3 and microseconds at least 6, to a DATE as to a timestamp.
func bindTimestampAdd(args []Arg) (types.Type, Eval, error) {
	fail := func() (types.Type, Eval, error) {
		return types.Type{}, nil, sigError("TIMESTAMPADD", "(unit, INT, DATE|TIMESTAMP|TIMESTAMP_LTZ|TIME)", args)
	}
	if len(args) != 3 || args[0].Unit == "" || !match(args[1:], integer, anyType) {
		return fail()
	}
	unit, t := args[0].Unit, args[2].Type
	rt := t.Plain()
	var add func(x types.Value, n int64) (types.Value, bool)
	months, calendar := unitMonths[unit]
	step, fixed := unitNanos[unit]
	switch {
	case calendar && t.Kind == types.Date:
		add = func(x types.Value, n int64) (types.Value, bool) {
			m, ok := types.MultiplyExact(n, months)
			if !ok {
				return types.NullValue, false
			}
			d, ok := addDateMonths(x.I, m)
			return types.IntValue(d), ok
		}
	case calendar && t.IsTimestamp():
		add = func(x types.Value, n int64) (types.Value, bool) {
			m, ok := types.MultiplyExact(n, months)
			if !ok {
				return types.NullValue, false
			}
			return addMonths(t.Precision, x, m)
		}
	case fixed && t.Kind == types.Date && step >= nanosPerDay:
		add = func(x types.Value, n int64) (types.Value, bool) {
			d, ok := types.MultiplyExact(n, step/nanosPerDay)
			if !ok {
				return types.NullValue, false
			}
			d, ok = types.AddExact(x.I, d)
			return types.IntValue(d), ok && types.DateInRange(d)
		}
	case fixed && (t.Kind == types.Date || t.IsTimestamp()):
		if t.Kind == types.Date {
			switch unit {
			case "MILLISECOND":
				rt = types.TimestampType(3)
			case "NANOSECOND": // Flink's derivation gives no timestamp type here
				rt = types.TimestampType(0)
			default:
				rt = types.TimestampType(6)
			}
		} else {
			rt.Precision = unitPrecision(unit, t.Precision)
		}
		// The step in microseconds, or in nanoseconds below one.
		p := rt.Precision
		add = func(x types.Value, n int64) (types.Value, bool) {
			if t.Kind == types.Date {
				var ok bool
				if x, ok = types.DaysToTimestamp(p, x.I); !ok {
					return types.NullValue, false
				}
			} else if p != t.Precision {
				var ok bool
				if x, ok = types.RescaleTimestamp(t.Precision, p, x); !ok {
					return types.NullValue, false
				}
			}
			if step < 1000 {
				return types.AddTimestamp(p, x, 0, n*step)
			}
			d, ok := types.MultiplyExact(n, step/1000)
			if !ok {
				return types.NullValue, false
			}
			return types.AddTimestamp(p, x, d, 0)
		}
	case fixed && t.Kind == types.Time:
		add = func(x types.Value, n int64) (types.Value, bool) {
			if step >= nanosPerDay { // whole days leave the time of day as it is
				return x, true
			}
			return types.IntValue(floorMod(x.I+floorMod(n, nanosPerDay/step)*step, nanosPerDay)), true
		}
	default:
		return fail()
	}
	return strictType(rt, args[1:]), strict(func(ctx *Context, v []types.Value) (types.Value, error) {
		r, ok := add(v[2], v[1].I)
		if !ok {
			return types.NullValue, rangeError("TIMESTAMPADD", fmt.Sprintf("TIMESTAMPADD(%s, %d, %s)", unit, v[1].I, types.LiteralText(t, v[2], ctx.loc())))
		}
		return r, nil
	}), nil
}

// unitPrecision is the precision of a timestamp of precision p after
// TIMESTAMPADD of unit: at least 3 for milliseconds, 6 for microseconds.
func unitPrecision(unit string, p int) int {
	switch unit {
	case "MILLISECOND":
		return max(p, 3)
	case "MICROSECOND":
		return max(p, 6)
	}
	return p
}

// extractShorthands are the functions that are EXTRACT of one unit:
// YEAR(date) is EXTRACT(YEAR FROM date), and so on.
var extractShorthands = map[string]string{
	"YEAR": "YEAR", "QUARTER": "QUARTER", "MONTH": "MONTH", "WEEK": "WEEK",
	"DAYOFYEAR": "DOY", "DAYOFMONTH": "DAY", "DAYOFWEEK": "DOW",
	"HOUR": "HOUR", "MINUTE": "MINUTE", "SECOND": "SECOND",
}

// HOUR, MINUTE and SECOND also take a TIME, as Calcite's
// SqlDatePartFunction (operands of the DATETIME family) does.
func bindExtractShorthand(name, unit string) bindFunc {
	takesTime := unit == "HOUR" || unit == "MINUTE" || unit == "SECOND"
	return func(args []Arg) (types.Type, Eval, error) {
		switch {
		case takesTime && !match(args, func(t types.Type) bool { return datetime(t) || t.Kind == types.Time }):
			return types.Type{}, nil, sigError(name, "(DATE|TIME|TIMESTAMP|TIMESTAMP_LTZ)", args)
		case !takesTime && !match(args, datetime):
			return types.Type{}, nil, sigError(name, "(DATE|TIMESTAMP|TIMESTAMP_LTZ)", args)
		}
		f, err := extractor(unit, args[0].Type)
		if err != nil {
			return types.Type{}, nil, sigError(name, err.Error(), args)
		}
		return strictType(types.BigIntType, args), strict(func(ctx *Context, v []types.Value) (types.Value, error) {
			return types.IntValue(f(ctx, v[0])), nil
		}), nil
	}
}

// extractors compute EXTRACT units from a wall clock, after Calcite's
// DateTimeUtils.unixDateExtract / unixTimeExtract: WEEK is the ISO week,
// DOW counts from Sunday = 1, MILLISECOND and MICROSECOND include the
// seconds (SECOND * 1000 + milliseconds), EPOCH is seconds since
// 1970-01-01 00:00:00 of the wall clock.
var extractors = map[string]func(t time.Time) int64{
	"YEAR":        func(t time.Time) int64 { return int64(t.Year()) },
	"QUARTER":     func(t time.Time) int64 { return int64(t.Month()+2) / 3 },
	"MONTH":       func(t time.Time) int64 { return int64(t.Month()) },
	"WEEK":        func(t time.Time) int64 { _, w := t.ISOWeek(); return int64(w) },
	"DAY":         func(t time.Time) int64 { return int64(t.Day()) },
	"DOW":         func(t time.Time) int64 { return int64(t.Weekday()) + 1 },
	"DOY":         func(t time.Time) int64 { return int64(t.YearDay()) },
	"HOUR":        func(t time.Time) int64 { return int64(t.Hour()) },
	"MINUTE":      func(t time.Time) int64 { return int64(t.Minute()) },
	"SECOND":      func(t time.Time) int64 { return int64(t.Second()) },
	"MILLISECOND": func(t time.Time) int64 { return int64(t.Second())*1000 + int64(t.Nanosecond())/1e6 },
	"MICROSECOND": func(t time.Time) int64 { return int64(t.Second())*1e6 + int64(t.Nanosecond())/1e3 },
	"NANOSECOND":  func(t time.Time) int64 { return int64(t.Second())*1e9 + int64(t.Nanosecond()) },
	"EPOCH":       wallSeconds,
}

// intervalExtractors take units of intervals (milliseconds or months).
var intervalExtractors = map[types.Kind]map[string]func(int64) int64{
	types.IntervalDayTime: {
		"DAY":         func(ms int64) int64 { return ms / millisPerDay },
		"HOUR":        func(ms int64) int64 { return ms % millisPerDay / 3_600_000 },
		"MINUTE":      func(ms int64) int64 { return ms % 3_600_000 / 60_000 },
		"SECOND":      func(ms int64) int64 { return ms % 60_000 / 1000 },
		"MILLISECOND": func(ms int64) int64 { return ms % 60_000 },
		"EPOCH":       func(ms int64) int64 { return ms / 1000 },
	},
	types.IntervalYearMonth: {
		"YEAR":    func(m int64) int64 { return m / 12 },
		"QUARTER": func(m int64) int64 { return m % 12 / 3 },
		"MONTH":   func(m int64) int64 { return m % 12 },
	},
}

// EXTRACT(unit FROM temporal) → BIGINT: "Returns a long value extracted from
// the timeintervalunit part of temporal. E.g., EXTRACT(DAY FROM DATE
// '2006-06-05') returns 5." TIMESTAMP_LTZ is read in the session time zone.
func bindExtract(args []Arg) (types.Type, Eval, error) {
	if len(args) != 2 || args[0].Unit == "" || args[1].Unit != "" {
		return types.Type{}, nil, sigError("EXTRACT", "(unit FROM DATE|TIME|TIMESTAMP|TIMESTAMP_LTZ|INTERVAL)", args)
	}
	f, err := extractor(args[0].Unit, args[1].Type)
	if err != nil {
		return types.Type{}, nil, sigError("EXTRACT", err.Error(), args)
	}
	return strictType(types.BigIntType, args[1:]), strict(func(ctx *Context, v []types.Value) (types.Value, error) {
		return types.IntValue(f(ctx, v[1])), nil
	}), nil
}

// extractor returns how to extract unit from values of type t.
func extractor(unit string, t types.Type) (func(*Context, types.Value) int64, error) {
	if m, ok := intervalExtractors[t.Kind]; ok {
		if f, ok := m[unit]; ok {
			return func(_ *Context, v types.Value) int64 { return f(v.I) }, nil
		}
	} else if f, ok := extractors[unit]; ok && (datetime(t) || t.Kind == types.Time) {
		read := timeReader(t)
		if t.Kind == types.Time {
			read = func(_ *Context, v types.Value) time.Time { return time.Unix(0, v.I).UTC() }
		}
		return func(ctx *Context, v types.Value) int64 { return f(read(ctx, v)) }, nil
	}
	return nil, fmt.Errorf("(unit FROM DATE|TIME|TIMESTAMP|TIMESTAMP_LTZ|INTERVAL) with a unit valid for the type")
}

// nowFuncs are the current-time functions. "CURRENT_TIMESTAMP: Returns the
// current SQL timestamp in the local time zone, the return type is
// TIMESTAMP_LTZ(3)"; LOCALTIMESTAMP is TIMESTAMP(3), CURRENT_DATE a DATE and
// CURRENT_TIME / LOCALTIME a TIME(0), all in the session time zone. NOW() is
// CURRENT_TIMESTAMP; CURRENT_ROW_TIMESTAMP() is too (Flink evaluates both per
// record in streaming mode). PROCTIME() is the current instant as a
// processing-time attribute ("PROCTIME(): Returns the current SQL timestamp
// in the local time zone, the return type is TIMESTAMP_LTZ(3) *PROCTIME*").
var nowFuncs = map[string]struct {
	t    types.Type
	read func(time.Time) int64
}{
	"CURRENT_TIMESTAMP":     {types.TimestampLTZType(3), instantMillis},
	"NOW":                   {types.TimestampLTZType(3), instantMillis},
	"CURRENT_ROW_TIMESTAMP": {types.TimestampLTZType(3), instantMillis},
	"PROCTIME":              {types.Type{Kind: types.TimestampLTZ, Precision: 3, Attr: types.ProcTime}, instantMillis},
	"LOCALTIMESTAMP":        {types.TimestampType(3), func(t time.Time) int64 { return wallUTC(t).UnixMilli() * 1000 }},
	"CURRENT_DATE":          {types.Type{Kind: types.Date}, epochDays},
	"CURRENT_TIME":          {types.Type{Kind: types.Time}, secondOfDayNanos},
	"LOCALTIME":             {types.Type{Kind: types.Time}, secondOfDayNanos},
}

// instantMillis is the instant t as a TIMESTAMP_LTZ(3).
func instantMillis(t time.Time) int64 { return t.UnixMilli() * 1000 }

func secondOfDayNanos(t time.Time) int64 {
	return floorMod(wallSeconds(t), 86400) * nanosPerSecond
}

func nowFunc(name string, t types.Type, read func(time.Time) int64) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if len(args) != 0 {
			return types.Type{}, nil, sigError(name, "()", args)
		}
		return t.WithNotNull(true), func(ctx *Context, _ []types.Value) (types.Value, error) {
			return types.IntValue(read(ctx.now().In(ctx.loc()))), nil
		}, nil
	}
}

func init() {
	register(bindOverlaps, "OVERLAPS")
}

// OVERLAPS(start1, end1, start2, end2) is (start1, end1) OVERLAPS (start2,
// end2): "Returns TRUE if two time intervals defined by (timepoint1,
// temporal1) and (timepoint2, temporal2) overlap. The temporal values could
// be either a time point or a time interval. E.g., (TIME '2:55:00',
// INTERVAL '1' HOUR) OVERLAPS (TIME '3:30:00', INTERVAL '2' HOUR) returns
// TRUE; (TIME '9:00:00', TIME '10:00:00') OVERLAPS (TIME '10:15:00',
// INTERVAL '3' HOUR) returns FALSE." An interval is added to its time point
// (with "+"); each period's ends are put in order; the periods overlap when
// each starts no later than the other ends, ends included.
func bindOverlaps(args []Arg) (types.Type, Eval, error) {
	expects := "(start, end) OVERLAPS (start, end), the starts of one DATE, TIME, TIMESTAMP or TIMESTAMP_LTZ type, each end of that type or an INTERVAL"
	if len(args) != 4 {
		return types.Type{}, nil, sigError("OVERLAPS", expects, args)
	}
	point := args[0].Type.Kind
	ends := make([]Eval, 4) // each argument as a time point of kind point
	for i, a := range args {
		switch {
		case a.Unit != "":
			return types.Type{}, nil, sigError("OVERLAPS", expects, args)
		case a.Type.Kind == point && (point == types.Date || point == types.Time || a.Type.IsTimestamp()):
			ends[i] = func(_ *Context, v []types.Value) (types.Value, error) { return v[i], nil }
		case i%2 == 1 && (a.Type.Kind == types.IntervalDayTime || a.Type.Kind == types.IntervalYearMonth):
			plus, _ := LookupScalar("+")
			t, add, err := plus.Bind([]Arg{args[i-1], a})
			if err != nil || t.Kind != point {
				return types.Type{}, nil, sigError("OVERLAPS", expects, args)
			}
			ends[i] = func(ctx *Context, v []types.Value) (types.Value, error) { return add(ctx, v[i-1:i+1]) }
		default:
			return types.Type{}, nil, sigError("OVERLAPS", expects, args)
		}
	}
	if point == types.Timestamp || point == types.TimestampLTZ {
		for _, a := range args {
			if a.Type.IsTimestamp() && a.Type.Kind != point {
				return types.Type{}, nil, sigError("OVERLAPS", expects, args)
			}
		}
	}
	// Timestamps of different precisions compare in the finest one's unit.
	var prec [4]int
	finest := 0
	for i, a := range args {
		if i%2 == 1 && a.Type.Kind != point {
			a = args[i-1] // an interval added to its start
		}
		prec[i] = a.Type.Precision
		finest = max(finest, prec[i])
	}
	ts := point == types.Timestamp || point == types.TimestampLTZ
	less := func(a, b types.Value) bool {
		if ts {
			return types.CompareTimestamps(finest, a, finest, b) < 0
		}
		return a.I < b.I
	}
	return strictType(types.BooleanType, args), strict(func(ctx *Context, v []types.Value) (types.Value, error) {
		var p [4]types.Value
		for i, e := range ends {
			x, err := e(ctx, v)
			if err != nil {
				return types.Value{}, err
			}
			p[i] = x
			if ts {
				var ok bool
				if p[i], ok = types.RescaleTimestamp(prec[i], finest, x); !ok {
					return types.NullValue, rangeError("OVERLAPS", types.LiteralText(types.Type{Kind: point, Precision: prec[i]}, x, ctx.loc()))
				}
			}
		}
		s1, e1 := p[0], p[1]
		if less(e1, s1) {
			s1, e1 = e1, s1
		}
		s2, e2 := p[2], p[3]
		if less(e2, s2) {
			s2, e2 = e2, s2
		}
		return types.BoolValue(!less(e2, s1) && !less(e1, s2)), nil
	}), nil
}
