package server

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// logicalType is a type as Flink's LogicalTypeJsonSerializer writes it:
// the type root, nullability (left out for NULL) and the root's
// parameters.
type logicalType struct {
	Type                string       `json:"type"`
	Nullable            *bool        `json:"nullable,omitempty"`
	Length              *int         `json:"length,omitempty"`
	Precision           *int         `json:"precision,omitempty"`
	Scale               *int         `json:"scale,omitempty"`
	FractionalPrecision *int         `json:"fractionalPrecision,omitempty"`
	Resolution          string       `json:"resolution,omitempty"`
	ElementType         *logicalType `json:"elementType,omitempty"`
	KeyType             *logicalType `json:"keyType,omitempty"`
	ValueType           *logicalType `json:"valueType,omitempty"`
	Fields              []rowField   `json:"fields,omitempty"`
}

// rowField is a field of a ROW type as LogicalTypeJsonSerializer writes it.
type rowField struct {
	Name      string      `json:"name"`
	FieldType logicalType `json:"fieldType"`
}

// typeRoots are Flink's LogicalTypeRoot names.
var typeRoots = map[types.Kind]string{
	types.Null: "NULL", types.Boolean: "BOOLEAN", types.TinyInt: "TINYINT", types.SmallInt: "SMALLINT",
	types.Int: "INTEGER", types.BigInt: "BIGINT", types.Float: "FLOAT", types.Double: "DOUBLE",
	types.Decimal: "DECIMAL", types.Char: "CHAR", types.Varchar: "VARCHAR", types.Binary: "BINARY",
	types.Varbinary: "VARBINARY", types.Date: "DATE", types.Time: "TIME_WITHOUT_TIME_ZONE",
	types.Timestamp: "TIMESTAMP_WITHOUT_TIME_ZONE", types.TimestampLTZ: "TIMESTAMP_WITH_LOCAL_TIME_ZONE",
	types.IntervalDayTime: "INTERVAL_DAY_TIME", types.IntervalYearMonth: "INTERVAL_YEAR_MONTH",
	types.Array: "ARRAY", types.Multiset: "MULTISET", types.Map: "MAP", types.RowType: "ROW",
	types.Variant: "VARIANT", types.Structured: "STRUCTURED_TYPE",
}

// toLogicalType writes t as Flink does.
func toLogicalType(t types.Type) logicalType {
	lt := logicalType{Type: typeRoots[t.Kind]}
	if t.Kind == types.Null {
		return lt
	}
	nullable := !t.NotNull
	lt.Nullable = &nullable
	n := func(v int) *int { return &v }
	switch t.Kind {
	case types.Char, types.Varchar, types.Binary, types.Varbinary:
		lt.Length = n(t.Length)
	case types.Decimal:
		lt.Precision, lt.Scale = n(t.Precision), n(t.Scale)
	case types.Time, types.Timestamp, types.TimestampLTZ:
		lt.Precision = n(t.Precision)
	case types.IntervalDayTime:
		// INTERVAL SECOND(3): Flink's DayTimeIntervalType with its
		// default day precision.
		lt.Precision, lt.FractionalPrecision, lt.Resolution = n(2), n(3), "SECOND"
	case types.IntervalYearMonth:
		// INTERVAL MONTH, with the default year precision.
		lt.Precision, lt.Resolution = n(2), "MONTH"
	case types.Array, types.Multiset:
		e := toLogicalType(t.Elem())
		lt.ElementType = &e
	case types.Map:
		k, v := toLogicalType(t.KeyType()), toLogicalType(t.ValueType())
		lt.KeyType, lt.ValueType = &k, &v
	case types.RowType:
		lt.Fields = []rowField{}
		for _, f := range t.Fields() {
			lt.Fields = append(lt.Fields, rowField{Name: f.Name, FieldType: toLogicalType(f.Type)})
		}
	}
	return lt
}

