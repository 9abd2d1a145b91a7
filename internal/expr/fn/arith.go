package fn

import (
	"fmt"
	"math"
	"math/big"

	"github.com/sluicesql/sluice/internal/types"
)

// Arithmetic operators, after Flink's ScalarOperatorGens and
// LogicalTypeMerging:
//
//   - two integers yield the wider integer type and wrap around on overflow
//     like Java (INT + INT is INT); / is integer division truncating toward
//     zero and fails with "/ by zero"; % (MOD) yields the type of the divisor;
//   - a DOUBLE operand makes the result DOUBLE (FLOAT with FLOAT or an
//     integer stays FLOAT; FLOAT with DECIMAL is DOUBLE); / by zero gives
//     Infinity or NaN as in Java;
//   - otherwise the operation is on DECIMAL with Flink's precision/scale
//     derivation (p1+p2+1 / s1+s2 for *, max(6, s1+p2+1) scale for /, ...),
//     capped at precision 38 (LogicalTypeMerging); results round HALF_UP and
//     overflow to NULL, as Flink's DecimalData does; / first rounds the
//     quotient to 38 significant digits (DecimalDataUtils.divide).

// arithOp describes one binary arithmetic operator.
type arithOp struct {
	name    string
	intOp   func(a, b int64) (int64, error)
	floatOp func(a, b float64) float64 // nil: approximate operands rejected
	// decType derives Flink's result DECIMAL type from the operand types.
	decType func(a, b types.Type) types.Type
	// decOp computes on unscaled operands with scales s1, s2, returning the
	// unscaled result at scale rs.
	decOp func(a, b *big.Int, s1, s2, rs int) (*big.Int, error)
}

// errDivZero is the message of Java's ArithmeticException for integers.
const errDivZero = "/ by zero"

var arithOps = []*arithOp{
	{
		name:    "+",
		intOp:   func(a, b int64) (int64, error) { return a + b, nil },
		floatOp: func(a, b float64) float64 { return a + b },
		decType: types.DecimalAddType,
		decOp: func(a, b *big.Int, s1, s2, rs int) (*big.Int, error) {
			s := max(s1, s2)
			x := new(big.Int).Add(rescaleBig(a, s1, s), rescaleBig(b, s2, s))
			return rescaleBig(x, s, rs), nil
		},
	},
	{
		name:    "-",
		intOp:   func(a, b int64) (int64, error) { return a - b, nil },
		floatOp: func(a, b float64) float64 { return a - b },
		decType: types.DecimalAddType,
		decOp: func(a, b *big.Int, s1, s2, rs int) (*big.Int, error) {
			s := max(s1, s2)
			x := new(big.Int).Sub(rescaleBig(a, s1, s), rescaleBig(b, s2, s))
			return rescaleBig(x, s, rs), nil
		},
	},
	{
		name:    "*",
		intOp:   func(a, b int64) (int64, error) { return a * b, nil },
		floatOp: func(a, b float64) float64 { return a * b },
		decType: types.DecimalMultiplyType,
		decOp: func(a, b *big.Int, s1, s2, rs int) (*big.Int, error) {
			return rescaleBig(new(big.Int).Mul(a, b), s1+s2, rs), nil
		},
	},
	{
		name: "/",
		intOp: func(a, b int64) (int64, error) {
			if b == 0 {
				return 0, runtimeError("/", errDivZero)
			}
			return a / b, nil
		},
		floatOp: func(a, b float64) float64 { return a / b },
		decType: types.DecimalDivideType,
		decOp: func(a, b *big.Int, s1, s2, rs int) (*big.Int, error) {
			if b.Sign() == 0 {
				return nil, runtimeError("/", "Division by zero")
			}
			return divideFlink(a, b, s1, s2, rs), nil
		},
	},
	{
		name: "%",
		intOp: func(a, b int64) (int64, error) {
			if b == 0 {
				return 0, runtimeError("%", errDivZero)
			}
			return a % b, nil
		},
		decType: types.DecimalModType,
		decOp: func(a, b *big.Int, s1, s2, rs int) (*big.Int, error) {
			if b.Sign() == 0 {
				return nil, runtimeError("%", "Division by zero")
			}
			s := max(s1, s2)
			q, x := new(big.Int).QuoRem(rescaleBig(a, s1, s), rescaleBig(b, s2, s), new(big.Int))
			if decimalDigits(q) > maxDecimalPrecision {
				// BigDecimal.remainder with MathContext(38) needs the
				// integral quotient in 38 digits.
				return nil, runtimeError("%", "Division impossible")
			}
			return rescaleBig(x, s, rs), nil
		},
	},
}

