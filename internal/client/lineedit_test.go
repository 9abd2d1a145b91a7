package client

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sluicesql/sluice"
)

func TestHistoryEntry(t *testing.T) {
	for _, tc := range []struct {
		stmt, want string
		ok         bool
	}{
		{"SHOW TABLES;\n", "SHOW TABLES;", true},
		{countQueryLines + "\n", countQuery, true},
		// Comments: -- ones end at the line break and are dropped, block
		// ones are kept on one line.
		{"SELECT a, -- first\n  b /* second\n third */\nFROM t;", "SELECT a, b /* second  third */ FROM t;", true},
		{"SELECT 1 AS one; -- done\n", "SELECT 1 AS one;", true},
		// Quotes keep what looks like a comment, a ';' or blanks.
		{"SELECT '--;  x', `a--b`\n  FROM t;", "SELECT '--;  x', `a--b` FROM t;", true},
		{"SELECT 'it''s'\n, 1;", "SELECT 'it''s' , 1;", true},
		// A line break inside quotes cannot be kept on one line.
		{"SELECT 'c;\nd' AS t;", "", false},
		{"SELECT 1 AS `a\nb`;", "", false},
	} {
		got, ok := historyEntry(tc.stmt)
		if got != tc.want || ok != tc.ok {
			t.Errorf("historyEntry(%q) = %q, %v; want %q, %v", tc.stmt, got, ok, tc.want, tc.ok)
		}
	}
}

func TestHistoryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	h := historyFile{path: path}
	if entries, err := h.load(3); entries != nil || err != nil {
		t.Fatalf("load of a missing file: %q, %v", entries, err)
	}
	for _, e := range []string{"SHOW TABLES;", "SHOW TABLES;", "SELECT 1;", "SHOW TABLES;"} {
		if err := h.add(e); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A repeated entry is written once.
	if want := "SHOW TABLES;\nSELECT 1;\nSHOW TABLES;\n"; string(data) != want {
		t.Errorf("file holds %q, want %q", data, want)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v (%v), want 0600: statements may hold credentials", fi.Mode(), err)
	}

	// A new session reads the entries back, without blank or invalid lines,
	// and cuts the file to the last ones.
	if err := os.WriteFile(path, append(data, "\nbad \xff\nSELECT 2;\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	h = historyFile{path: path}
	entries, err := h.load(3)
	if want := []string{"SELECT 1;", "SHOW TABLES;", "SELECT 2;"}; !slices.Equal(entries, want) || err != nil {
		t.Errorf("load: %q, %v; want %q", entries, err, want)
	}
	if data, _ := os.ReadFile(path); string(data) != "SELECT 1;\nSHOW TABLES;\nSELECT 2;\n" {
		t.Errorf("the cut file holds %q", data)
	}
	if err := h.add("SELECT 2;"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); strings.Count(string(data), "SELECT 2;") != 1 {
		t.Errorf("the last entry of the file was written again: %q", data)
	}

	// After an error the file is left alone.
	h = historyFile{path: filepath.Join(path, "not-a-directory", "history")}
	if err := h.add("SELECT 1;"); err == nil {
		t.Error("add into a missing directory succeeded")
	}
	if err := h.add("SELECT 2;"); err != nil || h.path != "" {
		t.Errorf("add after an error: %v, path %q", err, h.path)
	}
}

// scriptedSource is a lineSource that delivers scripted inputs and records
// the prompts shown and the statements added to the history.
type scriptedSource struct {
	inputs  []input
	prompts []string
	history []string
}

func (s *scriptedSource) readLine(p string) <-chan input {
	s.prompts = append(s.prompts, p)
	ch := make(chan input, 1)
	ch <- s.inputs[0]
	s.inputs = s.inputs[1:]
	return ch
}

func (s *scriptedSource) watch() (<-chan struct{}, func()) { return nil, func() {} }

func (s *scriptedSource) addHistory(stmt string) error {
	s.history = append(s.history, stmt)
	return nil
}

// TestRunLineSource checks how Run assembles statements from the lines of a
// line editor, which prompts it asks for, what goes into the history, and
// the line editor's Ctrl-C and Ctrl-D.
func TestRunLineSource(t *testing.T) {
	src := &scriptedSource{inputs: []input{
		{line: "SHOW\n"},
		{line: "  TABLES;\n"},
		{line: "SHOW\n"},
		{err: errAborted}, // Ctrl-C discards the statement
		{line: "-- nothing\n"},
		{line: "SHOW TABLES; SHOW\n"},
		{line: "VIEWS;\n"},
		{err: errQuit}, // Ctrl-D
	}}
	out := newOutput()
	e := sluice.NewEngine()
	defer e.Close()
	c := &Client{Backend: &Embedded{Engine: e}, Out: out, Interactive: true}
	if err := c.run(context.Background(), src); err != nil {
		t.Fatalf("run: %v", err)
	}
	wantPrompts := []string{prompt, continuation, prompt, continuation, prompt, prompt, continuation, prompt}
	if !slices.Equal(src.prompts, wantPrompts) {
		t.Errorf("prompts %q, want %q", src.prompts, wantPrompts)
	}
	wantHistory := []string{"SHOW\n  TABLES;\n", "SHOW TABLES; SHOW\nVIEWS;\n"}
	if !slices.Equal(src.history, wantHistory) {
		t.Errorf("history %q, want %q", src.history, wantHistory)
	}
	got, _ := out.snapshot()
	if want := strings.Repeat("Empty set\n\n", 3) + "\n[INFO] Exiting Sluice SQL CLI Client...\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

func TestWatchLine(t *testing.T) {
	for _, tc := range []struct {
		line     string
		read     bool // a line was read before watching stopped
		quit     bool
		keptLine bool
	}{
		{line: " q \n", read: true, quit: true},
		{line: "SHOW TABLES;\n", read: true, keptLine: true},
		{read: false},
	} {
		read := func(done <-chan struct{}) (input, bool) {
			if !tc.read {
				<-done
			}
			return input{line: tc.line}, tc.read
		}
		var kept []input
		quit, stop := watchLine(read, func(in input) { kept = append(kept, in) })
		if tc.quit {
			<-quit
		}
		stop()
		select {
		case <-quit:
			if !tc.quit {
				t.Errorf("%q stopped the query", tc.line)
			}
		default:
		}
		if keptLine := len(kept) == 1 && kept[0].line == tc.line; keptLine != tc.keptLine || len(kept) > 1 {
			t.Errorf("watching %q (read %v) kept %+v", tc.line, tc.read, kept)
		}
	}
}
