package sluice

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/sluicesql/sluice/internal/job"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/runtime"
)

// JobManager owns the jobs that sessions submit, as a Flink cluster's
// dispatcher does: a job runs until it ends, is stopped (STOP JOB, from
// any session) or the job manager closes, whatever becomes of the session
// that started it. With a data directory it keeps them in a job store and
// recovers those left running (Recover). Safe for concurrent use.
type JobManager struct {
	mu    sync.Mutex
	jobs  map[string]*Job
	order []string
	// store keeps the jobs when the job manager has a data directory.
	store *jobStore
	// defaults are the settings of the data directory (where checkpoints
	// and savepoints go), under those of every session.
	defaults map[string]string
	// work holds the jobs' on-disk state (DATA/work/JOB), scratch that
	// checkpoints make durable; empty without a data directory.
	work string
	// out is where its recovered jobs, and those of sessions without an
	// output of their own, print; nil: the process's standard streams.
	out *output
	// clock is its jobs' processing time; nil: the machine's clock.
	clock runtime.Clock
}

// NewJobManager returns a job manager without a data directory: its jobs
// end when it closes.
func NewJobManager() *JobManager {
	return &JobManager{jobs: map[string]*Job{}}
}

// SetClock makes the jobs started from now on read processing time
// (PROCTIME(), processing-time windows and timers) from c instead of the
// machine's clock: tests give a runtime.ManualClock they advance.
func (m *JobManager) SetClock(c runtime.Clock) { m.clock = c }

// SetDataDir keeps the jobs in dir (DATA/jobs); sessions over the job
// manager take checkpoints every 10 seconds into DATA/checkpoints and
// savepoints into DATA/savepoints unless they say otherwise, and the
// on-disk state backend works in DATA/work/JOB. Call it
// before sessions are made and jobs start; Recover starts those a previous
// job manager left running.
func (m *JobManager) SetDataDir(dir string) error {
	if err := PrepareDataDir(dir); err != nil {
		return err
	}
	jobs := filepath.Join(dir, "jobs")
	if err := os.MkdirAll(jobs, 0o700); err != nil {
		return fmt.Errorf("job store: %w", err)
	}
	m.store = &jobStore{dir: jobs}
	m.work = filepath.Join(dir, "work")
	m.defaults = map[string]string{
		ConfCheckpointsDir:     filepath.Join(dir, "checkpoints"),
		ConfSavepointsDir:      filepath.Join(dir, "savepoints"),
		ConfCheckpointInterval: defaultCheckpointInterval,
	}
	return nil
}

// Jobs returns the jobs started so far, oldest first.
func (m *JobManager) Jobs() []*Job {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*Job, 0, len(m.order))
	for _, id := range m.order {
		out = append(out, m.jobs[id])
	}
	return out
}

// Job returns the job with the given ID.
func (m *JobManager) Job(id string) (*Job, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	return j, ok
}

// Close stops every job, as STOP JOB does, and waits until they have
// ended: their sources have attempted their final offset commits
// (bounded) and their sinks have closed. With a data directory a running
// job first takes a last checkpoint and stays RUNNING in the job store,
// for the next job manager on the directory to resume (Recover).
func (m *JobManager) Close() {
	jobs := m.Jobs()
	for _, j := range jobs {
		if m.store != nil {
			j.suspend(finalCheckpointTimeout)
		} else {
			j.cancel()
		}
	}
	for _, j := range jobs {
		<-j.Done()
	}
}

// WaitJobs blocks until every job started so far has ended or ctx is
// done, and reports the jobs that failed (JobFailures); when ctx ends
// first, with ctx's error. A job stopped with STOP JOB is not a failure.
func (m *JobManager) WaitJobs(ctx context.Context) error {
	for _, j := range m.Jobs() {
		select {
		case <-j.Done():
		case <-ctx.Done():
			return errors.Join(ctx.Err(), m.JobFailures())
		}
	}
	return m.JobFailures()
}

// JobFailures reports every job started so far that has failed, whenever
// it failed, each with its ID, name and cause; nil if none has.
func (m *JobManager) JobFailures() error {
	var failed []error
	for _, j := range m.Jobs() {
		if err := j.Err(); err != nil {
			failed = append(failed, fmt.Errorf("job %s (%s) failed: %w", j.ID, j.Name, clipped(err)))
		}
	}
	return errors.Join(failed...)
}

// startRecorded starts a job, writes its record to the job store (if the
// job manager has one) and keeps it there until the job is over for good.
func (m *JobManager) startRecorded(rec *jobRecord, jp *plan.Plan, opts job.Options, cfg *runtime.CheckpointConfig, strategy restartStrategy) (*Job, error) {
	var roots []string
	for _, r := range jp.Roots() {
		roots = append(roots, r.ID)
	}
	cfg.Plan = strings.Join(roots, ",")
	var work string
	if m.work != "" {
		work = filepath.Join(m.work, rec.ID)
		opts.StateDir = work
	}
	start := func(cfg *runtime.CheckpointConfig) (*runtime.Job, error) {
		// What an earlier attempt, or a process that died, left; the
		// directory is its owner's only, as the data directory.
		if work != "" {
			if err := errors.Join(os.RemoveAll(work), os.MkdirAll(work, 0o700)); err != nil {
				return nil, fmt.Errorf("state directory: %w", err)
			}
		}
		g, err := job.Build(jp, opts)
		if err != nil {
			return nil, err
		}
		g.Checkpoints = cfg
		run, err := runtime.Start(context.Background(), g.Graph)
		return run, sharingHint(jp, err)
	}
	if err := m.store.put(rec); err != nil {
		return nil, err
	}
	j, err := newJob(rec.ID, rec.Name, rec.Statement, jp, cfg, strategy, start, func(j *Job) {
		m.store.ended(j, rec)
		_ = os.RemoveAll(work) // scratch: a failure leaves files for the next start to remove
	})
	if err != nil {
		if rec.Status == "RUNNING" {
			failed := *rec
			failed.Status, failed.Error = "FAILED", err.Error()
			_ = m.store.put(&failed)
		}
		return nil, err
	}
	m.mu.Lock()
	m.jobs[j.ID] = j
	m.order = append(m.order, j.ID)
	m.mu.Unlock()
	return j, nil
}
