package fn

import (
	"bytes"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sluicesql/sluice/internal/types"
)

// More string functions of Flink's list (Flink 1.20 and later), each after
// its implementation in org.apache.flink.table.runtime.functions.scalar
// (BTrimFunction, TranslateFunction, EltFunction, StartsWithFunction, ...)
// or SqlFunctionUtils where the documentation leaves an edge open.

func init() {
	register(bindTrimChars("BTRIM", true, true), "BTRIM")
	register(bindTrimChars("LTRIM", true, false), "LTRIM")
	register(bindTrimChars("RTRIM", false, true), "RTRIM")
	register(bindOverlay, "OVERLAY")
	register(bindAffix("STARTSWITH", bytes.HasPrefix), "STARTSWITH")
	register(bindAffix("ENDSWITH", bytes.HasSuffix), "ENDSWITH")
	register(bindTranslate, "TRANSLATE")
	register(bindElt, "ELT")
	register(bindCharClass("IS_ALPHA", isAlpha), "IS_ALPHA")
	register(bindCharClass("IS_DIGIT", isDigit), "IS_DIGIT")
	register(bindCharClass("IS_DECIMAL", isJavaNumber), "IS_DECIMAL")
	// Functions of Flink's list that take or return VARIANT or structured
	// values.
	for name, f := range moreStrFuncs {
		register(f.bindWith(name, len(f.params)), name)
	}
}

// moreStrFuncs are strict functions of fixed arity.
var moreStrFuncs = map[string]strFunc{
	// INSTR(s, sub): "Returns the position of the first occurrence of
	// string2 in string1" (1-based, 0 when absent; SqlFunctionUtils.instr
	// from position 1, first appearance).
	"INSTR": {"(STRING, STRING)", []typePred{str, str}, types.IntType, false, func(v []types.Value) (types.Value, error) {
		return intVal(runeIndex(v[0].S, v[1].S, 0))
	}},
	// JSON_QUOTE(s): wraps s in double quotes, escaping '"', '\', '/',
	// backspace, form feed, newline, carriage return and tab, and writing
	// every character above 127 as \uXXXX (lower-case hex of its UTF-16
	// code units), as JsonQuoteFunction does.
	"JSON_QUOTE": {"(STRING)", []typePred{str}, types.StringType, false, func(v []types.Value) (types.Value, error) {
		return strVal(jsonQuote(v[0].S))
	}},
	// JSON_UNQUOTE(s): "Unquotes JSON value, unescapes escaped special
	// characters ... If the value does not start and end with double quotes
	// or if it starts and ends with double quotes but is not a valid JSON
	// string literal, the value is passed through unmodified."
	"JSON_UNQUOTE": {"(STRING)", []typePred{str}, types.StringType, false, func(v []types.Value) (types.Value, error) {
		return strVal(jsonUnquote(v[0].S))
	}},
	// UNHEX(s) → BYTES: "Converts hexadecimal string expr to BINARY ...
	// NULL if expr contains non-hex characters." An odd number of digits
	// reads as if a '0' came first ('F' is X'0F').
	"UNHEX": {"(STRING)", []typePred{str}, types.Type{Kind: types.Varbinary, Length: types.MaxVarcharLength}, true, func(v []types.Value) (types.Value, error) {
		s := v[0].S
		if len(s)%2 == 1 {
			s = "0" + s
		}
		b, err := hex.DecodeString(s)
		if err != nil {
			return types.NullValue, nil
		}
		return strVal(string(b))
	}},
}

// bindTrimChars binds BTRIM, LTRIM and RTRIM (str[, trimStr]): "Removes any
// leading and/or trailing characters within trimStr from str. trimStr is set
// to whitespace by default" — a space (U+0020) only, as BTrimFunction and
// BinaryStringDataUtil.trim use. LTRIM and RTRIM keep str's length
// (FlinkSqlOperatorTable: ARG0, TO_NULLABLE, TO_VARYING: LTRIM of a CHAR(5)
// is a VARCHAR(5)); BTRIM is a STRING (BuiltInFunctionDefinitions.BTRIM).
func bindTrimChars(name string, leading, trailing bool) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if !match(args, str) && !match(args, str, str) {
			return types.Type{}, nil, sigError(name, "(STRING [, STRING trimStr])", args)
		}
		rt := types.StringType
		if name != "BTRIM" {
			rt = varyingStringType(args[0].Type)
		}
		return strictType(rt, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
			chars := " "
			if len(v) == 2 {
				chars = v[1].S
			}
			return strVal(trimChars(v[0].S, chars, leading, trailing))
		}), nil
	}
}

