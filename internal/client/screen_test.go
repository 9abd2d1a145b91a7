package client

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/testenv"
)

// The screen tests run the client on a real terminal, tmux's, and read its
// screens with capture-pane: the test binary runs itself in a tmux session
// as a client on an embedded engine (TestMain, with screenClientVariable
// set).

// screenClientVariable makes the test binary run the interactive client on
// its terminal instead of the tests.
const screenClientVariable = "SLUICE_TEST_SCREEN_CLIENT"

func TestMain(m *testing.M) {
	if os.Getenv(screenClientVariable) != "" {
		os.Exit(runScreenClient())
	}
	os.Exit(m.Run())
}

// runScreenClient runs the interactive client on the process's terminal, as
// sluice's SQL client does, and returns the exit status.
func runScreenClient() int {
	e := sluice.NewEngine()
	defer e.Close()
	c := &Client{Backend: &Embedded{Engine: e}, Out: os.Stdout, Interactive: true, Interrupts: NotifyInterrupts()}
	if err := c.RunTerminal(context.Background(), ""); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// promptShown is the prompt as capture-pane shows it, without its
// trailing blank.
var promptShown = strings.TrimRight(prompt, " ")

// term is a tmux session running the client.
type term struct {
	t    *testing.T
	tmux string
	sock string
}

// startTerm starts the client on a tmux terminal of w×h cells and waits for
// its prompt.
func startTerm(t *testing.T, w, h int) *term {
	t.Helper()
	tmux := testenv.LookPath(t, "tmux", "apt-get install tmux")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tt := &term{t: t, tmux: tmux, sock: filepath.Join(dir, "tmux")}
	// The client's standard error goes to a file, read at the end: a data
	// race found by the race detector, or a panic, fails the test.
	stderr := filepath.Join(dir, "stderr")
	cmd := fmt.Sprintf("%s=1 exec '%s' 2>'%s'", screenClientVariable, exe, stderr)
	tt.run("-f", "/dev/null", "new-session", "-d", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), cmd)
	t.Cleanup(func() {
		exec.Command(tmux, "-S", tt.sock, "kill-server").Run()
		data, _ := os.ReadFile(stderr)
		if strings.Contains(string(data), "DATA RACE") || strings.Contains(string(data), "panic") {
			t.Errorf("the client wrote to standard error:\n%s", data)
		}
	})
	tt.waitFor("the prompt", func(s string) bool { return strings.HasPrefix(s, promptShown) })
	return tt
}

