package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/types"
)

// MiniBatch is the session's mini-batch settings: Flink's
// table.exec.mini-batch.enabled, allow-latency and size, and
// table.optimizer.agg-phase-strategy.
type MiniBatch struct {
	Enabled bool
	Latency time.Duration
	Size    int64
	// OnePhase is agg-phase-strategy ONE_PHASE; AUTO and TWO_PHASE both
	// split a mergeable aggregation when mini-batch is on, as Flink's
	// TwoStageOptimizedAggregateRule does in streaming mode (and neither
	// splits without mini-batch).
	OnePhase bool
}

// MiniBatchAssigner marks the ends of mini-batches with watermarks
// (Flink's StreamPhysicalMiniBatchAssigner), above a scan.
type MiniBatchAssigner struct {
	base
	Input    Node
	Interval time.Duration
	RowTime  bool
}

// LocalGroupAggregate is the local phase of a two-phase aggregation: per
// batch and key, the key, one accumulator per call and the row count.
type LocalGroupAggregate struct {
	base
	Input Node
	Keys  []int
	Aggs  []AggCall
	// fields name each call's accumulator fields, as Flink's EXPLAIN
	// does (count$0, (sum$1, count$2), ...); count names the row count.
	fields [][]string
	count  string
	batch  plan.MiniBatch
}

// GlobalGroupAggregate is the global phase of a two-phase aggregation:
// it merges the local phase's accumulators into its state and emits what
// the GroupAggregate it replaces would.
type GlobalGroupAggregate struct {
	base
	Input *LocalGroupAggregate
	// ttl is the state's idle retention, the aggregation's (stateTTL).
	ttl stateTTL
}

// accumulatorType is the type of a column carrying an accumulator from
// the local to the global phase (the runtime's ops.AccumulatorType).
var accumulatorType = types.Type{Kind: types.Varbinary, Length: types.MaxVarcharLength, NotNull: true}

// Inputs implements Node.
func (n *MiniBatchAssigner) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *LocalGroupAggregate) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *GlobalGroupAggregate) Inputs() []Node { return []Node{n.Input} }

// Mode implements Node.
func (n *MiniBatchAssigner) Mode() Mode { return n.Input.Mode() }

// Mode implements Node: the local phase sends inserts.
func (n *LocalGroupAggregate) Mode() Mode { return connector.InsertOnly }

// Mode implements Node: as the one-phase aggregation over the local
// phase's input.
func (n *GlobalGroupAggregate) Mode() Mode { return updatesOf(n.Input.Input) }

// Describe implements Node, as Flink prints it:
// MiniBatchAssigner(interval=[1000ms], mode=[ProcTime]).
func (n *MiniBatchAssigner) Describe() string {
	mode := "ProcTime"
	if n.RowTime {
		mode = "RowTime"
	}
	return fmt.Sprintf("MiniBatchAssigner(interval=[%dms], mode=[%s])", n.Interval.Milliseconds(), mode)
}

// fieldText renders accumulator fields: one name, or several in
// parentheses.
func fieldText(f []string) string {
	if len(f) == 1 {
		return f[0]
	}
	return "(" + strings.Join(f, ", ") + ")"
}

// Describe implements Node: LocalGroupAggregate(groupBy=[a], select=[a,
// COUNT(b) AS count$0]).
func (n *LocalGroupAggregate) Describe() string {
	in := n.Input.Schema()
	items := make([]string, 0, len(n.Keys)+len(n.Aggs)+1)
	for _, k := range n.Keys {
		items = append(items, in[k].Name)
	}
	for i, a := range n.Aggs {
		items = append(items, a.String(in)+" AS "+fieldText(n.fields[i]))
	}
	if n.Input.Mode() != connector.InsertOnly && !hasCountStar(n.Aggs) {
		// Flink counts the rows for a retracting input, unless a COUNT(*)
		// already does.
		items = append(items, "COUNT(*) AS "+n.count)
	}
	return "LocalGroupAggregate(" + groupByText(in, n.Keys) + "select=[" + strings.Join(items, ", ") + "])"
}

// Describe implements Node: GlobalGroupAggregate(groupBy=[a], select=[a,
// COUNT(count$0) AS cnt]).
func (n *GlobalGroupAggregate) Describe() string {
	l := n.Input
	in := l.Input.Schema()
	items := make([]string, 0, len(l.Keys)+len(l.Aggs))
	for _, k := range l.Keys {
		items = append(items, in[k].Name)
	}
	for i, a := range l.Aggs {
		items = append(items, a.Name+"("+fieldText(l.fields[i])+") AS "+n.schema[len(l.Keys)+i].Name)
	}
	return "GlobalGroupAggregate(" + groupByText(in, l.Keys) + "select=[" + strings.Join(items, ", ") + "])"
}

func hasCountStar(aggs []AggCall) bool {
	for _, a := range aggs {
		if a.Name == "COUNT" && len(a.Args) == 0 && a.Filter < 0 {
			return true
		}
	}
	return false
}

