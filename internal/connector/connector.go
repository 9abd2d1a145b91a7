// Package connector is the registry of table connectors, keyed by the
// 'connector' option: each validates its options up front and creates the
// runtime sources and sinks of a table.
package connector

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// ChangelogMode is the set of row kinds a source produces or a sink accepts.
type ChangelogMode int

// Changelog modes.
const (
	// InsertOnly is an append-only stream: +I rows only.
	InsertOnly ChangelogMode = iota
	// Upsert is a keyed stream of +I, +U and -D without -U.
	Upsert
	// Retract is a full changelog: +I, -U, +U and -D.
	Retract
	// Update is a changelog of inserts and updates without deletes: +I, -U
	// and +U (an aggregation or deduplication over an append-only input).
	Update
)

// String names the mode the way EXPLAIN shows it, after Flink's
// changelogMode=[I], [I,UA,D], [I,UB,UA,D].
func (m ChangelogMode) String() string {
	return [...]string{"I", "I,UA,D", "I,UB,UA,D", "I,UB,UA"}[m]
}

// OptionSpec documents and validates one option.
type OptionSpec struct {
	Key         string
	Required    bool
	Default     string
	Description string
	// Prefix marks a family of options such as 'properties.*'.
	Prefix bool
}

// Env is what a connector needs from the session.
type Env struct {
	// TimeZone is table.local-time-zone.
	TimeZone *time.Location
	// WatermarkInterval is pipeline.auto-watermark-interval.
	WatermarkInterval time.Duration
	// IdleTimeout is table.exec.source.idle-timeout (0: never idle).
	IdleTimeout time.Duration
	// Stdout and Stderr are where sinks that print (the 'print'
	// connector) write: the output of the session that started the job,
	// or of its job manager. Each Write is kept whole, whatever else
	// writes concurrently. Nil: the process's standard output and error.
	Stdout, Stderr io.Writer
}

// SourceSpec tells a source what the planner needs of it.
type SourceSpec struct {
	Env
	// Columns are the table's columns, by index, that the chunks a source
	// makes hold, in that order; nil for all of them in Table.Schema()
	// order. Only a factory that implements ProjectionPushDown is given
	// a projection.
	Columns []int
	// Complete fills the computed columns of a chunk whose physical and
	// metadata columns are set (computed columns arrive as empty vectors)
	// and may then drop columns only they read. Nil when there is
	// nothing to do. An error of a row is a *RowError.
	Complete func(c *types.Chunk) error
	// Watermark evaluates the table's watermark expression on every row of
	// a complete chunk into wms, which it empties and types first: one
	// candidate per row (NULL: none). A source reuses wms from chunk to
	// chunk. Nil when the table declares no watermark. An error of a row
	// is a *RowError.
	Watermark func(c *types.Chunk, wms *types.Vector) error
}

// RowError is an error computing a value of row Row of a chunk, which a
// source can tell the record of.
type RowError struct {
	Row int
	Err error
}

// Error returns the message of the row's error.
func (e *RowError) Error() string { return e.Err.Error() }

// Unwrap returns the error of the row.
func (e *RowError) Unwrap() error { return e.Err }

// ScanSource is a table read by a query.
type ScanSource interface {
	// NewInstance returns instance i of n; each reads its share of the input.
	NewInstance(i, n int) (runtime.Source, error)
}

// SinkTarget is a table written by INSERT INTO.
type SinkTarget interface {
	// NewInstance returns one sink instance.
	NewInstance(i, n int) (runtime.Operator, error)
}

// Factory creates sources and sinks for one connector.
type Factory interface {
	// Name is the value of the 'connector' option.
	Name() string
	// Options lists the connector's own options.
	Options() []OptionSpec
	// Validate checks a table's options (including its formats') and schema.
	Validate(t *catalog.Table) error
	// NewSource prepares t for reading.
	NewSource(t *catalog.Table, spec SourceSpec) (ScanSource, error)
	// NewSink prepares t for writing.
	NewSink(t *catalog.Table, env Env) (SinkTarget, error)
	// Accepts is the changelog a sink writing the validated table t
	// consumes: InsertOnly, Upsert (changes keyed by t's primary key, whose
	// -U rows it ignores) or Retract (any changelog, row by row). The
	// planner rejects an INSERT whose query produces updates the sink does
	// not accept.
	Accepts(t *catalog.Table) ChangelogMode
	// Produces is the changelog a source reading the validated table t
	// emits: InsertOnly, Upsert (keyed by t's primary key; the planner
	// normalizes it into a full changelog) or Retract (a full changelog).
	Produces(t *catalog.Table) ChangelogMode
}

