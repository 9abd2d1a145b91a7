package runtime

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/sluicesql/sluice/internal/checkpoint"
	"github.com/sluicesql/sluice/internal/state"
)

// Checkpoints follow Flink's asynchronous barrier snapshots. The
// coordinator asks every source instance for a barrier; a source emits it
// at a point where everything before it has been emitted and snapshots its
// position there. An operator instance takes its snapshot once the barrier
// has arrived from every upstream instance that has not ended; in
// exactly-once mode it holds back what those instances send after their
// barrier until then (alignment), in at-least-once mode it does not. It
// then forwards the barrier. Every instance's state goes to the
// checkpoint storage; when all of it is written the metadata is written
// last, and the checkpoint is complete: instances that keep side effects
// until then (offset commits, transactions) are told.

// CheckpointMode is execution.checkpointing.mode.
type CheckpointMode int

// Checkpoint modes.
const (
	// ExactlyOnce aligns barriers: state reflects each input exactly up to
	// the barrier.
	ExactlyOnce CheckpointMode = iota
	// AtLeastOnce does not align: state may reflect rows after the barrier
	// of an input whose barrier came early, which a restore replays.
	AtLeastOnce
)

// CheckpointConfig turns checkpointing on for a graph.
type CheckpointConfig struct {
	// Storage keeps the checkpoints; Job names the job in it.
	Storage checkpoint.Storage
	Job     string
	// Plan identifies the plan the state belongs to (stored in the
	// metadata).
	Plan string
	// Mode is exactly-once (aligned) or at-least-once.
	Mode CheckpointMode
	// Retained is how many complete checkpoints are kept (at least 1).
	Retained int
	// Restore is the state, by part name, to start from (nil: none).
	Restore map[string][]byte
	// RestoredFrom is the ID of the checkpoint Restore comes from; new
	// checkpoints are numbered after it. Finished are the parts that had
	// ended by then: those source instances end at once.
	RestoredFrom int64
	Finished     []string
	// Files reads the shared files Restore's parts refer to
	// (checkpoint.SharedFiles); nil when there are none.
	Files func(ctx context.Context, name string) ([]byte, error)
	// Incremental makes operators whose state backend can
	// (state.Incremental) take incremental checkpoints
	// (execution.checkpointing.incremental): their parts refer to shared
	// files, of which a checkpoint writes only those not in Storage yet.
	// Savepoints are always whole.
	Incremental bool
	// IgnoreUnclaimed drops restored state that no part of the plan
	// claims (execution.savepoint.ignore-unclaimed-state) instead of
	// refusing to start.
	IgnoreUnclaimed bool
	// Interval, when positive, takes a checkpoint periodically
	// (execution.checkpointing.interval), at least MinPause after the end
	// of the previous one (execution.checkpointing.min-pause). Timeout
	// fails a checkpoint that takes longer (execution.checkpointing.timeout,
	// 0: 10 minutes); more than Tolerable failures in a row fail the job
	// (execution.checkpointing.tolerable-failed-checkpoints).
	Interval, MinPause, Timeout time.Duration
	Tolerable                   int
	// Stats records the checkpoints; attempts of one job share it (nil:
	// the job keeps its own).
	Stats *CheckpointStats
}

// ErrJobEnded is the error of a checkpoint or savepoint asked of a job
// whose instances have all stopped.
var ErrJobEnded = errors.New("the job has ended")

// defaultCheckpointTimeout is Flink's execution.checkpointing.timeout.
const defaultCheckpointTimeout = 10 * time.Minute

// Checkpoint takes a checkpoint of the running job and waits until it is
// complete, returning its ID.
func (j *Job) Checkpoint(ctx context.Context) (int64, error) {
	if j.coord == nil || j.coord.cfg.Storage == nil {
		return 0, errors.New("checkpointing is not enabled for this job")
	}
	return j.coord.take(ctx, j.coord.cfg.Storage, true, false)
}

// CompletedCheckpoint returns the ID of the newest complete checkpoint or
// savepoint of the job (the one it was restored from until another
// completes), 0 when there is none. Instances with side effects that end
// before hearing of a completion (a cancelled job) read it to settle
// them.
func (j *Job) CompletedCheckpoint() int64 {
	if j.coord == nil {
		return 0
	}
	j.coord.mu.Lock()
	defer j.coord.mu.Unlock()
	return j.coord.complete
}

