package kafka

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/format"
	"github.com/sluicesql/sluice/internal/types"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Option keys, as in Flink's KafkaConnectorOptions.
const (
	optConnector       = "connector"
	optTopic           = "topic"
	optTopicPattern    = "topic-pattern"
	optBootstrap       = "properties.bootstrap.servers"
	optGroupID         = "properties.group.id"
	optProperties      = "properties.*"
	optFormat          = "format"
	optValueFormat     = "value.format"
	optKeyFormat       = "key.format"
	optKeyFields       = "key.fields"
	optKeyPrefix       = "key.fields-prefix"
	optValueInclude    = "value.fields-include"
	optStartupMode     = "scan.startup.mode"
	optStartupOffsets  = "scan.startup.specific-offsets"
	optStartupMillis   = "scan.startup.timestamp-millis"
	optBoundedMode     = "scan.bounded.mode"
	optBoundedOffsets  = "scan.bounded.specific-offsets"
	optBoundedMillis   = "scan.bounded.timestamp-millis"
	optDiscovery       = "scan.topic-partition-discovery.interval"
	optPartitioner     = "sink.partitioner"
	optGuarantee       = "sink.delivery-guarantee"
	optSemantic        = "sink.semantic"
	optTxnPrefix       = "sink.transactional-id-prefix"
	optSinkParallelism = connector.SinkParallelismKey
	optFlushRows       = "sink.buffer-flush.max-rows"
	optFlushInterval   = "sink.buffer-flush.interval"

	propertiesPrefix = "properties."
)

// Offset modes of 'scan.startup.mode' and 'scan.bounded.mode'.
const (
	modeEarliest  = "earliest-offset"
	modeLatest    = "latest-offset"
	modeGroup     = "group-offsets"
	modeTimestamp = "timestamp"
	modeSpecific  = "specific-offsets"
	modeUnbounded = "unbounded"
)

var (
	startupModes = []string{modeEarliest, modeLatest, modeGroup, modeTimestamp, modeSpecific}
	boundedModes = []string{modeUnbounded, modeLatest, modeGroup, modeTimestamp, modeSpecific}
)

// Values of 'value.fields-include', 'sink.partitioner' and
// 'sink.delivery-guarantee'.
const (
	includeAll       = "ALL"
	includeExceptKey = "EXCEPT_KEY"

	partitionDefault    = "default"
	partitionFixed      = "fixed"
	partitionRoundRobin = "round-robin"

	guaranteeAtLeastOnce = "at-least-once"
	guaranteeNone        = "none"
	guaranteeExactlyOnce = "exactly-once"
)

