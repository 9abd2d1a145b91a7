package types

import (
	"errors"
	"math"
	"strconv"
	"time"
)

// Casts between types, after Flink 1.16+ with the new CAST semantics
// (table.exec.legacy-cast-behaviour = DISABLED).
//
// Which casts exist follows LogicalTypeCasts (the explicit and implicit
// casting rules of Flink 1.15/1.16), narrowed to what Flink also executes:
// the planner rejects TIMESTAMP/TIMESTAMP_LTZ <-> numeric casts with the
// messages of TimestampToNumericCastRule and NumericToTimestampCastRule.
// What a cast does follows the planner's *CastRule classes
// (org.apache.flink.table.planner.functions.casting) and the runtime helpers
// they call:
//
//   - Between integers, and from FLOAT/DOUBLE to integers, Java's primitive
//     conversions (NumericPrimitiveCastRule): narrowing wraps around
//     (CAST(300 AS TINYINT) is 44), floating point is truncated toward zero
//     and clamped to the INT or BIGINT range first, NaN becomes 0.
//   - DECIMAL to an integer truncates toward zero, then wraps
//     (DecimalDataUtils.castToIntegral); DECIMAL to FLOAT/DOUBLE divides the
//     unscaled value by 10^scale in double arithmetic
//     (DecimalDataUtils.doubleValue).
//   - To DECIMAL(p, s) from a number or BOOLEAN: rounded HALF_UP to s digits
//     (doubles through their Double.toString digits, BigDecimal.valueOf);
//     a value that needs more than p digits becomes NULL
//     (DecimalData.fromBigDecimal); NaN and infinities fail.
//   - BOOLEAN to a number is 1 or 0; an integer to BOOLEAN is "<> 0".
//   - To CHAR(n)/VARCHAR(n): the text of FormatValue, cut to n characters,
//     CHAR padded with spaces (CharVarCharTrimPadCastRule, since 1.16);
//     BINARY(n)/VARBINARY(n) likewise in bytes, BINARY padded with zero bytes.
//   - From CHAR/VARCHAR: ParseValue, except that a DECIMAL past its
//     precision is NULL (BinaryStringDataUtil.toDecimal).
//   - TIMESTAMP <-> TIMESTAMP_LTZ and DATE/TIME <-> TIMESTAMP_LTZ go through
//     the wall clock in the session time zone; TIMESTAMP to DATE/TIME takes
//     the date or the time of day; DATE and TIME become timestamps at
//     midnight and on 1970-01-01. Lowering a TIME/TIMESTAMP precision
//     truncates the fraction (TimestampToTimestampCastRule); TIME keeps
//     milliseconds at most, as Flink's TIME does.
//
// Not supported, with an error that says so: casts from a string to an
// interval, between intervals and numbers (Flink's planner accepts these for
// single-field intervals, but Sluice's interval types do not keep the field).

// MaxDecimalPrecision is the largest DECIMAL precision, Flink's
// DecimalType.MAX_PRECISION.
const MaxDecimalPrecision = 38

// flinkMaxDecimalPrecision is DecimalType.MAX_PRECISION, used when deriving
// result types the way Flink does.
const flinkMaxDecimalPrecision = MaxDecimalPrecision

// Cast converts v from type from to type to as Flink's CAST does. loc is the
// session time zone (table.local-time-zone) for conversions that involve
// TIMESTAMP_LTZ; nil means UTC. A NULL stays NULL. A cast that Flink rejects
// at planning returns the error ValidateCast gives; a string that does not
// parse returns ParseValue's error (Flink's CAST fails the job there; TRY_CAST
// would return NULL instead).
func Cast(v Value, from, to Type, loc *time.Location) (Value, error) {
	if err := ValidateCast(from, to); err != nil {
		return NullValue, err
	}
	return castValid(v, from, to, loc)
}

// Caster returns the function that casts values of type from to type to
// as Cast does, the cast checked once here (ValidateCast's error) rather
// than at every value.
func Caster(from, to Type) (func(v Value, loc *time.Location) (Value, error), error) {
	if err := ValidateCast(from, to); err != nil {
		return nil, err
	}
	return func(v Value, loc *time.Location) (Value, error) { return castValid(v, from, to, loc) }, nil
}

