package fn

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/sluicesql/sluice/internal/types"
)

// PERCENTILE(expr, percentage [, frequency]): "Returns the percentile value
// of expr at the specified percentage using continuous distribution. ...
// The percentage must be a literal numeric value between [0.0, 1.0] or an
// array of such values. If a variable expression is passed to this
// function, the result will be calculated using any one of them. frequency
// describes how many times expr should be counted, the default value is 1.
// If no expr lies exactly at the desired percentile, the result is
// calculated using linear interpolation of the two nearest exprs. If expr
// or frequency is NULL, or frequency is not positive, the input row will
// be ignored." It returns a DOUBLE, or an ARRAY<DOUBLE> for an array of
// percentages (NULL for an empty one), NULL without input.
//
// After Flink's PercentileAggFunction: the state is the count of each
// distinct value (as a DOUBLE, DECIMAL converted by its value), the
// percentages are taken from the first row, and the result is read from
// the values in Double.compare order at position percentage * (count - 1)
// + 1.

func init() {
	// Registered here rather than through registerAgg, which refuses
	// composite arguments: the percentages may be an ARRAY.
	aggregates["PERCENTILE"] = &Aggregate{Name: "PERCENTILE", Bind: bindPercentile}
}

const percentileSig = "(NUMERIC, NUMERIC percentage or ARRAY<NUMERIC> percentages [, integer frequency])"

func bindPercentile(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
	if len(args) < 2 || len(args) > 3 || args[0].Unit != "" || args[1].Unit != "" || !numeric(args[0].Type) {
		return types.Type{}, nil, sigError("PERCENTILE", percentileSig, args)
	}
	pt := args[1].Type
	multi := pt.Kind == types.Array
	if multi && !numeric(pt.Elem()) || !multi && !numeric(pt) {
		return types.Type{}, nil, sigError("PERCENTILE", percentileSig, args)
	}
	if len(args) == 3 && (args[2].Unit != "" || !args[2].Type.IsInteger()) {
		return types.Type{}, nil, sigError("PERCENTILE", percentileSig, args)
	}
	if args[1].Const != nil {
		ps, err := percentages(pt, *args[1].Const)
		if err != nil {
			return types.Type{}, nil, fmt.Errorf("PERCENTILE: %w", err)
		}
		if ps == nil {
			return types.Type{}, nil, fmt.Errorf("PERCENTILE: the percentage must not be NULL")
		}
	}
	t := types.DoubleType
	if multi {
		t = types.ArrayOf(types.DoubleType)
	}
	vt := args[0].Type
	return t, withDistinct(args, distinct, func() Accumulator {
		return &percentileAcc{valueType: vt, pType: pt, multi: multi, freq: len(args) == 3, counts: map[uint64]int64{}}
	}), nil
}

// percentileValue is v as the DOUBLE Flink counts it by.
func percentileValue(t types.Type, v types.Value) float64 {
	switch {
	case t.Physical() == types.PhysFloat:
		return v.F
	case t.Kind == types.Decimal:
		// DecimalDataUtils.doubleValue: the nearest double to the decimal.
		f, _ := strconv.ParseFloat(string(types.AppendJavaDecimal(nil, types.DecimalUnscaled(t, v), t.Scale)), 64)
		return f
	}
	return float64(v.I)
}

