package plan

// Node kinds of mini-batch processing (table.exec.mini-batch.*) and
// two-phase aggregation, with Flink's names.
const (
	KindMiniBatchAssigner    = "MiniBatchAssigner"
	KindLocalGroupAggregate  = "LocalGroupAggregate"
	KindGlobalGroupAggregate = "GlobalGroupAggregate"
)

func init() {
	register(func() Config { return new(MiniBatchAssignerConfig) })
	register(func() Config { return new(LocalGroupAggregateConfig) })
	register(func() Config { return new(GlobalGroupAggregateConfig) })
}

// MiniBatchAssignerConfig marks the ends of mini-batches with watermarks:
// every Interval of processing time, or, with RowTime, only the
// event-time watermarks that cross a multiple of Interval.
type MiniBatchAssignerConfig struct {
	// Interval is in nanoseconds.
	Interval int64 `json:"interval"`
	RowTime  bool  `json:"rowTime,omitempty"`
}

// MiniBatch is the batching of an operator that buffers its input.
type MiniBatch struct {
	// Size ends a batch at this many input rows
	// (table.exec.mini-batch.size).
	Size int64 `json:"size"`
	// ProcTime is set when the assigners upstream end batches in
	// processing time.
	ProcTime bool `json:"procTime,omitempty"`
}

// LocalGroupAggregateConfig is the local phase of a two-phase
// aggregation: per batch and key, the key, an accumulator per call
// (VARBINARY) and the row count (BIGINT).
type LocalGroupAggregateConfig struct {
	Keys      []int     `json:"keys,omitempty"`
	Aggs      []AggCall `json:"aggs"`
	MiniBatch MiniBatch `json:"miniBatch"`
}

// GlobalGroupAggregateConfig is the global phase of a two-phase
// aggregation, over a LocalGroupAggregate's output: it merges the
// accumulators of the calls Aggs, whose columns are those of the local
// phase's input (LocalInput, of changelog LocalChangelog), grouped by
// LocalKeys there; its input's first columns are the keys.
type GlobalGroupAggregateConfig struct {
	LocalKeys      []int     `json:"localKeys,omitempty"`
	LocalInput     []Type    `json:"localInput"`
	LocalChangelog string    `json:"localChangelog"`
	Aggs           []AggCall `json:"aggs"`
	MiniBatch      MiniBatch `json:"miniBatch"`
}

// Kind implements Config.
func (*MiniBatchAssignerConfig) Kind() string { return KindMiniBatchAssigner }

// Kind implements Config.
func (*LocalGroupAggregateConfig) Kind() string { return KindLocalGroupAggregate }

// Kind implements Config.
func (*GlobalGroupAggregateConfig) Kind() string { return KindGlobalGroupAggregate }
