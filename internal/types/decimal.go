package types

import (
	"encoding/binary"
	"math/big"
	"math/bits"
	"strconv"
)

// DECIMAL storage. A DECIMAL(p, s) value is its unscaled integer (the value
// times 10^s). Up to precision MaxCompactDecimalPrecision it is an int64
// (Physical PhysInt), as Flink's DecimalData keeps a long up to 18 digits;
// above, up to 38 digits, it is 16 bytes in the string slot (Physical
// PhysString): the unscaled value as a 128-bit two's complement integer,
// big-endian, with the sign bit flipped, so that comparing two encodings
// byte by byte orders them as numbers, and equal values of one type have
// equal encodings (grouping, joining, hashing and state keep working on
// the bytes).

// MaxCompactDecimalPrecision is the largest DECIMAL precision held as an
// int64.
const MaxCompactDecimalPrecision = 18

// IsWideDecimal reports whether t is a DECIMAL held in 16 bytes (precision
// above MaxCompactDecimalPrecision).
func (t Type) IsWideDecimal() bool {
	return t.Kind == Decimal && t.Precision > MaxCompactDecimalPrecision
}

// Int128 is a signed 128-bit integer: Hi is the high word (with the sign),
// Lo the low word.
type Int128 struct {
	Hi int64
	Lo uint64
}

// Int128Of returns x as an Int128.
func Int128Of(x int64) Int128 { return Int128{Hi: x >> 63, Lo: uint64(x)} }

// Mul64 returns the exact product a*b.
func Mul64(a, b int64) Int128 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	// Signed correction of the unsigned product.
	h := int64(hi)
	if a < 0 {
		h -= b
	}
	if b < 0 {
		h -= a
	}
	return Int128{Hi: h, Lo: lo}
}

// Add returns a+b and whether it overflowed 128 bits.
func (a Int128) Add(b Int128) (Int128, bool) {
	lo, carry := bits.Add64(a.Lo, b.Lo, 0)
	hi := a.Hi + b.Hi + int64(carry)
	over := (a.Hi >= 0) == (b.Hi >= 0) && (hi >= 0) != (a.Hi >= 0)
	return Int128{Hi: hi, Lo: lo}, over
}

// Neg returns -a (wrapping for the minimum, which no decimal reaches).
func (a Int128) Neg() Int128 {
	lo, borrow := bits.Sub64(0, a.Lo, 0)
	return Int128{Hi: -a.Hi - int64(borrow), Lo: lo}
}

// Sign returns -1, 0 or +1.
func (a Int128) Sign() int {
	switch {
	case a.Hi < 0:
		return -1
	case a.Hi == 0 && a.Lo == 0:
		return 0
	}
	return 1
}

// abs returns |a| as unsigned words.
func (a Int128) abs() (hi, lo uint64) {
	if a.Hi < 0 {
		a = a.Neg()
	}
	return uint64(a.Hi), a.Lo
}

// IsInt64 reports whether a fits an int64.
func (a Int128) IsInt64() bool { return a.Hi == int64(a.Lo)>>63 }

// pow10Words holds 10^0 .. 10^38 as unsigned 128-bit words.
var pow10Words = func() [39][2]uint64 {
	var p [39][2]uint64
	p[0] = [2]uint64{0, 1}
	for i := 1; i < len(p); i++ {
		hi, lo := bits.Mul64(p[i-1][1], 10)
		p[i] = [2]uint64{p[i-1][0]*10 + hi, lo}
	}
	return p
}()

// FitsDigits reports whether |a| < 10^p, i.e. a has at most p digits
// (0 <= p <= 38).
func (a Int128) FitsDigits(p int) bool {
	hi, lo := a.abs()
	lim := pow10Words[p]
	return hi < lim[0] || hi == lim[0] && lo < lim[1]
}

// Big returns a as a big.Int.
func (a Int128) Big() *big.Int {
	hi, lo := a.abs()
	x := new(big.Int).SetUint64(hi)
	x.Lsh(x, 64)
	x.Or(x, new(big.Int).SetUint64(lo))
	if a.Hi < 0 {
		x.Neg(x)
	}
	return x
}

