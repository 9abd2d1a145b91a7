package sluice

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// numbers declares a bounded datagen table called name whose column n
// counts from 1 to rows.
func numbers(name string, rows int) string {
	n := strconv.Itoa(rows)
	return "CREATE TABLE " + name + " (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '" + n +
		"', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '" + n + "')"
}

// rowsOf runs a bounded query on s and returns its rows in changelog form,
// sorted.
func rowsOf(t *testing.T, s *Session, query string) []string {
	t.Helper()
	ctx := testContext(t)
	res, err := s.Execute(ctx, query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	stream := res[0].Stream
	defer stream.Close()
	var out []string
	for {
		changes, ok, err := stream.Next(ctx)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		if !ok {
			break
		}
		out = append(out, changelog(stream, changes)...)
	}
	slices.Sort(out)
	return out
}

// shown returns the first column of what a SHOW statement lists on s.
func shown(t *testing.T, s *Session, show string) string {
	t.Helper()
	res, err := s.Execute(testContext(t), show)
	if err != nil {
		t.Fatalf("%s: %v", show, err)
	}
	var out []string
	for _, r := range res[0].Rows {
		out = append(out, r[0])
	}
	return strings.Join(out, ",")
}

// execute runs a script on s, failing the test on an error.
func execute(t *testing.T, s *Session, script string) {
	t.Helper()
	if _, err := s.Execute(testContext(t), script); err != nil {
		t.Fatalf("%s: %v", script, err)
	}
}

// TestDatabasesSurviveRestart: with a data directory (sluice sql
// -data-dir), the databases of default_catalog, their comments and
// properties, tables and views are back after a restart, views resolving
// their names where they were created; catalogs made by CREATE CATALOG
// (generic_in_memory, in memory as in Flink), temporary objects and the
// session's current database are not.
func TestDatabasesSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	open := func() *Engine {
		e := newEngine(t)
		if err := e.SetDataDir(dir); err != nil {
			t.Fatal(err)
		}
		if err := e.KeepCatalog(testContext(t), dir); err != nil {
			t.Fatal(err)
		}
		return e
	}
	e := open()
	execute(t, e.Session, "CREATE DATABASE db1 COMMENT 'first' WITH ('k' = 'v');"+
		"USE db1;"+numbers("t", 3)+";"+
		"CREATE VIEW v AS SELECT n * 10 AS n FROM t;"+
		"CREATE VIEW default_database.dv AS SELECT n FROM t WHERE n > 1;"+
		"ALTER DATABASE db1 SET ('k' = 'w', 'k2' = 'x');"+
		"CREATE DATABASE gone; DROP DATABASE gone;"+
		"CREATE CATALOG mem WITH ('type' = 'generic_in_memory');"+
		"CREATE DATABASE mem.d;"+
		"CREATE TEMPORARY TABLE tmp (a INT) WITH ('connector' = 'datagen')")
	if got := shown(t, e.Session, "SHOW TABLES"); got != "t,tmp,v" {
		t.Fatalf("SHOW TABLES before the restart: %s", got)
	}
	e.Close()

	e = open()
	s := e.Session
	if got := shown(t, s, "SHOW CURRENT DATABASE"); got != "default_database" {
		t.Errorf("current database after the restart: %s", got)
	}
	if got := shown(t, s, "SHOW DATABASES"); got != "db1,default_database" {
		t.Errorf("SHOW DATABASES: %s", got)
	}
	if got := shown(t, s, "SHOW CATALOGS"); got != "default_catalog" {
		t.Errorf("SHOW CATALOGS: %s, want the in-memory catalog gone", got)
	}
	if got := shown(t, s, "SHOW TABLES FROM db1"); got != "t,v" {
		t.Errorf("SHOW TABLES FROM db1: %s, want the temporary table gone", got)
	}
	if got := shown(t, s, "SHOW FUNCTIONS FROM db1 LIKE 'UPPE_'"); got != "UPPER" {
		t.Errorf("SHOW FUNCTIONS FROM db1 LIKE 'UPPE_': %s", got)
	}
	if got := shown(t, s, "SHOW USER FUNCTIONS IN db1"); got != "" {
		t.Errorf("SHOW USER FUNCTIONS IN db1: %s, want none", got)
	}
	if _, err := s.Execute(testContext(t), "SHOW USER FUNCTIONS FROM nodb"); err == nil || !strings.Contains(err.Error(), "Database 'default_catalog'.'nodb' doesn't exist.") {
		t.Errorf("SHOW USER FUNCTIONS FROM nodb: %v", err)
	}
	info, err := e.catalog.mem.DatabaseInfo("default_catalog", "db1")
	if err != nil || info.Comment != "first" || info.Properties["k"] != "w" || info.Properties["k2"] != "x" {
		t.Errorf("db1 reopened as %+v, %v", info, err)
	}
	// dv was created in default_database while db1 was current: its t is
	// db1.t.
	if got, want := strings.Join(rowsOf(t, s, "SELECT * FROM dv"), " "), "+I[2] +I[3]"; got != want {
		t.Errorf("dv: %s, want %s", got, want)
	}
	if got, want := strings.Join(rowsOf(t, s, "SELECT * FROM db1.v"), " "), "+I[10] +I[20] +I[30]"; got != want {
		t.Errorf("db1.v: %s, want %s", got, want)
	}
	res, err := s.Execute(testContext(t), "SHOW CREATE TABLE db1.t")
	if err != nil || !strings.HasPrefix(res[0].Text, "CREATE TABLE `default_catalog`.`db1`.`t` (") {
		t.Errorf("SHOW CREATE TABLE db1.t: %v, %v", res, err)
	}
	// A dropped default_database stays dropped.
	execute(t, s, "USE db1; DROP DATABASE default_database CASCADE")
	e.Close()
	e = open()
	if got := shown(t, e.Session, "SHOW DATABASES"); got != "db1" {
		t.Errorf("SHOW DATABASES after dropping default_database: %s", got)
	}
	if _, err := e.Execute(testContext(t), "SHOW TABLES"); err == nil || !strings.Contains(err.Error(), "Database 'default_catalog'.'default_database' doesn't exist.") {
		t.Errorf("SHOW TABLES in the dropped current database: %v", err)
	}
}