func init() {
	for _, op := range arithOps {
		register(op.bind, op.name)
	}
	scalars["MOD"] = &Scalar{Name: "MOD", Bind: scalars["%"].Bind}
	register(bindNeg, "NEG")
}

// bind resolves the operator for its operand types.
func (op *arithOp) bind(args []Arg) (types.Type, Eval, error) {
	if len(args) == 2 && (isTemporal(args[0].Type) || isTemporal(args[1].Type)) &&
		(op.name == "+" || op.name == "-" || op.name == "*") {
		return bindTemporalArith(op.name, args)
	}
	if !match(args, numeric, numeric) || (op.floatOp == nil && !match(args, exactNum, exactNum)) {
		expects := "(NUMERIC, NUMERIC)"
		if op.floatOp == nil {
			expects = "(exact NUMERIC, exact NUMERIC)"
		}
		return types.Type{}, nil, sigError(op.name, expects, args)
	}
	a, b := args[0].Type, args[1].Type
	if a.Kind == types.Null {
		a = b
	}
	if b.Kind == types.Null {
		b = a
	}
	if a.Kind == types.Null {
		a, b = types.IntType, types.IntType
	}
	nullable := anyNullable(args)
	common, _ := types.CommonType(a.Plain(), b.Plain())
	switch {
	case a.Kind == types.Float || a.Kind == types.Double || b.Kind == types.Float || b.Kind == types.Double:
		rt := common
		fa, fb, f := toFloat(a), toFloat(b), op.floatOp
		narrow := rt.Kind == types.Float
		return rt.WithNotNull(!nullable), strict(func(_ *Context, v []types.Value) (types.Value, error) {
			r := f(fa(v[0]), fb(v[1]))
			if narrow {
				r = float64(float32(r))
			}
			return types.FloatValue(r), nil
		}), nil
	case a.Kind == types.Decimal || b.Kind == types.Decimal:
		return op.bindDecimal(a, b, nullable)
	}
	rt := common
	if op.name == "%" {
		rt = types.Type{Kind: b.Kind}
	}
	k, f := rt.Kind, op.intOp
	return rt.WithNotNull(!nullable), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		r, err := f(v[0].I, v[1].I)
		return types.IntValue(wrapInt(k, r)), err
	}), nil
}

// decFast returns the decimal operation op on unscaled int64 operands of
// scales s1 and s2 giving the unscaled result at scale rs, rounded HALF_UP
// as rescaleBig rounds, and false when an intermediate value leaves int64
// (the caller then computes exactly); nil when op has no such form.
func decFast(op string, s1, s2, rs int) func(a, b int64) (int64, bool) {
	switch op {
	case "+", "-":
		s := max(s1, s2)
		if rs > s || s-rs > 18 {
			return nil
		}
		ma, mb, sub := pow10[s-s1], pow10[s-s2], op == "-"
		return func(a, b int64) (int64, bool) {
			x, ok1 := types.MultiplyExact(a, ma)
			y, ok2 := types.MultiplyExact(b, mb)
			if sub {
				if y == math.MinInt64 {
					return 0, false
				}
				y = -y
			}
			r, ok3 := types.AddExact(x, y)
			return roundHalfUp64(r, s-rs), ok1 && ok2 && ok3
		}
	case "*":
		d := s1 + s2 - rs
		if d < 0 || d > 18 {
			return nil
		}
		return func(a, b int64) (int64, bool) {
			r, ok := types.MultiplyExact(a, b)
			return roundHalfUp64(r, d), ok
		}
	}
	return nil
}

