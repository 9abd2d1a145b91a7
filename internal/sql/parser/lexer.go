package parser

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// tokKind classifies a token.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tIdent           // unquoted identifier or keyword, as written
	tQuoted          // `quoted identifier`, quotes removed
	tString          // 'string', quotes removed and '' unescaped
	tNumber          // 12, 1.5, 1e3 as written
	tBinary          // X'0A0B', hex digits only
	tUnicode         // U&'\0041', quotes removed, escapes kept
	tOp              // operator or punctuation
	tIllegal         // lexical error; text holds the message
)

// token is one lexical token. off and end are byte offsets into the source.
type token struct {
	kind        tokKind
	text        string
	pos, endPos ast.Pos
	off, end    int
}

// lexer turns source text into tokens. It never fails: malformed input
// becomes a tIllegal token that the parser reports when it reaches it.
type lexer struct {
	src       string
	off       int
	line, col int
	// hint is set between the "/*+" and "*/" of a hint, whose contents are
	// tokens, not a comment.
	hint bool
}

// lex returns all tokens of src (comments and whitespace dropped), always
// ending with a tEOF token.
func lex(src string) []token {
	lx := &lexer{src: src, line: 1, col: 1}
	var toks []token
	for {
		t := lx.next()
		toks = append(toks, t)
		if t.kind == tEOF {
			return toks
		}
	}
}

func (lx *lexer) pos() ast.Pos { return ast.Pos{Line: lx.line, Col: lx.col} }

// peekAt returns the byte at offset off+k, or 0 past the end.
func (lx *lexer) peekAt(k int) byte {
	if lx.off+k < len(lx.src) {
		return lx.src[lx.off+k]
	}
	return 0
}

// advance moves past one rune, keeping line and column up to date.
func (lx *lexer) advance() {
	r, n := utf8.DecodeRuneInString(lx.src[lx.off:])
	lx.off += n
	if r == '\n' {
		lx.line++
		lx.col = 1
	} else {
		lx.col++
	}
}

// skipSpace skips whitespace and comments. It returns an illegal token for
// an unterminated block comment, else nil.
func (lx *lexer) skipSpace() *token {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			lx.advance()
		case c == '-' && lx.peekAt(1) == '-':
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.advance()
			}
		case c == '/' && lx.peekAt(1) == '*' && lx.peekAt(2) == '+':
			return nil // a hint: tokens, not a comment
		case c == '/' && lx.peekAt(1) == '*':
			start, off := lx.pos(), lx.off
			lx.advance()
			lx.advance()
			for {
				if lx.off >= len(lx.src) {
					t := lx.token(tIllegal, "unterminated comment: missing '*/'", start, off)
					return &t
				}
				if lx.src[lx.off] == '*' && lx.peekAt(1) == '/' {
					lx.advance()
					lx.advance()
					break
				}
				lx.advance()
			}
		default:
			return nil
		}
	}
	return nil
}

func (lx *lexer) token(kind tokKind, text string, start ast.Pos, off int) token {
	return token{kind: kind, text: text, pos: start, endPos: lx.pos(), off: off, end: lx.off}
}

// twoCharOps are the operators of two characters.
var twoCharOps = []string{"<>", "!=", "<=", ">=", "||", "=>"}

