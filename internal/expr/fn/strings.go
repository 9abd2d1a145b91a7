package fn

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"strings"
	"unicode/utf8"

	"github.com/sluicesql/sluice/internal/types"
)

// String functions, after Flink's "String Functions" documentation and
// SqlFunctionUtils / BinaryStringDataUtil. Positions and lengths count
// characters (Unicode code points), as Flink's StringData does.

// strFunc describes a strict function over fixed argument families whose
// evaluator only needs the argument values.
type strFunc struct {
	expects string
	params  []typePred
	result  types.Type
	// nullable marks functions that may return NULL for non-NULL input.
	nullable bool
	eval     func(v []types.Value) (types.Value, error)
}

// bindWith checks the arguments against params; a call may omit trailing
// parameters down to minArgs.
func (f strFunc) bindWith(name string, minArgs int) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if len(args) < minArgs || !match(args, f.params[:len(args)]...) {
			return types.Type{}, nil, sigError(name, f.expects, args)
		}
		rt := f.result
		if typeOf, ok := strResultTypes[name]; ok {
			rt = typeOf(args[0].Type)
		}
		rt = strictType(rt, args)
		if f.nullable && (strNeverNull[name] == nil || !strNeverNull[name](args)) {
			rt = rt.Nullable()
		}
		eval := f.eval
		return rt, strict(func(_ *Context, v []types.Value) (types.Value, error) { return eval(v) }), nil
	}
}

func strVal(s string) (types.Value, error) { return types.StringValue(s), nil }
func intVal(i int) (types.Value, error)    { return types.IntValue(int64(i)), nil }

// strResultTypes derive the result types of the string functions whose
// length follows their first argument's: UPPER, LOWER and INITCAP keep it
// (Calcite's SqlStdOperatorTable, ReturnTypes.ARG0_NULLABLE); SUBSTRING,
// SUBSTR, LEFT and RIGHT make it varying (FlinkSqlOperatorTable,
// FlinkReturnTypes.ARG0_VARCHAR_FORCE_NULLABLE).
var strResultTypes = map[string]func(types.Type) types.Type{
	"UPPER": argStringType, "LOWER": argStringType, "INITCAP": argStringType,
	"SUBSTRING": varyingStringType, "LEFT": varyingStringType, "RIGHT": varyingStringType,
}

// strNeverNull tells, for a function that may return NULL for non-NULL
// arguments, when constant arguments rule that out, so that the result is
// NOT NULL over NOT NULL arguments as Flink types it: LPAD and RPAD
// (FlinkSqlOperatorTable: VARCHAR, TO_NULLABLE) give NULL only for a
// negative length or an empty pad.
var strNeverNull = map[string]func([]Arg) bool{"LPAD": padNeverNull, "RPAD": padNeverNull}

func padNeverNull(args []Arg) bool {
	n, ok1 := constInt(args[1])
	p, ok2 := constString(args[2])
	return ok1 && ok2 && n >= 0 && p != ""
}

