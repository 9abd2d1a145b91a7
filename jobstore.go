package sluice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/atomicfile"
	"github.com/sluicesql/sluice/internal/checkpoint"
	"github.com/sluicesql/sluice/internal/job"
	"github.com/sluicesql/sluice/internal/plan"
)

// The job store keeps the jobs of a job manager that has a data directory,
// as a Flink cluster with high availability keeps them: one file per job
// (DATA/jobs/ID.json) with its statement, execution plan and the session
// settings it started with, and its status. A job stays RUNNING there
// until it is over for good (finished, stopped with STOP JOB, failed with
// no restart left); one whose process stopped or died is started again
// by the next job manager on the directory (JobManager.Recover), from its latest
// complete checkpoint.

// defaultCheckpointInterval is how often the jobs of a job manager with a data
// directory take checkpoints unless execution.checkpointing.interval says
// otherwise (Flink's default is none; a job that must survive a crash
// needs them).
const defaultCheckpointInterval = "10 s"

// jobStore is a directory of job records; a nil store keeps nothing.
type jobStore struct {
	dir string
}

// jobRecord is a job as the job store keeps it.
type jobRecord struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Statement string    `json:"statement"`
	Started   time.Time `json:"started"`
	// Status is RUNNING until the job is over for good, then FINISHED,
	// CANCELED or FAILED (with Error).
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Parallelism and MaxParallelism are those the job was built with.
	Parallelism    int `json:"parallelism"`
	MaxParallelism int `json:"maxParallelism"`
	// Settings are the session's settings when the job started: its
	// checkpointing, restart strategy and storage.
	Settings map[string]string `json:"settings"`
	Plan     json.RawMessage   `json:"plan"`
}

// newJobRecord describes a job about to start.
func (e *Session) newJobRecord(id, name, text string, jp *plan.Plan, opts job.Options) (*jobRecord, error) {
	rec := &jobRecord{ID: id, Name: name, Statement: text, Started: time.Now().UTC(), Status: "RUNNING",
		Parallelism: opts.Parallelism, MaxParallelism: opts.MaxParallelism, Settings: map[string]string{}}
	if e.jobs.store == nil {
		return rec, nil
	}
	for _, kv := range e.config.All() {
		rec.Settings[kv[0]] = kv[1]
	}
	var err error
	if rec.Plan, err = jp.Encode(); err != nil {
		return nil, err
	}
	return rec, nil
}

// path is where the record of job id is.
func (s *jobStore) path(id string) string { return filepath.Join(s.dir, id+".json") }

// put writes a record, replacing the previous one whole.
func (s *jobStore) put(rec *jobRecord) error {
	if s == nil {
		return nil
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(s.path(rec.ID), b, 0o600); err != nil {
		return fmt.Errorf("job store: %w", err)
	}
	return nil
}

// ended records the job's end, when it is over for good (called before
// its Done closes). A job suspended by its job manager's shutdown stays
// RUNNING: the next job manager resumes it.
func (s *jobStore) ended(j *Job, rec *jobRecord) {
	if s == nil || j.suspended.Load() {
		return
	}
	out := *rec
	switch err := j.finalErr(); {
	case err != nil:
		out.Status, out.Error = "FAILED", err.Error()
	default:
		out.Status = j.endStatus()
	}
	if err := s.put(&out); err != nil {
		slog.Warn(fmt.Sprintf("job %s ended %s but the job store could not record it: %v", j.ID, out.Status, err))
	}
}

// running returns the records of the jobs left running, oldest first.
func (s *jobStore) running() ([]*jobRecord, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("job store: %w", err)
	}
	var out []*jobRecord
	for _, en := range entries {
		if !strings.HasSuffix(en.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(s.dir, en.Name()))
		if err != nil {
			return nil, fmt.Errorf("job store: %w", err)
		}
		var rec jobRecord
		if err := json.Unmarshal(b, &rec); err != nil {
			return nil, fmt.Errorf("job store: %s: %w", en.Name(), err)
		}
		if rec.Status == "RUNNING" {
			out = append(out, &rec)
		}
	}
	slices.SortFunc(out, func(a, b *jobRecord) int { return a.Started.Compare(b.Started) })
	return out, nil
}

// Recover starts again every job of the job store that was running when
// the job manager that ran it stopped or died, keeping its ID, with the
// settings, parallelism and plan it started with, from its latest complete
// checkpoint (or as it first started when it has none). It returns the
// jobs started; a job that cannot start is marked FAILED in the store and
// reported in the error, the others start regardless.
func (m *JobManager) Recover(ctx context.Context) ([]*Job, error) {
	if m.store == nil {
		return nil, errors.New("the job manager has no data directory to recover jobs from")
	}
	recs, err := m.store.running()
	if err != nil {
		return nil, err
	}
	var jobs []*Job
	var errs []error
	for _, rec := range recs {
		j, err := m.recover(ctx, rec)
		if err != nil {
			err = fmt.Errorf("recovering job %s (%s): %w", rec.ID, rec.Name, err)
			errs = append(errs, err)
			failed := *rec
			failed.Status, failed.Error = "FAILED", err.Error()
			errs = append(errs, m.store.put(&failed))
			continue
		}
		jobs = append(jobs, j)
	}
	return jobs, errors.Join(errs...)
}

// recover starts one recorded job.
func (m *JobManager) recover(ctx context.Context, rec *jobRecord) (*Job, error) {
	jp, err := plan.Decode(rec.Plan)
	if err != nil {
		return nil, err
	}
	conf := &Config{values: maps.Clone(rec.Settings)}
	cfg, err := conf.checkpointConfig(ctx, rec.ID)
	if err != nil {
		return nil, err
	}
	if cfg.Storage != nil {
		meta, state, err := checkpoint.Latest(ctx, cfg.Storage, rec.ID)
		switch {
		case err == nil:
			restoreCheckpoint(cfg, cfg.Storage, meta, state)
		case !errors.Is(err, checkpoint.ErrNotFound):
			return nil, err
		}
	}
	opts, err := conf.buildOptions(jp)
	if err != nil {
		return nil, err
	}
	out := m.output()
	opts.Env.Stdout, opts.Env.Stderr = out.stdout, out.stderr
	opts.Clock = m.clock
	opts.Parallelism, opts.MaxParallelism = rec.Parallelism, rec.MaxParallelism
	return m.startRecorded(rec, jp, opts, cfg, conf.restartStrategy(cfg.Storage != nil))
}

// suspend stops a running job for its job manager's shutdown: it takes a last
// checkpoint when the job takes checkpoints (bounded by timeout), then
// stops it, leaving it RUNNING in the job store for the next job manager.
func (j *Job) suspend(timeout time.Duration) {
	select {
	case <-j.done:
		return // over already: its status stays
	default:
	}
	j.suspended.Store(true)
	if j.cfg.Storage != nil && j.Status() == "RUNNING" {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		if _, err := j.current().Checkpoint(ctx); err != nil {
			slog.Warn(fmt.Sprintf("job %s: no final checkpoint: %v", j.ID, err))
		}
		cancel()
	}
	j.cancel()
}
