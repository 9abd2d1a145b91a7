package parser

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// Error is a syntax error at a position of the parsed text.
type Error struct {
	Pos  ast.Pos
	Msg  string
	Line string // the text of the source line the error is on
}

// Error renders the message followed by the source line and a caret under
// the offending column:
//
//	SQL parse error at line 3, column 8: expected an expression, found 'FROM'
//	  SELECT , FROM t
//	         ^
func (e *Error) Error() string {
	return render("SQL parse error", e.Pos, e.Msg, e.Line)
}

// FormatError renders a positioned error about src the way parse errors are
// rendered: a heading "SQL <kind> error at line L, column C: <msg>" followed
// by the source line and a caret under column C. kind is a word such as
// "parse" or "validation". The snippet is omitted when pos is not inside src
// or its line is blank.
func FormatError(src string, pos ast.Pos, kind, msg string) string {
	return render("SQL "+kind+" error", pos, msg, sourceLine(src, pos.Line))
}

func render(heading string, pos ast.Pos, msg, line string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s at line %d, column %d: %s", heading, pos.Line, pos.Col, ClipMessage(msg))
	if strings.TrimSpace(line) == "" {
		return b.String()
	}
	line, caret := clip(line, pos.Col)
	b.WriteString("\n  ")
	b.WriteString(line)
	b.WriteString("\n  ")
	// Copy tabs so that the caret lines up however tabs are displayed.
	col := 1
	for _, r := range line {
		if col >= caret {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		col++
	}
	for ; col < caret; col++ {
		b.WriteByte(' ')
	}
	b.WriteByte('^')
	return b.String()
}

// maxSnippet is the most characters of a source line shown under an error.
const maxSnippet = 100

// clip shortens a long line to a window around column col, marking the cut
// ends with "...", and returns it with the column moved accordingly.
func clip(line string, col int) (string, int) {
	runes := []rune(line)
	if len(runes) <= maxSnippet {
		return line, col
	}
	end := min(len(runes), max(col-1, 0)+maxSnippet/2)
	start := max(0, end-maxSnippet)
	end = min(len(runes), start+maxSnippet)
	prefix, suffix := "", ""
	if start > 0 {
		prefix = "..."
	}
	if end < len(runes) {
		suffix = "..."
	}
	return prefix + string(runes[start:end]) + suffix, col - start + len(prefix)
}

// sourceLine returns line n (1-based) of src without its line terminator, or
// "" if there is no such line.
func sourceLine(src string, n int) string {
	for i := 1; i < n; i++ {
		j := strings.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if n < 1 {
		return ""
	}
	if j := strings.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.TrimSuffix(src, "\r")
}

// What an error message may echo of the input it is about: a statement
// may hold a 100 kB identifier or value, and a record a 100 kB string.
const (
	// maxWord is the longest word (a run of characters without white
	// space) kept whole; a longer one keeps its first keepWord characters.
	maxWord, keepWord = 200, 100
	// maxLine is the longest line kept whole; a longer one keeps its
	// first maxLine characters.
	maxLine = 2000
	// maxLines is the most lines kept of a message.
	maxLines = 200
)

// ClipMessage shortens what an error message echoes of long input: a word
// longer than 200 characters becomes its first 100, "..." and its length,
// e.g. Object 'xxxx... (100000 characters)' not found, keeping the quotes
// and punctuation around it; then a line longer than 2,000 characters is
// cut the same way, and a message longer than 200 lines keeps its first
// 200 and says how many more there were.
func ClipMessage(msg string) string {
	if len(msg) <= maxWord {
		return msg
	}
	lines := strings.Split(msg, "\n")
	more := len(lines) - maxLines
	if more > 0 {
		lines = lines[:maxLines]
	}
	for i, l := range lines {
		l = clipWords(l)
		if n := utf8.RuneCountInString(l); n > maxLine {
			l = string([]rune(l)[:maxLine]) + fmt.Sprintf("... (%d characters)", n)
		}
		lines[i] = l
	}
	if more > 0 {
		lines = append(lines, fmt.Sprintf("... (%d more lines)", more))
	}
	return strings.Join(lines, "\n")
}

// clipWords shortens the long words of one line.
func clipWords(line string) string {
	var b strings.Builder
	for len(line) > 0 {
		sp := strings.IndexFunc(line, unicode.IsSpace)
		if sp < 0 {
			sp = len(line)
		}
		b.WriteString(clipWord(line[:sp]))
		line = line[sp:]
		end := strings.IndexFunc(line, func(r rune) bool { return !unicode.IsSpace(r) })
		if end < 0 {
			end = len(line)
		}
		b.WriteString(line[:end])
		line = line[end:]
	}
	return b.String()
}

// clipWord shortens a word longer than maxWord characters, keeping the
// quotes and punctuation that open and close it.
func clipWord(w string) string {
	if len(w) <= maxWord || utf8.RuneCountInString(w) <= maxWord {
		return w
	}
	body := strings.TrimLeft(w, quotesAndPunctuation)
	lead := w[:len(w)-len(body)]
	trimmed := strings.TrimRight(body, quotesAndPunctuation)
	tail := body[len(trimmed):]
	runes := []rune(trimmed)
	if len(runes) <= maxWord {
		return w
	}
	return fmt.Sprintf("%s%s... (%d characters)%s", lead, string(runes[:keepWord]), len(runes), tail)
}

// quotesAndPunctuation are the characters kept around a shortened word.
const quotesAndPunctuation = "'`\"()[]{},.;:"