func (lx *lexer) next() token {
	if t := lx.skipSpace(); t != nil {
		return *t
	}
	start, off := lx.pos(), lx.off
	if lx.off >= len(lx.src) {
		return lx.token(tEOF, "", start, off)
	}
	c := lx.src[lx.off]
	switch {
	case c == '/' && lx.peekAt(1) == '*' && lx.peekAt(2) == '+':
		lx.advance()
		lx.advance()
		lx.advance()
		lx.hint = true
		return lx.token(tOp, "/*+", start, off)
	case lx.hint && c == '*' && lx.peekAt(1) == '/':
		lx.advance()
		lx.advance()
		lx.hint = false
		return lx.token(tOp, "*/", start, off)
	case (c == 'X' || c == 'x') && lx.peekAt(1) == '\'':
		lx.advance()
		return lx.binary(start, off)
	case (c == 'U' || c == 'u') && lx.peekAt(1) == '&' && lx.peekAt(2) == '\'':
		lx.advance()
		lx.advance()
		s, ok, bad := lx.quoted('\'')
		switch {
		case !ok:
			return lx.token(tIllegal, "unterminated string literal", start, off)
		case bad != nil:
			return *bad
		}
		return lx.token(tUnicode, s, start, off)
	case c == '\'':
		s, ok, bad := lx.quoted('\'')
		switch {
		case !ok:
			return lx.token(tIllegal, "unterminated string literal", start, off)
		case bad != nil:
			return *bad
		}
		return lx.token(tString, s, start, off)
	case c == '`':
		s, ok, bad := lx.quoted('`')
		switch {
		case !ok:
			return lx.token(tIllegal, "unterminated quoted identifier", start, off)
		case bad != nil:
			return *bad
		case s == "":
			return lx.token(tIllegal, "empty quoted identifier", start, off)
		}
		return lx.token(tQuoted, s, start, off)
	case c == '"':
		lx.advance()
		return lx.token(tIllegal, "unexpected '\"': quote identifiers with backquotes (`name`) and strings with single quotes ('text')", start, off)
	case isDigit(c) || c == '.' && isDigit(lx.peekAt(1)):
		return lx.number(start, off)
	}
	r, _ := utf8.DecodeRuneInString(lx.src[lx.off:])
	if isIdentStart(r) {
		for lx.off < len(lx.src) {
			r, _ := utf8.DecodeRuneInString(lx.src[lx.off:])
			if !isIdentPart(r) {
				break
			}
			lx.advance()
		}
		return lx.token(tIdent, lx.src[off:lx.off], start, off)
	}
	for _, op := range twoCharOps {
		if strings.HasPrefix(lx.src[lx.off:], op) {
			lx.advance()
			lx.advance()
			return lx.token(tOp, op, start, off)
		}
	}
	if strings.IndexByte("=<>+-*/%(),.;[]{}?|^$", c) >= 0 {
		lx.advance()
		return lx.token(tOp, string(c), start, off)
	}
	lx.advance()
	return lx.token(tIllegal, "unexpected character '"+lx.src[off:lx.off]+"'", start, off)
}

// quoted scans a literal delimited by q in which a doubled q stands for
// itself; it reports false if the closing quote is missing. A byte that is
// not UTF-8 in it (text that is no character, which would reach strings,
// names and plans as it is) makes the literal a tIllegal token at that byte,
// returned as bad; the scan still runs to the closing quote, so that the
// statements after it split as they should.
func (lx *lexer) quoted(q byte) (s string, ok bool, bad *token) {
	lx.advance()
	var b strings.Builder
	for {
		if lx.off >= len(lx.src) {
			return "", false, bad
		}
		c := lx.src[lx.off]
		if c == q {
			if lx.peekAt(1) != q {
				lx.advance()
				return b.String(), true, bad
			}
			lx.advance()
		}
		start, pos := lx.off, lx.pos()
		lx.advance()
		if r, n := utf8.DecodeRuneInString(lx.src[start:]); r == utf8.RuneError && n == 1 && bad == nil {
			t := lx.token(tIllegal, fmt.Sprintf("invalid UTF-8 byte 0x%02x: SQL text must be UTF-8", lx.src[start]), pos, start)
			bad = &t
		}
		b.WriteString(lx.src[start:lx.off])
	}
}

func (lx *lexer) binary(start ast.Pos, off int) token {
	s, ok, bad := lx.quoted('\'')
	switch {
	case !ok:
		return lx.token(tIllegal, "unterminated binary literal", start, off)
	case bad != nil:
		return *bad
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return lx.token(tIllegal, "invalid hexadecimal digit '"+string(r)+"' in binary literal", start, off)
		}
	}
	if len(s)%2 != 0 {
		return lx.token(tIllegal, "binary literal must have an even number of hexadecimal digits", start, off)
	}
	return lx.token(tBinary, s, start, off)
}

func (lx *lexer) number(start ast.Pos, off int) token {
	digits := func() {
		for isDigit(lx.peekAt(0)) {
			lx.advance()
		}
	}
	digits()
	if lx.peekAt(0) == '.' {
		lx.advance()
		digits()
	}
	if e := lx.peekAt(0); e == 'e' || e == 'E' {
		k := 1
		if s := lx.peekAt(1); s == '+' || s == '-' {
			k = 2
		}
		if isDigit(lx.peekAt(k)) {
			for range k {
				lx.advance()
			}
			digits()
		}
	}
	return lx.token(tNumber, lx.src[off:lx.off], start, off)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }

func isIdentPart(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
