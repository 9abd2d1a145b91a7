package format

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/sluicesql/sluice/internal/types"
)

// The 'canal-json' and 'maxwell-json' formats, after Flink's
// CanalJsonDeserializationSchema / CanalJsonSerializationSchema and
// MaxwellJsonDeserializationSchema / MaxwellJsonSerializationSchema.
//
// Both carry the rows a change touched in "data" (Canal: an array of rows,
// Maxwell: one row), the kind of change in "type", and for an update the
// old values of the changed fields in "old". An insert gives +I of each
// row, a delete -D, an update -U of the old row then +U of the new one,
// where the old row takes every field that "old" does not name (anywhere
// in it, as Jackson's findValue looks) from the new row. Canal's DDL
// events ("type":"CREATE") and tombstones give nothing. Written, +I and +U
// become inserts and -U and -D deletes: {"data":[{...}],"type":"INSERT"}
// for Canal, {"data":{...},"type":"insert"} for Maxwell.

func init() {
	Register(canalFactory{})
	Register(maxwellFactory{})
}

type canalFactory struct{}

func (canalFactory) Name() string { return "canal-json" }

func (canalFactory) Options() []OptionSpec {
	return append(jsonEnvelopeOptions(),
		OptionSpec{Name: "database.include", Description: "A regular expression the \"database\" of a message must match (the whole of it); others are skipped."},
		OptionSpec{Name: "table.include", Description: "A regular expression the \"table\" of a message must match (the whole of it); others are skipped."},
	)
}

var ltz3 = types.Type{Kind: types.TimestampLTZ, Precision: 3}

// Metadata implements ChangelogFactory (CanalJsonDecodingFormat's
// ReadableMetadata).
func (canalFactory) Metadata() []MetadataSpec {
	return []MetadataSpec{
		{Key: "database", Type: types.StringType},
		{Key: "table", Type: types.StringType},
		{Key: "sql-type", Type: types.MapOf(types.StringType, types.IntType)},
		{Key: "pk-names", Type: types.ArrayOf(types.StringType)},
		{Key: "ingestion-timestamp", Type: ltz3},
		{Key: "event-timestamp", Type: ltz3},
	}
}

func (f canalFactory) New(Config) (Codec, error) { return nil, refuseKeySide(f.Name()) }

func (f canalFactory) NewChangelog(cfg Config) (ChangelogCodec, error) {
	return newImageCodec(f.Name(), "Canal", f.Options(), f.Metadata(), cfg, true)
}

type maxwellFactory struct{}

func (maxwellFactory) Name() string { return "maxwell-json" }

func (maxwellFactory) Options() []OptionSpec { return jsonEnvelopeOptions() }

// Metadata implements ChangelogFactory (MaxwellJsonDecodingFormat's
// ReadableMetadata).
func (maxwellFactory) Metadata() []MetadataSpec {
	return []MetadataSpec{
		{Key: "database", Type: types.StringType},
		{Key: "table", Type: types.StringType},
		{Key: "primary-key-columns", Type: types.ArrayOf(types.StringType)},
		{Key: "ingestion-timestamp", Type: ltz3},
	}
}

func (f maxwellFactory) New(Config) (Codec, error) { return nil, refuseKeySide(f.Name()) }

func (f maxwellFactory) NewChangelog(cfg Config) (ChangelogCodec, error) {
	return newImageCodec(f.Name(), "Maxwell", f.Options(), f.Metadata(), cfg, false)
}

// metaFields maps each metadata key to the envelope field it reads.
var metaFields = map[string]types.Field{
	"database":            {Name: "database", Type: types.StringType},
	"table":               {Name: "table", Type: types.StringType},
	"sql-type":            {Name: "sqlType", Type: types.MapOf(types.StringType, types.IntType)},
	"pk-names":            {Name: "pkNames", Type: types.ArrayOf(types.StringType)},
	"primary-key-columns": {Name: "primary_key_columns", Type: types.ArrayOf(types.StringType)},
	"ingestion-timestamp": {Name: "ts", Type: types.BigIntType},
	"event-timestamp":     {Name: "es", Type: types.BigIntType},
}

