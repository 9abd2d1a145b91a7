package fn

import (
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// The JSON aggregates over values already written as JSON (the parser
// wraps them in JSON_STRING), after JsonObjectAggFunction and
// JsonArrayAggFunction.
func TestJSONAggregates(t *testing.T) {
	strT := types.StringType
	two := []types.Type{strT, strT}
	runAggCases(t, []aggCase{
		{name: "JSON_OBJECTAGG", args: two, steps: []step{add(s("b"), s("17")), add(s("a"), s(`"x"`)), add(s("c"), nul)},
			want: `{"a":"x","b":17,"c":null}`, wantType: "STRING NOT NULL"},
		{name: "JSON_OBJECTAGG_ABSENT_ON_NULL", args: two, steps: []step{add(s("a"), nul), add(s("b"), s("1"))}, want: `{"b":1}`},
		{name: "JSON_OBJECTAGG", args: two, steps: nil, want: `{}`},
		// a retraction removes the key when its value matches
		{name: "JSON_OBJECTAGG", args: two, steps: []step{add(s("a"), s("1")), retract(s("a"), s("2")), add(s("b"), s("2")),
			retract(s("b"), s("2"))}, want: `{"a":1}`},
		{name: "JSON_OBJECTAGG", args: two, steps: []step{add(s("a"), s("1")), retract(s("a"), s("1")), add(s("a"), s("3"))}, want: `{"a":3}`},
		{name: "JSON_ARRAYAGG", args: []types.Type{strT}, steps: []step{add(s("1")), add(nul), add(s(`"a"`)), add(s("1"))},
			want: `[1,"a",1]`, wantType: "STRING NOT NULL"},
		{name: "JSON_ARRAYAGG_NULL_ON_NULL", args: []types.Type{strT}, steps: []step{add(nul), add(s("2")), add(nul), retract(nul)},
			want: `[2,null]`},
		{name: "JSON_ARRAYAGG", args: []types.Type{strT}, steps: []step{add(s("1")), add(s("2")), add(s("1")), retract(s("1"))}, want: `[2,1]`},
		{name: "JSON_ARRAYAGG", args: []types.Type{strT}, steps: nil, want: `[]`},
	})
	for _, name := range []string{"JSON_OBJECTAGG", "JSON_OBJECTAGG_ABSENT_ON_NULL"} {
		f, _ := LookupAggregate(name)
		_, newAcc, err := f.Bind([]Arg{{Type: strT}, {Type: strT}}, false)
		if err != nil {
			t.Fatal(err)
		}
		acc := newAcc()
		acc.Add([]types.Value{s("k"), s("1")})
		acc.Add([]types.Value{s("k"), nul}) // a duplicate key, even with a value left out
		if _, err := acc.Result(); err == nil || !strings.Contains(err.Error(), "Key 'k' is already present. Duplicate keys are not allowed in JSON_OBJECTAGG.") {
			t.Errorf("%s: duplicate key gave %v", name, err)
		}
		acc = newAcc()
		acc.Add([]types.Value{nul, s("1")})
		if _, err := acc.Result(); err == nil {
			t.Errorf("%s: a NULL key gave no error", name)
		}
	}
	f, _ := LookupAggregate("JSON_ARRAYAGG")
	if _, _, err := f.Bind([]Arg{{Type: types.IntType}}, false); err == nil {
		t.Error("JSON_ARRAYAGG bound an INT, which the parser wraps in JSON_STRING")
	}
	for _, n := range Names() {
		if strings.HasSuffix(n, "_ON_NULL") {
			t.Errorf("SHOW FUNCTIONS lists %s", n)
		}
	}
}
