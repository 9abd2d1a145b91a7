package sluice

import (
	"fmt"
	"strings"
	"testing"
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
	for _, tc := range []struct{ stmt, err string }{
		{"INSERT INTO out_a SELECT a FROM three;", ""},
		{"INSERT INTO out_b SELECT nope FROM five;", "Column 'nope' not found"},
		{"BEGIN STATEMENT SET;", "Only INSERT statement is allowed in Statement Set."},
		{"SELECT * FROM three;", "Only INSERT statement is allowed in Statement Set."},
		{"CREATE TABLE x (a INT) WITH ('connector' = 'blackhole');", "Only INSERT statement is allowed in Statement Set."},
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
	if _, err := e.Execute(ctx, "END;"); err == nil || err.Error() != `No Statement Set to submit, "END;" command should be used after "BEGIN STATEMENT SET;".` {
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
