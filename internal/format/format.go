// Package format turns Kafka record keys and values into rows and back,
// following Flink's table formats ('raw', 'json', 'csv', 'avro',
// 'avro-confluent' and the changelog formats).
//
// A table side (key or value) picks its format with the 'format',
// 'key.format' or 'value.format' option. The connector hands the options of
// that format to the Factory with the side prefix and the format name
// stripped: 'value.avro-confluent.url' arrives as "url" and
// 'json.fail-on-missing-field' as "fail-on-missing-field" (see Extract).
// Config.OptionPrefix keeps the stripped prefix so that errors name options
// the way the user wrote them.
package format

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// ErrNoRow is returned by Decode when Flink's deserializer produces no row
// for the message: a null (tombstone) message for 'json', 'avro' and
// 'avro-confluent', or a message that cannot be parsed when
// 'json.ignore-parse-errors' is set. Nothing is appended to the columns.
// On the value side the record is dropped; on the key side the key fields
// are NULL.
var ErrNoRow = errors.New("format: message yields no row")

// Decoder turns one serialized key or value into one row.
type Decoder interface {
	// Decode appends one row's fields to cols, one vector per field in
	// Config.Fields order. A nil vector marks a field the reader does not
	// use (a column projected away): its value is not converted nor
	// stored, though the message is still checked as a whole (the 'json',
	// 'avro', 'avro-confluent' and 'raw' formats; the changelog formats
	// need every vector). data is nil for a Kafka null. On error,
	// including ErrNoRow, nothing is appended. The error says why the
	// message is bad; the caller adds topic, partition and offset.
	Decode(data []byte, cols []*types.Vector) error
}

// RowsDecoder is a Decoder whose messages may hold several rows: the
// 'json' format reads a top-level array as one row per element.
type RowsDecoder interface {
	// DecodeRows appends the rows of one message to cols, as Decode does
	// one row, and returns how many it appended. ErrNoRow means none. On
	// another error the rows of earlier elements may have been appended:
	// the caller fails on it.
	DecodeRows(data []byte, cols []*types.Vector) (int, error)
}

// Encoder turns one row into a serialized key or value.
type Encoder interface {
	// Encode appends the encoding of row (fields in Config.Fields order) to
	// dst and returns the extended slice. A nil result with a nil error
	// stands for a Kafka null (the 'raw' format encodes a NULL field so).
	Encode(dst []byte, row types.Row) ([]byte, error)
}

// Codec decodes and encodes one table side. A Codec is not safe for
// concurrent use; create one per task.
type Codec interface {
	Decoder
	Encoder
}

// Config is what a Factory needs to build a Codec.
type Config struct {
	// Fields are the columns the format covers, in the order of the vectors
	// passed to Decode and of the values passed to Encode.
	Fields types.Schema
	// Options are the format's options without the side prefix and the
	// format name: "url", "fail-on-missing-field", "properties.x".
	Options map[string]string
	// OptionPrefix is what was stripped from the option keys, e.g.
	// "value.avro-confluent.". It is only used in error messages; when empty,
	// "<format name>." is assumed.
	OptionPrefix string
	// Topic is the Kafka topic, used for default registry subjects.
	Topic string
	// IsKey tells whether the format covers the record key.
	IsKey bool
	// Metadata is the metadata a changelog format's decoder appends after
	// the fields, in order (nil for other formats).
	Metadata []MetadataColumn
	// TimeZone is the session time zone. The formats here write and read
	// TIMESTAMP_LTZ in UTC, as Flink's do, so it is currently unused by them.
	TimeZone *time.Location
}

// OptionSpec describes one option of a format.
type OptionSpec struct {
	// Name is the key relative to the format, e.g. "url". For a map option
	// (IsMap) it is the key prefix: "properties" covers "properties.*".
	Name        string
	Required    bool
	Default     string
	Description string
	IsMap       bool
	// Fallback lists deprecated keys accepted in place of Name.
	Fallback []string
}

// Factory builds codecs of one format.
type Factory interface {
	// Name is the format identifier used in 'format' options.
	Name() string
	// Options lists the options the format accepts.
	Options() []OptionSpec
	// New validates cfg and returns a codec for it.
	New(cfg Config) (Codec, error)
}

var factories = map[string]Factory{}

// Register makes f available through Lookup. It panics if a format with the
// same name is already registered.
func Register(f Factory) {
	if _, dup := factories[f.Name()]; dup {
		panic("format: duplicate format " + f.Name())
	}
	factories[f.Name()] = f
}

