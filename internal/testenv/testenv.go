// Package testenv decides what tests do when a tool they check Sluice
// against (kcat, Python's Kafka client, Chromium) is missing: outside CI
// they are skipped, saying what to install, so that `go test ./...` runs
// on a machine with only Go; in CI (SLUICE_CI set, as .ci/run sets it)
// the missing tool fails them, so that CI never passes without them.
package testenv

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// CIVariable is the environment variable that marks a CI run.
const CIVariable = "SLUICE_CI"

// LookPath returns the path of the tool, a command name or an absolute
// path. When it is missing the test is skipped, or failed in CI; install
// says how to get it.
func LookPath(t testing.TB, tool, install string) string {
	t.Helper()
	path, err := exec.LookPath(tool)
	if err == nil {
		return path
	}
	if os.Getenv(CIVariable) != "" {
		t.Fatalf("%s is required in CI (%s): %v", tool, install, err)
	}
	t.Skipf("%s is not installed (%s); CI runs this test", tool, install)
	return ""
}

// PythonModules returns the path of the Python interpreter python once it
// can import every module, as LookPath does for a tool.
func PythonModules(t testing.TB, python, install string, modules ...string) string {
	t.Helper()
	path := LookPath(t, python, install)
	script := ""
	for _, m := range modules {
		script += "import " + m + "\n"
	}
	if out, err := exec.Command(path, "-c", script).CombinedOutput(); err != nil {
		if os.Getenv(CIVariable) != "" {
			t.Fatalf("%s cannot import %v, required in CI (%s): %v\n%s", python, modules, install, err, out)
		}
		t.Skipf("%s cannot import %v (%s); CI runs this test", python, modules, install)
	}
	return path
}

// OwnerOnly checks that every directory under root (root included) has
// mode 0700 and every file 0600, reporting each that has not, and returns
// the paths it walked, relative to root ("." for root), files and
// directories alike.
func OwnerOnly(t testing.TB, root string) []string {
	t.Helper()
	var walked []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
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
		rel, _ := filepath.Rel(root, p)
		if info.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", rel, info.Mode().Perm(), want)
		}
		walked = append(walked, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return walked
}
