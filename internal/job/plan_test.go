package job

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// TestEveryKindHasABuilder: each node kind a plan may hold is built by a
// builder.
func TestEveryKindHasABuilder(t *testing.T) {
	for _, k := range plan.Kinds() {
		if builders[k] == nil {
			t.Errorf("no builder for node kind %s", k)
		}
	}
	if len(builders) != len(plan.Kinds()) {
		t.Errorf("%d builders for %d kinds", len(builders), len(plan.Kinds()))
	}
}

var intNN = types.IntType.WithNotNull(true)

// valuesCalcPlan is VALUES (1), (2), (3) read by a Calc with the given
// projection and filter over its column x, and the query's result.
func valuesCalcPlan(t *testing.T, project, filter expr.Expr, calcState ...plan.StateTable) *plan.Plan {
	t.Helper()
	p := plan.New()
	var rows [][]plan.Expr
	for i := 1; i <= 3; i++ {
		rows = append(rows, []plan.Expr{{E: &expr.Literal{V: types.IntValue(int64(i)), T: intNN}}})
	}
	nodes := []*plan.Node{
		{Kind: plan.KindValues, Parallelism: plan.ParallelismSingle, Changelog: plan.InsertOnly,
			Schema: []plan.Field{{Name: "x", Type: plan.Type(intNN)}}, Config: &plan.ValuesConfig{Rows: rows}},
		{Kind: plan.KindCalc, Parallelism: plan.ParallelismInput, Changelog: plan.InsertOnly, Inputs: []plan.Input{{Exchange: plan.Forward}},
			Schema: []plan.Field{{Name: "y", Type: plan.Type(project.Type())}}, State: calcState,
			Config: &plan.CalcConfig{Projects: []plan.Expr{{E: project}}, Filter: plan.Expr{E: filter}}},
		{Kind: plan.KindCollect, Parallelism: plan.ParallelismSingle, Changelog: plan.InsertOnly, Inputs: []plan.Input{{Exchange: plan.Single}},
			Schema: []plan.Field{{Name: "y", Type: plan.Type(project.Type())}}, Config: &plan.CollectConfig{}},
	}
	for i, n := range nodes {
		if i > 0 {
			n.Inputs[0].Node = nodes[i-1].ID
		}
		if err := p.Add(n); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

var x = &expr.Column{Index: 0, Name: "x", T: intNN}

func lit(v int64) *expr.Literal { return &expr.Literal{V: types.IntValue(v), T: intNN} }

// TestBuildFromPlan: a plan read back from JSON runs: its expressions are
// bound and compiled by the builders, and its stages carry the nodes' IDs.
func TestBuildFromPlan(t *testing.T) {
	p := valuesCalcPlan(t, &expr.Call{Name: "*", Args: []expr.Expr{x, lit(10)}, T: intNN},
		&expr.Call{Name: ">", Args: []expr.Expr{x, lit(1)}, T: types.BooleanType.WithNotNull(true)})
	text, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if p, err = plan.Decode(text); err != nil {
		t.Fatal(err)
	}
	g, err := Build(p, Options{Parallelism: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range g.Stages {
		if s.ID != p.Nodes[i].ID || s.Name != p.Nodes[i].Kind || s.Parallelism != 1 {
			t.Errorf("stage %d: %s %s ×%d, want node %s", i, s.ID, s.Name, s.Parallelism, p.Nodes[i].ID)
		}
	}
	run, err := runtime.Start(context.Background(), g.Graph)
	if err != nil {
		t.Fatal(err)
	}
	<-run.Done()
	if err := run.Err(); err != nil {
		t.Fatal(err)
	}
	changes, ended := g.Collector.Take()
	var got []string
	for _, c := range changes {
		got = append(got, fmt.Sprintf("%s%v", c.Kind, c.Row[0].I))
	}
	if !ended || strings.Join(got, " ") != "+I20 +I30" {
		t.Errorf("result %v (ended %v), want +I20 +I30", got, ended)
	}
}

// TestBuildErrors: a plan whose configuration the operators cannot take
// fails to build, naming the node and the field.
func TestBuildErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		project expr.Expr
		state   []plan.StateTable
		want    string
	}{
		{"signature", &expr.Call{Name: "UPPER", Args: []expr.Expr{x}, T: types.StringType}, nil,
			"(Calc): config.projects[0]: function 'UPPER': UPPER expects"},
		{"column", &expr.Column{Index: 3, T: intNN}, nil, "(Calc): config.projects[0]: column 3 out of range (the input has 1 columns)"},
		{"column type", &expr.Column{Index: 0, T: types.StringType}, nil, "(Calc): config.projects[0]: column 0 is INT NOT NULL, not STRING"},
		{"state", x, []plan.StateTable{{Name: "rows", Value: "rows"}}, "(Calc): state: the operator keeps the state tables [], the plan declares [rows]"},
	} {
		p := valuesCalcPlan(t, tc.project, nil, tc.state...)
		_, err := Build(p, Options{Parallelism: 1})
		if want := "node '" + p.Nodes[1].ID + "' " + tc.want; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, want)
		}
	}
}

