package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	xterm "golang.org/x/term"
)

// RunTerminal is Run on the process's terminal, with line editing and
// history like Flink's SQL client: the arrow keys, Ctrl-A and Ctrl-E (Home
// and End) move in the line, Alt-B and Alt-F (Ctrl-Left and Ctrl-Right)
// by words; Ctrl-K, Ctrl-U, Ctrl-W and Alt-D cut, Ctrl-Y pastes what was
// cut; Up and Down (or Ctrl-P and Ctrl-N) recall earlier statements that
// start with the line typed, and Ctrl-R searches them; Tab completes
// keywords, tables, columns, functions and, in SET and RESET, setting
// keys (a second Tab lists the choices); Ctrl-L clears the screen. The
// line is highlighted in the colors of sql-client.display.color-schema. A
// statement typed over several lines is one history entry. The history is
// kept in the file history (none if it is ""), appended to as statements
// are read. Ctrl-C at a prompt discards the statement being typed; Ctrl-D
// on an empty line ends the session, like QUIT;. Queries in the table and
// changelog result modes are shown full-screen, as in Flink's client. What
// the jobs of an embedded engine print (the print connector) is shown
// above the prompt, which is then drawn again with the line being typed.
// Standard input and output must be a terminal, and Out standard output.
func (c *Client) RunTerminal(ctx context.Context, history string) error {
	t, err := openTerminal()
	if err != nil {
		return err
	}
	defer t.close()
	if err := t.loadHistory(history); err != nil {
		c.warn(fmt.Sprintf("Could not use the history file: %v", err))
	}
	c.newScreen = tcell.NewScreen
	c.hold = func() func() { return t.ed.hold(os.Stdout) }
	c.colors = &colorSchemas[0]
	defer func() { c.newScreen, c.hold, c.colors = nil, nil, nil }()
	c.refreshColors(ctx)
	t.ed.complete = func(line string, pos int) (string, []string, string) {
		return c.complete(ctx, c.typed, line, pos)
	}
	t.painter = func() func(string) string {
		schema, typed := c.colors, c.typed
		if !schema.highlights() {
			return nil
		}
		return func(line string) string { return schema.highlight(typed, line) }
	}
	if p, ok := c.Backend.(printer); ok {
		p.setOutput(aboveWriter{t.ed, os.Stdout}, aboveWriter{t.ed, os.Stderr})
		defer p.setOutput(os.Stdout, os.Stderr)
	}
	return c.run(ctx, t)
}

// terminal is the lineSource of the terminal, edited with lineEditor. The
// terminal is in raw mode only while a prompt is shown: results are
// printed, and the line that stops a query is typed, in the terminal's own
// mode.
type terminal struct {
	ed      *lineEditor
	fd      int
	cooked  *xterm.State // the terminal's own mode
	history historyFile
	typed   *input // a line typed while a statement ran
	// painter returns the highlighting of the next line, nil for none.
	painter func() func(string) string
}

func openTerminal() (*terminal, error) {
	fd := int(os.Stdin.Fd())
	if !xterm.IsTerminal(fd) || !xterm.IsTerminal(int(os.Stdout.Fd())) {
		return nil, errors.New("standard input and output are not a terminal")
	}
	cooked, err := xterm.GetState(fd)
	if err != nil {
		return nil, err
	}
	ed := &lineEditor{in: os.Stdin, out: os.Stdout, width: func() int {
		w, _, err := xterm.GetSize(int(os.Stdout.Fd()))
		if err != nil || w < 1 {
			return 80
		}
		return w
	}}
	return &terminal{ed: ed, fd: fd, cooked: cooked}, nil
}

// close gives the terminal back in the mode it had.
func (t *terminal) close() { xterm.Restore(t.fd, t.cooked) }

func (t *terminal) readLine(p string) <-chan input {
	ch := make(chan input, 1)
	if t.typed != nil {
		// Show it as if typed at the prompt.
		fmt.Print(p + t.typed.line)
		ch <- *t.typed
		t.typed = nil
		return ch
	}
	var paint func(string) string
	if t.painter != nil {
		paint = t.painter()
	}
	go func() { ch <- t.prompt(p, paint) }()
	return ch
}

// prompt edits one line after the prompt p.
func (t *terminal) prompt(p string, paint func(string) string) input {
	if _, err := xterm.MakeRaw(t.fd); err != nil {
		return input{err: err}
	}
	line, err := t.ed.edit(p, paint)
	if merr := xterm.Restore(t.fd, t.cooked); err == nil {
		err = merr
	}
	switch {
	case err == nil:
		return input{line: line + "\n"}
	case errors.Is(err, errAborted):
		return input{err: errAborted}
	case err == io.EOF:
		return input{err: errQuit}
	}
	return input{err: err}
}

