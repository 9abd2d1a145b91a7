package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"
	"unicode/utf8"

	"github.com/hamba/avro/v2"

	"github.com/sluicesql/sluice/internal/types"
)

// Avro binary encoding of rows and decoding with schema resolution.
//
// Encoding follows Flink's RowDataToAvroConverters: each column is written
// as its avroColumn says, a nullable column as a union branch index first.
//
// Decoding follows what Flink's AvroRowDataDeserializationSchema does: a
// GenericDatumReader resolves the writer schema against the reader schema
// derived from the table (Avro's schema resolution: fields matched by name,
// writer-only fields skipped, reader-only fields take their default, which
// is null for nullable columns, numeric promotion int -> long -> float ->
// double, string <-> bytes, unions resolved branch by branch), then
// AvroToRowDataConverters turn the Avro values into column values (TINYINT
// and SMALLINT wrap, decimals wider than the column become NULL, timestamps
// are read in the reader's unit whatever the writer's logical type). The
// resolution is compiled once per writer schema into a list of steps that
// read the wire format straight into the row.

// avroTypeName names an Avro type in resolution errors.
func avroTypeName(s avro.Schema) string {
	if r, ok := s.(*avro.RefSchema); ok {
		return avroTypeName(r.Schema())
	}
	return string(s.Type())
}

// Zig-zag varints and the other primitives of the binary encoding.

func appendAvroLong(dst []byte, v int64) []byte {
	return binary.AppendUvarint(dst, uint64(v<<1^v>>63))
}

func appendAvroBytes(dst []byte, b string) []byte {
	dst = appendAvroLong(dst, int64(len(b)))
	return append(dst, b...)
}

var (
	errTruncated = errors.New("truncated data")
	errVarint    = errors.New("invalid varint encoding")
)

// avroReader reads the Avro binary encoding from a byte slice.
type avroReader struct {
	b   []byte
	pos int
	// arena takes the text of the top-level string values (nil while a
	// composite value is read): see decodeAvroBody.
	arena *stringArena
}

// stringArena collects the text of a record's string values, to be made
// into one string for the whole record: one allocation per record
// rather than one per field.
type stringArena struct {
	buf  []byte
	refs []arenaRef // field is the column
}

// varint reads a zig-zag varint of at most maxBytes bytes.
func (r *avroReader) varint(maxBytes int) (uint64, error) {
	var v uint64
	for i := 0; i < maxBytes; i++ {
		if r.pos >= len(r.b) {
			return 0, errTruncated
		}
		c := r.b[r.pos]
		r.pos++
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, errVarint
}

func (r *avroReader) long() (int64, error) {
	u, err := r.varint(10)
	return int64(u>>1) ^ -int64(u&1), err
}

// int reads an Avro int; like Java's BinaryDecoder it keeps the low 32 bits.
func (r *avroReader) int() (int32, error) {
	u, err := r.varint(5)
	v := uint32(u)
	return int32(v>>1) ^ -int32(v&1), err
}

func (r *avroReader) fixed(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.pos {
		return nil, errTruncated
	}
	b := r.b[r.pos : r.pos+n]
	r.pos += n
	return b, nil
}

// bytes reads a length-prefixed byte string (also the encoding of strings).
func (r *avroReader) bytes() ([]byte, error) {
	n, err := r.int()
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("malformed data: length is negative: %d", n)
	}
	return r.fixed(int(n))
}

