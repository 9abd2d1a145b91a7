package fn

import (
	"math"
	"math/big"

	"github.com/sluicesql/sluice/internal/types"
)

// maxDecimalPrecision is Flink's DECIMAL precision limit.
const maxDecimalPrecision = types.MaxDecimalPrecision

// minAdjustedScale is the scale Flink keeps at least when a derived decimal
// precision overflows (LogicalTypeMerging.MINIMUM_ADJUSTED_SCALE).
const minAdjustedScale = 6

// pow10 holds 10^0 .. 10^18.
var pow10 = func() [19]int64 {
	var p [19]int64
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// typePred is a predicate on argument types used to check signatures.
type typePred func(types.Type) bool

// Argument families. The NULL type matches every family: an untyped NULL
// literal fits any parameter and makes a strict function return NULL.
var (
	anyType  typePred = func(types.Type) bool { return true }
	numeric  typePred = func(t types.Type) bool { return t.IsNumeric() || t.Kind == types.Null }
	exactNum typePred = func(t types.Type) bool {
		return t.IsInteger() || t.Kind == types.Decimal || t.Kind == types.Null
	}
	integer  typePred = func(t types.Type) bool { return t.IsInteger() || t.Kind == types.Null }
	str      typePred = func(t types.Type) bool { return t.IsString() || t.Kind == types.Null }
	boolean  typePred = func(t types.Type) bool { return t.Kind == types.Boolean || t.Kind == types.Null }
	datetime typePred = func(t types.Type) bool {
		return t.IsTimestamp() || t.Kind == types.Date || t.Kind == types.Null
	}
	binaryStr typePred = func(t types.Type) bool {
		return t.Kind == types.Binary || t.Kind == types.Varbinary || t.Kind == types.Null
	}
)

// match reports whether args (none of them a Unit) fit preds one to one.
func match(args []Arg, preds ...typePred) bool {
	if len(args) != len(preds) {
		return false
	}
	for i, a := range args {
		if a.Unit != "" || !preds[i](a.Type) {
			return false
		}
	}
	return true
}

// wrapInt truncates x to the width of integer kind k, as Java's narrowing
// conversions do (INT arithmetic overflows silently).
func wrapInt(k types.Kind, x int64) int64 {
	switch k {
	case types.TinyInt:
		return int64(int8(x))
	case types.SmallInt:
		return int64(int16(x))
	case types.Int:
		return int64(int32(x))
	}
	return x
}

// toFloat returns a converter from a numeric type's value to float64.
func toFloat(t types.Type) func(types.Value) float64 {
	switch {
	case t.Kind == types.Float || t.Kind == types.Double:
		return func(v types.Value) float64 { return v.F }
	case t.IsWideDecimal():
		return func(v types.Value) float64 { return types.DecimalFloat(t, v) }
	case t.Kind == types.Decimal:
		div := math.Pow10(t.Scale)
		return func(v types.Value) float64 { return float64(v.I) / div }
	default:
		return func(v types.Value) float64 { return float64(v.I) }
	}
}

// scaleOf is the decimal scale of an exact numeric type (0 for integers).
func scaleOf(t types.Type) int {
	if t.Kind == types.Decimal {
		return t.Scale
	}
	return 0
}

// bigOf returns the unscaled value of v, a non-NULL value of the exact
// numeric type t (an integer's own value), as a big.Int.
func bigOf(t types.Type, v types.Value) *big.Int {
	if t.IsWideDecimal() {
		return types.DecimalBig(t, v)
	}
	return big.NewInt(v.I)
}

var bigTen = big.NewInt(10)

func bigPow10(n int) *big.Int {
	if n < len(bigPow10s) {
		return bigPow10s[n]
	}
	return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
}

// rescaleBig changes the scale of unscaled x from `from` to `to`, rounding
// HALF_UP (away from zero on ties) like java.math.RoundingMode.HALF_UP.
func rescaleBig(x *big.Int, from, to int) *big.Int {
	switch {
	case to == from:
		return x
	case to > from:
		return new(big.Int).Mul(x, bigPow10(to-from))
	}
	return divHalfUp(x, bigPow10(from-to))
}

// divHalfUp divides rounding half away from zero.
func divHalfUp(x, y *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(x, y, new(big.Int))
	if r.Sign() == 0 {
		return q
	}
	r2 := new(big.Int).Abs(r)
	r2.Lsh(r2, 1)
	if r2.CmpAbs(y) >= 0 {
		if (x.Sign() < 0) != (y.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// fitDecimal returns unscaled x as a value of the DECIMAL type t, or NULL
// when it has more than t's precision digits: Flink's
// DecimalData.fromBigDecimal yields null on overflow. For an integer type
// t (MOD of integral decimals) x is returned as is when it fits an int64.
func fitDecimal(x *big.Int, t types.Type) types.Value {
	if t.Kind != types.Decimal {
		if !x.IsInt64() {
			return types.NullValue
		}
		return types.IntValue(x.Int64())
	}
	if !t.IsWideDecimal() {
		if !x.IsInt64() {
			return types.NullValue
		}
		i := x.Int64()
		if i >= pow10[t.Precision] || i <= -pow10[t.Precision] {
			return types.NullValue
		}
		return types.IntValue(i)
	}
	return types.DecimalOfBig(t, x)
}

// bigPow10s holds 10^0 .. 10^76 (products of two DECIMAL(38) values).
var bigPow10s = func() []*big.Int {
	p := make([]*big.Int, 77)
	p[0] = big.NewInt(1)
	for i := 1; i < len(p); i++ {
		p[i] = new(big.Int).Mul(p[i-1], bigTen)
	}
	return p
}()

// decimalDigits returns the number of decimal digits of |x| (0 for 0).
func decimalDigits(x *big.Int) int {
	if x.Sign() == 0 {
		return 0
	}
	// log10(2) < 0.30103: an estimate at most one too small.
	n := int(float64(x.BitLen()-1)*0.30102999566398) + 1
	for n < len(bigPow10s) && x.CmpAbs(bigPow10s[n]) >= 0 {
		n++
	}
	return n
}

// divideFlink returns a / b (unscaled, at scales s1 and s2) as an unscaled
// value at scale rs, as DecimalDataUtils.divide computes it: the quotient
// rounded HALF_UP to 38 significant digits (MathContext(38, HALF_UP)),
// then HALF_UP to the scale rs. b is not zero.
func divideFlink(a, b *big.Int, s1, s2, rs int) *big.Int {
	// a/10^s1 / (b/10^s2) = (a * 10^(rs+s2-s1) / b) / 10^rs
	num, den := new(big.Int).Set(a), new(big.Int).Set(b)
	if e := rs + s2 - s1; e >= 0 {
		num.Mul(num, bigPow10(e))
	} else {
		den.Mul(den, bigPow10(-e))
	}
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Sign() == 0 {
		return q
	}
	r.Abs(r)
	den.Abs(den)
	twice := new(big.Int).Lsh(r, 1)
	up := twice.Cmp(den) >= 0
	if m := decimalDigits(q); !up && m < maxDecimalPrecision {
		// The 38-digit rounding keeps k more digits; it carries into the
		// last digit of q when the fraction r/den is at least
		// 0.5 - 0.5*10^-k, i.e. (den - 2r) * 10^k <= den.
		gap := twice.Sub(den, twice)
		up = gap.Mul(gap, bigPow10s[maxDecimalPrecision-m]).Cmp(den) <= 0
	}
	if up {
		if (a.Sign() < 0) != (b.Sign() < 0) {
			q.Sub(q, bigOne)
		} else {
			q.Add(q, bigOne)
		}
	}
	return q
}

var bigOne = big.NewInt(1)

// roundHalfUp64 rescales an int64 unscaled decimal down by d digits,
// rounding HALF_UP.
func roundHalfUp64(x int64, d int) int64 {
	if d <= 0 {
		return x
	}
	if d > 18 {
		return 0
	}
	p := pow10[d]
	q, r := x/p, x%p
	if r >= (p+1)/2 && r > 0 {
		q++
	} else if -r >= (p+1)/2 && r < 0 {
		q--
	}
	return q
}
