package fn

import (
	"cmp"
	"errors"
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/sluicesql/sluice/internal/types"
)

// Aggregate functions, after Flink's "Aggregate Functions" documentation and
// the retractable implementations in org.apache.flink.table.planner.functions.aggfunctions.
// All of them retract. NULL inputs are ignored (COUNT(*) counts rows).
// Any aggregate may be DISTINCT: each distinct argument tuple is then fed to
// the function once, on its first arrival, and retracted on its last
// departure.

func init() {
	registerAgg(bindCount, "COUNT")
	registerAgg(bindSum("SUM", false), "SUM")
	registerAgg(bindSum("SUM0", true), "SUM0")
	registerAgg(bindAvg, "AVG")
	registerAgg(bindMinMax("MIN", -1), "MIN")
	registerAgg(bindMinMax("MAX", 1), "MAX")
	aggregates["MIN"].BindAppendOnly = bindExtreme("MIN", -1)
	aggregates["MAX"].BindAppendOnly = bindExtreme("MAX", 1)
	registerAgg(bindFirstLast("FIRST_VALUE", true), "FIRST_VALUE")
	registerAgg(bindFirstLast("LAST_VALUE", false), "LAST_VALUE")
	registerAgg(bindListAgg, "LISTAGG")
	registerAgg(bindArrayAgg, "ARRAY_AGG")
	for name, k := range varianceKinds {
		registerAgg(bindVariance(name, k), name)
	}
}

// aggBind is the signature of Aggregate.Bind.
type aggBind = func(args []Arg, distinct bool) (types.Type, func() Accumulator, error)

// withDistinct wraps a factory so that each distinct argument tuple is
// accumulated once when distinct is set.
func withDistinct(args []Arg, distinct bool, f func() Accumulator) func() Accumulator {
	if !distinct {
		return f
	}
	phys := make([]types.Physical, len(args))
	for i, a := range args {
		phys[i] = a.Type.Physical()
	}
	return func() Accumulator { return &distinctAcc{inner: f(), phys: phys, seen: map[string]int64{}} }
}

// distinctAcc counts each argument tuple and forwards only its first Add
// and its last Retract.
type distinctAcc struct {
	inner Accumulator
	phys  []types.Physical
	seen  map[string]int64
}

func (d *distinctAcc) key(args []types.Value) string {
	var e encoder
	for i, v := range args {
		e.value(d.phys[i], v)
	}
	return string(e.b)
}

func (d *distinctAcc) Add(args []types.Value) {
	k := d.key(args)
	d.seen[k]++
	if d.seen[k] == 1 {
		d.inner.Add(args)
	}
}

func (d *distinctAcc) Retract(args []types.Value) error {
	k := d.key(args)
	n, ok := d.seen[k]
	if !ok {
		return nil // retracting a value never added: nothing to undo
	}
	if n > 1 {
		d.seen[k] = n - 1
		return nil
	}
	delete(d.seen, k)
	return d.inner.Retract(args)
}

func (d *distinctAcc) Result() (types.Value, error) { return d.inner.Result() }

func (d *distinctAcc) MarshalState() []byte {
	keys := make([]string, 0, len(d.seen))
	for k := range d.seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return AppendDistinctState(nil, d.inner.MarshalState(), len(keys), func(i int) ([]byte, int64) {
		return []byte(keys[i]), d.seen[keys[i]]
	})
}

func (d *distinctAcc) UnmarshalState(b []byte) error {
	seen := map[string]int64{}
	inner, err := ReadDistinctState(b, func(key []byte, n int64) error {
		seen[string(key)] = n
		return nil
	})
	if err != nil {
		return err
	}
	if err := d.inner.UnmarshalState(slices.Clone(inner)); err != nil {
		return err
	}
	d.seen = seen
	return nil
}

// DistinctInner returns the accumulator a DISTINCT call's accumulator
// feeds each distinct argument tuple to, and whether acc is one.
func DistinctInner(acc Accumulator) (Accumulator, bool) {
	if d, ok := acc.(*distinctAcc); ok {
		return d.inner, true
	}
	return nil, false
}

