package sluice

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/types"
)

// TestExplainIdleTimeout: with table.exec.source.idle-timeout set, a Kafka
// scan's watermark shows it, as Flink's WatermarkPushDownSpec digest does
// (PushWatermarkIntoTableSourceScanRuleTest.xml,
// testWatermarkWithIdleSource: idletimeout=[1000]).
func TestExplainIdleTimeout(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, errorCatalog)
	const digest = "watermark=[-(ts, 5000:INTERVAL SECOND)]%s, watermarkEmitStrategy=[on-periodic]"
	for _, c := range []struct{ timeout, want string }{
		{"0 ms", fmt.Sprintf(digest, "")},
		{"1 s", fmt.Sprintf(digest, ", idletimeout=[1000]")},
	} {
		mustExecute(t, e, "SET 'table.exec.source.idle-timeout' = '"+c.timeout+"'")
		if text := mustExecute(t, e, "EXPLAIN SELECT customer FROM orders")[0].Text; !strings.Contains(text, c.want) {
			t.Errorf("with an idle timeout of %s, EXPLAIN printed\n%s\nwith no %s", c.timeout, text, c.want)
		}
	}
}

// TestExplainBatchHasNoWatermark: a batch job's optimized plans have no
// watermark, as Flink's batch optimizer keeps none (its batch physical
// plans have no WatermarkAssigner), while a streaming job's do.
func TestExplainBatchHasNoWatermark(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, "CREATE TABLE o (a INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen', 'number-of-rows' = '10')")
	for _, mode := range []string{"streaming", "batch"} {
		mustExecute(t, e, "SET 'execution.runtime-mode' = '"+mode+"'")
		text := mustExecute(t, e, "EXPLAIN SELECT a FROM o")[0].Text
		_, plans, _ := strings.Cut(text, "== Optimized Physical Plan ==")
		if got := strings.Contains(plans, "WatermarkAssigner"); got != (mode == "streaming") {
			t.Errorf("in %s mode EXPLAIN printed\n%s", mode, text)
		}
	}
}

// TestExplainSections: EXPLAIN prints Flink's sections, the abstract
// syntax tree, the optimized physical plan and the optimized execution
// plan (Flink's testExecuteSqlWithExplainDetailsInsert.out); CHANGELOG_MODE adds each
// physical node's changelog mode and changes nothing else; with
// JSON_EXECUTION_PLAN the execution plan's JSON follows after Flink's
// "== Physical Execution Plan ==" and reads back.
func TestExplainSections(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, errorCatalog)
	const insert = "INSERT INTO prices SELECT customer, SUM(amount), MAX(ts) FROM orders GROUP BY customer"
	plain := mustExecute(t, e, "EXPLAIN "+insert)[0].Text
	tree, rest, ok := strings.Cut(plain, "\n\n== Optimized Physical Plan ==\n")
	physical, execution, ok2 := strings.Cut("== Optimized Physical Plan ==\n"+rest, "\n\n== Optimized Execution Plan ==\n")
	if !ok || !ok2 || !strings.HasPrefix(physical, "== Optimized Physical Plan ==\nSink(") || strings.Contains(plain, "changelogMode") {
		t.Fatalf("EXPLAIN printed\n%s", plain)
	}
	if want := `== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.prices], fields=[customer, EXPR$1, EXPR$2])
+- LogicalAggregate(group=[{0}], EXPR$1=[SUM($1)], EXPR$2=[MAX($2)])
   +- LogicalProject(customer=[$1], amount=[$2], ts=[$3])
      +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($3, 5000:INTERVAL SECOND)])
         +- LogicalTableScan(table=[[default_catalog, default_database, orders]])`; tree != want {
		t.Errorf("the abstract syntax tree is\n%s\nnot\n%s", tree, want)
	}
	if want := `Sink(table=[default_catalog.default_database.prices], fields=[item, price, ts])
+- Exchange(distribution=[hash[item]])
   +- Calc(select=[customer AS item, EXPR$1 AS price, EXPR$2 AS ts])
      +- GroupAggregate(groupBy=[customer], select=[customer, SUM(amount) AS EXPR$1, MAX(ts) AS EXPR$2])
         +- Exchange(distribution=[hash[customer]])
            +- TableSourceScan(table=[[default_catalog, default_database, orders, project=[customer, amount, ts], metadata=[], watermark=[-(ts, 5000:INTERVAL SECOND)], watermarkEmitStrategy=[on-periodic]]], fields=[customer, amount, ts])
`; execution != want {
		t.Errorf("the execution plan is\n%s\nnot\n%s", execution, want)
	}
	modes := mustExecute(t, e, "EXPLAIN CHANGELOG_MODE "+insert)[0].Text
	if n := strings.Count(modes, "changelogMode="); n != strings.Count(physical, "\n") {
		t.Errorf("%d changelog modes in\n%s", n, modes)
	}
	if stripped := regexp.MustCompile(`, changelogMode=\[[A-Z,]+\]`).ReplaceAllString(modes, ""); stripped != plain {
		t.Errorf("EXPLAIN CHANGELOG_MODE printed\n%s\nnot, but for the modes,\n%s", modes, plain)
	}
	text := mustExecute(t, e, "EXPLAIN CHANGELOG_MODE, JSON_EXECUTION_PLAN "+insert)[0].Text
	before, js, ok := strings.Cut(text, "\n== Physical Execution Plan ==\n")
	if !ok || before != modes {
		t.Fatalf("EXPLAIN JSON_EXECUTION_PLAN printed\n%s", text)
	}
	p, err := plan.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, n := range p.Nodes {
		kinds = append(kinds, n.Kind)
	}
	if want := []string{"TableSourceScan", "Calc", "GroupAggregate", "Calc", "Sink"}; !slices.Equal(kinds, want) {
		t.Errorf("node kinds %v, want %v", kinds, want)
	}
	if p.Configuration[ConfTimeZone] != "default" {
		t.Errorf("configuration %v", p.Configuration)
	}
}