// run builds p, runs it to its end and returns the query's result rows.
func run(t *testing.T, p *plan.Plan, parallelism int) []string {
	t.Helper()
	g, err := Build(p, Options{Parallelism: parallelism, Env: connector.Env{TimeZone: time.UTC}})
	if err != nil {
		t.Fatal(err)
	}
	job, err := runtime.Start(context.Background(), g.Graph)
	if err != nil {
		t.Fatal(err)
	}
	<-job.Done()
	if err := job.Err(); err != nil {
		t.Fatal(err)
	}
	changes, _ := g.Collector.Take()
	var out []string
	for _, c := range changes {
		cells := make([]string, len(c.Row))
		for i, v := range c.Row {
			cells[i] = types.PrintValue(p.Nodes[len(p.Nodes)-1].Schema[i].Type.Logical(), v, time.UTC)
		}
		out = append(out, c.Kind.String()+strings.Join(cells, "|"))
	}
	slices.Sort(out)
	return out
}

// TestPlannedQueriesFromJSON: queries over VALUES give Flink's rows
// whether their plan comes straight from the planner or through JSON:
// aggregate calls with constant arguments, unit arguments, IN lists, CASE,
// casts and constant folding survive the round trip.
func TestPlannedQueriesFromJSON(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"SELECT k, LISTAGG(s, '; '), COUNT(*) FILTER (WHERE n > 1), SUM(DISTINCT n) FROM (VALUES ('a', 'x', 1), ('a', 'y', 2), ('b', 'z', 3)) AS t(k, s, n) GROUP BY k",
			[]string{"+Ia|x|0|1", "+Ib|z|1|3", "+Ua|x; y|1|3", "-Ua|x|0|1"}},
		{"SELECT TIMESTAMPDIFF(HOUR, TIMESTAMP '2024-01-01 00:00:00', ts), EXTRACT(DAY FROM ts), DATE_FORMAT(ts, 'yyyy/MM/dd HH') FROM (VALUES (TIMESTAMP '2024-01-02 05:30:00')) AS t(ts)",
			[]string{"+I29|2|2024/01/02 05"}},
		{"SELECT n, n IN (1, 3, NULL), CASE WHEN n > 1 THEN 'big' ELSE 'small' END, CAST(n AS STRING) || '!', TRY_CAST('x' AS INT), n / 0.5 FROM (VALUES (1), (2), (CAST(NULL AS INT))) AS t(n)",
			[]string{"+I1|TRUE|small|1!|<NULL>|2.000000", "+I2|<NULL>|big|2!|<NULL>|4.000000", "+I<NULL>|<NULL>|small|<NULL>|<NULL>|<NULL>"}},
		{"SELECT k, s FROM (SELECT k, s, ROW_NUMBER() OVER (PARTITION BY k ORDER BY s DESC) AS rn FROM (VALUES ('a', 'x'), ('a', 'y'), ('b', 'z')) AS t(k, s)) WHERE rn = 1",
			[]string{"+Ia|x", "+Ib|z", "+Ua|y", "-Ua|x"}},
	} {
		q := tc.q
		for _, parallelism := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/parallelism=%d", q, parallelism), func(t *testing.T) {
				stmt, err := parser.ParseStatement(q)
				if err != nil {
					t.Fatal(err)
				}
				root, err := (&planner.Binder{Catalog: catalog.New(), TimeZone: time.UTC}).Query(stmt.(*ast.QueryStatement).Query)
				if err != nil {
					t.Fatal(err)
				}
				p, err := planner.ExecutionPlan(planner.Reuse{SubPlans: true, Sources: true}, root)
				if err != nil {
					t.Fatal(err)
				}
				text, err := p.Encode()
				if err != nil {
					t.Fatal(err)
				}
				back, err := plan.Decode(text)
				if err != nil {
					t.Fatal(err)
				}
				straight, got := run(t, p, parallelism), run(t, back, parallelism)
				if !slices.Equal(straight, tc.want) || !slices.Equal(got, tc.want) {
					t.Errorf("straight %q, from JSON %q, want %q", straight, got, tc.want)
				}
			})
		}
	}
}
