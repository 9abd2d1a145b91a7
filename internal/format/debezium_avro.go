package format

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// The 'debezium-avro-confluent' format, after Flink's
// DebeziumAvroFormatFactory, DebeziumAvroDecodingFormat,
// DebeziumAvroDeserializationSchema and DebeziumAvroSerializationSchema:
// Debezium's envelope (before, after, op, and the "source" block and
// "ts_ms" for metadata) as Avro records in Confluent's wire format, with
// the writer schemas in a Schema Registry.
//
// A message is read through the 'avro-confluent' codec over the envelope
// {before: ROW<table> NULL, after: ROW<table> NULL, op: STRING}, so the
// writer's schema (Debezium's Envelope, Value and Source records) is
// resolved against it as Flink's reader schema is: fields by name, the
// writer's other fields skipped. Its rows are those of 'debezium-json'.
// Written, +I and +U are {before: null, after: row, op: "c"}, -U and -D
// {before: row, after: null, op: "d"}, with the schema Flink's
// AvroSchemaConverter derives from that envelope registered under the
// subject ('<topic>-value' by default, as the Kafka connector completes
// it).

func init() { Register(debeziumAvroFactory{}) }

type debeziumAvroFactory struct{}

const debeziumAvroName = "debezium-avro-confluent"

func (debeziumAvroFactory) Name() string { return debeziumAvroName }

// Options are those of 'avro-confluent' (AvroConfluentFormatOptions).
func (debeziumAvroFactory) Options() []OptionSpec { return confluentFactory{}.Options() }

// debeziumSourceFields are the fields of Debezium's "source" block Flink
// reads (DebeziumAvroDecodingFormat.SOURCE_PROPERTY_FIELDS), "ts_ms" kept
// as the epoch milliseconds it holds.
var debeziumSourceFields = func() types.Schema {
	var fs types.Schema
	for _, n := range []string{"version", "connector", "name", "ts_ms", "snapshot", "db", "sequence",
		"schema", "table", "txId", "scn", "commit_scn", "lcr_position"} {
		t := types.StringType
		if n == "ts_ms" {
			t = types.BigIntType
		}
		fs = append(fs, types.Field{Name: n, Type: t})
	}
	return fs
}()

// debeziumAvroSource maps each "source." metadata key to its field.
var debeziumAvroSource = map[string]string{
	"source.timestamp": "ts_ms", "source.database": "db", "source.schema": "schema", "source.table": "table",
}

// Metadata implements ChangelogFactory (DebeziumAvroDecodingFormat's
// ReadableMetadata).
func (debeziumAvroFactory) Metadata() []MetadataSpec {
	ltz := types.Type{Kind: types.TimestampLTZ, Precision: 3}
	return []MetadataSpec{
		{Key: "ingestion-timestamp", Type: ltz},
		{Key: "source.timestamp", Type: ltz},
		{Key: "source.database", Type: types.StringType},
		{Key: "source.schema", Type: types.StringType},
		{Key: "source.table", Type: types.StringType},
		{Key: "source.properties", Type: sourceMapType},
	}
}

func (f debeziumAvroFactory) New(Config) (Codec, error) { return nil, refuseKeySide(f.Name()) }

func (f debeziumAvroFactory) NewChangelog(cfg Config) (ChangelogCodec, error) {
	if cfg.IsKey {
		return nil, refuseKeySide(f.Name())
	}
	prefix := cfg.OptionPrefix
	if prefix == "" {
		prefix = f.Name() + "."
	}
	if _, ok := cfg.Options["schema"]; ok {
		return nil, fmt.Errorf("option '%sschema' is not supported yet: the writer schema is derived from the table", prefix)
	}
	if err := checkMetadata(f.Name(), f.Metadata(), cfg.Metadata); err != nil {
		return nil, err
	}
	physical := types.RowOf(cfg.Fields)
	images := types.Schema{{Name: "before", Type: physical}, {Name: "after", Type: physical}, {Name: "op", Type: types.StringType}}
	fields := slices.Clone(images)
	var sourceRow types.Type
	for _, m := range cfg.Metadata {
		switch {
		case m.Key == "ingestion-timestamp" && fields.Index("ts_ms") < 0:
			fields = append(fields, types.Field{Name: "ts_ms", Type: types.BigIntType})
		case m.Key != "ingestion-timestamp" && fields.Index("source") < 0:
			sourceRow = types.RowOf(debeziumSourceFields)
			fields = append(fields, types.Field{Name: "source", Type: sourceRow})
		}
	}
	inner := Config{Fields: fields, Options: cfg.Options, OptionPrefix: prefix, Topic: cfg.Topic}
	reader, err := confluentFactory{}.New(inner)
	if err != nil {
		return nil, err
	}
	inner.Fields = images
	writer, err := confluentFactory{}.New(inner)
	if err != nil {
		return nil, err
	}
	loc := cfg.TimeZone
	if loc == nil {
		loc = time.UTC
	}
	c := &debeziumAvroCodec{
		env:       &envelope{name: "Debezium Avro", physical: physical, fields: cfg.Fields, meta: cfg.Metadata, loc: loc},
		reader:    reader,
		writer:    writer,
		fields:    fields,
		sourceRow: sourceRow,
	}
	for _, fd := range fields {
		c.scratch = append(c.scratch, types.NewVector(fd.Type, 1))
	}
	return c, nil
}