// bindDecimal binds the operator on exact operands, at least one of them
// DECIMAL.
func (op *arithOp) bindDecimal(a, b types.Type, nullable bool) (types.Type, Eval, error) {
	rt := op.decType(a, b)
	if op.name == "%" && scaleOf(a) == 0 && scaleOf(b) == 0 {
		rt = b.Plain() // Flink's DECIMAL_MOD keeps the divisor's type
	}
	s1, s2, rs, f := scaleOf(a), scaleOf(b), scaleOf(rt), op.decOp
	wide := a.IsWideDecimal() || b.IsWideDecimal() || rt.IsWideDecimal()
	// Flink types the result NOT NULL over NOT NULL operands
	// (nullableIfArgs); a remainder always fits its type, other results
	// only when the precision was not capped.
	rt = rt.WithNotNull(!nullable && (op.name == "%" || !decimalMayOverflow(rt)))
	switch {
	case !wide:
		fast, limit := decFast(op.name, s1, s2, rs), pow10[18]
		if rt.Kind == types.Decimal {
			limit = pow10[rt.Precision]
		}
		return rt, strict(func(_ *Context, v []types.Value) (types.Value, error) {
			// Exact in 64 bits and within the precision, the result is
			// the one of the exact computation below.
			if fast != nil {
				if r, ok := fast(v[0].I, v[1].I); ok && r < limit && r > -limit {
					return types.IntValue(r), nil
				}
			}
			r, err := f(bigOf(a, v[0]), bigOf(b, v[1]), s1, s2, rs)
			if err != nil {
				return types.Value{}, err
			}
			return fitDecimal(r, rt), nil
		}), nil
	case (op.name == "+" || op.name == "-") && s1 == rs && s2 == rs:
		neg := op.name == "-"
		return rt, strict(func(_ *Context, v []types.Value) (types.Value, error) {
			y := unscaled128(b, v[1])
			if neg {
				y = y.Neg()
			}
			r, over := unscaled128(a, v[0]).Add(y)
			if over {
				return types.NullValue, nil
			}
			return types.DecimalOf(rt, r), nil
		}), nil
	case op.name == "*" && s1+s2 == rs && !a.IsWideDecimal() && !b.IsWideDecimal():
		// Two int64 operands: the exact product fits 128 bits.
		return rt, strict(func(_ *Context, v []types.Value) (types.Value, error) {
			return types.DecimalOf(rt, types.Mul64(v[0].I, v[1].I)), nil
		}), nil
	}
	return rt, strict(func(_ *Context, v []types.Value) (types.Value, error) {
		r, err := f(bigOf(a, v[0]), bigOf(b, v[1]), s1, s2, rs)
		if err != nil {
			return types.Value{}, err
		}
		return fitDecimal(r, rt), nil
	}), nil
}

// unscaled128 returns the unscaled value of v, a non-NULL value of the
// exact numeric type t.
func unscaled128(t types.Type, v types.Value) types.Int128 {
	if t.IsWideDecimal() {
		return types.DecimalUnscaled(t, v)
	}
	return types.Int128Of(v.I)
}

// bindNeg is unary minus on numbers and intervals. Integer negation wraps
// like Java (-(-2147483648) is -2147483648 for INT).
func bindNeg(args []Arg) (types.Type, Eval, error) {
	if len(args) != 1 || args[0].Unit != "" {
		return types.Type{}, nil, sigError("-", "(NUMERIC) or (INTERVAL)", args)
	}
	t := args[0].Type
	switch t.Kind {
	case types.Float, types.Double:
		return t.Plain(), strict(func(_ *Context, v []types.Value) (types.Value, error) {
			return types.FloatValue(-v[0].F), nil
		}), nil
	case types.Decimal:
		if t.IsWideDecimal() {
			return t.Plain(), strict(func(_ *Context, v []types.Value) (types.Value, error) {
				return types.StringValue(types.DecimalUnscaled(t, v[0]).Neg().Encode()), nil
			}), nil
		}
		return t.Plain(), strict(func(_ *Context, v []types.Value) (types.Value, error) {
			return types.IntValue(-v[0].I), nil
		}), nil
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt,
		types.IntervalDayTime, types.IntervalYearMonth, types.Null:
		k := t.Kind
		return t.Plain(), strict(func(_ *Context, v []types.Value) (types.Value, error) {
			return types.IntValue(wrapInt(k, -v[0].I)), nil
		}), nil
	}
	return types.Type{}, nil, sigError("-", "(NUMERIC) or (INTERVAL)", args)
}

func isTemporal(t types.Type) bool {
	switch t.Kind {
	case types.Date, types.Time, types.Timestamp, types.TimestampLTZ,
		types.IntervalDayTime, types.IntervalYearMonth:
		return true
	}
	return false
}

const (
	nanosPerMilli  = int64(1_000_000)
	nanosPerSecond = int64(1_000_000_000)
	millisPerDay   = int64(86_400_000)
	nanosPerDay    = millisPerDay * nanosPerMilli
)