// Names returns the registered format names, sorted.
func Names() []string {
	names := make([]string, 0, len(factories))
	for n := range factories {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the factory of the named format.
func Lookup(name string) (Factory, error) {
	if f, ok := factories[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("unknown format '%s'; available formats: %s", name, strings.Join(Names(), ", "))
}

// New looks up the named format and builds a codec for cfg.
func New(name string, cfg Config) (Codec, error) {
	f, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if err := checkKinds(name, cfg.Fields); err != nil {
		return nil, err
	}
	return f.New(cfg)
}

// checkKinds refuses VARIANT and structured columns, which no format
// reads or writes yet.
func checkKinds(name string, fields types.Schema) error {
	for _, f := range fields {
		for _, k := range []types.Kind{types.Variant, types.Structured} {
			if f.Type.Contains(func(t types.Type) bool { return t.Kind == k }) {
				what := map[types.Kind]string{types.Variant: "VARIANT", types.Structured: "STRUCTURED"}[k]
				return fmt.Errorf("the %s format does not support the %s type yet (column '%s' of type %s)", name, what, f.Name, f.Type.Plain())
			}
		}
	}
	return nil
}

// Extract returns the options of format name for one table side: the keys of
// all that start with sidePrefix+name+"." ("value." + "avro-confluent."),
// with that prefix stripped. sidePrefix is "" for the 'format' option,
// "key." or "value." for 'key.format' and 'value.format'.
func Extract(all map[string]string, sidePrefix, name string) map[string]string {
	p := sidePrefix + name + "."
	out := map[string]string{}
	for k, v := range all {
		if rest, ok := strings.CutPrefix(k, p); ok {
			out[rest] = v
		}
	}
	return out
}

// height returns the number of values in the columns (0 without columns
// or when all are nil).
func height(cols []*types.Vector) int {
	for _, c := range cols {
		if c != nil {
			return c.Len()
		}
	}
	return 0
}

// truncate cuts every column back to n values: decoders append straight
// into the columns and undo a partly decoded row with it.
func truncate(cols []*types.Vector, n int) {
	for _, c := range cols {
		if c == nil {
			continue
		}
		c.Nulls = c.Nulls[:min(n, len(c.Nulls))]
		c.I64 = c.I64[:min(n, len(c.I64))]
		c.F64 = c.F64[:min(n, len(c.F64))]
		c.Str = c.Str[:min(n, len(c.Str))]
	}
}

// options gives typed, validated access to a Config's options.
type options struct {
	format string
	prefix string
	specs  []OptionSpec
	vals   map[string]string
}

// checkOptions validates cfg.Options against specs: every key must be a
// known option (or fallback key, or lie under a map option) and every
// required option must be set.
func checkOptions(format string, specs []OptionSpec, cfg Config) (*options, error) {
	o := &options{format: format, prefix: cfg.OptionPrefix, specs: specs, vals: cfg.Options}
	if o.prefix == "" {
		o.prefix = format + "."
	}
	keys := make([]string, 0, len(cfg.Options))
	for k := range cfg.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if o.spec(k) == nil {
			return nil, fmt.Errorf("unsupported option '%s%s' for format '%s'; supported options: %s",
				o.prefix, k, format, o.supported())
		}
	}
	for _, s := range specs {
		if s.Required {
			if _, ok := o.lookup(s.Name); !ok {
				return nil, fmt.Errorf("missing required option '%s%s' for format '%s'", o.prefix, s.Name, format)
			}
		}
	}
	return o, nil
}

// spec returns the spec that covers key, or nil.
func (o *options) spec(key string) *OptionSpec {
	for i := range o.specs {
		s := &o.specs[i]
		if s.IsMap {
			if strings.HasPrefix(key, s.Name+".") && len(key) > len(s.Name)+1 {
				return s
			}
			continue
		}
		if key == s.Name || slices.Contains(s.Fallback, key) {
			return s
		}
	}
	return nil
}

func (o *options) supported() string {
	names := make([]string, len(o.specs))
	for i, s := range o.specs {
		names[i] = o.prefix + s.Name
		if s.IsMap {
			names[i] += ".*"
		}
	}
	return strings.Join(names, ", ")
}

// lookup returns the value of the named option, trying its fallback keys.
func (o *options) lookup(name string) (string, bool) {
	if v, ok := o.vals[name]; ok {
		return v, true
	}
	for _, s := range o.specs {
		if s.Name != name {
			continue
		}
		for _, fb := range s.Fallback {
			if v, ok := o.vals[fb]; ok {
				return v, true
			}
		}
	}
	return "", false
}

// str returns the option's value or its default.
func (o *options) str(name string) string {
	if v, ok := o.lookup(name); ok {
		return v
	}
	for _, s := range o.specs {
		if s.Name == name {
			return s.Default
		}
	}
	return ""
}

// boolean parses a boolean option the way Flink's configuration does:
// "true" or "false", ignoring case.
func (o *options) boolean(name string) (bool, error) {
	v := o.str(name)
	switch strings.ToLower(v) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("invalid value '%s' for option '%s%s': expected true or false", v, o.prefix, name)
}

// mapOption returns the entries under a map option, keys without the prefix.
func (o *options) mapOption(name string) map[string]string {
	out := map[string]string{}
	for k, v := range o.vals {
		if rest, ok := strings.CutPrefix(k, name+"."); ok {
			out[rest] = v
		}
	}
	return out
}

// oneOf checks that the option's value is one of allowed.
func (o *options) oneOf(name string, fold bool, allowed ...string) (string, error) {
	v := o.str(name)
	for _, a := range allowed {
		if v == a || fold && strings.EqualFold(v, a) {
			return a, nil
		}
	}
	return "", fmt.Errorf("invalid value '%s' for option '%s%s'; supported values: %s",
		v, o.prefix, name, strings.Join(allowed, ", "))
}