var (
	topicOptions = []connector.OptionSpec{
		{Key: optTopic, Description: "Topic to read from or write to. A source may read several topics separated by ';'."},
		{Key: optTopicPattern, Description: "Regular expression for the topics to read. Not supported yet."},
		{Key: optBootstrap, Required: true, Description: "Comma-separated list of Kafka brokers."},
		{Key: optProperties, Prefix: true, Description: "Kafka client configurations (the names of Kafka's consumer, producer and admin client configs, " +
			"and of Flink's Kafka source options). Each is honoured, accepted without effect where Flink overrides it, or refused by name; " +
			"other names are refused with the closest known one."},
	}
	boundedOptions = []connector.OptionSpec{
		{Key: optBoundedMode, Default: modeUnbounded, Description: "Where the source stops: unbounded, latest-offset, group-offsets, timestamp or specific-offsets."},
		{Key: optBoundedOffsets, Description: "End offsets for 'specific-offsets' bounded mode, e.g. 'partition:0,offset:42;partition:1,offset:300'."},
		{Key: optBoundedMillis, Description: "End timestamp (epoch milliseconds) for 'timestamp' bounded mode; records from this timestamp on are not read."},
	}
	sinkOptions = []connector.OptionSpec{
		{Key: optGuarantee, Default: guaranteeAtLeastOnce, Description: "Delivery guarantee of the sink: at-least-once, exactly-once (Kafka transactions committed when checkpoints complete) or none."},
		{Key: optTxnPrefix, Description: "Prefix of the transactional ids of an exactly-once sink; required with 'exactly-once', and unique among the applications writing to the same Kafka cluster."},
		{Key: optSinkParallelism, Description: "Parallelism of the sink."},
	}

	kafkaOptions = slices.Concat(topicOptions, []connector.OptionSpec{
		{Key: optGroupID, Description: "Consumer group whose committed offsets 'group-offsets' reads; offsets of emitted records are committed to it."},
		{Key: optFormat, Description: "Format of the record value (same as 'value.format')."},
		{Key: optValueFormat, Description: "Format of the record value."},
		{Key: optKeyFormat, Description: "Format of the record key."},
		{Key: optKeyFields, Description: "Physical columns, separated by ';', that make up the record key."},
		{Key: optKeyPrefix, Description: "Prefix of the key columns' names, removed to get the key format's field names."},
		{Key: optValueInclude, Default: includeAll, Description: "Which physical columns the value holds: ALL or EXCEPT_KEY."},
		{Key: optStartupMode, Default: modeGroup, Description: "Where the source starts: earliest-offset, latest-offset, group-offsets, timestamp or specific-offsets."},
		{Key: optStartupOffsets, Description: "Start offsets for 'specific-offsets' startup mode, e.g. 'partition:0,offset:42;partition:1,offset:300'."},
		{Key: optStartupMillis, Description: "Start timestamp (epoch milliseconds) for 'timestamp' startup mode."},
		{Key: optDiscovery, Default: "5 min", Description: "How often an unbounded source looks for new partitions, and a bounded one whether its topics still exist; 0 disables both."},
		{Key: optPartitioner, Default: partitionDefault, Description: "How rows map to partitions: default (murmur2 of the key, sticky without key), fixed (sink instance i writes partition i mod n) or round-robin."},
		{Key: optSemantic, Description: "Deprecated synonym of 'sink.delivery-guarantee'."},
	}, boundedOptions, sinkOptions)

	upsertOptions = slices.Concat(topicOptions, []connector.OptionSpec{
		{Key: optKeyFormat, Required: true, Description: "Format of the record key, which holds the primary key columns."},
		{Key: optValueFormat, Required: true, Description: "Format of the record value."},
		{Key: optKeyPrefix, Description: "Prefix of the key columns' names, removed to get the key format's field names."},
		{Key: optValueInclude, Default: includeAll, Description: "Which physical columns the value holds: ALL or EXCEPT_KEY."},
		{Key: optFlushRows, Default: "0", Description: "Rows the sink buffers, keeping the last row per key, before writing; 0 disables buffering."},
		{Key: optFlushInterval, Default: "0 s", Description: "Interval at which the sink writes its buffer; 0 disables buffering."},
	}, boundedOptions, sinkOptions)
)

// deprecatedOptions are shown as such in the list of supported options.
var deprecatedOptions = map[string]bool{optSemantic: true}

// offsetSpec is a parsed startup or bounded mode.
type offsetSpec struct {
	mode     string
	millis   int64
	specific map[int32]int64
}

// side is the key or the value part of a record: its format and the table
// columns it holds.
type side struct {
	format  string
	prefix  string // option prefix of the format, e.g. "value.json."
	options map[string]string
	isKey   bool
	cols    []int        // positions in the table schema, in format field order
	fields  types.Schema // the format's fields (key prefix removed)
}

// metaColumn is a metadata column of the table.
type metaColumn struct {
	col     int
	key     string
	virtual bool
	typ     types.Type
}

// tableConfig is a validated table: everything the source and the sink need.
type tableConfig struct {
	connector  string
	schema     types.Schema
	topics     []string
	props      map[string]string // 'properties.*' without the prefix
	clientOpts []kgo.Opt
	groupID    string
	startup    offsetSpec
	bounded    offsetSpec
	discovery  time.Duration
	key        *side
	value      side
	meta       []metaColumn
	// formatMeta are the metadata columns the value format reads
	// ('value.' keys of a changelog format), key without the prefix.
	formatMeta []metaColumn
	upsert     bool
	// guarantee is 'sink.delivery-guarantee', txnPrefix
	// 'sink.transactional-id-prefix'.
	guarantee    string
	txnPrefix    string
	hasTxnPrefix bool
	partitioner  string
	parallelism  int
	flushRows    int
	flushEvery   time.Duration
}