// castValid is Cast of a cast ValidateCast accepts.
func castValid(v Value, from, to Type, loc *time.Location) (Value, error) {
	if v.Null || from.Kind == Null {
		return NullValue, nil
	}
	if loc == nil {
		loc = time.UTC
	}
	if from.Kind == Variant && to.Kind != Variant {
		return castVariant(v.S, to, loc)
	}
	switch to.Kind {
	case Char, Varchar:
		s := v.S
		if !from.IsString() {
			s = FormatValue(from, v, loc)
		}
		return StringValue(fitChars(s, to)), nil
	case Binary, Varbinary:
		return StringValue(fitBytes(v.S, to)), nil
	case Array, Multiset, Map, RowType, Structured:
		return castComposite(v, from, to, loc)
	}
	if from.IsString() && to.Kind == Decimal {
		// BinaryStringDataUtil.toDecimal: NULL when the value overflows
		// the precision (StringToDecimalCastRule), an error when it does
		// not parse.
		u, ok, overflow := parseDecimal(v.S, to.Precision, to.Scale)
		switch {
		case !ok:
			return NullValue, parseError(v.S, to, "")
		case overflow:
			return NullValue, nil
		}
		return DecimalOf(to, u), nil
	}
	if from.IsString() {
		return ParseValue(to, v.S, loc)
	}
	switch to.Kind {
	case Boolean:
		return BoolValue(v.I != 0), nil
	case TinyInt, SmallInt, Int, BigInt:
		return IntValue(toInteger(v, from, to.Kind)), nil
	case Float, Double:
		f := toFloat64(v, from)
		if to.Kind == Float {
			f = float64(float32(f))
		}
		return FloatValue(f), nil
	case Decimal:
		return toDecimal(v, from, to)
	case Date, Time, Timestamp, TimestampLTZ:
		return castTemporal(v, from, to, loc)
	}
	// Identity casts of the remaining kinds (intervals).
	return v, nil
}

// CanCast reports whether CAST(x AS to) is valid for x of type from.
func CanCast(from, to Type) bool { return ValidateCast(from, to) == nil }

// Messages of Flink's TimestampToNumericCastRule and NumericToTimestampCastRule.
const (
	errTimestampToNumeric = "The cast from TIMESTAMP type to NUMERIC type is not allowed. " +
		"It's recommended to use UNIX_TIMESTAMP(CAST(timestamp_col AS STRING)) instead."
	errLTZToNumeric       = "The cast from TIMESTAMP_LTZ type to NUMERIC type is not allowed."
	errNumericToTimestamp = "The cast from NUMERIC type to TIMESTAMP type is not allowed. " +
		"It's recommended to use TO_TIMESTAMP(FROM_UNIXTIME(numeric_col)) instead, " +
		"note the numeric is in seconds."
	errNumericToLTZ = "The cast from NUMERIC type to TIMESTAMP_LTZ type is not allowed. " +
		"It's recommended to use TO_TIMESTAMP_LTZ(numeric_col, precision) instead."
)

// ValidateCast returns nil if CAST(x AS to) is valid for x of type from, or
// an error in Flink's words explaining why not.
func ValidateCast(from, to Type) error {
	switch {
	case from.Kind == Timestamp && to.IsNumeric():
		return errors.New(errTimestampToNumeric)
	case from.Kind == TimestampLTZ && to.IsNumeric():
		return errors.New(errLTZToNumeric)
	case from.IsNumeric() && to.Kind == Timestamp:
		return errors.New(errNumericToTimestamp)
	case from.IsNumeric() && to.Kind == TimestampLTZ:
		return errors.New(errNumericToLTZ)
	case isInterval(to.Kind) && (from.IsString() || from.IsNumeric()),
		isInterval(from.Kind) && to.IsNumeric():
		return errors.New("CAST from " + typeName(from) + " to " + typeName(to) + " is not supported")
	}
	if !supportsCast(from, to, true) {
		return errors.New("Cast function cannot convert value of type " + typeName(from) +
			" to type " + typeName(to))
	}
	return nil
}

