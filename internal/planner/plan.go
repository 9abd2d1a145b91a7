// Package planner turns parsed statements into physical plans: the binder
// binds names and types against the catalog and builds a plan, named
// rules (rules.go) rewrite it into the streaming patterns in phases
// (window aggregation; window and interval joins; Top-N and
// deduplication; rankings no filter bounds as OVER aggregations; whether
// a rank outputs its number), and each node's changelog mode is inferred
// and checked against what its consumer accepts. EXPLAIN prints the
// result.
package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// Mode is a changelog mode (re-exported for readability).
type Mode = connector.ChangelogMode

// Node is a physical plan node.
type Node interface {
	// Schema is the node's output columns; time attributes are marked in
	// their types.
	Schema() types.Schema
	// Mode is the changelog the node emits.
	Mode() Mode
	// Inputs are the node's children.
	Inputs() []Node
	// Describe is the node's line in EXPLAIN's physical plan without
	// its changelog mode.
	Describe() string
}

type base struct{ schema types.Schema }

func (b *base) Schema() types.Schema { return b.schema }

// Scan reads a table.
type Scan struct {
	base
	Table *catalog.Table
	// Computed holds the expressions of computed columns by column index
	// (nil for physical and metadata columns), over the table's columns.
	Computed []expr.Expr
	// Watermark is the watermark expression over the table's columns.
	Watermark expr.Expr
	// Upsert is set for sources that emit an upsert stream keyed by the
	// primary key.
	Upsert bool
	// Changelog is set for sources that emit a full changelog (a Kafka
	// topic in a changelog format such as 'debezium-json').
	Changelog bool
	// Project lists the table's columns the scan emits, by index, when a
	// projection is pushed into it (pushdown.go); nil for all of them.
	Project []int
	// alias is the name query hints refer to the table by (its alias, or
	// its name), which EXPLAIN's Abstract Syntax Tree shows as Flink's
	// ALIAS hint; "" for a table read inside a view.
	alias string
	// idleTimeout is table.exec.source.idle-timeout, for EXPLAIN.
	idleTimeout time.Duration
	// batch marks a scan of a batch job, whose plan in Flink has no
	// watermark (EXPLAIN).
	batch bool
}

// Values is a constant relation.
type Values struct {
	base
	Rows []types.Row
}

// Calc projects and filters: rows for which Filter (if any) holds are
// mapped through Projects.
type Calc struct {
	base
	Input    Node
	Projects []expr.Expr
	Filter   expr.Expr
	// level marks the projection of a subquery or view in FROM, which
	// Calcite keeps as a LogicalProject of its own; alias is the name
	// the query refers to it by.
	level bool
	alias string
	// stacked is, for a Calc the binder merged from Calcs over such a
	// projection, the Calc of the query around it over that projection,
	// as EXPLAIN's Abstract Syntax Tree prints them.
	stacked *Calc
}

// Expand emits each input row once per projection list (Flink's Expand,
// under an aggregation of grouping sets).
type Expand struct {
	base
	Input    Node
	Projects [][]expr.Expr
}

// Normalize turns an upsert stream into a full changelog (Flink's
// ChangelogNormalize).
type Normalize struct {
	base
	Input Node
	Keys  []int
	// ttl is the state's idle retention (stateTTL).
	ttl stateTTL
}

// AggCall is one aggregate call of an aggregation: a built-in aggregate
// function (fn.LookupAggregate) over input columns, bound again to their
// types when the job is built.
type AggCall struct {
	Name string
	Args []int
	// Consts holds the values of the arguments that are constants, by
	// position (nil for the others); empty when none is.
	Consts   []*types.Value
	Distinct bool
	Filter   int // input column of the FILTER condition, -1 for none
	Type     types.Type
	Alias    string
}

// same reports whether a and b compute the same aggregate: the same
// function over the same input columns (so the same constants), DISTINCT
// and FILTER column.
func (a AggCall) same(b AggCall) bool {
	return a.Name == b.Name && slices.Equal(a.Args, b.Args) && a.Distinct == b.Distinct && a.Filter == b.Filter
}