// percentages reads a percentage argument (a number or an ARRAY of
// them), each of which must lie in [0, 1]; nil for NULL.
func percentages(t types.Type, v types.Value) ([]float64, error) {
	if v.Null {
		return nil, nil
	}
	check := func(p float64) error {
		if !(p >= 0 && p <= 1) {
			return fmt.Errorf("Percentage of PERCENTILE should be between [0.0, 1.0], but was '%s'.", types.AppendJavaFloat(nil, p, 64))
		}
		return nil
	}
	if t.Kind != types.Array {
		p := percentileValue(t, v)
		return []float64{p}, check(p)
	}
	els, err := types.DecodeArray(t.Elem(), v.S)
	if err != nil {
		return nil, err
	}
	ps := make([]float64, 0, len(els))
	for _, e := range els {
		if e.Null {
			return nil, errors.New("a percentage is NULL")
		}
		p := percentileValue(t.Elem(), e)
		if err := check(p); err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

type percentileAcc struct {
	valueType, pType types.Type
	multi, freq      bool
	// ps are the percentages, nil until the first row; counts the count
	// of each value, by its bits (NaN canonical, so that -0.0 and 0.0
	// differ and NaN equals NaN, as Double keys).
	ps     []float64
	counts map[uint64]int64
	err    error // a bad percentage, reported by Result
}

func doubleKey(f float64) uint64 {
	if math.IsNaN(f) {
		f = math.NaN()
	}
	return math.Float64bits(f)
}

func (p *percentileAcc) Add(args []types.Value) {
	if p.ps == nil && p.err == nil {
		ps, err := percentages(p.pType, args[1])
		if ps == nil && err == nil {
			err = errors.New("the percentage is NULL")
		}
		if err != nil {
			p.err = err
			return
		}
		p.ps = ps
	}
	p.update(args, 1)
}

func (p *percentileAcc) Retract(args []types.Value) error {
	p.update(args, -1)
	return nil
}

func (p *percentileAcc) update(args []types.Value, sign int64) {
	n := int64(1)
	if p.freq {
		if args[2].Null || args[2].I <= 0 {
			return
		}
		n = args[2].I
	}
	if args[0].Null {
		return
	}
	k := doubleKey(percentileValue(p.valueType, args[0]))
	if c := p.counts[k] + sign*n; c != 0 {
		p.counts[k] = c
	} else {
		delete(p.counts, k)
	}
}

func (p *percentileAcc) Result() (types.Value, error) {
	if p.err != nil {
		return types.Value{}, runtimeError("PERCENTILE", "%v", p.err)
	}
	if p.ps == nil || p.multi && len(p.ps) == 0 {
		return types.NullValue, nil
	}
	vals, ok := p.percentiles()
	if !ok {
		return types.NullValue, nil
	}
	if !p.multi {
		return types.FloatValue(vals[0]), nil
	}
	out := make([]types.Value, len(vals))
	for i, v := range vals {
		out[i] = types.FloatValue(v)
	}
	return types.EncodeArray(types.DoubleType, out), nil
}

// percentiles computes every percentage's value in one pass over the
// values in order (PercentileAccumulator.getValue); false without input.
func (p *percentileAcc) percentiles() ([]float64, bool) {
	type entry struct {
		v float64
		n int64
	}
	var total int64
	sorted := make([]entry, 0, len(p.counts))
	for k, n := range p.counts {
		sorted = append(sorted, entry{math.Float64frombits(k), n})
		total += n
	}
	if total <= 0 {
		return nil, false
	}
	slices.SortFunc(sorted, func(a, b entry) int { return javaDoubleCompare(a.v, b.v) })
	order := make([]int, len(p.ps))
	pos := make([]float64, len(p.ps))
	for i, pc := range p.ps {
		order[i], pos[i] = i, pc*float64(total-1)+1
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(pos[a], pos[b]) })
	out := make([]float64, len(p.ps))
	pre, j := sorted[0].n, 0
	for _, i := range order {
		position := pos[i]
		lower, higher := int64(math.Floor(position)), int64(math.Ceil(position))
		for pre < lower {
			j++
			pre += sorted[j].n
		}
		if pre >= higher {
			out[i] = sorted[j].v
		} else {
			out[i] = (float64(higher)-position)*sorted[j].v + (position-float64(lower))*sorted[j+1].v
		}
	}
	return out, true
}

// javaDoubleCompare is Double.compare: numeric order, -0.0 before 0.0,
// NaN after everything.
func javaDoubleCompare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	x, y := int64(doubleKey(a)), int64(doubleKey(b))
	return cmp.Compare(x, y)
}

func (p *percentileAcc) MarshalState() []byte {
	var e encoder
	e.bool(p.ps != nil)
	e.int(int64(len(p.ps)))
	for _, v := range p.ps {
		e.float(v)
	}
	keys := make([]uint64, 0, len(p.counts))
	for k := range p.counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.int(int64(len(keys)))
	for _, k := range keys {
		e.float(math.Float64frombits(k))
		e.int(p.counts[k])
	}
	return e.b
}

func (p *percentileAcc) UnmarshalState(b []byte) error {
	d := decoder{b: b}
	var ps []float64
	set := d.bool()
	n := d.int()
	for i := int64(0); i < n && d.err == nil; i++ {
		ps = append(ps, d.float())
	}
	if set && ps == nil {
		ps = []float64{}
	}
	counts := map[uint64]int64{}
	m := d.int()
	for i := int64(0); i < m && d.err == nil; i++ {
		k := doubleKey(d.float())
		counts[k] = d.int()
	}
	if err := d.done(); err != nil {
		return err
	}
	p.ps, p.counts = ps, counts
	return nil
}
