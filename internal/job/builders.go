package job

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/runtime/ops"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

func init() {
	builders[plan.KindScan] = buildScan
	builders[plan.KindValues] = buildValues
	builders[plan.KindCalc] = buildCalc
	builders[plan.KindExpand] = buildExpand
	builders[plan.KindCorrelate] = buildCorrelate
	builders[plan.KindChangelogNormalize] = buildChangelogNormalize
	builders[plan.KindGroupAggregate] = buildGroupAggregate
	builders[plan.KindUnion] = func(n *Node) (Instances, error) {
		return operator(n, func() (*ops.Union, error) { return ops.NewUnion(), nil })
	}
	builders[plan.KindSink] = buildSink
	builders[plan.KindCollect] = buildCollect
	builders[plan.KindRank] = buildRank
	builders[plan.KindWindowRank] = buildWindowRank
	builders[plan.KindDeduplicate] = buildDeduplicate
	builders[plan.KindWindowDeduplicate] = buildWindowDeduplicate
	builders[plan.KindWindowTableFunction] = buildWindowTableFunction
	builders[plan.KindWindowAggregate] = buildWindowAggregate
	builders[plan.KindSemiJoin] = buildSemiJoin
	builders[plan.KindJoin] = buildJoin
	builders[plan.KindWindowJoin] = buildWindowJoin
	builders[plan.KindTemporalJoin] = buildTemporalJoin
	builders[plan.KindIntervalJoin] = buildIntervalJoin
	builders[plan.KindOverAggregate] = buildOverAggregate
	builders[plan.KindLimit] = buildLimit
	builders[plan.KindTemporalSort] = buildTemporalSort
	builders[plan.KindSort] = buildSort
}

// buildScan creates the table's connector source; computed columns and
// the watermark are evaluated over whole chunks the source completes.
// With a projection, the source reads the projected columns and those
// the projected computed columns read, which are dropped once those are
// computed.
func buildScan(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.ScanConfig)
	t, err := cfg.Table.Catalog()
	if err != nil {
		return Instances{}, fmt.Errorf("config.table.%w", err)
	}
	cols := t.Schema().Types()
	f, err := connector.For(t)
	if err != nil {
		return Instances{}, fmt.Errorf("config.table: %w", err)
	}
	read, err := scanColumns(n, cfg, t)
	if err != nil {
		return Instances{}, err
	}
	spec := connector.SourceSpec{Env: n.Options.Env}
	if cfg.Project != nil {
		if pd, ok := f.(connector.ProjectionPushDown); !ok {
			return Instances{}, fmt.Errorf("config.project: connector '%s' takes no projection", f.Name())
		} else if ok, _ := pd.ProjectionPushDown(t); !ok {
			return Instances{}, fmt.Errorf("config.project: table '%s' takes no projection", t.Name)
		}
		spec.Columns = read
	}
	// at gives a table column's position in the source's chunks.
	at := make([]int, len(cols))
	for i := range at {
		at[i] = -1
	}
	for p, c := range read {
		at[c] = p
	}
	remap := func(e expr.Expr) expr.Expr {
		return expr.Remap(e, func(c *expr.Column) expr.Expr { return &expr.Column{Index: at[c.Index], Name: c.Name, T: c.T} })
	}
	emitted := len(n.Schema) // the first columns of read
	if len(cfg.Computed) > 0 {
		if len(cfg.Computed) != len(cols) {
			return Instances{}, fmt.Errorf("config.computed: %d expressions for %d columns", len(cfg.Computed), len(cols))
		}
		es := make([]expr.Expr, len(read))
		var computed []int
		for i, e := range cfg.Computed {
			if (e.E != nil) != (t.Columns[i].Computed != nil) {
				return Instances{}, fmt.Errorf("config.computed[%d]: column '%s' is computed exactly when it has an expression", i, t.Columns[i].Name)
			}
			if e.E == nil {
				continue
			}
			if err := checkColumns(fmt.Sprintf("config.computed[%d]", i), e.E, cols); err != nil {
				return Instances{}, err
			}
			if at[i] >= 0 {
				es[at[i]] = remap(e.E)
				computed = append(computed, at[i])
			}
		}
		if len(computed) > 0 {
			ev, err := newChunkEvaluator(n.Fn, es)
			if err != nil {
				return Instances{}, fmt.Errorf("config.computed: %w", err)
			}
			slices.Sort(computed) // in table order, as without a projection
			spec.Complete = func(c *types.Chunk) error {
				if err := ev.fill(c, computed); err != nil {
					return err
				}
				c.Cols = c.Cols[:emitted]
				return nil
			}
		}
	}
	if e := cfg.Watermark.E; e != nil {
		if err := checkColumns("config.watermark", e, cols); err != nil {
			return Instances{}, err
		}
		var missing error
		expr.Walk(e, func(x expr.Expr) {
			if c, ok := x.(*expr.Column); ok && (at[c.Index] < 0 || at[c.Index] >= emitted) && missing == nil {
				missing = fmt.Errorf("config.watermark: column '%s' is not in the schema", c.Name)
			}
		})
		if missing != nil {
			return Instances{}, missing
		}
		ev, err := newChunkEvaluator(n.Fn, []expr.Expr{remap(e)})
		if err != nil {
			return Instances{}, fmt.Errorf("config.watermark: %w", err)
		}
		wt := e.Type()
		spec.Watermark = func(c *types.Chunk, wms *types.Vector) error { return ev.column(c, wt, wms) }
	}
	src, err := f.NewSource(t, spec)
	if err != nil {
		return Instances{}, fmt.Errorf("table '%s': %w", t.Name, err)
	}
	p := n.Parallelism
	return Instances{NewSource: func(i int) (runtime.Source, error) { return src.NewInstance(i, p) }}, nil
}

