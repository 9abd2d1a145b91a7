package format

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/sluicesql/sluice/internal/types"
)

// JSON decoding. A hand-written scanner validates the whole message the way
// Jackson's readTree does (strict JSON, UTF-8, anything after the root value
// ignored), records where each table field's value lies, and converts those
// values straight into the column vectors. The conversions follow
// JsonToRowDataConverters, which works on Jackson nodes: numbers given as
// strings are accepted where Flink parses JsonNode.asText(), fractions are
// truncated into integer columns, and so on. That is the decoding of Flink
// 1.16-1.19; 1.20 adds 'decode.json-parser.enabled' (default true), whose
// streaming converters (JsonParserToRowDataConverters) agree on well-typed
// input and differ in corner cases (a number read into a string column keeps
// its literal text there), which Sluice does not reproduce.

type jsonKind uint8

const (
	jsonNull jsonKind = iota + 1
	jsonFalse
	jsonTrue
	jsonNumber
	jsonString
	jsonObject
	jsonArray
)

var jsonKindNames = [...]string{
	jsonNull: "null", jsonFalse: "boolean", jsonTrue: "boolean", jsonNumber: "number",
	jsonString: "string", jsonObject: "object", jsonArray: "array",
}

// jsonSpan locates one value in the message. For strings the span excludes
// the quotes.
type jsonSpan struct {
	kind       jsonKind
	start, end int
	escaped    bool // a string with escapes
	fraction   bool // a number with a fraction or exponent
}

// jsonScanner validates JSON text.
type jsonScanner struct {
	data  []byte
	pos   int
	stack []byte
}

type jsonSyntaxError struct {
	msg string
	pos int
}

func (e *jsonSyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON: %s at offset %d", e.msg, e.pos)
}

func (s *jsonScanner) fail(msg string) error { return &jsonSyntaxError{msg, s.pos} }

func (s *jsonScanner) unexpected() error {
	if s.pos >= len(s.data) {
		return s.fail("unexpected end of input")
	}
	c := s.data[s.pos]
	if c >= 0x20 && c < 0x7f {
		return s.fail(fmt.Sprintf("unexpected character '%c'", c))
	}
	return s.fail(fmt.Sprintf("unexpected byte 0x%02x", c))
}

func (s *jsonScanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// scalar scans a non-container value at s.pos.
func (s *jsonScanner) scalar() (jsonSpan, error) {
	if s.pos >= len(s.data) {
		return jsonSpan{}, s.unexpected()
	}
	switch c := s.data[s.pos]; c {
	case '"':
		return s.str()
	case 't':
		return s.literal("true", jsonTrue)
	case 'f':
		return s.literal("false", jsonFalse)
	case 'n':
		return s.literal("null", jsonNull)
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return s.number()
		}
		return jsonSpan{}, s.unexpected()
	}
}

// value scans any value at s.pos.
func (s *jsonScanner) value() (jsonSpan, error) {
	if s.pos < len(s.data) && (s.data[s.pos] == '{' || s.data[s.pos] == '[') {
		return s.container()
	}
	return s.scalar()
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

func (s *jsonScanner) literal(word string, k jsonKind) (jsonSpan, error) {
	start := s.pos
	end := start + len(word)
	if end > len(s.data) || string(s.data[start:end]) != word || end < len(s.data) && isIdentByte(s.data[end]) {
		return jsonSpan{}, s.fail("unrecognized token")
	}
	s.pos = end
	return jsonSpan{kind: k, start: start, end: end}, nil
}

func (s *jsonScanner) digits() int {
	n := 0
	for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
		s.pos++
		n++
	}
	return n
}

