package runtime

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sluicesql/sluice/internal/state"
)

// Restoring a job from a checkpoint. A stage restored at the parallelism
// its state was taken at gets its parts one to one, by name. At another
// parallelism its state is redistributed, after Flink's
// StateAssignmentOperation: an operator instance takes the key groups it
// now owns from the parts of the old instances whose key groups overlap
// its own (keyed state; see state.Backend), and the watermark it starts
// from is the least of theirs that had one; a source instance is given the state of
// every old instance and keeps what it now owns (UnionRestorer, as
// Flink's sources reassign their splits).

// UnionRestorer is implemented by sources and operators whose own state
// (Snapshotter) can be restored at another parallelism: RestoreUnion
// installs the state of every instance of the earlier run, of which the
// instance keeps what it now owns (the Kafka source: the positions of the
// partitions assigned to it). It is called before the instance starts, in
// place of RestoreState.
type UnionRestorer interface {
	RestoreUnion(parts [][]byte) error
}

// oldStage is the state a checkpoint holds for one stage.
type oldStage struct {
	// parts are the stored parts by instance; finished the instances
	// that had ended.
	parts    map[int][]byte
	finished map[int]bool
	// Once decoded: the parts' headers and states, and the parallelism
	// the state was taken at (0 when no part says).
	decoded                     bool
	headers                     map[int]partHeader
	states                      map[int][]byte
	parallelism, maxParallelism int
	claimed                     bool
}

// restorer hands the state of a checkpoint to the instances of a job.
type restorer struct {
	cfg *CheckpointConfig
	// files reads the shared files the parts refer to (nil: none).
	files          state.FileSource
	maxParallelism int
	stages         map[string]*oldStage
	// unnamed are parts whose names name no instance of any stage.
	unnamed []string
}

// splitPart splits a part name into its stage's name and its instance.
func splitPart(name string) (string, int, bool) {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(name[i+1:])
	if err != nil || n < 0 || strconv.Itoa(n) != name[i+1:] {
		return "", 0, false
	}
	return name[:i], n, true
}

func newRestorer(ctx context.Context, cfg *CheckpointConfig, maxParallelism int) *restorer {
	r := &restorer{cfg: cfg, maxParallelism: maxParallelism, stages: map[string]*oldStage{}}
	if cfg.Files != nil {
		r.files = func(name string) ([]byte, error) { return cfg.Files(ctx, name) }
	}
	stage := func(name string) *oldStage {
		s := r.stages[name]
		if s == nil {
			s = &oldStage{parts: map[int][]byte{}, finished: map[int]bool{}}
			r.stages[name] = s
		}
		return s
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Restore)) {
		if st, i, ok := splitPart(name); ok {
			stage(st).parts[i] = cfg.Restore[name]
		} else {
			r.unnamed = append(r.unnamed, name)
		}
	}
	for _, name := range cfg.Finished {
		if st, i, ok := splitPart(name); ok {
			stage(st).finished[i] = true
		}
	}
	return r
}

// errorf names the checkpoint in a restore error.
func (r *restorer) errorf(format string, args ...any) error {
	return fmt.Errorf("restoring from checkpoint %d: %s", r.cfg.RestoredFrom, fmt.Sprintf(format, args...))
}

