package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/types"
)

// ExecutionPlan translates physical plans into one execution plan: the
// INSERTs of a statement set (one Sink each), or a query (its Collect). It
// chooses each node's parallelism rule and the exchanges between nodes:
// keyed operators run at parallelism.default behind a hash exchange on
// their keys, or as one instance when they have none; projections and
// filters run as their input does; and it declares the state each operator
// keeps.
//
// Equal parts of the plan are computed once as reuse allows: a node equal
// to one translated before, in everything it is and in its inputs' sub-plans,
// is that node, which then feeds every consumer.
func ExecutionPlan(reuse Reuse, roots ...Node) (*plan.Plan, error) {
	t := &translator{p: plan.New(), reuse: reuse, shapes: explainShapes(roots...)}
	if reuse.SubPlans {
		t.digests, t.byDigest = map[string]string{}, map[string]string{}
	}
	kept := map[string]bool{}
	for _, r := range roots {
		a, err := t.node(r)
		if err != nil {
			return nil, err
		}
		kept[a.id] = true
	}
	if t.digests != nil {
		t.prune(kept)
	}
	return t.p, nil
}

// prune drops the nodes no root reads: the scans, not reused, under a
// node that was (SubplanReuser does not visit the inputs of a reused
// node either). roots holds the roots' IDs.
func (t *translator) prune(roots map[string]bool) {
	for i := len(t.p.Nodes) - 1; i >= 0; i-- {
		if n := t.p.Nodes[i]; roots[n.ID] {
			for _, in := range n.Inputs {
				roots[in.Node] = true
			}
		}
	}
	t.p.Nodes = slices.DeleteFunc(t.p.Nodes, func(n *plan.Node) bool { return !roots[n.ID] })
}

// Reuse is which equal parts of a plan ExecutionPlan shares, Flink's
// table.optimizer.reuse-sub-plan-enabled and
// table.optimizer.reuse-source-enabled (SubplanReuser): with SubPlans,
// nodes with equal sub-plans are one node, but for sinks and, unless
// Sources, scans; a table read twice with the same projection and
// watermark is then read once. Without SubPlans nothing is shared (as in
// Flink, Sources alone shares nothing).
type Reuse struct {
	SubPlans, Sources bool
}

type translator struct {
	p     *plan.Plan
	reuse Reuse
	// digests maps the ID of each node added to its digest (plan.Node.Digest),
	// byDigest the digest of each reusable node to its ID; both nil
	// when nothing is reused.
	digests, byDigest map[string]string
	// routes, when set, records the inputs (with their exchanges) each
	// physical node is translated with, for EXPLAIN's physical plan.
	routes map[Node][]plan.Input
	// shapes holds what EXPLAIN prints for the scans and the Calcs that
	// read them (explainShapes), which their descriptions are.
	shapes map[Node][]Node
}

// step is a node being added: what the plan node needs besides its
// configuration.
type step struct {
	// node is the physical node translated, nil for a node the
	// translation adds.
	node        Node
	kind        string
	schema      types.Schema
	mode        string
	description string
	par         plan.Parallelism
	inputs      []plan.Input
	state       []plan.StateTable
	config      plan.Config
}

// added is a node in the plan.
type added struct {
	id     string
	schema types.Schema
}

