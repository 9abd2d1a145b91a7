package ops

import (
	"testing"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/types"
)

// bindCall binds the scalar function name to args.
func bindCall(tb testing.TB, name string, args ...expr.Expr) *expr.Call {
	tb.Helper()
	f, ok := fn.LookupScalar(name)
	if !ok {
		tb.Fatalf("no function %s", name)
	}
	fa := make([]fn.Arg, len(args))
	for i, a := range args {
		fa[i] = fn.Arg{Type: a.Type()}
	}
	t, ev, err := f.Bind(fa)
	if err != nil {
		tb.Fatal(err)
	}
	return &expr.Call{Name: name, Args: args, T: t, Eval: ev}
}

// calcCases are Calcs over (key STRING, v BIGINT, ts TIMESTAMP(3)) rows:
// a filter with computed projections, and a plain column selection.
func calcCases(tb testing.TB) map[string]CalcConfig {
	in := []types.Type{types.StringType, types.BigIntType, types.TimestampType(3)}
	key := &expr.Column{Index: 0, T: in[0]}
	v := &expr.Column{Index: 1, T: in[1]}
	two := &expr.Literal{V: types.IntValue(2), T: types.BigIntType.WithNotNull(true)}
	ten := &expr.Literal{V: types.IntValue(10), T: types.BigIntType.WithNotNull(true)}
	ctx := expr.Context{Fn: &fn.Context{}}
	return map[string]CalcConfig{
		"filter-project": {
			Projects:    []expr.Evaluator{expr.Compile(bindCall(tb, "UPPER", key)), expr.Compile(bindCall(tb, "*", v, two))},
			Filter:      expr.Predicate(bindCall(tb, ">", v, ten)),
			OutputTypes: []types.Type{types.StringType, types.BigIntType},
			Context:     ctx,
		},
		"columns": {
			Projects:    []expr.Evaluator{expr.Compile(key), expr.Compile(v), expr.Compile(v)},
			OutputTypes: []types.Type{in[0], in[1], in[1]},
			Context:     ctx,
		},
	}
}

func BenchmarkCalc(b *testing.B) {
	cs := benchChunks(16, 50)
	for name, cfg := range calcCases(b) {
		b.Run(name, func(b *testing.B) {
			c := NewCalc(cfg)
			rows := 0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if err := c.ProcessChunk(0, cs[i%len(cs)], discard{}); err != nil {
					b.Fatal(err)
				}
				rows += types.ChunkSize
			}
			reportRows(b, rows)
		})
	}
}
