package format

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sluicesql/sluice/internal/types"
)

// The 'csv' format, after Flink's CsvFormatFactory, CsvCommons (option
// validation), CsvRowSchemaConverter (the types it takes),
// CsvRowDataDeserializationSchema / CsvToRowDataConverters (decoding) and
// CsvRowDataSerializationSchema / RowDataToCsvConverters (encoding).
//
// Flink reads and writes a message with Jackson's CSV module, so the text
// follows its rules (CsvDecoder, CsvParser, CsvEncoder, CsvGenerator):
//
//   - A message holds one record; reading stops at its end of line and
//     ignores what follows. Values are split at the field delimiter; a value
//     that starts with the quote character runs to the closing quote (a
//     doubled quote is one quote, line breaks are kept) and may be followed
//     by blanks only; the escape character, when set, takes the next
//     character as it is ('0', 'n', 'r' and 't' stand for NUL, LF, CR and
//     TAB), in and out of quotes. With 'allow-comments', lines starting with
//     '#' before the record are skipped. A message with no record is an
//     error.
//   - A value equal to 'null-literal' is NULL. A record with fewer values
//     than columns is an error ("Row length mismatch"), or with
//     'ignore-parse-errors' has NULL in the missing ones; one with more is an
//     error (a single blank value after the last column is allowed).
//   - ARRAY and ROW columns hold their elements joined by
//     'array-element-delimiter' (a blank value is an empty array, and a ROW
//     NULL); their elements are of the simple types.
//   - Written, numbers and booleans are written bare; any other value
//     (text, DECIMAL, BINARY as base64, dates and times, arrays) is quoted
//     when Jackson's loose check asks for it: longer than 24 characters, or
//     holding a character below every special one (the delimiter and the
//     quote) or the escape character. Inside quotes, quotes and escape
//     characters are doubled. NULL is written as 'null-literal', or
//     nothing. The message has no line break.

func init() { Register(csvFactory{}) }

type csvFactory struct{}

func (csvFactory) Name() string { return "csv" }

func (csvFactory) Options() []OptionSpec {
	return []OptionSpec{
		{Name: "field-delimiter", Default: ",", Description: "The field delimiter, one character; Java escapes such as '\\t' are understood."},
		{Name: "disable-quote-character", Default: "false", Description: "Disable the quote character for enclosing values."},
		{Name: "quote-character", Default: "\"", Description: "The quote character for enclosing values."},
		{Name: "allow-comments", Default: "false", Description: "Skip comment lines (starting with '#') before a record."},
		{Name: "ignore-parse-errors", Default: "false", Description: "Skip records that cannot be parsed, and set fields with conversion errors to NULL."},
		{Name: "array-element-delimiter", Default: ";", Description: "The delimiter of ARRAY elements and ROW fields."},
		{Name: "escape-character", Description: "The escape character (none by default)."},
		{Name: "null-literal", Description: "The text read and written as NULL (none by default)."},
		{Name: "write-bigdecimal-in-scientific-notation", Default: "true", Description: "Write DECIMAL values in scientific notation where BigDecimal.toString uses it."},
	}
}

