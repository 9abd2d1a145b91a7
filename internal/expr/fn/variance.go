package fn

import (
	"math"
	"math/big"
	"slices"

	"github.com/sluicesql/sluice/internal/types"
)

// VAR_POP, VAR_SAMP, STDDEV_POP and STDDEV_SAMP (and VARIANCE and STDDEV,
// the sample forms) compute what Flink computes. Flink's planner does not
// run them as functions: Calcite's AggregateReduceFunctionsRule (in
// FlinkStreamRuleSets.LOGICAL_RULES as CoreRules.AGGREGATE_REDUCE_FUNCTIONS)
// rewrites them, in reduceStddev, into
//
//	(SUM(x * x) - SUM(x) * SUM(x) / COUNT(x)) / COUNT(x)        for _POP
//	(SUM(x * x) - SUM(x) * SUM(x) / COUNT(x))
//	    / CASE COUNT(x) WHEN 1 THEN NULL ELSE COUNT(x) - 1 END   for _SAMP
//
// with POWER(..., 0.5) around it for STDDEV_*, then CAST to the result
// type, which is AVG's (LogicalTypeMerging.findAvgAggType): the argument's
// type, DECIMAL(38, max(6, s)) for DECIMAL(p, s) (DECIMAL(18, max(6, s))
// here). x is first cast to that type. Every step runs in the SQL type of
// its operands, so:
//
//   - TINYINT to BIGINT: x * x, both sums and SUM(x) * SUM(x) wrap around
//     in the argument's type; the divisions by COUNT are BIGINT divisions,
//     truncating; the result is cast back, wrapping. VAR_SAMP of 1 and 2 is
//     1, not 0.
//   - FLOAT: every step in FLOAT (float32) arithmetic; DOUBLE: in DOUBLE.
//   - DECIMAL: x * x, the sums of squares and the divisions are
//     DECIMAL(38, 6) (Flink's derivation gives up scale down to 6 at
//     precision 38), rounded HALF_UP; a square past 38 digits is NULL and
//     left out of its sum, as SUM skips NULLs.
//   - STDDEV_* take the square root in DOUBLE (POWER) and cast it to the
//     result type: integers truncate, decimals round HALF_UP from the
//     double's shortest digits.
//
// DISTINCT applies to each aggregate of the rewrite: SUM(DISTINCT x * x)
// sums the distinct squares, so -1 and 1 count one square.
//
// Where Flink's job fails (a square root of a negative rounded DECIMAL
// variance cast back to DECIMAL), the result is NULL here.

// varianceKinds describes VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP and
// their aliases VARIANCE and STDDEV (the sample forms).
var varianceKinds = map[string]struct{ sample, sqrt bool }{
	"VAR_POP":     {false, false},
	"VAR_SAMP":    {true, false},
	"VARIANCE":    {true, false},
	"STDDEV_POP":  {false, true},
	"STDDEV_SAMP": {true, true},
	"STDDEV":      {true, true},
}

func bindVariance(name string, kind struct{ sample, sqrt bool }) aggBind {
	return func(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
		t, err := numericArg(name, args)
		if err != nil {
			return types.Type{}, nil, err
		}
		m := newVarianceMath(name, t, kind.sample, kind.sqrt)
		return m.result, func() Accumulator {
			a := &varianceAcc{m: m}
			if distinct {
				a.seenX, a.seenSq = map[string]int64{}, map[string]int64{}
			}
			return a
		}, nil
	}
}

// varianceMath is the arithmetic of the rewrite for one argument type.
type varianceMath struct {
	arg          types.Type
	result       types.Type
	sample, sqrt bool
	name         string // the function, for messages
	// For DECIMAL arguments: the argument's scale, the scale it is cast to
	// (the result's) and the scale of x * x and of the divisions.
	scale, castScale, sqScale int
}

func newVarianceMath(name string, t types.Type, sample, sqrt bool) *varianceMath {
	m := &varianceMath{arg: t, result: avgType(t), sample: sample, sqrt: sqrt, name: name}
	if t.Kind == types.Decimal {
		cast := types.DecimalType(38, m.result.Scale) // Flink's AVG type of DECIMAL(p, s)
		sq := types.DecimalMultiplyType(cast, cast)
		m.scale, m.castScale, m.sqScale = t.Scale, cast.Scale, sq.Scale
	}
	return m
}

