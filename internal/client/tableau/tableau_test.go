package tableau

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

var rowKinds = map[string]types.RowKind{
	"+I": types.Insert, "-U": types.UpdateBefore, "+U": types.UpdateAfter, "-D": types.Delete,
}

// TestAcceptanceOutputs reprints the expected tableau outputs of the seed
// acceptance cases from their values and the result schemas declared in the
// matching .sql files, and compares byte for byte.
func TestAcceptanceOutputs(t *testing.T) {
	str := types.StringType
	cases := map[string]types.Schema{
		"aggregate-count": {col("title", str), col("tickets_sold", types.BigIntType)},
		"finding-distinct": {
			col("ip_address", str), col("url", str), col("click_ts", str),
		},
		"interval-join": {
			col("order_id", types.IntType), col("order_ts", str), col("total", types.DoubleType),
			col("customer", str), col("ship_id", str), col("ship_ts", str), col("warehouse", str),
			col("hours_to_ship", types.IntType),
		},
		"tumbling-windows": {
			col("title", str), col("rating_count", types.BigIntType), col("avg_rating", types.DoubleType),
			col("window_start", types.TimestampType(3)), col("window_end", types.TimestampType(3)),
		},
	}
	dir := filepath.Join("..", "..", "..", "..", "shared", "acceptance")
	for name, schema := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, name+".out"))
			if errors.Is(err, os.ErrNotExist) {
				t.Skip("acceptance files not present")
			}
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")
			var got bytes.Buffer
			p := NewStreaming(&got, schema, time.UTC)
			if err := p.Header(); err != nil {
				t.Fatal(err)
			}
			for _, line := range lines[3:] {
				cells := strings.Split(strings.Trim(line, "|"), "|")
				kind, ok := rowKinds[strings.TrimSpace(cells[0])]
				if !ok {
					t.Fatalf("bad row kind in %q", line)
				}
				row := make(types.Row, len(schema))
				for i, f := range schema {
					v, err := types.ParseValue(f.Type, strings.TrimSpace(cells[i+1]), time.UTC)
					if err != nil {
						t.Fatal(err)
					}
					row[i] = v
				}
				if err := p.Row(kind, row); err != nil {
					t.Fatal(err)
				}
			}
			if got.String() != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
			}
		})
	}
}

// flinkSchema and flinkRows mirror the data of Flink's TableauStyleTest.
var flinkSchema = types.Schema{
	col("boolean", types.BooleanType),
	col("int", types.IntType),
	col("bigint", types.BigIntType),
	col("varchar", types.StringType),
	col("decimal(10, 5)", types.DecimalType(10, 5)),
	col("timestamp", types.TimestampType(6)),
}

func ts(s string) types.Value {
	v, err := types.ParseValue(types.TimestampType(6), s, time.UTC)
	if err != nil {
		panic(err)
	}
	return v
}

var (
	null = types.NullValue
	i    = types.IntValue
	s    = types.StringValue
	b    = types.BoolValue
)

var flinkRows = []struct {
	kind types.RowKind
	row  types.Row
}{
	{types.Insert, types.Row{null, i(1), i(2), s("abc"), i(123000), ts("2020-03-01 18:39:14")}},
	{types.Insert, types.Row{b(false), null, i(0), s(""), i(100000), ts("2020-03-01 18:39:14.1")}},
	{types.Delete, types.Row{b(true), i(2147483647), null, s("abcdefg"), i(1234500000), ts("2020-03-01 18:39:14.12")}},
	{types.Insert, types.Row{b(false), i(-2147483648), i(9223372036854775807), null, i(1234506789), ts("2020-03-01 18:39:14.123")}},
	{types.Insert, types.Row{b(true), i(100), i(-9223372036854775808), s("abcdefg111"), null, ts("2020-03-01 18:39:14.123456")}},
	{types.UpdateBefore, types.Row{null, i(-1), i(-1), s("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"), i(-1234506789), null}},
	{types.UpdateAfter, types.Row{null, i(-1), i(-1), s("这是一段中文"), i(-1234506789), ts("2020-03-04 18:39:14")}},
	{types.Delete, types.Row{null, i(-1), i(-1), s("これは日本語をテストするための文です"), i(-1234506789), ts("2020-03-04 18:39:14")}},
}

