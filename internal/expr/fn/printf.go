package fn

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sluicesql/sluice/internal/types"
)

// PRINTF(format[, obj]*): "Returns a formatted string from printf-style
// format string. The function exploits the java.util.Formatter class with
// Locale.US. null obj is formated as a string "null". ... NULL if format is
// NULL or invalid." (PrintfFunction). The arguments reach Java's Formatter
// as Flink's internal values: integers as Byte/Short/Integer/Long, FLOAT
// and DOUBLE as Float/Double, BOOLEAN as Boolean, strings and decimals as
// objects that only %s (and %b, %h) take, so %d of a DECIMAL, like any
// conversion Java refuses, gives NULL.
//
// Supported: %[index$][flags][width][.precision] with the conversions
// b B s S c C d o x X e E f g G % n and the flags - # + space 0 , (.
// Java's date/time (%t), hexadecimal float (%a) and hash code (%h)
// conversions are refused with an error; arguments of temporal, binary or
// interval types are refused when the call is bound.

func init() {
	register(bindPrintf, "PRINTF")
}

func bindPrintf(args []Arg) (types.Type, Eval, error) {
	if len(args) == 0 || !match(args[:1], str) {
		return types.Type{}, nil, sigError("PRINTF", "(STRING format [, ANY]*)", args)
	}
	argTypes := make([]types.Type, len(args)-1)
	for i, a := range args[1:] {
		switch {
		case a.Unit != "":
			return types.Type{}, nil, sigError("PRINTF", "(STRING format [, ANY]*)", args)
		case a.Type.IsNumeric(), a.Type.IsString(), a.Type.Kind == types.Boolean, a.Type.Kind == types.Null:
			argTypes[i] = a.Type
		default:
			return types.Type{}, nil, sigError("PRINTF", "(STRING format [, number|string|boolean]*); arguments of type "+a.String()+" are not supported yet", args)
		}
	}
	return types.StringType, func(_ *Context, v []types.Value) (types.Value, error) {
		if v[0].Null {
			return types.NullValue, nil
		}
		s, err := javaFormat(v[0].S, argTypes, v[1:])
		if errors.Is(err, errJavaFormat) {
			return types.NullValue, nil
		}
		if err != nil {
			return types.Value{}, runtimeError("PRINTF", "%v", err)
		}
		return strVal(s)
	}, nil
}

// errJavaFormat stands for the exceptions Java's Formatter throws for a
// format or argument it refuses.
var errJavaFormat = errors.New("invalid format")

// fmtSpec is one parsed format specifier.
type fmtSpec struct {
	flags     string
	width     int // -1 when absent
	precision int // -1 when absent
	conv      byte
	upper     bool
}

func (s fmtSpec) has(flag byte) bool { return strings.IndexByte(s.flags, flag) >= 0 }

// javaFormat formats args as java.util.Formatter does with Locale.US.
func javaFormat(format string, ts []types.Type, args []types.Value) (string, error) {
	var b strings.Builder
	next, last := 0, -1 // ordinary index and the last argument used
	for i := 0; i < len(format); {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			i++
			continue
		}
		j := i + 1
		// argument index: n$ or <
		index := -2
		if j < len(format) && format[j] == '<' {
			index, j = -1, j+1
		} else if k := j + digitRun(format[j:]); k < len(format) && k > j && format[k] == '$' {
			n, _ := strconv.Atoi(format[j:k])
			if n == 0 {
				return "", errJavaFormat
			}
			index, j = n-1, k+1
		}
		var sp fmtSpec
		for j < len(format) && strings.IndexByte("-#+ 0,(", format[j]) >= 0 {
			if sp.has(format[j]) {
				return "", errJavaFormat // DuplicateFormatFlagsException
			}
			sp.flags += format[j : j+1]
			j++
		}
		sp.width, sp.precision = -1, -1
		if k := j + digitRun(format[j:]); k > j {
			sp.width, _ = strconv.Atoi(format[j:k])
			j = k
		}
		if j < len(format) && format[j] == '.' {
			k := j + 1 + digitRun(format[j+1:])
			if k == j+1 {
				return "", errJavaFormat
			}
			sp.precision, _ = strconv.Atoi(format[j+1 : k])
			j = k
		}
		if j >= len(format) {
			return "", errJavaFormat // UnknownFormatConversionException
		}
		sp.conv = format[j]
		if sp.conv >= 'A' && sp.conv <= 'Z' {
			sp.upper, sp.conv = true, sp.conv+'a'-'A'
		}
		i = j + 1
		if (sp.has('-') || sp.has('0')) && sp.width < 0 {
			return "", errJavaFormat // MissingFormatWidthException
		}
		switch sp.conv {
		case '%':
			if sp.precision >= 0 || sp.flags != "" && sp.flags != "-" {
				return "", errJavaFormat
			}
			b.WriteString(padTo(sp, "%"))
			continue
		case 'n':
			if sp.width >= 0 || sp.precision >= 0 || sp.flags != "" {
				return "", errJavaFormat
			}
			b.WriteByte('\n')
			continue
		case 't', 'a', 'h':
			return "", errors.New("the conversion %" + string(format[j]) + " is not supported yet")
		}
		switch index {
		case -2:
			index = next
			next++
		case -1:
			if last < 0 {
				return "", errJavaFormat // MissingFormatArgumentException
			}
			index = last
		}
		if index >= len(args) {
			return "", errJavaFormat
		}
		last = index
		out, err := formatSpec(sp, ts[index], args[index])
		if err != nil {
			return "", err
		}
		b.WriteString(out)
	}
	return b.String(), nil
}

