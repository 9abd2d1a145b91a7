package sluice

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/textdist"
)

// Settings of Flink's table configuration (TableConfigOptions,
// ExecutionConfigOptions, PipelineOptions) and SQL client
// (SqlClientOptions) that Sluice honours, beyond the ones of config.go,
// checkpoints.go and restart.go.
const (
	// ConfDMLSync is table.dml-sync: an INSERT (or statement set, or
	// CREATE TABLE AS) returns once its job has ended.
	ConfDMLSync = "table.dml-sync"
	// ConfPipelineName is pipeline.name: the name of the jobs the session
	// submits, instead of insert-into_<sinks>.
	ConfPipelineName = "pipeline.name"
	// ConfMaxColumnWidth is table.display.max-column-width, the width at
	// which the client truncates values of variable width;
	// ConfClientMaxColumnWidth is its deprecated SQL client spelling,
	// read when the former is not set.
	ConfMaxColumnWidth       = "table.display.max-column-width"
	ConfClientMaxColumnWidth = "sql-client.display.max-column-width"
	// ConfMaxTableResultRows is sql-client.execution.max-table-result.rows:
	// the rows the table result mode keeps, the oldest dropped first.
	ConfMaxTableResultRows = "sql-client.execution.max-table-result.rows"
	// ConfVerbose is sql-client.verbose: errors are shown with their
	// chain of causes.
	ConfVerbose = "sql-client.verbose"
	// ConfPrintTimeCost is sql-client.display.print-time-cost: result
	// footers tell how long the statement took.
	ConfPrintTimeCost = "sql-client.display.print-time-cost"
	// ConfSQLDialect is table.sql-dialect; only Flink's default dialect.
	ConfSQLDialect = "table.sql-dialect"
	// ConfDefaultParallelism is table.exec.resource.default-parallelism:
	// when positive, it overrides parallelism.default for the operators
	// of SQL jobs, as in Flink.
	ConfDefaultParallelism = "table.exec.resource.default-parallelism"
	// ConfSinkNotNullEnforcer is table.exec.sink.not-null-enforcer: a
	// NULL written into a NOT NULL sink column fails the job (ERROR) or
	// drops the row (DROP).
	ConfSinkNotNullEnforcer = "table.exec.sink.not-null-enforcer"
	// ConfColorSchema is sql-client.display.color-schema: the style the
	// interactive client highlights the statement being typed in, one of
	// ColorSchemas.
	ConfColorSchema = "sql-client.display.color-schema"
	// ConfOperatorChaining is pipeline.operator-chaining.enabled (once
	// pipeline.operator-chaining): forward-connected operators of equal
	// parallelism run in one goroutine, as Flink chains them into one
	// task (runtime.Graph.DisableChaining when false).
	ConfOperatorChaining = "pipeline.operator-chaining.enabled"
	// ConfRuntimeMode is execution.runtime-mode: 'streaming' (the
	// default) or 'batch' (see docs/sql.md, "Batch mode").
	ConfRuntimeMode = "execution.runtime-mode"
)

// ColorSchemas are the values of sql-client.display.color-schema, Flink's
// built-in highlight styles (SyntaxHighlightStyle.BuiltInStyle), compared
// ignoring case. Flink falls back to DEFAULT for any other name; Sluice
// refuses it.
var ColorSchemas = []string{"DEFAULT", "DARK", "LIGHT", "CHESTER", "DRACULA", "SOLARIZED", "VS2010", "OBSIDIAN", "GESHI"}

