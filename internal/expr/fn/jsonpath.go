package fn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSON paths as Flink's JSON functions evaluate them (SqlJsonUtils over
// Jayway JsonPath): an optional mode, `lax` or `strict` (strict when
// omitted), then a path from the root `$` (a path not starting with `$` is
// read as `$.` followed by it, as JsonPath compiles it) made of
//
//	.name  ['name']  ["name"]      a member
//	[n]                            an element (negative counts from the end)
//	[n, m, ...]  [a:b]  [a:]  [:b] elements (indefinite)
//	[*]  .*                        every member or element (indefinite)
//	..name                         a member at any depth (indefinite)
//
// A definite path leads to one value: in strict mode a missing member or
// element, or a step over a value of the wrong kind, is an error; in lax
// mode it gives no value, as does text that is not JSON. An indefinite path
// gives the list of the values it leads to, possibly empty, never an
// error. Filters (`[?(...)]`) and several names in one step (`['a','b']`)
// are not supported: they are refused by name (unsupportedPath), never
// taken for the call's error behavior, since JsonPath runs them in Flink.

// jsonPath is a parsed path.
type jsonPath struct {
	text     string // as given, for messages
	strict   bool
	steps    []jsonStep
	definite bool
}

type jsonStepKind uint8

const (
	stepMember  jsonStepKind = iota
	stepIndex                // one element
	stepIndexes              // several elements
	stepSlice
	stepWildcard
	stepDeep // ..name
)

// jsonStep is one step of a path.
type jsonStep struct {
	kind     jsonStepKind
	name     string
	indexes  []int
	from, to int
	hasFrom  bool
	hasTo    bool
}

// unsupportedPath is the error of a path that Flink's JsonPath runs and
// Sluice does not.
type unsupportedPath struct{ msg string }

func (e unsupportedPath) Error() string { return e.msg }

// isUnsupportedPath reports whether err is an unsupportedPath.
func isUnsupportedPath(err error) bool {
	var u unsupportedPath
	return errors.As(err, &u)
}

// parseJSONPath parses a path with its mode.
func parseJSONPath(spec string) (*jsonPath, error) {
	p := &jsonPath{text: spec, strict: true, definite: true}
	s := strings.TrimSpace(spec)
	if mode, rest, ok := strings.Cut(s, " "); ok {
		switch strings.ToLower(mode) {
		case "lax":
			p.strict, s = false, strings.TrimSpace(rest)
		case "strict":
			s = strings.TrimSpace(rest)
		}
	}
	if s == "" {
		return nil, fmt.Errorf("Illegal jsonpath spec '%s': the path is empty", spec)
	}
	if !strings.HasPrefix(s, "$") {
		s = "$." + s
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("Illegal jsonpath spec '%s': %s", spec, fmt.Sprintf(format, a...))
	}
	for i := 1; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], ".."):
			i += 2
			j := memberEnd(s, i)
			if j == i {
				return nil, bad("a name must follow '..'")
			}
			p.steps = append(p.steps, jsonStep{kind: stepDeep, name: s[i:j]})
			p.definite = false
			i = j
		case s[i] == '.':
			i++
			if i < len(s) && s[i] == '[' {
				continue // $.['name'], as JsonPath allows
			}
			if i < len(s) && s[i] == '*' {
				p.steps = append(p.steps, jsonStep{kind: stepWildcard})
				p.definite = false
				i++
				continue
			}
			j := memberEnd(s, i)
			if j == i {
				return nil, bad("a member name must follow '.'")
			}
			p.steps = append(p.steps, jsonStep{kind: stepMember, name: s[i:j]})
			i = j
		case s[i] == '[':
			end, step, err := bracketStep(s, i)
			if isUnsupportedPath(err) {
				return nil, unsupportedPath{fmt.Sprintf("JSON path '%s': %v", spec, err)}
			}
			if err != nil {
				return nil, bad("%v", err)
			}
			if step.kind != stepMember && step.kind != stepIndex {
				p.definite = false
			}
			p.steps = append(p.steps, step)
			i = end
		default:
			return nil, bad("unexpected '%c' at position %d", s[i], i)
		}
	}
	return p, nil
}

// memberEnd is where a member name starting at i ends.
func memberEnd(s string, i int) int {
	for i < len(s) && s[i] != '.' && s[i] != '[' && s[i] != ' ' {
		i++
	}
	return i
}

