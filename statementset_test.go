package sluice

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// setCatalog declares two bounded sources and two Kafka tables on cluster
// brokers, read to their current end.
func setCatalog(brokers string) string {
	bounded := func(name, topic string) string {
		return strings.Replace(kafkaTable(name, "a BIGINT", topic, brokers, "json"),
			"'scan.startup.mode' = 'earliest-offset',", "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',", 1)
	}
	return `CREATE TABLE three (a BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE five (a BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
` + bounded("out_a", "set-a") + bounded("out_b", "set-b")
}

// TestStatementSetIsOneJob: BEGIN STATEMENT SET collects INSERTs one by
// one, each checked on its own (a bad one is refused, the set kept);
// other statements are refused within it; END runs the set as one job
// named after its sinks, as Flink's TableEnvironmentImpl names it, and
// with table.dml-sync returns when the job has finished (Flink's
// statement_set.q).
func TestStatementSetIsOneJob(t *testing.T) {
	cluster := startCluster(t)
	e := newEngine(t)
	mustExecute(t, e, setCatalog(cluster.BootstrapServers())+"SET 'table.dml-sync' = 'true';\nBEGIN STATEMENT SET;")
	if !e.InStatementSet() {
		t.Fatal("BEGIN STATEMENT SET opened no set")
	}
	ctx := testContext(t)
	const onlyInsert = "Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' statement to submit Statement Set."
	for _, tc := range []struct{ stmt, err string }{
		{"INSERT INTO out_a SELECT a FROM three;", ""},
		{"INSERT INTO out_b SELECT nope FROM five;", "Column 'nope' not found"},
		{"BEGIN STATEMENT SET;", onlyInsert},
		{"SELECT * FROM three;", onlyInsert},
		{"CREATE TABLE x (a INT) WITH ('connector' = 'blackhole');", onlyInsert},
		{"CREATE TABLE x WITH ('connector' = 'blackhole') AS SELECT a FROM three;", "CREATE TABLE AS in a statement set is not supported"},
		{"INSERT INTO out_b SELECT a FROM five;", ""},
		{"INSERT INTO out_b SELECT a + 100 FROM three;", ""},
	} {
		res, err := e.Execute(ctx, tc.stmt)
		switch {
		case tc.err == "" && err != nil:
			t.Fatalf("%s: %v", tc.stmt, err)
		case tc.err == "" && res[0].Kind != ResultOK:
			t.Fatalf("%s: result kind %v, want the INSERT added to the set", tc.stmt, res[0].Kind)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Fatalf("%s: error %v, want %q", tc.stmt, err, tc.err)
		}
	}
	if n := len(e.Jobs()); n != 0 {
		t.Fatalf("%d jobs before END", n)
	}
	res := mustExecute(t, e, "END;")
	jobs := e.Jobs()
	if len(jobs) != 1 || res[0].Kind != ResultJob || res[0].JobID != jobs[0].ID {
		t.Fatalf("END started %d jobs (result %+v), want one", len(jobs), res[0])
	}
	j := jobs[0]
	if want := "insert-into_default_catalog.default_database.out_a,default_catalog.default_database.out_b_1,default_catalog.default_database.out_b_2"; j.Name != want {
		t.Errorf("job name %q, want %q", j.Name, want)
	}
	if !strings.HasPrefix(j.Statement, "EXECUTE STATEMENT SET BEGIN\nINSERT INTO out_a SELECT a FROM three;\nINSERT INTO out_b SELECT a FROM five;\n") {
		t.Errorf("job statement %q", j.Statement)
	}
	// table.dml-sync: END returned when the job had finished.
	if st := j.Status(); st != "FINISHED" {
		t.Errorf("after END the job is %s, want FINISHED", st)
	}
	if got := collect(t, e, "SELECT COUNT(*) FROM out_a"); got[len(got)-1] != "+U[3]" {
		t.Errorf("out_a: %v", got)
	}
	if got := collect(t, e, "SELECT COUNT(*) FROM out_b"); got[len(got)-1] != "+U[8]" {
		t.Errorf("out_b: %v", got)
	}
	// The set is closed: END again is Flink's error.
	if _, err := e.Execute(ctx, "END;"); err == nil || err.Error() != "No Statement Set to submit. 'END' statement should be used after 'BEGIN STATEMENT SET'." {
		t.Errorf("END outside a set: %v", err)
	}
}

