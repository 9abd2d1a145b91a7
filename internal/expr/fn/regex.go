package fn

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sluicesql/sluice/internal/types"
)

// Regular expressions. Flink uses java.util.regex; Sluice uses Go's RE2,
// whose syntax agrees for classes, groups (also named ones), quantifiers,
// anchors, flags like (?i) and \Q...\E. RE2 cannot run these Java
// constructs, which are reported as errors rather than silently
// mismatching: lookahead and lookbehind ((?=, (?!, (?<=, (?<!), atomic
// groups ((?>), backreferences (\1, \k<name>), possessive quantifiers
// (*+, ++, ?+, }+), \Z, \G, \R, \h, \X and \p{javaX} classes. A pattern that
// is invalid in Java too makes the function return NULL (REGEXP: FALSE), as
// Flink does when it catches the PatternSyntaxException.

// javaOnly lists Java regex constructs RE2 lacks, with the text that spots
// them (a scan of the pattern, outside \Q...\E).
var javaOnly = []struct{ token, what string }{
	{"(?=", "lookahead"}, {"(?!", "negative lookahead"},
	{"(?<=", "lookbehind"}, {"(?<!", "negative lookbehind"},
	{"(?>", "atomic group"}, {`\k<`, "named backreference"},
	{"*+", "possessive quantifier"}, {"++", "possessive quantifier"},
	{"?+", "possessive quantifier"}, {"}+", "possessive quantifier"},
	{`\Z`, `\Z`}, {`\G`, `\G`}, {`\R`, `\R`}, {`\h`, `\h`}, {`\X`, `\X`},
	{`\p{java`, "java character class"},
}

// unsupportedRegex names the first Java-only construct in p, if any.
func unsupportedRegex(p string) string {
	for i := 0; i < len(p); i++ {
		if strings.HasPrefix(p[i:], `\Q`) {
			end := strings.Index(p[i:], `\E`)
			if end < 0 {
				return ""
			}
			i += end + 1
			continue
		}
		if p[i] == '\\' && i+1 < len(p) && p[i+1] >= '1' && p[i+1] <= '9' {
			return "backreference " + p[i:i+2]
		}
		for _, j := range javaOnly {
			if strings.HasPrefix(p[i:], j.token) {
				return j.what + " " + j.token
			}
		}
		if p[i] == '\\' {
			i++ // skip the escaped character
		}
	}
	return ""
}

// compiledRegex is a compiled pattern, or nil for a pattern that is
// invalid in Java too.
type compiledRegex = *regexp.Regexp

var regexCache = struct {
	sync.Mutex
	m map[string]compiledRegex
}{m: map[string]compiledRegex{}}

// compileRegex compiles a Java pattern. It fails for Java constructs RE2
// cannot run; a pattern that is simply invalid yields nil.
func compileRegex(name, p string) (compiledRegex, error) {
	regexCache.Lock()
	defer regexCache.Unlock()
	if re, ok := regexCache.m[p]; ok {
		return re, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		if what := unsupportedRegex(p); what != "" {
			return nil, fmt.Errorf("%s: the Java regular expression construct %s in %q is not supported", name, what, p)
		}
		re = nil
	}
	if len(regexCache.m) >= 256 {
		clear(regexCache.m)
	}
	regexCache.m[p] = re
	return re, nil
}

// regexArg returns the pattern given as argument i, compiled once when it
// is a constant.
func regexArg(name string, args []Arg, i int) (func(types.Value) (compiledRegex, error), error) {
	if p, ok := constString(args[i]); ok {
		re, err := compileRegex(name, p)
		return func(types.Value) (compiledRegex, error) { return re, nil }, err
	}
	return func(v types.Value) (compiledRegex, error) { return compileRegex(name, v.S) }, nil
}