func TestStreamingTypeWidths(t *testing.T) {
	var got bytes.Buffer
	p := NewStreaming(&got, flinkSchema, time.UTC)
	check(t, p.Header())
	for _, r := range flinkRows {
		check(t, p.Row(r.kind, r.row))
	}
	check(t, p.Footer(len(flinkRows)))
	want := `+----+---------+-------------+----------------------+--------------------------------+----------------+----------------------------+
| op | boolean |         int |               bigint |                        varchar | decimal(10, 5) |                  timestamp |
+----+---------+-------------+----------------------+--------------------------------+----------------+----------------------------+
| +I |  <NULL> |           1 |                    2 |                            abc |        1.23000 | 2020-03-01 18:39:14.000000 |
| +I |   FALSE |      <NULL> |                    0 |                                |        1.00000 | 2020-03-01 18:39:14.100000 |
| -D |    TRUE |  2147483647 |               <NULL> |                        abcdefg |    12345.00000 | 2020-03-01 18:39:14.120000 |
| +I |   FALSE | -2147483648 |  9223372036854775807 |                         <NULL> |    12345.06789 | 2020-03-01 18:39:14.123000 |
| +I |    TRUE |         100 | -9223372036854775808 |                     abcdefg111 |         <NULL> | 2020-03-01 18:39:14.123456 |
| -U |  <NULL> |          -1 |                   -1 | abcdefghijklmnopqrstuvwxyza... |   -12345.06789 |                     <NULL> |
| +U |  <NULL> |          -1 |                   -1 |                   这是一段中文 |   -12345.06789 | 2020-03-04 18:39:14.000000 |
| -D |  <NULL> |          -1 |                   -1 |  これは日本語をテストするた... |   -12345.06789 | 2020-03-04 18:39:14.000000 |
+----+---------+-------------+----------------------+--------------------------------+----------------+----------------------------+
Received a total of 8 rows
`
	if got.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
	}
}

func TestPrintBatchFitsContent(t *testing.T) {
	rows := make([]types.Row, 3)
	for j := range rows {
		rows[j] = flinkRows[j].row
	}
	var got bytes.Buffer
	check(t, PrintBatch(&got, flinkSchema, rows, time.UTC))
	want := `+---------+------------+--------+---------+----------------+----------------------------+
| boolean |        int | bigint | varchar | decimal(10, 5) |                  timestamp |
+---------+------------+--------+---------+----------------+----------------------------+
|  <NULL> |          1 |      2 |     abc |        1.23000 | 2020-03-01 18:39:14.000000 |
|   FALSE |     <NULL> |      0 |         |        1.00000 | 2020-03-01 18:39:14.100000 |
|    TRUE | 2147483647 | <NULL> | abcdefg |    12345.00000 | 2020-03-01 18:39:14.120000 |
+---------+------------+--------+---------+----------------+----------------------------+
3 rows in set
`
	if got.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
	}
}

func TestPrintBatchCapsWidth(t *testing.T) {
	var got bytes.Buffer
	schema := types.Schema{col("v", types.StringType)}
	rows := []types.Row{{s(strings.Repeat("x", 40))}}
	check(t, PrintBatch(&got, schema, rows, time.UTC, WithMaxColumnWidth(10)))
	want := "+------------+\n|          v |\n+------------+\n| xxxxxxx... |\n+------------+\n1 row in set\n"
	if got.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
	}
}

func TestEmptyResults(t *testing.T) {
	var got bytes.Buffer
	check(t, PrintBatch(&got, flinkSchema, nil, time.UTC))
	check(t, PrintStatic(&got, []string{"table name"}, nil))
	p := NewStreaming(&got, types.Schema{col("a", types.IntType)}, time.UTC)
	check(t, p.Header())
	check(t, p.Footer(0))
	want := "Empty set\nEmpty set\n" +
		"+----+-------------+\n| op |           a |\n+----+-------------+\nReceived a total of 0 row\n"
	if got.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
	}
}

func TestStreamingFooterAndInterrupt(t *testing.T) {
	var got bytes.Buffer
	p := NewStreaming(&got, types.Schema{col("a", types.IntType)}, time.UTC)
	check(t, p.Row(types.Insert, types.Row{i(-5)}))
	check(t, p.Footer(1))
	check(t, p.Interrupted(2))
	want := "| +I |          -5 |\n+----+-------------+\nReceived a total of 1 row\n" +
		"Query terminated, received a total of 2 rows\n"
	if got.String() != want {
		t.Errorf("got:\n%q\nwant:\n%q", got.String(), want)
	}
}

