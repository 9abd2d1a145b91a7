package format

import (
	"fmt"

	"github.com/hamba/avro/v2"

	"github.com/sluicesql/sluice/internal/types"
)

// The 'avro' format: plain Avro binary, no header, written and read with the
// schema derived from the table (Flink's AvroFormatFactory with
// AvroRowDataSerializationSchema / AvroRowDataDeserializationSchema).

func init() { Register(avroFactory{}) }

type avroFactory struct{}

func (avroFactory) Name() string { return "avro" }

func (avroFactory) Options() []OptionSpec {
	return []OptionSpec{
		{Name: "encoding", Default: "binary", Description: "The Avro encoding: binary (json is not supported)."},
		{Name: "codec", Description: "The compression codec of Avro container files; filesystem only, ignored for Kafka."},
		{Name: "timestamp_mapping.legacy", Default: "true", Description: "Use the legacy mapping of TIMESTAMP to Avro timestamp-* (no TIMESTAMP_LTZ support)."},
	}
}

func (f avroFactory) New(cfg Config) (Codec, error) {
	o, err := checkOptions(f.Name(), f.Options(), cfg)
	if err != nil {
		return nil, err
	}
	if _, err := o.oneOf("encoding", true, "binary"); err != nil {
		return nil, err
	}
	legacy, err := o.boolean("timestamp_mapping.legacy")
	if err != nil {
		return nil, err
	}
	text, cols, err := deriveAvroSchema(cfg.Fields, legacy)
	if err != nil {
		return nil, err
	}
	schema, err := parseAvroSchema(text)
	if err != nil {
		return nil, err
	}
	top, err := resolveTop(schema, cfg.Fields, cols)
	if err != nil {
		return nil, err
	}
	return &avroCodec{enc: newDerivedEncoder(cfg.Fields, cols), top: top}, nil
}

// parseAvroSchema parses schema text on its own (named types do not leak
// between schemas).
func parseAvroSchema(text string) (avro.Schema, error) {
	return parseAvroSchemaWith(text, &avro.SchemaCache{})
}

func parseAvroSchemaWith(text string, cache *avro.SchemaCache) (avro.Schema, error) {
	s, err := avro.ParseWithCache(text, "", cache)
	if err != nil {
		return nil, fmt.Errorf("invalid Avro schema: %w", err)
	}
	return s, nil
}

// decodeAvroBody decodes an Avro body with top straight into cols; a bad
// record leaves cols as they were. The top-level string values are made
// from one string for the whole record, whose text arena collects.
func decodeAvroBody(top *avroTopLevel, body []byte, cols []*types.Vector, arena *stringArena) error {
	n := height(cols)
	arena.buf, arena.refs = arena.buf[:0], arena.refs[:0]
	r := avroReader{b: body, arena: arena}
	if err := top.decode(&r, cols); err != nil {
		truncate(cols, n)
		return fmt.Errorf("invalid Avro record: %w", err)
	}
	if len(arena.refs) > 0 {
		all := string(arena.buf)
		for _, ref := range arena.refs {
			// The column's last value is the record's placeholder (a union
			// reads one branch, so each column has one value per record).
			col := cols[ref.field]
			col.Str[len(col.Str)-1] = all[ref.start:ref.end]
		}
	}
	return nil
}

type avroCodec struct {
	enc   *avroRowEncoder
	top   *avroTopLevel
	arena stringArena
}

func (c *avroCodec) Decode(data []byte, cols []*types.Vector) error {
	if data == nil {
		return ErrNoRow
	}
	return decodeAvroBody(c.top, data, cols, &c.arena)
}

func (c *avroCodec) Encode(dst []byte, row types.Row) ([]byte, error) {
	if dst == nil {
		dst = make([]byte, 0, 64) // a record without fields is empty, not a Kafka null
	}
	return c.enc.appendRecord(dst, row)
}
