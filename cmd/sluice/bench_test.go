package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestParseIntervals checks -checkpoint-intervals: Flink's duration syntax
// (a bare number is milliseconds), "none", and errors naming the flag.
func TestParseIntervals(t *testing.T) {
	for in, want := range map[string][]time.Duration{
		"10s,1s,100ms": {10 * time.Second, time.Second, 100 * time.Millisecond},
		"10 s, 250":    {10 * time.Second, 250 * time.Millisecond},
		"1 min":        {time.Minute},
		"none":         nil,
	} {
		got, err := parseIntervals(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("parseIntervals(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1s,", "fast", "10 parsecs"} {
		if got, err := parseIntervals(in); err == nil || !strings.Contains(err.Error(), "-checkpoint-intervals") {
			t.Errorf("parseIntervals(%q) = %v, %v; want an error naming the flag", in, got, err)
		}
	}
}