// skip reads past one value of schema s.
func (r *avroReader) skip(s avro.Schema, depth int) error {
	if depth > 1000 {
		return errors.New("values nested too deeply")
	}
	var err error
	switch s := s.(type) {
	case *avro.RefSchema:
		return r.skip(s.Schema(), depth+1)
	case *avro.RecordSchema:
		for _, f := range s.Fields() {
			if err = r.skip(f.Type(), depth+1); err != nil {
				return err
			}
		}
	case *avro.UnionSchema:
		var i int32
		if i, err = r.int(); err == nil {
			if i < 0 || int(i) >= len(s.Types()) {
				return fmt.Errorf("union index %d out of range", i)
			}
			return r.skip(s.Types()[i], depth+1)
		}
	case *avro.FixedSchema:
		_, err = r.fixed(s.Size())
	case *avro.EnumSchema:
		_, err = r.int()
	case *avro.ArraySchema:
		return r.skipBlocks(depth, s.Items(), nil)
	case *avro.MapSchema:
		return r.skipBlocks(depth, s.Values(), avroStringSchema)
	default:
		switch s.Type() {
		case avro.Boolean:
			_, err = r.fixed(1)
		case avro.Int:
			_, err = r.int()
		case avro.Long:
			_, err = r.long()
		case avro.Float:
			_, err = r.fixed(4)
		case avro.Double:
			_, err = r.fixed(8)
		case avro.String, avro.Bytes:
			_, err = r.bytes()
		}
	}
	return err
}

// avroStringSchema is the schema of map keys.
var avroStringSchema = avro.NewPrimitiveSchema(avro.String, nil)

// skipBlocks skips the blocks of an array (key nil) or a map.
func (r *avroReader) skipBlocks(depth int, item, key avro.Schema) error {
	for {
		n, err := r.long()
		if err != nil || n == 0 {
			return err
		}
		if n < 0 {
			size, err := r.long()
			if err != nil {
				return err
			}
			if _, err := r.fixed(int(min(size, math.MaxInt32))); err != nil {
				return err
			}
			continue
		}
		if n > int64(len(r.b)-r.pos) {
			// Every item takes at least a byte unless the schema is empty;
			// refuse counts the data cannot hold instead of spinning.
			return errTruncated
		}
		for ; n > 0; n-- {
			if key != nil {
				if err := r.skip(key, depth+1); err != nil {
					return err
				}
			}
			if err := r.skip(item, depth+1); err != nil {
				return err
			}
		}
	}
}

// avroEncodeField writes one column.
type avroEncodeField struct {
	col     int
	store   avroColumn
	union   bool
	nullIdx int64 // union branch of null
	valIdx  int64 // union branch of the value
}

// avroRowEncoder writes rows as Avro records, in the field order and union
// branch order of the writer schema.
type avroRowEncoder struct {
	fields types.Schema
	plan   []avroEncodeField
}

// newDerivedEncoder encodes with the schema derived from the fields.
func newDerivedEncoder(fields types.Schema, cols []avroColumn) *avroRowEncoder {
	e := &avroRowEncoder{fields: fields}
	for i, f := range fields {
		union := !f.Type.NotNull && cols[i].base != avroNull
		e.plan = append(e.plan, avroEncodeField{col: i, store: cols[i], union: union, valIdx: 1})
	}
	return e
}

func (e *avroRowEncoder) appendRecord(dst []byte, row types.Row) ([]byte, error) {
	for _, f := range e.plan {
		v := row[f.col]
		if f.union {
			if v.Null {
				dst = appendAvroLong(dst, f.nullIdx)
				continue
			}
			dst = appendAvroLong(dst, f.valIdx)
		} else if v.Null && f.store.base != avroNull {
			return nil, fmt.Errorf("column '%s' is NOT NULL but the row holds NULL", e.fields[f.col].Name)
		}
		if f.store.base >= avroArray {
			var err error
			if dst, err = appendAvroComposite(dst, e.fields[f.col].Type, v, f.store.legacy); err != nil {
				return nil, fmt.Errorf("column '%s': %w", e.fields[f.col].Name, err)
			}
			continue
		}
		if f.store.nanos {
			var err error
			if v, err = avroNanos(e.fields[f.col].Type, f.store, v); err != nil {
				return nil, fmt.Errorf("column '%s': %w", e.fields[f.col].Name, err)
			}
		}
		dst = appendAvroValue(dst, f.store, v)
	}
	return dst, nil
}

