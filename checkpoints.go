package sluice

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/checkpoint"
	"github.com/sluicesql/sluice/internal/job"
	"github.com/sluicesql/sluice/internal/runtime"
)

// Checkpointing settings, with Flink's names
// (https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/#checkpointing).
const (
	ConfCheckpointInterval  = "execution.checkpointing.interval"
	ConfCheckpointMode      = "execution.checkpointing.mode"
	ConfCheckpointTimeout   = "execution.checkpointing.timeout"
	ConfCheckpointMinPause  = "execution.checkpointing.min-pause"
	ConfCheckpointTolerable = "execution.checkpointing.tolerable-failed-checkpoints"
	ConfCheckpointsDir      = "state.checkpoints.dir"
	ConfCheckpointsRetained = "state.checkpoints.num-retained"
	ConfSavepointsDir       = "state.savepoints.dir"
	ConfSavepointPath       = "execution.savepoint.path"
	ConfIgnoreUnclaimed     = "execution.savepoint.ignore-unclaimed-state"
)

// checkpointDefaults are Flink's defaults of the checkpointing and state
// backend settings (the interval is unset: off); SET lists them with the
// session's defaults.
var checkpointDefaults = map[string]string{
	ConfStateBackend:        job.StateHashmap,
	ConfIncremental:         "false",
	ConfCheckpointMode:      "EXACTLY_ONCE",
	ConfCheckpointTimeout:   "10 min",
	ConfCheckpointMinPause:  "0 ms",
	ConfCheckpointTolerable: "0",
	ConfCheckpointsRetained: "1",
	ConfIgnoreUnclaimed:     "false",
	// What Sluice does, the only values it accepts.
	"execution.checkpointing.max-concurrent-checkpoints":        "1",
	"execution.checkpointing.unaligned.enabled":                 "false",
	"execution.checkpointing.externalized-checkpoint-retention": "RETAIN_ON_CANCELLATION",
}

// minCheckpointTime is Flink's smallest checkpoint interval and timeout
// (CheckpointCoordinatorConfiguration.MINIMAL_CHECKPOINT_TIME).
const minCheckpointTime = 10 * time.Millisecond

// checkCheckpointSetting validates one checkpointing setting; ok is false
// for keys that are none of them.
func checkCheckpointSetting(key, value string) (ok bool, err error) {
	invalid := func(expected string) error {
		return fmt.Errorf("invalid value '%s' for '%s': expected %s", value, key, expected)
	}
	switch settingID(key) {
	case ConfCheckpointInterval, ConfCheckpointTimeout:
		d, err := ParseDuration(value)
		if err != nil {
			return true, fmt.Errorf("invalid value '%s' for '%s': %v", value, key, err)
		}
		if d < minCheckpointTime {
			return true, invalid("a duration of at least 10 ms")
		}
	case ConfCheckpointMinPause:
		if _, err := ParseDuration(value); err != nil {
			return true, fmt.Errorf("invalid value '%s' for '%s': %v", value, key, err)
		}
	case ConfCheckpointMode:
		if _, err := checkpointMode(value); err != nil {
			return true, invalid("EXACTLY_ONCE or AT_LEAST_ONCE")
		}
	case ConfCheckpointTolerable:
		if n, err := strconv.Atoi(value); err != nil || n < 0 {
			return true, invalid("a non-negative integer")
		}
	case ConfCheckpointsRetained:
		if n, err := strconv.Atoi(value); err != nil || n < 1 {
			return true, invalid("a positive integer")
		}
	case ConfIgnoreUnclaimed:
		if _, err := strconv.ParseBool(value); err != nil || !strings.EqualFold(value, "true") && !strings.EqualFold(value, "false") {
			return true, invalid("true or false")
		}
	case ConfCheckpointsDir, ConfSavepointsDir, ConfSavepointPath:
		if strings.TrimSpace(value) == "" {
			return true, invalid("a path or URL")
		}
	default:
		return false, nil
	}
	return true, nil
}

