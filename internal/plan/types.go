package plan

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sluicesql/sluice/internal/types"
)

// Type is a logical type in a plan. Its JSON form is Flink's type text
// ("BIGINT NOT NULL", "TIMESTAMP(3) *ROWTIME*", "DECIMAL(10, 2)"), with
// every parameter written out so that reading it back gives the same type.
type Type types.Type

// Logical returns t as a logical type.
func (t Type) Logical() types.Type { return types.Type(t) }

// MarshalText implements encoding.TextMarshaler. It fails for a type the
// text cannot hold exactly.
func (t Type) MarshalText() ([]byte, error) {
	s := formatType(types.Type(t))
	if back, err := parseType(s); err != nil || back != types.Type(t) {
		return nil, fmt.Errorf("type %s cannot be written exactly", s)
	}
	return []byte(s), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (t *Type) UnmarshalText(b []byte) error {
	ty, err := parseType(string(b))
	if err != nil {
		return err
	}
	*t = Type(ty)
	return nil
}

// kindNames are the type names of the kinds, as Flink writes them.
var kindNames = map[types.Kind]string{
	types.Null: "NULL", types.Boolean: "BOOLEAN", types.TinyInt: "TINYINT", types.SmallInt: "SMALLINT",
	types.Int: "INT", types.BigInt: "BIGINT", types.Float: "FLOAT", types.Double: "DOUBLE", types.Date: "DATE",
	types.Decimal: "DECIMAL", types.Char: "CHAR", types.Varchar: "VARCHAR", types.Binary: "BINARY",
	types.Varbinary: "VARBINARY", types.Time: "TIME", types.Timestamp: "TIMESTAMP", types.TimestampLTZ: "TIMESTAMP_LTZ",
	types.IntervalDayTime: "INTERVAL SECOND", types.IntervalYearMonth: "INTERVAL MONTH",
	types.Variant: "VARIANT",
}

// formatType writes t as Flink prints it (STRING and BYTES for the longest
// strings), with every parameter written out: intervals keep their
// precision.
func formatType(t types.Type) string {
	name, ok := kindNames[t.Kind]
	if !ok {
		name = fmt.Sprintf("UNKNOWN(%d)", t.Kind)
	}
	s := name
	switch t.Kind {
	case types.Array:
		s = "ARRAY<" + formatType(t.Elem()) + ">"
	case types.Multiset:
		s = "MULTISET<" + formatType(t.Elem()) + ">"
	case types.Map:
		s = "MAP<" + formatType(t.KeyType()) + ", " + formatType(t.ValueType()) + ">"
	case types.RowType, types.Structured:
		fs := make([]string, len(t.Fields()))
		for i, f := range t.Fields() {
			fs[i] = types.QuoteIdent(f.Name) + " " + formatType(f.Type)
		}
		if t.Kind == types.Structured {
			s = "STRUCTURED<'" + t.ClassName() + "', " + strings.Join(fs, ", ") + ">"
		} else {
			s = "ROW<" + strings.Join(fs, ", ") + ">"
		}
	case types.Decimal:
		s = fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale)
	case types.Varchar, types.Varbinary:
		if t.Length == types.MaxVarcharLength {
			s = map[types.Kind]string{types.Varchar: "STRING", types.Varbinary: "BYTES"}[t.Kind]
			break
		}
		s = fmt.Sprintf("%s(%d)", name, t.Length)
	case types.Char, types.Binary:
		s = fmt.Sprintf("%s(%d)", name, t.Length)
	case types.Time, types.Timestamp, types.TimestampLTZ, types.IntervalDayTime, types.IntervalYearMonth:
		s = fmt.Sprintf("%s(%d)", name, t.Precision)
	}
	if t.NotNull {
		s += " NOT NULL"
	}
	switch t.Attr {
	case types.RowTime:
		s += " *ROWTIME*"
	case types.ProcTime:
		s += " *PROCTIME*"
	}
	return s
}

