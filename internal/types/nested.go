package types

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"
)

// Composite (constructed) types: ARRAY<T>, MULTISET<T>, MAP<K, V> and
// ROW<name T, ...>, after Flink's ArrayType, MultisetType, MapType and
// RowType.
//
// A composite Type keeps its children behind a pointer that is interned:
// two structurally equal composite types share one pointer, so Type stays
// comparable with == and usable as a map key, and Equal needs no deep walk.
//
// A composite value is stored in the string slot of Value and Vector (its
// Physical class is PhysString), encoded in bytes as Flink keeps nested
// data in binary form (BinaryArrayData, BinaryMapData, BinaryRowData).
// Scalar columns keep their flat representation untouched; state, hash
// exchanges and keys see a composite value as one string, so grouping,
// joining and DISTINCT compare the encodings byte by byte, as Flink
// compares binary rows. The encoding of a non-NULL value of type t:
//
//   - ARRAY and MULTISET: the element count (uvarint), then every element;
//     a MULTISET is stored as the map of its distinct elements to their
//     counts (INT NOT NULL), as Flink's MultisetType is a MapData;
//   - MAP: the entry count (uvarint), then key and value of every entry,
//     in insertion order;
//   - ROW: every field in order;
//
// where every element, key, value or field is one byte (0 non-NULL, 1
// NULL) followed, when non-NULL, by its scalar: int64-backed values as a
// zig-zag varint, float64-backed values as their 8 IEEE bytes (little
// endian), strings and nested composite values as their byte length
// (uvarint) and bytes.

// The composite kinds.
const (
	Array Kind = iota + IntervalYearMonth + 1
	Multiset
	Map
	RowType
)

// composite holds the children of a composite type.
type composite struct {
	elem   Type // ARRAY and MULTISET element, MAP key
	value  Type // MAP value
	fields []Field
	class  string // a structured type's class name
}

var (
	internMu sync.Mutex
	interned = map[string]*composite{}
)

// typeKey is a canonical key for t, exact in every parameter. Children
// are already interned, so their pointers stand for them.
func typeKey(b *strings.Builder, t Type) {
	fmt.Fprintf(b, "%d,%t,%d,%d,%d,%p;", t.Kind, t.NotNull, t.Precision, t.Scale, t.Length, t.comp)
}

func intern(kind Kind, c composite) Type {
	var b strings.Builder
	fmt.Fprintf(&b, "%d:%d:%s:", kind, len(c.class), c.class)
	typeKey(&b, c.elem)
	typeKey(&b, c.value)
	for _, f := range c.fields {
		fmt.Fprintf(&b, "%d:%s", len(f.Name), f.Name)
		typeKey(&b, f.Type)
	}
	key := b.String()
	internMu.Lock()
	defer internMu.Unlock()
	p, ok := interned[key]
	if !ok {
		p = &c
		interned[key] = p
	}
	return Type{Kind: kind, comp: p}
}

// ArrayOf returns ARRAY<elem>. A time attribute of elem is dropped.
func ArrayOf(elem Type) Type { return intern(Array, composite{elem: elem.Plain()}) }

// MultisetOf returns MULTISET<elem>.
func MultisetOf(elem Type) Type { return intern(Multiset, composite{elem: elem.Plain()}) }

// MapOf returns MAP<key, value>.
func MapOf(key, value Type) Type {
	return intern(Map, composite{elem: key.Plain(), value: value.Plain()})
}

// RowOf returns ROW<fields>. Field types lose their time attributes.
func RowOf(fields []Field) Type {
	fs := make([]Field, len(fields))
	for i, f := range fields {
		fs[i] = Field{Name: f.Name, Type: f.Type.Plain()}
	}
	return intern(RowType, composite{fields: fs})
}

// IsComposite reports whether t is ARRAY, MULTISET, MAP or ROW.
func (t Type) IsComposite() bool { return t.comp != nil }

// Elem returns the element type of an ARRAY or MULTISET.
func (t Type) Elem() Type { return t.comp.elem }

