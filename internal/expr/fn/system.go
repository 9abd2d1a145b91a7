package fn

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sluicesql/sluice/internal/types"
)

// TYPEOF, the catalog functions, ENCODE / DECODE and CONVERT_TZ.

func init() {
	register(bindTypeOf, "TYPEOF")
	register(sessionName("CURRENT_DATABASE"), "CURRENT_DATABASE")
	register(sessionName("CURRENT_CATALOG"), "CURRENT_CATALOG")
	register(bindEncode, "ENCODE")
	register(bindDecode, "DECODE")
	register(bindConvertTz, "CONVERT_TZ")
}

// sessionName is CURRENT_CATALOG or CURRENT_DATABASE: the session's
// current catalog or database, which the planner puts in the call's place
// as a constant (bindexpr.go), since functions do not see the session.
// The registry lists them; a call that reaches it is the planner's error.
func sessionName(name string) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if len(args) != 0 {
			return types.Type{}, nil, sigError(name, "()", args)
		}
		return types.Type{}, nil, fmt.Errorf("%s is resolved by the planner from the session", name)
	}
}

// TYPEOF(input[, force_serializable]): "Returns the string representation
// of the input expression's data type. By default, the returned string is a
// summary string that might omit certain details for readability. If
// force_serializable is set to TRUE, the string represents a full data type
// that could be persisted in a catalog." The summary is the type as Flink
// prints it (STRING, TIMESTAMP(3) *ROWTIME*); the serializable form spells
// every type out (VARCHAR(2147483647), TIMESTAMP(3) WITH LOCAL TIME ZONE).
func bindTypeOf(args []Arg) (types.Type, Eval, error) {
	if len(args) == 0 || len(args) > 2 || args[0].Unit != "" || len(args) == 2 && !match(args[1:], boolean) {
		return types.Type{}, nil, sigError("TYPEOF", "(ANY [, BOOLEAN force_serializable])", args)
	}
	serializable := false
	if len(args) == 2 {
		c := args[1].Const
		if c == nil || c.Null {
			return types.Type{}, nil, sigError("TYPEOF", "(ANY [, BOOLEAN force_serializable]) with a constant force_serializable", args)
		}
		serializable = c.Bool()
	}
	t := args[0].Type
	s := t.String()
	if serializable {
		s = serializableType(t)
	}
	// The declared result is a nullable STRING
	// (BuiltInFunctionDefinitions.TYPE_OF: explicit(DataTypes.STRING())).
	return types.StringType, func(*Context, []types.Value) (types.Value, error) {
		return types.StringValue(s), nil
	}, nil
}

// serializableType renders t as LogicalType.asSerializableString does.
func serializableType(t types.Type) string {
	var s string
	switch t.Kind {
	case types.Varchar, types.Varbinary:
		name := "VARCHAR"
		if t.Kind == types.Varbinary {
			name = "VARBINARY"
		}
		s = fmt.Sprintf("%s(%d)", name, t.Length)
	case types.TimestampLTZ:
		s = fmt.Sprintf("TIMESTAMP(%d) WITH LOCAL TIME ZONE", t.Precision)
	default:
		s = t.Plain().WithNotNull(false).String()
	}
	if t.NotNull {
		s += " NOT NULL"
	}
	return s
}

// charsets are the character sets ENCODE and DECODE take: "one of
// 'US-ASCII', 'ISO-8859-1', 'UTF-8', 'UTF-16BE', 'UTF-16LE', 'UTF-16'"
// (names compared ignoring case, as Java's Charset.forName does).
var charsets = map[string]struct {
	encode func(string) []byte
	decode func([]byte) string
}{
	"US-ASCII":   {encodeByteCharset(0x7F), decodeByteCharset(0x7F)},
	"ISO-8859-1": {encodeByteCharset(0xFF), decodeByteCharset(0xFF)},
	"UTF-8":      {func(s string) []byte { return []byte(s) }, func(b []byte) string { return string([]rune(string(b))) }},
	"UTF-16BE":   {func(s string) []byte { return encodeUTF16(s, true, false) }, func(b []byte) string { return decodeUTF16(b, true) }},
	"UTF-16LE":   {func(s string) []byte { return encodeUTF16(s, false, false) }, func(b []byte) string { return decodeUTF16(b, false) }},
	// Java's UTF-16 writes a big-endian byte-order mark first and reads
	// one if present (big-endian otherwise).
	"UTF-16": {func(s string) []byte { return encodeUTF16(s, true, true) }, func(b []byte) string {
		switch {
		case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
			return decodeUTF16(b[2:], true)
		case len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE:
			return decodeUTF16(b[2:], false)
		}
		return decodeUTF16(b, true)
	}},
}