// TestExplainStatementSetTree: a statement set's Abstract Syntax Tree has
// its sinks' trees, a blank line between them, as Flink's
// testStatementSet.out.
func TestExplainStatementSetTree(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, `CREATE TABLE MyTable (`+"`first`"+` STRING, id INT, score INT, `+"`last`"+` STRING) WITH ('connector' = 'datagen');
CREATE TABLE MySink1 (`+"`first`"+` STRING) WITH ('connector' = 'blackhole');
CREATE TABLE MySink2 (`+"`last`"+` STRING) WITH ('connector' = 'blackhole');`)
	text := mustExecute(t, e, `EXPLAIN STATEMENT SET BEGIN
INSERT INTO MySink1 SELECT `+"`first`"+` FROM MyTable;
INSERT INTO MySink2 SELECT `+"`last`"+` FROM MyTable;
END`)[0].Text
	want := `== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.MySink1], fields=[first])
+- LogicalProject(first=[$0])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])

LogicalSink(table=[default_catalog.default_database.MySink2], fields=[last])
+- LogicalProject(last=[$3])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])

== Optimized Physical Plan ==
`
	if !strings.HasPrefix(text, want) {
		t.Errorf("EXPLAIN printed\n%s\nnot first\n%s", text, want)
	}
}

// TestCompileAndExecutePlan: COMPILE PLAN writes an INSERT's or statement
// set's plan, and EXECUTE PLAN in another session, whose catalog has none
// of the plan's tables, runs it: one job, writing what the
// statements would. An existing file is kept (IF NOT EXISTS), refused, or
// overwritten with table.plan.force-recompile, as in Flink.
func TestCompileAndExecutePlan(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	ctx := testContext(t)
	dir := t.TempDir()
	bounded := func(name, columns, topic string) string {
		return strings.Replace(kafkaTable(name, columns, topic, brokers, "json"),
			"'scan.startup.mode' = 'earliest-offset',", "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',", 1)
	}
	tables := bounded("orders", "id INT, customer STRING, amount INT", "orders") +
		bounded("big", "id INT, customer STRING", "big") +
		bounded("small", "id INT", "small")
	e := newEngine(t)
	mustExecute(t, e, tables+"INSERT INTO orders VALUES (1, 'alice', 50), (2, 'bob', 5), (3, 'carol', 70);")
	if err := e.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(dir, "plans", "one.json")
	set := filepath.Join(dir, "set.json")
	mustExecute(t, e, `COMPILE PLAN '`+one+`' FOR INSERT INTO big SELECT id, UPPER(customer) FROM orders WHERE amount > 10;
COMPILE PLAN 'file://`+set+`' FOR STATEMENT SET BEGIN
  INSERT INTO big SELECT id, customer FROM orders WHERE amount > 60;
  INSERT INTO small SELECT id FROM orders WHERE amount < 10;
END;`)
	written, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}

	// The file is there: IF NOT EXISTS keeps it, plain COMPILE PLAN refuses
	// to overwrite it unless forced.
	mustExecute(t, e, `COMPILE PLAN '`+one+`' IF NOT EXISTS FOR INSERT INTO small SELECT id FROM orders;`)
	if again, _ := os.ReadFile(one); string(again) != string(written) {
		t.Error("COMPILE PLAN ... IF NOT EXISTS changed the existing file")
	}
	_, err = e.Execute(ctx, `COMPILE PLAN '`+one+`' FOR INSERT INTO small SELECT id FROM orders;`)
	if want := "Cannot overwrite the plan file '" + one + "'. Either manually remove the file or, if you're debugging your job, set the option 'table.plan.force-recompile' to true."; err == nil || err.Error() != want {
		t.Errorf("overwriting: error %v, want %q", err, want)
	}
	forced := filepath.Join(dir, "forced.json")
	mustExecute(t, e, `COMPILE PLAN '`+forced+`' FOR INSERT INTO small SELECT id FROM orders;
SET 'table.plan.force-recompile' = 'true';
COMPILE PLAN '`+forced+`' FOR INSERT INTO big SELECT id, customer FROM orders;`)
	if f, _ := os.ReadFile(forced); !strings.Contains(string(f), `"name": "big"`) {
		t.Error("table.plan.force-recompile did not overwrite the plan")
	}

	// Another session runs the plans from the files alone.
	runner := newEngine(t)
	res := mustExecute(t, runner, `EXECUTE PLAN '`+one+`'; EXECUTE PLAN 'file://`+set+`';`)
	if jobs := runner.Jobs(); res[0].JobID == "" || len(jobs) != 2 || res[1].JobID != jobs[1].ID {
		t.Errorf("jobs started: %q and %q", res[0].JobID, res[1].JobID)
	}
	if err := runner.WaitJobs(ctx); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, j := range runner.Jobs() {
		names = append(names, j.Name+" "+j.Status())
	}
	want := []string{"insert-into_default_catalog.default_database.big FINISHED",
		"insert-into_default_catalog.default_database.big,default_catalog.default_database.small FINISHED"}
	sort.Strings(names)
	if !slices.Equal(names, want) {
		t.Errorf("jobs %v, want %v", names, want)
	}
	for table, want := range map[string][]string{
		"big":   {"+I[1, ALICE]", "+I[3, CAROL]", "+I[3, carol]"},
		"small": {"+I[2]"},
	} {
		stream := mustExecute(t, e, "SELECT * FROM "+table)[0].Stream
		if err := e.WaitQuiet(ctx, stream); err != nil {
			t.Fatal(err)
		}
		got := changelog(stream, stream.Drain())
		stream.Close()
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s holds %v, want %v", table, got, want)
		}
	}
}