// parseType reads what formatType writes.
func parseType(s string) (types.Type, error) {
	bad := func() (types.Type, error) { return types.Type{}, fmt.Errorf("invalid type '%s'", s) }
	var t types.Type
	rest := s
	if r, ok := strings.CutSuffix(rest, " *ROWTIME*"); ok {
		rest, t.Attr = r, types.RowTime
	} else if r, ok := strings.CutSuffix(rest, " *PROCTIME*"); ok {
		rest, t.Attr = r, types.ProcTime
	}
	if r, ok := strings.CutSuffix(rest, " NOT NULL"); ok {
		rest, t.NotNull = r, true
	}
	if c, ok, err := parseComposite(rest); ok || err != nil {
		if err != nil {
			return bad()
		}
		c.Attr, c.NotNull = t.Attr, t.NotNull
		return c, nil
	}
	switch rest {
	case "STRING":
		t.Kind, t.Length = types.Varchar, types.MaxVarcharLength
		return t, nil
	case "BYTES":
		t.Kind, t.Length = types.Varbinary, types.MaxVarcharLength
		return t, nil
	case "VARIANT":
		return types.VariantType.WithNotNull(t.NotNull), nil
	}
	name, params, hasParams := strings.Cut(rest, "(")
	var nums []int
	if hasParams {
		inner, ok := strings.CutSuffix(params, ")")
		if !ok {
			return bad()
		}
		for p := range strings.SplitSeq(inner, ", ") {
			n, err := strconv.Atoi(p)
			if err != nil || n < 0 || strconv.Itoa(n) != p {
				return bad()
			}
			nums = append(nums, n)
		}
	}
	found := false
	for k, n := range kindNames {
		if n == name {
			t.Kind, found = k, true
		}
	}
	if !found {
		return bad()
	}
	switch t.Kind {
	case types.Decimal:
		if len(nums) != 2 {
			return bad()
		}
		t.Precision, t.Scale = nums[0], nums[1]
	case types.Char, types.Varchar, types.Binary, types.Varbinary:
		if len(nums) != 1 {
			return bad()
		}
		t.Length = nums[0]
	case types.Time, types.Timestamp, types.TimestampLTZ, types.IntervalDayTime, types.IntervalYearMonth:
		if len(nums) != 1 {
			return bad()
		}
		t.Precision = nums[0]
	default:
		if hasParams {
			return bad()
		}
	}
	return t, nil
}

// parseComposite reads ARRAY<...>, MULTISET<...>, MAP<..., ...>,
// ROW<`name` ..., ...> and STRUCTURED<'class', `name` ..., ...> as
// formatType writes them; ok is false for another type.
func parseComposite(s string) (t types.Type, ok bool, err error) {
	name, inner, found := strings.Cut(s, "<")
	switch {
	case !found || name != "ARRAY" && name != "MULTISET" && name != "MAP" && name != "ROW" && name != "STRUCTURED":
		return t, false, nil
	case !strings.HasSuffix(inner, ">"):
		return t, true, fmt.Errorf("invalid type '%s'", s)
	}
	parts := splitTopLevel(inner[:len(inner)-1])
	class := ""
	if name == "STRUCTURED" {
		if len(parts) == 0 || len(parts[0]) < 2 || parts[0][0] != '\'' || parts[0][len(parts[0])-1] != '\'' ||
			!types.ValidClassName(parts[0][1:len(parts[0])-1]) {
			return t, true, fmt.Errorf("invalid type '%s'", s)
		}
		class, parts = parts[0][1:len(parts[0])-1], parts[1:]
		if len(parts) == 1 && parts[0] == "" {
			parts = nil
		}
	}
	children := make([]types.Type, 0, len(parts))
	var fields []types.Field
	for _, p := range parts {
		if name == "ROW" || name == "STRUCTURED" {
			fname, rest, ok := cutQuotedName(p)
			if !ok {
				return t, true, fmt.Errorf("invalid field '%s'", p)
			}
			ft, err := parseType(rest)
			if err != nil {
				return t, true, err
			}
			fields = append(fields, types.Field{Name: fname, Type: ft})
			continue
		}
		c, err := parseType(p)
		if err != nil {
			return t, true, err
		}
		children = append(children, c)
	}
	switch {
	case name == "ROW":
		return types.RowOf(fields), true, nil
	case name == "STRUCTURED":
		return types.StructuredOf(class, fields), true, nil
	case name == "MAP" && len(children) == 2:
		return types.MapOf(children[0], children[1]), true, nil
	case name == "ARRAY" && len(children) == 1:
		return types.ArrayOf(children[0]), true, nil
	case name == "MULTISET" && len(children) == 1:
		return types.MultisetOf(children[0]), true, nil
	}
	return t, true, fmt.Errorf("invalid type '%s'", s)
}

// splitTopLevel splits s at the ", " that are not within <>, () or a
// back-quoted name.
func splitTopLevel(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '`':
			quoted = !quoted
		case quoted:
		case c == '<' || c == '(':
			depth++
		case c == '>' || c == ')':
			depth--
		case c == ',' && depth == 0 && strings.HasPrefix(s[i:], ", "):
			out = append(out, s[start:i])
			start = i + 2
			i++
		}
	}
	return append(out, s[start:])
}

