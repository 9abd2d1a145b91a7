package types

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// VARIANT, Flink's type of semi-structured data (FLIP-521, Flink 2.1+;
// org.apache.flink.types.variant.BinaryVariant): one value of a kind of
// its own, NULL (JSON null), BOOLEAN, TINYINT, SMALLINT, INT, BIGINT,
// FLOAT, DOUBLE, DECIMAL, STRING, or an array or object of variants.
// PARSE_JSON makes one from JSON text with Flink's numeric typing
// (BinaryVariantInternalBuilder): an integer literal that fits a BIGINT is
// the smallest of TINYINT, SMALLINT, INT and BIGINT holding it; any other
// number written without an exponent is a DECIMAL while its precision and
// scale fit 38; the rest are DOUBLEs. An object keeps its fields sorted by
// key (in the UTF-16 order of Java's String.compareTo), each key once.
//
// A VARIANT value is held in the string slot like the composite types,
// encoded as a tag byte followed by the payload:
//
//   - null, false, true: nothing;
//   - TINYINT, SMALLINT, INT, BIGINT: a zig-zag varint;
//   - FLOAT: 4 bytes, DOUBLE: 8 bytes (IEEE, little endian);
//   - DECIMAL: the scale (one byte) and the unscaled value (Int128.Encode);
//   - STRING: the UTF-8 bytes up to the end of the value;
//   - array: the count (uvarint), then every element as its length
//     (uvarint) and encoding;
//   - object: the count (uvarint), then every field as its key's length
//     (uvarint) and bytes and its value's length (uvarint) and encoding,
//     in the order of the keys.
//
// Equal JSON texts give equal bytes, but Flink compares variants by their
// binary form, which this encoding is not: VARIANT values are not compared,
// grouped or sorted here.

// Variant is the VARIANT kind.
const Variant Kind = RowType + 1

// VariantType is VARIANT (nullable). A VARIANT type has no parameters; it
// is a composite type for the code that carries values as their encoding
// (plans, state, exchanges) and for functions that refuse composite
// arguments.
var VariantType = intern(Variant, composite{})

// The tags of the encoding.
const (
	vNull byte = iota
	vFalse
	vTrue
	vInt8
	vInt16
	vInt32
	vInt64
	vFloat
	vDouble
	vDecimal
	vString
	vArray
	vObject
)

// variantKindNames are the names Flink's Variant.Type gives the kinds.
var variantKindNames = [...]string{
	vNull: "NULL", vFalse: "BOOLEAN", vTrue: "BOOLEAN", vInt8: "TINYINT", vInt16: "SMALLINT",
	vInt32: "INT", vInt64: "BIGINT", vFloat: "FLOAT", vDouble: "DOUBLE", vDecimal: "DECIMAL",
	vString: "STRING", vArray: "ARRAY", vObject: "OBJECT",
}

// MaxVariantNesting is how deep arrays and objects may nest in a parsed
// document: Jackson's StreamReadConstraints default, which Flink's parser
// applies.
const MaxVariantNesting = 1000

// ErrVariantDuplicateKey is PARSE_JSON's error for an object with a key
// twice when duplicates are not allowed (Flink's VARIANT_DUPLICATE_KEY).
var ErrVariantDuplicateKey = errors.New("VARIANT_DUPLICATE_KEY")

// ParseVariantJSON parses JSON text into the encoding of a VARIANT, as
// BinaryVariantInternalBuilder.parseJson does: the first JSON value of the
// text (what follows a root object, array or string is not read; a root
// number or literal must be followed by white space or the end). With
// allowDuplicateKeys the last of a key's fields is kept, otherwise a
// duplicate key is ErrVariantDuplicateKey. Syntax errors name their line
// and column.
func ParseVariantJSON(text string, allowDuplicateKeys bool) (string, error) {
	p := &variantParser{s: text, line: 1, lineStart: 0, dups: allowDuplicateKeys}
	p.space()
	if p.pos >= len(p.s) {
		return "", p.fail("Unexpected end of JSON input.")
	}
	b, err := p.value(nil, 0)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

type variantParser struct {
	s         string
	pos       int
	line      int
	lineStart int
	dups      bool
}

// fail is an error at the current position, as Jackson's locations read.
func (p *variantParser) fail(format string, args ...any) error {
	return fmt.Errorf("%s at line %d, column %d", fmt.Sprintf(format, args...), p.line, p.pos-p.lineStart+1)
}

// space skips JSON white space.
func (p *variantParser) space() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case '\n':
			p.line++
			p.lineStart = p.pos + 1
		case ' ', '\t', '\r':
		default:
			return
		}
		p.pos++
	}
}

