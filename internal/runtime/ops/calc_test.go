package ops

import (
	"slices"
	"testing"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/runtime"
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

// vectorCalc returns the Calc over (key STRING, v BIGINT, ts TIMESTAMP(3))
// rows of filter (nil for none) and projects as the job builder configures
// it, the projections and filter with a column form evaluated over whole
// chunks, and the same Calc evaluating everything row by row.
func vectorCalc(tb testing.TB, filter expr.Expr, projects ...expr.Expr) (vector, rows CalcConfig) {
	tb.Helper()
	ctx := expr.Context{Fn: &fn.Context{}}
	vector = CalcConfig{Context: ctx, Vectors: make([]expr.VectorEvaluator, len(projects)), Copies: make([]int, len(projects))}
	rows = CalcConfig{Context: ctx}
	var rowExprs, vecExprs []expr.Expr
	for j, p := range projects {
		ev := compileLocal(tb, p)
		vector.Projects, rows.Projects = append(vector.Projects, ev), append(rows.Projects, ev)
		vector.OutputTypes = append(vector.OutputTypes, p.Type())
		vector.Copies[j] = -1
		if col, ok := p.(*expr.Column); ok {
			vector.Copies[j] = col.Index
			continue
		}
		vec, ok, err := expr.CompileVector(p)
		if err != nil {
			tb.Fatal(err)
		}
		if ok {
			vector.Vectors[j] = vec
			vecExprs = append(vecExprs, p)
		} else {
			rowExprs = append(rowExprs, p)
		}
	}
	rows.OutputTypes = vector.OutputTypes
	if filter != nil {
		rows.Filter = compileLocal(tb, filter).Holds
		vec, ok, err := expr.CompileVector(filter)
		switch {
		case err != nil:
			tb.Fatal(err)
		case ok:
			vector.VectorFilter = vec
		default:
			vector.Filter = rows.Filter
			rowExprs = append(rowExprs, filter)
		}
	}
	vector.Reads, vector.VectorReads = expr.Columns(rowExprs...), expr.Columns(vecExprs...)
	return vector, rows
}

// q17Calc is the Calc of Nexmark's q17 over (key, v, ts) rows: the day of
// ts and the three price ranges of its FILTER clauses.
func q17Calc(tb testing.TB) (vector, rows CalcConfig) {
	v := &expr.Column{Index: 1, T: types.BigIntType}
	ts := &expr.Column{Index: 2, T: types.TimestampType(3)}
	lit := func(x int64) expr.Expr {
		return &expr.Literal{V: types.IntValue(x), T: types.IntType.WithNotNull(true)}
	}
	pattern := &expr.Literal{V: types.StringValue("yyyy-MM-dd"), T: types.StringType.WithNotNull(true)}
	return vectorCalc(tb, nil, &expr.Column{Index: 0, T: types.StringType}, bindCall(tb, "DATE_FORMAT", ts, pattern),
		bindCall(tb, "<", v, lit(10000)),
		&expr.Logic{Args: []expr.Expr{bindCall(tb, ">=", v, lit(10000)), bindCall(tb, "<", v, lit(1000000))}},
		bindCall(tb, ">=", v, lit(1000000)), v)
}

// TestCalcVectors: the Calc evaluating over whole chunks what has a column
// form (alone, beside projections or a filter evaluated row by row, over
// the rows a filter kept) gives the rows of the row by row evaluation.
func TestCalcVectors(t *testing.T) {
	cs := benchChunks(3, 50)
	for i := 0; i+2 < cs[1].Len(); i += 7 {
		cs[1].Cols[0].Nulls[i] = true
		cs[1].Cols[1].Nulls[i+1] = true
		cs[1].Cols[2].Nulls[i+2] = true
		cs[1].Ops[i+2] = types.RowKind(i % 4)
	}
	key := &expr.Column{Index: 0, T: types.StringType}
	v := &expr.Column{Index: 1, T: types.BigIntType}
	ten := &expr.Literal{V: types.IntValue(10), T: types.BigIntType.WithNotNull(true)}
	q17, q17Rows := q17Calc(t)
	type pair struct{ vector, rows CalcConfig }
	cases := map[string]pair{"q17": {q17, q17Rows}}
	for name, c := range map[string]struct {
		filter   expr.Expr
		projects []expr.Expr
	}{
		"vector-filter":      {bindCall(t, ">", v, ten), []expr.Expr{bindCall(t, "*", v, ten), key}},
		"row-filter":         {bindCall(t, "=", bindCall(t, "UPPER", key), key), []expr.Expr{bindCall(t, "-", v, ten)}},
		"vector-filter-rows": {bindCall(t, "<", v, ten), []expr.Expr{bindCall(t, "UPPER", key), &expr.IsNull{X: key}}},
		"filter-drops-all":   {bindCall(t, "<", v, bindCall(t, "-", ten, ten)), []expr.Expr{bindCall(t, "+", v, ten)}},
	} {
		vec, rows := vectorCalc(t, c.filter, c.projects...)
		cases[name] = pair{vec, rows}
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if c.vector.VectorFilter == nil && !slices.ContainsFunc(c.vector.Vectors, func(v expr.VectorEvaluator) bool { return v != nil }) {
				t.Fatal("nothing evaluated over whole chunks")
			}
			var got, want recorder
			vc, rc := NewCalc(c.vector), NewCalc(c.rows)
			for _, ch := range cs {
				if err := vc.ProcessChunk(0, ch, &got); err != nil {
					t.Fatal(err)
				}
				if err := rc.ProcessChunk(0, ch, &want); err != nil {
					t.Fatal(err)
				}
			}
			if !slices.Equal(got.lines, want.lines) || got.chunks != want.chunks {
				t.Errorf("%d rows in %d chunks, want the %d rows in %d chunks evaluated row by row", len(got.lines), got.chunks, len(want.lines), want.chunks)
			}
		})
	}
}