// KeyType returns the key type of a MAP, or the element type of a
// MULTISET (the keys of its map).
func (t Type) KeyType() Type { return t.comp.elem }

// ValueType returns the value type of a MAP, or INT NOT NULL, the count,
// for a MULTISET.
func (t Type) ValueType() Type {
	if t.Kind == Multiset {
		return MultisetCountType
	}
	return t.comp.value
}

// Fields returns the fields of a ROW. The slice is shared: do not modify it.
func (t Type) Fields() []Field { return t.comp.fields }

// MultisetCountType is the type of a MULTISET element's count.
var MultisetCountType = Type{Kind: Int, NotNull: true}

// compositeString writes the type text of a composite type as Flink's
// asSummaryString does (ARRAY<INT NOT NULL>, MAP<STRING, INT>, ROW<`a`
// INT, `b` STRING>), or its asSerializableString without summary.
func compositeString(t Type, summary bool) string {
	switch t.Kind {
	case Array:
		return "ARRAY<" + t.Elem().format(summary) + ">"
	case Multiset:
		return "MULTISET<" + t.Elem().format(summary) + ">"
	case Map:
		return "MAP<" + t.KeyType().format(summary) + ", " + t.ValueType().format(summary) + ">"
	}
	var b strings.Builder
	if t.Kind == Structured {
		summary = true
		// StructuredType.asSummaryString: STRUCTURED<'class', `a` INT>.
		b.WriteString("STRUCTURED<'" + t.ClassName() + "', ")
	} else {
		b.WriteString("ROW<")
	}
	for i, f := range t.Fields() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(QuoteIdent(f.Name))
		b.WriteByte(' ')
		b.WriteString(f.Type.format(summary))
	}
	b.WriteString(">")
	return b.String()
}

// QuoteIdent writes name between back-quotes, doubling the back-quotes in
// it, as Flink's EncodingUtils.escapeIdentifier.
func QuoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// ErrCorrupt is returned when bytes do not decode as a composite value of
// the type they are read as: they were not written by this package.
var ErrCorrupt = errors.New("corrupt composite value")

// EncodeArray returns the ARRAY (or, with counts, MULTISET) value of
// elements vs of type elem.
func EncodeArray(elem Type, vs []Value) Value {
	b := binary.AppendUvarint(nil, uint64(len(vs)))
	for _, v := range vs {
		b = appendItem(b, elem, v)
	}
	return StringValue(string(b))
}

// DecodeArray reads the elements of an ARRAY value of element type elem.
func DecodeArray(elem Type, s string) ([]Value, error) {
	d := decoder{s: s}
	n := d.count()
	out := make([]Value, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		out = append(out, d.item(elem))
	}
	return out, d.done()
}

// EncodeMap returns the MAP value of the given entries, in their order.
// A MULTISET is the map of its elements to their counts.
func EncodeMap(t Type, keys, vals []Value) Value {
	kt, vt := t.KeyType(), t.ValueType()
	b := binary.AppendUvarint(nil, uint64(len(keys)))
	for i := range keys {
		b = appendItem(b, kt, keys[i])
		b = appendItem(b, vt, vals[i])
	}
	return StringValue(string(b))
}

// DecodeMap reads the entries of a MAP or MULTISET value of type t.
func DecodeMap(t Type, s string) (keys, vals []Value, err error) {
	kt, vt := t.KeyType(), t.ValueType()
	d := decoder{s: s}
	n := d.count()
	keys, vals = make([]Value, 0, n), make([]Value, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		keys = append(keys, d.item(kt))
		vals = append(vals, d.item(vt))
	}
	return keys, vals, d.done()
}

// EncodeRow returns the ROW value of type t with field values vs.
func EncodeRow(t Type, vs []Value) Value {
	var b []byte
	for i, f := range t.Fields() {
		b = appendItem(b, f.Type, vs[i])
	}
	return StringValue(string(b))
}

// DecodeRow reads the field values of a ROW value of type t.
func DecodeRow(t Type, s string) ([]Value, error) {
	d := decoder{s: s}
	fs := t.Fields()
	out := make([]Value, 0, len(fs))
	for _, f := range fs {
		out = append(out, d.item(f.Type))
	}
	return out, d.done()
}