// imageCodec reads and writes Canal and Maxwell messages.
type imageCodec struct {
	*envelope
	canal bool
	// root are the envelope's fields: data, old (as its JSON text), type,
	// database, table, then those metadata needs.
	root            types.Schema
	database, table *regexp.Regexp
	// rows reads one element of "old" into the physical fields.
	rows    *jsonCodec
	oldRow  []*types.Vector
	writer  *jsonCodec
	dataRow types.Type // the type of "data" when written
}

func newImageCodec(name, display string, specs []OptionSpec, known []MetadataSpec, cfg Config, canal bool) (*imageCodec, error) {
	rowT := types.RowOf(cfg.Fields)
	dataT := rowT
	if canal {
		dataT = types.ArrayOf(rowT)
	}
	root := types.Schema{{Name: "data", Type: dataT}, {Name: "old", Type: types.StringType}, {Name: "type", Type: types.StringType},
		metaFields["database"], metaFields["table"]}
	for _, m := range cfg.Metadata {
		if f, ok := metaFields[m.Key]; ok && !slices.Contains(root, f) {
			root = append(root, f)
		}
	}
	e, o, err := newEnvelope(name, display, specs, cfg, known, root)
	if err != nil {
		return nil, err
	}
	c := &imageCodec{envelope: e, canal: canal, root: root, dataRow: dataT}
	for _, p := range []struct {
		opt string
		dst **regexp.Regexp
	}{{"database.include", &c.database}, {"table.include", &c.table}} {
		v, ok := o.lookup(p.opt)
		if !ok {
			continue
		}
		if *p.dst, err = regexp.Compile("^(?:" + v + ")$"); err != nil {
			return nil, fmt.Errorf("invalid regular expression '%s' for option '%s%s': %v", v, o.prefix, p.opt, err)
		}
	}
	if c.rows, err = writerFor(e.inner, cfg.Fields); err != nil {
		return nil, err
	}
	c.rows.ignoreErrors = e.ignoreErrors
	for _, f := range cfg.Fields {
		c.oldRow = append(c.oldRow, types.NewVector(f.Type, 1))
	}
	return c, nil
}

// CanEncode implements ChangelogCodec.
func (c *imageCodec) CanEncode() error { return nil }

