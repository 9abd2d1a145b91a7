package fn

import (
	"errors"
	"fmt"

	"github.com/sluicesql/sluice/internal/types"
)

func init() {
	registerAgg(bindLag, "LAG")
	aggregates["LAG"].OverOnly = true
}

// lagAcc keeps the last offset+1 values accumulated, as Flink's
// LagAggFunction (the streaming LAG of OVER windows) does: its result is
// the oldest of them once there are offset+1, else the default value of
// the latest row.
type lagAcc struct {
	phys   types.Physical
	offset int64
	buf    []types.Value
	def    types.Value
	hasDef bool
}

func (l *lagAcc) Add(args []types.Value) {
	if l.hasDef {
		l.def = args[2]
	}
	l.buf = append(l.buf, args[0])
	if n := int64(len(l.buf)); n > l.offset+1 {
		l.buf = l.buf[n-l.offset-1:]
	}
}

func (l *lagAcc) Retract([]types.Value) error {
	return errors.New("LAG Function with retraction is not supported in stream mode.")
}

func (l *lagAcc) Result() (types.Value, error) {
	if int64(len(l.buf)) < l.offset+1 {
		return l.def, nil
	}
	return l.buf[0], nil
}

func (l *lagAcc) MarshalState() []byte {
	var e encoder
	e.value(l.phys, l.def)
	e.int(int64(len(l.buf)))
	for _, v := range l.buf {
		e.value(l.phys, v)
	}
	return e.b
}

func (l *lagAcc) UnmarshalState(b []byte) error {
	d := decoder{b: b}
	def := d.value(l.phys)
	n := d.int()
	var buf []types.Value
	for i := int64(0); i < n && d.err == nil; i++ {
		buf = append(buf, d.value(l.phys))
	}
	if err := d.done(); err != nil {
		return err
	}
	l.def, l.buf = def, buf
	return nil
}

// LAG(expression [, offset] [, default]): "Returns the value of expression
// at the offsetth row before the current row in the window. The default
// value of offset is 1 and the default value of default is NULL." Only in
// OVER windows whose frame is unbounded (Flink's streaming LAG cannot
// retract). The offset is a constant non-negative integer here; default
// must have the value's type class, as Flink asks it to be cast
// explicitly otherwise. The result may be NULL unless the value and the
// default are NOT NULL.
func bindLag(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
	if distinct || len(args) < 1 || len(args) > 3 || args[0].Unit != "" || args[0].Type.Kind == types.Null {
		return types.Type{}, nil, sigError("LAG", "(value [, constant INT offset [, default]])", args)
	}
	offset := int64(1)
	if len(args) > 1 {
		o, ok := constInt(args[1])
		if !ok {
			return types.Type{}, nil, sigError("LAG", "(value [, constant INT offset [, default]])", args)
		}
		if o < 0 {
			return types.Type{}, nil, fmt.Errorf("Offset(%d) should be positive.", o)
		}
		offset = o
	}
	t := args[0].Type.Plain()
	notNull := false
	if len(args) == 3 {
		d := args[2].Type
		if d.Kind != types.Null && !sameClass(t, d) {
			return types.Type{}, nil, fmt.Errorf("Please explicitly cast default value %s to %s.", d, t)
		}
		notNull = t.NotNull && d.NotNull
	}
	hasDef, phys := len(args) == 3, t.Physical()
	return t.WithNotNull(notNull), func() Accumulator {
		return &lagAcc{phys: phys, offset: offset, def: types.NullValue, hasDef: hasDef}
	}, nil
}

// sameClass tells whether values of a and b have one Java class in Flink
// (its internal data structures): the same type but for length, precision
// and nullability.
func sameClass(a, b types.Type) bool {
	switch {
	case a.IsString():
		return b.IsString()
	case a.Kind == types.Binary || a.Kind == types.Varbinary:
		return b.Kind == types.Binary || b.Kind == types.Varbinary
	}
	return a.Kind == b.Kind
}