// stage returns the decoded state of the stage whose parts are named
// after name, nil when the checkpoint holds none.
func (r *restorer) stage(name string) (*oldStage, error) {
	s := r.stages[name]
	if s == nil {
		return nil, nil
	}
	s.claimed = true
	if s.decoded {
		return s, nil
	}
	s.decoded = true
	s.headers, s.states = map[int]partHeader{}, map[int][]byte{}
	for _, i := range slices.Sorted(maps.Keys(s.parts)) {
		part := fmt.Sprintf("%s-%d", name, i)
		h, st, err := decodePart(s.parts[i])
		if err != nil {
			return nil, r.errorf("%s: %v", part, err)
		}
		if h.instance != i {
			return nil, r.errorf("%s holds the state of instance %d", part, h.instance)
		}
		if s.parallelism != 0 && h.parallelism != s.parallelism {
			return nil, r.errorf("the parts of %s were taken at parallelism %d and %d", name, s.parallelism, h.parallelism)
		}
		if s.maxParallelism != 0 && h.maxParallelism != s.maxParallelism {
			return nil, r.errorf("the parts of %s were taken with %d and %d key groups", name, s.maxParallelism, h.maxParallelism)
		}
		s.parallelism, s.maxParallelism = h.parallelism, h.maxParallelism
		s.headers[i], s.states[i] = h, st
	}
	for i := range s.finished {
		if s.parallelism != 0 && i >= s.parallelism {
			return nil, r.errorf("%s-%d had finished, but the stage ran %d instances", name, i, s.parallelism)
		}
	}
	return s, nil
}

// sameParallelism reports whether a stage's state was taken at
// parallelism p (or holds nothing that depends on it).
func (s *oldStage) sameParallelism(p int) bool {
	if s.parallelism != 0 {
		return s.parallelism == p
	}
	// Only finished instances: those of another parallelism name one
	// beyond p, or else are taken by name.
	return s.finishedInstances() <= p
}

// finishedInstances returns one more than the highest finished instance.
func (s *oldStage) finishedInstances() int {
	n := 0
	for i := range s.finished {
		n = max(n, i+1)
	}
	return n
}

// restoreOperator restores instance k of p of the stage whose parts are
// named after name, and returns the watermark it starts from.
func (r *restorer) restoreOperator(name string, k, p int, op Operator) (int64, error) {
	s, err := r.stage(name)
	if s == nil || err != nil {
		return MinWatermark, err
	}
	part := fmt.Sprintf("%s-%d", name, k)
	if _, keyed := op.(Stateful); keyed && s.maxParallelism != 0 && s.maxParallelism != r.maxParallelism && max(s.parallelism, p) > 1 {
		return MinWatermark, r.errorf("the state of %s was taken with %d key groups ('pipeline.max-parallelism'), the job has %d: keyed state restores only with the maximum parallelism it was taken with",
			name, s.maxParallelism, r.maxParallelism)
	}
	if s.sameParallelism(p) {
		h, ok := s.headers[k]
		if !ok {
			return MinWatermark, nil
		}
		if st := s.states[k]; len(st) > 0 {
			if err := r.install(part, op, [][]byte{st}, state.AllKeyGroups); err != nil {
				return MinWatermark, err
			}
		}
		return restoredFloor(h.wm), nil
	}
	// At another parallelism: the key groups this instance owns, from
	// every old instance that owned some of them, and the least of their
	// watermarks. An old instance that had seen no watermark (its inputs
	// idle, as behind a source instance without partitions) says nothing
	// about time, as idle inputs are left out of a merged watermark.
	owned := KeyGroupsOf(k, p, r.maxParallelism)
	floor, timed := MaxWatermark, false
	var states [][]byte
	for _, i := range slices.Sorted(maps.Keys(s.headers)) {
		h := s.headers[i]
		if !h.keyGroups().Intersects(owned) {
			continue
		}
		if h.wm != MinWatermark {
			floor, timed = min(floor, h.wm), true
		}
		if st := s.states[i]; len(st) > 0 {
			states = append(states, st)
		}
	}
	if !timed {
		floor = MinWatermark
	}
	floor = restoredFloor(floor)
	if len(states) == 0 {
		return floor, nil
	}
	switch op.(type) {
	case Stateful:
		if err := r.install(part, op, states, owned); err != nil {
			return MinWatermark, err
		}
	case UnionRestorer:
		if err := r.union(part, op, s); err != nil {
			return MinWatermark, err
		}
	default:
		return MinWatermark, r.errorf("the state of %s was taken at parallelism %d and can only be restored at that parallelism, not %d", name, s.parallelism, p)
	}
	return floor, nil
}

