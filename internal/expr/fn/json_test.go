package fn

import "testing"

// TestJSONFunctions follows the examples of Flink's "JSON Functions" docs.
func TestJSONFunctions(t *testing.T) {
	runScalarCases(t, utc, []scalarCase{
		// JSON_VALUE('{"a": true}', '$.a') = 'true'
		{name: "JSON_VALUE", args: []in{str_(`{"a": true}`), str_("$.a")}, want: "true"},
		// JSON_VALUE('{"a.b": [0.998,0.996]}','$.["a.b"][1]') style steps
		{name: "JSON_VALUE", args: []in{str_(`{"a": {"b": [1, 2.5, "x"]}}`), str_("$.a.b[1]")}, want: "2.5"},
		{name: "JSON_VALUE", args: []in{str_(`{"a b": "c"}`), str_("$['a b']")}, want: "c"},
		{name: "JSON_VALUE", args: []in{str_(`{"a": {"b": 1}}`), str_("$.a")}, want: "NULL"},
		{name: "JSON_VALUE", args: []in{str_(`{"a": 1}`), str_("$.b")}, want: "NULL"},
		{name: "JSON_VALUE", args: []in{str_(`not json`), str_("$.a")}, want: "NULL"},
		{name: "JSON_VALUE", args: []in{col(str_(`{"a": 1}`)), col(str_("$.a"))}, want: "1"},
		{name: "JSON_VALUE", args: []in{str_(`{"a": 1}`), str_("a")}, wantErr: "a JSON path starts with '$'"},
		// JSON_EXISTS('{"a": true}', '$.a') = TRUE; '$.b' = FALSE
		{name: "JSON_EXISTS", args: []in{str_(`{"a": true}`), str_("$.a")}, want: "TRUE"},
		{name: "JSON_EXISTS", args: []in{str_(`{"a": true}`), str_("$.b")}, want: "FALSE"},
		{name: "JSON_EXISTS", args: []in{str_(`{"a": [1]}`), str_("$.a[3]")}, want: "FALSE"},
		// JSON_QUERY('{"a": {"b": 1}}', '$.a') = '{"b":1}'; a scalar is NULL
		{name: "JSON_QUERY", args: []in{str_(`{"a": {"b": 1}}`), str_("$.a")}, want: `{"b":1}`},
		{name: "JSON_QUERY", args: []in{str_(`{"a": [1, 2]}`), str_("$.a")}, want: `[1,2]`},
		{name: "JSON_QUERY", args: []in{str_(`{"a": 1}`), str_("$.a")}, want: "NULL"},
	})
}
