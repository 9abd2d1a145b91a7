package datagen

import (
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/types"
)

// TestRowSizeBounded: random strings that would make a row past 1 MB are
// refused when the table is declared, naming the option (or the type
// that fixes the length), before anything is generated; long rows that
// pass are generated in smaller chunks.
func TestRowSizeBounded(t *testing.T) {
	varchar := func(n int) types.Type { return types.Type{Kind: types.Varchar, Length: n} }
	for _, tc := range []struct {
		cols []catalog.Column
		opts map[string]string
		want string
	}{
		{[]catalog.Column{{Name: "s", Type: types.StringType}}, map[string]string{"fields.s.length": "2000000000"},
			"Invalid value for option 'fields.s.length': 2000000000. A datagen row may hold at most 1048576 bytes of random strings and binary strings; these rows would hold 2000000000"},
		{[]catalog.Column{{Name: "b", Type: types.Type{Kind: types.Varbinary, Length: types.MaxVarcharLength}}}, map[string]string{"fields.b.length": "1048577"},
			"Invalid value for option 'fields.b.length': 1048577."},
		{[]catalog.Column{{Name: "v", Type: varchar(2000000000)}}, nil,
			"The random values of field 'v' are 2000000000 long, its declared length: set 'fields.v.length' lower"},
		{[]catalog.Column{{Name: "c", Type: types.Type{Kind: types.Char, Length: 5000000}}}, nil,
			"The random values of field 'c' are as long as its type CHAR(5000000)"},
		{[]catalog.Column{{Name: "a", Type: varchar(600000)}, {Name: "b", Type: varchar(600000)}}, nil,
			"these rows would hold 1200000"},
	} {
		opts := map[string]string{"connector": "datagen"}
		for k, v := range tc.opts {
			opts[k] = v
		}
		_, err := parse(&catalog.Table{Name: "t", Columns: tc.cols, Options: opts})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v %v: error %v, want %q", tc.cols, tc.opts, err, tc.want)
		}
	}
	for _, tc := range []struct {
		length string
		rows   int
	}{{"100", types.ChunkSize}, {"1048576", 1}, {"65536", 16}} {
		c, err := parse(&catalog.Table{Name: "t", Columns: []catalog.Column{{Name: "s", Type: types.StringType}},
			Options: map[string]string{"connector": "datagen", "fields.s.length": tc.length}})
		if err != nil {
			t.Fatal(err)
		}
		if c.chunkRows != tc.rows {
			t.Errorf("length %s: chunks of %d rows, want %d", tc.length, c.chunkRows, tc.rows)
		}
	}
}