func (c *imageCodec) DecodeChanges(data []byte, cols []*types.Vector, kinds []types.RowKind) ([]types.RowKind, error) {
	ok, err := c.decode(data)
	if !ok || err != nil {
		return kinds, err
	}
	n, nk := height(cols), len(kinds)
	kinds, err = c.changes(cols, kinds)
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

// Canal's and Maxwell's change types.
var (
	canalTypes   = [...]string{"INSERT", "UPDATE", "DELETE"}
	maxwellTypes = [...]string{"insert", "update", "delete"}
)

func (c *imageCodec) changes(cols []*types.Vector, kinds []types.RowKind) ([]types.RowKind, error) {
	get := func(name string) types.Value { return c.field(c.root.Index(name)) }
	for _, filter := range []struct {
		re   *regexp.Regexp
		name string
	}{{c.database, "database"}, {c.table, "table"}} {
		if filter.re == nil {
			continue
		}
		v := get(filter.name)
		if v.Null {
			return kinds, fmt.Errorf("the \"%s\" field is missing", filter.name)
		}
		if !filter.re.MatchString(v.S) {
			return kinds, nil
		}
	}
	typ := get("type")
	if typ.Null {
		return kinds, fmt.Errorf("the \"type\" field is null")
	}
	names := maxwellTypes
	if c.canal {
		names = canalTypes
		if typ.S == "CREATE" {
			return kinds, nil // a DDL event
		}
	}
	which := slices.Index(names[:], typ.S)
	if which < 0 {
		return kinds, fmt.Errorf("unknown \"type\" value \"%s\"", typ.S)
	}
	rows, err := c.images(get("data"))
	if err != nil {
		return kinds, err
	}
	var metaErr error
	meta := func(key string) types.Value {
		v := get(metaFields[key].Name)
		switch {
		case v.Null:
		case key == "ingestion-timestamp" && !c.canal:
			// Maxwell's "ts" is in seconds.
			ms, ok := types.MultiplyExact(v.I, 1000)
			if !ok {
				metaErr = cmpErr(metaErr, fmt.Errorf("\"ts\" %d is out of range", v.I))
				return types.NullValue
			}
			v, err := millis(ms)
			metaErr = cmpErr(metaErr, err)
			return v
		case key == "ingestion-timestamp" || key == "event-timestamp":
			v, err := millis(v.I)
			metaErr = cmpErr(metaErr, err)
			return v
		}
		return v
	}
	emit := func(vals []types.Value, kind types.RowKind) {
		metaErr = cmpErr(metaErr, c.appendRow(cols, vals, meta))
		kinds = append(kinds, kind)
	}
	switch which {
	case 0:
		for _, r := range rows {
			emit(r, types.Insert)
		}
	case 2:
		for _, r := range rows {
			emit(r, types.Delete)
		}
	case 1:
		old := get("old")
		if old.Null {
			return kinds, fmt.Errorf("the \"old\" field of an update is null")
		}
		olds := []string{old.S}
		if c.canal {
			if olds, err = rawElements(old.S); err != nil {
				return kinds, fmt.Errorf("the \"old\" field: %w", err)
			}
		}
		for i, after := range rows {
			if i >= len(olds) {
				return kinds, fmt.Errorf("the \"old\" field has %d rows for %d in \"data\"", len(olds), len(rows))
			}
			before, err := c.oldImage(olds[i], old.S, after)
			if err != nil {
				return kinds, err
			}
			emit(before, types.UpdateBefore)
			emit(after, types.UpdateAfter)
		}
	}
	return kinds, metaErr
}

// images returns the rows of "data".
func (c *imageCodec) images(data types.Value) ([][]types.Value, error) {
	if data.Null {
		return nil, fmt.Errorf("the \"data\" field is null")
	}
	if !c.canal {
		r, err := c.row(data)
		return [][]types.Value{r}, err
	}
	elems, err := types.DecodeArray(c.physical, data.S)
	if err != nil {
		return nil, err
	}
	out := make([][]types.Value, len(elems))
	for i, el := range elems {
		if el.Null {
			return nil, fmt.Errorf("row %d of \"data\" is null", i+1)
		}
		if out[i], err = c.row(el); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// oldImage builds the row before an update: the values "old" gives, and
// after's value for every field "old" (all of it, allOld) does not name.
func (c *imageCodec) oldImage(old, allOld string, after []types.Value) ([]types.Value, error) {
	for _, v := range c.oldRow {
		v.Reset()
	}
	if err := c.rows.Decode([]byte(old), c.oldRow); err != nil {
		return nil, fmt.Errorf("the \"old\" field: %w", err)
	}
	before := make([]types.Value, len(after))
	for f, fd := range c.fields {
		before[f] = c.oldRow[f].Get(0)
		if before[f].Null && !jsonHasMember(allOld, fd.Name) {
			before[f] = after[f]
		}
	}
	return before, nil
}

func (c *imageCodec) EncodeChange(dst []byte, kind types.RowKind, row types.Row) ([]byte, error) {
	if c.writer == nil {
		w, err := writerFor(c.inner, types.Schema{{Name: "data", Type: c.dataRow}, {Name: "type", Type: types.StringType}})
		if err != nil {
			return dst, err
		}
		c.writer = w
	}
	names := maxwellTypes
	if c.canal {
		names = canalTypes
	}
	typ := names[2]
	if kind.IsAccumulate() {
		typ = names[0]
	}
	image := types.EncodeRow(c.physical, row)
	if c.canal {
		image = types.EncodeArray(c.physical, []types.Value{image})
	}
	return c.writer.Encode(dst, types.Row{image, types.StringValue(typ)})
}