func (f csvFactory) New(cfg Config) (Codec, error) {
	o, err := checkOptions(f.Name(), f.Options(), cfg)
	if err != nil {
		return nil, err
	}
	c := &csvCodec{fields: cfg.Fields, quote: '"', esc: -1}
	noQuote, err := o.boolean("disable-quote-character")
	if err != nil {
		return nil, err
	}
	_, hasQuote := o.lookup("quote-character")
	if noQuote && hasQuote {
		return nil, errors.New("Format cannot define a quote character and disabled quote character at the same time.")
	}
	char := func(name string, unescape bool) (rune, bool, error) {
		v, ok := o.lookup(name)
		if !ok {
			return 0, false, nil
		}
		s := v
		if unescape {
			if s, err = unescapeJava(v); err != nil {
				return 0, false, fmt.Errorf("option '%s%s': %w", o.prefix, name, err)
			}
		}
		r, n := utf8.DecodeRuneInString(s)
		if s == "" || n != len(s) || r >= 0x10000 || r == utf8.RuneError && n <= 1 {
			return 0, false, fmt.Errorf("Option '%s%s' must be a string with single character, but was: %s", o.prefix, name, v)
		}
		return r, true, nil
	}
	c.sep = ','
	if r, ok, err := char("field-delimiter", true); err != nil {
		return nil, err
	} else if ok {
		c.sep = r
	}
	c.arraySep = ";"
	if r, ok, err := char("array-element-delimiter", false); err != nil {
		return nil, err
	} else if ok {
		c.arraySep = string(r)
	}
	if r, ok, err := char("quote-character", false); err != nil {
		return nil, err
	} else if ok {
		c.quote = r
	}
	if noQuote {
		c.quote = -1
	}
	if r, ok, err := char("escape-character", false); err != nil {
		return nil, err
	} else if ok {
		c.esc = r
	}
	c.nullLit, c.hasNull = o.lookup("null-literal")
	if c.allowComments, err = o.boolean("allow-comments"); err != nil {
		return nil, err
	}
	if c.ignoreErrors, err = o.boolean("ignore-parse-errors"); err != nil {
		return nil, err
	}
	scientific, err := o.boolean("write-bigdecimal-in-scientific-notation")
	if err != nil {
		return nil, err
	}
	c.plainDecimals = !scientific
	for _, fd := range cfg.Fields {
		if err := csvCheckField(fd); err != nil {
			return nil, err
		}
	}
	// CsvEncoder's lowest safe character: one above the delimiter and the
	// quote (Flink writes no line separator).
	c.minSafe = max(c.sep, c.quote) + 1
	c.sepB = []byte(string(c.sep))
	if c.quote >= 0 {
		c.quoteB = []byte(string(c.quote))
	}
	if c.esc >= 0 {
		c.escB = []byte(string(c.esc))
	}
	for _, b := range [][]byte{c.sepB, c.quoteB, c.escB, {'\r'}, {'\n'}} {
		if len(b) > 0 {
			c.special[b[0]] = true
		}
	}
	for _, b := range [][]byte{c.quoteB, c.escB} {
		if len(b) > 0 {
			c.inQuotes[b[0]] = true
		}
	}
	c.cells = make([]csvCell, 0, len(cfg.Fields)+1)
	c.vals = make([]types.Value, len(cfg.Fields))
	return c, nil
}

// csvSimple reports whether t is one of the types CsvRowSchemaConverter
// maps to a string, number or boolean column.
func csvSimple(t types.Type) bool {
	switch t.Kind {
	case types.Char, types.Varchar, types.Binary, types.Varbinary, types.Date, types.Time,
		types.Timestamp, types.TimestampLTZ, types.TinyInt, types.SmallInt, types.Int,
		types.BigInt, types.Float, types.Double, types.Decimal, types.Boolean, types.Null:
		return true
	}
	return false
}

// csvCheckField refuses the types Flink's CSV format refuses: anything but
// the simple types, and ARRAY and ROW of them (CsvRowSchemaConverter), TIME
// wider than milliseconds (CsvToRowDataConverters), and DECIMAL wider than
// Sluice holds.
func csvCheckField(f types.Field) error {
	t := f.Type
	var inner []types.Type
	switch {
	case csvSimple(t):
		inner = []types.Type{t}
	case t.Kind == types.Array:
		inner = []types.Type{t.Elem()}
	case t.Kind == types.RowType:
		for _, rf := range t.Fields() {
			inner = append(inner, rf.Type)
		}
	default:
		return fmt.Errorf("Unsupported type '%s' for field '%s'.", t.Plain().Nullable(), f.Name)
	}
	for _, it := range inner {
		if !csvSimple(it) {
			return fmt.Errorf("Only simple types are supported in the second level nesting of fields '%s' but was: %s", f.Name, it.Plain())
		}
		if it.Kind == types.Time && it.Precision > 3 {
			return fmt.Errorf("column '%s': Csv does not support TIME type with precision: %d, it only supports precision 0 ~ 3.", f.Name, it.Precision)
		}
	}
	return nil
}