func init() {
	register(bindRegexpExtract, "REGEXP_EXTRACT")
	register(bindRegexpReplace, "REGEXP_REPLACE")
	register(bindRegexp, "REGEXP")
	register(bindRegexpFind("REGEXP_COUNT", types.IntType, regexpCount), "REGEXP_COUNT")
	register(bindRegexpFind("REGEXP_INSTR", types.IntType, regexpInstr), "REGEXP_INSTR")
	register(bindRegexpFind("REGEXP_SUBSTR", types.StringType, regexpSubstr), "REGEXP_SUBSTR")
	register(bindRegexpExtractAll, "REGEXP_EXTRACT_ALL")
	register(bindSplit, "SPLIT")
	register(bindStrToMap, "STR_TO_MAP")
	register(bindLike, "LIKE")
	register(bindSimilar, "SIMILAR TO")
}

// REGEXP_EXTRACT(str, regex[, index]): "Returns a string from string1 which
// extracted with a specified regular expression string2 and a regex match
// group index integer. The regex match group index starts from 1 and 0 means
// matching the whole regex. E.g. REGEXP_EXTRACT('foothebar',
// 'foo(.*?)(bar)', 2) returns "bar"." No match, a bad index or an invalid
// pattern give NULL (SqlFunctionUtils.regexpExtract).
func bindRegexpExtract(args []Arg) (types.Type, Eval, error) {
	if !match(args, str, str) && !match(args, str, str, integer) {
		return types.Type{}, nil, sigError("REGEXP_EXTRACT", "(STRING, STRING regex [, INT group])", args)
	}
	pattern, err := regexArg("REGEXP_EXTRACT", args, 1)
	if err != nil {
		return types.Type{}, nil, err
	}
	return types.StringType, strict(func(_ *Context, v []types.Value) (types.Value, error) {
		re, err := pattern(v[1])
		if re == nil || err != nil {
			return types.NullValue, err
		}
		group := argOr(v, 2).I
		m := re.FindStringSubmatchIndex(v[0].S)
		if m == nil || group < 0 || group > int64(re.NumSubexp()) || m[2*group] < 0 {
			return types.NullValue, nil
		}
		return types.StringValue(v[0].S[m[2*group]:m[2*group+1]]), nil
	}), nil
}

// REGEXP_EXTRACT_ALL(str, regex[, extractIndex]): "Extracts all the
// substrings in str that match the regex expression and correspond to the
// regex group extractIndex. regex may contain multiple groups.
// extractIndex indicates which regex group to extract and starts from 1,
// also the default value, where 0 means matching the entire regular
// expression." An invalid pattern, a negative index or one above the
// number of groups give NULL; a group that took no part in a match is a
// NULL element (RegexpExtractAllFunction).
func bindRegexpExtractAll(args []Arg) (types.Type, Eval, error) {
	if !match(args, str, str) && !match(args, str, str, integer) {
		return types.Type{}, nil, sigError("REGEXP_EXTRACT_ALL", "(STRING, STRING regex [, INT group])", args)
	}
	pattern, err := regexArg("REGEXP_EXTRACT_ALL", args, 1)
	if err != nil {
		return types.Type{}, nil, err
	}
	return types.ArrayOf(types.StringType), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		re, err := pattern(v[1])
		if re == nil || err != nil {
			return types.NullValue, err
		}
		group := int64(1)
		if len(v) > 2 {
			group = v[2].I
		}
		if group < 0 || group > int64(re.NumSubexp()) {
			return types.NullValue, nil
		}
		var out []types.Value
		for _, m := range re.FindAllStringSubmatchIndex(v[0].S, -1) {
			if m[2*group] < 0 {
				out = append(out, types.NullValue)
				continue
			}
			out = append(out, types.StringValue(v[0].S[m[2*group]:m[2*group+1]]))
		}
		return types.EncodeArray(types.StringType, out), nil
	}), nil
}

