package sluice

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/checkpoint"
	"github.com/sluicesql/sluice/internal/runtime"
)

// What the job manager tells of its jobs for monitoring (the REST API's
// job endpoints, the metrics): their states as Flink's JobStatus, their
// attempts' operators and checkpoints, and why they failed.

// maxFailures is how many failures a job keeps: Flink's
// web.exception-history-size default.
const maxFailures = 16

// JobFailure is one failure of a job's attempt.
type JobFailure struct {
	Time time.Time
	Err  error
	// Final is set on the failure that ended the job for good.
	Final bool
}

// failed records an attempt's failure.
func (j *Job) failed(err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.failures = append([]JobFailure{{Time: time.Now(), Err: err}}, j.failures...)
	if len(j.failures) > maxFailures {
		j.failures = j.failures[:maxFailures]
	}
}

// Failures returns the failures of the job's attempts, newest first; the
// first is marked Final when it ended the job.
func (j *Job) Failures() []JobFailure {
	final := j.Err() != nil
	j.mu.Lock()
	defer j.mu.Unlock()
	out := append([]JobFailure(nil), j.failures...)
	if final && len(out) > 0 {
		out[0].Final = true
	}
	return out
}

// State returns the job's state as Flink's JobStatus names it: RUNNING,
// RESTARTING (an attempt failed and the next is not running yet),
// FINISHED, CANCELED or FAILED.
func (j *Job) State() string {
	st, _, _ := strings.Cut(j.Status(), ":")
	return st
}

// EndTime returns when the job was over for good, zero while it is not.
func (j *Job) EndTime() time.Time {
	select {
	case <-j.done:
	default:
		return time.Time{}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.endedAt
}

// Vertices returns the vertices of the job's current attempt, chains of
// operators as Flink's job vertices, with their metrics (the counters
// start again with each attempt, as Flink's task metrics do).
func (j *Job) Vertices() []runtime.VertexMetrics { return j.current().Vertices() }

// MaxParallelism returns the number of key groups of the job.
func (j *Job) MaxParallelism() int { return j.current().MaxParallelism() }

// Checkpoints returns the statistics of the job's checkpoints and
// savepoints over all its attempts.
func (j *Job) Checkpoints() runtime.CheckpointSummary { return j.cfg.Stats.Summary() }

// Cancel stops job id as STOP JOB does (Flink's cancel), without waiting
// for it to end.
func (m *JobManager) Cancel(id string) error {
	j, ok := m.Job(id)
	if !ok {
		return fmt.Errorf("could not cancel job '%s': no such job", id)
	}
	j.cancel()
	return nil
}

// StopWithSavepoint takes a savepoint of running job id into dir (the
// data directory's savepoints when empty), draining the job first if
// asked to, stops the job, and returns the savepoint's path, as STOP JOB
// ... WITH SAVEPOINT [WITH DRAIN] does.
func (m *JobManager) StopWithSavepoint(ctx context.Context, id, dir string, drain bool) (string, error) {
	j, ok := m.Job(id)
	if !ok {
		return "", fmt.Errorf("could not stop job '%s': no such job", id)
	}
	if dir == "" {
		dir = m.defaults[ConfSavepointsDir]
	}
	return stopWithSavepointTo(ctx, j, dir, nil, drain)
}

// stopWithSavepointTo takes a savepoint of job j into the storage at dir
// (opened with the storage properties props), draining the job first if
// asked to, stops the job and returns the savepoint's path.
func stopWithSavepointTo(ctx context.Context, j *Job, dir string, props map[string]string, drain bool) (string, error) {
	if dir == "" {
		return "", fmt.Errorf("could not stop job '%s' with a savepoint: '%s' is not set; set where savepoints are stored", j.ID, ConfSavepointsDir)
	}
	if st := j.Status(); st != "RUNNING" {
		return "", fmt.Errorf("could not stop job '%s' with a savepoint: it is not running (%s)", j.ID, st)
	}
	store, err := checkpoint.Open(dir, props)
	if err != nil {
		return "", fmt.Errorf("'%s': %w", ConfSavepointsDir, err)
	}
	id, err := j.savepointAndStop(ctx, store, drain)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s/%s/chk-%d", strings.TrimSuffix(dir, "/"), j.ID, id), nil
}