// bindTemporalArith handles datetime ± interval, interval ± interval and
// interval * number, following Flink's generateTemporalPlusMinus:
// DATE + day-time interval adds whole days (the interval's milliseconds
// divided by a day); TIMESTAMP and TIMESTAMP_LTZ + year-month interval add
// calendar months on the UTC representation (the day is clamped to the end
// of the month); TIME + day-time interval wraps around midnight. Flink has no
// datetime - datetime operator (use TIMESTAMPDIFF).
func bindTemporalArith(op string, args []Arg) (types.Type, Eval, error) {
	a, b := args[0].Type, args[1].Type
	sign := int64(1)
	if op == "-" {
		sign = -1
	}
	fail := func() (types.Type, Eval, error) {
		return types.Type{}, nil, sigError(op, "(DATETIME, INTERVAL), (INTERVAL, DATETIME) for +, (INTERVAL, INTERVAL) or (INTERVAL, NUMERIC) for *", args)
	}
	if op == "*" {
		iv, n := a, b
		swap := false
		if !isInterval(iv) {
			iv, n, swap = b, a, true
		}
		if !isInterval(iv) || !numeric(n) {
			return fail()
		}
		toF := toFloat(n)
		return iv.Plain().WithNotNull(!anyNullable(args)), strict(func(_ *Context, v []types.Value) (types.Value, error) {
			x, y := v[0], v[1]
			if swap {
				x, y = y, x
			}
			if n.IsInteger() {
				if p, ok := types.MultiplyExact(x.I, y.I); ok {
					return types.IntValue(p), nil
				}
			} else if p := float64(x.I) * toF(y); p > math.MinInt64 && p < math.MaxInt64 {
				return types.IntValue(int64(p)), nil
			}
			return types.NullValue, intervalOverflow(op, iv, x, n, y)
		}), nil
	}
	swapped := false
	if isInterval(a) && !isInterval(b) {
		if op == "-" {
			return fail()
		}
		a, b, swapped = b, a, true
	}
	// Each f (ft for timestamps) returns false when the result leaves the
	// range of its type.
	var f func(x, iv int64) (int64, bool)
	var ft func(x types.Value, iv int64) (types.Value, bool)
	switch {
	case isInterval(a) && a.Kind == b.Kind:
		f = func(x, iv int64) (int64, bool) { return addSigned(x, sign, iv) }
	case a.Kind == types.Date && b.Kind == types.IntervalDayTime:
		f = func(x, iv int64) (int64, bool) {
			d, ok := addSigned(x, sign, iv/millisPerDay)
			return d, ok && types.DateInRange(d)
		}
	case a.Kind == types.Date && b.Kind == types.IntervalYearMonth:
		f = func(x, iv int64) (int64, bool) {
			m, ok := types.MultiplyExact(sign, iv)
			if !ok {
				return 0, false
			}
			return addDateMonths(x, m)
		}
	case a.IsTimestamp() && b.Kind == types.IntervalDayTime:
		p := a.Precision
		ft = func(x types.Value, iv int64) (types.Value, bool) {
			d, ok := types.MultiplyExact(iv, sign*1000)
			if !ok {
				return types.NullValue, false
			}
			return types.AddTimestamp(p, x, d, 0)
		}
	case a.IsTimestamp() && b.Kind == types.IntervalYearMonth:
		ft = func(x types.Value, iv int64) (types.Value, bool) {
			m, ok := types.MultiplyExact(sign, iv)
			if !ok {
				return types.NullValue, false
			}
			return addMonths(a.Precision, x, m)
		}
	case a.Kind == types.Time && b.Kind == types.IntervalDayTime:
		f = func(x, iv int64) (int64, bool) {
			ms := floorMod(iv, millisPerDay)
			if sign < 0 {
				ms = floorMod(-ms, millisPerDay)
			}
			return floorMod(x+ms*nanosPerMilli, nanosPerDay), true
		}
	default:
		return fail()
	}
	rt := a.Plain().WithNotNull(!anyNullable(args))
	return rt, strict(func(ctx *Context, v []types.Value) (types.Value, error) {
		x, iv := v[0], v[1]
		if swapped {
			x, iv = iv, x
		}
		var r types.Value
		ok := true
		if ft != nil {
			r, ok = ft(x, iv.I)
		} else {
			r.I, ok = f(x.I, iv.I)
		}
		if !ok {
			what := types.LiteralText(a, x, ctx.loc()) + " " + op + " " + types.LiteralText(b, iv, ctx.loc())
			if isInterval(a) {
				return types.NullValue, fmt.Errorf("%s overflows the 64-bit range of %s values", what, a.Plain().Nullable())
			}
			return types.NullValue, &types.RangeError{What: what}
		}
		return r, nil
	}), nil
}