// SPLIT(string, delimiter): "Splits a string into an array of substrings
// based on a delimiter. If the delimiter is not found, then the original
// string is returned as the only element in the array. If the delimiter is
// empty, then all characters in the string are split. If either, string
// or delimiter, are NULL, then a NULL value is returned. If the delimiter
// is found at the beginning or end of the string, or there are contiguous
// delimiters, then an empty string is added to the array." The delimiter
// is text, not a pattern.
func bindSplit(args []Arg) (types.Type, Eval, error) {
	if !match(args, str, str) {
		return types.Type{}, nil, sigError("SPLIT", "(STRING, STRING delimiter)", args)
	}
	return types.ArrayOf(types.StringType).WithNotNull(!anyNullable(args)), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		parts := strings.Split(v[0].S, v[1].S)
		out := make([]types.Value, len(parts))
		for i, p := range parts {
			out[i] = types.StringValue(p)
		}
		return types.EncodeArray(types.StringType, out), nil
	}), nil
}

// STR_TO_MAP(text[, listDelimiter, keyValueDelimiter]): "Returns a map
// after splitting the text into key/value pairs using delimiters. Default
// delimiters are ',' for listDelimiter and '=' for keyValueDelimiter.
// Both delimiters are treated as regular expressions." A pair without the
// key-value delimiter has a NULL value; a repeated key keeps its last
// value (SqlFunctionUtils.strToMap, with Java's String.split, which drops
// trailing empty strings). The entries keep the text's order; Flink's
// HashMap shows them in its own order. The map is nullable whatever the
// arguments (FlinkSqlOperatorTable.STR_TO_MAP: STR_MAP_NULLABLE, an
// explicit nullable MAP<STRING, STRING>).
func bindStrToMap(args []Arg) (types.Type, Eval, error) {
	if !match(args, str) && !match(args, str, str, str) {
		return types.Type{}, nil, sigError("STR_TO_MAP", "(STRING [, STRING list_delimiter, STRING key_value_delimiter])", args)
	}
	t := types.MapOf(types.StringType, types.StringType)
	list, kv := func(types.Value) (compiledRegex, error) { return compileRegex("STR_TO_MAP", ",") },
		func(types.Value) (compiledRegex, error) { return compileRegex("STR_TO_MAP", "=") }
	if len(args) == 3 {
		var err error
		if list, err = regexArg("STR_TO_MAP", args, 1); err != nil {
			return types.Type{}, nil, err
		}
		if kv, err = regexArg("STR_TO_MAP", args, 2); err != nil {
			return types.Type{}, nil, err
		}
	}
	eq := scalarEquality(types.StringType)
	return t, strict(func(_ *Context, v []types.Value) (types.Value, error) {
		lre, err := list(argOr(v, 1))
		if err != nil {
			return types.NullValue, err
		}
		kre, err := kv(argOr(v, 2))
		if err != nil {
			return types.NullValue, err
		}
		if lre == nil || kre == nil {
			return types.NullValue, runtimeError("STR_TO_MAP", "invalid delimiter pattern")
		}
		var keys, vals []types.Value
		for _, pair := range javaSplit(lre, v[0].S, 0) {
			kvs := javaSplit(kre, pair, 2)
			val := types.NullValue
			if len(kvs) == 2 {
				val = types.StringValue(kvs[1])
			}
			keys, vals = putEntry(keys, vals, types.StringValue(kvs[0]), val, eq)
		}
		return types.EncodeMap(t, keys, vals), nil
	}), nil
}

// javaSplit is Java's String.split(regex, limit): at most limit parts when
// limit > 0; with limit 0 trailing empty strings are dropped; a match of
// zero width at the start yields no leading empty string.
func javaSplit(re compiledRegex, s string, limit int) []string {
	if s == "" {
		return []string{""}
	}
	var out []string
	start := 0
	for _, m := range re.FindAllStringIndex(s, -1) {
		if limit > 0 && len(out) == limit-1 {
			break
		}
		if m[1] == 0 {
			continue // a zero-width match at the beginning
		}
		out = append(out, s[start:m[0]])
		start = m[1]
	}
	out = append(out, s[start:])
	if limit == 0 {
		for len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1]
		}
	}
	return out
}

