package parser

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

const acceptanceDir = "../../../../shared/acceptance"

// acceptanceFiles returns the acceptance scripts by base name, skipping the
// test when they are not available.
func acceptanceFiles(t testing.TB) map[string]string {
	t.Helper()
	dir := acceptanceDir
	if _, err := os.Stat(dir); err != nil {
		dir = "/work/shared/acceptance"
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.sql"))
	if len(paths) == 0 {
		t.Skip("acceptance scripts not found")
	}
	files := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = string(b)
	}
	return files
}

func parseFile(t *testing.T, src string) []ast.Statement {
	t.Helper()
	stmts, err := ParseScript(src)
	if err != nil {
		t.Fatalf("ParseScript: %v", err)
	}
	return stmts
}

func TestAcceptanceStatementCounts(t *testing.T) {
	want := map[string]int{
		"aggregate-count.sql":  5,
		"finding-distinct.sql": 6,
		"interval-join.sql":    8,
		"tumbling-windows.sql": 5,
	}
	for name, src := range acceptanceFiles(t) {
		t.Run(name, func(t *testing.T) {
			stmts := parseFile(t, src)
			if n, ok := want[name]; ok && len(stmts) != n {
				t.Errorf("got %d statements, want %d", len(stmts), n)
			}
		})
	}
}

func TestAcceptanceTumblingWindows(t *testing.T) {
	stmts := parseFile(t, acceptanceFiles(t)["tumbling-windows.sql"])
	ct := stmts[0].(*ast.CreateTable)
	if got := ct.Name.Parts; len(got) != 1 || got[0] != "ratings" {
		t.Errorf("table name = %v", got)
	}
	if len(ct.Columns) != 5 {
		t.Fatalf("got %d columns", len(ct.Columns))
	}
	if ts := ct.Columns[4]; ts.Name != "ts" || ts.Type != types.TimestampType(3) {
		t.Errorf("column 5 = %s %v", ts.Name, ts.Type)
	}
	if ct.Columns[1].Type != types.StringType {
		t.Errorf("STRING column has type %v", ct.Columns[1].Type)
	}
	if wm := ct.Watermark; wm == nil || wm.Column != "ts" || FormatExpr(wm.Expr) != "ts" {
		t.Errorf("watermark = %+v", wm)
	} else if wm.Pos != (ast.Pos{Line: 12, Col: 5}) {
		t.Errorf("watermark at %v", wm.Pos)
	}
	if len(ct.Options) != 9 || ct.Options[0].Key != "connector" || ct.Options[0].Value != "kafka" {
		t.Errorf("options = %v", ct.Options)
	}

	ins := stmts[3].(*ast.Insert)
	sel := ins.Query.(*ast.Select)
	tf, ok := sel.From.(*ast.TableFunctionRef)
	if !ok {
		t.Fatalf("FROM is %T", sel.From)
	}
	call := tf.Call
	if call.Name != "TUMBLE" || len(call.Args) != 3 || call.ArgNames != nil {
		t.Fatalf("window TVF = %s with %d args", call.Name, len(call.Args))
	}
	if ta, ok := call.Args[0].(*ast.TableArg); !ok || ta.Name.Parts[0] != "ratings" {
		t.Errorf("arg 1 = %#v", call.Args[0])
	}
	if d, ok := call.Args[1].(*ast.Descriptor); !ok || len(d.Columns) != 1 || d.Columns[0] != "ts" {
		t.Errorf("arg 2 = %#v", call.Args[1])
	}
	iv, ok := call.Args[2].(*ast.IntervalLiteral)
	if !ok || iv.Value != "6" || iv.Unit != ast.Hour {
		t.Errorf("arg 3 = %#v", call.Args[2])
	}
	if tf.Pos != (ast.Pos{Line: 63, Col: 10}) {
		t.Errorf("TABLE(...) at %v", tf.Pos)
	}
	if len(sel.GroupBy) != 3 {
		t.Errorf("GROUP BY has %d items", len(sel.GroupBy))
	}
	if c := sel.Items[1].Expr.(*ast.FuncCall); !c.Star || c.Name != "COUNT" || sel.Items[1].Alias != "rating_count" {
		t.Errorf("item 2 = %#v", sel.Items[1])
	}
}

func TestAcceptanceFindingDistinct(t *testing.T) {
	stmts := parseFile(t, acceptanceFiles(t)["finding-distinct.sql"])
	set := stmts[0].(*ast.Set)
	if !set.HasKey || set.Key != "table.local-time-zone" || set.Value != "UTC" {
		t.Errorf("SET = %+v", set)
	}
	ct := stmts[2].(*ast.CreateTable)
	if len(ct.PrimaryKey) != 1 || ct.PrimaryKey[0] != "ip_address" || ct.PKEnforced {
		t.Errorf("primary key = %v enforced=%v", ct.PrimaryKey, ct.PKEnforced)
	}
	if ct.PKPos != (ast.Pos{Line: 26, Col: 5}) {
		t.Errorf("PRIMARY KEY at %v", ct.PKPos)
	}
	if ct.Columns[0].Type.Length != types.MaxVarcharLength {
		t.Errorf("VARCHAR has length %d", ct.Columns[0].Type.Length)
	}
	vals := stmts[3].(*ast.Insert).Query.(*ast.Values)
	if len(vals.Rows) != 6 || len(vals.Rows[0]) != 3 {
		t.Errorf("VALUES has %d rows", len(vals.Rows))
	}

	outer := stmts[4].(*ast.Insert).Query.(*ast.Select)
	if got := FormatExpr(outer.Where); got != "(rownum = 1)" {
		t.Errorf("WHERE %s", got)
	}
	sub := outer.From.(*ast.SubqueryRef)
	if sub.Alias != "" {
		t.Errorf("subquery alias %q", sub.Alias)
	}
	inner := sub.Query.(*ast.Select)
	if !inner.Items[0].Star {
		t.Error("first inner item is not *")
	}
	rn := inner.Items[1]
	if rn.Alias != "rownum" {
		t.Errorf("alias %q", rn.Alias)
	}
	fc := rn.Expr.(*ast.FuncCall)
	if fc.Name != "ROW_NUMBER" || fc.Over == nil {
		t.Fatalf("call = %#v", fc)
	}
	if len(fc.Over.PartitionBy) != 1 || FormatExpr(fc.Over.PartitionBy[0]) != "ip_address" {
		t.Errorf("PARTITION BY %v", fc.Over.PartitionBy)
	}
	if len(fc.Over.OrderBy) != 1 || fc.Over.OrderBy[0].Desc ||
		FormatExpr(fc.Over.OrderBy[0].Expr) != "TO_TIMESTAMP(FROM_UNIXTIME(click_ts_raw))" {
		t.Errorf("ORDER BY %v", fc.Over.OrderBy)
	}
	if fc.Pos != (ast.Pos{Line: 48, Col: 11}) || fc.Over.Pos != (ast.Pos{Line: 48, Col: 24}) {
		t.Errorf("ROW_NUMBER at %v, OVER at %v", fc.Pos, fc.Over.Pos)
	}
}

