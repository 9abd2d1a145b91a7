package kafka

import (
	"slices"
	"testing"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/types"
)

var userCols = []catalog.Column{column("id", types.BigIntType), column("name", types.StringType)}

func TestSourceReadsValues(t *testing.T) {
	c := startCluster(t, 1)
	produce(t, c,
		rec("users", 0, "", `{"id":1,"name":"ann"}`),
		rec("users", 0, "", `{"id":2,"name":"bob"}`),
	)
	tbl := table(userCols, options(c, "users"))
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	if m := factoryFor(t, tbl).Produces(tbl); m != connector.InsertOnly {
		t.Fatalf("a kafka table is read as %v, want appends", m)
	}
	waitQuiet(t, job)
	want := []string{"+I[1, ann]", "+I[2, bob]"}
	if got := coll.sorted(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}

	// New records arrive on the running job.
	produce(t, c, rec("users", 0, "", `{"id":3,"name":"cy"}`))
	waitQuiet(t, job)
	want = append(want, "+I[3, cy]")
	if got := coll.sorted(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestSinkWritesValues(t *testing.T) {
	c := startCluster(t, 1)
	tbl := table(userCols, options(c, "out"))
	writeRows(t, tbl, 0, 1, chunk(tbl.Schema().Types(), []any{1, "ann"}, []any{2, nil}))
	recs := consumeAll(t, c, "out")
	var got []string
	for _, r := range recs {
		got = append(got, string(r.Value))
		if r.Key != nil {
			t.Fatalf("record has key %q; the table has no key format", r.Key)
		}
	}
	want := []string{`{"id":1,"name":"ann"}`, `{"id":2,"name":null}`}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