// OVERLAY(s PLACING r FROM start [FOR length]): "Returns a string that
// replaces INT2 (STRING2's length by default) characters of STRING1 with
// STRING2 from position INT1. E.g., 'xxxxxtest'.overlay('xxxx', 6) returns
// "xxxxxxxxx"; 'xxxxxtest'.overlay('xxxx', 6, 2) returns "xxxxxxxxxst"."
// As SqlFunctionUtils.overlay: a start outside 1..len(s) returns s; what
// follows the replaced characters is kept only when length > 0 and they
// end within s. The result is a VARCHAR of the two strings' lengths added
// (Calcite's SqlOverlayFunction: DYADIC_STRING_SUM_PRECISION_NULLABLE_VARYING).
func bindOverlay(args []Arg) (types.Type, Eval, error) {
	if !match(args, str, str, integer) && !match(args, str, str, integer, integer) {
		return types.Type{}, nil, sigError("OVERLAY", "(STRING PLACING STRING FROM INT [FOR INT])", args)
	}
	return strictType(stringSumType(args[0].Type, args[1].Type, true), args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		s, r := []rune(v[0].S), []rune(v[1].S)
		start, n := v[2].I, int64(len(r))
		if len(v) == 4 {
			n = v[3].I
		}
		if start <= 0 || start > int64(len(s)) {
			return strVal(v[0].S)
		}
		var b strings.Builder
		b.WriteString(string(s[:start-1]))
		b.WriteString(v[1].S)
		if n > 0 && start+n <= int64(len(s)) {
			b.WriteString(string(s[start-1+n:]))
		}
		return strVal(b.String())
	}), nil
}

// bindAffix binds STARTSWITH / ENDSWITH(expr, affix): "Returns whether expr
// starts [ends] with startExpr. If startExpr is empty, the result is true.
// expr and startExpr should have same type" (both strings or both binary).
func bindAffix(name string, test func(s, affix []byte) bool) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if !match(args, str, str) && !match(args, binaryStr, binaryStr) {
			return types.Type{}, nil, sigError(name, "(STRING, STRING) or (BYTES, BYTES)", args)
		}
		return strictType(types.BooleanType, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
			return types.BoolValue(test([]byte(v[0].S), []byte(v[1].S))), nil
		}), nil
	}
}

// TRANSLATE(expr, fromStr, toStr): "Translate an expr where all characters
// in fromStr have been replaced with those in toStr. If toStr has a shorter
// length than fromStr, unmatched characters are removed. E.g.,
// TRANSLATE('www.apache.org', 'wapcheorg', ' APCHEcom') returns
// '   .APACHE.com'." As TranslateFunction: a NULL expr gives NULL, a NULL
// or empty fromStr returns expr unchanged, a NULL toStr removes the
// characters of fromStr; the first mapping of a repeated character wins.
func bindTranslate(args []Arg) (types.Type, Eval, error) {
	if !match(args, str, str, str) {
		return types.Type{}, nil, sigError("TRANSLATE", "(STRING, STRING fromStr, STRING toStr)", args)
	}
	return types.StringType.WithNotNull(args[0].Type.NotNull), func(_ *Context, v []types.Value) (types.Value, error) {
		if v[0].Null || v[1].Null || v[1].S == "" {
			return v[0], nil
		}
		to := []rune(v[2].S) // a NULL toStr has S == ""
		dict := map[rune]string{}
		for i, c := range []rune(v[1].S) {
			if _, seen := dict[c]; seen {
				continue
			}
			if i < len(to) {
				dict[c] = string(to[i])
			} else {
				dict[c] = ""
			}
		}
		var b strings.Builder
		for _, c := range v[0].S {
			if t, ok := dict[c]; ok {
				b.WriteString(t)
			} else {
				b.WriteRune(c)
			}
		}
		return strVal(b.String())
	}, nil
}