func TestAcceptanceIntervalJoin(t *testing.T) {
	stmts := parseFile(t, acceptanceFiles(t)["interval-join.sql"])
	sel := stmts[6].(*ast.Insert).Query.(*ast.Select)
	j, ok := sel.From.(*ast.Join)
	if !ok || j.Kind != ast.InnerJoin {
		t.Fatalf("FROM = %#v", sel.From)
	}
	l, r := j.Left.(*ast.TableName), j.Right.(*ast.TableName)
	if l.Alias != "o" || r.Alias != "s" {
		t.Errorf("aliases %q %q", l.Alias, r.Alias)
	}
	and := j.On.(*ast.Binary)
	if and.Op != "AND" {
		t.Fatalf("ON op %s", and.Op)
	}
	b, ok := and.R.(*ast.Between)
	if !ok {
		t.Fatalf("right of AND is %T", and.R)
	}
	if got := FormatExpr(b.Hi); got != "(TO_TIMESTAMP(FROM_UNIXTIME(o.order_ts_raw)) + INTERVAL '7' DAY)" {
		t.Errorf("BETWEEN upper bound %s", got)
	}
	if b.Pos != (ast.Pos{Line: 96, Col: 9}) {
		t.Errorf("BETWEEN at %v", b.Pos)
	}
	diff := sel.Items[7].Expr.(*ast.FuncCall)
	if diff.Name != "TIMESTAMPDIFF" || diff.Args[0].(*ast.TimeUnitExpr).Unit != ast.Hour {
		t.Errorf("TIMESTAMPDIFF = %s", FormatExpr(diff))
	}
	if sel.Items[7].Alias != "HR_TO_SHIP" || sel.Items[6].Alias != "" {
		t.Errorf("aliases %q %q", sel.Items[7].Alias, sel.Items[6].Alias)
	}
}

func TestAcceptanceAggregateCount(t *testing.T) {
	stmts := parseFile(t, acceptanceFiles(t)["aggregate-count.sql"])
	q := stmts[4].(*ast.QueryStatement)
	sel := q.Query.(*ast.Select)
	if !sel.Items[0].Star || sel.From.(*ast.TableName).Name.Parts[0] != "movie_ticket_sales_by_title" {
		t.Errorf("query = %s", FormatQuery(q.Query))
	}
	if q.Pos != (ast.Pos{Line: 53, Col: 1}) {
		t.Errorf("SELECT at %v", q.Pos)
	}
}

func TestTutorialStatements(t *testing.T) {
	src, err := os.ReadFile("testdata/tutorials.sql")
	if err != nil {
		t.Fatal(err)
	}
	stmts := parseFile(t, string(src))
	if len(stmts) != 42 {
		t.Errorf("got %d statements, want 42", len(stmts))
	}
	last := stmts[len(stmts)-1].(*ast.Set)
	if last.Key != "sql-client.execution.result-mode" || last.Value != "tableau" {
		t.Errorf("last SET = %+v", last)
	}
}

// dump renders a statement compactly for comparisons.
func dump(s ast.Statement) string {
	var b strings.Builder
	switch s := s.(type) {
	case *ast.CreateTable:
		fmt.Fprintf(&b, "CREATE TABLE %s", strings.Join(s.Name.Parts, "."))
		mark(&b, s.Temporary, "temporary")
		mark(&b, s.IfNotExists, "if-not-exists")
		for _, c := range s.Columns {
			b.WriteString(" [" + c.Name)
			if c.Computed != nil {
				b.WriteString(" AS " + FormatExpr(c.Computed))
			} else {
				b.WriteString(" " + c.Type.String())
			}
			if c.Metadata {
				b.WriteString(" METADATA")
				if c.MetadataKey != "" {
					b.WriteString(" FROM " + c.MetadataKey)
				}
				mark(&b, c.Virtual, "VIRTUAL")
			}
			if c.Comment != "" {
				b.WriteString(" COMMENT " + c.Comment)
			}
			b.WriteString("]")
		}
		if s.PrimaryKey != nil {
			fmt.Fprintf(&b, " pk=%v", s.PrimaryKey)
			mark(&b, s.PKEnforced, "enforced")
		}
		if s.Watermark != nil {
			fmt.Fprintf(&b, " watermark=%s:%s", s.Watermark.Column, FormatExpr(s.Watermark.Expr))
		}
		if s.Comment != "" {
			b.WriteString(" comment=" + s.Comment)
		}
		for _, o := range s.Options {
			fmt.Fprintf(&b, " %s=%s", o.Key, o.Value)
		}
		if s.AsQuery != nil {
			b.WriteString(" AS " + FormatQuery(s.AsQuery))
		}
	case *ast.CreateView:
		fmt.Fprintf(&b, "CREATE VIEW %s", strings.Join(s.Name.Parts, "."))
		mark(&b, s.Temporary, "temporary")
		mark(&b, s.IfNotExists, "if-not-exists")
		if s.Columns != nil {
			fmt.Fprintf(&b, " %v", s.Columns)
		}
		b.WriteString(" AS " + FormatQuery(s.Query))
	case *ast.Drop:
		what := "TABLE"
		if s.View {
			what = "VIEW"
		}
		fmt.Fprintf(&b, "DROP %s %s", what, strings.Join(s.Name.Parts, "."))
		mark(&b, s.Temporary, "temporary")
		mark(&b, s.IfExists, "if-exists")
	case *ast.AlterTable:
		fmt.Fprintf(&b, "ALTER TABLE %s", strings.Join(s.Name.Parts, "."))
		mark(&b, s.IfExists, "if-exists")
		if s.RenameTo != nil {
			fmt.Fprintf(&b, " rename=%s", strings.Join(s.RenameTo.Parts, "."))
		}
		for _, o := range s.Set {
			fmt.Fprintf(&b, " %s=%s", o.Key, o.Value)
		}
		for _, o := range s.Reset {
			fmt.Fprintf(&b, " reset=%s", o.Key)
		}
	case *ast.Insert:
		fmt.Fprintf(&b, "INSERT %s", strings.Join(s.Table.Parts, "."))
		mark(&b, s.Overwrite, "overwrite")
		if s.Columns != nil {
			names := make([]string, len(s.Columns))
			for i, c := range s.Columns {
				names[i] = c.Name
			}
			fmt.Fprintf(&b, " %v", names)
		}
		b.WriteString(" " + FormatQuery(s.Query))
	case *ast.QueryStatement:
		b.WriteString(FormatQuery(s.Query))
	case *ast.Explain:
		b.WriteString("EXPLAIN ")
		for _, d := range s.Details {
			b.WriteString(d + " ")
		}
		b.WriteString(dump(s.Statement))
	case *ast.CompilePlan:
		b.WriteString("COMPILE")
		mark(&b, s.Execute, "execute")
		fmt.Fprintf(&b, " PLAN %q", s.Path)
		mark(&b, s.IfNotExists, "if-not-exists")
		b.WriteString(" FOR " + dump(s.Statement))
	case *ast.ExecutePlan:
		fmt.Fprintf(&b, "EXECUTE PLAN %q", s.Path)
	case *ast.Set:
		if s.HasKey {
			fmt.Fprintf(&b, "SET %q=%q", s.Key, s.Value)
		} else {
			b.WriteString("SET")
		}
	case *ast.Reset:
		fmt.Fprintf(&b, "RESET %q", s.Key)
	case *ast.Show:
		fmt.Fprintf(&b, "SHOW %d", s.Kind)
		if s.Name.Parts != nil {
			b.WriteString(" " + strings.Join(s.Name.Parts, "."))
		}
	case *ast.Describe:
		b.WriteString("DESCRIBE " + strings.Join(s.Name.Parts, "."))
	case *ast.DescribeJob:
		fmt.Fprintf(&b, "DESCRIBE JOB %s@%d:%d", s.ID, s.IDPos.Line, s.IDPos.Col)
	case *ast.StopJob:
		b.WriteString("STOP JOB " + s.ID)
		if s.WithSavepoint {
			b.WriteString(" WITH SAVEPOINT")
		}
		if s.WithDrain {
			fmt.Fprintf(&b, " WITH DRAIN@%d:%d", s.DrainPos.Line, s.DrainPos.Col)
		}
	case *ast.StatementSet:
		b.WriteString("STATEMENT SET")
		for _, ins := range s.Inserts {
			b.WriteString(" {" + dump(ins) + "}")
		}
	default:
		fmt.Fprintf(&b, "%T", s)
	}
	return b.String()
}