// term is one number of the rewrite: an integer (wrapped to the argument's
// type), a FLOAT or DOUBLE, or an unscaled DECIMAL.
type term struct {
	i int64
	f float64
	d *big.Int
}

// of returns the non-NULL argument value x as a term.
func (m *varianceMath) of(x types.Value) term {
	switch m.arg.Kind {
	case types.Float, types.Double:
		return term{f: x.F}
	case types.Decimal:
		return term{d: bigOf(m.arg, x)}
	}
	return term{i: x.I}
}

// square returns x * x in Flink's type for it, false when it is NULL (a
// DECIMAL past 38 digits).
func (m *varianceMath) square(x term) (term, bool) {
	switch m.arg.Kind {
	case types.Float:
		return term{f: float64(float32(x.f) * float32(x.f))}, true
	case types.Double:
		return term{f: x.f * x.f}, true
	case types.Decimal:
		c := rescaleBig(x.d, m.scale, m.castScale)
		sq := rescaleBig(new(big.Int).Mul(c, c), 2*m.castScale, m.sqScale)
		return term{d: sq}, fits38(sq)
	}
	return term{i: wrapInt(m.arg.Kind, x.i*x.i)}, true
}

// key encodes a term for DISTINCT.
func (t term) key() string {
	var e encoder
	switch {
	case t.d != nil:
		e.str(t.d.String())
	default:
		e.int(t.i)
		e.float(t.f)
	}
	return string(e.b)
}

// sumState is SUM over terms in the argument's arithmetic: n terms, their
// wrapping integer sum, FLOAT/DOUBLE sum or exact DECIMAL sum.
type sumState struct {
	n int64
	i int64
	f float64
	d big.Int
}

func (s *sumState) add(m *varianceMath, t term, sign int64) {
	s.n += sign
	switch m.arg.Kind {
	case types.Float:
		s.f = float64(float32(s.f) + float32(sign)*float32(t.f))
	case types.Double:
		s.f += float64(sign) * t.f
	case types.Decimal:
		if sign > 0 {
			s.d.Add(&s.d, t.d)
		} else {
			s.d.Sub(&s.d, t.d)
		}
	default:
		s.i += sign * t.i
	}
}

func (s *sumState) set(o *sumState) {
	s.n, s.i, s.f = o.n, o.i, o.f
	s.d.Set(&o.d)
}

func (s *sumState) marshal(e *encoder) {
	e.int(s.n)
	e.int(s.i)
	e.float(s.f)
	e.str(s.d.String())
}

func (s *sumState) unmarshal(d *decoder) {
	s.n, s.i, s.f = d.int(), d.int(), d.float()
	if _, ok := s.d.SetString(d.str(), 10); !ok && d.err == nil {
		d.err = errState
	}
}

// varianceAcc keeps COUNT(x), SUM(x) and SUM(x * x); with DISTINCT, how
// often each argument and each square is present.
type varianceAcc struct {
	m             *varianceMath
	count         int64
	sum, sumSq    sumState
	seenX, seenSq map[string]int64
}

func (v *varianceAcc) Add(args []types.Value)           { v.step(args[0], 1) }
func (v *varianceAcc) Retract(args []types.Value) error { v.step(args[0], -1); return nil }

func (v *varianceAcc) step(x types.Value, sign int64) {
	if x.Null {
		return
	}
	t := v.m.of(x)
	if first(v.seenX, t, sign) {
		v.count += sign
		v.sum.add(v.m, t, sign)
	}
	if sq, ok := v.m.square(t); ok && first(v.seenSq, sq, sign) {
		v.sumSq.add(v.m, sq, sign)
	}
}

// first counts t in seen (when DISTINCT) and reports whether it is its
// first arrival or last departure, which the sums see; without DISTINCT
// every term is.
func first(seen map[string]int64, t term, sign int64) bool {
	if seen == nil {
		return true
	}
	k := t.key()
	n := seen[k] + sign
	if n <= 0 {
		delete(seen, k)
	} else {
		seen[k] = n
	}
	return n == 0 && sign < 0 || n == 1 && sign > 0
}

