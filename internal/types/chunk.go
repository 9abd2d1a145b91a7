package types

import "fmt"

// RowKind is the change a row carries in a changelog, after Flink's RowKind.
type RowKind uint8

// The four row kinds.
const (
	Insert RowKind = iota
	UpdateBefore
	UpdateAfter
	Delete
)

// String returns the short form Flink prints: +I, -U, +U, -D.
func (k RowKind) String() string {
	switch k {
	case Insert:
		return "+I"
	case UpdateBefore:
		return "-U"
	case UpdateAfter:
		return "+U"
	case Delete:
		return "-D"
	}
	return fmt.Sprintf("?%d", uint8(k))
}

// IsAccumulate reports whether k adds a row (+I or +U).
func (k RowKind) IsAccumulate() bool { return k == Insert || k == UpdateAfter }

// Value is one scalar value. Which field holds it follows the type's
// Physical storage class; Null marks SQL NULL.
type Value struct {
	I    int64
	F    float64
	S    string
	Null bool
}

// NullValue is SQL NULL.
var NullValue = Value{Null: true}

// IntValue returns an int64-backed value.
func IntValue(i int64) Value { return Value{I: i} }

// FloatValue returns a float64-backed value.
func FloatValue(f float64) Value { return Value{F: f} }

// StringValue returns a string-backed value.
func StringValue(s string) Value { return Value{S: s} }

// BoolValue returns a BOOLEAN value.
func BoolValue(b bool) Value {
	if b {
		return Value{I: 1}
	}
	return Value{}
}

// Bool returns the BOOLEAN held by v.
func (v Value) Bool() bool { return v.I != 0 }

// Row is a row of values, used where operators work one row at a time
// (state, printing).
type Row []Value

// Vector is one column of a chunk: values of one type, stored by the type's
// physical class, plus a null flag per row.
type Vector struct {
	Type  Type
	Nulls []bool
	I64   []int64
	F64   []float64
	Str   []string
}

// NewVector returns an empty vector of type t with room for n rows.
func NewVector(t Type, n int) *Vector {
	v := &Vector{Type: t, Nulls: make([]bool, 0, n)}
	switch t.Physical() {
	case PhysFloat:
		v.F64 = make([]float64, 0, n)
	case PhysString:
		v.Str = make([]string, 0, n)
	default:
		v.I64 = make([]int64, 0, n)
	}
	return v
}

// Len returns the number of rows in v.
func (v *Vector) Len() int { return len(v.Nulls) }

// Get returns row i of v.
func (v *Vector) Get(i int) Value {
	if v.Nulls[i] {
		return NullValue
	}
	switch v.Type.Physical() {
	case PhysFloat:
		return Value{F: v.F64[i]}
	case PhysString:
		return Value{S: v.Str[i]}
	default:
		return Value{I: v.I64[i]}
	}
}

// Append adds x at the end of v.
func (v *Vector) Append(x Value) {
	v.Nulls = append(v.Nulls, x.Null)
	switch v.Type.Physical() {
	case PhysFloat:
		v.F64 = append(v.F64, x.F)
	case PhysString:
		v.Str = append(v.Str, x.S)
	default:
		v.I64 = append(v.I64, x.I)
	}
}

// AppendNull adds a NULL at the end of v.
func (v *Vector) AppendNull() { v.Append(NullValue) }

// AppendInt adds a non-null int64-backed value.
func (v *Vector) AppendInt(i int64) {
	v.Nulls = append(v.Nulls, false)
	v.I64 = append(v.I64, i)
}

// AppendFloat adds a non-null float64-backed value.
func (v *Vector) AppendFloat(f float64) {
	v.Nulls = append(v.Nulls, false)
	v.F64 = append(v.F64, f)
}

// AppendString adds a non-null string-backed value.
func (v *Vector) AppendString(s string) {
	v.Nulls = append(v.Nulls, false)
	v.Str = append(v.Str, s)
}

// Reset empties v, keeping its capacity.
func (v *Vector) Reset() {
	v.Nulls = v.Nulls[:0]
	v.I64 = v.I64[:0]
	v.F64 = v.F64[:0]
	v.Str = v.Str[:0]
}

// Chunk is a batch of changelog rows held column by column, with one row
// kind per row. It is the unit of data between operators.
type Chunk struct {
	Ops  []RowKind
	Cols []*Vector
}

// ChunkSize is the number of rows operators aim to put in one chunk.
const ChunkSize = 1024

// NewChunk returns an empty chunk for the given column types.
func NewChunk(ts []Type, n int) *Chunk {
	c := &Chunk{Ops: make([]RowKind, 0, n), Cols: make([]*Vector, len(ts))}
	for i, t := range ts {
		c.Cols[i] = NewVector(t, n)
	}
	return c
}

// Len returns the number of rows in c.
func (c *Chunk) Len() int { return len(c.Ops) }

// Row returns row i of c as a Row.
func (c *Chunk) Row(i int) Row {
	r := make(Row, len(c.Cols))
	for j, col := range c.Cols {
		r[j] = col.Get(i)
	}
	return r
}

// AppendRow adds one row with kind k.
func (c *Chunk) AppendRow(k RowKind, r Row) {
	c.Ops = append(c.Ops, k)
	for j, col := range c.Cols {
		col.Append(r[j])
	}
}

// AppendRowTo appends row i of c to the vectors dst, one per column of c
// and of the same storage classes, copying the values without boxing.
func (c *Chunk) AppendRowTo(dst []*Vector, i int) {
	for k, v := range c.Cols {
		dst[k].AppendFrom(v, i)
	}
}

// Types returns the column types of c.
func (c *Chunk) Types() []Type {
	ts := make([]Type, len(c.Cols))
	for i, col := range c.Cols {
		ts[i] = col.Type
	}
	return ts
}