// ImplicitCast reports whether a value of type from can be used where type
// to is expected without an explicit CAST: Flink's
// LogicalTypeCasts.supportsImplicitCast (safe widening, e.g. INT to BIGINT,
// any number to DOUBLE, CHAR to VARCHAR). A nullable type never converts
// implicitly to a NOT NULL one.
func ImplicitCast(from, to Type) bool {
	if isInterval(from.Kind) && to.IsNumeric() || from.IsNumeric() && isInterval(to.Kind) {
		return false
	}
	return supportsCast(from, to, false)
}

// typeName is t as error messages show it: without nullability and time
// attribute.
func typeName(t Type) string { return t.Plain().Nullable().String() }

func isInterval(k Kind) bool { return k == IntervalDayTime || k == IntervalYearMonth }

// kinds is a set of kinds.
type kinds uint32

func kindSet(ks ...Kind) kinds {
	var s kinds
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

func (s kinds) has(k Kind) bool { return s&(1<<k) != 0 }

// Type families, as in LogicalTypeFamily.
var (
	characterString = kindSet(Char, Varchar)
	binaryString    = kindSet(Binary, Varbinary)
	integerNumeric  = kindSet(TinyInt, SmallInt, Int, BigInt)
	exactNumeric    = integerNumeric | kindSet(Decimal)
	numeric         = exactNumeric | kindSet(Float, Double)
	timestamps      = kindSet(Timestamp, TimestampLTZ)
	datetime        = timestamps | kindSet(Date, Time)
	intervals       = kindSet(IntervalDayTime, IntervalYearMonth)
	predefined      = characterString | binaryString | numeric | datetime | intervals | kindSet(Boolean)
)

// castRule lists, for a target kind, the source kinds castable implicitly
// and, in addition, explicitly (LogicalTypeCasts, Flink 1.15/1.16).
type castRule struct{ implicit, explicit kinds }

var castRules = map[Kind]castRule{
	Char:              {kindSet(Char), predefined},
	Varchar:           {characterString, predefined},
	Boolean:           {kindSet(Boolean), characterString | integerNumeric},
	Binary:            {kindSet(Binary), characterString | kindSet(Varbinary)},
	Varbinary:         {binaryString, characterString},
	Decimal:           {numeric, characterString | intervals | kindSet(Boolean) | timestamps},
	TinyInt:           {kindSet(TinyInt), numeric | characterString | intervals | kindSet(Boolean) | timestamps},
	SmallInt:          {kindSet(TinyInt, SmallInt), numeric | characterString | intervals | kindSet(Boolean) | timestamps},
	Int:               {kindSet(TinyInt, SmallInt, Int), numeric | characterString | intervals | kindSet(Boolean) | timestamps},
	BigInt:            {integerNumeric, numeric | characterString | intervals | kindSet(Boolean) | timestamps},
	Float:             {integerNumeric | kindSet(Float, Decimal), numeric | characterString | kindSet(Boolean) | timestamps},
	Double:            {numeric, characterString | kindSet(Boolean) | timestamps},
	Date:              {kindSet(Date, Timestamp), timestamps | characterString},
	Time:              {kindSet(Time, Timestamp), kindSet(Time) | timestamps | characterString},
	Timestamp:         {timestamps, datetime | characterString | numeric},
	TimestampLTZ:      {timestamps, datetime | characterString | numeric},
	IntervalYearMonth: {kindSet(IntervalYearMonth), exactNumeric | characterString},
	IntervalDayTime:   {kindSet(IntervalDayTime), exactNumeric | characterString},
}

// supportsCast is LogicalTypeCasts.supportsCasting for Sluice's types.
func supportsCast(from, to Type, explicit bool) bool {
	if !from.NotNull && to.NotNull && !explicit {
		return false
	}
	if Equal(from.Nullable(), to.Nullable()) || from.Kind == Null {
		return true
	}
	if from.Kind == Variant || to.Kind == Variant {
		return explicit && from.Kind == Variant && variantCastTargets.has(to.Kind)
	}
	if from.IsComposite() || to.IsComposite() {
		return supportsCompositeCast(from, to, explicit)
	}
	rule, ok := castRules[to.Kind]
	if !ok {
		return false
	}
	if rule.implicit.has(from.Kind) {
		return true
	}
	return explicit && rule.explicit.has(from.Kind)
}

// toInteger converts a number or BOOLEAN to an integer kind with Java's
// primitive conversion semantics.
func toInteger(v Value, from Type, to Kind) int64 {
	var n int64
	switch from.Kind {
	case Float, Double:
		if to == BigInt {
			return JavaDoubleToLong(v.F)
		}
		n = int64(javaDoubleToInt(v.F))
	case Decimal:
		if from.IsWideDecimal() {
			// BigDecimal.longValue: the low 64 bits of the integral part.
			a, _ := DecodeInt128(v.S)
			q, _ := a.QuoRem10(from.Scale)
			n = int64(q.Lo)
		} else {
			n = v.I / pow10(from.Scale)
		}
	default:
		n = v.I
	}
	switch to {
	case TinyInt:
		return int64(int8(n))
	case SmallInt:
		return int64(int16(n))
	case Int:
		return int64(int32(n))
	}
	return n
}

// JavaDoubleToLong is Java's (long) d: truncation, NaN to 0, saturation at
// the int64 range.
func JavaDoubleToLong(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// javaDoubleToInt is Java's (int) d: truncation, NaN to 0, saturation.
func javaDoubleToInt(f float64) int32 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int32(f)
}

// toFloat64 converts a number or BOOLEAN to float64.
func toFloat64(v Value, from Type) float64 {
	switch from.Kind {
	case Float, Double:
		return v.F
	case Decimal:
		return DecimalFloat(from, v)
	}
	return float64(v.I)
}

// toDecimal converts a number or BOOLEAN to DECIMAL(p, s), NULL on
// overflow. NaN and infinities fail, as BigDecimal.valueOf does.
func toDecimal(v Value, from, to Type) (Value, error) {
	switch from.Kind {
	case Float, Double:
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			return NullValue, errors.New("cannot cast " + FormatDouble(v.F) + " to " + typeName(to))
		}
		// BigDecimal.valueOf(double): the Double.toString digits; a FLOAT
		// is widened to double first.
		unscaled, ok, overflow := parseDecimal(FormatDouble(v.F), to.Precision, to.Scale)
		if overflow || !ok {
			return NullValue, nil
		}
		return DecimalOf(to, unscaled), nil
	case Decimal:
		return RescaleDecimal(v, from, to), nil
	}
	if !to.IsWideDecimal() {
		unscaled, overflow := rescale(v.I, 0, to.Scale)
		if overflow || moreDigits(unscaled, to.Precision) {
			return NullValue, nil
		}
		return IntValue(unscaled), nil
	}
	return RescaleDecimal(v, BigIntType, to), nil
}