var (
	bigMaxInt128 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
	bigMinInt128 = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 127))
)

// Int128FromBig returns x as an Int128; ok is false when it does not fit.
func Int128FromBig(x *big.Int) (Int128, bool) {
	if x.IsInt64() {
		return Int128Of(x.Int64()), true
	}
	if x.Cmp(bigMaxInt128) > 0 || x.Cmp(bigMinInt128) < 0 {
		return Int128{}, false
	}
	var m big.Int
	m.Abs(x)
	lo := new(big.Int).And(&m, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi := m.Rsh(&m, 64).Uint64()
	r := Int128{Hi: int64(hi), Lo: lo}
	if x.Sign() < 0 {
		r = r.Neg()
	}
	return r, true
}

// Encode returns the 16-byte encoding of a wide DECIMAL value.
func (a Int128) Encode() string {
	var b [16]byte
	return string(a.AppendEncoded(b[:0]))
}

// AppendEncoded appends the 16-byte encoding of a wide DECIMAL value to b.
func (a Int128) AppendEncoded(b []byte) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(b, uint64(a.Hi)^(1<<63)), a.Lo)
}

// DecodeInt128 reads a 16-byte encoding written by Encode; ok is false
// when s is not 16 bytes long.
func DecodeInt128(s string) (Int128, bool) {
	if len(s) != 16 {
		return Int128{}, false
	}
	var h, l uint64
	for i := range 8 {
		h = h<<8 | uint64(s[i])
		l = l<<8 | uint64(s[8+i])
	}
	return Int128{Hi: int64(h ^ 1<<63), Lo: l}, true
}

// appendInt128 appends the decimal digits of a (with a leading '-' when
// negative).
func appendInt128(b []byte, a Int128) []byte {
	if a.IsInt64() {
		return strconv.AppendInt(b, int64(a.Lo), 10)
	}
	if a.Hi < 0 {
		b = append(b, '-')
	}
	hi, lo := a.abs()
	// Split off base-10^19 limbs until the rest fits a word.
	const base = 10_000_000_000_000_000_000
	var limbs [2]uint64
	n := 0
	for hi != 0 {
		var r uint64
		qhi := hi / base
		lo, r = bits.Div64(hi%base, lo, base)
		hi = qhi
		limbs[n] = r
		n++
	}
	b = strconv.AppendUint(b, lo, 10)
	for i := n - 1; i >= 0; i-- {
		s := strconv.FormatUint(limbs[i], 10)
		for range 19 - len(s) {
			b = append(b, '0')
		}
		b = append(b, s...)
	}
	return b
}

// String returns a's decimal digits.
func (a Int128) String() string { return string(appendInt128(nil, a)) }

// DecimalUnscaled returns the unscaled value of v, a non-NULL value of the
// DECIMAL type t.
func DecimalUnscaled(t Type, v Value) Int128 {
	if t.IsWideDecimal() {
		a, _ := DecodeInt128(v.S)
		return a
	}
	return Int128Of(v.I)
}

// DecimalBig returns the unscaled value of v, a non-NULL value of the
// DECIMAL type t, as a big.Int.
func DecimalBig(t Type, v Value) *big.Int {
	if t.IsWideDecimal() {
		a, _ := DecodeInt128(v.S)
		return a.Big()
	}
	return big.NewInt(v.I)
}

// DecimalOf returns the unscaled value a as a value of the DECIMAL type t,
// or NULL when it has more than t's precision digits, as Flink's
// DecimalData.fromBigDecimal gives null on overflow.
func DecimalOf(t Type, a Int128) Value {
	if !a.FitsDigits(t.Precision) {
		return NullValue
	}
	if t.IsWideDecimal() {
		return StringValue(a.Encode())
	}
	return IntValue(int64(a.Lo))
}

// DecimalOfBig is DecimalOf for a big.Int.
func DecimalOfBig(t Type, x *big.Int) Value {
	if t.Kind != Decimal {
		return NullValue
	}
	a, ok := Int128FromBig(x)
	if !ok {
		return NullValue
	}
	return DecimalOf(t, a)
}