// scanColumns checks a scan's schema against its table and projection,
// and returns the columns its source reads: the emitted ones, then the
// others that the emitted computed columns read.
func scanColumns(n *Node, cfg *plan.ScanConfig, t *catalog.Table) ([]int, error) {
	out := n.Out()
	read := cfg.Project
	if read == nil {
		read = make([]int, len(t.Columns))
		for i := range read {
			read[i] = i
		}
	}
	if len(out) != len(read) {
		return nil, fmt.Errorf("schema: %d columns, the scan emits %d", len(out), len(read))
	}
	seen := make([]bool, len(t.Columns))
	for i, c := range read {
		if c < 0 || c >= len(t.Columns) || seen[c] {
			return nil, fmt.Errorf("config.project[%d]: %d is not a column of the table, or twice", i, c)
		}
		seen[c] = true
		tc := t.Columns[c]
		if n.Schema[i].Name != tc.Name || !types.Equal(out[i], tc.Type) {
			return nil, fmt.Errorf("schema[%d]: %s %s is not the table's column %s %s", i, n.Schema[i].Name, out[i], tc.Name, tc.Type)
		}
	}
	read = slices.Clone(read)
	for _, c := range cfg.Project {
		if c >= len(cfg.Computed) || cfg.Computed[c].E == nil {
			continue
		}
		for _, k := range expr.Columns(cfg.Computed[c].E) {
			if k >= 0 && k < len(seen) && !seen[k] {
				seen[k] = true
				read = append(read, k)
			}
		}
	}
	return read, nil
}

func buildValues(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.ValuesConfig)
	out := n.Out()
	v := &ops.Values{Types: out}
	for i, r := range cfg.Rows {
		if len(r) != len(out) {
			return Instances{}, fmt.Errorf("config.rows[%d]: %d values for %d columns", i, len(r), len(out))
		}
		row := make(types.Row, len(r))
		for j, e := range r {
			lit, ok := e.E.(*expr.Literal)
			if !ok || !types.Equal(lit.T, out[j]) {
				return Instances{}, fmt.Errorf("config.rows[%d][%d]: expected a %s literal", i, j, out[j])
			}
			row[j] = lit.V
		}
		v.Rows = append(v.Rows, row)
	}
	return Instances{NewSource: func(int) (runtime.Source, error) { return v, nil }}, nil
}