// AppendDistinctKey appends the key a DISTINCT call's accumulator knows
// the argument tuple of row i of the columns args by: each value as
// stored for its type's physical class, NULL included, so that equal
// tuples, and only they, have equal keys.
func AppendDistinctKey(b []byte, args []*types.Vector, i int) []byte {
	e := encoder{b: b}
	for _, a := range args {
		if a.Nulls[i] {
			e.bool(true)
			continue
		}
		e.bool(false)
		switch a.Type.Physical() {
		case types.PhysFloat:
			e.float(a.F64[i])
		case types.PhysString:
			e.str(a.Str[i])
		default:
			e.int(a.I64[i])
		}
	}
	return e.b
}

// AppendDistinctState appends the state of a DISTINCT call's accumulator
// as its MarshalState writes it: the state of the accumulator it feeds
// (inner), then the n keys of the argument tuples it holds
// (AppendDistinctKey), each with the number of rows that hold it; key(i)
// returns the i-th, in ascending byte order.
func AppendDistinctState(b, inner []byte, n int, key func(i int) ([]byte, int64)) []byte {
	e := encoder{b: b}
	e.str(string(inner))
	e.int(int64(n))
	for i := range n {
		k, c := key(i)
		e.int(int64(len(k)))
		e.b = append(e.b, k...)
		e.int(c)
	}
	return e.b
}

// ReadDistinctState reads a state AppendDistinctState wrote: it calls add
// with each key and its count, and returns the inner accumulator's state.
// A count that is not positive is corrupt state.
func ReadDistinctState(b []byte, add func(key []byte, n int64) error) ([]byte, error) {
	dec := decoder{b: b}
	inner := dec.bytes()
	n := dec.int()
	for i := int64(0); i < n && dec.err == nil; i++ {
		k := dec.bytes()
		c := dec.int()
		if dec.err != nil {
			break
		}
		if c <= 0 {
			return nil, errState
		}
		if err := add(k, c); err != nil {
			return nil, err
		}
	}
	if err := dec.done(); err != nil {
		return nil, err
	}
	return inner, nil
}

// ---------------------------------------------------------------- COUNT

// COUNT(*) counts rows; COUNT(x [, y ...]) counts rows where no argument is
// NULL. The result is BIGINT NOT NULL.
func bindCount(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
	for _, a := range args {
		if a.Unit != "" {
			return types.Type{}, nil, sigError("COUNT", "(*) or (any [, any ...])", args)
		}
	}
	return types.BigIntType.WithNotNull(true), withDistinct(args, distinct, func() Accumulator { return &countAcc{} }), nil
}

type countAcc struct{ n int64 }

func anyNull(args []types.Value) bool {
	return slices.ContainsFunc(args, func(v types.Value) bool { return v.Null })
}

func (c *countAcc) Add(args []types.Value) {
	if !anyNull(args) {
		c.n++
	}
}

func (c *countAcc) Retract(args []types.Value) error {
	if !anyNull(args) {
		c.n--
	}
	return nil
}

func (c *countAcc) Result() (types.Value, error) { return types.IntValue(c.n), nil }
func (c *countAcc) MarshalState() []byte         { return c.appendState(nil) }

func (c *countAcc) appendState(b []byte) []byte { e := encoder{b}; e.int(c.n); return e.b }

func (c *countAcc) UnmarshalState(b []byte) error {
	d := decoder{b: b}
	n := d.int()
	if err := d.done(); err != nil {
		return err
	}
	c.n = n
	return nil
}

// ---------------------------------------------------------------- SUM, SUM0, AVG