// union gives an instance the state of every instance of its stage.
func (r *restorer) union(part string, inst any, s *oldStage) error {
	u, ok := inst.(UnionRestorer)
	if !ok {
		return r.errorf("the state of %s was taken at parallelism %d and can only be restored at that parallelism", part, s.parallelism)
	}
	var states [][]byte
	for _, i := range slices.Sorted(maps.Keys(s.states)) {
		if len(s.states[i]) > 0 {
			states = append(states, s.states[i])
		}
	}
	if err := u.RestoreUnion(states); err != nil {
		return r.errorf("%s: %v", part, err)
	}
	return nil
}

// install restores an operator's state from one or more parts.
func (r *restorer) install(part string, op Operator, states [][]byte, groups KeyGroupRange) error {
	var err error
	switch s := op.(type) {
	case Stateful:
		err = s.State().Restore(states, groups, r.files)
	case Snapshotter:
		err = s.RestoreState(states[0])
	default:
		return r.errorf("the checkpoint holds state for %s, which keeps none", part)
	}
	if err != nil {
		return r.errorf("%s: %v", part, err)
	}
	return nil
}

// restoreSource restores instance k of p of the source stage whose parts
// are named after name, and reports whether the instance had finished.
func (r *restorer) restoreSource(name string, k, p int, src Source) (bool, error) {
	s, err := r.stage(name)
	if s == nil || err != nil {
		return false, err
	}
	part := fmt.Sprintf("%s-%d", name, k)
	if s.sameParallelism(p) {
		st := s.states[k]
		if len(st) == 0 {
			return s.finished[k], nil
		}
		sn, keeps := src.(Snapshotter)
		if !keeps {
			return false, r.errorf("the checkpoint holds state for %s, which keeps none", part)
		}
		if err := sn.RestoreState(st); err != nil {
			return false, r.errorf("%s: %v", part, err)
		}
		return s.finished[k], nil
	}
	// At another parallelism. Every old instance had finished: so has
	// every new one.
	old := max(s.parallelism, s.finishedInstances())
	if len(s.finished) == old {
		return true, nil
	}
	if len(s.finished) > 0 {
		// The finished instances' work goes to the new ones, which
		// need their final state to know where it ended.
		_, union := src.(UnionRestorer)
		for i := range s.finished {
			if !union || len(s.states[i]) == 0 {
				return false, r.errorf("%d of the %d instances of %s had finished, which leaves their progress unknown: restore it at parallelism %d",
					len(s.finished), old, name, old)
			}
		}
	}
	for _, st := range s.states {
		if len(st) > 0 {
			return false, r.union(part, src, s)
		}
	}
	return false, nil
}

// unclaimed returns an error for state that no stage of the job took,
// unless the configuration ignores it.
func (r *restorer) unclaimed() error {
	if r.cfg.IgnoreUnclaimed {
		return nil
	}
	names := slices.Clone(r.unnamed)
	for name, s := range r.stages {
		if !s.claimed && len(s.parts) > 0 {
			for i := range s.parts {
				names = append(names, fmt.Sprintf("%s-%d", name, i))
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	return &UnclaimedStateError{Part: names[0]}
}

// UnclaimedStateError refuses a restore: the checkpoint holds state for
// Part (a stage's name and instance), which no stage of the job has.
type UnclaimedStateError struct {
	Part string
}

// Error names the first part left over.
func (e *UnclaimedStateError) Error() string {
	return fmt.Sprintf("the checkpoint holds state for %s, which is no part of this plan", e.Part)
}

// restoredFloor is the watermark a restored operator instance starts
// from, given the one its part was taken at. The maximum watermark is
// what a savepoint that drained the job holds: every timer has fired, and
// the restored job's time starts anew, as a restored Flink job's
// watermarks do, so that its new input is not all late.
func restoredFloor(wm int64) int64 {
	if wm == MaxWatermark {
		return MinWatermark
	}
	return wm
}
