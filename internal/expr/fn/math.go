package fn

import (
	"crypto/rand"
	"fmt"
	"math"
	"math/big"
	mrand "math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// Arithmetic functions, after Flink's "Arithmetic Functions" documentation
// and SqlFunctionUtils. Functions of DOUBLE follow java.lang.Math (NaN for
// a negative LN or SQRT argument, no error).

// doubleFuncs map DOUBLE to DOUBLE; any numeric argument is widened.
var doubleFuncs = map[string]func(float64) float64{
	"SQRT":    math.Sqrt,
	"EXP":     math.Exp,
	"LN":      math.Log,
	"LOG10":   math.Log10,
	"LOG2":    math.Log2,
	"SIN":     math.Sin,
	"COS":     math.Cos,
	"TAN":     math.Tan,
	"COT":     func(x float64) float64 { return 1 / math.Tan(x) },
	"ASIN":    math.Asin,
	"ACOS":    math.Acos,
	"ATAN":    math.Atan,
	"SINH":    math.Sinh,
	"COSH":    math.Cosh,
	"TANH":    math.Tanh,
	"DEGREES": func(x float64) float64 { return x * 180 / math.Pi },
	"RADIANS": func(x float64) float64 { return x / 180 * math.Pi },
}

// doubleFuncs2 map two DOUBLEs to a DOUBLE.
var doubleFuncs2 = map[string]func(a, b float64) float64{
	"POWER": math.Pow,
	"ATAN2": math.Atan2,
}

func init() {
	for name, f := range doubleFuncs {
		register(bindDoubleFunc(name, f), name)
	}
	for name, f := range doubleFuncs2 {
		register(bindDoubleFunc2(name, f), name)
	}
	scalars["POW"] = &Scalar{Name: "POW", Bind: scalars["POWER"].Bind}
	register(bindLog, "LOG")
	register(bindConstant("PI", math.Pi), "PI")
	register(bindConstant("E", math.E), "E")
	register(bindAbs, "ABS")
	register(bindSign, "SIGN")
	register(bindRound("ROUND", true), "ROUND")
	register(bindRound("TRUNCATE", false), "TRUNCATE")
	register(bindFloorCeil("FLOOR", false), "FLOOR")
	register(bindFloorCeil("CEIL", true), "CEIL", "CEILING")
	register(bindBin, "BIN")
	register(bindHex, "HEX")
	registerDynamic(bindRand, "RAND")
	registerDynamic(bindRandInteger, "RAND_INTEGER")
	registerDynamic(bindUUID, "UUID")
}

func bindDoubleFunc(name string, f func(float64) float64) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if !match(args, numeric) {
			return types.Type{}, nil, sigError(name, "(NUMERIC)", args)
		}
		x := toFloat(args[0].Type)
		return strictType(types.DoubleType, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
			return types.FloatValue(f(x(v[0]))), nil
		}), nil
	}
}

func bindDoubleFunc2(name string, f func(a, b float64) float64) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if !match(args, numeric, numeric) {
			return types.Type{}, nil, sigError(name, "(NUMERIC, NUMERIC)", args)
		}
		x, y := toFloat(args[0].Type), toFloat(args[1].Type)
		return strictType(types.DoubleType, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
			return types.FloatValue(f(x(v[0]), y(v[1]))), nil
		}), nil
	}
}

// LOG(x) is the natural logarithm; LOG(base, x) is LN(x) / LN(base).
func bindLog(args []Arg) (types.Type, Eval, error) {
	if match(args, numeric) {
		return bindDoubleFunc("LOG", math.Log)(args)
	}
	if match(args, numeric, numeric) {
		return bindDoubleFunc2("LOG", func(b, x float64) float64 { return math.Log(x) / math.Log(b) })(args)
	}
	return types.Type{}, nil, sigError("LOG", "(NUMERIC) or (NUMERIC base, NUMERIC)", args)
}

