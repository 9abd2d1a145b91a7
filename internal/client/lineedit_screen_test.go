package client

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// printedRow is a row of the print table of TestPrintRowsAbovePrompt.
var printedRow = regexp.MustCompile(`^row> \+I\[([0-9]+)\]$`)

// lastRow returns the highest row number printed on the screen, and fails
// the test if a line holds part of a row and something else (a row
// written across the prompt).
func lastRow(tt *term, screen string) int {
	tt.t.Helper()
	n := 0
	for _, l := range strings.Split(screen, "\n") {
		m := printedRow.FindStringSubmatch(l)
		if m == nil {
			if strings.Contains(l, "row>") || strings.Contains(l, "+I[") {
				tt.t.Fatalf("a row is printed across another line: %q in\n%s", l, screen)
			}
			continue
		}
		k, _ := strconv.Atoi(m[1])
		n = max(n, k)
	}
	return n
}

// TestPrintRowsAbovePrompt: what a print table's job writes while a
// statement is being typed is printed above the prompt, which is drawn
// again with the line typed so far (here wrapped over two rows), the
// cursor where it was; the line goes on being edited.
func TestPrintRowsAbovePrompt(t *testing.T) {
	const width = 100
	tt := startTerm(t, width, 20)
	tt.statement(`CREATE TABLE g (n INT) WITH ('connector' = 'datagen', 'rows-per-second' = '10', `+
		`'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '1000000');`, "[INFO] Execute statement succeed.")
	tt.statement(`CREATE TABLE p (n INT) WITH ('connector' = 'print', 'print-identifier' = 'row');`, "[INFO] Execute statement succeed.")
	tt.statement("SET 'sql-client.execution.result-mode' = 'tableau';", "[INFO] Execute statement succeed.")
	tt.typeLine("INSERT INTO p SELECT n FROM g;")
	before := lastRow(tt, tt.waitForText("Job ID: ", "row> +I[1]"))

	partial := "SELECT 'abc' AS s, 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 + 13 + 14 + 15 + 16 + 17 AS total"
	typed := prompt + partial
	want := strings.TrimRight(typed[:width], " ") + "\n" + typed[width:]
	tt.run("send-keys", "-l", partial)
	// Rows printed after the line is shown whole.
	shown := tt.waitFor("the typed line under later rows", func(s string) bool {
		return strings.HasSuffix(s, want) && lastRow(tt, s) > before+10
	})
	lastRow(tt, shown)
	if x := strings.TrimSpace(tt.run("display", "-p", "#{cursor_x}")); x != fmt.Sprint(len(typed)-width) {
		t.Errorf("the cursor is at column %s, want %d, the end of the line:\n%s", x, len(typed)-width, shown)
	}
	tt.keys("Left", "Left", "Left", "Left", "BSpace")
	tt.run("send-keys", "-l", "all_t")
	tt.keys("End")
	tt.typeLine(";")
	// The result scrolls away under later rows: read the terminal's
	// history.
	result := regexp.MustCompile(`(?m)^\| +op \| +s \| +all_total \|\n.*\n\| \+I \| +abc \| +153 \|$`)
	tt.waitFor("the result", func(string) bool {
		return result.MatchString(tt.run("capture-pane", "-p", "-S", "-"))
	})
}

// sgrState is the style a terminal draws text in, as SGR parameters:
// "1" for bold, "3" for italic, then the foreground color's.
type sgrState struct {
	bold, italic bool
	fg           string
}

func (s sgrState) String() string {
	var p []string
	if s.bold {
		p = append(p, "1")
	}
	if s.italic {
		p = append(p, "3")
	}
	if s.fg != "" {
		p = append(p, s.fg)
	}
	return strings.Join(p, ";")
}