// RescaleDecimal converts v, a non-NULL value of the DECIMAL or integer
// type from, to the DECIMAL type to: rounded HALF_UP to to's scale, NULL
// when it needs more than to's precision digits (Flink's
// DecimalData.fromBigDecimal).
func RescaleDecimal(v Value, from, to Type) Value {
	fs := 0
	if from.Kind == Decimal {
		fs = from.Scale
	}
	if !from.IsWideDecimal() && !to.IsWideDecimal() {
		unscaled, overflow := rescale(v.I, fs, to.Scale)
		if overflow || moreDigits(unscaled, to.Precision) {
			return NullValue
		}
		return IntValue(unscaled)
	}
	var a Int128
	if from.IsWideDecimal() {
		a, _ = DecodeInt128(v.S)
	} else {
		a = Int128Of(v.I)
	}
	r, ok := a.Rescale(fs, to.Scale)
	if !ok {
		return NullValue
	}
	return DecimalOf(to, r)
}

// DecimalFloat returns v, a non-NULL value of the DECIMAL type t, as a
// double: the unscaled value divided by 10^scale for up to 18 digits
// (DecimalDataUtils.doubleValue), BigDecimal.doubleValue (the nearest
// double) above.
func DecimalFloat(t Type, v Value) float64 {
	if !t.IsWideDecimal() {
		return float64(v.I) / math.Pow10(t.Scale)
	}
	f, _ := strconv.ParseFloat(string(AppendDecimal(nil, DecimalUnscaled(t, v), t.Scale)), 64)
	return f
}