// REGEXP_REPLACE(str, regex, replacement): "Returns a string from string1
// with all the substrings that match a regular expression string2
// consecutively being replaced with string3. E.g.,
// REGEXP_REPLACE('foobar', 'oo|ar', ”) returns "fb"." The replacement is
// literal (Flink quotes it with Matcher.quoteReplacement); an invalid
// pattern gives NULL.
func bindRegexpReplace(args []Arg) (types.Type, Eval, error) {
	if !match(args, str, str, str) {
		return types.Type{}, nil, sigError("REGEXP_REPLACE", "(STRING, STRING regex, STRING replacement)", args)
	}
	pattern, err := regexArg("REGEXP_REPLACE", args, 1)
	if err != nil {
		return types.Type{}, nil, err
	}
	return types.StringType, strict(func(_ *Context, v []types.Value) (types.Value, error) {
		re, err := pattern(v[1])
		if re == nil || err != nil {
			return types.NullValue, err
		}
		if err := checkReplaced("REGEXP_REPLACE", len(v[0].S), 0, len(v[2].S), func() int64 { return regexpReplacedLen(re, v[0].S, len(v[2].S)) }); err != nil {
			return types.Value{}, err
		}
		return types.StringValue(re.ReplaceAllLiteralString(v[0].S, v[2].S)), nil
	}), nil
}

// regexpReplacedLen is the length of s with every match of re replaced by
// r literal bytes: the text outside the matches plus r per match. The
// matches are visited one at a time, none kept, with the same leftmost,
// non-overlapping search as the replacement itself.
func regexpReplacedLen(re compiledRegex, s string, r int) int64 {
	var matches, matched int64
	re.ReplaceAllStringFunc(s, func(m string) string {
		matches++
		matched += int64(len(m))
		return ""
	})
	return int64(len(s)) - matched + matches*int64(r)
}

// REGEXP(str, regex): "Returns TRUE if any (possibly empty) substring of
// string1 matches the Java regular expression string2, otherwise FALSE."
// An empty or invalid pattern gives FALSE (SqlFunctionUtils.regExp).
func bindRegexp(args []Arg) (types.Type, Eval, error) {
	if !match(args, str, str) {
		return types.Type{}, nil, sigError("REGEXP", "(STRING, STRING regex)", args)
	}
	pattern, err := regexArg("REGEXP", args, 1)
	if err != nil {
		return types.Type{}, nil, err
	}
	return strictType(types.BooleanType, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		re, err := pattern(v[1])
		if err != nil || re == nil || v[1].S == "" {
			return types.BoolValue(false), err
		}
		return types.BoolValue(re.MatchString(v[0].S)), nil
	}), nil
}

// bindRegexpFind binds REGEXP_COUNT, REGEXP_INSTR and REGEXP_SUBSTR(str,
// regex), which give NULL for a NULL argument or an invalid pattern
// (RegexpCountFunction, RegexpInstrFunction, RegexpSubstrFunction).
// Matches are found one after the other as Go's FindAll does, which skips
// an empty match right after a non-empty one (Java's Matcher.find counts
// it: REGEXP_COUNT('baaa', 'a*') is 3 in Flink and 2 here).
func bindRegexpFind(name string, result types.Type, find func(re compiledRegex, s string) types.Value) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if !match(args, str, str) {
			return types.Type{}, nil, sigError(name, "(STRING, STRING regex)", args)
		}
		pattern, err := regexArg(name, args, 1)
		if err != nil {
			return types.Type{}, nil, err
		}
		return result, strict(func(_ *Context, v []types.Value) (types.Value, error) {
			re, err := pattern(v[1])
			if re == nil || err != nil {
				return types.NullValue, err
			}
			return find(re, v[0].S), nil
		}), nil
	}
}

// regexpCount: "Returns the number of times str matches the regex
// pattern."
func regexpCount(re compiledRegex, s string) types.Value {
	return types.IntValue(int64(len(re.FindAllStringIndex(s, -1))))
}

// regexpInstr: "Returns the position of the first substring in str that
// matches regex. Result indexes begin at 1, 0 if there is no match." The
// position counts characters.
func regexpInstr(re compiledRegex, s string) types.Value {
	m := re.FindStringIndex(s)
	if m == nil {
		return types.IntValue(0)
	}
	return types.IntValue(int64(utf8.RuneCountInString(s[:m[0]]) + 1))
}