// ProjectionPushDown is implemented by factories whose sources can read
// only the columns a query uses (Flink's SupportsProjectionPushDown):
// they decode and carry only the columns of SourceSpec.Columns.
type ProjectionPushDown interface {
	// ProjectionPushDown reports whether the sources of the validated
	// table t take a projection, and whether they read metadata columns
	// (Flink's SupportsReadingMetadata: EXPLAIN lists the metadata read).
	ProjectionPushDown(t *catalog.Table) (projects, readsMetadata bool)
}

// FlinkPushDowns is implemented by factories whose counterparts in Flink
// take a projection or a table's watermark into their sources (Flink's
// SupportsProjectionPushDown and SupportsWatermarkPushDown, as Kafka's
// KafkaDynamicSource): EXPLAIN shows their scans as Flink's optimizer
// leaves them, a projection and the watermark in the scan, and the scans
// of the others (datagen's DataGenTableSource, the nexmark benchmark's
// NexmarkTableSource) under a Calc and a WatermarkAssigner. Sluice's own
// sources take a projection where they implement ProjectionPushDown, and
// assign the watermark themselves, either way.
type FlinkPushDowns interface {
	// FlinkPushDowns reports whether Flink pushes a projection and the
	// watermark of the validated table t into its source.
	FlinkPushDowns(t *catalog.Table) (projection, watermark bool)
}

// Bounded is implemented by factories whose sources can end: Bounded
// reports whether reading the validated table t ends by itself.
type Bounded interface {
	Bounded(t *catalog.Table) bool
}

// CommitsOnCheckpoints is implemented by factories whose sinks can make
// their output visible only when a checkpoint completes (or their input
// ends): CommitsOnCheckpoints reports whether writing the validated table
// t does.
type CommitsOnCheckpoints interface {
	CommitsOnCheckpoints(t *catalog.Table) bool
}

var factories = map[string]Factory{}

// Register adds f to the registry; it is called from init functions.
func Register(f Factory) { factories[f.Name()] = f }

// Names returns the registered connector names, sorted.
func Names() []string {
	out := make([]string, 0, len(factories))
	for n := range factories {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// For returns the factory named by t's 'connector' option, or an error that
// names the problem and lists the choices.
func For(t *catalog.Table) (Factory, error) {
	name, ok := t.Options["connector"]
	if !ok {
		return nil, fmt.Errorf("table '%s' has no 'connector' option; available connectors: %s", t.Name, strings.Join(Names(), ", "))
	}
	f, ok := factories[name]
	if !ok {
		return nil, fmt.Errorf("unknown connector '%s' for table '%s'; available connectors: %s", name, t.Name, strings.Join(Names(), ", "))
	}
	return f, nil
}

// CheckNoMetadata rejects the metadata columns of t for a connector that
// neither reads nor writes metadata, with the messages of Flink's planner:
// a source reads none, a sink writes no persisted (non-VIRTUAL) one.
func CheckNoMetadata(t *catalog.Table, sink bool) error {
	for _, c := range t.Columns {
		switch {
		case !c.Metadata:
		case !sink:
			return fmt.Errorf("Table '%s' declares metadata columns, but the underlying DynamicTableSource doesn't implement the SupportsReadingMetadata interface. Therefore, metadata cannot be read from the given source.", t.ID().Summary())
		case !c.Virtual:
			return fmt.Errorf("Table '%s' declares persistable metadata columns, but the underlying DynamicTableSink doesn't implement the SupportsWritingMetadata interface. If the column should not be persisted, it can be declared with the VIRTUAL keyword.", t.ID().Summary())
		}
	}
	return nil
}

// SinkInput is the types of the rows a sink of t receives: its physical
// and persisted metadata columns in declaration order (Flink's consumed
// row type).
func SinkInput(t *catalog.Table) []types.Type {
	var out []types.Type
	for _, c := range t.Columns {
		if c.Computed == nil && !c.Virtual {
			out = append(out, c.Type)
		}
	}
	return out
}