// avroTemporal converts the stored number n of a TIME, TIMESTAMP or
// TIMESTAMP_LTZ column of type t stored as c; false when it is outside the
// range of t.
func avroTemporal(t types.Type, c avroColumn, n int64) (types.Value, bool) {
	if c.nanos {
		us, ns := floorDiv(n, 1000)
		return types.TimestampFromParts(t.Precision, us, ns)
	}
	i, ok := types.MultiplyExact(n, max(c.unit, 1))
	if !ok || t.IsTimestamp() && !types.TimestampInRange(i) {
		return types.NullValue, false
	}
	return types.IntValue(i), true
}

// avroNanos returns the TIMESTAMP(p > 6) or TIMESTAMP_LTZ(p > 6) v of type
// t stored as c, as the nanoseconds since the epoch a timestamp-nanos or
// local-timestamp-nanos long holds (1677-09-21 to 2262-04-11); a value
// outside is an error naming it and the logical type.
func avroNanos(t types.Type, c avroColumn, v types.Value) (types.Value, error) {
	n, ok := types.TimestampNanos(t.Precision, v)
	if !ok {
		return types.NullValue, fmt.Errorf("%s does not fit Avro's %s, a long of nanoseconds since the epoch (1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807)",
			types.LiteralText(t, v, time.UTC), c.logical)
	}
	return types.IntValue(n), nil
}

// appendAvroValue writes a non-null value stored as c (a timestamp stored
// in nanoseconds converted by avroNanos).
func appendAvroValue(dst []byte, c avroColumn, v types.Value) []byte {
	switch c.base {
	case avroBoolean:
		if v.I != 0 {
			return append(dst, 1)
		}
		return append(dst, 0)
	case avroInt, avroLong:
		n := v.I
		if c.unit > 1 {
			n, _ = floorDiv(n, c.unit)
		}
		if c.base == avroInt {
			n = int64(int32(n))
		}
		return appendAvroLong(dst, n)
	case avroFloat:
		return binary.LittleEndian.AppendUint32(dst, math.Float32bits(float32(v.F)))
	case avroDouble:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.F))
	case avroString:
		if !utf8.ValidString(v.S) {
			return appendAvroBytes(dst, types.JavaString([]byte(v.S)))
		}
		return appendAvroBytes(dst, v.S)
	case avroBytes:
		if c.logical == "decimal" {
			var buf [16]byte
			return appendAvroBytes(dst, string(unscaledBytes(buf[:0], c.decimal, v)))
		}
		return appendAvroBytes(dst, v.S)
	}
	return dst // null
}

// unscaledBytes appends BigInteger.toByteArray() of the unscaled value of
// v, a non-NULL value of the DECIMAL type t: the shortest big-endian two's
// complement form.
func unscaledBytes(dst []byte, t types.Type, v types.Value) []byte {
	u := types.DecimalUnscaled(t, v)
	var full [16]byte
	binary.BigEndian.PutUint64(full[:8], uint64(u.Hi))
	binary.BigEndian.PutUint64(full[8:], u.Lo)
	return append(dst, trimSignBytes(full[:])...)
}

// trimSignBytes drops leading bytes of a two's complement number that only
// repeat the sign.
func trimSignBytes(b []byte) []byte {
	for len(b) > 1 && (b[0] == 0 && b[1]&0x80 == 0 || b[0] == 0xff && b[1]&0x80 != 0) {
		b = b[1:]
	}
	return b
}

// avroOp is what a decoding step reads from the wire.
type avroOp uint8

const (
	opNull avroOp = iota // nothing: the value is NULL
	opBoolean
	opInt
	opLong
	opFloat
	opDouble
	opBytes // bytes or string
	opFixed // a fixed of size bytes (a decimal's)
	opUnion
	opSkip // a complex value no column wants
	opFail // a value the reader schema cannot take
	// Composite columns (avro_nested.go).
	opArray
	opMap
	opRecord
)

