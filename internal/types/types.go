// Package types holds Sluice's logical types (Flink's type system), runtime
// values, row kinds and the columnar changelog chunk that flows between
// operators.
package types

import (
	"fmt"
	"strings"
)

// Kind is the root of a logical type, after Flink's LogicalTypeRoot.
type Kind uint8

// The logical type roots Sluice knows.
const (
	Null Kind = iota
	Boolean
	TinyInt
	SmallInt
	Int
	BigInt
	Float
	Double
	Decimal
	Char
	Varchar
	Binary
	Varbinary
	Date
	Time
	Timestamp
	TimestampLTZ
	IntervalDayTime
	IntervalYearMonth
)

// MaxDayTimeIntervalPrecision is the largest leading-field precision of a
// day-time interval type: Flink's planner maps every day-time interval to
// INTERVAL SECOND(3) and refuses a larger leading precision
// (FlinkTypeFactory.toLogicalType, "DAY_INTERVAL_TYPES precision is not
// supported").
const MaxDayTimeIntervalPrecision = 3

// MaxVarcharLength is the length of STRING, i.e. VARCHAR(2147483647).
const MaxVarcharLength = 2147483647

// TimeAttr marks a column that is a time attribute.
type TimeAttr uint8

// Time attribute kinds.
const (
	NoTimeAttr TimeAttr = iota
	RowTime
	ProcTime
)

// Type is a logical type: a root, its parameters and nullability.
//
// Physical storage follows the root (see Physical): integers, booleans, dates,
// times, intervals, decimals up to precision 18 (unscaled) and timestamps
// up to precision 6 (microseconds since the epoch) are int64; FLOAT and DOUBLE are float64;
// character and binary strings are Go strings, decimals of precision 19 to
// 38 16 bytes in a string (see decimal.go), timestamps of precision 7 to 9
// 10 bytes in a string (see timerange.go); composite values (ARRAY,
// MULTISET, MAP, ROW) are strings holding their encoding (see nested.go).
type Type struct {
	Kind      Kind
	NotNull   bool
	Precision int // DECIMAL precision, TIME/TIMESTAMP fractional precision, interval precision
	Scale     int // DECIMAL scale
	Length    int // CHAR/VARCHAR/BINARY/VARBINARY length
	Attr      TimeAttr
	comp      *composite // children of ARRAY, MULTISET, MAP and ROW (interned)
}

// Physical is the storage class of a type inside a Vector.
type Physical uint8

// Storage classes.
const (
	PhysInt Physical = iota
	PhysFloat
	PhysString
)

// Physical returns the storage class used for t.
func (t Type) Physical() Physical {
	switch t.Kind {
	case Float, Double:
		return PhysFloat
	case Char, Varchar, Binary, Varbinary, Array, Multiset, Map, RowType, Variant, Structured:
		return PhysString
	case Decimal:
		if t.Precision > MaxCompactDecimalPrecision {
			return PhysString
		}
		return PhysInt
	case Timestamp, TimestampLTZ:
		if t.Precision > MaxMicrosPrecision {
			return PhysString
		}
		return PhysInt
	default:
		return PhysInt
	}
}

// Nullable returns t with NOT NULL dropped.
func (t Type) Nullable() Type { t.NotNull = false; return t }

// WithNotNull returns t with the given nullability.
func (t Type) WithNotNull(notNull bool) Type { t.NotNull = notNull; return t }

// Plain returns t without its time attribute marker.
func (t Type) Plain() Type { t.Attr = NoTimeAttr; return t }

// IsNumeric reports whether t is an exact or approximate number.
func (t Type) IsNumeric() bool {
	switch t.Kind {
	case TinyInt, SmallInt, Int, BigInt, Float, Double, Decimal:
		return true
	}
	return false
}

// IsInteger reports whether t is TINYINT, SMALLINT, INT or BIGINT.
func (t Type) IsInteger() bool {
	switch t.Kind {
	case TinyInt, SmallInt, Int, BigInt:
		return true
	}
	return false
}

// IsString reports whether t is CHAR or VARCHAR.
func (t Type) IsString() bool { return t.Kind == Char || t.Kind == Varchar }

// IsTimestamp reports whether t is TIMESTAMP or TIMESTAMP_LTZ.
func (t Type) IsTimestamp() bool { return t.Kind == Timestamp || t.Kind == TimestampLTZ }

// Constructors for common types (nullable).
var (
	BooleanType = Type{Kind: Boolean}
	IntType     = Type{Kind: Int}
	BigIntType  = Type{Kind: BigInt}
	DoubleType  = Type{Kind: Double}
	StringType  = Type{Kind: Varchar, Length: MaxVarcharLength}
	NullType    = Type{Kind: Null}
)

