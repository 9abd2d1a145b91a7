// Package kafka implements the 'kafka' and 'upsert-kafka' table connectors
// after Flink's Apache Kafka and Upsert Kafka SQL connectors, on franz-go.
//
// A source instance i of n reads, for the k-th topic of 'topic', the
// partitions p with (k + p) mod n = i, assigned directly (no consumer group
// membership); with one topic, the partitions p mod n = i. Records become
// rows whose columns follow the table schema: key columns from the record
// key, value columns from the value, metadata columns from the record, and
// computed columns from SourceSpec.Complete. Watermarks are tracked per
// partition and emitted periodically.
//
// A sink instance encodes rows into records and produces them
// asynchronously. Its input rows hold the table's physical and non-virtual
// metadata columns, in declaration order (Flink's consumed row type). The
// sink target also has a Parallelism() int method giving
// 'sink.parallelism' (0 when unset).
//
// Missing topics are created with the broker's default partition count and
// replication factor before use, as a broker that auto-creates topics
// would.
//
// Validation messages follow Flink's wording, capitals and full stops
// included, so that they read the same as Flink's.
package kafka

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/format"
)

const (
	kafkaName  = "kafka"
	upsertName = "upsert-kafka"
)

func init() {
	connector.Register(&factory{name: kafkaName, specs: kafkaOptions})
	connector.Register(&factory{name: upsertName, specs: upsertOptions})
}

// factory is the connector.Factory of 'kafka' and 'upsert-kafka'.
type factory struct {
	name  string
	specs []connector.OptionSpec
}

// Name implements connector.Factory.
func (f *factory) Name() string { return f.name }

// Options implements connector.Factory.
func (f *factory) Options() []connector.OptionSpec { return f.specs }

// Validate implements connector.Factory.
func (f *factory) Validate(t *catalog.Table) error {
	_, err := parseTable(t, f.name, f.specs)
	return err
}

// NewSource implements connector.Factory.
func (f *factory) NewSource(t *catalog.Table, spec connector.SourceSpec) (connector.ScanSource, error) {
	cfg, err := parseTable(t, f.name, f.specs)
	if err != nil {
		return nil, err
	}
	if (cfg.startup.mode == modeGroup || cfg.bounded.mode == modeGroup) && cfg.groupID == "" {
		return nil, fmt.Errorf("Property group.id is required when using committed offset for offsets initializer")
	}
	if commitsAsked(cfg.props) && cfg.groupID == "" {
		return nil, fmt.Errorf("Property group.id is required when offset commit is enabled")
	}
	return &scanSource{cfg: cfg, spec: spec}, nil
}

// ProjectionPushDown implements connector.ProjectionPushDown: a source
// decodes only the key and value fields and reads only the metadata of
// the columns a query uses, as Flink's KafkaDynamicSource does.
func (f *factory) ProjectionPushDown(*catalog.Table) (projects, readsMetadata bool) {
	return true, true
}

// FlinkPushDowns implements connector.FlinkPushDowns: Flink's
// KafkaDynamicSource implements SupportsProjectionPushDown and
// SupportsWatermarkPushDown, for the kafka and upsert-kafka connectors
// alike.
func (f *factory) FlinkPushDowns(*catalog.Table) (projection, watermark bool) { return true, true }

// Bounded implements connector.Bounded: a table with a 'scan.bounded.mode'
// other than unbounded ends.
func (f *factory) Bounded(t *catalog.Table) bool {
	cfg, err := parseTable(t, f.name, f.specs)
	return err == nil && cfg.bounded.mode != modeUnbounded
}

// CommitsOnCheckpoints implements connector.CommitsOnCheckpoints: an
// exactly-once sink commits its transactions when checkpoints complete.
func (f *factory) CommitsOnCheckpoints(t *catalog.Table) bool {
	cfg, err := parseTable(t, f.name, f.specs)
	return err == nil && cfg.guarantee == guaranteeExactlyOnce
}

// Accepts implements connector.Factory: upsert-kafka writes the changes
// of its primary key, kafka with a changelog value format ('debezium-json',
// ...) every change, and kafka otherwise appends only.
func (f *factory) Accepts(t *catalog.Table) connector.ChangelogMode {
	switch {
	case f.name == upsertName:
		return connector.Upsert
	case format.IsChangelog(valueFormat(t)):
		return connector.Retract
	}
	return connector.InsertOnly
}

// valueFormat is the name of t's value format.
func valueFormat(t *catalog.Table) string {
	if v, ok := t.Options[optFormat]; ok {
		return v
	}
	return t.Options[optValueFormat]
}

// Produces implements connector.Factory: an upsert-kafka table is read as
// upserts keyed by its primary key, a kafka table with a changelog value
// format as the full changelog its messages hold, other kafka tables as
// appends.
func (f *factory) Produces(t *catalog.Table) connector.ChangelogMode { return f.Accepts(t) }

// NewSink implements connector.Factory.
func (f *factory) NewSink(t *catalog.Table, env connector.Env) (connector.SinkTarget, error) {
	cfg, err := parseTable(t, f.name, f.specs)
	if err != nil {
		return nil, err
	}
	if len(cfg.topics) > 1 {
		return nil, fmt.Errorf("The '%s' sink writes to a single topic, but '%s' lists %d: %s",
			f.name, optTopic, len(cfg.topics), strings.Join(cfg.topics, ";"))
	}
	if err := cfg.checkExactlyOnce(); err != nil {
		return nil, err
	}
	cs, err := cfg.codecs(env.TimeZone)
	if err != nil {
		return nil, err
	}
	if cs.changes != nil {
		if err := cs.changes.CanEncode(); err != nil {
			return nil, err
		}
	}
	var input []int
	for i, c := range t.Columns {
		if c.IsPhysical() {
			input = append(input, i)
		}
	}
	for _, m := range cfg.meta {
		if m.virtual {
			continue
		}
		if m.key != metaTimestamp {
			return nil, fmt.Errorf("Invalid metadata key '%s' in column '%s' of table '%s'. The '%s' connector supports the following metadata keys for writing:\n%s\n"+
				"Declare the column VIRTUAL to read it without writing it.",
				m.key, cfg.schema[m.col].Name, t.Name, f.name, metaTimestamp)
		}
		input = append(input, m.col)
	}
	// Declaration order: metadata columns may sit between physical ones.
	slices.Sort(input)
	return &sinkTarget{cfg: cfg, env: env, input: input}, nil
}
