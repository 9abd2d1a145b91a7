package checkpoint

import (
	"path/filepath"
	"testing"

	"github.com/sluicesql/sluice/internal/testenv"
)

// TestDirOwnerOnly: a checkpoint directory and everything in it is
// readable by its owner only (state holds the data of the job's records).
func TestDirOwnerOnly(t *testing.T) {
	root := filepath.Join(t.TempDir(), "checkpoints")
	d, err := NewDir(root)
	if err != nil {
		t.Fatal(err)
	}
	write(t, d, "0123456789abcdef0123456789abcdef", 1, map[string]string{"op-0": "state"}, true)
	n := len(testenv.OwnerOnly(t, root))
	if n != 5 { // root, job, chk-1, op-0, _metadata
		t.Errorf("%d entries, want 5", n)
	}
}
