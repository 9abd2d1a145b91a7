package plan

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
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
	switch rest {
	case "STRING":
		t.Kind, t.Length = types.Varchar, types.MaxVarcharLength
		return t, nil
	case "BYTES":
		t.Kind, t.Length = types.Varbinary, types.MaxVarcharLength
		return t, nil
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

// marshalValue writes v, a value of type t: null, a boolean, an integer
// (every integer-backed type, in its internal unit: days, milliseconds,
// nanoseconds, unscaled decimals), a number ("NaN", "Infinity" and
// "-Infinity" as strings), a string, or base64 for binary strings.
func marshalValue(t types.Type, v types.Value) (json.RawMessage, error) {
	if v.Null {
		return json.RawMessage("null"), nil
	}
	switch {
	case t.Kind == types.Null:
		return nil, fmt.Errorf("a non-NULL value of type NULL")
	case t.Kind == types.Boolean:
		return marshal(v.I != 0)
	case t.Kind == types.Binary || t.Kind == types.Varbinary:
		return marshal(base64.StdEncoding.EncodeToString([]byte(v.S)))
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
	case t.Kind == types.Binary || t.Kind == types.Varbinary:
		var s string
		if err := strict(data, &s); err != nil {
			return wrong()
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return wrong()
		}
		return types.StringValue(string(b)), nil
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
