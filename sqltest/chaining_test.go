package sqltest

import "testing"

// TestScriptsUnchained runs every script test and seed case at
// parallelism 1 and 4 with operator chaining off
// ('pipeline.operator-chaining.enabled' = 'false'): every operator
// instance in a goroutine of its own, each chunk handed on through an
// inbox. The results must be those of the chained runs of TestScripts.
func TestScriptsUnchained(t *testing.T) {
	forEveryCase(t, func(p int) Options { return Options{Parallelism: p, Unchained: true} })
}
