package expr

import (
	"testing"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/types"
)

// call binds the scalar function name to args.
func call(tb testing.TB, name string, args ...Expr) *Call {
	tb.Helper()
	f, ok := fn.LookupScalar(name)
	if !ok {
		tb.Fatalf("no function %s", name)
	}
	fa := make([]fn.Arg, len(args))
	for i, a := range args {
		fa[i] = fn.Arg{Type: a.Type()}
		if l, ok := a.(*Literal); ok {
			fa[i].Const = &l.V
		}
	}
	t, ev, err := f.Bind(fa)
	if err != nil {
		tb.Fatal(err)
	}
	return &Call{Name: name, Args: args, T: t, Eval: ev}
}

func lit(v int64) *Literal { return &Literal{V: types.IntValue(v), T: types.BigIntType.WithNotNull(true)} }

var (
	title = &Column{Index: 0, Name: "title", T: types.StringType}
	value = &Column{Index: 1, Name: "value", T: types.BigIntType}
)

// salesExprs are the expressions of a filtering projection over
// (title STRING, value BIGINT) rows.
func salesExprs(tb testing.TB) map[string]Expr {
	return map[string]Expr{
		"upper":         call(tb, "UPPER", title),
		"arith-compare": call(tb, ">", call(tb, "*", value, lit(2)), lit(10)),
		"in":            &In{X: value, List: []Expr{lit(3), lit(7)}, Eq: []fn.Eval{call(tb, "=", value, lit(3)).Eval, call(tb, "=", value, lit(7)).Eval}},
	}
}

func salesRows() []types.Row {
	return []types.Row{
		{types.StringValue("Die Hard"), types.IntValue(12)},
		{types.StringValue("Aliens"), types.IntValue(3)},
		{types.NullValue, types.IntValue(7)},
		{types.StringValue("Tree of Life"), types.NullValue},
	}
}

func BenchmarkEval(b *testing.B) {
	ctx := &Context{Fn: &fn.Context{}}
	rows := salesRows()
	for name, e := range salesExprs(b) {
		b.Run(name, func(b *testing.B) {
			ev := Compile(e)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := ev(ctx, rows[i%len(rows)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
