package format

import (
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// changes decodes one message with a changelog codec and prints its rows
// as "+I[1, a]" joined by spaces.
func changes(t *testing.T, c ChangelogCodec, fields types.Schema, nMeta int, msg string) (string, error) {
	t.Helper()
	cols := vectors(fields)
	for range nMeta {
		cols = append(cols, types.NewVector(types.StringType, 1))
	}
	var data []byte
	if msg != "<nil>" {
		data = []byte(msg)
	}
	return printChanges(t, c, cols, data)
}

// printChanges decodes one message into cols and prints its rows as
// "+I[1, a]" joined by spaces; a failed decode must append nothing.
func printChanges(t *testing.T, c ChangelogCodec, cols []*types.Vector, data []byte) (string, error) {
	t.Helper()
	kinds, err := c.DecodeChanges(data, cols, nil)
	if err != nil {
		if height(cols) != 0 || len(kinds) != 0 {
			t.Fatalf("DecodeChanges failed with %v but appended rows", err)
		}
		return "", err
	}
	var out []string
	for i, k := range kinds {
		var vals []string
		for _, col := range cols {
			vals = append(vals, types.PrintValue(col.Type, col.Get(i), nil))
		}
		out = append(out, k.String()+"["+strings.Join(vals, ", ")+"]")
	}
	return strings.Join(out, " "), nil
}

var cdcFields = types.Schema{{Name: "id", Type: types.IntType}, {Name: "name", Type: types.StringType}}

// The row kinds of DebeziumJsonDeserializationSchema.deserialize.
func TestDebeziumDecode(t *testing.T) {
	c, err := NewChangelog("debezium-json", Config{Fields: cdcFields})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ msg, want, err string }{
		{msg: `{"before":null,"after":{"id":1,"name":"a"},"op":"c"}`, want: "+I[1, a]"},
		{msg: `{"after":{"id":1,"name":"a"},"op":"r"}`, want: "+I[1, a]"},
		{msg: `{"before":{"id":1,"name":"a"},"after":{"id":2,"name":"b"},"op":"u"}`, want: "-U[1, a] +U[2, b]"},
		{msg: `{"before":{"id":1,"name":"a"},"after":null,"op":"d"}`, want: "-D[1, a]"},
		{msg: `<nil>`, want: ""},
		{msg: ``, want: ""},
		{msg: `{"before":null,"after":{"id":1},"op":"d"}`, err: `The "before" field of DELETE message is null`},
		{msg: `{"after":{"id":1},"op":"t"}`, err: `unknown "op" value "t"`},
		{msg: `{"after":{"id":1}}`, err: `the "op" field is null`},
		{msg: `{"after":{"id":"x"},"op":"c"}`, err: `Corrupt Debezium JSON message '{"after":{"id":"x"},"op":"c"}'`},
		{msg: `[1]`, err: `Corrupt Debezium JSON message`},
	} {
		got, err := changes(t, c, cdcFields, 0, tc.msg)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one containing %q", tc.msg, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%s: got %q, %v; want %q", tc.msg, got, err, tc.want)
		}
	}
}

func TestDebeziumIgnoreParseErrorsAndMetadata(t *testing.T) {
	c, err := NewChangelog("debezium-json", Config{Fields: cdcFields,
		Options:  map[string]string{"ignore-parse-errors": "true"},
		Metadata: []MetadataColumn{{Key: "source.table", Type: types.StringType}, {Key: "source.schema", Type: types.StringType}}})
	if err != nil {
		t.Fatal(err)
	}
	for msg, want := range map[string]string{
		`{"after":{"id":1},"op":"x"}`:              "",
		`not json`:                                 "",
		`{"before":null,"op":"u"}`:                 "",
		`{"after":{"id":"x","name":"a"},"op":"c"}`: "",
		`{"after":{"id":1,"name":"a"},"op":"c","source":{"table":"t","ts_ms":5}}`: "+I[1, a, t, <NULL>]",
	} {
		got, err := changes(t, c, cdcFields, 2, msg)
		if err != nil || got != want {
			t.Errorf("%s: got %q, %v; want %q", msg, got, err, want)
		}
	}
}