func (s *jsonScanner) number() (jsonSpan, error) {
	sp := jsonSpan{kind: jsonNumber, start: s.pos}
	if s.data[s.pos] == '-' {
		s.pos++
	}
	first := s.pos
	if s.digits() == 0 {
		return sp, s.fail("invalid number")
	}
	if s.data[first] == '0' && s.pos-first > 1 {
		return sp, s.fail("invalid number: leading zeroes")
	}
	if s.pos < len(s.data) && s.data[s.pos] == '.' {
		s.pos++
		sp.fraction = true
		if s.digits() == 0 {
			return sp, s.fail("invalid number: no digit after the decimal point")
		}
	}
	if s.pos < len(s.data) && (s.data[s.pos] == 'e' || s.data[s.pos] == 'E') {
		s.pos++
		sp.fraction = true
		if s.pos < len(s.data) && (s.data[s.pos] == '+' || s.data[s.pos] == '-') {
			s.pos++
		}
		if s.digits() == 0 {
			return sp, s.fail("invalid number: no digit in the exponent")
		}
	}
	sp.end = s.pos
	return sp, nil
}

// jsonPlain marks the bytes a string holds as they are: ASCII other than
// control characters, the quote and the backslash.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainRun returns the position of the first byte at or after pos that
// is not plain (see jsonPlain), or len(b): eight bytes at a time, then
// byte by byte.
func plainRun(b []byte, pos int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; pos+8 <= len(b); pos += 8 {
		x := binary.LittleEndian.Uint64(b[pos:])
		q := x ^ (ones * '"')
		e := x ^ (ones * '\\')
		// A high bit per byte that is below 0x20, a quote, a backslash or
		// not ASCII; the lowest one marks the first such byte (the
		// borrows only mark bytes above it).
		m := ((x - ones*0x20) &^ x) | ((q - ones) &^ q) | ((e - ones) &^ e) | x
		if m &= highs; m != 0 {
			return pos + bits.TrailingZeros64(m)/8
		}
	}
	for pos < len(b) && jsonPlain[b[pos]] {
		pos++
	}
	return pos
}

// plainStr is str, quicker for a string of plain bytes only (the usual
// member name or value).
func (s *jsonScanner) plainStr() (jsonSpan, error) {
	start := s.pos + 1
	if end := plainRun(s.data, start); end < len(s.data) && s.data[end] == '"' {
		s.pos = end + 1
		return jsonSpan{kind: jsonString, start: start, end: end}, nil
	}
	return s.str()
}

// str scans a string: escapes must be valid, control characters escaped and
// the text valid UTF-8 (Jackson rejects all three).
func (s *jsonScanner) str() (jsonSpan, error) {
	s.pos++
	sp := jsonSpan{kind: jsonString, start: s.pos}
	for s.pos < len(s.data) {
		s.pos = plainRun(s.data, s.pos)
		if s.pos >= len(s.data) {
			break
		}
		c := s.data[s.pos]
		if jsonPlain[c] {
			s.pos++
			continue
		}
		switch {
		case c == '"':
			sp.end = s.pos
			s.pos++
			return sp, nil
		case c == '\\':
			sp.escaped = true
			if s.pos+1 >= len(s.data) {
				s.pos++
				return sp, s.unexpected()
			}
			switch s.data[s.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.pos += 2
			case 'u':
				if s.pos+6 > len(s.data) || !isHex4(s.data[s.pos+2:s.pos+6]) {
					return sp, s.fail("invalid \\u escape")
				}
				if r := rune(hex4(s.data[s.pos+2:])); utf16.IsSurrogate(r) {
					if !s.surrogatePair(r) {
						return sp, s.fail(fmt.Sprintf("\\u%s escapes a lone UTF-16 surrogate, which encodes no character", s.data[s.pos+2:s.pos+6]))
					}
					s.pos += 6
				}
				s.pos += 6
			default:
				return sp, s.fail("invalid escape")
			}
		case c < 0x20:
			return sp, s.fail("unescaped control character in string")
		default:
			r, n := utf8.DecodeRune(s.data[s.pos:])
			if r == utf8.RuneError && n <= 1 {
				return sp, s.fail("invalid UTF-8")
			}
			s.pos += n
		}
	}
	return sp, s.unexpected()
}