// checkpointMode reads execution.checkpointing.mode, ignoring case as
// Flink reads enum settings.
func checkpointMode(v string) (runtime.CheckpointMode, error) {
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "EXACTLY_ONCE":
		return runtime.ExactlyOnce, nil
	case "AT_LEAST_ONCE":
		return runtime.AtLeastOnce, nil
	}
	return 0, fmt.Errorf("unknown checkpointing mode '%s'", v)
}

// storageProps returns the settings checkpoint storage reads (s3.*).
func (c *Config) storageProps() map[string]string {
	props := map[string]string{}
	for _, kv := range c.All() {
		if strings.HasPrefix(kv[0], "s3.") {
			props[kv[0]] = kv[1]
		}
	}
	return props
}

// checkpointConfig returns how job id takes checkpoints (none without an
// interval: its Storage is nil, and the job can still take savepoints),
// restored from execution.savepoint.path when it is set.
func (c *Config) checkpointConfig(ctx context.Context, id string) (*runtime.CheckpointConfig, error) {
	interval, _ := c.durationSetting(ConfCheckpointInterval)
	mode, _ := checkpointMode(c.Get(ConfCheckpointMode))
	timeout, _ := c.durationSetting(ConfCheckpointTimeout)
	minPause, _ := c.durationSetting(ConfCheckpointMinPause)
	tolerable, _ := strconv.Atoi(c.Get(ConfCheckpointTolerable))
	retained, _ := strconv.Atoi(c.Get(ConfCheckpointsRetained))
	ignore, _ := strconv.ParseBool(c.Get(ConfIgnoreUnclaimed))
	incremental, err := c.incremental()
	if err != nil {
		return nil, err
	}
	cfg := &runtime.CheckpointConfig{Job: id, Mode: mode, Interval: interval, Timeout: timeout,
		MinPause: minPause, Tolerable: tolerable, Retained: retained, IgnoreUnclaimed: ignore, Incremental: incremental}
	props := c.storageProps()
	if interval > 0 {
		dir := c.Get(ConfCheckpointsDir)
		if dir == "" {
			return nil, fmt.Errorf("'%s' is set but '%s' is not: set where checkpoints are stored", ConfCheckpointInterval, settingNames(ConfCheckpointsDir)[0])
		}
		store, err := checkpoint.Open(dir, props)
		if err != nil {
			return nil, fmt.Errorf("'%s': %w", ConfCheckpointsDir, err)
		}
		cfg.Storage = store
	}
	if path := c.Get(ConfSavepointPath); path != "" {
		store, job, chk, err := checkpoint.OpenCheckpoint(path, props)
		if err != nil {
			return nil, fmt.Errorf("'%s': %w", ConfSavepointPath, err)
		}
		if err := restoreFrom(ctx, cfg, store, job, chk); err != nil {
			return nil, fmt.Errorf("'%s' = '%s': %w", ConfSavepointPath, path, err)
		}
	}
	return cfg, nil
}

// restoreFrom makes cfg start from checkpoint chk of job in store.
func restoreFrom(ctx context.Context, cfg *runtime.CheckpointConfig, store checkpoint.Storage, job string, chk int64) error {
	meta, state, err := checkpoint.Load(ctx, store, job, chk)
	if err != nil {
		return err
	}
	restoreCheckpoint(cfg, store, meta, state)
	return nil
}

// restoreCheckpoint makes cfg start from the checkpoint meta describes,
// in store, whose parts are state.
func restoreCheckpoint(cfg *runtime.CheckpointConfig, store checkpoint.Storage, meta *checkpoint.Metadata, state map[string][]byte) {
	cfg.Restore, cfg.RestoredFrom, cfg.Finished = state, meta.ID, meta.Finished
	cfg.Files = checkpoint.SharedFiles(store, meta)
}

// durationSetting reads a duration setting; unset with no default is 0.
func (c *Config) durationSetting(key string) (time.Duration, error) {
	v := c.Get(key)
	if v == "" {
		return 0, nil
	}
	return ParseDuration(v)
}

