package plan

// Node kinds. Column numbers in configurations index the node's input (a
// join's left and right inputs each by their own columns); durations are
// nanoseconds.
const (
	KindScan                = "TableSourceScan"
	KindValues              = "Values"
	KindCalc                = "Calc"
	KindExpand              = "Expand"
	KindCorrelate           = "Correlate"
	KindChangelogNormalize  = "ChangelogNormalize"
	KindGroupAggregate      = "GroupAggregate"
	KindUnion               = "Union"
	KindSink                = "Sink"
	KindCollect             = "Collect"
	KindRank                = "Rank"
	KindWindowRank          = "WindowRank"
	KindDeduplicate         = "Deduplicate"
	KindWindowDeduplicate   = "WindowDeduplicate"
	KindWindowTableFunction = "WindowTableFunction"
	KindWindowAggregate     = "WindowAggregate"
	KindSemiJoin            = "SemiJoin"
	KindJoin                = "Join"
	KindWindowJoin          = "WindowJoin"
	KindTemporalJoin        = "TemporalJoin"
	KindIntervalJoin        = "IntervalJoin"
	KindOverAggregate       = "OverAggregate"
	KindLimit               = "Limit"
	KindTemporalSort        = "TemporalSort"
	KindSort                = "Sort"
)

func init() {
	for _, f := range []func() Config{
		func() Config { return new(ScanConfig) },
		func() Config { return new(ValuesConfig) },
		func() Config { return new(CalcConfig) },
		func() Config { return new(ExpandConfig) },
		func() Config { return new(CorrelateConfig) },
		func() Config { return new(ChangelogNormalizeConfig) },
		func() Config { return new(GroupAggregateConfig) },
		func() Config { return new(UnionConfig) },
		func() Config { return new(SinkConfig) },
		func() Config { return new(CollectConfig) },
		func() Config { return new(RankConfig) },
		func() Config { return new(WindowRankConfig) },
		func() Config { return new(DeduplicateConfig) },
		func() Config { return new(WindowDeduplicateConfig) },
		func() Config { return new(WindowTableFunctionConfig) },
		func() Config { return new(WindowAggregateConfig) },
		func() Config { return new(SemiJoinConfig) },
		func() Config { return new(JoinConfig) },
		func() Config { return new(WindowJoinConfig) },
		func() Config { return new(TemporalJoinConfig) },
		func() Config { return new(IntervalJoinConfig) },
		func() Config { return new(OverAggregateConfig) },
		func() Config { return new(LimitConfig) },
		func() Config { return new(TemporalSortConfig) },
		func() Config { return new(SortConfig) },
	} {
		register(f)
	}
}

// ScanConfig reads a connector table. The node's schema is the table's,
// with its time attributes, or the columns of Project.
type ScanConfig struct {
	Table Table `json:"table"`
	// Project lists the table's columns the scan emits, by index, in the
	// order of the node's schema (a projection pushed into the source,
	// possibly of no column); absent (nil) for all of them in table order.
	Project []int `json:"project,omitzero"`
	// Computed holds the computed columns' expressions by column (null
	// for the others), over the table's columns; empty when there are
	// none.
	Computed []Expr `json:"computed,omitempty"`
	// Watermark is the watermark expression over the table's columns.
	Watermark Expr `json:"watermark,omitzero"`
}

// identity is the scan without the table's options: a scan restored from
// a savepoint after 'scan.startup.mode' or the brokers changed is the same
// scan, whose positions the checkpoint holds.
func (c *ScanConfig) identity() Config {
	out := *c
	out.Table.Options = nil
	return &out
}

// ValuesConfig is a constant relation: each row a list of literals.
type ValuesConfig struct {
	Rows [][]Expr `json:"rows"`
}

// CalcConfig projects and filters.
type CalcConfig struct {
	Projects []Expr `json:"projects"`
	// Filter keeps the rows for which it is true; none keeps every row.
	Filter Expr `json:"filter,omitzero"`
}

// ExpandConfig emits every input row once per projection, in order, with
// the input row's kind (Flink's Expand, under an aggregation of grouping
// sets: each projection sets the columns its grouping set leaves out to
// NULL and adds the set's expand id).
type ExpandConfig struct {
	Projects [][]Expr `json:"projects"`
}

