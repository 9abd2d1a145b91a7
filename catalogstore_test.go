package sluice_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/sqltest"
)

// TestCatalogSurvivesReopening creates the tables and views of every
// script test and seed case in a catalog kept in a directory, opens the
// directory again, and finds every table with the same SHOW CREATE TABLE
// and every view.
// catalogSession opens the catalog kept in dir and a session on it, with
// a job manager of its own.
func catalogSession(ctx context.Context, t *testing.T, dir string) *sluice.Session {
	t.Helper()
	cat, err := sluice.OpenCatalog(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	return sluice.NewSession(cat, sluice.NewJobManager())
}

func TestCatalogSurvivesReopening(t *testing.T) {
	scripts, _ := filepath.Glob("sqltest/testdata/*.sqltest")
	seeds, _ := filepath.Glob("../shared/acceptance/*.sql")
	tables := 0
	for _, path := range append(scripts, seeds...) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.NewReplacer("KAFKA_PORT", "9092", "SCHEMA_REGISTRY_PORT", "8081").Replace(string(src))
		steps, err := sqltest.ParseScriptTest(text)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		ctx := context.Background()
		dir := t.TempDir()
		s := catalogSession(ctx, t, dir)
		for _, st := range steps {
			upper := strings.ToUpper(st.Text)
			ddl := strings.HasPrefix(upper, "CREATE TABLE") && !strings.Contains(upper, " AS SELECT") ||
				strings.HasPrefix(upper, "CREATE VIEW") || strings.HasPrefix(upper, "ALTER TABLE")
			if ddl {
				_, _ = s.Execute(ctx, st.Text) // scripts also test statements that fail
			}
		}
		again, err := sluice.OpenCatalog(ctx, dir)
		if err != nil {
			t.Fatalf("%s: reopening: %v", path, err)
		}
		s2 := sluice.NewSession(again, sluice.NewJobManager())
		if got, want := names(t, s2, "SHOW TABLES"), names(t, s, "SHOW TABLES"); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: reopened with %v, want %v", path, got, want)
		}
		views := names(t, s, "SHOW VIEWS")
		for _, name := range names(t, s, "SHOW TABLES") {
			if slices.Contains(views, name) {
				continue
			}
			tables++
			show := "SHOW CREATE TABLE `" + name + "`"
			want, err := s.Execute(ctx, show)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s2.Execute(ctx, show)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if got[0].Text != want[0].Text {
				t.Errorf("%s: table %s reopened as\n%s\nwant\n%s", path, name, got[0].Text, want[0].Text)
			}
		}
	}
	if tables < 50 {
		t.Errorf("only %d tables compared", tables)
	}
}

// names returns the first column of what a SHOW statement lists.
func names(t *testing.T, s *sluice.Session, show string) []string {
	t.Helper()
	res, err := s.Execute(context.Background(), show)
	if err != nil {
		t.Fatalf("%s: %v", show, err)
	}
	var out []string
	for _, r := range res[0].Rows {
		out = append(out, r[0])
	}
	return out
}

// TestCatalogKeepsCommentsAndAlterations: a table's comment, column kinds
// (computed ones and the watermark written as Flink writes them, names
// with backquotes included) and an ALTER TABLE are kept; temporary tables
// are not; a dropped table stays dropped.
func TestCatalogKeepsCommentsAndAlterations(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := catalogSession(ctx, t, dir)
	if _, err := s.Execute(ctx, `CREATE TABLE t (
  a INT NOT NULL COMMENT 'the ''a''',
  `+"`k``1`"+` STRING NOT NULL,
  ts TIMESTAMP(3),
  c AS a + 1,
  d AS CAST((a - (1 - a)) * 2 AS STRING) || `+"`k``1`"+`,
  off BIGINT METADATA FROM 'offset' VIRTUAL,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND,
  PRIMARY KEY (a, `+"`k``1`"+`) NOT ENFORCED
) COMMENT 'a table' WITH ('connector' = 'upsert-kafka', 'topic' = 'd', 'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json', 'value.format' = 'json');
ALTER TABLE t SET ('sink.parallelism' = '2');
ALTER TABLE t RENAME TO t2;
CREATE TABLE gone (a INT) WITH ('connector' = 'datagen');
DROP TABLE gone;
CREATE VIEW v AS SELECT a FROM t2;
CREATE TABLE named (id INT NOT NULL, CONSTRAINT my_pk PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'datagen');`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Execute(ctx, "CREATE TEMPORARY TABLE tmp (a INT) WITH ('connector' = 'datagen')"); err != nil {
		t.Fatal(err)
	}
	want, err := s.Execute(ctx, "SHOW CREATE TABLE t2")
	if err != nil {
		t.Fatal(err)
	}
	// An unnamed primary key is named as Flink names it: PK_ and the columns.
	if !strings.Contains(want[0].Text, ") COMMENT 'a table'\nWITH (") || !strings.Contains(want[0].Text, "'sink.parallelism' = '2'") ||
		!strings.Contains(want[0].Text, "  CONSTRAINT `PK_a_k``1` PRIMARY KEY (`a`, `k``1`) NOT ENFORCED\n") {
		t.Errorf("SHOW CREATE TABLE:\n%s", want[0].Text)
	}
	again, err := sluice.OpenCatalog(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s2 := sluice.NewSession(again, sluice.NewJobManager())
	if got := strings.Join(names(t, s2, "SHOW TABLES"), ","); got != "named,t2,v" {
		t.Errorf("reopened with %s, want named,t2,v", got)
	}
	named, err := s2.Execute(ctx, "SHOW CREATE TABLE named")
	if err != nil || !strings.Contains(named[0].Text, "  CONSTRAINT `my_pk` PRIMARY KEY (`id`) NOT ENFORCED\n") {
		t.Errorf("reopened SHOW CREATE TABLE named: %v\n%v", err, named)
	}
	got, err := s2.Execute(ctx, "SHOW CREATE TABLE t2")
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Text != want[0].Text {
		t.Errorf("reopened as\n%s\nwant\n%s", got[0].Text, want[0].Text)
	}
	if _, err := s2.Execute(ctx, "EXPLAIN SELECT * FROM v"); err != nil {
		t.Errorf("the reopened view does not plan: %v", err)
	}
	info, err := os.Stat(filepath.Join(dir, "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("catalog.json has mode %v, want 0600", perm)
	}
}
