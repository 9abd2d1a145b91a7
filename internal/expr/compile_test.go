package expr

import (
	"slices"
	"strings"
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
	t, _, err := f.Bind(fa)
	if err != nil {
		tb.Fatal(err)
	}
	return &Call{Name: name, Args: args, T: t}
}

func lit(v int64) *Literal {
	return &Literal{V: types.IntValue(v), T: types.BigIntType.WithNotNull(true)}
}

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
		"in":            &In{X: value, List: []Expr{lit(3), lit(7)}},
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

// TestCompileLocal: a local evaluator, reusing its argument buffers from
// row to row, gives what the shared one gives.
func TestCompileLocal(t *testing.T) {
	ctx := &Context{Fn: &fn.Context{}}
	for name, e := range salesExprs(t) {
		shared, err1 := Compile(e)
		local, err2 := CompileLocal(e)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v, %v", name, err1, err2)
		}
		for range 2 {
			for _, r := range salesRows() {
				want, err1 := shared(ctx, r)
				got, err2 := local(ctx, r)
				if got != want || err1 != nil || err2 != nil {
					t.Errorf("%s on %v: local %v (%v), shared %v (%v)", name, r, got, err2, want, err1)
				}
			}
		}
	}
}

func TestColumns(t *testing.T) {
	e := &Case{
		Whens: []When{{Cond: &IsNull{X: &Column{Index: 4}}, Then: call(t, "UPPER", title)}},
		Else:  &Coalesce{Args: []Expr{&Cast{X: &Column{Index: 2, T: types.IntType}, T: types.StringType}, title}},
	}
	if got := Columns(e, nil, salesExprs(t)["arith-compare"], lit(1)); !slices.Equal(got, []int{0, 1, 2, 4}) {
		t.Errorf("Columns = %v", got)
	}
}

func BenchmarkEval(b *testing.B) {
	ctx := &Context{Fn: &fn.Context{}}
	rows := salesRows()
	for name, e := range salesExprs(b) {
		for _, v := range []struct {
			name    string
			compile func(Expr) (Evaluator, error)
		}{{"shared", Compile}, {"local", CompileLocal}} {
			b.Run(name+"/"+v.name, func(b *testing.B) {
				ev, err := v.compile(e)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					if _, err := ev(ctx, rows[i%len(rows)]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestCompileBindErrors: an expression that cannot be bound, as one read
// from a damaged or outdated plan may be, fails to compile with an error
// naming the function.
func TestCompileBindErrors(t *testing.T) {
	upper := call(t, "UPPER", title)
	for _, tc := range []struct {
		name string
		e    Expr
		want string
	}{
		{"unknown function", &Call{Name: "NO_SUCH_FN", Args: []Expr{title}, T: types.StringType}, "unknown function 'NO_SUCH_FN'"},
		{"arguments rejected", &Call{Name: "UPPER", Args: []Expr{value}, T: types.StringType}, "function 'UPPER': UPPER expects"},
		{"result type differs", &Call{Name: "UPPER", Args: upper.Args, T: types.IntType}, "function 'UPPER' returns STRING, not INT"},
		{"nested", &Not{X: &Call{Name: "NO_SUCH_FN", T: types.BooleanType}}, "unknown function 'NO_SUCH_FN'"},
		{"IN items not comparable", &In{X: value, List: []Expr{title}}, "IN: cannot compare BIGINT with STRING"},
	} {
		for _, compile := range []func(Expr) (Evaluator, error){Compile, CompileLocal} {
			if _, err := compile(tc.e); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
			}
		}
	}
}