// Savepoint takes a checkpoint into store, where it is never pruned, and
// waits until it is complete, returning its ID. The job must have been
// started with a CheckpointConfig (its Storage may be nil). With drain,
// as Flink's stop-with-savepoint --drain, the sources emit the maximum
// watermark ahead of their barriers, so that every window and timer
// fires and its results are part of the savepoint's output, and emit
// nothing after them: the job is then to be stopped. A drain that fails
// fails the job, which has fired timers it cannot take back.
func (j *Job) Savepoint(ctx context.Context, store checkpoint.Storage, drain bool) (int64, error) {
	if j.coord == nil {
		return 0, errors.New("this job cannot take savepoints")
	}
	if !drain {
		return j.coord.take(ctx, store, false, false)
	}
	id, err := j.coord.take(ctx, store, false, true)
	if err != nil {
		j.Fail(fmt.Errorf("stop with savepoint and drain: %w", err))
	}
	return id, err
}

// periodic takes checkpoints every Interval until the job ends, failing
// the job after more than Tolerable failures in a row.
func (c *coordinator) periodic() {
	timeout := c.cfg.Timeout
	if timeout <= 0 {
		timeout = defaultCheckpointTimeout
	}
	failures := 0
	wait := c.cfg.Interval
	for {
		select {
		case <-time.After(wait):
		case <-c.job.ctx.Done():
			return
		}
		start := time.Now()
		ctx, cancel := context.WithTimeout(c.job.ctx, timeout)
		_, err := c.take(ctx, c.cfg.Storage, true, false)
		cancel()
		if c.job.ctx.Err() != nil {
			return
		}
		if err != nil {
			failures++
			if failures > c.cfg.Tolerable {
				c.job.Fail(fmt.Errorf("exceeded checkpoint tolerable failure threshold (%d): %w", c.cfg.Tolerable, err))
				return
			}
		} else {
			failures = 0
		}
		wait = max(c.cfg.Interval-time.Since(start), c.cfg.MinPause)
	}
}

// Snapshotter is implemented by sources and operators that hold state:
// SnapshotState returns it as of the barrier of checkpoint id (everything
// before the barrier reflected, nothing after), RestoreState installs a
// snapshot before the instance starts.
type Snapshotter interface {
	SnapshotState(id int64) ([]byte, error)
	RestoreState(data []byte) error
}

// Stateful is implemented by operators that keep all their state in a
// state backend; the runtime snapshots and restores the backend.
type Stateful interface {
	// State returns the operator's state backend; its Len is the number of
	// state entries the operator holds.
	State() state.Backend
}

// CheckpointListener is implemented by sources and operators with side
// effects that wait for a checkpoint to complete (committing offsets or a
// transaction). An operator is told from its own goroutine; a source is
// told from the coordinator's, concurrently with Run.
type CheckpointListener interface {
	CheckpointComplete(id int64) error
}

// partName names the state of instance i of stage number n in a
// checkpoint: the stage's name (stageName), then the instance.
func partName(s *Stage, n, i int) string {
	return fmt.Sprintf("%s-%d", stageName(s, n), i)
}

// stageName names stage number n in a checkpoint: its ID, or its number
// and name when it has none (names repeat within a graph), with the
// characters of file names only.
func stageName(s *Stage, n int) string {
	id := s.ID
	if id == "" {
		id = fmt.Sprintf("%d-%s", n, s.Name)
	}
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, id)
}

// coordinator runs a job's checkpoints.
type coordinator struct {
	job   *Job
	cfg   CheckpointConfig
	stats *CheckpointStats

	// trigger serialises checkpoints: one runs at a time, as Flink's
	// default execution.checkpointing.max-concurrent-checkpoints of 1.
	trigger sync.Mutex

	mu       sync.Mutex
	next     int64
	pending  *pendingCheckpoint
	complete int64 // the newest complete checkpoint
	// listeners are the source instances to tell of completed
	// checkpoints.
	listeners []CheckpointListener
	// parts is every instance's part name, in start order; finished
	// instances have nothing more to contribute.
	parts    []string
	finished map[string]bool
	// last holds the parts finished instances left.
	last map[string][]byte
	// drain is the ID of the savepoint that drains the job, 0 if none.
	drain int64
	// closed is set, under trigger, once the job's instances have all
	// stopped: no checkpoint starts after that.
	closed bool
}

