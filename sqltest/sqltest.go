// Package sqltest runs golden SQL tests against an embedded Kafka broker
// and Schema Registry, in two forms: script tests (NAME.sqltest, see
// ParseScriptTest's format below), which check every statement, and the
// seed acceptance form, where a NAME.sql script's last query must print the
// lines of NAME.out, compared as a set, whitespace kept.
//
// Scripts use the placeholders KAFKA_PORT and SCHEMA_REGISTRY_PORT for the
// embedded cluster's ports. Statements run in order; before each INSERT and
// query the jobs already started process all their available input, and a
// query is read until every job and the query itself have processed all
// their available input (sluice.Engine.WaitQuiet: decided from facts, no
// sleeps).
package sqltest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

// Options tune a run.
type Options struct {
	// Parallelism, when positive, sets parallelism.default before the
	// script runs (the script may still SET it).
	Parallelism int
	// Timeout bounds the whole run; 0 means one minute.
	Timeout time.Duration
	// PlanRoundTrip makes the engine write every job's execution plan as
	// JSON and build the job from the plan read back
	// (sluice.Engine.SetPlanRoundTrip).
	PlanRoundTrip bool
	// RestartJobs, whenever the harness has let the running jobs process
	// their input (before each INSERT and query), stops every running job
	// with a savepoint and starts it again from it, each time at another
	// parallelism (sluice.Engine.RestartFromSavepoint, restartParallelisms):
	// results must not change.
	RestartJobs bool
	// StateBackend, when set, sets state.backend.type before the script
	// runs ('rocksdb': every stateful operator keeps its state in
	// Pebble, in a temporary directory). StateCacheEntries sets
	// state.backend.pebble.cache-entries.
	StateBackend      string
	StateCacheEntries int
	// FromCheckpoints makes RestartJobs restart jobs from incremental
	// checkpoints (execution.checkpointing.incremental, taken into the
	// settler's directory; sluice.Engine.RestartFromCheckpoint) instead of
	// savepoints. It needs StateBackend 'rocksdb'.
	FromCheckpoints bool
	// Unchained sets pipeline.operator-chaining.enabled to false: every
	// operator instance runs in a goroutine of its own.
	Unchained bool
}

// restartParallelisms are the parallelisms restarted jobs take in turn,
// skipping the one a job runs at, so that every restart redistributes
// the job's state: from 4 to 3, 1, 4, 2, 3, ...; from 1 to 3, 4, 2, ...
var restartParallelisms = []int{3, 1, 4, 2}

// settler lets the running jobs process all their available input before
// a statement, restarting them from savepoints when the options say so.
type settler struct {
	e    *sluice.Engine
	opts Options
	dir  string // where savepoints go
	// parallelism is the parallelism of each job the settler started;
	// turn counts the restarts.
	parallelism map[string]int
	turn        int
}

func newSettler(e *sluice.Engine, opts Options) (*settler, error) {
	s := &settler{e: e, opts: opts, parallelism: map[string]int{}}
	if opts.RestartJobs {
		dir, err := os.MkdirTemp("", "sqltest-savepoints-")
		if err != nil {
			return nil, err
		}
		s.dir = dir
	}
	if opts.RestartJobs && opts.FromCheckpoints {
		// Checkpoints only when the settler takes them.
		for _, kv := range [][2]string{{sluice.ConfCheckpointsDir, s.dir}, {sluice.ConfCheckpointInterval, "1 h"}, {sluice.ConfIncremental, "true"}} {
			if err := e.Config().Set(kv[0], kv[1]); err != nil {
				s.close()
				return nil, err
			}
		}
	}
	return s, nil
}

// settle waits until the jobs are quiet and, in RestartJobs mode, restarts
// each running one from a savepoint and waits again.
func (s *settler) settle(ctx context.Context) error {
	if err := s.e.WaitQuiet(ctx); err != nil || !s.opts.RestartJobs {
		return err
	}
	for _, j := range s.e.Jobs() {
		if j.Status() != "RUNNING" {
			continue
		}
		p := s.nextParallelism(j.ID)
		restart, from := func() (*sluice.Job, error) { return s.e.RestartFromSavepoint(ctx, j.ID, s.dir, p) }, "a savepoint"
		if s.opts.FromCheckpoints {
			restart, from = func() (*sluice.Job, error) { return s.e.RestartFromCheckpoint(ctx, j.ID, p) }, "an incremental checkpoint"
		}
		next, err := restart()
		if errors.Is(err, runtime.ErrJobEnded) {
			// A bounded job whose end was on its way: nothing to
			// restart; it ends by itself.
			<-j.Done()
			continue
		}
		if err != nil {
			return fmt.Errorf("restarting job %s from %s at parallelism %d: %w", j.ID, from, p, err)
		}
		s.parallelism[next.ID] = p
	}
	return s.e.WaitQuiet(ctx)
}

// nextParallelism returns the parallelism to restart job id at: the next
// of restartParallelisms that is not the one it runs at (for a job the
// settler did not start, parallelism.default).
func (s *settler) nextParallelism(id string) int {
	current, ok := s.parallelism[id]
	if !ok {
		current = s.e.Config().Parallelism()
	}
	for {
		p := restartParallelisms[s.turn%len(restartParallelisms)]
		s.turn++
		if p != current {
			return p
		}
	}
}