// TestEmptyStatementSet: END of an empty set submits nothing (Flink's
// client: "No statement in the statement set, skip submit."), and
// EXECUTE STATEMENT SET without an INSERT is a syntax error, as Flink's
// grammar wants one or more.
func TestEmptyStatementSet(t *testing.T) {
	e := newEngine(t)
	res := mustExecute(t, e, "BEGIN STATEMENT SET;\nEND;")
	if res[1].Kind != ResultOK || len(e.Jobs()) != 0 || e.InStatementSet() {
		t.Fatalf("an empty set gave %+v and %d jobs", res[1], len(e.Jobs()))
	}
	if _, err := e.Execute(testContext(t), "EXECUTE STATEMENT SET BEGIN END;"); err == nil || !strings.Contains(err.Error(), "expected INSERT, found 'END'") {
		t.Errorf("empty EXECUTE STATEMENT SET: %v", err)
	}
}

// TestExecuteStatementSetIsOneJob: EXECUTE STATEMENT SET runs one job,
// named by pipeline.name when it is set; EXPLAIN STATEMENT SET shows the
// plan of every sink.
func TestExecuteStatementSetIsOneJob(t *testing.T) {
	cluster := startCluster(t)
	e := newEngine(t)
	mustExecute(t, e, setCatalog(cluster.BootstrapServers())+"SET 'pipeline.name' = 'both';")
	set := `STATEMENT SET BEGIN
INSERT INTO out_a SELECT a FROM three;
INSERT INTO out_b SELECT a FROM five;
END;`
	res := mustExecute(t, e, "EXPLAIN "+set)
	text := res[0].Text
	for _, want := range []string{"Sink(table=[default_catalog.default_database.out_a]", "\n\nSink(table=[default_catalog.default_database.out_b]"} {
		if !strings.Contains(text, want) {
			t.Errorf("EXPLAIN STATEMENT SET lacks %q:\n%s", want, text)
		}
	}
	res = mustExecute(t, e, "EXECUTE "+set)
	if jobs := e.Jobs(); len(jobs) != 1 || jobs[0].Name != "both" || res[0].JobID != jobs[0].ID {
		t.Fatalf("EXECUTE STATEMENT SET started %d jobs, result %+v", len(jobs), res[0])
	}
	if err := e.WaitJobs(testContext(t)); err != nil {
		t.Fatal(err)
	}
	got := collect(t, e, "SELECT COUNT(*) FROM out_b")
	if fmt.Sprint(got[len(got)-1]) != "+U[5]" {
		t.Errorf("out_b: %v", got)
	}
}

// TestStatementSetJobRecovers: the job store records a statement set's
// job as one job with every sink in its plan and the set as its
// statement; the next engine on the data directory resumes it whole.
func TestStatementSetJobRecovers(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	dir := t.TempDir()
	ctx := testContext(t)
	ddl := kafkaTable("clicks", "a BIGINT", "set-clicks", brokers, "json") + setCatalog(brokers)

	e1 := NewEngine()
	if err := e1.SetDataDir(dir); err != nil {
		t.Fatal(err)
	}
	mustExecute(t, e1, ddl+`INSERT INTO clicks VALUES (1), (2), (3);
BEGIN STATEMENT SET;
INSERT INTO out_a SELECT a FROM clicks;
INSERT INTO out_b SELECT a * 10 FROM clicks;
END;`)
	if err := e1.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	set := e1.Jobs()[1]
	e1.Close()

	e0 := newEngine(t)
	mustExecute(t, e0, ddl+"INSERT INTO clicks VALUES (4), (5);")
	if err := e0.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}

	e2 := newEngine(t)
	if err := e2.SetDataDir(dir); err != nil {
		t.Fatal(err)
	}
	jobs, err := e2.Recover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 1 || jobs[0].ID != set.ID || jobs[0].Name != set.Name || jobs[0].Statement != set.Statement {
		t.Fatalf("recovered %v, want the set's job %s (%s)", jobs, set.ID, set.Name)
	}
	if err := e2.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	mustExecute(t, e2, ddl)
	for table, want := range map[string]string{"out_a": "+U[5, 15]", "out_b": "+U[5, 150]"} {
		if got := collect(t, e2, "SELECT COUNT(*), SUM(a) FROM "+table); got[len(got)-1] != want {
			t.Errorf("%s after the recovery: %v, want %s last", table, got, want)
		}
	}
}

