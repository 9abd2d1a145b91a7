package format

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/sluicesql/sluice/internal/types"
)

// The 'debezium-json' format, after Flink's DebeziumJsonFormatFactory,
// DebeziumJsonDecodingFormat, DebeziumJsonDeserializationSchema and
// DebeziumJsonSerializationSchema.
//
// A message is a Debezium envelope {"before":{...},"after":{...},"op":"u",
// "source":{...},"ts_ms":...}, wrapped in {"schema":...,"payload":{...}}
// when 'schema-include' is set. Its rows are read with the 'json' format's
// conversions: "c" (create) and "r" (snapshot read) give +I of after, "u"
// gives -U of before then +U of after, "d" gives -D of before; a null or
// empty message (a tombstone) gives nothing. An update or delete whose
// before is null is an error (a Postgres table without REPLICA IDENTITY
// FULL). Written, +I and +U become {"before":null,"after":{...},"op":"c"}
// and -U and -D {"before":{...},"after":null,"op":"d"}, as Flink writes
// them.

func init() { Register(debeziumFactory{}) }

type debeziumFactory struct{}

const debeziumName = "debezium-json"

func (debeziumFactory) Name() string { return debeziumName }

func (debeziumFactory) Options() []OptionSpec {
	return append([]OptionSpec{
		{Name: "schema-include", Default: "false", Description: "Messages carry Kafka Connect's schema: the envelope is under \"payload\"."},
	}, jsonEnvelopeOptions()...)
}

// Metadata implements ChangelogFactory (DebeziumJsonDecodingFormat's
// ReadableMetadata).
func (debeziumFactory) Metadata() []MetadataSpec {
	ltz := types.Type{Kind: types.TimestampLTZ, Precision: 3}
	return []MetadataSpec{
		{Key: "schema", Type: types.StringType},
		{Key: "ingestion-timestamp", Type: ltz},
		{Key: "source.timestamp", Type: ltz},
		{Key: "source.database", Type: types.StringType},
		{Key: "source.schema", Type: types.StringType},
		{Key: "source.table", Type: types.StringType},
		{Key: "source.properties", Type: sourceMapType},
	}
}

// sourceMapType is how the "source" block is read: MAP<STRING, STRING>.
var sourceMapType = types.MapOf(types.StringType, types.StringType)

func (f debeziumFactory) New(Config) (Codec, error) { return nil, refuseKeySide(f.Name()) }

func (f debeziumFactory) NewChangelog(cfg Config) (ChangelogCodec, error) {
	var meta []string
	for _, m := range cfg.Metadata {
		meta = append(meta, m.Key)
	}
	rowT := types.RowOf(cfg.Fields)
	payload := types.Schema{{Name: "before", Type: rowT}, {Name: "after", Type: rowT}, {Name: "op", Type: types.StringType}}
	if slices.Contains(meta, "ingestion-timestamp") {
		payload = append(payload, types.Field{Name: "ts_ms", Type: types.BigIntType})
	}
	for _, k := range meta {
		if k != "schema" && k != "ingestion-timestamp" {
			payload = append(payload, types.Field{Name: "source", Type: sourceMapType})
			break
		}
	}
	schemaInclude := cfg.Options["schema-include"]
	root := payload
	if b, _ := strconv.ParseBool(schemaInclude); b {
		root = types.Schema{{Name: "payload", Type: types.RowOf(payload)}}
	}
	if slices.Contains(meta, "schema") {
		root = append(root, types.Field{Name: "schema", Type: types.StringType})
	}
	e, o, err := newEnvelope(f.Name(), "Debezium", f.Options(), cfg, f.Metadata(), root)
	if err != nil {
		return nil, err
	}
	c := &debeziumCodec{envelope: e, payload: payload, root: root}
	if c.schemaInclude, err = o.boolean("schema-include"); err != nil {
		return nil, err
	}
	return c, nil
}

type debeziumCodec struct {
	*envelope
	schemaInclude bool
	payload, root types.Schema
	// writer writes {"before":...,"after":...,"op":...}, made on first use.
	writer *jsonCodec
}

// Debezium's operations.
const (
	opCreate = "c"
	opRead   = "r"
	opUpdate = "u"
	opDelete = "d"
)

// replicaIdentity is Flink's message for an update or delete without its
// before image.
const replicaIdentity = "The \"before\" field of %s message is null, if you are using Debezium Postgres Connector, please check the Postgres table has been set REPLICA IDENTITY to FULL level."

func (c *debeziumCodec) DecodeChanges(data []byte, cols []*types.Vector, kinds []types.RowKind) ([]types.RowKind, error) {
	ok, err := c.decode(data)
	if !ok || err != nil {
		return kinds, err
	}
	n, nk := height(cols), len(kinds)
	kinds, err = c.changes(data, cols, kinds)
	if err != nil {
		truncate(cols, n)
		kinds = kinds[:nk]
		if c.ignoreErrors {
			return kinds, nil
		}
		return kinds, c.corrupt(data, err)
	}
	return kinds, nil
}

