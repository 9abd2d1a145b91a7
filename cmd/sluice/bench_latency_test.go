package main

import (
	"slices"
	"strings"
	"testing"
)

// TestOptionPairs reads -source-options and -sink-options.
func TestOptionPairs(t *testing.T) {
	got, err := optionPairs("-sink-options", "properties.linger.ms=10, sink.partitioner = fixed")
	if err != nil || !slices.Equal(got, []string{"properties.linger.ms", "10", "sink.partitioner", "fixed"}) {
		t.Fatalf("got %q, %v", got, err)
	}
	if got, err := optionPairs("-sink-options", " "); err != nil || got != nil {
		t.Fatalf("empty: got %q, %v", got, err)
	}
	if _, err := optionPairs("-source-options", "a=1,b"); err == nil || !strings.Contains(err.Error(), `-source-options: "b" is not key=value`) {
		t.Fatalf("got %v, want the pair without = refused", err)
	}
}
