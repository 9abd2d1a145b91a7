package state

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/sluicesql/sluice/internal/types"
)

// Row and key encoding. Each value is a tag byte (0 for NULL, 1 otherwise)
// followed, when not NULL, by its physical value: a zig-zag varint for
// integer-backed types, the 8 little-endian bytes of the IEEE bits for
// FLOAT/DOUBLE, a uvarint length and the bytes for strings. The encoding is
// deterministic and compact; it does not preserve order.
//
// Keys use the same layout except that -0.0 is written as 0.0, so that
// values equal in SQL give equal keys (as the runtime's key hash does).

// AppendRow appends the encoding of r, whose columns have types ts.
func AppendRow(b []byte, ts []types.Type, r types.Row) []byte {
	for i, t := range ts {
		b = appendValue(b, t.Physical(), r[i], false)
	}
	return b
}

// AppendKey appends the key encoding of r, whose columns have types ts.
func AppendKey(b []byte, ts []types.Type, r types.Row) []byte {
	for i, t := range ts {
		b = appendValue(b, t.Physical(), r[i], true)
	}
	return b
}

// AppendChunkKey appends the key encoding of columns cols of row i of c. It
// equals AppendKey of the same values.
func AppendChunkKey(b []byte, c *types.Chunk, i int, cols []int) []byte {
	for _, col := range cols {
		v := c.Cols[col]
		if v.Nulls[i] {
			b = append(b, 0)
			continue
		}
		b = append(b, 1)
		switch v.Type.Physical() {
		case types.PhysFloat:
			b = appendFloat(b, v.F64[i], true)
		case types.PhysString:
			b = appendBytes(b, []byte(v.Str[i]))
		default:
			b = binary.AppendVarint(b, v.I64[i])
		}
	}
	return b
}

func appendValue(b []byte, p types.Physical, v types.Value, key bool) []byte {
	if v.Null {
		return append(b, 0)
	}
	b = append(b, 1)
	switch p {
	case types.PhysFloat:
		return appendFloat(b, v.F, key)
	case types.PhysString:
		return appendBytes(b, []byte(v.S))
	default:
		return binary.AppendVarint(b, v.I)
	}
}

func appendFloat(b []byte, f float64, key bool) []byte {
	if key && f == 0 {
		f = 0
	}
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
}

func appendBytes(b, s []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// DecodeRow decodes a row of types ts encoded by AppendRow or AppendKey and
// returns the bytes after it.
func DecodeRow(b []byte, ts []types.Type) (types.Row, []byte, error) {
	r := Reader{b: b}
	row := r.Row(ts)
	return row, r.b, r.err
}

// Int64Codec encodes int64 values.
var Int64Codec = Codec[int64]{
	Append: binary.AppendVarint,
	Decode: func(b []byte) (int64, error) {
		r := Reader{b: b}
		v := r.Varint()
		return v, r.Done()
	},
}

// RowCodec returns a codec for rows of types ts.
func RowCodec(ts []types.Type) Codec[types.Row] {
	return Codec[types.Row]{
		Append: func(b []byte, r types.Row) []byte { return AppendRow(b, ts, r) },
		Decode: func(b []byte) (types.Row, error) {
			r := Reader{b: b}
			row := r.Row(ts)
			return row, r.Done()
		},
	}
}

// AppendUvarint appends an unsigned varint (for codecs built on Reader).
func AppendUvarint(b []byte, x uint64) []byte { return binary.AppendUvarint(b, x) }

// AppendVarint appends a zig-zag varint (for codecs built on Reader).
func AppendVarint(b []byte, x int64) []byte { return binary.AppendVarint(b, x) }

// AppendBytes appends a length-prefixed byte string (for codecs built on
// Reader).
func AppendBytes(b, s []byte) []byte { return appendBytes(b, s) }

var errShort = errors.New("unexpected end of data")

// Reader decodes what the Append functions of this package wrote. The
// first failure sticks: later reads return zero values and Done reports it.
type Reader struct {
	b   []byte
	err error
}

// NewReader returns a reader over b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

func (r *Reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.b = nil
}

func (r *Reader) byte() byte {
	if len(r.b) == 0 {
		r.fail(errShort)
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	x, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(errShort)
		return 0
	}
	r.b = r.b[n:]
	return x
}

// Varint reads a zig-zag varint.
func (r *Reader) Varint() int64 {
	x, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail(errShort)
		return 0
	}
	r.b = r.b[n:]
	return x
}

// Bytes reads a length-prefixed byte string; the result aliases the input.
func (r *Reader) Bytes() []byte {
	n := r.Uvarint()
	if n > uint64(len(r.b)) {
		r.fail(errShort)
		return nil
	}
	s := r.b[:n:n]
	r.b = r.b[n:]
	return s
}

// Row reads a row of types ts.
func (r *Reader) Row(ts []types.Type) types.Row {
	row := make(types.Row, len(ts))
	for i, t := range ts {
		switch r.byte() {
		case 0:
			row[i] = types.NullValue
			continue
		case 1:
		default:
			r.fail(errors.New("bad value tag"))
		}
		if r.err != nil {
			return nil
		}
		switch t.Physical() {
		case types.PhysFloat:
			if len(r.b) < 8 {
				r.fail(errShort)
				return nil
			}
			row[i] = types.FloatValue(math.Float64frombits(binary.LittleEndian.Uint64(r.b)))
			r.b = r.b[8:]
		case types.PhysString:
			row[i] = types.StringValue(string(r.Bytes()))
		default:
			row[i] = types.IntValue(r.Varint())
		}
	}
	if r.err != nil {
		return nil
	}
	return row
}

// Err returns the first failure, if any.
func (r *Reader) Err() error { return r.err }

// Done returns the first failure, or an error if input is left over.
func (r *Reader) Done() error {
	if r.err == nil && len(r.b) != 0 {
		r.err = errors.New("trailing bytes")
	}
	return r.err
}

// Rest returns the bytes not read yet.
func (r *Reader) Rest() []byte { return r.b }
