package types

import (
	"strconv"
	"strings"
)

// longFloatText is the length from which ParseFloat rewrites decimal text
// before strconv.ParseFloat reads it: strconv stops reading an exponent
// once it passes 10,000, so that text with more digits than that can be
// read wrongly (0 for 1111...1.5e-899990, 900,000 ones).
const longFloatText = 10000

// floatDigits is how many significant digits of a long decimal ParseFloat
// keeps, followed by a 1 standing for the digits it drops when any is not
// zero: 767 digits tell apart any decimal from the halfway points between
// doubles, so the rounding stays correct.
const floatDigits = 800

// floatExponentLimit bounds the decimal exponent of a shortened decimal,
// far beyond where every float is zero or infinite.
const floatExponentLimit = 10_000_000

// ParseFloat is strconv.ParseFloat, also right for decimal text longer
// than 10,000 characters, which it reads as Java's Double.parseDouble
// does (correctly rounded). Its errors are strconv's.
func ParseFloat(s string, bitSize int) (float64, error) {
	if len(s) <= longFloatText {
		return strconv.ParseFloat(s, bitSize)
	}
	short, ok := shortenDecimal(s)
	if !ok {
		// Not plain decimal text: strconv refuses it.
		return strconv.ParseFloat(s, bitSize)
	}
	f, err := strconv.ParseFloat(short, bitSize)
	if ne, ok := err.(*strconv.NumError); ok {
		ne.Num = s // the text given, not its shortened form
	}
	return f, err
}

// shortenDecimal rewrites decimal text, [sign] digits [. digits]
// [e|E [sign] digits] with a digit in the mantissa, as the same number
// in the form [sign] 0.DIGITS e EXPONENT with at most floatDigits + 1
// significant digits. It reports false for any other text.
func shortenDecimal(s string) (string, bool) {
	var b strings.Builder
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		b.WriteByte(s[i])
		i++
	}
	b.WriteString("0.")
	var (
		sig       int   // significant digits seen
		point     int64 // where the point is, counted from the first significant digit
		digits    bool  // whether the mantissa has a digit
		afterDot  bool
		dropped   bool  // whether a nonzero digit past floatDigits was dropped
		exp, sign int64 = 0, 1
	)
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.' && !afterDot:
			afterDot = true
			continue
		case c < '0' || c > '9':
		default:
			digits = true
			switch {
			case sig == 0 && c == '0':
				if afterDot {
					point--
				}
			case sig < floatDigits:
				b.WriteByte(c)
				sig++
				if !afterDot {
					point++
				}
			default:
				dropped = dropped || c != '0'
				if !afterDot {
					point++
				}
			}
			continue
		}
		break
	}
	if !digits {
		return "", false
	}
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return "", false
		}
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			if s[i] == '-' {
				sign = -1
			}
			i++
		}
		if i == len(s) {
			return "", false
		}
		for ; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return "", false
			}
			if exp < floatExponentLimit {
				exp = exp*10 + int64(s[i]-'0')
			}
		}
	}
	if sig == 0 {
		b.WriteByte('0')
		return b.String(), true
	}
	if dropped {
		b.WriteByte('1')
	}
	total := min(max(point+sign*exp, -floatExponentLimit), floatExponentLimit)
	b.WriteByte('e')
	b.WriteString(strconv.FormatInt(total, 10))
	return b.String(), true
}
