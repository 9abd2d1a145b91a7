package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// Changelog formats ('debezium-json', 'debezium-avro-confluent',
// 'canal-json', 'maxwell-json') carry changes rather than rows: a message
// holds any number of rows, each with its kind (+I, -U, +U, -D), and a row
// is written with its kind. They cover a record value only; as a key
// format they are refused, as Flink refuses a key format that is not
// insert-only.

// MetadataSpec is one metadata key a changelog format reads.
type MetadataSpec struct {
	// Key is the format's own key ('source.timestamp'); the Kafka connector
	// exposes it as 'value.' + Key.
	Key string
	// Type is the key's type as Flink declares it.
	Type types.Type
}

// ChangelogCodec decodes messages into changes and encodes changes into
// messages. It is not safe for concurrent use; create one per task.
type ChangelogCodec interface {
	// DecodeChanges appends the rows of one message to cols (one vector per
	// field of Config.Fields, then one per key of Config.Metadata) and
	// their kinds to kinds, and returns the extended kinds. A message that
	// yields no row (a tombstone, a DDL event, a bad message skipped by
	// 'ignore-parse-errors') appends nothing. On error nothing is appended.
	DecodeChanges(data []byte, cols []*types.Vector, kinds []types.RowKind) ([]types.RowKind, error)
	// EncodeChange appends the message for row (fields in Config.Fields
	// order) of the given kind to dst.
	EncodeChange(dst []byte, kind types.RowKind, row types.Row) ([]byte, error)
	// CanEncode tells why the codec cannot write, if it cannot (an option
	// Flink supports for reading only).
	CanEncode() error
}

// ChangelogFactory is implemented by the factories of changelog formats.
// Their New refuses to build a plain Codec.
type ChangelogFactory interface {
	Factory
	// Metadata lists the metadata keys the format reads, in Flink's order.
	Metadata() []MetadataSpec
	// NewChangelog validates cfg and returns a codec for it. cfg.Metadata
	// names the metadata the decoder appends after the fields.
	NewChangelog(cfg Config) (ChangelogCodec, error)
}

// MetadataColumn asks a changelog decoder for one metadata key, as a value
// of Type: the key's own type, or TIMESTAMP(p) for a TIMESTAMP_LTZ key
// (the instant's wall-clock time in Config.TimeZone).
type MetadataColumn struct {
	Key  string
	Type types.Type
}

// IsChangelog reports whether the named format is a changelog format.
func IsChangelog(name string) bool {
	f, ok := factories[name]
	if !ok {
		return false
	}
	_, ok = f.(ChangelogFactory)
	return ok
}

// NewChangelog looks up the named changelog format and builds a codec.
func NewChangelog(name string, cfg Config) (ChangelogCodec, error) {
	f, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	cf, ok := f.(ChangelogFactory)
	if !ok {
		return nil, fmt.Errorf("format '%s' is not a changelog format", name)
	}
	if err := checkKinds(name, cfg.Fields); err != nil {
		return nil, err
	}
	return cf.NewChangelog(cfg)
}

// CheckMetadataType checks that a column of type t can hold metadata key
// spec: the key's own type (nullability aside), or, for a TIMESTAMP_LTZ
// key, TIMESTAMP or TIMESTAMP_LTZ of a precision that keeps its
// milliseconds.
func CheckMetadataType(spec MetadataSpec, t types.Type) bool {
	want := spec.Type
	if want.Kind == types.TimestampLTZ {
		return (t.Kind == types.TimestampLTZ || t.Kind == types.Timestamp) && t.Precision >= want.Precision
	}
	return t.Plain().Nullable() == want.Plain().Nullable()
}

// refuseKeySide is the error of a changelog format's New: such a format
// covers record values only.
func refuseKeySide(name string) error {
	return fmt.Errorf("format '%s' produces a changelog; a key format must be insert-only, and '%s' can only be the value format", name, name)
}

