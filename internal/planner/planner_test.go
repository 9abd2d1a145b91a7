package planner_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/catalog"
	_ "github.com/sluicesql/sluice/internal/connector/kafka" // registers kafka and upsert-kafka
	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

var update = flag.Bool("update", false, "rewrite the .plan and .json files of testdata/explain from the planner's output")

// expectRE matches an expectation comment of an EXPLAIN case:
//
//	-- expect: GroupAggregate [I,UB,UA,D]
//
// which requires a plan line for a node of that name with that changelog
// mode.
var expectRE = regexp.MustCompile(`(?m)^--\s*expect:\s*(\w+)\s+\[([A-Z,]+)\]\s*$`)

// planLineRE splits a plan line into its node name and changelog mode.
var planLineRE = regexp.MustCompile(`^[ +:-]*(\w+)\(.*, changelogMode=\[([A-Z,]+)\]\)$`)

// plan binds the DDL of script into a fresh catalog and plans its last
// statement (a query or INSERT, optionally under EXPLAIN).
func plan(t testing.TB, script string) planner.Node {
	t.Helper()
	root, _ := planLogical(t, script)
	return root
}

// planLogical is plan, with the text of the logical plan the binder built
// before the rules (EXPLAIN's Abstract Syntax Tree).
func planLogical(t testing.TB, script string) (root planner.Node, logical string) {
	t.Helper()
	stmts, err := parser.ParseScript(script)
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) == 0 {
		t.Fatal("the script has no statements")
	}
	b := &planner.Binder{Catalog: catalog.New()}
	for _, st := range stmts[:len(stmts)-1] {
		switch s := st.(type) {
		case *ast.CreateTable:
			tbl, err := b.CreateTable(s)
			if err != nil {
				t.Fatalf("CREATE TABLE at line %d: %v", s.Pos.Line, err)
			}
			if err := b.Catalog.AddTable(tbl, false); err != nil {
				t.Fatal(err)
			}
		case *ast.CreateView:
			if _, err := b.Query(s.Query); err != nil {
				t.Fatalf("CREATE VIEW at line %d: %v", s.Pos.Line, err)
			}
			v := &catalog.View{Name: s.Name.Parts[len(s.Name.Parts)-1], Columns: s.Columns, Query: s.Query,
				ScopeCatalog: catalog.DefaultCatalog, ScopeDatabase: catalog.DefaultDatabase}
			if err := b.Catalog.AddView(v, false); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("statement at line %d: only CREATE TABLE and CREATE VIEW may precede the planned statement", st.Position().Line)
		}
	}
	last := stmts[len(stmts)-1]
	if e, ok := last.(*ast.Explain); ok {
		last = e.Statement
	}
	b.Logical = func(n planner.Node) { logical = planner.LogicalPlan(n) }
	switch s := last.(type) {
	case *ast.QueryStatement:
		root, err = b.Query(s.Query)
	case *ast.Insert:
		root, err = b.Insert(s)
	default:
		t.Fatalf("the last statement must be a query or an INSERT, not %T", last)
	}
	if err != nil {
		t.Fatal(err)
	}
	return root, logical
}

// reuseOf is the sub-plan reuse a case plans with: Flink's defaults,
// everything reused, unless a "-- reuse: none" line turns it off.
func reuseOf(src string) planner.Reuse {
	if strings.Contains(src, "\n-- reuse: none\n") {
		return planner.Reuse{}
	}
	return planner.Reuse{SubPlans: true, Sources: true}
}

// nodeModes lists the node names of a rendered physical plan with their
// changelog modes.
func nodeModes(t *testing.T, physical string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(physical), "\n") {
		m := planLineRE.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("plan line without a node and changelog mode: %q", l)
		}
		out[m[1]] = append(out[m[1]], m[2])
	}
	return out
}

// TestExplain plans every testdata/explain/*.sql case and compares what
// EXPLAIN CHANGELOG_MODE prints (the abstract syntax tree, the physical
// plan with changelog modes and the execution plan) with the .plan file beside it. Each case also
// states, in
// "-- expect:" comments, the physical nodes a user relies on and the
// changelog mode each must have, so that a regenerated golden file cannot
// silently accept a wrong plan. Cases plan with sub-plan reuse on, as
// Flink's defaults, unless they say "-- reuse: none" (reuseOf).
func TestExplain(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "explain", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no EXPLAIN cases in testdata/explain: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".sql")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			root, logical := planLogical(t, string(src))
			physical := planner.PhysicalPlan(true, root)
			p, err := planner.ExecutionPlan(reuseOf(string(src)), root)
			if err != nil {
				t.Fatal(err)
			}
			got := planner.Explain(planner.AbstractSyntaxTree(logical), physical, planner.OptimizedExecutionPlan(p))

			expects := expectRE.FindAllStringSubmatch(string(src), -1)
			if len(expects) == 0 {
				t.Fatalf("%s states no '-- expect: Node [MODE]' lines", f)
			}
			modes := nodeModes(t, physical.Body)
			for _, e := range expects {
				node, mode := e[1], e[2]
				if !slices.Contains(modes[node], mode) {
					t.Errorf("want a %s node with changelogMode=[%s]; plan has %s with %v:\n%s", node, mode, node, modes[node], got)
				}
			}

			golden := strings.TrimSuffix(f, ".sql") + ".plan"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestExplain -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("plan differs from %s\n--- got:\n%s--- want:\n%s", golden, got, want)
			}
		})
	}
}