// regexpSubstr: "Returns the first substring in str that matches regex";
// NULL when none does.
func regexpSubstr(re compiledRegex, s string) types.Value {
	m := re.FindStringIndex(s)
	if m == nil {
		return types.NullValue
	}
	return types.StringValue(s[m[0]:m[1]])
}

// likeTranslator turns a LIKE or SIMILAR TO pattern into an anchored RE2
// expression.
type likeTranslator func(pattern string, escape rune) (string, error)

// likeToRegex translates LIKE: % is any sequence, _ any character, the
// escape character (none unless given) makes the next %, _ or escape
// literal; anything else after it is an error, as in Calcite's
// SqlLikeUtils.sqlToRegexLike.
func likeToRegex(p string, escape rune) (string, error) {
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	r := []rune(p)
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == escape:
			if i+1 >= len(r) || r[i+1] != '%' && r[i+1] != '_' && r[i+1] != escape {
				return "", fmt.Errorf("invalid escape sequence in LIKE pattern %q", p)
			}
			i++
			b.WriteString(regexp.QuoteMeta(string(r[i])))
		case c == '%':
			b.WriteString(".*")
		case c == '_':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`\z`)
	return b.String(), nil
}

// similarToRegex translates SIMILAR TO: % and _ as in LIKE, the regular
// expression operators | * + ? {m,n} ( ) [ ] kept, other characters literal.
func similarToRegex(p string, escape rune) (string, error) {
	var b strings.Builder
	b.WriteString(`(?s)\A(?:`)
	r := []rune(p)
	inClass := false
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == escape:
			if i+1 >= len(r) {
				return "", fmt.Errorf("invalid escape sequence in SIMILAR TO pattern %q", p)
			}
			i++
			b.WriteString(regexp.QuoteMeta(string(r[i])))
		case c == '[':
			inClass = true
			b.WriteRune(c)
		case c == ']':
			inClass = false
			b.WriteRune(c)
		case inClass:
			if c == '\\' {
				b.WriteString(`\\`)
			} else {
				b.WriteRune(c)
			}
		case c == '%':
			b.WriteString(".*")
		case c == '_':
			b.WriteString(".")
		case strings.ContainsRune("|*+?{}(),0123456789", c):
			b.WriteRune(c)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`)\z`)
	return b.String(), nil
}

func bindLike(args []Arg) (types.Type, Eval, error) {
	return bindPatternMatch("LIKE", likeToRegex, args)
}

func bindSimilar(args []Arg) (types.Type, Eval, error) {
	return bindPatternMatch("SIMILAR TO", similarToRegex, args)
}

// bindPatternMatch binds x LIKE|SIMILAR TO pattern [ESCAPE e]; the pattern
// and escape are compiled once when constant.
func bindPatternMatch(name string, translate likeTranslator, args []Arg) (types.Type, Eval, error) {
	if !match(args, str, str) && !match(args, str, str, str) {
		return types.Type{}, nil, sigError(name, "(STRING, STRING pattern [, STRING escape])", args)
	}
	compile := func(p, esc string) (*regexp.Regexp, error) {
		escape := rune(-1)
		if len(esc) > 0 {
			if len([]rune(esc)) != 1 {
				return nil, fmt.Errorf("%s: the escape must be one character, got %q", name, esc)
			}
			escape = []rune(esc)[0]
		}
		expr, err := translate(p, escape)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return compileRegex(name, expr)
	}
	p, pConst := constString(args[1])
	esc, escConst := "", len(args) == 2
	if len(args) == 3 {
		esc, escConst = constString(args[2])
	}
	var fixed *regexp.Regexp
	if pConst && escConst {
		var err error
		if fixed, err = compile(p, esc); err != nil {
			return types.Type{}, nil, err
		}
	}
	return strictType(types.BooleanType, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		re := fixed
		if re == nil {
			var err error
			if re, err = compile(v[1].S, argOr(v, 2).S); err != nil {
				return types.Value{}, err
			}
		}
		return types.BoolValue(re.MatchString(v[0].S)), nil
	}), nil
}