// close removes the savepoints.
func (s *settler) close() {
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
	}
}

// Result is the outcome of one golden test.
type Result struct {
	// Got is what the last query printed.
	Got string
	// Want is the expected output.
	Want string
	// Missing and Extra are the expected lines not printed and the printed
	// lines not expected.
	Missing, Extra []string
}

// OK reports whether the output matched.
func (r *Result) OK() bool { return len(r.Missing) == 0 && len(r.Extra) == 0 }

// Diff renders the mismatch readably.
func (r *Result) Diff() string {
	var b strings.Builder
	for _, l := range r.Missing {
		fmt.Fprintf(&b, "- %s\n", l)
	}
	for _, l := range r.Extra {
		fmt.Fprintf(&b, "+ %s\n", l)
	}
	return b.String()
}

// RunFile runs sqlPath and compares with the .out file beside it.
func RunFile(sqlPath string, opts Options) (*Result, error) {
	script, err := os.ReadFile(sqlPath)
	if err != nil {
		return nil, err
	}
	want, err := os.ReadFile(strings.TrimSuffix(sqlPath, ".sql") + ".out")
	if err != nil {
		return nil, err
	}
	got, err := Run(string(script), opts)
	if err != nil {
		return nil, err
	}
	return Compare(got, string(want)), nil
}

// Compare compares printed output with the expected one as sets of lines.
func Compare(got, want string) *Result {
	g, w := lineSet(got), lineSet(want)
	r := &Result{Got: got, Want: want}
	for l := range w {
		if !g[l] {
			r.Missing = append(r.Missing, l)
		}
	}
	for l := range g {
		if !w[l] {
			r.Extra = append(r.Extra, l)
		}
	}
	sort.Strings(r.Missing)
	sort.Strings(r.Extra)
	return r
}

func lineSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		out[strings.TrimRight(l, "\r")] = true
	}
	return out
}

// Run executes script on a fresh embedded cluster and returns what its last
// query printed in tableau mode once the pipeline is quiescent.
func Run(script string, opts Options) (string, error) {
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		return "", err
	}
	defer cluster.Close()
	return RunOn(cluster, script, opts)
}

// RunOn is Run on a given embedded cluster, which stays up afterwards so a
// test can inspect the topics the script wrote.
func RunOn(cluster *devcluster.Cluster, script string, opts Options) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), opts.timeout())
	defer cancel()
	script = withPorts(script, cluster)
	e, err := newEngine(opts)
	if err != nil {
		return "", err
	}
	defer e.Close()
	settle, err := newSettler(e, opts)
	if err != nil {
		return "", err
	}
	defer settle.close()
	stmts, err := parser.ParseScript(script)
	if err != nil {
		return "", err
	}
	last := -1
	for i, st := range stmts {
		if _, ok := st.(*ast.QueryStatement); ok {
			last = i
		}
	}
	if last < 0 {
		return "", fmt.Errorf("the script has no query to compare")
	}
	var stream *sluice.Stream
	for i, st := range stmts {
		switch st.(type) {
		case *ast.QueryStatement, *ast.Insert, *ast.StatementSet, *ast.EndStatementSet:
			// A query or INSERT sees what the statements before it wrote,
			// as in a test that awaits each INSERT's job.
			if err := settle.settle(ctx); err != nil {
				return "", err
			}
		}
		res, err := e.ExecuteStatement(ctx, st, script)
		if err != nil {
			return "", err
		}
		if res.Kind != sluice.ResultStream {
			continue
		}
		if i != last {
			res.Stream.Close()
			continue
		}
		stream = res.Stream
	}
	defer stream.Close()
	if err := e.WaitQuiet(ctx, stream); err != nil {
		return "", fmt.Errorf("waiting for the pipeline to settle: %w", err)
	}
	var out strings.Builder
	if err := printStream(&out, stream); err != nil {
		return "", err
	}
	return out.String(), nil
}

// withPorts replaces the KAFKA_PORT and SCHEMA_REGISTRY_PORT placeholders
// with the cluster's ports.
func withPorts(script string, cluster *devcluster.Cluster) string {
	return strings.NewReplacer(
		"KAFKA_PORT", strconv.Itoa(cluster.KafkaPort()),
		"SCHEMA_REGISTRY_PORT", strconv.Itoa(cluster.RegistryPort()),
	).Replace(script)
}

// newEngine returns an engine with opts' settings.
func newEngine(opts Options) (*sluice.Engine, error) {
	e := sluice.NewEngine()
	e.SetPlanRoundTrip(opts.PlanRoundTrip)
	if opts.Parallelism > 0 {
		if err := e.Config().Set(sluice.ConfParallelism, strconv.Itoa(opts.Parallelism)); err != nil {
			e.Close()
			return nil, err
		}
	}
	settings := map[string]string{sluice.ConfStateBackend: opts.StateBackend, sluice.ConfPebbleCacheEntries: strconv.Itoa(opts.StateCacheEntries)}
	if opts.Unchained {
		settings[sluice.ConfOperatorChaining] = "false"
	}
	for key, v := range settings {
		if v == "" || v == "0" {
			continue
		}
		if err := e.Config().Set(key, v); err != nil {
			e.Close()
			return nil, err
		}
	}
	return e, nil
}
