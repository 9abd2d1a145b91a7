package fn

import (
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// TestVarianceAsFlinkReducesIt: the variance functions give the values of
// Calcite's AggregateReduceFunctionsRule rewrite that Flink runs,
// (SUM(x*x) - SUM(x)*SUM(x) / COUNT(x)) / COUNT(x) (or COUNT(x) - 1), each
// step in the argument's type; hand-computed from that formula.
func TestVarianceAsFlinkReducesIt(t *testing.T) {
	intT, tinyT, floatT := types.IntType, types.Type{Kind: types.TinyInt}, types.Type{Kind: types.Float}
	ints := func(vs ...int64) []step {
		out := make([]step, len(vs))
		for i, v := range vs {
			out[i] = add(i64(v))
		}
		return out
	}
	f32 := func(f float32) types.Value { return f64(float64(f)) }
	floats := []step{add(f32(0.1)), add(f32(0.2)), add(f32(0.7))}
	tiny := []types.Type{tinyT}
	runAggCases(t, []aggCase{
		// INT 1, 2: SUM(x*x) = 5, SUM(x)^2 / COUNT = 9 / 2 = 4 (BIGINT
		// division), so the numerator is 1: VAR_SAMP 1 / 1, VAR_POP 1 / 2.
		{name: "VAR_SAMP", args: []types.Type{intT}, steps: ints(1, 2), want: "1", wantType: "INT"},
		{name: "VARIANCE", args: []types.Type{intT}, steps: ints(1, 2), want: "1"},
		{name: "STDDEV_SAMP", args: []types.Type{intT}, steps: ints(1, 2), want: "1", wantType: "INT"},
		{name: "VAR_POP", args: []types.Type{intT}, steps: ints(1, 2), want: "0"},
		{name: "VAR_SAMP", args: []types.Type{intT}, steps: append(ints(1, 2, 7), retract(i64(7))), want: "1"},
		// TINYINT 100, 0: 100*100 wraps to 16 in TINYINT, SUM(x)^2 too, so
		// the numerator is 16 - 16 / 2 = 8.
		{name: "VAR_POP", args: tiny, steps: ints(100, 0), want: "4", wantType: "TINYINT"},
		{name: "VAR_SAMP", args: tiny, steps: ints(100, 0), want: "8"},
		{name: "STDDEV_POP", args: tiny, steps: ints(100, 0), want: "2"},
		{name: "STDDEV_SAMP", args: tiny, steps: ints(100, 0), want: "2"},
		// FLOAT in float arithmetic throughout.
		{name: "VAR_POP", args: []types.Type{floatT}, steps: floats, want: "0.06888887", wantType: "FLOAT"},
		{name: "VAR_SAMP", args: []types.Type{floatT}, steps: floats, want: "0.10333331"},
		{name: "STDDEV_POP", args: []types.Type{floatT}, steps: floats, want: "0.2624669"},
		// DISTINCT applies to each sum: -1 and 1 have one distinct square.
		{name: "VAR_POP", distinct: true, args: []types.Type{intT}, steps: ints(-1, 1, 1), want: "0"},
		{name: "VAR_POP", distinct: true, args: []types.Type{types.DoubleType}, steps: []step{add(f64(-1)), add(f64(1)), add(f64(1))}, want: "0.5"},
		{name: "VAR_POP", distinct: true, args: []types.Type{types.DoubleType},
			steps: []step{add(f64(-1)), add(f64(1)), add(f64(3)), retract(f64(1)), retract(f64(3))}, want: "0"},
		{name: "VAR_SAMP", args: []types.Type{intT}, steps: []step{add(nul), add(i64(4))}, want: "NULL"},
		{name: "STDDEV_POP", args: []types.Type{intT}, steps: []step{add(nul)}, want: "NULL"},
	})
}

// TestVarianceOfDecimals: a DECIMAL argument is cast to the result's
// DECIMAL(38, max(6, s)); its squares and the divisions are DECIMAL(38, 6),
// rounded HALF_UP.
func TestVarianceOfDecimals(t *testing.T) {
	d := func(unscaled ...int64) []step {
		out := make([]step, len(unscaled))
		for i, v := range unscaled {
			out[i] = add(i64(v))
		}
		return out
	}
	small := []types.Type{types.DecimalType(10, 8)}
	runAggCases(t, []aggCase{
		{name: "VAR_POP", args: []types.Type{types.DecimalType(10, 2)}, steps: d(100, 200), want: "0.250000", wantType: "DECIMAL(38, 6)"},
		{name: "STDDEV_SAMP", args: []types.Type{types.DecimalType(10, 2)}, steps: d(100, 200), want: "0.707107"},
		// 0.00012345 and 0.00054321 square to 0.000000 at scale 6, and so
		// does their sum: Flink's variance is 0.
		{name: "VAR_POP", args: small, steps: d(12345, 54321), want: "0.00000000", wantType: "DECIMAL(38, 8)"},
		{name: "STDDEV_POP", args: small, steps: d(12345, 54321), want: "0.00000000"},
		// Three times 0.0007: the squares round to 0, SUM(x)^2 to 0.000004,
		// / 3 to 0.000001; (0 - 0.000001) / 2 rounds HALF_UP to -0.000001.
		{name: "VAR_SAMP", args: []types.Type{types.DecimalType(5, 4)}, steps: d(7, 7, 7), want: "-0.000001"},
		{name: "VAR_POP", distinct: true, args: []types.Type{types.DecimalType(5, 0)}, steps: d(-3, 3, 3), want: "4.500000"},
	})
}
