package planner

import (
	"testing"

	"github.com/sluicesql/sluice/internal/expr"
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