func groupByText(in types.Schema, keys []int) string {
	if len(keys) == 0 {
		return ""
	}
	return "groupBy=[" + names(in, keys) + "], "
}

// accumulatorFields names the accumulator fields of a call as Flink's
// aggregate functions name their buffers.
func accumulatorFields(a AggCall) []string {
	switch a.Name {
	case "COUNT":
		if len(a.Args) == 0 {
			return []string{"count1"}
		}
		return []string{"count"}
	case "SUM", "SUM0":
		return []string{"sum"}
	case "AVG":
		return []string{"sum", "count"}
	}
	return []string{strings.ToLower(a.Name)}
}

// applyMiniBatch rewrites a planned statement for mini-batch processing,
// after Flink's MiniBatchIntervalInferRule and
// TwoStageOptimizedAggregateRule: a MiniBatchAssigner goes above every
// scan, in processing time (ProcTime, an interval of allow-latency)
// unless an operator above the scan needs event time, which makes it
// forward only the watermarks that cross a multiple of the interval
// (RowTime); a group aggregation becomes a mini-batch one or, when every
// call can merge and agg-phase-strategy is not ONE_PHASE, a local and a
// global phase.
func (b *Binder) applyMiniBatch(root Node) error {
	if !b.MiniBatch.Enabled {
		return nil
	}
	// ExecutionConfigOptions' check, in Flink's words, naming the option.
	if b.MiniBatch.Latency.Milliseconds() <= 0 {
		return fmt.Errorf("MiniBatch Latency must be greater than 0 ms. ('table.exec.mini-batch.allow-latency' is %d ms)", b.MiniBatch.Latency.Milliseconds())
	}
	r := &miniBatchRewrite{cfg: b.MiniBatch, done: map[Node]bool{}}
	r.visit(root, false)
	return r.err
}

type miniBatchRewrite struct {
	cfg  MiniBatch
	done map[Node]bool
	err  error
}

// visit rewrites n's inputs; rowTime is set when n or a node above it
// needs event-time watermarks.
func (r *miniBatchRewrite) visit(n Node, rowTime bool) {
	if r.done[n] || r.err != nil {
		return
	}
	r.done[n] = true
	rowTime = rowTime || needsWatermarks(n)
	for i, in := range n.Inputs() {
		switch x := in.(type) {
		case *Scan:
			setInput(n, i, &MiniBatchAssigner{base: base{schema: x.Schema()}, Input: x, Interval: r.cfg.Latency, RowTime: rowTime})
		case *GroupAggregate:
			r.visit(x, rowTime)
			if g := r.aggregate(x); g != nil {
				setInput(n, i, g)
			}
		default:
			r.visit(in, rowTime)
		}
	}
}

// needsWatermarks reports whether n needs event-time watermarks (Flink's
// requireWatermark): every node but those known not to.
func needsWatermarks(n Node) bool {
	switch x := n.(type) {
	case *Calc:
		// CURRENT_WATERMARK reads the event-time watermark, which a
		// processing-time assigner would replace.
		return readsWatermark(x.Filter) || slices.ContainsFunc(x.Projects, readsWatermark)
	case *Scan, *Values, *Expand, *Correlate, *Normalize, *GroupAggregate, *LocalGroupAggregate,
		*GlobalGroupAggregate, *MiniBatchAssigner, *Union, *Sink, *Collect, *Limit, *Join, *SemiJoin:
		return false
	case *Rank:
		return x.Window != nil
	case *Deduplicate:
		return x.Window != nil || x.RowTime
	}
	return true
}

func readsWatermark(e expr.Expr) bool {
	found := false
	if e != nil {
		expr.Walk(e, func(x expr.Expr) {
			if _, ok := x.(*expr.CurrentWatermark); ok {
				found = true
			}
		})
	}
	return found
}

// procTimeUnder reports whether a processing-time assigner feeds n.
func procTimeUnder(n Node) bool {
	if a, ok := n.(*MiniBatchAssigner); ok {
		return !a.RowTime
	}
	for _, in := range n.Inputs() {
		if procTimeUnder(in) {
			return true
		}
	}
	return false
}

// aggregate makes g a mini-batch aggregation, returning the two phases
// that replace it, or nil when it stays one.
func (r *miniBatchRewrite) aggregate(g *GroupAggregate) Node {
	if r.cfg.Size <= 0 {
		// AggregateUtil.createMiniBatchTrigger's check, in Flink's words.
		r.err = fmt.Errorf("Key: 'table.exec.mini-batch.size' , default: -1 (fallback keys: []) must be > 0.")
		return nil
	}
	batch := plan.MiniBatch{Size: r.cfg.Size, ProcTime: procTimeUnder(g.Input)}
	if r.cfg.OnePhase || !mergeable(g) {
		g.miniBatch = &batch
		return nil
	}
	l := &LocalGroupAggregate{Input: g.Input, Keys: g.Keys, Aggs: g.Aggs, batch: batch}
	in := g.Input.Schema()
	for _, k := range g.Keys {
		l.schema = append(l.schema, in[k])
	}
	field := 0
	for _, a := range g.Aggs {
		var fs []string
		for _, f := range accumulatorFields(a) {
			fs = append(fs, fmt.Sprintf("%s$%d", f, field))
			field++
		}
		l.fields = append(l.fields, fs)
		l.schema = append(l.schema, types.Field{Name: strings.Join(fs, "_"), Type: accumulatorType})
	}
	l.count = fmt.Sprintf("count1$%d", field)
	l.schema = append(l.schema, types.Field{Name: l.count, Type: types.BigIntType.WithNotNull(true)})
	return &GlobalGroupAggregate{base: base{schema: g.Schema()}, Input: l, ttl: g.ttl}
}

