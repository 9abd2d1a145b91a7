package client

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// lineEditor edits the lines typed at the client's prompts on a terminal
// in raw mode, as readline does (lineedit.go has the keys), and draws what
// is written to it while a line is edited (the rows of print sinks) above
// the prompt, then the prompt and the line again. Its methods other than
// edit may be called from any goroutine.
type lineEditor struct {
	in  io.Reader // the terminal's keys
	out io.Writer // the terminal
	// width returns the terminal's width in cells.
	width func() int
	// complete returns the completions of the word before pos (runes) in
	// line, with the line before and after the word.
	complete func(line string, pos int) (head string, completions []string, tail string)

	pending []byte   // bytes read from in and not yet decoded
	history []string // oldest first
	killed  []rune   // the text last cut, for Ctrl-Y

	mu sync.Mutex
	// The line being edited, while active: what writeAbove draws again.
	active bool
	prompt string
	buf    []rune
	pos    int
	row    int // the cursor's row, counted from the prompt's
	rows   int // the rows drawn on
	// paint highlights the line being edited.
	paint func(line string) string
	// held collects what is written while hold is in force (a
	// full-screen view is shown); heldOver counts the lines left out
	// past maxHeld bytes.
	holding  bool
	held     []heldWrite
	heldSize int
	heldOver int
}

// heldWrite is a write kept while a full-screen view is shown.
type heldWrite struct {
	w io.Writer
	p []byte
}

// maxHeld bounds the output kept while a full-screen view is shown.
const maxHeld = 1 << 20

// key is a key press: a rune, with meta set when Alt (or Esc) came first,
// or one of the special keys below.
type key struct {
	r    rune
	meta bool
}

// Special keys, outside Unicode's range.
const (
	keyUp rune = unicode.MaxRune + 1 + iota
	keyDown
	keyLeft
	keyRight
	keyHome
	keyEnd
	keyDelete
	keyWordLeft
	keyWordRight
	keyUnknown
)

// Control keys.
const (
	ctrlA     = 'A' - '@'
	ctrlB     = 'B' - '@'
	ctrlC     = 'C' - '@'
	ctrlD     = 'D' - '@'
	ctrlE     = 'E' - '@'
	ctrlF     = 'F' - '@'
	ctrlG     = 'G' - '@'
	ctrlH     = 'H' - '@'
	tab       = 'I' - '@'
	ctrlJ     = 'J' - '@'
	ctrlK     = 'K' - '@'
	ctrlL     = 'L' - '@'
	ctrlM     = 'M' - '@'
	ctrlN     = 'N' - '@'
	ctrlP     = 'P' - '@'
	ctrlR     = 'R' - '@'
	ctrlT     = 'T' - '@'
	ctrlU     = 'U' - '@'
	ctrlW     = 'W' - '@'
	ctrlY     = 'Y' - '@'
	esc       = 0x1b
	backspace = 0x7f
)

// readByte returns the next byte typed.
func (e *lineEditor) readByte() (byte, error) {
	for len(e.pending) == 0 {
		var b [256]byte
		n, err := e.in.Read(b[:])
		e.pending = append(e.pending, b[:n]...)
		if n == 0 && err != nil {
			return 0, err
		}
	}
	c := e.pending[0]
	e.pending = e.pending[1:]
	return c, nil
}

// readKey decodes the next key press: a UTF-8 character, a control key,
// or an escape sequence (CSI or SS3, as xterm sends them).
func (e *lineEditor) readKey() (key, error) {
	c, err := e.readByte()
	if err != nil {
		return key{}, err
	}
	if c != esc {
		r, err := e.readRune(c)
		return key{r: r}, err
	}
	c, err = e.readByte()
	if err != nil {
		return key{}, err
	}
	switch c {
	case '[':
		var params []byte
		for {
			c, err = e.readByte()
			if err != nil {
				return key{}, err
			}
			if c >= 0x40 && c <= 0x7e {
				break
			}
			params = append(params, c)
		}
		return key{r: csiKey(string(params), c)}, nil
	case 'O':
		c, err = e.readByte()
		return key{r: csiKey("", c)}, err
	}
	r, err := e.readRune(c)
	return key{r: r, meta: true}, err
}