// TestCatalogFileOfVersion0: a DATA/catalog.json written before Sluice
// had databases holds default_database's tables and views; it is read as
// such.
func TestCatalogFileOfVersion0(t *testing.T) {
	dir := t.TempDir()
	old := `{"tables": [{"name": "t", "statement": "CREATE TABLE ` + "`default_catalog`.`default_database`.`t`" + ` (\n  ` + "`n`" + ` BIGINT\n) WITH (\n  'connector' = 'datagen',\n  'fields.n.end' = '2',\n  'fields.n.kind' = 'sequence',\n  'fields.n.start' = '1',\n  'number-of-rows' = '2'\n)\n"}],
  "views": [{"name": "v", "statement": "CREATE VIEW v AS SELECT n + 1 AS m FROM t"}]}`
	if err := os.WriteFile(filepath.Join(dir, "catalog.json"), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := OpenCatalog(testContext(t), dir)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(c, NewJobManager())
	if got, want := strings.Join(rowsOf(t, s, "SELECT m FROM default_catalog.default_database.v"), " "), "+I[2] +I[3]"; got != want {
		t.Errorf("v: %s, want %s", got, want)
	}
	// The next change writes the file in the current form, which reads
	// back the same.
	execute(t, s, "CREATE DATABASE d")
	data, err := os.ReadFile(filepath.Join(dir, "catalog.json"))
	if err != nil || !strings.Contains(string(data), `"version": 2`) {
		t.Fatalf("catalog.json after a change: %s, %v", data, err)
	}
	again, err := OpenCatalog(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	s2 := NewSession(again, NewJobManager())
	if got := shown(t, s2, "SHOW DATABASES") + " " + shown(t, s2, "SHOW TABLES"); got != "d,default_database t,v" {
		t.Errorf("reopened: %s", got)
	}
}

// TestSessionsHaveTheirOwnCurrentDatabase: two sessions over one catalog
// (as sluice server's) each have their current catalog and database and
// their temporary objects; the catalogs and databases are shared.
func TestSessionsHaveTheirOwnCurrentDatabase(t *testing.T) {
	c, jobs := NewCatalog(), NewJobManager()
	t.Cleanup(jobs.Close)
	s1, s2 := NewSession(c, jobs), NewSession(c, jobs)
	execute(t, s1, "CREATE DATABASE db1; USE db1;"+numbers("t", 3))
	execute(t, s2, numbers("t", 1)+"; CREATE TEMPORARY VIEW mine AS SELECT 1 AS x")
	if got := shown(t, s1, "SHOW CURRENT DATABASE") + " " + shown(t, s2, "SHOW CURRENT DATABASE"); got != "db1 default_database" {
		t.Errorf("current databases: %s", got)
	}
	if got := strings.Join(rowsOf(t, s1, "SELECT n FROM t"), " "); got != "+I[1] +I[2] +I[3]" {
		t.Errorf("session 1 reads t as %s, want db1.t", got)
	}
	if got := strings.Join(rowsOf(t, s2, "SELECT n FROM t"), " "); got != "+I[1]" {
		t.Errorf("session 2 reads t as %s, want default_database.t", got)
	}
	if got := shown(t, s1, "SHOW TABLES FROM default_database"); got != "t" {
		t.Errorf("session 1 sees session 2's temporary view: %s", got)
	}
	if got := shown(t, s2, "SHOW TABLES"); got != "mine,t" {
		t.Errorf("session 2's tables: %s", got)
	}
	// A catalog one session creates is the other's too; USE is not.
	execute(t, s2, "CREATE CATALOG c WITH ('type' = 'generic_in_memory'); USE CATALOG c")
	if got := shown(t, s1, "SHOW CATALOGS") + " " + shown(t, s1, "SHOW CURRENT CATALOG"); got != "c,default_catalog default_catalog" {
		t.Errorf("session 1 after session 2 made and used c: %s", got)
	}
	// A database in use by another session can be dropped, as in Flink
	// (only a session's own current database is refused); the other
	// session's names then find nothing.
	execute(t, s2, "DROP DATABASE default_catalog.db1 CASCADE")
	if _, err := s1.Execute(testContext(t), "SELECT n FROM t"); err == nil || !strings.Contains(err.Error(), "Object 't' not found") {
		t.Errorf("session 1 after its database was dropped: %v", err)
	}
	if _, err := s1.Execute(testContext(t), "DROP CATALOG c"); err != nil {
		t.Errorf("session 1 drops c, session 2's current catalog: %v", err)
	}
}

// TestLikeMatch: the LIKE of SHOW statements, with Flink's escape '\'.
func TestLikeMatch(t *testing.T) {
	for _, c := range []struct {
		s, p string
		want bool
	}{
		{"person", "%person%", true},
		{"v_person", "%person%", true},
		{"person", "p_r%", true},
		{"address", "p_r%", false},
		{"db1", "db%", true},
		{"default", "db%", false},
		{"user", "use_", true},
		{"users", "use_", false},
		{"a_b", `a\_b`, true},
		{"axb", `a\_b`, false},
		{"100%", `100\%`, true},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "%a%a%a%a%a%a%a%a%a%a%b", false},
		{"", "%", true},
		{"", "_", false},
	} {
		if got := likeMatch([]rune(c.s), []rune(c.p)); got != c.want {
			t.Errorf("'%s' LIKE '%s' = %v, want %v", c.s, c.p, got, c.want)
		}
	}
}

// TestRunningJobsKeepTheirTables: a job plans its tables when it starts;
// dropping the catalog they were in does not touch it, and restarting it
// from a savepoint builds it from its plan alone. Its name is Flink's,
// with the sink's full name.
func TestRunningJobsKeepTheirTables(t *testing.T) {
	e := newEngine(t)
	execute(t, e.Session, "CREATE CATALOG c WITH ('type' = 'generic_in_memory'); CREATE DATABASE c.db;"+
		"CREATE TABLE c.db.src (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100');"+
		"CREATE TABLE c.db.sink (n BIGINT) WITH ('connector' = 'blackhole')")
	res, err := e.Execute(testContext(t), "INSERT INTO c.db.sink SELECT n FROM c.db.src")
	if err != nil {
		t.Fatal(err)
	}
	id := res[0].JobID
	execute(t, e.Session, "DROP CATALOG c")
	j, err := e.RestartFromSavepoint(testContext(t), id, t.TempDir(), 1)
	if err != nil {
		t.Fatalf("restarting the job of a dropped catalog: %v", err)
	}
	if st := j.Status(); st != "RUNNING" || j.Name != "insert-into_c.db.sink" {
		t.Errorf("restarted job %s is %s", j.Name, st)
	}
	if err := e.JobFailures(); err != nil {
		t.Error(err)
	}
}
