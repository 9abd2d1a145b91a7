package fn

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestDecimalFastPath checks decFast, the 64-bit form of +, - and * on
// decimals, against the exact computation on big integers (decOp, then
// fitDecimal), for operands of every size and many scales: wherever
// decFast answers, its value must be the exact one.
func TestDecimalFastPath(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	operand := func() int64 {
		v := rnd.Int64N(pow10[rnd.IntN(19)])
		if rnd.IntN(2) == 0 {
			v = -v
		}
		return v
	}
	for _, op := range arithOps[:3] {
		answered := 0
		for range 20_000 {
			s1, s2 := rnd.IntN(19), rnd.IntN(19)
			rs := s1 + s2
			if op.name != "*" {
				rs = max(s1, s2)
			}
			rs -= rnd.IntN(3) // rounding to fewer digits too
			if rs < 0 {
				continue
			}
			f := decFast(op.name, s1, s2, rs)
			if f == nil {
				continue
			}
			a, b := operand(), operand()
			got, ok := f(a, b)
			if !ok {
				continue
			}
			answered++
			exact, err := op.decOp(big.NewInt(a), big.NewInt(b), s1, s2, rs)
			if err != nil {
				t.Fatal(err)
			}
			if !exact.IsInt64() || exact.Int64() != got {
				t.Fatalf("%d (scale %d) %s %d (scale %d) at scale %d: fast %d, exact %s", a, s1, op.name, b, s2, rs, got, exact)
			}
		}
		if answered < 1000 {
			t.Errorf("%s: the fast path answered only %d times", op.name, answered)
		}
	}
}

// TestDecimalMultiplyQ1 is Nexmark q1's 0.908 * price on a BIGINT price:
// DECIMAL(3, 3) * DECIMAL(19, 0) is Flink's DECIMAL(23, 3), held in 128
// bits.
func TestDecimalMultiplyQ1(t *testing.T) {
	runScalarCases(t, utc, []scalarCase{
		{name: "*", args: []in{dec(908, 3, 3), col(bigint(123456))}, want: "112098.048"},
		{name: "*", args: []in{dec(908, 3, 3), col(bigint(-5))}, want: "-4.540"},
		{name: "*", args: []in{dec(908, 3, 3), col(bigint(999999999999999))}, want: "907999999999999.092"},
		{name: "*", args: []in{dec(908, 3, 3), col(bigint(2_000_000_000_000_000))}, want: "1816000000000000.000"},
		{name: "*", args: []in{dec(908, 3, 3), col(bigint(9223372036854775807))}, want: "8374821809464136432.756"},
		{name: "*", args: []in{dec(908, 3, 3), col(bigint(-9223372036854775808))}, want: "-8374821809464136433.664"},
	})
}
