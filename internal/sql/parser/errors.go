package parser

import (
	"fmt"
	"strings"

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
	fmt.Fprintf(&b, "%s at line %d, column %d: %s", heading, pos.Line, pos.Col, msg)
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
