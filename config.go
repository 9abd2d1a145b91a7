package sluice

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/runtime"
)

// Configuration keys Sluice understands, with Flink's names.
const (
	ConfParallelism       = "parallelism.default"
	ConfMaxParallelism    = "pipeline.max-parallelism"
	ConfTimeZone          = "table.local-time-zone"
	ConfResultMode        = "sql-client.execution.result-mode"
	ConfWatermarkInterval = "pipeline.auto-watermark-interval"
	ConfIdleTimeout       = "table.exec.source.idle-timeout"
	// ConfStateTTL is Flink's ExecutionConfigOptions.IDLE_STATE_RETENTION:
	// how long stateful operators keep a key's state after its last
	// write; 0 keeps it for ever.
	ConfStateTTL = "table.exec.state.ttl"
)

// defaults are the session configuration before any SET.
var defaults = map[string]string{
	ConfParallelism:       "1",
	ConfMaxParallelism:    "128",
	ConfTimeZone:          "default",
	ConfResultMode:        "table",
	ConfWatermarkInterval: "200 ms",
	ConfIdleTimeout:       "0 ms",
}

// Config is a session's configuration (SET / RESET).
type Config struct {
	values map[string]string
	// base holds the engine's own defaults (those of its data
	// directory), over the built-in ones; RESET returns to them.
	base map[string]string
}

// NewConfig returns the default configuration.
func NewConfig() *Config { return &Config{values: map[string]string{}} }

// Set validates and stores key = value. A setting Flink knows by several
// names (flinkNames) is stored under the name given, replacing the others
// the session set.
func (c *Config) Set(key, value string) error {
	if err := checkSetting(key, value); err != nil {
		return err
	}
	for _, n := range settingNames(key) {
		delete(c.values, n)
	}
	c.values[key] = value
	return nil
}

// checkSetting validates key = value, whichever of its names key is.
func checkSetting(key, value string) error {
	id := settingID(key)
	switch id {
	case ConfParallelism:
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 {
			return fmt.Errorf("invalid value '%s' for '%s': expected a positive integer", value, key)
		}
		if n > runtime.MaxInstances {
			// Every instance is a goroutine that hears from every instance
			// upstream of it: see runtime.MaxInstances.
			return fmt.Errorf("invalid value '%s' for '%s': Sluice runs at most %d instances of an operator", value, key, runtime.MaxInstances)
		}
	case ConfMaxParallelism:
		// Flink's bounds (KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM).
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > runtime.UpperBoundMaxParallelism {
			return fmt.Errorf("invalid value '%s' for '%s': expected an integer from 1 to %d", value, key, runtime.UpperBoundMaxParallelism)
		}
	case ConfTimeZone:
		if _, err := loadZone(value); err != nil {
			return err
		}
	case ConfResultMode:
		switch strings.ToLower(value) {
		case "table", "tableau", "changelog":
		default:
			return fmt.Errorf("invalid value '%s' for '%s': expected one of table, tableau, changelog", value, key)
		}
	case ConfWatermarkInterval, ConfIdleTimeout, ConfStateTTL:
		d, err := ParseDuration(value)
		if err != nil {
			return fmt.Errorf("invalid value '%s' for '%s': %v", value, key, err)
		}
		if key == ConfWatermarkInterval && d < time.Millisecond {
			// ExecutionConfig.setAutoWatermarkInterval keeps whole
			// milliseconds, and 0 turns periodic watermarks off.
			return fmt.Errorf("'%s' = '%s' is not supported: Flink keeps the interval in whole milliseconds, and one below 1 ms turns periodic watermarks off, which Sluice does not support", key, value)
		}
	default:
		if ok, err := checkCheckpointSetting(key, value); ok {
			if err != nil {
				return err
			}
			break
		}
		if ok, err := checkStateSetting(key, value); ok {
			if err != nil {
				return err
			}
			break
		}
		if ok, err := checkRestartSetting(key, value); ok {
			if err != nil {
				return err
			}
			break
		}
		if only, ok := unsupported[id]; ok && !only.accepts(value) {
			return fmt.Errorf("'%s' = '%s' is not supported yet (%s); only '%s' is", key, value, only.why, only.value)
		}
		if h, ok := honoured[id]; ok && h.check != nil {
			if err := h.check(key, value); err != nil {
				return err
			}
		}
		if r, ok := refused[id]; ok {
			if err := r.check(key, value); err != nil {
				return err
			}
		}
		if n, ok := noEffectSetting(id); ok && n.check != nil {
			if err := n.check(key, value); err != nil {
				return err
			}
		}
	}
	return nil
}

