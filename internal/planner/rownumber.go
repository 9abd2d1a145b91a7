package planner

import (
	"github.com/sluicesql/sluice/internal/types"
)

// A ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) that no filter makes
// a Top-N or a deduplication is an OVER aggregation, as in Flink, whose
// FlinkLogicalRankRule turns an OVER window into a rank only under a
// filter on the row number (OverAggregateTest, OverAggregateITCase's
// testRowNumberOnOver): the row number is Flink's RowNumberAggFunction
// over ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, ordered by a time
// attribute, with the checks of Flink's StreamExecOverAggregate.

// unfilteredRowNumber reports a Rank that no filter bounded, planned as an
// OVER aggregation.
func (n *Rank) unfilteredRowNumber() bool {
	return n.Function == "ROW_NUMBER" && n.End == unbounded && !n.VariableEnd && n.Window == nil && !n.noEnd
}

// rowNumberOverRule is the rule RowNumberOver: a ROW_NUMBER Rank that no
// filter bounded is an OVER aggregation when its order is one ascending
// time attribute; otherwise it stays, and finalize reports Flink's error.
func rowNumberOverRule(n Node) Node {
	r, ok := n.(*Rank)
	if !ok || !r.unfilteredRowNumber() {
		return n
	}
	over, err := rowNumberOver(r)
	if err != nil {
		return n
	}
	return over
}

// rowNumberOver returns the OVER aggregation of an unfiltered ROW_NUMBER
// Rank, or Flink's error when its order is not one ascending time
// attribute.
func rowNumberOver(r *Rank) (*OverAggregate, error) {
	if len(r.Order) != 1 {
		return nil, errorf(r.call, "The window can only be ordered by a single time column.")
	}
	if r.Order[0].Desc {
		return nil, errorf(r.call, "The window can only be ordered in ASCENDING mode.")
	}
	in := r.Input.Schema()
	t := in[r.Order[0].Col].Type
	if t.Attr == types.NoTimeAttr {
		return nil, errorf(r.call, "OVER windows' ordering in stream mode must be defined on a time attribute.")
	}
	rn := r.schema[len(r.schema)-1]
	return &OverAggregate{
		base:          base{schema: r.schema},
		Input:         r.Input,
		PartitionKeys: r.PartitionKeys,
		TimeCol:       r.Order[0].Col,
		ProcTime:      t.Attr == types.ProcTime,
		Aggs:          []AggCall{{Name: "ROW_NUMBER", Filter: -1, Type: rn.Type}},
		Rows:          true,
		Preceding:     -1,
	}, nil
}
