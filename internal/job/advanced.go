package job

import (
	"fmt"
	"time"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/runtime/ops"
	"github.com/sluicesql/sluice/internal/types"
)

// advanced builds the operators of ranks, deduplication, windows, joins,
// limits and sorts.
func (b *builder) advanced(n planner.Node) (built, error) {
	switch x := n.(type) {
	case *planner.Rank:
		if x.Window != nil {
			return b.windowRank(x)
		}
		in, err := b.node(x.Input)
		if err != nil {
			return built{}, err
		}
		p, input := b.keyed(in, x.PartitionKeys)
		cfg := ops.RankConfig{InputTypes: x.Input.Schema().Types(), PartitionKeys: x.PartitionKeys, Order: sortKeys(x.Order),
			Start: x.Start, End: x.End, OutputRankNumber: x.OutputRankNumber,
			InputInsertOnly: x.Input.Mode() == connector.InsertOnly, GenerateUpdateBefore: true}
		out := b.operator("Rank", p, []runtime.Input{input}, func() (runtime.Operator, error) { return ops.NewRank(cfg) })
		return b.rankNumberColumn(out, x.OutputRankNumber, x.Schema()), nil
	case *planner.Deduplicate:
		if x.Window != nil {
			return b.windowDeduplicate(x)
		}
		in, err := b.node(x.Input)
		if err != nil {
			return built{}, err
		}
		p, input := b.keyed(in, x.Keys)
		cfg := ops.DeduplicateConfig{InputTypes: x.Input.Schema().Types(), Keys: x.Keys, KeepLast: x.KeepLast, TimeCol: x.TimeCol,
			RowTime: x.RowTime, GenerateUpdateBefore: true, OutputRankNumber: x.OutputRankNumber}
		out := b.operator("Deduplicate", p, []runtime.Input{input}, func() (runtime.Operator, error) { return ops.NewDeduplicate(cfg) })
		return b.rankNumberColumn(out, x.OutputRankNumber, x.Schema()), nil
	case *planner.WindowTableFunction:
		in, err := b.node(x.Input)
		if err != nil {
			return built{}, err
		}
		cfg := ops.WindowTableFunctionConfig{InputTypes: x.Input.Schema().Types(), Window: b.window(x.Window), PartitionKeys: x.Window.PartitionKeys}
		p, input := in.parallelism, runtime.Input{Stage: in.stage, Exchange: runtime.Forward}
		if x.Window.Kind == planner.Session {
			p, input = b.keyed(in, x.Window.PartitionKeys)
		}
		return b.operator("WindowTableFunction", p, []runtime.Input{input}, func() (runtime.Operator, error) { return ops.NewWindowTableFunction(cfg) }), nil
	case *planner.WindowAggregate:
		in, err := b.node(x.Input)
		if err != nil {
			return built{}, err
		}
		p, input := b.keyed(in, x.Keys)
		aggs, err := aggSpecs(x.Aggs, x.Input.Schema())
		if err != nil {
			return built{}, err
		}
		cfg := ops.WindowAggregateConfig{InputTypes: x.Input.Schema().Types(), Window: b.window(x.Window), Keys: x.Keys, Aggs: aggs}
		return b.operator("WindowAggregate", p, []runtime.Input{input}, func() (runtime.Operator, error) { return ops.NewWindowAggregate(cfg) }), nil
	case *planner.SemiJoin:
		left, err := b.node(x.Left)
		if err != nil {
			return built{}, err
		}
		right, err := b.node(x.Right)
		if err != nil {
			return built{}, err
		}
		cfg := ops.SemiJoinConfig{LeftTypes: x.Left.Schema().Types(), RightTypes: x.Right.Schema().Types(),
			LeftKeys: x.LeftKeys, RightKeys: x.RightKeys, Anti: x.Anti, NullAware: x.NullAware, KeepNullKeys: x.KeepNullKeys, NullSafe: x.NullSafe}
		p := b.opts.Parallelism
		inputs := []runtime.Input{
			{Stage: left.stage, Exchange: runtime.Hash, Keys: cfg.LeftKeys},
			{Stage: right.stage, Exchange: runtime.Hash, Keys: cfg.RightKeys},
		}
		if x.NullAware {
			// Every NULL of the right side must be seen by every instance.
			p = 1
			inputs = []runtime.Input{{Stage: left.stage, Exchange: runtime.Single}, {Stage: right.stage, Exchange: runtime.Single}}
		}
		return b.operator("SemiJoin", p, inputs, func() (runtime.Operator, error) { return ops.NewSemiJoin(cfg) }), nil
	case *planner.WindowJoin:
		left, right, spec, err := b.joinInputs(&x.Join)
		if err != nil {
			return built{}, err
		}
		cfg := ops.WindowJoinConfig{JoinSpec: spec, LeftEnd: x.LeftEnd, RightEnd: x.RightEnd}
		p, inputs := b.joinExchange(left, right, &x.Join)
		return b.operator("WindowJoin", p, inputs, func() (runtime.Operator, error) { return ops.NewWindowJoin(cfg) }), nil
	case *planner.TemporalJoin:
		left, right, spec, err := b.joinInputs(&x.Join)
		if err != nil {
			return built{}, err
		}
		cfg := ops.TemporalJoinConfig{JoinSpec: spec, LeftTime: x.LeftTime, RightTime: x.RightTime}
		p, inputs := b.joinExchange(left, right, &x.Join)
		return b.operator("TemporalJoin", p, inputs, func() (runtime.Operator, error) { return ops.NewTemporalJoin(cfg) }), nil
	case *planner.IntervalJoin:
		left, right, spec, err := b.joinInputs(&x.Join)
		if err != nil {
			return built{}, err
		}
		cfg := ops.IntervalJoinConfig{JoinSpec: spec, LeftTime: x.LeftTime, RightTime: x.RightTime, LowerBound: x.Lower, UpperBound: x.Upper}
		p, inputs := b.joinExchange(left, right, &x.Join)
		return b.operator("IntervalJoin", p, inputs, func() (runtime.Operator, error) { return ops.NewIntervalJoin(cfg) }), nil
	case *planner.Join:
		left, right, spec, err := b.joinInputs(x)
		if err != nil {
			return built{}, err
		}
		p, inputs := b.joinExchange(left, right, x)
		return b.operator("Join", p, inputs, func() (runtime.Operator, error) { return ops.NewJoin(spec) }), nil
	case *planner.OverAggregate:
		in, err := b.node(x.Input)
		if err != nil {
			return built{}, err
		}
		p, input := b.keyed(in, x.PartitionKeys)
		aggs, err := aggSpecs(x.Aggs, x.Input.Schema())
		if err != nil {
			return built{}, err
		}
		cfg := ops.OverAggregateConfig{InputTypes: x.Input.Schema().Types(), PartitionKeys: x.PartitionKeys, TimeCol: x.TimeCol,
			Aggs: aggs, Rows: x.Rows, Preceding: x.Preceding}
		return b.operator("OverAggregate", p, []runtime.Input{input}, func() (runtime.Operator, error) { return ops.NewOverAggregate(cfg) }), nil
	case *planner.Limit:
		in, err := b.node(x.Input)
		if err != nil {
			return built{}, err
		}
		cfg := ops.LimitConfig{InputTypes: x.Input.Schema().Types(), Order: sortKeys(x.Order), Offset: x.Offset, N: x.N,
			InputInsertOnly: x.Input.Mode() == connector.InsertOnly, GenerateUpdateBefore: true}
		return b.operator("Limit", 1, []runtime.Input{{Stage: in.stage, Exchange: runtime.Single}}, func() (runtime.Operator, error) { return ops.NewLimit(cfg) }), nil
	case *planner.Sort:
		in, err := b.node(x.Input)
		if err != nil {
			return built{}, err
		}
		cfg := ops.TemporalSortConfig{InputTypes: x.Input.Schema().Types(), TimeCol: x.Keys[0].Col, Order: sortKeys(x.Keys[1:])}
		return b.operator("TemporalSort", 1, []runtime.Input{{Stage: in.stage, Exchange: runtime.Single}}, func() (runtime.Operator, error) { return ops.NewTemporalSort(cfg) }), nil
	}
	return built{}, fmt.Errorf("%s is not supported yet", n.Describe())
}

