package sqltest

import (
	"testing"
)

// TestScriptsFromPlans runs every script test and seed case at
// parallelism 1 and 4 with each job built from an execution plan that went
// through JSON and back (byte-identical): the results must be those of the
// straight runs' expectations.
func TestScriptsFromPlans(t *testing.T) {
	forEveryCase(t, func(p int) Options { return Options{Parallelism: p, PlanRoundTrip: true} })
}
