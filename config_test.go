package sluice

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestConfigRejectsSettingsThatWouldChangeResults: settings whose other
// values Flink honours by producing different results are refused with the
// reason, instead of being ignored; the default values and unknown keys
// are accepted.
func TestConfigRejectsSettingsThatWouldChangeResults(t *testing.T) {
	c := NewConfig()
	for _, tc := range []struct{ key, value, err string }{
		{"execution.runtime-mode", "batch", ""},
		{"execution.runtime-mode", "STREAMING", ""},
		{"execution.runtime-mode", "automatic", "'execution.runtime-mode' = 'automatic' is not supported: set 'streaming' or 'batch'"},
		{"execution.runtime-mode", "bulk", "invalid value 'bulk' for 'execution.runtime-mode': expected one of STREAMING, BATCH"},
		{"table.exec.mini-batch.enabled", "true", ""},
		{"table.exec.mini-batch.enabled", "sometimes", "invalid value 'sometimes' for 'table.exec.mini-batch.enabled': expected true or false"},
		{"table.exec.state.ttl", "1 h", ""},
		{"table.exec.state.ttl", "a day", "invalid value 'a day' for 'table.exec.state.ttl'"},
		{"table.exec.state.ttl", "0", ""},
		{"parallelism.default", "0", "expected a positive integer"},
		{"pipeline.auto-watermark-interval", "50 ms", ""},
		{"some.unknown.key", "anything", ""},
	} {
		err := c.Set(tc.key, tc.value)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("SET '%s' = '%s': %v", tc.key, tc.value, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("SET '%s' = '%s': error %v, want one containing %q", tc.key, tc.value, err, tc.err)
		}
	}
	if got := c.Get("some.unknown.key"); got != "anything" {
		t.Errorf("unknown key kept as %q", got)
	}
}

// TestSettingsHonouredOrRefused: every Flink key Sluice knows is checked
// at SET: an invalid value names the key and the values expected, a key
// Sluice does not implement is refused with the reason, unless it is set
// to the value Sluice behaves as (TableConfigOptions, SqlClientOptions,
// OptimizerConfigOptions).
func TestSettingsHonouredOrRefused(t *testing.T) {
	for _, tc := range []struct{ key, value, err string }{
		{"table.dml-sync", "true", ""},
		{"table.dml-sync", "yes", "invalid value 'yes' for 'table.dml-sync': expected true or false"},
		{"table.sql-dialect", "default", ""},
		{"table.sql-dialect", "hive", "'table.sql-dialect' = 'hive' is not supported: Sluice parses Flink's default SQL dialect only"},
		{"table.sql-dialect", "unknown", "invalid value 'unknown' for 'table.sql-dialect': expected one of default, hive"},
		{"table.display.max-column-width", "0", "invalid value '0' for 'table.display.max-column-width': expected a positive integer"},
		{"sql-client.execution.max-table-result.rows", "10", ""},
		// Flink's Integer options refuse what a Java int cannot hold.
		{"sql-client.execution.max-table-result.rows", "2147483648", "invalid value '2147483648' for 'sql-client.execution.max-table-result.rows': expected a positive integer up to 2147483647"},
		// Every row of a STRING column is padded to the width: a width
		// beyond the limit would print (and hold) gigabytes a row.
		{"table.display.max-column-width", "1048576", ""},
		{"sql-client.display.max-column-width", "1048577", "invalid value '1048577' for 'sql-client.display.max-column-width': expected a positive integer up to 1048576 (the widest column Sluice prints)"},
		{"table.display.max-column-width", "99999999999999999", "expected a positive integer up to 1048576"},
		{"sql-client.verbose", "true", ""},
		{"pipeline.name", "my job", ""},
		{"table.exec.resource.default-parallelism", "0", "expected -1 or a positive integer"},
		{"table.plan.force-recompile", "maybe", "invalid value 'maybe' for 'table.plan.force-recompile'"},
		{"table.optimizer.join-reorder-enabled", "false", ""},
		{"table.optimizer.join-reorder-enabled", "true", "'table.optimizer.join-reorder-enabled' = 'true' is not supported (joins run in the order written); only 'false' is"},
		{"table.exec.mini-batch.allow-latency", "5 s", ""},
		{"table.exec.mini-batch.allow-latency", "soon", "invalid value 'soon' for 'table.exec.mini-batch.allow-latency'"},
		{"table.exec.mini-batch.size", "5000", ""},
		{"table.exec.mini-batch.size", "many", "invalid value 'many' for 'table.exec.mini-batch.size': expected an integer"},
		{"table.optimizer.agg-phase-strategy", "two_phase", ""},
		{"table.optimizer.agg-phase-strategy", "THREE_PHASE", "expected one of AUTO, ONE_PHASE, TWO_PHASE"},
		{"table.exec.deduplicate.mini-batch.compact-changes-enabled", "true", "deduplication does not run in mini-batches yet"},
		// IncrementalAggregateRule: the option only combines the phases of a
		// split distinct aggregation, so with splitting refused either value
		// changes nothing (accepted with a warning, as Flink's default true
		// beside agg-phase-strategy TWO_PHASE is common).
		{"table.optimizer.incremental-agg-enabled", "true", ""},
		{"table.optimizer.incremental-agg-enabled", "false", ""},
		{"table.optimizer.incremental-agg-enabled", "maybe", "invalid value 'maybe' for 'table.optimizer.incremental-agg-enabled'"},
		{"pipeline.jars", "file:///a.jar", "'pipeline.jars' is not supported: Sluice runs no JARs"},
		{"sql-client.display.color-schema", "Obsidian", ""},
		{"sql-client.display.color-schema", "gester", "invalid value 'gester' for 'sql-client.display.color-schema': expected one of DEFAULT, DARK, LIGHT, CHESTER, DRACULA, SOLARIZED, VS2010, OBSIDIAN, GESHI"},
		{"execution.checkpointing.interval", "30 s", ""},
		{"execution.checkpointing.interval", "5 ms", "invalid value '5 ms' for 'execution.checkpointing.interval': expected a duration of at least 10 ms"},
		{"restart-strategy.type", "FixedDelay", ""},
		{"restart-strategy.type", "bogus", "invalid value 'bogus' for 'restart-strategy.type': expected none, fixed-delay, exponential-delay or failure-rate"},
		{"execution.checkpointing.unaligned.enabled", "true", "'execution.checkpointing.unaligned.enabled' = 'true' is not supported yet (barriers are aligned)"},
	} {
		err := NewConfig().Set(tc.key, tc.value)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("SET '%s' = '%s': %v", tc.key, tc.value, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("SET '%s' = '%s': error %v, want one containing %q", tc.key, tc.value, err, tc.err)
		}
	}
}

