package kafka

import (
	"slices"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/types"
)

// TestCSVWithKcat reads CSV lines kcat produced (key and value both 'csv')
// and checks that kcat reads back what the sink writes.
func TestCSVWithKcat(t *testing.T) {
	c := startCluster(t, 1)
	createTopic(t, c, "people", 1)
	kcat(t, "1|ann,\"Smith, Jr.\",31\n2|bob,,\n", "-P", "-b", c.BootstrapServers(), "-t", "people", "-K", "|")
	cols := []catalog.Column{column("id", types.IntType), column("name", types.StringType),
		column("last", types.StringType), column("age", types.IntType)}
	tbl := table(cols, options(c, "people", "format", "", "key.format", "csv", "key.fields", "id",
		"value.format", "csv", "value.fields-include", "EXCEPT_KEY", "value.csv.ignore-parse-errors", "true",
		"scan.bounded.mode", "latest-offset"))
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	// bob's empty age is no INT: NULL with 'ignore-parse-errors'.
	if got, want := coll.sorted(), []string{"+I[1, ann, Smith, Jr., 31]", "+I[2, bob, , <NULL>]"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}

	out := table(cols, options(c, "people-out", "format", "csv", "csv.null-literal", "NULL"))
	writeRows(t, out, 0, 1, chunk(out.Schema().Types(), []any{3, "cy", "O'Neil \"Jr\"", 40}, []any{4, nil, "x;y", nil}))
	got := kcat(t, "", "-C", "-b", c.BootstrapServers(), "-t", "people-out", "-e", "-q", "-f", `%s\n`)
	if want := "3,cy,\"O'Neil \"\"Jr\"\"\",40\n4,NULL,x;y,NULL\n"; got != want {
		t.Fatalf("kcat read %q, want %q", got, want)
	}
}

// TestCSVBadRecordNamesItsOffset checks that a record the 'csv' format
// cannot read fails the source with its topic, partition and offset.
func TestCSVBadRecordNamesItsOffset(t *testing.T) {
	c := startCluster(t, 1)
	createTopic(t, c, "bad", 1)
	produce(t, c, rec("bad", 0, "", "1,a"), rec("bad", 0, "", "x,b"))
	cols := []catalog.Column{column("n", types.IntType), column("s", types.StringType)}
	tbl := table(cols, options(c, "bad", "format", "csv", "scan.bounded.mode", "latest-offset"))
	job, _ := runSource(t, tbl, connector.SourceSpec{}, 1)
	err := waitDone(t, job)
	want := `cannot decode value of record at topic 'bad' partition 0 offset 1: field 'n' (INT): "x": not a number`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one containing %q", err, want)
	}
}
