package planner

import (
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// A ROW_NUMBER(), RANK() or DENSE_RANK() OVER (PARTITION BY ... ORDER BY
// ...) that no filter makes a Top-N or a deduplication is an OVER
// aggregation, as in Flink, whose FlinkLogicalRankRule turns an OVER
// window into a rank only under a filter on its result (OverAggregateTest,
// OverAggregateITCase's testRowNumberOnOver, testRankOnOver and
// testDenseRankOnOver), ordered by a time attribute, with the checks of
// Flink's StreamExecOverAggregate. ROW_NUMBER runs over ROWS BETWEEN
// UNBOUNDED PRECEDING AND CURRENT ROW, RANK and DENSE_RANK over Calcite's
// default frame, RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, so
// that rows of equal time share a value (fn's bindRowCount).

// unfilteredRanking reports a Rank (of any of the three functions) that
// no filter bounded, planned as an OVER aggregation.
func (n *Rank) unfilteredRanking() bool {
	return n.End == unbounded && !n.VariableEnd && n.Window == nil && !n.noEnd
}

// rankingOverRule is the rule RankingOver: a Rank that no filter bounded is
// an OVER aggregation when its order is one ascending time attribute;
// otherwise it stays, and finalize reports Flink's error.
func rankingOverRule(n Node) Node {
	r, ok := n.(*Rank)
	if !ok || !r.unfilteredRanking() {
		return n
	}
	over, err := rowNumberOver(r)
	if err != nil {
		return n
	}
	return over
}

// rowNumberOver returns the OVER aggregation of an unfiltered Rank, or
// Flink's error when its order is not one ascending time attribute.
func rowNumberOver(r *Rank) (*OverAggregate, error) {
	// Only the binder's overRank makes a Rank without a range, from the call.
	call := r.call.(*ast.FuncCall)
	if err := overOrderChecks(call.Over.OrderBy, call); err != nil {
		return nil, err
	}
	in := r.Input.Schema()
	t := in[r.Order[0].Col].Type
	if t.Attr == types.NoTimeAttr {
		return nil, errorf(call.Over.OrderBy[0], "OVER windows' ordering in stream mode must be defined on a time attribute.")
	}
	rn := r.schema[len(r.schema)-1]
	return &OverAggregate{
		base:          base{schema: r.schema},
		Input:         r.Input,
		PartitionKeys: r.PartitionKeys,
		TimeCol:       r.Order[0].Col,
		ProcTime:      t.Attr == types.ProcTime,
		Aggs:          []AggCall{{Name: r.Function, Filter: -1, Type: rn.Type}},
		Rows:          r.Function == "ROW_NUMBER",
		Preceding:     -1,
	}, nil
}
