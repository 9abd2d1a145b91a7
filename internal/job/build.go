// Package job turns a physical plan into a runnable dataflow graph: it
// chooses each stage's parallelism and exchange, creates the connectors'
// sources and sinks, and compiles expressions for the operators.
package job

import (
	"fmt"
	"sync"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/runtime/ops"
	"github.com/sluicesql/sluice/internal/types"
)

// Options are the settings a graph is built with.
type Options struct {
	// Parallelism is parallelism.default: the number of instances of each
	// keyed stage and of each source.
	Parallelism int
	// MaxParallelism is pipeline.max-parallelism, the number of key groups
	// (0: runtime.DefaultMaxParallelism).
	MaxParallelism int
	// Env is what connectors need from the session.
	Env connector.Env
}

// Graph is a built plan ready to start.
type Graph struct {
	*runtime.Graph
	// Collector receives the rows of a query planned with a Collect root.
	Collector *ops.Collector
}

type builder struct {
	opts  Options
	g     *runtime.Graph
	fnCtx *fn.Context
	out   *ops.Collector
}

// Build translates root into a runnable graph.
func Build(root planner.Node, opts Options) (*Graph, error) {
	if opts.Parallelism < 1 {
		opts.Parallelism = 1
	}
	if opts.MaxParallelism == 0 {
		opts.MaxParallelism = runtime.DefaultMaxParallelism
	}
	if err := runtime.CheckMaxParallelism(opts.MaxParallelism, opts.Parallelism); err != nil {
		return nil, err
	}
	b := &builder{opts: opts, g: &runtime.Graph{MaxParallelism: opts.MaxParallelism}, fnCtx: &fn.Context{Loc: opts.Env.TimeZone}}
	if _, err := b.node(root); err != nil {
		return nil, err
	}
	return &Graph{Graph: b.g, Collector: b.out}, nil
}

// stage adds a stage and returns its index and parallelism.
func (b *builder) stage(s *runtime.Stage) (int, int) {
	b.g.Stages = append(b.g.Stages, s)
	return len(b.g.Stages) - 1, s.Parallelism
}

type built struct {
	stage, parallelism int
}

// operator adds a stage of p instances of newOp fed by inputs.
func (b *builder) operator(name string, p int, inputs []runtime.Input, newOp func() (runtime.Operator, error)) built {
	s, par := b.stage(&runtime.Stage{Name: name, Parallelism: p, Inputs: inputs,
		NewOperator: func(int) (runtime.Operator, error) { return newOp() }})
	return built{s, par}
}

// keyed connects in to a stage keyed by keys: hashed across the default
// parallelism, or everything to one instance when there are no keys.
func (b *builder) keyed(in built, keys []int) (int, runtime.Input) {
	if len(keys) == 0 {
		return 1, runtime.Input{Stage: in.stage, Exchange: runtime.Single}
	}
	return b.opts.Parallelism, runtime.Input{Stage: in.stage, Exchange: runtime.Hash, Keys: keys}
}

