package datagen

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/types"
)

func table(cols []catalog.Column, opts ...string) *catalog.Table {
	o := map[string]string{"connector": "datagen"}
	for i := 0; i < len(opts); i += 2 {
		o[opts[i]] = opts[i+1]
	}
	return &catalog.Table{Name: "gen", Options: o, Columns: cols}
}

func col(name string, t types.Type) catalog.Column { return catalog.Column{Name: name, Type: t} }

// generate runs the generator of the table's only column for n rows.
func generate(t *testing.T, tbl *catalog.Table, n int) *types.Vector {
	t.Helper()
	cfg, err := parse(tbl)
	if err != nil {
		t.Fatal(err)
	}
	v := types.NewVector(tbl.Columns[0].Type, n)
	g := &genState{rnd: rand.New(rand.NewPCG(1, 2)), now: time.Now(), loc: time.UTC}
	for i := range n {
		cfg.fields[0].gen(v, g, int64(i))
	}
	return v
}

func TestRandomRanges(t *testing.T) {
	v := generate(t, table([]catalog.Column{col("x", types.IntType)}, "fields.x.min", "-2", "fields.x.max", "2"), 2000)
	seen := map[int64]bool{}
	for i := range v.Len() {
		if x := v.I64[i]; x < -2 || x > 2 || v.Nulls[i] {
			t.Fatalf("value %d outside [-2, 2]", x)
		}
		seen[v.I64[i]] = true
	}
	if len(seen) != 5 {
		t.Errorf("saw %v, want every value of [-2, 2]", seen)
	}
	v = generate(t, table([]catalog.Column{col("x", types.Type{Kind: types.TinyInt})}), 2000)
	for i := range v.Len() {
		if x := v.I64[i]; x < -128 || x > 127 {
			t.Fatalf("TINYINT value %d", x)
		}
	}
	v = generate(t, table([]catalog.Column{col("x", types.DoubleType)}, "fields.x.min", "1.5", "fields.x.max", "2.5"), 1000)
	for i := range v.Len() {
		if x := v.F64[i]; x < 1.5 || x > 2.5 {
			t.Fatalf("DOUBLE value %v outside [1.5, 2.5]", x)
		}
	}
	v = generate(t, table([]catalog.Column{col("x", types.DecimalType(5, 2))}, "fields.x.min", "-10", "fields.x.max", "999999"), 1000)
	for i := range v.Len() {
		if x := v.I64[i]; x < -1000 || x > 99999 {
			t.Fatalf("DECIMAL(5, 2) unscaled value %d", x)
		}
	}
	start := time.Now().Add(-time.Hour).UnixMicro()
	v = generate(t, table([]catalog.Column{col("x", types.TimestampLTZType(3))}, "fields.x.max-past", "1 h"), 1000)
	for i := range v.Len() {
		if x := v.I64[i]; x < start-1000 || x > time.Now().UnixMicro() || x%1000 != 0 {
			t.Fatalf("timestamp %v not within the last hour in milliseconds", time.UnixMicro(x))
		}
	}
}

func TestRandomLengths(t *testing.T) {
	for _, c := range []struct {
		typ  types.Type
		opts []string
		want int
	}{
		{types.StringType, nil, 100},
		{types.StringType, []string{"fields.x.length", "7"}, 7},
		{types.Type{Kind: types.Varchar, Length: 12}, nil, 12},
		{types.Type{Kind: types.Char, Length: 3}, nil, 3},
		{types.Type{Kind: types.Varbinary, Length: types.MaxVarcharLength}, []string{"fields.x.length", "4"}, 4},
		{types.Type{Kind: types.Binary, Length: 6}, nil, 6},
	} {
		v := generate(t, table([]catalog.Column{col("x", c.typ)}, c.opts...), 50)
		for i := range v.Len() {
			s := v.Str[i]
			if len(s) != c.want {
				t.Fatalf("%v %v: length %d, want %d", c.typ, c.opts, len(s), c.want)
			}
			if c.typ.IsString() && strings.Trim(s, "0123456789abcdef") != "" {
				t.Fatalf("%q is not hexadecimal", s)
			}
		}
	}
}

func TestNullRate(t *testing.T) {
	for rate, bounds := range map[string][2]int{"0": {0, 0}, "1.0": {1000, 1000}, "0.5": {400, 600}} {
		v := generate(t, table([]catalog.Column{col("x", types.StringType)}, "fields.x.null-rate", rate), 1000)
		nulls := 0
		for _, n := range v.Nulls {
			if n {
				nulls++
			}
		}
		if nulls < bounds[0] || nulls > bounds[1] {
			t.Errorf("null-rate %s: %d NULLs of 1000", rate, nulls)
		}
	}
}