// unexpected is Jackson's error for a character where none of what is
// expected may stand.
func (p *variantParser) unexpected(expected string) error {
	if p.pos >= len(p.s) {
		return p.fail("Unexpected end-of-input: %s", expected)
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.pos:])
	return p.fail("Unexpected character (%s (code %d)): %s", quoteChar(r), r, expected)
}

func quoteChar(r rune) string {
	if r < 0x20 {
		return fmt.Sprintf("CTRL-CHAR, code %d", r)
	}
	return "'" + string(r) + "'"
}

// value parses the value at p.pos, appending its encoding to b.
func (p *variantParser) value(b []byte, depth int) ([]byte, error) {
	root := depth == 0
	switch c := p.s[p.pos]; {
	case c == '{':
		return p.object(b, depth+1)
	case c == '[':
		return p.array(b, depth+1)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return append(append(b, vString), s...), nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number(b, root)
	default:
		start := p.pos
		for p.pos < len(p.s) && isTokenChar(p.s[p.pos]) {
			p.pos++
		}
		word := p.s[start:p.pos]
		var tag byte
		switch word {
		case "null":
			tag = vNull
		case "true":
			tag = vTrue
		case "false":
			tag = vFalse
		default:
			if word == "" {
				return nil, p.unexpected("expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')")
			}
			p.pos = start
			return nil, p.fail("Unrecognized token '%s': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')", word)
		}
		return append(b, tag), nil
	}
}

func isTokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

func (p *variantParser) nested(depth int) error {
	if depth > MaxVariantNesting {
		return p.fail("Document nesting depth (%d) exceeds the maximum allowed (%d, from `StreamReadConstraints.getMaxNestingDepth()`)", depth, MaxVariantNesting)
	}
	return nil
}

func (p *variantParser) array(b []byte, depth int) ([]byte, error) {
	if err := p.nested(depth); err != nil {
		return nil, err
	}
	p.pos++ // [
	var elems [][]byte
	p.space()
	if p.pos < len(p.s) && p.s[p.pos] == ']' {
		p.pos++
		return append(append(b, vArray), 0), nil
	}
	for {
		p.space()
		if p.pos >= len(p.s) {
			return nil, p.unexpected("expected close marker for ARRAY")
		}
		e, err := p.value(nil, depth)
		if err != nil {
			return nil, err
		}
		elems = append(elems, e)
		p.space()
		if p.pos >= len(p.s) {
			return nil, p.unexpected("expected close marker for ARRAY")
		}
		switch p.s[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return appendVariantArray(b, elems), nil
		default:
			return nil, p.unexpected("was expecting comma to separate Array entries")
		}
	}
}

func appendVariantArray(b []byte, elems [][]byte) []byte {
	b = append(b, vArray)
	b = binary.AppendUvarint(b, uint64(len(elems)))
	for _, e := range elems {
		b = binary.AppendUvarint(b, uint64(len(e)))
		b = append(b, e...)
	}
	return b
}

// variantField is one field of an object being built.
type variantField struct {
	key   string
	value []byte
}

func (p *variantParser) object(b []byte, depth int) ([]byte, error) {
	if err := p.nested(depth); err != nil {
		return nil, err
	}
	p.pos++ // {
	var fields []variantField
	p.space()
	if p.pos < len(p.s) && p.s[p.pos] == '}' {
		p.pos++
		return append(append(b, vObject), 0), nil
	}
	for {
		p.space()
		if p.pos >= len(p.s) || p.s[p.pos] != '"' {
			return nil, p.unexpected("was expecting double-quote to start field name")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			return nil, p.unexpected("was expecting a colon to separate field name and value")
		}
		p.pos++
		p.space()
		if p.pos >= len(p.s) {
			return nil, p.unexpected("expected a value")
		}
		v, err := p.value(nil, depth)
		if err != nil {
			return nil, err
		}
		fields = append(fields, variantField{key, v})
		p.space()
		if p.pos >= len(p.s) {
			return nil, p.unexpected("expected close marker for OBJECT")
		}
		switch p.s[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			fields, err = sortVariantFields(fields, p.dups)
			if err != nil {
				return nil, err
			}
			return appendVariantObject(b, fields), nil
		default:
			return nil, p.unexpected("was expecting comma to separate Object entries")
		}
	}
}