// close waits for the checkpoint being taken, if any, to end, and
// refuses every later one.
func (c *coordinator) close() {
	c.trigger.Lock()
	defer c.trigger.Unlock()
	c.closed = true
}

// pendingCheckpoint collects the acknowledgements of one checkpoint.
type pendingCheckpoint struct {
	id      int64
	waiting map[string]bool
	state   map[string][]byte
	// files are the shared files each part refers to, released when the
	// checkpoint is stored or given up.
	files map[string]*sharedFiles
	// incremental is set for a checkpoint whose parts may refer to
	// shared files (not a savepoint).
	incremental bool
	err         error
	done        chan struct{}
}

// incremental reports whether an instance may snapshot its state
// incrementally for checkpoint id.
func (c *coordinator) incremental(id int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending != nil && c.pending.id == id && c.pending.incremental
}

func newCoordinator(j *Job, cfg CheckpointConfig) *coordinator {
	stats := cfg.Stats
	if stats == nil {
		stats = &CheckpointStats{}
	}
	if cfg.RestoredFrom > 0 {
		stats.restoredFrom(cfg.RestoredFrom)
	}
	return &coordinator{job: j, cfg: cfg, stats: stats, next: cfg.RestoredFrom + 1, complete: cfg.RestoredFrom, finished: map[string]bool{}, last: map[string][]byte{}}
}

// register adds an instance that takes part in checkpoints.
func (c *coordinator) register(part string, listener CheckpointListener) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.parts = append(c.parts, part)
	if listener != nil {
		c.listeners = append(c.listeners, listener)
	}
}

// sharedFiles are the shared files an instance's part refers to, and
// what lets the instance remove them once they are stored.
type sharedFiles struct {
	files   []state.SharedFile
	release func()
}

// ack records an instance's state for checkpoint id, and the shared
// files it refers to (nil: none). A nil state is an instance without
// state.
func (c *coordinator) ack(id int64, part string, state []byte, files *sharedFiles, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.pending
	if p == nil || p.id != id || !p.waiting[part] {
		if files != nil {
			files.release()
		}
		return
	}
	delete(p.waiting, part)
	if err != nil && p.err == nil {
		p.err = fmt.Errorf("%s: %w", part, err)
	}
	if state != nil {
		p.state[part] = state
	}
	if files != nil {
		p.files[part] = files
	}
	if len(p.waiting) == 0 {
		close(p.done)
	}
}

// finish records that an instance has ended: it acknowledges the pending
// checkpoint and every later one with last, its part from then on (nil:
// none).
func (c *coordinator) finish(part string, last []byte) {
	c.mu.Lock()
	c.finished[part] = true
	if last != nil {
		c.last[part] = last
	}
	var id int64
	if c.pending != nil {
		id = c.pending.id
	}
	c.mu.Unlock()
	if id != 0 {
		c.ack(id, part, last, nil, nil)
	}
}

// drains reports whether checkpoint id is a savepoint that drains the job.
func (c *coordinator) drains(id int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return id == c.drain
}

