package job

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/runtime"
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
