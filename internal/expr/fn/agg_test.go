package fn

import (
	"bytes"
	"fmt"
	"math/big"
	"slices"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// step is one Add (retract false) or Retract of a row.
type step struct {
	retract bool
	row     []types.Value
}

func add(vs ...types.Value) step     { return step{row: vs} }
func retract(vs ...types.Value) step { return step{retract: true, row: vs} }

var (
	i64 = types.IntValue
	f64 = types.FloatValue
	s   = types.StringValue
	nul = types.NullValue
)

type aggCase struct {
	name     string
	distinct bool
	// appendOnly binds the aggregate for an input without retractions.
	appendOnly bool
	args       []types.Type
	steps      []step
	want       string
	wantType   string
}

func runAggCases(t *testing.T, cases []aggCase) {
	t.Helper()
	for _, c := range cases {
		a, ok := LookupAggregate(c.name)
		if !ok {
			t.Fatalf("no aggregate %s", c.name)
		}
		args := make([]Arg, len(c.args))
		for i, at := range c.args {
			args[i] = Arg{Type: at}
		}
		bind := a.Bind
		if c.appendOnly {
			bind = a.BindAppendOnly
		}
		rt, newAcc, err := bind(args, c.distinct)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		checkFlat(t, c, rt, newAcc)
		acc := newAcc()
		for i, st := range c.steps {
			if st.retract {
				if err := acc.Retract(st.row); err != nil {
					t.Fatal(err)
				}
			} else {
				acc.Add(st.row)
			}
			// every intermediate state survives a round trip
			state := acc.MarshalState()
			restored := newAcc()
			if err := restored.UnmarshalState(state); err != nil {
				t.Fatalf("%s step %d: %v", c.name, i, err)
			}
			if !bytes.Equal(restored.MarshalState(), state) {
				t.Errorf("%s step %d: state changed in a round trip", c.name, i)
			}
			if got, want := showResult(rt, restored), showResult(rt, acc); got != want {
				t.Errorf("%s step %d: restored result %s, want %s", c.name, i, got, want)
			}
			acc = restored
		}
		if got := showResult(rt, acc); got != c.want {
			t.Errorf("%s(distinct=%v) %v = %s, want %s", c.name, c.distinct, c.steps, got, c.want)
		}
		if c.wantType != "" && rt.String() != c.wantType {
			t.Errorf("%s type %s, want %s", c.name, rt, c.wantType)
		}
	}
}

// checkFlat runs a case's steps on the flat form of its accumulator,
// when it has one, beside the boxed form: after every step both give the
// same result (or error) and the same state encoding, and the flat state
// reads back from the boxed form's encoding byte for byte (a FlatHolder's
// to the same encoding).
func checkFlat(t *testing.T, c aggCase, rt types.Type, newAcc func() Accumulator) {
	t.Helper()
	f, ok := newAcc().(FlatAccumulator)
	if !ok {
		return
	}
	boxed := newAcc()
	st := make([]byte, f.FlatSize())
	prev := slices.Clone(st)
	cols := make([]*types.Vector, len(c.args))
	for i, step := range c.steps {
		for j, at := range c.args {
			cols[j] = types.NewVector(at, 1)
			cols[j].Append(step.row[j])
		}
		var errF, errB error
		if step.retract {
			errF, errB = f.FlatRetract(st, cols, 0), boxed.Retract(step.row)
		} else {
			f.FlatAdd(st, cols, 0)
			boxed.Add(step.row)
		}
		if fmt.Sprint(errF) != fmt.Sprint(errB) {
			t.Fatalf("%s step %d: flat retraction %v, boxed %v", c.name, i, errF, errB)
		}
		// The results of two states, this one second, 3 bytes apart (or
		// this one alone when the previous one has none).
		states, n := slices.Concat(prev, []byte{1, 2, 3}, st), 2
		if f.AppendFlatResults(types.NewVector(rt, 1), prev, len(prev), 1) != nil {
			states, n = st, 1
		}
		// Room holding other values: every result must be written.
		res := types.NewVector(rt, 2)
		res.AppendNull()
		res.Append(types.Value{I: 77, F: 7.5, S: "x"})
		res.Reset()
		got := "error: "
		if err := f.AppendFlatResults(res, states, len(st)+3*(n-1), n); err != nil {
			got += err.Error()
		} else {
			got = show(rt, res.Get(n-1))
		}
		checkFlatMerge(t, c, i, f, newAcc, prev, st, boxed)
		prev = slices.Clone(st)
		if want := showResult(rt, boxed); got != want {
			t.Errorf("%s step %d: flat result %s, boxed %s", c.name, i, got, want)
		}
		enc := boxed.MarshalState()
		if flat := f.AppendFlatState([]byte{7}, st); !bytes.Equal(flat[1:], enc) || flat[0] != 7 {
			t.Errorf("%s step %d: flat state %x, boxed %x", c.name, i, flat, enc)
		}
		back, was := make([]byte, len(st)), st
		err := f.ReadFlatState(back, enc)
		if _, holds := f.(FlatHolder); holds && err == nil {
			// Its state is a handle: the value read back has another.
			back, was = f.AppendFlatState(nil, back), enc
		}
		if err != nil || !bytes.Equal(back, was) {
			t.Errorf("%s step %d: flat state read back as %x (%v), was %x", c.name, i, back, err, was)
		}
	}
}

// checkFlatMerge checks, for a flat form that merges, that merging the
// state st (of the boxed accumulator boxed) into the state prev gives
// the state Merge gives.
func checkFlatMerge(t *testing.T, c aggCase, i int, f FlatAccumulator, newAcc func() Accumulator, prev, st []byte, boxed Accumulator) {
	t.Helper()
	m, ok := f.(FlatMerger)
	if !ok {
		return
	}
	merged := slices.Clone(prev)
	errF := m.FlatMerge(merged, st)
	into := newAcc()
	if err := into.UnmarshalState(f.AppendFlatState(nil, prev)); err != nil {
		t.Fatal(err)
	}
	errB := into.(Merger).Merge(boxed)
	if fmt.Sprint(errF) != fmt.Sprint(errB) {
		t.Fatalf("%s step %d: flat merge %v, boxed %v", c.name, i, errF, errB)
	}
	if flat, enc := f.AppendFlatState(nil, merged), into.MarshalState(); !bytes.Equal(flat, enc) {
		t.Errorf("%s step %d: merged flat state %x, boxed %x", c.name, i, flat, enc)
	}
}

func TestAggregates(t *testing.T) {
	intT, dblT, strT := types.IntType, types.DoubleType, types.StringType
	dec := types.DecimalType(5, 2)
	runAggCases(t, []aggCase{
		{name: "COUNT", steps: []step{add(), add(), add(), retract()}, want: "2", wantType: "BIGINT NOT NULL"},
		{name: "ROW_NUMBER", steps: []step{add(), add(), add()}, want: "3", wantType: "BIGINT NOT NULL"},
		{name: "RANK", steps: []step{add(), add()}, want: "2", wantType: "BIGINT NOT NULL"},
		{name: "DENSE_RANK", steps: []step{add(), add()}, want: "2", wantType: "BIGINT NOT NULL"},
		{name: "COUNT", args: []types.Type{intT}, steps: []step{add(i64(1)), add(nul), add(i64(1))}, want: "2"},
		{name: "COUNT", args: []types.Type{intT}, steps: []step{add(nul)}, want: "0"},
		{name: "COUNT", distinct: true, args: []types.Type{intT},
			steps: []step{add(i64(1)), add(i64(1)), add(i64(2)), add(nul), retract(i64(1))}, want: "2"},
		{name: "COUNT", distinct: true, args: []types.Type{intT},
			steps: []step{add(i64(1)), add(i64(1)), retract(i64(1)), retract(i64(1)), add(i64(3))}, want: "1"},
		{name: "SUM", args: []types.Type{intT}, steps: []step{add(i64(1)), add(i64(2)), add(nul)}, want: "3", wantType: "INT"},
		// INT sums wrap around like Java ints
		{name: "SUM", args: []types.Type{intT}, steps: []step{add(i64(2147483647)), add(i64(1))}, want: "-2147483648"},
		{name: "SUM", args: []types.Type{intT}, steps: []step{add(nul)}, want: "NULL"},
		{name: "SUM", args: []types.Type{intT}, steps: []step{add(i64(5)), retract(i64(5))}, want: "NULL"},
		{name: "SUM", args: []types.Type{dec}, steps: []step{add(i64(125)), add(i64(250))}, want: "3.75", wantType: "DECIMAL(38, 2)"},
		{name: "SUM", args: []types.Type{dblT}, steps: []step{add(f64(0.5)), add(f64(0.25)), retract(f64(0.5))}, want: "0.25"},
		{name: "SUM", distinct: true, args: []types.Type{intT}, steps: []step{add(i64(2)), add(i64(2)), add(i64(3))}, want: "5"},
		{name: "SUM0", args: []types.Type{intT}, steps: []step{add(nul)}, want: "0", wantType: "INT NOT NULL"},
		// AVG of DOUBLE 8.2 and 4.5 is 6.35
		{name: "AVG", args: []types.Type{dblT}, steps: []step{add(f64(8.2)), add(f64(4.5))}, want: "6.35", wantType: "DOUBLE"},
		// integer AVG truncates: AVG(1, 2) = 1, AVG(-1, -2) = -1
		{name: "AVG", args: []types.Type{intT}, steps: []step{add(i64(1)), add(i64(2))}, want: "1", wantType: "INT"},
		{name: "AVG", args: []types.Type{intT}, steps: []step{add(i64(-1)), add(i64(-2))}, want: "-1"},
		{name: "AVG", args: []types.Type{intT}, steps: []step{add(i64(1)), add(i64(5)), retract(i64(1))}, want: "5"},
		{name: "AVG", args: []types.Type{intT}, steps: []step{add(nul)}, want: "NULL"},
		{name: "AVG", args: []types.Type{dec}, steps: []step{add(i64(100)), add(i64(200)), add(i64(200))}, want: "1.666667", wantType: "DECIMAL(38, 6)"},
		{name: "MIN", args: []types.Type{intT},
			steps: []step{add(i64(3)), add(i64(1)), add(i64(1)), add(i64(2)), retract(i64(1)), retract(i64(1))}, want: "2"},
		{name: "MAX", args: []types.Type{intT},
			steps: []step{add(i64(3)), add(i64(5)), add(nul), retract(i64(5)), add(i64(4))}, want: "4"},
		{name: "MAX", args: []types.Type{intT}, steps: []step{add(i64(3)), retract(i64(3))}, want: "NULL"},
		{name: "MAX", args: []types.Type{strT}, steps: []step{add(s("b")), add(s("ab")), add(s("a"))}, want: "b", wantType: "STRING"},
		{name: "MIN", args: []types.Type{dblT}, steps: []step{add(f64(-0.5)), add(f64(2))}, want: "-0.5"},
		{name: "MIN", args: []types.Type{dec}, steps: []step{add(i64(-5)), add(i64(7))}, want: "-0.05"},
		{name: "FIRST_VALUE", args: []types.Type{strT}, steps: []step{add(nul), add(s("a")), add(s("b")), retract(s("a"))}, want: "b"},
		{name: "LAST_VALUE", args: []types.Type{strT}, steps: []step{add(s("a")), add(s("b")), add(nul), retract(s("b"))}, want: "a"},
		// "LISTAGG(expression [, separator]) ... The default value of
		// separator is ','."
		{name: "LISTAGG", args: []types.Type{strT}, steps: []step{add(s("a")), add(nul), add(s("b")), add(s("a"))}, want: "a,b,a"},
		{name: "LISTAGG", args: []types.Type{strT}, steps: []step{add(s("a")), add(s("b")), retract(s("a"))}, want: "b"},
		{name: "LISTAGG", args: []types.Type{strT}, steps: []step{add(nul)}, want: "NULL"},
		{name: "LISTAGG", distinct: true, args: []types.Type{strT}, steps: []step{add(s("a")), add(s("a")), add(s("b"))}, want: "a,b"},
		{name: "VAR_POP", args: []types.Type{dblT}, steps: []step{add(f64(1)), add(f64(2)), add(f64(3)), add(f64(4))}, want: "1.25"},
		{name: "VAR_SAMP", args: []types.Type{dblT}, steps: []step{add(f64(1)), add(f64(2)), add(f64(3)), add(f64(4))}, want: "1.6666666666666667"},
		{name: "VAR_SAMP", args: []types.Type{dblT}, steps: []step{add(f64(1))}, want: "NULL"},
		{name: "STDDEV_POP", args: []types.Type{dblT}, steps: []step{add(f64(2)), add(f64(4)), add(f64(4)), add(f64(4)), add(f64(5)), add(f64(5)), add(f64(7)), add(f64(9))}, want: "2"},
		{name: "STDDEV_SAMP", args: []types.Type{intT}, steps: []step{add(i64(1)), add(i64(2)), add(i64(3)), add(i64(9)), retract(i64(9))}, want: "1"},
		{name: "MIN", appendOnly: true, args: []types.Type{intT}, steps: []step{add(nul), add(i64(3)), add(i64(-1)), add(i64(2))}, want: "-1"},
		{name: "MAX", appendOnly: true, args: []types.Type{intT}, steps: []step{add(i64(3)), add(nul), add(i64(5))}, want: "5"},
		{name: "MAX", appendOnly: true, args: []types.Type{intT}, steps: []step{add(nul)}, want: "NULL"},
		{name: "MIN", appendOnly: true, args: []types.Type{dblT}, steps: []step{add(f64(2)), add(f64(-0.5)), add(f64(1))}, want: "-0.5"},
		{name: "MAX", appendOnly: true, args: []types.Type{dec}, steps: []step{add(i64(-5)), add(i64(7))}, want: "0.07"},
		{name: "MAX", appendOnly: true, args: []types.Type{types.TimestampType(3)}, steps: []step{add(i64(5e3)), add(i64(3e3))}, want: "1970-01-01 00:00:00.005"},
		{name: "MAX", appendOnly: true, args: []types.Type{strT}, steps: []step{add(s("b")), add(s("ab"))}, want: "b"},
		{name: "SUM", args: []types.Type{types.Type{Kind: types.TinyInt}}, steps: []step{add(i64(127)), add(i64(1)), retract(i64(1))}, want: "127"},
		{name: "SUM", args: []types.Type{{Kind: types.Float}}, steps: []step{add(f64(0.1)), add(f64(0.2)), add(nul)}, want: "0.3"},
		{name: "SUM0", args: []types.Type{dblT}, steps: []step{add(f64(1.5)), retract(f64(1.5))}, want: "0"},
		{name: "AVG", args: []types.Type{{Kind: types.Float}}, steps: []step{add(f64(1)), add(f64(2))}, want: "1.5"},
	})
}

func TestListAggSeparator(t *testing.T) {
	a, _ := LookupAggregate("LISTAGG")
	sep := types.StringValue(";")
	_, newAcc, err := a.Bind([]Arg{{Type: types.StringType}, {Type: types.StringType, Const: &sep}}, false)
	if err != nil {
		t.Fatal(err)
	}
	acc := newAcc()
	acc.Add([]types.Value{s("a"), sep})
	acc.Add([]types.Value{s("b"), sep})
	if got, _ := acc.Result(); got.S != "a;b" {
		t.Errorf("LISTAGG(x, ';') = %s", got.S)
	}
	if _, _, err := a.Bind([]Arg{{Type: types.StringType}, {Type: types.StringType}}, false); err == nil {
		t.Error("LISTAGG accepted a non-constant separator")
	}
}

func TestAggregateBindErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		args []Arg
		want string
	}{
		{"SUM", []Arg{{Type: types.StringType}}, "SUM expects (NUMERIC); got (STRING)"},
		{"AVG", nil, "AVG expects (NUMERIC); got ()"},
		{"MAX", []Arg{{Type: types.IntType}, {Type: types.IntType}}, "MAX expects (any comparable type); got (INT, INT)"},
	} {
		a, _ := LookupAggregate(c.name)
		if _, _, err := a.Bind(c.args, false); err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// States encode deterministically: the same contents give the same bytes
// whatever the order they were reached in.
func TestAggregateStateDeterministic(t *testing.T) {
	a, _ := LookupAggregate("COUNT")
	_, newAcc, _ := a.Bind([]Arg{{Type: types.StringType}}, true)
	x, y := newAcc(), newAcc()
	for _, v := range []string{"a", "b", "c", "d"} {
		x.Add([]types.Value{s(v)})
	}
	for _, v := range []string{"d", "c", "b", "a"} {
		y.Add([]types.Value{s(v)})
	}
	if !bytes.Equal(x.MarshalState(), y.MarshalState()) {
		t.Error("COUNT(DISTINCT) state depends on arrival order")
	}
	if err := x.UnmarshalState([]byte{0xff}); err == nil {
		t.Error("corrupt state accepted")
	}
	if err := x.UnmarshalState(append(y.MarshalState(), 0)); err == nil {
		t.Error("state with trailing bytes accepted")
	}
}

// TestExtremeAppendOnly: MIN and MAX bound for an input without
// retractions keep the extreme alone (Flink's MinAggFunction and
// MaxAggFunction), give the results of the retracting form, refuse a
// retraction, and exchange state with the retracting form both ways.
func TestExtremeAppendOnly(t *testing.T) {
	for _, c := range []struct {
		name string
		want string
	}{{"MIN", "-4"}, {"MAX", "9"}} {
		a, _ := LookupAggregate(c.name)
		args := []Arg{{Type: types.BigIntType}}
		_, newSmall, err := a.BindAppendOnly(args, false)
		if err != nil {
			t.Fatal(err)
		}
		_, newFull, err := a.Bind(args, false)
		if err != nil {
			t.Fatal(err)
		}
		small, full := newSmall(), newFull()
		if got := mustResult(t, small); !got.Null {
			t.Errorf("%s of nothing: %v, want NULL", c.name, got)
		}
		for _, v := range []types.Value{i64(3), nul, i64(9), i64(-4), i64(3)} {
			small.Add([]types.Value{v})
			full.Add([]types.Value{v})
		}
		if got, want := mustResult(t, small), mustResult(t, full); got != want || types.PrintValue(types.BigIntType, got, nil) != c.want {
			t.Errorf("%s: %v, the retracting form %v, want %s", c.name, got, want, c.want)
		}
		if err := small.Retract([]types.Value{i64(9)}); err == nil {
			t.Errorf("%s without retractions retracted a row", c.name)
		}
		// State: the retracting form's into the small one and back.
		restored := newSmall()
		if err := restored.UnmarshalState(full.MarshalState()); err != nil || mustResult(t, restored) != mustResult(t, full) {
			t.Errorf("%s restored from the retracting form: %v, %v", c.name, mustResult(t, restored), err)
		}
		back := newFull()
		if err := back.UnmarshalState(small.MarshalState()); err != nil || mustResult(t, back) != mustResult(t, small) {
			t.Errorf("the retracting %s restored from the small form: %v, %v", c.name, mustResult(t, back), err)
		}
	}
}

// mustResult returns an accumulator's result, failing the test on an error.
func mustResult(t *testing.T, acc Accumulator) types.Value {
	t.Helper()
	v, err := acc.Result()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// showResult shows an accumulator's result, or its error as "error: ...".
func showResult(rt types.Type, acc Accumulator) string {
	v, err := acc.Result()
	if err != nil {
		return "error: " + err.Error()
	}
	return show(rt, v)
}

// TestDecimalSumBeyond64Bits sums DECIMAL(18, 0) values past 2^64: the sum
// is kept in 128 bits (an int64 sum wrapped to 5 here) and is Flink's
// DECIMAL(38, 0); retracting back gives the exact sum again; the state
// survives every round trip on the way.
func TestDecimalSumBeyond64Bits(t *testing.T) {
	d18 := types.DecimalType(18, 0)
	const big = 999999999999999999
	var steps []step
	for range 18 {
		steps = append(steps, add(i64(big)))
	}
	steps = append(steps, add(i64(446744073709551639))) // 2^64 + 5 in all
	back := append(slices.Clone(steps), retract(i64(446744073709551639)))
	for range 17 {
		back = append(back, retract(i64(big)))
	}
	negative := make([]step, 0, 19)
	for range 19 {
		negative = append(negative, add(i64(-big)))
	}
	runAggCases(t, []aggCase{
		{name: "SUM", args: []types.Type{d18}, steps: steps, want: "18446744073709551621", wantType: "DECIMAL(38, 0)"},
		{name: "SUM", args: []types.Type{d18}, steps: back, want: "999999999999999999"},
		{name: "SUM", args: []types.Type{d18}, steps: negative, want: "-18999999999999999981"},
		// (2^64 + 5) / 19 = 970881267037344822.157895 at scale 6
		{name: "AVG", args: []types.Type{d18}, steps: steps, wantType: "DECIMAL(38, 6)", want: "970881267037344822.157895"},
		// at scale 12 the same unscaled values average to 970881.267037344822 exactly
		{name: "AVG", args: []types.Type{types.DecimalType(18, 12)}, steps: steps, want: "970881.267037344822", wantType: "DECIMAL(38, 12)"},
	})
}

// TestWideDecimalSums sums DECIMAL(38, 2) values past 38 digits: as in
// Flink, whose DECIMAL addition gives NULL on overflow, the sum becomes
// NULL; SUM then restarts from the next input (its sum field takes the
// operand when NULL, SumWithRetractAggFunction.accumulateExpressions) and
// a retraction from NULL gives the negated operand (retractExpressions),
// while SUM0 and AVG stay NULL (Sum0AggFunction, AvgAggFunction: NULL + x
// is NULL). MIN and MAX order the 16-byte values as numbers.
func TestWideDecimalSums(t *testing.T) {
	d38 := types.DecimalType(38, 2)
	v := func(s string) types.Value {
		x, _ := new(big.Int).SetString(s, 10)
		return types.DecimalOfBig(d38, x)
	}
	nines := v("99999999999999999999999999999999999999")
	minus := v("-12345678901234567890123456789012345678")
	overflow := []step{add(nines), add(nines)}
	runAggCases(t, []aggCase{
		{name: "SUM", args: []types.Type{d38}, steps: overflow, want: "NULL", wantType: "DECIMAL(38, 2)"},
		{name: "SUM", args: []types.Type{d38}, steps: append(slices.Clone(overflow), add(minus)), want: "-123456789012345678901234567890123456.78"},
		{name: "SUM", args: []types.Type{d38}, steps: append(slices.Clone(overflow), retract(nines)), want: "-999999999999999999999999999999999999.99"},
		{name: "SUM", args: []types.Type{d38}, steps: []step{add(nines), add(minus), add(nines)}, want: "NULL"},
		{name: "SUM0", args: []types.Type{d38}, steps: []step{add(minus), add(nul)}, want: "-123456789012345678901234567890123456.78"},
		{name: "SUM0", args: []types.Type{d38}, steps: append(slices.Clone(overflow), retract(nines), add(minus)), want: "NULL"},
		{name: "AVG", args: []types.Type{d38}, steps: overflow, want: "NULL", wantType: "DECIMAL(38, 6)"},
		{name: "AVG", args: []types.Type{d38}, steps: append(slices.Clone(overflow), retract(nines)), want: "NULL"},
		// 36 integer digits do not fit DECIMAL(38, 6)
		{name: "AVG", args: []types.Type{d38}, steps: []step{add(nines), add(minus)}, want: "NULL"},
		{name: "AVG", args: []types.Type{d38}, steps: []step{add(v("1000")), add(v("2000")), add(v("2"))}, want: "10.006667"},
		{name: "MIN", args: []types.Type{d38}, steps: []step{add(nines), add(minus), add(v("-1")), retract(minus)}, want: "-0.01"},
		{name: "MAX", args: []types.Type{d38}, steps: []step{add(minus), add(v("-1")), add(v("1"))}, want: "0.01"},
		{name: "MAX", appendOnly: true, args: []types.Type{d38}, steps: []step{add(minus), add(nines), add(v("1"))},
			want: "999999999999999999999999999999999999.99"},
	})
}

// TestWideDecimalSumMerges merges sums of DECIMAL(38, 0) (a two-phase
// aggregation's global phase) as Flink's mergeExpressions do: SUM takes
// the other sum when its own overflowed to NULL and keeps its own when the
// other's did (an empty one's sum is NULL, so it stays NULL); SUM0 and
// AVG become NULL when either is.
func TestWideDecimalSumMerges(t *testing.T) {
	d38 := types.DecimalType(38, 0)
	x, _ := new(big.Int).SetString("99999999999999999999999999999999999999", 10)
	nines := types.DecimalOfBig(d38, x)
	one := types.DecimalOfBig(d38, big.NewInt(1))
	merged := func(name string, p, q []types.Value) string {
		t.Helper()
		a, _ := LookupAggregate(name)
		rt, newAcc, err := a.Bind([]Arg{{Type: d38}}, false)
		if err != nil {
			t.Fatal(err)
		}
		pa, qa := newAcc(), newAcc()
		for _, v := range p {
			pa.Add([]types.Value{v})
		}
		for _, v := range q {
			qa.Add([]types.Value{v})
		}
		if err := pa.(Merger).Merge(qa); err != nil {
			t.Fatal(err)
		}
		return show(rt, mustResult(t, pa))
	}
	overflow := []types.Value{nines, nines}
	for _, c := range []struct {
		name string
		p, q []types.Value
		want string
	}{
		{"SUM", overflow, []types.Value{one}, "1"},
		{"SUM", []types.Value{one}, overflow, "1"},
		{"SUM", nil, overflow, "NULL"},
		{"SUM", overflow, nil, "NULL"},
		{"SUM", []types.Value{nines}, []types.Value{one}, "NULL"},
		{"SUM", []types.Value{nines}, []types.Value{types.DecimalOfBig(d38, big.NewInt(-1))}, "99999999999999999999999999999999999998"},
		{"SUM0", overflow, []types.Value{one}, "NULL"},
		{"SUM0", []types.Value{one}, overflow, "NULL"},
		{"AVG", []types.Value{one}, overflow, "NULL"},
	} {
		if got := merged(c.name, c.p, c.q); got != c.want {
			t.Errorf("%s(%d values) merged with %s(%d values) = %s, want %s", c.name, len(c.p), c.name, len(c.q), got, c.want)
		}
	}
}

// TestFlatExtremeMerges: MIN and MAX with a flat form (numbers over an
// input without retractions) merge as the others do, for the global
// phase of a two-phase aggregation.
func TestFlatExtremeMerges(t *testing.T) {
	a, _ := LookupAggregate("MAX")
	_, newAcc, err := a.BindAppendOnly([]Arg{{Type: types.BigIntType}}, false)
	if err != nil {
		t.Fatal(err)
	}
	x, y := newAcc(), newAcc()
	if _, ok := x.(FlatAccumulator); !ok {
		t.Fatalf("%T has no flat form", x)
	}
	x.Add([]types.Value{i64(3)})
	y.Add([]types.Value{i64(8)})
	if err := x.(Merger).Merge(y); err != nil {
		t.Fatal(err)
	}
	if got := mustResult(t, x); got != i64(8) {
		t.Fatalf("merged MAX(3) and MAX(8): %v", got)
	}
}

// TestDistinctStateFormat pins the encoding of a DISTINCT call's state,
// which checkpoints and savepoints hold (and the flat form of group
// aggregations writes alike): the inner state, then each key with its
// count, keys ascending.
func TestDistinctStateFormat(t *testing.T) {
	a, _ := LookupAggregate("COUNT")
	_, newAcc, _ := a.Bind([]Arg{{Type: types.BigIntType}}, true)
	acc := newAcc()
	for _, v := range []int64{2, 1, 1} {
		acc.Add([]types.Value{types.IntValue(v)})
	}
	// str(inner: COUNT 2), 2 keys, str(key 1: not NULL, 1) count 2,
	// str(key 2: not NULL, 2) count 1; all varints zig-zag.
	want := []byte{0x02, 0x04, 0x04, 0x04, 0x00, 0x02, 0x04, 0x04, 0x00, 0x04, 0x02}
	if got := acc.MarshalState(); !bytes.Equal(got, want) {
		t.Fatalf("state % x, want % x", got, want)
	}
	fresh := newAcc()
	if err := fresh.UnmarshalState(want); err != nil {
		t.Fatal(err)
	}
	if v, _ := fresh.Result(); v.I != 2 {
		t.Fatalf("restored COUNT(DISTINCT) %d, want 2", v.I)
	}
	if err := fresh.UnmarshalState([]byte{0x02, 0x04, 0x02, 0x04, 0x00, 0x02, 0x00}); err == nil {
		t.Fatal("a key counted 0 times accepted")
	}
}
