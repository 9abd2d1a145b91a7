package expr

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/types"
)

// Columns of the chunks the vector tests evaluate over.
var (
	vPrice = &Column{Index: 0, Name: "price", T: types.BigIntType}
	vAt    = &Column{Index: 1, Name: "at", T: types.TimestampType(3)}
	vDec   = &Column{Index: 2, Name: "dec", T: types.DecimalType(18, 2)}
	vLTZ   = &Column{Index: 3, Name: "ltz", T: types.TimestampLTZType(3)}
	vFlag  = &Column{Index: 4, Name: "flag", T: types.BooleanType}
)

func decLit(unscaled int64, p, s int) *Literal {
	return &Literal{V: types.IntValue(unscaled), T: types.DecimalType(p, s).WithNotNull(true)}
}

func strLit(s string) *Literal {
	return &Literal{V: types.StringValue(s), T: types.StringType.WithNotNull(true)}
}

// vectorChunk returns n rows of (price, at, dec, ltz, flag) with NULLs,
// extreme values and times that stay in one second or day for a while.
func vectorChunk(n int, seed uint64) *types.Chunk {
	r := rand.New(rand.NewPCG(seed, 1))
	ch := types.NewChunk([]types.Type{vPrice.T, vAt.T, vDec.T, vLTZ.T, vFlag.T}, n)
	extremes := []int64{0, 1, -1, 9999, 10000, 1000000, math.MaxInt64, math.MinInt64, 999_999_999_999_999_999, -999_999_999_999_999_999}
	at := int64(1_700_000_000_000_000_000)
	for range n {
		row := make(types.Row, 5)
		if r.IntN(8) == 0 {
			row[0] = types.NullValue
		} else if r.IntN(4) == 0 {
			row[0] = types.IntValue(extremes[r.IntN(len(extremes))])
		} else {
			row[0] = types.IntValue(r.Int64N(2_000_000) - 100)
		}
		switch r.IntN(10) {
		case 0:
			row[1] = types.NullValue
		case 1:
			at += r.Int64N(3) * 86_400_000_000_000 // a day or two later
		default:
			at += r.Int64N(700) * 1_000_000 // up to 0.7 s later
		}
		if !row[1].Null {
			row[1] = types.IntValue(at)
		}
		row[2] = row[0]
		if !row[0].Null && (row[0].I > 999_999_999_999_999_999 || row[0].I < -999_999_999_999_999_999) {
			row[2] = types.IntValue(row[0].I % 1_000_000_000_000_000_000)
		}
		row[3] = row[1]
		row[4] = types.BoolValue(r.IntN(2) == 0)
		if r.IntN(5) == 0 {
			row[4] = types.NullValue
		}
		ch.AppendRow(types.Insert, row)
	}
	return ch
}

// TestVectorMatchesRows checks that expressions with a column form give,
// over whole chunks, the values their row by row evaluation gives.
func TestVectorMatchesRows(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip(err)
	}
	lt := func(x Expr, v int64) Expr { return call(t, "<", x, lit(v)) }
	ge := func(x Expr, v int64) Expr { return call(t, ">=", x, lit(v)) }
	cases := map[string]Expr{
		"compare-const":   lt(vPrice, 10000),
		"compare-columns": call(t, "<>", vPrice, vDec),
		"le":              call(t, "<=", vPrice, lit(10000)),
		"gt":              call(t, ">", vPrice, lit(10000)),
		"eq":              call(t, "=", vPrice, lit(0)),
		"eq-decimal":      call(t, "=", vDec, decLit(100, 5, 2)),
		"timestamps":      call(t, "<", vAt, vLTZ),
		"and":             &Logic{Args: []Expr{ge(vPrice, 10000), lt(vPrice, 1000000)}},
		"or-null":         &Logic{Or: true, Args: []Expr{vFlag, lt(vPrice, 0), ge(vPrice, 1000000)}},
		"and-null":        &Logic{Args: []Expr{vFlag, lt(vPrice, 500000)}},
		"not":             &Not{X: vFlag},
		"is-null":         &IsNull{X: vPrice},
		"is-not-null":     &IsNull{X: vAt, Neg: true},
		"is-true":         call(t, "IS TRUE", vFlag),
		"is-not-true":     call(t, "IS NOT TRUE", vFlag),
		"is-false":        call(t, "IS FALSE", vFlag),
		"is-not-false":    call(t, "IS NOT FALSE", vFlag),
		"is-true-compare": call(t, "IS TRUE", lt(vPrice, 10000)),
		"decimal-product": call(t, "*", decLit(908, 3, 3), vPrice),
		"decimal-compact": call(t, "*", decLit(908, 3, 3), vDec),
		"decimal-sum":     call(t, "+", vDec, decLit(-12345, 7, 3)),
		"decimal-diff":    call(t, "-", vDec, vDec),
		"int-arith":       call(t, "*", vPrice, lit(3)),
		"cast-product":    &Cast{X: call(t, "*", decLit(908, 3, 3), vPrice), T: types.DecimalType(18, 3)},
		"cast-round":      &Cast{X: call(t, "*", decLit(908, 3, 3), vPrice), T: types.DecimalType(18, 1)},
		"date-format-day": call(t, "DATE_FORMAT", vAt, strLit("yyyy-MM-dd")),
		"date-format-sec": call(t, "DATE_FORMAT", vAt, strLit("yyyy-MM-dd HH:mm:ss EEE")),
		"date-format-ms":  call(t, "DATE_FORMAT", vAt, strLit("HH:mm:ss.SSS")),
		"date-format-ltz": call(t, "DATE_FORMAT", vLTZ, strLit("yyyy-MM-dd HH:mm z")),
		"ltz-day":         call(t, "DATE_FORMAT", vLTZ, strLit("yyyy-MM-dd")),
		"literal":         lit(42),
	}
	for name, e := range cases {
		t.Run(name, func(t *testing.T) {
			vec, ok, err := CompileVector(e)
			if err != nil || !ok {
				t.Fatalf("CompileVector: ok %v, %v", ok, err)
			}
			row, err := CompileLocal(e)
			if err != nil {
				t.Fatal(err)
			}
			ctx := &Context{Fn: &fn.Context{Loc: berlin}}
			for seed := range uint64(4) {
				ch := vectorChunk(300+int(seed)*200, seed)
				// A vector whose room holds other values: every row
				// must be written.
				got := types.NewVector(e.Type(), 0)
				for i := range ch.Len() {
					if i%2 == 0 {
						got.AppendNull()
					} else {
						got.Append(types.Value{I: 77, F: 7.5, S: "x"})
					}
				}
				got.Reset()
				if err := vec(ctx, ch, got); err != nil {
					t.Fatal(err)
				}
				if got.Len() != ch.Len() {
					t.Fatalf("%d values for %d rows", got.Len(), ch.Len())
				}
				for i := range ch.Len() {
					want, err := row(ctx, ch.Row(i))
					if err != nil {
						t.Fatal(err)
					}
					if g := got.Get(i); g != want {
						t.Fatalf("row %d %v: got %+v, want %+v", i, ch.Row(i), g, want)
					}
				}
			}
		})
	}
}