// CorrelateConfig joins each input row with the rows of UNNEST of a
// collection computed from it: the input columns, then the element's
// columns (an ARRAY or MULTISET element, or a ROW element's fields; a
// MAP entry's key and value), then the ordinality when asked for.
type CorrelateConfig struct {
	// Collection is the ARRAY, MULTISET or MAP to unnest, over the input.
	Collection Expr `json:"collection"`
	// More are further collections unnested beside it: the i-th output
	// row holds the i-th element of each, NULLs where one has fewer.
	More []Expr `json:"more,omitzero"`
	// Ordinality adds the element's 1-based position.
	Ordinality bool `json:"ordinality,omitzero"`
	// Left keeps an input row whose collection is NULL or empty, once,
	// with NULL element columns (LEFT JOIN UNNEST ... ON TRUE).
	Left bool `json:"left,omitzero"`
	// Replicate makes Collection a BIGINT count of copies of the input
	// row to emit, with no columns added ($REPLICATE_ROWS$).
	Replicate bool `json:"replicate,omitzero"`
}

// ChangelogNormalizeConfig turns an upsert stream keyed by Keys into a
// full changelog.
type ChangelogNormalizeConfig struct {
	Keys []int `json:"keys"`
}

// AggCall is an aggregate call: a built-in aggregate function over input
// columns.
type AggCall struct {
	Function string `json:"function"`
	Args     []int  `json:"args,omitempty"`
	// Constants are the literal values of the arguments that are
	// constants, by position (null for the others); empty when none is.
	Constants []Expr `json:"constants,omitempty"`
	Distinct  bool   `json:"distinct,omitempty"`
	// Filter is the input column of a FILTER (WHERE ...) clause.
	Filter *int `json:"filter,omitempty"`
	// Type is the result type.
	Type Type `json:"type"`
}

// GroupAggregateConfig is an unbounded GROUP BY aggregation; output is
// the keys, then one column per call.
type GroupAggregateConfig struct {
	Keys []int     `json:"keys,omitempty"`
	Aggs []AggCall `json:"aggs"`
	// MiniBatch, when set, buffers the input per key until the batch
	// ends (Flink's MiniBatchGroupAggFunction).
	MiniBatch *MiniBatch `json:"miniBatch,omitempty"`
}

// UnionConfig is UNION ALL of the node's inputs.
type UnionConfig struct{}

// SinkConfig writes into a connector table.
type SinkConfig struct {
	Table Table `json:"table"`
}

// identity is the sink without the table's options, as for a scan.
func (c *SinkConfig) identity() Config {
	out := *c
	out.Table.Options = nil
	return &out
}

// CollectConfig delivers a query's result to the client.
type CollectConfig struct {
	// CompleteAfter, when set, is the number of rows after which the
	// result is complete (a LIMIT over an insert-only input).
	CompleteAfter *int64 `json:"completeAfter,omitempty"`
}

// SortKey is one ORDER BY key.
type SortKey struct {
	Column     int  `json:"column"`
	Descending bool `json:"descending,omitempty"`
	NullsFirst bool `json:"nullsFirst,omitempty"`
}

// RankConfig is a ROW_NUMBER Top-N keeping row numbers Start..End per
// partition. Without OutputRankNumber the output has no row number column.
type RankConfig struct {
	PartitionKeys    []int     `json:"partitionKeys,omitempty"`
	Order            []SortKey `json:"order"`
	Start            int64     `json:"start"`
	End              int64     `json:"end"`
	OutputRankNumber bool      `json:"outputRankNumber,omitempty"`
	// VariableEnd takes each partition's End from the input column EndCol
	// of its first row (rownum <= col).
	VariableEnd bool `json:"variableEnd,omitempty"`
	EndCol      int  `json:"endCol,omitempty"`
}

// WindowRankConfig is a window Top-N, emitted per window when the
// watermark passes its end.
type WindowRankConfig struct {
	PartitionKeys    []int     `json:"partitionKeys"`
	Order            []SortKey `json:"order"`
	Start            int64     `json:"start"`
	End              int64     `json:"end"`
	OutputRankNumber bool      `json:"outputRankNumber,omitempty"`
	// WindowEnd is the window_end column.
	WindowEnd int `json:"windowEnd"`
	// LocalTime is set for windows over a TIMESTAMP_LTZ: window bounds are
	// wall-clock times in the session time zone.
	LocalTime bool `json:"localTime,omitempty"`
}