// buildExpand compiles each projection of each row the operator emits
// per input row.
func buildExpand(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.ExpandConfig)
	if len(cfg.Projects) == 0 {
		return Instances{}, fmt.Errorf("config.projects: no projection")
	}
	return operator(n, func() (*ops.Expand, error) {
		c := ops.ExpandConfig{OutputTypes: n.Out(), Context: expr.Context{Fn: n.Fn}}
		for i, ps := range cfg.Projects {
			if len(ps) != len(n.Schema) {
				return nil, fmt.Errorf("config.projects[%d]: %d projections for %d columns", i, len(ps), len(n.Schema))
			}
			var evs []expr.Evaluator
			for j, p := range ps {
				field := fmt.Sprintf("config.projects[%d][%d]", i, j)
				ev, err := n.compile(field, p.E, n.In[0])
				if err != nil {
					return nil, err
				}
				if t := p.E.Type(); !types.Equal(t.Nullable(), c.OutputTypes[j].Nullable()) {
					return nil, fmt.Errorf("%s: %s, but the column is %s", field, t, c.OutputTypes[j])
				}
				evs = append(evs, ev)
			}
			c.Projects = append(c.Projects, evs)
		}
		return ops.NewExpand(c), nil
	})
}

// buildCalc compiles the projections and filter anew for each instance:
// projections of a plain column are copies, those with a column form are
// evaluated over whole chunks, and the row the others see holds only the
// columns they read.
func buildCalc(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.CalcConfig)
	if len(cfg.Projects) != len(n.Schema) {
		return Instances{}, fmt.Errorf("config.projects: %d projections for %d columns", len(cfg.Projects), len(n.Schema))
	}
	return operator(n, func() (*ops.Calc, error) {
		c := ops.CalcConfig{OutputTypes: n.Out(), Context: expr.Context{Fn: n.Fn}, Copies: make([]int, len(cfg.Projects)),
			Vectors: make([]expr.VectorEvaluator, len(cfg.Projects))}
		var rowExprs, vectorExprs []expr.Expr
		for j, p := range cfg.Projects {
			field := fmt.Sprintf("config.projects[%d]", j)
			ev, err := n.compile(field, p.E, n.In[0])
			if err != nil {
				return nil, err
			}
			if t := p.E.Type(); !types.Equal(t.Nullable(), c.OutputTypes[j].Nullable()) {
				return nil, fmt.Errorf("config.projects[%d]: %s, but the column is %s", j, t, c.OutputTypes[j])
			}
			c.Projects = append(c.Projects, ev)
			c.Copies[j] = -1
			if col, ok := p.E.(*expr.Column); ok {
				c.Copies[j] = col.Index
				continue
			}
			vec, ok, err := expr.CompileVector(p.E)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", field, err)
			}
			if ok {
				c.Vectors[j] = vec
				vectorExprs = append(vectorExprs, p.E)
			} else {
				rowExprs = append(rowExprs, p.E)
			}
		}
		if cfg.Filter.E != nil {
			ev, err := n.compile("config.filter", cfg.Filter.E, n.In[0])
			if err != nil {
				return nil, err
			}
			vec, ok, err := expr.CompileVector(cfg.Filter.E)
			switch {
			case err != nil:
				return nil, fmt.Errorf("config.filter: %w", err)
			case ok:
				c.VectorFilter = vec
			default:
				c.Filter = ev.Holds
				rowExprs = append(rowExprs, cfg.Filter.E)
			}
		}
		c.Reads, c.VectorReads = expr.Columns(rowExprs...), expr.Columns(vectorExprs...)
		return ops.NewCalc(c), nil
	})
}