func (b *builder) node(n planner.Node) (built, error) {
	switch x := n.(type) {
	case *planner.Scan:
		return b.scan(x)
	case *planner.Values:
		v := &ops.Values{Rows: x.Rows, Types: x.Schema().Types()}
		s, p := b.stage(&runtime.Stage{Name: "Values", Parallelism: 1, NewSource: func(int) (runtime.Source, error) { return v, nil }})
		return built{s, p}, nil
	case *planner.Calc:
		in, err := b.node(x.Input)
		if err != nil {
			return built{}, err
		}
		// Each instance compiles its own evaluators (see calcConfig).
		if _, err := b.calcConfig(x); err != nil {
			return built{}, err
		}
		return b.operator("Calc", in.parallelism, []runtime.Input{{Stage: in.stage, Exchange: runtime.Forward}},
			func() (runtime.Operator, error) {
				cfg, err := b.calcConfig(x)
				if err != nil {
					return nil, err
				}
				return ops.NewCalc(cfg), nil
			}), nil
	case *planner.Normalize:
		in, err := b.node(x.Input)
		if err != nil {
			return built{}, err
		}
		p, input := b.keyed(in, x.Keys)
		cfg := ops.ChangelogNormalizeConfig{InputTypes: x.Input.Schema().Types(), Keys: x.Keys, GenerateUpdateBefore: true}
		return b.operator("ChangelogNormalize", p, []runtime.Input{input}, func() (runtime.Operator, error) { return ops.NewChangelogNormalize(cfg) }), nil
	case *planner.GroupAggregate:
		in, err := b.node(x.Input)
		if err != nil {
			return built{}, err
		}
		p, input := b.keyed(in, x.Keys)
		aggs, err := aggSpecs(x.Aggs, x.Input.Schema())
		if err != nil {
			return built{}, err
		}
		cfg := ops.GroupAggregateConfig{InputTypes: x.Input.Schema().Types(), Keys: x.Keys, Aggs: aggs, GenerateUpdateBefore: true}
		return b.operator("GroupAggregate", p, []runtime.Input{input}, func() (runtime.Operator, error) { return ops.NewGroupAggregate(cfg) }), nil
	case *planner.Union:
		var inputs []runtime.Input
		all := seq(len(x.Schema()))
		for _, it := range x.Items {
			in, err := b.node(it)
			if err != nil {
				return built{}, err
			}
			inputs = append(inputs, runtime.Input{Stage: in.stage, Exchange: runtime.Hash, Keys: all})
		}
		return b.operator("Union", b.opts.Parallelism, inputs, func() (runtime.Operator, error) { return ops.NewUnion(), nil }), nil
	case *planner.Sink:
		return b.sink(x)
	case *planner.Collect:
		in, err := b.node(x.Input)
		if err != nil {
			return built{}, err
		}
		// A LIMIT over an insert-only input is complete after its N rows.
		limit := int64(-1)
		if l, ok := x.Input.(*planner.Limit); ok && l.Mode() == connector.InsertOnly {
			limit = l.N
		}
		b.out = ops.NewCollector(limit)
		out := b.out
		return b.operator("Collect", 1, []runtime.Input{{Stage: in.stage, Exchange: runtime.Single}}, func() (runtime.Operator, error) { return out, nil }), nil
	}
	return b.advanced(n)
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func aggSpecs(calls []planner.AggCall, in types.Schema) ([]ops.AggSpec, error) {
	out := make([]ops.AggSpec, len(calls))
	for i, a := range calls {
		ts := make([]types.Type, len(a.Args))
		for j, c := range a.Args {
			ts[j] = in[c].Type
		}
		newAcc, err := expr.BindAggregate(a.Name, ts, a.Consts, a.Distinct, a.Type)
		if err != nil {
			return nil, err
		}
		out[i] = ops.AggSpec{New: newAcc, Args: a.Args, Filter: a.Filter, Type: a.Type}
	}
	return out, nil
}

// calcConfig configures one instance of a Calc: its evaluators are
// compiled for that instance alone, projections of a plain column are
// copies, and the row holds only the columns the others read.
func (b *builder) calcConfig(c *planner.Calc) (ops.CalcConfig, error) {
	cfg := ops.CalcConfig{OutputTypes: c.Schema().Types(), Context: expr.Context{Fn: b.fnCtx}, Copies: make([]int, len(c.Projects))}
	evaluated := []expr.Expr{c.Filter}
	for j, p := range c.Projects {
		ev, err := expr.CompileLocal(p)
		if err != nil {
			return cfg, err
		}
		cfg.Projects = append(cfg.Projects, ev)
		cfg.Copies[j] = -1
		if col, ok := p.(*expr.Column); ok {
			cfg.Copies[j] = col.Index
		} else {
			evaluated = append(evaluated, p)
		}
	}
	if c.Filter != nil {
		ev, err := expr.CompileLocal(c.Filter)
		if err != nil {
			return cfg, err
		}
		cfg.Filter = ev.Holds
	}
	cfg.Reads = expr.Columns(evaluated...)
	return cfg, nil
}

func (b *builder) scan(s *planner.Scan) (built, error) {
	f, err := connector.For(s.Table)
	if err != nil {
		return built{}, err
	}
	spec := connector.SourceSpec{Env: b.opts.Env}
	var computed []int
	for i, e := range s.Computed {
		if e != nil {
			computed = append(computed, i)
		}
	}
	if len(computed) > 0 {
		ev, err := newChunkEvaluator(b.fnCtx, s.Computed)
		if err != nil {
			return built{}, err
		}
		spec.Complete = func(c *types.Chunk) error { return ev.fill(c, computed) }
	}
	if s.Watermark != nil {
		ev, err := newChunkEvaluator(b.fnCtx, []expr.Expr{s.Watermark})
		if err != nil {
			return built{}, err
		}
		t := s.Watermark.Type()
		spec.Watermark = func(c *types.Chunk) (*types.Vector, error) { return ev.column(c, t) }
	}
	src, err := f.NewSource(s.Table, spec)
	if err != nil {
		return built{}, fmt.Errorf("table '%s': %w", s.Table.Name, err)
	}
	p := b.opts.Parallelism
	idx, par := b.stage(&runtime.Stage{Name: "Source: " + s.Table.Name, Parallelism: p,
		NewSource: func(i int) (runtime.Source, error) { return src.NewInstance(i, p) }})
	return built{idx, par}, nil
}

// chunkEvaluator evaluates expressions row by row over whole chunks. The
// instances of a source call it concurrently, so each call borrows a set of
// evaluators compiled for one goroutine, with a row buffer, from a pool.
type chunkEvaluator struct {
	// reads are the columns the expressions read, loaded into the row.
	reads []int
	pool  sync.Pool // of *rowEvaluators
}

// rowEvaluators are one goroutine's evaluators of a chunkEvaluator.
type rowEvaluators struct {
	ctx   expr.Context
	evals []expr.Evaluator // nil where the expression is nil
	row   types.Row
}

func newChunkEvaluator(fnCtx *fn.Context, es []expr.Expr) (*chunkEvaluator, error) {
	compile := func() (*rowEvaluators, error) {
		r := &rowEvaluators{ctx: expr.Context{Fn: fnCtx}, evals: make([]expr.Evaluator, len(es))}
		for i, e := range es {
			if e == nil {
				continue
			}
			ev, err := expr.CompileLocal(e)
			if err != nil {
				return nil, err
			}
			r.evals[i] = ev
		}
		return r, nil
	}
	first, err := compile()
	if err != nil {
		return nil, err
	}
	ce := &chunkEvaluator{reads: expr.Columns(es...)}
	ce.pool.New = func() any {
		r, err := compile()
		if err != nil {
			// The same expressions compiled once already.
			panic(err)
		}
		return r
	}
	ce.pool.Put(first)
	return ce, nil
}

// get borrows evaluators with a row as wide as c.
func (ce *chunkEvaluator) get(c *types.Chunk) *rowEvaluators {
	r := ce.pool.Get().(*rowEvaluators)
	if len(r.row) != len(c.Cols) {
		r.row = make(types.Row, len(c.Cols))
	}
	return r
}

// load puts the columns of row i the expressions read into r.row; a column
// not filled yet (a computed one) reads as NULL.
func (ce *chunkEvaluator) load(r *rowEvaluators, c *types.Chunk, i int) {
	for _, k := range ce.reads {
		if col := c.Cols[k]; col.Len() > i {
			r.row[k] = col.Get(i)
		} else {
			r.row[k] = types.NullValue
		}
	}
}

// fill evaluates the computed columns cols row by row, in column order, and
// appends their values; a computed column can read those before it.
func (ce *chunkEvaluator) fill(c *types.Chunk, cols []int) error {
	r := ce.get(c)
	defer ce.pool.Put(r)
	for i := range c.Len() {
		ce.load(r, c, i)
		for _, k := range cols {
			v, err := r.evals[k](&r.ctx, r.row)
			if err != nil {
				return err
			}
			r.row[k] = v
			c.Cols[k].Append(v)
		}
	}
	return nil
}

// column evaluates the one expression on every row of c into a vector of
// type t.
func (ce *chunkEvaluator) column(c *types.Chunk, t types.Type) (*types.Vector, error) {
	r := ce.get(c)
	defer ce.pool.Put(r)
	out := types.NewVector(t, c.Len())
	for i := range c.Len() {
		ce.load(r, c, i)
		v, err := r.evals[0](&r.ctx, r.row)
		if err != nil {
			return nil, err
		}
		out.Append(v)
	}
	return out, nil
}

func (b *builder) sink(s *planner.Sink) (built, error) {
	in, err := b.node(s.Input)
	if err != nil {
		return built{}, err
	}
	f, err := connector.For(s.Table)
	if err != nil {
		return built{}, err
	}
	target, err := f.NewSink(s.Table, b.opts.Env)
	if err != nil {
		return built{}, fmt.Errorf("table '%s': %w", s.Table.Name, err)
	}
	p, input := in.parallelism, runtime.Input{Stage: in.stage, Exchange: runtime.Forward}
	if s.Upsert {
		// Keep each key's changes in order on one instance.
		p, input = b.keyed(in, pkPositions(s.Table, s.Schema()))
	}
	idx, par := b.stage(&runtime.Stage{Name: "Sink: " + s.Table.Name, Parallelism: p, Inputs: []runtime.Input{input},
		NewOperator: func(i int) (runtime.Operator, error) { return target.NewInstance(i, p) }})
	return built{idx, par}, nil
}

func pkPositions(t *catalog.Table, s types.Schema) []int {
	var out []int
	for _, k := range t.PrimaryKey {
		out = append(out, s.Index(k))
	}
	return out
}