func bindConstant(name string, c float64) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if len(args) != 0 {
			return types.Type{}, nil, sigError(name, "()", args)
		}
		return types.DoubleType.WithNotNull(true), func(*Context, []types.Value) (types.Value, error) {
			return types.FloatValue(c), nil
		}, nil
	}
}

// numericUnary binds a function from a numeric type to itself, with one
// implementation for int64-held values (integers, unscaled decimals), one
// for 128-bit decimals and one for floats.
func numericUnary(name string, args []Arg, i func(t types.Type) func(int64) int64, w func(t types.Type) func(types.Int128) types.Int128, f func(float64) float64) (types.Type, Eval, error) {
	if !match(args, numeric) || args[0].Type.Kind == types.Null {
		return types.Type{}, nil, sigError(name, "(NUMERIC)", args)
	}
	t := args[0].Type.Plain()
	switch {
	case t.Physical() == types.PhysFloat:
		return t, strict(func(_ *Context, v []types.Value) (types.Value, error) {
			return types.FloatValue(f(v[0].F)), nil
		}), nil
	case t.IsWideDecimal():
		g := w(t)
		return t, strict(func(_ *Context, v []types.Value) (types.Value, error) {
			return types.StringValue(g(types.DecimalUnscaled(t, v[0])).Encode()), nil
		}), nil
	}
	g, k := i(t), t.Kind
	return t, strict(func(_ *Context, v []types.Value) (types.Value, error) {
		return types.IntValue(wrapInt(k, g(v[0].I))), nil
	}), nil
}

// ABS(x) has x's type; the integer minimum stays negative as with Java's
// Math.abs.
func bindAbs(args []Arg) (types.Type, Eval, error) {
	return numericUnary("ABS", args, func(types.Type) func(int64) int64 {
		return func(x int64) int64 {
			if x < 0 {
				return -x
			}
			return x
		}
	}, func(types.Type) func(types.Int128) types.Int128 {
		return func(x types.Int128) types.Int128 {
			if x.Sign() < 0 {
				return x.Neg()
			}
			return x
		}
	}, math.Abs)
}

// SIGN(x) is -1, 0 or 1 in x's type (NaN stays NaN).
func bindSign(args []Arg) (types.Type, Eval, error) {
	return numericUnary("SIGN", args, func(t types.Type) func(int64) int64 {
		one := pow10[scaleOf(t)]
		return func(x int64) int64 {
			switch {
			case x > 0:
				return one
			case x < 0:
				return -one
			}
			return 0
		}
	}, func(t types.Type) func(types.Int128) types.Int128 {
		one, _ := types.Int128Of(1).Rescale(0, t.Scale)
		return func(x types.Int128) types.Int128 {
			switch x.Sign() {
			case 1:
				return one
			case -1:
				return one.Neg()
			}
			return x
		}
	}, func(x float64) float64 {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return x
	})
}

