package parser

import (
	"os"
	"path/filepath"
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