// stopWithSavepoint takes a savepoint of job j into state.savepoints.dir,
// draining the job first if asked to (see runtime.Job.Savepoint), and
// returns its path, to be named by execution.savepoint.path.
func (e *Session) stopWithSavepoint(ctx context.Context, j *Job, drain bool) (string, error) {
	return stopWithSavepointTo(ctx, j, e.config.Get(ConfSavepointsDir), e.config.storageProps(), drain)
}

// savepointAndStop takes a savepoint of running job j into store,
// draining it first if asked to, then stops the job, and returns the
// savepoint's ID.
func (j *Job) savepointAndStop(ctx context.Context, store checkpoint.Storage, drain bool) (int64, error) {
	id, err := j.current().Savepoint(ctx, store, drain)
	if err != nil {
		return 0, fmt.Errorf("could not stop job '%s' with a savepoint: %w", j.ID, err)
	}
	j.savepointed.Store(true)
	j.stop()
	return id, nil
}

// RestartFromSavepoint stops running job id with a savepoint written to
// the storage at dir, then starts its plan again from that savepoint (as
// STOP JOB ... WITH SAVEPOINT followed by execution.savepoint.path and the
// same INSERT would, without re-planning) and returns the new job. The new
// job runs at the given parallelism (parallelism.default when 0), with
// the maximum parallelism the job had: its keyed state is redistributed
// by key group. A job that is no longer running is an error.
func (e *Session) RestartFromSavepoint(ctx context.Context, id, dir string, parallelism int) (*Job, error) {
	store, err := checkpoint.Open(dir, e.config.storageProps())
	if err != nil {
		return nil, err
	}
	return e.restartFrom(ctx, id, parallelism, func(j *Job) (checkpoint.Storage, int64, error) {
		chk, err := j.savepointAndStop(ctx, store, false)
		return store, chk, err
	})
}

// RestartFromCheckpoint is RestartFromSavepoint from a checkpoint instead:
// the job takes one into its checkpoint storage (incremental when its
// settings say so), is stopped, and its plan starts again from that
// checkpoint, as execution.savepoint.path naming a retained checkpoint
// would. The job must take checkpoints. What the job handles between the
// checkpoint and its stop is handled again, as after a failure: callers
// restart quiet jobs.
func (e *Session) RestartFromCheckpoint(ctx context.Context, id string, parallelism int) (*Job, error) {
	return e.restartFrom(ctx, id, parallelism, func(j *Job) (checkpoint.Storage, int64, error) {
		store := j.cfg.Storage
		if store == nil {
			return nil, 0, fmt.Errorf("job '%s' takes no checkpoints", j.ID)
		}
		chk, err := j.current().Checkpoint(ctx)
		if err != nil {
			return nil, 0, err
		}
		j.savepointed.Store(true)
		j.stop()
		return store, chk, nil
	})
}

// restartFrom stops running job id with the checkpoint or savepoint stop
// takes and starts its plan again from it at parallelism. A job that has
// ended is an error that wraps runtime.ErrJobEnded.
func (e *Session) restartFrom(ctx context.Context, id string, parallelism int, stop func(*Job) (checkpoint.Storage, int64, error)) (*Job, error) {
	j, ok := e.jobs.Job(id)
	if !ok {
		return nil, fmt.Errorf("no job '%s'", id)
	}
	if st := j.Status(); st != "RUNNING" {
		select {
		case <-j.Done(): // ended since the caller looked
			return nil, fmt.Errorf("job '%s' is not running (%s): %w", id, st, runtime.ErrJobEnded)
		default:
		}
		return nil, fmt.Errorf("job '%s' is not running (%s)", id, st)
	}
	store, chk, err := stop(j)
	if err != nil {
		return nil, err
	}
	next := newJobID()
	cfg, err := e.config.checkpointConfig(ctx, next)
	if err != nil {
		return nil, err
	}
	if err := restoreFrom(ctx, cfg, store, j.ID, chk); err != nil {
		return nil, err
	}
	return e.launch(next, j.plan, j.Name, j.Statement, cfg, scale{parallelism: parallelism, maxParallelism: j.current().MaxParallelism()})
}