// TestCompileAndExecutePlanStatement: COMPILE AND EXECUTE PLAN writes the
// plan and runs it; when the file exists it runs the file as it is.
func TestCompileAndExecutePlanStatement(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	ctx := testContext(t)
	file := filepath.Join(t.TempDir(), "p.json")
	e := newEngine(t)
	mustExecute(t, e, kafkaTable("src", "x INT", "src", brokers, "json")+kafkaTable("dst", "x INT", "dst", brokers, "json")+
		kafkaTable("other", "x INT", "other", brokers, "json"))
	res := mustExecute(t, e, `COMPILE AND EXECUTE PLAN '`+file+`' FOR INSERT INTO dst SELECT x * 2 FROM src;
COMPILE AND EXECUTE PLAN '`+file+`' FOR INSERT INTO other SELECT x FROM src;
INSERT INTO src VALUES (1), (2);`)
	if res[0].Kind != ResultJob || res[1].Kind != ResultJob {
		t.Fatalf("results %+v, %+v", res[0], res[1])
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatal(err)
	}
	// Both jobs ran the first plan: the second statement's file existed.
	for _, j := range e.Jobs()[:2] {
		if j.Name != "insert-into_default_catalog.default_database.dst" {
			t.Errorf("job %s writes %s", j.ID, j.Name)
		}
	}
	stream := mustExecute(t, e, "SELECT * FROM dst")[0].Stream
	t.Cleanup(stream.Close)
	if err := e.WaitQuiet(ctx, stream); err != nil {
		t.Fatal(err)
	}
	got := changelog(stream, stream.Drain())
	sort.Strings(got)
	if want := []string{"+I[2]", "+I[2]", "+I[4]", "+I[4]"}; !slices.Equal(got, want) {
		t.Errorf("dst holds %v, want %v", got, want)
	}
}

