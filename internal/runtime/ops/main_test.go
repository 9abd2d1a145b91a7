package ops

import (
	"flag"
	"os"
	"testing"

	"github.com/sluicesql/sluice/internal/runtime"
)

// TestMain runs the tests with released chunks poisoned (see
// runtime.PoisonReleased), but not the benchmarks, which measure the
// operators as they run.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		runtime.PoisonReleased(true)
	}
	os.Exit(m.Run())
}