// jsonEnvelopeOptions are the options the JSON changelog formats share
// with 'json' (Flink's JsonFormatOptions), passed to the inner 'json'
// codec that reads and writes the envelope.
func jsonEnvelopeOptions() []OptionSpec {
	return []OptionSpec{
		{Name: "ignore-parse-errors", Default: "false", Description: "Skip messages that cannot be parsed, and set fields with conversion errors to NULL."},
		{Name: "timestamp-format.standard", Default: "SQL", Description: "Timestamp text: SQL or ISO-8601."},
		{Name: "map-null-key.mode", Default: "FAIL", Description: "How to encode NULL map keys: FAIL, DROP or LITERAL."},
		{Name: "map-null-key.literal", Default: "null", Description: "The key text for NULL map keys in LITERAL mode."},
		{Name: "encode.decimal-as-plain-number", Default: "false", Description: "Write decimals without scientific notation."},
	}
}

// envelope is the part every JSON changelog codec shares: the inner 'json'
// codec over the envelope's fields, scratch vectors for one decoded
// envelope, and the metadata asked for.
type envelope struct {
	name         string // 'Debezium', 'Canal', 'Maxwell': for messages
	inner        *jsonCodec
	scratch      []*types.Vector
	physical     types.Type // ROW of the physical fields
	fields       types.Schema
	meta         []MetadataColumn
	loc          *time.Location
	ignoreErrors bool
}

// newEnvelope validates cfg against specs (the shared options plus extra)
// and builds the inner 'json' codec over envFields.
func newEnvelope(name, display string, specs []OptionSpec, cfg Config, known []MetadataSpec, envFields types.Schema) (*envelope, *options, error) {
	if cfg.IsKey {
		return nil, nil, refuseKeySide(name)
	}
	o, err := checkOptions(name, specs, cfg)
	if err != nil {
		return nil, nil, err
	}
	jsonOpts := map[string]string{}
	for _, s := range jsonEnvelopeOptions() {
		if v, ok := cfg.Options[s.Name]; ok {
			jsonOpts[s.Name] = v
		}
	}
	prefix := cfg.OptionPrefix
	if prefix == "" {
		prefix = name + "."
	}
	if err := checkMetadata(name, known, cfg.Metadata); err != nil {
		return nil, nil, err
	}
	inner, err := jsonFactory{}.New(Config{Fields: envFields, Options: jsonOpts, OptionPrefix: prefix})
	if err != nil {
		return nil, nil, err
	}
	e := &envelope{name: display, inner: inner.(*jsonCodec), fields: cfg.Fields, meta: cfg.Metadata, loc: cfg.TimeZone}
	if e.loc == nil {
		e.loc = time.UTC
	}
	e.ignoreErrors = e.inner.ignoreErrors
	e.physical = types.RowOf(cfg.Fields)
	for _, f := range envFields {
		e.scratch = append(e.scratch, types.NewVector(f.Type, 1))
	}
	return e, o, nil
}

// checkMetadata checks the metadata asked of format name against the keys
// it knows.
func checkMetadata(name string, known []MetadataSpec, meta []MetadataColumn) error {
	for _, m := range meta {
		i := slices.IndexFunc(known, func(s MetadataSpec) bool { return s.Key == m.Key })
		if i < 0 {
			return fmt.Errorf("format '%s' has no metadata key '%s'", name, m.Key)
		}
		if !CheckMetadataType(known[i], m.Type) {
			return fmt.Errorf("metadata key '%s' of format '%s' is of type %s and cannot be read as %s", m.Key, name, known[i].Type, m.Type)
		}
	}
	return nil
}

// decode parses one envelope into the scratch vectors. It returns false
// for a message that yields nothing (a tombstone, or a bad message when
// errors are ignored).
func (e *envelope) decode(data []byte) (bool, error) {
	for _, v := range e.scratch {
		v.Reset()
	}
	if len(data) == 0 {
		return false, nil // a tombstone
	}
	if err := e.inner.Decode(data, e.scratch); err != nil {
		if err == ErrNoRow {
			return false, nil
		}
		return false, e.corrupt(data, err)
	}
	return true, nil
}

