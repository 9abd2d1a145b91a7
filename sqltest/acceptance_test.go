package sqltest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// acceptanceDir holds the seed tutorials' cases, beside the repository.
const acceptanceDir = "../../shared/acceptance"

// TestAcceptance runs every seed case at parallelism 1 and 4: the printed
// rows must equal the expected ones line for line, whitespace included.
func TestAcceptance(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(acceptanceDir, "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no acceptance cases found in %s (the shared directory must sit beside the repository): %v", acceptanceDir, err)
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
