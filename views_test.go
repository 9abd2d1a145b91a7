package sluice_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluicesql/sluice"
)

// TestShowCreateViewExpanded: SHOW CREATE VIEW prints the view's query
// expanded as Flink stores it (view.q of Flink's SQL client), names
// resolved where the view was created, over the tables as they are when
// shown (as the view reads them), and the same after the catalog is
// opened again; a query Sluice does not expand is printed as written.
func TestShowCreateViewExpanded(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := catalogSession(ctx, t, dir)
	if _, err := s.Execute(ctx, `CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'datagen');
CREATE DATABASE d2;
CREATE TABLE d2.t3 (x BIGINT) WITH ('connector' = 'datagen');
CREATE VIEW v AS SELECT * FROM t WHERE a > 1;
USE d2;
CREATE VIEW vv AS SELECT x FROM t3;
USE default_database;
CREATE VIEW w AS SELECT COALESCE(b, 'none') AS b FROM t;`); err != nil {
		t.Fatal(err)
	}
	show := func(s *sluice.Session, name string) string {
		t.Helper()
		res, err := s.Execute(ctx, "SHOW CREATE VIEW "+name)
		if err != nil {
			t.Fatal(err)
		}
		return res[0].Text
	}
	want := map[string]string{
		"v": "CREATE VIEW `default_catalog`.`default_database`.`v` (\n  `a`,\n  `b`\n)\n" +
			"AS SELECT `t`.`a`, `t`.`b`\nFROM `default_catalog`.`default_database`.`t` AS `t`\nWHERE `t`.`a` > 1\n",
		"d2.vv": "CREATE VIEW `default_catalog`.`d2`.`vv` (\n  `x`\n)\n" +
			"AS SELECT `t3`.`x`\nFROM `default_catalog`.`d2`.`t3` AS `t3`\n",
		"w": "CREATE VIEW `default_catalog`.`default_database`.`w` (\n  `b`\n)\n" +
			"AS SELECT COALESCE(b, 'none') AS b FROM t\n",
	}
	for name, w := range want {
		if got := show(s, name); got != w {
			t.Errorf("SHOW CREATE VIEW %s:\n%s\nwant\n%s", name, got, w)
		}
	}
	again, err := sluice.OpenCatalog(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s2 := sluice.NewSession(again, sluice.NewJobManager())
	for name, w := range want {
		if got := show(s2, name); got != w {
			t.Errorf("reopened, SHOW CREATE VIEW %s:\n%s\nwant\n%s", name, got, w)
		}
	}
	if _, err := s2.Execute(ctx, "ALTER TABLE t ADD c INT"); err != nil {
		t.Fatal(err)
	}
	// Flink stores the expansion when the view is created: `*` stays the
	// columns it stood for then.
	if got, w := show(s2, "v"), want["v"]; got != w {
		t.Errorf("after ALTER TABLE, SHOW CREATE VIEW v:\n%s\nwant\n%s", got, w)
	}
}

// TestViewKeepsItsColumns: a view keeps the columns (names and types) its
// query gave when it was created, as Flink's CatalogView keeps its schema
// and an expanded query that lists the columns of `*`
// (SqlNodeConvertUtils.toCatalogView, SqlCatalogViewTable.convertToRel):
// a column added to a table under it is not the view's, a column it reads
// dropped or changed makes it fail when used, naming the view and the
// column, and SHOW CREATE VIEW still prints it. They are kept in the
// catalog's file; a file written before views kept them still opens.
func TestViewKeepsItsColumns(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := catalogSession(ctx, t, dir)
	run := func(s *sluice.Session, stmt string) ([]*sluice.Result, error) {
		t.Helper()
		return s.Execute(ctx, stmt)
	}
	columns := func(s *sluice.Session, name string) string {
		t.Helper()
		res, err := run(s, "DESCRIBE "+name)
		if err != nil {
			t.Fatalf("DESCRIBE %s: %v", name, err)
		}
		var out []string
		for _, r := range res[0].Rows {
			out = append(out, r[0]+" "+r[1])
		}
		return strings.Join(out, ", ")
	}
	if _, err := run(s, `CREATE TABLE t (a INT, b STRING, c BIGINT) WITH ('connector' = 'datagen');
CREATE VIEW v AS SELECT * FROM t;
CREATE VIEW named (x, y) AS SELECT a, b FROM t;
CREATE TEMPORARY VIEW tv AS SELECT * FROM t;
ALTER TABLE t ADD d DOUBLE`); err != nil {
		t.Fatal(err)
	}
	const abc = "a INT, b STRING, c BIGINT"
	for _, name := range []string{"v", "tv"} {
		if got := columns(s, name); got != abc {
			t.Errorf("after ALTER TABLE ADD, %s has %s, want %s", name, got, abc)
		}
	}
	res, err := run(s, "EXPLAIN SELECT * FROM v")
	if err != nil || !strings.Contains(res[0].Text, "Calc(select=[a, b, c])") {
		t.Errorf("EXPLAIN SELECT * FROM v does not select a, b, c (%v):\n%v", err, res)
	}
	// The file keeps the columns: reopened, the view still has three.
	reopened, err := sluice.OpenCatalog(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s2 := sluice.NewSession(reopened, sluice.NewJobManager())
	if got := columns(s2, "v"); got != abc {
		t.Errorf("reopened, v has %s, want %s", got, abc)
	}
	showV := "CREATE VIEW `default_catalog`.`default_database`.`v` (\n  `a`,\n  `b`,\n  `c`\n)\n" +
		"AS SELECT `t`.`a`, `t`.`b`, `t`.`c`\nFROM `default_catalog`.`default_database`.`t` AS `t`\n"
	for _, stmt := range []string{"ALTER TABLE t DROP c", "ALTER TABLE t MODIFY b INT"} {
		if _, err := run(s2, stmt); err != nil {
			t.Fatal(err)
		}
	}
	for stmt, want := range map[string]string{
		"SELECT * FROM v":     "View `default_catalog`.`default_database`.`v` does not bind: its query gives the column 'b' the type INT, the view was created with STRING",
		"SELECT x FROM named": "View `default_catalog`.`default_database`.`named` does not bind: its query gives the column 'b' the type INT, the view was created with STRING",
	} {
		if _, err := run(s2, stmt); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", stmt, err, want)
		}
	}
	if _, err := run(s2, "ALTER TABLE t MODIFY b STRING"); err != nil {
		t.Fatal(err)
	}
	if _, err := run(s2, "SELECT * FROM v"); err == nil || !strings.Contains(err.Error(),
		"View `default_catalog`.`default_database`.`v` does not bind: its query no longer gives the column 'c' (BIGINT) the view was created with") {
		t.Errorf("SELECT * FROM v after DROP c: error %v", err)
	}
	if got := columns(s2, "named"); got != "x INT, y STRING" {
		t.Errorf("named has %s", got)
	}
	res, err = run(s2, "SHOW CREATE VIEW v")
	if err != nil || res[0].Text != showV {
		t.Errorf("SHOW CREATE VIEW v of a view that no longer binds: %v\n%v\nwant\n%s", err, res, showV)
	}
}

// TestViewsOfAnOldCatalogFile: a catalog file written before views kept
// their columns opens, each view taking the columns its query gives then.
func TestViewsOfAnOldCatalogFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	old := `{"version": 2, "databases": [{"name": "default_database",
  "tables": [{"name": "t", "statement": "CREATE TABLE ` + "`default_catalog`.`default_database`.`t`" + ` (\n  ` + "`a`" + ` INT\n) WITH (\n  'connector' = 'datagen'\n)"}],
  "views": [{"name": "v", "statement": "CREATE VIEW v AS SELECT * FROM w", "scopeCatalog": "default_catalog", "scopeDatabase": "default_database"},
            {"name": "w", "statement": "CREATE VIEW w AS SELECT * FROM t", "scopeCatalog": "default_catalog", "scopeDatabase": "default_database"}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "catalog.json"), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	s := catalogSession(ctx, t, dir)
	if _, err := s.Execute(ctx, "ALTER TABLE t ADD b STRING"); err != nil {
		t.Fatal(err)
	}
	res, err := s.Execute(ctx, "SHOW CREATE VIEW v")
	want := "CREATE VIEW `default_catalog`.`default_database`.`v` (\n  `a`\n)\n" +
		"AS SELECT `w`.`a`\nFROM `default_catalog`.`default_database`.`w` AS `w`\n"
	if err != nil || res[0].Text != want {
		t.Errorf("SHOW CREATE VIEW v: %v\n%v\nwant\n%s", err, res, want)
	}
	res, err = s.Execute(ctx, "DESCRIBE v")
	if err != nil || len(res[0].Rows) != 1 {
		t.Errorf("DESCRIBE v: %v %v, want the one column a", err, res)
	}
}
