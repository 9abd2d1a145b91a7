package planner_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	execplan "github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/planner"
)

// TestExecutionPlan translates every testdata/explain/*.sql case into an
// execution plan and compares its JSON with the .json file beside it (-update
// rewrites them). The node IDs are part of what is compared: checkpoints
// keep state by them, so a change that moves them must be deliberate. The
// plan must read back into the same bytes, and planning the case again,
// on a catalog of its own, must give the same IDs.
func TestExecutionPlan(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "explain", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no EXPLAIN cases in testdata/explain: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".sql"), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			text := encode(t, string(src))
			back, err := execplan.Decode(text)
			if err != nil {
				t.Fatal(err)
			}
			if again, err := back.Encode(); err != nil || !bytes.Equal(again, text) {
				t.Errorf("the plan read back writes differently (%v):\n%s", err, again)
			}
			if again := encode(t, string(src)); !bytes.Equal(again, text) {
				t.Errorf("planning again gave another plan:\n%s", again)
			}
			golden := strings.TrimSuffix(f, ".sql") + ".json"
			if *update {
				if err := os.WriteFile(golden, text, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestExecutionPlan -update to create it)", err)
			}
			if !bytes.Equal(text, want) {
				t.Errorf("execution plan differs from %s\n--- got:\n%s", golden, text)
			}
		})
	}
}

// encode plans the last statement of script and writes its execution plan.
func encode(t *testing.T, script string) []byte {
	t.Helper()
	p, err := planner.ExecutionPlan(reuseOf(script), plan(t, script))
	if err != nil {
		t.Fatal(err)
	}
	text, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// TestExecutionPlanDuplicates: a node planned twice alike (a table read
// on both sides of a UNION ALL) gets the same ID with an ordinal when
// nothing is reused; with sub-plans reused, equal nodes are one node and
// their consumers read it, the scans too when sources are reused
// (Flink's SubplanReuser, table.optimizer.reuse-source-enabled). Equal
// filters over scans not reused are one filter over one scan, as in
// Flink, whose SubplanReuser reuses a Calc over a table source's scan
// whatever reuse-source-enabled says.
func TestExecutionPlanDuplicates(t *testing.T) {
	const ddl = `CREATE TABLE t (a INT) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json');
`
	for _, c := range []struct {
		name  string
		reuse planner.Reuse
		query string
		// scans and calcs are how many of each the plan has; read is how
		// many inputs of the Union read a scan's or Calc's first ID.
		scans, calcs, read int
	}{
		{"no reuse", planner.Reuse{}, "SELECT a FROM t UNION ALL SELECT a FROM t", 2, 0, 1},
		{"sources not reused", planner.Reuse{SubPlans: true}, "SELECT a FROM t UNION ALL SELECT a FROM t", 2, 0, 1},
		{"sources reused", planner.Reuse{SubPlans: true, Sources: true}, "SELECT a FROM t UNION ALL SELECT a FROM t", 1, 0, 2},
		{"sources alone", planner.Reuse{Sources: true}, "SELECT a FROM t UNION ALL SELECT a FROM t", 2, 0, 1},
		{"filters", planner.Reuse{SubPlans: true}, "SELECT a FROM t WHERE a > 1 UNION ALL SELECT a FROM t WHERE a > 1", 1, 1, 2},
		{"filters apart", planner.Reuse{SubPlans: true, Sources: true}, "SELECT a FROM t WHERE a > 1 UNION ALL SELECT a FROM t WHERE a > 2", 1, 2, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := planner.ExecutionPlan(c.reuse, plan(t, ddl+c.query))
			if err != nil {
				t.Fatal(err)
			}
			var scans, calcs []string
			var union *execplan.Node
			for _, n := range p.Nodes {
				switch n.Kind {
				case execplan.KindScan:
					scans = append(scans, n.ID)
				case execplan.KindCalc:
					calcs = append(calcs, n.ID)
				case execplan.KindUnion:
					union = n
				}
			}
			if len(scans) != c.scans || len(calcs) != c.calcs {
				t.Fatalf("%d scans and %d calcs, want %d and %d", len(scans), len(calcs), c.scans, c.calcs)
			}
			if c.scans == 2 && scans[1] != scans[0]+"-1" {
				t.Errorf("scan IDs %v, want an ID and the same with -1", scans)
			}
			first := scans[0]
			if c.calcs > 0 {
				first = calcs[0]
			}
			read := 0
			for _, in := range union.Inputs {
				if in.Node == first {
					read++
				}
			}
			if read != c.read {
				t.Errorf("the union reads %s %d times, want %d", first, read, c.read)
			}
		})
	}
}

// BenchmarkExecutionPlanWideUnion translates a UNION ALL of 1,000 equal
// inputs, each node of which gets the ID of the others with an ordinal:
// finding the ordinal must not cost a scan of the plan per ID tried.
func BenchmarkExecutionPlanWideUnion(b *testing.B) {
	root := plan(b, "SELECT 1"+strings.Repeat(" UNION ALL SELECT 1", 1000))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := planner.ExecutionPlan(planner.Reuse{}, root); err != nil {
			b.Fatal(err)
		}
	}
}