// jsonValue is a field as Flink's JSON row format writes it
// (RowDataToJsonConverters with ISO-8601 timestamps): numbers and
// booleans as JSON numbers and booleans (NaN and infinities as strings,
// as Jackson quotes them), binary strings in base64, dates, times and
// timestamps in ISO-8601, intervals as their months or milliseconds. A
// TIMESTAMP_LTZ is shown in the session time zone followed by "Z", as
// Flink's gateway converts it (RowDataLocalTimeZoneConverter).
func jsonValue(t types.Type, v types.Value, zone *time.Location) any {
	if v.Null {
		return nil
	}
	switch t.Kind {
	case types.Boolean:
		return v.I != 0
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		return v.I
	case types.IntervalYearMonth, types.IntervalDayTime:
		// months, and milliseconds, as RowDataToJsonConverters writes
		// INTERVAL_YEAR_MONTH and INTERVAL_DAY_TIME
		return v.I
	case types.Float, types.Double:
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			return types.FormatDouble(v.F)
		}
		bits := 64
		if t.Kind == types.Float {
			bits = 32
		}
		return json.Number(types.AppendJavaFloat(nil, v.F, bits))
	case types.Decimal:
		return json.Number(types.AppendDecimal(nil, types.DecimalUnscaled(t, v), t.Scale))
	case types.Char, types.Varchar:
		return v.S
	case types.Binary, types.Varbinary:
		return base64.StdEncoding.EncodeToString([]byte(v.S))
	case types.Date:
		return time.Unix(v.I*86400, 0).UTC().Format(time.DateOnly)
	case types.Time:
		return time.Unix(0, v.I).UTC().Format(time.TimeOnly)
	case types.Timestamp:
		return isoTimestamp(types.TimestampTime(t.Precision, v))
	case types.TimestampLTZ:
		if zone == nil {
			zone = time.UTC
		}
		return isoTimestamp(types.TimestampTime(t.Precision, v).In(zone)) + "Z"
	case types.Array, types.Map, types.Multiset, types.RowType, types.Structured:
		return compositeJSON(t, v, zone)
	}
	return types.FormatValue(t, v, zone)
}

// isoTimestamp writes a date-time as Flink's ISO-8601 timestamp format
// does: seconds always, the fraction without trailing zeros (none when
// it is zero).
func isoTimestamp(t time.Time) string { return t.Format("2006-01-02T15:04:05.999999999") }

// plainText is a field as Flink's PLAIN_TEXT row format writes it: as the
// SQL client prints it, NULL as JSON null.
func plainText(t types.Type, v types.Value, zone *time.Location) any {
	if v.Null {
		return nil
	}
	return types.PrintValue(t, v, zone)
}

// compositeJSON writes an ARRAY as a JSON array, a MAP or MULTISET as an
// object keyed by the keys' text, and a ROW as an object keyed by its
// field names, as RowDataToJsonConverters does.
func compositeJSON(t types.Type, v types.Value, zone *time.Location) any {
	switch t.Kind {
	case types.Array:
		vs, err := types.DecodeArray(t.Elem(), v.S)
		if err != nil {
			return nil
		}
		out := make([]any, len(vs))
		for i, x := range vs {
			out[i] = jsonValue(t.Elem(), x, zone)
		}
		return out
	case types.Map, types.Multiset:
		ks, vs, err := types.DecodeMap(t, v.S)
		if err != nil {
			return nil
		}
		out := orderedObject{keys: make([]string, len(ks)), values: make([]any, len(ks))}
		for i := range ks {
			out.keys[i], out.values[i] = types.FormatValue(t.KeyType(), ks[i], zone), jsonValue(t.ValueType(), vs[i], zone)
		}
		return out
	}
	vs, err := types.DecodeRow(t, v.S)
	if err != nil {
		return nil
	}
	out := orderedObject{keys: make([]string, len(vs)), values: make([]any, len(vs))}
	for i, f := range t.Fields() {
		out.keys[i], out.values[i] = f.Name, jsonValue(f.Type, vs[i], zone)
	}
	return out
}

// orderedObject is a JSON object whose members keep their order: a ROW's
// fields in the row type's order and a MAP's entries in the map's, as
// Jackson's ObjectNode writes them (a Go map would sort them).
type orderedObject struct {
	keys   []string
	values []any
}

// MarshalJSON implements json.Marshaler.
func (o orderedObject) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, k := range o.keys {
		if i > 0 {
			b = append(b, ',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := json.Marshal(o.values[i])
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, kb...), ':'), vb...)
	}
	return append(b, '}'), nil
}