// DeduplicateConfig keeps the first or last row per key.
type DeduplicateConfig struct {
	Keys     []int `json:"keys"`
	KeepLast bool  `json:"keepLast,omitempty"`
	// TimeColumn is the ORDER BY time attribute; RowTime says it is an
	// event time (otherwise the order is the arrival order).
	TimeColumn       int  `json:"timeColumn"`
	RowTime          bool `json:"rowTime,omitempty"`
	OutputRankNumber bool `json:"outputRankNumber,omitempty"`
}

// WindowDeduplicateConfig keeps the first or last row per key and window.
type WindowDeduplicateConfig struct {
	Keys             []int `json:"keys"`
	KeepLast         bool  `json:"keepLast,omitempty"`
	TimeColumn       int   `json:"timeColumn"`
	OutputRankNumber bool  `json:"outputRankNumber,omitempty"`
	WindowEnd        int   `json:"windowEnd"`
	LocalTime        bool  `json:"localTime,omitempty"`
}

// Window is a window table-valued function's specification.
type Window struct {
	// Function is TUMBLE, HOP, CUMULATE or SESSION.
	Function   string `json:"function"`
	TimeColumn int    `json:"timeColumn"`
	// Size is the TUMBLE and HOP size and the CUMULATE max size.
	Size int64 `json:"size,omitempty"`
	// Slide is the HOP slide and the CUMULATE step.
	Slide  int64 `json:"slide,omitempty"`
	Offset int64 `json:"offset,omitempty"`
	Gap    int64 `json:"gap,omitempty"`
	// PartitionKeys are the PARTITION BY columns of SESSION windows.
	PartitionKeys []int `json:"partitionKeys,omitempty"`
	// LocalTime is set when TimeColumn is a TIMESTAMP_LTZ: windows align
	// to the session time zone's wall clock.
	LocalTime bool `json:"localTime,omitempty"`
	// ProcTime is set when TimeColumn is a processing-time attribute:
	// rows take the processing time they arrive at, and windows fire on
	// the clock.
	ProcTime bool `json:"procTime,omitempty"`
}

// WindowTableFunctionConfig assigns rows to windows, appending
// window_start, window_end and window_time.
type WindowTableFunctionConfig struct {
	Window Window `json:"window"`
}

// WindowAggregateConfig aggregates per key and window; output is the
// keys, one column per call, then window_start, window_end, window_time.
type WindowAggregateConfig struct {
	Window Window    `json:"window"`
	Keys   []int     `json:"keys,omitempty"`
	Aggs   []AggCall `json:"aggs"`
}

// SemiJoinConfig keeps the left rows with (Anti: without) a match on the
// right.
type SemiJoinConfig struct {
	LeftKeys     []int `json:"leftKeys"`
	RightKeys    []int `json:"rightKeys"`
	Anti         bool  `json:"anti,omitempty"`
	NullAware    bool  `json:"nullAware,omitempty"`
	KeepNullKeys bool  `json:"keepNullKeys,omitempty"`
	NullSafe     bool  `json:"nullSafe,omitempty"`
	// Condition is what a matching right row must also meet, over the
	// left columns followed by the right ones; absent for none.
	Condition Expr `json:"condition,omitzero"`
}

// Join is what the joins share: the join type (INNER, LEFT, RIGHT,
// FULL), the equality keys of each side, and the residual condition over
// the left columns followed by the right ones.
type Join struct {
	JoinType  string `json:"joinType"`
	LeftKeys  []int  `json:"leftKeys,omitempty"`
	RightKeys []int  `json:"rightKeys,omitempty"`
	Condition Expr   `json:"condition,omitzero"`
}

// JoinConfig is a regular streaming join.
type JoinConfig struct {
	Join
}

// WindowJoinConfig joins rows of the same window; LeftEnd and RightEnd
// are the sides' window_end columns.
type WindowJoinConfig struct {
	Join
	LeftEnd  int `json:"leftEnd"`
	RightEnd int `json:"rightEnd"`
}

// TemporalJoinConfig joins each left row with the version of the right
// row valid at its time.
type TemporalJoinConfig struct {
	Join
	LeftTime  int `json:"leftTime"`
	RightTime int `json:"rightTime"`
}

// IntervalJoinConfig joins rows whose times lie within bounds:
// right.time BETWEEN left.time + Lower AND left.time + Upper.
type IntervalJoinConfig struct {
	Join
	LeftTime  int   `json:"leftTime"`
	RightTime int   `json:"rightTime"`
	Lower     int64 `json:"lower"`
	Upper     int64 `json:"upper"`
	// ProcTime is set when the times are processing-time attributes:
	// rows are timed by their arrival.
	ProcTime bool `json:"procTime,omitempty"`
}

