package runtime

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/checkpoint"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// keyedCounter counts the rows of each key (column 0) in a keyed state
// table, as keyed SQL operators keep their state.
type keyedCounter struct {
	forwardOp
	mu     sync.Mutex
	st     *state.Memory
	counts *state.Table[int64]
	key    []byte
}

func newKeyedCounter() *keyedCounter {
	k := &keyedCounter{st: state.NewMemory()}
	k.counts = state.NewTable(k.st, "counts", state.Int64Codec)
	return k
}

func (k *keyedCounter) State() state.Backend { return k.st }

func (k *keyedCounter) ProcessChunk(_ int, c *types.Chunk, _ Emitter) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	for i := range c.Len() {
		k.key = state.AppendChunkKey(k.key[:0], c, i, []int{0})
		n, _ := k.counts.Get(k.key)
		k.counts.Put(k.key, n+1)
	}
	return nil
}

// keyedGraph: one counting source of n numbers, hashed by number into
// len(counters) keyed counters, over 8 key groups.
func keyedGraph(n int64, src *countingSource, counters []*keyedCounter, cfg *CheckpointConfig) *Graph {
	for i := range counters {
		counters[i] = newKeyedCounter()
	}
	return &Graph{MaxParallelism: 8, Checkpoints: cfg, Stages: []*Stage{
		{Name: "numbers", ID: "src", Parallelism: 1, NewSource: func(int) (Source, error) { return src, nil }},
		{Name: "count", ID: "count", Parallelism: len(counters), Inputs: []Input{{Stage: 0, Exchange: Hash, Keys: []int{0}}},
			NewOperator: func(i int) (Operator, error) { return counters[i], nil }},
	}}
}

// checkCounted checks that the counters hold every number below n once,
// each on the instance that owns its key group.
func checkCounted(t *testing.T, n int64, counters []*keyedCounter) {
	t.Helper()
	seen := map[string]int64{}
	for i, k := range counters {
		owned := KeyGroupsOf(i, len(counters), 8)
		for key, c := range k.counts.All() {
			if g := KeyGroupFor(KeyHash([]byte(key)), 8); !owned.Contains(g) {
				t.Errorf("instance %d of %d holds a key of group %d, outside its groups %d-%d", i, len(counters), g, owned.Start, owned.End)
			}
			seen[key] += c
		}
	}
	for v := range n {
		key := state.AppendKey(nil, []types.Type{types.BigIntType}, types.Row{types.IntValue(v)})
		if c := seen[string(key)]; c != 1 {
			t.Errorf("number %d counted %d times, want once", v, c)
		}
	}
	if int64(len(seen)) != n {
		t.Errorf("%d keys counted, want %d", len(seen), n)
	}
}

// checkpointPart runs a gated job until some numbers passed, checkpoints
// it, lets more through (lost with the job) and cancels it.
func checkpointPart(t *testing.T, g *Graph, gate chan struct{}) (int64, map[string][]byte) {
	t.Helper()
	j, err := Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for range 40 {
		gate <- struct{}{}
	}
	id, err := j.Checkpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		gate <- struct{}{}
	}
	j.Cancel()
	<-j.Done()
	meta, st, err := checkpoint.Latest(ctx, g.Checkpoints.Storage, g.Checkpoints.Job)
	if err != nil || meta.ID != id {
		t.Fatalf("latest checkpoint %v, %v; want %d", meta, err, id)
	}
	return id, st
}

// TestRestoreAtAnotherParallelism: keyed state taken at parallelism 2
// restores at 3 and, through a checkpoint at 3, at 1; each time every
// number is counted exactly once, on the instance owning its key group.
func TestRestoreAtAnotherParallelism(t *testing.T) {
	const n = 300
	store := newStorage(t)
	gate := make(chan struct{})
	id, st := checkpointPart(t, keyedGraph(n, &countingSource{end: n, gate: gate}, make([]*keyedCounter, 2),
		&CheckpointConfig{Storage: store, Job: "a"}), gate)

	run := func(counters []*keyedCounter, cfg *CheckpointConfig) {
		t.Helper()
		j, err := Start(context.Background(), keyedGraph(n, &countingSource{end: n}, counters, cfg))
		if err != nil {
			t.Fatal(err)
		}
		<-j.Done()
		if err := j.Err(); err != nil {
			t.Fatal(err)
		}
		checkCounted(t, n, counters)
	}
	// At 3, to the end.
	run(make([]*keyedCounter, 3), &CheckpointConfig{Job: "b", Restore: st, RestoredFrom: id})

	// At 3 again, checkpointed half way, then at 1 to the end.
	id2, st2 := checkpointPart(t, keyedGraph(n, &countingSource{end: n, gate: gate}, make([]*keyedCounter, 3),
		&CheckpointConfig{Storage: store, Job: "c", Restore: st, RestoredFrom: id}), gate)
	if id2 != id+1 {
		t.Fatalf("checkpoint %d after restoring %d", id2, id)
	}
	run(make([]*keyedCounter, 1), &CheckpointConfig{Job: "d", Restore: st2, RestoredFrom: id2})
}

