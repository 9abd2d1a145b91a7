package sqltest

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestScriptsFromPlans runs every script test and seed case at
// parallelism 1 and 4 with each job built from an execution plan that went
// through JSON and back (byte-identical): the results must be those of the
// straight runs' expectations.
func TestScriptsFromPlans(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("testdata", "*.sqltest"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no script tests in testdata: %v", err)
	}
	seeds, err := filepath.Glob(filepath.Join(acceptanceDir, "*.sql"))
	if err != nil || len(seeds) == 0 {
		t.Fatalf("no acceptance cases found in %s: %v", acceptanceDir, err)
	}
	for _, f := range append(scripts, seeds...) {
		for _, p := range []int{1, 4} {
			name := fmt.Sprintf("%s/parallelism=%d", filepath.Base(f), p)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				runEither(t, f, Options{Parallelism: p, PlanRoundTrip: true})
			})
		}
	}
}