// String renders the call for EXPLAIN.
func (a AggCall) String(in types.Schema) string {
	args := make([]string, len(a.Args))
	for i, c := range a.Args {
		args[i] = in[c].Name
	}
	s := a.Name + "("
	if a.Distinct {
		s += "DISTINCT "
	}
	if len(args) == 0 && a.Name == "COUNT" {
		s += "*"
	}
	s += strings.Join(args, ", ") + ")"
	if a.Filter >= 0 {
		s += " FILTER " + in[a.Filter].Name
	}
	return s
}

// GroupAggregate is an unbounded group aggregation: output is the key
// columns then one column per call.
type GroupAggregate struct {
	base
	Input Node
	Keys  []int
	Aggs  []AggCall
	// miniBatch, when set, buffers the input per key (minibatch.go).
	miniBatch *plan.MiniBatch
	// ttl is the state's idle retention (stateTTL).
	ttl stateTTL
}

// WindowKind is the kind of a window table-valued function.
type WindowKind int

// Window kinds.
const (
	Tumble WindowKind = iota
	Hop
	Cumulate
	Session
)

// Window is a window TVF's specification; durations in nanoseconds.
type Window struct {
	Kind    WindowKind
	TimeCol int
	Size    int64 // TUMBLE/HOP size, CUMULATE max size
	Slide   int64 // HOP slide, CUMULATE step
	Offset  int64
	Gap     int64 // SESSION gap
	// PartitionKeys of SESSION windows (PARTITION BY), by input column.
	PartitionKeys []int
	// EndCol is the window_end column of the input of a window Top-N or
	// deduplication.
	EndCol int
	// LocalTime is set when TimeCol is a TIMESTAMP_LTZ: windows align to
	// the session time zone's wall clock.
	LocalTime bool
	// ProcTime is set when TimeCol is a processing-time attribute.
	ProcTime bool
}

// String renders w the way Flink's EXPLAIN does, e.g.
// TUMBLE(time_col=[ts], size=[6 h]).
func (w Window) String(in types.Schema) string {
	col := in[w.TimeCol].Name
	switch w.Kind {
	case Hop:
		return fmt.Sprintf("HOP(time_col=[%s], size=[%s], slide=[%s]%s)", col, duration(w.Size), duration(w.Slide), offsetText(w.Offset))
	case Cumulate:
		return fmt.Sprintf("CUMULATE(time_col=[%s], max_size=[%s], step=[%s]%s)", col, duration(w.Size), duration(w.Slide), offsetText(w.Offset))
	case Session:
		return fmt.Sprintf("SESSION(time_col=[%s], gap=[%s])", col, duration(w.Gap))
	}
	return fmt.Sprintf("TUMBLE(time_col=[%s], size=[%s]%s)", col, duration(w.Size), offsetText(w.Offset))
}

func offsetText(o int64) string {
	if o == 0 {
		return ""
	}
	return fmt.Sprintf(", offset=[%s]", duration(o))
}

// duration renders nanoseconds the way Flink prints window sizes ("6 h",
// "10 min", "5 s", "100 ms").
func duration(ns int64) string {
	ms := ns / 1e6
	units := []struct {
		ms   int64
		name string
	}{{86400000, "d"}, {3600000, "h"}, {60000, "min"}, {1000, "s"}}
	for _, u := range units {
		if ms != 0 && ms%u.ms == 0 {
			return fmt.Sprintf("%d %s", ms/u.ms, u.name)
		}
	}
	return fmt.Sprintf("%d ms", ms)
}

// WindowTableFunction assigns each row to its windows, appending
// window_start, window_end and window_time.
type WindowTableFunction struct {
	base
	Input  Node
	Window Window
}

// WindowAggregate aggregates per key and window and emits once per window
// when the watermark passes its end. Output: keys, aggregates, then
// window_start, window_end, window_time.
type WindowAggregate struct {
	base
	Input  Node
	Window Window
	Keys   []int
	Aggs   []AggCall
}

// SortKey is one ORDER BY key.
type SortKey struct {
	Col        int
	Desc       bool
	NullsFirst bool
}

