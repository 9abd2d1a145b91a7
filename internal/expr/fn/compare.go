package fn

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// unordered is what a float comparison returns when either side is NaN:
// every ordering predicate is then false and <> is true, as with Java's
// primitive double comparisons in Flink's generated code.
const unordered = 2

// comparison compares two values of (possibly different) comparable types.
type comparison struct {
	// conv, when non-nil, maps the left or right value into the common
	// representation before comparing (it may need the session time zone).
	conv [2]func(*Context, types.Value) types.Value
	cmp  func(a, b types.Value) int
	// equalityOnly marks composite values, which are compared for
	// equality only.
	equalityOnly bool
	// ints marks int64-backed values compared as their int64s (cmpInt
	// without conversion).
	ints bool
}

func (c *comparison) compare(ctx *Context, a, b types.Value) int {
	if f := c.conv[0]; f != nil {
		a = f(ctx, a)
	}
	if f := c.conv[1]; f != nil {
		b = f(ctx, b)
	}
	return c.cmp(a, b)
}

func cmpInt(a, b types.Value) int    { return cmp.Compare(a.I, b.I) }
func cmpString(a, b types.Value) int { return strings.Compare(a.S, b.S) }

func cmpFloat(a, b types.Value) int {
	switch {
	case a.F < b.F:
		return -1
	case a.F > b.F:
		return 1
	case a.F == b.F:
		return 0
	}
	return unordered
}

// newComparison returns how values of types a and b compare, or false if
// Flink does not compare them. Numbers of any type are compared after
// widening; character strings by their UTF-8 bytes (as Flink's
// BinaryStringData.compareTo); DATE with TIMESTAMP as midnight of the day;
// TIMESTAMP with TIMESTAMP_LTZ by reading the TIMESTAMP in the session time
// zone.
func newComparison(a, b types.Type) (*comparison, bool) {
	switch {
	case a.Kind == types.Null || b.Kind == types.Null:
		return &comparison{cmp: cmpInt}, true
	case a.IsComposite() || b.IsComposite():
		return compositeComparison(a, b)
	case a.IsNumeric() && b.IsNumeric():
		return numericComparison(a, b), true
	case a.IsString() && b.IsString(), binaryStr(a) && binaryStr(b):
		return &comparison{cmp: cmpString}, true
	case a.Kind == b.Kind && a.IsNanoTimestamp() && b.IsNanoTimestamp():
		return &comparison{cmp: cmpString}, true // the encoding orders as the values
	case a.Kind == b.Kind && a.Kind != types.Null && a.IsNanoTimestamp() == b.IsNanoTimestamp():
		return &comparison{cmp: cmpInt, ints: a.Physical() == types.PhysInt}, true
	case datetime(a) && datetime(b):
		c := &comparison{cmp: cmpSecondsNanos}
		ltz := a.Kind == types.TimestampLTZ || b.Kind == types.TimestampLTZ
		for i, t := range [2]types.Type{a, b} {
			c.conv[i] = toInstantConv(t, ltz)
		}
		return c, true
	}
	return nil, false
}

// toInstantConv converts DATE, TIMESTAMP or TIMESTAMP_LTZ values to seconds
// since the epoch (I) and nanoseconds of the second (F), comparable with
// TIMESTAMP (ltz false) or TIMESTAMP_LTZ (ltz true) values whatever the
// range: a DATE's midnight or a wall clock read in the session time zone
// may lie outside the range of timestamps.
func toInstantConv(t types.Type, ltz bool) func(*Context, types.Value) types.Value {
	switch {
	case t.Kind == types.Date && ltz:
		return func(ctx *Context, v types.Value) types.Value {
			y, m, d := time.Unix(v.I*86400, 0).UTC().Date()
			return secondsNanos(time.Date(y, m, d, 0, 0, 0, 0, ctx.loc()))
		}
	case t.Kind == types.Date:
		return func(_ *Context, v types.Value) types.Value { return types.Value{I: v.I * 86400} }
	case t.Kind == types.Timestamp && ltz:
		return func(ctx *Context, v types.Value) types.Value {
			w := wallClock(t.Precision, v)
			return secondsNanos(time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), ctx.loc()))
		}
	}
	p := t.Precision
	return func(_ *Context, v types.Value) types.Value {
		us, ns := types.TimestampParts(p, v)
		return types.Value{I: floorDiv(us, 1_000_000), F: float64(floorMod(us, 1_000_000)*1000 + ns)}
	}
}

func secondsNanos(t time.Time) types.Value {
	return types.Value{I: t.Unix(), F: float64(t.Nanosecond())}
}

// cmpSecondsNanos compares the values of toInstantConv.
func cmpSecondsNanos(a, b types.Value) int {
	if c := cmp.Compare(a.I, b.I); c != 0 {
		return c
	}
	return cmp.Compare(a.F, b.F)
}