// honoured are the settings of this file with their defaults ("" for
// none) and their checks; SET lists those with a default.
var honoured = map[string]struct {
	def   string
	check func(key, value string) error
}{
	ConfDMLSync:             {"false", checkBool},
	ConfPipelineName:        {"", nil},
	ConfMaxColumnWidth:      {"30", checkMaxColumnWidth},
	ConfMaxTableResultRows:  {"1000000", checkPositive},
	ConfVerbose:             {"false", checkBool},
	ConfPrintTimeCost:       {"false", checkBool},
	ConfSQLDialect:          {"default", checkDialect},
	ConfDefaultParallelism:  {"-1", checkDefaultParallelism},
	confForceRecompile:      {"false", checkBool},
	ConfSinkNotNullEnforcer: {"ERROR", checkNotNullEnforcer},
	ConfOperatorChaining:    {"true", checkBool},
	ConfMiniBatchEnabled:    {"false", checkBool},
	ConfMiniBatchLatency:    {"0 ms", checkDuration},
	ConfMiniBatchSize:       {"-1", checkLong},
	ConfAggPhaseStrategy:    {"AUTO", checkAggPhaseStrategy},
	ConfColorSchema:         {"DEFAULT", checkColorSchema},
	ConfRuntimeMode:         {"", checkRuntimeMode},
	ConfReuseSubPlan:        {"true", checkBool},
	ConfReuseSource:         {"true", checkBool},
}

// checkRuntimeMode accepts Flink's runtime modes but AUTOMATIC, which
// would choose by the sources' boundedness.
func checkRuntimeMode(key, value string) error {
	switch strings.ToUpper(strings.TrimSpace(value)) {
	case "STREAMING", "BATCH":
		return nil
	case "AUTOMATIC":
		return fmt.Errorf("'%s' = '%s' is not supported: set 'streaming' or 'batch'", key, value)
	}
	return fmt.Errorf("invalid value '%s' for '%s': expected one of STREAMING, BATCH", value, key)
}

// Batch reports whether the session runs in batch mode
// (execution.runtime-mode = 'batch').
func (c *Config) Batch() bool {
	return strings.EqualFold(strings.TrimSpace(c.Get(ConfRuntimeMode)), "batch")
}

// Sub-plan reuse (OptimizerConfigOptions): see docs/sql.md, "Shared
// sub-plans".
const (
	// ConfReuseSubPlan is table.optimizer.reuse-sub-plan-enabled: equal
	// parts of a statement's (or statement set's) plan run once.
	ConfReuseSubPlan = "table.optimizer.reuse-sub-plan-enabled"
	// ConfReuseSource is table.optimizer.reuse-source-enabled: equal
	// scans of a table are one source, when sub-plans are reused.
	ConfReuseSource = "table.optimizer.reuse-source-enabled"
)

// reuse returns the parts of plans the planner shares.
func (c *Config) reuse() planner.Reuse {
	return planner.Reuse{SubPlans: c.boolSetting(ConfReuseSubPlan), Sources: c.boolSetting(ConfReuseSource)}
}

// Mini-batch settings (ExecutionConfigOptions, OptimizerConfigOptions):
// see docs/sql.md, "Mini-batch aggregation".
const (
	// ConfMiniBatchEnabled is table.exec.mini-batch.enabled.
	ConfMiniBatchEnabled = "table.exec.mini-batch.enabled"
	// ConfMiniBatchLatency is table.exec.mini-batch.allow-latency: how
	// long a batch lasts.
	ConfMiniBatchLatency = "table.exec.mini-batch.allow-latency"
	// ConfMiniBatchSize is table.exec.mini-batch.size: the most rows an
	// operator buffers in a batch.
	ConfMiniBatchSize = "table.exec.mini-batch.size"
	// ConfAggPhaseStrategy is table.optimizer.agg-phase-strategy.
	ConfAggPhaseStrategy = "table.optimizer.agg-phase-strategy"
)

// checkDuration accepts a duration in Flink's syntax.
func checkDuration(key, value string) error {
	if _, err := ParseDuration(value); err != nil {
		return fmt.Errorf("invalid value '%s' for '%s': %v", value, key, err)
	}
	return nil
}

// checkLong accepts any 64-bit integer, as Flink's Long options do;
// what a value means is checked where it is used.
func checkLong(key, value string) error {
	if _, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64); err != nil {
		return fmt.Errorf("invalid value '%s' for '%s': expected an integer", value, key)
	}
	return nil
}

// checkAggPhaseStrategy accepts the values of Flink's
// AggregatePhaseStrategy enum.
func checkAggPhaseStrategy(key, value string) error {
	switch strings.ToUpper(strings.TrimSpace(value)) {
	case "AUTO", "ONE_PHASE", "TWO_PHASE":
		return nil
	}
	return fmt.Errorf("invalid value '%s' for '%s': expected one of AUTO, ONE_PHASE, TWO_PHASE", value, key)
}