// optionReader reads a table's options with Flink's parse errors.
type optionReader = connector.Options

// parseTable validates t for the connector described by specs and returns
// its configuration. It checks options, formats, key and value columns and
// metadata columns; source-only and sink-only checks are left to NewSource
// and NewSink.
func parseTable(t *catalog.Table, name string, specs []connector.OptionSpec) (*tableConfig, error) {
	o := optionReader(t.Options)
	upsert := name == upsertName
	if err := connector.CheckRequired(o, specs); err != nil {
		return nil, err
	}
	c := &tableConfig{connector: name, schema: t.Schema(), upsert: upsert, props: map[string]string{}}
	for k, v := range o {
		if rest, ok := strings.CutPrefix(k, propertiesPrefix); ok {
			c.props[rest] = v
		}
	}
	c.groupID = c.props["group.id"]

	// Formats first, so that their options count as supported.
	valueKey := optValueFormat
	if !upsert {
		_, hasFormat := o[optFormat]
		_, hasValue := o[optValueFormat]
		switch {
		case hasFormat && hasValue:
			return nil, fmt.Errorf("Option '%s' and '%s' shouldn't be set together.", optFormat, optValueFormat)
		case hasFormat:
			valueKey = optFormat
		case !hasValue:
			return nil, fmt.Errorf("Could not find required format: set '%s' or '%s'.", optFormat, optValueFormat)
		}
	}
	var err error
	if c.value, err = newSide(o, valueKey, false); err != nil {
		return nil, err
	}
	if upsert && format.IsChangelog(c.value.format) {
		return nil, fmt.Errorf("'%s' connector doesn't support '%s' as value format, because '%s' is not in insert-only mode.", upsertName, c.value.format, c.value.format)
	}
	if _, ok := o[optKeyFormat]; ok {
		k, err := newSide(o, optKeyFormat, true)
		if err != nil {
			return nil, err
		}
		c.key = &k
	}
	if err := checkUnsupported(o, name, specs, c.sides()); err != nil {
		return nil, err
	}
	if c.clientOpts, err = clientOptions(c.props); err != nil {
		return nil, err
	}

	if err := c.parseTopics(o); err != nil {
		return nil, err
	}
	if err := c.parseScan(o); err != nil {
		return nil, err
	}
	if err := c.parseSink(o); err != nil {
		return nil, err
	}
	if err := checkPartitionerProperties(c.props, c.partitioner); err != nil {
		return nil, err
	}
	if err := checkTransactionProperties(c.props, c.guarantee); err != nil {
		return nil, err
	}
	if err := c.project(t, o); err != nil {
		return nil, err
	}
	if err := c.parseMetadata(t); err != nil {
		return nil, err
	}
	// Building the codecs validates the formats' options and field types.
	if _, err := c.codecs(nil); err != nil {
		return nil, err
	}
	return c, nil
}

// newSide looks up the format named by the option key ('format',
// 'value.format' or 'key.format') and gathers its options.
func newSide(o optionReader, key string, isKey bool) (side, error) {
	name := o[key]
	if _, err := format.Lookup(name); err != nil {
		return side{}, fmt.Errorf("invalid value for option '%s': %w", key, err)
	}
	sidePrefix := strings.TrimSuffix(key, optFormat)
	return side{
		format:  name,
		prefix:  sidePrefix + name + ".",
		options: format.Extract(o, sidePrefix, name),
		isKey:   isKey,
	}, nil
}

func (c *tableConfig) sides() []*side {
	if c.key == nil {
		return []*side{&c.value}
	}
	return []*side{c.key, &c.value}
}