func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// padTo applies the width (and '-') and upper-cases for upper-case
// conversions.
func padTo(sp fmtSpec, s string) string {
	if sp.upper {
		s = strings.ToUpper(s)
	}
	if n := utf8.RuneCountInString(s); sp.width > n {
		fill := strings.Repeat(" ", sp.width-n)
		if sp.has('-') {
			return s + fill
		}
		return fill + s
	}
	return s
}

// formatSpec formats one argument. The flags are checked first, as Java
// checks them when it parses the format; a NULL argument then prints as
// "null" ("false" for %b).
func formatSpec(sp fmtSpec, t types.Type, v types.Value) (string, error) {
	bad := func(flags string) bool { return strings.ContainsAny(sp.flags, flags) }
	switch sp.conv {
	case 'b', 's', 'c':
		if bad("#+ 0,(") || sp.conv == 'c' && sp.precision >= 0 {
			return "", errJavaFormat // FormatFlagsConversionMismatchException
		}
	case 'd':
		if bad("#") || sp.precision >= 0 || sp.has('-') && sp.has('0') || sp.has('+') && sp.has(' ') {
			return "", errJavaFormat
		}
	case 'o', 'x':
		if bad("+ ,(") || sp.precision >= 0 || sp.has('-') && sp.has('0') {
			return "", errJavaFormat
		}
	case 'e', 'f', 'g':
		if sp.has('#') && sp.conv == 'g' || sp.has(',') && sp.conv == 'e' ||
			sp.has('-') && sp.has('0') || sp.has('+') && sp.has(' ') {
			return "", errJavaFormat
		}
	default:
		return "", errJavaFormat // UnknownFormatConversionException
	}
	if v.Null {
		if sp.conv == 'b' {
			return padTo(sp, "false"), nil
		}
		return padTo(sp, truncate("null", sp.precision)), nil
	}
	switch sp.conv {
	case 'b':
		return padTo(sp, truncate(strconv.FormatBool(t.Kind != types.Boolean || v.Bool()), sp.precision)), nil
	case 's':
		return padTo(sp, truncate(javaString(t, v), sp.precision)), nil
	case 'c':
		if t.Kind != types.TinyInt && t.Kind != types.SmallInt && t.Kind != types.Int || v.I < 0 || v.I > utf8.MaxRune {
			return "", errJavaFormat // IllegalFormatConversionException
		}
		return padTo(sp, string(rune(v.I))), nil
	case 'd':
		if !t.IsInteger() {
			return "", errJavaFormat
		}
		return signed(sp, v.I < 0, strconv.FormatUint(abs64(v.I), 10)), nil
	case 'o', 'x':
		if !t.IsInteger() {
			return "", errJavaFormat
		}
		u := uint64(v.I)
		if v.I < 0 {
			u &= 1<<integerBits(t.Kind) - 1
		}
		base, prefix := 16, "0x"
		if sp.conv == 'o' {
			base, prefix = 8, "0"
		}
		if !sp.has('#') {
			prefix = ""
		}
		digits := strconv.FormatUint(u, base)
		if sp.has('0') && sp.width > len(prefix)+len(digits) {
			digits = strings.Repeat("0", sp.width-len(prefix)-len(digits)) + digits
		}
		return padTo(sp, prefix+digits), nil
	}
	// e, f, g
	if t.Kind != types.Float && t.Kind != types.Double {
		return "", errJavaFormat
	}
	f, bits := v.F, 64
	if t.Kind == types.Float {
		bits = 32
	}
	if math.IsNaN(f) {
		return padTo(sp, "NaN"), nil
	}
	if math.IsInf(f, 0) {
		return signed(fmtSpec{flags: strings.ReplaceAll(sp.flags, "0", ""), width: sp.width, upper: sp.upper}, f < 0, "Infinity"), nil
	}
	prec := sp.precision
	if prec < 0 {
		prec = 6
	}
	return signed(sp, math.Signbit(f), javaFloatDigits(sp.conv, math.Abs(f), bits, prec)), nil
}

// truncate keeps the first n characters of s (all when n < 0).
func truncate(s string, n int) string {
	if n >= 0 && utf8.RuneCountInString(s) > n {
		return string([]rune(s)[:n])
	}
	return s
}

// javaString is the text Java's String.valueOf gives the internal value.
func javaString(t types.Type, v types.Value) string {
	switch {
	case t.Kind == types.Boolean:
		return strconv.FormatBool(v.Bool())
	case t.Kind == types.Float:
		return types.FormatFloat(float32(v.F))
	case t.Kind == types.Double:
		return types.FormatDouble(v.F)
	case t.Kind == types.Decimal:
		return string(types.AppendDecimal(nil, types.DecimalUnscaled(t, v), t.Scale))
	case t.IsInteger():
		return strconv.FormatInt(v.I, 10)
	}
	return v.S
}

