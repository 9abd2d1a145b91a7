package sluice

import (
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
		{"execution.runtime-mode", "batch", "'execution.runtime-mode' = 'batch' is not supported yet (batch execution prints final results instead of changelogs); only 'streaming' is"},
		{"execution.runtime-mode", "STREAMING", ""},
		{"table.exec.mini-batch.enabled", "true", "'table.exec.mini-batch.enabled' = 'true' is not supported yet"},
		{"table.exec.mini-batch.enabled", "false", ""},
		{"table.exec.state.ttl", "1 h", "'table.exec.state.ttl' = '1 h' is not supported yet"},
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