func mark(b *strings.Builder, on bool, name string) {
	if on {
		b.WriteString(" " + name)
	}
}

// statementTests pairs source text with its expected rendering.
var statementTests = []struct{ src, want string }{
	{`CREATE TEMPORARY TABLE IF NOT EXISTS c.d.t (
		a INT NOT NULL PRIMARY KEY NOT ENFORCED COMMENT 'the key',
		b AS a + 1 COMMENT 'computed',
		m TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
		o BIGINT METADATA VIRTUAL,
		p INT METADATA,
		ts TIMESTAMP(3),
		WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
	) COMMENT 'tbl' WITH ('connector' = 'kafka', 'topic' = 'it''s')`,
		"CREATE TABLE c.d.t temporary if-not-exists [a INT NOT NULL COMMENT the key] [b AS (a + 1) COMMENT computed]" +
			" [m TIMESTAMP_LTZ(3) METADATA FROM timestamp VIRTUAL] [o BIGINT METADATA VIRTUAL] [p INT METADATA] [ts TIMESTAMP(3)]" +
			" pk=[a] watermark=ts:(ts - INTERVAL '5' SECOND) comment=tbl connector=kafka topic=it's"},
	{"CREATE TABLE t (a INT, b STRING, CONSTRAINT pk PRIMARY KEY (a, b) NOT ENFORCED) WITH ('x' = 'y')",
		"CREATE TABLE t [a INT] [b STRING] pk=[a b] x=y"},
	{"create table t (a int, primary key (a))", "CREATE TABLE t [a INT] pk=[a] enforced"},
	{"CREATE TABLE t (`my col` STRING, `select` INT)", "CREATE TABLE t [my col STRING] [select INT]"},
	{"CREATE TABLE t2 WITH ('connector' = 'kafka') AS SELECT * FROM t",
		"CREATE TABLE t2 connector=kafka AS SELECT * FROM t"},
	{"CREATE TEMPORARY VIEW IF NOT EXISTS v (x, y) AS SELECT a, b FROM t",
		"CREATE VIEW v temporary if-not-exists [x y] AS SELECT a, b FROM t"},
	{"CREATE VIEW v AS SELECT 1", "CREATE VIEW v AS SELECT 1"},
	{"DROP TABLE IF EXISTS t", "DROP TABLE t if-exists"},
	{"DROP TEMPORARY VIEW db.v", "DROP VIEW db.v temporary"},
	{"ALTER TABLE IF EXISTS c.d.t RENAME TO t2", "ALTER TABLE c.d.t if-exists rename=t2"},
	{"alter table t set ('a' = 'b', 'c' = 'it''s')", "ALTER TABLE t a=b c=it's"},
	{"ALTER TABLE t RESET ('a', 'c')", "ALTER TABLE t reset=a reset=c"},
	{"INSERT INTO t (a, b) SELECT 1, 2", "INSERT t [a b] SELECT 1, 2"},
	{"INSERT OVERWRITE t VALUES (1), (2)", "INSERT t overwrite VALUES (1), (2)"},
	{"INSERT INTO t (SELECT * FROM u)", "INSERT t SELECT * FROM u"},
	{"INSERT INTO t VALUES (1, 'a')", "INSERT t VALUES (1, 'a')"},
	{"EXPLAIN SELECT 1", "EXPLAIN SELECT 1"},
	{"EXPLAIN PLAN FOR INSERT INTO t SELECT 1", "EXPLAIN INSERT t SELECT 1"},
	{"EXPLAIN JSON_EXECUTION_PLAN SELECT 1", "EXPLAIN JSON_EXECUTION_PLAN SELECT 1"},
	{"explain changelog_mode, json_execution_plan INSERT INTO t SELECT 1", "EXPLAIN CHANGELOG_MODE JSON_EXECUTION_PLAN INSERT t SELECT 1"},
	{"COMPILE PLAN '/tmp/p.json' FOR INSERT INTO t SELECT 1", `COMPILE PLAN "/tmp/p.json" FOR INSERT t SELECT 1`},
	{"COMPILE PLAN 'file:///tmp/p.json' IF NOT EXISTS FOR STATEMENT SET BEGIN INSERT INTO a SELECT 1; INSERT INTO b SELECT 2; END",
		`COMPILE PLAN "file:///tmp/p.json" if-not-exists FOR STATEMENT SET {INSERT a SELECT 1} {INSERT b SELECT 2}`},
	{"COMPILE PLAN 'p.json' FOR EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; END", `COMPILE PLAN "p.json" FOR STATEMENT SET {INSERT a SELECT 1}`},
	{"COMPILE AND EXECUTE PLAN 'p.json' FOR INSERT INTO t SELECT 1", `COMPILE execute PLAN "p.json" FOR INSERT t SELECT 1`},
	{"COMPILE PLAN 'p.json' FOR SELECT 1", `COMPILE PLAN "p.json" FOR SELECT 1`},
	{"EXECUTE PLAN 'p.json'", `EXECUTE PLAN "p.json"`},
	{"SET", "SET"},
	{"SET 'a.b' = 'c'", `SET "a.b"="c"`},
	{"SET table.local-time-zone=UTC", `SET "table.local-time-zone"="UTC"`},
	{"  set sql-client.execution.result-mode = tableau ;", `SET "sql-client.execution.result-mode"="tableau"`},
	{"SET 'x' = 'it''s'", `SET "x"="it's"`},
	{"SET pipeline.name = 'my job'", `SET "pipeline.name"="my job"`},
	{"SET execution.checkpointing.interval = 10 s", `SET "execution.checkpointing.interval"="10 s"`},
	{"RESET", `RESET ""`},
	{"RESET 'a.b'", `RESET "a.b"`},
	{"RESET table.local-time-zone", `RESET "table.local-time-zone"`},
	{"SHOW TABLES", "SHOW 0"},
	{"show views", "SHOW 1"},
	{"SHOW FUNCTIONS", "SHOW 2"},
	{"SHOW USER FUNCTIONS FROM c.db LIKE 'f%'", "SHOW 2"},
	{"SHOW JOBS", "SHOW 3"},
	{"SHOW CREATE TABLE a.b", "SHOW 4 a.b"},
	{"SHOW CATALOGS", "SHOW 5"},
	{"SHOW DATABASES", "SHOW 6"},
	{"DESCRIBE t", "DESCRIBE t"},
	{"desc cat.db.t", "DESCRIBE cat.db.t"},
	{"STOP JOB 'abc123'", "STOP JOB abc123"},
	{"DESCRIBE JOB 'abc123'", "DESCRIBE JOB abc123@1:14"},
	{"desc job 'abc123'", "DESCRIBE JOB abc123@1:10"},
	{"DESCRIBE job", "DESCRIBE job"},
	{"STOP JOB 'abc123' WITH SAVEPOINT", "STOP JOB abc123 WITH SAVEPOINT"},
	{"stop job 'abc123' with drain with savepoint", "STOP JOB abc123 WITH SAVEPOINT WITH DRAIN@1:24"},
	{"EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; INSERT INTO b SELECT 2; END",
		"STATEMENT SET {INSERT a SELECT 1} {INSERT b SELECT 2}"},
	{"BEGIN STATEMENT SET;", "*ast.BeginStatementSet"},
	{"end;", "*ast.EndStatementSet"},
	{"EXPLAIN STATEMENT SET BEGIN INSERT INTO a SELECT 1; END", "EXPLAIN STATEMENT SET {INSERT a SELECT 1}"},
	{"select * from t;", "SELECT * FROM t"},
}