func appendItem(b []byte, t Type, v Value) []byte {
	if v.Null {
		return append(b, 1)
	}
	b = append(b, 0)
	switch t.Physical() {
	case PhysFloat:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.F))
	case PhysString:
		b = binary.AppendUvarint(b, uint64(len(v.S)))
		return append(b, v.S...)
	}
	return binary.AppendVarint(b, v.I)
}

// decoder reads encoded items, keeping the first error.
type decoder struct {
	s   string
	pos int
	err error
}

func (d *decoder) fail() { d.err, d.pos = ErrCorrupt, len(d.s) }

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Uvarint([]byte(d.s[d.pos:min(len(d.s), d.pos+binary.MaxVarintLen64)]))
	if n <= 0 {
		d.fail()
		return 0
	}
	d.pos += n
	return x
}

// count reads an element count, bounded by the bytes left (every item
// takes at least one byte).
func (d *decoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.s)-d.pos) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) item(t Type) Value {
	if d.err != nil || d.pos >= len(d.s) {
		d.fail()
		return NullValue
	}
	flag := d.s[d.pos]
	d.pos++
	switch {
	case flag == 1:
		return NullValue
	case flag != 0:
		d.fail()
		return NullValue
	}
	switch t.Physical() {
	case PhysFloat:
		if len(d.s)-d.pos < 8 {
			d.fail()
			return NullValue
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64([]byte(d.s[d.pos : d.pos+8])))
		d.pos += 8
		return FloatValue(f)
	case PhysString:
		n := d.uvarint()
		if d.err != nil || n > uint64(len(d.s)-d.pos) {
			d.fail()
			return NullValue
		}
		s := d.s[d.pos : d.pos+int(n)]
		d.pos += int(n)
		return StringValue(s)
	}
	x, n := binary.Varint([]byte(d.s[d.pos:min(len(d.s), d.pos+binary.MaxVarintLen64)]))
	if n <= 0 {
		d.fail()
		return NullValue
	}
	d.pos += n
	return IntValue(x)
}

func (d *decoder) done() error {
	if d.err == nil && d.pos != len(d.s) {
		d.err = ErrCorrupt
	}
	return d.err
}

// supportsCompositeCast is LogicalTypeCasts.supportsConstructedCasting:
// a composite type casts to one of the same root whose children its
// children cast to (ROW fields by position, their names ignored, as
// RowToRowCastRule), and explicitly to CHAR or VARCHAR.
func supportsCompositeCast(from, to Type, explicit bool) bool {
	if to.IsString() {
		return explicit && from.IsComposite()
	}
	if from.Kind != to.Kind || !from.IsComposite() || from.Kind == Structured && from.ClassName() != to.ClassName() {
		return false
	}
	child := func(a, b Type) bool { return supportsCast(a, b, explicit) }
	switch from.Kind {
	case Array, Multiset:
		return child(from.Elem(), to.Elem())
	case Map:
		return child(from.KeyType(), to.KeyType()) && child(from.ValueType(), to.ValueType())
	}
	ff, tf := from.Fields(), to.Fields()
	if len(ff) != len(tf) {
		return false
	}
	for i := range ff {
		if !child(ff[i].Type, tf[i].Type) {
			return false
		}
	}
	return true
}

