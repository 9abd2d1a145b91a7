package client

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/types"
)

// runScriptOutput runs script as sql-client.sh -f does on a fresh engine
// and returns what it printed, after the first line.
func runScriptOutput(t *testing.T, script string) (string, bool) {
	t.Helper()
	e := sluice.NewEngine()
	t.Cleanup(e.Close)
	return runScriptOn(&Embedded{Engine: e}, script)
}

// runScriptOn runs script as sql-client.sh -f does on b and returns what
// it printed, after the first line.
func runScriptOn(b Backend, script string) (string, bool) {
	out := newOutput()
	c := &Client{Backend: b, Out: out}
	ok := c.RunScript(context.Background(), script)
	got, _ := out.snapshot()
	return strings.TrimPrefix(got, "[INFO] Executing SQL from file.\n"), ok
}

// TestStatementSetFeedback: in BEGIN STATEMENT SET ... END every
// statement gets Flink's feedback of its own (statement_set.q): an
// INSERT is added, END submits one job and waits for it with
// table.dml-sync, END outside a set is refused (in a script, the script
// stops there, as Flink's); an empty set submits nothing. The same on the
// embedded engine and on a SQL Gateway session.
func TestStatementSetFeedback(t *testing.T) {
	e := sluice.NewEngine()
	t.Cleanup(e.Close)
	g := startGateway(t, "").open(t, "")
	t.Cleanup(func() { _ = g.Close() })
	for name, b := range map[string]Backend{"embedded": &Embedded{Engine: e}, "gateway": g} {
		t.Run(name, func(t *testing.T) { statementSetFeedback(t, b) })
	}
}

func statementSetFeedback(t *testing.T, b Backend) {
	got, ok := runScriptOn(b, `CREATE TABLE src (a BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE snk (a BIGINT) WITH ('connector' = 'blackhole');
SET 'table.dml-sync' = 'true';
BEGIN STATEMENT SET;
INSERT INTO snk SELECT a FROM src;
INSERT INTO snk SELECT a + 1 FROM src;
END;
END;
`)
	want := fmt.Sprintf(`%[1]sCREATE TABLE src (a BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
[INFO] Execute statement succeed.

%[1]sCREATE TABLE snk (a BIGINT) WITH ('connector' = 'blackhole');
[INFO] Execute statement succeed.

%[1]sSET 'table.dml-sync' = 'true';
[INFO] Execute statement succeed.

%[1]sBEGIN STATEMENT SET;
[INFO] Execute statement succeed.

%[1]sINSERT INTO snk SELECT a FROM src;
[INFO] Execute statement succeed.

%[1]sINSERT INTO snk SELECT a + 1 FROM src;
[INFO] Execute statement succeed.

%[1]sEND;
[INFO] Complete execution of the SQL update statement.

%[1]sEND;
[ERROR] Could not execute SQL statement. Reason:
No Statement Set to submit. 'END' statement should be used after 'BEGIN STATEMENT SET'.

`, prompt)
	if ok || got != want {
		t.Errorf("printed (ok %v)\n%s\nwant\n%s", ok, got, want)
	}

	got, ok = runScriptOn(b, "BEGIN STATEMENT SET;\nEND;\n")
	if want := fmt.Sprintf("%[1]sBEGIN STATEMENT SET;\n[INFO] Execute statement succeed.\n\n%[1]sEND;\n[INFO] Execute statement succeed.\n\n", prompt); !ok || got != want {
		t.Errorf("an empty set printed\n%s\nwant\n%s", got, want)
	}
}