// sumAcc keeps the sum of the non-NULL inputs and their count, as Flink's
// SumWithRetractAggFunction does. Integer sums are int64 (wrapping like
// Java's, so retraction is exact); approximate sums are float64; decimal
// sums are DECIMAL(38, s) values in 128 bits (hi and i, the low word; top
// is the sign of hi, kept for the state layout), or NULL once an addition
// overflowed 38 digits (decimalOverflow), as Flink's DECIMAL addition gives
// NULL.
type sumAcc struct {
	i     int64
	hi    int64 // the middle word of a decimal sum
	top   int64 // the high word of a decimal sum
	f     float64
	n     int64
	float bool
	wide  bool // a decimal sum: 192 bits
	// wideIn marks inputs of a DECIMAL held in 16 bytes; the top word
	// of a sum of int64 inputs is the sign of hi.
	wideIn bool
	// sticky keeps an overflowed decimal sum NULL, as Flink's SUM0 and
	// AVG do (their sum starts at 0 and NULL + x is NULL); SUM's restarts
	// from the next input instead (Flink's SumAggFunction and
	// SumWithRetractAggFunction take the operand when the sum is NULL).
	sticky bool
	// result turns the state (n, then the sum's words or f) into the
	// aggregate's value.
	result func(n int64, sum [3]int64, f float64) (types.Value, error)
	// ints, for SUM, SUM0 and AVG of integers of kind kind, is the result
	// as the flat form computes it without result: intSum or intAvg.
	ints intResult
	kind types.Kind
	zero bool // SUM0: 0, not NULL, without inputs
}

// intResult is how the result of SUM or AVG of integers comes from the
// count and the sum (sumAcc.ints).
type intResult uint8

const (
	viaResult intResult = iota
	intSum
	intAvg
)

func (s *sumAcc) Add(args []types.Value)           { s.step(args[0], 1) }
func (s *sumAcc) Retract(args []types.Value) error { s.step(args[0], -1); return nil }
func (s *sumAcc) Result() (types.Value, error) {
	return s.result(s.n, [3]int64{s.i, s.hi, s.top}, s.f)
}

func (s *sumAcc) step(v types.Value, sign int64) {
	if v.Null {
		return
	}
	s.n += sign
	switch {
	case s.float:
		s.f += float64(sign) * v.F
	case s.wide:
		var x types.Int128
		if s.wideIn {
			x, _ = types.DecodeInt128(v.S)
		} else {
			x = types.Int128Of(v.I)
		}
		if sign < 0 {
			x = x.Neg()
		}
		s.addDecimal(x, false)
	default:
		s.i += sign * v.I
	}
}

// decimalOverflow is the low and high word of a decimal sum that
// overflowed: -2^127, which no DECIMAL(38) value is, so that the result
// functions, which give NULL past 38 digits, need no flag.
const decimalOverflowHi = math.MinInt64

// overflowed reports whether the decimal sum overflowed (is NULL).
func (s *sumAcc) overflowed() bool { return s.i == 0 && s.hi == decimalOverflowHi }

// addDecimal adds x (of at most 38 digits) to the decimal sum as Flink's
// aggregate functions do: a result past 38 digits makes the sum NULL. An
// overflowed sum stays NULL when sticky; otherwise it restarts from x,
// unless xNull (a merged accumulator's NULL sum, which SUM ignores and
// SUM0 and AVG propagate).
func (s *sumAcc) addDecimal(x types.Int128, xNull bool) {
	switch {
	case xNull && s.sticky:
		s.setOverflowed()
		return
	case xNull:
		return
	case s.overflowed() && s.sticky:
		return
	case s.overflowed():
		s.i, s.hi = 0, 0
	}
	r, over := types.Int128{Hi: s.hi, Lo: uint64(s.i)}.Add(x)
	if over || !r.FitsDigits(maxDecimalPrecision) {
		s.setOverflowed()
		return
	}
	s.i, s.hi, s.top = int64(r.Lo), r.Hi, r.Hi>>63
}

// setOverflowed makes the decimal sum NULL.
func (s *sumAcc) setOverflowed() { s.i, s.hi, s.top = 0, decimalOverflowHi, -1 }

// normalizeDecimal turns a decimal sum read from state into the form
// addDecimal keeps: state written before sums were held to 38 digits may
// hold an exact sum past them, which is NULL.
func (s *sumAcc) normalizeDecimal() {
	r := types.Int128{Hi: s.hi, Lo: uint64(s.i)}
	if s.top != s.hi>>63 || !r.FitsDigits(maxDecimalPrecision) && !s.overflowed() {
		s.setOverflowed()
	}
}

