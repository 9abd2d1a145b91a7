package fn

import (
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// LAG keeps the last offset + 1 values (Flink's LagAggFunction): the value
// offset rows back, else the default of the latest row; its state survives
// a round trip at every step.
func TestLag(t *testing.T) {
	intT := types.IntType
	two, zero, neg := types.IntValue(2), types.IntValue(0), types.IntValue(-1)
	lit := func(v *types.Value) Arg { return Arg{Type: types.IntType.WithNotNull(true), Const: v} }
	for _, c := range []struct {
		name     string
		args     []Arg
		rows     [][]types.Value
		want     []string
		wantType string
	}{
		{"LAG(x)", []Arg{{Type: intT}}, [][]types.Value{{i64(1)}, {nul}, {i64(3)}}, []string{"NULL", "1", "NULL"}, "INT"},
		{"LAG(x, 0)", []Arg{{Type: intT}, lit(&zero)}, [][]types.Value{{i64(1)}, {i64(2)}}, []string{"1", "2"}, "INT"},
		{"LAG(x, 2, d)", []Arg{{Type: intT.WithNotNull(true)}, lit(&two), {Type: intT.WithNotNull(true)}},
			[][]types.Value{{i64(1), two, i64(7)}, {i64(2), two, i64(8)}, {i64(3), two, i64(9)}}, []string{"7", "8", "1"}, "INT NOT NULL"},
	} {
		a, _ := LookupAggregate("LAG")
		rt, newAcc, err := a.Bind(c.args, false)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if rt.String() != c.wantType {
			t.Errorf("%s: type %s, want %s", c.name, rt, c.wantType)
		}
		acc := newAcc()
		for i, r := range c.rows {
			acc.Add(r)
			restored := newAcc()
			if err := restored.UnmarshalState(acc.MarshalState()); err != nil {
				t.Fatal(err)
			}
			acc = restored
			if got := showResult(rt, acc); got != c.want[i] {
				t.Errorf("%s row %d: %s, want %s", c.name, i, got, c.want[i])
			}
		}
		if err := acc.Retract(c.rows[0]); err == nil {
			t.Errorf("%s: retraction accepted", c.name)
		}
	}
	for _, c := range []struct {
		args []Arg
		want string
	}{
		{[]Arg{{Type: intT}, lit(&neg)}, "Offset(-1) should be positive."},
		{[]Arg{{Type: intT}, {Type: intT}}, "LAG expects (value [, constant INT offset [, default]]); got (INT, INT)"},
		{[]Arg{{Type: intT}, lit(&two), {Type: types.BigIntType}}, "Please explicitly cast default value BIGINT to INT."},
	} {
		a, _ := LookupAggregate("LAG")
		if _, _, err := a.Bind(c.args, false); err == nil || err.Error() != c.want {
			t.Errorf("LAG%v: error %v, want %q", c.args, err, c.want)
		}
	}
}