// fixedStrFuncs take all their parameters.
var fixedStrFuncs = map[string]strFunc{
	"UPPER": {"(STRING)", []typePred{str}, types.StringType, false, func(v []types.Value) (types.Value, error) {
		return strVal(strings.ToUpper(v[0].S))
	}},
	"LOWER": {"(STRING)", []typePred{str}, types.StringType, false, func(v []types.Value) (types.Value, error) {
		return strVal(strings.ToLower(v[0].S))
	}},
	"CHAR_LENGTH": {"(STRING)", []typePred{str}, types.IntType, false, func(v []types.Value) (types.Value, error) {
		return intVal(utf8.RuneCountInString(v[0].S))
	}},
	// POSITION(a IN b): 1-based position of the first a in b, 0 if absent.
	"POSITION": {"(STRING, STRING)", []typePred{str, str}, types.IntType, false, func(v []types.Value) (types.Value, error) {
		return intVal(runeIndex(v[1].S, v[0].S, 0))
	}},
	// REPLACE replaces every occurrence (Java's String.replace).
	"REPLACE": {"(STRING, STRING search, STRING replacement)", []typePred{str, str, str}, types.StringType, false, func(v []types.Value) (types.Value, error) {
		if err := checkReplaced("REPLACE", len(v[0].S), len(v[1].S), len(v[2].S), func() int64 {
			return int64(len(v[0].S)) + int64(strings.Count(v[0].S, v[1].S))*int64(len(v[2].S)-len(v[1].S))
		}); err != nil {
			return types.Value{}, err
		}
		return strVal(strings.ReplaceAll(v[0].S, v[1].S, v[2].S))
	}},
	// SPLIT_INDEX(str, sep, i): the i-th (from 0) field of str split by
	// the whole string sep; NULL when i is negative or past the last field
	// (StringUtils.splitByWholeSeparatorPreserveAllTokens).
	"SPLIT_INDEX": {"(STRING, STRING separator, INT index)", []typePred{str, str, integer}, types.StringType, true, func(v []types.Value) (types.Value, error) {
		if v[2].I < 0 || v[0].S == "" {
			return types.NullValue, nil
		}
		var parts []string
		if v[1].S == "" {
			parts = strings.Fields(v[0].S)
		} else {
			parts = strings.Split(v[0].S, v[1].S)
		}
		if v[2].I >= int64(len(parts)) {
			return types.NullValue, nil
		}
		return strVal(parts[v[2].I])
	}},
	// LPAD / RPAD: "LPAD('hi', 4, '??') returns '??hi'; LPAD('hi', 1, '??')
	// returns 'h'"; NULL for a negative length or an empty pad.
	"LPAD": {"(STRING, INT length, STRING pad)", []typePred{str, integer, str}, types.StringType, true, func(v []types.Value) (types.Value, error) {
		return pad(v, true)
	}},
	"RPAD": {"(STRING, INT length, STRING pad)", []typePred{str, integer, str}, types.StringType, true, func(v []types.Value) (types.Value, error) {
		return pad(v, false)
	}},
	// REPEAT: "REPEAT('This is a test String.', 2)"; empty for n <= 0.
	"REPEAT": {"(STRING, INT)", []typePred{str, integer}, types.StringType, false, func(v []types.Value) (types.Value, error) {
		if v[1].I <= 0 {
			return strVal("")
		}
		if int64(len(v[0].S))*v[1].I > maxBuiltString {
			return types.Value{}, runtimeError("REPEAT", "result longer than 1 GiB")
		}
		return strVal(strings.Repeat(v[0].S, int(v[1].I)))
	}},
	"REVERSE": {"(STRING)", []typePred{str}, types.StringType, true, func(v []types.Value) (types.Value, error) {
		r := []rune(v[0].S)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return strVal(string(r))
	}},
	"INITCAP": {"(STRING)", []typePred{str}, types.StringType, false, func(v []types.Value) (types.Value, error) {
		return strVal(initcap(v[0].S))
	}},
	"TO_BASE64": {"(STRING)", []typePred{str}, types.StringType, false, func(v []types.Value) (types.Value, error) {
		return strVal(base64.StdEncoding.EncodeToString([]byte(v[0].S)))
	}},
	"FROM_BASE64": {"(STRING)", []typePred{str}, types.StringType, false, func(v []types.Value) (types.Value, error) {
		b, err := base64.StdEncoding.DecodeString(v[0].S)
		if err != nil {
			return types.Value{}, runtimeError("FROM_BASE64", "%v", err)
		}
		return strVal(string(b))
	}},
	// LEFT / RIGHT: "Returns EMPTY String if integer is negative."
	// REVERSE, LEFT, RIGHT and CHR are nullable whatever their arguments,
	// as Flink types them (VARCHAR_FORCE_NULLABLE in FlinkSqlOperatorTable).
	"LEFT": {"(STRING, INT)", []typePred{str, integer}, types.StringType, true, func(v []types.Value) (types.Value, error) {
		r := []rune(v[0].S)
		return strVal(string(r[:clampLen(v[1].I, len(r))]))
	}},
	"RIGHT": {"(STRING, INT)", []typePred{str, integer}, types.StringType, true, func(v []types.Value) (types.Value, error) {
		r := []rune(v[0].S)
		return strVal(string(r[len(r)-clampLen(v[1].I, len(r)):]))
	}},
	// ASCII: "ascii('abc') returns 97"; 0 for the empty string.
	"ASCII": {"(STRING)", []typePred{str}, types.IntType, false, func(v []types.Value) (types.Value, error) {
		r, _ := utf8.DecodeRuneInString(v[0].S)
		if v[0].S == "" {
			r = 0
		}
		return intVal(int(r))
	}},
	// CHR: "chr(97) returns 'a'"; values past 255 are taken modulo 256,
	// negative ones give the empty string.
	"CHR": {"(INT)", []typePred{integer}, types.StringType, true, func(v []types.Value) (types.Value, error) {
		if v[0].I < 0 {
			return strVal("")
		}
		return strVal(string(rune(v[0].I & 0xFF)))
	}},
}

