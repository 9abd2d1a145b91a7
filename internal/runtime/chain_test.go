package runtime

import (
	"context"
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// passingSummer counts and sums the numbers it receives, as summer, and
// passes them on.
type passingSummer struct{ summer }

func (s *passingSummer) ProcessChunk(input int, c *types.Chunk, out Emitter) error {
	if err := s.summer.ProcessChunk(input, c, out); err != nil {
		return err
	}
	out.Emit(c)
	return nil
}

// chainedGraph: two counting sources, each feeding a stateless forward
// stage ("pass", chainable into the source), hashed by number to two
// passing summers ("sum"), each feeding a summer of its own by a
// forward exchange ("tail", chainable into "sum"; it is a
// CheckpointListener, which only an operator's chain can tell).
func chainedGraph(n int64, sources []*countingSource, sums []*passingSummer, tails []*summer, cfg *CheckpointConfig, disable bool) *Graph {
	return &Graph{Checkpoints: cfg, DisableChaining: disable, Stages: []*Stage{
		{Name: "numbers", ID: "src", Parallelism: 2, NewSource: func(i int) (Source, error) { return sources[i], nil }},
		{Name: "pass", ID: "pass", Parallelism: 2, Inputs: []Input{{Stage: 0, Exchange: Forward}},
			NewOperator: func(int) (Operator, error) { return forwardOp{}, nil }},
		{Name: "sum", ID: "sum", Parallelism: 2, Inputs: []Input{{Stage: 1, Exchange: Hash, Keys: []int{0}}},
			NewOperator: func(i int) (Operator, error) { return sums[i], nil }},
		{Name: "tail", ID: "tail", Parallelism: 2, Inputs: []Input{{Stage: 2, Exchange: Forward}},
			NewOperator: func(i int) (Operator, error) { return tails[i], nil }},
	}}
}

// TestChainedCheckpointsAreConsistent: with chaining, the forward stages
// run in the goroutines of their inputs ("pass" in the sources', "tail"
// in the summers'); every exactly-once checkpoint taken while the
// sources emit holds, in every stage, exactly the numbers before the
// sources' barriers, the chained summers hear of completed checkpoints,
// and every number is counted once in the end. Without chaining every
// operator instance has a goroutine of its own and the same holds.
func TestChainedCheckpointsAreConsistent(t *testing.T) {
	for _, disable := range []bool{false, true} {
		t.Run(fmt.Sprintf("disable=%v", disable), func(t *testing.T) {
			const n = 20000
			store := newStorage(t)
			cfg := &CheckpointConfig{Storage: store, Job: "j", Retained: 100, Mode: ExactlyOnce}
			sources, runToEnd := gatedSources(n)
			sums := []*passingSummer{{}, {}}
			tails := []*summer{{}, {}}
			j, err := Start(context.Background(), chainedGraph(n, sources, sums, tails, cfg, disable))
			if err != nil {
				t.Fatal(err)
			}
			defer j.Cancel()
			// Goroutines headed by an operator: the summers' with
			// chaining, one per operator instance without.
			if want := map[bool]int{false: 2, true: 6}[disable]; len(j.chains) != want {
				t.Fatalf("%d operator goroutines, want %d", len(j.chains), want)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			ids := checkpointThenFinish(ctx, t, j, 4, runToEnd)
			// counts returns the numbers counted and their sum in the
			// parts of stage id of checkpoint cp.
			counts := func(cp int64, id string) (count, sum int64) {
				for i := range 2 {
					data, err := store.ReadState(ctx, "j", cp, fmt.Sprintf("%s-%d", id, i))
					if err != nil {
						t.Fatal(err)
					}
					_, state, err := decodePart(data)
					if err != nil {
						t.Fatal(err)
					}
					v := decodeInts(t, state)
					count += v[0]
					sum += v[1]
				}
				return count, sum
			}
			for _, id := range ids {
				var emitted, wantSum int64
				for i := range 2 {
					data, err := store.ReadState(ctx, "j", id, fmt.Sprintf("src-%d", i))
					if err != nil {
						t.Fatal(err)
					}
					_, state, err := decodePart(data)
					if err != nil || len(state) == 0 {
						t.Fatalf("checkpoint %d: src-%d has no position (%v)", id, i, err)
					}
					next, first := decodeInts(t, state)[0], int64(i)*n
					emitted += next - first
					wantSum += (first + next - 1) * (next - first) / 2
				}
				for _, stage := range []string{"sum", "tail"} {
					if count, sum := counts(id, stage); count != emitted || sum != wantSum {
						t.Errorf("checkpoint %d: %s counted %d numbers summing to %d; the sources emitted %d summing to %d", id, stage, count, sum, emitted, wantSum)
					}
				}
			}
			var total int64
			for i, s := range tails {
				c, _ := s.totals()
				total += c
				s.mu.Lock()
				if !slices.Contains(s.completed, ids[len(ids)-1]) {
					t.Errorf("tail %d was told of checkpoints %v, not of %d", i, s.completed, ids[len(ids)-1])
				}
				s.mu.Unlock()
			}
			if total != 2*n {
				t.Errorf("the tails counted %d numbers in all, want %d", total, 2*n)
			}
		})
	}
}

// TestChainedProcessingTime: an operator chained to another one
// (forward, same parallelism) has its wake-ups ring in their goroutine's
// loop, at the clock's time, and the job is not quiet until it has
// handled them. After a stage chained into a source, whose goroutine runs
// no loop, it heads a chain of its own instead, and the same holds.
func TestChainedProcessingTime(t *testing.T) {
	for _, c := range []struct {
		name string
		// into is the exchange from the source to the stage before the
		// ticker; head is the index of the stage heading the ticker's
		// chain.
		into ExchangeKind
		head int
	}{{"after an operator's chain", Single, 1}, {"after a source's chain", Forward, 2}} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Unix(1000, 0)
			clock := NewManualClock(start)
			op := &secondTicker{opened: make(chan struct{})}
			g := &Graph{Clock: clock, Stages: []*Stage{
				{Name: "source", Parallelism: 1, NewSource: func(int) (Source, error) { return caughtUpSource{}, nil }},
				{Name: "head", Parallelism: 1, Inputs: []Input{{Stage: 0, Exchange: c.into}},
					NewOperator: func(int) (Operator, error) { return forwardOp{}, nil }},
				{Name: "ticker", Parallelism: 1, Inputs: []Input{{Stage: 1, Exchange: Forward}},
					NewOperator: func(int) (Operator, error) { return op, nil }},
			}}
			j, err := Start(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Cancel()
			if len(j.chains) != 1 || j.chains[0].tasks[0].name != g.Stages[c.head].Name || j.chains[0].tasks[len(j.chains[0].tasks)-1].op != Operator(op) {
				t.Fatalf("the ticker is not in the one operator chain, headed by %q: %d chains", g.Stages[c.head].Name, len(j.chains))
			}
			checkWakeUps(t, j, op, clock, start, 2*time.Second)
		})
	}
}

