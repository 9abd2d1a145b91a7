package sqltest

import (
	"os"
	"testing"

	"github.com/sluicesql/sluice/internal/runtime"
)

// TestMain runs the scripts with released chunks poisoned, so that an
// operator reading a chunk it handed back gives wrong rows (and the race
// detector sees it).
func TestMain(m *testing.M) {
	runtime.PoisonReleased(true)
	os.Exit(m.Run())
}