// run runs a tmux command on the session's server.
func (tt *term) run(args ...string) string {
	tt.t.Helper()
	out, err := exec.Command(tt.tmux, append([]string{"-S", tt.sock}, args...)...).CombinedOutput()
	if err != nil {
		tt.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen returns what the terminal shows, without trailing blanks.
func (tt *term) screen() string {
	tt.t.Helper()
	lines := strings.Split(tt.run("capture-pane", "-p"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// waitFor polls the screen until ok accepts it, and returns it; after
// waitTimeout the test fails, showing the last screen.
func (tt *term) waitFor(what string, ok func(screen string) bool) string {
	tt.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	poll := time.NewTicker(10 * time.Millisecond)
	defer poll.Stop()
	for {
		s := tt.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			tt.t.Fatalf("the terminal did not show %s; it shows\n%s", what, s)
		}
		<-poll.C
	}
}

// waitForText waits until the screen shows every one of texts.
func (tt *term) waitForText(texts ...string) string {
	tt.t.Helper()
	return tt.waitFor(fmt.Sprintf("%q", texts), func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// keys presses keys, in tmux's names (q, Enter, C-c, Up).
func (tt *term) keys(keys ...string) {
	tt.t.Helper()
	tt.run(append([]string{"send-keys"}, keys...)...)
}

// typeLine types text and Enter.
func (tt *term) typeLine(text string) {
	tt.t.Helper()
	if strings.HasSuffix(text, ";") {
		// tmux takes a final ";" for the end of its command, "\;" for a ";".
		text = strings.TrimSuffix(text, ";") + `\;`
	}
	tt.run("send-keys", "-l", text)
	tt.keys("Enter")
}

// statement types a statement and waits for its outcome and the prompt
// after it.
func (tt *term) statement(stmt, outcome string) {
	tt.t.Helper()
	tt.typeLine(stmt)
	tt.waitForText(outcome + "\n\n" + promptShown)
}

// rowLine matches the line of a row of the sequence table: a blank and the
// id right-aligned in BIGINT's 20 columns, a blank and the name.
func rowLine(id int) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`(?m)^ {%d}%d +[0-9a-f]`, 21-len(fmt.Sprint(id)), id))
}

// columnNames is the line of column names of the views: each a blank and
// the name right-aligned to the column's width.
func columnNames(names []string, widths []int) string {
	var b strings.Builder
	for i, n := range names {
		b.WriteString(" " + strings.Repeat(" ", widths[i]-len(n)) + n)
	}
	return b.String()
}

const sequenceTable = `CREATE TABLE seq (id BIGINT, name STRING) WITH ('connector' = 'datagen', ` +
	`'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '40', 'fields.name.length' = '70');`

// TestTableViewOnTerminal: a bounded query in the table result mode is
// shown full-screen as in Flink's CliTableResultView: title, status line
// and column names on top, pages of the screen's height, the keys N, P, G
// and L, the row view, horizontal scrolling, resizing; the view stays
// after the result ends, marked "Table program finished.", until a single
// Q.
func TestTableViewOnTerminal(t *testing.T) {
	tt := startTerm(t, 100, 20)
	tt.statement(sequenceTable, "[INFO] Execute statement succeed.")
	tt.statement("SET 'sql-client.execution.result-mode' = 'table';", "[INFO] Execute statement succeed.")
	tt.typeLine("SELECT * FROM seq;")

	// 20 lines leave 14 for rows: 40 rows are 3 pages, the last shown.
	s := tt.waitForText("SQL Query Result (Table)", "Table program finished.", "Page: Last of 3", "Updated: ")
	lines := strings.Split(s, "\n")
	if want := columnNames([]string{"id", "name"}, []int{20, 30}); lines[3] != want {
		t.Errorf("line 4 is %q, want the column names %q", lines[3], want)
	}
	if !rowLine(29).MatchString(lines[4]) || !rowLine(40).MatchString(s) || rowLine(28).MatchString(s) {
		t.Errorf("the last page does not hold rows 29 to 40:\n%s", s)
	}
	// The default max column width, 30, cuts the names with "~".
	if !regexp.MustCompile(`(?m)^ +40 [0-9a-f]{29}~$`).MatchString(s) {
		t.Errorf("row 40's name is not cut to 30 columns:\n%s", s)
	}
	for _, help := range []string{"Q Quit", "R Refresh", "+ Inc Refresh", "- Dec Refresh", "G Goto Page", "L Last Page", "N Next Page", "P Prev Page", "O Open Row"} {
		if !strings.Contains(s, help) {
			t.Errorf("the footer lacks %q:\n%s", help, s)
		}
	}

	tt.keys("P")
	s = tt.waitForText("Page: 2 of 3")
	if !rowLine(15).MatchString(s) || !rowLine(28).MatchString(s) || rowLine(29).MatchString(s) {
		t.Errorf("page 2 does not hold rows 15 to 28:\n%s", s)
	}
	tt.keys("N")
	tt.waitForText("Page: 3 of 3")
	tt.keys("N") // past the last page: stays
	tt.waitForText("Page: 3 of 3")

	// G asks for a page number, refuses one out of range.
	tt.keys("G")
	tt.waitForText("Input Dialog", "Enter page number: [1 to 3]")
	tt.run("send-keys", "-l", "4")
	tt.keys("Enter")
	tt.waitForText("The input is invalid please check it again.")
	tt.keys("BSpace")
	tt.run("send-keys", "-l", "1")
	tt.keys("Enter")
	s = tt.waitForText("Page: 1 of 3")
	if !rowLine(1).MatchString(s) || !rowLine(14).MatchString(s) {
		t.Errorf("page 1 does not hold rows 1 to 14:\n%s", s)
	}
	tt.keys("L")
	tt.waitForText("Page: Last of 3")

	// The row view shows the selected row's columns in full.
	tt.keys("P", "P", "S", "O")
	s = tt.waitForText("Row Summary", "id (BIGINT):", "name (STRING):")
	if !regexp.MustCompile(`(?m)^ 1\n\n name \(STRING\):\n [0-9a-f]{70}$`).MatchString(s) {
		t.Errorf("the row view does not show row 1:\n%s", s)
	}
	tt.keys("q")
	tt.waitForText("SQL Query Result (Table)", "Page: 1 of 3")

	// A taller terminal takes all rows on one page.
	tt.run("resize-window", "-y", "50")
	s = tt.waitForText("Page: 1 of 1")
	if !rowLine(1).MatchString(s) || !rowLine(40).MatchString(s) {
		t.Errorf("the one page does not hold rows 1 to 40:\n%s", s)
	}
	tt.keys("Q")
	s = tt.waitFor("the prompt after the view", func(s string) bool { return strings.HasSuffix(s, promptShown) })
	// (The line editor shows the prompt again after the resize.)
	if !strings.Contains(s, "SELECT * FROM seq;\n[INFO] Result retrieval cancelled.\n\n"+promptShown) {
		t.Errorf("after Q the terminal shows\n%s", s)
	}
	// The terminal works as before.
	tt.statement("SHOW TABLES;", "1 row in set")
}

// TestTableViewScrollsWideRows: rows wider than the terminal scroll
// sideways with D and A (and the arrow keys), the column names with them;
// table.display.max-column-width widens the columns.
func TestTableViewScrollsWideRows(t *testing.T) {
	tt := startTerm(t, 60, 20)
	tt.statement(sequenceTable, "[INFO] Execute statement succeed.")
	tt.statement("SET 'sql-client.execution.result-mode' = 'table';", "[INFO] Execute statement succeed.")
	tt.statement("SET 'table.display.max-column-width' = '80';", "[INFO] Execute statement succeed.")
	tt.typeLine("SELECT * FROM seq;")
	// Each line is 1+20+1+80 = 102 columns wide: the names are cut by the
	// terminal, not by the column width.
	s := tt.waitForText("Table program finished.", "Page: Last of 3")
	if strings.Contains(s, "~") || !rowLine(40).MatchString(s) {
		t.Errorf("the view does not show the rows' start uncut:\n%s", s)
	}
	tt.run("send-keys", "-N", "50", "d")
	// Scrolled to the end (102-60 = 42 columns): the column names end at
	// the right edge, the ids are gone, the names (from column 32) fill
	// the lines.
	names := strings.Repeat(" ", 56) + "name"
	s = tt.waitFor("the rows scrolled right", func(s string) bool { return strings.Split(s, "\n")[3] == names })
	if n := len(regexp.MustCompile(`(?m)^[0-9a-f]{60}$`).FindAllString(s, -1)); n != 12 || strings.Contains(s, " 40 ") {
		t.Errorf("%d rows show their names only, want 12:\n%s", n, s)
	}
	tt.run("send-keys", "-N", "42", "Left")
	tt.waitFor("the rows scrolled back", func(s string) bool { return rowLine(40).MatchString(s) })
	tt.keys("q")
	tt.waitForText("[INFO] Result retrieval cancelled.")
}

// TestChangelogViewOnTerminal: an unbounded query in the changelog result
// mode is shown full-screen as in Flink's CliChangelogResultView, following
// the newest changes; + and - step through the refresh rates; Ctrl-C, like
// Q, leaves it.
func TestChangelogViewOnTerminal(t *testing.T) {
	tt := startTerm(t, 100, 20)
	tt.statement(`CREATE TABLE r (id INT, name STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '50', `+
		`'fields.id.min' = '1', 'fields.id.max' = '9', 'fields.name.length' = '5');`, "[INFO] Execute statement succeed.")
	tt.statement("SET 'sql-client.execution.result-mode' = 'changelog';", "[INFO] Execute statement succeed.")
	tt.typeLine("SELECT * FROM r;")
	change := regexp.MustCompile(`(?m)^ \+I {11}[1-9] +[0-9a-f]{1,5}$`)
	s := tt.waitFor("a screen full of changes", func(s string) bool {
		return len(change.FindAllString(s, -1)) == 14
	})
	lines := strings.Split(s, "\n")
	if !strings.Contains(lines[0], "SQL Query Result (Changelog)") || !strings.HasPrefix(lines[1], " Refresh: Fastest") ||
		!strings.Contains(lines[1], "Updated: ") || lines[3] != columnNames([]string{"op", "id", "name"}, []int{2, 11, 30}) {
		t.Errorf("the view's head is\n%s", strings.Join(lines[:4], "\n"))
	}
	if strings.Contains(s, "Page:") || strings.Contains(s, "Goto Page") || !strings.Contains(s, "O Open Row") {
		t.Errorf("the changelog view shows the table view's pages or lacks its keys:\n%s", s)
	}
	tt.keys("+")
	tt.waitForText("Refresh: 100 ms")
	tt.keys("+", "+", "+")
	tt.waitForText("Refresh: 5 s")
	tt.run("send-keys", "-N", "9", "-")
	tt.waitForText("Refresh: Fastest")

	tt.keys("-") // the fastest rate is the least
	tt.waitForText("Refresh: Fastest")

	// New changes scroll the view and drop the selection: at the rate "-"
	// (no refresh) W selects the bottom row, and O opens it.
	tt.run("send-keys", "-N", "7", "+")
	tt.waitForText("Refresh: -")
	tt.keys("W", "O")
	tt.waitForText("Row Summary", "id (INT):", "name (STRING):")
	tt.keys("Escape")
	tt.waitForText("SQL Query Result (Changelog)")
	tt.keys("C-c")
	tt.waitForText("SELECT * FROM r;\n[INFO] Result retrieval cancelled.\n\n" + promptShown)
}

// TestTableViewRefreshRates: while an unbounded query runs the table view
// refreshes every second by default; + and - step through the rates, the
// fastest being 100 ms; the status line says which.
func TestTableViewRefreshRates(t *testing.T) {
	tt := startTerm(t, 100, 20)
	tt.statement(`CREATE TABLE r (id INT) WITH ('connector' = 'datagen', 'rows-per-second' = '5');`, "[INFO] Execute statement succeed.")
	tt.statement("SET 'sql-client.execution.result-mode' = 'table';", "[INFO] Execute statement succeed.")
	tt.typeLine("SELECT COUNT(*) AS n FROM r;")
	tt.waitFor("a count", func(s string) bool {
		return strings.Contains(s, " Refresh: 1 s") && regexp.MustCompile(`(?m)^ +[1-9][0-9]*$`).MatchString(s)
	})
	tt.run("send-keys", "-N", "5", "-")
	tt.waitForText(" Refresh: 100 ms")
	tt.run("send-keys", "-N", "9", "+")
	tt.waitForText(" Refresh: -")
	tt.keys("Q")
	tt.waitForText("[INFO] Result retrieval cancelled.\n\n" + promptShown)
}

// TestTabCompletionOnTerminal: Tab completes the word at the cursor in the
// line editor; a second Tab lists the choices when there are several.
func TestTabCompletionOnTerminal(t *testing.T) {
	tt := startTerm(t, 100, 20)
	tt.statement(sequenceTable, "[INFO] Execute statement succeed.")
	tt.run("send-keys", "-l", "SELE")
	tt.keys("Tab")
	tt.waitForText(promptShown + " SELECT")
	tt.run("send-keys", "-l", " * FROM seq WHERE nam")
	tt.keys("Tab")
	tt.waitForText(promptShown + " SELECT * FROM seq WHERE name")
	tt.keys("C-u")
	tt.run("send-keys", "-l", "SET 'sql-client.display.p")
	tt.keys("Tab")
	tt.waitForText(promptShown + " SET 'sql-client.display.print-time-cost")
	tt.keys("C-u")
	tt.run("send-keys", "-l", "SET 'sql-client.")
	tt.keys("Tab", "Tab")
	tt.waitForText("sql-client.execution.result-mode", "sql-client.display.print-time-cost")
}
