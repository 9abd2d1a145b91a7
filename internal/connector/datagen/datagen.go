// Package datagen implements the 'datagen' table connector after Flink's
// DataGen SQL connector: a source of generated rows, random or sequential
// per field, at 'rows-per-second'.
//
// Options, per physical column # (validated as Flink does, with its
// messages; options a field's generator does not use are unsupported):
//
//   - 'rows-per-second' (10000): the rate of the whole source, shared
//     evenly by its instances and enforced with a token bucket.
//   - 'number-of-rows': the number of rows; the source is unbounded
//     without it, unless a field is a sequence.
//   - 'fields.#.kind': 'random' (the default) or 'sequence'.
//   - 'fields.#.min', 'fields.#.max': the range of a random number
//     (numeric and interval types; both ends included).
//   - 'fields.#.max-past': how far before now a random TIMESTAMP or
//     TIMESTAMP_LTZ may be (0: now).
//   - 'fields.#.length': the length of a random VARCHAR or VARBINARY (at
//     most the declared length; 100 for STRING and BYTES). A random
//     string is lowercase hexadecimal digits. The random strings and
//     binary strings of a row may take 1 MB together (maxRowBytes).
//   - 'fields.#.start', 'fields.#.end': the inclusive range of a sequence
//     field; a source with a sequence ends when its shortest sequence does.
//   - 'fields.#.null-rate': the fraction of NULLs of a random field (not
//     BINARY or VARBINARY).
//
// DATE and TIME fields are today and now (in the session time zone).
//
// Instance i of n produces rows i, i+n, i+2n, ... of the source, as
// Flink's generators split sequences and 'number-of-rows' across subtasks:
// a sequence field of instance i takes the values start+i, start+i+n, ...
// Computed columns come from SourceSpec.Complete; the watermark of an
// instance follows its rows (one partition per instance) and is emitted
// every pipeline.auto-watermark-interval.
package datagen