// optStrFuncs have trailing optional parameters: minimum argument count
// and the full parameter list.
var optStrFuncs = map[string]struct {
	min int
	f   strFunc
}{
	// SUBSTRING(s, start [, length]): 1-based; a negative start counts from
	// the end; start 0 is 1; a negative length gives NULL
	// (BinaryStringDataUtil.substringSQL).
	"SUBSTRING": {2, strFunc{"(STRING, INT start [, INT length])", []typePred{str, integer, integer}, types.StringType, true, substring}},
	// LOCATE(a, b [, from]): position of a in b at or after from, 0 if absent.
	"LOCATE": {2, strFunc{"(STRING, STRING [, INT start])", []typePred{str, str, integer}, types.IntType, false, func(v []types.Value) (types.Value, error) {
		from := int64(1)
		if len(v) == 3 {
			from = v[2].I
		}
		if from < 1 {
			return intVal(0)
		}
		return intVal(runeIndex(v[1].S, v[0].S, int(from-1)))
	}}},
}

func init() {
	for name, f := range fixedStrFuncs {
		register(f.bindWith(name, len(f.params)), name)
	}
	for name, f := range optStrFuncs {
		register(f.f.bindWith(name, f.min), name)
	}
	scalars["SUBSTR"] = &Scalar{Name: "SUBSTR", Bind: scalars["SUBSTRING"].Bind}
	scalars["CHARACTER_LENGTH"] = &Scalar{Name: "CHARACTER_LENGTH", Bind: scalars["CHAR_LENGTH"].Bind}
	for name, h := range hashes {
		// MD5 is a CHAR(32), SHA1 a CHAR(40), ... (FlinkSqlOperatorTable:
		// ReturnTypes.explicit(SqlTypeName.CHAR, 2 * digest size)).
		rt := types.Type{Kind: types.Char, Length: 2 * h().Size()}
		register(strFunc{"(STRING)", []typePred{str}, rt, false, hashEval(h)}.bindWith(name, 1), name)
	}
	register(bindSHA2, "SHA2")
	register(bindConcat, "CONCAT")
	register(bindConcatOp, "||")
	register(bindConcatWS, "CONCAT_WS")
	register(bindTrim, "TRIM")
}

// runeIndex is the 1-based character position of sub in s at or after
// character from, or 0.
func runeIndex(s, sub string, from int) int {
	r := []rune(s)
	if from > len(r) {
		return 0
	}
	i := strings.Index(string(r[from:]), sub)
	if i < 0 {
		return 0
	}
	return from + utf8.RuneCountInString(string(r[from:])[:i]) + 1
}

func clampLen(n int64, l int) int {
	return int(max(0, min(n, int64(l))))
}

func substring(v []types.Value) (types.Value, error) {
	length := int64(1<<31 - 1)
	if len(v) == 3 {
		length = v[2].I
	}
	if length < 0 {
		return types.NullValue, nil
	}
	r := []rune(v[0].S)
	n, pos := int64(len(r)), v[1].I
	var start int64
	switch {
	case pos > 0:
		start = pos - 1
	case pos < 0:
		start = n + pos
	}
	if start >= n || start < 0 {
		return strVal("")
	}
	end := n
	if n-start >= length {
		end = start + length
	}
	return strVal(string(r[start:end]))
}

