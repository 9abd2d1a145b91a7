package types

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomUnscaled returns a random value of at most 38 digits, with
// lengths spread over 1..38 digits and the edges (0, ±(10^38-1)) often.
func randomUnscaled(r *rand.Rand) *big.Int {
	switch r.IntN(10) {
	case 0:
		return big.NewInt(0)
	case 1:
		x := new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil), big.NewInt(1))
		if r.IntN(2) == 0 {
			x.Neg(x)
		}
		return x
	}
	n := 1 + r.IntN(38)
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

func mustInt128(t *testing.T, x *big.Int) Int128 {
	t.Helper()
	a, ok := Int128FromBig(x)
	if !ok {
		t.Fatalf("%s does not fit 128 bits", x)
	}
	return a
}

// halfUp divides x by 10^n rounding half away from zero, with math/big.
func halfUp(x *big.Int, n int) *big.Int {
	d := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
	q, r := new(big.Int).QuoRem(x, d, new(big.Int))
	if r.Abs(r).Lsh(r, 1).Cmp(d) >= 0 {
		q.Add(q, big.NewInt(int64(x.Sign())))
	}
	return q
}

// TestInt128AgainstBig checks the 128-bit arithmetic against math/big on
// random values: conversions, text, addition, negation, products of
// int64s, rescaling HALF_UP both ways, truncation, comparison, and that
// the encoding orders as the numbers do.
func TestInt128AgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	limit := new(big.Int).Lsh(big.NewInt(1), 127)
	for range 20000 {
		x, y := randomUnscaled(r), randomUnscaled(r)
		a, b := mustInt128(t, x), mustInt128(t, y)
		if a.Big().Cmp(x) != 0 || a.String() != x.String() {
			t.Fatalf("%s round trips as %s / %s", x, a.Big(), a)
		}
		if back, ok := DecodeInt128(a.Encode()); !ok || back != a {
			t.Fatalf("%s encodes and decodes as %v", x, back)
		}
		if got, want := strings.Compare(a.Encode(), b.Encode()), x.Cmp(y); got != want || a.Cmp(b) != want {
			t.Fatalf("%s vs %s: encodings compare %d, Cmp %d, want %d", x, y, got, a.Cmp(b), want)
		}
		sum := new(big.Int).Add(x, y)
		fits := sum.CmpAbs(limit) < 0
		if s, over := a.Add(b); over == fits || fits && s.Big().Cmp(sum) != 0 {
			t.Fatalf("%s + %s = %s (overflow %v), want %s", x, y, s.Big(), over, sum)
		}
		if a.Neg().Big().Cmp(new(big.Int).Neg(x)) != 0 {
			t.Fatalf("-(%s) = %s", x, a.Neg().Big())
		}
		digits := len(new(big.Int).Abs(x).String())
		if x.Sign() == 0 {
			digits = 0
		}
		for p := 0; p <= 38; p++ {
			if a.FitsDigits(p) != (digits <= p) {
				t.Fatalf("%s fits %d digits: %v", x, p, a.FitsDigits(p))
			}
		}
		i, j := r.Int64()>>r.IntN(63), r.Int64()>>r.IntN(63)
		if p := Mul64(i, j).Big(); p.Cmp(new(big.Int).Mul(big.NewInt(i), big.NewInt(j))) != 0 {
			t.Fatalf("%d * %d = %s", i, j, p)
		}
		from, to := r.IntN(39), r.IntN(39)
		got, ok := a.Rescale(from, to)
		var want *big.Int
		if to >= from {
			want = new(big.Int).Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(to-from)), nil))
		} else {
			want = halfUp(x, from-to)
		}
		fits = want.CmpAbs(limit) < 0
		if ok != fits || ok && got.Big().Cmp(want) != 0 {
			t.Fatalf("rescale %s from %d to %d = %s (%v), want %s (%v)", x, from, to, got.Big(), ok, want, fits)
		}
		n := r.IntN(40)
		q, first := a.QuoRem10(n)
		wantQ := new(big.Int).Quo(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil))
		if q.Big().Cmp(wantQ) != 0 {
			t.Fatalf("%s / 10^%d = %s, want %s", x, n, q.Big(), wantQ)
		}
		if n > 0 {
			wantFirst := new(big.Int).Quo(new(big.Int).Abs(x), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n-1)), nil))
			if int64(first) != wantFirst.Mod(wantFirst, big.NewInt(10)).Int64() {
				t.Fatalf("%s / 10^%d: first dropped digit %d", x, n, first)
			}
		}
	}
}