// bindRound is ROUND(x[, d]) (HALF_UP) or TRUNCATE(x[, d]) (toward zero).
// d defaults to 0 and may be negative. The result type is x's, except for
// DECIMAL(p, s) with a constant d < s: DECIMAL(1+p-s+d, d), or
// DECIMAL(1+p-s, 0) for d < 0 (LogicalTypeMerging.findRoundDecimalType),
// capped at 38 digits; NOT NULL when the arguments are
// (FlinkReturnTypes.ROUND_FUNCTION_NULLABLE), unless the cap may make the
// result overflow.
// DOUBLE is rounded on its shortest decimal form, as Flink's
// SqlFunctionUtils.sround does through BigDecimal.valueOf.
func bindRound(name string, halfUp bool) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if (!match(args, numeric) && !match(args, numeric, integer)) || args[0].Type.Kind == types.Null {
			return types.Type{}, nil, sigError(name, "(NUMERIC [, INT digits])", args)
		}
		t := args[0].Type.Plain()
		rt := strictType(t, args)
		d, constant := int64(0), true
		if len(args) == 2 {
			d, constant = constInt(args[1])
		}
		digits := func(v []types.Value) int64 { return v[1].I }
		switch {
		case constant:
			digits = func([]types.Value) int64 { return d }
			if t.Kind == types.Decimal && int(d) < t.Scale {
				p, s := t.Precision, t.Scale
				rt = types.DecimalType(min(maxDecimalPrecision, 1+p-s+max(int(d), 0)), max(int(d), 0))
			}
		case t.Kind == types.Decimal:
			return types.Type{}, nil, sigError(name, "(DECIMAL, constant INT digits)", args)
		}
		rt = rt.WithNotNull(!anyNullable(args))
		if t.Physical() == types.PhysFloat {
			narrow := t.Kind == types.Float
			return rt, strict(func(_ *Context, v []types.Value) (types.Value, error) {
				r := roundFloat(v[0].F, digits(v), halfUp)
				if narrow {
					r = float64(float32(r))
				}
				return types.FloatValue(r), nil
			}), nil
		}
		s, rs, k := scaleOf(t), scaleOf(rt), t.Kind
		if halfUp && t.Kind == types.Decimal && int(d) < t.Scale && 1+t.Precision-t.Scale > maxDecimalPrecision {
			// Rounding a DECIMAL(38, 0) to tens may need a 39th digit:
			// the value is then NULL, as Flink's DecimalData gives.
			rt = rt.Nullable()
		}
		if t.IsWideDecimal() || rt.IsWideDecimal() {
			return rt, strict(func(_ *Context, v []types.Value) (types.Value, error) {
				d := min(digits(v), int64(s))
				x := roundDigits128(unscaled128(t, v[0]), s, int(max(d, -maxDecimalPrecision-1)), halfUp)
				r, ok := x.Rescale(int(max(d, -maxDecimalPrecision-1)), rs)
				if !ok {
					return types.NullValue, nil
				}
				return types.DecimalOf(rt, r), nil
			}), nil
		}
		return rt, strict(func(_ *Context, v []types.Value) (types.Value, error) {
			d := min(digits(v), int64(s))
			x := roundDigits(v[0].I, int64(s)-d, halfUp)
			if k == types.Decimal {
				r := rescaleBig(big.NewInt(x), s, rs)
				return fitDecimal(r, rt), nil
			}
			return types.IntValue(wrapInt(k, x)), nil
		}), nil
	}
}

// roundDigits rounds unscaled x to a multiple of 10^n (n > 0), keeping the
// scale: HALF_UP or toward zero.
func roundDigits(x, n int64, halfUp bool) int64 {
	if n <= 0 {
		return x
	}
	if n > 18 {
		return 0
	}
	p := pow10[n]
	if halfUp {
		return roundHalfUp64(x, int(n)) * p
	}
	return x / p * p
}

// roundDigits128 rounds unscaled x at scale s to d fraction digits (d <= s,
// negative to round to tens, hundreds, ...), HALF_UP or toward zero,
// giving the unscaled value at scale d (for d < 0, a count of 10^-d).
func roundDigits128(x types.Int128, s, d int, halfUp bool) types.Int128 {
	if halfUp {
		r, _ := x.Rescale(s, d)
		return r
	}
	q, _ := x.QuoRem10(s - d)
	return q
}

// roundFloat rounds f to d decimal digits on its shortest decimal
// representation (Double.toString's digits).
func roundFloat(f float64, d int64, halfUp bool) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) || d > 300 {
		return f
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	if !ok {
		return f
	}
	scale := new(big.Rat).SetInt(bigPow10(int(max(d, -d))))
	if d >= 0 {
		r.Mul(r, scale)
	} else {
		r.Quo(r, scale)
	}
	q := new(big.Int).Quo(r.Num(), r.Denom())
	if halfUp {
		q = divHalfUp(r.Num(), r.Denom())
	}
	out := new(big.Rat).SetInt(q)
	if d >= 0 {
		out.Quo(out, scale)
	} else {
		out.Mul(out, scale)
	}
	x, _ := out.Float64()
	return x
}

