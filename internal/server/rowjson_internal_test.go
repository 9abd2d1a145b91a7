package server

import (
	"encoding/json"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// TestCompositeJSONKeepsOrder: the JSON row format writes a ROW's fields
// in the row type's order and a MAP's entries in the map's, as Jackson's
// ObjectNode (RowDataToJsonConverters) does, not sorted.
func TestCompositeJSONKeepsOrder(t *testing.T) {
	row := types.RowOf([]types.Field{{Name: "zeta", Type: types.IntType}, {Name: "alpha", Type: types.StringType}})
	rv := types.EncodeRow(row, []types.Value{types.IntValue(1), types.StringValue("x")})
	m := types.MapOf(types.StringType, types.IntType)
	mv := types.EncodeMap(m, []types.Value{types.StringValue("z"), types.StringValue("a")}, []types.Value{types.IntValue(1), types.IntValue(2)})
	for _, c := range []struct {
		t    types.Type
		v    types.Value
		want string
	}{{row, rv, `{"zeta":1,"alpha":"x"}`}, {m, mv, `{"z":1,"a":2}`}} {
		b, err := json.Marshal(jsonValue(c.t, c.v, nil))
		if err != nil || string(b) != c.want {
			t.Errorf("%s: %s, %v; want %s", c.t, b, err, c.want)
		}
	}
}

// TestIntervalJSON: intervals are numbers in the JSON row format, months
// and milliseconds as RowDataToJsonConverters writes INTERVAL_YEAR_MONTH
// and INTERVAL_DAY_TIME (Sluice holds them in those units too).
func TestIntervalJSON(t *testing.T) {
	for _, c := range []struct {
		t    types.Type
		v    int64
		want string
	}{
		{types.Type{Kind: types.IntervalDayTime}, 90061001, "90061001"}, // INTERVAL '1 01:01:01.001' DAY TO SECOND
		{types.Type{Kind: types.IntervalDayTime}, -1, "-1"},
		{types.Type{Kind: types.IntervalYearMonth}, 14, "14"},
	} {
		b, err := json.Marshal(jsonValue(c.t, types.IntValue(c.v), nil))
		if err != nil || string(b) != c.want {
			t.Errorf("%s %d: %s, %v; want %s", c.t, c.v, b, err, c.want)
		}
	}
}