// TestChainedFailure: an error of a chained operator fails the job with
// the operator's name, as it does from a goroutine of its own.
func TestChainedFailure(t *testing.T) {
	g := &Graph{Stages: []*Stage{
		{Name: "source", Parallelism: 1, NewSource: func(int) (Source, error) { return chunkSource{3, 1000}, nil }},
		{Name: "broken", Parallelism: 1, Inputs: []Input{{Stage: 0, Exchange: Forward}},
			NewOperator: func(int) (Operator, error) { return failingOp{}, nil }},
	}}
	j, err := Start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	<-j.Done()
	if err := j.Err(); err == nil || err.Error() != "broken: no" {
		t.Fatalf("job error %v, want the chained operator's", err)
	}
	if len(j.chains) != 0 {
		t.Fatalf("%d operator goroutines, want the operator chained to the source", len(j.chains))
	}
}

// failingOp fails on its first chunk.
type failingOp struct{ forwardOp }

func (failingOp) ProcessChunk(int, *types.Chunk, Emitter) error { return fmt.Errorf("no") }

// repeatSource emits the same chunk n times.
type repeatSource struct {
	c *types.Chunk
	n int
}

func (s repeatSource) Run(_ *SourceContext, out Emitter) error {
	for range s.n {
		out.Emit(s.c)
	}
	return nil
}

// BenchmarkForwardStages: a chunk of 1,024 rows through three stages
// after a source, chained or each in its own goroutine (an operation is
// one chunk). The first stage reads the source by a forward exchange
// (head=source: chained, the three run in the source's goroutine) or a
// single one (head=operator: chained, the three are a chain of their
// own, headed by the first, whose loop times the chain). The cost per
// chunk is the runtime's alone: the stages pass the chunk on. cpu-ns/op
// is the process's CPU time (user and system) per chunk, which ns/op,
// the wall time, understates when the stages run on both cores.
func BenchmarkForwardStages(b *testing.B) {
	c := exchangeChunk(types.ChunkSize, 100)
	for _, head := range []struct {
		name  string
		first ExchangeKind
	}{{"source", Forward}, {"operator", Single}} {
		for _, disable := range []bool{false, true} {
			b.Run(fmt.Sprintf("head=%s/disable=%v", head.name, disable), func(b *testing.B) {
				g := &Graph{DisableChaining: disable, Stages: []*Stage{
					{Name: "source", Parallelism: 1, NewSource: func(int) (Source, error) { return repeatSource{c, b.N}, nil }},
				}}
				for i := 1; i <= 3; i++ {
					exchange := Forward
					if i == 1 {
						exchange = head.first
					}
					g.Stages = append(g.Stages, &Stage{Name: fmt.Sprint("stage", i), Parallelism: 1,
						Inputs: []Input{{Stage: i - 1, Exchange: exchange}}, NewOperator: func(int) (Operator, error) { return forwardOp{}, nil }})
				}
				b.ReportAllocs()
				cpu := processCPU(b)
				b.ResetTimer()
				j, err := Start(context.Background(), g)
				if err != nil {
					b.Fatal(err)
				}
				<-j.Done()
				if err := j.Err(); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// processCPU returns the CPU time the process has used, in nanoseconds.
func processCPU(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
