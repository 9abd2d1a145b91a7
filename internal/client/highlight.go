package client

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

// Syntax highlighting of the line being edited, after Flink's SQL client
// (SqlClientSyntaxHighlighter and SyntaxHighlightStyle): the color schema
// sql-client.display.color-schema names one of Flink's built-in styles,
// each giving a style to keywords, to the text that is none of the others,
// to comments, to hints (/*+ ... */), to character literals ('...') and to
// identifiers quoted in backquotes. Numbers and operators take the default
// style. DEFAULT highlights nothing.

// sgr is a terminal style: the parameters of an SGR escape sequence ("1;34"
// for bold blue), "" for the terminal's own.
type sgr string

// Styles of Flink's SyntaxHighlightStyle, as JLine draws them: its colors
// 0-7 are the terminal's, BRIGHT (8) its bright black.
const (
	plainStyle  sgr = ""
	green       sgr = "32"
	cyan        sgr = "36"
	white       sgr = "37"
	black       sgr = "30"
	magenta     sgr = "35"
	red         sgr = "31"
	blue        sgr = "34"
	boldGreen   sgr = "1;32"
	boldCyan    sgr = "1;36"
	boldBright  sgr = "1;90"
	boldYellow  sgr = "1;33"
	boldMagenta sgr = "1;35"
	boldRed     sgr = "1;31"
	boldBlue    sgr = "1;34"
	italicGreen sgr = "3;32"
	italicCyan  sgr = "3;36"
	italicBrite sgr = "3;90"
)

// colorSchema is one of Flink's built-in highlight styles.
type colorSchema struct {
	name                                             string
	keyword, text, comment, hint, quoted, identifier sgr
}

// colorSchemas are Flink's BuiltInStyle values, in its order, named as
// sluice.ColorSchemas names them.
var colorSchemas = []colorSchema{
	{name: "DEFAULT"},
	{"DARK", boldBlue, white, italicBrite, boldBright, green, cyan},
	{"LIGHT", boldRed, black, italicBrite, boldBright, green, cyan},
	{"CHESTER", boldBlue, white, italicGreen, boldGreen, red, cyan},
	{"DRACULA", boldMagenta, white, italicCyan, boldCyan, green, red},
	{"SOLARIZED", boldYellow, blue, italicBrite, boldBright, green, red},
	{"VS2010", boldBlue, white, italicGreen, boldGreen, red, magenta},
	{"OBSIDIAN", boldGreen, white, italicBrite, boldBright, red, magenta},
	{"GESHI", "1;38;2;99;33;33", white, "3;38;2;128;128;128", "1;3;38;2;128;128;128", "38;2;102;204;102", "38;2;0;0;153"},
}

// schemaNamed returns the color schema of a name, ignoring case, or nil.
func schemaNamed(name string) *colorSchema {
	for i := range colorSchemas {
		if strings.EqualFold(strings.TrimSpace(name), colorSchemas[i].name) {
			return &colorSchemas[i]
		}
	}
	return nil
}

// highlights reports whether the schema colors anything.
func (s *colorSchema) highlights() bool { return s != nil && s.name != "DEFAULT" }

// keywords are the words highlighted as keywords: those Sluice's parser
// knows, as Flink's highlighter takes its parser's.
var keywords = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range parser.Keywords() {
		m[k] = true
	}
	return m
}()

// tokenState is where the highlighter is in the text: outside any quote or
// comment, or inside one, which ends at its end marker.
type tokenState struct {
	start, end string
	style      func(*colorSchema) sgr
}

// tokenStates are the states other than the default, in the order their
// start markers are tried (a hint's /*+ before a comment's /*).
var tokenStates = []tokenState{
	{"'", "'", func(s *colorSchema) sgr { return s.quoted }},
	{"`", "`", func(s *colorSchema) sgr { return s.identifier }},
	{"--", "\n", func(s *colorSchema) sgr { return s.comment }},
	{"/*+", "*/", func(s *colorSchema) sgr { return s.hint }},
	{"/*", "*/", func(s *colorSchema) sgr { return s.comment }},
}

// highlight returns line with the escape sequences that draw it in the
// schema's styles; before is the text of the statement typed on the lines
// before it, which says whether the line starts inside a string or a
// comment. Each styled run starts with a reset, and the line ends with one.
func (s *colorSchema) highlight(before, line string) string {
	if !s.highlights() {
		return line
	}
	var b strings.Builder
	cur := sgr("none")
	set := func(st sgr) {
		if st != cur {
			b.WriteString("\x1b[0")
			if st != plainStyle {
				b.WriteString(";" + string(st))
			}
			b.WriteString("m")
			cur = st
		}
	}
	text := before + line
	var state *tokenState
	emit := func(from, to int, st sgr) {
		if to <= len(before) {
			return
		}
		from = max(from, len(before))
		set(st)
		b.WriteString(text[from:to])
	}
	wordStart := -1
	endWord := func(i int) {
		if wordStart < 0 {
			return
		}
		st := s.text
		if keywords[strings.ToUpper(text[wordStart:i])] {
			st = s.keyword
		}
		emit(wordStart, i, st)
		wordStart = -1
	}
	for i := 0; i < len(text); {
		if state != nil {
			j := strings.Index(text[i:], state.end)
			end := len(text)
			if j >= 0 {
				end = i + j + len(state.end)
			}
			emit(i, end, state.style(s))
			i = end
			if j >= 0 {
				state = nil
			}
			continue
		}
		if st := stateAt(text, i); st != nil {
			endWord(i)
			state = st
			emit(i, i+len(st.start), st.style(s))
			i += len(st.start)
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '$' {
			if wordStart < 0 {
				wordStart = i
			}
		} else {
			endWord(i)
			emit(i, i+size, s.text)
		}
		i += size
	}
	endWord(len(text))
	if cur != sgr("none") {
		b.WriteString("\x1b[0m")
	}
	return b.String()
}

// stateAt returns the state whose start marker is at text[i:], or nil.
func stateAt(text string, i int) *tokenState {
	for k := range tokenStates {
		if strings.HasPrefix(text[i:], tokenStates[k].start) {
			return &tokenStates[k]
		}
	}
	return nil
}

// refreshColors reads the session's color schema, when the client is on a
// terminal; on an error the schema stays as it was.
func (c *Client) refreshColors(ctx context.Context) {
	if c.colors == nil {
		return
	}
	m, err := c.Backend.Settings(ctx)
	if err != nil {
		return
	}
	if s := schemaNamed(m[sluice.ConfColorSchema]); s != nil {
		c.colors = s
	}
}