// bracketStep parses the step in brackets at s[i] and returns the position
// after it.
func bracketStep(s string, i int) (int, jsonStep, error) {
	if i+1 < len(s) && (s[i+1] == '\'' || s[i+1] == '"') {
		q := s[i+1]
		end := strings.IndexByte(s[i+2:], q)
		if end < 0 {
			return 0, jsonStep{}, errors.New("an unterminated quoted name")
		}
		name := s[i+2 : i+2+end]
		j := i + 2 + end + 1
		if j < len(s) && s[j] == ',' {
			return 0, jsonStep{}, unsupportedPath{"several names in one step are not supported yet"}
		}
		if j >= len(s) || s[j] != ']' {
			return 0, jsonStep{}, errors.New("expected ']' after a quoted name")
		}
		return j + 1, jsonStep{kind: stepMember, name: name}, nil
	}
	end := strings.IndexByte(s[i:], ']')
	if end < 0 {
		return 0, jsonStep{}, errors.New("an unterminated '['")
	}
	inner := strings.TrimSpace(s[i+1 : i+end])
	next := i + end + 1
	switch {
	case inner == "*":
		return next, jsonStep{kind: stepWildcard}, nil
	case strings.HasPrefix(inner, "?"):
		return 0, jsonStep{}, unsupportedPath{"filter expressions are not supported yet"}
	case strings.Contains(inner, ":"):
		a, b, _ := strings.Cut(inner, ":")
		st := jsonStep{kind: stepSlice}
		var err error
		if a = strings.TrimSpace(a); a != "" {
			st.hasFrom = true
			if st.from, err = strconv.Atoi(a); err != nil {
				return 0, jsonStep{}, fmt.Errorf("a bad slice start '%s'", a)
			}
		}
		if b = strings.TrimSpace(b); b != "" {
			st.hasTo = true
			if st.to, err = strconv.Atoi(b); err != nil {
				return 0, jsonStep{}, fmt.Errorf("a bad slice end '%s'", b)
			}
		}
		return next, st, nil
	}
	var idx []int
	for _, part := range strings.Split(inner, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil {
			return 0, jsonStep{}, fmt.Errorf("a bad array index '%s'", strings.TrimSpace(part))
		}
		idx = append(idx, n)
	}
	if len(idx) == 1 {
		return next, jsonStep{kind: stepIndex, indexes: idx}, nil
	}
	return next, jsonStep{kind: stepIndexes, indexes: idx}, nil
}

// jsonMissing is the error of a definite path that leads nowhere.
type jsonMissing struct{ path string }

func (e jsonMissing) Error() string { return "No results for path: " + e.path }

// eval applies the path to a parsed document: the value of a definite
// path (nil for a JSON null), or the list ([]any) of an indefinite one's.
// A definite path that leads nowhere is a jsonMissing error.
func (p *jsonPath) eval(doc any) (any, error) {
	if !p.definite {
		var out []any
		walkJSON(doc, p.steps, &out)
		if out == nil {
			out = []any{}
		}
		return out, nil
	}
	v := doc
	for _, st := range p.steps {
		switch st.kind {
		case stepMember:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, jsonMissing{p.text}
			}
			if v, ok = m[st.name]; !ok {
				return nil, jsonMissing{p.text}
			}
		case stepIndex:
			a, ok := v.([]any)
			if !ok {
				return nil, jsonMissing{p.text}
			}
			i := st.indexes[0]
			if i < 0 {
				i += len(a)
			}
			if i < 0 || i >= len(a) {
				return nil, jsonMissing{p.text}
			}
			v = a[i]
		}
	}
	return v, nil
}

// walkJSON collects what steps lead to from v, skipping what is missing.
func walkJSON(v any, steps []jsonStep, out *[]any) {
	if len(steps) == 0 {
		*out = append(*out, v)
		return
	}
	st, rest := steps[0], steps[1:]
	switch st.kind {
	case stepMember:
		if m, ok := v.(map[string]any); ok {
			if x, ok := m[st.name]; ok {
				walkJSON(x, rest, out)
			}
		}
	case stepIndex, stepIndexes:
		if a, ok := v.([]any); ok {
			for _, i := range st.indexes {
				if i < 0 {
					i += len(a)
				}
				if i >= 0 && i < len(a) {
					walkJSON(a[i], rest, out)
				}
			}
		}
	case stepSlice:
		if a, ok := v.([]any); ok {
			from, to := 0, len(a)
			if st.hasFrom {
				from = st.from
				if from < 0 {
					from = max(len(a)+from, 0)
				}
			}
			if st.hasTo {
				to = st.to
				if to < 0 {
					to = len(a) + to
				}
			}
			for i := from; i < min(to, len(a)); i++ {
				walkJSON(a[i], rest, out)
			}
		}
	case stepWildcard:
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walkJSON(x[k], rest, out)
			}
		case []any:
			for _, e := range x {
				walkJSON(e, rest, out)
			}
		}
	case stepDeep:
		deepScan(v, st.name, rest, out)
	}
}

