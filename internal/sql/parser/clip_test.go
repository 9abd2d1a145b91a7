package parser

import (
	"strings"
	"testing"
)

// TestClipMessage: long words keep their first 100 characters, their
// length and the quotes around them; long lines and many lines are cut;
// ordinary messages are left alone.
func TestClipMessage(t *testing.T) {
	x := strings.Repeat("x", 300)
	é := strings.Repeat("é", 300)
	lines := strings.Repeat("Unsupported option 'k'\n", 250)
	spaced := strings.Repeat("a ", 3000)
	for _, tc := range []struct{ in, want string }{
		{"Object 'orders' not found", "Object 'orders' not found"},
		{"Object '" + x + "' not found", "Object '" + x[:100] + "... (300 characters)' not found"},
		{"Column `" + x + "`, in " + x + ".", "Column `" + x[:100] + "... (300 characters)`, in " + x[:100] + "... (300 characters)."},
		{"bad value " + é, "bad value " + strings.Repeat("é", 100) + "... (300 characters)"},
		{"a\n\n  " + x + "\tb", "a\n\n  " + x[:100] + "... (300 characters)\tb"},
		{"value '" + spaced + "'", ("value '" + spaced)[:2000] + "... (6008 characters)"},
	} {
		if got := ClipMessage(tc.in); got != tc.want {
			t.Errorf("ClipMessage(%.60q)\n got %.300q\nwant %.300q", tc.in, got, tc.want)
		}
	}
	got := ClipMessage(lines)
	if n := strings.Count(got, "\n"); n != 200 || !strings.HasSuffix(got, "\n... (51 more lines)") {
		t.Errorf("%d lines, ending %q", n, got[len(got)-40:])
	}
}
