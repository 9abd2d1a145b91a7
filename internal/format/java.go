package format

import (
	"errors"
	"github.com/sluicesql/sluice/internal/types"
	"math"
	"strconv"
	"strings"
)

// Text conversions that reproduce what the Java library calls inside Flink's
// formats produce or accept: Double.toString, Float.toString,
// BigDecimal.toString / toPlainString, Integer.parseInt, Double.parseDouble,
// new BigDecimal(String) and new String(bytes, UTF_8).

// bigDec is a decimal number as BigDecimal holds it: the digits of the
// unscaled magnitude (no leading zeros, "0" for zero), a sign and a scale.
type bigDec struct {
	neg    bool
	digits string
	scale  int
}

// decFromUnscaled returns the BigDecimal with the given unscaled value and
// scale.
func decFromUnscaled(u int64, scale int) bigDec {
	d := bigDec{scale: scale, neg: u < 0}
	d.digits = strconv.FormatUint(absU64(u), 10)
	return d
}

// decOf returns the BigDecimal of v, a non-NULL value of the DECIMAL type
// t.
func decOf(t types.Type, v types.Value) bigDec {
	if !t.IsWideDecimal() {
		return decFromUnscaled(v.I, t.Scale)
	}
	digits := types.DecimalUnscaled(t, v).String()
	d := bigDec{scale: t.Scale, neg: digits[0] == '-'}
	d.digits = strings.TrimPrefix(digits, "-")
	return d
}

func absU64(u int64) uint64 {
	if u < 0 {
		return uint64(-u)
	}
	return uint64(u)
}

// stripTrailingZeros is BigDecimal.stripTrailingZeros, except that zero
// becomes BigDecimal.ZERO (scale 0) as Jackson's JsonNodeFactory makes it.
func (d bigDec) stripTrailingZeros() bigDec {
	if d.digits == "0" {
		return bigDec{digits: "0"}
	}
	for len(d.digits) > 1 && d.digits[len(d.digits)-1] == '0' {
		d.digits = d.digits[:len(d.digits)-1]
		d.scale--
	}
	return d
}

// appendTo appends BigDecimal.toString() (plain false) or toPlainString().
func (d bigDec) appendTo(dst []byte, plain bool) []byte {
	if d.neg && d.digits != "0" {
		dst = append(dst, '-')
	}
	n := len(d.digits)
	adjusted := n - 1 - d.scale
	if plain || (d.scale >= 0 && adjusted >= -6) {
		switch {
		case d.scale <= 0:
			dst = append(dst, d.digits...)
			if d.digits != "0" {
				for i := 0; i < -d.scale; i++ {
					dst = append(dst, '0')
				}
			}
		case n > d.scale:
			dst = append(dst, d.digits[:n-d.scale]...)
			dst = append(dst, '.')
			dst = append(dst, d.digits[n-d.scale:]...)
		default:
			dst = append(dst, "0."...)
			for i := n; i < d.scale; i++ {
				dst = append(dst, '0')
			}
			dst = append(dst, d.digits...)
		}
		return dst
	}
	dst = append(dst, d.digits[0])
	if n > 1 {
		dst = append(dst, '.')
		dst = append(dst, d.digits[1:]...)
	}
	dst = append(dst, 'E')
	if adjusted > 0 {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(adjusted), 10)
}

var errSyntax = errors.New("syntax")

// parseBigDec parses the text new BigDecimal(String) accepts: an optional
// sign, digits with an optional point, an optional exponent.
func parseBigDec(s string) (bigDec, error) {
	var d bigDec
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		d.neg = s[i] == '-'
		i++
	}
	var digits []byte
	seenDigit, seenPoint := false, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
			if len(digits) > 0 || c != '0' {
				digits = append(digits, c)
			}
			if seenPoint {
				d.scale++
			}
			continue
		case c == '.' && !seenPoint:
			seenPoint = true
			continue
		}
		break
	}
	if !seenDigit {
		return d, errSyntax
	}
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return d, errSyntax
		}
		exp, err := strconv.ParseInt(s[i+1:], 10, 32)
		if err != nil {
			return d, errSyntax
		}
		d.scale -= int(exp)
	}
	if len(digits) == 0 {
		digits = append(digits, '0')
	}
	d.digits = string(digits)
	return d, nil
}

// unscaled rescales d to scale with HALF_UP rounding and returns the unscaled
// value, or ok false if it needs more than precision digits (at most 38) —
// the rule of Flink's DecimalData.fromBigDecimal (which then yields NULL).
func (d bigDec) unscaled(precision, scale int) (types.Int128, bool) {
	digits := d.digits
	shift := scale - d.scale
	if shift < 0 {
		keep := len(digits) + shift
		roundUp := keep >= 0 && keep < len(digits) && digits[keep] >= '5'
		if keep <= 0 {
			digits = "0"
		} else {
			digits = digits[:keep]
		}
		if roundUp {
			digits = incDigits(digits)
		}
	} else if digits != "0" {
		digits += strings.Repeat("0", min(shift, 40))
	}
	digits = strings.TrimLeft(digits, "0")
	if len(digits) > precision {
		return types.Int128{}, false
	}
	u := types.DecimalDigits(digits)
	if d.neg {
		u = u.Neg()
	}
	return u, true
}