// wideSum returns the unscaled value of a decimal sum of words (low
// first).
func wideSum(w [3]int64) *big.Int {
	r := big.NewInt(w[2])
	r.Lsh(r, 64)
	r.Add(r, new(big.Int).SetUint64(uint64(w[1])))
	r.Lsh(r, 64)
	return r.Add(r, new(big.Int).SetUint64(uint64(w[0])))
}

func (s *sumAcc) MarshalState() []byte { return s.appendState(nil) }

func (s *sumAcc) appendState(b []byte) []byte {
	e := encoder{b}
	e.int(s.n)
	if s.float {
		e.float(s.f)
	} else {
		e.int(s.i)
	}
	// Only a decimal sum past 64 (128) bits has a middle (top) word that
	// is not the sign extension of the word below; older state has none.
	ext, topExt := s.hi-s.i>>63, s.top-s.hi>>63
	if s.wide && (ext != 0 || topExt != 0) {
		e.int(ext)
	}
	if s.wide && topExt != 0 {
		e.int(topExt)
	}
	return e.b
}

func (s *sumAcc) UnmarshalState(b []byte) error {
	d := decoder{b: b}
	n := d.int()
	var i int64
	var f float64
	if s.float {
		f = d.float()
	} else {
		i = d.int()
	}
	var hi, top int64
	if s.wide {
		hi = i >> 63
		if d.err == nil && len(d.b) > 0 {
			hi += d.int()
		}
		top = hi >> 63
		if d.err == nil && len(d.b) > 0 {
			top += d.int()
		}
	}
	if err := d.done(); err != nil {
		return err
	}
	s.n, s.i, s.hi, s.top, s.f = n, i, hi, top, f
	if s.wide {
		s.normalizeDecimal()
	}
	return nil
}

func numericArg(name string, args []Arg) (types.Type, error) {
	if !match(args, numeric) || args[0].Type.Kind == types.Null {
		return types.Type{}, sigError(name, "(NUMERIC)", args)
	}
	return args[0].Type.Plain(), nil
}

// SUM(x) has x's type, except that DECIMAL(p, s) sums to DECIMAL(38, s)
// (LogicalTypeMerging.findSumAggType); an addition past 38 digits makes
// the sum NULL, as Flink's DecimalData gives null on overflow, and SUM
// restarts from the next input while SUM0 stays NULL (see sumAcc.sticky).
// It is NULL when there are no non-NULL inputs. SUM0 is 0 then, and NOT
// NULL. Integer sums wrap around like Java.
func bindSum(name string, zero bool) aggBind {
	return func(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
		t, err := numericArg(name, args)
		if err != nil {
			return types.Type{}, nil, err
		}
		rt := t.Nullable()
		if t.Kind == types.Decimal {
			rt = types.DecimalType(maxDecimalPrecision, t.Scale)
		}
		if zero {
			rt = rt.WithNotNull(true)
		}
		float, k := t.Physical() == types.PhysFloat, t.Kind
		result := func(n int64, sum [3]int64, f float64) (types.Value, error) {
			switch {
			case n == 0 && !zero:
				return types.NullValue, nil
			case float && k == types.Float:
				return types.FloatValue(float64(float32(f))), nil
			case float:
				return types.FloatValue(f), nil
			case k == types.Decimal:
				return fitDecimal(wideSum(sum), rt), nil
			}
			return types.IntValue(wrapInt(k, sum[0])), nil
		}
		wideIn, ints := t.IsWideDecimal(), viaResult
		if !float && k != types.Decimal {
			ints = intSum
		}
		return rt, withDistinct(args, distinct, func() Accumulator {
			return &sumAcc{float: float, wide: k == types.Decimal, wideIn: wideIn, sticky: zero, result: result, ints: ints, kind: k, zero: zero}
		}), nil
	}
}