// addSigned returns x + sign*y, false when it overflows int64.
func addSigned(x, sign, y int64) (int64, bool) {
	d, ok := types.MultiplyExact(sign, y)
	if !ok {
		return 0, false
	}
	return types.AddExact(x, d)
}

// intervalOverflow reports an interval product beyond 64 bits.
func intervalOverflow(op string, iv types.Type, x types.Value, n types.Type, y types.Value) error {
	return fmt.Errorf("%s %s %s overflows the 64-bit range of %s values",
		types.LiteralText(iv, x, nil), op, types.LiteralText(n, y, nil), iv.Plain().Nullable())
}

func isInterval(t types.Type) bool {
	return t.Kind == types.IntervalDayTime || t.Kind == types.IntervalYearMonth
}

// floorMod is Java's Math.floorMod.
func floorMod(x, y int64) int64 {
	m := x % y
	if m != 0 && (m < 0) != (y < 0) {
		m += y
	}
	return m
}

// floorDiv is Java's Math.floorDiv.
func floorDiv(x, y int64) int64 {
	q := x / y
	if (x%y != 0) && ((x < 0) != (y < 0)) {
		q--
	}
	return q
}

// DecimalArithInto returns CAST(a op b AS to) for op +, - or * on exact
// operands held in int64s whose result type (Flink's, as the operator
// binds it) is held in 16 bytes, and a target DECIMAL held in an int64
// (Nexmark q1's CAST(0.908 * price AS DECIMAL(18, 3))): computed in 128
// bits without the 16-byte intermediate, the value the operator then the
// cast give. ok is false for other operations and types.
func DecimalArithInto(op string, a, b, to types.Type) (Eval, bool) {
	f, ok := decimalArithInto(op, a, b, to)
	if !ok {
		return nil, false
	}
	return strict(func(_ *Context, v []types.Value) (types.Value, error) {
		r, ok := f(v[0].I, v[1].I)
		if !ok {
			return types.NullValue, nil
		}
		return types.IntValue(r), nil
	}), true
}

// decimalArithInto is DecimalArithInto on the operands' int64s: the
// unscaled result, false for NULL.
func decimalArithInto(op string, a, b, to types.Type) (func(x, y int64) (int64, bool), bool) {
	if op != "+" && op != "-" && op != "*" || to.Kind != types.Decimal || to.IsWideDecimal() ||
		!exactNum(a) || !exactNum(b) || a.Kind == types.Null || b.Kind == types.Null ||
		a.IsWideDecimal() || b.IsWideDecimal() || a.Kind != types.Decimal && b.Kind != types.Decimal {
		return nil, false
	}
	var rt types.Type
	for _, o := range arithOps {
		if o.name == op {
			rt = o.decType(a, b)
		}
	}
	s1, s2, rs := scaleOf(a), scaleOf(b), rt.Scale
	if !rt.IsWideDecimal() || op == "*" && s1+s2 != rs || op != "*" && (s1 != rs || s2 != rs) {
		return nil, false
	}
	p, ts := rt.Precision, to.Scale
	var f func(x, y int64) types.Int128
	switch op {
	case "*":
		f = types.Mul64
	case "+":
		f = func(x, y int64) types.Int128 { r, _ := types.Int128Of(x).Add(types.Int128Of(y)); return r }
	default:
		f = func(x, y int64) types.Int128 { r, _ := types.Int128Of(x).Add(types.Int128Of(y).Neg()); return r }
	}
	// The product of int64s that fit one is computed in int64: it has
	// fewer than 19 digits, within the wide precision p; rounding to a
	// smaller scale is then HALF_UP in int64 too.
	fast := op == "*" && ts <= rs && rs-ts <= 18
	limit := pow10[to.Precision]
	return func(x, y int64) (int64, bool) {
		if fast {
			if r, ok := types.MultiplyExact(x, y); ok {
				r = roundHalfUp64(r, rs-ts)
				return r, r < limit && r > -limit
			}
		}
		r := f(x, y)
		if !r.FitsDigits(p) {
			return 0, false // the operator's NULL
		}
		r, ok := r.Rescale(rs, ts)
		if !ok || !r.FitsDigits(to.Precision) {
			return 0, false
		}
		return int64(r.Lo), true
	}, true
}