// checkUnsupported rejects option keys that neither the connector nor its
// formats know, with Flink's FactoryUtil message.
func checkUnsupported(o optionReader, name string, specs []connector.OptionSpec, sides []*side) error {
	supported := map[string]bool{optConnector: true}
	for _, s := range specs {
		if !s.Prefix {
			supported[s.Key] = true
		}
	}
	for _, sd := range sides {
		f, _ := format.Lookup(sd.format)
		for _, s := range f.Options() {
			if !s.IsMap {
				supported[sd.prefix+s.Name] = true
				for _, fb := range s.Fallback {
					supported[sd.prefix+fb] = true
				}
			}
		}
	}
	known := func(k string) bool {
		if supported[k] || strings.HasPrefix(k, propertiesPrefix) {
			return true
		}
		for _, sd := range sides {
			rest, ok := strings.CutPrefix(k, sd.prefix)
			if !ok {
				continue
			}
			f, _ := format.Lookup(sd.format)
			for _, s := range f.Options() {
				if s.IsMap && strings.HasPrefix(rest, s.Name+".") {
					return true
				}
			}
		}
		return false
	}
	var unknown []string
	for k := range o {
		if known(k) {
			supported[k] = true
		} else {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	list := make([]string, 0, len(supported))
	for k := range supported {
		if deprecatedOptions[k] {
			k += " (deprecated)"
		}
		list = append(list, k)
	}
	return connector.UnsupportedOptionsError(name, unknown, list)
}

func (c *tableConfig) parseTopics(o optionReader) error {
	topic, hasTopic := o[optTopic]
	_, hasPattern := o[optTopicPattern]
	switch {
	case hasTopic && hasPattern:
		return fmt.Errorf("Option '%s' and '%s' shouldn't be set together.", optTopic, optTopicPattern)
	case hasPattern:
		return fmt.Errorf("Option '%s' is not supported yet; list the topics in '%s', separated by ';'.", optTopicPattern, optTopic)
	case !hasTopic:
		return fmt.Errorf("Either '%s' or '%s' must be set.", optTopic, optTopicPattern)
	}
	for _, t := range strings.Split(topic, ";") {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(c.topics, t) {
			c.topics = append(c.topics, t)
		}
	}
	if len(c.topics) == 0 {
		return fmt.Errorf("Option '%s' must name at least one topic.", optTopic)
	}
	return nil
}

func (c *tableConfig) parseScan(o optionReader) error {
	var err error
	c.startup.mode = modeEarliest // upsert-kafka always reads everything
	if !c.upsert {
		if c.startup, err = parseOffsetSpec(o, "startup", optStartupMode, modeGroup, startupModes, optStartupMillis, optStartupOffsets, len(c.topics)); err != nil {
			return err
		}
	}
	if c.bounded, err = parseOffsetSpec(o, "bounded", optBoundedMode, modeUnbounded, boundedModes, optBoundedMillis, optBoundedOffsets, len(c.topics)); err != nil {
		return err
	}
	if c.discovery, err = o.Duration(optDiscovery, "5 min"); err != nil {
		return err
	}
	return nil
}

// parseOffsetSpec reads a startup or bounded mode with its parameter.
func parseOffsetSpec(o optionReader, what, modeKey, def string, modes []string, millisKey, offsetsKey string, topics int) (offsetSpec, error) {
	var s offsetSpec
	var err error
	if s.mode, err = o.Enum(modeKey, def, modes); err != nil {
		return s, err
	}
	missing := func(key string) error {
		return fmt.Errorf("'%s' is required in '%s' %s mode but missing.", key, s.mode, what)
	}
	switch s.mode {
	case modeTimestamp:
		var ok bool
		if s.millis, ok, err = o.Int64(millisKey); err != nil {
			return s, err
		} else if !ok {
			return s, missing(millisKey)
		}
	case modeSpecific:
		v, ok := o[offsetsKey]
		if !ok {
			return s, missing(offsetsKey)
		}
		if topics != 1 {
			return s, fmt.Errorf("Currently Kafka source only supports specific offset for single topic.")
		}
		if s.specific, err = parseSpecificOffsets(offsetsKey, v); err != nil {
			return s, err
		}
	}
	return s, nil
}

// parseSpecificOffsets reads 'partition:0,offset:42;partition:1,offset:300'.
func parseSpecificOffsets(key, v string) (map[int32]int64, error) {
	bad := fmt.Errorf("Invalid properties '%s' should follow the format 'partition:0,offset:42;partition:1,offset:300', but is '%s'.", key, v)
	out := map[int32]int64{}
	for _, pair := range strings.Split(v, ";") {
		ps, os, ok := strings.Cut(pair, ",")
		if !ok {
			return nil, bad
		}
		ps, ok1 := strings.CutPrefix(ps, "partition:")
		os, ok2 := strings.CutPrefix(os, "offset:")
		if !ok1 || !ok2 {
			return nil, bad
		}
		p, err1 := strconv.ParseInt(ps, 10, 32)
		off, err2 := strconv.ParseInt(os, 10, 64)
		if err1 != nil || err2 != nil || p < 0 || off < 0 {
			return nil, bad
		}
		out[int32(p)] = off
	}
	return out, nil
}

func (c *tableConfig) parseSink(o optionReader) error {
	var err error
	if c.partitioner, err = parsePartitioner(o); err != nil {
		return err
	}
	def := guaranteeAtLeastOnce
	if v, ok := o[optSemantic]; ok {
		def = strings.ReplaceAll(strings.ToLower(v), "_", "-")
	}
	// Without checkpoints 'none' and 'at-least-once' behave alike: the sink
	// flushes at the end of its input, and produce errors fail the job.
	// With checkpoints, at-least-once also flushes at each barrier, and
	// exactly-once writes in transactions (sink_txn.go; its own checks
	// come with the sink, checkExactlyOnce).
	if c.guarantee, err = o.Enum(optGuarantee, def, []string{guaranteeAtLeastOnce, guaranteeExactlyOnce, guaranteeNone}); err != nil {
		return err
	}
	c.txnPrefix, c.hasTxnPrefix = o[optTxnPrefix]
	if c.parallelism, err = connector.SinkParallelism(o); err != nil {
		return err
	}
	if !c.upsert {
		return nil
	}
	rows, _, err := o.Int64(optFlushRows)
	if err != nil {
		return err
	}
	if c.flushEvery, err = o.Duration(optFlushInterval, "0"); err != nil {
		return err
	}
	if (rows > 0) != (c.flushEvery > 0) {
		return fmt.Errorf("'%s' and '%s' must be set to be greater than zero together to enable sink buffer flushing.", optFlushRows, optFlushInterval)
	}
	if rows > 0 {
		c.flushRows = int(min(rows, 1<<31-1))
	} else {
		c.flushEvery = 0
	}
	return nil
}

// parsePartitioner reads 'sink.partitioner'.
func parsePartitioner(o optionReader) (string, error) {
	p := o.String(optPartitioner, partitionDefault)
	switch p {
	case "":
		return "", fmt.Errorf("Option '%s' should be a non-empty string.", optPartitioner)
	case partitionDefault, partitionFixed:
		return p, nil
	case partitionRoundRobin:
		if _, ok := o[optKeyFields]; ok {
			return "", fmt.Errorf("Currently 'round-robin' partitioner only works when option '%s' is not specified.", optKeyFields)
		}
		return p, nil
	}
	return "", fmt.Errorf("Could not find and instantiate partitioner class '%s'", p)
}

// project works out which physical columns the key and the value hold, as
// Flink's createKeyFormatProjection and createValueFormatProjection do.
func (c *tableConfig) project(t *catalog.Table, o optionReader) error {
	var physical []string
	var physIdx []int
	for i, col := range t.Columns {
		if col.IsPhysical() {
			physical = append(physical, col.Name)
			physIdx = append(physIdx, i)
		}
	}
	prefix := o[optKeyPrefix]
	include, err := o.Enum(optValueInclude, includeAll, []string{includeAll, includeExceptKey})
	if err != nil {
		return err
	}
	if include == includeAll && prefix != "" {
		return fmt.Errorf("A key prefix is not allowed when option '%s' is set to '%s'. Set it to '%s' instead to avoid field overlaps.",
			optValueInclude, includeAll, includeExceptKey)
	}

	var keyFields []string
	if c.upsert {
		if len(t.PrimaryKey) == 0 {
			return fmt.Errorf("'upsert-kafka' tables require to define a PRIMARY KEY constraint. " +
				"The PRIMARY KEY specifies which columns should be read from or write to the Kafka message key. " +
				"The PRIMARY KEY also defines records in the 'upsert-kafka' table should update or delete on which keys.")
		}
		keyFields = t.PrimaryKey
	} else {
		fields, hasFields := o[optKeyFields]
		switch {
		case c.key == nil && hasFields:
			return fmt.Errorf("The option '%s' can only be declared if a key format is defined using '%s'.", optKeyFields, optKeyFormat)
		case c.key != nil && strings.TrimSpace(fields) == "":
			return fmt.Errorf("A key format '%s' requires the declaration of one or more of key fields using '%s'.", optKeyFormat, optKeyFields)
		}
		if hasFields {
			keyFields = strings.Split(fields, ";")
		}
		if len(t.PrimaryKey) > 0 && !format.IsChangelog(c.value.format) {
			return fmt.Errorf("The Kafka table '%s' with '%s' format doesn't support defining PRIMARY KEY constraint on the table, because it can't guarantee the semantic of primary key.",
				t.Name, c.value.format)
		}
	}

	inKey := map[int]bool{}
	if c.key != nil {
		for _, f := range keyFields {
			f = strings.TrimSpace(f)
			pos := slices.Index(physical, f)
			if pos < 0 {
				return fmt.Errorf("Could not find the field '%s' in the table schema for usage in the key format. "+
					"A key field must be a regular, physical column. The following columns can be selected in the '%s' option:\n[%s]",
					f, optKeyFields, strings.Join(physical, ", "))
			}
			if !strings.HasPrefix(f, prefix) {
				return fmt.Errorf("All fields in '%s' must be prefixed with '%s' when option '%s' is set but field '%s' is not prefixed.",
					optKeyFields, prefix, optKeyPrefix, f)
			}
			col := physIdx[pos]
			c.key.cols = append(c.key.cols, col)
			c.key.fields = append(c.key.fields, types.Field{Name: strings.TrimPrefix(f, prefix), Type: c.schema[col].Type.Plain()})
			inKey[col] = true
		}
	}
	for _, col := range physIdx {
		if include == includeExceptKey && inKey[col] {
			continue
		}
		c.value.cols = append(c.value.cols, col)
		c.value.fields = append(c.value.fields, types.Field{Name: c.schema[col].Name, Type: c.schema[col].Type.Plain()})
	}
	return nil
}

// The metadata keys of Flink's Kafka source and sink.
const (
	metaTopic         = "topic"
	metaPartition     = "partition"
	metaHeaders       = "headers"
	metaLeaderEpoch   = "leader-epoch"
	metaOffset        = "offset"
	metaTimestamp     = "timestamp"
	metaTimestampType = "timestamp-type"
)

var readableMeta = []string{metaTopic, metaPartition, metaLeaderEpoch, metaOffset, metaTimestamp, metaTimestampType}

// metaTypeOK reports whether a column of type t can hold metadata key k,
// and names k's own type.
func metaTypeOK(k string, t types.Type) (bool, string) {
	switch k {
	case metaTopic:
		return t.IsString(), "STRING NOT NULL"
	case metaTimestampType:
		return t.IsString(), "STRING NOT NULL"
	case metaPartition:
		return t.Kind == types.Int || t.Kind == types.BigInt, "INT NOT NULL"
	case metaLeaderEpoch:
		return t.Kind == types.Int || t.Kind == types.BigInt, "INT"
	case metaOffset:
		return t.Kind == types.BigInt, "BIGINT NOT NULL"
	default: // metaTimestamp
		return t.IsTimestamp(), "TIMESTAMP_LTZ(3) NOT NULL"
	}
}

func (c *tableConfig) parseMetadata(t *catalog.Table) error {
	for i, col := range t.Columns {
		if !col.Metadata {
			continue
		}
		k := col.MetadataKey
		if k == "" {
			k = col.Name
		}
		if spec, ok := c.valueMeta(k); ok {
			if !format.CheckMetadataType(spec, col.Type) {
				return fmt.Errorf("Invalid data type for metadata column '%s' of table '%s': metadata key '%s' is of type %s and cannot be read as %s.",
					col.Name, t.Name, k, spec.Type, col.Type.Plain())
			}
			fk := spec.Key
			c.formatMeta = append(c.formatMeta, metaColumn{col: i, key: fk, virtual: col.Virtual, typ: col.Type})
			continue
		}
		if k == metaHeaders {
			return fmt.Errorf("Metadata key '%s' in column '%s' of table '%s' is not supported yet.", k, col.Name, t.Name)
		}
		if !slices.Contains(readableMeta, k) {
			keys := slices.Clone(readableMeta)
			for _, m := range c.valueMetaSpecs() {
				keys = append(keys, valueMetaPrefix+m.Key)
			}
			return fmt.Errorf("Invalid metadata key '%s' in column '%s' of table '%s'. The '%s' connector supports the following metadata keys for reading:\n%s",
				k, col.Name, t.Name, c.connector, strings.Join(keys, "\n"))
		}
		if ok, own := metaTypeOK(k, col.Type); !ok {
			return fmt.Errorf("Invalid data type for metadata column '%s' of table '%s': metadata key '%s' is of type %s and cannot be read as %s.",
				col.Name, t.Name, k, own, col.Type.Plain())
		}
		c.meta = append(c.meta, metaColumn{col: i, key: k, virtual: col.Virtual, typ: col.Type})
	}
	return nil
}

// valueMetaPrefix prefixes the value format's metadata keys, as in
// Flink's KafkaDynamicSource.
const valueMetaPrefix = "value."

// valueMetaSpecs lists the metadata of the value format (none unless it
// is a changelog format).
func (c *tableConfig) valueMetaSpecs() []format.MetadataSpec {
	f, _ := format.Lookup(c.value.format)
	if cf, ok := f.(format.ChangelogFactory); ok {
		return cf.Metadata()
	}
	return nil
}

// valueMeta finds the value format's metadata named by a column's key
// ('value.source.table').
func (c *tableConfig) valueMeta(key string) (format.MetadataSpec, bool) {
	fk, ok := strings.CutPrefix(key, valueMetaPrefix)
	if !ok {
		return format.MetadataSpec{}, false
	}
	for _, m := range c.valueMetaSpecs() {
		if m.Key == fk {
			return m, true
		}
	}
	return format.MetadataSpec{}, false
}

// codecSet is a table's codecs: the key's (nil without a key) and the
// value's, a ChangelogCodec for a changelog format (value is then nil).
type codecSet struct {
	key, value format.Codec
	changes    format.ChangelogCodec
}

// codecs builds one codec per side.
func (c *tableConfig) codecs(loc *time.Location) (codecSet, error) {
	var cs codecSet
	config := func(s *side) format.Config {
		return format.Config{
			Fields:       s.fields,
			Options:      s.options,
			OptionPrefix: s.prefix,
			Topic:        c.topics[0],
			IsKey:        s.isKey,
			TimeZone:     loc,
		}
	}
	wrap := func(s *side, err error) error {
		return fmt.Errorf("%s format '%s': %w", map[bool]string{true: "key", false: "value"}[s.isKey], s.format, err)
	}
	var err error
	if c.key != nil {
		if cs.key, err = format.New(c.key.format, config(c.key)); err != nil {
			return cs, wrap(c.key, err)
		}
	}
	if format.IsChangelog(c.value.format) {
		cfg := config(&c.value)
		for _, m := range c.formatMeta {
			cfg.Metadata = append(cfg.Metadata, format.MetadataColumn{Key: m.key, Type: m.typ})
		}
		if cs.changes, err = format.NewChangelog(c.value.format, cfg); err != nil {
			return cs, wrap(&c.value, err)
		}
		return cs, nil
	}
	if cs.value, err = format.New(c.value.format, config(&c.value)); err != nil {
		return cs, wrap(&c.value, err)
	}
	return cs, nil
}
