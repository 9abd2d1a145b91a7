// Package job builds execution plans (package plan) into runnable dataflow
// graphs. A registry holds one builder per node kind; each compiles its
// node's configuration (expressions into evaluators, aggregate calls into
// accumulator factories, tables into the connectors' sources and sinks)
// into the factory of the node's runtime instances. The runtime stage of a
// node carries the node's stable ID.
package job

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/runtime/ops"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// Options are the settings a graph is built with.
type Options struct {
	// Parallelism is parallelism.default: the number of instances of the
	// nodes whose rule is the default parallelism.
	Parallelism int
	// MaxParallelism is pipeline.max-parallelism, the number of key groups
	// (0: runtime.DefaultMaxParallelism).
	MaxParallelism int
	// Env is what connectors need from the session; its time zone is also
	// the one expressions and windows over TIMESTAMP_LTZ use.
	Env connector.Env
	// StateBackend is how stateful operator instances keep their state
	// (state.backend.type): StateHashmap (the default when empty) or
	// StateRocksDB.
	StateBackend string
	// StateDir is where on-disk state goes: a directory per operator
	// instance under it; when empty, a temporary directory per instance.
	StateDir string
	// StateCacheEntries, when positive, is the on-disk backend's
	// state.Pebble.CacheEntries.
	StateCacheEntries int
	// Clock is the processing time of PROCTIME() and of the runtime's
	// processing-time timers; nil is runtime.WallClock.
	Clock runtime.Clock
	// DisableChaining is pipeline.operator-chaining.enabled = false:
	// every operator instance runs in a goroutine of its own
	// (runtime.Graph.DisableChaining).
	DisableChaining bool
	// Batch is execution.runtime-mode = 'batch': sources hold their
	// watermarks back until their end (runtime.Graph.HoldWatermarks).
	Batch bool
}

// State backends (state.backend.type).
const (
	// StateHashmap keeps state in memory (state.NewMemory).
	StateHashmap = "hashmap"
	// StateRocksDB keeps state on disk in Pebble (state.NewPebble), an
	// LSM store of RocksDB's design, under Flink's name for its on-disk
	// backend.
	StateRocksDB = "rocksdb"
)

// newBackend returns the state backend of one instance of node.
func (o Options) newBackend(node string, instance int) (state.Backend, error) {
	switch o.StateBackend {
	case "", StateHashmap:
		return state.NewMemory(), nil
	case StateRocksDB:
		var dir string
		if o.StateDir == "" {
			tmp, err := os.MkdirTemp("", "sluice-state-")
			if err != nil {
				return nil, fmt.Errorf("state directory: %w", err)
			}
			dir = tmp
		} else {
			dir = filepath.Join(o.StateDir, fileName(node)+"-"+strconv.Itoa(instance))
		}
		p, err := state.NewPebble(dir, o.MaxParallelism)
		if err != nil {
			return nil, err
		}
		if o.StateCacheEntries > 0 {
			p.CacheEntries = o.StateCacheEntries
		}
		return p, nil
	}
	return nil, fmt.Errorf("unknown state backend '%s'", o.StateBackend)
}

// fileName maps a node ID to the characters of file names.
func fileName(id string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, id)
}

// Graph is a built plan ready to start.
type Graph struct {
	*runtime.Graph
	// Collector receives the rows of a query's plan (a Collect node).
	Collector *ops.Collector
}

// Instances is what a builder makes of a node: the factory of its
// instances, a source's or an operator's.
type Instances struct {
	NewSource   func(instance int) (runtime.Source, error)
	NewOperator func(instance int) (runtime.Operator, error)
}

// Node is what a builder knows of the node it builds.
type Node struct {
	*plan.Node
	// In holds the column types of each input, in input order.
	In [][]types.Type
	// InputChangelogs holds each input's changelog mode.
	InputChangelogs []string
	// Parallelism is the number of instances the node runs.
	Parallelism int
	// Options are the graph's options.
	Options Options
	// Fn is the evaluation context of the node's expressions.
	Fn    *fn.Context
	graph *Graph
}

// Builder builds the instances of one node kind.
type Builder func(n *Node) (Instances, error)

// builders holds the builder of every node kind.
var builders = map[string]Builder{}

