package fn

import (
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// Kernel evaluates a bound call over whole columns: args holds one vector
// per argument, all of one length n (a constant argument repeated), and
// the kernel appends the n results to out, each the value the call's Eval
// gives for that row. The calls that have kernels cannot fail on any
// input (comparisons, +, - and * on numbers, DATE_FORMAT with a constant
// pattern), so a kernel may be run on rows the row by row evaluation would
// have skipped; the error is there for the unexpected. A kernel may keep
// state between calls: it belongs to one goroutine at a time.
type Kernel func(ctx *Context, args []*types.Vector, out *types.Vector) error

// BindKernel returns a kernel for the call of the scalar function name on
// args whose result type (rt) and evaluator (ev) binding gave, and false
// when the call has none.
func BindKernel(name string, args []Arg, rt types.Type, ev Eval) (Kernel, bool) {
	if len(args) != 2 || args[0].Unit != "" || args[1].Unit != "" {
		return nil, false
	}
	a, b := args[0].Type, args[1].Type
	switch name {
	case "=", "<>", "<", "<=", ">", ">=":
		if c, ok := newComparison(a, b); ok && c.ints {
			return intCompareKernel(name), true
		}
		return rowKernel(ev), true
	case "IS DISTINCT FROM", "IS NOT DISTINCT FROM":
		return rowKernel(ev), true
	case "+", "-", "*":
		// Temporal arithmetic fails on overflow; the rest cannot fail.
		if isTemporal(a) || isTemporal(b) || !numeric(a) || !numeric(b) {
			return nil, false
		}
		if k := decimalKernel(name, a, b, rt, ev); k != nil {
			return k, true
		}
		return rowKernel(ev), true
	case "DATE_FORMAT":
		return dateFormatKernel(args)
	}
	return nil, false
}

// rowKernel applies ev row by row.
func rowKernel(ev Eval) Kernel {
	var vals []types.Value
	return func(ctx *Context, args []*types.Vector, out *types.Vector) error {
		if len(vals) != len(args) {
			vals = make([]types.Value, len(args))
		}
		for i := range args[0].Len() {
			for k, a := range args {
				vals[k] = a.Get(i)
			}
			v, err := ev(ctx, vals)
			if err != nil {
				return err
			}
			out.Append(v)
		}
		return nil
	}
}

// extend grows the int64-backed out by n rows and returns the new rows'
// null flags and values.
func extend(out *types.Vector, n int) ([]bool, []int64) {
	m := len(out.Nulls)
	out.Nulls = append(out.Nulls, make([]bool, n)...)
	out.I64 = append(out.I64, make([]int64, n)...)
	return out.Nulls[m:], out.I64[m:]
}

// strictNulls sets nulls[i] where either x or y is NULL, zeroing the value
// there as a NULL's is.
func strictNulls(nulls []bool, vals []int64, x, y *types.Vector) {
	for i := range nulls {
		if x.Nulls[i] || y.Nulls[i] {
			nulls[i], vals[i] = true, 0
		}
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// intCompareKernel compares int64-backed operands whose comparison is
// that of their int64s (comparison.ints).
func intCompareKernel(op string) Kernel {
	return func(_ *Context, args []*types.Vector, out *types.Vector) error {
		x, y := args[0].I64, args[1].I64
		nulls, r := extend(out, len(x))
		y = y[:len(x)]
		r = r[:len(x)]
		switch op {
		case "=":
			for i := range x {
				r[i] = b2i(x[i] == y[i])
			}
		case "<>":
			for i := range x {
				r[i] = b2i(x[i] != y[i])
			}
		case "<":
			for i := range x {
				r[i] = b2i(x[i] < y[i])
			}
		case "<=":
			for i := range x {
				r[i] = b2i(x[i] <= y[i])
			}
		case ">":
			for i := range x {
				r[i] = b2i(x[i] > y[i])
			}
		default: // ">="
			for i := range x {
				r[i] = b2i(x[i] >= y[i])
			}
		}
		strictNulls(nulls, r, args[0], args[1])
		return nil
	}
}

// decimalKernel returns the kernel of +, - or * on exact operands, at
// least one DECIMAL, held in int64s: the int64 computation of bindDecimal
// with its exact fallback (ev) for a compact result, and the product in
// 128 bits for a wide one; nil for other operand types.
func decimalKernel(op string, a, b, rt types.Type, ev Eval) Kernel {
	if !exactNum(a) || !exactNum(b) || a.Kind == types.Null || b.Kind == types.Null ||
		a.IsWideDecimal() || b.IsWideDecimal() || a.Kind != types.Decimal && b.Kind != types.Decimal || rt.Kind != types.Decimal {
		return nil
	}
	s1, s2, rs := scaleOf(a), scaleOf(b), rt.Scale
	if rt.IsWideDecimal() {
		if op != "*" || s1+s2 != rs {
			return nil
		}
		return wideProductKernel(rt)
	}
	fast, limit := decFast(op, s1, s2, rs), pow10[rt.Precision]
	if fast == nil {
		return nil
	}
	slow := rowKernel(ev)
	one := []*types.Vector{types.NewVector(a, 1), types.NewVector(b, 1)}
	res := types.NewVector(rt, 1)
	return func(ctx *Context, args []*types.Vector, out *types.Vector) error {
		x, y := args[0], args[1]
		nulls, vals := extend(out, x.Len())
		for i := range vals {
			if x.Nulls[i] || y.Nulls[i] {
				nulls[i] = true
				continue
			}
			if r, ok := fast(x.I64[i], y.I64[i]); ok && r < limit && r > -limit {
				vals[i] = r
				continue
			}
			// Outside int64 or the precision: the exact computation.
			one[0].Reset()
			one[1].Reset()
			one[0].AppendInt(x.I64[i])
			one[1].AppendInt(y.I64[i])
			res.Reset()
			if err := slow(ctx, one, res); err != nil {
				return err
			}
			nulls[i], vals[i] = res.Nulls[0], res.I64[0]
		}
		return nil
	}
}

// wideProductKernel multiplies int64-held operands into the wide DECIMAL
// rt (the scales add up), whose values are 16-byte strings: the strings of
// a call are slices of one string, so a value kept holds the call's others
// alive, as a decoded record's values hold the record's text.
func wideProductKernel(rt types.Type) Kernel {
	var buf []byte
	return func(_ *Context, args []*types.Vector, out *types.Vector) error {
		x, y := args[0], args[1]
		n := x.Len()
		buf = buf[:0]
		m := len(out.Nulls)
		for i := range n {
			r := types.Mul64(x.I64[i], y.I64[i])
			null := x.Nulls[i] || y.Nulls[i] || !r.FitsDigits(rt.Precision)
			out.Nulls = append(out.Nulls, null)
			if !null {
				buf = r.AppendEncoded(buf)
			}
		}
		s := string(buf)
		for _, null := range out.Nulls[m:] {
			if null {
				out.Str = append(out.Str, "")
				continue
			}
			out.Str = append(out.Str, s[:16])
			s = s[16:]
		}
		return nil
	}
}

// DecimalArithIntoKernel is the kernel of DecimalArithInto.
func DecimalArithIntoKernel(op string, a, b, to types.Type) (Kernel, bool) {
	f, ok := decimalArithInto(op, a, b, to)
	if !ok {
		return nil, false
	}
	return func(_ *Context, args []*types.Vector, out *types.Vector) error {
		x, y := args[0], args[1]
		nulls, vals := extend(out, x.Len())
		for i := range vals {
			if x.Nulls[i] || y.Nulls[i] {
				nulls[i] = true
				continue
			}
			v, ok := f(x.I64[i], y.I64[i])
			nulls[i], vals[i] = !ok, v
		}
		return nil
	}, true
}

// dateFormatKernel formats DATE, TIMESTAMP or TIMESTAMP_LTZ values with a
// constant pattern, compiled once; a row whose value falls in the same
// unit as the row before (the day for a pattern of date fields only, the
// second for one without fractions of a second, else the same instant)
// gets the same string, formatted once.
func dateFormatKernel(args []Arg) (Kernel, bool) {
	p, ok := constString(args[1])
	if !ok || !datetime(args[0].Type) || args[0].Type.IsNanoTimestamp() { // int64-held values only
		return nil, false
	}
	f, err := compileDateFormat(p)
	if err != nil {
		return nil, false
	}
	read, unit := timeReader(args[0].Type), f.unit()
	var (
		have    bool // the fields below describe a row formatted before
		lastRaw int64
		lastKey int64
		lastNs  int
		lastLoc *time.Location
		ctxLoc  *time.Location
		last    string
		buf     []byte
	)
	return func(ctx *Context, args []*types.Vector, out *types.Vector) error {
		if ctx.loc() != ctxLoc {
			have, ctxLoc = false, ctx.loc()
		}
		x := args[0]
		for i := range x.Len() {
			if x.Nulls[i] {
				out.AppendNull()
				continue
			}
			if raw := x.I64[i]; !have || raw != lastRaw {
				t := read(ctx, types.Value{I: raw})
				var key int64
				ns := 0
				switch unit {
				case unitDay:
					key = floorDiv(wallSeconds(t), 86400)
				case unitSecond:
					key = t.Unix()
				default:
					key, ns = t.Unix(), t.Nanosecond()
				}
				if !have || key != lastKey || ns != lastNs || t.Location() != lastLoc {
					buf = f.appendFormat(buf[:0], t)
					lastKey, lastNs, lastLoc, last = key, ns, t.Location(), string(buf)
				}
				have, lastRaw = true, raw
			}
			out.AppendString(last)
		}
		return nil
	}, true
}