// windowRank builds a window Top-N, emitting each window's ranks when the
// watermark passes its end.
func (b *builder) windowRank(x *planner.Rank) (built, error) {
	in, err := b.node(x.Input)
	if err != nil {
		return built{}, err
	}
	p, input := b.keyed(in, x.PartitionKeys)
	cfg := ops.WindowRankConfig{InputTypes: x.Input.Schema().Types(), PartitionKeys: x.PartitionKeys, Order: sortKeys(x.Order),
		Start: x.Start, End: x.End, OutputRankNumber: x.OutputRankNumber, WindowEndCol: x.Window.EndCol, Zone: b.windowZone(*x.Window)}
	out := b.operator("WindowRank", p, []runtime.Input{input}, func() (runtime.Operator, error) { return ops.NewWindowRank(cfg) })
	return b.rankNumberColumn(out, x.OutputRankNumber, x.Schema()), nil
}

// windowDeduplicate builds a window deduplication.
func (b *builder) windowDeduplicate(x *planner.Deduplicate) (built, error) {
	in, err := b.node(x.Input)
	if err != nil {
		return built{}, err
	}
	p, input := b.keyed(in, x.Keys)
	cfg := ops.WindowDeduplicateConfig{InputTypes: x.Input.Schema().Types(), PartitionKeys: x.Keys, TimeCol: x.TimeCol, KeepLast: x.KeepLast,
		OutputRankNumber: x.OutputRankNumber, WindowEndCol: x.Window.EndCol, Zone: b.windowZone(*x.Window)}
	out := b.operator("WindowDeduplicate", p, []runtime.Input{input}, func() (runtime.Operator, error) { return ops.NewWindowDeduplicate(cfg) })
	return b.rankNumberColumn(out, x.OutputRankNumber, x.Schema()), nil
}