// surrogatePair reports whether the \u escape at s.pos, of the surrogate
// r, is the high half of a pair whose low half is the escape after it.
// Jackson keeps a lone surrogate in its Java string, which Flink's UTF-8
// encoding of the value then writes as '?'; Sluice refuses the text rather
// than change a character.
func (s *jsonScanner) surrogatePair(r rune) bool {
	next := s.data[s.pos+6:]
	if r >= 0xdc00 || len(next) < 6 || next[0] != '\\' || next[1] != 'u' || !isHex4(next[2:6]) {
		return false
	}
	lo := hex4(next[2:])
	return lo >= 0xdc00 && lo <= 0xdfff
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// container scans an object or array at s.pos, iteratively (no recursion,
// whatever the nesting depth).
func (s *jsonScanner) container() (jsonSpan, error) {
	sp := jsonSpan{kind: jsonObject, start: s.pos}
	if s.data[s.pos] == '[' {
		sp.kind = jsonArray
	}
	stack := s.stack[:0]
	defer func() { s.stack = stack[:0] }()
	for {
		// A value is due at s.pos.
		if c := s.data[s.pos]; c == '{' || c == '[' {
			stack = append(stack, c)
			s.pos++
			s.ws()
			if s.pos < len(s.data) && s.data[s.pos] == c+2 { // '}' or ']'
				s.pos++
				stack = stack[:len(stack)-1]
			} else {
				if c == '{' {
					if err := s.key(); err != nil {
						return sp, err
					}
				}
				if s.pos >= len(s.data) {
					return sp, s.unexpected()
				}
				continue
			}
		} else if _, err := s.scalar(); err != nil {
			return sp, err
		}
		// After a value: a comma, or closing brackets.
		for {
			if len(stack) == 0 {
				sp.end = s.pos
				return sp, nil
			}
			s.ws()
			if s.pos >= len(s.data) {
				return sp, s.unexpected()
			}
			top := stack[len(stack)-1]
			if c := s.data[s.pos]; c == ',' {
				s.pos++
				s.ws()
				if top == '{' {
					if err := s.key(); err != nil {
						return sp, err
					}
				}
				if s.pos >= len(s.data) {
					return sp, s.unexpected()
				}
				break
			} else if c != top+2 {
				return sp, s.unexpected()
			}
			s.pos++
			stack = stack[:len(stack)-1]
		}
	}
}

// key scans a member name and the colon after it, leaving s.pos at the
// value.
func (s *jsonScanner) key() error {
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return s.unexpected()
	}
	if _, err := s.str(); err != nil {
		return err
	}
	s.ws()
	if s.pos >= len(s.data) || s.data[s.pos] != ':' {
		return s.unexpected()
	}
	s.pos++
	s.ws()
	return nil
}

// Decode decodes a message holding one row. A top-level JSON array, which
// DecodeRows reads as one row per element, is refused here: it is a parse
// error (no row under 'json.ignore-parse-errors').
func (c *jsonCodec) Decode(data []byte, cols []*types.Vector) error {
	if data == nil {
		return ErrNoRow
	}
	if isJSONArray(data) {
		if c.ignoreErrors {
			return ErrNoRow
		}
		return errors.New("invalid JSON row: a top-level JSON array is read as one row per element only in a table's value")
	}
	return c.decode(data, cols)
}

// isJSONArray tells whether the message's top-level value is an array.
func isJSONArray(data []byte) bool {
	for _, b := range data {
		switch b {
		case ' ', '\t', '\n', '\r':
		default:
			return b == '['
		}
	}
	return false
}