type debeziumAvroCodec struct {
	env            *envelope
	reader, writer Codec
	fields         types.Schema // the envelope's fields read
	sourceRow      types.Type
	scratch        []*types.Vector
}

// CanEncode implements ChangelogCodec: every option supports writing.
func (c *debeziumAvroCodec) CanEncode() error { return nil }

func (c *debeziumAvroCodec) EncodeChange(dst []byte, kind types.RowKind, row types.Row) ([]byte, error) {
	return c.writer.Encode(dst, debeziumImage(c.env.physical, kind, row))
}

func (c *debeziumAvroCodec) DecodeChanges(data []byte, cols []*types.Vector, kinds []types.RowKind) ([]types.RowKind, error) {
	if len(data) == 0 {
		return kinds, nil // a tombstone
	}
	for _, v := range c.scratch {
		v.Reset()
	}
	if err := c.reader.Decode(data, c.scratch); err != nil {
		return kinds, fmt.Errorf("Can't deserialize Debezium Avro message: %w", err)
	}
	n, nk := height(cols), len(kinds)
	kinds, err := c.changes(cols, kinds)
	if err != nil {
		truncate(cols, n)
		return kinds[:nk], fmt.Errorf("Can't deserialize Debezium Avro message: %w", err)
	}
	return kinds, nil
}

func (c *debeziumAvroCodec) changes(cols []*types.Vector, kinds []types.RowKind) ([]types.RowKind, error) {
	before, err := c.env.row(c.scratch[0].Get(0))
	if err != nil {
		return kinds, err
	}
	after, err := c.env.row(c.scratch[1].Get(0))
	if err != nil {
		return kinds, err
	}
	var source []types.Value
	if i := c.fields.Index("source"); i >= 0 {
		if v := c.scratch[i].Get(0); !v.Null {
			if source, err = types.DecodeRow(c.sourceRow, v.S); err != nil {
				return kinds, err
			}
		}
	}
	var metaErr error
	meta := func(key string) types.Value {
		var v types.Value
		var err error
		switch key {
		case "ingestion-timestamp":
			if ts := c.scratch[c.fields.Index("ts_ms")].Get(0); !ts.Null {
				v, err = millis(ts.I)
			} else {
				v = types.NullValue
			}
		case "source.properties":
			v = c.sourceProperties(source)
		default:
			v = types.NullValue
			if source != nil {
				v = source[debeziumSourceFields.Index(debeziumAvroSource[key])]
				if key == "source.timestamp" && !v.Null {
					v, err = millis(v.I)
				}
			}
		}
		metaErr = cmpErr(metaErr, err)
		return v
	}
	err = debeziumRows(c.scratch[2].Get(0), before, after, func(vals []types.Value, kind types.RowKind) error {
		metaErr = cmpErr(metaErr, c.env.appendRow(cols, vals, meta))
		kinds = append(kinds, kind)
		return metaErr
	})
	return kinds, err
}

// sourceProperties is the MAP<STRING, STRING> of every "source" field,
// NULL ones included, as Flink's SOURCE_PROPERTIES converter builds it
// (ts_ms as TimestampData.toString prints it: the UTC LocalDateTime).
func (c *debeziumAvroCodec) sourceProperties(source []types.Value) types.Value {
	if source == nil {
		return types.NullValue
	}
	keys := make([]types.Value, len(debeziumSourceFields))
	vals := make([]types.Value, len(debeziumSourceFields))
	for i, f := range debeziumSourceFields {
		keys[i] = types.StringValue(f.Name)
		vals[i] = source[i]
		if f.Name == "ts_ms" && !source[i].Null {
			vals[i] = types.StringValue(string(appendLocalDateTime(nil, source[i].I)))
		}
	}
	return types.EncodeMap(sourceMapType, keys, vals)
}

// appendLocalDateTime appends epoch milliseconds as java.time's
// LocalDateTime.toString prints the UTC time: seconds only when not zero,
// milliseconds when not zero.
func appendLocalDateTime(dst []byte, ms int64) []byte {
	secs, frac := floorDiv(ms, 1000)
	days, sod := floorDiv(secs, secondsPerDay)
	dst = appendDate(dst, days)
	dst = append(dst, 'T')
	dst = append2(dst, int(sod/3600))
	dst = append(dst, ':')
	dst = append2(dst, int(sod/60%60))
	if sod%60 == 0 && frac == 0 {
		return dst
	}
	dst = append(dst, ':')
	dst = append2(dst, int(sod%60))
	if frac != 0 {
		dst = append(dst, '.')
		dst = append(dst, strconv.FormatInt(1000+frac, 10)[1:]...)
	}
	return dst
}
