package planner

import (
	"fmt"
	"strings"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// stateTTL is the idle state retention of a stateful node, as Flink's
// planner gives each operator's state a TTL (ExecNodeConfig's
// getStateRetentionTime, or a STATE_TTL hint): side[0] is a node's of one
// input, side[0] and side[1] a join's left and right inputs'. hinted marks
// the sides a hint set, which the session's table.exec.state.ttl does not
// override.
type stateTTL struct {
	side   [2]plan.TTL
	hinted [2]bool
	// written is the retention of a hinted side as the hint writes it.
	written [2]string
}

// hintText is the STATE_TTL hint of a join's sides as Flink's Join shows
// it, ", stateTtlHints=[[[STATE_TTL options:{LEFT=1d, RIGHT=2d}]]]"
// (StateTtlHintTest.xml), or "" when no hint set either.
func (s *stateTTL) hintText() string {
	var items []string
	for i, side := range [...]string{"LEFT", "RIGHT"} {
		if s.hinted[i] {
			items = append(items, side+"="+s.written[i])
		}
	}
	if len(items) == 0 {
		return ""
	}
	return ", stateTtlHints=[[[STATE_TTL options:{" + strings.Join(items, ", ") + "}]]]"
}

// fill gives the sides no hint set the retention ttl.
func (s *stateTTL) fill(ttl plan.TTL) {
	for i := range s.side {
		if !s.hinted[i] {
			s.side[i] = ttl
		}
	}
}

// applyStateTTL gives the stateful nodes of root the session's idle
// state retention (table.exec.state.ttl) where no hint gave one. Flink
// applies it in its streaming runtime to group aggregations (one and two
// phases, mini-batch or not, DISTINCT included), regular joins,
// deduplication, changelog normalization, semi and anti joins, OVER
// aggregations and event-time temporal joins, which Sluice honours, and
// to Top-N and LIMIT, which Sluice refuses a retention for with the
// reason (unhonouredTTL), as it does for the few cases of the others
// whose expiry it does not reproduce. OVER aggregations over a RANGE
// frame bounded by an interval, window operators, interval joins and
// MATCH_RECOGNIZE clean up by time and ignore it, as Flink's do.
// In batch mode no state expires, neither by the session's retention
// nor by STATE_TTL hints (streaming options in Flink).
func (b *Binder) applyStateTTL(root Node) error {
	ttl := plan.TTL(b.StateTTL.Milliseconds())
	if b.Batch {
		ttl = 0
	}
	fill := func(s *stateTTL) {
		if b.Batch {
			*s = stateTTL{}
		}
		s.fill(ttl)
	}
	done := map[Node]bool{}
	var visit func(n Node) error
	visit = func(n Node) error {
		if done[n] {
			return nil
		}
		done[n] = true
		for _, in := range n.Inputs() {
			if err := visit(in); err != nil {
				return err
			}
		}
		switch x := n.(type) {
		case *GroupAggregate:
			fill(&x.ttl)
		case *Join:
			fill(&x.ttl)
		case *Deduplicate:
			if x.Window == nil {
				fill(&x.ttl)
			}
		case *Rank:
			if x.Window == nil {
				if err := topNTTL(ttl, x, x.Input, x.Order); err != nil {
					return err
				}
				fill(&x.ttl)
			}
		case *Limit:
			// Flink's LIMIT is a Top-N without partition keys
			// (StreamExecLimit, StreamExecSortLimit).
			if err := topNTTL(ttl, x, x.Input, x.Order); err != nil {
				return err
			}
			fill(&x.ttl)
		case *Normalize:
			fill(&x.ttl)
		case *SemiJoin:
			if x.NullAware {
				return unhonouredTTL(ttl, n, "Sluice counts the right side's NULLs of a NOT IN over a nullable column apart, which Flink's StreamingSemiAntiJoinOperator has no counterpart of to expire")
			}
			fill(&x.ttl)
		case *TemporalJoin:
			x.retention = ttl
		case *OverAggregate:
			switch {
			case !x.Rows && x.Preceding >= 0:
				// ProcTimeRangeBoundedPrecedingFunction and
				// RowTimeRangeBoundedPrecedingFunction clean up by their
				// frame alone.
			case x.ProcTime && x.Preceding < 0:
				if err := procTimeUnboundedTTL(ttl, x); err != nil {
					return err
				}
				fill(&x.ttl)
			default:
				// The cleanup timers of ProcTimeRowsBoundedPrecedingFunction,
				// RowTimeRowsBoundedPrecedingFunction and the event-time
				// unbounded functions.
				fill(&x.ttl)
			}
		}
		return nil
	}
	return visit(root)
}

// topNTTL refuses a retention for a Top-N or LIMIT n over in, ordered by
// order, but for the one Flink runs as AppendOnlyFirstNFunction (an
// append-only input ordered by one ascending processing-time attribute),
// which expires its state by state TTL, without a cache.
func topNTTL(ttl plan.TTL, n, in Node, order []SortKey) error {
	if in.Mode() == connector.InsertOnly && len(order) == 1 && !order[0].Desc && in.Schema()[order[0].Col].Type.Attr == types.ProcTime {
		return nil
	}
	return unhonouredTTL(ttl, n, topNTTLReason(in))
}

// topNTTLReason is why a Top-N or LIMIT over in refuses a retention.
func topNTTLReason(in Node) string {
	if in.Mode() == connector.InsertOnly {
		return "over an append-only input Flink's AppendOnlyTopNFunction and FastTop1Function hold each partition in a heap cache bounded by 'table.exec.rank.topn-cache-size' that expires apart from the state " +
			"(FastTop1Function writes a partition's row to its state only when the cache evicts it or a checkpoint is taken), so which expired rows a later row still sees depends on that cache's evictions, not on the rows and their times"
	}
	return "over an updating input Flink expires the state of RetractableTopNFunction or, where the input's unique key and the order's monotonicity allow, of UpdatableTopNFunction (which holds partitions in a heap cache bounded by 'table.exec.rank.topn-cache-size'), " +
		"and Sluice derives neither that key nor that monotonicity to tell which"
}

// procTimeUnboundedTTL refuses a retention for a processing-time
// unbounded OVER aggregation n with an accumulator that keeps a data view
// (DISTINCT, JSON_ARRAYAGG, JSON_OBJECTAGG): Flink's
// ProcTimeUnboundedPrecedingFunction expires its accumulators by state
// TTL, as Sluice does, but opens the data views without the retention, so
// they outlive the accumulators they belong to.
func procTimeUnboundedTTL(ttl plan.TTL, n *OverAggregate) error {
	for _, a := range n.Aggs {
		call := a.Name
		if a.Distinct {
			call += "(DISTINCT)"
		}
		if a.Distinct || jsonAggregate(a.Name) != "" {
			return unhonouredTTL(ttl, n, "Flink's ProcTimeUnboundedPrecedingFunction expires the accumulators but not the state-backed data view of "+call+", which keeps the values it saw, and Sluice does not keep that view apart")
		}
	}
	return nil
}

// unhonouredTTL refuses a retention for n, whose state Flink expires in a
// way Sluice does not reproduce, for the reason why.
func unhonouredTTL(ttl plan.TTL, n Node, why string) error {
	if ttl == 0 {
		return nil
	}
	return fmt.Errorf("'table.exec.state.ttl' = '%d ms' is not supported for %s: %s; set it to '0 ms'", int64(ttl), n.Describe(), why)
}

// withTTL returns st with the retention ttl.
func withTTL(st plan.StateTable, ttl plan.TTL) plan.StateTable {
	st.TTL = ttl
	return st
}

// ttlHint is the STATE_TTL query hint of a SELECT (Flink 1.18's FLIP-373):
// retentions by the name (table, view or alias) of an input of the
// SELECT's regular joins or of its group aggregation. A later option
// for the same name wins, as Flink's StateTtlHint reads them into a map.
// The hint reaches neither the queries inside a subquery or view nor the
// query around it.
type ttlHint struct {
	at    ast.Node
	names []string
	ttl   map[string]plan.TTL
	used  map[string]bool
	// hints are the hints as written; text the retention of each name.
	hints []*ast.QueryHint
	text  map[string]string
}

// newTTLHint reads the STATE_TTL hints of a SELECT; nil when there are
// none.
func newTTLHint(hints []*ast.QueryHint) (*ttlHint, error) {
	if len(hints) == 0 {
		return nil, nil
	}
	h := &ttlHint{at: hints[0], ttl: map[string]plan.TTL{}, used: map[string]bool{}, hints: hints, text: map[string]string{}}
	for _, hint := range hints {
		for _, o := range hint.Options {
			d, err := connector.ParseDuration(o.Value)
			if err != nil {
				return nil, errorf(o, "Invalid STATE_TTL hint value '%s' for '%s': %v", o.Value, o.Key, err)
			}
			if _, seen := h.ttl[o.Key]; !seen {
				h.names = append(h.names, o.Key)
			}
			h.ttl[o.Key] = plan.TTL(d.Milliseconds())
			h.text[o.Key] = o.Value
		}
	}
	return h, nil
}

// apply gives side i of s the retention the hint names for the input
// ref, if it names one.
func (h *ttlHint) apply(s *stateTTL, i int, ref ast.TableRef) {
	if h == nil {
		return
	}
	name := ""
	switch r := ref.(type) {
	case *ast.TableName:
		name = r.Alias
		if name == "" {
			name = r.Name.Parts[len(r.Name.Parts)-1]
		}
	case *ast.SubqueryRef:
		name = r.Alias
	}
	if ttl, ok := h.ttl[name]; ok && name != "" {
		s.side[i], s.hinted[i], s.written[i] = ttl, true, h.text[name]
		h.used[name] = true
	}
}

// check refuses names the hint gives that are no input of the SELECT's
// joins or aggregation, in Flink's words.
func (h *ttlHint) check() error {
	if h == nil {
		return nil
	}
	var unknown []string
	for _, n := range h.names {
		if !h.used[n] {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return errorf(h.at, "The options of following hints cannot match the name of input tables or views: \n`%s` in `STATE_TTL`", strings.Join(unknown, ", "))
}

// groupAggregateOf returns the group aggregation a SELECT's aggregation
// planned as n (under its projections), nil for another (a window
// aggregation, whose state Flink cleans up by time).
func groupAggregateOf(n Node) *GroupAggregate {
	for {
		switch x := n.(type) {
		case *GroupAggregate:
			return x
		case *Calc:
			n = x.Input
		default:
			return nil
		}
	}
}
