package format

import (
	"fmt"
	"strconv"

	"github.com/sluicesql/sluice/internal/types"
)

// Avro schema derivation, after Flink's AvroSchemaConverter.convertToSchema
// (flink-avro, org.apache.flink.formats.avro.typeutils). The table row
// becomes a record named "record" in namespace
// "org.apache.flink.avro.generated" (the full name
// "org.apache.flink.avro.generated.record" that convertToSchema(LogicalType)
// passes on). The row type a Kafka table hands its format is NOT NULL
// (ResolvedSchema.toPhysicalRowDataType), so the record itself is not
// wrapped in a union. Per column:
//
//	BOOLEAN                     "boolean"
//	TINYINT, SMALLINT, INT      "int"
//	BIGINT                      "long"
//	FLOAT / DOUBLE              "float" / "double"
//	CHAR, VARCHAR               "string"
//	BINARY, VARBINARY           "bytes"
//	DECIMAL(p, s)               {"type":"bytes","logicalType":"decimal","precision":p,"scale":s}
//	DATE                        {"type":"int","logicalType":"date"}
//	TIME(p <= 3)                {"type":"int","logicalType":"time-millis"}
//	TIMESTAMP(p <= 3)           {"type":"long","logicalType":"timestamp-millis"}
//	NULL                        "null"
//
// That is the legacy timestamp mapping, the only one in Flink 1.16-1.18 and
// the default since ('avro.timestamp_mapping.legacy', 1.19+). It rejects
// TIMESTAMP(p > 3) and TIMESTAMP_LTZ. The corrected mapping (legacy false)
// maps TIMESTAMP(p) to local-timestamp-millis/micros/nanos and
// TIMESTAMP_LTZ(p) to timestamp-millis/micros/nanos for p <= 3, 6, 9.
// A nullable column becomes the union ["null", T] and its field gets
// "default": null (SchemaBuilder's withDefault(null)); NOT NULL columns have
// no default. The JSON text is laid out the way Avro's Schema.toString()
// writes it, since that is the text Flink registers.

const (
	avroRecordName      = "record"
	avroRecordNamespace = "org.apache.flink.avro.generated"
)

// avroBase is the Avro primitive a column is stored as.
type avroBase uint8

const (
	avroNull avroBase = iota + 1
	avroBoolean
	avroInt
	avroLong
	avroFloat
	avroDouble
	avroBytes
	avroString
	// The complex types of composite columns.
	avroArray
	avroMap
	avroRecord
)

var avroBaseNames = [...]string{
	avroNull: "null", avroBoolean: "boolean", avroInt: "int", avroLong: "long",
	avroFloat: "float", avroDouble: "double", avroBytes: "bytes", avroString: "string",
	avroArray: "array", avroMap: "map", avroRecord: "record",
}

// avroColumn is how one column is stored: its primitive, its logical type
// ("" for none) and, for temporal columns, the unit of the stored number in
// units of the column's value: TIME values are nanoseconds (1e6 for
// time-millis), TIMESTAMP(p) values microseconds up to precision 6 (1000
// for millis, 1 for micros); above, nanos holds the timestamp-nanos and
// local-timestamp-nanos columns (see avroNanos).
type avroColumn struct {
	base    avroBase
	logical string
	unit    int64
	// nanos marks a timestamp stored as nanoseconds since the epoch.
	nanos bool
	// legacy is the timestamp mapping, kept for the children of
	// composite columns.
	legacy bool
	// decimal is the column's DECIMAL type (logical "decimal").
	decimal types.Type
}

