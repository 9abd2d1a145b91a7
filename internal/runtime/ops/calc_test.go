package ops

import (
	"slices"
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
	t, _, err := f.Bind(fa)
	if err != nil {
		tb.Fatal(err)
	}
	return &expr.Call{Name: name, Args: args, T: t}
}

// compileLocal compiles e for one goroutine.
func compileLocal(tb testing.TB, e expr.Expr) expr.Evaluator {
	tb.Helper()
	ev, err := expr.CompileLocal(e)
	if err != nil {
		tb.Fatal(err)
	}
	return ev
}

// calcCases are Calcs over (key STRING, v BIGINT, ts TIMESTAMP(3)) rows,
// configured as the job builder does: a filter with computed projections,
// and a plain column selection.
func calcCases(tb testing.TB) map[string]CalcConfig {
	in := []types.Type{types.StringType, types.BigIntType, types.TimestampType(3)}
	key := &expr.Column{Index: 0, T: in[0]}
	v := &expr.Column{Index: 1, T: in[1]}
	two := &expr.Literal{V: types.IntValue(2), T: types.BigIntType.WithNotNull(true)}
	ten := &expr.Literal{V: types.IntValue(10), T: types.BigIntType.WithNotNull(true)}
	ctx := expr.Context{Fn: &fn.Context{}}
	return map[string]CalcConfig{
		"filter-project": {
			Projects:    []expr.Evaluator{compileLocal(tb, bindCall(tb, "UPPER", key)), compileLocal(tb, bindCall(tb, "*", v, two))},
			Copies:      []int{-1, -1},
			Reads:       []int{0, 1},
			Filter:      compileLocal(tb, bindCall(tb, ">", v, ten)).Holds,
			OutputTypes: []types.Type{types.StringType, types.BigIntType},
			Context:     ctx,
		},
		"columns": {
			Projects:    []expr.Evaluator{compileLocal(tb, key), compileLocal(tb, v), compileLocal(tb, v)},
			Copies:      []int{0, 1, 1},
			Reads:       []int{},
			OutputTypes: []types.Type{in[0], in[1], in[1]},
			Context:     ctx,
		},
	}
}

// TestCalc: copied columns and the columns loaded for evaluation give the
// rows that evaluating every projection on whole rows gives.
func TestCalc(t *testing.T) {
	cs := benchChunks(3, 50)
	// Some NULLs, and rows of every kind.
	for i := 0; i+2 < cs[1].Len(); i += 7 {
		cs[1].Cols[0].Nulls[i] = true
		cs[1].Cols[1].Nulls[i+1] = true
		cs[1].Ops[i+2] = types.RowKind(i % 4)
	}
	for name, cfg := range calcCases(t) {
		t.Run(name, func(t *testing.T) {
			plain := cfg
			plain.Copies, plain.Reads = nil, nil
			var got, want recorder
			c, p := NewCalc(cfg), NewCalc(plain)
			for _, ch := range cs {
				if err := c.ProcessChunk(0, ch, &got); err != nil {
					t.Fatal(err)
				}
				if err := p.ProcessChunk(0, ch, &want); err != nil {
					t.Fatal(err)
				}
			}
			if len(got.lines) == 0 || !slices.Equal(got.lines, want.lines) || got.chunks != len(cs) {
				t.Errorf("%d rows in %d chunks, want the %d rows evaluated row by row", len(got.lines), got.chunks, len(want.lines))
			}
		})
	}
}

func TestCalcFilterAndProject(t *testing.T) {
	in := []types.Type{types.StringType, types.BigIntType, types.TimestampType(3)}
	ch := types.NewChunk(in, 4)
	ch.AppendRow(types.Insert, types.Row{value("a"), value(12), value(1)})
	ch.AppendRow(types.UpdateBefore, types.Row{value("b"), value(3), value(2)})
	ch.AppendRow(types.UpdateAfter, types.Row{value(nil), value(30), value(3)})
	ch.AppendRow(types.Delete, types.Row{value("d"), value(nil), value(4)})
	var out recorder
	if err := NewCalc(calcCases(t)["filter-project"]).ProcessChunk(0, ch, &out); err != nil {
		t.Fatal(err)
	}
	if want := []string{"+I[A, 24]", "+U[NULL, 60]"}; !slices.Equal(out.lines, want) {
		t.Errorf("got %v, want %v", out.lines, want)
	}
}

// TestCalcFilterDropsFirstChunk: a first chunk whose rows the filter all
// drops gives no output.
func TestCalcFilterDropsFirstChunk(t *testing.T) {
	in := []types.Type{types.StringType, types.BigIntType, types.TimestampType(3)}
	ch := types.NewChunk(in, 2)
	ch.AppendRow(types.Insert, types.Row{value("a"), value(1), value(1)})
	ch.AppendRow(types.Insert, types.Row{value("b"), value(2), value(2)})
	var out recorder
	if err := NewCalc(calcCases(t)["filter-project"]).ProcessChunk(0, ch, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.lines) != 0 || out.chunks != 0 {
		t.Errorf("got %v in %d chunks, want nothing", out.lines, out.chunks)
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
