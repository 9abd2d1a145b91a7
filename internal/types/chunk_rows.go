package types

// Rows kept by operators between chunks (a join's cached rows) in a
// compact form: rather than a Row per row (a Value of 40 bytes, a pointer
// among them, per column), the rows of one layout are held flat in three
// slices, int64 and float64 columns in an int64 slot each (floats by their
// bits), string columns in a string slot each, and a NULL flag per
// column. Rows without string columns hold no pointer the garbage
// collector scans, and values move between chunks and rows without boxing.

import "math"

// RowLayout places the columns of rows of given types in a Rows store.
type RowLayout struct {
	types []Type
	// phys and slot are each column's storage class and slot among the
	// int64 slots or the string slots of a row.
	phys       []Physical
	slot       []int
	ints, strs int
}

// NewRowLayout returns the layout of rows of types ts.
func NewRowLayout(ts []Type) *RowLayout {
	l := &RowLayout{types: ts, phys: make([]Physical, len(ts)), slot: make([]int, len(ts))}
	for c, t := range ts {
		l.phys[c] = t.Physical()
		if l.phys[c] == PhysString {
			l.slot[c] = l.strs
			l.strs++
		} else {
			l.slot[c] = l.ints
			l.ints++
		}
	}
	return l
}

// Types returns the column types of the layout.
func (l *RowLayout) Types() []Type { return l.types }

// Rows is a sequence of rows of one RowLayout, which every method takes
// (a Rows does not keep it, so that a store per key stays small). The
// zero value is empty.
type Rows struct {
	ints  []int64
	strs  []string
	nulls []bool
	n     int
}

// Len returns the number of rows.
func (r *Rows) Len() int { return r.n }

// AppendChunkRow appends row i of c, whose columns have the layout's
// types.
func (l *RowLayout) AppendChunkRow(r *Rows, c *Chunk, i int) {
	for k, v := range c.Cols {
		null := v.Nulls[i]
		r.nulls = append(r.nulls, null)
		switch l.phys[k] {
		case PhysString:
			s := ""
			if !null {
				s = v.Str[i]
			}
			r.strs = append(r.strs, s)
		case PhysFloat:
			x := int64(0)
			if !null {
				x = int64(math.Float64bits(v.F64[i]))
			}
			r.ints = append(r.ints, x)
		default:
			x := int64(0)
			if !null {
				x = v.I64[i]
			}
			r.ints = append(r.ints, x)
		}
	}
	r.n++
}

// AppendRow appends row, of the layout's types.
func (l *RowLayout) AppendRow(r *Rows, row Row) {
	for k, v := range row {
		r.nulls = append(r.nulls, v.Null)
		switch l.phys[k] {
		case PhysString:
			r.strs = append(r.strs, v.S)
		case PhysFloat:
			r.ints = append(r.ints, int64(math.Float64bits(v.F)))
		default:
			r.ints = append(r.ints, v.I)
		}
	}
	r.n++
}

// Int returns the int64 held in column col of row k, which is not NULL
// and of int64 storage.
func (l *RowLayout) Int(r *Rows, k, col int) int64 { return r.ints[k*l.ints+l.slot[col]] }

// Value returns column col of row k.
func (l *RowLayout) Value(r *Rows, k, col int) Value {
	if r.nulls[k*len(l.types)+col] {
		return NullValue
	}
	switch l.phys[col] {
	case PhysString:
		return Value{S: r.strs[k*l.strs+l.slot[col]]}
	case PhysFloat:
		return Value{F: math.Float64frombits(uint64(r.ints[k*l.ints+l.slot[col]]))}
	default:
		return Value{I: r.ints[k*l.ints+l.slot[col]]}
	}
}

// Row appends row k to dst, as values.
func (l *RowLayout) Row(dst Row, r *Rows, k int) Row {
	for col := range l.types {
		dst = append(dst, l.Value(r, k, col))
	}
	return dst
}

// AppendTo appends row k to the vectors dst, one per column of the
// layout (the columns of an output chunk, say).
func (l *RowLayout) AppendTo(dst []*Vector, r *Rows, k int) {
	nulls := r.nulls[k*len(l.types):]
	ints, strs := r.ints[k*l.ints:], r.strs[k*l.strs:]
	for col, v := range dst {
		v.Nulls = append(v.Nulls, nulls[col])
		switch l.phys[col] {
		case PhysString:
			v.Str = append(v.Str, strs[l.slot[col]])
		case PhysFloat:
			v.F64 = append(v.F64, math.Float64frombits(uint64(ints[l.slot[col]])))
		default:
			v.I64 = append(v.I64, ints[l.slot[col]])
		}
	}
}

// Move copies row from over row to (to <= from), for compacting rows in
// place before a Truncate.
func (l *RowLayout) Move(r *Rows, to, from int) {
	if to == from {
		return
	}
	w := len(l.types)
	copy(r.nulls[to*w:(to+1)*w], r.nulls[from*w:])
	copy(r.ints[to*l.ints:(to+1)*l.ints], r.ints[from*l.ints:])
	copy(r.strs[to*l.strs:(to+1)*l.strs], r.strs[from*l.strs:])
}

// Truncate keeps the first n rows, releasing the strings of the others.
func (l *RowLayout) Truncate(r *Rows, n int) {
	clear(r.strs[n*l.strs:])
	r.nulls, r.ints, r.strs = r.nulls[:n*len(l.types)], r.ints[:n*l.ints], r.strs[:n*l.strs]
	r.n = n
}

// AppendFrom appends row i of src, a vector of the same storage class.
func (v *Vector) AppendFrom(src *Vector, i int) {
	v.Nulls = append(v.Nulls, src.Nulls[i])
	switch v.Type.Physical() {
	case PhysFloat:
		v.F64 = append(v.F64, src.F64[i])
	case PhysString:
		v.Str = append(v.Str, src.Str[i])
	default:
		v.I64 = append(v.I64, src.I64[i])
	}
}