// pad implements LPAD (left) and RPAD after SqlFunctionUtils.lpad/rpad.
func pad(v []types.Value, left bool) (types.Value, error) {
	n, p := v[1].I, []rune(v[2].S)
	if n < 0 || len(p) == 0 {
		return types.NullValue, nil
	}
	if n > 1<<28 {
		return types.Value{}, runtimeError("LPAD/RPAD", "length %d too large", n)
	}
	s := []rune(v[0].S)
	if int64(len(s)) >= n {
		return strVal(string(s[:n]))
	}
	fill := make([]rune, 0, n-int64(len(s)))
	for int64(len(fill)) < n-int64(len(s)) {
		fill = append(fill, p[len(fill)%len(p)])
	}
	if left {
		return strVal(string(fill) + string(s))
	}
	return strVal(string(s) + string(fill))
}

// initcap upper-cases the first letter of each run of ASCII letters and
// digits and lower-cases the rest of it (Calcite's SqlFunctions.initcap).
func initcap(s string) string {
	b := []byte(s)
	start := true
	for i, c := range b {
		alnum := c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		switch {
		case !alnum:
			start = true
		case start:
			if c >= 'a' && c <= 'z' {
				b[i] = c - 32
			}
			start = false
		case c >= 'A' && c <= 'Z':
			b[i] = c + 32
		}
	}
	return string(b)
}

// hashes are the digest functions; each returns lower-case hex of the
// digest of the string's UTF-8 bytes.
var hashes = map[string]func() hash.Hash{
	"MD5":    md5.New,
	"SHA1":   sha1.New,
	"SHA224": sha256.New224,
	"SHA256": sha256.New,
	"SHA384": sha512.New384,
	"SHA512": sha512.New,
}

func hashEval(h func() hash.Hash) func(v []types.Value) (types.Value, error) {
	return func(v []types.Value) (types.Value, error) {
		d := h()
		d.Write([]byte(v[0].S))
		return strVal(hex.EncodeToString(d.Sum(nil)))
	}
}

// SHA2(string, hashLength): "hashLength ... could be 224, 256, 384, or 512";
// another length gives NULL. The result is a VARCHAR(128)
// (FlinkSqlOperatorTable.SHA2), NOT NULL over NOT NULL arguments when the
// length is a constant one of those.
func bindSHA2(args []Arg) (types.Type, Eval, error) {
	if !match(args, str, integer) {
		return types.Type{}, nil, sigError("SHA2", "(STRING, INT hashLength)", args)
	}
	byLen := map[int64]func(v []types.Value) (types.Value, error){
		224: hashEval(sha256.New224), 256: hashEval(sha256.New),
		384: hashEval(sha512.New384), 512: hashEval(sha512.New),
	}
	rt := types.Type{Kind: types.Varchar, Length: 128}
	if n, ok := constInt(args[1]); ok && byLen[n] != nil {
		rt = strictType(rt, args)
	}
	return rt, strict(func(_ *Context, v []types.Value) (types.Value, error) {
		f, ok := byLen[v[1].I]
		if !ok {
			return types.NullValue, nil
		}
		return f(v[:1])
	}), nil
}

// CONCAT(s1, s2, ...) and s1 || s2: "Returns NULL if any argument is NULL."
// Binary strings concatenate to BYTES.
func bindConcat(args []Arg) (types.Type, Eval, error) {
	if len(args) == 0 {
		return types.Type{}, nil, sigError("CONCAT", "(STRING, STRING, ...) or (BYTES, BYTES, ...)", args)
	}
	rt := types.StringType
	for i, a := range args {
		if a.Unit != "" || !str(a.Type) && !binaryStr(a.Type) ||
			i > 0 && binaryStr(a.Type) != binaryStr(args[0].Type) && a.Type.Kind != types.Null && args[0].Type.Kind != types.Null {
			return types.Type{}, nil, sigError("CONCAT", "(STRING, STRING, ...) or (BYTES, BYTES, ...)", args)
		}
		if a.Type.Kind == types.Binary || a.Type.Kind == types.Varbinary {
			rt = types.Type{Kind: types.Varbinary, Length: types.MaxVarcharLength}
		}
	}
	return strictType(rt, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		var b strings.Builder
		for _, x := range v {
			b.WriteString(x.S)
		}
		return strVal(b.String())
	}), nil
}