func TestSequenceSplit(t *testing.T) {
	cols := []catalog.Column{col("id", types.BigIntType), col("s", types.StringType), col("b", types.Type{Kind: types.Varbinary, Length: 8})}
	tbl := table(cols, "fields.id.kind", "sequence", "fields.id.start", "10", "fields.id.end", "19",
		"fields.s.kind", "sequence", "fields.s.start", "-5", "fields.s.end", "100",
		"fields.b.kind", "sequence", "fields.b.start", "1", "fields.b.end", "1000")
	cfg, err := parse(tbl)
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.bounded() {
		t.Fatal("a sequence source must be bounded")
	}
	// Ten ids over 4 instances: 3, 3, 2, 2 rows.
	for i, want := range []int64{3, 3, 2, 2} {
		if got := cfg.rows(i, 4); got != want {
			t.Errorf("instance %d of 4: %d rows, want %d", i, got, want)
		}
	}
	c := types.NewChunk(cfg.colTypes, 3)
	g := &genState{rnd: rand.New(rand.NewPCG(1, 2))}
	for _, f := range cfg.fields {
		f.gen(c.Cols[f.col], g, 5) // row 1 of instance 1 of 4
	}
	if c.Cols[0].I64[0] != 15 || c.Cols[1].Str[0] != "0" || c.Cols[2].Str[0] != "\x00\x00\x00\x00\x00\x00\x00\x06" {
		t.Errorf("position 5: got %d, %q, %q", c.Cols[0].I64[0], c.Cols[1].Str[0], c.Cols[2].Str[0])
	}
	cfg, err = parse(table(cols[:1], "number-of-rows", "5"))
	if err != nil || cfg.rows(0, 2) != 3 || cfg.rows(1, 2) != 2 {
		t.Errorf("number-of-rows 5 over 2 instances: %v", err)
	}
	if cfg, _ := parse(table(cols[:1])); cfg.bounded() || cfg.rows(0, 1) != -1 {
		t.Error("a random source without number-of-rows must be unbounded")
	}
}

func TestOptionErrors(t *testing.T) {
	id := []catalog.Column{col("id", types.IntType)}
	for _, c := range []struct {
		cols []catalog.Column
		opts []string
		want string
	}{
		{id, []string{"fields.id.kind", "seq"}, "Unsupported generator kind: seq"},
		{id, []string{"fields.id.kind", "sequence", "fields.id.end", "3"}, "Could not find required property 'fields.id.start' for sequence generator."},
		{id, []string{"fields.id.min", "x"}, "Could not parse value 'x' for key 'fields.id.min'."},
		{id, []string{"fields.id.min", "5", "fields.id.max", "1"}, "The value of 'fields.id.min' is greater than the value of 'fields.id.max' for field 'id'."},
		{id, []string{"fields.id.null-rate", "2"}, "Invalid value for option 'fields.id.null-rate': 2. It must be between 0 and 1."},
		{id, []string{"rows-per-second", "0"}, "Invalid value for option 'rows-per-second': 0. It must be a positive number."},
		{[]catalog.Column{col("c", types.Type{Kind: types.Char, Length: 3})}, []string{"fields.c.length", "2"},
			"Custom length for fixed-length type (CHAR/BINARY) field 'c' is not supported."},
		{[]catalog.Column{col("v", types.Type{Kind: types.Varchar, Length: 3})}, []string{"fields.v.length", "5"},
			"Custom length '5' for variable-length type (VARCHAR/STRING/VARBINARY/BYTES) field 'v' should be shorter than '3' defined in the schema."},
		{id, []string{"fields.id.length", "5", "fields.other.kind", "random"},
			"Unsupported options found for 'datagen'.\n\nUnsupported options:\n\nfields.id.length\nfields.other.kind\n\nSupported options:\n\nconnector\nfields.id.kind\nfields.id.max\nfields.id.min\nfields.id.null-rate\nnumber-of-rows\nrows-per-second"},
		{id, []string{"fields.id.kind", "sequence", "fields.id.start", "1", "fields.id.end", "3", "fields.id.min", "1"},
			"Unsupported options found for 'datagen'.\n\nUnsupported options:\n\nfields.id.min\n\nSupported options:\n\nconnector\nfields.id.end\nfields.id.kind\nfields.id.start\nnumber-of-rows\nrows-per-second"},
	} {
		if err := (factory{}).Validate(table(c.cols, c.opts...)); err == nil || err.Error() != c.want {
			t.Errorf("%v: got %v, want %q", c.opts, err, c.want)
		}
	}
}

func TestTokenBucket(t *testing.T) {
	now := time.Unix(0, 0)
	b := newTokenBucket(100, now) // a burst of 10 rows
	if n := b.take(now, 1000); n != 10 {
		t.Fatalf("first take: %d rows, want the burst of 10", n)
	}
	if n := b.take(now, 1000); n != 0 || b.wait() != 10*time.Millisecond {
		t.Fatalf("empty bucket: %d rows, wait %v", n, b.wait())
	}
	if n := b.take(now.Add(50*time.Millisecond), 1000); n != 5 {
		t.Fatalf("after 50 ms: %d rows, want 5", n)
	}
	if n := b.take(now.Add(time.Hour), 1000); n != 10 {
		t.Fatalf("after an hour: %d rows, want no more than the burst", n)
	}
}
