package format

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sluicesql/sluice/internal/types"
)

// The 'raw' format (Flink's RawFormatFactory, RawFormatDeserializationSchema
// and RawFormatSerializationSchema): one column holding the whole key or
// value. Strings are bytes in 'raw.charset', numbers are fixed-width in
// 'raw.endianness', a Kafka null is NULL and NULL encodes as a Kafka null.

func init() { Register(rawFactory{}) }

type rawFactory struct{}

func (rawFactory) Name() string { return "raw" }

func (rawFactory) Options() []OptionSpec {
	return []OptionSpec{
		{Name: "charset", Default: "UTF-8", Description: "The charset to encode and decode character strings."},
		{Name: "endianness", Default: "big-endian", Description: "The endianness of numeric values: big-endian or little-endian."},
	}
}

func (f rawFactory) New(cfg Config) (Codec, error) {
	o, err := checkOptions(f.Name(), f.Options(), cfg)
	if err != nil {
		return nil, err
	}
	if len(cfg.Fields) != 1 {
		cols := make([]string, len(cfg.Fields))
		for i, fd := range cfg.Fields {
			cols[i] = fd.Name + " " + fd.Type.String()
		}
		return nil, fmt.Errorf("the 'raw' format only supports a single physical column, but the schema has %d: [%s]",
			len(cfg.Fields), strings.Join(cols, ", "))
	}
	t := cfg.Fields[0].Type
	switch t.Kind {
	case types.Char, types.Varchar, types.Binary, types.Varbinary, types.Boolean,
		types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Float, types.Double:
	default:
		return nil, fmt.Errorf("the 'raw' format doesn't support '%s' as column type", t)
	}
	end, err := o.oneOf("endianness", true, "big-endian", "little-endian")
	if err != nil {
		return nil, err
	}
	c := &rawCodec{typ: t, order: binary.BigEndian}
	if end == "little-endian" {
		c.order = binary.LittleEndian
	}
	if c.cs, err = lookupCharset(o.str("charset")); err != nil {
		return nil, fmt.Errorf("unsupported '%scharset' name: %s", o.prefix, o.str("charset"))
	}
	return c, nil
}

type rawCodec struct {
	typ   types.Type
	order byteOrder
	cs    charset
}

// byteOrder reads and appends fixed-width integers in one byte order.
type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

// rawWidth returns the byte size of a fixed-width type, 0 for strings.
func rawWidth(k types.Kind) int {
	switch k {
	case types.Boolean, types.TinyInt:
		return 1
	case types.SmallInt:
		return 2
	case types.Int, types.Float:
		return 4
	case types.BigInt, types.Double:
		return 8
	}
	return 0
}

func (c *rawCodec) Decode(data []byte, cols []*types.Vector) error {
	col := cols[0]
	if data == nil {
		if col != nil {
			col.AppendNull()
		}
		return nil
	}
	if w := rawWidth(c.typ.Kind); w != 0 && len(data) != w {
		return fmt.Errorf("raw format: %s needs %d bytes, got %d", c.typ.Plain().Nullable(), w, len(data))
	}
	if col == nil {
		return nil // projected away
	}
	switch c.typ.Kind {
	case types.Char, types.Varchar:
		col.AppendString(c.cs.decode(data))
	case types.Binary, types.Varbinary:
		col.AppendString(string(data))
	case types.Boolean:
		col.Append(types.BoolValue(data[0] != 0))
	case types.TinyInt:
		col.AppendInt(int64(int8(data[0])))
	case types.SmallInt:
		col.AppendInt(int64(int16(c.order.Uint16(data))))
	case types.Int:
		col.AppendInt(int64(int32(c.order.Uint32(data))))
	case types.BigInt:
		col.AppendInt(int64(c.order.Uint64(data)))
	case types.Float:
		col.AppendFloat(float64(math.Float32frombits(c.order.Uint32(data))))
	case types.Double:
		col.AppendFloat(math.Float64frombits(c.order.Uint64(data)))
	}
	return nil
}