// TestSettingWarning: a key Sluice does not know is kept, with a
// warning naming the closest known key when one is near.
func TestSettingWarning(t *testing.T) {
	for key, want := range map[string]string{
		"table.dml-snyc":                          "'table.dml-snyc' is not a setting Sluice knows: it is kept, as Flink keeps any key, but changes nothing. Did you mean 'table.dml-sync'?",
		"parallelism.defualt":                     "Did you mean 'parallelism.default'?",
		"my.own.key":                              "'my.own.key' is not a setting Sluice knows: it is kept, as Flink keeps any key, but changes nothing.",
		"table.dml-sync":                          "",
		"s3.endpoint":                             "",
		"restart-strategy.type":                   "",
		"state.backend.type":                      "",
		"state.backend.incremental":               "",
		"state.backend.pebble.cache-entries":      "",
		"execution.checkpointing.incremental":     "",
		"table.optimizer.incremental-agg-enabled": "'table.optimizer.incremental-agg-enabled' is accepted but changes nothing in Sluice: it combines the phases of split distinct aggregations, and Sluice does not split them",
	} {
		got := SettingWarning(key)
		if want == "" && got != "" || !strings.Contains(got, want) || strings.HasSuffix(key, "key") && strings.Contains(got, "Did you mean") {
			t.Errorf("%s: warning %q, want %q", key, got, want)
		}
	}
}