func (t *translator) add(s step) (added, error) {
	for _, in := range s.inputs {
		if err := t.checkKeys(in); err != nil {
			return added{}, err
		}
	}
	if shape, ok := t.shapes[s.node]; ok && s.node != nil {
		lines := make([]string, len(shape))
		for i, n := range shape {
			lines[i] = execDescription(n)
		}
		s.description = strings.Join(lines, "\n")
	}
	fields := make([]plan.Field, len(s.schema))
	for i, f := range s.schema {
		fields[i] = plan.Field{Name: f.Name, Type: plan.Type(f.Type)}
	}
	n := &plan.Node{Kind: s.kind, Description: s.description, Parallelism: s.par, Inputs: s.inputs,
		Schema: fields, Changelog: s.mode, State: s.state, Config: s.config}
	if t.routes != nil && s.node != nil {
		t.routes[s.node] = s.inputs
	}
	var digest string
	if t.digests != nil {
		ins := make([]string, len(n.Inputs))
		for i, in := range n.Inputs {
			ins[i] = t.digests[in.Node]
		}
		d, err := n.Digest(ins)
		if err != nil {
			return added{}, fmt.Errorf("%s: %w", n.Kind, err)
		}
		digest = d
		if id, ok := t.byDigest[digest]; ok {
			return added{id: id, schema: s.schema}, nil
		}
	}
	if err := t.p.Add(n); err != nil {
		return added{}, err
	}
	if t.digests != nil {
		t.digests[n.ID] = digest
		if t.reusable(n.Kind) {
			t.byDigest[digest] = n.ID
		}
	}
	return added{id: n.ID, schema: s.schema}, nil
}

// reusable reports whether a node of the kind may feed several consumers
// (SubplanReuser.isNodeReusableDisabled): a sink never, nor a query's
// Collect, which is its sink; a scan when sources are reused.
func (t *translator) reusable(kind string) bool {
	switch kind {
	case plan.KindSink, plan.KindCollect:
		return false
	case plan.KindScan:
		return t.reuse.Sources
	}
	return true
}

// checkKeys refuses to partition by a MAP, MULTISET or VARIANT column
// (unorderable) that reaches an exchange by a path the binder does not
// check with the key's position in the statement.
func (t *translator) checkKeys(in plan.Input) error {
	if in.Exchange != plan.Hash {
		return nil
	}
	n := t.p.Node(in.Node)
	for _, k := range in.Keys {
		if k < 0 || k >= len(n.Schema) {
			continue
		}
		if err := unorderable(n.Schema[k].Type.Logical()); err != nil {
			return err
		}
	}
	return nil
}

// like is the step of a node translated as it is planned.
func like(n Node, kind string, par plan.Parallelism, inputs []plan.Input, cfg plan.Config, st ...plan.StateTable) step {
	mode := n.Mode().String()
	if _, ok := n.(*Sink); ok {
		mode = plan.NoChangelog
	}
	return step{node: n, kind: kind, schema: n.Schema(), mode: mode, description: execDescription(n), par: par, inputs: inputs, state: st, config: cfg}
}

// forward reads in instance by instance, at its parallelism.
func forward(in added) (plan.Parallelism, []plan.Input) {
	return plan.ParallelismInput, []plan.Input{{Node: in.id, Exchange: plan.Forward}}
}

// keyed reads in hashed by keys at the default parallelism, or everything
// on one instance when there are no keys.
func keyed(in added, keys []int) (plan.Parallelism, plan.Input) {
	if len(keys) == 0 {
		return plan.ParallelismSingle, plan.Input{Node: in.id, Exchange: plan.Single}
	}
	return plan.ParallelismDefault, plan.Input{Node: in.id, Exchange: plan.Hash, Keys: keys}
}

// single reads every input on one instance.
func single(ins ...added) (plan.Parallelism, []plan.Input) {
	out := make([]plan.Input, len(ins))
	for i, in := range ins {
		out[i] = plan.Input{Node: in.id, Exchange: plan.Single}
	}
	return plan.ParallelismSingle, out
}