// mergeable reports whether every call of g can run in two phases: its
// accumulator merges (fn.Merger), as Flink's
// AggregateUtil.doAllSupportPartialMerge requires. DISTINCT calls and
// MIN/MAX over retractions do not merge here yet.
func mergeable(g *GroupAggregate) bool {
	in := g.Input.Schema()
	appendOnly := g.Input.Mode() == connector.InsertOnly
	for _, a := range g.Aggs {
		if a.Distinct {
			return false
		}
		ts := make([]types.Type, len(a.Args))
		for i, c := range a.Args {
			ts[i] = in[c].Type
		}
		newAcc, err := expr.BindAggregate(a.Name, ts, a.Consts, false, appendOnly, a.Type)
		if err != nil {
			return false
		}
		if _, ok := newAcc().(fn.Merger); !ok {
			return false
		}
	}
	return true
}

// setInput replaces input i of n.
func setInput(n Node, i int, in Node) {
	switch x := n.(type) {
	case *Calc:
		x.Input = in
	case *Expand:
		x.Input = in
	case *Correlate:
		x.Input = in
	case *Normalize:
		x.Input = in
	case *GroupAggregate:
		x.Input = in
	case *WindowTableFunction:
		x.Input = in
	case *WindowAggregate:
		x.Input = in
	case *Rank:
		x.Input = in
	case *Deduplicate:
		x.Input = in
	case *Limit:
		x.Input = in
	case *Sort:
		x.Input = in
	case *BatchSort:
		x.Input = in
	case *Sink:
		x.Input = in
	case *Collect:
		x.Input = in
	case *OverAggregate:
		x.Input = in
	case *MiniBatchAssigner:
		x.Input = in
	case *LocalGroupAggregate:
		x.Input = in
	case *Union:
		x.Items[i] = in
	case *Join:
		setSide(&x.Left, &x.Right, i, in)
	case *IntervalJoin:
		setSide(&x.Left, &x.Right, i, in)
	case *WindowJoin:
		setSide(&x.Left, &x.Right, i, in)
	case *TemporalJoin:
		setSide(&x.Left, &x.Right, i, in)
	case *SemiJoin:
		setSide(&x.Left, &x.Right, i, in)
	default:
		panic(fmt.Sprintf("mini-batch: %T has no input to replace", n))
	}
}

func setSide(left, right *Node, i int, in Node) {
	if i == 0 {
		*left = in
	} else {
		*right = in
	}
}

// miniBatch translates the nodes of mini-batch processing; ok is false
// for other nodes.
func (t *translator) miniBatch(n Node, in added) (a added, ok bool, err error) {
	switch x := n.(type) {
	case *MiniBatchAssigner:
		par, inputs := forward(in)
		a, err = t.add(like(n, plan.KindMiniBatchAssigner, par, inputs, &plan.MiniBatchAssignerConfig{Interval: int64(x.Interval), RowTime: x.RowTime}))
		return a, true, err
	case *LocalGroupAggregate:
		par, inputs := forward(in)
		a, err = t.add(like(n, plan.KindLocalGroupAggregate, par, inputs,
			&plan.LocalGroupAggregateConfig{Keys: x.Keys, Aggs: aggCalls(x.Aggs, in.schema), MiniBatch: x.batch}))
		return a, true, err
	case *GlobalGroupAggregate:
		l := x.Input
		lin := l.Input.Schema()
		par, input := keyed(in, seq(len(l.Keys)))
		local := make([]plan.Type, len(lin))
		for i, f := range lin {
			local[i] = plan.Type(f.Type)
		}
		cfg := &plan.GlobalGroupAggregateConfig{LocalKeys: l.Keys, LocalInput: local, LocalChangelog: l.Input.Mode().String(),
			Aggs: aggCalls(l.Aggs, lin), MiniBatch: l.batch}
		a, err = t.add(like(n, plan.KindGlobalGroupAggregate, par, []plan.Input{input}, cfg,
			withTTL(state("groups", lin, l.Keys, "the accumulators of "+aggList(l.Aggs, lin)+" and the number of rows"), x.ttl.side[0])))
		return a, true, err
	}
	return added{}, false, nil
}