// unescapeJava is commons-lang's StringEscapeUtils.unescapeJava, which
// Flink applies to 'field-delimiter': octal escapes, \\uXXXX, \b \t \n \f
// \r, \" \' \\, and a backslash before any other character dropped.
func unescapeJava(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'u':
			for i < len(s) && s[i] == 'u' {
				i++
			}
			if i < len(s) && s[i] == '+' {
				i++
			}
			if i+4 > len(s) || !isHex4([]byte(s[i:i+4])) {
				return "", fmt.Errorf("unable to parse unicode value: %s", s)
			}
			b.WriteRune(rune(hex4([]byte(s[i : i+4]))))
			i += 3
		default:
			if c >= '0' && c <= '7' {
				n, width := 0, 2
				if c <= '3' {
					width = 3
				}
				j := i
				for ; j < len(s) && j < i+width && s[j] >= '0' && s[j] <= '7'; j++ {
					n = n*8 + int(s[j]-'0')
				}
				b.WriteRune(rune(n))
				i = j - 1
				continue
			}
			b.WriteByte(c) // \" \' \\ and any other: the character itself
		}
	}
	return b.String(), nil
}

type csvCodec struct {
	fields types.Schema
	// sep, quote and esc are the delimiter, quote and escape characters
	// (quote and esc -1 when there is none); sepB, quoteB and escB their
	// UTF-8 bytes, special marks their first bytes and line breaks.
	sep, quote, esc    rune
	sepB, quoteB, escB []byte
	special            [256]bool
	inQuotes           [256]bool // first bytes of quote and escape
	arraySep           string
	nullLit            string
	hasNull            bool
	allowComments      bool
	ignoreErrors       bool
	plainDecimals      bool
	minSafe            rune
	scan               csvScan
	cells              []csvCell
	vals               []types.Value
	elems              []types.Value
	tmp                []byte
}

// csvCell is one value of a record: its text is scan.text[start:end].
type csvCell struct {
	start, end int
	null       bool
}

// csvScan walks one message (CsvDecoder's nextString).
type csvScan struct {
	data  []byte
	pos   int
	ended bool   // the record's end of line (or input) was reached
	text  []byte // the values' text, unquoted and unescaped
}

// csvSyntaxError is a message that is not CSV the reader accepts.
type csvSyntaxError struct{ msg string }

func (e *csvSyntaxError) Error() string { return "invalid CSV: " + e.msg }

func (c *csvCodec) at(s *csvScan, b []byte) bool {
	return len(b) > 0 && len(s.data)-s.pos >= len(b) && string(s.data[s.pos:s.pos+len(b)]) == string(b)
}

// unescape appends the character after an escape character.
func (c *csvCodec) unescape(s *csvScan) error {
	if s.pos >= len(s.data) {
		return &csvSyntaxError{"unexpected end of input in escaped character"}
	}
	switch ch := s.data[s.pos]; ch {
	case '0':
		s.text = append(s.text, 0)
	case 'n':
		s.text = append(s.text, '\n')
	case 'r':
		s.text = append(s.text, '\r')
	case 't':
		s.text = append(s.text, '\t')
	default:
		_, n := utf8.DecodeRune(s.data[s.pos:])
		s.text = append(s.text, s.data[s.pos:s.pos+n]...)
		s.pos += n
		return nil
	}
	s.pos++
	return nil
}

// next reads the record's next value into s.text; false at the end of the
// record.
func (c *csvCodec) next(s *csvScan) (bool, error) {
	if s.ended {
		return false, nil
	}
	if s.pos >= len(s.data) {
		s.ended = true // end of input: an empty value, then the end
		return true, nil
	}
	switch ch := s.data[s.pos]; {
	case ch == '\r' || ch == '\n':
		s.pos++
		s.ended = true
		return true, nil
	case c.at(s, c.quoteB):
		s.pos += len(c.quoteB)
		return true, c.quoted(s)
	case c.at(s, c.sepB):
		s.pos += len(c.sepB)
		return true, nil
	case c.at(s, c.escB):
		s.pos += len(c.escB)
		if err := c.unescape(s); err != nil {
			return false, err
		}
	}
	for s.pos < len(s.data) {
		start := s.pos
		for s.pos < len(s.data) && !c.special[s.data[s.pos]] {
			s.pos++
		}
		s.text = append(s.text, s.data[start:s.pos]...)
		if s.pos >= len(s.data) {
			break
		}
		switch ch := s.data[s.pos]; {
		case c.at(s, c.sepB):
			s.pos += len(c.sepB)
			return true, nil
		case ch == '\r' || ch == '\n':
			s.pos++
			s.ended = true
			return true, nil
		case c.at(s, c.escB):
			s.pos += len(c.escB)
			if err := c.unescape(s); err != nil {
				return false, err
			}
		default:
			s.text = append(s.text, ch)
			s.pos++
		}
	}
	s.ended = true
	return true, nil
}

