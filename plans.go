package sluice

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/sluicesql/sluice/internal/atomicfile"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/job"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/sql/ast"
)

// planConfiguration lists the session options a plan records: the ones
// that change what its operators compute. execution.runtime-mode is
// recorded only when it is 'batch', so that the plans of streaming
// sessions stay as they were.
var planConfiguration = []string{ConfTimeZone, ConfWatermarkInterval, ConfIdleTimeout, ConfRuntimeMode}

// executionPlan translates physical plans into an execution plan that
// records the session's values of the planConfiguration options.
func (e *Session) executionPlan(roots ...planner.Node) (*plan.Plan, error) {
	p, err := planner.ExecutionPlan(e.config.reuse(), roots...)
	if err != nil {
		return nil, err
	}
	p.Configuration = map[string]string{}
	for _, k := range planConfiguration {
		if k != ConfRuntimeMode {
			p.Configuration[k] = e.config.Get(k)
		}
	}
	if e.config.Batch() {
		if err := checkBatch(p); err != nil {
			return nil, err
		}
		p.Configuration[ConfRuntimeMode] = "batch"
	}
	return p, nil
}

// sharingHint adds a hint to a restore refused for state no operator of
// p takes when p shares nodes (sub-plan reuse): the operators above a
// shared node are others than those of the same statement planned
// without sharing, which a savepoint of a job started before may hold.
func sharingHint(p *plan.Plan, err error) error {
	var unclaimed *runtime.UnclaimedStateError
	if !errors.As(err, &unclaimed) {
		return err
	}
	read := map[string]bool{}
	for _, n := range p.Nodes {
		for _, in := range n.Inputs {
			if read[in.Node] {
				return fmt.Errorf("%w (the plan shares equal parts of it, '%s': a savepoint of the job planned without sharing restores with it set to 'false')", err, ConfReuseSubPlan)
			}
			read[in.Node] = true
		}
	}
	return err
}

// buildOptions are the options a plan is built with: the session's
// parallelism and output, and the plan's configuration over the
// session's.
func (e *Session) buildOptions(p *plan.Plan) (job.Options, error) {
	opts, err := e.config.buildOptions(p)
	out := e.output()
	opts.Env.Stdout, opts.Env.Stderr = out.stdout, out.stderr
	opts.Clock = e.jobs.clock
	return opts, err
}

// buildOptions are the options a plan is built with under c: its
// parallelism, and the plan's configuration over c's.
func (c *Config) buildOptions(p *plan.Plan) (job.Options, error) {
	conf := &Config{values: maps.Clone(c.values), base: c.base}
	for _, k := range slices.Sorted(maps.Keys(p.Configuration)) {
		if !slices.Contains(planConfiguration, k) {
			return job.Options{}, fmt.Errorf("plan configuration: '%s' is not an option a plan records; expected %s", k, strings.Join(planConfiguration, ", "))
		}
		if err := conf.Set(k, p.Configuration[k]); err != nil {
			return job.Options{}, fmt.Errorf("plan configuration: %w", err)
		}
	}
	return job.Options{Parallelism: c.Parallelism(), MaxParallelism: c.MaxParallelism(), Env: connector.Env{
		TimeZone:          conf.TimeZone(),
		WatermarkInterval: conf.duration(ConfWatermarkInterval),
		IdleTimeout:       conf.duration(ConfIdleTimeout),
	}, StateBackend: c.stateBackend(), StateCacheEntries: c.pebbleCacheEntries(), DisableChaining: !c.boolSetting(ConfOperatorChaining),
		Batch: batchPlan(p)}, nil
}

// SetPlanRoundTrip makes the engine write every job's execution plan as
// JSON and read it back before building it, failing the statement if the
// plan does not come back byte for byte: tests run their scripts this way
// to show that plans hold everything a job needs.
func (e *Session) SetPlanRoundTrip(on bool) { e.roundTrip = on }

// build builds one job's plan, through its JSON form when the engine
// round-trips plans.
func (e *Session) build(p *plan.Plan) (*job.Graph, error) {
	if e.roundTrip {
		var err error
		if p, err = roundTrip(p); err != nil {
			return nil, err
		}
	}
	opts, err := e.buildOptions(p)
	if err != nil {
		return nil, err
	}
	return job.Build(p, opts)
}

// roundTrip writes p and reads it back; writing what was read must give
// the same bytes.
func roundTrip(p *plan.Plan) (*plan.Plan, error) {
	text, err := p.Encode()
	if err != nil {
		return nil, err
	}
	back, err := plan.Decode(text)
	if err != nil {
		return nil, err
	}
	again, err := back.Encode()
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(text, again) {
		return nil, fmt.Errorf("the execution plan changed on its way through JSON:\n%s\nread back as\n%s", text, again)
	}
	return back, nil
}

// startPlan starts p as one job, whatever its number of sinks (an
// INSERT's, a statement set's, a plan file's); text is its statement.
func (e *Session) startPlan(p *plan.Plan, text string) (*Job, error) {
	name, err := e.jobName(p)
	if err != nil {
		return nil, err
	}
	id := newJobID()
	cfg, err := e.config.checkpointConfig(context.Background(), id)
	if err != nil {
		return nil, err
	}
	return e.launch(id, p, name, text, cfg, scale{})
}