// TestInt128Edges covers the bounds of 128 bits.
func TestInt128Edges(t *testing.T) {
	max128 := Int128{Hi: math.MaxInt64, Lo: math.MaxUint64}
	if _, over := max128.Add(Int128Of(1)); !over {
		t.Error("2^127-1 + 1 does not overflow")
	}
	if _, over := max128.Neg().Add(Int128Of(-1)); over {
		t.Error("-(2^127-1) - 1 overflows")
	}
	if _, ok := Int128FromBig(new(big.Int).Lsh(big.NewInt(1), 127)); ok {
		t.Error("2^127 fits")
	}
	if _, ok := Int128Of(1).Rescale(0, 39); ok {
		t.Error("10^39 fits 127 bits")
	}
	if p := Mul64(math.MinInt64, math.MinInt64).Big(); p.Cmp(new(big.Int).Lsh(big.NewInt(1), 126)) != 0 {
		t.Errorf("MinInt64² = %s", p)
	}
}

// TestWideDecimalCasts: casts to and from DECIMAL(p > 18) round HALF_UP and
// give NULL past the precision, as DecimalData.fromBigDecimal.
func TestWideDecimalCasts(t *testing.T) {
	d38 := DecimalType(38, 10)
	d20 := DecimalType(20, 2)
	wide := func(t Type, s string) Value {
		v, err := ParseValue(t, s, nil)
		if err != nil {
			panic(err)
		}
		return v
	}
	for _, c := range []struct {
		name     string
		v        Value
		from, to Type
		want     string
	}{
		{"string to wide", StringValue(" 1234567890123456789012345678.01234567895 "), StringType, d38, "1234567890123456789012345678.0123456790"},
		{"string exponent", StringValue("-1.5E17"), StringType, d20, "-150000000000000000.00"},
		{"string overflows", StringValue("-1.5E18"), StringType, d20, "NULL"},
		{"string malformed", StringValue("1.5.0"), StringType, d20, "error"},
		{"bigint to wide", IntValue(math.MinInt64), BigIntType, DecimalType(21, 2), "-9223372036854775808.00"},
		{"bigint overflows", IntValue(math.MaxInt64), BigIntType, DecimalType(20, 2), "NULL"},
		{"double to wide", FloatValue(1.2345e25), DoubleType, DecimalType(38, 2), "12345000000000000000000000.00"},
		{"double overflows", FloatValue(1e30), DoubleType, DecimalType(38, 10), "NULL"},
		{"wide rescale half up", wide(d38, "-0.00000000005"), d38, d20, "0.00"},
		{"wide rescale half up away", wide(d38, "-12.345"), d38, d20, "-12.35"},
		{"wide to narrow", wide(d38, "123456789.125"), d38, DecimalType(11, 2), "123456789.13"},
		{"wide to narrow overflow", wide(d38, "123456789.125"), d38, DecimalType(10, 2), "NULL"},
		{"narrow to wide", IntValue(-12345), DecimalType(5, 2), d38, "-123.4500000000"},
		{"wide to bigint truncates", wide(d38, "-99999999.9"), d38, BigIntType, "-99999999"},
		{"wide to bigint low bits", wide(DecimalType(38, 0), "18446744073709551617"), DecimalType(38, 0), BigIntType, "1"},
		{"wide to int wraps", wide(d20, "4294967297.99"), d20, IntType, "1"},
		{"wide to double", wide(d38, "1234567890123456789012345678.5"), d38, DoubleType, "1.2345678901234569E27"},
		{"wide to string", wide(d38, "-0.5"), d38, StringType, "-0.5000000000"},
		{"wide to boolean", wide(d20, "0.01"), d20, DecimalType(19, 0), "0"},
	} {
		got, err := Cast(c.v, c.from, c.to, nil)
		if c.want == "error" {
			if err == nil {
				t.Errorf("%s: no error", c.name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if s := FormatValue(c.to, got, nil); s != c.want {
			t.Errorf("%s: CAST(%s AS %s) = %s, want %s", c.name, FormatValue(c.from, c.v, nil), c.to, s, c.want)
		}
	}
	if _, err := ParseValue(d20, "1e19", nil); err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Errorf("1e19 as %s: %v", d20, err)
	}
}