// buildCorrelate compiles the collection expression for each instance and
// checks that the node's columns are the input's, the element's and the
// ordinality.
func buildCorrelate(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.CorrelateConfig)
	if cfg.Collection.E == nil {
		return Instances{}, fmt.Errorf("config.collection: missing")
	}
	t := cfg.Collection.E.Type()
	want := append([]types.Type{}, n.In[0]...)
	if cfg.Replicate {
		if t.Kind != types.BigInt || len(cfg.More) > 0 {
			return Instances{}, fmt.Errorf("config.collection: the count of copies is %s, not one BIGINT", t)
		}
	} else {
		var err error
		if want, err = elementTypes(want, "config.collection", t); err != nil {
			return Instances{}, err
		}
	}
	var moreTypes []types.Type
	for i, m := range cfg.More {
		if m.E == nil {
			return Instances{}, fmt.Errorf("config.more[%d]: missing", i)
		}
		var err error
		if want, err = elementTypes(want, fmt.Sprintf("config.more[%d]", i), m.E.Type()); err != nil {
			return Instances{}, err
		}
		moreTypes = append(moreTypes, m.E.Type())
	}
	if cfg.Ordinality {
		want = append(want, types.IntType)
	}
	out := n.Out()
	if len(want) != len(out) {
		return Instances{}, fmt.Errorf("config: %d columns from the input, the element and the ordinality, but the node has %d", len(want), len(out))
	}
	for j := range want {
		if !types.Equal(want[j].Nullable(), out[j].Nullable()) {
			return Instances{}, fmt.Errorf("schema[%d]: %s, but the input and the element give %s", j, out[j], want[j])
		}
	}
	return operator(n, func() (*ops.Correlate, error) {
		ev, err := n.compile("config.collection", cfg.Collection.E, n.In[0])
		if err != nil {
			return nil, err
		}
		var more []expr.Evaluator
		for i, m := range cfg.More {
			e, err := n.compile(fmt.Sprintf("config.more[%d]", i), m.E, n.In[0])
			if err != nil {
				return nil, err
			}
			more = append(more, e)
		}
		return ops.NewCorrelate(ops.CorrelateConfig{Collection: ev, CollectionType: t, More: more, MoreTypes: moreTypes,
			Ordinality: cfg.Ordinality, Left: cfg.Left, Replicate: cfg.Replicate, OutputTypes: out, Context: expr.Context{Fn: n.Fn}}), nil
	})
}

// elementTypes appends to out the column types UNNEST gives for a
// collection of type t, the config field at.
func elementTypes(out []types.Type, at string, t types.Type) ([]types.Type, error) {
	switch {
	case t.Kind == types.Map:
		return append(out, t.KeyType(), t.ValueType()), nil
	case (t.Kind == types.Array || t.Kind == types.Multiset) && t.Elem().Kind == types.RowType:
		for _, f := range t.Elem().Fields() {
			out = append(out, f.Type)
		}
		return out, nil
	case t.Kind == types.Array || t.Kind == types.Multiset:
		return append(out, t.Elem()), nil
	}
	return nil, fmt.Errorf("%s: %s is not an ARRAY, MULTISET or MAP", at, t)
}

func buildChangelogNormalize(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.ChangelogNormalizeConfig)
	c := ops.ChangelogNormalizeConfig{InputTypes: n.In[0], Keys: cfg.Keys, GenerateUpdateBefore: true, StateTTL: n.stateTTL("last")}
	return stateful(n, func(st state.Backend) (*ops.ChangelogNormalize, error) { return ops.NewChangelogNormalize(c, st) })
}

func buildGroupAggregate(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.GroupAggregateConfig)
	aggs, err := aggSpecs(cfg.Aggs, n.In[0], n.InputChangelogs[0])
	if err != nil {
		return Instances{}, fmt.Errorf("config.%w", err)
	}
	c := ops.GroupAggregateConfig{InputTypes: n.In[0], Keys: cfg.Keys, Aggs: aggs, GenerateUpdateBefore: true, StateTTL: n.stateTTL("groups"),
		EmptyResult: n.Options.Batch}
	if cfg.MiniBatch != nil {
		return stateful(n, func(st state.Backend) (*ops.MiniBatchGroupAggregate, error) {
			return ops.NewMiniBatchGroupAggregate(c, miniBatch(*cfg.MiniBatch), st)
		})
	}
	return stateful(n, func(st state.Backend) (*ops.GroupAggregate, error) { return ops.NewGroupAggregate(c, st) })
}

