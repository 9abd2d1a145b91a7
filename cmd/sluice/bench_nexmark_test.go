package main

import (
	"strings"
	"testing"
)

// `sluice bench nexmark` reaches the Nexmark runner: an unknown query is
// refused by name before anything runs.
func TestBenchNexmarkUnknownQuery(t *testing.T) {
	err := runBench([]string{"nexmark", "-queries", "q0,q99"})
	if err == nil || !strings.Contains(err.Error(), `unknown query "q99"`) {
		t.Fatalf("got %v, want an error naming q99", err)
	}
}
