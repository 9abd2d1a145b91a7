package fn

import (
	"math"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// COLLECT after Flink's CollectAggFunction (and its tests): NULLs ignored,
// an empty multiset without values, counts decremented by retractions.
func TestCollect(t *testing.T) {
	intT, strT, dblT := types.IntType, types.StringType, types.DoubleType
	arr := types.ArrayOf(types.IntType)
	runAggCases(t, []aggCase{
		{name: "COLLECT", args: []types.Type{intT}, steps: []step{add(i64(1)), add(i64(2)), add(i64(1)), add(nul)},
			want: "{1=2, 2=1}", wantType: "MULTISET<INT> NOT NULL"},
		{name: "COLLECT", args: []types.Type{strT}, steps: []step{add(nul)}, want: "{}", wantType: "MULTISET<STRING> NOT NULL"},
		{name: "COLLECT", args: []types.Type{strT}, steps: []step{add(s("a")), add(s("b")), add(s("a")), retract(s("a")), retract(s("b"))},
			want: "{a=1}"},
		// a value retracted before it came stays at -1, as in Flink
		{name: "COLLECT", args: []types.Type{strT}, steps: []step{retract(s("x")), add(s("y"))}, want: "{x=-1, y=1}"},
		// -0.0 and 0.0 are two values, NaN one (Double.equals)
		{name: "COLLECT", args: []types.Type{dblT}, steps: []step{add(f64(0)), add(f64(math.Copysign(0, -1))),
			add(f64(math.NaN())), add(f64(-math.NaN()))}, want: "{0.0=1, -0.0=1, NaN=2}"},
		{name: "COLLECT", distinct: true, args: []types.Type{intT}, steps: []step{add(i64(1)), add(i64(1))}, want: "{1=1}"},
		{name: "COLLECT", args: []types.Type{arr}, steps: []step{add(types.EncodeArray(intT, []types.Value{i64(1)})),
			add(types.EncodeArray(intT, []types.Value{i64(1)}))}, want: "{[1]=2}", wantType: "MULTISET<ARRAY<INT>> NOT NULL"},
	})
}

// PERCENTILE after Flink's documented examples and PercentileAggFunction.
func TestPercentile(t *testing.T) {
	intT, dblT := types.IntType, types.DoubleType
	dec := types.DecimalType(5, 1)
	pcts := types.ArrayOf(types.DecimalType(3, 2).WithNotNull(true))
	pair := func(a, b int64) types.Value {
		return types.EncodeArray(pcts.Elem(), []types.Value{i64(a), i64(b)})
	}
	q := func(v types.Value) types.Value { return f64(v.F) }
	runAggCases(t, []aggCase{
		// SELECT PERCENTILE(age, 0.25) FROM (VALUES (10), (20), (30), (40)) returns 17.5
		{name: "PERCENTILE", args: []types.Type{intT, dblT},
			steps: []step{add(i64(10), f64(0.25)), add(i64(20), f64(0.25)), add(i64(30), f64(0.25)), add(i64(40), f64(0.25))},
			want:  "17.5", wantType: "DOUBLE"},
		// PERCENTILE(col, 0.3) over (0), (10), (10), and with frequencies
		// (0, 1), (10, 2): position 0.3 * 2 + 1 = 1.6, so (2 - 1.6) * 0 +
		// (1.6 - 1) * 10 in doubles, as Flink's accumulator computes it
		{name: "PERCENTILE", args: []types.Type{intT, dblT},
			steps: []step{add(i64(0), f64(0.3)), add(i64(10), f64(0.3)), add(i64(10), f64(0.3))}, want: "6.000000000000001"},
		{name: "PERCENTILE", args: []types.Type{intT, dblT, intT},
			steps: []step{add(i64(0), f64(0.3), i64(1)), add(i64(10), f64(0.3), i64(2)), add(i64(99), f64(0.3), i64(0)),
				add(i64(99), f64(0.3), nul)}, want: "6.000000000000001"},
		// an array of percentages gives an array
		{name: "PERCENTILE", args: []types.Type{dec, pcts},
			steps: []step{add(i64(0), pair(25, 75)), add(i64(100), pair(25, 75))}, want: "[2.5, 7.5]", wantType: "ARRAY<DOUBLE>"},
		{name: "PERCENTILE", args: []types.Type{intT, dblT}, steps: []step{add(nul, f64(0.5))}, want: "NULL"},
		{name: "PERCENTILE", args: []types.Type{intT, dblT},
			steps: []step{add(i64(1), f64(1)), add(i64(5), f64(1)), add(i64(3), f64(1)), retract(i64(5), f64(1))}, want: "3"},
		{name: "PERCENTILE", args: []types.Type{intT, dblT}, steps: []step{add(i64(1), f64(0)), retract(i64(1), f64(0))}, want: "NULL"},
		{name: "PERCENTILE", args: []types.Type{dblT, dblT},
			steps: []step{add(q(f64(math.NaN())), f64(1)), add(f64(1), f64(1))}, want: "NaN"},
		{name: "PERCENTILE", args: []types.Type{intT, pcts},
			steps: []step{add(i64(1), types.EncodeArray(pcts.Elem(), nil))}, want: "NULL"},
	})
	p, _ := LookupAggregate("PERCENTILE")
	two := types.FloatValue(2)
	if _, _, err := p.Bind([]Arg{{Type: intT}, {Type: dblT, Const: &two}}, false); err == nil ||
		err.Error() != "PERCENTILE: Percentage of PERCENTILE should be between [0.0, 1.0], but was '2.0'." {
		t.Errorf("percentage 2: %v", err)
	}
	// A percentage taken from a row is checked there.
	_, newAcc, err := p.Bind([]Arg{{Type: intT}, {Type: dblT}}, false)
	if err != nil {
		t.Fatal(err)
	}
	acc := newAcc()
	acc.Add([]types.Value{i64(1), f64(-0.5)})
	if _, err := acc.Result(); err == nil {
		t.Error("a percentage of -0.5 read from a row gave no error")
	}
	if _, _, err := p.Bind([]Arg{{Type: types.StringType}, {Type: dblT}}, false); err == nil {
		t.Error("PERCENTILE of a string bound")
	}
}