// charsetArg returns the character set named by argument i, looked up once
// when it is a constant.
func charsetArg(name string, args []Arg, i int) (func(types.Value) (string, error), error) {
	lookup := func(cs string) (string, error) {
		if _, ok := charsets[strings.ToUpper(cs)]; !ok {
			return "", fmt.Errorf("%s: unsupported character set '%s'; expected one of 'US-ASCII', 'ISO-8859-1', 'UTF-8', 'UTF-16BE', 'UTF-16LE', 'UTF-16'", name, cs)
		}
		return strings.ToUpper(cs), nil
	}
	if cs, ok := constString(args[i]); ok {
		c, err := lookup(cs)
		return func(types.Value) (string, error) { return c, nil }, err
	}
	return func(v types.Value) (string, error) { return lookup(v.S) }, nil
}

// ENCODE(string, charset) → BYTES: "Encodes the string1 into a BINARY using
// the provided string2 character set". Characters the set cannot hold
// become '?', as Java's String.getBytes does.
func bindEncode(args []Arg) (types.Type, Eval, error) {
	if !match(args, str, str) {
		return types.Type{}, nil, sigError("ENCODE", "(STRING, STRING charset)", args)
	}
	cs, err := charsetArg("ENCODE", args, 1)
	if err != nil {
		return types.Type{}, nil, err
	}
	// nullable whatever the arguments, as Flink types it (FORCE_NULLABLE
	// in FlinkSqlOperatorTable)
	return types.Type{Kind: types.Varbinary, Length: types.MaxVarcharLength}, strict(func(_ *Context, v []types.Value) (types.Value, error) {
		c, err := cs(v[1])
		if err != nil {
			return types.Value{}, err
		}
		return types.StringValue(string(charsets[c].encode(v[0].S))), nil
	}), nil
}

// DECODE(binary, charset) → STRING: "Decodes the first argument into a
// String using the provided character set". Bytes the set cannot read
// become U+FFFD, as Java's new String(bytes, charset) does.
func bindDecode(args []Arg) (types.Type, Eval, error) {
	if !match(args, binaryStr, str) {
		return types.Type{}, nil, sigError("DECODE", "(BYTES, STRING charset)", args)
	}
	cs, err := charsetArg("DECODE", args, 1)
	if err != nil {
		return types.Type{}, nil, err
	}
	// nullable whatever the arguments, as Flink types it
	// (VARCHAR_FORCE_NULLABLE in FlinkSqlOperatorTable)
	return types.StringType, strict(func(_ *Context, v []types.Value) (types.Value, error) {
		c, err := cs(v[1])
		if err != nil {
			return types.Value{}, err
		}
		return types.StringValue(charsets[c].decode([]byte(v[0].S))), nil
	}), nil
}

// encodeByteCharset encodes to a one-byte character set holding the code
// points up to top.
func encodeByteCharset(top rune) func(string) []byte {
	return func(s string) []byte {
		out := make([]byte, 0, len(s))
		for _, r := range s {
			if r > top || r == utf8.RuneError {
				r = '?'
			}
			out = append(out, byte(r))
		}
		return out
	}
}

func decodeByteCharset(top byte) func([]byte) string {
	return func(b []byte) string {
		var sb strings.Builder
		for _, c := range b {
			if c > top {
				sb.WriteRune(utf8.RuneError)
			} else {
				sb.WriteRune(rune(c))
			}
		}
		return sb.String()
	}
}