// take takes one checkpoint into store and waits until it is complete (its
// metadata written) or failed, or ctx ends, returning its ID. It prunes
// the older ones of the job there when prune is set, and drains the job
// (see Job.Savepoint) when drain is.
func (c *coordinator) take(ctx context.Context, store checkpoint.Storage, prune, drain bool) (_ int64, err error) {
	c.trigger.Lock()
	defer c.trigger.Unlock()
	if c.closed {
		return 0, ErrJobEnded
	}
	c.mu.Lock()
	id := c.next
	c.next++
	c.stats.begin(id, !prune)
	p := &pendingCheckpoint{id: id, waiting: map[string]bool{}, state: map[string][]byte{}, files: map[string]*sharedFiles{},
		incremental: prune && c.cfg.Incremental, done: make(chan struct{})}
	for _, part := range c.parts {
		if !c.finished[part] {
			p.waiting[part] = true
		}
	}
	c.pending = p
	if drain {
		c.drain = id
	}
	if len(p.waiting) == 0 {
		close(p.done)
	}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.pending = nil
		var size int64
		for _, data := range p.state {
			size += int64(len(data))
		}
		completed := c.complete == id
		c.mu.Unlock()
		c.stats.end(id, completed, size, err)
		// No ack can add files now.
		for _, f := range p.files {
			f.release()
		}
	}()

	c.job.requestBarriers(id)
	select {
	case <-p.done:
	case <-ctx.Done():
		return 0, fmt.Errorf("checkpoint %d: %w", id, ctx.Err())
	case <-c.job.ended:
		if err := c.job.failure(); err != nil {
			return 0, fmt.Errorf("checkpoint %d: the job failed: %w", id, err)
		}
	}
	c.mu.Lock()
	err, missing := p.err, len(p.waiting)
	c.mu.Unlock()
	if err == nil && missing > 0 {
		// Cancelled before every instance acknowledged: what was
		// collected is not a consistent state of the job.
		err = fmt.Errorf("the job stopped before %d of its instances took part", missing)
	}
	if err != nil {
		return 0, fmt.Errorf("checkpoint %d: %w", id, err)
	}
	if err := c.store(ctx, store, p, prune); err != nil {
		return 0, fmt.Errorf("checkpoint %d: %w", id, err)
	}
	c.mu.Lock()
	c.complete = id
	listeners := c.listeners
	c.mu.Unlock()
	c.job.notifyComplete(id)
	var errs []error
	for _, l := range listeners {
		if err := l.CheckpointComplete(id); err != nil {
			errs = append(errs, err)
		}
	}
	return id, errors.Join(errs...)
}

// store writes every part to store, then the metadata, then prunes old
// checkpoints if asked to.
func (c *coordinator) store(ctx context.Context, store checkpoint.Storage, p *pendingCheckpoint, prune bool) error {
	meta := &checkpoint.Metadata{Job: c.cfg.Job, ID: p.id, Time: time.Now().UTC(), Plan: c.cfg.Plan, Parts: map[string]checkpoint.Part{}}
	c.mu.Lock()
	for _, part := range c.parts {
		if c.finished[part] {
			meta.Finished = append(meta.Finished, part)
			if last, ok := c.last[part]; ok {
				p.state[part] = last
			}
		}
	}
	c.mu.Unlock()
	for part, data := range p.state {
		if err := store.WriteState(ctx, c.cfg.Job, p.id, part, data); err != nil {
			return err
		}
		meta.Parts[part] = checkpoint.PartOf(data)
	}
	if err := c.storeShared(ctx, store, p, meta); err != nil {
		return err
	}
	if err := store.Complete(ctx, meta); err != nil {
		return err
	}
	if !prune {
		return nil
	}
	return checkpoint.Prune(ctx, store, c.cfg.Job, c.cfg.Retained)
}

// storeShared writes the shared files the parts refer to that store does
// not hold yet, and lists every one in meta. A file is read from where
// the instance left it and checked against its name, its SHA-256.
func (c *coordinator) storeShared(ctx context.Context, store checkpoint.Storage, p *pendingCheckpoint, meta *checkpoint.Metadata) error {
	if len(p.files) == 0 {
		return nil
	}
	names, err := store.Shared(ctx, c.cfg.Job)
	if err != nil {
		return err
	}
	stored := map[string]bool{}
	for _, n := range names {
		stored[n] = true
	}
	meta.Shared = map[string]checkpoint.Part{}
	for _, files := range p.files {
		for _, f := range files.files {
			if _, done := meta.Shared[f.Name]; done {
				continue
			}
			if stored[f.Name] {
				meta.Shared[f.Name] = checkpoint.Part{Size: f.Size, SHA256: f.Name}
				continue
			}
			data, err := os.ReadFile(f.Path)
			if err != nil {
				return err
			}
			part := checkpoint.PartOf(data)
			if part.SHA256 != f.Name || part.Size != f.Size {
				return fmt.Errorf("state file %s changed after the snapshot", f.Path)
			}
			if err := store.WriteShared(ctx, c.cfg.Job, f.Name, data); err != nil {
				return err
			}
			meta.Shared[f.Name] = part
		}
	}
	return nil
}

// aligner tracks, for one operator instance, which upstream instances have
// sent the barrier of the checkpoint being taken.
type aligner struct {
	exactlyOnce bool
	// id is the checkpoint being aligned, 0 when none.
	id int64
	// got and ended are per input, per sender.
	got, ended [][]bool
	missing    int // live senders whose barrier has not arrived
	// held are messages from senders past their barrier, held back until
	// the barrier is complete (exactly-once only), in arrival order.
	held []envelope
}