// rescale changes the scale of an unscaled decimal value, rounding HALF_UP
// when digits are dropped; overflow is set when the result leaves int64.
func rescale(unscaled int64, from, to int) (int64, bool) {
	switch {
	case to == from:
		return unscaled, false
	case to > from:
		m := pow10(to - from)
		if m == 0 || unscaled > math.MaxInt64/m || unscaled < math.MinInt64/m {
			return 0, true
		}
		return unscaled * m, false
	}
	d := pow10(from - to)
	if d == 0 {
		return 0, false
	}
	q, r := unscaled/d, unscaled%d
	if absInt64(r) >= (d+1)/2 {
		if unscaled < 0 {
			q--
		} else {
			q++
		}
	}
	return q, false
}

// pow10 returns 10^n for 0 <= n <= 18, and 0 beyond int64.
func pow10(n int) int64 {
	if n < 0 || n > 18 {
		return 0
	}
	return powersOf10[n]
}

// powersOf10 are the powers of 10 an int64 holds.
var powersOf10 = func() (p [19]int64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// moreDigits reports whether v has more than p decimal digits
// (digitCount(v) > p).
func moreDigits(v int64, p int) bool {
	switch {
	case p < 1:
		return true
	case p > 18:
		return false
	}
	m := powersOf10[p]
	return v >= m || v <= -m
}

func absInt64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// truncateNanos drops the fraction digits beyond precision, rounding toward
// negative infinity as DateTimeUtils.truncate does.
func truncateNanos(ns int64, precision int) int64 {
	if precision >= 9 || precision < 0 {
		return ns
	}
	unit := pow10(9 - precision)
	return floorDiv(ns, unit) * unit
}

// castTemporal casts between DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ. A
// result outside the range of timestamps is a RangeError.
func castTemporal(v Value, from, to Type, loc *time.Location) (Value, error) {
	if loc == nil {
		loc = time.UTC
	}
	if from.Kind == to.Kind && to.IsTimestamp() {
		r, ok := RescaleTimestamp(from.Precision, to.Precision, v)
		if !ok {
			return NullValue, castRangeError(v, from, to, loc)
		}
		return r, nil
	}
	wall := wallTime(v, from, loc)
	var t time.Time
	switch to.Kind {
	case Date:
		return IntValue(floorDiv(wall.Unix(), secondsPerDay)), nil
	case Time:
		ns := v.I
		if from.Kind != Time {
			ns = floorMod(wall.Unix(), secondsPerDay)*int64(time.Second) + int64(wall.Nanosecond())
		}
		return IntValue(truncateNanos(ns, min(to.Precision, 3))), nil
	case Timestamp:
		t = wall
	default:
		t = wallToInstant(wall, loc)
	}
	r, ok := TimestampOf(to.Precision, t)
	if !ok {
		return NullValue, castRangeError(v, from, to, loc)
	}
	return r, nil
}

func castRangeError(v Value, from, to Type, loc *time.Location) error {
	return &RangeError{What: "CAST(" + LiteralText(from, v, loc) + " AS " + typeName(to) + ")"}
}

// wallTime returns the wall-clock reading of a temporal value as a time
// in UTC: TIMESTAMP values already are, TIME is a time of 1970-01-01, DATE
// midnight of its day, TIMESTAMP_LTZ the instant shown in loc.
func wallTime(v Value, from Type, loc *time.Location) time.Time {
	switch from.Kind {
	case Date:
		return time.Unix(v.I*secondsPerDay, 0).UTC()
	case Time:
		return time.Unix(0, v.I).UTC()
	case TimestampLTZ:
		t := TimestampTime(from.Precision, v)
		_, offset := t.In(loc).Zone()
		return t.Add(time.Duration(offset) * time.Second)
	}
	return TimestampTime(from.Precision, v)
}

// wallToInstant returns the instant at which the wall clock in loc reads
// wall (a time in UTC), resolving gaps and overlaps as Java's
// LocalDateTime.atZone does: a time in a gap moves forward by the gap, a
// time in an overlap takes the earlier offset.
func wallToInstant(wall time.Time, loc *time.Location) time.Time {
	chosen := time.Date(wall.Year(), wall.Month(), wall.Day(), wall.Hour(), wall.Minute(), wall.Second(), wall.Nanosecond(), loc)
	// In an overlap the same wall clock also occurs an offset change earlier.
	_, offset := chosen.Zone()
	_, before := chosen.Add(-24 * time.Hour).Zone()
	if before > offset {
		earlier := wall.Add(-time.Duration(before) * time.Second)
		if _, o := earlier.In(loc).Zone(); o == before {
			return earlier
		}
	}
	return chosen
}

// CommonType returns the most specific type both a and b can be cast to
// implicitly, as Flink's LogicalTypeMerging.findCommonType does for two
// types (the type of CASE branches, UNION columns, IN lists, comparison
// operands): INT and BIGINT give BIGINT, INT and DOUBLE give DOUBLE, INT and
// DECIMAL(2, 2) give DECIMAL(12, 2), CHAR/VARCHAR give VARCHAR of the longer
// length (two CHARs of one length stay CHAR), TIMESTAMP(0) and
// TIMESTAMP_LTZ(3) give TIMESTAMP_LTZ(3), a NULL literal adopts the other
// type. The result is nullable if either input is, and carries no time
// attribute. ok is false when there is no such type.
//
// Like Flink, the result depends on the order for DECIMAL and FLOAT:
// (DECIMAL, FLOAT) gives FLOAT but (FLOAT, DECIMAL) gives DOUBLE.
func CommonType(a, b Type) (Type, bool) {
	notNull := a.NotNull && b.NotNull
	ts := [2]Type{a.Plain().Nullable(), b.Plain().Nullable()}
	t, ok := commonNullableType(ts)
	if !ok {
		t, ok = commonCastableType(ts)
	}
	if !ok || t.Kind == Null {
		return Type{}, false
	}
	return t.WithNotNull(notNull), true
}

// commonNullableType is LogicalTypeMerging.findCommonNullableType.
func commonNullableType(ts [2]Type) (Type, bool) {
	var result Type
	found, sawNull := false, false
	for _, t := range ts {
		if t.Kind == Null {
			sawNull = true
			continue
		}
		if !found {
			result, found = t, true
		}
		if p, ok := commonTypePattern(result, t); ok {
			result = p
			continue
		}
		if !similarTypes(result, t) {
			return Type{}, false
		}
		switch {
		case characterString.has(t.Kind) || binaryString.has(t.Kind):
			result = commonStringType(result, t)
		case exactNumeric.has(t.Kind):
			switch {
			case exactNumeric.has(result.Kind):
				result = commonExactNumericType(result, t)
			case t.Kind == Decimal:
				result = DoubleType
			}
		case t.Kind == Float || t.Kind == Double:
			switch {
			case result.Kind == Float || result.Kind == Double:
				if t.Kind == Double {
					result = DoubleType
				}
			default:
				result = t
			}
		case t.Kind == Date:
			result = Type{Kind: Date}
		case t.Kind == Time || timestamps.has(t.Kind) || isInterval(t.Kind):
			result = commonPrecisionType(result, t)
		case t.IsComposite():
			c, ok := commonCompositeType(result, t)
			if !ok {
				return Type{}, false
			}
			result = c
		default:
			return Type{}, false
		}
	}
	if !found {
		return NullType, sawNull
	}
	return result, true
}

// commonTypePattern covers DATETIME with INTERVAL, and TIMESTAMP or DATE
// with an exact number (read as days), which keep the datetime type.
func commonTypePattern(result, t Type) (Type, bool) {
	switch {
	case datetime.has(result.Kind) && intervals.has(t.Kind):
		return result, true
	case intervals.has(result.Kind) && datetime.has(t.Kind):
		return t, true
	case (timestamps.has(result.Kind) || result.Kind == Date) && exactNumeric.has(t.Kind):
		return result, true
	case exactNumeric.has(result.Kind) && (timestamps.has(t.Kind) || t.Kind == Date):
		return t, true
	}
	return Type{}, false
}

// similarTypes reports whether two types could be the operands of an
// equality predicate (LogicalTypeMerging.areSimilarTypes).
func similarTypes(a, b Type) bool {
	for _, family := range []kinds{characterString, binaryString, numeric, kindSet(Time), timestamps} {
		if family.has(a.Kind) && family.has(b.Kind) {
			return true
		}
	}
	return a.Kind == b.Kind
}

// commonStringType merges two character or two binary string types:
// variable-length results stay variable, fixed lengths that differ become
// variable.
func commonStringType(result, t Type) Type {
	length := max(result.Length, t.Length)
	switch {
	case result.Kind == Varchar || result.Kind == Varbinary:
		return Type{Kind: result.Kind, Length: length}
	case result.Length != t.Length:
		if result.Kind == Char {
			return Type{Kind: Varchar, Length: length}
		}
		return Type{Kind: Varbinary, Length: length}
	}
	return Type{Kind: t.Kind, Length: length}
}

// exactPrecision returns the decimal precision and scale of an exact
// numeric type (TINYINT is DECIMAL(3, 0), ..., BIGINT is DECIMAL(19, 0)).
func exactPrecision(t Type) (precision, scale int) {
	switch t.Kind {
	case TinyInt:
		return 3, 0
	case SmallInt:
		return 5, 0
	case Int:
		return 10, 0
	case BigInt:
		return 19, 0
	}
	return t.Precision, t.Scale
}

// commonExactNumericType merges two exact numeric types: the wider integer,
// or a DECIMAL with room for the larger integral part and the larger scale.
func commonExactNumericType(result, t Type) Type {
	if Equal(result, t) {
		return result
	}
	p1, s1 := exactPrecision(result)
	p2, s2 := exactPrecision(t)
	if result.Kind != Decimal && t.Kind != Decimal {
		if p2 > p1 {
			return t
		}
		return result
	}
	d := min(max(p1-s1, p2-s2), flinkMaxDecimalPrecision)
	s := min(max(s1, s2), flinkMaxDecimalPrecision-d)
	return DecimalType(d+s, s)
}

// commonPrecisionType merges TIME, TIMESTAMP and interval types of the same
// family at the larger precision; TIMESTAMP with TIMESTAMP_LTZ gives
// TIMESTAMP_LTZ.
func commonPrecisionType(result, t Type) Type {
	kind := t.Kind
	if result.Kind == TimestampLTZ {
		kind = TimestampLTZ
	}
	return Type{Kind: kind, Precision: max(result.Precision, t.Precision)}
}

// commonCastableType is LogicalTypeMerging.findCommonCastableType: the
// first type, replaced by the other when it casts to it implicitly.
func commonCastableType(ts [2]Type) (Type, bool) {
	result := ts[0]
	for _, t := range ts {
		if t.Kind == Null {
			continue
		}
		if ImplicitCast(result, t) {
			result = t
		} else if !ImplicitCast(t, result) {
			return Type{}, false
		}
	}
	return result, true
}

// Result types of DECIMAL arithmetic, after LogicalTypeMerging (adopted there
// from SQL Server, with Hive/Spark's scale adjustment above precision 38).
// Integer operands count as DECIMAL(3, 0) ... DECIMAL(19, 0). The results
// are NOT NULL; apply the operands' nullability.

// DecimalAddType is the type of a + b and a - b.
func DecimalAddType(a, b Type) Type {
	p1, s1 := exactPrecision(a)
	p2, s2 := exactPrecision(b)
	s := max(s1, s2)
	return adjustPrecisionScale(max(p1-s1, p2-s2)+s+1, s)
}

// DecimalMultiplyType is the type of a * b.
func DecimalMultiplyType(a, b Type) Type {
	p1, s1 := exactPrecision(a)
	p2, s2 := exactPrecision(b)
	return adjustPrecisionScale(p1+p2+1, s1+s2)
}

// DecimalDivideType is the type of a / b.
func DecimalDivideType(a, b Type) Type {
	p1, s1 := exactPrecision(a)
	p2, s2 := exactPrecision(b)
	s := max(6, s1+p2+1)
	return adjustPrecisionScale(p1-s1+s2+s, s)
}

// DecimalModType is the type of MOD(a, b).
func DecimalModType(a, b Type) Type {
	p1, s1 := exactPrecision(a)
	p2, s2 := exactPrecision(b)
	s := max(s1, s2)
	return adjustPrecisionScale(min(p1-s1, p2-s2)+s, s)
}

// adjustPrecisionScale caps the precision at 38, giving up fraction digits
// (but keeping at least min(scale, 6)) to keep the integral part.
func adjustPrecisionScale(precision, scale int) Type {
	if precision <= flinkMaxDecimalPrecision {
		return Type{Kind: Decimal, NotNull: true, Precision: precision, Scale: scale}
	}
	digits := precision - scale
	s := max(flinkMaxDecimalPrecision-digits, min(scale, 6))
	return Type{Kind: Decimal, NotNull: true, Precision: flinkMaxDecimalPrecision, Scale: s}
}