// csiKey names the key of an escape sequence with these parameters and
// final byte.
func csiKey(params string, final byte) rune {
	ctrl := strings.HasSuffix(params, ";5") || strings.HasSuffix(params, ";3")
	switch final {
	case 'A':
		return keyUp
	case 'B':
		return keyDown
	case 'C':
		if ctrl {
			return keyWordRight
		}
		return keyRight
	case 'D':
		if ctrl {
			return keyWordLeft
		}
		return keyLeft
	case 'H':
		return keyHome
	case 'F':
		return keyEnd
	case '~':
		switch params {
		case "1", "7":
			return keyHome
		case "4", "8":
			return keyEnd
		case "3":
			return keyDelete
		}
	}
	return keyUnknown
}

// readRune decodes the character that starts with byte c.
func (e *lineEditor) readRune(c byte) (rune, error) {
	if c < utf8.RuneSelf {
		return rune(c), nil
	}
	b := []byte{c}
	for !utf8.FullRune(b) {
		c, err := e.readByte()
		if err != nil {
			return 0, err
		}
		b = append(b, c)
	}
	r, _ := utf8.DecodeRune(b)
	return r, nil
}

// edit shows prompt, edits a line and returns it (without its line break)
// when Enter is pressed; errAborted for Ctrl-C, io.EOF for Ctrl-D on an
// empty line. The terminal must be in raw mode. paint highlights the line.
func (e *lineEditor) edit(prompt string, paint func(string) string) (string, error) {
	e.mu.Lock()
	e.active, e.prompt, e.buf, e.pos, e.row, e.rows, e.paint = true, prompt, nil, 0, 0, 0, paint
	e.redraw()
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		e.active = false
		e.mu.Unlock()
	}()

	var (
		lastTab   bool
		histIndex = len(e.history) // the entry shown; len: the line typed
		histLine  []rune           // the line typed before Up
		search    *historySearch
	)
	for {
		k, err := e.readKey()
		if err != nil {
			return "", err
		}
		e.mu.Lock()
		if search != nil {
			done, submit := search.key(e, k)
			if !done {
				e.redrawSearch(search)
				e.mu.Unlock()
				continue
			}
			search = nil
			if !submit {
				e.redraw()
				if k.r == ctrlG || k.r == ctrlC {
					e.mu.Unlock()
					continue
				}
			} else {
				k = key{r: ctrlM}
			}
		}
		tabbed := false
		switch {
		case k.meta:
			e.metaKey(k.r)
		case k.r == ctrlM || k.r == ctrlJ:
			e.pos = len(e.buf)
			e.redraw()
			e.write("\r\n")
			line := string(e.buf)
			e.mu.Unlock()
			return line, nil
		case k.r == ctrlC:
			e.pos = len(e.buf)
			e.redraw()
			e.write("^C\r\n")
			e.mu.Unlock()
			return "", errAborted
		case k.r == ctrlD && len(e.buf) == 0:
			e.mu.Unlock()
			return "", io.EOF
		case k.r == ctrlD || k.r == keyDelete:
			if e.pos < len(e.buf) {
				e.buf = slices.Delete(e.buf, e.pos, e.pos+1)
			}
		case k.r == backspace || k.r == ctrlH:
			if e.pos > 0 {
				e.buf = slices.Delete(e.buf, e.pos-1, e.pos)
				e.pos--
			}
		case k.r == ctrlA || k.r == keyHome:
			e.pos = 0
		case k.r == ctrlE || k.r == keyEnd:
			e.pos = len(e.buf)
		case k.r == ctrlB || k.r == keyLeft:
			e.pos = max(0, e.pos-1)
		case k.r == ctrlF || k.r == keyRight:
			e.pos = min(len(e.buf), e.pos+1)
		case k.r == keyWordLeft:
			e.pos = e.wordStart()
		case k.r == keyWordRight:
			e.pos = e.wordEnd()
		case k.r == ctrlK:
			e.cut(e.pos, len(e.buf))
		case k.r == ctrlU:
			e.cut(0, e.pos)
		case k.r == ctrlW:
			e.cut(e.wordStart(), e.pos)
		case k.r == ctrlY:
			e.buf = slices.Insert(e.buf, e.pos, e.killed...)
			e.pos += len(e.killed)
		case k.r == ctrlT:
			if e.pos > 0 && len(e.buf) > 1 {
				i := min(e.pos, len(e.buf)-1)
				e.buf[i-1], e.buf[i] = e.buf[i], e.buf[i-1]
				e.pos = i + 1
			}
		case k.r == ctrlL:
			e.write("\x1b[H\x1b[2J")
			e.row, e.rows = 0, 0
		case k.r == keyUp || k.r == ctrlP || k.r == keyDown || k.r == ctrlN:
			if histIndex == len(e.history) {
				histLine = slices.Clone(e.buf)
			}
			histIndex = e.recall(histIndex, histLine, k.r == keyUp || k.r == ctrlP)
		case k.r == ctrlR:
			search = &historySearch{original: slices.Clone(e.buf), index: len(e.history)}
			e.redrawSearch(search)
			e.mu.Unlock()
			continue
		case k.r == tab:
			line, pos := string(e.buf), e.pos
			e.mu.Unlock()
			head, completions, tail := e.complete(line, pos)
			e.mu.Lock()
			e.tab(head, completions, tail, lastTab)
			tabbed = true
		case k.r >= ' ' && k.r <= unicode.MaxRune && k.r != backspace:
			e.buf = slices.Insert(e.buf, e.pos, k.r)
			e.pos++
		}
		lastTab = tabbed
		e.redraw()
		e.mu.Unlock()
	}
}