// buildSink creates the table's connector sink.
func buildSink(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.SinkConfig)
	t, err := cfg.Table.Catalog()
	if err != nil {
		return Instances{}, fmt.Errorf("config.table.%w", err)
	}
	want := connector.SinkInput(t)
	if len(want) != len(n.In[0]) {
		return Instances{}, fmt.Errorf("inputs[0]: %d columns, the table takes %d", len(n.In[0]), len(want))
	}
	for i, w := range want {
		if got := n.In[0][i]; !types.Equal(got.Nullable(), w.Nullable()) {
			return Instances{}, fmt.Errorf("inputs[0]: column %d is %s, the table takes %s", i, got, w)
		}
	}
	f, err := connector.For(t)
	if err != nil {
		return Instances{}, fmt.Errorf("config.table: %w", err)
	}
	target, err := f.NewSink(t, n.Options.Env)
	if err != nil {
		return Instances{}, fmt.Errorf("table '%s': %w", t.Name, err)
	}
	p := n.Parallelism
	// A sink runs at its input's parallelism; one of its own would need a
	// redistribution Sluice does not have yet.
	if sp, ok := target.(interface{ Parallelism() int }); ok && sp.Parallelism() != 0 && sp.Parallelism() != p {
		return Instances{}, fmt.Errorf("table '%s': '%s' = '%d' differs from the job's parallelism %d, which is not supported yet; "+
			"leave it out or set 'parallelism.default' to it", t.Name, connector.SinkParallelismKey, sp.Parallelism(), p)
	}
	return Instances{NewOperator: func(i int) (runtime.Operator, error) { return target.NewInstance(i, p) }}, nil
}

// buildCollect makes the collector a query's client reads.
func buildCollect(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.CollectConfig)
	if n.graph.Collector != nil {
		return Instances{}, errors.New("a plan has one query result at most")
	}
	limit := int64(-1)
	if cfg.CompleteAfter != nil {
		if limit = *cfg.CompleteAfter; limit < 0 {
			return Instances{}, fmt.Errorf("config.completeAfter: negative row count %d", limit)
		}
	}
	out := ops.NewCollector(limit)
	n.graph.Collector = out
	return Instances{NewOperator: func(int) (runtime.Operator, error) { return out, nil }}, nil
}

func sortKeys(keys []plan.SortKey) []ops.SortKey {
	out := make([]ops.SortKey, len(keys))
	for i, k := range keys {
		out[i] = ops.SortKey{Col: k.Column, Desc: k.Descending, NullsFirst: k.NullsFirst}
	}
	return out
}

func insertOnly(n *Node) bool { return n.InputChangelogs[0] == plan.InsertOnly }

func buildRank(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.RankConfig)
	c := ops.RankConfig{InputTypes: n.In[0], PartitionKeys: cfg.PartitionKeys, Order: sortKeys(cfg.Order), Start: cfg.Start, End: cfg.End,
		VariableEnd: cfg.VariableEnd, EndCol: cfg.EndCol, OutputRankNumber: cfg.OutputRankNumber, InputInsertOnly: insertOnly(n), GenerateUpdateBefore: true,
		StateTTL: n.stateTTL("partitions")}
	return stateful(n, func(st state.Backend) (*ops.Rank, error) { return ops.NewRank(c, st) })
}

func buildLimit(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.LimitConfig)
	if cfg.N < -1 {
		return Instances{}, fmt.Errorf("config.n: row count %d; expected -1 (no limit) or more", cfg.N)
	}
	c := ops.LimitConfig{InputTypes: n.In[0], Order: sortKeys(cfg.Order), Offset: cfg.Offset, N: cfg.N, InputInsertOnly: insertOnly(n), GenerateUpdateBefore: true,
		StateTTL: n.stateTTL("partitions")}
	return stateful(n, func(st state.Backend) (*ops.Rank, error) { return ops.NewLimit(c, st) })
}