import (
	"fmt"
	"strings"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

const (
	name = "datagen"

	optRowsPerSecond = "rows-per-second"
	optNumberOfRows  = "number-of-rows"

	// Per-field option suffixes: the key is "fields.<column>.<suffix>".
	optKind     = "kind"
	optMin      = "min"
	optMax      = "max"
	optMaxPast  = "max-past"
	optLength   = "length"
	optStart    = "start"
	optEnd      = "end"
	optNullRate = "null-rate"

	kindRandom   = "random"
	kindSequence = "sequence"

	defaultRowsPerSecond = 10000
	// defaultLength is the length of a random STRING or BYTES.
	defaultLength = 100

	// maxRowBytes bounds the random strings and binary strings of one row,
	// together: a source instance generates up to types.ChunkSize rows at
	// a time and every stage buffers 64 chunks per instance, so a row's
	// size is multiplied many thousand times in flight. Flink's generator
	// would build a 2,000,000,000-character string for each row; Sluice
	// refuses what it could not hold, at CREATE TABLE.
	maxRowBytes = 1 << 20
	// chunkBytes is what a chunk's random strings may take: rows are
	// generated in chunks of fewer rows when theirs are long, so that
	// what a channel buffers stays near 64 × 1 MB.
	chunkBytes = 1 << 20
	// otherBytes counts what a field other than a random string or
	// binary string adds to a row.
	otherBytes = 8
)

var options = []connector.OptionSpec{
	{Key: optRowsPerSecond, Default: "10000", Description: "Rows per second to control the emit rate."},
	{Key: optNumberOfRows, Description: "Total number of rows to emit. By default, the table is unbounded."},
	{Key: "fields.#." + optKind, Prefix: true, Default: kindRandom, Description: "Generator of this '#' field. Can be 'sequence' or 'random'."},
	{Key: "fields.#." + optMin, Prefix: true, Description: "Minimum value of random generator, work for numeric types."},
	{Key: "fields.#." + optMax, Prefix: true, Description: "Maximum value of random generator, work for numeric types."},
	{Key: "fields.#." + optMaxPast, Prefix: true, Default: "0", Description: "Maximum past of timestamp random generator, only works for timestamp types."},
	{Key: "fields.#." + optLength, Prefix: true, Default: "100", Description: "Size or length of the collection for generating char/varchar/string/bytes types."},
	{Key: "fields.#." + optStart, Prefix: true, Description: "Start value of sequence generator."},
	{Key: "fields.#." + optEnd, Prefix: true, Description: "End value of sequence generator."},
	{Key: "fields.#." + optNullRate, Prefix: true, Default: "0", Description: "The proportion of null values."},
}

func init() { connector.Register(factory{}) }

// factory is the connector.Factory of 'datagen'.
type factory struct{}

// Name implements connector.Factory.
func (factory) Name() string { return name }

// Options implements connector.Factory.
func (factory) Options() []connector.OptionSpec { return options }

// Validate implements connector.Factory.
func (factory) Validate(t *catalog.Table) error {
	_, err := parse(t)
	return err
}

// Accepts implements connector.Factory; datagen tables cannot be written.
func (factory) Accepts(*catalog.Table) connector.ChangelogMode { return connector.InsertOnly }

// Bounded implements connector.Bounded: a generator with 'number-of-rows'
// or only sequences ends.
func (factory) Bounded(t *catalog.Table) bool {
	cfg, err := parse(t)
	return err == nil && cfg.bounded()
}

// Produces implements connector.Factory: rows are appends.
func (factory) Produces(*catalog.Table) connector.ChangelogMode { return connector.InsertOnly }

// NewSink implements connector.Factory: datagen tables cannot be written.
func (factory) NewSink(*catalog.Table, connector.Env) (connector.SinkTarget, error) {
	return nil, connector.SourceOnly(name)
}

// NewSource implements connector.Factory.
func (factory) NewSource(t *catalog.Table, spec connector.SourceSpec) (connector.ScanSource, error) {
	cfg, err := parse(t)
	if err != nil {
		return nil, err
	}
	if err := connector.CheckNoMetadata(t, false); err != nil {
		return nil, err
	}
	return &scanSource{cfg: cfg, spec: spec}, nil
}

// config is a validated datagen table.
type config struct {
	rowsPerSecond int64
	// numberOfRows is 'number-of-rows', -1 when unset.
	numberOfRows int64
	colTypes     []types.Type
	fields       []field
	// chunkRows is how many rows an instance generates at a time.
	chunkRows int
}

// field generates the values of one physical column.
type field struct {
	col int
	gen generator
	// seqLen is the length of a sequence field's range, 0 for others.
	seqLen uint64
}

// parse validates t's options the way Flink's DataGenTableSourceFactory
// does: each physical column's generator first, then the options nothing
// consumed.
func parse(t *catalog.Table) (*config, error) {
	o := connector.Options(t.Options)
	c := &config{rowsPerSecond: defaultRowsPerSecond, numberOfRows: -1, colTypes: t.Schema().Types()}
	if n, ok, err := o.Int64(optRowsPerSecond); err != nil {
		return nil, err
	} else if ok {
		if n <= 0 {
			return nil, fmt.Errorf("Invalid value for option '%s': %d. It must be a positive number.", optRowsPerSecond, n)
		}
		c.rowsPerSecond = n
	}
	if n, ok, err := o.Int64(optNumberOfRows); err != nil {
		return nil, err
	} else if ok {
		if n < 0 {
			return nil, fmt.Errorf("Invalid value for option '%s': %d. It must not be negative.", optNumberOfRows, n)
		}
		c.numberOfRows = n
	}
	consumed := []string{optRowsPerSecond, optNumberOfRows}
	var rowBytes int64
	var widest fieldOptions
	for i, col := range t.Columns {
		if !col.IsPhysical() {
			continue
		}
		fo := fieldOptions{o: o, name: col.Name, typ: col.Type}
		kindKey := fo.key(optKind)
		var f field
		var err error
		switch kind := o.String(kindKey, kindRandom); kind {
		case kindRandom:
			f.gen, err = fo.random()
		case kindSequence:
			f.gen, f.seqLen, err = fo.sequence()
		default:
			err = fmt.Errorf("Unsupported generator kind: %s", kind)
		}
		if err != nil {
			return nil, err
		}
		f.col = i
		c.fields = append(c.fields, f)
		consumed = append(consumed, kindKey)
		consumed = append(consumed, fo.consumed...)
		rowBytes += max(fo.length, otherBytes)
		if fo.length > widest.length {
			widest = fo
		}
	}
	if err := connector.CheckSupported(name, o, consumed); err != nil {
		return nil, err
	}
	if rowBytes > maxRowBytes {
		return nil, rowTooLarge(&widest, rowBytes)
	}
	c.chunkRows = int(min(types.ChunkSize, max(1, chunkBytes/max(rowBytes, 1))))
	return c, nil
}

// rowTooLarge reports rows whose random strings would take rowBytes,
// naming the longest field's 'fields.#.length' option.
func rowTooLarge(f *fieldOptions, rowBytes int64) error {
	k := f.key(optLength)
	limit := fmt.Sprintf("a datagen row may hold at most %d bytes of random strings and binary strings; these rows would hold %d", maxRowBytes, rowBytes)
	if f.typ.Kind == types.Char || f.typ.Kind == types.Binary {
		return fmt.Errorf("The random values of field '%s' are as long as its type %s: %s.", f.name, f.typ.Plain().Nullable(), limit)
	}
	if v, set := f.o[k]; set {
		return fmt.Errorf("Invalid value for option '%s': %s. %s.", k, v, capitalize(limit))
	}
	return fmt.Errorf("The random values of field '%s' are %d long, its declared length: set '%s' lower, as %s.", f.name, f.length, k, limit)
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// bounded reports whether the source ends by itself.
func (c *config) bounded() bool {
	if c.numberOfRows >= 0 {
		return true
	}
	for _, f := range c.fields {
		if f.seqLen > 0 {
			return true
		}
	}
	return false
}

// rows is the number of rows instance i of n produces, -1 for unbounded:
// its share of 'number-of-rows' and of every sequence, whichever is least.
func (c *config) rows(i, n int) int64 {
	share := func(total uint64) int64 {
		s := total / uint64(n)
		if total%uint64(n) > uint64(i) {
			s++
		}
		return int64(min(s, 1<<63-1))
	}
	rows := int64(-1)
	if c.numberOfRows >= 0 {
		rows = share(uint64(c.numberOfRows))
	}
	for _, f := range c.fields {
		if f.seqLen > 0 {
			if s := share(f.seqLen); rows < 0 || s < rows {
				rows = s
			}
		}
	}
	return rows
}

// scanSource is a datagen table being read.
type scanSource struct {
	cfg  *config
	spec connector.SourceSpec
}

// NewInstance implements connector.ScanSource.
func (s *scanSource) NewInstance(i, n int) (runtime.Source, error) {
	return newInstance(s.cfg, s.spec, i, n), nil
}