// miniBatch returns the mini-batch settings the planner applies: none in
// batch mode, where mini-batches, a streaming optimization in Flink, do
// not apply.
func (c *Config) miniBatch() planner.MiniBatch {
	if c.Batch() {
		return planner.MiniBatch{}
	}
	size, _ := strconv.ParseInt(strings.TrimSpace(c.Get(ConfMiniBatchSize)), 10, 64)
	latency, _ := ParseDuration(c.Get(ConfMiniBatchLatency))
	return planner.MiniBatch{Enabled: c.boolSetting(ConfMiniBatchEnabled), Latency: latency, Size: size,
		OnePhase: strings.EqualFold(strings.TrimSpace(c.Get(ConfAggPhaseStrategy)), "ONE_PHASE")}
}

// checkColorSchema accepts the names of ColorSchemas.
func checkColorSchema(key, value string) error {
	for _, s := range ColorSchemas {
		if strings.EqualFold(strings.TrimSpace(value), s) {
			return nil
		}
	}
	return fmt.Errorf("invalid value '%s' for '%s': expected one of %s", value, key, strings.Join(ColorSchemas, ", "))
}

// checkNotNullEnforcer accepts the values of Flink's NotNullEnforcer enum.
func checkNotNullEnforcer(key, value string) error {
	switch strings.ToUpper(strings.TrimSpace(value)) {
	case "ERROR", "DROP":
		return nil
	}
	return fmt.Errorf("invalid value '%s' for '%s': expected ERROR or DROP", value, key)
}

func checkBool(key, value string) error {
	if _, err := strconv.ParseBool(strings.TrimSpace(value)); err != nil {
		return fmt.Errorf("invalid value '%s' for '%s': expected true or false", value, key)
	}
	return nil
}

func checkPositive(key, value string) error {
	return checkPositiveUpTo(key, value, math.MaxInt32, "")
}

// maxColumnWidth bounds table.display.max-column-width: every row of a
// column without a natural width (STRING) is padded to it, so a width of
// billions would print, and hold, gigabytes a row.
const maxColumnWidth = 1 << 20

// checkMaxColumnWidth checks table.display.max-column-width.
func checkMaxColumnWidth(key, value string) error {
	return checkPositiveUpTo(key, value, maxColumnWidth, " (the widest column Sluice prints)")
}

// checkPositiveUpTo accepts an integer from 1 to limit; Flink's Integer
// options have the limit of a Java int.
func checkPositiveUpTo(key, value string, limit int64, why string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(strings.TrimSpace(value), "-"), err == nil && n > limit:
		return fmt.Errorf("invalid value '%s' for '%s': expected a positive integer up to %d%s", value, key, limit, why)
	case err != nil || n < 1:
		return fmt.Errorf("invalid value '%s' for '%s': expected a positive integer", value, key)
	}
	return nil
}

// checkDialect accepts Flink's default dialect; the Hive dialect is
// refused by name, anything else is no dialect (Flink's SqlDialect enum).
func checkDialect(key, value string) error {
	switch strings.ToLower(strings.TrimSpace(value)) {
	case "default":
		return nil
	case "hive":
		return fmt.Errorf("'%s' = '%s' is not supported: Sluice parses Flink's default SQL dialect only", key, value)
	}
	return fmt.Errorf("invalid value '%s' for '%s': expected one of default, hive", value, key)
}

// checkDefaultParallelism accepts -1 (no override) or a parallelism.
func checkDefaultParallelism(key, value string) error {
	n, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil || n == 0 || n < -1 {
		return fmt.Errorf("invalid value '%s' for '%s': expected -1 or a positive integer", value, key)
	}
	if n > runtime.MaxInstances {
		return fmt.Errorf("invalid value '%s' for '%s': Sluice runs at most %d instances of an operator", value, key, runtime.MaxInstances)
	}
	return nil
}

// boolSetting reads a boolean setting (checked by SET).
func (c *Config) boolSetting(key string) bool {
	b, _ := strconv.ParseBool(strings.TrimSpace(c.Get(key)))
	return b
}

// DMLSync reports table.dml-sync.
func (c *Config) DMLSync() bool { return c.boolSetting(ConfDMLSync) }

