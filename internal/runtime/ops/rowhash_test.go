package ops

import (
	"math"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// TestRowHashAgreesWithRowsEqual: rows rowsEqual finds equal hash alike
// (-0 and 0, any two NaNs, NULLs), so that joinRows.find, which compares
// hashes first, finds every row rowsEqual would; different rows differ.
func TestRowHashAgreesWithRowsEqual(t *testing.T) {
	nan2 := math.Float64frombits(math.Float64bits(math.NaN()) ^ 1)
	for _, c := range []struct{ a, b types.Row }{
		{types.Row{types.FloatValue(0)}, types.Row{types.FloatValue(math.Copysign(0, -1))}},
		{types.Row{types.FloatValue(math.NaN())}, types.Row{types.FloatValue(nan2)}},
		{types.Row{types.NullValue, types.StringValue("x")}, types.Row{types.NullValue, types.StringValue("x")}},
	} {
		if !rowsEqual(c.a, c.b) || rowHash(c.a) != rowHash(c.b) {
			t.Errorf("%v and %v: equal %v, hashes %x %x", c.a, c.b, rowsEqual(c.a, c.b), rowHash(c.a), rowHash(c.b))
		}
	}
	a := types.Row{types.StringValue("ab"), types.StringValue("c")}
	b := types.Row{types.StringValue("a"), types.StringValue("bc")}
	if rowHash(a) == rowHash(b) {
		t.Errorf("%v and %v hash alike", a, b)
	}
	var recs joinRows
	recs.add(a, rowHash(a), 0)
	recs.add(b, rowHash(b), 0)
	if p := recs.find(types.Row{types.StringValue("a"), types.StringValue("bc")}, rowHash(b)); p != 1 {
		t.Errorf("find: %d, want 1", p)
	}
}