// castComposite casts a composite value child by child.
func castComposite(v Value, from, to Type, loc *time.Location) (Value, error) {
	if Equal(from.Nullable(), to.Nullable()) {
		return v, nil
	}
	each := func(vs []Value, from, to Type) error {
		for i, x := range vs {
			if x.Null && to.NotNull {
				return fmt.Errorf("CAST to %s: a NULL where %s is declared NOT NULL", typeName(to), to)
			}
			y, err := Cast(x, from.Plain(), to.Plain(), loc)
			if err != nil {
				return err
			}
			vs[i] = y
		}
		return nil
	}
	switch to.Kind {
	case Array:
		vs, err := DecodeArray(from.Elem(), v.S)
		if err == nil {
			err = each(vs, from.Elem(), to.Elem())
		}
		if err != nil {
			return NullValue, err
		}
		return EncodeArray(to.Elem(), vs), nil
	case Map, Multiset:
		ks, vs, err := DecodeMap(from, v.S)
		if err == nil {
			err = each(ks, from.KeyType(), to.KeyType())
		}
		if err == nil {
			err = each(vs, from.ValueType(), to.ValueType())
		}
		if err != nil {
			return NullValue, err
		}
		return EncodeMap(to, ks, vs), nil
	}
	vs, err := DecodeRow(from, v.S)
	if err != nil {
		return NullValue, err
	}
	for i, f := range to.Fields() {
		if err := each(vs[i:i+1], from.Fields()[i].Type, f.Type); err != nil {
			return NullValue, err
		}
	}
	return EncodeRow(to, vs), nil
}

// commonCompositeType is LogicalTypeMerging's common type of two
// composite types of one root: the common types of their children (ROW
// fields by position, named as in a).
func commonCompositeType(a, b Type) (Type, bool) {
	if a.Kind != b.Kind || !a.IsComposite() || !b.IsComposite() {
		return Type{}, false
	}
	if Equal(a, b) {
		return a, true
	}
	switch a.Kind {
	case Array, Multiset:
		e, ok := CommonType(a.Elem(), b.Elem())
		if !ok {
			return Type{}, false
		}
		if a.Kind == Array {
			return ArrayOf(e), true
		}
		return MultisetOf(e), true
	case Map:
		k, ok1 := CommonType(a.KeyType(), b.KeyType())
		v, ok2 := CommonType(a.ValueType(), b.ValueType())
		if !ok1 || !ok2 {
			return Type{}, false
		}
		return MapOf(k, v), true
	case Variant:
		return VariantType, true
	}
	if a.Kind == Structured && a.ClassName() != b.ClassName() {
		return Type{}, false
	}
	af, bf := a.Fields(), b.Fields()
	if len(af) != len(bf) {
		return Type{}, false
	}
	fs := make([]Field, len(af))
	for i := range af {
		t, ok := CommonType(af[i].Type, bf[i].Type)
		if !ok {
			return Type{}, false
		}
		fs[i] = Field{Name: af[i].Name, Type: t}
	}
	if a.Kind == Structured {
		return StructuredOf(a.ClassName(), fs), true
	}
	return RowOf(fs), true
}

// CheckEncoding reports whether s is the encoding of a non-NULL value of
// the composite type t, its nested values included.
func CheckEncoding(t Type, s string) error {
	var vs []Value
	var ts []Type
	var err error
	switch t.Kind {
	case Array:
		vs, err = DecodeArray(t.Elem(), s)
		for range vs {
			ts = append(ts, t.Elem())
		}
	case Map, Multiset:
		var ks []Value
		ks, vs, err = DecodeMap(t, s)
		for range ks {
			ts = append(ts, t.ValueType())
		}
		for _, k := range ks {
			vs, ts = append(vs, k), append(ts, t.KeyType())
		}
	case RowType, Structured:
		vs, err = DecodeRow(t, s)
		for _, f := range t.Fields() {
			ts = append(ts, f.Type)
		}
	case Variant:
		return checkVariant(s, 0)
	default:
		return nil
	}
	if err != nil {
		return err
	}
	for i, v := range vs {
		if v.Null {
			if ts[i].NotNull {
				return ErrCorrupt
			}
			continue
		}
		if err := CheckEncoding(ts[i], v.S); err != nil {
			return err
		}
	}
	return nil
}

// Contains reports whether t or a type nested in it satisfies pred.
func (t Type) Contains(pred func(Type) bool) bool {
	if pred(t) {
		return true
	}
	switch t.Kind {
	case Array, Multiset:
		return t.Elem().Contains(pred)
	case Map:
		return t.KeyType().Contains(pred) || t.ValueType().Contains(pred)
	case RowType, Structured:
		for _, f := range t.Fields() {
			if f.Type.Contains(pred) {
				return true
			}
		}
	}
	return false
}
