package sluice

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/sql/parser"
)

// TestSetDurationsInFlinkUnits: durations read as Flink's
// TimeUtils.parseDuration reads them, nanoseconds to days, any case, with
// or without a space; one too large for Sluice's nanoseconds is refused
// by name instead of wrapping.
func TestSetDurationsInFlinkUnits(t *testing.T) {
	e := newEngine(t)
	for value, want := range map[string]time.Duration{
		"5 ns": 5, "7nanos": 7, "1 NANOSECOND": 1, "9 nanoseconds": 9,
		"3 µs": 3 * time.Microsecond, "2 micro": 2 * time.Microsecond, "4 microseconds": 4 * time.Microsecond,
		"250 ms": 250 * time.Millisecond, "2 millis": 2 * time.Millisecond,
		"10 s": 10 * time.Second, "3 secs": 3 * time.Second,
		"2 m": 2 * time.Minute, "5 min": 5 * time.Minute, "1 minutes": time.Minute,
		"1 h": time.Hour, "2 hours": 2 * time.Hour, "1 d": 24 * time.Hour, "2 days": 48 * time.Hour,
		"1500": 1500 * time.Millisecond,
	} {
		mustExecute(t, e, "SET 'table.exec.source.idle-timeout' = '"+value+"'")
		if got := e.Config().duration(ConfIdleTimeout); got != want {
			t.Errorf("'%s' is %v, want %v", value, got, want)
		}
	}
	mustExecute(t, e, "SET 'pipeline.auto-watermark-interval' = '1500 µs'")
	if got := e.Config().duration(ConfWatermarkInterval); got != time.Millisecond {
		t.Errorf("a watermark interval of 1500 µs is %v; Flink keeps 1 ms", got)
	}
	for value, msg := range map[string]string{
		"106752 d":               "too large",
		"9223372036854775808":    "numeric overflow",
		"5 fortnights":           "Time interval unit label 'fortnights' does not match any of the recognized units: DAYS: (d | day | days)",
		"-5 ms":                  "text does not start with a number",
		"9223372036854775807 ms": "too large",
		"500 µs":                 "Flink keeps the interval in whole milliseconds",
		"0":                      "turns periodic watermarks off",
	} {
		_, err := e.Execute(testContext(t), "SET 'pipeline.auto-watermark-interval' = '"+value+"'")
		if err == nil || !strings.Contains(err.Error(), "'pipeline.auto-watermark-interval'") || !strings.Contains(err.Error(), msg) {
			t.Errorf("'%s': error %v, want one naming the option and saying %q", value, err, msg)
		}
	}
}