// windowZone is the zone window bounds are wall-clock times in, for
// windows over TIMESTAMP_LTZ; nil otherwise.
func (b *builder) windowZone(w planner.Window) *time.Location {
	if w.LocalTime {
		return b.opts.Env.TimeZone
	}
	return nil
}

// window converts a planned window to the operators' form.
func (b *builder) window(w planner.Window) ops.Window {
	kinds := map[planner.WindowKind]ops.WindowKind{planner.Tumble: ops.Tumble, planner.Hop: ops.Hop, planner.Cumulate: ops.Cumulate, planner.Session: ops.Session}
	return ops.Window{Kind: kinds[w.Kind], TimeCol: w.TimeCol, Size: w.Size, Slide: w.Slide, Offset: w.Offset, Gap: w.Gap, Zone: b.windowZone(w)}
}

// joinInputs builds both sides of a join and its operator spec.
func (b *builder) joinInputs(j *planner.Join) (built, built, ops.JoinSpec, error) {
	left, err := b.node(j.Left)
	if err != nil {
		return built{}, built{}, ops.JoinSpec{}, err
	}
	right, err := b.node(j.Right)
	if err != nil {
		return built{}, built{}, ops.JoinSpec{}, err
	}
	kinds := map[planner.JoinKind]ops.JoinKind{planner.InnerJoin: ops.InnerJoin, planner.LeftJoin: ops.LeftJoin, planner.RightJoin: ops.RightJoin, planner.FullJoin: ops.FullJoin}
	spec := ops.JoinSpec{Kind: kinds[j.Kind], LeftTypes: j.Left.Schema().Types(), RightTypes: j.Right.Schema().Types(), LeftKeys: j.LeftKeys, RightKeys: j.RightKeys}
	if j.Cond != nil {
		pred, err := expr.Predicate(j.Cond)
		if err != nil {
			return built{}, built{}, ops.JoinSpec{}, err
		}
		ctx := &expr.Context{Fn: b.fnCtx}
		spec.Cond = func(l, r types.Row) (bool, error) {
			row := make(types.Row, 0, len(l)+len(r))
			return pred(ctx, append(append(row, l...), r...))
		}
	}
	return left, right, spec, nil
}

// joinExchange routes both join inputs by their keys, or everything to one
// instance for a join without equality keys.
func (b *builder) joinExchange(left, right built, j *planner.Join) (int, []runtime.Input) {
	if len(j.LeftKeys) == 0 {
		return 1, []runtime.Input{{Stage: left.stage, Exchange: runtime.Single}, {Stage: right.stage, Exchange: runtime.Single}}
	}
	return b.opts.Parallelism, []runtime.Input{
		{Stage: left.stage, Exchange: runtime.Hash, Keys: j.LeftKeys},
		{Stage: right.stage, Exchange: runtime.Hash, Keys: j.RightKeys},
	}
}

// rankNumberColumn keeps the plan's row layout when an operator does not
// output its row number: the planner's schema always ends with that column,
// which nothing reads then, so it is filled with NULL.
func (b *builder) rankNumberColumn(in built, outputs bool, schema types.Schema) built {
	if outputs {
		return in
	}
	ts := schema.Types()
	n := len(ts) - 1
	cfg := ops.CalcConfig{OutputTypes: ts, Context: expr.Context{Fn: b.fnCtx}}
	for i := 0; i < n; i++ {
		ev, _ := expr.Compile(&expr.Column{Index: i, T: ts[i]})
		cfg.Projects = append(cfg.Projects, ev)
	}
	null, _ := expr.Compile(&expr.Literal{V: types.NullValue, T: ts[n]})
	cfg.Projects = append(cfg.Projects, null)
	return b.operator("Calc", in.parallelism, []runtime.Input{{Stage: in.stage, Exchange: runtime.Forward}},
		func() (runtime.Operator, error) { return ops.NewCalc(cfg), nil })
}

func sortKeys(keys []planner.SortKey) []ops.SortKey {
	out := make([]ops.SortKey, len(keys))
	for i, k := range keys {
		out[i] = ops.SortKey{Col: k.Col, Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return out
}