// deepScan applies rest to every member named name at any depth of v.
func deepScan(v any, name string, rest []jsonStep, out *[]any) {
	switch x := v.(type) {
	case map[string]any:
		if m, ok := x[name]; ok {
			walkJSON(m, rest, out)
		}
		for _, k := range sortedKeys(x) {
			deepScan(x[k], name, rest, out)
		}
	case []any:
		for _, e := range x {
			deepScan(e, name, rest, out)
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// parseJSONDoc parses JSON text, numbers kept as written. A surrogate
// escaped without its other half makes the text an error: Jackson keeps it
// in its Java string, which Flink's UTF-8 encoding then writes as '?', where
// Go's decoder would write U+FFFD; Sluice changes no character.
func parseJSONDoc(text string) (any, error) {
	if at := loneSurrogate(text); at >= 0 {
		return nil, fmt.Errorf("%s escapes a lone UTF-16 surrogate, which encodes no character, at character %d", text[at:at+6], utf8.RuneCountInString(text[:at])+1)
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("unexpected content after the JSON value")
	}
	return v, nil
}

// loneSurrogate returns where text has a \u escape of a UTF-16 surrogate
// that is not half of a pair escaped next to it, or -1. Backslashes stand
// only in strings in JSON, so every one starts an escape (a text that is
// not JSON fails to parse anyway).
func loneSurrogate(text string) int {
	for i := strings.IndexByte(text, '\\'); i >= 0 && i+1 < len(text); {
		n := 2
		if text[i+1] == 'u' && i+6 <= len(text) {
			if r, ok := hexUnit(text[i+2 : i+6]); ok && utf16.IsSurrogate(r) {
				lo, ok := rune(0), false
				if r < 0xdc00 && i+12 <= len(text) && text[i+6] == '\\' && text[i+7] == 'u' {
					lo, ok = hexUnit(text[i+8 : i+12])
				}
				if !ok || lo < 0xdc00 || lo > 0xdfff {
					return i
				}
				n = 12
			}
		}
		j := strings.IndexByte(text[i+n:], '\\')
		if j < 0 {
			break
		}
		i += n + j
	}
	return -1
}

// hexUnit reads four hex digits.
func hexUnit(s string) (rune, bool) {
	v, err := strconv.ParseUint(s, 16, 16)
	return rune(v), err == nil
}

// jsonPathResult is a path applied to a JSON text, as SqlJsonUtils'
// jsonApiCommonSyntax gives it: the value found (nil for none or a JSON
// null), or the error strict mode raises. In lax mode, text that is not
// JSON and a path that leads nowhere give no value.
func jsonPathResult(text string, p *jsonPath) (any, error) {
	doc, err := parseJSONDoc(text)
	if err != nil {
		if p.strict {
			return nil, err
		}
		return nil, nil
	}
	v, err := p.eval(doc)
	if err != nil && !p.strict {
		return nil, nil
	}
	return v, err
}

// isJSONScalar tells a JSON value that is neither an object nor an array.
func isJSONScalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}

// appendJackson writes a parsed JSON value compactly as Flink's Jackson
// mapper writes it: object members sorted by key (ORDER_MAP_ENTRIES_BY_KEYS),
// numbers as Java reads them (integers as written, others as BigDecimal
// prints them).
func appendJackson(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case string:
		return appendJSONString(b, x)
	case json.Number:
		return append(b, javaNumber(string(x))...)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJackson(b, e)
		}
		return append(b, ']')
	case map[string]any:
		b = append(b, '{')
		for i, k := range sortedKeys(x) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			b = appendJackson(b, x[k])
		}
		return append(b, '}')
	}
	return b
}

// jsonJavaString is a scalar as Java's String.valueOf prints what Jackson
// parsed, and an object or array as Java prints a Map or List, for JSON
// values returned as text and in messages.
func jsonJavaString(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	case json.Number:
		return javaNumber(string(x))
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = jsonJavaString(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		var buf bytes.Buffer
		buf.WriteByte('{')
		for i, k := range sortedKeys(x) {
			if i > 0 {
				buf.WriteString(", ")
			}
			buf.WriteString(k + "=" + jsonJavaString(x[k]))
		}
		buf.WriteByte('}')
		return buf.String()
	}
	return ""
}

// javaNumber prints a JSON number as Jackson reads it (with
// USE_BIG_DECIMAL_FOR_FLOATS) and Java prints it: an integer as written
// (without a minus on zero), anything with a fraction or exponent as
// BigDecimal.toString prints that literal: plain while the scale is not
// negative and the adjusted exponent not below -6, scientific otherwise.
func javaNumber(s string) string {
	if !strings.ContainsAny(s, ".eE") {
		if strings.Trim(s, "-0") == "" {
			return "0"
		}
		return s
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		exp, _ = strconv.Atoi(s[i+1:])
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	scale := len(frac) - exp
	if digits == "" {
		digits = "0"
	}
	adjusted := len(digits) - 1 - scale
	var out string
	switch {
	case scale >= 0 && adjusted >= -6:
		if scale == 0 {
			out = digits
		} else if len(digits) > scale {
			out = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
		} else {
			out = "0." + strings.Repeat("0", scale-len(digits)) + digits
		}
	default:
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		out += "E"
		if adjusted >= 0 {
			out += "+"
		}
		out += strconv.Itoa(adjusted)
	}
	if neg && strings.Trim(digits, "0") != "" {
		out = "-" + out
	}
	return out
}