// TestRestoreAtAnotherParallelismRefuses: state that is not keyed, and
// keyed state of another max parallelism, restore only as they were
// taken; the errors say why.
func TestRestoreAtAnotherParallelismRefuses(t *testing.T) {
	store := newStorage(t)
	gate := make(chan struct{})
	id, st := checkpointPart(t, countingGraph(1000, []*countingSource{{end: 1000, gate: gate}}, make([]*summer, 2),
		&CheckpointConfig{Storage: store, Job: "a"}), gate)
	_, err := Start(context.Background(), countingGraph(1000, make([]*countingSource, 1), make([]*summer, 3),
		&CheckpointConfig{Job: "b", Restore: st, RestoredFrom: id}))
	if err == nil || !strings.Contains(err.Error(), "the state of sum was taken at parallelism 2 and can only be restored at that parallelism, not 3") {
		t.Fatalf("got %v", err)
	}

	id, st = checkpointPart(t, keyedGraph(300, &countingSource{end: 300, gate: gate}, make([]*keyedCounter, 2),
		&CheckpointConfig{Storage: store, Job: "c"}), gate)
	g := keyedGraph(300, &countingSource{end: 300}, make([]*keyedCounter, 2), &CheckpointConfig{Job: "d", Restore: st, RestoredFrom: id})
	g.MaxParallelism = 16
	_, err = Start(context.Background(), g)
	if err == nil || !strings.Contains(err.Error(), "the state of count was taken with 8 key groups ('pipeline.max-parallelism'), the job has 16") {
		t.Fatalf("got %v", err)
	}
}

// TestRestoredWatermarkAtAnotherParallelism: an instance restored at
// another parallelism starts at the least watermark of the old instances
// whose key groups it takes, leaving out those that had seen none.
func TestRestoredWatermarkAtAnotherParallelism(t *testing.T) {
	parts := map[string][]byte{}
	for i, wm := range []int64{10, 20, MinWatermark, 30} {
		parts["op-"+string(rune('0'+i))] = encodePart(partHeader{wm: wm, maxParallelism: 8, parallelism: 4, instance: i}, nil)
	}
	for _, c := range []struct {
		p    int
		want []int64
	}{
		// Old instance i owned groups 2i and 2i+1.
		{3, []int64{10, 20, 30}}, // new groups 0-2, 3-5, 6-7
		{1, []int64{10}},
		{2, []int64{10, 30}},
		{8, []int64{10, 10, 20, 20, MinWatermark, MinWatermark, 30, 30}},
		{4, []int64{10, 20, MinWatermark, 30}},
	} {
		rs := newRestorer(context.Background(), &CheckpointConfig{Restore: parts, RestoredFrom: 1}, 8)
		for k, want := range c.want {
			got, err := rs.restoreOperator("op", k, c.p, forwardOp{})
			if err != nil || got != want {
				t.Errorf("instance %d of %d starts at %d, %v; want %d", k, c.p, got, err, want)
			}
		}
		if err := rs.unclaimed(); err != nil {
			t.Error(err)
		}
	}
}

// unionSource records the states it is restored from.
type unionSource struct {
	countingSource
	union [][]byte
}

func (u *unionSource) RestoreUnion(parts [][]byte) error {
	u.union = parts
	return nil
}

// TestSourceRestoresUnionAtAnotherParallelism: a source at another
// parallelism is given the state of every old instance (UnionRestorer);
// one that cannot take it, or whose old instances partly finished without
// leaving their final state, is refused; one whose old instances all
// finished finishes; partly finished ones with their final state hand it
// on with the others'.
func TestSourceRestoresUnionAtAnotherParallelism(t *testing.T) {
	part := func(i, p int, state string) []byte {
		return encodePart(partHeader{wm: MinWatermark, maxParallelism: 8, parallelism: p, instance: i}, []byte(state))
	}
	rs := newRestorer(context.Background(), &CheckpointConfig{Restore: map[string][]byte{"s-0": part(0, 2, "a"), "s-1": part(1, 2, "b")}, RestoredFrom: 4}, 8)
	for k := range 3 {
		u := &unionSource{}
		finished, err := rs.restoreSource("s", k, 3, u)
		if err != nil || finished || len(u.union) != 2 || string(u.union[0]) != "a" || string(u.union[1]) != "b" {
			t.Fatalf("instance %d: %q, %v, %v", k, u.union, finished, err)
		}
	}
	if _, err := rs.restoreSource("s", 0, 1, &countingSource{}); err == nil || !strings.Contains(err.Error(), "can only be restored at that parallelism") {
		t.Fatalf("a source without union restore: %v", err)
	}
	rs = newRestorer(context.Background(), &CheckpointConfig{Restore: map[string][]byte{"s-0": part(0, 2, ""), "s-1": part(1, 2, "b")}, Finished: []string{"s-0"}, RestoredFrom: 4}, 8)
	if _, err := rs.restoreSource("s", 0, 3, &unionSource{}); err == nil || !strings.Contains(err.Error(), "1 of the 2 instances of s had finished") {
		t.Fatalf("a partly finished source: %v", err)
	}
	rs = newRestorer(context.Background(), &CheckpointConfig{Restore: map[string][]byte{"s-0": part(0, 2, "end"), "s-1": part(1, 2, "b")}, Finished: []string{"s-0"}, RestoredFrom: 4}, 8)
	for k := range 3 {
		u := &unionSource{}
		finished, err := rs.restoreSource("s", k, 3, u)
		if err != nil || finished || len(u.union) != 2 || string(u.union[0]) != "end" || string(u.union[1]) != "b" {
			t.Fatalf("instance %d of a partly finished source with its final state: %q, %v, %v", k, u.union, finished, err)
		}
	}
	// Finished instances leave parts of their header alone.
	rs = newRestorer(context.Background(), &CheckpointConfig{Restore: map[string][]byte{"s-0": part(0, 2, ""), "s-1": part(1, 2, "")},
		Finished: []string{"s-0", "s-1"}, RestoredFrom: 4}, 8)
	for k := range 3 {
		if finished, err := rs.restoreSource("s", k, 3, &unionSource{}); err != nil || !finished {
			t.Fatalf("instance %d of a finished source: %v, %v", k, finished, err)
		}
	}
}