// CheckDecimal reports whether s is a valid encoding of a value of the
// wide DECIMAL type t.
func CheckDecimal(t Type, s string) bool {
	a, ok := DecodeInt128(s)
	return ok && a.FitsDigits(t.Precision)
}

// divWord divides the unsigned 128-bit (hi, lo) by d.
func divWord(hi, lo, d uint64) (qhi, qlo, r uint64) {
	qhi, r = hi/d, hi%d
	qlo, r = bits.Div64(r, lo, d)
	return qhi, qlo, r
}

// mulWord multiplies the unsigned 128-bit (hi, lo) by w; ok is false when
// the product leaves 127 bits.
func mulWord(hi, lo, w uint64) (phi, plo uint64, ok bool) {
	h1, l1 := bits.Mul64(lo, w)
	h2, l2 := bits.Mul64(hi, w)
	phi, c := bits.Add64(l2, h1, 0)
	return phi, l1, h2 == 0 && c == 0 && phi < 1<<63
}

// fromMagnitude returns the magnitude (hi, lo) with the sign of neg.
func fromMagnitude(hi, lo uint64, neg bool) Int128 {
	r := Int128{Hi: int64(hi), Lo: lo}
	if neg {
		return r.Neg()
	}
	return r
}

// QuoRem10 returns a / 10^n truncated toward zero, and the remainder's
// magnitude's first digit (the one 10^(n-1) counts; 0 for n = 0).
func (a Int128) QuoRem10(n int) (q Int128, firstDropped int) {
	if n <= 0 {
		return a, 0
	}
	hi, lo := a.abs()
	for n > 1 {
		k := min(n-1, 19)
		hi, lo, _ = divWord(hi, lo, pow10Words[k][1])
		n -= k
	}
	hi, lo, r := divWord(hi, lo, 10)
	return fromMagnitude(hi, lo, a.Hi < 0), int(r)
}

// Rescale changes the scale of the unscaled value a from `from` to `to`,
// rounding HALF_UP (half away from zero) when digits are dropped; ok is
// false when the result leaves 127 bits.
func (a Int128) Rescale(from, to int) (Int128, bool) {
	switch {
	case to == from:
		return a, true
	case to < from:
		q, d := a.QuoRem10(from - to)
		if d >= 5 {
			if a.Hi < 0 {
				q, _ = q.Add(Int128Of(-1))
			} else {
				q, _ = q.Add(Int128Of(1))
			}
		}
		return q, true
	}
	hi, lo := a.abs()
	for n := to - from; n > 0; {
		k := min(n, 19)
		var ok bool
		if hi, lo, ok = mulWord(hi, lo, pow10Words[k][1]); !ok {
			return Int128{}, false
		}
		n -= k
	}
	return fromMagnitude(hi, lo, a.Hi < 0), true
}

// Cmp compares a and b.
func (a Int128) Cmp(b Int128) int {
	if a.Hi != b.Hi {
		if a.Hi < b.Hi {
			return -1
		}
		return 1
	}
	switch {
	case a.Lo < b.Lo:
		return -1
	case a.Lo > b.Lo:
		return 1
	}
	return 0
}

// AppendJavaDecimal appends unscaled × 10^-scale as Java's
// BigDecimal.toString writes it: plain unless the adjusted exponent is
// below -6, then in scientific notation ("1.5E-7").
func AppendJavaDecimal(b []byte, unscaled Int128, scale int) []byte {
	var buf [48]byte
	digits := appendInt128(buf[:0], unscaled)
	neg := digits[0] == '-'
	if neg {
		digits = digits[1:]
	}
	adjusted := len(digits) - 1 - scale
	if adjusted >= -6 {
		return AppendDecimal(b, unscaled, scale)
	}
	if neg {
		b = append(b, '-')
	}
	b = append(b, digits[0])
	if len(digits) > 1 {
		b = append(b, '.')
		b = append(b, digits[1:]...)
	}
	b = append(b, 'E')
	return strconv.AppendInt(b, int64(adjusted), 10)
}