func (t *terminal) watch() (<-chan struct{}, func()) {
	if t.typed != nil {
		return nil, func() {}
	}
	read := func(done <-chan struct{}) (input, bool) {
		line, ok := readTyped(done)
		return input{line: line}, ok
	}
	return watchLine(read, func(in input) { t.typed = &in })
}

// watchLine implements lineSource.watch: it calls read, which returns the
// next line or false once done is closed, in a goroutine, and closes quit
// if the line is the quit key, or passes it to keep.
func watchLine(read func(done <-chan struct{}) (input, bool), keep func(input)) (quit <-chan struct{}, stop func()) {
	q := make(chan struct{})
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		in, ok := read(done)
		switch {
		case !ok:
		case in.err == nil && isQuitKey(in.line):
			close(q)
		default:
			keep(in)
		}
	}()
	return q, func() {
		close(done)
		<-stopped
	}
}

// loadHistory reads the history file, if there is one, and appends to it
// from then on.
func (t *terminal) loadHistory(path string) error {
	t.history = historyFile{path: path}
	entries, err := t.history.load(historyLimit)
	t.ed.history = entries
	return err
}

// addHistory adds the statement to the editor's history and the history
// file.
func (t *terminal) addHistory(stmt string) error {
	entry, ok := historyEntry(stmt)
	if !ok {
		return nil
	}
	h := t.ed.history
	if len(h) == 0 || h[len(h)-1] != entry {
		h = append(h, entry)
	}
	t.ed.history = h[max(0, len(h)-historyLimit):]
	return t.history.add(entry)
}

// historyLimit is the number of statements the history keeps.
const historyLimit = 1000

// historyFile is the file the history is kept in, one entry a line.
type historyFile struct {
	path string // "" for none, or after an error writing it
	last string // the last entry
}

// load returns the last limit entries of the file (none if it does not
// exist yet), and cuts the file to them if it is longer. After an error it
// does not write the file.
func (h *historyFile) load(limit int) ([]string, error) {
	if h.path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(h.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		h.path = ""
		return nil, err
	}
	var entries []string
	for e := range strings.SplitSeq(string(data), "\n") {
		if e != "" && utf8.ValidString(e) {
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		return nil, nil
	}
	h.last = entries[len(entries)-1]
	if len(entries) <= limit {
		return entries, nil
	}
	entries = entries[len(entries)-limit:]
	if err := os.WriteFile(h.path, []byte(strings.Join(entries, "\n")+"\n"), 0o600); err != nil {
		h.path = ""
		return entries, err
	}
	return entries, nil
}

// add appends an entry to the file unless it repeats the last one. After an
// error it stops writing the file.
func (h *historyFile) add(entry string) error {
	if h.path == "" || entry == h.last {
		return nil
	}
	h.last = entry
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err == nil {
		_, err = f.WriteString(entry + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		h.path = ""
	}
	return err
}

// blanks are the white space other than line breaks, as the lexer has it.
const blanks = " \t\f"

var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// historyEntry returns a statement as one line: each line break, with the
// blanks around it, becomes one space, and -- comments are dropped. It
// reports false if a string or quoted identifier holds a line break, which
// one line cannot.
func historyEntry(stmt string) (string, bool) {
	var b []byte
	for i := 0; i < len(stmt); {
		c := stmt[i]
		switch {
		case c == '\'' || c == '`':
			// A doubled quote inside reads as two adjacent literals here.
			end := len(stmt)
			if j := strings.IndexByte(stmt[i+1:], c); j >= 0 {
				end = i + 1 + j + 1
			}
			if strings.ContainsAny(stmt[i:end], "\r\n") {
				return "", false
			}
			b = append(b, stmt[i:end]...)
			i = end
		case strings.HasPrefix(stmt[i:], "--"):
			for i < len(stmt) && stmt[i] != '\n' {
				i++
			}
		case strings.HasPrefix(stmt[i:], "/*"):
			end := len(stmt)
			if j := strings.Index(stmt[i+2:], "*/"); j >= 0 {
				end = i + 2 + j + 2
			}
			b = append(b, lineBreaks.Replace(stmt[i:end])...)
			i = end
		case c == '\n' || c == '\r':
			b = append(bytes.TrimRight(b, blanks), ' ')
			for i < len(stmt) && strings.IndexByte(blanks+"\n\r", stmt[i]) >= 0 {
				i++
			}
		default:
			b = append(b, c)
			i++
		}
	}
	return strings.TrimSpace(string(b)), true
}
