package sluice

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sluicesql/sluice/internal/checkpoint"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

// Job is a running INSERT INTO. A job that fails is started again from
// its latest complete checkpoint as its restart strategy allows
// (restart-strategy.type), keeping its ID, as a Flink job does.
type Job struct {
	ID string
	// Name is Flink's job name, insert-into_<catalog>.<database>.<table>.
	Name      string
	Statement string
	Started   time.Time
	// plan is the job's execution plan, to start it again.
	plan *plan.Plan

	// start starts an attempt of the job with a checkpoint configuration;
	// cfg is the first attempt's, restarts restore from the latest
	// checkpoint in its storage.
	start    func(cfg *runtime.CheckpointConfig) (*runtime.Job, error)
	cfg      *runtime.CheckpointConfig
	strategy restartStrategy

	mu       sync.Mutex
	run      *runtime.Job // the current attempt
	restarts int
	err      error // why the job failed for good
	lastErr  error // why the latest attempt failed
	// failures are the attempts' failures, newest first (at most
	// maxFailures); endedAt is when the job was over for good.
	failures []JobFailure
	endedAt  time.Time

	stopped atomic.Bool
	// savepointed is set when the job is stopped after a savepoint (or
	// the checkpoint a restart starts from).
	savepointed atomic.Bool
	// suspended is set when the engine shuts down: the job stops but is
	// not over in the job store.
	suspended atomic.Bool
	stopOnce  sync.Once
	stopping  chan struct{} // closed by stop
	done      chan struct{} // closed when the job is over for good
	ended     func(*Job)    // told when the job is over for good
}

// newJob starts job id's first attempt and supervises it; ended is called
// once the job is over for good, before Done is closed.
func newJob(id, name, text string, jp *plan.Plan, cfg *runtime.CheckpointConfig, strategy restartStrategy,
	start func(*runtime.CheckpointConfig) (*runtime.Job, error), ended func(*Job)) (*Job, error) {
	if cfg.Stats == nil {
		cfg.Stats = &runtime.CheckpointStats{}
	}
	run, err := start(cfg)
	if err != nil {
		return nil, err
	}
	j := &Job{ID: id, Name: name, Statement: text, Started: time.Now(), plan: jp, start: start, cfg: cfg,
		strategy: strategy, run: run, stopping: make(chan struct{}), done: make(chan struct{}), ended: ended}
	go j.supervise()
	return j, nil
}

// current returns the job's current attempt.
func (j *Job) current() *runtime.Job {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.run
}

// Done is closed when the job is over for good: finished, stopped, or
// failed with no restart left.
func (j *Job) Done() <-chan struct{} { return j.done }

// Err returns why the job failed for good, or nil.
func (j *Job) Err() error {
	select {
	case <-j.done:
	default:
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// finalErr is why the job failed for good, once its supervisor has
// settled it.
func (j *Job) finalErr() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// Status returns RUNNING, RESTARTING (with the last failure), FINISHED,
// CANCELED or FAILED with the reason.
func (j *Job) Status() string {
	select {
	case <-j.done:
		if err := j.Err(); err != nil {
			return "FAILED: " + parser.ClipMessage(err.Error())
		}
		return j.endStatus()
	default:
	}
	run := j.current()
	select {
	case <-run.Done():
		if err := run.Err(); err != nil && !j.stopped.Load() {
			return "RESTARTING: " + parser.ClipMessage(err.Error())
		}
	default:
	}
	return "RUNNING"
}

// Restarts returns how many times the job was started again after a
// failure.
func (j *Job) Restarts() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.restarts
}

// cancel asks the job to stop without waiting.
func (j *Job) cancel() {
	select {
	case <-j.done:
		return // already over: its status stays
	default:
	}
	j.stopped.Store(true)
	j.stopOnce.Do(func() { close(j.stopping) })
	j.current().Cancel()
}

// endStatus is the status of a job over for good that did not fail:
// CANCELED when STOP JOB stopped it, FINISHED when its input ended or it
// was stopped with a savepoint (as Flink's stop-with-savepoint ends a job
// FINISHED).
func (j *Job) endStatus() string {
	if j.stopped.Load() && !j.savepointed.Load() {
		return "CANCELED"
	}
	return "FINISHED"
}

// stop cancels the job as STOP JOB does and waits until it has ended; a
// job already over keeps its status.
func (j *Job) stop() {
	j.cancel()
	<-j.done
}

// supervise waits for each attempt to end and starts the next one while
// the job failed and its restart strategy allows.
func (j *Job) supervise() {
	defer close(j.done)
	defer j.ended(j)
	defer func() {
		j.mu.Lock()
		j.endedAt = time.Now()
		j.mu.Unlock()
	}()
	for {
		run := j.current()
		<-run.Done()
		err := run.Err()
		if err == nil || j.stopped.Load() {
			return
		}
		j.failed(err)
		delay, ok := j.strategy.next(time.Now())
		if !ok {
			j.mu.Lock()
			j.err = err
			j.mu.Unlock()
			return
		}
		j.mu.Lock()
		j.lastErr = err
		j.mu.Unlock()
		slog.Warn(fmt.Sprintf("job %s (%s) failed, restarting in %s: %v", j.ID, j.Name, delay, err))
		select {
		case <-time.After(delay):
		case <-j.stopping:
			return
		}
		next, err := j.restart()
		if err != nil {
			j.failed(err)
			j.mu.Lock()
			j.err = fmt.Errorf("%v; restarting failed: %w", j.lastErr, err)
			j.mu.Unlock()
			return
		}
		j.mu.Lock()
		j.run = next
		j.restarts++
		j.mu.Unlock()
		if j.stopped.Load() { // stopped while restarting
			next.Cancel()
		}
	}
}

// restart starts a new attempt from the latest complete checkpoint, or as
// the first attempt started when there is none.
func (j *Job) restart() (*runtime.Job, error) {
	cfg := *j.cfg
	if cfg.Storage != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		meta, state, err := checkpoint.Latest(ctx, cfg.Storage, j.ID)
		switch {
		case err == nil:
			restoreCheckpoint(&cfg, cfg.Storage, meta, state)
		case ctx.Err() != nil:
			return nil, err
		}
	}
	return j.start(&cfg)
}
