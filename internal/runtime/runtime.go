// Package runtime runs a dataflow graph of operators: each operator instance
// receives messages (changelog chunks, watermarks, end of input) from its
// upstream instances, and sends its output through an exchange (forward,
// hash by key, or to a single instance) downstream. An instance whose only
// input is a forward exchange from a stage of its parallelism runs chained
// in the goroutine of its upstream instance, which hands it each message
// by a direct call (chain.go); the others each have a goroutine with an
// inbox.
//
// Event time advances only with watermarks: every operator instance tracks
// the watermark of each upstream instance and forwards the minimum.
// Processing time is the job's Clock (clock.go), the machine's or, in
// tests, a manual one.
//
// Checkpoints follow Flink's aligned barriers (checkpoint.go); keyed state
// is split into key groups (keygroup.go), so a job restores at another
// parallelism (restore.go). Producers lease the chunks they emit and reuse
// them once their consumers release them (lease.go).
package runtime

import (
	"math"

	"github.com/sluicesql/sluice/internal/types"
)

// MinWatermark is the watermark before any has been seen.
const MinWatermark int64 = math.MinInt64

// MaxWatermark is the watermark a bounded source emits at its end.
const MaxWatermark int64 = math.MaxInt64

// MaxInstances is the most instances of one stage a job may run.
//
// An instance is a goroutine with an inbox of 64 messages, but behind a
// hash exchange every instance hears from every upstream instance: a pair
// of stages at parallelism p keeps p² per-sender watermark slots, and
// every watermark, idle mark and end of input an upstream stage sends is
// p² messages. Measured on 2 cores, a bounded GROUP BY over 20,000 rows
// takes 0.08 s at p = 256, 0.25 s at 512, about a second and 100 MB at
// 1,024, and 20 s and 800 MB at 4,096; at 5,000 a query exhausted the
// memory of the machine. Flink's bound, UpperBoundMaxParallelism (32,768), counts task
// slots spread over a cluster, not goroutines of one process: 1,024 keeps
// the cost of a stage pair near a second and 100 MB. The key groups
// (pipeline.max-parallelism) may still number up to 32,768.
const MaxInstances = 1024

// Emitter receives an operator's output.
type Emitter interface {
	// Emit sends a chunk downstream; the operator must not modify it afterwards.
	Emit(c *types.Chunk)
	// EmitWatermark sends a watermark (event time in microseconds since the
	// epoch, the same scale as TIMESTAMP values).
	EmitWatermark(wm int64)
}

// Context is what an operator instance knows about where it runs.
type Context struct {
	// Instance is this instance's index, 0 <= Instance < Parallelism.
	Instance    int
	Parallelism int
	// Job gives access to job-wide facilities (failure reporting).
	Job *Job
	// KeyGroups are the key groups whose keys a keyed instance receives.
	KeyGroups KeyGroupRange
	// ProcessingTime is an operator instance's processing time (nil for
	// a source): its clock, and the wake-ups of a ProcessingTimer.
	ProcessingTime *ProcessingTimeService
}

// Operator is one instance of a stream operator.
type Operator interface {
	// Open prepares the instance before any input.
	Open(ctx *Context) error
	// ProcessChunk handles rows that arrived on input number `input`.
	ProcessChunk(input int, c *types.Chunk, out Emitter) error
	// ProcessWatermark handles the merged watermark of all inputs; it is
	// called only when the merged watermark advances. The operator forwards
	// it (possibly after emitting fired results) with out.EmitWatermark.
	ProcessWatermark(wm int64, out Emitter) error
	// Finish is called once when every input has ended.
	Finish(out Emitter) error
}

// Source is one instance of a source. Run produces output until the input
// ends (bounded sources) or ctx is cancelled, then returns.
type Source interface {
	// Run reads and emits until done or stopped; a nil error at the end of a
	// bounded input means the source finished.
	Run(ctx *SourceContext, out Emitter) error
}

// Sink is the terminal operator of a job that writes results out.
type Sink interface {
	Operator
}

// BarrierPreparer is implemented by operators that hold rows back between
// messages (mini-batch bundles): before the instance snapshots for a
// checkpoint it emits them, ahead of the barrier, as Flink's
// AbstractMapBundleOperator finishes its bundle in
// prepareSnapshotPreBarrier. A snapshot then never holds a bundle.
type BarrierPreparer interface {
	PrepareSnapshotPreBarrier(out Emitter) error
}