// collect runs a query to its end and returns its changelog.
func collect(t *testing.T, e *Engine, query string) []string {
	t.Helper()
	ctx := testContext(t)
	res, err := e.Execute(ctx, query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	s := res[0].Stream
	defer s.Close()
	var out []string
	for {
		changes, more, err := s.Next(ctx)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		if !more {
			return out
		}
		out = append(out, changelog(s, changes)...)
	}
}

// materialize applies a changelog and returns the rows it leaves, sorted.
func materialize(changes []string) []string {
	count := map[string]int{}
	for _, c := range changes {
		kind, row, _ := strings.Cut(c, "[")
		row = "[" + row
		switch kind {
		case "+I", "+U":
			count[row]++
		default:
			count[row]--
		}
	}
	var rows []string
	for r, n := range count {
		for range n {
			rows = append(rows, r)
		}
	}
	slices.Sort(rows)
	return rows
}

// TestLimitOffset: OFFSET skips rows with and without ORDER BY, in the
// LIMIT n OFFSET m form and the OFFSET m ROWS FETCH FIRST n ROWS ONLY one,
// as Flink's Limit and SortLimit keep rows m+1 to m+n (SortUtil); an
// OFFSET alone keeps every row after it.
func TestLimitOffset(t *testing.T) {
	e := newEngine(t)
	const four = "(VALUES (3), (1), (4), (2)) AS t(x)"
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"SELECT * FROM (VALUES (1), (2), (3), (4)) AS t(x) LIMIT 2 OFFSET 1", []string{"+I[2]", "+I[3]"}},
		{"SELECT * FROM " + four + " OFFSET 2 ROWS FETCH FIRST 1 ROW ONLY", []string{"+I[4]"}},
		{"SELECT * FROM " + four + " OFFSET 2 ROWS", []string{"+I[4]", "+I[2]"}},
		{"SELECT * FROM " + four + " OFFSET 4", nil},
		{"SELECT x FROM " + four + " ORDER BY x LIMIT 2 OFFSET 1", []string{"[2]", "[3]"}},
		{"SELECT x FROM " + four + " ORDER BY x DESC OFFSET 3 ROWS", []string{"[1]"}},
		{"SELECT x FROM " + four + " ORDER BY x OFFSET 1 ROW FETCH NEXT 5 ROWS ONLY", []string{"[2]", "[3]", "[4]"}},
	} {
		got := collect(t, e, tc.query)
		if strings.Contains(tc.query, "ORDER BY") {
			got = materialize(got)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %v\nwant %v", tc.query, got, tc.want)
		}
	}
	res := mustExecute(t, e, "EXPLAIN SELECT x FROM "+four+" ORDER BY x OFFSET 1; EXPLAIN SELECT * FROM "+four+" LIMIT 2 OFFSET 1")
	for i, want := range []string{"SortLimit(orderBy=[x ASC], offset=[1], fetch=[unlimited])", "Limit(offset=[1], fetch=[2])"} {
		if !strings.Contains(res[i].Text, want) {
			t.Errorf("plan\n%s\nlacks %s", res[i].Text, want)
		}
	}
}

// TestLimitZeroIsEmpty: LIMIT 0 is an empty result that ends at once, even
// over an unbounded source, as Flink's FlinkLimit0RemoveRule makes it empty
// Values.
func TestLimitZeroIsEmpty(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, "CREATE TABLE endless (a INT, s STRING) WITH ('connector' = 'datagen')")
	for _, q := range []string{
		"SELECT * FROM (VALUES (1), (2)) AS t(x) LIMIT 0",
		"SELECT * FROM endless LIMIT 0",
		"SELECT a FROM endless ORDER BY s LIMIT 0 OFFSET 3",
	} {
		if got := collect(t, e, q); len(got) != 0 {
			t.Errorf("%s: %v, want no rows", q, got)
		}
	}
	res := mustExecute(t, e, "SELECT s, a FROM endless LIMIT 0")
	defer res[0].Stream.Close()
	if got := res[0].Stream.Schema.Names(); !slices.Equal(got, []string{"s", "a"}) {
		t.Errorf("columns %v", got)
	}
}

// TestSelectStarWithoutFrom: Calcite refuses SELECT * without FROM
// (SqlValidatorImpl.expandStar: "SELECT * requires a FROM clause") at the
// star.
func TestSelectStarWithoutFrom(t *testing.T) {
	e := newEngine(t)
	_, err := e.Execute(testContext(t), "SELECT 1,\n  *;")
	if err == nil || !strings.Contains(err.Error(), "line 2, column 3: SELECT * requires a FROM clause") {
		t.Errorf("error %v", err)
	}
}

