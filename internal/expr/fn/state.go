package fn

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/sluicesql/sluice/internal/types"
)

// encoder writes accumulator state: varints, IEEE-754 bits and
// length-prefixed strings, so equal states encode to equal bytes.
type encoder struct{ b []byte }

func (e *encoder) int(x int64)     { e.b = binary.AppendVarint(e.b, x) }
func (e *encoder) float(f float64) { e.b = binary.BigEndian.AppendUint64(e.b, math.Float64bits(f)) }
func (e *encoder) str(s string)    { e.int(int64(len(s))); e.b = append(e.b, s...) }

func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// value writes v as stored for physical class p.
func (e *encoder) value(p types.Physical, v types.Value) {
	e.bool(v.Null)
	if v.Null {
		return
	}
	switch p {
	case types.PhysFloat:
		e.float(v.F)
	case types.PhysString:
		e.str(v.S)
	default:
		e.int(v.I)
	}
}

var errState = errors.New("corrupt aggregate state")

// decoder reads what encoder wrote; the first error sticks.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) int() int64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errState
		return 0
	}
	d.b = d.b[n:]
	return x
}

func (d *decoder) float() float64 {
	if d.err != nil || len(d.b) < 8 {
		d.err = errState
		return 0
	}
	f := math.Float64frombits(binary.BigEndian.Uint64(d.b))
	d.b = d.b[8:]
	return f
}

func (d *decoder) str() string { return string(d.bytes()) }

// bytes reads what str wrote, without a copy.
func (d *decoder) bytes() []byte {
	n := d.int()
	if d.err != nil || n < 0 || int64(len(d.b)) < n {
		d.err = errState
		return nil
	}
	b := d.b[:n:n]
	d.b = d.b[n:]
	return b
}

func (d *decoder) bool() bool {
	if d.err != nil || len(d.b) < 1 {
		d.err = errState
		return false
	}
	v := d.b[0] != 0
	d.b = d.b[1:]
	return v
}

func (d *decoder) value(p types.Physical) types.Value {
	if d.bool() {
		return types.NullValue
	}
	switch p {
	case types.PhysFloat:
		return types.FloatValue(d.float())
	case types.PhysString:
		return types.StringValue(d.str())
	}
	return types.IntValue(d.int())
}

// done reports the first error, or an error if bytes are left over.
func (d *decoder) done() error {
	if d.err == nil && len(d.b) != 0 {
		return errState
	}
	return d.err
}