// Verbose reports sql-client.verbose.
func (c *Config) Verbose() bool { return c.boolSetting(ConfVerbose) }

// PrintTimeCost reports sql-client.display.print-time-cost.
func (c *Config) PrintTimeCost() bool { return c.boolSetting(ConfPrintTimeCost) }

// MaxColumnWidth returns table.display.max-column-width, or its deprecated
// spelling sql-client.display.max-column-width when only that is set.
func (c *Config) MaxColumnWidth() int { return MaxColumnWidth(c.Get) }

// MaxColumnWidth returns the column width the settings read by get give
// (get returns a key's effective value, "" for none, as SET lists them):
// that of table.display.max-column-width, unless it is unset or has its
// default and the deprecated sql-client.display.max-column-width is set.
// A width SET would refuse (a gateway other than Sluice's may hold one) is
// cut to the widest Sluice prints.
func MaxColumnWidth(get func(key string) string) int {
	v := get(ConfMaxColumnWidth)
	if old := get(ConfClientMaxColumnWidth); old != "" && (v == "" || strings.TrimSpace(v) == honoured[ConfMaxColumnWidth].def) {
		v = old
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	switch {
	case err == nil && n > 0:
		return min(n, maxColumnWidth)
	case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(strings.TrimSpace(v), "-"):
		return maxColumnWidth // wider than an int holds
	}
	return 30
}

// refused lists the Flink settings Sluice does not implement, each with
// the values it behaves as (setting one of those is accepted, since it
// changes nothing) and why the others are refused. A value is compared
// ignoring case; durations by their length.
var refused = map[string]onlyValues{
	// TableConfigOptions.
	"table.builtin-catalog-name":           {[]string{"default_catalog"}, "the built-in catalog keeps its name"},
	"table.builtin-database-name":          {[]string{"default_database"}, "the built-in database keeps its name"},
	"table.catalog-modification.listeners": {nil, "Sluice loads no listener factories"},
	"table.column-expansion-strategy":      {[]string{""}, "SELECT * expands every column"},
	"table.dynamic-table-options.enabled":  {[]string{"true"}, "OPTIONS hints are always allowed"},
	"table.generated-code.max-length":      {[]string{"4000"}, "Sluice generates no code"},
	"table.optimizer.ignore-query-hints":   {[]string{"false"}, "the STATE_TTL query hint is always honoured"},
	"table.plan.compile.catalog-objects":   {[]string{"ALL"}, "a compiled plan holds its tables whole"},
	"table.plan.restore.catalog-objects":   {[]string{"ALL", "ALL_ENFORCED"}, "a plan is restored from what it holds, without catalog lookups"},
	"table.resources.download-dir":         {nil, "Sluice downloads no resources (ADD JAR)"},
	"table.rtas-ctas.atomicity-enabled":    {[]string{"false"}, "CREATE TABLE AS creates the table before its job runs"},
	// ExecutionConfigOptions.
	"table.exec.legacy-cast-behaviour":                             {[]string{"DISABLED"}, "CAST follows Flink's current rules"},
	"table.exec.sink.upsert-materialize":                           {[]string{"NONE"}, "Sluice adds no upsert materializer before sinks"},
	"table.exec.sink.type-length-enforcer":                         {[]string{"IGNORE"}, "values are not trimmed or padded to CHAR/VARCHAR lengths"},
	"table.exec.sink.keyed-shuffle":                                {nil, "the exchange before a sink is not configurable"},
	"table.exec.sink.rowtime-inserter":                             {nil, "Kafka sinks set no record time from a rowtime column"},
	"table.exec.source.cdc-events-duplicate":                       {[]string{"false"}, "duplicate change events are not deduplicated"},
	"table.exec.async-lookup.buffer-capacity":                      {nil, "Sluice has no lookup joins"},
	"table.exec.async-lookup.output-mode":                          {nil, "Sluice has no lookup joins"},
	"table.exec.async-lookup.timeout":                              {nil, "Sluice has no lookup joins"},
	"table.exec.window-agg.buffer-size-limit":                      {nil, "window aggregation keeps no separate buffer"},
	"table.exec.rank.topn-cache-size":                              {nil, "Top-N keeps no cache"},
	"table.exec.interval-join.min-cleanup-interval":                {[]string{"0 ms"}, "unmatched rows of an interval join are cleaned up at once"},
	"table.exec.deduplicate.insert-update-after-sensitive-enabled": {[]string{"true"}, "deduplication emits INSERT for a key's first row"},
	"table.exec.deduplicate.mini-batch.compact-changes-enabled":    {[]string{"false"}, "deduplication does not run in mini-batches yet"},
	"table.exec.simplify-operator-name-enabled":                    {nil, "operator names are not configurable"},
	"table.exec.uid.generation":                                    {nil, "operators are identified by their plan node's stable ID"},
	"table.exec.uid.format":                                        {nil, "operators are identified by their plan node's stable ID"},
	"table.exec.disabled-operators":                                {nil, "batch mode runs the streaming operators; Flink's batch operators and shuffles are not implemented"},
	"table.exec.shuffle-mode":                                      {nil, "batch mode runs the streaming operators; Flink's batch operators and shuffles are not implemented"},
	"table.exec.legacy-transformation-uids":                        {[]string{"false"}, "operators are identified by their plan node's stable ID"},
	"table.exec.sort.default-limit":                                {nil, "batch mode runs the streaming operators; Flink's batch operators and shuffles are not implemented"},
	"table.exec.sort.max-num-file-handles":                         {nil, "batch mode runs the streaming operators; Flink's batch operators and shuffles are not implemented"},
	"table.exec.sort.async-merge-enabled":                          {nil, "batch mode runs the streaming operators; Flink's batch operators and shuffles are not implemented"},
	"table.exec.spill-compression.enabled":                         {nil, "batch mode runs the streaming operators; Flink's batch operators and shuffles are not implemented"},
	"table.exec.spill-compression.block-size":                      {nil, "batch mode runs the streaming operators; Flink's batch operators and shuffles are not implemented"},
	"table.exec.local-hash-agg.adaptive.enabled":                   {nil, "batch mode runs the streaming operators; Flink's batch operators and shuffles are not implemented"},
	"table.exec.operator-fusion-codegen.enabled":                   {[]string{"false"}, "Sluice generates no code"},
	"table.exec.async-state.enabled":                               {[]string{"false"}, "state is accessed synchronously"},
	"table.exec.emit.early-fire.enabled":                           {[]string{"false"}, "windows emit only when they close"},
	"table.exec.emit.late-fire.enabled":                            {[]string{"false"}, "late rows are dropped"},
	// OptimizerConfigOptions.
	"table.optimizer.distinct-agg.split.enabled":        {[]string{"false"}, "distinct aggregations are not split"},
	"table.optimizer.distinct-agg.split.bucket-num":     {[]string{"1024"}, "distinct aggregations are not split"},
	"table.optimizer.join-reorder-enabled":              {[]string{"false"}, "joins run in the order written"},
	"table.optimizer.multiple-input-enabled":            {nil, "the optimizer has no multiple-input operators"},
	"table.optimizer.source.predicate-pushdown-enabled": {[]string{"false"}, "no connector takes filters"},
	"table.optimizer.source.report-statistics-enabled":  {nil, "the optimizer uses no statistics"},
	"table.optimizer.non-deterministic-update.strategy": {[]string{"IGNORE"}, "non-deterministic updates are not checked"},
	"table.optimizer.dynamic-filtering.enabled":         {nil, "batch mode runs the streaming operators; Flink's batch operators and shuffles are not implemented"},
	"table.optimizer.runtime-filter.enabled":            {nil, "batch mode runs the streaming operators; Flink's batch operators and shuffles are not implemented"},
	"table.optimizer.union-all-as-breakpoint-enabled":   {nil, "the optimizer has no breakpoints"},
	"table.optimizer.bushy-join-reorder-threshold":      {nil, "joins run in the order written"},
	// SqlClientOptions.
	"sql-client.display.show-line-numbers": {[]string{"false"}, "the prompt shows no line numbers"},
	// PipelineOptions and ExecutionOptions.
	"pipeline.jars":                                {nil, "Sluice runs no JARs"},
	"pipeline.classpaths":                          {nil, "Sluice runs no JARs"},
	"pipeline.object-reuse":                        {nil, "rows are exchanged in chunks, never as objects"},
	"pipeline.closure-cleaner-level":               {nil, "Sluice has no closures to clean"},
	"pipeline.generic-types":                       {nil, "Sluice has no generic types"},
	"pipeline.global-job-parameters":               {nil, "Sluice runs no user functions"},
	"pipeline.cached-files":                        {nil, "Sluice runs no user functions"},
	"pipeline.vertex-description-mode":             {nil, "operators are described in EXPLAIN only"},
	"execution.buffer-timeout.interval":            {nil, "operators hand over chunks as they fill or their input pauses"},
	"execution.batch-shuffle-mode":                 {nil, "batch mode runs the streaming operators; Flink's batch operators and shuffles are not implemented"},
	"execution.target":                             {nil, "jobs run in the Sluice process"},
	"execution.attached":                           {[]string{"true"}, "the client stays attached to the jobs it runs"},
	"execution.shutdown-on-attached-exit":          {[]string{"false"}, "jobs end with the process that runs them (or wait in its data directory)"},
	"execution.savepoint-restore-mode":             {[]string{"NO_CLAIM"}, "a restored savepoint or checkpoint is never deleted"},
	"execution.checkpointing.snapshot-compression": {[]string{"false"}, "checkpoint parts are written uncompressed"},
	"pipeline.jobvertex-parallelism-overrides":     {nil, "the parallelism of single operators is not configurable"},
	"execution.buffer-timeout.enabled":             {nil, "operators hand over chunks as they fill or their input pauses"},
	// CheckpointingOptions, StateRecoveryOptions, StateBackendOptions.
	"execution.checkpointing.storage":                        {[]string{"filesystem"}, "checkpoints are written to files under 'execution.checkpointing.dir'; 'jobmanager' would keep them in memory"},
	"execution.checkpointing.create-subdir":                  {[]string{"true"}, "checkpoints are written to a directory per job"},
	"execution.checkpointing.checkpoints-after-tasks-finish": {[]string{"true"}, "checkpoints go on after some source instances have finished"},
	"execution.checkpointing.unaligned.forced":               {[]string{"false"}, "barriers are aligned"},
	"execution.checkpointing.file-merging.enabled":           {[]string{"false"}, "checkpoint files are not merged"},
	"execution.checkpointing.local-backup.enabled":           {[]string{"false"}, "no local copy of a checkpoint is kept: a job recovers from its checkpoint storage"},
	"execution.state-recovery.from-local":                    {[]string{"false"}, "no local copy of a checkpoint is kept: a job recovers from its checkpoint storage"},
	"execution.state-recovery.approximate-local-recovery":    {[]string{"false"}, "a failed job restarts whole from its latest checkpoint"},
	"state.backend.changelog.enabled":                        {[]string{"false"}, "the changelog state backend is not implemented"},
	"state.latency-track.keyed-state-enabled":                {[]string{"false"}, "the latency of state access is not measured"},
}

// noEffect lists Flink settings that Sluice accepts although they change
// nothing in it, because what they tune does not exist in Sluice and no
// result depends on them; each with the check of its values and why. SET
// of one warns with the reason (SettingWarning). Keys under the prefixes
// of noEffectPrefixes are accepted alike, with any value.
var noEffect = map[string]noEffectValues{
	// IncrementalAggregateRule: it merges global-agg1 and local-agg2 of a
	// distinct aggregation split in four (table.optimizer.distinct-agg.split.enabled).
	"table.optimizer.incremental-agg-enabled": {checkBool, "it combines the phases of split distinct aggregations, and Sluice does not split them"},

	"execution.checkpointing.aligned-checkpoint-timeout":                    {checkDuration, "it tunes unaligned checkpoints, which Sluice refuses"},
	"execution.checkpointing.unaligned.interruptible-timers.enabled":        {checkBool, "it tunes unaligned checkpoints, which Sluice refuses"},
	"execution.checkpointing.unaligned.max-subtasks-per-channel-state-file": {checkPositive, "it tunes unaligned checkpoints, which Sluice refuses"},
	"execution.state-recovery.without-channel-state.checkpoint-id":          {checkLong, "a Sluice checkpoint holds no in-flight data (barriers are aligned)"},
	"execution.checkpointing.interval-during-backlog":                       {checkDuration, "no Sluice source reports a backlog (nor does Flink's Kafka source)"},
	"execution.checkpointing.cleaner.parallel-mode":                         {checkBool, "it tunes how a discarded checkpoint's files are deleted, not which are kept"},
	"execution.checkpointing.data-inline-threshold":                         {checkMemorySize, "checkpoint files have Sluice's own layout"},
	"execution.checkpointing.write-buffer-size":                             {checkPositive, "checkpoint files have Sluice's own layout"},
	"execution.checkpointing.file-merging.across-checkpoint-boundary":       {checkBool, "it tunes the merging of checkpoint files, which is off"},
	"execution.checkpointing.file-merging.max-file-size":                    {checkMemorySize, "it tunes the merging of checkpoint files, which is off"},
	"execution.checkpointing.file-merging.pool-blocking":                    {checkBool, "it tunes the merging of checkpoint files, which is off"},
	"execution.checkpointing.file-merging.max-subtasks-per-file":            {checkPositive, "it tunes the merging of checkpoint files, which is off"},
	"execution.checkpointing.file-merging.max-space-amplification":          {checkFloat, "it tunes the merging of checkpoint files, which is off"},
	"execution.checkpointing.local-backup.dirs":                             {nil, "it tunes the local backup of checkpoints, which is off"},
	"state.backend.async": {checkBool, "Flink ignores it too: every snapshot is asynchronous"},
	"pipeline.operator-chaining.chain-operators-with-different-max-parallelism": {checkBool, "every operator of a Sluice job has the job's one max parallelism ('pipeline.max-parallelism')"},
	"execution.sorted-inputs.enabled":                                           {checkBool, "it tunes the DataStream API's batch execution (sorted inputs), which Sluice's batch mode does not use: it runs the streaming operators"},
	"execution.sorted-inputs.memory":                                            {checkMemorySize, "it tunes the DataStream API's batch execution (sorted inputs), which Sluice's batch mode does not use: it runs the streaming operators"},
	"execution.batch-state-backend.enabled":                                     {checkBool, "it tunes the DataStream API's batch execution (sorted inputs), which Sluice's batch mode does not use: it runs the streaming operators"},
}

// noEffectPrefixes are families of settings accepted with any value,
// changing nothing, and why.
var noEffectPrefixes = []struct{ prefix, why string }{
	{"state.backend.rocksdb.", "it tunes RocksDB; Sluice's on-disk backend is Pebble ('state.backend.pebble.cache-entries')"},
	{"state.backend.forst.", "it tunes the ForSt backend, which Sluice refuses"},
	{"state.backend.changelog.", "it tunes the changelog state backend, which is off"},
	{"state.changelog.", "it tunes the changelog state backend, which is off"},
	{"state.latency-track.", "it tunes the tracking of state access latency, which is off"},
}

// noEffectValues is how a setting of noEffect is checked, and why it
// changes nothing.
type noEffectValues struct {
	check func(key, value string) error
	why   string
}

// noEffectSetting returns how the setting key (as settingID names it) is
// checked if it is one that changes nothing in Sluice.
func noEffectSetting(key string) (noEffectValues, bool) {
	if _, ok := refused[key]; ok {
		return noEffectValues{}, false // state.backend.changelog.enabled, ...
	}
	if n, ok := noEffect[key]; ok {
		return n, true
	}
	for _, p := range noEffectPrefixes {
		if strings.HasPrefix(key, p.prefix) {
			return noEffectValues{why: p.why}, true
		}
	}
	return noEffectValues{}, false
}

// checkFloat accepts a number.
func checkFloat(key, value string) error {
	if _, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err != nil {
		return fmt.Errorf("invalid value '%s' for '%s': expected a number", value, key)
	}
	return nil
}

// checkMemorySize accepts a size in the syntax of Flink's MemorySize: a
// number of bytes with an optional unit (b, k/kb/kibibytes, m/mb, g/gb,
// t/tb, any case).
func checkMemorySize(key, value string) error {
	v := strings.ToLower(strings.TrimSpace(value))
	i := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	if i < 0 {
		i = len(v)
	}
	unit := strings.TrimSpace(v[i:])
	if _, err := strconv.ParseUint(v[:i], 10, 63); err == nil {
		switch unit {
		case "", "b", "bytes", "k", "kb", "kibibytes", "m", "mb", "mebibytes", "g", "gb", "gibibytes", "t", "tb", "tebibytes":
			return nil
		}
	}
	return fmt.Errorf("invalid value '%s' for '%s': expected a memory size such as '20kb' or '32 mb'", value, key)
}

// onlyValues are the values Sluice behaves as for a setting it does not
// implement (none: every value is refused), and why.
type onlyValues struct {
	values []string
	why    string
}

func (o onlyValues) accepts(v string) bool {
	v = strings.TrimSpace(v)
	for _, want := range o.values {
		if strings.EqualFold(v, want) {
			return true
		}
		if d, err := ParseDuration(want); err == nil && strings.HasSuffix(want, "ms") {
			if got, err := ParseDuration(v); err == nil && got == d {
				return true
			}
		}
	}
	return false
}

// check refuses a value of a setting Sluice does not implement.
func (o onlyValues) check(key, value string) error {
	if o.accepts(value) {
		return nil
	}
	if len(o.values) == 0 {
		return fmt.Errorf("'%s' is not supported: %s", key, o.why)
	}
	quoted := make([]string, len(o.values))
	for i, v := range o.values {
		quoted[i] = "'" + v + "'"
	}
	return fmt.Errorf("'%s' = '%s' is not supported (%s); only %s is", key, value, o.why, strings.Join(quoted, " or "))
}

// knownSettings lists every key KnownSetting knows by name, sorted.
func knownSettings() []string {
	var out []string
	for k := range honoured {
		out = append(out, k)
	}
	for k := range refused {
		out = append(out, k)
	}
	for k := range defaults {
		out = append(out, k)
	}
	for k := range unsupported {
		out = append(out, k)
	}
	for k := range noEffect {
		out = append(out, k)
	}
	for k := range settingIDs {
		out = append(out, k)
	}
	out = append(out, ConfCheckpointInterval, ConfCheckpointMode, ConfCheckpointTimeout, ConfCheckpointMinPause,
		ConfCheckpointTolerable, ConfCheckpointsDir, ConfCheckpointsRetained, ConfSavepointsDir, ConfSavepointPath,
		ConfIgnoreUnclaimed, ConfRestartStrategy, ConfFixedDelayAttempts, ConfFixedDelayDelay, ConfExpInitialBackoff,
		ConfExpMaxBackoff, ConfExpMultiplier, ConfExpResetThreshold, ConfExpJitter, ConfExpAttemptsPerReset,
		ConfRateMaxFailures, ConfRateInterval, ConfRateDelay,
		ConfStateBackend, ConfStateBackendOld, ConfIncremental, ConfIncrementalOld, ConfPebbleCacheEntries)
	slices.Sort(out)
	return slices.Compact(out)
}

// SettingWarning returns the warning for SET of a key that changes
// nothing: one Sluice accepts as Flink does but has nothing to tune with
// (noEffect), with the reason, or one Sluice does not know
// (IsSupportedSetting), naming the closest known key when one is near; ""
// for a key Sluice honours or refuses.
func SettingWarning(key string) string {
	if n, ok := noEffectSetting(settingID(key)); ok {
		return fmt.Sprintf("'%s' is accepted but changes nothing in Sluice: %s.", key, n.why)
	}
	if IsSupportedSetting(key) {
		return ""
	}
	msg := fmt.Sprintf("'%s' is not a setting Sluice knows: it is kept, as Flink keeps any key, but changes nothing.", key)
	if near := closestSetting(key); near != "" {
		msg += fmt.Sprintf(" Did you mean '%s'?", near)
	}
	return msg
}

// closestSetting returns the known key nearest to key in edit distance,
// if it is within a third of key's length (at most 4 edits).
func closestSetting(key string) string {
	best, bestD := "", min(4, len(key)/3)+1
	for _, k := range knownSettings() {
		if d := textdist.Levenshtein(strings.ToLower(key), k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}
