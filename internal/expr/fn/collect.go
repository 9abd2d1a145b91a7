package fn

import (
	"math"
	"slices"

	"github.com/sluicesql/sluice/internal/types"
)

// COLLECT(value): "Returns a multiset of the <value>s. null input value
// will be ignored. Return an empty multiset if only null values are
// added." After Flink's CollectAggFunction: a map of each distinct value
// to its count, a retraction decrements the count and drops the value at
// zero (a retraction of a value never added leaves it at -1, as there),
// and the result, MULTISET<T> NOT NULL (Calcite's TO_MULTISET over the
// argument's type), is never NULL. Sluice lists a multiset's elements in
// the order of their first arrival.

func init() {
	// Registered here rather than through registerAgg, which refuses
	// composite arguments: COLLECT takes values of any type.
	aggregates["COLLECT"] = &Aggregate{Name: "COLLECT", Bind: bindCollect}
}

func bindCollect(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
	if len(args) != 1 || args[0].Unit != "" || args[0].Type.Kind == types.Null {
		return types.Type{}, nil, sigError("COLLECT", "(value)", args)
	}
	elem := args[0].Type.Plain()
	t := types.MultisetOf(elem).WithNotNull(true)
	phys := elem.Physical()
	return t, withDistinct(args, distinct, func() Accumulator {
		return &collectAcc{t: t, phys: phys, index: map[string]int{}}
	}), nil
}

// collectAcc holds the distinct values in first-arrival order with their
// counts; index finds a value's entry by its key.
type collectAcc struct {
	t      types.Type
	phys   types.Physical
	values []types.Value
	counts []int64
	index  map[string]int
}

// collectKey is the identity of a value as a Java map key: floats by
// their bits (so -0.0 and 0.0 differ) with NaN canonical, as Double.equals.
func collectKey(p types.Physical, v types.Value) string {
	var e encoder
	if p == types.PhysFloat && math.IsNaN(v.F) {
		v.F = math.NaN()
	}
	e.value(p, v)
	return string(e.b)
}

func (c *collectAcc) Add(args []types.Value) { c.update(args[0], 1) }

func (c *collectAcc) Retract(args []types.Value) error {
	c.update(args[0], -1)
	return nil
}

func (c *collectAcc) update(v types.Value, delta int64) {
	if v.Null {
		return
	}
	k := collectKey(c.phys, v)
	i, ok := c.index[k]
	switch {
	case !ok:
		c.index[k] = len(c.values)
		c.values = append(c.values, v)
		c.counts = append(c.counts, delta)
	case delta < 0 && c.counts[i] == 1:
		c.remove(i)
	default:
		c.counts[i] += delta
	}
}

// remove drops entry i, keeping the order of the others.
func (c *collectAcc) remove(i int) {
	delete(c.index, collectKey(c.phys, c.values[i]))
	c.values = slices.Delete(c.values, i, i+1)
	c.counts = slices.Delete(c.counts, i, i+1)
	for j := i; j < len(c.values); j++ {
		c.index[collectKey(c.phys, c.values[j])] = j
	}
}

func (c *collectAcc) Result() (types.Value, error) {
	counts := make([]types.Value, len(c.counts))
	for i, n := range c.counts {
		counts[i] = types.IntValue(int64(int32(n))) // an INT, as Flink's Integer counts
	}
	return types.EncodeMap(c.t, c.values, counts), nil
}

func (c *collectAcc) MarshalState() []byte {
	var e encoder
	e.int(int64(len(c.values)))
	for i, v := range c.values {
		e.value(c.phys, v)
		e.int(c.counts[i])
	}
	return e.b
}

func (c *collectAcc) UnmarshalState(b []byte) error {
	d := decoder{b: b}
	n := d.int()
	var values []types.Value
	var counts []int64
	for i := int64(0); i < n && d.err == nil; i++ {
		values = append(values, d.value(c.phys))
		counts = append(counts, d.int())
	}
	if err := d.done(); err != nil {
		return err
	}
	c.values, c.counts, c.index = values, counts, make(map[string]int, len(values))
	for i, v := range values {
		c.index[collectKey(c.phys, v)] = i
	}
	return nil
}