func abs64(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
}

// integerBits is the width of an integer kind, for the two's complement
// Java's %x and %o print of negative values.
func integerBits(k types.Kind) uint {
	switch k {
	case types.TinyInt:
		return 8
	case types.SmallInt:
		return 16
	case types.Int:
		return 32
	}
	return 64
}

// signed lays out the magnitude digits (which may hold a point and an
// exponent) of a number with the flags: ',' groups the integer digits by
// three, '+' / ' ' / '(' mark the sign, '0' pads with zeros after it.
func signed(sp fmtSpec, neg bool, digits string) string {
	if sp.has(',') {
		end := strings.IndexAny(digits, ".e")
		if end < 0 {
			end = len(digits)
		}
		if sp.conv != 'e' {
			digits = groupThousands(digits[:end]) + digits[end:]
		}
	}
	prefix, suffix := "", ""
	switch {
	case neg && sp.has('('):
		prefix, suffix = "(", ")"
	case neg:
		prefix = "-"
	case sp.has('+'):
		prefix = "+"
	case sp.has(' '):
		prefix = " "
	}
	if sp.has('0') && sp.width > len(prefix)+len(digits)+len(suffix) {
		digits = strings.Repeat("0", sp.width-len(prefix)-len(digits)-len(suffix)) + digits
	}
	return padTo(fmtSpec{flags: sp.flags, width: sp.width, upper: sp.upper}, prefix+digits+suffix)
}

func groupThousands(s string) string {
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// javaFloatDigits formats a non-negative finite f for %e, %f or %g the way
// Java's Formatter does: from the shortest decimal digits that identify f
// (Double.toString's, Float.toString's for FLOAT), rounded HALF_UP.
func javaFloatDigits(conv byte, f float64, bits, prec int) string {
	mant, exp := shortestDigits(f, bits) // f = 0.mant × 10^exp
	switch conv {
	case 'f':
		return fixedDigits(mant, exp, prec)
	case 'e':
		return sciDigits(mant, exp, prec)
	}
	// %g: precision 0 is 1; scientific unless 10^-4 <= rounded < 10^prec.
	if prec == 0 {
		prec = 1
	}
	if f == 0 {
		return fixedDigits(mant, exp, prec-1)
	}
	_, rexp := roundSig(mant, exp, prec)
	x := rexp - 1 // decimal exponent of the rounded value
	if x >= -4 && x < prec {
		return fixedDigits(mant, exp, prec-1-x)
	}
	return sciDigits(mant, exp, prec-1)
}

// shortestDigits returns the shortest digits d and exponent e with
// f = 0.d × 10^e ("0" and 1 for zero).
func shortestDigits(f float64, bits int) (string, int) {
	s := strconv.FormatFloat(f, 'e', -1, bits) // d.ddde±x
	m, e, _ := strings.Cut(s, "e")
	x, _ := strconv.Atoi(e)
	return strings.Replace(m, ".", "", 1), x + 1
}

// roundSig rounds 0.mant × 10^exp to n significant digits, HALF_UP,
// returning the digits and the (possibly raised) exponent.
func roundSig(mant string, exp, n int) (string, int) {
	if n >= len(mant) {
		return mant + strings.Repeat("0", n-len(mant)), exp
	}
	if n < 0 {
		return "", exp
	}
	d := []byte(mant[:n])
	if mant[n] >= '5' {
		i := n - 1
		for ; i >= 0 && d[i] == '9'; i-- {
			d[i] = '0'
		}
		if i < 0 {
			return "1" + string(d), exp + 1
		}
		d[i]++
	}
	return string(d), exp
}

// fixedDigits renders 0.mant × 10^exp with prec digits after the point.
func fixedDigits(mant string, exp, prec int) string {
	digits, e := "", exp
	if n := exp + prec; n >= 0 {
		digits, e = roundSig(mant, exp, n)
	}
	if strings.Trim(digits, "0") == "" {
		digits, e = strings.Repeat("0", 1+prec), 1
	}
	// len(digits) == e + prec
	intPart, frac := "0", ""
	if e > 0 {
		intPart, frac = digits[:e], digits[e:]
	} else {
		frac = strings.Repeat("0", -e) + digits
	}
	if prec == 0 {
		return intPart
	}
	return intPart + "." + frac
}

// sciDigits renders 0.mant × 10^exp as d.ddd (prec digits) e±xx.
func sciDigits(mant string, exp, prec int) string {
	if mant == "0" {
		exp = 1
	}
	digits, e := roundSig(mant, exp, prec+1)
	x := e - 1
	if mant == "0" {
		x = 0
	}
	s := digits[:1]
	if prec > 0 {
		s += "." + digits[1:]
	}
	sign := "+"
	if x < 0 {
		sign, x = "-", -x
	}
	xs := strconv.Itoa(x)
	if len(xs) < 2 {
		xs = "0" + xs
	}
	return s + "e" + sign + xs
}