// TestSetListsEffectiveSettings: SET lists every key with a value, the
// defaults included, and table.exec.resource.default-parallelism
// overrides parallelism.default when positive.
func TestSetListsEffectiveSettings(t *testing.T) {
	c := NewConfig()
	got := map[string]string{}
	for _, kv := range c.All() {
		got[kv[0]] = kv[1]
	}
	for k, v := range map[string]string{"table.dml-sync": "false", "table.display.max-column-width": "30",
		"sql-client.execution.max-table-result.rows": "1000000", "table.sql-dialect": "default", "parallelism.default": "1"} {
		if got[k] != v {
			t.Errorf("SET lists %s = %q, want %q", k, got[k], v)
		}
	}
	if _, ok := got["pipeline.name"]; ok {
		t.Error("SET lists pipeline.name, which has no default")
	}
	// Flink's defaults of checkpointing, restarts and the state backend;
	// the interval and the strategy have none.
	for k, v := range map[string]string{"execution.checkpointing.mode": "EXACTLY_ONCE", "execution.checkpointing.timeout": "10 min",
		"execution.checkpointing.min-pause": "0 ms", "execution.checkpointing.tolerable-failed-checkpoints": "0",
		"execution.checkpointing.num-retained": "1", "restart-strategy.fixed-delay.attempts": "1", "restart-strategy.exponential-delay.max-backoff": "1 min",
		"restart-strategy.failure-rate.failure-rate-interval": "1 min", "state.backend.type": "hashmap", "execution.checkpointing.incremental": "false"} {
		if got[k] != v {
			t.Errorf("SET lists %s = %q, want %q", k, got[k], v)
		}
	}
	for _, k := range []string{"execution.checkpointing.interval", "restart-strategy.type", "state.backend", "state.backend.incremental"} {
		if _, ok := got[k]; ok {
			t.Errorf("SET lists %s, which has no default", k)
		}
	}
	// A state backend set by its older name is listed by it alone, so
	// that a job recovered from the listed settings keeps it.
	old := NewConfig()
	if err := old.Set("state.backend", "rocksdb"); err != nil {
		t.Fatal(err)
	}
	for _, kv := range old.All() {
		if kv[0] == "state.backend.type" {
			t.Errorf("SET lists state.backend.type = %s beside state.backend", kv[1])
		}
	}
	if err := c.Set("parallelism.default", "3"); err != nil {
		t.Fatal(err)
	}
	if err := c.Set("table.exec.resource.default-parallelism", "2"); err != nil {
		t.Fatal(err)
	}
	if n := c.Parallelism(); n != 2 {
		t.Errorf("parallelism %d, want 2", n)
	}
	if err := c.Set("sql-client.display.max-column-width", "12"); err != nil {
		t.Fatal(err)
	}
	if n := c.MaxColumnWidth(); n != 12 {
		t.Errorf("column width %d, want the deprecated key's 12", n)
	}
	if err := c.Set("table.display.max-column-width", "40"); err != nil {
		t.Fatal(err)
	}
	if n := c.MaxColumnWidth(); n != 40 {
		t.Errorf("column width %d, want 40", n)
	}
}

// TestSettingsDocumented: docs/sql.md names every setting of config.go
// and settings.go, honoured, refused or accepted without effect, by each
// of Flink's names for it (those of checkpoints and restarts have their
// own section).
func TestSettingsDocumented(t *testing.T) {
	doc, err := os.ReadFile("docs/sql.md")
	if err != nil {
		t.Fatal(err)
	}
	keys := slices.Collect(maps.Keys(defaults))
	keys = append(keys, slices.Collect(maps.Keys(honoured))...)
	keys = append(keys, slices.Collect(maps.Keys(refused))...)
	keys = append(keys, slices.Collect(maps.Keys(unsupported))...)
	keys = append(keys, slices.Collect(maps.Keys(noEffect))...)
	keys = append(keys, slices.Collect(maps.Keys(settingIDs))...)
	for _, p := range noEffectPrefixes {
		keys = append(keys, p.prefix+"*")
	}
	for _, k := range keys {
		if !strings.Contains(string(doc), "`"+k+"`") {
			t.Errorf("docs/sql.md does not name the setting %s", k)
		}
	}
}

// TestMaxColumnWidthIsBounded: a width beyond the limit SET enforces, as a
// SQL gateway other than Sluice's may report, is cut to the limit.
func TestMaxColumnWidthIsBounded(t *testing.T) {
	for v, want := range map[string]int{"": 30, "40": 40, "99999999999": maxColumnWidth, "2147483647": maxColumnWidth, "99999999999999999999999": maxColumnWidth, "-99999999999999999999999": 30} {
		if got := MaxColumnWidth(func(k string) string {
			if k == ConfMaxColumnWidth {
				return v
			}
			return ""
		}); got != want {
			t.Errorf("width %q: got %d, want %d", v, got, want)
		}
	}
}