func TestStatements(t *testing.T) {
	for _, tt := range statementTests {
		t.Run(tt.src, func(t *testing.T) {
			s, err := ParseStatement(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := dump(s); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// queryTests pairs source text with its expected rendering.
var queryTests = []struct{ src, want string }{
	// UNNEST in FROM keeps its collection, ordinality and aliases (a view
	// stored by its canonical text must not lose its UNNEST join).
	{"SELECT o.id, i.x FROM orders AS o CROSS JOIN UNNEST(o.items) WITH ORDINALITY AS i(x, n)",
		"SELECT o.id, i.x FROM orders AS o CROSS JOIN UNNEST(o.items) WITH ORDINALITY AS i(x, n)"},
	{"SELECT x FROM t, UNNEST(t.arr) AS u(x)", "SELECT x FROM t CROSS JOIN UNNEST(t.arr) AS u(x)"},
	{"SELECT x FROM t LEFT JOIN UNNEST(t.arr) AS u(x) ON TRUE", "SELECT x FROM t LEFT JOIN UNNEST(t.arr) AS u(x) ON TRUE"},
	{"SELECT t.a, x.b FROM t, LATERAL (SELECT b FROM u WHERE u.k = t.k ORDER BY b LIMIT 2) AS x",
		"SELECT t.a, x.b FROM t CROSS JOIN LATERAL (SELECT b FROM u WHERE (u.k = t.k) ORDER BY b LIMIT 2) AS x"},
	{"SELECT a, b AS c, d e, `f g` FROM t", "SELECT a, b AS c, d AS e, `f g` FROM t"},
	{"SELECT t.*, u.v.* FROM t", "SELECT t.*, u.v.* FROM t"},
	{"SELECT DISTINCT a FROM t WHERE a > 1 GROUP BY a HAVING COUNT(*) > 1 ORDER BY a DESC, b ASC NULLS FIRST LIMIT 10 OFFSET 5 ROWS",
		"SELECT DISTINCT a FROM t WHERE (a > 1) GROUP BY a HAVING (COUNT(*) > 1) ORDER BY a DESC, b NULLS FIRST LIMIT 10 OFFSET 5 ROWS"},
	{"SELECT a FROM t FETCH FIRST 3 ROWS ONLY", "SELECT a FROM t LIMIT 3"},
	{"SELECT 1", "SELECT 1"},
	{"SELECT a FROM t UNION ALL SELECT b FROM u", "(SELECT a FROM t) UNION ALL (SELECT b FROM u)"},
	{"SELECT a FROM t UNION SELECT b FROM u INTERSECT SELECT c FROM v",
		"(SELECT a FROM t) UNION ((SELECT b FROM u) INTERSECT (SELECT c FROM v))"},
	{"SELECT a FROM t EXCEPT SELECT b FROM u MINUS SELECT c FROM v",
		"((SELECT a FROM t) EXCEPT (SELECT b FROM u)) EXCEPT (SELECT c FROM v)"},
	{"(SELECT a FROM t) UNION (SELECT a FROM u) ORDER BY a LIMIT 1",
		"(SELECT a FROM t) UNION (SELECT a FROM u) ORDER BY a LIMIT 1"},
	{"(SELECT a FROM t LIMIT 2) LIMIT 1", "SELECT * FROM (SELECT a FROM t LIMIT 2) LIMIT 1"},
	{"VALUES (1, 'a'), (2, 'b')", "VALUES (1, 'a'), (2, 'b')"},
	{"WITH a AS (SELECT 1 AS x), b (y) AS (SELECT x FROM a) SELECT * FROM b ORDER BY y",
		"WITH a AS (SELECT 1 AS x), b (y) AS (SELECT x FROM a) SELECT * FROM b ORDER BY y"},
	{"SELECT * FROM (VALUES (1), (2)) AS t(a)", "SELECT * FROM (VALUES (1), (2)) AS t(a)"},
	{"SELECT * FROM (SELECT 1) x", "SELECT * FROM (SELECT 1) AS x"},
	{"SELECT * FROM cat.db.t AS x (a, b)", "SELECT * FROM cat.db.t AS x(a, b)"},
	{"SELECT * FROM a JOIN b ON a.k = b.k LEFT OUTER JOIN c USING (k) RIGHT JOIN d ON TRUE FULL OUTER JOIN e ON TRUE CROSS JOIN f",
		"SELECT * FROM a INNER JOIN b ON (a.k = b.k) LEFT JOIN c USING (k) RIGHT JOIN d ON TRUE FULL JOIN e ON TRUE CROSS JOIN f"},
	{"SELECT * FROM a, b JOIN c ON TRUE", "SELECT * FROM a CROSS JOIN (b INNER JOIN c ON TRUE)"},
	{"SELECT * FROM (a JOIN b ON TRUE)", "SELECT * FROM a INNER JOIN b ON TRUE"},
	{"SELECT * FROM o JOIN r FOR SYSTEM_TIME AS OF o.proc AS rr ON o.k = rr.k",
		"SELECT * FROM o INNER JOIN r FOR SYSTEM_TIME AS OF o.proc AS rr ON (o.k = rr.k)"},
	{"SELECT * FROM o JOIN r AS rr FOR SYSTEM_TIME AS OF o.proc ON TRUE",
		"SELECT * FROM o INNER JOIN r FOR SYSTEM_TIME AS OF o.proc AS rr ON TRUE"},
	{"SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '6' HOURS))",
		"SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '6' HOUR))"},
	{"SELECT * FROM TABLE(HOP(DATA => TABLE t, TIMECOL => DESCRIPTOR(ts), SLIDE => INTERVAL '5' MINUTES, SIZE => INTERVAL '10' MINUTES))",
		"SELECT * FROM TABLE(HOP(DATA => TABLE t, TIMECOL => DESCRIPTOR(ts), SLIDE => INTERVAL '5' MINUTE, SIZE => INTERVAL '10' MINUTE))"},
	{"SELECT * FROM TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '1' DAY)) w",
		"SELECT * FROM TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '1' DAY)) AS w"},
	{"SELECT * FROM TABLE(SESSION(TABLE t PARTITION BY k, DESCRIPTOR(ts), INTERVAL '1' HOUR))",
		"SELECT * FROM TABLE(SESSION(TABLE t PARTITION BY (k), DESCRIPTOR(ts), INTERVAL '1' HOUR))"},
	{"SELECT a, s FROM t, LATERAL TABLE(split(a)) AS T(s)",
		"SELECT a, s FROM t CROSS JOIN LATERAL TABLE(SPLIT(a)) AS T(s)"},
	{"SELECT a FROM t LEFT JOIN LATERAL TABLE(split(a)) AS T(s) ON TRUE",
		"SELECT a FROM t LEFT JOIN LATERAL TABLE(SPLIT(a)) AS T(s) ON TRUE"},
	{"SELECT a FROM t WHERE a IN (SELECT b FROM u) AND EXISTS (SELECT 1 FROM v)",
		"SELECT a FROM t WHERE ((a IN (SELECT b FROM u)) AND EXISTS (SELECT 1 FROM v))"},
	{"SELECT ((SELECT 1) + 1)", "SELECT ((SELECT 1) + 1)"},
	{"SELECT ((SELECT 1))", "SELECT (SELECT 1)"},
	// Keywords are never taken as implicit aliases.
	{"SELECT a FROM t o inner join u ON TRUE WHERE b GROUP BY c",
		"SELECT a FROM t AS o INNER JOIN u ON TRUE WHERE b GROUP BY c"},
	{"SELECT x FROM t ORDER BY x LIMIT 1", "SELECT x FROM t ORDER BY x LIMIT 1"},
	// Grouping sets: plain expressions, (), lists, nested elements.
	{"SELECT a FROM t GROUP BY GROUPING SETS ((a, b), a, ())",
		"SELECT a FROM t GROUP BY GROUPING SETS ((a, b), (a), ())"},
	{"SELECT a FROM t GROUP BY a, ROLLUP (b, (c, d)), CUBE(e), ()",
		"SELECT a FROM t GROUP BY a, ROLLUP ((b), (c, d)), CUBE ((e)), GROUPING SETS (())"},
	{"SELECT a FROM t GROUP BY GROUPING SETS (ROLLUP(a), (b + 1), ROW(c, d))",
		"SELECT a FROM t GROUP BY GROUPING SETS (ROLLUP ((a)), ((b + 1)), (ROW(c, d)))"},
}

func TestQueries(t *testing.T) {
	for _, tt := range queryTests {
		t.Run(tt.src, func(t *testing.T) {
			s, err := ParseStatement(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := dump(s); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// exprTests pairs source text with its expected rendering.
var exprTests = []struct{ src, want string }{
	// Value constructors and element access print as written.
	{"ARRAY[1, 2][1] + MAP['a', 1]['a']", "(ARRAY[1, 2][1] + MAP['a', 1]['a'])"},
	{"r.f.g[2]", "r.f.g[2]"},
	{"(a || b)[1]", "(a || b)[1]"},
	{"f(x).y", "F(x).y"},
	{"(-a)[1]", "(-a)[1]"},
	// Quantified comparisons print as written.
	{"x > ANY (1, y + 1)", "(x > ANY (1, (y + 1)))"},
	{"x = some ((1), 2) OR x <> all (3)", "((x = SOME (1, 2)) OR (x <> ALL (3)))"},
	{"x = SOME (SELECT y FROM t)", "(x = SOME (SELECT y FROM t))"},
	{"x <> ALL (SELECT y FROM t)", "(x <> ALL (SELECT y FROM t))"},
	{"x = all (SELECT y FROM t)", "(x = ALL (SELECT y FROM t))"},
	{"x + 1 != any (SELECT y FROM t) AND NOT x <= ALL (VALUES 1)", "(((x + 1) <> ANY (SELECT y FROM t)) AND NOT (x <= ALL (VALUES (1))))"},
	// The SQL/JSON query functions with their clauses, and IS JSON.
	{"JSON_VALUE(j, 'lax $.a' RETURNING INT DEFAULT 0 ON EMPTY ERROR ON ERROR)",
		"JSON_VALUE(j, 'lax $.a' RETURNING INT DEFAULT 0 ON EMPTY ERROR ON ERROR)"},
	{"JSON_VALUE(j, '$.a' ERROR ON ERROR)", "JSON_VALUE(j, '$.a' RETURNING STRING NULL ON EMPTY ERROR ON ERROR)"},
	{"JSON_VALUE(j, '$.a' DEFAULT 'x' ON ERROR)", "JSON_VALUE(j, '$.a' RETURNING STRING NULL ON EMPTY DEFAULT 'x' ON ERROR)"},
	{"JSON_QUERY(j, '$' WITH ARRAY WRAPPER EMPTY OBJECT ON EMPTY)",
		"JSON_QUERY(j, '$' RETURNING STRING WITH UNCONDITIONAL ARRAY WRAPPER EMPTY OBJECT ON EMPTY NULL ON ERROR)"},
	{"JSON_QUERY(j, '$' RETURNING ARRAY<STRING> WITH CONDITIONAL WRAPPER EMPTY ARRAY ON ERROR)",
		"JSON_QUERY(j, '$' RETURNING ARRAY<STRING> WITH CONDITIONAL ARRAY WRAPPER NULL ON EMPTY EMPTY ARRAY ON ERROR)"},
	{"JSON_EXISTS(j, 'strict $.a' UNKNOWN ON ERROR)", "JSON_EXISTS(j, 'strict $.a' UNKNOWN ON ERROR)"},
	{"j IS JSON AND j IS NOT JSON ARRAY", "((j IS JSON VALUE) AND NOT (j IS JSON ARRAY))"},
	// Precedence.
	{"a + b * c - d / e % f || g", "(((a + (b * c)) - ((d / e) % f)) || g)"},
	{"a OR b AND c", "(a OR (b AND c))"},
	{"NOT a = 1 AND b OR c IS NOT NULL", "((NOT (a = 1) AND b) OR (c IS NOT NULL))"},
	{"NOT NOT a", "NOT NOT a"},
	{"-a * b", "(-a * b)"},
	{"- -1", "-(-1)"},
	{"-(a + b)", "-(a + b)"},
	{"+a", "+a"},
	{"a = b + 1", "(a = (b + 1))"},
	{"a || b = c", "((a || b) = c)"},
	{"a < b AND b <= c AND c > d AND d >= e AND e <> f AND f != g",
		"((((((a < b) AND (b <= c)) AND (c > d)) AND (d >= e)) AND (e <> f)) AND (f <> g))"},
	{"x BETWEEN 1 AND 2 AND y", "((x BETWEEN 1 AND 2) AND y)"},
	{"x NOT BETWEEN SYMMETRIC a + 1 AND b * 2", "(x NOT BETWEEN SYMMETRIC (a + 1) AND (b * 2))"},
	{"x BETWEEN ASYMMETRIC 1 AND 2", "(x BETWEEN 1 AND 2)"},
	{"a = 1 AND ts BETWEEN lo AND hi + INTERVAL '7' DAY", "((a = 1) AND (ts BETWEEN lo AND (hi + INTERVAL '7' DAY)))"},
	// Predicates.
	{"a IN (1, 2, 3)", "(a IN (1, 2, 3))"},
	{"a NOT IN (SELECT x FROM u)", "(a NOT IN (SELECT x FROM u))"},
	{"c LIKE 'a%' ESCAPE '!'", "(c LIKE 'a%' ESCAPE '!')"},
	{"c NOT LIKE 'a%'", "(c NOT LIKE 'a%')"},
	{"d SIMILAR TO 'x'", "(d SIMILAR TO 'x')"},
	{"d NOT SIMILAR TO 'x'", "(d NOT SIMILAR TO 'x')"},
	{"a IS NULL", "(a IS NULL)"},
	{"a IS NOT TRUE", "(a IS NOT TRUE)"},
	{"a IS FALSE", "(a IS FALSE)"},
	{"a IS UNKNOWN", "(a IS UNKNOWN)"},
	{"a IS DISTINCT FROM b", "(a IS DISTINCT FROM b)"},
	{"a IS NOT DISTINCT FROM b + 1", "(a IS NOT DISTINCT FROM (b + 1))"},
	{"EXISTS (SELECT 1)", "EXISTS (SELECT 1)"},
	{"(SELECT MAX(x) FROM t)", "(SELECT MAX(x) FROM t)"},
	// Literals.
	{"TRUE", "TRUE"},
	{"false", "FALSE"},
	{"null", "NULL"},
	{"12", "12"},
	{"1.5e-3", "1.5e-3"},
	{".5", ".5"},
	{"'it''s'", "'it''s'"},
	{"X'0aFF'", "X'0aFF'"},
	{"DATE '2020-01-01'", "DATE '2020-01-01'"},
	{"TIME '12:00:00'", "TIME '12:00:00'"},
	{"TIMESTAMP '2020-01-01 00:00:00.123'", "TIMESTAMP '2020-01-01 00:00:00.123'"},
	{"TIMESTAMP_LTZ '2020-01-01 00:00:00'", "TIMESTAMP_LTZ '2020-01-01 00:00:00'"},
	{"INTERVAL '6' HOURS", "INTERVAL '6' HOUR"},
	{"INTERVAL -'1' DAYS", "INTERVAL -'1' DAY"},
	{"INTERVAL '1:30' HOUR TO MINUTE", "INTERVAL '1:30' HOUR TO MINUTE"},
	{"INTERVAL '1-2' YEAR TO MONTH", "INTERVAL '1-2' YEAR TO MONTH"},
	{"INTERVAL '6' HOUR(2)", "INTERVAL '6' HOUR(2)"}, // the qualifier's precisions are kept
	{"INTERVAL '1 02:03:04.5' DAY(2) TO SECOND(3)", "INTERVAL '1 02:03:04.5' DAY(2) TO SECOND(3)"},
	{"INTERVAL '1.5' SECOND(3, 6)", "INTERVAL '1.5' SECOND(3, 6)"},
	{"INTERVAL '2' YEARS", "INTERVAL '2' YEAR"},
	{"INTERVAL '3' MONTHS + INTERVAL '10' SECONDS", "(INTERVAL '3' MONTH + INTERVAL '10' SECOND)"},
	// Identifiers.
	{"a.b.c", "a.b.c"},
	{"`weird col`.`x``y`", "`weird col`.`x``y`"},
	{"`select`", "`select`"},
	{"MixedCase", "MixedCase"},
	// CASE and CAST.
	{"CASE WHEN a > 1 THEN 'x' WHEN a < 0 THEN 'y' ELSE 'z' END",
		"CASE WHEN (a > 1) THEN 'x' WHEN (a < 0) THEN 'y' ELSE 'z' END"},
	{"CASE a WHEN 1 THEN 2 END", "CASE a WHEN 1 THEN 2 END"},
	// "CASE value WHEN value1_1 [, value1_2]* THEN result1 ..."
	{"CASE a WHEN 1, 2 THEN 'x' WHEN 3 THEN 'y' END", "CASE a WHEN 1, 2 THEN 'x' WHEN 3 THEN 'y' END"},
	{"CAST(a AS BIGINT)", "CAST(a AS BIGINT)"},
	{"TRY_CAST(b AS DECIMAL(10, 2))", "TRY_CAST(b AS DECIMAL(10, 2))"},
	{"CAST(c AS VARCHAR(5) NOT NULL)", "CAST(c AS VARCHAR(5) NOT NULL)"},
	{"CAST(d AS TIMESTAMP(3) WITH LOCAL TIME ZONE)", "CAST(d AS TIMESTAMP_LTZ(3))"},
	// Function calls.
	{"count(*)", "COUNT(*)"},
	{"COUNT(DISTINCT x)", "COUNT(DISTINCT x)"},
	{"SUM(ALL x)", "SUM(x)"},
	{"SUM(y) FILTER (WHERE y > 0)", "SUM(y) FILTER (WHERE (y > 0))"},
	{"ROW_NUMBER() OVER (PARTITION BY a ORDER BY b DESC)", "ROW_NUMBER() OVER (PARTITION BY a ORDER BY b DESC)"},
	{"SUM(x) OVER (PARTITION BY a ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)",
		"SUM(x) OVER (PARTITION BY a ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)"},
	{"AVG(x) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW)",
		"AVG(x) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW)"},
	{"MAX(x) OVER (ORDER BY ts ROWS UNBOUNDED PRECEDING)",
		"MAX(x) OVER (ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
	{"MIN(x) OVER (ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)",
		"MIN(x) OVER (ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)"},
	{"LAG(x) OVER ()", "LAG(x) OVER ()"},
	{"my_udf(a => 1, `b` => 'x')", "MY_UDF(A => 1, `b` => 'x')"},
	{"HOP(DATA => TABLE t, OFFSET => INTERVAL '1' MINUTE)", "HOP(DATA => TABLE t, OFFSET => INTERVAL '1' MINUTE)"},
	{"`myFunc`(1)", "`myFunc`(1)"},
	{"db.fn(1)", "DB.FN(1)"},
	{"EXTRACT(HOUR FROM ts)", "EXTRACT(HOUR FROM ts)"},
	{"EXTRACT(DOW FROM ts)", "EXTRACT(DOW FROM ts)"},
	{"FLOOR(ts TO DAY)", "FLOOR(ts TO DAY)"},
	{"CEIL(ts TO HOUR)", "CEIL(ts TO HOUR)"},
	{"CEILING(1.5)", "CEIL(1.5)"},
	{"FLOOR(1.5)", "FLOOR(1.5)"},
	{"TIMESTAMPDIFF(DAY, a, b)", "TIMESTAMPDIFF(DAY, a, b)"},
	{"TIMESTAMPADD(MINUTES, 5, ts)", "TIMESTAMPADD(MINUTE, 5, ts)"},
	{"SUBSTRING(s FROM 2 FOR 3)", "SUBSTRING(s, 2, 3)"},
	{"SUBSTRING(s FROM 2)", "SUBSTRING(s, 2)"},
	{"SUBSTRING(s, 1, 2)", "SUBSTRING(s, 1, 2)"},
	{"POSITION('a' IN s)", "POSITION('a' IN s)"},
	{"TRIM(BOTH 'x' FROM s)", "TRIM(BOTH 'x' FROM s)"},
	{"TRIM(LEADING FROM s)", "TRIM(LEADING FROM s)"},
	{"TRIM(TRAILING ' ' FROM s)", "TRIM(TRAILING ' ' FROM s)"},
	{"TRIM(' ' FROM s)", "TRIM(BOTH ' ' FROM s)"},
	{"TRIM(s)", "TRIM(BOTH FROM s)"},
	{"OVERLAY(s PLACING 'x' FROM 2 FOR 1)", "OVERLAY(s PLACING 'x' FROM 2 FOR 1)"},
	{"LEFT('abc', 2)", "LEFT('abc', 2)"},
	{"right(s, n) || 'x'", "(RIGHT(s, n) || 'x')"},
	{"(TIME '2:55:00', INTERVAL '1' HOUR) OVERLAPS (a, b)", "((TIME '2:55:00', INTERVAL '1' HOUR) OVERLAPS (a, b))"},
	{"(a, b) OVERLAPS (c, d) AND x", "(((a, b) OVERLAPS (c, d)) AND x)"},
	{"CURRENT_CATALOG", "CURRENT_CATALOG"},
	{"JSON_OBJECT()", "JSON_OBJECT(NULL ON NULL)"},
	{"JSON_OBJECT('K1' VALUE 'V1', KEY 'K2' VALUE x ABSENT ON NULL)", "JSON_OBJECT(KEY 'K1' VALUE 'V1', KEY 'K2' VALUE x ABSENT ON NULL)"},
	{"JSON_OBJECT(key VALUE JSON_OBJECT(KEY 'K2' VALUE 'V'))", "JSON_OBJECT(KEY key VALUE JSON_OBJECT(KEY 'K2' VALUE 'V' NULL ON NULL) NULL ON NULL)"},
	{"JSON_OBJECT('K' VALUE JSON(s))", "JSON_OBJECT(KEY 'K' VALUE JSON(s) NULL ON NULL)"},
	{"JSON_ARRAY()", "JSON_ARRAY(ABSENT ON NULL)"},
	{"JSON_ARRAY(NULL ON NULL)", "JSON_ARRAY(NULL ON NULL)"},
	{"JSON_ARRAY(1, NULL, JSON_ARRAY(1) NULL ON NULL)", "JSON_ARRAY(1, NULL, JSON_ARRAY(1 ABSENT ON NULL) NULL ON NULL)"},
	{"CURRENT_DATABASE()", "CURRENT_DATABASE()"},
	{"CURRENT_TIMESTAMP", "CURRENT_TIMESTAMP"},
	{"current_date", "CURRENT_DATE"},
	{"CURRENT_TIME", "CURRENT_TIME"},
	{"LOCALTIMESTAMP", "LOCALTIMESTAMP"},
	{"CURRENT_ROW_TIMESTAMP()", "CURRENT_ROW_TIMESTAMP()"},
	{"PROCTIME()", "PROCTIME()"},
	{"proctime", "proctime"},
	{"TO_TIMESTAMP(FROM_UNIXTIME(click_ts_raw))", "TO_TIMESTAMP(FROM_UNIXTIME(click_ts_raw))"},
	// Rows, descriptors, table arguments.
	{"ROW(1, 'a')", "ROW(1, 'a')"},
	{"(1, 2)", "ROW(1, 2)"},
	{"((a))", "a"},
	{"DESCRIPTOR(a, b)", "DESCRIPTOR(a, b)"},
	{"TABLE t", "TABLE t"},
}

func TestExprs(t *testing.T) {
	for _, tt := range exprTests {
		t.Run(tt.src, func(t *testing.T) {
			e, err := ParseExpr(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := FormatExpr(e); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			// The canonical form reads back as itself.
			again, err := ParseExpr(tt.want)
			if err != nil {
				t.Fatalf("reparsing %s: %v", tt.want, err)
			}
			if got := FormatExpr(again); got != tt.want {
				t.Errorf("reparsed as %s", got)
			}
		})
	}
}

func TestExprNodes(t *testing.T) {
	e, err := ParseExpr("COUNT(*)")
	if err != nil {
		t.Fatal(err)
	}
	if c := e.(*ast.FuncCall); !c.Star || c.Args != nil {
		t.Errorf("COUNT(*) = %#v", c)
	}
	e, _ = ParseExpr("TIMESTAMP '2020-01-01 00:00:00.123'")
	if lit := e.(*ast.TypedLiteral); lit.Type != (types.Type{Kind: types.Timestamp, Precision: 3, NotNull: true}) {
		t.Errorf("timestamp literal type %v", lit.Type)
	}
	e, _ = ParseExpr("INTERVAL '1:30' HOUR TO MINUTE")
	if iv := e.(*ast.IntervalLiteral); iv.Unit != ast.Hour || iv.ToUnit != ast.Minute || iv.Value != "1:30" {
		t.Errorf("interval %#v", iv)
	}
	e, _ = ParseExpr("TRIM(LEADING 'x' FROM s)")
	if c := e.(*ast.FuncCall); c.TrimMode != "LEADING" || FormatExpr(c.Args[0]) != "s" || FormatExpr(c.Args[1]) != "'x'" {
		t.Errorf("TRIM = %#v", c)
	}
	e, _ = ParseExpr("f(a) OVER (ORDER BY ts ROWS 5 PRECEDING)")
	fr := e.(*ast.FuncCall).Over.Frame
	if !fr.Rows || fr.Lo.Kind != "PRECEDING" || FormatExpr(fr.Lo.Offset) != "5" || fr.Hi.Kind != "CURRENT ROW" {
		t.Errorf("frame %#v", fr)
	}
	e, _ = ParseExpr("ts BETWEEN a AND b")
	if b := e.(*ast.Between); b.Not || b.Symmetric {
		t.Errorf("BETWEEN %#v", b)
	}
}

func TestTypes(t *testing.T) {
	tests := []struct {
		src  string
		want types.Type
	}{
		{"BOOLEAN", types.Type{Kind: types.Boolean}},
		{"TINYINT", types.Type{Kind: types.TinyInt}},
		{"SMALLINT", types.Type{Kind: types.SmallInt}},
		{"INT", types.IntType},
		{"integer NOT NULL", types.Type{Kind: types.Int, NotNull: true}},
		{"BIGINT NULL", types.BigIntType},
		{"FLOAT", types.Type{Kind: types.Float}},
		{"REAL", types.Type{Kind: types.Float}},
		{"DOUBLE", types.DoubleType},
		{"DOUBLE PRECISION", types.DoubleType},
		{"DECIMAL", types.DecimalType(10, 0)},
		{"DEC(5)", types.DecimalType(5, 0)},
		{"NUMERIC(38, 18)", types.DecimalType(38, 18)},
		{"CHAR", types.Type{Kind: types.Char, Length: 1}},
		{"CHAR(3)", types.Type{Kind: types.Char, Length: 3}},
		{"VARCHAR", types.StringType},
		{"VARCHAR(10)", types.Type{Kind: types.Varchar, Length: 10}},
		{"STRING", types.StringType},
		{"STRING NOT NULL", types.StringType.WithNotNull(true)},
		{"BINARY", types.Type{Kind: types.Binary, Length: 1}},
		{"BINARY(16)", types.Type{Kind: types.Binary, Length: 16}},
		{"VARBINARY(4)", types.Type{Kind: types.Varbinary, Length: 4}},
		{"BYTES", types.Type{Kind: types.Varbinary, Length: types.MaxVarcharLength}},
		{"DATE", types.Type{Kind: types.Date}},
		{"TIME", types.Type{Kind: types.Time}},
		{"TIME(3)", types.Type{Kind: types.Time, Precision: 3}},
		{"TIMESTAMP", types.TimestampType(6)},
		{"TIMESTAMP(3)", types.TimestampType(3)},
		{"TIMESTAMP(9) WITHOUT TIME ZONE", types.TimestampType(9)},
		{"TIMESTAMP WITH LOCAL TIME ZONE", types.TimestampLTZType(6)},
		{"TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL", types.TimestampLTZType(3).WithNotNull(true)},
		{"TIMESTAMP_LTZ", types.TimestampLTZType(6)},
		{"TIMESTAMP_LTZ(3)", types.TimestampLTZType(3)},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e, err := ParseExpr("CAST(x AS " + tt.src + ")")
			if err != nil {
				t.Fatal(err)
			}
			if got := e.(*ast.Cast).Type; got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestPositions(t *testing.T) {
	src := "SET 'a' = 'b';\n-- comment; with a semicolon\nSELECT a,\n       f(b) AS c\nFROM t;\n  INSERT INTO u\n  SELECT `x;y` FROM v WHERE s = ';';\n"
	stmts := parseFile(t, src)
	if len(stmts) != 3 {
		t.Fatalf("got %d statements", len(stmts))
	}
	pos := func(n ast.Node, line, col int) {
		t.Helper()
		if got := n.Position(); got != (ast.Pos{Line: line, Col: col}) {
			t.Errorf("%T at %v, want %d:%d", n, got, line, col)
		}
	}
	pos(stmts[0], 1, 1)
	q := stmts[1].(*ast.QueryStatement)
	pos(q, 3, 1)
	sel := q.Query.(*ast.Select)
	pos(sel, 3, 1)
	pos(sel.Items[0].Expr, 3, 8)
	pos(sel.Items[1], 4, 8)
	pos(sel.Items[1].Expr, 4, 8)
	pos(sel.Items[1].Expr.(*ast.FuncCall).Args[0], 4, 10)
	pos(sel.From, 5, 6)
	ins := stmts[2].(*ast.Insert)
	pos(ins, 6, 3)
	pos(ins.Table, 6, 15)
	isel := ins.Query.(*ast.Select)
	pos(isel, 7, 3)
	if got := isel.Items[0].Expr.(*ast.Ident).Parts[0]; got != "x;y" {
		t.Errorf("quoted identifier %q", got)
	}
	w := isel.Where.(*ast.Binary)
	pos(w, 7, 29)
	pos(w.R, 7, 33)

	// Multi-byte characters count as one column.
	s, err := ParseStatement("SELECT 'héllo', x")
	if err != nil {
		t.Fatal(err)
	}
	pos(s.(*ast.QueryStatement).Query.(*ast.Select).Items[1].Expr, 1, 17)
}

func TestSplitStatements(t *testing.T) {
	src := "SELECT ';' -- ;\n FROM t /* ; */;\n\n  -- only a comment;\nBEGIN STATEMENT SET;\nINSERT INTO a SELECT 1;\nEND;\nSELECT `a;b`;\nSELECT 'unfinished"
	want := []Chunk{
		{Text: "SELECT ';' -- ;\n FROM t /* ; */;", Line: 1, Col: 1, Terminated: true},
		{Text: "BEGIN STATEMENT SET;", Line: 5, Col: 1, Terminated: true},
		{Text: "INSERT INTO a SELECT 1;", Line: 6, Col: 1, Terminated: true},
		{Text: "END;", Line: 7, Col: 1, Terminated: true},
		{Text: "SELECT `a;b`;", Line: 8, Col: 1, Terminated: true},
		{Text: "SELECT 'unfinished", Line: 9, Col: 1},
	}
	got := SplitStatements(src)
	if !slices.Equal(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}

	tests := []struct {
		src      string
		complete bool
	}{
		{"SELECT 1;", true},
		{"SELECT 1", false},
		{"SELECT ';'", false},
		{"SELECT 1 /* ; */", false},
		{"SELECT 1; -- trailing", true},
		{"BEGIN STATEMENT SET;", true},
		{"BEGIN STATEMENT SET; INSERT INTO a SELECT 1", false},
		{"BEGIN STATEMENT SET; INSERT INTO a SELECT 1;", true},
		{"EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1;", false},
		{"EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; END;", true},
		{"COMPILE PLAN 'p.json' IF NOT EXISTS FOR STATEMENT SET BEGIN INSERT INTO a SELECT 1;", false},
		{"COMPILE AND EXECUTE PLAN 'p.json' FOR EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; END;", true},
		{"EXPLAIN CHANGELOG_MODE, JSON_EXECUTION_PLAN STATEMENT SET BEGIN INSERT INTO a SELECT 1;", false},
		{"COMPILE PLAN 'p.json' FOR INSERT INTO a SELECT 1;", true},
	}
	for _, tt := range tests {
		chunks := SplitStatements(tt.src)
		complete := len(chunks) > 0 && chunks[len(chunks)-1].Terminated
		if complete != tt.complete {
			t.Errorf("%q: complete = %v", tt.src, complete)
		}
	}
}

func TestParseScriptStopsAtError(t *testing.T) {
	stmts, err := ParseScript("SET 'a' = 'b';\nSHOW TABLES;\nSELECT FROM t;\nSHOW JOBS;")
	if len(stmts) != 2 {
		t.Errorf("got %d statements before the error", len(stmts))
	}
	var pe *Error
	if !errors.As(err, &pe) || pe.Pos != (ast.Pos{Line: 3, Col: 8}) || pe.Line != "SELECT FROM t;" {
		t.Errorf("error = %#v", err)
	}
}

func TestParseStatementRejectsTwo(t *testing.T) {
	_, err := ParseStatement("SELECT 1; SELECT 2")
	want := "SQL parse error at line 1, column 11: expected end of input, found 'SELECT'\n  SELECT 1; SELECT 2\n            ^"
	if err == nil || err.Error() != want {
		t.Errorf("got %v", err)
	}
	if _, err := ParseStatement(" -- nothing\n"); err == nil {
		t.Error("empty input parsed")
	}
}

func TestFormatError(t *testing.T) {
	src := "SELECT a\nFROM\tt\tWHERE x"
	got := FormatError(src, ast.Pos{Line: 2, Col: 8}, "validation", "column 'x' not found")
	want := "SQL validation error at line 2, column 8: column 'x' not found\n  FROM\tt\tWHERE x\n      \t \t^"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := FormatError(src, ast.Pos{Line: 9, Col: 1}, "validation", "m"); got != "SQL validation error at line 9, column 1: m" {
		t.Errorf("out of range: %q", got)
	}
	long := strings.Repeat("a, ", 100) + "x"
	got = FormatError(long, ast.Pos{Line: 1, Col: 301}, "parse", "m")
	want = "SQL parse error at line 1, column 301: m\n  ..." + long[len(long)-100:] + "\n" + strings.Repeat(" ", 104) + "^"
	if got != want {
		t.Errorf("long line:\n%s\nwant\n%s", got, want)
	}
	got = FormatError(long, ast.Pos{Line: 1, Col: 1}, "parse", "m")
	want = "SQL parse error at line 1, column 1: m\n  " + long[:100] + "...\n  ^"
	if got != want {
		t.Errorf("long line:\n%s\nwant\n%s", got, want)
	}
}

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestErrorGolden parses each testdata/errors/*.sql, which must fail, and
// compares the rendered error with the matching .err file.
func TestErrorGolden(t *testing.T) {
	paths, err := filepath.Glob("testdata/errors/*.sql")
	if err != nil || len(paths) == 0 {
		t.Fatal("no golden error cases")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			_, perr := ParseScript(string(src))
			var pe *Error
			if !errors.As(perr, &pe) {
				t.Fatalf("got %v, want a parse error", perr)
			}
			got := pe.Error() + "\n"
			golden := strings.TrimSuffix(path, ".sql") + ".err"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestDeepNesting(t *testing.T) {
	_, err := ParseStatement("SELECT " + strings.Repeat("(", 10000) + "1")
	if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("got %v", err)
	}
	_, err = ParseStatement("SELECT " + strings.Repeat("- ", 10000) + "1")
	if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("got %v", err)
	}
	// Parentheses that may open either a query or an expression are parsed
	// once, not retried, so this fails quickly.
	if _, err := ParseStatement(strings.Repeat("((SELECT (", 30)); err == nil {
		t.Error("unbalanced input parsed")
	}
	s, err := ParseStatement("SELECT " + strings.Repeat("(", 50) + "SELECT 1" + strings.Repeat(")", 50))
	if err != nil {
		t.Fatal(err)
	}
	if got := dump(s); got != "SELECT (SELECT 1)" {
		t.Errorf("got %s", got)
	}
}

// TestOptionGivenTwiceAlike: a key given twice with the same value drops
// nothing, so it stays accepted (Flink keeps one of them); with another
// value it is refused (testdata/errors/option_twice.sql).
func TestOptionGivenTwiceAlike(t *testing.T) {
	s, err := ParseStatement("CREATE TABLE t (a INT) WITH ('format' = 'json', 'format' = 'json')")
	if err != nil {
		t.Fatal(err)
	}
	if opts := s.(*ast.CreateTable).Options; len(opts) != 2 || opts[1].Value != "json" {
		t.Fatalf("options %+v", opts)
	}
}