// bindFloorCeil is FLOOR/CEIL of a number (integers unchanged, DECIMAL(p, s)
// to DECIMAL(p, 0), DOUBLE to DOUBLE) or, with a unit, of a date or
// timestamp: FLOOR(ts TO unit) rounds down to the start of the unit,
// CEIL(ts TO unit) up to the next start unless already on one. Weeks
// start on Sunday (Calcite's julian floor); TIMESTAMP_LTZ is rounded in the
// session time zone.
func bindFloorCeil(name string, ceil bool) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if len(args) == 2 && args[1].Unit != "" && match(args[:1], datetime) {
			return bindTimeFloorCeil(name, ceil, args)
		}
		if len(args) == 2 && args[1].Unit != "" && args[0].Unit == "" && args[0].Type.Kind == types.Time {
			return bindTimeOfDayFloorCeil(name, ceil, args)
		}
		if !match(args, numeric) || args[0].Type.Kind == types.Null {
			return types.Type{}, nil, sigError(name, "(NUMERIC) or (DATE|TIMESTAMP|TIMESTAMP_LTZ TO unit)", args)
		}
		t := args[0].Type.Plain()
		fl := math.Floor
		if ceil {
			fl = math.Ceil
		}
		if t.IsWideDecimal() {
			rt := types.DecimalType(t.Precision, 0).WithNotNull(!anyNullable(args))
			return rt, strict(func(_ *Context, v []types.Value) (types.Value, error) {
				return types.StringValue(floorCeil128(types.DecimalUnscaled(t, v[0]), t.Scale, ceil).Encode()), nil
			}), nil
		}
		if t.Kind == types.Decimal {
			rt := types.DecimalType(t.Precision, 0).WithNotNull(!anyNullable(args))
			p := pow10[t.Scale]
			return rt, strict(func(_ *Context, v []types.Value) (types.Value, error) {
				q := floorDiv(v[0].I, p)
				if ceil && q*p != v[0].I {
					q++
				}
				return types.IntValue(q), nil
			}), nil
		}
		return numericUnary(name, args, func(types.Type) func(int64) int64 {
			return func(x int64) int64 { return x }
		}, nil, fl)
	}
}

// floorCeil128 returns unscaled x at scale s rounded down (or up, ceil) to
// an integer, at scale 0.
func floorCeil128(x types.Int128, s int, ceil bool) types.Int128 {
	q, _ := x.QuoRem10(s)
	if back, _ := q.Rescale(0, s); back != x {
		switch {
		case ceil && x.Sign() > 0:
			q, _ = q.Add(types.Int128Of(1))
		case !ceil && x.Sign() < 0:
			q, _ = q.Add(types.Int128Of(-1))
		}
	}
	return q
}

