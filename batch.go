package sluice

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/plan"
)

// errCompiledPlanBatch refuses COMPILE PLAN and EXECUTE PLAN in batch
// mode, as Flink's batch planner does.
var errCompiledPlanBatch = errors.New("The compiled plan feature is not supported in batch mode.")

// batchPlan reports whether p was planned in batch mode.
func batchPlan(p *plan.Plan) bool {
	return strings.EqualFold(p.Configuration[ConfRuntimeMode], "batch")
}

// checkBatch refuses what a plan cannot run in batch mode: an unbounded
// source or one that emits changes, with Flink's errors
// (DynamicSourceUtils.validateScanSourceForBatch), and the operators whose
// streaming answer is not the batch one: processing-time windows, joins,
// OVER aggregations and deduplication, whose results depend on when rows
// arrive, and temporal joins.
func checkBatch(p *plan.Plan) error {
	for _, n := range p.Nodes {
		var what string
		switch c := n.Config.(type) {
		case *plan.ScanConfig:
			if err := batchSource(c); err != nil {
				return err
			}
		case *plan.WindowTableFunctionConfig:
			if c.Window.ProcTime {
				what = "a window over a processing-time attribute"
			}
		case *plan.WindowAggregateConfig:
			if c.Window.ProcTime {
				what = "a window aggregation over a processing-time attribute"
			}
		case *plan.IntervalJoinConfig:
			if c.ProcTime {
				what = "an interval join on processing-time attributes"
			}
		case *plan.OverAggregateConfig:
			if c.ProcTime {
				what = "an OVER aggregation ordered by a processing-time attribute"
			}
		case *plan.TemporalSortConfig:
			if c.ProcTime {
				what = "a sort on a processing-time attribute"
			}
		case *plan.DeduplicateConfig:
			if !c.RowTime {
				what = "a deduplication ordered by a processing-time attribute"
			}
		case *plan.MatchConfig:
			if !c.RowTime {
				what = "MATCH_RECOGNIZE ordered by a processing-time attribute"
			}
		case *plan.TemporalJoinConfig:
			what = "a temporal join (FOR SYSTEM_TIME AS OF)"
		}
		if what != "" {
			return fmt.Errorf("%s is not supported in batch mode ('%s' = 'batch'); run it in streaming mode", what, ConfRuntimeMode)
		}
	}
	return nil
}

// batchSource refuses a source that does not end or that emits changes.
func batchSource(c *plan.ScanConfig) error {
	t, err := c.Table.Catalog()
	if err != nil {
		return err
	}
	f, err := connector.For(t)
	if err != nil {
		return err
	}
	name := c.Table.ID().Summary()
	if b, ok := f.(connector.Bounded); !ok || !b.Bounded(t) {
		return fmt.Errorf("Querying an unbounded table '%s' in batch mode is not allowed. The table source is unbounded.", name)
	}
	if f.Produces(t) != connector.InsertOnly {
		return fmt.Errorf("Querying a table in batch mode is currently only possible for INSERT-only table sources. But the source for table '%s' produces other changelog messages than just INSERT.", name)
	}
	return nil
}