// apply applies the parameters of one SGR sequence.
func (s *sgrState) apply(params string) {
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		switch p := ps[i]; {
		case p == "" || p == "0":
			*s = sgrState{}
		case p == "1":
			s.bold = true
		case p == "3":
			s.italic = true
		case p == "22":
			s.bold = false
		case p == "23":
			s.italic = false
		case p == "39":
			s.fg = ""
		case p == "38" && i+1 < len(ps) && ps[i+1] == "2" && i+4 < len(ps):
			s.fg = strings.Join(ps[i:i+5], ";")
			i += 4
		case p == "38" && i+2 < len(ps):
			s.fg = strings.Join(ps[i:i+3], ";")
			i += 2
		case p == "48" && i+1 < len(ps) && ps[i+1] == "2":
			i += 4
		case p == "48":
			i += 2
		case len(p) == 2 && (p[0] == '3' || p[0] == '9') && p[1] <= '7':
			s.fg = p
		}
	}
}

// styles reads a line as capture-pane -e gives it and returns its text
// and the style of each byte of it.
func styles(line string) (string, []sgrState) {
	var text strings.Builder
	var st []sgrState
	var cur sgrState
	for i := 0; i < len(line); {
		if strings.HasPrefix(line[i:], "\x1b[") {
			j := strings.IndexByte(line[i:], 'm')
			cur.apply(line[i+2 : i+j])
			i += j + 1
			continue
		}
		text.WriteByte(line[i])
		st = append(st, cur)
		i++
	}
	return text.String(), st
}

// TestHighlightingOnTerminal: the line being typed is drawn in the styles
// of the session's sql-client.display.color-schema, set by SET; DEFAULT
// draws it plain, and a name Flink has no style for is refused.
func TestHighlightingOnTerminal(t *testing.T) {
	tt := startTerm(t, 120, 20)
	tt.statement("SET 'sql-client.display.color-schema' = 'Dracula';", "[INFO] Execute statement succeed.")
	line := "SELECT 'a b', `c` /*+ h */ FROM t -- the end"
	tt.run("send-keys", "-l", line)
	tt.waitForText(promptShown + " " + line)
	var text string
	var st []sgrState
	for _, l := range strings.Split(tt.run("capture-pane", "-p", "-e"), "\n") {
		if text, st = styles(l); strings.HasPrefix(text, prompt+line) {
			break
		}
	}
	// DRACULA: keywords bold magenta, text white, comments italic cyan,
	// hints bold cyan, strings green, identifiers red.
	for _, c := range []struct{ part, style string }{
		{"SELECT", "1;35"}, {"'a b'", "32"}, {", ", "37"}, {"`c`", "31"},
		{"/*+ h */", "1;36"}, {"FROM", "1;35"}, {" t ", "37"}, {"-- the end", "3;36"},
	} {
		at := strings.Index(text, c.part)
		for i := at; i < at+len(c.part); i++ {
			if got := st[i].String(); got != c.style {
				t.Errorf("%q is drawn in %q at %q, want %q", c.part, got, text[i:], c.style)
				break
			}
		}
	}
	if got := st[0].String(); got != "" {
		t.Errorf("the prompt is drawn in %q", got)
	}
	tt.keys("C-u")
	tt.typeLine("SET 'sql-client.display.color-schema' = 'gester';")
	tt.waitForText("[ERROR] Could not execute SQL statement. Reason:\ninvalid value 'gester' for 'sql-client.display.color-schema': expected one of DEFAULT, DARK,")
	tt.statement("RESET 'sql-client.display.color-schema';", "[INFO] Execute statement succeed.")
	tt.run("send-keys", "-l", line)
	tt.waitForText(promptShown + " " + line)
	if e := strings.TrimRight(tt.run("capture-pane", "-p", "-e"), "\n"); !strings.HasSuffix(e, "\n"+prompt+line) {
		t.Errorf("DEFAULT draws the line with escape sequences:\n%q", e)
	}
	// Each line was drawn in place, not again below (nor into the
	// terminal's history): one prompt per statement.
	if all := tt.run("capture-pane", "-p", "-S", "-"); strings.Count(all, promptShown) != 4 {
		t.Errorf("the prompt was drawn %d times, want 4:\n%s", strings.Count(all, promptShown), all)
	}
}
