package planner

import (
	"github.com/sluicesql/sluice/internal/sql/ast"
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
