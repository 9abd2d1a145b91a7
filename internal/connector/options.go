package connector

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
)

// Options reads a table's options with the parse errors of Flink's
// configuration ("Could not parse value 'x' for key 'k'.").
type Options map[string]string

// String returns the value of key, or def when it is not set.
func (o Options) String(key, def string) string {
	if v, ok := o[key]; ok {
		return v
	}
	return def
}

// ParseError is Flink's error for a value that does not parse as the
// option's type.
func ParseError(key, v string) error {
	return fmt.Errorf("Could not parse value '%s' for key '%s'.", v, key)
}

// Enum returns the value of key (def when unset) as one of allowed,
// matched case-insensitively and returned as spelled in allowed.
func (o Options) Enum(key, def string, allowed []string) (string, error) {
	v := o.String(key, def)
	for _, a := range allowed {
		if strings.EqualFold(v, a) {
			return a, nil
		}
	}
	return "", fmt.Errorf("Could not parse value '%s' for key '%s'. Expected one of: [%s]", v, key, strings.Join(allowed, ", "))
}

// Int64 returns the value of key as an integer and whether it is set.
func (o Options) Int64(key string) (int64, bool, error) {
	v, ok := o[key]
	if !ok {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, false, ParseError(key, v)
	}
	return n, true, nil
}

// Float64 returns the value of key as a decimal number, optionally with
// an exponent or Java's type suffix ("0.5", "1e3", "2.5f"), and whether it
// is set.
func (o Options) Float64(key string) (float64, bool, error) {
	v, ok := o[key]
	if !ok {
		return 0, false, nil
	}
	s := strings.TrimSpace(v)
	s = strings.TrimRight(s, "dDfF") // Java's type suffixes
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || strings.ContainsAny(s, "xXpP_") {
		return 0, false, ParseError(key, v)
	}
	return f, true, nil
}

// Bool returns the value of key as a boolean ("true" or "false", any
// case), def when unset.
func (o Options) Bool(key string, def bool) (bool, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, ParseError(key, v)
}

// Duration returns the value of key (def when unset) as a duration, read
// as ParseDuration does.
func (o Options) Duration(key, def string) (time.Duration, error) {
	v := o.String(key, def)
	d, err := ParseDuration(v)
	if err != nil {
		return 0, ParseError(key, v)
	}
	return d, nil
}

// durationUnits are the unit labels of Flink's TimeUtils.parseDuration
// (org.apache.flink.util.TimeUtils.TimeUnit), in the order its error
// message lists them: the symbols (d, h, min, m, s, ms, µs, ns) have no
// plural, the words take an "s". Flink has no "us".
var durationUnits = []struct {
	name   string
	unit   time.Duration
	labels []string
}{
	{"DAYS", 24 * time.Hour, []string{"d", "day", "days"}},
	{"HOURS", time.Hour, []string{"h", "hour", "hours"}},
	{"MINUTES", time.Minute, []string{"min", "m", "minute", "minutes"}},
	{"SECONDS", time.Second, []string{"s", "sec", "secs", "second", "seconds"}},
	{"MILLISECONDS", time.Millisecond, []string{"ms", "milli", "millis", "millisecond", "milliseconds"}},
	{"MICROSECONDS", time.Microsecond, []string{"µs", "micro", "micros", "microsecond", "microseconds"}},
	{"NANOSECONDS", time.Nanosecond, []string{"ns", "nano", "nanos", "nanosecond", "nanoseconds"}},
}

// durationUnit returns the unit of a lower-case label.
func durationUnit(label string) (time.Duration, bool) {
	for _, u := range durationUnits {
		if slices.Contains(u.labels, label) {
			return u.unit, true
		}
	}
	return 0, false
}

// allDurationUnits lists the labels the way Flink's error message does:
// "DAYS: (d | day | days), HOURS: (...), ...".
func allDurationUnits() string {
	parts := make([]string, len(durationUnits))
	for i, u := range durationUnits {
		parts[i] = u.name + ": (" + strings.Join(u.labels, " | ") + ")"
	}
	return strings.Join(parts, ", ")
}

