package fn

import (
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// The functions the Flink SQL tutorial queries rely on.
func TestTutorialFunctions(t *testing.T) {
	runScalarCases(t, utc, []scalarCase{
		{name: "FROM_UNIXTIME", args: []in{bigint(1692812175)}, want: "2023-08-23 17:36:15"},
		{name: "TO_TIMESTAMP", args: []in{str_("2023-07-09 01:00:00")}, want: "2023-07-09 01:00:00"},
		{name: "TIMESTAMPDIFF", args: []in{unit("HOUR"), ts("2023-08-23 17:36:15"), ts("2023-08-25 17:36:15")}, want: "48"},
	})
	rt, v := aggregate(t, "AVG", false, []in{col(dbl(0))}, [][]types.Value{{types.FloatValue(8.2)}, {types.FloatValue(4.5)}})
	if got := show(rt, v); got != "6.35" {
		t.Errorf("AVG(8.2, 4.5) = %s, want 6.35", got)
	}
}

// aggregate binds name and feeds it rows, returning the result.
func aggregate(t *testing.T, name string, distinct bool, args []in, rows [][]types.Value) (types.Type, types.Value) {
	t.Helper()
	a, ok := LookupAggregate(name)
	if !ok {
		t.Fatalf("no aggregate %s", name)
	}
	bargs := make([]Arg, len(args))
	for i, x := range args {
		bargs[i] = x.arg
	}
	rt, newAcc, err := a.Bind(bargs, distinct)
	if err != nil {
		t.Fatal(err)
	}
	acc := newAcc()
	for _, r := range rows {
		acc.Add(r)
	}
	v, err := acc.Result()
	if err != nil {
		t.Fatal(err)
	}
	return rt, v
}