func buildTemporalSort(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.TemporalSortConfig)
	if err := checkCols("config.timeColumn", []int{cfg.TimeColumn}, len(n.In[0])); err != nil {
		return Instances{}, err
	}
	c := ops.TemporalSortConfig{InputTypes: n.In[0], TimeCol: cfg.TimeColumn, Order: sortKeys(cfg.Order)}
	if cfg.ProcTime {
		return stateful(n, func(st state.Backend) (*ops.ProcTimeSort, error) { return ops.NewProcTimeSort(c, st) })
	}
	return stateful(n, func(st state.Backend) (*ops.TemporalSort, error) { return ops.NewTemporalSort(c, st) })
}

func buildSort(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.SortConfig)
	c := ops.BatchSortConfig{InputTypes: n.In[0], Order: sortKeys(cfg.Order), Offset: cfg.Offset, N: cfg.N}
	if _, err := ops.NewBatchSort(c); err != nil {
		return Instances{}, fmt.Errorf("config: %w", err)
	}
	return Instances{NewOperator: func(int) (runtime.Operator, error) { return ops.NewBatchSort(c) }}, nil
}

func buildDeduplicate(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.DeduplicateConfig)
	c := ops.DeduplicateConfig{InputTypes: n.In[0], Keys: cfg.Keys, KeepLast: cfg.KeepLast, TimeCol: cfg.TimeColumn,
		RowTime: cfg.RowTime, GenerateUpdateBefore: true, OutputRankNumber: cfg.OutputRankNumber, StateTTL: n.stateTTL("last") + n.stateTTL("seen")}
	return stateful(n, func(st state.Backend) (*ops.Deduplicate, error) { return ops.NewDeduplicate(c, st) })
}

// zone is the zone window bounds are wall-clock times in, for windows
// over TIMESTAMP_LTZ; nil otherwise.
func (n *Node) zone(localTime bool) *time.Location {
	if localTime {
		return n.Options.Env.TimeZone
	}
	return nil
}

func buildWindowRank(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.WindowRankConfig)
	c := ops.WindowRankConfig{InputTypes: n.In[0], PartitionKeys: cfg.PartitionKeys, Order: sortKeys(cfg.Order), Start: cfg.Start, End: cfg.End,
		OutputRankNumber: cfg.OutputRankNumber, WindowEndCol: cfg.WindowEnd, Zone: n.zone(cfg.LocalTime)}
	return stateful(n, func(st state.Backend) (*ops.WindowRank, error) { return ops.NewWindowRank(c, st) })
}

func buildWindowDeduplicate(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.WindowDeduplicateConfig)
	c := ops.WindowDeduplicateConfig{InputTypes: n.In[0], PartitionKeys: cfg.Keys, TimeCol: cfg.TimeColumn, KeepLast: cfg.KeepLast,
		OutputRankNumber: cfg.OutputRankNumber, WindowEndCol: cfg.WindowEnd, Zone: n.zone(cfg.LocalTime)}
	return stateful(n, func(st state.Backend) (*ops.WindowRank, error) { return ops.NewWindowDeduplicate(c, st) })
}

var windowFunctions = map[string]ops.WindowKind{"TUMBLE": ops.Tumble, "HOP": ops.Hop, "CUMULATE": ops.Cumulate, "SESSION": ops.Session}

// window converts a plan's window to the operators' form.
func (n *Node) window(w plan.Window) (ops.Window, error) {
	k, ok := windowFunctions[w.Function]
	if !ok {
		return ops.Window{}, fmt.Errorf("config.window.function: unknown window function '%s'; expected TUMBLE, HOP, CUMULATE or SESSION", w.Function)
	}
	return ops.Window{Kind: k, TimeCol: w.TimeColumn, Size: eventTime(w.Size), Slide: eventTime(w.Slide),
		Offset: eventTime(w.Offset), Gap: eventTime(w.Gap), Zone: n.zone(w.LocalTime)}, nil
}