// cutQuotedName reads a back-quoted name (“ for a back-quote) and the
// space after it.
func cutQuotedName(s string) (name, rest string, ok bool) {
	if !strings.HasPrefix(s, "`") {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '`' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '`' {
			b.WriteByte('`')
			i++
			continue
		}
		rest, ok := strings.CutPrefix(s[i+1:], " ")
		return b.String(), rest, ok
	}
	return "", "", false
}

// marshalValue writes v, a value of type t: null, a boolean, an integer
// (every integer-backed type, in its internal unit: days, milliseconds,
// nanoseconds, unscaled decimals; a DECIMAL above precision 18 as a string
// of its unscaled digits), a number ("NaN", "Infinity" and
// "-Infinity" as strings), a string, base64 for binary strings and
// the encodings of composite values. A TIMESTAMP(7..9) or
// TIMESTAMP_LTZ(7..9) is an integer of nanoseconds since the epoch where
// one fits (1677 to 2262, as plan format 2 always wrote them), else the
// pair [microseconds since the epoch, nanoseconds of the microsecond],
// which earlier builds refuse rather than misread.
func marshalValue(t types.Type, v types.Value) (json.RawMessage, error) {
	if v.Null {
		return json.RawMessage("null"), nil
	}
	switch {
	case t.Kind == types.Null:
		return nil, fmt.Errorf("a non-NULL value of type NULL")
	case t.Kind == types.Boolean:
		return marshal(v.I != 0)
	case t.Kind == types.Binary || t.Kind == types.Varbinary || t.IsComposite():
		return marshal(base64.StdEncoding.EncodeToString([]byte(v.S)))
	case t.IsWideDecimal():
		return marshal(types.DecimalUnscaled(t, v).String())
	case t.IsNanoTimestamp():
		if n, ok := types.TimestampNanos(t.Precision, v); ok {
			return marshal(n)
		}
		us, ns := types.TimestampParts(t.Precision, v)
		return marshal([2]int64{us, ns})
	}
	switch t.Physical() {
	case types.PhysFloat:
		switch {
		case math.IsNaN(v.F):
			return marshal("NaN")
		case math.IsInf(v.F, 1):
			return marshal("Infinity")
		case math.IsInf(v.F, -1):
			return marshal("-Infinity")
		}
		return marshal(v.F)
	case types.PhysString:
		if !utf8.ValidString(v.S) {
			return nil, fmt.Errorf("a %s value that is not UTF-8", t)
		}
		return marshal(v.S)
	}
	return marshal(v.I)
}

// unmarshalValue reads what marshalValue writes for type t.
func unmarshalValue(t types.Type, data json.RawMessage) (types.Value, error) {
	if string(data) == "null" {
		return types.NullValue, nil
	}
	wrong := func() (types.Value, error) {
		return types.Value{}, fmt.Errorf("invalid %s value %s", formatType(t), data)
	}
	switch {
	case t.Kind == types.Null:
		return wrong()
	case t.Kind == types.Boolean:
		var b bool
		if err := strict(data, &b); err != nil {
			return wrong()
		}
		return types.BoolValue(b), nil
	case t.Kind == types.Binary || t.Kind == types.Varbinary || t.IsComposite():
		var s string
		if err := strict(data, &s); err != nil {
			return wrong()
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil || t.IsComposite() && types.CheckEncoding(t, string(b)) != nil {
			return wrong()
		}
		return types.StringValue(string(b)), nil
	case t.IsWideDecimal():
		var s string
		if err := strict(data, &s); err != nil {
			return wrong()
		}
		u, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return wrong()
		}
		v := types.DecimalOfBig(t, u)
		if v.Null {
			return wrong()
		}
		return v, nil
	case t.IsNanoTimestamp():
		var parts [2]int64
		if err := strict(data, &parts[1]); err != nil {
			if err := strict(data, &parts); err != nil || parts[1] < 0 || parts[1] > 999 {
				return wrong()
			}
		}
		v, ok := types.TimestampFromParts(t.Precision, parts[0], parts[1])
		if !ok {
			return wrong()
		}
		return v, nil
	}
	switch t.Physical() {
	case types.PhysFloat:
		var s string
		if strict(data, &s) == nil {
			switch s {
			case "NaN":
				return types.FloatValue(math.NaN()), nil
			case "Infinity":
				return types.FloatValue(math.Inf(1)), nil
			case "-Infinity":
				return types.FloatValue(math.Inf(-1)), nil
			}
			return wrong()
		}
		var f float64
		if err := strict(data, &f); err != nil {
			return wrong()
		}
		return types.FloatValue(f), nil
	case types.PhysString:
		var s string
		if err := strict(data, &s); err != nil {
			return wrong()
		}
		return types.StringValue(s), nil
	}
	var i int64
	if err := strict(data, &i); err != nil {
		return wrong()
	}
	return types.IntValue(i), nil
}