// DecodeRows appends the rows of one message to cols and returns how many
// it appended: one for an object, one per element for a top-level array,
// as Flink's json format does since 2.1 (FLINK-18590,
// JsonRowDataDeserializationSchema.deserialize(byte[], Collector)). The
// whole message is read before any element is converted, so a syntax
// error anywhere yields no row. Each element is then decoded as a message
// of its own: 'json.fail-on-missing-field' and 'json.ignore-parse-errors'
// apply per element, a null element gives no row, and an element that is
// not an object is an error, or gives no row under
// 'json.ignore-parse-errors'. An empty array gives no row. The error
// ErrNoRow means no row, as for Decode.
func (c *jsonCodec) DecodeRows(data []byte, cols []*types.Vector) (int, error) {
	if data == nil {
		return 0, ErrNoRow
	}
	if !isJSONArray(data) {
		if err := c.decode(data, cols); err != nil {
			return 0, err
		}
		return 1, nil
	}
	elems, err := c.arrayElements(data)
	if err != nil {
		if c.ignoreErrors {
			return 0, ErrNoRow
		}
		return 0, err
	}
	n := 0
	for i, e := range elems {
		err := c.decode(data[e.start:e.end], cols)
		switch {
		case err == nil:
			n++
		case errors.Is(err, ErrNoRow):
		default:
			// Rows of the earlier elements stay appended (see
			// RowsDecoder).
			return n, fmt.Errorf("element %d of the top-level array: %w", i, err)
		}
	}
	if n == 0 {
		return 0, ErrNoRow
	}
	return n, nil
}

// arrayElements validates a message whose top-level value is an array and
// returns the spans of its elements.
func (c *jsonCodec) arrayElements(data []byte) ([]jsonSpan, error) {
	s := &c.scan
	defer func() { s.data = nil }()
	s.data, s.pos = data, 0
	s.ws()
	start := s.pos
	if _, err := s.container(); err != nil {
		return nil, err
	}
	elems := c.elems[:0]
	s.pos = start + 1
	for {
		s.ws()
		if data[s.pos] == ']' {
			break
		}
		sp, err := s.value()
		if err != nil {
			return nil, err
		}
		if sp.kind == jsonString {
			sp.start, sp.end = sp.start-1, sp.end+1 // with the quotes
		}
		elems = append(elems, sp)
		s.ws()
		if data[s.pos] == ',' {
			s.pos++
		}
	}
	c.elems = elems
	return elems, nil
}

// decode decodes one object (or null) at the top of data.
func (c *jsonCodec) decode(data []byte, cols []*types.Vector) error {
	err := c.parse(data)
	c.scan.data = nil
	if err != nil {
		if c.ignoreErrors {
			return ErrNoRow
		}
		return err
	}
	// Every value is converted before any is stored, so that a bad one
	// leaves the columns as they were. The text of the string values goes
	// into one buffer, made into one string for the whole record: one
	// allocation per record, not per field.
	c.arena, c.refs = c.arena[:0], c.refs[:0]
	for i, f := range c.fields {
		if cols[i] == nil {
			continue // projected away: neither converted nor checked
		}
		sp := c.spans[i]
		if sp.kind == 0 {
			if c.failOnMissing {
				return fmt.Errorf("could not find field with name '%s'", f.Name)
			}
			c.vals[i] = types.NullValue
			continue
		}
		v, err := c.convertField(i, data, f.Type, sp)
		if err != nil {
			// A value Flink reads but Sluice cannot store is no parse error.
			if !c.ignoreErrors || types.IsRangeError(err) {
				return fmt.Errorf("field '%s' (%s): %w", f.Name, f.Type, err)
			}
			v = types.NullValue
		}
		c.vals[i] = v
	}
	if len(c.refs) > 0 {
		all := string(c.arena)
		for _, r := range c.refs {
			c.vals[r.field].S = all[r.start:r.end]
		}
	}
	for i, col := range cols {
		if col != nil {
			col.Append(c.vals[i])
		}
	}
	return nil
}

// arenaRef is a string value of field whose text is arena[start:end].
type arenaRef struct{ field, start, end int }

