package format

import (
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// nestedFields is a schema with every composite kind, nested.
var nestedFields = types.Schema{
	{Name: "a", Type: types.ArrayOf(types.StringType)},
	{Name: "m", Type: types.MapOf(types.StringType, types.ArrayOf(types.IntType))},
	{Name: "r", Type: types.RowOf([]types.Field{{Name: "x", Type: types.IntType}, {Name: "y", Type: types.RowOf([]types.Field{{Name: "z", Type: types.DoubleType}})}})},
	{Name: "s", Type: types.MultisetOf(types.StringType)},
}

// TestJSONNestedRoundTrip reads nested JSON into the column types and
// writes it back as RowDataToJsonConverters does: arrays, objects for
// maps and rows, NULL elements and fields as null.
func TestJSONNestedRoundTrip(t *testing.T) {
	c := newCodec(t, "json", nestedFields, nil)
	in := `{"a":["p",null,"q"],"m":{"k":[1,null],"n":null},"r":{"x":7,"y":{"z":1.5}},"s":{"u":2}}`
	row := mustDecode(t, c, nestedFields, []byte(in))
	var got []string
	for i, f := range nestedFields {
		got = append(got, types.PrintValue(f.Type, row[i], nil))
	}
	if want := "[p, NULL, q]|{k=[1, NULL], n=NULL}|(7, (1.5))|{u=2}"; strings.Join(got, "|") != want {
		t.Errorf("decoded %s, want %s", strings.Join(got, "|"), want)
	}
	if out := string(mustEncode(t, c, row)); out != in {
		t.Errorf("encoded\n%s\nwant\n%s", out, in)
	}
	// A missing nested field is NULL; members in another order are found.
	row = mustDecode(t, c, nestedFields, []byte(`{"r":{"y":null,"x":1},"a":[]}`))
	if got := types.PrintValue(nestedFields[2].Type, row[2], nil); got != "(1, NULL)" {
		t.Errorf("got %s", got)
	}
	if got := types.PrintValue(nestedFields[0].Type, row[0], nil); got != "[]" {
		t.Errorf("got %s", got)
	}
}

func TestJSONNestedErrors(t *testing.T) {
	c := newCodec(t, "json", nestedFields, nil)
	for in, want := range map[string]string{
		`{"a":"p"}`:              "field 'a' (ARRAY<STRING>): expected a JSON array for ARRAY<STRING>, got string",
		`{"m":{"k":["x"]}}`:      `field 'm' (MAP<STRING, ARRAY<INT>>): key "k": element 1:`,
		`{"r":[1]}`:              "expected a JSON object",
		`{"s":{"u":null}}`:       "a MULTISET count is never NULL",
		`{"a":["p"],"r":{"x":}}`: "invalid JSON",
	} {
		_, err := decodeRow(t, c, nestedFields, []byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", in, err, want)
		}
	}
	strict := newCodec(t, "json", nestedFields, map[string]string{"fail-on-missing-field": "true"})
	if _, err := decodeRow(t, strict, nestedFields, []byte(`{"a":[],"m":{},"s":{},"r":{"x":1}}`)); err == nil ||
		!strings.Contains(err.Error(), "could not find field with name 'y'") {
		t.Errorf("got %v", err)
	}
	if _, err := New("json", Config{Fields: types.Schema{{Name: "m", Type: types.MapOf(types.IntType, types.IntType)}}}); err == nil ||
		!strings.Contains(err.Error(), "JSON format doesn't support non-string as key type of map. The type is: MAP<INT, INT>") {
		t.Errorf("got %v", err)
	}
}

// TestJSONMapNullKeys follows 'map-null-key.mode' (FAIL, DROP, LITERAL).
func TestJSONMapNullKeys(t *testing.T) {
	fields := types.Schema{{Name: "m", Type: types.MapOf(types.StringType, types.IntType)}}
	v := types.EncodeMap(fields[0].Type, []types.Value{types.NullValue, types.StringValue("k")}, []types.Value{types.IntValue(1), types.IntValue(2)})
	for mode, want := range map[string]string{"DROP": `{"m":{"k":2}}`, "LITERAL": `{"m":{"nil":1,"k":2}}`} {
		c := newCodec(t, "json", fields, map[string]string{"map-null-key.mode": mode, "map-null-key.literal": "nil"})
		if got := string(mustEncode(t, c, types.Row{v})); got != want {
			t.Errorf("%s: got %s, want %s", mode, got, want)
		}
	}
	c := newCodec(t, "json", fields, nil)
	if _, err := c.Encode(nil, types.Row{v}); err == nil || !strings.Contains(err.Error(), "null keys") {
		t.Errorf("FAIL mode: got %v", err)
	}
}
