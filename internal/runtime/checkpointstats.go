package runtime

import (
	"sync"
	"time"
)

// checkpointHistorySize is how many checkpoints CheckpointStats keeps:
// Flink's web.checkpoints.history default.
const checkpointHistorySize = 10

// Checkpoint statuses, Flink's CheckpointStatsStatus.
const (
	CheckpointInProgress = "IN_PROGRESS"
	CheckpointCompleted  = "COMPLETED"
	CheckpointFailed     = "FAILED"
)

// CheckpointStat is one checkpoint or savepoint of a job.
type CheckpointStat struct {
	ID        int64
	Savepoint bool
	// Status is CheckpointInProgress, CheckpointCompleted or
	// CheckpointFailed.
	Status string
	// Triggered is when it started, Ended when it completed or failed
	// (zero while in progress).
	Triggered, Ended time.Time
	// Size is the bytes of state written (completed checkpoints).
	Size int64
	// Failure is why it failed.
	Failure string
}

// Duration is how long the checkpoint took (so far, while in progress).
func (s CheckpointStat) Duration() time.Duration {
	if s.Ended.IsZero() {
		return time.Since(s.Triggered)
	}
	return s.Ended.Sub(s.Triggered)
}

// CheckpointStats records a job's checkpoints, over the attempts of a job
// restarted from them when the attempts share it (CheckpointConfig.Stats).
// Safe for concurrent use.
type CheckpointStats struct {
	mu                        sync.Mutex
	completed, failed, total  int64
	inProgress                int
	history                   []CheckpointStat // newest first
	latestCompleted, latestSP *CheckpointStat
	latestFailed              *CheckpointStat
	restored                  int64
	restoredAt                time.Time
	restoredCount             int64
}

// CheckpointSummary is what CheckpointStats knows, as of one moment.
type CheckpointSummary struct {
	Total, Completed, Failed int64
	InProgress               int
	// History holds the latest checkpoints, newest first.
	History []CheckpointStat
	// LatestCompleted, LatestSavepoint and LatestFailed are nil when
	// there is none.
	LatestCompleted, LatestSavepoint, LatestFailed *CheckpointStat
	// Restored is the checkpoint the latest attempt started from (0:
	// none), RestoredAt when; Restores counts the restores.
	Restored   int64
	RestoredAt time.Time
	Restores   int64
}

// Summary returns a copy of the statistics.
func (s *CheckpointStats) Summary() CheckpointSummary {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := CheckpointSummary{Total: s.total, Completed: s.completed, Failed: s.failed, InProgress: s.inProgress,
		History: append([]CheckpointStat(nil), s.history...), Restored: s.restored, RestoredAt: s.restoredAt, Restores: s.restoredCount}
	copyOf := func(c *CheckpointStat) *CheckpointStat {
		if c == nil {
			return nil
		}
		v := *c
		return &v
	}
	out.LatestCompleted, out.LatestSavepoint, out.LatestFailed = copyOf(s.latestCompleted), copyOf(s.latestSP), copyOf(s.latestFailed)
	return out
}

// restoredFrom records that an attempt started from checkpoint id.
func (s *CheckpointStats) restoredFrom(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.restored, s.restoredAt = id, time.Now()
	s.restoredCount++
}

// begin records that checkpoint id started.
func (s *CheckpointStats) begin(id int64, savepoint bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total++
	s.inProgress++
	s.history = append([]CheckpointStat{{ID: id, Savepoint: savepoint, Status: CheckpointInProgress, Triggered: time.Now()}}, s.history...)
	if len(s.history) > checkpointHistorySize {
		s.history = s.history[:checkpointHistorySize]
	}
}

// end records how checkpoint id ended: completed with size bytes, or
// failed with err.
func (s *CheckpointStats) end(id int64, completed bool, size int64, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inProgress--
	for i := range s.history {
		c := &s.history[i]
		if c.ID != id || c.Status != CheckpointInProgress {
			continue
		}
		c.Ended = time.Now()
		switch {
		case completed:
			c.Status, c.Size = CheckpointCompleted, size
			v := *c
			s.completed++
			if c.Savepoint {
				s.latestSP = &v
			} else {
				s.latestCompleted = &v
			}
		default:
			c.Status = CheckpointFailed
			if err != nil {
				c.Failure = err.Error()
			}
			v := *c
			s.failed++
			s.latestFailed = &v
		}
		return
	}
}

// Checkpoints returns the statistics of the job's checkpoints (empty when
// it takes none).
func (j *Job) Checkpoints() CheckpointSummary {
	if j.coord == nil {
		return CheckpointSummary{}
	}
	return j.coord.stats.Summary()
}