// corrupt is Flink's error for a message that cannot be read.
func (e *envelope) corrupt(data []byte, cause error) error {
	return fmt.Errorf("Corrupt %s JSON message '%s': %w", e.name, data, cause)
}

// field returns envelope field i of the decoded message.
func (e *envelope) field(i int) types.Value { return e.scratch[i].Get(0) }

// row decodes a ROW value of the physical fields; NULL gives nil.
func (e *envelope) row(v types.Value) ([]types.Value, error) {
	if v.Null {
		return nil, nil
	}
	return types.DecodeRow(e.physical, v.S)
}

// appendRow appends one change: the physical values, then the metadata
// values meta gives (by key). A timestamp the metadata column's type
// cannot hold is an error.
func (e *envelope) appendRow(cols []*types.Vector, vals []types.Value, meta func(key string) types.Value) error {
	for i, v := range vals {
		cols[i].Append(v)
	}
	var err error
	for j, m := range e.meta {
		v := meta(m.Key)
		if !v.Null && m.Type.IsTimestamp() {
			// v is a TIMESTAMP_LTZ(3); a TIMESTAMP column takes its wall
			// clock in the zone, at the column's precision.
			t := types.TimestampTime(3, v)
			if m.Type.Kind == types.Timestamp {
				_, off := t.In(e.loc).Zone()
				t = t.Add(time.Duration(off) * time.Second)
			}
			var ok bool
			if v, ok = types.TimestampOf(m.Type.Precision, t); !ok {
				err = cmpErr(err, &types.RangeError{What: "metadata '" + m.Key + "' " + types.LiteralText(types.TimestampLTZType(3), meta(m.Key), time.UTC) + " as " + m.Type.Plain().Nullable().String()})
				v = types.NullValue
			}
		}
		cols[len(vals)+j].Append(v)
	}
	return err
}

// millis is a TIMESTAMP_LTZ(3) value of epoch milliseconds; a value out of
// the range held is an error, never a wrapped instant.
func millis(ms int64) (types.Value, error) {
	us, ok := types.MultiplyExact(ms, 1000)
	if !ok || !types.TimestampInRange(us) {
		return types.NullValue, fmt.Errorf("timestamp of %d ms since the epoch is out of the supported range", ms)
	}
	return types.Value{I: us}, nil
}

// mapEntry returns the value of key in a MAP<STRING, STRING> value (NULL
// when the map is NULL or lacks the key).
func mapEntry(t types.Type, m types.Value, key string) (types.Value, error) {
	if m.Null {
		return types.NullValue, nil
	}
	keys, vals, err := types.DecodeMap(t, m.S)
	if err != nil {
		return types.NullValue, err
	}
	for i, k := range keys {
		if !k.Null && k.S == key {
			return vals[i], nil
		}
	}
	return types.NullValue, nil
}

// jsonHasMember reports whether a member named name appears anywhere in
// the JSON text raw, at any depth: Jackson's JsonNode.findValue, which
// Flink's Canal and Maxwell readers use to tell fields absent from "old"
// (unchanged) from fields present with NULL.
func jsonHasMember(raw string, name string) bool {
	d := json.NewDecoder(strings.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return false
	}
	var find func(v any) bool
	find = func(v any) bool {
		switch x := v.(type) {
		case map[string]any:
			if _, ok := x[name]; ok {
				return true
			}
			for _, c := range x {
				if find(c) {
					return true
				}
			}
		case []any:
			for _, c := range x {
				if find(c) {
					return true
				}
			}
		}
		return false
	}
	return find(v)
}

// rawElements splits the text of a JSON array into its elements' texts.
func rawElements(raw string) ([]string, error) {
	var els []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &els); err != nil {
		return nil, err
	}
	out := make([]string, len(els))
	for i, e := range els {
		out[i] = string(bytes.TrimSpace(e))
	}
	return out, nil
}
