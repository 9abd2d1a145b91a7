package fn

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// ratHalfUp rounds r to scale fraction digits, half away from zero, and
// returns the unscaled value.
func ratHalfUp(r *big.Rat, scale int) *big.Int {
	x := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
	if scale < 0 {
		x = new(big.Rat).Quo(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-scale)), nil)))
	}
	num, den := new(big.Int).Abs(x.Num()), x.Denom()
	q, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	if rem.Lsh(rem, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if x.Sign() < 0 {
		q.Neg(q)
	}
	return q
}

// ratTo38Digits rounds r HALF_UP to 38 significant digits, as
// MathContext(38, HALF_UP) does.
func ratTo38Digits(r *big.Rat) *big.Rat {
	if r.Sign() == 0 {
		return r
	}
	// the scale at which |r| has 38 integer digits
	abs := new(big.Rat).Abs(r)
	e := 0
	lo := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(37), nil))
	hi := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil))
	scaled := new(big.Rat).Set(abs)
	for scaled.Cmp(lo) < 0 {
		scaled.Mul(scaled, big.NewRat(10, 1))
		e++
	}
	for scaled.Cmp(hi) >= 0 {
		scaled.Quo(scaled, big.NewRat(10, 1))
		e--
	}
	u := ratHalfUp(r, e)
	if new(big.Int).Abs(u).Cmp(hi.Num()) >= 0 { // rounded up to 10^38
		u = ratHalfUp(r, e-1)
		e--
	}
	out := new(big.Rat).SetInt(u)
	if e >= 0 {
		return out.Quo(out, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil)))
	}
	return out.Mul(out, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-e)), nil)))
}

// randomDecimalIn returns a random unscaled value of DECIMAL(p, s).
func randomDecimalIn(r *rand.Rand, p int) *big.Int {
	n := 1 + r.IntN(p)
	var b strings.Builder
	for range n {
		b.WriteByte(byte('0' + r.IntN(10)))
	}
	x, _ := new(big.Int).SetString(b.String(), 10)
	if r.IntN(2) == 0 {
		x.Neg(x)
	}
	return x
}

// TestDecimalArithmeticAgainstBig evaluates + - * / % on random DECIMAL
// operands of random precisions up to 38 and compares each result with
// Flink's semantics computed independently on exact rationals: the exact
// result rounded HALF_UP to the result type's scale (for /, first to 38
// significant digits, DecimalDataUtils.divide's MathContext), NULL when it
// needs more digits than the result type's precision.
func TestDecimalArithmeticAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		p1, p2 := 1+r.IntN(38), 1+r.IntN(38)
		s1, s2 := r.IntN(p1+1), r.IntN(p2+1)
		ta, tb := types.DecimalType(p1, s1), types.DecimalType(p2, s2)
		x, y := randomDecimalIn(r, p1), randomDecimalIn(r, p2)
		if d := new(big.Int).Exp(big.NewInt(2), big.NewInt(int64(r.IntN(8))), nil); r.IntN(3) == 0 && len(d.String()) <= p2 {
			// a divisor whose quotients end: ties at the rounding digit
			y = d.Mul(d, big.NewInt(int64(1-2*r.IntN(2))))
		}
		va, vb := types.DecimalOfBig(ta, x), types.DecimalOfBig(tb, y)
		ra := new(big.Rat).SetFrac(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s1)), nil))
		rb := new(big.Rat).SetFrac(y, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s2)), nil))
		for _, op := range []string{"+", "-", "*", "/", "%"} {
			s, _ := LookupScalar(op)
			rt, eval, err := s.Bind([]Arg{{Type: ta}, {Type: tb}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := eval(utc, []types.Value{va, vb})
			var exact *big.Rat
			wantErr := ""
			switch op {
			case "+":
				exact = new(big.Rat).Add(ra, rb)
			case "-":
				exact = new(big.Rat).Sub(ra, rb)
			case "*":
				exact = new(big.Rat).Mul(ra, rb)
			case "/":
				if y.Sign() == 0 {
					wantErr = "Division by zero"
					break
				}
				exact = ratTo38Digits(new(big.Rat).Quo(ra, rb))
			case "%":
				if y.Sign() == 0 {
					wantErr = "Division by zero"
					break
				}
				q := new(big.Rat).Quo(ra, rb)
				iq := new(big.Int).Quo(q.Num(), q.Denom())
				if len(new(big.Int).Abs(iq).String()) > 38 {
					wantErr = "Division impossible"
					break
				}
				exact = new(big.Rat).Sub(ra, new(big.Rat).Mul(new(big.Rat).SetInt(iq), rb))
			}
			label := ta.String() + " " + op + " " + tb.String() + ": " + types.FormatValue(ta, va, nil) + " " + op + " " + types.FormatValue(tb, vb, nil)
			if wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), wantErr) {
					t.Fatalf("%s: error %v, want %s", label, err, wantErr)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			want := "NULL"
			rs := scaleOf(rt)
			if u := ratHalfUp(exact, rs); rt.Kind != types.Decimal || len(new(big.Int).Abs(u).String()) <= rt.Precision {
				if rt.Kind != types.Decimal {
					want = u.String()
				} else {
					want = types.FormatValue(rt, types.DecimalOfBig(rt, u), nil)
				}
			}
			if g := show(rt, got); g != want {
				t.Fatalf("%s = %s, want %s (type %s)", label, g, want, rt)
			}
		}
	}
}

// TestDecimalArithInto: the fused CAST(a op b AS DECIMAL(p <= 18, s)) gives
// what the operator and then the cast give, on random int64-held operands.
func TestDecimalArithInto(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	fused := 0
	for range 20000 {
		p1, p2 := 1+r.IntN(18), 1+r.IntN(18)
		ta, tb := types.DecimalType(p1, r.IntN(p1+1)), types.DecimalType(p2, r.IntN(p2+1))
		if r.IntN(4) == 0 {
			tb = types.BigIntType
		}
		pt := 1 + r.IntN(18)
		to := types.DecimalType(pt, r.IntN(pt+1))
		op := []string{"+", "-", "*"}[r.IntN(3)]
		f, ok := DecimalArithInto(op, ta, tb, to)
		if !ok {
			continue
		}
		fused++
		x := randomDecimalIn(r, p1).Int64()
		y := r.Int64()
		if tb.Kind == types.Decimal {
			y = randomDecimalIn(r, p2).Int64()
		}
		v := []types.Value{types.IntValue(x), types.IntValue(y)}
		s, _ := LookupScalar(op)
		rt, eval, err := s.Bind([]Arg{{Type: ta}, {Type: tb}})
		if err != nil {
			t.Fatal(err)
		}
		mid, err := eval(utc, v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := types.Cast(mid, rt, to, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f(utc, v)
		if err != nil || got != want {
			t.Fatalf("CAST(%d %s %s %d %s AS %s) = %v (%v), want %v", x, ta, op, y, tb, to, got, err, want)
		}
	}
	if fused < 1000 {
		t.Errorf("only %d fused cases", fused)
	}
}