// unsupported lists Flink settings whose other values would change results
// in ways Sluice does not implement yet: setting them is an error rather
// than a silently different answer. Settings of settings.go are honoured
// or refused there; other keys are kept, as Flink keeps them
// (SettingWarning).
var unsupported = map[string]onlyValue{
	"execution.checkpointing.max-concurrent-checkpoints":        {"1", "checkpoints are taken one at a time", nil},
	"execution.checkpointing.unaligned.enabled":                 {"false", "barriers are aligned", nil},
	"execution.checkpointing.externalized-checkpoint-retention": {"RETAIN_ON_CANCELLATION", "checkpoints are kept when a job stops", nil},
}

// onlyValue is the one value Sluice supports for a setting.
type onlyValue struct {
	value, why string
	// same, when set, compares values (durations); otherwise they are
	// compared ignoring case.
	same func(string) bool
}

func (o onlyValue) accepts(v string) bool {
	if o.same != nil {
		return o.same(v)
	}
	return strings.EqualFold(strings.TrimSpace(v), o.value)
}

// Reset removes key (or every key when key is empty); any name of a
// setting Flink knows by several removes it under all of them.
func (c *Config) Reset(key string) {
	if key == "" {
		c.values = map[string]string{}
		return
	}
	for _, n := range settingNames(key) {
		delete(c.values, n)
	}
}

// Get returns the value of key: the session's (by any of the setting's
// names, in the order Flink reads them), else the engine's, else the
// default; "" for none.
func (c *Config) Get(key string) string {
	if _, v, ok := c.lookup(key); ok {
		return v
	}
	return defaultOf(key)
}

// lookup returns the name and value the session or the engine gives the
// setting key names, if any.
func (c *Config) lookup(key string) (name, value string, ok bool) {
	for _, layer := range []map[string]string{c.values, c.base} {
		for _, n := range settingNames(key) {
			if v, ok := layer[n]; ok {
				return n, v, true
			}
		}
	}
	return "", "", false
}

// defaultOf returns the default of the setting key names: the session's
// built-in one, or Flink's for checkpointing and restarts; "" for none.
func defaultOf(key string) string {
	id := settingID(key)
	for _, d := range []map[string]string{defaults, checkpointDefaults, restartDefaults} {
		if v, ok := d[id]; ok {
			return v
		}
	}
	return honoured[id].def
}

// All returns every key that has a value, set or by default, sorted:
// what SET lists. Flink's defaults of the checkpointing, restart strategy
// and state backend settings are listed too (not the checkpoint interval
// nor restart-strategy.type, which have none: checkpoints are off, and
// the strategy follows from them). A setting Flink knows by several names
// is listed once: by the name the session (or else the engine) set it
// by, else its default by Flink's current name.
func (c *Config) All() [][2]string {
	ids := map[string]bool{}
	for _, d := range []map[string]string{defaults, checkpointDefaults, restartDefaults, c.base, c.values} {
		for k := range d {
			ids[settingID(k)] = true
		}
	}
	for k, h := range honoured {
		if h.def != "" {
			ids[k] = true
		}
	}
	m := map[string]string{}
	for id := range ids {
		if n, v, ok := c.lookup(id); ok {
			m[n] = v
		} else if v := defaultOf(id); v != "" {
			m[settingNames(id)[0]] = v
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][2]string, len(keys))
	for i, k := range keys {
		out[i] = [2]string{k, m[k]}
	}
	return out
}

// MaxParallelism returns pipeline.max-parallelism: the number of key
// groups keyed state is divided into.
func (c *Config) MaxParallelism() int {
	n, _ := strconv.Atoi(c.Get(ConfMaxParallelism))
	return n
}

// Parallelism returns the parallelism of SQL jobs' operators:
// table.exec.resource.default-parallelism when it is positive, as in
// Flink, else parallelism.default.
func (c *Config) Parallelism() int {
	if n, _ := strconv.Atoi(c.Get(ConfDefaultParallelism)); n > 0 {
		return n
	}
	n, _ := strconv.Atoi(c.Get(ConfParallelism))
	return max(n, 1)
}

// TimeZone returns table.local-time-zone ("default" is the system zone).
func (c *Config) TimeZone() *time.Location {
	loc, _ := loadZone(c.Get(ConfTimeZone))
	return loc
}

// duration returns a duration setting; the watermark interval in whole
// milliseconds, as Flink keeps it.
func (c *Config) duration(key string) time.Duration {
	d, _ := ParseDuration(c.Get(key))
	if key == ConfWatermarkInterval {
		d = d.Truncate(time.Millisecond)
	}
	return d
}

func loadZone(name string) (*time.Location, error) {
	if name == "default" {
		return time.Local, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("invalid time zone '%s' for '%s': %v", name, ConfTimeZone, err)
	}
	return loc, nil
}

// ParseDuration parses Flink's duration syntax (TimeUtils.parseDuration): a
// number and an optional unit of any case, nanoseconds to days ("200 ms",
// "5s", "10 min", "500 ns", "3 µs"); a bare number is milliseconds. A
// duration past about 292 years is refused.
func ParseDuration(s string) (time.Duration, error) { return connector.ParseDuration(s) }