// ParseDuration reads a duration the way Flink's configuration does
// (TimeUtils.parseDuration): digits, then an optional unit label of any
// case, with or without a space ("300000", "10 s", "5 min", "250ns",
// "2 µs"); a bare number is milliseconds. Sluice holds durations in
// nanoseconds, so one past 2^63-1 ns (about 292 years) is refused instead
// of wrapping. The errors are Flink's.
func ParseDuration(s string) (time.Duration, error) {
	text := strings.TrimSpace(s)
	if text == "" {
		return 0, errors.New("argument is an empty- or whitespace-only string")
	}
	i := 0
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, errors.New("text does not start with a number")
	}
	number, label := text[:i], strings.ToLower(strings.TrimSpace(text[i:]))
	n, err := strconv.ParseInt(number, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("The value '%s' cannot be re represented as 64bit number (numeric overflow).", number)
	}
	unit := time.Millisecond
	if label != "" {
		var ok bool
		if unit, ok = durationUnit(label); !ok {
			return 0, fmt.Errorf("Time interval unit label '%s' does not match any of the recognized units: %s", label, allDurationUnits())
		}
	}
	if n > int64(math.MaxInt64/unit) {
		return 0, fmt.Errorf("The duration '%s' is too large: durations are held in nanoseconds, at most %d (about 292 years).", text, int64(math.MaxInt64))
	}
	return time.Duration(n) * unit, nil
}

// CheckRequired reports the required options of specs that o lacks, with
// Flink's FactoryUtil message.
func CheckRequired(o Options, specs []OptionSpec) error {
	var missing []string
	for _, s := range specs {
		if _, ok := o[s.Key]; s.Required && !ok {
			missing = append(missing, s.Key)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	return fmt.Errorf("One or more required options are missing.\n\nMissing required options are:\n\n%s", strings.Join(missing, "\n"))
}

// UnsupportedOptionsError is Flink's FactoryUtil error for option keys
// that connector name and its formats did not consume: unknown lists
// them, supported the keys they consume (a deprecated one labelled
// "KEY (deprecated)"). Both lists are sorted here.
func UnsupportedOptionsError(name string, unknown, supported []string) error {
	unknown, supported = slices.Sorted(slices.Values(unknown)), slices.Sorted(slices.Values(supported))
	return fmt.Errorf("Unsupported options found for '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s",
		name, strings.Join(unknown, "\n"), strings.Join(supported, "\n"))
}

// CheckSupported rejects the keys of o other than 'connector' and
// supported with UnsupportedOptionsError, for a connector whose options
// are a fixed set of keys.
func CheckSupported(name string, o Options, supported []string) error {
	var unknown []string
	for k := range o {
		if k != "connector" && !slices.Contains(supported, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return UnsupportedOptionsError(name, unknown, append([]string{"connector"}, supported...))
}

// SinkOnly is Flink's error for reading a table whose connector only
// writes.
func SinkOnly(name string) error {
	return fmt.Errorf("Connector '%s' can only be used as a sink. It cannot be used as a source.", name)
}

// SourceOnly is Flink's error for writing a table whose connector only
// reads.
func SourceOnly(name string) error {
	return fmt.Errorf("Connector '%s' can only be used as a source. It cannot be used as a sink.", name)
}

// SinkParallelismKey is the option that sets a sink's parallelism.
const SinkParallelismKey = "sink.parallelism"

// SinkParallelism reads 'sink.parallelism', 0 when it is unset; it is at
// most runtime.MaxInstances.
func SinkParallelism(o Options) (int, error) {
	n, ok, err := o.Int64(SinkParallelismKey)
	if err != nil || !ok {
		return 0, err
	}
	if n < 1 {
		return 0, fmt.Errorf("Invalid value for option '%s': %d. It must be a positive integer.", SinkParallelismKey, n)
	}
	if n > runtime.MaxInstances {
		return 0, fmt.Errorf("Invalid value for option '%s': %d. Sluice runs at most %d instances of an operator.", SinkParallelismKey, n, runtime.MaxInstances)
	}
	return int(n), nil
}