// AVG(x) has x's type (Flink's AvgAggFunction): the integer average
// truncates toward zero; DOUBLE divides the sum by the count; DECIMAL(p, s)
// averages to DECIMAL(38, max(6, s)) (LogicalTypeMerging.findAvgAggType),
// the sum divided by the count as DECIMAL division does (38 significant
// digits, then HALF_UP to the scale). It is NULL when there are no
// non-NULL inputs.
func bindAvg(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
	t, err := numericArg("AVG", args)
	if err != nil {
		return types.Type{}, nil, err
	}
	rt := avgType(t)
	k, s, rs := t.Kind, scaleOf(t), scaleOf(rt)
	result := func(n int64, sum [3]int64, f float64) (types.Value, error) {
		switch {
		case n == 0:
			return types.NullValue, nil
		case k == types.Float:
			return types.FloatValue(float64(float32(f / float64(n)))), nil
		case k == types.Double:
			return types.FloatValue(f / float64(n)), nil
		case k == types.Decimal:
			total := wideSum(sum)
			if decimalDigits(total) > maxDecimalPrecision {
				return types.NullValue, nil // the DECIMAL(38, s) sum is NULL
			}
			return fitDecimal(divideFlink(total, big.NewInt(n), s, 0, rs), rt), nil
		}
		return types.IntValue(wrapInt(k, sum[0]/n)), nil
	}
	float, wideIn, ints := t.Physical() == types.PhysFloat, t.IsWideDecimal(), viaResult
	if !float && k != types.Decimal {
		ints = intAvg
	}
	return rt, withDistinct(args, distinct, func() Accumulator {
		return &sumAcc{float: float, wide: k == types.Decimal, wideIn: wideIn, sticky: true, result: result, ints: ints, kind: k}
	}), nil
}

// avgType is the result type of AVG and the variance functions.
func avgType(t types.Type) types.Type {
	if t.Kind == types.Decimal {
		return types.DecimalType(maxDecimalPrecision, max(minAdjustedScale, t.Scale))
	}
	return t.Nullable()
}

// ---------------------------------------------------------------- MIN, MAX

// valueOrder returns the total order of values of type t used by MIN, MAX
// and sorting: numbers by value, strings by UTF-8 bytes, the rest by their
// int64 form.
func valueOrder(t types.Type) func(a, b types.Value) int {
	switch t.Physical() {
	case types.PhysFloat:
		return func(a, b types.Value) int { return cmp.Compare(a.F, b.F) }
	case types.PhysString:
		return cmpString
	}
	return cmpInt
}

// countedValue is a value with its multiplicity.
type countedValue struct {
	v types.Value
	n int64
}

// multiset is a sorted multiset of non-NULL values, the state of MIN and MAX
// with retraction (Flink's MaxWithRetractAggFunction keeps a value→count map).
type multiset struct {
	order func(a, b types.Value) int
	phys  types.Physical
	items []countedValue
}

func (m *multiset) find(v types.Value) (int, bool) {
	return sort.Find(len(m.items), func(i int) int { return m.order(v, m.items[i].v) })
}

func (m *multiset) Add(args []types.Value) {
	v := args[0]
	if v.Null {
		return
	}
	i, ok := m.find(v)
	if ok {
		m.items[i].n++
		return
	}
	m.items = slices.Insert(m.items, i, countedValue{v: v, n: 1})
}

func (m *multiset) Retract(args []types.Value) error {
	v := args[0]
	if v.Null {
		return nil
	}
	i, ok := m.find(v)
	if !ok {
		return nil // never added: nothing to undo
	}
	if m.items[i].n--; m.items[i].n == 0 {
		m.items = slices.Delete(m.items, i, i+1)
	}
	return nil
}

func (m *multiset) MarshalState() []byte { return m.appendState(nil) }

func (m *multiset) appendState(b []byte) []byte {
	e := encoder{b}
	e.int(int64(len(m.items)))
	for _, it := range m.items {
		e.value(m.phys, it.v)
		e.int(it.n)
	}
	return e.b
}

func (m *multiset) UnmarshalState(b []byte) error {
	d := decoder{b: b}
	n := d.int()
	var items []countedValue
	for i := int64(0); i < n && d.err == nil; i++ {
		v := d.value(m.phys)
		items = append(items, countedValue{v: v, n: d.int()})
	}
	if err := d.done(); err != nil {
		return err
	}
	m.items = items
	return nil
}