// ELT(index, expr[, exprs]*): "Returns the index-th expression. index must
// be an integer between 1 and the number of expressions. E.g., ELT(2,
// 'scala-1', 'java-2', 'go-3') returns "java-2". ... The result has the type
// of the least common type of all expressions. NULL if index is NULL or out
// of range."
func bindElt(args []Arg) (types.Type, Eval, error) {
	expects := "(INTEGER index, STRING, ...) or (INTEGER index, BYTES, ...)"
	if len(args) < 2 || !match(args[:1], integer) {
		return types.Type{}, nil, sigError("ELT", expects, args)
	}
	for _, a := range args[1:] {
		if a.Unit != "" || !str(a.Type) && !binaryStr(a.Type) {
			return types.Type{}, nil, sigError("ELT", expects, args)
		}
	}
	t, convs, ok := commonOf(args[1:])
	if !ok {
		return types.Type{}, nil, sigError("ELT", expects, args)
	}
	if t.Kind == types.Null {
		t = types.StringType
	}
	return t.Nullable(), func(ctx *Context, v []types.Value) (types.Value, error) {
		if v[0].Null || v[0].I < 1 || v[0].I > int64(len(v)-1) {
			return types.NullValue, nil
		}
		i := v[0].I
		x := v[i]
		if x.Null {
			return x, nil
		}
		return convs[i-1](ctx, x)
	}, nil
}

// bindCharClass binds IS_ALPHA, IS_DIGIT and IS_DECIMAL(string) → BOOLEAN
// NOT NULL: SqlFunctionUtils.isAlpha / isDigit / isDecimal return FALSE for
// NULL and for the empty string.
func bindCharClass(name string, test func(string) bool) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if !match(args, str) {
			return types.Type{}, nil, sigError(name, "(STRING)", args)
		}
		return types.BooleanType.WithNotNull(true), func(_ *Context, v []types.Value) (types.Value, error) {
			return types.BoolValue(!v[0].Null && v[0].S != "" && test(v[0].S)), nil
		}, nil
	}
}

// isAlpha: "Returns true if all characters in string are letter"
// (StringUtils.isAlpha: Character.isLetter of every character).
func isAlpha(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// isDigit: "Returns true if all characters in string are digit"
// (StringUtils.isNumeric: Character.isDigit, any script's decimal digits).
func isDigit(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// isJavaNumber: "Returns true if string can be parsed to a valid numeric"
// — by Integer.parseInt, Long.parseLong or Double.parseDouble; whatever the
// first two take the last takes too (it also trims characters up to U+0020
// and takes NaN, Infinity, exponents, f/F/d/D suffixes and hexadecimal
// floats).
func isJavaNumber(s string) bool {
	_, err := types.ParseValue(types.DoubleType, s, nil)
	return err == nil
}

func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '/':
			b.WriteString(`\/`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r <= 127 {
				b.WriteRune(r)
				continue
			}
			for _, u := range utf16Units(r) {
				b.WriteString(`\u`)
				h := strconv.FormatUint(uint64(u), 16)
				b.WriteString(strings.Repeat("0", 4-len(h)) + h)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// utf16Units returns r's UTF-16 code units (a surrogate pair above U+FFFF).
func utf16Units(r rune) []uint16 {
	if r < 0x10000 {
		return []uint16{uint16(r)}
	}
	r -= 0x10000
	return []uint16{uint16(0xD800 + r>>10), uint16(0xDC00 + r&0x3FF)}
}

// jsonUnquote decodes s when it is a valid JSON string literal and returns
// it unchanged otherwise.
func jsonUnquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	var b strings.Builder
	var pending rune = -1 // a high surrogate waiting for its pair
	flush := func() {
		if pending >= 0 {
			b.WriteRune(utf8.RuneError)
			pending = -1
		}
	}
	for i := 1; i < len(s)-1; {
		c := s[i]
		if c < 0x20 || c == '"' {
			return s
		}
		if c != '\\' {
			flush()
			r, n := utf8.DecodeRuneInString(s[i:])
			b.WriteRune(r)
			i += n
			continue
		}
		if i+1 >= len(s)-1 {
			return s
		}
		e := s[i+1]
		i += 2
		if e == 'u' {
			if i+4 > len(s)-1 {
				return s
			}
			u, err := strconv.ParseUint(s[i:i+4], 16, 16)
			if err != nil {
				return s
			}
			i += 4
			switch {
			case u >= 0xD800 && u < 0xDC00:
				flush()
				pending = rune(u)
			case u >= 0xDC00 && u < 0xE000 && pending >= 0:
				b.WriteRune(0x10000 + (pending-0xD800)<<10 + (rune(u) - 0xDC00))
				pending = -1
			default:
				flush()
				b.WriteRune(rune(u))
			}
			continue
		}
		flush()
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		default:
			return s
		}
	}
	flush()
	return b.String()
}