func (t *translator) inputs(n Node) ([]added, error) {
	var out []added
	for _, in := range n.Inputs() {
		a, err := t.node(in)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

func (t *translator) node(n Node) (added, error) {
	ins, err := t.inputs(n)
	if err != nil {
		return added{}, err
	}
	var in added
	if len(ins) > 0 {
		in = ins[0]
	}
	switch x := n.(type) {
	case *Scan:
		cfg := &plan.ScanConfig{Table: plan.TableOf(x.Table), Project: x.Project, Watermark: plan.Expr{E: x.Watermark}}
		for _, e := range x.Computed {
			if e != nil {
				cfg.Computed = plan.Exprs(x.Computed)
				break
			}
		}
		return t.add(like(n, plan.KindScan, plan.ParallelismDefault, nil, cfg))
	case *Values:
		cfg := &plan.ValuesConfig{Rows: make([][]plan.Expr, len(x.Rows))}
		for i, r := range x.Rows {
			for j, v := range r {
				cfg.Rows[i] = append(cfg.Rows[i], plan.Expr{E: &expr.Literal{V: v, T: x.schema[j].Type}})
			}
		}
		return t.add(like(n, plan.KindValues, plan.ParallelismSingle, nil, cfg))
	case *Calc:
		par, inputs := forward(in)
		return t.add(like(n, plan.KindCalc, par, inputs, &plan.CalcConfig{Projects: plan.Exprs(x.Projects), Filter: plan.Expr{E: x.Filter}}))
	case *Expand:
		par, inputs := forward(in)
		cfg := &plan.ExpandConfig{}
		for _, ps := range x.Projects {
			cfg.Projects = append(cfg.Projects, plan.Exprs(ps))
		}
		return t.add(like(n, plan.KindExpand, par, inputs, cfg))
	case *Correlate:
		par, inputs := forward(in)
		cfg := &plan.CorrelateConfig{Collection: plan.Expr{E: x.Collection}, Ordinality: x.Ordinality, Left: x.Left, Replicate: x.Replicate}
		if len(x.More) > 0 {
			cfg.More = plan.Exprs(x.More)
		}
		return t.add(like(n, plan.KindCorrelate, par, inputs, cfg))
	case *Normalize:
		par, input := keyed(in, x.Keys)
		return t.add(like(n, plan.KindChangelogNormalize, par, []plan.Input{input}, &plan.ChangelogNormalizeConfig{Keys: x.Keys},
			withTTL(state("last", in.schema, x.Keys, "the key's last row, "+rowType(in.schema)), x.ttl.side[0])))
	case *GroupAggregate:
		par, input := keyed(in, x.Keys)
		return t.add(like(n, plan.KindGroupAggregate, par, []plan.Input{input},
			&plan.GroupAggregateConfig{Keys: x.Keys, Aggs: aggCalls(x.Aggs, in.schema), MiniBatch: x.miniBatch},
			withTTL(state("groups", in.schema, x.Keys, "the accumulators of "+aggList(x.Aggs, in.schema)+" and the number of rows"), x.ttl.side[0])))
	case *Union:
		all := seq(len(x.Schema()))
		var inputs []plan.Input
		for _, i := range ins {
			inputs = append(inputs, plan.Input{Node: i.id, Exchange: plan.Hash, Keys: all})
		}
		return t.add(like(n, plan.KindUnion, plan.ParallelismDefault, inputs, &plan.UnionConfig{}))
	case *Sink:
		par, inputs := forward(in)
		if x.Upsert {
			// Keep each key's changes in order on one instance.
			var input plan.Input
			par, input = keyed(in, pkPositions(x.Table.PrimaryKey, x.Schema()))
			inputs = []plan.Input{input}
		}
		return t.add(like(n, plan.KindSink, par, inputs, &plan.SinkConfig{Table: plan.TableOf(x.Table)}))
	case *Collect:
		cfg := &plan.CollectConfig{}
		// A LIMIT over an insert-only input is complete after its N rows.
		if l, ok := x.Input.(*Limit); ok && l.Mode() == connector.InsertOnly && l.N >= 0 {
			limit := l.N
			cfg.CompleteAfter = &limit
		}
		par, inputs := single(in)
		return t.add(like(n, plan.KindCollect, par, inputs, cfg))
	case *Limit:
		par, inputs := single(in)
		return t.add(like(n, plan.KindLimit, par, inputs, &plan.LimitConfig{Order: sortKeys(x.Order), Offset: x.Offset, N: x.N},
			withTTL(state("partitions", in.schema, nil, "the rows kept, "+rowType(in.schema)), x.ttl.side[0])))
	case *Sort:
		par, inputs := single(in)
		cfg := &plan.TemporalSortConfig{TimeColumn: x.Keys[0].Col, Order: sortKeys(x.Keys[1:])}
		if in.schema[cfg.TimeColumn].Type.Attr == types.ProcTime {
			cfg.ProcTime = true
			return t.add(like(n, plan.KindTemporalSort, par, inputs, cfg,
				plan.StateTable{Name: "rows", Key: []plan.Type{plan.Type(types.BigIntType.WithNotNull(true))},
					Value: "the rows waiting for the processing-time timer of the first's millisecond, " + rowType(in.schema)}))
		}
		return t.add(like(n, plan.KindTemporalSort, par, inputs, cfg,
			plan.StateTable{Name: "rows", Key: []plan.Type{plan.Type(types.BigIntType.WithNotNull(true))}, Value: "the rows of that time, " + rowType(in.schema)},
			plan.StateTable{Name: "last", Value: "the last time emitted"}))
	case *BatchSort:
		par, inputs := single(in)
		return t.add(like(n, plan.KindSort, par, inputs, &plan.SortConfig{Order: sortKeys(x.Order), Offset: x.Offset, N: x.N}))
	case *Match:
		return t.match(x, in)
	case *OverAggregate:
		par, input := keyed(in, x.PartitionKeys)
		cfg := &plan.OverAggregateConfig{PartitionKeys: x.PartitionKeys, TimeColumn: x.TimeCol, ProcTime: x.ProcTime,
			Aggs: aggCalls(x.Aggs, in.schema), Rows: x.Rows, Preceding: x.Preceding}
		held := "the rows waiting for the watermark, the rows in the frame and "
		switch {
		case x.ProcTime && x.Preceding < 0:
			held = ""
		case x.ProcTime && x.Rows:
			held = "the rows in the frame and "
		case x.ProcTime:
			held = "the rows waiting for their millisecond to pass, the rows in the frame and "
		}
		return t.add(like(n, plan.KindOverAggregate, par, []plan.Input{input}, cfg,
			withTTL(state("partitions", in.schema, x.PartitionKeys, held+"the accumulators of "+aggList(x.Aggs, in.schema)), x.ttl.side[0])))
	}
	return t.windowsAndJoins(n, ins)
}

// windowsAndJoins translates ranks, deduplication, windows and joins.
func (t *translator) windowsAndJoins(n Node, ins []added) (added, error) {
	var in added
	if len(ins) > 0 {
		in = ins[0]
	}
	switch x := n.(type) {
	case *Rank:
		par, input := keyed(in, x.PartitionKeys)
		if x.Window != nil {
			cfg := &plan.WindowRankConfig{PartitionKeys: x.PartitionKeys, Order: sortKeys(x.Order), Start: x.Start, End: x.End,
				OutputRankNumber: x.OutputRankNumber, WindowEnd: x.Window.EndCol, LocalTime: x.Window.LocalTime}
			return t.rankNumberColumn(n, x.OutputRankNumber, plan.KindWindowRank, par, input, cfg, windowState(in.schema, x.PartitionKeys, "rows"))
		}
		cfg := &plan.RankConfig{PartitionKeys: x.PartitionKeys, Order: sortKeys(x.Order), Start: x.Start, End: x.End, OutputRankNumber: x.OutputRankNumber,
			VariableEnd: x.VariableEnd, EndCol: x.EndCol}
		tables := []plan.StateTable{withTTL(state("partitions", in.schema, x.PartitionKeys, "the partition's rows, "+rowType(in.schema)), x.ttl.side[0])}
		if x.VariableEnd {
			tables = append(tables, withTTL(state("rank-end", in.schema, x.PartitionKeys, "the partition's rank end (BIGINT), from its first row"), x.ttl.side[0]))
		}
		return t.rankNumberColumn(n, x.OutputRankNumber, plan.KindRank, par, input, cfg, tables...)
	case *Deduplicate:
		par, input := keyed(in, x.Keys)
		if x.Window != nil {
			cfg := &plan.WindowDeduplicateConfig{Keys: x.Keys, KeepLast: x.KeepLast, TimeColumn: x.TimeCol, OutputRankNumber: x.OutputRankNumber,
				WindowEnd: x.Window.EndCol, LocalTime: x.Window.LocalTime}
			return t.rankNumberColumn(n, x.OutputRankNumber, plan.KindWindowDeduplicate, par, input, cfg, windowState(in.schema, x.Keys, "the row kept"))
		}
		cfg := &plan.DeduplicateConfig{Keys: x.Keys, KeepLast: x.KeepLast, TimeColumn: x.TimeCol, RowTime: x.RowTime, OutputRankNumber: x.OutputRankNumber}
		st := state("last", in.schema, x.Keys, "the row kept, "+rowType(in.schema))
		if !x.KeepLast && !x.RowTime {
			st = state("seen", in.schema, x.Keys, "nothing: the key has had its row")
		}
		st = withTTL(st, x.ttl.side[0])
		return t.rankNumberColumn(n, x.OutputRankNumber, plan.KindDeduplicate, par, input, cfg, st)
	case *WindowTableFunction:
		par, inputs := forward(in)
		var st []plan.StateTable
		if x.Window.Kind == Session {
			var input plan.Input
			par, input = keyed(in, x.Window.PartitionKeys)
			inputs = []plan.Input{input}
			st = append(st, state("sessions", in.schema, x.Window.PartitionKeys, "the open sessions: their bounds and rows, and the time of the key's timer, "+rowType(in.schema)))
		}
		return t.add(like(n, plan.KindWindowTableFunction, par, inputs, &plan.WindowTableFunctionConfig{Window: window(x.Window)}, st...))
	case *WindowAggregate:
		par, input := keyed(in, x.Keys)
		st := windowState(in.schema, x.Keys, "the accumulators of "+aggList(x.Aggs, in.schema))
		if x.Window.Kind == Session {
			st = state("sessions", in.schema, x.Keys, "the open sessions: their bounds and rows, and the time of the key's timer, "+rowType(in.schema))
		}
		cfg := &plan.WindowAggregateConfig{Window: window(x.Window), Keys: x.Keys, Aggs: aggCalls(x.Aggs, in.schema)}
		return t.add(like(n, plan.KindWindowAggregate, par, []plan.Input{input}, cfg, st))
	case *SemiJoin:
		left, right := ins[0], ins[1]
		par := plan.ParallelismDefault
		inputs := []plan.Input{{Node: left.id, Exchange: plan.Hash, Keys: x.LeftKeys}, {Node: right.id, Exchange: plan.Hash, Keys: x.RightKeys}}
		if x.NullAware || len(x.LeftKeys) == 0 {
			// Every NULL of the right side must be seen by every instance;
			// without keys (an uncorrelated EXISTS), every right row.
			par, inputs = single(left, right)
		}
		cfg := &plan.SemiJoinConfig{LeftKeys: x.LeftKeys, RightKeys: x.RightKeys, Anti: x.Anti, NullAware: x.NullAware, KeepNullKeys: x.KeepNullKeys, NullSafe: x.NullSafe,
			Condition: plan.Expr{E: x.Cond}}
		if x.Cond != nil || x.ttl.side[0] != 0 || x.ttl.side[1] != 0 {
			return t.add(like(n, plan.KindSemiJoin, par, inputs, cfg,
				withTTL(state("left", left.schema, x.LeftKeys, "the left rows with their counts and numbers of matching right rows, "+rowType(left.schema)), x.ttl.side[0]),
				withTTL(state("right", right.schema, x.RightKeys, "the right rows with their counts, "+rowType(right.schema)), x.ttl.side[1])))
		}
		return t.add(like(n, plan.KindSemiJoin, par, inputs, cfg,
			state("left", left.schema, x.LeftKeys, "the left rows with their counts, "+rowType(left.schema)),
			state("right", right.schema, x.RightKeys, "the number of right rows (under the empty key: the number of NULL keys)")))
	case *WindowJoin:
		par, inputs := joinExchange(ins, &x.Join)
		cfg := &plan.WindowJoinConfig{Join: joinOf(&x.Join), LeftEnd: x.LeftEnd, RightEnd: x.RightEnd}
		return t.add(like(n, plan.KindWindowJoin, par, inputs, cfg,
			state("windows", ins[0].schema, x.LeftKeys, "the window's end and both sides' rows")))
	case *TemporalJoin:
		par, inputs := joinExchange(ins, &x.Join)
		cfg := &plan.TemporalJoinConfig{Join: joinOf(&x.Join), LeftTime: x.LeftTime, RightTime: x.RightTime}
		return t.add(like(n, plan.KindTemporalJoin, par, inputs, cfg,
			withTTL(state("keys", ins[0].schema, x.LeftKeys, "the left rows waiting for the watermark and the right side's versions"), x.retention)))
	case *IntervalJoin:
		par, inputs := joinExchange(ins, &x.Join)
		cfg := &plan.IntervalJoinConfig{Join: joinOf(&x.Join), LeftTime: x.LeftTime, RightTime: x.RightTime, Lower: x.Lower, Upper: x.Upper, ProcTime: x.ProcTime}
		return t.add(like(n, plan.KindIntervalJoin, par, inputs, cfg,
			state("keys", ins[0].schema, x.LeftKeys, "both sides' cached rows with their times and expiry timers")))
	case *Join:
		par, inputs := joinExchange(ins, x)
		return t.add(like(n, plan.KindJoin, par, inputs, &plan.JoinConfig{Join: joinOf(x)},
			withTTL(state("left", ins[0].schema, x.LeftKeys, "the left rows with their counts and numbers of matches, "+rowType(ins[0].schema)), x.ttl.side[0]),
			withTTL(state("right", ins[1].schema, x.RightKeys, "the right rows with their counts and numbers of matches, "+rowType(ins[1].schema)), x.ttl.side[1])))
	}
	if a, ok, err := t.miniBatch(n, in); ok {
		return a, err
	}
	return added{}, fmt.Errorf("%s is not supported yet", n.Describe())
}

// rankNumberColumn adds a rank-like operator and, when it does not output
// its row number, a Calc after it that keeps the planned row layout: the
// planner's schema always ends with that column, which nothing reads then,
// so the Calc fills it with NULL.
func (t *translator) rankNumberColumn(n Node, outputs bool, kind string, par plan.Parallelism, input plan.Input, cfg plan.Config, st ...plan.StateTable) (added, error) {
	s := like(n, kind, par, []plan.Input{input}, cfg, st...)
	if outputs {
		return t.add(s)
	}
	full := n.Schema()
	s.schema = full[:len(full)-1]
	rank, err := t.add(s)
	if err != nil {
		return added{}, err
	}
	projects := make([]expr.Expr, len(full))
	for i, f := range s.schema {
		projects[i] = &expr.Column{Index: i, Name: f.Name, T: f.Type}
	}
	last := full[len(full)-1].Type
	projects[len(full)-1] = &expr.Literal{V: types.NullValue, T: last, Text: "null:" + last.Plain().String()}
	calc := &Calc{base: base{schema: full}, Input: &Values{base: base{schema: s.schema}}, Projects: projects}
	par, inputs := forward(rank)
	return t.add(step{kind: plan.KindCalc, schema: full, mode: n.Mode().String(), description: execDescription(calc), par: par, inputs: inputs,
		config: &plan.CalcConfig{Projects: plan.Exprs(projects)}})
}

// joinExchange routes both join inputs by their keys, or everything to one
// instance for a join without equality keys.
func joinExchange(ins []added, j *Join) (plan.Parallelism, []plan.Input) {
	if len(j.LeftKeys) == 0 {
		return single(ins[0], ins[1])
	}
	return plan.ParallelismDefault, []plan.Input{
		{Node: ins[0].id, Exchange: plan.Hash, Keys: j.LeftKeys},
		{Node: ins[1].id, Exchange: plan.Hash, Keys: j.RightKeys},
	}
}

func joinOf(j *Join) plan.Join {
	kinds := map[JoinKind]string{InnerJoin: "INNER", LeftJoin: "LEFT", RightJoin: "RIGHT", FullJoin: "FULL"}
	return plan.Join{JoinType: kinds[j.Kind], LeftKeys: j.LeftKeys, RightKeys: j.RightKeys, Condition: plan.Expr{E: j.Cond}}
}

func window(w Window) plan.Window {
	kinds := map[WindowKind]string{Tumble: "TUMBLE", Hop: "HOP", Cumulate: "CUMULATE", Session: "SESSION"}
	return plan.Window{Function: kinds[w.Kind], TimeColumn: w.TimeCol, Size: w.Size, Slide: w.Slide, Offset: w.Offset, Gap: w.Gap,
		PartitionKeys: w.PartitionKeys, LocalTime: w.LocalTime, ProcTime: w.ProcTime}
}

func sortKeys(keys []SortKey) []plan.SortKey {
	if len(keys) == 0 {
		return nil
	}
	out := make([]plan.SortKey, len(keys))
	for i, k := range keys {
		out[i] = plan.SortKey{Column: k.Col, Descending: k.Desc, NullsFirst: k.NullsFirst}
	}
	return out
}

func aggCalls(calls []AggCall, in types.Schema) []plan.AggCall {
	out := make([]plan.AggCall, len(calls))
	for i, a := range calls {
		c := plan.AggCall{Function: a.Name, Args: a.Args, Distinct: a.Distinct, Type: plan.Type(a.Type)}
		if a.Filter >= 0 {
			f := a.Filter
			c.Filter = &f
		}
		if a.Consts != nil {
			c.Constants = make([]plan.Expr, len(a.Args))
			for j, v := range a.Consts {
				if v != nil {
					c.Constants[j] = plan.Expr{E: &expr.Literal{V: *v, T: in[a.Args[j]].Type}}
				}
			}
		}
		out[i] = c
	}
	return out
}

// state declares a state table keyed by the columns keys of in.
func state(name string, in types.Schema, keys []int, value string) plan.StateTable {
	st := plan.StateTable{Name: name, Value: value}
	for _, k := range keys {
		st.Key = append(st.Key, plan.Type(in[k].Type))
	}
	return st
}

// windowState declares the state of a windowed operator: one entry per
// window, keyed by the window's end, holding a value per key.
func windowState(in types.Schema, keys []int, value string) plan.StateTable {
	var kt []string
	for _, k := range keys {
		kt = append(kt, in[k].Type.String())
	}
	return plan.StateTable{Name: "windows", Key: []plan.Type{plan.Type(types.BigIntType.WithNotNull(true))},
		Value: fmt.Sprintf("the window's bounds and, per key (%s), %s", strings.Join(kt, ", "), value)}
}

// rowType renders the row type of s.
func rowType(s types.Schema) string {
	parts := make([]string, len(s))
	for i, f := range s {
		parts[i] = f.Name + " " + f.Type.String()
	}
	return "ROW<" + strings.Join(parts, ", ") + ">"
}

func aggList(calls []AggCall, in types.Schema) string {
	parts := make([]string, len(calls))
	for i, a := range calls {
		parts[i] = a.String(in)
	}
	return strings.Join(parts, ", ")
}

func pkPositions(pk []string, s types.Schema) []int {
	var out []int
	for _, k := range pk {
		out = append(out, s.Index(k))
	}
	return out
}