// TestStatementSetKeepsGoodInserts: interactively, an INSERT with an
// error and a statement that is no INSERT are answered with an error
// each, and END runs the INSERTs that were added, as one job.
func TestStatementSetKeepsGoodInserts(t *testing.T) {
	s := newSession(t, true)
	s.runOK("CREATE TABLE src (a BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');", "[INFO] Execute statement succeed.\n")
	s.runOK("CREATE TABLE snk (a BIGINT) WITH ('connector' = 'blackhole');", "[INFO] Execute statement succeed.\n")
	s.runOK("BEGIN STATEMENT SET;", "[INFO] Execute statement succeed.\n")
	s.runOK("INSERT INTO snk SELECT a FROM src;", "[INFO] Execute statement succeed.\n")
	if got := s.run("INSERT INTO snk SELECT nope FROM src;"); !strings.Contains(got, "Column 'nope' not found") {
		t.Errorf("a bad INSERT printed %q", got)
	}
	s.runOK("SHOW TABLES;", "[ERROR] Could not execute SQL statement. Reason:\nOnly 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' statement to submit Statement Set.\n")
	s.runOK("INSERT INTO snk SELECT a * 2 FROM src;", "[INFO] Execute statement succeed.\n")
	if got := s.run("END;"); !jobSubmitted.MatchString(strings.TrimSuffix(got, prompt)) {
		t.Errorf("END printed %q", got)
	}
	if jobs := s.engine.Jobs(); len(jobs) != 1 || !strings.Contains(jobs[0].Statement, "SELECT a * 2") || strings.Contains(jobs[0].Statement, "nope") {
		t.Errorf("END started %d jobs", len(jobs))
	}
}

// TestSettingsTheClientHonours: a key Sluice does not know is kept with a
// warning naming the closest known key; the column width, the time cost
// and the verbose error settings change what the client prints.
func TestSettingsTheClientHonours(t *testing.T) {
	got, ok := runScriptOutput(t, `SET 'table.dml-snyc' = 'true';
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.display.max-column-width' = '8';
SET 'sql-client.display.print-time-cost' = 'true';
SELECT s FROM (VALUES ('abcdefghijkl')) AS v(s);
`)
	if !ok {
		t.Fatalf("the script failed:\n%s", got)
	}
	for _, want := range []string{
		"[INFO] Execute statement succeed.\n[WARNING] 'table.dml-snyc' is not a setting Sluice knows: it is kept, as Flink keeps any key, but changes nothing. Did you mean 'table.dml-sync'?\n",
		"| +I | abcde... |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("printed\n%s\nwithout\n%s", got, want)
		}
	}
	if !regexp.MustCompile(`\nReceived a total of 1 row \(\d+\.\d\d seconds\)\n`).MatchString(got) {
		t.Errorf("no time cost after the rows:\n%s", got)
	}
}

// TestVerboseErrors: with sql-client.verbose an error is followed by the
// causes it wraps.
func TestVerboseErrors(t *testing.T) {
	err := fmt.Errorf("plan file 'p.json': %w", errors.Join(fmt.Errorf("node 'x': %w", errors.New("no builder"))))
	if got, want := causes(err), []string{"node 'x': no builder", "no builder"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("causes %q, want %q", got, want)
	}
	got, _ := runScriptOutput(t, "SET 'sql-client.verbose' = 'true';\nEXECUTE PLAN '/nonexistent/p.json';\n")
	if !strings.Contains(got, "Reason:\ncannot read the plan file '/nonexistent/p.json': open /nonexistent/p.json: no such file or directory\nCaused by: open /nonexistent/p.json: no such file or directory\n") {
		t.Errorf("printed\n%s", got)
	}
}

// TestTableViewKeepsMaxRows: the table result mode keeps at most
// sql-client.execution.max-table-result.rows rows, the oldest dropped
// first (Flink's MaterializedCollectStreamResult).
func TestTableViewKeepsMaxRows(t *testing.T) {
	out := newOutput()
	v := &tableView{c: &Client{Out: out}, header: []string{"a"}, table: materialized{maxRows: 2}}
	var changes []Change
	for _, a := range []string{"1", "2", "3"} {
		changes = append(changes, Change{Kind: types.Insert, Cells: []string{a}})
	}
	if err := v.add(changes); err != nil {
		t.Fatal(err)
	}
	if err := v.end(3, false); err != nil {
		t.Fatal(err)
	}
	want := "+---+\n| a |\n+---+\n| 2 |\n| 3 |\n+---+\n2 rows in set\n"
	if got, _ := out.snapshot(); got != want {
		t.Errorf("printed\n%s\nwant\n%s", got, want)
	}
}