// Rank is Top-N: rows ranked within each partition,
// keeping ranks Start..End. With OutputRankNumber the last output column
// holds the rank; otherwise that column is NULL and not read.
type Rank struct {
	base
	// Function is the ranking function: ROW_NUMBER, or RANK or DENSE_RANK,
	// which Flink plans but refuses to run in streaming mode.
	Function string
	// call is the ranking function's call, where errors about it point.
	call          ast.Node
	Input         Node
	PartitionKeys []int
	Order         []SortKey
	Start, End    int64
	// VariableEnd takes End from the input column EndCol (rownum <= col,
	// Flink's VariableRankRange).
	VariableEnd      bool
	EndCol           int
	OutputRankNumber bool
	// Window is set for a window Top-N (partitioned by window_start and
	// window_end of a window TVF).
	Window *Window
	// noEnd is set when a filter bounds the rank from below only.
	noEnd bool
	// ttl is the state's idle retention (stateTTL).
	ttl stateTTL
}

// Deduplicate keeps the first or last row per key, ordered by a time
// attribute (ROW_NUMBER ... WHERE rownum = 1 on a time attribute).
type Deduplicate struct {
	base
	Input    Node
	Keys     []int
	KeepLast bool
	TimeCol  int
	RowTime  bool
	// OutputRankNumber keeps a constant 1 in the last column.
	OutputRankNumber bool
	Window           *Window
	// ttl is the state's idle retention (stateTTL).
	ttl stateTTL
}

// JoinKind is the kind of a join.
type JoinKind int

// Join kinds.
const (
	InnerJoin JoinKind = iota
	LeftJoin
	RightJoin
	FullJoin
)

func (k JoinKind) String() string {
	return [...]string{"InnerJoin", "LeftOuterJoin", "RightOuterJoin", "FullOuterJoin"}[k]
}

// Join is a regular streaming join on equality keys plus a residual
// condition over the concatenated row.
type Join struct {
	base
	Left, Right         Node
	Kind                JoinKind
	LeftKeys, RightKeys []int
	Cond                expr.Expr
	// ttl is the state's idle retention (stateTTL).
	ttl stateTTL
	// hint is the STATE_TTL hint of the SELECT whose FROM the join is
	// in, nil for none.
	hint *ttlHint
}

// IntervalJoin joins rows whose time attributes lie within bounds:
// right.time BETWEEN left.time + Lower AND left.time + Upper.
type IntervalJoin struct {
	Join
	LeftTime, RightTime int
	Lower, Upper        int64
	// ProcTime is set when the time attributes are processing-time ones.
	ProcTime bool
}

// Union is UNION ALL.
type Union struct {
	base
	Items []Node
}

// Limit keeps the N rows after the first Offset (global), in arrival order
// or, with Order, by that order (a global Top-N that updates as rows
// arrive): Flink's Limit and SortLimit, rows Offset+1 to Offset+N.
type Limit struct {
	base
	Input  Node
	Order  []SortKey
	Offset int64
	// N is the FETCH (LIMIT) count, -1 when there is none (OFFSET alone).
	N int64
	// ttl is the state's idle retention (stateTTL).
	ttl stateTTL
}

// Sort orders rows by a leading ascending time attribute, emitting them as
// the watermark passes (Flink's temporal sort).
type Sort struct {
	base
	Input Node
	Keys  []SortKey
}

// BatchSort is the sort of a query run in batch mode (Flink's batch Sort
// and SortLimit, ORDER BY on any column): it applies its input's changelog
// and emits, when the input ends, the final rows in Order, the N after the
// first Offset (all when N is -1). Without Order it is the final result of
// an updating query, materialized before a sink or the client.
type BatchSort struct {
	base
	Input  Node
	Order  []SortKey
	Offset int64
	N      int64
}

// Sink writes a query's result into a table.
type Sink struct {
	base
	Input Node
	Table *catalog.Table
	// Upsert is set when the sink accepts updates keyed by its primary key.
	Upsert bool
}

// Collect delivers a query's result to the client.
type Collect struct {
	base
	Input Node
}