// sortVariantFields orders fields by key as Java's String.compareTo does
// (UTF-16 code units), keeping the last of equal keys when dups are
// allowed (BinaryVariantInternalBuilder.finishWritingObject).
func sortVariantFields(fields []variantField, dups bool) ([]variantField, error) {
	slices.SortStableFunc(fields, func(a, b variantField) int { return compareUTF16(a.key, b.key) })
	out := fields[:0]
	for i, f := range fields {
		if i > 0 && f.key == fields[i-1].key {
			if !dups {
				return nil, ErrVariantDuplicateKey
			}
			out[len(out)-1] = f
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

// compareUTF16 compares a and b by their UTF-16 code units.
func compareUTF16(a, b string) int {
	if a == b {
		return 0
	}
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

func appendVariantObject(b []byte, fields []variantField) []byte {
	b = append(b, vObject)
	b = binary.AppendUvarint(b, uint64(len(fields)))
	for _, f := range fields {
		b = binary.AppendUvarint(b, uint64(len(f.key)))
		b = append(b, f.key...)
		b = binary.AppendUvarint(b, uint64(len(f.value)))
		b = append(b, f.value...)
	}
	return b
}

// str parses a JSON string at p.pos (on its opening quote).
func (p *variantParser) str() (string, error) {
	p.pos++
	var sb []byte
	start := p.pos
	for {
		if p.pos >= len(p.s) {
			return "", p.fail("Unexpected end-of-input: was expecting closing quote for a string value")
		}
		c := p.s[p.pos]
		switch {
		case c == '"':
			s := p.s[start:p.pos]
			if sb != nil {
				s = string(append(sb, s...))
			}
			p.pos++
			return s, nil
		case c < 0x20:
			return "", p.fail("Illegal unquoted character ((CTRL-CHAR, code %d)): has to be escaped using backslash to be included in string value", c)
		case c == '\\':
			sb = append(sb, p.s[start:p.pos]...)
			r, err := p.escape()
			if err != nil {
				return "", err
			}
			sb = utf8.AppendRune(sb, r)
			start = p.pos
		default:
			p.pos++
		}
	}
}

// escape reads the escape sequence at p.pos (on its backslash); a
// surrogate pair written as two \u escapes is one character. A surrogate
// escaped without its other half is an error: Jackson keeps it in the Java
// string, which Flink's UTF-8 encoding then writes as '?', so Sluice
// refuses the text rather than change a character.
func (p *variantParser) escape() (rune, error) {
	at := p.pos
	p.pos++
	if p.pos >= len(p.s) {
		return 0, p.fail("Unexpected end-of-input in character escape sequence")
	}
	c := p.s[p.pos]
	p.pos++
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		r, err := p.hex4()
		if err != nil {
			return 0, err
		}
		if utf16.IsSurrogate(r) && r < 0xDC00 && strings.HasPrefix(p.s[p.pos:], `\u`) {
			save := p.pos
			p.pos += 2
			lo, err := p.hex4()
			if err != nil {
				return 0, err
			}
			if d := utf16.DecodeRune(r, lo); d != utf8.RuneError {
				return d, nil
			}
			p.pos = save
		}
		if utf16.IsSurrogate(r) {
			p.pos = at
			return 0, p.fail("%s escapes a lone UTF-16 surrogate, which encodes no character", p.s[at:at+6])
		}
		return r, nil
	}
	p.pos--
	return 0, p.fail("Unrecognized character escape %s (code %d)", quoteChar(rune(c)), c)
}

func (p *variantParser) hex4() (rune, error) {
	var r rune
	for range 4 {
		if p.pos >= len(p.s) {
			return 0, p.fail("Unexpected end-of-input in character escape sequence")
		}
		c := p.s[p.pos]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, p.fail("Unexpected character (%s (code %d)): expected a hex-digit for character escape sequence", quoteChar(rune(c)), c)
		}
		r = r<<4 | rune(d)
		p.pos++
	}
	return r, nil
}

// number parses a JSON number and appends it with Flink's typing
// (BinaryVariantInternalBuilder.appendNumber).
func (p *variantParser) number(b []byte, root bool) ([]byte, error) {
	start := p.pos
	i := p.pos
	digits := func() int {
		n := 0
		for i < len(p.s) && p.s[i] >= '0' && p.s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if p.s[i] == '-' {
		i++
	}
	intStart := i
	if n := digits(); n == 0 {
		p.pos = i
		return nil, p.unexpected("expected digit (0-9) to follow minus sign, for valid numeric value")
	} else if n > 1 && p.s[intStart] == '0' {
		p.pos = intStart
		return nil, p.fail("Invalid numeric value: Leading zeroes not allowed")
	}
	integer := true
	if i < len(p.s) && p.s[i] == '.' {
		integer = false
		i++
		if digits() == 0 {
			p.pos = i
			return nil, p.unexpected("Decimal point not followed by a digit")
		}
	}
	if i < len(p.s) && (p.s[i] == 'e' || p.s[i] == 'E') {
		integer = false
		i++
		if i < len(p.s) && (p.s[i] == '+' || p.s[i] == '-') {
			i++
		}
		if digits() == 0 {
			p.pos = i
			return nil, p.unexpected("Exponent indicator not followed by a digit")
		}
	}
	p.pos = i
	text := p.s[start:i]
	if root && i < len(p.s) {
		switch p.s[i] {
		case ' ', '\t', '\r', '\n':
		default:
			return nil, p.unexpected("Expected space separating root-level values")
		}
	}
	if integer {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return appendVariantInt(b, n), nil
		}
	}
	if !strings.ContainsAny(text, "eE") {
		if enc, ok := variantDecimal(text); ok {
			return append(b, enc...), nil
		}
	}
	f, err := ParseFloat(text, 64)
	if err != nil && (math.IsInf(f, 0) || math.IsNaN(f)) {
		p.pos = start
		return nil, p.fail("Numeric value '%s' is out of the range of double precision and cannot be stored as a Variant.", text)
	}
	return appendVariantFloat(b, vDouble, f), nil
}

// appendVariantInt appends n as the smallest integer kind holding it.
func appendVariantInt(b []byte, n int64) []byte {
	tag := vInt64
	switch {
	case n == int64(int8(n)):
		tag = vInt8
	case n == int64(int16(n)):
		tag = vInt16
	case n == int64(int32(n)):
		tag = vInt32
	}
	return binary.AppendVarint(append(b, tag), n)
}

func appendVariantFloat(b []byte, tag byte, f float64) []byte {
	b = append(b, tag)
	if tag == vFloat {
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(f)))
	}
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
}