// quoted reads a quoted value after its opening quote, and what follows
// it up to the delimiter or the end of line.
func (c *csvCodec) quoted(s *csvScan) error {
	for {
		if s.pos >= len(s.data) {
			return &csvSyntaxError{"missing closing quote for value"}
		}
		switch {
		case c.at(s, c.quoteB):
			s.pos += len(c.quoteB)
			if c.at(s, c.quoteB) { // a doubled quote
				s.text = append(s.text, c.quoteB...)
				s.pos += len(c.quoteB)
				continue
			}
			return c.afterQuote(s)
		case c.at(s, c.escB):
			s.pos += len(c.escB)
			if err := c.unescape(s); err != nil {
				return err
			}
		default:
			start := s.pos
			for s.pos++; s.pos < len(s.data) && !c.inQuotes[s.data[s.pos]]; s.pos++ {
			}
			s.text = append(s.text, s.data[start:s.pos]...)
		}
	}
}

// afterQuote skips blanks after a closing quote up to the delimiter or the
// end of line; anything else is an error.
func (c *csvCodec) afterQuote(s *csvScan) error {
	for s.pos < len(s.data) {
		if c.at(s, c.sepB) {
			s.pos += len(c.sepB)
			return nil
		}
		ch := s.data[s.pos]
		if ch > ' ' {
			r, _ := utf8.DecodeRune(s.data[s.pos:])
			return &csvSyntaxError{fmt.Sprintf("unexpected character %q after the closing quote: expected the field delimiter or the end of line", r)}
		}
		s.pos++
		if ch == '\r' || ch == '\n' {
			s.ended = true
			return nil
		}
	}
	s.ended = true
	return nil
}

// errNoContent is Jackson's error for a message without a record.
var errNoContent = &csvSyntaxError{"no content (an empty message, or only comment lines)"}

// parse reads the message's first record into c.cells, one per value
// (NULL where the value is the null literal; every value for a column of
// ARRAY or ROW type).
func (c *csvCodec) parse(data []byte) error {
	s := &c.scan
	s.data, s.pos, s.ended, s.text = data, 0, false, s.text[:0]
	c.cells = c.cells[:0]
	if !utf8.Valid(data) {
		return &csvSyntaxError{"invalid UTF-8"}
	}
	if len(data) >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf {
		s.pos = 3 // a byte order mark
	}
	if c.allowComments {
		for s.pos < len(data) && data[s.pos] == '#' {
			for s.pos < len(data) && data[s.pos] != '\r' && data[s.pos] != '\n' {
				s.pos++
			}
			if s.pos < len(data) {
				if data[s.pos] == '\r' && s.pos+1 < len(data) && data[s.pos+1] == '\n' {
					s.pos++
				}
				s.pos++
			}
		}
	}
	if s.pos >= len(data) {
		return errNoContent
	}
	for {
		start := len(s.text)
		ok, err := c.next(s)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		v := string(s.text[start:])
		if len(c.cells) == len(c.fields) {
			// One blank value after the last column is a trailing
			// delimiter (ALLOW_TRAILING_COMMA) if the record ends there.
			if javaTrim(v) == "" {
				more, err := c.next(s)
				if err != nil {
					return err
				}
				if !more {
					break
				}
			}
			return &csvSyntaxError{fmt.Sprintf("too many entries: expected at most %d (value #%d (%d chars) %q)",
				len(c.fields), len(c.fields), utf16Len(v), v)}
		}
		null := c.hasNull && v == c.nullLit && !c.fields[len(c.cells)].Type.IsComposite()
		c.cells = append(c.cells, csvCell{start: start, end: len(s.text), null: null})
	}
	return nil
}

// utf16Len is the length of s in UTF-16 code units (Java's String.length).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

func (c *csvCodec) Decode(data []byte, cols []*types.Vector) error {
	if data == nil {
		return ErrNoRow
	}
	err := c.decode(data, cols)
	c.scan.data = nil
	if err != nil {
		if c.ignoreErrors && !types.IsRangeError(err) {
			return ErrNoRow
		}
		return err
	}
	for i, col := range cols {
		if col != nil {
			col.Append(c.vals[i])
		}
	}
	return nil
}

