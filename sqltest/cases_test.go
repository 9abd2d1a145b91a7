package sqltest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestCases runs every golden case of testdata at parallelism 1 and 4: the
// rows the last query prints must be the lines of NAME.out. Each case names
// in its comments the Flink documentation its expected output follows.
func TestCases(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases in testdata: %v", err)
	}
	for _, f := range files {
		for _, p := range []int{1, 4} {
			name := fmt.Sprintf("%s/parallelism=%d", strings.TrimSuffix(filepath.Base(f), ".sql"), p)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				res, err := RunFile(f, Options{Parallelism: p})
				if err != nil {
					t.Fatal(err)
				}
				if !res.OK() {
					t.Errorf("output differs; expected lines missing (-) and unexpected lines printed (+):\n%s\nprinted:\n%s", res.Diff(), res.Got)
				}
			})
		}
	}
}