// BenchmarkCalcQ17 is q17's Calc over chunks of 1024 rows, evaluated over
// whole chunks and row by row.
func BenchmarkCalcQ17(b *testing.B) {
	cs := benchChunks(16, 50)
	vector, rows := q17Calc(b)
	for name, cfg := range map[string]CalcConfig{"vector": vector, "rows": rows} {
		b.Run(name, func(b *testing.B) {
			benchChunksThrough(b, toDiscard(NewCalc(cfg)), cs)
		})
	}
}

// leaseCatcher is an Emitter that takes leases and keeps what it is
// handed.
type leaseCatcher struct {
	discard
	chunks []*types.Chunk
	leases []*runtime.Lease
}

func (c *leaseCatcher) Emit(ch *types.Chunk) { c.EmitLease(ch, nil) }

func (c *leaseCatcher) EmitLease(ch *types.Chunk, l *runtime.Lease) {
	c.chunks, c.leases = append(c.chunks, ch), append(c.leases, l)
}

// TestCalcLeases: a Calc's output is leased; when it shares its input's
// storage (every row kept) its lease holds the input's, released with it;
// when it copies the rows kept, the input's lease is released at once.
func TestCalcLeases(t *testing.T) {
	cases := calcCases(t)
	for _, c := range []struct {
		name   string
		passes bool
	}{{"columns", true}, {"filter-project", false}} {
		t.Run(c.name, func(t *testing.T) {
			pool := runtime.NewChunkPool(1)
			l := pool.Get()
			l.Chunk = benchChunks(1, 50)[0]
			out := &leaseCatcher{}
			if err := NewCalc(cases[c.name]).ProcessLeased(0, l.Chunk, l, out); err != nil {
				t.Fatal(err)
			}
			if len(out.chunks) != 1 || out.leases[0] == nil || out.leases[0] == l {
				t.Fatalf("%d chunks out, leased %v, want 1 with a lease of the Calc's", len(out.chunks), out.leases)
			}
			if back := pool.Get(); (back == l) == c.passes { // the lease itself when it was released
				t.Fatalf("the input's lease released at once: %v; want it held by the output's %v", back == l, c.passes)
			}
			if c.passes {
				out.leases[0].Release()
				if pool.Get() != l {
					t.Fatal("the input's lease was not released with the output's")
				}
			}
		})
	}
}