// Build translates p into a runnable graph: each node becomes a stage that
// runs its builder's instances, with the node's ID, its parallelism rule
// resolved against opts, and its inputs' exchanges.
func Build(p *plan.Plan, opts Options) (*Graph, error) {
	if opts.Parallelism < 1 {
		opts.Parallelism = 1
	}
	if opts.MaxParallelism == 0 {
		opts.MaxParallelism = runtime.DefaultMaxParallelism
	}
	if err := runtime.CheckMaxParallelism(opts.MaxParallelism, opts.Parallelism); err != nil {
		return nil, err
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	if opts.Clock == nil {
		opts.Clock = runtime.WallClock
	}
	g := &Graph{Graph: &runtime.Graph{MaxParallelism: opts.MaxParallelism, Clock: opts.Clock, DisableChaining: opts.DisableChaining, HoldWatermarks: opts.Batch}}
	fnCtx := &fn.Context{Loc: opts.Env.TimeZone, Now: opts.Clock.Now}
	stages := map[string]int{}
	for _, pn := range p.Nodes {
		n := &Node{Node: pn, Options: opts, Fn: fnCtx, graph: g}
		s := &runtime.Stage{ID: pn.ID, Name: stageName(pn)}
		for _, in := range pn.Inputs {
			up := p.Node(in.Node)
			n.In = append(n.In, fieldTypes(up.Schema))
			n.InputChangelogs = append(n.InputChangelogs, up.Changelog)
			s.Inputs = append(s.Inputs, runtime.Input{Stage: stages[in.Node], Exchange: exchanges[in.Exchange], Keys: in.Keys})
		}
		switch pn.Parallelism {
		case plan.ParallelismDefault:
			n.Parallelism = opts.Parallelism
		case plan.ParallelismSingle:
			n.Parallelism = 1
		case plan.ParallelismInput:
			n.Parallelism = g.Stages[s.Inputs[0].Stage].Parallelism
		}
		s.Parallelism = n.Parallelism
		build, ok := builders[pn.Kind]
		if !ok {
			return nil, fmt.Errorf("node '%s': kind: no builder for node kind '%s'", pn.ID, pn.Kind)
		}
		inst, err := build(n)
		if err != nil {
			return nil, fmt.Errorf("node '%s' (%s): %w", pn.ID, pn.Kind, err)
		}
		s.NewSource, s.NewOperator = inst.NewSource, inst.NewOperator
		stages[pn.ID] = len(g.Stages)
		g.Stages = append(g.Stages, s)
	}
	return g, nil
}

var exchanges = map[plan.Exchange]runtime.ExchangeKind{plan.Forward: runtime.Forward, plan.Hash: runtime.Hash, plan.Single: runtime.Single}

// stageName is how errors and logs name a node's stage: "Source: t" and
// "Sink: t" for tables, the kind for the others.
func stageName(n *plan.Node) string {
	switch c := n.Config.(type) {
	case *plan.ScanConfig:
		return "Source: " + c.Table.Name
	case *plan.SinkConfig:
		return "Sink: " + c.Table.Name
	}
	return n.Kind
}

func fieldTypes(fs []plan.Field) []types.Type {
	out := make([]types.Type, len(fs))
	for i, f := range fs {
		out[i] = f.Type.Logical()
	}
	return out
}

// Out returns the types of the node's output columns.
func (n *Node) Out() []types.Type { return fieldTypes(n.Schema) }

// operator returns the factory of the instances newOp makes, of an
// operator that keeps no state. It makes one now, so that a
// configuration the operator rejects, or state the node declares, fails
// the build.
func operator[T runtime.Operator](n *Node, newOp func() (T, error)) (Instances, error) {
	op, err := newOp()
	if err != nil {
		return Instances{}, err
	}
	if err := checkState(n, op); err != nil {
		return Instances{}, err
	}
	return Instances{NewOperator: func(int) (runtime.Operator, error) { return newOp() }}, nil
}

// stateful returns the factory of the instances newOp makes over a state
// backend of the graph's kind, each its own. It makes one now over a
// memory backend, so that a configuration the operator rejects, or state
// other than the node declares, fails the build.
func stateful[T runtime.Operator](n *Node, newOp func(st state.Backend) (T, error)) (Instances, error) {
	op, err := newOp(state.NewMemory())
	if err != nil {
		return Instances{}, err
	}
	if err := checkState(n, op); err != nil {
		return Instances{}, err
	}
	opts, id := n.Options, n.ID
	return Instances{NewOperator: func(i int) (runtime.Operator, error) {
		st, err := opts.newBackend(id, i)
		if err != nil {
			return nil, err
		}
		op, err := newOp(st)
		if err != nil {
			return nil, errors.Join(err, st.Close())
		}
		return op, nil
	}}, nil
}

// checkState refuses an operator whose state tables are not those the
// node declares (with the tables of write times of those with a
// retention, state.TTL's), and a retention the operator does not apply.
func checkState(n *Node, op runtime.Operator) error {
	var kept []string
	if s, ok := op.(runtime.Stateful); ok {
		kept = s.State().Tables()
	}
	declared := make([]string, 0, len(n.State))
	for _, st := range n.State {
		declared = append(declared, st.Name)
		if st.TTL > 0 && !rowTTL[n.Kind] {
			declared = append(declared, state.TTLTableName(st.Name))
		}
	}
	slices.Sort(declared)
	if !slices.Equal(kept, declared) {
		return fmt.Errorf("state: the operator keeps the state tables [%s], the plan declares [%s]",
			strings.Join(kept, ", "), strings.Join(declared, ", "))
	}
	return nil
}

// rowTTL holds the kinds whose operators keep the write time of each
// stored row with the row rather than in a table of their own.
var rowTTL = map[string]bool{plan.KindJoin: true, plan.KindSemiJoin: true}

// stateTTL returns the idle state retention the node declares for its
// state table named table.
func (n *Node) stateTTL(table string) time.Duration {
	for _, st := range n.State {
		if st.Name == table {
			return st.TTL.Duration()
		}
	}
	return 0
}

// compile compiles e over rows of types in for one operator instance,
// checking that every column it reads is one of in, with its type; field
// names e in errors.
func (n *Node) compile(field string, e expr.Expr, in []types.Type) (expr.Evaluator, error) {
	if err := checkColumns(field, e, in); err != nil {
		return nil, err
	}
	ev, err := expr.CompileLocal(e)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	return ev, nil
}

// checkColumns checks that the columns e reads are within in, with the
// types in gives them (time attributes aside).
func checkColumns(field string, e expr.Expr, in []types.Type) error {
	var err error
	expr.Walk(e, func(x expr.Expr) {
		c, ok := x.(*expr.Column)
		if !ok || err != nil {
			return
		}
		switch {
		case c.Index >= len(in):
			err = fmt.Errorf("%s: column %d out of range (the input has %d columns)", field, c.Index, len(in))
		case !types.Equal(c.T, in[c.Index]):
			err = fmt.Errorf("%s: column %d is %s, not %s", field, c.Index, in[c.Index], c.T)
		}
	})
	return err
}

// checkCols checks that the columns cols are within a row of n columns.
func checkCols(field string, cols []int, n int) error {
	for i, c := range cols {
		if c < 0 || c >= n {
			return fmt.Errorf("%s[%d]: column %d out of range (the input has %d columns)", field, i, c, n)
		}
	}
	return nil
}

// aggSpecs binds aggregate calls over rows of types in, whose changelog
// mode is mode.
func aggSpecs(calls []plan.AggCall, in []types.Type, mode string) ([]ops.AggSpec, error) {
	out := make([]ops.AggSpec, len(calls))
	for i, a := range calls {
		field := fmt.Sprintf("aggs[%d]", i)
		if err := checkCols(field+".args", a.Args, len(in)); err != nil {
			return nil, err
		}
		if len(a.Constants) > 0 && len(a.Constants) != len(a.Args) {
			return nil, fmt.Errorf("%s.constants: %d constants for %d arguments", field, len(a.Constants), len(a.Args))
		}
		ts := make([]types.Type, len(a.Args))
		consts := make([]*types.Value, len(a.Args))
		for j, c := range a.Args {
			ts[j] = in[c]
			if len(a.Constants) == 0 || a.Constants[j].E == nil {
				continue
			}
			lit, ok := a.Constants[j].E.(*expr.Literal)
			if !ok || !types.Equal(lit.T, ts[j]) {
				return nil, fmt.Errorf("%s.constants[%d]: expected a %s literal", field, j, ts[j])
			}
			consts[j] = &lit.V
		}
		filter := -1
		if a.Filter != nil {
			filter = *a.Filter
			if err := checkCols(field+".filter", []int{filter}, len(in)); err != nil {
				return nil, err
			}
		}
		newAcc, err := expr.BindAggregate(a.Function, ts, consts, a.Distinct, mode == plan.InsertOnly, a.Type.Logical())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", field, err)
		}
		out[i] = ops.AggSpec{New: newAcc, Args: a.Args, Filter: filter, Type: a.Type.Logical()}
	}
	return out, nil
}
