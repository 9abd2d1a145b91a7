package format

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"

	"github.com/sluicesql/sluice/internal/types"
)

// The 'json' format, after Flink's JsonFormatFactory, JsonFormatOptions,
// JsonRowDataSerializationSchema / RowDataToJsonConverters (encoding) and
// JsonRowDataDeserializationSchema / JsonToRowDataConverters (decoding).
//
// A row is one JSON object with a member per field, in field order. Flink
// builds a Jackson ObjectNode and writes it with a default ObjectMapper, so
// the text follows Jackson's defaults: no whitespace, control characters
// escaped (\b \t \n \f \r, others \u00XX), non-ASCII written as UTF-8,
// doubles and floats as Double.toString / Float.toString, NaN and infinities
// as quoted strings, decimals as BigDecimal with trailing zeros stripped
// (JsonNodeFactory's normalisation), BINARY as base64 text.

func init() { Register(jsonFactory{}) }

type jsonFactory struct{}

func (jsonFactory) Name() string { return "json" }

func (jsonFactory) Options() []OptionSpec {
	return []OptionSpec{
		{Name: "fail-on-missing-field", Default: "false", Description: "Fail if a field is missing."},
		{Name: "ignore-parse-errors", Default: "false", Description: "Skip rows with syntax errors and set fields with conversion errors to NULL."},
		{Name: "timestamp-format.standard", Default: "SQL", Description: "Timestamp text: SQL (yyyy-MM-dd HH:mm:ss.s{precision}) or ISO-8601 (yyyy-MM-ddTHH:mm:ss.s{precision})."},
		{Name: "map-null-key.mode", Default: "FAIL", Description: "How to encode NULL map keys: FAIL, DROP or LITERAL."},
		{Name: "map-null-key.literal", Default: "null", Description: "The key text for NULL map keys in LITERAL mode."},
		{Name: "encode.decimal-as-plain-number", Default: "false", Description: "Write decimals without scientific notation."},
		{Name: "encode.ignore-null-fields", Default: "false", Description: "Leave out fields whose value is NULL."},
		{Name: "decode.json-parser.enabled", Default: "true", Description: "Decode with a streaming parser (always the case here)."},
	}
}

func (f jsonFactory) New(cfg Config) (Codec, error) {
	o, err := checkOptions(f.Name(), f.Options(), cfg)
	if err != nil {
		return nil, err
	}
	c := &jsonCodec{fields: cfg.Fields, index: make(map[string]int, len(cfg.Fields))}
	for _, b := range []struct {
		name string
		dst  *bool
	}{
		{"fail-on-missing-field", &c.failOnMissing},
		{"ignore-parse-errors", &c.ignoreErrors},
		{"encode.decimal-as-plain-number", &c.plainDecimals},
		{"encode.ignore-null-fields", &c.ignoreNulls},
		{"decode.json-parser.enabled", new(bool)},
	} {
		if *b.dst, err = o.boolean(b.name); err != nil {
			return nil, err
		}
	}
	if c.failOnMissing && c.ignoreErrors {
		return nil, fmt.Errorf("options '%sfail-on-missing-field' and '%signore-parse-errors' shouldn't both be true", o.prefix, o.prefix)
	}
	std, err := o.oneOf("timestamp-format.standard", false, "SQL", "ISO-8601")
	if err != nil {
		return nil, err
	}
	c.iso = std == "ISO-8601"
	if c.mapNullKey, err = o.oneOf("map-null-key.mode", true, "FAIL", "DROP", "LITERAL"); err != nil {
		return nil, err
	}
	c.mapNullLiteral = o.str("map-null-key.literal")
	for i, fd := range cfg.Fields {
		if err := checkMapKeys(fd); err != nil {
			return nil, err
		}
		if fd.Type.Kind == types.Decimal {
			c.bigDecimals = true
		}
		c.index[fd.Name] = i
		name := types.AppendJacksonString(nil, fd.Name)
		c.names = append(c.names, string(append(name, ':')))
	}
	c.spans = make([]jsonSpan, len(cfg.Fields))
	c.vals = make([]types.Value, len(cfg.Fields))
	return c, nil
}

type jsonCodec struct {
	fields        types.Schema
	index         map[string]int
	names         []string // `"name":` per field, escaped
	failOnMissing bool
	ignoreErrors  bool
	plainDecimals bool
	ignoreNulls   bool
	iso           bool
	// mapNullKey is what to do with a NULL map key when encoding (FAIL,
	// DROP or LITERAL, upper case), mapNullLiteral the key text written in
	// LITERAL mode.
	mapNullKey     string
	mapNullLiteral string
	// bigDecimals mirrors Flink enabling USE_BIG_DECIMAL_FOR_FLOATS when the
	// row has a DECIMAL: JSON fractions are then read as BigDecimal, which
	// changes how they read as text.
	bigDecimals bool

	scan  jsonScanner
	spans []jsonSpan
	next  int // the field the next member is expected to name
	// vals are the converted values of a record, arena and refs the text
	// of its string values (see Decode).
	vals  []types.Value
	arena []byte
	refs  []arenaRef
	// elems are the spans of the elements of a top-level array.
	elems []jsonSpan
}

func (c *jsonCodec) Encode(dst []byte, row types.Row) ([]byte, error) {
	dst = append(dst, '{')
	first := true
	for i, f := range c.fields {
		v := row[i]
		if v.Null && c.ignoreNulls {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, c.names[i]...)
		if f.Type.IsComposite() && !v.Null {
			var err error
			if dst, err = c.appendComposite(dst, f.Type, v); err != nil {
				return dst, fmt.Errorf("column '%s': %w", f.Name, err)
			}
			continue
		}
		dst = c.appendValue(dst, f.Type, v)
	}
	return append(dst, '}'), nil
}

func (c *jsonCodec) appendValue(dst []byte, t types.Type, v types.Value) []byte {
	if v.Null || t.Kind == types.Null {
		return append(dst, "null"...)
	}
	switch t.Kind {
	case types.Boolean:
		return strconv.AppendBool(dst, v.I != 0)
	case types.Float, types.Double:
		bits := 64
		if t.Kind == types.Float {
			bits = 32
		}
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) { // QUOTE_NON_NUMERIC_NUMBERS
			dst = append(dst, '"')
			return append(types.AppendJavaFloat(dst, v.F, bits), '"')
		}
		return types.AppendJavaFloat(dst, v.F, bits)
	case types.Decimal:
		return decOf(t, v).stripTrailingZeros().appendTo(dst, c.plainDecimals)
	case types.Char, types.Varchar:
		return types.AppendJacksonString(dst, v.S)
	case types.Binary, types.Varbinary:
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, []byte(v.S))
		return append(dst, '"')
	case types.Date:
		return append(appendDate(append(dst, '"'), v.I), '"')
	case types.Time:
		// RowDataToJsonConverters keeps whole seconds only.
		return append(appendClock(append(dst, '"'), v.I/nanosPerSecond, 0), '"')
	case types.Timestamp, types.TimestampLTZ:
		sep := byte(' ')
		if c.iso {
			sep = 'T'
		}
		dst = appendTimestamp(append(dst, '"'), t.Precision, v, sep)
		if t.Kind == types.TimestampLTZ {
			dst = append(dst, 'Z')
		}
		return append(dst, '"')
	default: // integers and intervals
		return strconv.AppendInt(dst, v.I, 10)
	}
}
