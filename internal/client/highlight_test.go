package client

import (
	"strings"
	"testing"

	"github.com/sluicesql/sluice"
)

// TestColorSchemasAreFlinks: every value the setting accepts has a
// schema, in Flink's order (SyntaxHighlightStyle.BuiltInStyle).
func TestColorSchemasAreFlinks(t *testing.T) {
	if len(colorSchemas) != len(sluice.ColorSchemas) {
		t.Fatalf("%d schemas for %d names", len(colorSchemas), len(sluice.ColorSchemas))
	}
	for i, name := range sluice.ColorSchemas {
		if colorSchemas[i].name != name || schemaNamed(strings.ToLower(name)) != &colorSchemas[i] {
			t.Errorf("schema %d is %s, want %s", i, colorSchemas[i].name, name)
		}
	}
	if schemaNamed("GESTER") != nil {
		t.Error("an unknown name has a schema")
	}
}

// TestHighlight: keywords (any case), character literals, backquoted
// identifiers, comments and hints take the schema's styles, the rest
// (numbers and operators included) its default; a line continuing a
// string or comment of the lines before starts in its style, and one
// after a line comment does not.
func TestHighlight(t *testing.T) {
	dark := schemaNamed("dark")
	// kw, tx, cm, hi, qu, id are DARK's styles' escape sequences.
	kw, tx, cm, hi, qu, id := "\x1b[0;1;34m", "\x1b[0;37m", "\x1b[0;3;90m", "\x1b[0;1;90m", "\x1b[0;32m", "\x1b[0;36m"
	end := "\x1b[0m"
	for _, c := range []struct{ before, line, want string }{
		{"", "select a, 42 FROM t;", kw + "select" + tx + " a, 42 " + kw + "FROM" + tx + " t;" + end},
		{"", "'it''s' `My col`", qu + "'it''s'" + tx + " " + id + "`My col`" + end},
		{"", "SELECT /*+ OPTIONS('a'='b') */ 1 -- the end", kw + "SELECT" + tx + " " + hi + "/*+ OPTIONS('a'='b') */" + tx + " 1 " + cm + "-- the end" + end},
		{"", "/* SELECT */x", cm + "/* SELECT */" + tx + "x" + end},
		{"", "'open", qu + "'open" + end},
		{"SELECT 'two\n", "lines' FROM t", qu + "lines'" + tx + " " + kw + "FROM" + tx + " t" + end},
		{"SELECT /* long\n", "comment */ 1", cm + "comment */" + tx + " 1" + end},
		{"SELECT 1 -- done\n", "FROM t", kw + "FROM" + tx + " t" + end},
		{"", "", ""},
		{"", "größe_1 ÜBER", tx + "größe_1 ÜBER" + end},
	} {
		if got := dark.highlight(c.before, c.line); got != c.want {
			t.Errorf("highlight(%q, %q) = %q, want %q", c.before, c.line, got, c.want)
		}
	}
	if got := schemaNamed("DEFAULT").highlight("", "SELECT 'a'"); got != "SELECT 'a'" {
		t.Errorf("DEFAULT highlights: %q", got)
	}
	geshi := schemaNamed("geshi").highlight("", "FROM")
	if want := "\x1b[0;1;38;2;99;33;33mFROM" + end; geshi != want {
		t.Errorf("GESHI: %q, want %q", geshi, want)
	}
}