// TestDMLSyncAndPipelineName: with table.dml-sync an INSERT returns when
// its job has finished, and its job has the name pipeline.name gives it
// (SHOW JOBS); an INSERT whose job never ends is cancelled when the
// statement's context ends, as Flink cancels it when the wait is
// interrupted.
func TestDMLSyncAndPipelineName(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, `CREATE TABLE three (a BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE forever (a BIGINT) WITH ('connector' = 'datagen');
CREATE TABLE bh (a BIGINT) WITH ('connector' = 'blackhole');
SET 'table.dml-sync' = 'true';
SET 'pipeline.name' = 'three rows';`)
	res := mustExecute(t, e, "INSERT INTO bh SELECT a FROM three;")
	j := e.Jobs()[0]
	if res[0].JobID != j.ID || j.Status() != "FINISHED" || j.Name != "three rows" {
		t.Fatalf("the INSERT returned %+v with its job %s %s", res[0], j.Name, j.Status())
	}
	show := mustExecute(t, e, "SHOW JOBS;")[0]
	if len(show.Rows) != 1 || show.Rows[0][1] != "three rows" || show.Rows[0][2] != "FINISHED" {
		t.Errorf("SHOW JOBS: %v", show.Rows)
	}
	// DESCRIBE JOB (Flink 2.0) is the job's row of SHOW JOBS.
	desc := mustExecute(t, e, "DESCRIBE JOB '"+j.ID+"';")[0]
	if !slices.Equal(desc.Headers, show.Headers) || len(desc.Rows) != 1 || !slices.Equal(desc.Rows[0], show.Rows[0]) {
		t.Errorf("DESCRIBE JOB: %v %v, want %v %v", desc.Headers, desc.Rows, show.Headers, show.Rows)
	}
	if _, err := e.Execute(testContext(t), "DESCRIBE JOB 'nosuch';"); err == nil || !strings.HasPrefix(err.Error(), "SQL validation error at line 1, column 14: could not describe job 'nosuch': no such job") {
		t.Errorf("DESCRIBE JOB of no job: %v", err)
	}

	ctx, cancel := context.WithCancel(testContext(t))
	done := make(chan error, 1)
	go func() {
		_, err := e.Execute(ctx, "INSERT INTO bh SELECT a FROM forever;")
		done <- err
	}()
	// Cancel once the job runs: the INSERT is waiting for it.
	for len(e.Jobs()) < 2 {
		select {
		case err := <-done:
			t.Fatalf("the INSERT of an unbounded job returned: %v", err)
		case <-time.After(time.Millisecond):
		}
	}
	cancel()
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "Fail to wait execution finish: job") || !strings.Contains(err.Error(), "was cancelled") {
		t.Fatalf("the interrupted INSERT: %v", err)
	}
	if st := e.Jobs()[1].Status(); st != "CANCELED" {
		t.Errorf("the interrupted INSERT's job is %s, want CANCELED", st)
	}
}

// TestStatementSetAcrossStatementSettings: a statement run with settings
// of its own (the SQL Gateway's executionConfig) belongs to the session's
// statement set like any other.
func TestStatementSetAcrossStatementSettings(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, `CREATE TABLE three (a BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE bh (a BIGINT) WITH ('connector' = 'blackhole');
BEGIN STATEMENT SET;`)
	one, err := e.WithSettings(map[string]string{"parallelism.default": "2"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := one.Execute(testContext(t), "INSERT INTO bh SELECT a FROM three;")
	if err != nil || res[0].Kind != ResultOK || len(e.Jobs()) != 0 {
		t.Fatalf("the INSERT with settings of its own: %v, %v, %d jobs", res, err, len(e.Jobs()))
	}
	mustExecute(t, e, "END;")
	if jobs := e.Jobs(); len(jobs) != 1 || one.InStatementSet() {
		t.Fatalf("END started %d jobs", len(jobs))
	}
}
