package fn

import (
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// The examples of JSON_STRING, JSON_OBJECT, JSON and JSON_ARRAY in Flink's
// function list; the ON NULL clause and the JSON marks are Unit arguments,
// as the parser passes them.
func TestJSONConstruction(t *testing.T) {
	nullOn, absentOn, raw := unit("NULL ON NULL"), unit("ABSENT ON NULL"), unit(JSONRaw)
	nullStr := null(types.StringType)
	runScalarCases(t, utc, []scalarCase{
		{name: "JSON_STRING", args: []in{null(types.IntType)}, want: "NULL"},
		{name: "JSON_STRING", args: []in{int_(1)}, want: "1"},
		{name: "JSON_STRING", args: []in{boolean_(true)}, want: "true"},
		{name: "JSON_STRING", args: []in{str_("Hello, World!")}, want: `"Hello, World!"`},
		{name: "JSON_STRING", args: []in{str_("a\"b\\c\n\x01é/")}, want: `"a\"b\\c\n\u0001é/"`},
		{name: "JSON_STRING", args: []in{dbl(1e10)}, want: "1.0E10"},
		{name: "JSON_STRING", args: []in{dbl(0.5)}, want: "0.5"},
		{name: "JSON_STRING", args: []in{dec(1250, 10, 2)}, want: "12.50"},
		{name: "JSON_STRING", args: []in{dec(1, 10, 7)}, want: "1E-7"},
		{name: "JSON_STRING", args: []in{ts("2024-01-02 03:04:05.120")}, want: `"2024-01-02T03:04:05.12"`},
		{name: "JSON_STRING", args: []in{ts("2024-01-02 03:04:00")}, want: `"2024-01-02T03:04:00"`},
		{name: "JSON_STRING", args: []in{ltz("2024-01-02 03:04:05")}, want: `"2024-01-02T03:04:05Z"`},
		{name: "JSON_STRING", args: []in{date("2024-01-02")}, wantErr: "JSON_STRING: type DATE cannot be converted into JSON"},
		// "JSON_OBJECT() '{}'"
		{name: "JSON_OBJECT", args: []in{nullOn}, want: "{}"},
		// "JSON_OBJECT('K1' VALUE 'V1', 'K2' VALUE 'V2') '{"K1":"V1","K2":"V2"}'"
		{name: "JSON_OBJECT", args: []in{nullOn, str_("K1"), str_("V1"), str_("K2"), str_("V2")}, want: `{"K1":"V1","K2":"V2"}`},
		// "JSON_OBJECT(KEY 'K1' VALUE CAST(NULL AS STRING) NULL ON NULL) '{"K1":null}'"
		{name: "JSON_OBJECT", args: []in{nullOn, str_("K1"), nullStr}, want: `{"K1":null}`},
		// "... ABSENT ON NULL) '{}'"
		{name: "JSON_OBJECT", args: []in{absentOn, str_("K1"), nullStr}, want: `{}`},
		// "JSON_OBJECT(KEY 'K1' VALUE JSON_OBJECT(KEY 'K2' VALUE 'V')) '{"K1":{"K2":"V"}}'"
		{name: "JSON_OBJECT", args: []in{nullOn, str_("K1"), raw, str_(`{"K2":"V"}`)}, want: `{"K1":{"K2":"V"}}`},
		// "JSON_OBJECT('K1' VALUE JSON('{"nested_json": {"value": 42}}')) '{"K1":{"nested_json":{"value":42}}}'"
		{name: "JSON_OBJECT", args: []in{nullOn, str_("K1"), raw, str_(`{"nested_json": {"value": 42}}`)}, want: `{"K1":{"nested_json":{"value":42}}}`},
		// "JSON_OBJECT('K' VALUE JSON('')) {"K": null}"
		{name: "JSON_OBJECT", args: []in{nullOn, str_("K"), raw, str_("")}, want: `{"K":null}`},
		{name: "JSON_OBJECT", args: []in{nullOn, str_("K"), raw, str_("{bad")}, wantErr: "JSON_OBJECT: JSON(value) got invalid JSON"},
		{name: "JSON_OBJECT", args: []in{nullOn, str_("a"), int_(1), str_("b"), int_(2), str_("a"), int_(3)}, want: `{"a":3,"b":2}`},
		{name: "JSON_OBJECT", args: []in{nullOn, int_(1), int_(1)}, wantErr: "JSON_OBJECT: a key must be a non-NULL string, got INT"},
		{name: "JSON_OBJECT", args: []in{nullOn, col(str_("k")), int_(1)}, want: `{"k":1}`},
		// "JSON_ARRAY() '[]'", "JSON_ARRAY(1, '2') '[1,"2"]'"
		{name: "JSON_ARRAY", args: []in{absentOn}, want: "[]"},
		{name: "JSON_ARRAY", args: []in{absentOn, int_(1), str_("2")}, want: `[1,"2"]`},
		// "JSON_ARRAY(CAST(NULL AS STRING) NULL ON NULL) '[null]'", "... ABSENT ON NULL) '[]'"
		{name: "JSON_ARRAY", args: []in{nullOn, nullStr}, want: "[null]"},
		{name: "JSON_ARRAY", args: []in{absentOn, nullStr}, want: "[]"},
		{name: "JSON_ARRAY", args: []in{absentOn, nullStr, int_(1), nullStr, int_(2), nullStr}, want: "[1,2]"},
		// "JSON_ARRAY(JSON_ARRAY(1)) '[[1]]'", "JSON_ARRAY(JSON('{"K2": 42}')) [{"K2":42}]"
		{name: "JSON_ARRAY", args: []in{absentOn, raw, str_("[1]")}, want: "[[1]]"},
		{name: "JSON_ARRAY", args: []in{absentOn, raw, str_(`{"K2": 42}`)}, want: `[{"K2":42}]`},
		// "JSON_ARRAY(JSON('') NULL ON NULL) [null]"
		{name: "JSON_ARRAY", args: []in{nullOn, raw, str_("")}, want: "[null]"},
		{name: "JSON_ARRAY", args: []in{int_(1)}, wantErr: "JSON_ARRAY expects its ON NULL clause first"},
		{name: "JSON", args: []in{str_("{}")}, wantErr: "JSON(value) can only be used as a value of JSON_OBJECT or JSON_ARRAY"},
	})
}