// variantDecimal encodes a number without exponent as a DECIMAL when its
// precision and scale are at most 38, as Java's BigDecimal counts them.
func variantDecimal(text string) (string, bool) {
	neg := strings.HasPrefix(text, "-")
	intPart, frac, _ := strings.Cut(strings.TrimPrefix(text, "-"), ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	if len(frac) > MaxDecimalPrecision || len(digits) > MaxDecimalPrecision {
		return "", false
	}
	u := Int128{}
	if digits != "" {
		u = DecimalDigits(digits)
	}
	if neg {
		u = u.Neg()
	}
	return string([]byte{vDecimal, byte(len(frac))}) + u.Encode(), true
}

// variantValue is a decoded VARIANT: its tag and the rest of its bytes.
type variantValue struct {
	tag  byte
	body string
}

func decodeVariant(s string) (variantValue, error) {
	if s == "" || s[0] > vObject {
		return variantValue{}, ErrCorrupt
	}
	return variantValue{s[0], s[1:]}, nil
}

// kindName is the name Flink gives the variant's kind.
func (v variantValue) kindName() string { return variantKindNames[v.tag] }

// items reads the elements of an array, or the keys and values of an
// object (keys nil for an array).
func (v variantValue) items() (keys, vals []string, err error) {
	d := &decoder{s: v.body}
	n := d.count()
	for range n {
		if v.tag == vObject {
			k := d.uvarint()
			if d.err != nil || k > uint64(len(d.s)-d.pos) {
				return nil, nil, ErrCorrupt
			}
			keys = append(keys, d.s[d.pos:d.pos+int(k)])
			d.pos += int(k)
		}
		l := d.uvarint()
		if d.err != nil || l > uint64(len(d.s)-d.pos) {
			return nil, nil, ErrCorrupt
		}
		vals = append(vals, d.s[d.pos:d.pos+int(l)])
		d.pos += int(l)
	}
	return keys, vals, d.done()
}

// scalar returns the value of a scalar variant with its Sluice type.
func (v variantValue) scalar() (Value, Type, error) {
	switch v.tag {
	case vFalse, vTrue:
		return BoolValue(v.tag == vTrue), BooleanType, nil
	case vInt8, vInt16, vInt32, vInt64:
		n, k := binary.Varint([]byte(v.body))
		if k <= 0 || k != len(v.body) {
			return NullValue, Type{}, ErrCorrupt
		}
		kind := map[byte]Kind{vInt8: TinyInt, vInt16: SmallInt, vInt32: Int, vInt64: BigInt}[v.tag]
		return IntValue(n), Type{Kind: kind}, nil
	case vFloat:
		if len(v.body) != 4 {
			return NullValue, Type{}, ErrCorrupt
		}
		return FloatValue(float64(math.Float32frombits(binary.LittleEndian.Uint32([]byte(v.body))))), Type{Kind: Float}, nil
	case vDouble:
		if len(v.body) != 8 {
			return NullValue, Type{}, ErrCorrupt
		}
		return FloatValue(math.Float64frombits(binary.LittleEndian.Uint64([]byte(v.body)))), DoubleType, nil
	case vDecimal:
		if len(v.body) < 1 {
			return NullValue, Type{}, ErrCorrupt
		}
		u, ok := DecodeInt128(v.body[1:])
		if !ok || int(v.body[0]) > MaxDecimalPrecision {
			return NullValue, Type{}, ErrCorrupt
		}
		t := DecimalType(MaxDecimalPrecision, int(v.body[0]))
		return DecimalOf(t, u), t, nil
	case vString:
		return StringValue(v.body), StringType, nil
	}
	return NullValue, Type{}, fmt.Errorf("Expecting a primitive variant but got %s", v.kindName())
}

// VariantJSON renders a VARIANT as Flink prints it (BinaryVariant.toJson):
// compact JSON, object fields in key order, strings escaped as Jackson
// writes them, integers and decimals in plain digits (a decimal with all
// its scale's digits), FLOAT and DOUBLE as Java's Float.toString and
// Double.toString.
func VariantJSON(s string) (string, error) {
	b, err := appendVariantJSON(nil, s)
	return string(b), err
}

func appendVariantJSON(b []byte, s string) ([]byte, error) {
	v, err := decodeVariant(s)
	if err != nil {
		return b, err
	}
	switch v.tag {
	case vNull:
		return append(b, "null"...), nil
	case vString:
		return AppendJacksonString(b, v.body), nil
	case vArray, vObject:
		keys, vals, err := v.items()
		if err != nil {
			return b, err
		}
		open, end := byte('['), byte(']')
		if v.tag == vObject {
			open, end = '{', '}'
		}
		b = append(b, open)
		for i, e := range vals {
			if i > 0 {
				b = append(b, ',')
			}
			if keys != nil {
				b = AppendJacksonString(b, keys[i])
				b = append(b, ':')
			}
			if b, err = appendVariantJSON(b, e); err != nil {
				return b, err
			}
		}
		return append(b, end), nil
	}
	x, t, err := v.scalar()
	if err != nil {
		return b, err
	}
	if t.Kind == Boolean {
		return strconv.AppendBool(b, x.I != 0), nil
	}
	return appendValue(b, t, x, nil, false), nil
}

// VariantField is v['key']: the value of the object's field, absent when
// v is no object or has no such field.
func VariantField(s, key string) (string, bool, error) {
	v, err := decodeVariant(s)
	if err != nil || v.tag != vObject {
		return "", false, err
	}
	keys, vals, err := v.items()
	if err != nil {
		return "", false, err
	}
	i, found := slices.BinarySearchFunc(keys, key, compareUTF16)
	if !found {
		return "", false, nil
	}
	return vals[i], true, nil
}

// VariantElement is v[index] (1-based, as Flink's item access): the
// element of the array, absent when v is no array or index is out of its
// bounds.
func VariantElement(s string, index int64) (string, bool, error) {
	v, err := decodeVariant(s)
	if err != nil || v.tag != vArray {
		return "", false, err
	}
	_, vals, err := v.items()
	if err != nil || index < 1 || index > int64(len(vals)) {
		return "", false, err
	}
	return vals[index-1], true, nil
}

// variantCastTargets are the kinds a VARIANT casts to (Flink's
// VariantToPrimitiveCastRule and VariantToStringCastRule).
var variantCastTargets = kindSet(Boolean, TinyInt, SmallInt, Int, BigInt, Float, Double, Decimal,
	Char, Varchar, Binary, Varbinary, Date, Timestamp, TimestampLTZ)

// castVariant is CAST(v AS to) of a VARIANT. A variant holding JSON null
// casts to NULL. Numeric targets take any numeric kind and convert it as a
// cast of that kind does; BOOLEAN takes a BOOLEAN only; character strings
// take a scalar, rendered as a cast of its kind renders it (a string
// unquoted), trimmed or padded to the target's length; an array or
// object does not cast to a character string (JSON_STRING gives its
// JSON text). DATE, TIMESTAMP, TIMESTAMP_LTZ and binary strings take only
// variants of those kinds, which JSON text never gives.
func castVariant(s string, to Type, loc *time.Location) (Value, error) {
	v, err := decodeVariant(s)
	if err != nil {
		return NullValue, err
	}
	if v.tag == vNull {
		if to.NotNull {
			return NullValue, fmt.Errorf("Expected type %s but got NULL", variantTargetName(to))
		}
		return NullValue, nil
	}
	if v.tag == vArray || v.tag == vObject {
		if to.IsString() {
			return NullValue, fmt.Errorf("a VARIANT holding an %s does not cast to %s; JSON_STRING gives its JSON text", v.kindName(), typeName(to))
		}
		return NullValue, fmt.Errorf("Expected type %s but got %s", variantTargetName(to), v.kindName())
	}
	x, t, err := v.scalar()
	if err != nil {
		return NullValue, err
	}
	switch {
	case to.IsString():
		return StringValue(fitChars(FormatValue(t, x, loc), to)), nil
	case to.IsNumeric() && t.IsNumeric(), to.Kind == Boolean && t.Kind == Boolean:
		return castValid(x, t, to, loc)
	case to.IsNumeric():
		return NullValue, fmt.Errorf("Expected a numeric type but got %s", v.kindName())
	}
	return NullValue, fmt.Errorf("Expected type %s but got %s", variantTargetName(to), v.kindName())
}

// variantTargetName is the name of the variant kind a cast to t expects.
func variantTargetName(t Type) string {
	switch t.Kind {
	case Binary, Varbinary:
		return "BYTES"
	case TimestampLTZ:
		return "TIMESTAMP_LTZ"
	case Char, Varchar:
		return "STRING"
	}
	return typeName(Type{Kind: t.Kind, Precision: t.Precision, Scale: t.Scale, Length: t.Length})
}

// checkVariant reports whether s is the encoding of a VARIANT.
func checkVariant(s string, depth int) error {
	v, err := decodeVariant(s)
	if err != nil {
		return err
	}
	switch v.tag {
	case vNull, vFalse, vTrue, vString:
		if v.tag != vString && v.body != "" || v.tag == vString && !utf8.ValidString(v.body) {
			return ErrCorrupt
		}
		return nil
	case vArray, vObject:
		if depth > MaxVariantNesting {
			return ErrCorrupt
		}
		_, vals, err := v.items()
		if err != nil {
			return err
		}
		for _, e := range vals {
			if err := checkVariant(e, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	_, _, err = v.scalar()
	return err
}