// bindConcatOp binds s1 || s2 as CONCAT, typed as Calcite's CONCAT
// operator types it (ReturnTypes.DYADIC_STRING_SUM_PRECISION_NULLABLE):
// 'Fl' || 'ink' is a CHAR(5), a VARCHAR(3) || a VARCHAR(4) a VARCHAR(7),
// where the function CONCAT gives a STRING.
func bindConcatOp(args []Arg) (types.Type, Eval, error) {
	rt, eval, err := bindConcat(args)
	if err != nil || len(args) != 2 {
		return rt, eval, err
	}
	return stringSumType(args[0].Type, args[1].Type, false).WithNotNull(rt.NotNull), eval, nil
}

// CONCAT_WS(sep, s1, s2, ...): "Returns NULL If string1 is NULL. Compared
// with concat(), concat_ws() automatically skips NULL arguments. E.g.,
// concat_ws('~', 'AA', Null(STRING), 'BB', <empty string>, 'CC') returns
// 'AA~BB~~CC'."
func bindConcatWS(args []Arg) (types.Type, Eval, error) {
	if len(args) < 2 {
		return types.Type{}, nil, sigError("CONCAT_WS", "(STRING separator, STRING, ...)", args)
	}
	for _, a := range args {
		if !match([]Arg{a}, str) {
			return types.Type{}, nil, sigError("CONCAT_WS", "(STRING separator, STRING, ...)", args)
		}
	}
	return strictType(types.StringType, args[:1]), func(_ *Context, v []types.Value) (types.Value, error) {
		if v[0].Null {
			return types.NullValue, nil
		}
		parts := make([]string, 0, len(v)-1)
		for _, x := range v[1:] {
			if !x.Null {
				parts = append(parts, x.S)
			}
		}
		return strVal(strings.Join(parts, v[0].S))
	}, nil
}

// TRIM([BOTH|LEADING|TRAILING] [chars] FROM s) arrives as TRIM(mode, s
// [, chars]): the mode is an Arg with Unit set. It removes any of the
// characters in chars (default a space) from the chosen ends. The result is
// s's type made varying (Calcite's SqlTrimFunction: ARG2, TO_NULLABLE,
// TO_VARYING): TRIM of a CHAR(5) is a VARCHAR(5).
func bindTrim(args []Arg) (types.Type, Eval, error) {
	expects := "([BOTH|LEADING|TRAILING] [STRING chars] FROM STRING)"
	if len(args) < 2 || len(args) > 3 || !match(args[1:], []typePred{str, str}[:len(args)-1]...) {
		return types.Type{}, nil, sigError("TRIM", expects, args)
	}
	var leading, trailing bool
	switch args[0].Unit {
	case "BOTH":
		leading, trailing = true, true
	case "LEADING":
		leading = true
	case "TRAILING":
		trailing = true
	default:
		return types.Type{}, nil, sigError("TRIM", expects, args)
	}
	return strictType(varyingStringType(args[1].Type), args[1:]), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		chars := " "
		if len(v) == 3 {
			chars = v[2].S
		}
		return strVal(trimChars(v[1].S, chars, leading, trailing))
	}), nil
}

// trimChars removes the characters in chars from the ends of s.
func trimChars(s, chars string, leading, trailing bool) string {
	if leading {
		s = strings.TrimLeft(s, chars)
	}
	if trailing {
		s = strings.TrimRight(s, chars)
	}
	return s
}

// maxBuiltString bounds the strings a function builds from smaller ones
// (REPEAT, REPLACE, REGEXP_REPLACE), so that a query fails naming the
// function instead of exhausting the process's memory.
const maxBuiltString = 1 << 30

// checkReplaced refuses a replacement whose result would pass
// maxBuiltString: n bytes of text, each match of at least m bytes replaced
// by r. length gives the result's exact length; it runs only when every
// position matching could pass the bound.
func checkReplaced(name string, n, m, r int, length func() int64) error {
	if r <= m || int64(n)+int64(n+1)*int64(r-m) <= maxBuiltString {
		return nil
	}
	if length() > maxBuiltString {
		return runtimeError(name, "result longer than 1 GiB")
	}
	return nil
}