// decode parses data and converts the values of the columns read (a nil
// vector is a column projected away) into c.vals.
func (c *csvCodec) decode(data []byte, cols []*types.Vector) error {
	if err := c.parse(data); err != nil {
		return err
	}
	if len(c.cells) < len(c.fields) && !c.ignoreErrors {
		return fmt.Errorf("invalid CSV row: %d fields expected but was %d", len(c.fields), len(c.cells))
	}
	// The text of the record's character values is made one string.
	var all string
	for i, f := range c.fields {
		if cols[i] != nil && i < len(c.cells) && !c.cells[i].null && f.Type.IsString() {
			all = string(c.scan.text)
			break
		}
	}
	for i, f := range c.fields {
		if cols[i] == nil {
			continue
		}
		if i >= len(c.cells) || c.cells[i].null {
			c.vals[i] = types.NullValue
			continue
		}
		cell := c.cells[i]
		var v types.Value
		var err error
		switch {
		case f.Type.IsString():
			v = types.StringValue(all[cell.start:cell.end])
		case f.Type.Kind == types.Array || f.Type.Kind == types.RowType:
			v, err = c.convertComposite(f.Type, scratch(c.scan.text[cell.start:cell.end]))
		default:
			v, err = c.convert(f.Type, scratch(c.scan.text[cell.start:cell.end]))
		}
		if err != nil {
			if !c.ignoreErrors || types.IsRangeError(err) {
				return fmt.Errorf("field '%s' (%s): %w", f.Name, f.Type, err)
			}
			v = types.NullValue
		}
		c.vals[i] = v
	}
	return nil
}

// splitElements splits the text of an ARRAY or ROW value at the element
// delimiter (CsvParser._handleArrayValue): a blank text has no element,
// and an element equal to the null literal is NULL.
func (c *csvCodec) splitElements(s string, yield func(el string, null bool) error) error {
	if !strings.Contains(s, c.arraySep) && javaTrim(s) == "" {
		return nil
	}
	for {
		el, rest, found := strings.Cut(s, c.arraySep)
		if err := yield(el, c.hasNull && el == c.nullLit); err != nil {
			return err
		}
		if !found {
			return nil
		}
		s = rest
	}
}

// convertComposite converts an ARRAY or ROW value's text. Its element
// strings may be scratch: the encoding copies them.
func (c *csvCodec) convertComposite(t types.Type, s string) (types.Value, error) {
	c.elems = c.elems[:0]
	elemType := func(i int) types.Type {
		if t.Kind == types.Array {
			return t.Elem()
		}
		if fs := t.Fields(); i < len(fs) {
			return fs[i].Type
		}
		return types.Type{Kind: types.Null}
	}
	err := c.splitElements(s, func(el string, null bool) error {
		et := elemType(len(c.elems))
		if null {
			c.elems = append(c.elems, types.NullValue)
			return nil
		}
		v, err := c.convert(et, el)
		if err != nil {
			if !c.ignoreErrors || types.IsRangeError(err) {
				return fmt.Errorf("element %d: %w", len(c.elems)+1, err)
			}
			v = types.NullValue
		}
		c.elems = append(c.elems, v)
		return nil
	})
	if err != nil {
		return types.Value{}, err
	}
	if t.Kind == types.Array {
		return types.EncodeArray(t.Elem(), c.elems), nil
	}
	n := len(t.Fields())
	if len(c.elems) == 0 {
		return types.NullValue, nil // an empty ROW is NULL
	}
	if len(c.elems) != n {
		if !c.ignoreErrors {
			return types.Value{}, fmt.Errorf("row length mismatch: %d fields expected but was %d", n, len(c.elems))
		}
		if len(c.elems) > n {
			c.elems = c.elems[:n]
		}
		for len(c.elems) < n {
			c.elems = append(c.elems, types.NullValue)
		}
	}
	return types.EncodeRow(t, c.elems), nil
}