func newAligner(senders []int, exactlyOnce bool) *aligner {
	a := &aligner{exactlyOnce: exactlyOnce, got: make([][]bool, len(senders)), ended: make([][]bool, len(senders))}
	for n, c := range senders {
		a.got[n] = make([]bool, c)
		a.ended[n] = make([]bool, c)
	}
	return a
}

// holds reports whether env must wait for the current barrier: it comes
// from a sender whose barrier has already arrived, and either alignment is
// exactly-once or env is the sender's next barrier (which must wait for
// this one to complete in any mode).
func (a *aligner) holds(env envelope) bool {
	if a.id == 0 || env.kind == msgComplete || !a.got[env.input][env.sender] {
		return false
	}
	return a.exactlyOnce || env.kind == msgBarrier
}

// barrier records the barrier of checkpoint id from a sender and reports
// whether it is now complete.
func (a *aligner) barrier(env envelope) bool {
	if a.id == 0 {
		a.id = env.wm
		a.missing = 0
		for n := range a.got {
			for k := range a.got[n] {
				a.got[n][k] = false
				if !a.ended[n][k] {
					a.missing++
				}
			}
		}
	}
	if env.wm != a.id || a.got[env.input][env.sender] {
		return false // a stale barrier, or a repeated one
	}
	a.got[env.input][env.sender] = true
	a.missing--
	return a.missing == 0
}

// end records that a sender ended and reports whether that completes the
// barrier being aligned.
func (a *aligner) end(input, sender int) bool {
	a.ended[input][sender] = true
	if a.id == 0 || a.got[input][sender] {
		return false
	}
	a.got[input][sender] = true
	a.missing--
	return a.missing == 0
}

// complete finishes the current barrier and returns the held messages.
func (a *aligner) complete() (int64, []envelope) {
	id, held := a.id, a.held
	a.id, a.held = 0, nil
	return id, held
}

// partVersion is the first byte of every part of a checkpoint. Parts
// before 3 held watermarks in nanoseconds, not microseconds.
const partVersion = 3

// partHeader starts every part of a checkpoint: where the instance ran,
// so that a restore at another parallelism knows which key groups it
// owned, and, for an operator, the watermark it had reached at the
// barrier (Flink does not keep it, so a restored window operator would
// take rows that were late before for new windows; Sluice does). A
// source's watermark is MinWatermark.
type partHeader struct {
	wm                                    int64
	maxParallelism, parallelism, instance int
}

// keyGroups returns the key groups the instance owned.
func (h partHeader) keyGroups() KeyGroupRange {
	return KeyGroupsOf(h.instance, h.parallelism, h.maxParallelism)
}

// encodePart is an instance's part of a checkpoint: its header, then its
// own state, if any.
func encodePart(h partHeader, state []byte) []byte {
	b := binary.AppendVarint([]byte{partVersion}, h.wm)
	b = binary.AppendUvarint(b, uint64(h.maxParallelism))
	b = binary.AppendUvarint(b, uint64(h.parallelism))
	b = binary.AppendUvarint(b, uint64(h.instance))
	return append(b, state...)
}

// PartState returns the instance's own state in a part of a checkpoint,
// without the header the runtime puts before it: what the instance's
// SnapshotState returned (empty for a finished source instance).
func PartState(part []byte) ([]byte, error) {
	_, st, err := decodePart(part)
	return st, err
}

// decodePart reads what encodePart wrote.
func decodePart(b []byte) (partHeader, []byte, error) {
	if len(b) == 0 || b[0] != partVersion {
		return partHeader{}, nil, errors.New("not an instance's state of a known version")
	}
	r := state.NewReader(b[1:])
	h := partHeader{wm: r.Varint()}
	maxP, p, i := r.Uvarint(), r.Uvarint(), r.Uvarint()
	if err := r.Err(); err != nil {
		return partHeader{}, nil, fmt.Errorf("corrupt state header: %w", err)
	}
	if maxP < 1 || maxP > UpperBoundMaxParallelism || p < 1 || p > MaxInstances || i >= p {
		return partHeader{}, nil, fmt.Errorf("corrupt state header: instance %d of %d, max parallelism %d", i, p, maxP)
	}
	h.maxParallelism, h.parallelism, h.instance = int(maxP), int(p), int(i)
	return h, r.Rest(), nil
}
