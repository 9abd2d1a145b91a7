package planner

import (
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// Processing time, as Flink's streaming planner supports it: window
// aggregations (TVF and legacy group windows), OVER aggregations,
// deduplication and interval joins over a PROCTIME() attribute run; the
// windowed operators that fire on event time alone are refused when
// their windows are over processing time, with the messages of Flink's
// exec nodes (StreamExecWindowTableFunction, StreamExecWindowRank,
// StreamExecWindowDeduplicate, StreamExecWindowJoin), which it raises
// when translating the plan, EXPLAIN included.

// procTimeSupported refuses n if it is one of those operators over
// processing-time windows.
func procTimeSupported(n Node) error {
	switch x := n.(type) {
	case *WindowTableFunction:
		if x.Window.ProcTime {
			return &Error{Msg: "Processing time Window TableFunction is not supported yet."}
		}
	case *Rank:
		if x.Window != nil && x.Window.ProcTime {
			return &Error{Msg: "Processing time Window TopN is not supported yet."}
		}
	case *Deduplicate:
		if x.Window != nil && x.Window.ProcTime {
			return &Error{Msg: "Processing time Window Deduplication is not supported yet."}
		}
	case *WindowJoin:
		if x.Window.ProcTime {
			return &Error{Msg: "Processing time Window Join is not supported yet."}
		}
	}
	return nil
}

// procTimeTemporalJoin refuses a join FOR SYSTEM_TIME AS OF a
// processing-time attribute, as Flink does once the versioned table's
// primary key has been checked: Flink joins processing time only with a
// lookup source (a lookup join), and Sluice's connectors have none;
// against any other table StreamExecTemporalJoin refuses it (the join
// would not wait for the table's complete snapshot, FLINK-19830).
func procTimeTemporalJoin(ref ast.Node) error {
	return errorf(ref, "Processing-time temporal join is not supported yet.")
}

// procTimeInterval refuses a join condition that bounds one side's
// processing-time attribute by the other's, which Flink plans as a
// processing-time interval join (ProcTimeIntervalJoin: rows matched by
// their arrival times, state dropped as the clock passes the bounds,
// outer rows padded when they expire, the result append-only). Sluice
// does not run it yet; planned as a regular join it would keep every row
// and retract padded outer rows, so it is refused rather than run
// differently.
func procTimeInterval(conds []expr.Expr, nl int, at ast.Node) error {
	side := func(e expr.Expr) (left, ok bool) {
		if c, isCall := e.(*expr.Call); isCall && (c.Name == "+" || c.Name == "-") && len(c.Args) == 2 {
			e = c.Args[0]
		}
		col, isCol := e.(*expr.Column)
		if !isCol || col.T.Attr != types.ProcTime {
			return false, false
		}
		return col.Index < nl, true
	}
	for _, c := range conds {
		call, ok := c.(*expr.Call)
		if !ok || len(call.Args) != 2 || (call.Name != "<" && call.Name != "<=" && call.Name != ">" && call.Name != ">=") {
			continue
		}
		a, aok := side(call.Args[0])
		b, bok := side(call.Args[1])
		if aok && bok && a != b {
			return errorf(at, "interval joins over processing-time attributes are not supported yet")
		}
	}
	return nil
}