func numericComparison(a, b types.Type) *comparison {
	switch {
	case a.Kind == types.Float || a.Kind == types.Double || b.Kind == types.Float || b.Kind == types.Double:
		fa, fb := toFloat(a), toFloat(b)
		return &comparison{
			conv: [2]func(*Context, types.Value) types.Value{
				func(_ *Context, v types.Value) types.Value { return types.FloatValue(fa(v)) },
				func(_ *Context, v types.Value) types.Value { return types.FloatValue(fb(v)) },
			},
			cmp: cmpFloat,
		}
	case scaleOf(a) != scaleOf(b):
		sa, sb := scaleOf(a), scaleOf(b)
		s := max(sa, sb)
		return &comparison{cmp: func(x, y types.Value) int {
			return rescaleBig(bigOf(a, x), sa, s).Cmp(rescaleBig(bigOf(b, y), sb, s))
		}}
	case a.IsWideDecimal() && b.IsWideDecimal():
		// One scale: the encodings order as the values.
		return &comparison{cmp: cmpString}
	case a.IsWideDecimal() || b.IsWideDecimal():
		return &comparison{cmp: func(x, y types.Value) int {
			return unscaled128(a, x).Cmp(unscaled128(b, y))
		}}
	}
	return &comparison{cmp: cmpInt, ints: true}
}

// compareOps maps each comparison operator to its test on a three-way
// comparison result.
var compareOps = map[string]func(c int) bool{
	"=":  func(c int) bool { return c == 0 },
	"<>": func(c int) bool { return c != 0 },
	"<":  func(c int) bool { return c == -1 },
	"<=": func(c int) bool { return c == -1 || c == 0 },
	">":  func(c int) bool { return c == 1 },
	">=": func(c int) bool { return c == 1 || c == 0 },
}

func init() {
	for op, test := range compareOps {
		register(bindCompare(op, test), op)
	}
	register(bindDistinct("IS DISTINCT FROM", true), "IS DISTINCT FROM")
	register(bindDistinct("IS NOT DISTINCT FROM", false), "IS NOT DISTINCT FROM")
}

// compositeComparison compares composite values of types with a common
// type, both cast to it, by their encodings: equal values of one type
// have equal encodings, as Flink compares binary arrays, maps and rows
// (BinaryArrayData, BinaryMapData, BinaryRowData equals), NULL elements
// equal to each other.
func compositeComparison(a, b types.Type) (*comparison, bool) {
	if a.Kind == types.Variant || b.Kind == types.Variant {
		// VARIANT values are not comparable (see types/variant.go).
		return nil, false
	}
	t, ok := types.CommonType(a, b)
	if !ok {
		return nil, false
	}
	c := &comparison{cmp: cmpString, equalityOnly: true}
	for i, from := range [2]types.Type{a.Plain().Nullable(), b.Plain().Nullable()} {
		to := t.Nullable()
		if types.Equal(from, to) {
			continue
		}
		c.conv[i] = func(ctx *Context, v types.Value) types.Value {
			// The cast between types with a common type cannot fail:
			// their children widen.
			w, _ := types.Cast(v, from, to, ctx.loc())
			return w
		}
	}
	return c, true
}

func comparisonFor(name string, args []Arg) (*comparison, error) {
	if len(args) == 2 && args[0].Unit == "" && args[1].Unit == "" {
		if c, ok := newComparison(args[0].Type, args[1].Type); ok {
			if c.equalityOnly && name != "=" && name != "<>" && !strings.Contains(name, "DISTINCT") {
				return nil, fmt.Errorf("%s cannot compare values of type %s and %s: they can only be tested for equality",
					name, args[0].Type.Plain().Nullable(), args[1].Type.Plain().Nullable())
			}
			return c, nil
		}
	}
	return nil, sigError(name, "two comparable operands (numbers, strings, booleans, binary strings, dates and timestamps, times, intervals of one kind)", args)
}

func bindCompare(op string, test func(int) bool) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		c, err := comparisonFor(op, args)
		if err != nil {
			return types.Type{}, nil, err
		}
		return strictType(types.BooleanType, args), strict(func(ctx *Context, v []types.Value) (types.Value, error) {
			return types.BoolValue(test(c.compare(ctx, v[0], v[1]))), nil
		}), nil
	}
}

// bindDistinct is IS [NOT] DISTINCT FROM: equality where NULL equals NULL;
// never NULL itself.
func bindDistinct(name string, distinct bool) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		c, err := comparisonFor(name, args)
		if err != nil {
			return types.Type{}, nil, err
		}
		return types.BooleanType.WithNotNull(true), func(ctx *Context, v []types.Value) (types.Value, error) {
			var same bool
			switch {
			case v[0].Null || v[1].Null:
				same = v[0].Null == v[1].Null
			default:
				same = c.compare(ctx, v[0], v[1]) == 0
			}
			return types.BoolValue(same != distinct), nil
		}, nil
	}
}
