package sluice

import (
	"strings"
	"testing"
	"time"
)

// TestSetDurationsInFlinkUnits: durations read as Flink's
// TimeUtils.parseDuration reads them, nanoseconds to days, any case, with
// or without a space; one too large for Sluice's nanoseconds is refused
// by name instead of wrapping.
func TestSetDurationsInFlinkUnits(t *testing.T) {
	e := newEngine(t)
	for value, want := range map[string]time.Duration{
		"5 ns": 5, "7nanos": 7, "1 NANOSECOND": 1, "9 nanoseconds": 9,
		"3 µs": 3 * time.Microsecond, "2 micro": 2 * time.Microsecond, "4 microseconds": 4 * time.Microsecond,
		"250 ms": 250 * time.Millisecond, "2 millis": 2 * time.Millisecond,
		"10 s": 10 * time.Second, "3 secs": 3 * time.Second,
		"2 m": 2 * time.Minute, "5 min": 5 * time.Minute, "1 minutes": time.Minute,
		"1 h": time.Hour, "2 hours": 2 * time.Hour, "1 d": 24 * time.Hour, "2 days": 48 * time.Hour,
		"1500": 1500 * time.Millisecond,
	} {
		mustExecute(t, e, "SET 'table.exec.source.idle-timeout' = '"+value+"'")
		if got := e.Config().duration(ConfIdleTimeout); got != want {
			t.Errorf("'%s' is %v, want %v", value, got, want)
		}
	}
	for value, msg := range map[string]string{
		"106752 d":               "too large",
		"9223372036854775808":    "numeric overflow",
		"5 fortnights":           "Time interval unit label 'fortnights' does not match any of the recognized units: DAYS: (d | day | days)",
		"-5 ms":                  "text does not start with a number",
		"9223372036854775807 ms": "too large",
	} {
		_, err := e.Execute(testContext(t), "SET 'pipeline.auto-watermark-interval' = '"+value+"'")
		if err == nil || !strings.Contains(err.Error(), "'pipeline.auto-watermark-interval'") || !strings.Contains(err.Error(), msg) {
			t.Errorf("'%s': error %v, want one naming the option and saying %q", value, err, msg)
		}
	}
}