// avroStep reads one writer value into one column (or nowhere).
type avroStep struct {
	op       avroOp
	col      int // target column, -1 to discard
	t        types.Type
	store    avroColumn
	branches []avroStep  // opUnion: one step per writer branch
	skip     avro.Schema // opSkip
	err      string      // opFail
	size     int         // opFixed
	// elem is the step of an array's items or a map's values (one), or of
	// a record's writer fields, in writer order (col is then the reader
	// field's index, -1 for a field no reader field takes); they append
	// to scratch, one vector for the items or values, or one per reader
	// field.
	elem    []avroStep
	scratch []*types.Vector
}

// avroProgram decodes one writer record into a row of columns.
type avroProgram struct {
	steps   []avroStep
	missing []int // reader columns absent from the writer: NULL
}

// avroTopLevel decodes a whole message: a writer record, or a writer union
// of records (one program per branch, nil where a branch cannot be read).
type avroTopLevel struct {
	record   *avroProgram
	branches []*avroProgram
	errs     []string
}

var avroPrimitives = map[avro.Type]avroBase{
	avro.Null: avroNull, avro.Boolean: avroBoolean, avro.Int: avroInt, avro.Long: avroLong,
	avro.Float: avroFloat, avro.Double: avroDouble, avro.Bytes: avroBytes, avro.String: avroString,
}

// promotes reports whether Avro resolution reads writer type w as reader
// type r.
func promotes(w, r avroBase) bool {
	switch {
	case w == r:
		return true
	case w == avroInt:
		return r == avroLong || r == avroFloat || r == avroDouble
	case w == avroLong:
		return r == avroFloat || r == avroDouble
	case w == avroFloat:
		return r == avroDouble
	case w == avroString:
		return r == avroBytes
	case w == avroBytes:
		return r == avroString
	}
	return false
}

// resolveTop compiles the decoding of writer schema w into rows of fields.
func resolveTop(w avro.Schema, fields types.Schema, cols []avroColumn) (*avroTopLevel, error) {
	if ref, ok := w.(*avro.RefSchema); ok {
		w = ref.Schema()
	}
	switch w := w.(type) {
	case *avro.RecordSchema:
		p, err := resolveRecord(w, fields, cols)
		if err != nil {
			return nil, err
		}
		return &avroTopLevel{record: p}, nil
	case *avro.UnionSchema:
		top := &avroTopLevel{}
		for _, b := range w.Types() {
			if ref, ok := b.(*avro.RefSchema); ok {
				b = ref.Schema()
			}
			var p *avroProgram
			msg := "Found " + avroTypeName(b) + ", expecting record"
			if rec, ok := b.(*avro.RecordSchema); ok {
				var err error
				if p, err = resolveRecord(rec, fields, cols); err != nil {
					msg = err.Error()
				}
			}
			top.branches = append(top.branches, p)
			top.errs = append(top.errs, msg)
		}
		return top, nil
	}
	return nil, fmt.Errorf("the writer schema is %s, not a record", avroTypeName(w))
}

func resolveRecord(w *avro.RecordSchema, fields types.Schema, cols []avroColumn) (*avroProgram, error) {
	p := &avroProgram{}
	seen := make([]bool, len(fields))
	for _, wf := range w.Fields() {
		i := fields.Index(wf.Name())
		if i < 0 || seen[i] {
			p.steps = append(p.steps, discardStep(wf.Type()))
			continue
		}
		seen[i] = true
		p.steps = append(p.steps, resolveValue(wf.Type(), fields[i], cols[i], i))
	}
	for i, f := range fields {
		if seen[i] {
			continue
		}
		if f.Type.NotNull && cols[i].base != avroNull {
			return nil, fmt.Errorf("the writer schema has no field '%s' and the column is NOT NULL (no default)", f.Name)
		}
		p.missing = append(p.missing, i)
	}
	return p, nil
}