// eventTime converts a duration of a plan (nanoseconds, whole
// milliseconds as intervals are) into the unit of event time and
// watermarks, the microseconds of a TIMESTAMP(3) time attribute.
func eventTime(ns int64) int64 { return ns / int64(time.Microsecond) }

func buildWindowTableFunction(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.WindowTableFunctionConfig)
	w, err := n.window(cfg.Window)
	if err != nil {
		return Instances{}, err
	}
	c := ops.WindowTableFunctionConfig{InputTypes: n.In[0], Window: w, PartitionKeys: cfg.Window.PartitionKeys}
	return stateful(n, func(st state.Backend) (*ops.WindowTableFunction, error) { return ops.NewWindowTableFunction(c, st) })
}

func buildWindowAggregate(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.WindowAggregateConfig)
	w, err := n.window(cfg.Window)
	if err != nil {
		return Instances{}, err
	}
	aggs, err := aggSpecs(cfg.Aggs, n.In[0], n.InputChangelogs[0])
	if err != nil {
		return Instances{}, fmt.Errorf("config.%w", err)
	}
	c := ops.WindowAggregateConfig{InputTypes: n.In[0], Window: w, Keys: cfg.Keys, Aggs: aggs}
	if cfg.Window.ProcTime {
		return stateful(n, func(st state.Backend) (*ops.ProcTimeWindowAggregate, error) {
			return ops.NewProcTimeWindowAggregate(c, st)
		})
	}
	return stateful(n, func(st state.Backend) (*ops.WindowAggregate, error) { return ops.NewWindowAggregate(c, st) })
}

func buildOverAggregate(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.OverAggregateConfig)
	// A bounded frame retracts the rows that leave it, whatever the
	// input's changelog: the accumulators must be able to.
	aggs, err := aggSpecs(cfg.Aggs, n.In[0], "")
	if err != nil {
		return Instances{}, fmt.Errorf("config.%w", err)
	}
	c := ops.OverAggregateConfig{InputTypes: n.In[0], PartitionKeys: cfg.PartitionKeys, TimeCol: cfg.TimeColumn,
		Aggs: aggs, Rows: cfg.Rows, Preceding: cfg.Preceding, StateTTL: n.stateTTL("partitions")}
	if !cfg.Rows && cfg.Preceding > 0 {
		c.Preceding = eventTime(cfg.Preceding)
	}
	if cfg.ProcTime {
		return stateful(n, func(st state.Backend) (*ops.ProcTimeOverAggregate, error) { return ops.NewProcTimeOverAggregate(c, st) })
	}
	return stateful(n, func(st state.Backend) (runtime.Operator, error) {
		o, err := ops.NewOverAggregate(c, st)
		if err != nil {
			return nil, err
		}
		return o.Operator(), nil
	})
}

func buildSemiJoin(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.SemiJoinConfig)
	c := ops.SemiJoinConfig{LeftTypes: n.In[0], RightTypes: n.In[1], LeftKeys: cfg.LeftKeys, RightKeys: cfg.RightKeys,
		Anti: cfg.Anti, NullAware: cfg.NullAware, KeepNullKeys: cfg.KeepNullKeys, NullSafe: cfg.NullSafe,
		StateTTL: [2]time.Duration{n.stateTTL("left"), n.stateTTL("right")}}
	if cfg.Condition.E != nil {
		// A residual condition is checked as a join's is.
		spec, err := n.joinSpec(plan.Join{JoinType: "INNER", LeftKeys: cfg.LeftKeys, RightKeys: cfg.RightKeys, Condition: cfg.Condition})
		if err != nil {
			return Instances{}, err
		}
		c.Cond = spec.Cond
	}
	return stateful(n, func(st state.Backend) (*ops.SemiJoin, error) { return ops.NewSemiJoin(c, st) })
}