// metaKey handles Alt (or Esc) and a character: word motions and cuts.
func (e *lineEditor) metaKey(r rune) {
	switch unicode.ToLower(r) {
	case 'b':
		e.pos = e.wordStart()
	case 'f':
		e.pos = e.wordEnd()
	case 'd':
		e.cut(e.pos, e.wordEnd())
	case backspace, ctrlH:
		e.cut(e.wordStart(), e.pos)
	}
}

// cut removes buf[from:to] into the kill buffer.
func (e *lineEditor) cut(from, to int) {
	if from >= to {
		return
	}
	e.killed = slices.Clone(e.buf[from:to])
	e.buf = slices.Delete(e.buf, from, to)
	e.pos = from
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// wordStart is the start of the word before the cursor.
func (e *lineEditor) wordStart() int {
	i := e.pos
	for i > 0 && !isWordRune(e.buf[i-1]) {
		i--
	}
	for i > 0 && isWordRune(e.buf[i-1]) {
		i--
	}
	return i
}

// wordEnd is the end of the word after the cursor.
func (e *lineEditor) wordEnd() int {
	i := e.pos
	for i < len(e.buf) && !isWordRune(e.buf[i]) {
		i++
	}
	for i < len(e.buf) && isWordRune(e.buf[i]) {
		i++
	}
	return i
}

// recall shows the history entry before (older) or after index that
// starts with prefix, the line typed before the first Up, and returns its
// index; past the newest entry the typed line comes back.
func (e *lineEditor) recall(index int, prefix []rune, older bool) int {
	p := string(prefix)
	step := 1
	if older {
		step = -1
	}
	for i := index + step; i >= 0 && i <= len(e.history); i += step {
		if i == len(e.history) {
			e.buf = slices.Clone(prefix)
			e.pos = len(e.buf)
			return i
		}
		if strings.HasPrefix(e.history[i], p) {
			e.buf = []rune(e.history[i])
			e.pos = len(e.buf)
			return i
		}
	}
	e.write("\a")
	return index
}

// tab completes the word before the cursor: a single completion replaces
// it, several are replaced by the start they share; when they share no
// more than is typed, a second Tab lists them under the line.
func (e *lineEditor) tab(head string, completions []string, tail string, again bool) {
	if len(completions) == 0 {
		e.write("\a")
		return
	}
	common := completions[0]
	for _, c := range completions[1:] {
		for !strings.HasPrefix(c, common) {
			_, size := utf8.DecodeLastRuneInString(common)
			common = common[:len(common)-size]
		}
	}
	before := string(e.buf[:e.pos])
	if len(completions) == 1 || len(head)+len(common) > len(before) {
		e.buf = []rune(head + common + tail)
		e.pos = utf8.RuneCountInString(head + common)
		return
	}
	if !again {
		e.write("\a")
		return
	}
	// The list below the line, in columns, then the prompt again.
	keep := e.pos
	e.pos = len(e.buf)
	e.redraw()
	e.pos = keep
	width := 0
	for _, c := range completions {
		width = max(width, runewidth.StringWidth(c))
	}
	perRow := max(1, (e.width()+2)/(width+2))
	var b strings.Builder
	b.WriteString("\r\n")
	for i, c := range completions {
		b.WriteString(c)
		if i%perRow == perRow-1 || i == len(completions)-1 {
			b.WriteString("\r\n")
		} else {
			b.WriteString(strings.Repeat(" ", width+2-runewidth.StringWidth(c)))
		}
	}
	e.write(b.String())
	e.row, e.rows = 0, 0
}

// historySearch is a Ctrl-R search of the history, newest first.
type historySearch struct {
	original []rune // the line before the search
	query    []rune
	index    int // the entry found; len(history): none yet
	failed   bool
}

// key handles a key typed while searching: it reports whether the search
// is over, and whether the line found is to be entered. A key that ends
// the search leaves the line found in the editor (Ctrl-G and Ctrl-C give
// the original back) and is then handled as usual.
func (s *historySearch) key(e *lineEditor, k key) (done, submit bool) {
	switch {
	case k.meta:
		return true, false
	case k.r == ctrlG || k.r == ctrlC:
		e.buf, e.pos = s.original, len(s.original)
		return true, false
	case k.r == ctrlM || k.r == ctrlJ:
		return true, true
	case k.r == ctrlR:
		s.find(e, s.index-1)
	case k.r == backspace || k.r == ctrlH:
		if len(s.query) > 0 {
			s.query = s.query[:len(s.query)-1]
			s.find(e, len(e.history)-1)
		}
	case k.r >= ' ' && k.r <= unicode.MaxRune:
		s.query = append(s.query, k.r)
		s.find(e, min(s.index, len(e.history)-1))
	default:
		return true, false
	}
	return false, false
}

// find looks for the query in the entries from index back to the oldest.
func (s *historySearch) find(e *lineEditor, from int) {
	q := string(s.query)
	for i := from; i >= 0; i-- {
		if at := strings.Index(e.history[i], q); at >= 0 {
			s.index, s.failed = i, false
			e.buf = []rune(e.history[i])
			e.pos = utf8.RuneCountInString(e.history[i][:at])
			return
		}
	}
	s.failed = true
	e.write("\a")
}

// redrawSearch draws the search prompt and the line found.
func (e *lineEditor) redrawSearch(s *historySearch) {
	p := "(reverse-i-search)`"
	if s.failed {
		p = "(failed reverse-i-search)`"
	}
	keep := e.prompt
	e.prompt = p + string(s.query) + "': "
	e.redraw()
	e.prompt = keep
}

// write writes to the terminal; errors show on the terminal itself.
func (e *lineEditor) write(s string) { io.WriteString(e.out, s) }

// position returns the row and column at which the cell after the first n
// runes of text is drawn, text starting at column 0 of row 0 on a
// terminal cols wide: a character that does not fit on a row starts the
// next one.
func position(text []rune, n, cols int) (row, col int) {
	for i, r := range text {
		w := runewidth.RuneWidth(r)
		if col+w > cols {
			row, col = row+1, 0
		}
		if i == n {
			return row, col
		}
		col += w
	}
	if col >= cols {
		row, col = row+1, 0
	}
	return row, col
}

// clear moves the cursor to the start of the prompt, blanking the rows
// the prompt and line were drawn on. It clears row by row: some terminals
// (tmux) keep a screen cleared whole in their history.
func (e *lineEditor) clear(b *strings.Builder) {
	if e.row > 0 {
		fmt.Fprintf(b, "\x1b[%dA", e.row)
	}
	b.WriteString("\r")
	for i := range e.rows {
		if i > 0 {
			b.WriteString("\x1b[B")
		}
		b.WriteString("\x1b[2K")
	}
	if e.rows > 1 {
		fmt.Fprintf(b, "\x1b[%dA", e.rows-1)
	}
	e.row, e.rows = 0, 0
}

// redraw draws the prompt and the line in place of what was drawn, and
// puts the cursor at its position.
func (e *lineEditor) redraw() {
	cols := max(e.width(), 1)
	var b strings.Builder
	e.clear(&b)
	b.WriteString(e.prompt)
	line := string(e.buf)
	if e.paint != nil {
		line = e.paint(line)
	}
	b.WriteString(line)
	all := append([]rune(e.prompt), e.buf...)
	endRow, endCol := position(all, len(all), cols)
	if endCol == 0 && len(all) > 0 {
		// The text fills its last row: move to the next one, as the
		// terminal waits to wrap until the next character.
		b.WriteString("\r\n")
	}
	e.rows = endRow + 1
	row, col := position(all, len([]rune(e.prompt))+e.pos, cols)
	if endRow > row {
		fmt.Fprintf(&b, "\x1b[%dA", endRow-row)
	}
	b.WriteString("\r")
	if col > 0 {
		fmt.Fprintf(&b, "\x1b[%dC", col)
	}
	e.row = row
	e.write(b.String())
}

// writeAbove writes p to w (the terminal's output or error) above the line
// being edited, which is then drawn again; while no line is edited, as it
// is; while hold is in force, later.
func (e *lineEditor) writeAbove(w io.Writer, p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.holding:
		if e.heldSize+len(p) <= maxHeld {
			e.held = append(e.held, heldWrite{w, slices.Clone(p)})
			e.heldSize += len(p)
		} else {
			e.heldOver += bytes.Count(p, []byte("\n"))
		}
		return len(p), nil
	case !e.active:
		return w.Write(p)
	}
	var b strings.Builder
	e.clear(&b)
	e.write(b.String())
	// Raw mode: a line break needs its carriage return.
	out := bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\r', '\n')
	}
	_, err := w.Write(out)
	e.redraw()
	return len(p), err
}

// hold keeps what is written from now on until the returned function is
// called, which writes it, and then to w the count of the lines left out
// past maxHeld.
func (e *lineEditor) hold(w io.Writer) (release func()) {
	e.mu.Lock()
	e.holding = true
	e.mu.Unlock()
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		for _, h := range e.held {
			h.w.Write(h.p)
		}
		if e.heldOver > 0 {
			fmt.Fprintf(w, "[WARNING] %d more lines printed while the result was shown are left out.\n", e.heldOver)
		}
		e.holding, e.held, e.heldSize, e.heldOver = false, nil, 0, 0
	}
}

// aboveWriter writes through writeAbove to w.
type aboveWriter struct {
	e *lineEditor
	w io.Writer
}

func (a aboveWriter) Write(p []byte) (int, error) { return a.e.writeAbove(a.w, p) }