// convertField converts the value of top-level field i: JSON strings
// into character and binary columns go to the record's arena, the rest
// through convertAny.
func (c *jsonCodec) convertField(i int, data []byte, t types.Type, sp jsonSpan) (types.Value, error) {
	raw := data[sp.start:sp.end]
	if sp.kind == jsonNumber && !sp.fraction && (t.Kind == types.BigInt || t.Kind == types.Int) {
		// The common case of convert, first.
		bits := 64
		if t.Kind == types.Int {
			bits = 32
		}
		if n, ok := parseJSONInt(raw, bits); ok {
			return types.IntValue(n), nil
		}
		return types.Value{}, fmt.Errorf("%s: %w", raw, errRange)
	}
	if sp.kind != jsonString {
		return c.convertAny(data, t, sp)
	}
	start := len(c.arena)
	switch {
	case t.Kind == types.Char || t.Kind == types.Varchar:
		if sp.escaped {
			c.arena = appendUnescapedJSON(c.arena, raw)
		} else {
			c.arena = append(c.arena, raw...)
		}
	case (t.Kind == types.Binary || t.Kind == types.Varbinary) && !sp.escaped:
		var err error
		if c.arena, err = base64.StdEncoding.AppendDecode(c.arena, raw); err != nil {
			c.arena = c.arena[:start]
			return types.Value{}, fmt.Errorf("unable to deserialize byte array: %w", err)
		}
	default:
		return c.convertAny(data, t, sp)
	}
	c.refs = append(c.refs, arenaRef{i, start, len(c.arena)})
	return types.Value{}, nil
}

// parse scans the message and records the span of each field's value.
func (c *jsonCodec) parse(data []byte) error {
	clear(c.spans)
	c.next = 0
	s := &c.scan
	s.data, s.pos = data, 0
	s.ws()
	if s.pos == len(data) {
		return ErrNoRow // Jackson reads no content as a missing node
	}
	if data[s.pos] != '{' {
		sp, err := s.value()
		if err != nil {
			return err
		}
		if sp.kind == jsonNull {
			return ErrNoRow
		}
		return fmt.Errorf("invalid JSON row: expected an object, got %s", jsonKindNames[sp.kind])
	}
	s.pos++
	s.ws()
	if s.pos < len(data) && data[s.pos] == '}' {
		return nil
	}
	for {
		if s.pos >= len(data) || data[s.pos] != '"' {
			return s.unexpected()
		}
		ksp, err := s.plainStr()
		if err != nil {
			return err
		}
		idx, known := c.field(data, ksp)
		s.ws()
		if s.pos >= len(data) || data[s.pos] != ':' {
			return s.unexpected()
		}
		s.pos++
		s.ws()
		if s.pos >= len(data) {
			return s.unexpected()
		}
		var vsp jsonSpan
		switch ch := data[s.pos]; { // strings and numbers first
		case ch == '"':
			vsp, err = s.plainStr()
		case ch == '-' || ch >= '0' && ch <= '9':
			vsp, err = s.number()
		default:
			vsp, err = s.value()
		}
		if err != nil {
			return err
		}
		if known {
			c.spans[idx] = vsp // a repeated member replaces the earlier one
		}
		s.ws()
		if s.pos >= len(data) {
			return s.unexpected()
		}
		switch data[s.pos] {
		case ',':
			s.pos++
			s.ws()
		case '}':
			return nil // anything after the root object is ignored, as by Jackson
		default:
			return s.unexpected()
		}
	}
}

// field returns the index of the field a member name names. Members
// usually come in field order, so the field after the last one found is
// tried before the map.
func (c *jsonCodec) field(data []byte, key jsonSpan) (int, bool) {
	name := data[key.start:key.end]
	if key.escaped {
		i, ok := c.index[unescapeJSON(name)]
		return i, ok
	}
	if c.next < len(c.fields) && string(name) == c.fields[c.next].Name {
		c.next++
		return c.next - 1, true
	}
	i, ok := c.index[string(name)]
	if ok {
		c.next = i + 1
	}
	return i, ok
}

