package testenv

import "testing"

// TestMissingToolSkipsOutsideCI: outside CI a missing tool skips the test
// (the code after LookPath does not run); a present one is found.
func TestMissingToolSkipsOutsideCI(t *testing.T) {
	t.Setenv(CIVariable, "")
	ran := false
	t.Run("missing", func(t *testing.T) {
		LookPath(t, "sluice-no-such-tool", "nothing to install")
		ran = true
	})
	if ran {
		t.Error("the test went on without the tool")
	}
	if path := LookPath(t, "sh", "a shell"); path == "" {
		t.Error("sh not found")
	}
}