// OverAggregateConfig appends aggregates over a frame of preceding rows.
type OverAggregateConfig struct {
	PartitionKeys []int `json:"partitionKeys,omitempty"`
	TimeColumn    int   `json:"timeColumn"`
	// ProcTime is set when TimeColumn is a processing-time attribute:
	// rows are ordered by their arrival.
	ProcTime bool      `json:"procTime,omitempty"`
	Aggs     []AggCall `json:"aggs"`
	// Rows selects a ROWS frame, otherwise RANGE; Preceding is its lower
	// bound in rows or nanoseconds, -1 for UNBOUNDED PRECEDING.
	Rows      bool  `json:"rows,omitempty"`
	Preceding int64 `json:"preceding"`
}

// LimitConfig keeps the N rows after the first Offset, in arrival order
// or by Order; N is -1 for no limit (OFFSET alone).
type LimitConfig struct {
	Order  []SortKey `json:"order,omitempty"`
	Offset int64     `json:"offset,omitempty"`
	N      int64     `json:"n"`
}

// TemporalSortConfig orders rows by an ascending time attribute, then by
// Order; ProcTime when it is a processing-time attribute.
type TemporalSortConfig struct {
	TimeColumn int       `json:"timeColumn"`
	Order      []SortKey `json:"order,omitempty"`
	ProcTime   bool      `json:"procTime,omitempty"`
}

// SortConfig is a batch sort (Flink's batch Sort and SortLimit, and the
// final result of a batch query): it applies its input's changelog and,
// when the input ends, emits the final rows, insert-only, ordered by
// Order (in arrival order without it), the N after the first Offset (all
// of them when N is -1).
type SortConfig struct {
	Order  []SortKey `json:"order,omitempty"`
	Offset int64     `json:"offset,omitempty"`
	N      int64     `json:"n"`
}

// Kind implements Config.
func (*ScanConfig) Kind() string { return KindScan }

// Kind implements Config.
func (*ValuesConfig) Kind() string { return KindValues }

// Kind implements Config.
func (*CalcConfig) Kind() string { return KindCalc }

// Kind implements Config.
func (*ExpandConfig) Kind() string { return KindExpand }

// Kind implements Config.
func (*CorrelateConfig) Kind() string { return KindCorrelate }

// Kind implements Config.
func (*ChangelogNormalizeConfig) Kind() string { return KindChangelogNormalize }

// Kind implements Config.
func (*GroupAggregateConfig) Kind() string { return KindGroupAggregate }

// Kind implements Config.
func (*UnionConfig) Kind() string { return KindUnion }

// Kind implements Config.
func (*SinkConfig) Kind() string { return KindSink }

// Kind implements Config.
func (*CollectConfig) Kind() string { return KindCollect }

// Kind implements Config.
func (*RankConfig) Kind() string { return KindRank }

// Kind implements Config.
func (*WindowRankConfig) Kind() string { return KindWindowRank }

// Kind implements Config.
func (*DeduplicateConfig) Kind() string { return KindDeduplicate }

// Kind implements Config.
func (*WindowDeduplicateConfig) Kind() string { return KindWindowDeduplicate }

// Kind implements Config.
func (*WindowTableFunctionConfig) Kind() string { return KindWindowTableFunction }

// Kind implements Config.
func (*WindowAggregateConfig) Kind() string { return KindWindowAggregate }

// Kind implements Config.
func (*SemiJoinConfig) Kind() string { return KindSemiJoin }

// Kind implements Config.
func (*JoinConfig) Kind() string { return KindJoin }

// Kind implements Config.
func (*WindowJoinConfig) Kind() string { return KindWindowJoin }

// Kind implements Config.
func (*TemporalJoinConfig) Kind() string { return KindTemporalJoin }

// Kind implements Config.
func (*IntervalJoinConfig) Kind() string { return KindIntervalJoin }

// Kind implements Config.
func (*OverAggregateConfig) Kind() string { return KindOverAggregate }

// Kind implements Config.
func (*LimitConfig) Kind() string { return KindLimit }

// Kind implements Config.
func (*TemporalSortConfig) Kind() string { return KindTemporalSort }

// Kind implements Config.
func (*SortConfig) Kind() string { return KindSort }