// extremeAcc is MIN (end -1) or MAX (end 1) over a multiset.
type extremeAcc struct {
	multiset
	end int
}

func (x *extremeAcc) Result() (types.Value, error) {
	switch {
	case len(x.items) == 0:
		return types.NullValue, nil
	case x.end < 0:
		return x.items[0].v, nil
	}
	return x.items[len(x.items)-1].v, nil
}

// MIN(x) / MAX(x) have x's type (nullable) and take any comparable type.
func bindMinMax(name string, end int) aggBind {
	return func(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
		if len(args) != 1 || args[0].Unit != "" || args[0].Type.Kind == types.Null {
			return types.Type{}, nil, sigError(name, "(any comparable type)", args)
		}
		t := args[0].Type.Plain()
		order, phys := valueOrder(t), t.Physical()
		return t.Nullable(), func() Accumulator {
			return &extremeAcc{multiset: multiset{order: order, phys: phys}, end: end}
		}, nil
	}
}

// extremeValue is MIN (end -1) or MAX (end 1) over an input without
// retractions, as Flink's MinAggFunction and MaxAggFunction: the extreme
// alone, where extremeAcc keeps every distinct value to survive
// retractions (and inserts each in a sorted slice, which a window of
// millions of distinct values cannot afford). Its state is a multiset of
// at most one value, so each restores the other's.
type extremeValue struct {
	order func(a, b types.Value) int
	phys  types.Physical
	end   int
	v     types.Value
}

func (x *extremeValue) Add(args []types.Value) {
	v := args[0]
	if v.Null {
		return
	}
	if x.v.Null || x.end*x.order(v, x.v) > 0 {
		x.v = v
	}
}

func (x *extremeValue) Retract([]types.Value) error {
	return errors.New("MIN and MAX over an input without retractions cannot retract a row")
}

func (x *extremeValue) Result() (types.Value, error) { return x.v, nil }

func (x *extremeValue) MarshalState() []byte { return x.appendState(nil) }

func (x *extremeValue) appendState(b []byte) []byte {
	m := multiset{order: x.order, phys: x.phys}
	if !x.v.Null {
		m.items = []countedValue{{v: x.v, n: 1}}
	}
	return m.appendState(b)
}

func (x *extremeValue) UnmarshalState(b []byte) error {
	m := multiset{order: x.order, phys: x.phys}
	if err := m.UnmarshalState(b); err != nil {
		return err
	}
	x.v = types.NullValue
	switch {
	case len(m.items) == 0:
	case x.end < 0:
		x.v = m.items[0].v
	default:
		x.v = m.items[len(m.items)-1].v
	}
	return nil
}

// bindExtreme binds MIN / MAX for an input without retractions.
func bindExtreme(name string, end int) aggBind {
	full := bindMinMax(name, end)
	return func(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
		t, _, err := full(args, distinct)
		if err != nil {
			return types.Type{}, nil, err
		}
		order, phys := valueOrder(t), t.Physical()
		return t, func() Accumulator {
			x := extremeValue{order: order, phys: phys, end: end, v: types.NullValue}
			if phys == types.PhysString {
				return &heldExtreme{extremeValue: x}
			}
			return &flatExtreme{x}
		}, nil
	}
}

// ---------------------------------------------------------------- FIRST_VALUE, LAST_VALUE, LISTAGG

// sequence keeps the non-NULL inputs in arrival order; retraction removes
// the earliest equal value, as Flink's FirstValueWithRetractAggFunction and
// ListAggWithRetractAggFunction drop a retracted value from their lists.
type sequence struct {
	phys  types.Physical
	order func(a, b types.Value) int
	items []types.Value
}

func (s *sequence) Add(args []types.Value) {
	if !args[0].Null {
		s.items = append(s.items, args[0])
	}
}

