package fn

import (
	"fmt"
	"math"
	"math/big"

	"github.com/sluicesql/sluice/internal/types"
)

// maxDecimalPrecision is Sluice's DECIMAL precision limit: decimals are held
// unscaled in an int64. Where Flink derives DECIMAL(38, s) Sluice uses 18.
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

// capDecimal fits a DECIMAL type derived the way Flink does (up to
// precision 38) into Sluice's precision limit, sacrificing scale (down to 6
// digits) before integer digits as Flink's
// LogicalTypeMerging.adjustPrecisionScale does at 38.
func capDecimal(t types.Type) types.Type {
	p, s := t.Precision, t.Scale
	if p <= maxDecimalPrecision {
		return types.DecimalType(p, s)
	}
	intDigits := p - s
	s = max(maxDecimalPrecision-intDigits, min(s, minAdjustedScale))
	return types.DecimalType(maxDecimalPrecision, min(s, maxDecimalPrecision))
}

// toFloat returns a converter from a numeric type's value to float64.
func toFloat(t types.Type) func(types.Value) float64 {
	switch {
	case t.Kind == types.Float || t.Kind == types.Double:
		return func(v types.Value) float64 { return v.F }
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

// bigOf returns v's unscaled value as a big.Int.
func bigOf(v types.Value) *big.Int { return big.NewInt(v.I) }

var bigTen = big.NewInt(10)

func bigPow10(n int) *big.Int {
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

// fitDecimal returns x as a DECIMAL(p, _) value, or NULL when it has more
// than p digits: Flink's DecimalData.fromBigDecimal yields null on overflow.
func fitDecimal(x *big.Int, p int) types.Value {
	if !x.IsInt64() {
		return types.NullValue
	}
	i := x.Int64()
	if i >= pow10[p] || i <= -pow10[p] {
		return types.NullValue
	}
	return types.IntValue(i)
}

// fitFlinkDecimal returns unscaled x as a value of t, Sluice's type for a
// result Flink types as flink (of the same scale): NULL when x has more
// digits than flink's precision, as DecimalData.fromBigDecimal gives; an
// error naming the value when it fits Flink's type but not Sluice's, whose
// precision stops at 18.
func fitFlinkDecimal(name string, x *big.Int, t, flink types.Type) (types.Value, error) {
	v := fitDecimal(x, t.Precision)
	if !v.Null || t.Precision >= flink.Precision || x.CmpAbs(bigPow10(flink.Precision)) >= 0 {
		return v, nil
	}
	return types.NullValue, fmt.Errorf("%s: the DECIMAL value %s (unscaled) has more than %d digits: Flink's type %s holds it, Sluice's DECIMAL stops at precision %d",
		name, x, t.Precision, flink.Plain().Nullable(), maxDecimalPrecision)
}

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