// Result evaluates the rewrite.
func (v *varianceAcc) Result() (types.Value, error) {
	m := v.m
	if v.count == 0 || v.sum.n == 0 || v.sumSq.n == 0 || m.sample && v.count == 1 {
		return types.NullValue, nil
	}
	den := v.count
	if m.sample {
		den--
	}
	switch m.arg.Kind {
	case types.Float:
		n, d := float32(v.count), float32(den)
		s := float32(v.sum.f)
		r := (float32(v.sumSq.f) - s*s/n) / d
		if m.sqrt {
			return types.FloatValue(float64(float32(math.Pow(float64(r), 0.5)))), nil
		}
		return types.FloatValue(float64(r)), nil
	case types.Double:
		r := (v.sumSq.f - v.sum.f*v.sum.f/float64(v.count)) / float64(den)
		if m.sqrt {
			r = math.Pow(r, 0.5)
		}
		return types.FloatValue(r), nil
	case types.Decimal:
		return v.decimalResult(den)
	}
	k := m.arg.Kind
	s := wrapInt(k, v.sum.i)
	r := (wrapInt(k, v.sumSq.i) - wrapInt(k, s*s)/v.count) / den
	if m.sqrt {
		return types.IntValue(wrapInt(k, types.JavaDoubleToLong(math.Pow(float64(r), 0.5)))), nil
	}
	return types.IntValue(wrapInt(k, r)), nil
}

// decimalResult evaluates the rewrite for a DECIMAL argument, all in
// DECIMAL(38, sqScale) after the sum of x is cast to the result's scale.
func (v *varianceAcc) decimalResult(den int64) (types.Value, error) {
	m := v.m
	sum := rescaleBig(&v.sum.d, m.scale, m.castScale)
	sumSq := &v.sumSq.d
	if !fits38(sum) || !fits38(sumSq) {
		return types.NullValue, nil
	}
	sumSquared := rescaleBig(new(big.Int).Mul(sum, sum), 2*m.castScale, m.sqScale)
	if !fits38(sumSquared) {
		return types.NullValue, nil
	}
	diff := new(big.Int).Sub(sumSq, divHalfUp(sumSquared, big.NewInt(v.count)))
	if !fits38(diff) {
		return types.NullValue, nil
	}
	r := divHalfUp(diff, big.NewInt(den))
	if !m.sqrt {
		return fitDecimal(rescaleBig(r, m.sqScale, m.result.Scale), m.result), nil
	}
	// POWER takes the DECIMAL as a double (BigDecimal.doubleValue, the
	// nearest double); CAST rounds the root's shortest digits HALF_UP.
	f, _ := new(big.Rat).SetFrac(r, bigPow10(m.sqScale)).Float64()
	out, err := types.Cast(types.FloatValue(math.Pow(f, 0.5)), types.DoubleType, m.result, nil)
	return out, err // NaN: Flink's job fails casting it too
}

// fits38 reports whether unscaled x fits DECIMAL(38, _).
func fits38(x *big.Int) bool { return x.CmpAbs(pow10Big38) < 0 }

var pow10Big38 = bigPow10(38)

func (v *varianceAcc) MarshalState() []byte {
	var e encoder
	e.int(v.count)
	v.sum.marshal(&e)
	v.sumSq.marshal(&e)
	for _, seen := range []map[string]int64{v.seenX, v.seenSq} {
		keys := make([]string, 0, len(seen))
		for k := range seen {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		e.int(int64(len(keys)))
		for _, k := range keys {
			e.str(k)
			e.int(seen[k])
		}
	}
	return e.b
}

func (v *varianceAcc) UnmarshalState(b []byte) error {
	d := decoder{b: b}
	count := d.int()
	var sum, sumSq sumState
	sum.unmarshal(&d)
	sumSq.unmarshal(&d)
	var seen [2]map[string]int64
	for i := range seen {
		n := d.int()
		if v.seenX != nil {
			seen[i] = map[string]int64{}
		}
		for j := int64(0); j < n && d.err == nil; j++ {
			k, c := d.str(), d.int()
			if seen[i] == nil {
				d.err = errState // DISTINCT state for a plain aggregate
				break
			}
			seen[i][k] = c
		}
	}
	if err := d.done(); err != nil {
		return err
	}
	v.count, v.seenX, v.seenSq = count, seen[0], seen[1]
	v.sum.set(&sum)
	v.sumSq.set(&sumSq)
	return nil
}