// TestPlanStatementErrors: COMPILE PLAN refuses a query with Flink's
// message and other file systems by name; EXECUTE PLAN names the node and
// field of a plan it cannot run (an unknown kind, a table that does not
// take what is written into it), and a file it cannot read.
func TestPlanStatementErrors(t *testing.T) {
	ctx := testContext(t)
	dir := t.TempDir()
	e := newEngine(t)
	mustExecute(t, e, errorCatalog)
	good := filepath.Join(dir, "good.json")
	mustExecute(t, e, "COMPILE PLAN '"+good+"' FOR INSERT INTO customers_seen SELECT customer FROM orders")
	text, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Decode(text)
	if err != nil {
		t.Fatal(err)
	}
	calc := p.Nodes[1]
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(strings.Replace(string(text), `"kind": "Calc"`, `"kind": "Calculator"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	sink := p.Nodes[len(p.Nodes)-1]
	sink.Config.(*plan.SinkConfig).Table.Columns[0].Type = plan.Type(types.IntType)
	retyped, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	mismatch := filepath.Join(dir, "mismatch.json")
	if err := os.WriteFile(mismatch, retyped, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ sql, want string }{
		{"EXECUTE PLAN '" + mismatch + "'",
			"plan file '" + mismatch + "': node '" + sink.ID + "' (Sink): inputs[0]: column 0 is STRING, the table takes INT"},
		{"COMPILE PLAN '" + filepath.Join(dir, "q.json") + "' FOR SELECT * FROM orders",
			"SQL validation error at line 1, column "},
		{"COMPILE PLAN 's3://bucket/p.json' FOR INSERT INTO customers_seen SELECT customer FROM orders",
			"plan file 's3://bucket/p.json': the file system 's3' is not supported; use a local path or a file:// URI"},
		{"EXECUTE PLAN '" + bad + "'",
			"plan file '" + bad + "': malformed plan: node '" + calc.ID + "': kind: unknown node kind 'Calculator'"},
		{"EXECUTE PLAN '" + filepath.Join(dir, "missing.json") + "'",
			"cannot read the plan file '" + filepath.Join(dir, "missing.json") + "'"},
	} {
		_, err := e.Execute(ctx, tc.sql)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.sql, err, tc.want)
		}
	}
	_, err = e.Execute(ctx, "COMPILE PLAN 'q.json' FOR SELECT * FROM orders")
	var se *StatementError
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "column 27: Unsupported SQL query! compilePlanSql() only accepts a single SQL statement of type INSERT") {
		t.Errorf("COMPILE PLAN of a query: %v", err)
	}
	if _, err := os.Stat("q.json"); err == nil {
		t.Error("a plan was written for a query")
	}
}

// TestDeepExpressionThroughPlan: an expression as deep as the parser
// allows goes through a plan's JSON (written as a chain, see plan.Expr)
// and runs from it.
func TestDeepExpressionThroughPlan(t *testing.T) {
	e := newEngine(t)
	e.SetPlanRoundTrip(true)
	q := "SELECT x" + strings.Repeat(" + x", 9000) + " FROM (VALUES (1)) AS t(x)"
	if got := collect(t, e, q); !slices.Equal(got, []string{"+I[9001]"}) {
		t.Errorf("9,001 ones sum to %v", got)
	}
	text := mustExecute(t, e, "EXPLAIN JSON_EXECUTION_PLAN "+q)[0].Text
	_, js, _ := strings.Cut(text, "== Physical Execution Plan ==\n")
	if _, err := plan.Decode([]byte(js)); err != nil {
		t.Error(err)
	}
}

// TestBatchJobDoesNotStartFromASavepoint: a job in batch mode takes no
// checkpoints and does not start from one either: with
// execution.savepoint.path set, its INSERT is refused naming the setting,
// rather than running its operators from a streaming job's state.
func TestBatchJobDoesNotStartFromASavepoint(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, "SET 'state.savepoints.dir' = '"+t.TempDir()+"';\n"+
		"CREATE TABLE src (a INT) WITH ('connector' = 'datagen', 'rows-per-second' = '10');\n"+
		"CREATE TABLE bounded (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');\n"+
		"CREATE TABLE sink (a INT) WITH ('connector' = 'blackhole');")
	res := mustExecute(t, e, "INSERT INTO sink SELECT a FROM src;")
	res = mustExecute(t, e, "STOP JOB '"+res[0].JobID+"' WITH SAVEPOINT;")
	path := res[0].Rows[0][0]
	mustExecute(t, e, "SET 'execution.runtime-mode' = 'batch';\nSET 'execution.savepoint.path' = '"+path+"';")
	const want = "'execution.savepoint.path' is set: a job in batch mode does not start from a savepoint"
	if _, err := e.Execute(testContext(t), "INSERT INTO sink SELECT a FROM bounded;"); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("a batch INSERT with a savepoint path: %v, want %q", err, want)
	}
	mustExecute(t, e, "RESET 'execution.savepoint.path';\nINSERT INTO sink SELECT a FROM bounded;")
}