var joinTypes = map[string]ops.JoinKind{"INNER": ops.InnerJoin, "LEFT": ops.LeftJoin, "RIGHT": ops.RightJoin, "FULL": ops.FullJoin}

// joinSpec converts a plan's join to the operators' form; the residual
// condition is compiled once, for every instance.
func (n *Node) joinSpec(j plan.Join) (ops.JoinSpec, error) {
	if len(n.In) != 2 {
		return ops.JoinSpec{}, fmt.Errorf("inputs: a join has 2 inputs, not %d", len(n.In))
	}
	kind, ok := joinTypes[j.JoinType]
	if !ok {
		return ops.JoinSpec{}, fmt.Errorf("config.joinType: unknown join type '%s'; expected INNER, LEFT, RIGHT or FULL", j.JoinType)
	}
	if err := checkCols("config.leftKeys", j.LeftKeys, len(n.In[0])); err != nil {
		return ops.JoinSpec{}, err
	}
	if err := checkCols("config.rightKeys", j.RightKeys, len(n.In[1])); err != nil {
		return ops.JoinSpec{}, err
	}
	spec := ops.JoinSpec{Kind: kind, LeftTypes: n.In[0], RightTypes: n.In[1], LeftKeys: j.LeftKeys, RightKeys: j.RightKeys}
	if e := j.Condition.E; e != nil {
		both := append(append([]types.Type{}, n.In[0]...), n.In[1]...)
		if err := checkColumns("config.condition", e, both); err != nil {
			return spec, err
		}
		ev, err := expr.Compile(e)
		if err != nil {
			return spec, fmt.Errorf("config.condition: %w", err)
		}
		pred := ev.Holds
		ctx := &expr.Context{Fn: n.Fn}
		spec.Cond = func(row types.Row) (bool, error) { return pred(ctx, row) }
	}
	return spec, nil
}

func buildJoin(n *Node) (Instances, error) {
	spec, err := n.joinSpec(n.Config.(*plan.JoinConfig).Join)
	if err != nil {
		return Instances{}, err
	}
	spec.StateTTL = [2]time.Duration{n.stateTTL("left"), n.stateTTL("right")}
	return stateful(n, func(st state.Backend) (*ops.Join, error) { return ops.NewJoin(spec, st) })
}

func buildWindowJoin(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.WindowJoinConfig)
	spec, err := n.joinSpec(cfg.Join)
	if err != nil {
		return Instances{}, err
	}
	c := ops.WindowJoinConfig{JoinSpec: spec, LeftEnd: cfg.LeftEnd, RightEnd: cfg.RightEnd}
	return stateful(n, func(st state.Backend) (*ops.WindowJoin, error) { return ops.NewWindowJoin(c, st) })
}

func buildTemporalJoin(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.TemporalJoinConfig)
	spec, err := n.joinSpec(cfg.Join)
	if err != nil {
		return Instances{}, err
	}
	c := ops.TemporalJoinConfig{JoinSpec: spec, LeftTime: cfg.LeftTime, RightTime: cfg.RightTime, StateTTL: n.stateTTL("keys")}
	return stateful(n, func(st state.Backend) (*ops.TemporalJoin, error) { return ops.NewTemporalJoin(c, st) })
}

func buildIntervalJoin(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.IntervalJoinConfig)
	spec, err := n.joinSpec(cfg.Join)
	if err != nil {
		return Instances{}, err
	}
	c := ops.IntervalJoinConfig{JoinSpec: spec, LeftTime: cfg.LeftTime, RightTime: cfg.RightTime, LowerBound: eventTime(cfg.Lower), UpperBound: eventTime(cfg.Upper)}
	if cfg.ProcTime {
		return stateful(n, func(st state.Backend) (*ops.ProcTimeIntervalJoin, error) { return ops.NewProcTimeIntervalJoin(c, st) })
	}
	return stateful(n, func(st state.Backend) (*ops.IntervalJoin, error) { return ops.NewIntervalJoin(c, st) })
}