var pow10 = [...]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// parseDecimalValue parses s as new BigDecimal(s) does into a value of
// the DECIMAL type t; ok is false when it needs more than t's precision
// digits.
func parseDecimalValue(s string, t types.Type) (v types.Value, ok bool, err error) {
	if !t.IsWideDecimal() {
		u, ok, err := parseDecimal(s, t.Precision, t.Scale)
		return types.IntValue(u), ok, err
	}
	d, err := parseBigDec(s)
	if err != nil {
		return types.NullValue, false, err
	}
	u, ok := d.unscaled(t.Precision, t.Scale)
	if !ok {
		return types.NullValue, false, nil
	}
	return types.DecimalOf(t, u), true, nil
}

// parseDecimal parses s as new BigDecimal(s) does and rescales it as
// bigDec.unscaled does, without allocating when the number has at most 18
// significant digits (precision at most 18).
func parseDecimal(s string, precision, scale int) (u int64, ok bool, err error) {
	slow := func() (int64, bool, error) {
		d, err := parseBigDec(s)
		if err != nil {
			return 0, false, err
		}
		u, ok := d.unscaled(precision, scale)
		return int64(u.Lo), ok, nil
	}
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var mant uint64
	sig, frac := 0, 0
	seenDigit, seenPoint := false, false
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			seenDigit = true
			if seenPoint {
				frac++
			}
			if mant == 0 && c == '0' {
				continue
			}
			if sig == 18 {
				return slow()
			}
			mant = mant*10 + uint64(c-'0')
			sig++
			continue
		}
		if c == '.' && !seenPoint {
			seenPoint = true
			continue
		}
		break
	}
	if !seenDigit {
		return 0, false, errSyntax
	}
	exp := 0
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return 0, false, errSyntax
		}
		e, err := strconv.ParseInt(s[i+1:], 10, 32)
		if err != nil {
			return 0, false, errSyntax
		}
		exp = int(e)
	}
	shift := scale - frac + exp
	switch {
	case shift > 18 || shift < -18:
		return slow()
	case shift >= 0:
		if mant != 0 && sig+shift > 18 {
			return 0, false, nil
		}
		mant *= pow10[shift]
	default:
		div := pow10[-shift]
		q, r := mant/div, mant%div
		if 2*r >= div {
			q++
		}
		mant = q
	}
	if mant >= pow10[min(precision, 18)] {
		return 0, false, nil
	}
	if neg {
		return -int64(mant), true, nil
	}
	return int64(mant), true, nil
}

// incDigits adds one to a decimal digit string.
func incDigits(s string) string {
	b := []byte(s)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

// javaTrim is String.trim: it drops leading and trailing chars <= ' '.
func javaTrim(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}

// parseJavaInt is Integer.parseInt / Long.parseLong / Short.parseShort /
// Byte.parseByte for the given bit size: an optional sign and decimal digits.
func parseJavaInt(s string, bits int) (int64, error) {
	return strconv.ParseInt(s, 10, bits) // base 10 takes no underscores or prefixes
}

// parseJavaDouble is Double.parseDouble (Float.parseFloat when bits is 32)
// on an already trimmed string: decimal or hexadecimal notation, "NaN",
// "Infinity", an optional sign and an optional type suffix (f, F, d, D).
func parseJavaDouble(s string, bits int) (float64, error) {
	body, sign := s, ""
	if body != "" && (body[0] == '+' || body[0] == '-') {
		sign, body = body[:1], body[1:]
	}
	switch body {
	case "NaN":
		return math.NaN(), nil
	case "Infinity":
		if sign == "-" {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	}
	if n := len(body); n > 1 && strings.IndexByte("fFdD", body[n-1]) >= 0 {
		body = body[:n-1]
	}
	hex := len(body) > 2 && body[0] == '0' && body[1]|0x20 == 'x'
	if strings.ContainsRune(body, '_') || hex && !strings.ContainsAny(body, "pP") || !hex && !isDecimalFloat(body) {
		return 0, errSyntax
	}
	f, err := types.ParseFloat(sign+body, bits)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, errSyntax
	}
	return f, nil
}

// isDecimalFloat reports whether s is digits with an optional point and an
// optional signed exponent, with at least one mantissa digit.
func isDecimalFloat(s string) bool {
	i, mant := 0, 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		mant++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			mant++
		}
	}
	if mant == 0 {
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != 'e' && s[i] != 'E' {
		return false
	}
	i++
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	exp := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		exp++
	}
	return exp > 0 && i == len(s)
}
