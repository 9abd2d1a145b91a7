package sqltest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestScripts runs every script test of testdata at parallelism 1 and 4:
// each statement must give what its expectation says. Each script names in
// its comments the Flink documentation its expected output follows.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.sqltest"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no script tests in testdata: %v", err)
	}
	for _, f := range files {
		for _, p := range []int{1, 4} {
			name := fmt.Sprintf("%s/parallelism=%d", strings.TrimSuffix(filepath.Base(f), ".sqltest"), p)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				failures, err := RunScriptFile(f, Options{Parallelism: p})
				if err != nil {
					t.Fatal(err)
				}
				for _, fl := range failures {
					t.Errorf("%s:%s", f, fl)
				}
			})
		}
	}
}

// runEither runs a script test or a seed case (NAME.sql + NAME.out) with
// opts and reports what differed.
func runEither(t *testing.T, f string, opts Options) {
	t.Helper()
	if IsScriptTest(f) {
		failures, err := RunScriptFile(f, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, fl := range failures {
			t.Errorf("%s:%s", f, fl)
		}
		return
	}
	res, err := RunFile(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() {
		t.Errorf("output differs; expected lines missing (-) and unexpected lines printed (+):\n%s", res.Diff())
	}
}

// forEveryCase runs every script test and seed case at parallelism 1 and
// 4 as a parallel subtest, with the options opts gives for a parallelism.
func forEveryCase(t *testing.T, opts func(parallelism int) Options) {
	t.Helper()
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
			t.Run(fmt.Sprintf("%s/parallelism=%d", filepath.Base(f), p), func(t *testing.T) {
				t.Parallel()
				runEither(t, f, opts(p))
			})
		}
	}
}