// avroColumnOf maps a column type to its Avro storage, or fails the way
// AvroSchemaConverter does.
func avroColumnOf(t types.Type, legacy bool) (avroColumn, error) {
	switch t.Kind {
	case types.Array, types.Map, types.Multiset, types.RowType:
		return compositeAvroColumn(t, legacy)
	case types.Null:
		return avroColumn{base: avroNull}, nil
	case types.Boolean:
		return avroColumn{base: avroBoolean}, nil
	case types.TinyInt, types.SmallInt, types.Int:
		return avroColumn{base: avroInt}, nil
	case types.BigInt:
		return avroColumn{base: avroLong}, nil
	case types.Float:
		return avroColumn{base: avroFloat}, nil
	case types.Double:
		return avroColumn{base: avroDouble}, nil
	case types.Char, types.Varchar:
		return avroColumn{base: avroString}, nil
	case types.Binary, types.Varbinary:
		return avroColumn{base: avroBytes}, nil
	case types.Decimal:
		return avroColumn{base: avroBytes, logical: "decimal", decimal: t.Plain().Nullable()}, nil
	case types.Date:
		return avroColumn{base: avroInt, logical: "date"}, nil
	case types.Time:
		if t.Precision > 3 {
			return avroColumn{}, fmt.Errorf("Avro does not support TIME type with precision: %d, it only supports precision less than 3", t.Precision)
		}
		return avroColumn{base: avroInt, logical: "time-millis", unit: nanosPerMilli}, nil
	case types.Timestamp:
		if legacy {
			if t.Precision > 3 {
				return avroColumn{}, fmt.Errorf("Avro does not support TIMESTAMP type with precision: %d, it only supports precision less than 3", t.Precision)
			}
			return avroColumn{base: avroLong, logical: "timestamp-millis", unit: 1000}, nil
		}
		return timestampColumn("local-timestamp-", t.Precision)
	case types.TimestampLTZ:
		if legacy {
			return avroColumn{}, fmt.Errorf("Unsupported to derive Schema for type: %s", t.Plain())
		}
		return timestampColumn("timestamp-", t.Precision)
	}
	return avroColumn{}, fmt.Errorf("Unsupported to derive Schema for type: %s", t.Plain())
}

func timestampColumn(prefix string, precision int) (avroColumn, error) {
	switch {
	case precision <= 3:
		return avroColumn{base: avroLong, logical: prefix + "millis", unit: 1000}, nil
	case precision <= 6:
		return avroColumn{base: avroLong, logical: prefix + "micros", unit: 1}, nil
	case precision <= 9:
		return avroColumn{base: avroLong, logical: prefix + "nanos", nanos: true}, nil
	}
	return avroColumn{}, fmt.Errorf("Avro does not support TIMESTAMP type with precision: %d, it only supports precision less than 9", precision)
}

// appendJSON appends the column's Avro type as Schema.toString() writes it.
func (c avroColumn) appendJSON(dst []byte, t types.Type) []byte {
	if c.logical == "" {
		return strconv.AppendQuote(dst, avroBaseNames[c.base])
	}
	dst = append(dst, `{"type":"`...)
	dst = append(dst, avroBaseNames[c.base]...)
	dst = append(dst, `","logicalType":"`...)
	dst = append(dst, c.logical...)
	dst = append(dst, '"')
	if c.logical == "decimal" {
		dst = append(dst, `,"precision":`...)
		dst = strconv.AppendInt(dst, int64(t.Precision), 10)
		dst = append(dst, `,"scale":`...)
		dst = strconv.AppendInt(dst, int64(t.Scale), 10)
	}
	return append(dst, '}')
}

// validAvroName reports whether s is a legal Avro name.
func validAvroName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range []byte(s) {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// deriveAvroSchema returns the Avro schema Flink derives for the fields, as
// JSON text, and each column's storage.
func deriveAvroSchema(fields types.Schema, legacy bool) (string, []avroColumn, error) {
	cols := make([]avroColumn, len(fields))
	dst := []byte(`{"type":"record","name":"` + avroRecordName + `","namespace":"` + avroRecordNamespace + `","fields":[`)
	for i, f := range fields {
		if !validAvroName(f.Name) {
			return "", nil, fmt.Errorf("column '%s' cannot be an Avro field: Illegal character in: %s", f.Name, f.Name)
		}
		c, err := avroColumnOf(f.Type, legacy)
		if err != nil {
			return "", nil, fmt.Errorf("column '%s': %w", f.Name, err)
		}
		cols[i] = c
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"name":"`...)
		dst = append(dst, f.Name...)
		dst = append(dst, `","type":`...)
		nullable := !f.Type.NotNull
		dst = appendAvroType(dst, f.Type, c, avroRecordName+"_"+f.Name)
		if nullable {
			dst = append(dst, `,"default":null`...)
		}
		dst = append(dst, '}')
	}
	dst = append(dst, "]}"...)
	return string(dst), cols, nil
}