// jobName is the name of the job of p: pipeline.name when it is set, else
// Flink's insert-into_ followed by the sinks' full names, comma-separated,
// a name written by several sinks numbered _1, _2, ... in order
// (TableEnvironmentImpl.executeInternal and
// deduplicateSinkIdentifierNames).
func (e *Session) jobName(p *plan.Plan) (string, error) {
	var names []string
	count := map[string]int{}
	for _, root := range p.Roots() {
		sink, ok := root.Config.(*plan.SinkConfig)
		if !ok {
			return "", fmt.Errorf("node '%s' (%s): a job's plan ends in sinks", root.ID, root.Kind)
		}
		n := sink.Table.ID().Summary()
		names = append(names, n)
		count[n]++
	}
	if len(names) == 0 {
		return "", fmt.Errorf("the plan has no sink")
	}
	if name := e.config.Get(ConfPipelineName); name != "" {
		return name, nil
	}
	index := map[string]int{}
	for i, n := range names {
		if count[n] > 1 {
			index[n]++
			names[i] = fmt.Sprintf("%s_%d", n, index[n])
		}
	}
	return "insert-into_" + strings.Join(names, ","), nil
}

// scale is the parallelism and max parallelism a job runs at; zero takes
// the session's parallelism.default and pipeline.max-parallelism.
type scale struct{ parallelism, maxParallelism int }

// launch starts job plan jp as job id at sc with the
// checkpoint configuration cfg and the session's restart strategy, and
// records it in the job store. Restarts build the plan with the options of
// the first start.
func (e *Session) launch(id string, jp *plan.Plan, name, text string, cfg *runtime.CheckpointConfig, sc scale) (*Job, error) {
	if e.roundTrip {
		var err error
		if jp, err = roundTrip(jp); err != nil {
			return nil, err
		}
	}
	opts, err := e.buildOptions(jp)
	if err != nil {
		return nil, err
	}
	opts.Parallelism = cmp.Or(sc.parallelism, opts.Parallelism)
	opts.MaxParallelism = cmp.Or(sc.maxParallelism, opts.MaxParallelism)
	if opts.Batch {
		// A batch job takes no checkpoints, as in Flink: its result is
		// written when its input ends. Nor does it start from one: its
		// operators' state is that of a streaming job.
		if cfg.Restore != nil {
			return nil, fmt.Errorf("'%s' is set: a job in batch mode does not start from a savepoint; reset it ('RESET '%s';') to run the statement in batch mode", ConfSavepointPath, ConfSavepointPath)
		}
		cfg.Storage, cfg.Interval = nil, 0
	}
	if err := checkCommits(jp, cfg); err != nil {
		return nil, err
	}
	rec, err := e.newJobRecord(id, name, text, jp, opts)
	if err != nil {
		return nil, err
	}
	return e.jobs.startRecorded(rec, jp, opts, cfg, e.config.restartStrategy(cfg.Storage != nil))
}

// explain runs EXPLAIN (of a query, an INSERT or a statement set, whose
// sinks' plans follow one another) with Flink's sections: the abstract
// syntax tree (the logical plan before the rules), the optimized physical
// plan (with each node's changelog mode under CHANGELOG_MODE),
// the optimized execution plan and, with JSON_EXECUTION_PLAN, the
// execution plan's JSON after Flink's "== Physical Execution Plan ==".
func (e *Session) explain(ctx context.Context, s *ast.Explain) (*Result, error) {
	var trees []string
	roots, err := e.plan(ctx, s.Statement, func(n planner.Node) { trees = append(trees, planner.LogicalPlan(n)) })
	if err != nil {
		return nil, err
	}
	p, err := e.executionPlan(roots...)
	if err != nil {
		return nil, err
	}
	// Flink's sections in its order.
	sections := []planner.Section{
		planner.AbstractSyntaxTree(trees...),
		planner.PhysicalPlan(slices.Contains(s.Details, "CHANGELOG_MODE"), roots...),
		planner.OptimizedExecutionPlan(p),
	}
	if slices.Contains(s.Details, "JSON_EXECUTION_PLAN") {
		js, err := p.Encode()
		if err != nil {
			return nil, err
		}
		sections = append(sections, planner.Section{Title: "Physical Execution Plan", Body: string(js)})
	}
	return &Result{Kind: ResultText, Text: planner.Explain(sections...)}, nil
}

// confForceRecompile is Flink's table.plan.force-recompile: COMPILE PLAN
// overwrites an existing plan file.
const confForceRecompile = "table.plan.force-recompile"