func (c *debeziumCodec) changes(data []byte, cols []*types.Vector, kinds []types.RowKind) ([]types.RowKind, error) {
	rootVals := make([]types.Value, len(c.root))
	for i := range c.root {
		rootVals[i] = c.field(i)
	}
	payload := rootVals
	if c.schemaInclude {
		if rootVals[0].Null {
			return kinds, fmt.Errorf("the \"payload\" field is null")
		}
		var err error
		if payload, err = types.DecodeRow(types.RowOf(c.payload), rootVals[0].S); err != nil {
			return kinds, err
		}
	}
	get := func(s types.Schema, vals []types.Value, name string) types.Value {
		return vals[s.Index(name)]
	}
	before, err := c.row(payload[0])
	if err != nil {
		return kinds, err
	}
	after, err := c.row(payload[1])
	if err != nil {
		return kinds, err
	}
	var metaErr error
	meta := func(key string) types.Value {
		switch key {
		case "schema":
			return get(c.root, rootVals, "schema")
		case "ingestion-timestamp":
			ts := get(c.payload, payload, "ts_ms")
			if ts.Null {
				return ts
			}
			v, err := millis(ts.I)
			metaErr = cmpErr(metaErr, err)
			return v
		case "source.properties":
			return get(c.payload, payload, "source")
		}
		src := get(c.payload, payload, "source")
		v, err := mapEntry(sourceMapType, src, map[string]string{
			"source.timestamp": "ts_ms", "source.database": "db", "source.schema": "schema", "source.table": "table"}[key])
		if err != nil || v.Null || key != "source.timestamp" {
			metaErr = cmpErr(metaErr, err)
			return v
		}
		ms, err := strconv.ParseInt(v.S, 10, 64)
		if err != nil {
			metaErr = cmpErr(metaErr, fmt.Errorf("source.ts_ms '%s' is not a number", v.S))
			return types.NullValue
		}
		ts, err := millis(ms)
		metaErr = cmpErr(metaErr, err)
		return ts
	}
	err = debeziumRows(payload[2], before, after, func(vals []types.Value, kind types.RowKind) error {
		metaErr = cmpErr(metaErr, c.appendRow(cols, vals, meta))
		kinds = append(kinds, kind)
		return metaErr
	})
	return kinds, err
}

// debeziumRows emits the rows of a Debezium change of operation op: "c"
// (create) and "r" (snapshot read) +I of after, "u" -U of before then +U
// of after, "d" -D of before. A missing image is an error.
func debeziumRows(op types.Value, before, after []types.Value, emit func(vals []types.Value, kind types.RowKind) error) error {
	one := func(vals []types.Value, kind types.RowKind, what string) error {
		if vals == nil {
			return fmt.Errorf("the \"%s\" field is null", what)
		}
		return emit(vals, kind)
	}
	if op.Null {
		return fmt.Errorf("the \"op\" field is null")
	}
	switch op.S {
	case opCreate, opRead:
		return one(after, types.Insert, "after")
	case opUpdate:
		if before == nil {
			return fmt.Errorf(replicaIdentity, "UPDATE")
		}
		if err := one(before, types.UpdateBefore, "before"); err != nil {
			return err
		}
		return one(after, types.UpdateAfter, "after")
	case opDelete:
		if before == nil {
			return fmt.Errorf(replicaIdentity, "DELETE")
		}
		return one(before, types.Delete, "before")
	}
	return fmt.Errorf("unknown \"op\" value \"%s\"", op.S)
}

// debeziumImage is the envelope of one change as Flink writes it: +I and
// +U as {before: NULL, after: row, op: "c"}, -U and -D as {before: row,
// after: NULL, op: "d"}.
func debeziumImage(physical types.Type, kind types.RowKind, row types.Row) types.Row {
	image := types.EncodeRow(physical, row)
	if kind.IsAccumulate() {
		return types.Row{types.NullValue, image, types.StringValue(opCreate)}
	}
	return types.Row{image, types.NullValue, types.StringValue(opDelete)}
}

// cmpErr keeps the first error.
func cmpErr(first, next error) error {
	if first != nil {
		return first
	}
	return next
}

// CanEncode implements ChangelogCodec: Flink writes no schema.
func (c *debeziumCodec) CanEncode() error {
	if c.schemaInclude {
		return fmt.Errorf("Debezium JSON serialization doesn't support '%s.schema-include' option been set to true.", debeziumName)
	}
	return nil
}

func (c *debeziumCodec) EncodeChange(dst []byte, kind types.RowKind, row types.Row) ([]byte, error) {
	if c.writer == nil {
		w, err := writerFor(c.inner, types.Schema{{Name: "before", Type: c.physical}, {Name: "after", Type: c.physical}, {Name: "op", Type: types.StringType}})
		if err != nil {
			return dst, err
		}
		c.writer = w
	}
	return c.writer.Encode(dst, debeziumImage(c.physical, kind, row))
}

// writerFor returns a 'json' codec over fields with the settings of base.
func writerFor(base *jsonCodec, fields types.Schema) (*jsonCodec, error) {
	w, err := jsonFactory{}.New(Config{Fields: fields})
	if err != nil {
		return nil, err
	}
	jc := w.(*jsonCodec)
	jc.plainDecimals, jc.iso = base.plainDecimals, base.iso
	jc.mapNullKey, jc.mapNullLiteral = base.mapNullKey, base.mapNullLiteral
	return jc, nil
}
