package runtime

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/checkpoint"
	"github.com/sluicesql/sluice/internal/types"
)

// countingSource emits the numbers from its position up to end, a few per
// chunk, and takes part in checkpoints: its state is its position. It
// waits at gate (if set) before each chunk, so a test can hold it.
type countingSource struct {
	next, end int64
	gate      chan struct{}
}

func (s *countingSource) Run(ctx *SourceContext, out Emitter) error {
	for s.next < s.end {
		select {
		case <-ctx.CheckpointRequested():
			ctx.EmitBarriers()
		case <-ctx.Ctx.Done():
			return nil
		default:
		}
		if s.gate != nil {
			select {
			case <-s.gate:
			case <-ctx.CheckpointRequested():
				ctx.EmitBarriers()
				continue
			case <-ctx.Ctx.Done():
				return nil
			}
		}
		c := types.NewChunk([]types.Type{types.BigIntType}, 3)
		for range 3 {
			if s.next == s.end {
				break
			}
			c.Cols[0].AppendInt(s.next)
			c.Ops = append(c.Ops, types.Insert)
			s.next++
		}
		out.Emit(c)
	}
	return nil
}

func (s *countingSource) SnapshotState(int64) ([]byte, error) {
	return binary.AppendVarint(nil, s.next), nil
}

func (s *countingSource) RestoreState(b []byte) error {
	n, k := binary.Varint(b)
	if k <= 0 {
		return errors.New("bad source state")
	}
	s.next = n
	return nil
}

// summer counts and sums the numbers it receives; its state is both.
type summer struct {
	forwardOp
	mu         sync.Mutex
	count, sum int64
	completed  []int64
}

func (s *summer) ProcessChunk(_ int, c *types.Chunk, _ Emitter) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range c.Len() {
		s.count++
		s.sum += c.Cols[0].I64[i]
	}
	return nil
}

func (s *summer) SnapshotState(int64) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return binary.AppendVarint(binary.AppendVarint(nil, s.count), s.sum), nil
}

func (s *summer) RestoreState(b []byte) error {
	c, k := binary.Varint(b)
	sum, k2 := binary.Varint(b[max(k, 0):])
	if k <= 0 || k2 <= 0 {
		return errors.New("bad summer state")
	}
	s.count, s.sum = c, sum
	return nil
}

func (s *summer) CheckpointComplete(id int64) error {
	s.mu.Lock()
	s.completed = append(s.completed, id)
	s.mu.Unlock()
	return nil
}

func (s *summer) totals() (int64, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count, s.sum
}

// countingGraph: two counting sources of n numbers each (offset so that
// their numbers differ), hashed by number to two summers.
func countingGraph(n int64, sources []*countingSource, summers []*summer, cfg *CheckpointConfig) *Graph {
	for i := range sources {
		if sources[i] == nil {
			sources[i] = &countingSource{next: int64(i) * n, end: int64(i+1) * n}
		}
	}
	for i := range summers {
		if summers[i] == nil {
			summers[i] = &summer{}
		}
	}
	return &Graph{Checkpoints: cfg, Stages: []*Stage{
		{Name: "numbers", ID: "src", Parallelism: len(sources), NewSource: func(i int) (Source, error) { return sources[i], nil }},
		{Name: "sum", ID: "sum", Parallelism: len(summers), Inputs: []Input{{Stage: 0, Exchange: Hash, Keys: []int{0}}},
			NewOperator: func(i int) (Operator, error) { return summers[i], nil }},
	}}
}

func decodeInts(t *testing.T, b []byte) []int64 {
	t.Helper()
	var out []int64
	for len(b) > 0 {
		v, k := binary.Varint(b)
		if k <= 0 {
			t.Fatalf("bad state %x", b)
		}
		out = append(out, v)
		b = b[k:]
	}
	return out
}

