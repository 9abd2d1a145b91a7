package fn

import (
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// in is one argument of a test call: its plan-time description and value.
type in struct {
	arg Arg
	val types.Value
}

func lit(t types.Type, v types.Value) in {
	t.NotNull = !v.Null
	return in{Arg{Type: t, Const: &v}, v}
}

// col turns a literal into a column reference (no constant).
func col(x in) in { x.arg.Const = nil; x.arg.Type.NotNull = false; return x }

func str_(s string) in     { return lit(types.StringType, types.StringValue(s)) }
func int_(i int64) in      { return lit(types.IntType, types.IntValue(i)) }
func bigint(i int64) in    { return lit(types.BigIntType, types.IntValue(i)) }
func tiny(i int64) in      { return lit(types.Type{Kind: types.TinyInt}, types.IntValue(i)) }
func small(i int64) in     { return lit(types.Type{Kind: types.SmallInt}, types.IntValue(i)) }
func dbl(f float64) in     { return lit(types.DoubleType, types.FloatValue(f)) }
func flt(f float64) in     { return lit(types.Type{Kind: types.Float}, types.FloatValue(f)) }
func boolean_(b bool) in   { return lit(types.BooleanType, types.BoolValue(b)) }
func null(t types.Type) in { return lit(t, types.NullValue) }
func unit(u string) in     { return in{arg: Arg{Unit: u}} }

func dec(unscaled int64, p, s int) in {
	t := types.DecimalType(p, s)
	return lit(t, types.DecimalOf(t, types.Int128Of(unscaled)))
}

// wideDec is a DECIMAL(p, s) literal of the unscaled digits u.
func wideDec(u string, p, s int) in {
	t := types.DecimalType(p, s)
	x, ok := new(big.Int).SetString(u, 10)
	if !ok {
		panic(u)
	}
	return lit(t, types.DecimalOfBig(t, x))
}

// ts is a TIMESTAMP(3) literal 'yyyy-MM-dd HH:mm:ss[.fff]'.
func ts(s string) in {
	ns, ok := parseDefaultTimestamp(s)
	if !ok {
		panic("bad timestamp literal " + s)
	}
	return lit(types.TimestampType(3), types.IntValue(ns.UnixMicro()))
}

// ltz is a TIMESTAMP_LTZ(3) literal given as a UTC instant.
func ltz(s string) in {
	x := ts(s)
	x.arg.Type = types.TimestampLTZType(3)
	return x
}

// date is a DATE literal 'yyyy-MM-dd'.
func date(s string) in {
	d, ok := parseLenientDate(s)
	if !ok {
		panic("bad date literal " + s)
	}
	return lit(types.Type{Kind: types.Date}, types.IntValue(d))
}

func interval(ms int64) in {
	return lit(types.Type{Kind: types.IntervalDayTime}, types.IntValue(ms))
}

func months(m int64) in {
	return lit(types.Type{Kind: types.IntervalYearMonth}, types.IntValue(m))
}

func mustLoc(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

var (
	utc      = &Context{Loc: time.UTC, Now: fixedNow}
	fixedNow = func() time.Time { return time.Date(2023, 8, 23, 17, 36, 15, 123456789, time.UTC) }
)

// call binds and evaluates name on the inputs.
func call(ctx *Context, name string, ins ...in) (types.Type, types.Value, error) {
	f, ok := LookupScalar(name)
	if !ok {
		panic("no function " + name)
	}
	args := make([]Arg, len(ins))
	vals := make([]types.Value, len(ins))
	for i, x := range ins {
		args[i], vals[i] = x.arg, x.val
	}
	rt, eval, err := f.Bind(args)
	if err != nil {
		return rt, types.Value{}, err
	}
	v, err := eval(ctx, vals)
	return rt, v, err
}

// show renders a result for comparison with Flink's printed output.
func show(t types.Type, v types.Value) string {
	if v.Null {
		return "NULL"
	}
	switch t.Kind {
	case types.Timestamp:
		return wallClock(t.Precision, v).Format("2006-01-02 15:04:05.999999999")
	case types.TimestampLTZ:
		return wallClock(t.Precision, v).Format("2006-01-02 15:04:05.999999999Z")
	case types.Date:
		return time.Unix(v.I*86400, 0).UTC().Format("2006-01-02")
	case types.Time:
		return time.Unix(0, v.I).UTC().Format("15:04:05.999999999")
	case types.Boolean:
		if v.Bool() {
			return "TRUE"
		}
		return "FALSE"
	case types.Decimal:
		return string(types.AppendDecimal(nil, types.DecimalUnscaled(t, v), t.Scale))
	}
	switch t.Kind {
	case types.Float:
		return strconv.FormatFloat(v.F, 'g', -1, 32)
	case types.Double:
		return strconv.FormatFloat(v.F, 'g', -1, 64)
	}
	if t.IsComposite() {
		return types.FormatValue(t, v, nil)
	}
	if t.Physical() == types.PhysString {
		return v.S
	}
	return strconv.FormatInt(v.I, 10)
}

func argsLabel(ins []in) string {
	parts := make([]string, len(ins))
	for i, x := range ins {
		if x.arg.Unit != "" {
			parts[i] = x.arg.Unit
		} else {
			parts[i] = show(x.arg.Type, x.val)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// scalarCase is one table-driven check: name(args) shows as want, or
// fails with an error containing wantErr.
type scalarCase struct {
	name    string
	args    []in
	want    string
	wantErr string
}

func runScalarCases(t *testing.T, ctx *Context, cases []scalarCase) {
	t.Helper()
	for _, c := range cases {
		rt, v, err := call(ctx, c.name, c.args...)
		label := c.name + argsLabel(c.args)
		switch {
		case c.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", label, err, c.wantErr)
			}
		case err != nil:
			t.Errorf("%s: %v", label, err)
		default:
			if got := show(rt, v); got != c.want {
				t.Errorf("%s = %s, want %s (type %s)", label, got, c.want, rt)
			}
		}
	}
}