// unescapeJSON decodes the body of a JSON string that has escapes, which
// the scanner checked: every surrogate escaped is half of a pair.
func unescapeJSON(raw []byte) string {
	return string(appendUnescapedJSON(make([]byte, 0, len(raw)), raw))
}

// appendUnescapedJSON appends the decoded body of a JSON string to out.
func appendUnescapedJSON(out, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := rune(hex4(raw[i+1:]))
			i += 4
			if utf16.IsSurrogate(r) && i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
				if r2 := rune(hex4(raw[i+3:])); utf16.DecodeRune(r, r2) != utf8.RuneError {
					r = utf16.DecodeRune(r, r2)
					i += 6
				}
			}
			out = utf8.AppendRune(out, r)
		default: // '"', '\\', '/'
			out = append(out, raw[i])
		}
	}
	return out
}

func hex4(b []byte) int {
	v := 0
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		v = v<<4 | int(c)
	}
	return v
}

// text returns a string value's text.
func text(data []byte, sp jsonSpan) string {
	if sp.escaped {
		return unescapeJSON(data[sp.start:sp.end])
	}
	return string(data[sp.start:sp.end])
}

// scratchText is asText for text that is parsed and dropped: an unescaped
// string is returned without copying, so the result must not outlive the
// message.
func (c *jsonCodec) scratchText(data []byte, sp jsonSpan) string {
	if sp.kind == jsonString && !sp.escaped {
		return scratch(data[sp.start:sp.end])
	}
	return c.asText(data, sp)
}