// discardStep reads past a value no column takes.
func discardStep(w avro.Schema) avroStep {
	if base, ok := avroPrimitives[w.Type()]; ok {
		return avroStep{op: wireOp(base), col: -1}
	}
	return avroStep{op: opSkip, col: -1, skip: w}
}

func wireOp(b avroBase) avroOp {
	return [...]avroOp{avroNull: opNull, avroBoolean: opBoolean, avroInt: opInt, avroLong: opLong,
		avroFloat: opFloat, avroDouble: opDouble, avroBytes: opBytes, avroString: opBytes}[b]
}

// resolveValue compiles reading writer schema w into column f.
func resolveValue(w avro.Schema, f types.Field, c avroColumn, col int) avroStep {
	if ref, ok := w.(*avro.RefSchema); ok {
		w = ref.Schema()
	}
	if u, ok := w.(*avro.UnionSchema); ok {
		st := avroStep{op: opUnion, col: col}
		for _, b := range u.Types() {
			st.branches = append(st.branches, resolveValue(b, f, c, col))
		}
		return st
	}
	if c.base >= avroArray && w.Type() != avro.Null {
		return resolveComposite(w, f, c, col)
	}
	readerName := avroBaseNames[c.base]
	if !f.Type.NotNull && c.base != avroNull {
		readerName = "union"
	}
	fail := avroStep{op: opFail, col: col, err: fmt.Sprintf("field '%s': Found %s, expecting %s", f.Name, avroTypeName(w), readerName)}
	if fs, ok := w.(*avro.FixedSchema); ok && f.Type.Kind == types.Decimal {
		// A decimal written as fixed: AvroToRowDataConverters reads its
		// bytes as it reads bytes (GenericFixed.bytes()).
		return avroStep{op: opFixed, col: col, t: f.Type, store: c, size: fs.Size()}
	}
	base, ok := avroPrimitives[w.Type()]
	switch {
	case !ok:
		return fail
	case base == avroNull:
		if f.Type.NotNull && c.base != avroNull {
			return fail
		}
		return avroStep{op: opNull, col: col}
	case !promotes(base, c.base):
		return fail
	}
	return avroStep{op: wireOp(base), col: col, t: f.Type, store: c}
}

// decode reads one message body, appending a value to each column. On
// error some columns may have grown; the caller truncates them.
func (top *avroTopLevel) decode(r *avroReader, cols []*types.Vector) error {
	p := top.record
	if p == nil {
		i, err := r.int()
		if err != nil {
			return err
		}
		if i < 0 || int(i) >= len(top.branches) {
			return fmt.Errorf("union index %d out of range", i)
		}
		if p = top.branches[i]; p == nil {
			return errors.New(top.errs[i])
		}
	}
	for i := range p.steps {
		if err := p.steps[i].run(r, cols); err != nil {
			return err
		}
	}
	for _, i := range p.missing {
		if cols[i] != nil {
			cols[i].AppendNull()
		}
	}
	return nil
}

