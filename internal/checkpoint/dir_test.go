package checkpoint

import (
	"io/fs"
	"path/filepath"
	"testing"
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
	n := 0
	err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if e.IsDir() {
			want = 0o700
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", p, info.Mode().Perm(), want)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 5 { // root, job, chk-1, op-0, _metadata
		t.Errorf("%d entries, want 5", n)
	}
}