func TestPrintStatic(t *testing.T) {
	var got bytes.Buffer
	check(t, PrintStatic(&got, []string{"name", "type", "null"}, [][]string{
		{"order_id", "INT", ""},
		{"a_rather_long_column_name_beyond_thirty_chars", "TIMESTAMP(3) *ROWTIME*", "TRUE"},
	}))
	want := `+-----------------------------------------------+------------------------+------+
|                                          name |                   type | null |
+-----------------------------------------------+------------------------+------+
|                                      order_id |                    INT |      |
| a_rather_long_column_name_beyond_thirty_chars | TIMESTAMP(3) *ROWTIME* | TRUE |
+-----------------------------------------------+------------------------+------+
2 rows in set
`
	if got.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
	}
}

func TestTypeWidths(t *testing.T) {
	cases := []struct {
		typ  types.Type
		want int
	}{
		{types.Type{Kind: types.TinyInt}, 6}, // "<NULL>" is wider than 4
		{types.Type{Kind: types.SmallInt}, 6},
		{types.IntType, 11},
		{types.BigIntType, 20},
		{types.DecimalType(10, 2), 12},
		{types.DecimalType(3, 0), 6},
		{types.BooleanType, 6},
		{types.Type{Kind: types.Date}, 10},
		{types.Type{Kind: types.Time}, 8},
		{types.Type{Kind: types.Time, Precision: 3}, 12},
		{types.TimestampType(0), 19},
		{types.TimestampType(3), 23},
		{types.TimestampLTZType(6), 26},
		{types.TimestampType(9), 29},
		{types.StringType, 30},
		{types.DoubleType, 30},
		{types.Type{Kind: types.Varbinary, Length: 8}, 30},
	}
	for _, c := range cases {
		got := widthsByType(types.Schema{col("x", c.typ)}, DefaultMaxColumnWidth, false)[0]
		if got != c.want {
			t.Errorf("%s: width %d, want %d", c.typ, got, c.want)
		}
	}
	// A longer name wins; names count UTF-16 units, not display columns.
	if got := widthsByType(types.Schema{col("hours_to_ship", types.IntType)}, 30, true); got[0] != 2 || got[1] != 13 {
		t.Errorf("widths %v", got)
	}
	if got := widthsByType(types.Schema{col("数量", types.BooleanType)}, 30, false); got[0] != 6 {
		t.Errorf("widths %v", got)
	}
}

func TestDisplayWidthAndTruncate(t *testing.T) {
	widths := map[string]int{
		"abcdefg,12345,ABC":                     17,
		"to be or not to be that's a question.": 37,
		"这是一段中文":                                12,
		"これは日本語をテストするための文です":                    36,
		"，": 2, // fullwidth comma
		"😀": 3, // surrogate pair, wide
		"𝄞": 2, // surrogate pair, narrow
	}
	for in, want := range widths {
		if got := displayWidth(in); got != want {
			t.Errorf("displayWidth(%q) = %d, want %d", in, got, want)
		}
	}
	cuts := []struct {
		in     string
		target int
		want   string
	}{
		{"abcdef", 4, "abcd"},
		{"ab", 4, "  ab"},
		{"中文字", 3, " 中"},
		{"a😀b", 2, " a"},
		{"a😀b", 3, " a?"}, // cut between the surrogates
		{"a𝄞b", 2, "a?"},
		{"a😀b", 4, "a😀"},
	}
	for _, c := range cuts {
		if got := truncate(c.in, c.target); got != c.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", c.in, c.target, got, c.want)
		}
	}
}

// TestChangelog reproduces the changelog view shown in the seed tutorial.
func TestChangelog(t *testing.T) {
	var got bytes.Buffer
	schema := types.Schema{col("title", types.StringType), col("tickets_sold", types.BigIntType)}
	p := NewChangelog(&got, schema, time.UTC)
	check(t, p.Header())
	check(t, p.Row(types.Insert, types.Row{s("Aliens"), i(1)}))
	check(t, p.Row(types.UpdateBefore, types.Row{s("Die Hard"), i(1)}))
	check(t, p.Row(types.Delete, types.Row{s(strings.Repeat("long title ", 4)), null}))
	want := " op                          title         tickets_sold\n" +
		" +I                         Aliens                    1\n" +
		" -U                       Die Hard                    1\n" +
		" -D long title long title long ti~               <NULL>\n"
	if got.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
	}
}

func col(name string, t types.Type) types.Field { return types.Field{Name: name, Type: t} }

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