func (s *sequence) Retract(args []types.Value) error {
	if args[0].Null {
		return nil
	}
	i := slices.IndexFunc(s.items, func(v types.Value) bool { return s.order(v, args[0]) == 0 })
	if i >= 0 {
		s.items = slices.Delete(s.items, i, i+1)
	}
	return nil
}

func (s *sequence) MarshalState() []byte {
	var e encoder
	e.int(int64(len(s.items)))
	for _, v := range s.items {
		e.value(s.phys, v)
	}
	return e.b
}

func (s *sequence) UnmarshalState(b []byte) error {
	d := decoder{b: b}
	n := d.int()
	var items []types.Value
	for i := int64(0); i < n && d.err == nil; i++ {
		items = append(items, d.value(s.phys))
	}
	if err := d.done(); err != nil {
		return err
	}
	s.items = items
	return nil
}

type firstLastAcc struct {
	sequence
	first bool
}

func (f *firstLastAcc) Result() (types.Value, error) {
	switch {
	case len(f.items) == 0:
		return types.NullValue, nil
	case f.first:
		return f.items[0], nil
	}
	return f.items[len(f.items)-1], nil
}

// FIRST_VALUE(x) / LAST_VALUE(x): "Returns the first/last value in an
// ordered set of values", ignoring NULLs; the order is arrival order.
func bindFirstLast(name string, first bool) aggBind {
	return func(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
		if len(args) != 1 || args[0].Unit != "" || args[0].Type.Kind == types.Null {
			return types.Type{}, nil, sigError(name, "(any type)", args)
		}
		t := args[0].Type.Plain()
		order, phys := valueOrder(t), t.Physical()
		return t.Nullable(), withDistinct(args, distinct, func() Accumulator {
			return &firstLastAcc{sequence: sequence{phys: phys, order: order}, first: first}
		}), nil
	}
}

type listAggAcc struct {
	sequence
	sep string
}

func (l *listAggAcc) Result() (types.Value, error) {
	if len(l.items) == 0 {
		return types.NullValue, nil
	}
	parts := make([]string, len(l.items))
	for i, v := range l.items {
		parts[i] = v.S
	}
	return types.StringValue(strings.Join(parts, l.sep)), nil
}

// LISTAGG(expression [, separator]): "Concatenates the values of string
// expressions and places separator values between them. The separator is not
// added at the end of string. The default value of separator is ','." The
// separator must be a constant; NULL values are skipped and an empty group
// gives NULL.
func bindListAgg(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
	sep := ","
	ok := match(args, str)
	if match(args, str, str) {
		sep, ok = constString(args[1])
	}
	if !ok {
		return types.Type{}, nil, sigError("LISTAGG", "(STRING [, constant STRING separator])", args)
	}
	return types.StringType, withDistinct(args, distinct, func() Accumulator {
		return &listAggAcc{sequence: sequence{phys: types.PhysString, order: cmpString}, sep: sep}
	}), nil
}

// ARRAY_AGG([ALL | DISTINCT] expression): "By default or with keyword ALL,
// return an array that concatenates the input rows and returns NULL if
// there are no input rows." As Flink's ArrayAggFunction: NULL inputs are
// left out (the elements are NOT NULL), retraction removes the earliest
// equal element, and no element left gives NULL.
func bindArrayAgg(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
	if len(args) != 1 || args[0].Unit != "" || args[0].Type.Kind == types.Null {
		return types.Type{}, nil, sigError("ARRAY_AGG", "(value)", args)
	}
	elem := args[0].Type.Plain().WithNotNull(true)
	eq := scalarEquality(elem)
	order := func(a, b types.Value) int {
		if eq(a, b) {
			return 0
		}
		return 1
	}
	return types.ArrayOf(elem), withDistinct(args, distinct, func() Accumulator {
		return &arrayAggAcc{sequence: sequence{phys: elem.Physical(), order: order}, elem: elem}
	}), nil
}

type arrayAggAcc struct {
	sequence
	elem types.Type
}

func (a *arrayAggAcc) Result() (types.Value, error) {
	if len(a.items) == 0 {
		return types.NullValue, nil
	}
	return types.EncodeArray(a.elem, a.items), nil
}