func (st *avroStep) run(r *avroReader, cols []*types.Vector) error {
	// A column projected away (a nil vector) takes no value; its value is
	// still read, and a value the column could not take still fails.
	want := st.col >= 0 && cols[st.col] != nil
	var v types.Value
	switch st.op {
	case opNull:
		v = types.NullValue
	case opBoolean:
		b, err := r.fixed(1)
		if err != nil {
			return err
		}
		v = types.BoolValue(b[0] == 1) // BinaryDecoder.readBoolean
	case opInt, opLong:
		var n int64
		var err error
		if st.op == opInt {
			var i int32
			i, err = r.int()
			n = int64(i)
		} else {
			n, err = r.long()
		}
		if err != nil || !want {
			return err
		}
		if v, err = st.fromInteger(n); err != nil {
			return err
		}
	case opFloat:
		b, err := r.fixed(4)
		if err != nil || !want {
			return err
		}
		v = types.FloatValue(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))))
	case opDouble:
		b, err := r.fixed(8)
		if err != nil || !want {
			return err
		}
		v = types.FloatValue(math.Float64frombits(binary.LittleEndian.Uint64(b)))
	case opBytes:
		b, err := r.bytes()
		if err != nil || !want {
			return err
		}
		if r.arena != nil && (st.t.Kind == types.Char || st.t.Kind == types.Varchar) {
			a := r.arena
			start := len(a.buf)
			if utf8.Valid(b) {
				a.buf = append(a.buf, b...)
			} else {
				a.buf = append(a.buf, types.JavaString(b)...) // Utf8.toString()
			}
			a.refs = append(a.refs, arenaRef{st.col, start, len(a.buf)})
		} else if v, err = st.fromBytes(b); err != nil {
			return err
		}
	case opFixed:
		b, err := r.fixed(st.size)
		if err != nil || !want {
			return err
		}
		if v, err = st.fromBytes(b); err != nil {
			return err
		}
	case opUnion:
		i, err := r.int()
		if err != nil {
			return err
		}
		if i < 0 || int(i) >= len(st.branches) {
			return fmt.Errorf("union index %d out of range", i)
		}
		return st.branches[i].run(r, cols)
	case opSkip:
		return r.skip(st.skip, 0)
	case opFail:
		return errors.New(st.err)
	case opArray, opMap, opRecord:
		arena := r.arena
		r.arena = nil // the children's strings are encoded into v at once
		var err error
		v, err = st.readComposite(r)
		r.arena = arena
		if err != nil {
			return err
		}
	}
	if want {
		cols[st.col].Append(v)
	}
	return nil
}

// fromInteger converts an Avro int or long for the step's column.
func (st *avroStep) fromInteger(n int64) (types.Value, error) {
	switch st.t.Kind {
	case types.TinyInt:
		return types.IntValue(int64(int8(n))), nil // Integer.byteValue()
	case types.SmallInt:
		return types.IntValue(int64(int16(n))), nil
	case types.Float:
		return types.FloatValue(float64(float32(n))), nil
	case types.Double:
		return types.FloatValue(float64(n)), nil
	case types.Time, types.Timestamp, types.TimestampLTZ:
		v, ok := avroTemporal(st.t, st.store, n)
		if !ok {
			return types.Value{}, &types.RangeError{What: fmt.Sprintf("%s value %d (%s)", st.t.Plain().Nullable(), n, st.store.logical)}
		}
		return v, nil
	}
	return types.IntValue(n), nil
}

// fromBytes converts Avro bytes or a string for the step's column.
func (st *avroStep) fromBytes(b []byte) (types.Value, error) {
	switch st.t.Kind {
	case types.Char, types.Varchar:
		return types.StringValue(types.JavaString(b)), nil // Utf8.toString()
	case types.Decimal:
		return decimalFromBytes(b, st.t)
	}
	return types.StringValue(string(b)), nil
}

// decimalFromBytes is DecimalData.fromUnscaledBytes: big-endian two's
// complement, NULL when wider than t's precision.
func decimalFromBytes(b []byte, t types.Type) (types.Value, error) {
	if len(b) == 0 {
		return types.Value{}, errors.New("decimal: zero length BigInteger")
	}
	b = trimSignBytes(b)
	if len(b) > 16 {
		return types.NullValue, nil
	}
	var u types.Int128
	if b[0]&0x80 != 0 {
		u = types.Int128{Hi: -1, Lo: ^uint64(0)}
	}
	for _, c := range b {
		u = types.Int128{Hi: u.Hi<<8 | int64(u.Lo>>56), Lo: u.Lo<<8 | uint64(c)}
	}
	return types.DecimalOf(t, u), nil
}
