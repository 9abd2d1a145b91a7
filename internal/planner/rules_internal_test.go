package planner

import (
	"testing"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// TestWithInputsCopies: a node's copy with other inputs has lists of
// inputs of its own, and fields of embedded structs are inputs too.
func TestWithInputsCopies(t *testing.T) {
	a, b, c := &Values{}, &Values{}, &Values{}
	u := &Union{Items: []Node{a, b}}
	cu := withInputs(u, []Node{a, c}).(*Union)
	if cu == u || u.Items[1] != b || cu.Items[1] != c {
		t.Errorf("the union's copy shares its inputs: original %v, copy %v", u.Items, cu.Items)
	}
	iv := &IntervalJoin{Join: Join{Left: a, Right: b}, Lower: 1}
	civ := withInputs(iv, []Node{c, a}).(*IntervalJoin)
	if civ.Left != c || civ.Right != a || civ.Lower != 1 || iv.Left != a {
		t.Errorf("interval join copy: left %p right %p (want %p %p), original left %p", civ.Left, civ.Right, c, a, iv.Left)
	}
}

// TestRewriteKeepsSharedNodesShared: a node two parents share is
// rewritten once, and both parents read the one rewritten node.
func TestRewriteKeepsSharedNodesShared(t *testing.T) {
	ts := types.TimestampType(3)
	ts.Attr = types.ProcTime
	in := &Values{base: base{schema: types.Schema{{Name: "k", Type: types.IntType}, {Name: "t", Type: ts}}}}
	rn := types.Field{Name: "w0$o0", Type: types.BigIntType.WithNotNull(true)}
	rank := &Rank{base: base{schema: append(in.Schema(), rn)}, Function: "ROW_NUMBER", Input: in,
		PartitionKeys: []int{0}, Order: []SortKey{{Col: 1}}, Start: 1, End: unbounded}
	one := &expr.Literal{V: types.IntValue(1), T: types.IntType.WithNotNull(true), Text: "1"}
	filter := &expr.Call{Name: "=", Args: []expr.Expr{&expr.Column{Index: 2, Name: "w0$o0", T: rn.Type}, one}, T: types.BooleanType}
	shared := &Calc{base: base{schema: in.Schema()}, Input: rank, Projects: identity(in.Schema()), Filter: filter}
	root := &Collect{base: base{schema: in.Schema()}, Input: &Union{base: base{schema: in.Schema()}, Items: []Node{shared, shared}}}
	out := rewrite(root).(*Collect)
	items := out.Input.(*Union).Items
	if items[0] != items[1] {
		t.Fatalf("the shared input was rewritten twice: %s and %s", items[0].Describe(), items[1].Describe())
	}
	if c, ok := items[0].(*Calc); !ok || c.Filter != nil {
		t.Errorf("want the filter folded away, got %s", items[0].Describe())
	} else if _, ok := c.Input.(*Deduplicate); !ok {
		t.Errorf("want the Top-1 by processing time deduplicated, got %s", c.Input.Describe())
	}
	if shared.Input != rank || rank.End != unbounded {
		t.Error("the rules changed the plan they were given")
	}
}

// TestBinderLeavesWindowAggregationToTheRule: the binder plans GROUP BY
// window_start, window_end over a window table function as a regular
// aggregation over it, window_time typed as a time attribute (as Flink's
// RelTimeIndicatorConverter types a window aggregation's); the rule
// WindowAggregate alone makes it a window aggregation, and the rule
// CalcMerge merges the projection it leaves into the select list's.
func TestBinderLeavesWindowAggregationToTheRule(t *testing.T) {
	stmts, err := parser.ParseScript(`
CREATE TABLE bid (item STRING, price INT, bidtime TIMESTAMP(3), WATERMARK FOR bidtime AS bidtime)
  WITH ('connector' = 'kafka', 'topic' = 'bid', 'properties.bootstrap.servers' = 'localhost:9092', 'value.format' = 'json');
SELECT item, window_time, SUM(price) AS s FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
GROUP BY window_start, item, window_end, window_time`)
	if err != nil {
		t.Fatal(err)
	}
	b := &Binder{Catalog: catalog.New()}
	tbl, err := b.CreateTable(stmts[0].(*ast.CreateTable))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Catalog.AddTable(tbl, false); err != nil {
		t.Fatal(err)
	}
	rel, err := b.query(stmts[1].(*ast.QueryStatement).Query)
	if err != nil {
		t.Fatal(err)
	}
	sel, ok := rel.node.(*Calc)
	if !ok {
		t.Fatalf("want the select list over the aggregation, got %s", rel.node.Describe())
	}
	agg, ok := sel.Input.(*GroupAggregate)
	if !ok {
		t.Fatalf("want a regular aggregation from the binder, got %s", sel.Input.Describe())
	}
	if _, ok := agg.Input.(*Calc).Input.(*WindowTableFunction); !ok {
		t.Errorf("want the aggregation over the window table function, got %s", agg.Input.Describe())
	}
	if wt := sel.Schema()[1].Type; wt.Attr != types.RowTime {
		t.Errorf("want window_time a time attribute, got %s", wt)
	}
	out := applyRules(sel, phases[0], map[Node]Node{})
	c, ok := out.(*Calc)
	if !ok {
		t.Fatalf("want the select list's projection, got %s", out.Describe())
	}
	wa, ok := c.Input.(*WindowAggregate)
	if !ok {
		t.Fatalf("want one projection over a window aggregation, got %s over %s", c.Describe(), c.Input.Describe())
	}
	if got, want := c.Describe(), "Calc(select=[item, window_time, s])"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if _, ok := wa.Input.(*Scan); !ok {
		t.Errorf("want the window aggregation to assign the windows itself, over the scan, got %s", wa.Input.Describe())
	}
	if sel.Input != agg || agg.Keys[0] != 0 {
		t.Error("the rules changed the plan they were given")
	}
}