func newStorage(t *testing.T) checkpoint.Storage {
	t.Helper()
	d, err := checkpoint.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAlignedCheckpointsAreConsistent: in exactly-once mode every
// checkpoint's operator state reflects exactly the rows before the
// sources' barriers: the summers have counted as many numbers as the
// sources' positions say were emitted, and summed exactly those. (Without
// alignment this fails: see TestUnalignedCheckpointsCountAtLeastOnce.)
func TestAlignedCheckpointsAreConsistent(t *testing.T) {
	runCountingCheckpoints(t, ExactlyOnce)
}

// TestUnalignedCheckpointsCountAtLeastOnce: in at-least-once mode an
// operator does not hold back an input whose barrier came early, so its
// state may count rows after the barrier, never fewer than before it.
func TestUnalignedCheckpointsCountAtLeastOnce(t *testing.T) {
	runCountingCheckpoints(t, AtLeastOnce)
}

// gatedSources returns two countingSources, of the numbers [0, n) and
// [n, 2n), that run while feeders let them, short of their end, so that
// every checkpoint a test takes meanwhile falls while they emit; then
// runToEnd lets them run to their end.
func gatedSources(n int64) (sources []*countingSource, runToEnd func()) {
	gates, stop := []chan struct{}{make(chan struct{}), make(chan struct{})}, make(chan struct{})
	var feeders sync.WaitGroup
	for _, gate := range gates {
		feeders.Add(1)
		go func() {
			defer feeders.Done()
			for range n/3 - 10 {
				select {
				case gate <- struct{}{}:
				case <-stop:
					return
				}
			}
		}()
	}
	sources = []*countingSource{{next: 0, end: n, gate: gates[0]}, {next: n, end: 2 * n, gate: gates[1]}}
	return sources, func() {
		close(stop)
		feeders.Wait()
		for _, gate := range gates {
			close(gate)
		}
	}
}

func runCountingCheckpoints(t *testing.T, mode CheckpointMode) {
	const n = 20000
	store := newStorage(t)
	cfg := &CheckpointConfig{Storage: store, Job: "j", Retained: 100, Mode: mode}
	sources, runToEnd := gatedSources(n)
	summers := make([]*summer, 2)
	j, err := Start(context.Background(), countingGraph(n, sources, summers, cfg))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Cancel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ids := checkpointThenFinish(ctx, t, j, 5, runToEnd)
	for _, id := range ids {
		meta, err := store.Metadata(ctx, "j", id)
		if err != nil {
			t.Fatal(err)
		}
		var emitted, wantSum, counted, sum int64
		for i := range 2 {
			data, err := store.ReadState(ctx, "j", id, fmt.Sprintf("src-%d", i))
			if err != nil {
				t.Fatal(err)
			}
			_, state, err := decodePart(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(state) > 0 {
				next := decodeInts(t, state)[0]
				first := int64(i) * n
				emitted += next - first
				wantSum += (first + next - 1) * (next - first) / 2
			} else {
				// The source had ended: it emitted everything.
				if !slices.Contains(meta.Finished, fmt.Sprintf("src-%d", i)) {
					t.Fatalf("checkpoint %d: src-%d has no position and did not finish", id, i)
				}
				emitted += n
				wantSum += (int64(i)*n + int64(i+1)*n - 1) * n / 2
			}
			if data, err := store.ReadState(ctx, "j", id, fmt.Sprintf("sum-%d", i)); err == nil {
				_, state, err := decodePart(data)
				if err != nil {
					t.Fatal(err)
				}
				v := decodeInts(t, state)
				counted += v[0]
				sum += v[1]
			}
		}
		if mode == AtLeastOnce {
			if counted < emitted {
				t.Errorf("checkpoint %d: the summers counted %d numbers; the sources emitted %d", id, counted, emitted)
			}
			continue
		}
		if counted != emitted || sum != wantSum {
			t.Errorf("checkpoint %d: the summers counted %d numbers summing to %d; the sources emitted %d summing to %d", id, counted, sum, emitted, wantSum)
		}
	}
	for i, s := range summers {
		s.mu.Lock()
		if len(s.completed) == 0 {
			t.Errorf("summer %d was told of no completed checkpoint", i)
		}
		s.mu.Unlock()
	}
}

// TestRestoreFromCheckpoint: a job stopped after a checkpoint and started
// again from it counts every number exactly once in all.
func TestRestoreFromCheckpoint(t *testing.T) {
	const n = 5000
	store := newStorage(t)
	gate := make(chan struct{})
	sources := []*countingSource{{next: 0, end: n, gate: gate}, {next: n, end: 2 * n, gate: gate}}
	summers := make([]*summer, 2)
	j, err := Start(context.Background(), countingGraph(n, sources, summers, &CheckpointConfig{Storage: store, Job: "j", Retained: 1}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for range 300 { // let some numbers through
		gate <- struct{}{}
	}
	id, err := j.Checkpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 100 { // numbers past the checkpoint, lost with the job
		gate <- struct{}{}
	}
	j.Cancel()
	<-j.Done()

	meta, state, err := checkpoint.Latest(ctx, store, "j")
	if err != nil || meta.ID != id {
		t.Fatalf("latest checkpoint %v, %v; want %d", meta, err, id)
	}
	sources = []*countingSource{{end: n}, {end: 2 * n}}
	summers = make([]*summer, 2)
	cfg := &CheckpointConfig{Storage: store, Job: "j", Retained: 1, Restore: state, RestoredFrom: id}
	j, err = Start(context.Background(), countingGraph(n, sources, summers, cfg))
	if err != nil {
		t.Fatal(err)
	}
	<-j.Done()
	if err := j.Err(); err != nil {
		t.Fatal(err)
	}
	var count, sum int64
	for _, s := range summers {
		c, v := s.totals()
		count += c
		sum += v
	}
	if want := int64(2 * n); count != want || sum != want*(want-1)/2 {
		t.Fatalf("counted %d numbers summing to %d; want %d summing to %d", count, sum, want, want*(want-1)/2)
	}
	// The restored checkpoint counts as the job's latest; a job that has
	// ended takes no more.
	if got := j.CompletedCheckpoint(); got != id {
		t.Fatalf("completed checkpoint after restore: %d; want %d", got, id)
	}
	if _, err := j.Checkpoint(ctx); err == nil || !errors.Is(err, ErrJobEnded) {
		t.Fatalf("checkpoint of an ended job: %v", err)
	}
}

// TestRestoreRefusesForeignState: state for a part the plan does not have
// is an error naming it, not silently dropped.
func TestRestoreRefusesForeignState(t *testing.T) {
	cfg := &CheckpointConfig{Storage: newStorage(t), Job: "j", Restore: map[string][]byte{"gone-0": {1}}, RestoredFrom: 3}
	_, err := Start(context.Background(), countingGraph(10, make([]*countingSource, 1), make([]*summer, 1), cfg))
	if err == nil || err.Error() != "the checkpoint holds state for gone-0, which is no part of this plan" {
		t.Fatalf("got %v", err)
	}
}

// TestFinishedSourceStaysFinished: a source instance that had ended by a
// checkpoint is recorded as finished and does not start over when the job
// is restored from it.
func TestFinishedSourceStaysFinished(t *testing.T) {
	store := newStorage(t)
	gate := make(chan struct{})
	sources := []*countingSource{{next: 0, end: 10}, {next: 10, end: 20, gate: gate}}
	summers := make([]*summer, 1)
	j, err := Start(context.Background(), countingGraph(10, sources, summers, &CheckpointConfig{Storage: store, Job: "j"}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for { // until source 0 has ended
		j.coord.mu.Lock()
		ended := j.coord.finished["src-0"]
		j.coord.mu.Unlock()
		if ended {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("source 0 did not end")
		case <-time.After(time.Millisecond):
		}
	}
	if _, err := j.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	j.Cancel()
	<-j.Done()
	meta, state, err := checkpoint.Latest(ctx, store, "j")
	if err != nil {
		t.Fatal(err)
	}
	if len(meta.Finished) != 1 || meta.Finished[0] != "src-0" {
		t.Fatalf("finished parts %v, want [src-0]", meta.Finished)
	}
	sources = []*countingSource{{next: 0, end: 10}, {next: 10, end: 20}}
	summers = make([]*summer, 1)
	j, err = Start(context.Background(), countingGraph(10, sources, summers, &CheckpointConfig{Storage: store, Job: "j",
		Restore: state, RestoredFrom: meta.ID, Finished: meta.Finished}))
	if err != nil {
		t.Fatal(err)
	}
	<-j.Done()
	if c, s := summers[0].totals(); c != 20 || s != 190 {
		t.Fatalf("counted %d numbers summing to %d, want 20 summing to 190", c, s)
	}
}

func TestPartNames(t *testing.T) {
	for _, c := range []struct {
		s    Stage
		n, i int
		want string
	}{
		{Stage{Name: "sum", ID: "sum"}, 1, 0, "sum-0"},
		{Stage{Name: "Source: t"}, 0, 3, "0-Source__t-3"},
		{Stage{Name: "Calc"}, 2, 1, "2-Calc-1"},
		{Stage{Name: "Calc"}, 4, 1, "4-Calc-1"},
		{Stage{ID: "../x"}, 0, 0, "___x-0"},
	} {
		if got := partName(&c.s, c.n, c.i); got != c.want {
			t.Errorf("partName(%+v, %d, %d) = %q, want %q", c.s, c.n, c.i, got, c.want)
		}
	}
}

// wmSink records the watermarks it is given; it keeps no state.
type wmSink struct{ wmRecorder }

// TestRestoredOperatorKeepsItsWatermark: an operator restored from a
// checkpoint starts at the watermark it had reached, before any input, so
// that what was late before the checkpoint is late after it.
func TestRestoredOperatorKeepsItsWatermark(t *testing.T) {
	store := newStorage(t)
	graph := func(cfg *CheckpointConfig, wm int64, rec *wmSink) *Graph {
		return &Graph{Checkpoints: cfg, Stages: []*Stage{
			{Name: "wm", ID: "wm", Parallelism: 1, NewSource: func(int) (Source, error) { return &barrierWmSource{wm: wm}, nil }},
			{Name: "rec", ID: "rec", Parallelism: 1, Inputs: []Input{{Stage: 0, Exchange: Single}},
				NewOperator: func(int) (Operator, error) { return rec, nil }},
		}}
	}
	rec := &wmSink{}
	j, err := Start(context.Background(), graph(&CheckpointConfig{Storage: store, Job: "j"}, 500, rec))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for rec.last() != 500 {
		if ctx.Err() != nil {
			t.Fatal("no watermark 500")
		}
		time.Sleep(time.Millisecond)
	}
	id, err := j.Checkpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	j.Cancel()
	<-j.Done()
	_, state, err := checkpoint.Latest(ctx, store, "j")
	if err != nil {
		t.Fatal(err)
	}
	// The restored source emits only an older watermark: the operator
	// stays at 500.
	rec2 := &wmSink{}
	j, err = Start(context.Background(), graph(&CheckpointConfig{Storage: store, Job: "j", Restore: state, RestoredFrom: id}, 100, rec2))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Cancel()
	for len(rec2.seen()) == 0 {
		if ctx.Err() != nil {
			t.Fatal("no watermark after the restore")
		}
		time.Sleep(time.Millisecond)
	}
	if got := rec2.seen(); got[0] != 500 || slices.Contains(got, 100) {
		t.Fatalf("watermarks after the restore: %v, want 500 first and never 100", got)
	}
}

// barrierWmSource emits one watermark, then serves barriers until the job
// stops.
type barrierWmSource struct{ wm int64 }

func (s *barrierWmSource) Run(ctx *SourceContext, out Emitter) error {
	out.EmitWatermark(s.wm)
	for {
		select {
		case <-ctx.CheckpointRequested():
			ctx.EmitBarriers()
		case <-ctx.Ctx.Done():
			return nil
		}
	}
}

func (r *wmSink) seen() []int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.wms)
}

// deafSource emits nothing and never answers a checkpoint request: it
// only waits for the job to stop.
type deafSource struct{}

func (deafSource) Run(ctx *SourceContext, _ Emitter) error {
	<-ctx.Ctx.Done()
	return nil
}

// TestCancelledCheckpointIsNotWritten: a job cancelled while a checkpoint
// waits for acknowledgements fails that checkpoint; the parts collected
// so far are not a state of the job and are never written as complete,
// and Done waits for the checkpoint to give up.
func TestCancelledCheckpointIsNotWritten(t *testing.T) {
	store := newStorage(t)
	summers := []*summer{{}}
	g := countingGraph(1, nil, summers, &CheckpointConfig{Storage: store, Job: "j"})
	g.Stages[0].Parallelism = 1
	g.Stages[0].NewSource = func(int) (Source, error) { return deafSource{}, nil }
	j, err := Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	result := make(chan error, 1)
	go func() {
		_, err := j.Checkpoint(ctx)
		result <- err
	}()
	for { // until the checkpoint waits for the source
		j.coord.mu.Lock()
		pending := j.coord.pending != nil
		j.coord.mu.Unlock()
		if pending {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the checkpoint did not start")
		case <-time.After(time.Millisecond):
		}
	}
	j.Cancel()
	<-j.Done()
	j.coord.mu.Lock()
	pending := j.coord.pending != nil
	j.coord.mu.Unlock()
	if pending {
		t.Fatal("Done came before the checkpoint gave up")
	}
	select {
	case err = <-result:
	case <-ctx.Done():
		t.Fatal("the checkpoint did not return")
	}
	if err == nil || err.Error() != "checkpoint 1: the job stopped before 2 of its instances took part" {
		t.Fatalf("checkpoint of a cancelled job: %v", err)
	}
	if meta, _, err := checkpoint.Latest(ctx, store, "j"); err == nil {
		t.Fatalf("checkpoint %d was written", meta.ID)
	}
}

// checkpointThenFinish takes n checkpoints of the running job j, then
// lets its gated sources run to their end (runToEnd) and waits for the
// job to end without an error; it returns the checkpoints' IDs.
func checkpointThenFinish(ctx context.Context, t *testing.T, j *Job, n int, runToEnd func()) []int64 {
	t.Helper()
	var ids []int64
	for len(ids) < n {
		id, err := j.Checkpoint(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	runToEnd()
	<-j.Done()
	if err := j.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}