func bindTimeFloorCeil(name string, ceil bool, args []Arg) (types.Type, Eval, error) {
	t, unit := args[0].Type, args[1].Unit
	months, calendar := unitMonths[unit]
	n, fixed := unitNanos[unit]
	if !calendar && !fixed {
		return types.Type{}, nil, sigError(name, "(DATE|TIMESTAMP|TIMESTAMP_LTZ TO YEAR|QUARTER|MONTH|WEEK|DAY|HOUR|MINUTE|SECOND|MILLISECOND)", args)
	}
	// floor rounds a wall clock (in UTC) down to the unit; weeks start on
	// Sunday.
	floor := func(c time.Time) time.Time {
		switch {
		case calendar:
			return time.Date(c.Year(), time.Month((int64(c.Month())-1)/months*months+1), 1, 0, 0, 0, 0, time.UTC)
		case unit == "WEEK":
			return time.Date(c.Year(), c.Month(), c.Day()-int(c.Weekday()), 0, 0, 0, 0, time.UTC)
		}
		nod := int64(c.Hour())*3600*nanosPerSecond + int64(c.Minute())*60*nanosPerSecond +
			int64(c.Second())*nanosPerSecond + int64(c.Nanosecond())
		return c.Add(-time.Duration(nod % n))
	}
	round := func(c time.Time) time.Time {
		f := floor(c)
		if !ceil || f.Equal(c) {
			return f
		}
		if calendar {
			return f.AddDate(0, int(months), 0)
		}
		return f.Add(time.Duration(n))
	}
	var eval func(ctx *Context, x types.Value) (types.Value, bool)
	switch {
	case t.Kind == types.Date:
		eval = func(_ *Context, x types.Value) (types.Value, bool) {
			return types.IntValue(floorDiv(round(time.Unix(x.I*86400, 0).UTC()).Unix(), 86400)), true
		}
	case t.Kind == types.TimestampLTZ:
		eval = func(ctx *Context, x types.Value) (types.Value, bool) {
			w := round(wallUTC(types.TimestampTime(t.Precision, x).In(ctx.loc())))
			return types.TimestampOf(t.Precision, time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), ctx.loc()))
		}
	case fixed && unit != "WEEK" && n >= 1000 && !t.IsNanoTimestamp(): // the common case, in integer microseconds
		n := n / 1000
		eval = func(_ *Context, x types.Value) (types.Value, bool) {
			f, ok := types.MultiplyExact(floorDiv(x.I, n), n)
			if !ok || !types.TimestampInRange(f) {
				return types.NullValue, false
			}
			if !ceil || f == x.I {
				return types.IntValue(f), true
			}
			f, ok = types.AddMicros(f, n)
			return types.IntValue(f), ok
		}
	default:
		eval = func(_ *Context, x types.Value) (types.Value, bool) {
			return types.TimestampOf(t.Precision, round(wallClock(t.Precision, x)))
		}
	}
	return t.Plain().WithNotNull(!anyNullable(args[:1])), strict(func(ctx *Context, v []types.Value) (types.Value, error) {
		r, ok := eval(ctx, v[0])
		if !ok {
			return types.NullValue, rangeError(name, fmt.Sprintf("%s(%s TO %s)", name, types.LiteralText(t, v[0], ctx.loc()), unit))
		}
		return r, nil
	}), nil
}

// bindTimeOfDayFloorCeil rounds a TIME: "FLOOR(TIME '12:44:31' TO MINUTE)
// returns 12:44:00", "CEIL(TIME '12:44:31' TO MINUTE) returns 12:45:00",
// to HOUR, MINUTE, SECOND or MILLISECOND. A TIME rounded up past
// 23:59:59.999 wraps to 00:00:00, as TIME arithmetic does.
func bindTimeOfDayFloorCeil(name string, ceil bool, args []Arg) (types.Type, Eval, error) {
	n, ok := unitNanos[args[1].Unit]
	if !ok || n < nanosPerMilli || n >= nanosPerDay {
		return types.Type{}, nil, sigError(name, "(TIME TO HOUR|MINUTE|SECOND|MILLISECOND)", args)
	}
	return args[0].Type.Plain(), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		f := floorDiv(v[0].I, n) * n
		if ceil && f != v[0].I {
			f = (f + n) % nanosPerDay
		}
		return types.IntValue(f), nil
	}), nil
}

// BIN(x): "Returns a string representation of integer in binary format",
// two's complement for negatives (Long.toBinaryString).
func bindBin(args []Arg) (types.Type, Eval, error) {
	if !match(args, integer) {
		return types.Type{}, nil, sigError("BIN", "(INTEGER)", args)
	}
	return strictType(types.StringType, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		return types.StringValue(strconv.FormatUint(uint64(v[0].I), 2)), nil
	}), nil
}