// convert turns the text of a non-NULL value of a simple type into a
// value, as CsvToRowDataConverters does.
func (c *csvCodec) convert(t types.Type, s string) (types.Value, error) {
	switch t.Kind {
	case types.Null:
		return types.NullValue, nil
	case types.Boolean:
		return types.BoolValue(strings.EqualFold(javaTrim(s), "true")), nil // Boolean.parseBoolean
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		bits := map[types.Kind]int{types.TinyInt: 8, types.SmallInt: 16, types.Int: 32, types.BigInt: 64}[t.Kind]
		i, err := parseJavaInt(javaTrim(s), bits)
		if err != nil {
			return types.Value{}, fmt.Errorf("%q: %w", s, errNotANumber)
		}
		return types.IntValue(i), nil
	case types.Float, types.Double:
		bits := 64
		if t.Kind == types.Float {
			bits = 32
		}
		f, err := parseJavaDouble(javaTrim(s), bits)
		if err != nil {
			return types.Value{}, fmt.Errorf("%q: %w", s, errNotANumber)
		}
		return types.FloatValue(f), nil
	case types.Decimal:
		return decimalFromText(s, t) // new BigDecimal(text): not trimmed
	case types.Char, types.Varchar:
		return types.StringValue(s), nil // an element: the encoding copies it
	case types.Binary, types.Varbinary:
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return types.Value{}, fmt.Errorf("unable to deserialize byte array: %w", err)
		}
		return types.StringValue(string(b)), nil
	case types.Date:
		days, err := parseSQLDate(s)
		if err != nil {
			return types.Value{}, fmt.Errorf("cannot parse %q as DATE", s)
		}
		return types.IntValue(days), nil
	case types.Time:
		tc := textCursor{s: s}
		sod, nanos, ok := tc.clock(true) // LocalTime.parse: ISO_LOCAL_TIME
		if !ok || tc.pos != len(s) || sod >= secondsPerDay {
			return types.Value{}, fmt.Errorf("cannot parse %q as TIME", s)
		}
		// Milliseconds of the day, cut to the precision.
		ms := sod*1000 + nanos/nanosPerMilli
		unit := int64(1)
		for p := t.Precision; p < 3; p++ {
			unit *= 10
		}
		return types.IntValue(ms / unit * unit * nanosPerMilli), nil
	case types.Timestamp, types.TimestampLTZ:
		s = javaTrim(s)
		v, err := parseTimestamp(s, t.Precision, false, t.Kind == types.TimestampLTZ)
		if err != nil {
			if types.IsRangeError(err) {
				return types.Value{}, err
			}
			return types.Value{}, fmt.Errorf("cannot parse %q as %s", s, t.Plain().Nullable())
		}
		return v, nil
	}
	return types.Value{}, fmt.Errorf("unsupported type %s", t)
}

// parseSQLDate is java.sql.Date.valueOf(text).toLocalDate().toEpochDay():
// a four-character year, a month and a day of one or two characters (each
// parsed by Integer.parseInt, so a sign is taken), month 1-12 and day 1-31;
// a day past the month's end rolls into the next month, as the lenient
// Date constructor does (in the proleptic Gregorian calendar here, where
// java.util.Date switches to the Julian one before 1582-10-15).
func parseSQLDate(s string) (int64, error) {
	first := strings.IndexByte(s, '-')
	if first != 4 {
		return 0, errTemporal
	}
	second := strings.IndexByte(s[first+1:], '-')
	if second < 0 {
		return 0, errTemporal
	}
	second += first + 1
	if m := second - first - 1; m < 1 || m > 2 {
		return 0, errTemporal
	}
	if d := len(s) - second - 1; d < 1 || d > 2 {
		return 0, errTemporal
	}
	y, err1 := strconv.ParseInt(s[:first], 10, 32)
	m, err2 := strconv.ParseInt(s[first+1:second], 10, 32)
	d, err3 := strconv.ParseInt(s[second+1:], 10, 32)
	if err1 != nil || err2 != nil || err3 != nil || m < 1 || m > 12 || d < 1 || d > 31 {
		return 0, errTemporal
	}
	return daysFromCivil(y, m, 1) + d - 1, nil
}

