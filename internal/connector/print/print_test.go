package print

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/types"
)

func TestJavaText(t *testing.T) {
	ts := time.Date(2023, 1, 2, 3, 4, 0, 0, time.UTC).UnixNano()
	us := ts / 1000
	for _, c := range []struct {
		t    types.Type
		v    types.Value
		want string
	}{
		{types.BooleanType, types.BoolValue(true), "true"},
		{types.IntType, types.IntValue(-7), "-7"},
		{types.DoubleType, types.FloatValue(1e10), "1.0E10"},
		{types.Type{Kind: types.Float}, types.FloatValue(0.5), "0.5"},
		{types.DecimalType(10, 2), types.IntValue(-1234), "-12.34"},
		{types.DecimalType(10, 3), types.IntValue(5), "0.005"},
		{types.DecimalType(18, 8), types.IntValue(1), "1E-8"},
		{types.DecimalType(5, 0), types.IntValue(42), "42"},
		{types.StringType, types.StringValue("foo"), "foo"},
		{types.Type{Kind: types.Varbinary}, types.StringValue("\x01\xff"), "[1, -1]"},
		{types.Type{Kind: types.Date}, types.IntValue(19359), "2023-01-02"},
		{types.Type{Kind: types.Time}, types.IntValue(int64(13*time.Hour + 5*time.Minute)), "13:05"},
		{types.Type{Kind: types.Time}, types.IntValue(int64(13*time.Hour + 5*time.Second + 120*time.Millisecond)), "13:00:05.120"},
		{types.TimestampType(3), types.IntValue(us), "2023-01-02T03:04"},
		{types.TimestampType(9), nanoTS(us+1, 500), "2023-01-02T03:04:00.000001500"},
		{types.TimestampType(9), nanoTS(time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro(), 1), "1000-01-01T00:00:00.000000001"},
		{types.TimestampType(6), types.IntValue(us + 15), "2023-01-02T03:04:00.000015"},
		{types.TimestampType(3), types.IntValue(-1000), "1969-12-31T23:59:59.999"},
		{types.TimestampType(0), types.IntValue(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()), "0001-01-01T00:00"},
		{types.TimestampLTZType(3), types.IntValue(us), "2023-01-02T03:04:00Z"},
		{types.TimestampLTZType(3), types.IntValue(us + 250_000), "2023-01-02T03:04:00.250Z"},
		{types.Type{Kind: types.IntervalYearMonth}, types.IntValue(14), "P1Y2M"},
		{types.Type{Kind: types.IntervalYearMonth}, types.IntValue(0), "P0D"},
		{types.Type{Kind: types.IntervalDayTime}, types.IntValue(5_400_000), "PT1H30M"},
		{types.Type{Kind: types.IntervalDayTime}, types.IntValue(1500), "PT1.5S"},
		{types.Type{Kind: types.IntervalDayTime}, types.IntValue(-500), "PT-0.5S"},
		{types.Type{Kind: types.IntervalDayTime}, types.IntValue(0), "PT0S"},
		{types.IntType, types.NullValue, "null"},
	} {
		if got := string(appendJava(nil, c.t, c.v)); got != c.want {
			t.Errorf("%v %v: got %q, want %q", c.t, c.v, got, c.want)
		}
	}
}

func table(opts ...string) *catalog.Table {
	o := map[string]string{"connector": "print"}
	for i := 0; i < len(opts); i += 2 {
		o[opts[i]] = opts[i+1]
	}
	return &catalog.Table{Name: "out", Options: o, Columns: []catalog.Column{
		{Name: "id", Type: types.IntType},
		{Name: "name", Type: types.StringType},
		{Name: "twice", Type: types.IntType},
	}}
}

// printRows writes one chunk through instance i of n of a sink of tbl.
func printRows(t *testing.T, tbl *catalog.Table, i, n int) (stdout, stderr string) {
	t.Helper()
	var out, errs bytes.Buffer
	target, err := factory{}.NewSink(tbl, connector.Env{Stdout: &out, Stderr: &errs})
	if err != nil {
		t.Fatal(err)
	}
	op, err := target.NewInstance(i, n)
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Open(nil); err != nil {
		t.Fatal(err)
	}
	c := types.NewChunk(connector.SinkInput(tbl), 2)
	c.AppendRow(types.Insert, types.Row{types.IntValue(1), types.StringValue("foo"), types.IntValue(2)})
	c.AppendRow(types.UpdateBefore, types.Row{types.IntValue(2), types.NullValue, types.NullValue})
	if err := op.ProcessChunk(0, c, nil); err != nil {
		t.Fatal(err)
	}
	if err := op.Finish(nil); err != nil {
		t.Fatal(err)
	}
	return out.String(), errs.String()
}

func TestPrintPrefixes(t *testing.T) {
	for _, c := range []struct {
		opts []string
		i, n int
		want string
	}{
		{nil, 0, 1, ""},
		{nil, 2, 4, "3> "},
		{[]string{"print-identifier", "gen"}, 0, 1, "gen> "},
		{[]string{"print-identifier", "gen"}, 1, 4, "gen:2> "},
	} {
		out, errs := printRows(t, table(c.opts...), c.i, c.n)
		want := c.want + "+I[1, foo, 2]\n" + c.want + "-U[2, null, null]\n"
		if out != want || errs != "" {
			t.Errorf("%v instance %d of %d: got %q and %q on stderr, want %q", c.opts, c.i, c.n, out, errs, want)
		}
	}
	out, errs := printRows(t, table("standard-error", "TRUE"), 0, 1)
	if out != "" || errs != "+I[1, foo, 2]\n-U[2, null, null]\n" {
		t.Errorf("standard-error: got %q on stdout and %q on stderr", out, errs)
	}
}

func TestPrintOptions(t *testing.T) {
	f := factory{}
	if f.Accepts(table()) != connector.Retract {
		t.Error("print must accept any changelog")
	}
	if err := f.Validate(table("standard-error", "yes")); err == nil || err.Error() != "Could not parse value 'yes' for key 'standard-error'." {
		t.Errorf("got %v", err)
	}
	err := f.Validate(table("print-identifer", "x"))
	if err == nil || !strings.HasPrefix(err.Error(), "Unsupported options found for 'print'.\n\nUnsupported options:\n\nprint-identifer\n\nSupported options:\n\nconnector\nprint-identifier\nsink.parallelism\nstandard-error") {
		t.Errorf("got %v", err)
	}
	if _, err := f.NewSource(table(), connector.SourceSpec{}); err == nil || err.Error() != "Connector 'print' can only be used as a sink. It cannot be used as a source." {
		t.Errorf("got %v", err)
	}
	tbl := table()
	tbl.Columns = append(tbl.Columns, catalog.Column{Name: "ts", Type: types.TimestampLTZType(3), Metadata: true, MetadataKey: "timestamp"})
	if _, err := f.NewSink(tbl, connector.Env{}); err == nil || !strings.Contains(err.Error(), "declares persistable metadata columns") {
		t.Errorf("got %v", err)
	}
}

// nanoTS is the TIMESTAMP(9) us microseconds plus ns nanoseconds after the
// epoch.
func nanoTS(us, ns int64) types.Value {
	v, _ := types.TimestampFromParts(9, us, ns)
	return v
}