// TestVectorRefuses checks that expressions that may fail, or whose
// operands must be evaluated in order, have no column form.
func TestVectorRefuses(t *testing.T) {
	for name, e := range map[string]Expr{
		"division":    call(t, "/", vPrice, lit(0)),
		"and-failing": &Logic{Args: []Expr{vFlag, call(t, "=", call(t, "/", lit(1), vPrice), lit(1))}},
		"case":        &Case{Whens: []When{{Cond: vFlag, Then: lit(1)}}, T: types.BigIntType},
		"cast":        &Cast{X: vPrice, T: types.IntType},
		"upper":       call(t, "UPPER", strLit("a")),
	} {
		if _, ok, err := CompileVector(e); ok || err != nil {
			t.Errorf("%s: ok %v, %v", name, ok, err)
		}
	}
}

// BenchmarkVector compares the evaluation of q17's and q1's computed
// columns over a chunk of 1024 rows with their row by row evaluation (as
// the Calc did it: each row loaded, evaluated, appended); an op is one
// chunk, ns/row the time per row.
func BenchmarkVector(b *testing.B) {
	ch := vectorChunk(types.ChunkSize, 7)
	n := ch.Len()
	for _, c := range []struct {
		name string
		e    Expr
	}{
		{"compare", call(b, "<", vPrice, lit(10000))},
		{"is-true", call(b, "IS TRUE", call(b, "<", vPrice, lit(10000)))},
		{"and", &Logic{Args: []Expr{call(b, ">=", vPrice, lit(10000)), call(b, "<", vPrice, lit(1000000))}}},
		{"product", call(b, "*", decLit(908, 3, 3), vPrice)},
		{"cast", &Cast{X: call(b, "*", decLit(908, 3, 3), vPrice), T: types.DecimalType(18, 3)}},
		{"date-format", call(b, "DATE_FORMAT", vAt, strLit("yyyy-MM-dd"))},
	} {
		ctx := &Context{Fn: &fn.Context{Loc: time.UTC}}
		b.Run(c.name+"/rows", func(b *testing.B) {
			ev, err := CompileLocal(c.e)
			if err != nil {
				b.Fatal(err)
			}
			row := make(types.Row, len(ch.Cols))
			b.ReportAllocs()
			for b.Loop() {
				out := types.NewVector(c.e.Type(), n)
				for i := range n {
					for k, col := range ch.Cols {
						row[k] = col.Get(i)
					}
					v, err := ev(ctx, row)
					if err != nil {
						b.Fatal(err)
					}
					out.Append(v)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
		})
		b.Run(c.name+"/vector", func(b *testing.B) {
			ev, _, err := CompileVector(c.e)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				out := types.NewVector(c.e.Type(), n)
				if err := ev(ctx, ch, out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
		})
	}
}