func (c *csvCodec) Encode(dst []byte, row types.Row) ([]byte, error) {
	if dst == nil {
		dst = make([]byte, 0, 64) // a row of one empty value is an empty message, not a Kafka null
	}
	for i, f := range c.fields {
		if i > 0 {
			dst = append(dst, c.sepB...)
		}
		v := row[i]
		if v.Null || f.Type.Kind == types.Null {
			dst = append(dst, c.nullLit...)
			continue
		}
		switch f.Type.Kind {
		case types.Boolean, types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Float, types.Double:
			dst = c.appendText(dst, f.Type, v) // written bare
		case types.Array, types.RowType:
			var err error
			c.tmp, err = c.appendElements(c.tmp[:0], f.Type, v)
			if err != nil {
				return dst, fmt.Errorf("column '%s': %w", f.Name, err)
			}
			dst = c.appendValue(dst, string(c.tmp))
		case types.Char, types.Varchar:
			dst = c.appendValue(dst, v.S)
		default:
			c.tmp = c.appendText(c.tmp[:0], f.Type, v)
			dst = c.appendValue(dst, string(c.tmp))
		}
	}
	return dst, nil
}

// appendText appends the text of a non-NULL value of a simple type as
// Jackson writes the node RowDataToCsvConverters makes of it.
func (c *csvCodec) appendText(dst []byte, t types.Type, v types.Value) []byte {
	switch t.Kind {
	case types.Boolean:
		return strconv.AppendBool(dst, v.I != 0)
	case types.Float:
		return types.AppendJavaFloat(dst, v.F, 32)
	case types.Double:
		return types.AppendJavaFloat(dst, v.F, 64)
	case types.Decimal:
		return decOf(t, v).stripTrailingZeros().appendTo(dst, c.plainDecimals)
	case types.Char, types.Varchar:
		if !utf8.ValidString(v.S) {
			return append(dst, types.JavaString([]byte(v.S))...)
		}
		return append(dst, v.S...)
	case types.Binary, types.Varbinary:
		return base64.StdEncoding.AppendEncode(dst, []byte(v.S))
	case types.Date:
		return appendDate(dst, v.I)
	case types.Time:
		// RowDataToCsvConverters writes milliseconds of the day.
		ns := v.I - v.I%nanosPerMilli
		return appendClock(dst, ns/nanosPerSecond, ns%nanosPerSecond)
	case types.Timestamp:
		return appendTimestamp(dst, t.Precision, v, ' ')
	case types.TimestampLTZ:
		return append(appendTimestamp(dst, t.Precision, v, ' '), 'Z')
	}
	return strconv.AppendInt(dst, v.I, 10) // integers
}

// appendElements appends an ARRAY's elements or a ROW's fields joined by
// the element delimiter, as CsvGenerator collects an array column.
func (c *csvCodec) appendElements(dst []byte, t types.Type, v types.Value) ([]byte, error) {
	var vals []types.Value
	var err error
	typ := func(int) types.Type { return t.Elem() }
	if t.Kind == types.Array {
		vals, err = types.DecodeArray(t.Elem(), v.S)
	} else {
		vals, err = types.DecodeRow(t, v.S)
		typ = func(i int) types.Type { return t.Fields()[i].Type }
	}
	if err != nil {
		return dst, err
	}
	for i, x := range vals {
		if i > 0 {
			dst = append(dst, c.arraySep...)
		}
		if x.Null {
			dst = append(dst, c.nullLit...)
			continue
		}
		dst = c.appendText(dst, typ(i), x)
	}
	return dst, nil
}

// appendValue appends a text value, quoted when CsvEncoder's loose check
// asks for it.
func (c *csvCodec) appendValue(dst []byte, s string) []byte {
	if !utf8.ValidString(s) {
		s = types.JavaString([]byte(s))
	}
	if !c.needsQuotes(s) {
		return append(dst, s...)
	}
	dst = append(dst, c.quoteB...)
	for _, r := range s {
		if r == c.quote || r == c.esc {
			dst = utf8.AppendRune(dst, r) // doubled
		}
		dst = utf8.AppendRune(dst, r)
	}
	return append(dst, c.quoteB...)
}

// needsQuotes is CsvEncoder._mayNeedQuotes without strict checking: with
// a quote character, text longer than 24 UTF-16 units, or holding a unit
// below the lowest safe character, or the escape character.
func (c *csvCodec) needsQuotes(s string) bool {
	if c.quote < 0 {
		return false
	}
	n := 0
	for _, r := range s {
		u := r
		if r >= 0x10000 {
			u, _ = utf16.EncodeRune(r)
			n++
		}
		n++
		if u < c.minSafe || r == c.esc {
			return true
		}
	}
	return n > 24
}