// scratch returns b as a string without copying; the string must not be
// kept beyond the message.
func scratch(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// asText is JsonNode.asText() for a non-null value: a string's text, a
// number as Jackson's node prints it, "true" or "false"; containers give "".
func (c *jsonCodec) asText(data []byte, sp jsonSpan) string {
	raw := data[sp.start:sp.end]
	switch sp.kind {
	case jsonString:
		return text(data, sp)
	case jsonNumber:
		return string(c.appendNumber(nil, raw, sp.fraction))
	case jsonTrue:
		return "true"
	case jsonFalse:
		return "false"
	}
	return ""
}

// appendNumber appends a JSON number as Jackson's node for it prints:
// integers as they are ("-0" as "0"), fractions as Double.toString or, when
// read as BigDecimal, as the normalised BigDecimal.
func (c *jsonCodec) appendNumber(dst, raw []byte, fraction bool) []byte {
	if !fraction {
		if string(raw) == "-0" {
			return append(dst, '0')
		}
		return append(dst, raw...)
	}
	if c.bigDecimals {
		if d, err := parseBigDec(string(raw)); err == nil {
			return d.stripTrailingZeros().appendTo(dst, false)
		}
		return append(dst, raw...) // an exponent out of BigDecimal's range
	}
	f, _ := types.ParseFloat(string(raw), 64)
	return types.AppendJavaFloat(dst, f, 64)
}

// compact re-serialises a container value the way Jackson's
// JsonNode.toString() does: no whitespace, strings re-escaped, numbers
// re-printed.
func (c *jsonCodec) compact(raw []byte) string {
	s := jsonScanner{data: raw}
	out := make([]byte, 0, len(raw))
	for s.pos < len(raw) {
		switch ch := raw[s.pos]; {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			s.pos++
		case ch == '"':
			sp, _ := s.str()
			out = types.AppendJacksonString(out, text(raw, sp))
		case ch == '-' || ch >= '0' && ch <= '9':
			sp, _ := s.number()
			out = c.appendNumber(out, raw[sp.start:sp.end], sp.fraction)
		default:
			out = append(out, ch)
			s.pos++
		}
	}
	return string(out)
}

var (
	errNotANumber = fmt.Errorf("not a number")
	errRange      = fmt.Errorf("out of range")
)

// convert turns one JSON value into a value of type t, following
// JsonToRowDataConverters.
func (c *jsonCodec) convert(data []byte, t types.Type, sp jsonSpan) (types.Value, error) {
	if sp.kind == jsonNull || t.Kind == types.Null {
		return types.NullValue, nil
	}
	raw := data[sp.start:sp.end]
	switch t.Kind {
	case types.Boolean:
		// Boolean.parseBoolean: anything but "true" (any case) is false.
		switch sp.kind {
		case jsonTrue:
			return types.BoolValue(true), nil
		case jsonString:
			s := javaTrim(c.scratchText(data, sp))
			return types.BoolValue(len(s) == 4 && (s[0]|0x20) == 't' && (s[1]|0x20) == 'r' && (s[2]|0x20) == 'u' && (s[3]|0x20) == 'e'), nil
		}
		return types.BoolValue(false), nil
	case types.TinyInt, types.SmallInt:
		// Byte.parseByte / Short.parseShort on asText().trim().
		bits := 8
		if t.Kind == types.SmallInt {
			bits = 16
		}
		return c.parseIntText(data, sp, bits)
	case types.Int, types.IntervalYearMonth, types.BigInt, types.IntervalDayTime:
		bits := 64
		if t.Kind == types.Int || t.Kind == types.IntervalYearMonth {
			bits = 32
		}
		if sp.kind != jsonNumber {
			return c.parseIntText(data, sp, bits)
		}
		if !sp.fraction {
			i, ok := parseJSONInt(raw, bits)
			if !ok {
				return types.Value{}, fmt.Errorf("%s: %w", raw, errRange)
			}
			return types.IntValue(i), nil
		}
		// canConvertToInt/Long, then asInt/asLong: truncation.
		return truncToInt(string(raw), bits, c.bigDecimals)
	case types.Float, types.Double:
		bits := 64
		if t.Kind == types.Float {
			bits = 32
		}
		if sp.kind == jsonNumber {
			if sp.fraction && !c.bigDecimals && bits == 32 {
				f, _ := types.ParseFloat(string(raw), 64) // (float) asDouble()
				return types.FloatValue(float64(float32(f))), nil
			}
			f, _ := types.ParseFloat(string(raw), bits)
			return types.FloatValue(f), nil
		}
		s := javaTrim(c.scratchText(data, sp))
		f, err := parseJavaDouble(s, bits)
		if err != nil {
			return types.Value{}, fmt.Errorf("%q: %w", s, errNotANumber)
		}
		return types.FloatValue(f), nil
	case types.Decimal:
		s := scratch(raw)
		if sp.kind != jsonNumber {
			s = c.scratchText(data, sp)
		}
		return decimalFromText(s, t)
	case types.Char, types.Varchar:
		switch sp.kind {
		case jsonString:
			return types.StringValue(text(data, sp)), nil
		case jsonObject, jsonArray:
			return types.StringValue(c.compact(raw)), nil
		}
		return types.StringValue(c.asText(data, sp)), nil
	case types.Binary, types.Varbinary:
		if sp.kind != jsonString {
			return types.NullValue, nil // JsonNode.binaryValue() is null
		}
		b, err := base64.StdEncoding.DecodeString(text(data, sp))
		if err != nil {
			return types.Value{}, fmt.Errorf("unable to deserialize byte array: %w", err)
		}
		return types.StringValue(string(b)), nil
	}
	// Dates and times parse asText().
	s := c.scratchText(data, sp)
	var v types.Value
	var err error
	switch t.Kind {
	case types.Date:
		v.I, err = parseLocalDate(s)
	case types.Time:
		v.I, err = parseSQLTime(s)
		v.I -= v.I % nanosPerSecond // only whole seconds are kept
	case types.Timestamp, types.TimestampLTZ:
		v, err = parseTimestamp(s, t.Precision, c.iso, t.Kind == types.TimestampLTZ)
	default:
		return types.Value{}, fmt.Errorf("unsupported type %s", t)
	}
	if err == nil {
		return v, nil
	}
	if types.IsRangeError(err) { // (errors.As allocates: asked only on errors)
		return types.Value{}, err
	}
	return types.Value{}, fmt.Errorf("cannot parse %q as %s", s, t.Plain().Nullable())
}

// parseJSONInt parses a JSON integer (the scanner checked its syntax:
// an optional minus, then digits without leading zeroes) of the given
// size, in place; false when it is out of range.
func parseJSONInt(raw []byte, bits int) (int64, bool) {
	digits := raw
	neg := raw[0] == '-'
	if neg {
		digits = raw[1:]
	}
	if len(digits) > 19 { // 19 digits always fit in a uint64
		return 0, false
	}
	var u uint64
	for _, d := range digits {
		u = u*10 + uint64(d-'0')
	}
	limit := uint64(1) << (bits - 1)
	if neg {
		if u > limit {
			return 0, false
		}
		return -int64(u), true // -(1<<63) wraps to MinInt64, as wanted
	}
	if u >= limit {
		return 0, false
	}
	return int64(u), true
}

// parseIntText parses asText().trim() as a Java integer of the given size.
func (c *jsonCodec) parseIntText(data []byte, sp jsonSpan, bits int) (types.Value, error) {
	s := javaTrim(c.scratchText(data, sp))
	i, err := parseJavaInt(s, bits)
	if err != nil {
		return types.Value{}, fmt.Errorf("%q: %w", s, errNotANumber)
	}
	return types.IntValue(i), nil
}

// truncToInt converts a JSON number with a fraction or exponent to an
// integer of the given size by truncation, failing when out of range — what
// canConvertToInt/asInt do on a DoubleNode or, when exact is set, on a
// DecimalNode.
func truncToInt(raw string, bits int, exact bool) (types.Value, error) {
	if exact {
		d, err := parseBigDec(raw)
		if err != nil { // an exponent BigDecimal cannot hold
			return types.Value{}, fmt.Errorf("%s: %w", raw, errRange)
		}
		digits := d.digits
		if d.scale > 0 {
			digits = digits[:max(len(digits)-d.scale, 0)]
		} else if digits != "0" && -d.scale <= 20 {
			digits += strings.Repeat("0", -d.scale)
		} else if digits != "0" {
			return types.Value{}, fmt.Errorf("%s: %w", raw, errRange)
		}
		if digits == "" {
			digits = "0"
		}
		if d.neg {
			digits = "-" + digits
		}
		i, err := strconv.ParseInt(digits, 10, bits)
		if err != nil {
			return types.Value{}, fmt.Errorf("%s: %w", raw, errRange)
		}
		return types.IntValue(i), nil
	}
	f, _ := types.ParseFloat(raw, 64)
	lo, hi := float64(math.MinInt32), float64(math.MaxInt32)
	if bits == 64 {
		lo, hi = math.MinInt64, math.MaxInt64 // both exact powers of two as doubles
	}
	if !(f >= lo && f <= hi) {
		return types.Value{}, fmt.Errorf("%s: %w", raw, errRange)
	}
	if f >= hi && bits == 64 {
		return types.IntValue(math.MaxInt64), nil // Java's (long) saturates
	}
	return types.IntValue(int64(f)), nil
}

// decimalFromText is the DECIMAL t that the text s holds, as a value of a
// record: NULL when it does not fit t (DecimalData.fromBigDecimal), an
// errNotANumber error when s is no number.
func decimalFromText(s string, t types.Type) (types.Value, error) {
	v, ok, err := parseDecimalValue(s, t)
	if err != nil {
		return types.Value{}, fmt.Errorf("%q: %w", s, errNotANumber)
	}
	if !ok {
		return types.NullValue, nil
	}
	return v, nil
}