// TestVarianceOverIntegers: VAR_SAMP and STDDEV_SAMP over an INT column
// are INT and computed as Flink's reduction computes them, in INT and
// BIGINT arithmetic: 1 for 1 and 2, not 0.5 truncated.
func TestVarianceOverIntegers(t *testing.T) {
	e := newEngine(t)
	got := materialize(collect(t, e, "SELECT VAR_SAMP(x), STDDEV_SAMP(x), VAR_POP(x), VAR_SAMP(CAST(x AS DOUBLE)) FROM (VALUES (1), (2)) AS t(x)"))
	if want := []string{"[1, 1, 0, 0.5]"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	res := mustExecute(t, e, "SELECT VAR_POP(CAST(x AS TINYINT)), STDDEV_POP(CAST(x AS DECIMAL(5, 2))) FROM (VALUES (1)) AS t(x)")
	defer res[0].Stream.Close()
	var typesGot []string
	for _, f := range res[0].Stream.Schema {
		typesGot = append(typesGot, f.Type.String())
	}
	if want := []string{"TINYINT", "DECIMAL(38, 6)"}; !slices.Equal(typesGot, want) {
		t.Errorf("types %v, want %v", typesGot, want)
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestPlanningCostIsLinear: planning a long expression costs in proportion
// to its length. Constant folding once rendered the folded expression at
// every level, AND/OR flattening copied the operands at every level,
// matching GROUP BY expressions rendered every node of the select list,
// and a UNION ALL chain made a plan as deep as the statement (which
// EXPLAIN indents line by line), all quadratic; bytes allocated tell it
// without timing anything.
func TestPlanningCostIsLinear(t *testing.T) {
	e := newEngine(t)
	for _, tc := range []struct{ name, head, term, tail string }{
		{"folded sum", "EXPLAIN SELECT 1", "+1", ""},
		{"column sum", "EXPLAIN SELECT x", "+x", " FROM (VALUES (1)) AS t(x)"},
		{"OR chain", "EXPLAIN SELECT * FROM (VALUES (1)) AS t(x) WHERE x = 0", " OR x = 1", ""},
		{"grouped sum", "EXPLAIN SELECT x", "+x", " FROM (VALUES (1)) AS t(x) GROUP BY x"},
		{"UNION ALL chain", "EXPLAIN SELECT 1", " UNION ALL SELECT 1", ""},
	} {
		cost := func(n int) uint64 {
			q := tc.head + strings.Repeat(tc.term, n) + tc.tail
			return allocated(func() {
				if _, err := e.Execute(testContext(t), q); err != nil {
					t.Fatalf("%s of %d terms: %.300v", tc.name, n, err)
				}
			})
		}
		small, large := cost(1000), cost(8000)
		if large > 16*small {
			t.Errorf("%s: %d bytes for 1,000 terms, %d for 8,000: more than linear", tc.name, small, large)
		}
	}
}

// TestDeepExpressionRefused: an expression deeper than the parser's limit
// (a chain counts one level per operator) is refused with an error naming
// the line and column of the operator that went past it, instead of
// exhausting the stack; one within the limit plans and runs.
func TestDeepExpressionRefused(t *testing.T) {
	e := newEngine(t)
	_, err := e.Execute(testContext(t), "SELECT\n1"+strings.Repeat(" + 1", 20000))
	if err == nil || !strings.Contains(err.Error(), "SQL parse error at line 2, column ") || !strings.Contains(err.Error(), "nested too deeply (more than 10000 levels") {
		t.Fatalf("error %v", err)
	}
	var pe *parser.Error
	if !errors.As(err, &pe) || pe.Pos.Col < 4*9000 || pe.Pos.Col > 4*10000+1 {
		t.Errorf("position %v, want the operator past the limit", pe)
	}
	if got := collect(t, e, "SELECT 1"+strings.Repeat("+1", 9000)); !slices.Equal(got, []string{"+I[9001]"}) {
		t.Errorf("9,001 ones sum to %v", got)
	}
}

// cancelAfter is a context that reports cancellation once its Err has
// been asked n times: it cancels a statement in the middle of planning,
// deterministically.
type cancelAfter struct {
	context.Context
	n atomic.Int64
}

func (c *cancelAfter) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestPlanningObservesContext: a statement whose context is cancelled
// while it plans (Ctrl-C in the client cancels it) stops with the
// context's error and starts nothing.
func TestPlanningObservesContext(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, "CREATE TABLE src (a INT) WITH ('connector' = 'datagen'); CREATE TABLE snk (a INT) WITH ('connector' = 'blackhole')")
	long := "a" + strings.Repeat(" + a", 5000)
	for _, q := range []string{
		"SELECT " + long + " FROM src",
		"INSERT INTO snk SELECT " + long + " FROM src",
		"EXPLAIN SELECT " + long + " FROM src",
		"CREATE VIEW v AS SELECT " + long + " AS a FROM src",
	} {
		st, err := parser.ParseStatement(q)
		if err != nil {
			t.Fatal(err)
		}
		ctx := &cancelAfter{Context: testContext(t)}
		ctx.n.Store(100)
		res, err := e.ExecuteStatement(ctx, st, q)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%.40s: result %v, error %v; want context.Canceled", q, res, err)
		}
	}
	if jobs := e.Jobs(); len(jobs) != 0 {
		t.Errorf("%d jobs started", len(jobs))
	}
	if _, err := e.Execute(testContext(t), "DESCRIBE v"); err == nil {
		t.Error("the view was created")
	}
}

// TestParallelismBounded: a parallelism past runtime.MaxInstances is
// refused when it is set, naming the option and the limit, instead of
// starting thousands of instances that each hear from every other.
func TestParallelismBounded(t *testing.T) {
	e := newEngine(t)
	_, err := e.Execute(testContext(t), "SET 'parallelism.default' = '5000'")
	if err == nil || !strings.Contains(err.Error(), "'parallelism.default'") || !strings.Contains(err.Error(), "at most 1024") {
		t.Errorf("error %v", err)
	}
	if got := e.Config().Parallelism(); got != 1 {
		t.Errorf("parallelism %d after a refused SET", got)
	}
	mustExecute(t, e, "SET 'parallelism.default' = '1024'")
	_, err = e.Execute(testContext(t), "CREATE TABLE out (a INT) WITH ('connector' = 'print', 'sink.parallelism' = '5000')")
	if err == nil || !strings.Contains(err.Error(), "Invalid value for option 'sink.parallelism': 5000. Sluice runs at most 1024 instances") {
		t.Errorf("error %v", err)
	}
}

// TestDatagenSizesBounded: a datagen table whose random strings would
// make rows of gigabytes is refused at CREATE TABLE, at the option; the
// largest accepted length still runs.
func TestDatagenSizesBounded(t *testing.T) {
	e := newEngine(t)
	_, err := e.Execute(testContext(t), "CREATE TABLE g (s STRING) WITH (\n  'connector' = 'datagen',\n  'fields.s.length' = '2000000000'\n)")
	if err == nil || !strings.Contains(err.Error(), "line 3, column 3") || !strings.Contains(err.Error(), "Invalid value for option 'fields.s.length': 2000000000.") {
		t.Errorf("error %v", err)
	}
	mustExecute(t, e, "CREATE TABLE g (s STRING) WITH ('connector' = 'datagen', 'fields.s.length' = '1048576', 'number-of-rows' = '3')")
	if got := collect(t, e, "SELECT CHAR_LENGTH(s) FROM g"); !slices.Equal(got, []string{"+I[1048576]", "+I[1048576]", "+I[1048576]"}) {
		t.Errorf("got %v", got)
	}
}

// TestErrorsClipLongInput: an error about a 100,000-character identifier
// or value quotes its first 100 characters and its length, not all of it,
// whether planning, SET, a connector or the running query reports it.
func TestErrorsClipLongInput(t *testing.T) {
	e := newEngine(t)
	long := strings.Repeat("x", 100000)
	mustExecute(t, e, "CREATE TABLE t (a INT) WITH ('connector' = 'datagen')")
	for _, q := range []string{
		"SELECT * FROM " + long,
		"SELECT `" + long + "` FROM t",
		"SELECT DATE '" + long + "'",
		"SET 'parallelism.default' = '" + long + "'",
		"SET 'table.exec.source.idle-timeout' = '" + long + "'",
		"CREATE TABLE u (a INT) WITH ('connector' = '" + long + "')",
		"CREATE TABLE u (a INT) WITH ('connector' = 'datagen', '" + long + "' = '1')",
		"CREATE TABLE u (a INT) WITH ('connector' = 'datagen', 'rows-per-second' = '" + long + "')",
		"DROP TABLE " + long,
		"STOP JOB '" + long + "'",
	} {
		_, err := e.Execute(testContext(t), q)
		checkClipped(t, q, err)
	}
	res := mustExecute(t, e, "SELECT CAST(s AS INT) FROM (VALUES ('"+long+"')) AS v(s)")
	s := res[0].Stream
	defer s.Close()
	for {
		_, more, err := s.Next(testContext(t))
		if err != nil || !more {
			checkClipped(t, "CAST", err)
			break
		}
	}
}

// checkClipped checks that err quotes the 100,000 x's of the tests
// shortened, with their length.
var clippedWord = regexp.MustCompile(`x{60}\.\.\. \(1000[0-9]{2} characters\)`)

func checkClipped(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Errorf("%.40s: no error", what)
		return
	}
	// The long word is the identifier, or the qualified name that ends
	// with it (default_catalog.default_database.xxx...).
	msg := err.Error()
	if len(msg) > 2000 || !clippedWord.MatchString(msg) {
		t.Errorf("%.40s: %d-byte error %.300s", what, len(msg), msg)
	}
}