// TimestampType returns TIMESTAMP(p).
func TimestampType(p int) Type { return Type{Kind: Timestamp, Precision: p} }

// TimestampLTZType returns TIMESTAMP_LTZ(p).
func TimestampLTZType(p int) Type { return Type{Kind: TimestampLTZ, Precision: p} }

// DecimalType returns DECIMAL(p, s).
func DecimalType(p, s int) Type { return Type{Kind: Decimal, Precision: p, Scale: s} }

// String renders t the way Flink prints types (LogicalType.asSummaryString,
// as DESCRIBE shows them), e.g. "VARCHAR(2147483647) NOT NULL" is printed
// as "STRING NOT NULL" and a rowtime column as "TIMESTAMP(3) *ROWTIME*".
func (t Type) String() string { return t.format(true) }

// SerializableString renders t as Flink writes a type to be read back
// (LogicalType.asSerializableString, as SHOW CREATE TABLE writes a
// column's type in ShowCreateUtil.getColumnString): STRING and BYTES as
// VARCHAR(2147483647) and VARBINARY(2147483647), TIMESTAMP_LTZ(p) as
// TIMESTAMP(p) WITH LOCAL TIME ZONE, also inside ARRAY, MAP, MULTISET and
// ROW, and without time attributes. A structured type keeps its summary
// form, which names its class.
func (t Type) SerializableString() string { return t.format(false) }

// format writes t in its summary or serializable form.
func (t Type) format(summary bool) string {
	var s string
	switch t.Kind {
	case Null:
		s = "NULL"
	case Boolean:
		s = "BOOLEAN"
	case TinyInt:
		s = "TINYINT"
	case SmallInt:
		s = "SMALLINT"
	case Int:
		s = "INT"
	case BigInt:
		s = "BIGINT"
	case Float:
		s = "FLOAT"
	case Double:
		s = "DOUBLE"
	case Decimal:
		s = fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale)
	case Char:
		s = fmt.Sprintf("CHAR(%d)", t.Length)
	case Varchar:
		if t.Length == MaxVarcharLength && summary {
			s = "STRING"
		} else {
			s = fmt.Sprintf("VARCHAR(%d)", t.Length)
		}
	case Binary:
		s = fmt.Sprintf("BINARY(%d)", t.Length)
	case Varbinary:
		if t.Length == MaxVarcharLength && summary {
			s = "BYTES"
		} else {
			s = fmt.Sprintf("VARBINARY(%d)", t.Length)
		}
	case Date:
		s = "DATE"
	case Time:
		s = fmt.Sprintf("TIME(%d)", t.Precision)
	case Timestamp:
		s = fmt.Sprintf("TIMESTAMP(%d)", t.Precision)
	case TimestampLTZ:
		if summary {
			s = fmt.Sprintf("TIMESTAMP_LTZ(%d)", t.Precision)
		} else {
			s = fmt.Sprintf("TIMESTAMP(%d) WITH LOCAL TIME ZONE", t.Precision)
		}
	case IntervalDayTime:
		s = "INTERVAL SECOND(3)"
	case IntervalYearMonth:
		s = "INTERVAL MONTH"
	case Array, Multiset, Map, RowType, Structured:
		s = compositeString(t, summary)
	case Variant:
		s = "VARIANT"
	default:
		s = fmt.Sprintf("UNKNOWN(%d)", t.Kind)
	}
	var b strings.Builder
	b.WriteString(s)
	if t.NotNull {
		b.WriteString(" NOT NULL")
	}
	if !summary {
		return b.String()
	}
	switch t.Attr {
	case RowTime:
		b.WriteString(" *ROWTIME*")
	case ProcTime:
		b.WriteString(" *PROCTIME*")
	}
	return b.String()
}

// Equal reports whether a and b are the same type, ignoring time attributes.
func Equal(a, b Type) bool { return a.Plain() == b.Plain() }

// Field is a named, typed column.
type Field struct {
	Name string
	Type Type
}

// Schema is an ordered list of fields.
type Schema []Field

// Index returns the position of the field named name, or -1. Names are
// case-sensitive, as in Flink SQL.
func (s Schema) Index(name string) int {
	for i, f := range s {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Names returns the field names in order.
func (s Schema) Names() []string {
	out := make([]string, len(s))
	for i, f := range s {
		out[i] = f.Name
	}
	return out
}

// Types returns the field types in order.
func (s Schema) Types() []Type {
	out := make([]Type, len(s))
	for i, f := range s {
		out[i] = f.Type
	}
	return out
}