// HEX(x): "Returns a string representation of an integer NUMERIC value or
// a STRING in hex format. E.g. a numeric 20 leads to "14", a numeric 100
// leads to "64", a string "hello,world" leads to "68656C6C6F2C776F726C64"."
func bindHex(args []Arg) (types.Type, Eval, error) {
	switch {
	case match(args, integer):
		return strictType(types.StringType, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
			return types.StringValue(strings.ToUpper(strconv.FormatUint(uint64(v[0].I), 16))), nil
		}), nil
	case match(args, str):
		return strictType(types.StringType, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
			return types.StringValue(fmt.Sprintf("%X", v[0].S)), nil
		}), nil
	}
	return types.Type{}, nil, sigError("HEX", "(INTEGER) or (STRING)", args)
}

// randSource is the generator of one RAND call site: seeded calls repeat the
// same sequence, as Flink's RAND(seed) does per call site (not Java's
// sequence, though); unseeded ones use the global generator. It is safe for
// concurrent use.
type randSource struct {
	mu sync.Mutex
	r  *mrand.Rand
}

func newRandSource(args []Arg) (*randSource, error) {
	if len(args) == 0 {
		return &randSource{}, nil
	}
	seed, ok := constInt(args[0])
	if !ok {
		return nil, fmt.Errorf("seed must be a constant integer")
	}
	return &randSource{r: mrand.New(mrand.NewPCG(uint64(seed), 0))}, nil
}

func (s *randSource) float64() float64 {
	if s.r == nil {
		return mrand.Float64()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Float64()
}

func (s *randSource) int64n(n int64) int64 {
	if s.r == nil {
		return mrand.Int64N(n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Int64N(n)
}

// RAND([seed]): "Returns a pseudorandom double value in the range [0.0,
// 1.0)".
func bindRand(args []Arg) (types.Type, Eval, error) {
	if !match(args) && !match(args, integer) {
		return types.Type{}, nil, sigError("RAND", "([INT seed])", args)
	}
	r, err := newRandSource(args)
	if err != nil {
		return types.Type{}, nil, sigError("RAND", "([constant INT seed])", args)
	}
	return types.DoubleType.WithNotNull(true), func(*Context, []types.Value) (types.Value, error) {
		return types.FloatValue(r.float64()), nil
	}, nil
}

// RAND_INTEGER([seed, ] bound): "Returns a pseudorandom integer value in the
// range [0, integer)".
func bindRandInteger(args []Arg) (types.Type, Eval, error) {
	if !match(args, integer) && !match(args, integer, integer) {
		return types.Type{}, nil, sigError("RAND_INTEGER", "([INT seed, ] INT bound)", args)
	}
	r, err := newRandSource(args[:len(args)-1])
	if err != nil {
		return types.Type{}, nil, sigError("RAND_INTEGER", "([constant INT seed, ] INT bound)", args)
	}
	b := len(args) - 1
	return strictType(types.IntType, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		bound := v[b].I
		if bound <= 0 {
			return types.Value{}, runtimeError("RAND_INTEGER", "bound must be positive")
		}
		return types.IntValue(r.int64n(bound)), nil
	}), nil
}

// UUID(): "Returns an UUID (Universally Unique Identifier) string (e.g.,
// "3d3c68f7-f608-473f-b60c-b0c44ad4cc4e") according to RFC 4122 type 4 (pseudo
// randomly generated) UUID." It is a CHAR(36) NOT NULL
// (FlinkSqlOperatorTable.UUID).
func bindUUID(args []Arg) (types.Type, Eval, error) {
	if len(args) != 0 {
		return types.Type{}, nil, sigError("UUID", "()", args)
	}
	return types.Type{Kind: types.Char, Length: 36, NotNull: true}, func(*Context, []types.Value) (types.Value, error) {
		var b [16]byte
		_, _ = rand.Read(b[:])
		b[6] = b[6]&0x0f | 0x40
		b[8] = b[8]&0x3f | 0x80
		return types.StringValue(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])), nil
	}, nil
}
