package sluice_test

import (
	"context"
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
	cat, err := sluice.OpenCatalog(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s := sluice.NewSession(cat, sluice.NewJobManager())
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
	if got, w := show(s2, "v"), "CREATE VIEW `default_catalog`.`default_database`.`v` (\n  `a`,\n  `b`,\n  `c`\n)\n"+
		"AS SELECT `t`.`a`, `t`.`b`, `t`.`c`\nFROM `default_catalog`.`default_database`.`t` AS `t`\nWHERE `t`.`a` > 1\n"; got != w {
		t.Errorf("after ALTER TABLE, SHOW CREATE VIEW v:\n%s\nwant\n%s", got, w)
	}
}