func encodeUTF16(s string, bigEndian, bom bool) []byte {
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	out := make([]byte, 0, 2*len(units))
	for _, u := range units {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func decodeUTF16(b []byte, bigEndian bool) string {
	units := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		if bigEndian {
			units = append(units, uint16(b[i])<<8|uint16(b[i+1]))
		} else {
			units = append(units, uint16(b[i+1])<<8|uint16(b[i]))
		}
	}
	s := string(utf16.Decode(units))
	if len(b)%2 == 1 {
		s += string(utf8.RuneError) // a truncated last unit
	}
	return s
}

// javaShortZoneIDs are the three-letter zone IDs Java's TimeZone takes
// (ZoneId.SHORT_IDS).
var javaShortZoneIDs = map[string]string{
	"ACT": "Australia/Darwin", "AET": "Australia/Sydney", "AGT": "America/Argentina/Buenos_Aires",
	"ART": "Africa/Cairo", "AST": "America/Anchorage", "BET": "America/Sao_Paulo",
	"BST": "Asia/Dhaka", "CAT": "Africa/Harare", "CNT": "America/St_Johns",
	"CST": "America/Chicago", "CTT": "Asia/Shanghai", "EAT": "Africa/Addis_Ababa",
	"ECT": "Europe/Paris", "IET": "America/Indiana/Indianapolis", "IST": "Asia/Kolkata",
	"JST": "Asia/Tokyo", "MIT": "Pacific/Apia", "NET": "Asia/Yerevan",
	"NST": "Pacific/Auckland", "PLT": "Asia/Karachi", "PNT": "America/Phoenix",
	"PRT": "America/Puerto_Rico", "PST": "America/Los_Angeles", "SST": "Pacific/Guadalcanal",
	"VST": "Asia/Ho_Chi_Minh",
}

// javaFixedZones are the short IDs Java maps to fixed offsets.
var javaFixedZones = map[string]int{"EST": -5 * 3600, "MST": -7 * 3600, "HST": -10 * 3600}

// zoneArg returns the time zone named by argument i, resolved once when it
// is a constant.
func zoneArg(name string, args []Arg, i int) (func(types.Value) (*time.Location, error), error) {
	if id, ok := constString(args[i]); ok {
		loc, err := javaZone(name, id)
		return func(types.Value) (*time.Location, error) { return loc, nil }, err
	}
	return func(v types.Value) (*time.Location, error) { return javaZone(name, v.S) }, nil
}

// javaZone resolves a time zone the way Java's TimeZone.getTimeZone does —
// "an abbreviation such as "PST", a full name such as
// "America/Los_Angeles", or a custom ID such as "GMT-08:00"" — except that
// an unknown ID is an error rather than GMT.
func javaZone(name, id string) (*time.Location, error) {
	if off, ok := javaFixedZones[id]; ok {
		return time.FixedZone(id, off), nil
	}
	if full, ok := javaShortZoneIDs[id]; ok {
		id = full
	}
	if loc, n := parseZone(id); loc != nil && n == len(id) {
		return loc, nil
	}
	if id != "" && id != "Local" {
		if loc, err := time.LoadLocation(id); err == nil {
			return loc, nil
		}
	}
	return nil, fmt.Errorf("%s: unknown time zone '%s'", name, id)
}

// CONVERT_TZ(string1, string2, string3): "Converts a datetime string1 (with
// default ISO timestamp format 'yyyy-MM-dd HH:mm:ss') from time zone
// string2 to time zone string3. ... E.g., CONVERT_TZ('1970-01-01 00:00:00',
// 'UTC', 'America/Los_Angeles') returns '1969-12-31 16:00:00'." Text that
// does not parse gives NULL.
func bindConvertTz(args []Arg) (types.Type, Eval, error) {
	if !match(args, str, str, str) {
		return types.Type{}, nil, sigError("CONVERT_TZ", "(STRING, STRING fromZone, STRING toZone)", args)
	}
	format, err := formatArg(args, 3) // the default format
	if err != nil {
		return types.Type{}, nil, err
	}
	from, err := zoneArg("CONVERT_TZ", args, 1)
	if err != nil {
		return types.Type{}, nil, err
	}
	to, err := zoneArg("CONVERT_TZ", args, 2)
	if err != nil {
		return types.Type{}, nil, err
	}
	return types.StringType, strict(func(_ *Context, v []types.Value) (types.Value, error) {
		f, _ := format(types.Value{})
		fromLoc, err := from(v[1])
		if err != nil {
			return types.Value{}, err
		}
		toLoc, err := to(v[2])
		if err != nil {
			return types.Value{}, err
		}
		t, ok := f.parse(v[0].S, fromLoc, simpleDateFormatMode)
		if !ok {
			return types.NullValue, nil
		}
		return types.StringValue(f.format(t.In(toLoc))), nil
	}), nil
}