func (c *rawCodec) Encode(dst []byte, row types.Row) ([]byte, error) {
	v := row[0]
	if v.Null {
		return nil, nil
	}
	if dst == nil {
		dst = []byte{} // an empty string or byte string is not a Kafka null
	}
	switch c.typ.Kind {
	case types.Char, types.Varchar:
		return c.cs.encode(dst, v.S), nil
	case types.Binary, types.Varbinary:
		return append(dst, v.S...), nil
	case types.Boolean, types.TinyInt:
		b := byte(v.I)
		if c.typ.Kind == types.Boolean && v.I != 0 {
			b = 1
		}
		return append(dst, b), nil
	case types.SmallInt:
		return c.order.AppendUint16(dst, uint16(v.I)), nil
	case types.Int:
		return c.order.AppendUint32(dst, uint32(v.I)), nil
	case types.BigInt:
		return c.order.AppendUint64(dst, uint64(v.I)), nil
	case types.Float:
		return c.order.AppendUint32(dst, math.Float32bits(float32(v.F))), nil
	default: // Double
		return c.order.AppendUint64(dst, math.Float64bits(v.F)), nil
	}
}

// charset converts between Go strings (UTF-8) and bytes in a Java charset.
type charset interface {
	decode(b []byte) string
	encode(dst []byte, s string) []byte
}

// lookupCharset resolves a Java charset name (case-insensitive, common
// aliases). It supports the charsets every Java runtime must provide.
func lookupCharset(name string) (charset, error) {
	switch strings.ToUpper(strings.NewReplacer("_", "-").Replace(name)) {
	case "UTF-8", "UTF8":
		return utf8Charset{}, nil
	case "US-ASCII", "ASCII", "ISO646-US":
		return singleByteCharset(0x7f), nil
	case "ISO-8859-1", "ISO8859-1", "LATIN1", "ISO-LATIN-1", "L1", "CP819":
		return singleByteCharset(0xff), nil
	case "UTF-16BE", "UNICODEBIGUNMARKED", "X-UTF-16BE":
		return utf16Charset{order: binary.BigEndian}, nil
	case "UTF-16LE", "UNICODELITTLEUNMARKED", "X-UTF-16LE":
		return utf16Charset{order: binary.LittleEndian}, nil
	case "UTF-16", "UTF16", "UNICODE":
		return utf16Charset{order: binary.BigEndian, bom: true}, nil
	}
	return nil, fmt.Errorf("unsupported charset %q", name)
}

// utf8Charset keeps bytes as they are, as Flink's StringData.fromBytes does.
type utf8Charset struct{}

func (utf8Charset) decode(b []byte) string             { return string(b) }
func (utf8Charset) encode(dst []byte, s string) []byte { return append(dst, s...) }

// singleByteCharset maps bytes up to its value to the same code point;
// other bytes decode to U+FFFD and unmappable characters encode as '?'.
type singleByteCharset rune

func (m singleByteCharset) decode(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		if rune(c) > rune(m) {
			sb.WriteRune(utf8.RuneError)
		} else {
			sb.WriteRune(rune(c))
		}
	}
	return sb.String()
}

func (m singleByteCharset) encode(dst []byte, s string) []byte {
	for _, r := range s {
		if r > rune(m) {
			r = '?'
		}
		dst = append(dst, byte(r))
	}
	return dst
}

// utf16Charset is UTF-16 in one byte order. With bom it is Java's "UTF-16":
// decoding honours a byte-order mark (big-endian without one) and encoding
// writes a big-endian mark.
type utf16Charset struct {
	order byteOrder
	bom   bool
}

func (u utf16Charset) decode(b []byte) string {
	var order binary.ByteOrder = u.order
	if u.bom && len(b) >= 2 {
		switch {
		case b[0] == 0xfe && b[1] == 0xff:
			b = b[2:]
		case b[0] == 0xff && b[1] == 0xfe:
			order, b = binary.LittleEndian, b[2:]
		}
	}
	units := make([]uint16, 0, len(b)/2)
	for ; len(b) >= 2; b = b[2:] {
		units = append(units, order.Uint16(b))
	}
	s := string(utf16.Decode(units))
	if len(b) == 1 {
		s += string(utf8.RuneError)
	}
	return s
}

func (u utf16Charset) encode(dst []byte, s string) []byte {
	if u.bom {
		dst = append(dst, 0xfe, 0xff)
	}
	for _, unit := range utf16.Encode([]rune(s)) {
		dst = u.order.AppendUint16(dst, unit)
	}
	return dst
}