// DebeziumJsonSerializationSchema: +I and +U as creates, -U and -D as
// deletes.
func TestDebeziumEncode(t *testing.T) {
	c, err := NewChangelog("debezium-json", Config{Fields: cdcFields})
	if err != nil {
		t.Fatal(err)
	}
	row := types.Row{types.IntValue(1), types.StringValue("a")}
	for kind, want := range map[types.RowKind]string{
		types.Insert:       `{"before":null,"after":{"id":1,"name":"a"},"op":"c"}`,
		types.UpdateAfter:  `{"before":null,"after":{"id":1,"name":"a"},"op":"c"}`,
		types.UpdateBefore: `{"before":{"id":1,"name":"a"},"after":null,"op":"d"}`,
		types.Delete:       `{"before":{"id":1,"name":"a"},"after":null,"op":"d"}`,
	} {
		got, err := c.EncodeChange(nil, kind, row)
		if err != nil || string(got) != want {
			t.Errorf("%s: got %s, %v; want %s", kind, got, err, want)
		}
	}
	if _, err := New("debezium-json", Config{Fields: cdcFields, IsKey: true}); err == nil {
		t.Error("debezium-json accepted as a key format")
	}
	sc, err := NewChangelog("debezium-json", Config{Fields: cdcFields, Options: map[string]string{"schema-include": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.CanEncode(); err == nil || !strings.Contains(err.Error(), "schema-include") {
		t.Errorf("CanEncode with schema-include: %v", err)
	}
}

// CanalJsonDeserializationSchema: the rows of "data" in order; a field
// of "old" counts as changed when "old" names it anywhere (Jackson's
// findValue over the whole array), so the first row's id and the second
// row's name stay NULL.
func TestCanalDecode(t *testing.T) {
	c, err := NewChangelog("canal-json", Config{Fields: cdcFields, Options: map[string]string{"database.include": "inv|shop"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ msg, want, err string }{
		{msg: `{"data":[{"id":1,"name":"a"},{"id":2,"name":"b"}],"database":"inv","type":"INSERT"}`, want: "+I[1, a] +I[2, b]"},
		{msg: `{"data":[{"id":1,"name":"a2"},{"id":3,"name":"b"}],"old":[{"name":"a"},{"id":2}],"database":"shop","type":"UPDATE"}`,
			want: "-U[<NULL>, a] +U[1, a2] -U[2, <NULL>] +U[3, b]"},
		{msg: `{"data":[{"id":1,"name":"a"}],"old":[{"name":null}],"database":"inv","type":"UPDATE"}`, want: "-U[1, <NULL>] +U[1, a]"},
		{msg: `{"data":[{"id":1,"name":"a"}],"database":"inventory","type":"INSERT"}`, want: ""},
		{msg: `{"data":null,"database":"inv","type":"CREATE"}`, want: ""},
		{msg: `{"data":[{"id":1}],"type":"INSERT"}`, err: `the "database" field is missing`},
		{msg: `{"data":[{"id":1}],"old":[],"database":"inv","type":"UPDATE"}`, err: `the "old" field has 0 rows for 1`},
	} {
		got, err := changes(t, c, cdcFields, 0, tc.msg)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one containing %q", tc.msg, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%s: got %q, %v; want %q", tc.msg, got, err, tc.want)
		}
	}
	if _, err := NewChangelog("canal-json", Config{Fields: cdcFields, Options: map[string]string{"table.include": "("}}); err == nil ||
		!strings.Contains(err.Error(), "'canal-json.table.include'") {
		t.Errorf("a bad table.include: %v", err)
	}
}

// CanalJsonSerializationSchema and MaxwellJsonSerializationSchema.
func TestCanalMaxwellEncode(t *testing.T) {
	row := types.Row{types.IntValue(1), types.NullValue}
	for format, want := range map[string][2]string{
		"canal-json":   {`{"data":[{"id":1,"name":null}],"type":"INSERT"}`, `{"data":[{"id":1,"name":null}],"type":"DELETE"}`},
		"maxwell-json": {`{"data":{"id":1,"name":null},"type":"insert"}`, `{"data":{"id":1,"name":null},"type":"delete"}`},
	} {
		c, err := NewChangelog(format, Config{Fields: cdcFields})
		if err != nil {
			t.Fatal(err)
		}
		for kind, w := range map[types.RowKind]string{types.Insert: want[0], types.UpdateAfter: want[0], types.UpdateBefore: want[1], types.Delete: want[1]} {
			got, err := c.EncodeChange(nil, kind, row)
			if err != nil || string(got) != w {
				t.Errorf("%s %s: got %s, %v; want %s", format, kind, got, err, w)
			}
		}
	}
}

// A message that fails after some of its rows were appended leaves the
// rows and kinds before it as they were, also without value fields (a
// table whose columns are all in the key).
func TestChangelogFailureKeepsEarlierRows(t *testing.T) {
	for _, fields := range []types.Schema{cdcFields, nil} {
		c, err := NewChangelog("debezium-json", Config{Fields: fields})
		if err != nil {
			t.Fatal(err)
		}
		cols := vectors(fields)
		kinds, err := c.DecodeChanges([]byte(`{"before":{"id":1,"name":"a"},"after":{"id":1,"name":"b"},"op":"u"}`), cols, nil)
		if err != nil || len(kinds) != 2 {
			t.Fatalf("fields %v: %v, %v", fields, kinds, err)
		}
		kinds, err = c.DecodeChanges([]byte(`{"before":{"id":1,"name":"b"},"after":null,"op":"u"}`), cols, kinds)
		if err == nil || len(kinds) != 2 || height(cols) != min(len(fields), 1)*2 {
			t.Errorf("fields %v: after a failed update, kinds %v, %d rows, error %v", fields, kinds, height(cols), err)
		}
	}
}