// compilePlan runs COMPILE [AND EXECUTE] PLAN, after Flink's
// TableEnvironmentImpl.compilePlanAndWrite: an existing file is kept with
// IF NOT EXISTS (and executed as it is by COMPILE AND EXECUTE), and is
// otherwise only overwritten with table.plan.force-recompile.
func (e *Session) compilePlan(ctx context.Context, s *ast.CompilePlan, src string) (*Result, error) {
	if q, ok := s.Statement.(*ast.QueryStatement); ok {
		// Flink's parser takes only an INSERT or a statement set here; its
		// message for compiling a query is TableEnvironmentImpl's.
		return nil, &planner.Error{Pos: q.Pos, Msg: "Unsupported SQL query! compilePlanSql() only accepts a single SQL statement of type INSERT"}
	}
	path, err := planPath(s.Path, s.Pos)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); err == nil {
		switch {
		case s.IfNotExists:
			return &Result{Kind: ResultOK}, nil
		case s.Execute:
			return e.executePlanFile(s.Path, s.Pos, statementText(src, s.Pos))
		}
		force, err := e.forceRecompile()
		if err != nil {
			return nil, err
		}
		if !force {
			return nil, fmt.Errorf("Cannot overwrite the plan file '%s'. Either manually remove the file or, if you're debugging your job, set the option '%s' to true.", s.Path, confForceRecompile)
		}
	}
	var inserts []*ast.Insert
	switch st := s.Statement.(type) {
	case *ast.Insert:
		inserts = []*ast.Insert{st}
	case *ast.StatementSet:
		inserts = st.Inserts
	}
	roots := make([]planner.Node, len(inserts))
	for i, ins := range inserts {
		if roots[i], err = e.binder(ctx).Insert(ins); err != nil {
			return nil, err
		}
	}
	p, err := e.executionPlan(roots...)
	if err != nil {
		return nil, err
	}
	text, err := p.Encode()
	if err != nil {
		return nil, err
	}
	if err := atomicfile.Write(path, text, 0o600); err != nil {
		return nil, fmt.Errorf("Cannot write the compiled plan to file '%s': %w", s.Path, err)
	}
	if s.Execute {
		return e.executePlanFile(s.Path, s.Pos, statementText(src, s.Pos))
	}
	return &Result{Kind: ResultOK}, nil
}

// forceRecompile reads table.plan.force-recompile (false unless set).
func (e *Session) forceRecompile() (bool, error) {
	v := e.config.Get(confForceRecompile)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	if err != nil {
		return false, fmt.Errorf("invalid value '%s' for '%s': expected true or false", v, confForceRecompile)
	}
	return b, nil
}

// executePlanFile runs EXECUTE PLAN: the plan in the file starts one job,
// built from the plan alone (its tables are in it), with the session's
// parallelism.
func (e *Session) executePlanFile(file string, pos ast.Pos, text string) (*Result, error) {
	path, err := planPath(file, pos)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the plan file '%s': %w", file, err)
	}
	p, err := plan.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("plan file '%s': %w", file, err)
	}
	j, err := e.startPlan(p, text)
	if err != nil {
		return nil, fmt.Errorf("plan file '%s': %w", file, err)
	}
	return e.jobResult(context.Background(), j)
}

// planPath is the local path of a plan file: a path, or a file:// URI.
// Other file systems are refused by name.
func planPath(file string, pos ast.Pos) (string, error) {
	if rest, ok := strings.CutPrefix(file, "file://"); ok {
		return rest, nil
	}
	if scheme, _, ok := strings.Cut(file, "://"); ok {
		return "", &planner.Error{Pos: pos, Msg: fmt.Sprintf("plan file '%s': the file system '%s' is not supported; use a local path or a file:// URI", file, scheme)}
	}
	return file, nil
}

// checkCommits refuses a job with a sink that makes its rows visible only
// when a checkpoint completes (an exactly-once Kafka sink) if the job
// takes no checkpoints and reads a source that never ends: its rows would
// never become visible.
func checkCommits(jp *plan.Plan, cfg *runtime.CheckpointConfig) error {
	if cfg.Storage != nil {
		return nil
	}
	for _, root := range jp.Roots() {
		if sink, ok := root.Config.(*plan.SinkConfig); ok {
			if err := checkSinkCommits(jp, sink); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkSinkCommits is checkCommits for one sink of jp.
func checkSinkCommits(jp *plan.Plan, sink *plan.SinkConfig) error {
	t, err := sink.Table.Catalog()
	if err != nil {
		return err
	}
	f, err := connector.For(t)
	if err != nil {
		return err
	}
	if c, ok := f.(connector.CommitsOnCheckpoints); !ok || !c.CommitsOnCheckpoints(t) {
		return nil
	}
	for _, n := range jp.Nodes {
		scan, ok := n.Config.(*plan.ScanConfig)
		if !ok {
			continue
		}
		st, err := scan.Table.Catalog()
		if err != nil {
			return err
		}
		sf, err := connector.For(st)
		if err != nil {
			return err
		}
		if b, ok := sf.(connector.Bounded); !ok || !b.Bounded(st) {
			return fmt.Errorf("table '%s' makes its rows visible only when a checkpoint completes ('sink.delivery-guarantee' = 'exactly-once'), "+
				"but the job takes no checkpoints and reads '%s', which does not end: set '%s'", sink.Table.Name, st.Name, ConfCheckpointInterval)
		}
	}
	return nil
}