// TestUnionAllChain: a chain of UNION ALL is one union of all its inputs;
// an input of another type is cast first.
func TestUnionAllChain(t *testing.T) {
	e := newEngine(t)
	got := materialize(collect(t, e, "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT CAST(4 AS BIGINT) UNION ALL SELECT 5"))
	if want := []string{"[1]", "[2]", "[3]", "[4]", "[5]"}; !slices.Equal(got, want) {
		t.Errorf("got %v", got)
	}
	res := mustExecute(t, e, "EXPLAIN SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3")
	if n := strings.Count(res[0].Text, "\nUnion("); n != 2 { // one in each optimized plan (the tree has a LogicalUnion)
		t.Errorf("%d unions in\n%s", n, res[0].Text)
	}
}

// TestQueryExpansionBounded: WITH queries are planned again at every
// reference, as Flink expands them, so a chain where each reads the
// previous one twice doubles at every link (14 links expand to tens of
// thousands of queries, 25 to some 10^8). Past 10,000 planning stops with an error
// instead of exhausting memory.
func TestQueryExpansionBounded(t *testing.T) {
	e := newEngine(t)
	var b strings.Builder
	b.WriteString("SELECT * FROM (\nWITH c0 AS (SELECT 1 AS x)")
	for i := 1; i <= 14; i++ {
		fmt.Fprintf(&b, ", c%d AS (SELECT x FROM c%d UNION ALL SELECT x FROM c%d)", i, i-1, i-1)
	}
	b.WriteString(" SELECT * FROM c14)")
	var err error
	if bytes := allocated(func() { _, err = e.Execute(testContext(t), b.String()) }); bytes > 200<<20 {
		t.Errorf("planning allocated %d MB", bytes>>20)
	}
	if err == nil || !strings.Contains(err.Error(), "SQL validation error at line 2, column ") || !strings.Contains(err.Error(), "views and WITH queries expand to more than 10000 queries") {
		t.Errorf("error %v", err)
	}
}

// TestSinkParallelismMustMatch: 'sink.parallelism' is not applied yet, so
// a value other than the job's parallelism is refused at INSERT, naming
// the option, rather than ignored.
func TestSinkParallelismMustMatch(t *testing.T) {
	e := newEngine(t)
	e.SetOutput(io.Discard, io.Discard)
	mustExecute(t, e, `
CREATE TABLE g (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE p3 (a INT) WITH ('connector' = 'print', 'sink.parallelism' = '3');
CREATE TABLE p1 (a INT) WITH ('connector' = 'print', 'sink.parallelism' = '1');`)
	_, err := e.Execute(testContext(t), "INSERT INTO p3 SELECT a FROM g;")
	if err == nil || !strings.Contains(err.Error(), "table 'p3': 'sink.parallelism' = '3' differs from the job's parallelism 1, which is not supported yet") {
		t.Fatalf("got %v", err)
	}
	mustExecute(t, e, "INSERT INTO p1 SELECT a FROM g;")
}
