package parser

import "strings"

// Chunk is the text of one statement of a script, as found by
// SplitStatements.
type Chunk struct {
	// Text runs from the statement's first token through its terminating
	// ';' if it has one; comments and blanks around it are not included.
	Text string
	// Line and Col are the 1-based position of Text in the script.
	Line, Col int
	// Terminated reports whether the statement ends with a ';' outside
	// quotes and comments, i.e. whether it is complete.
	Terminated bool
}

// SplitStatements splits a script into statements at each ';' that is not
// inside a string, a quoted identifier or a comment. A statement set
// written as one statement (EXECUTE STATEMENT SET BEGIN ...; END) stays
// one chunk, including its inner ';'s; BEGIN STATEMENT SET, the INSERTs
// after it and END are statements of their own, as in Flink's client. Chunks holding only comments
// or blanks are dropped. An unterminated string or comment runs to the end
// of the script, so the last chunk is then not Terminated.
func SplitStatements(src string) []Chunk {
	toks := lex(src)
	var chunks []Chunk
	for _, sp := range splitTokens(toks) {
		first := sp.toks[0]
		chunks = append(chunks, Chunk{
			Text:       src[first.off:sp.end],
			Line:       first.pos.Line,
			Col:        first.pos.Col,
			Terminated: sp.terminated,
		})
	}
	return chunks
}

// span is the tokens of one statement, without its terminating ';' or EOF;
// end is the offset just past the statement and its ';', if any.
type span struct {
	toks       []token
	end        int
	terminated bool
}

// splitTokens cuts a token stream (ending with tEOF) into statements.
func splitTokens(toks []token) []span {
	var spans []span
	start := 0
	// setStart is the first token of an open statement set, or -1.
	setStart := -1
	for i, t := range toks {
		if t.kind != tEOF && !(t.kind == tOp && t.text == ";") {
			continue
		}
		piece := toks[start:i]
		start = i + 1
		switch {
		case setStart >= 0:
			if !isSetEnd(piece) && t.kind != tEOF {
				continue
			}
		case len(piece) == 0:
			continue
		case opensStatementSet(piece) && !isSetEnd(piece[len(piece)-1:]):
			if t.kind == tEOF {
				spans = append(spans, newSpan(piece, t))
				continue
			}
			setStart = i - len(piece)
			continue
		default:
			spans = append(spans, newSpan(piece, t))
			continue
		}
		// End of a statement set, or of the input inside one.
		spans = append(spans, newSpan(toks[setStart:i], t))
		setStart = -1
	}
	return spans
}

// newSpan makes the span of toks, which stop at term, a ';' or EOF.
func newSpan(toks []token, term token) span {
	if term.kind == tEOF {
		return span{toks: toks, end: toks[len(toks)-1].end}
	}
	return span{toks: toks, end: term.end, terminated: true}
}

// opensStatementSet reports whether a statement begins a statement set whose
// body continues past the next ';':
// [EXPLAIN [PLAN FOR | details]] [EXECUTE] STATEMENT SET BEGIN ..., or
// COMPILE [AND EXECUTE] PLAN 'path' [IF NOT EXISTS] FOR [EXECUTE]
// STATEMENT SET BEGIN ....
func opensStatementSet(piece []token) bool {
	for len(piece) > 0 && (piece[0].kind == tIdent || piece[0].kind == tString || isOp(piece[0], ",")) {
		if piece[0].kind == tIdent {
			switch strings.ToUpper(piece[0].text) {
			case "EXPLAIN", "PLAN", "FOR", "EXECUTE", "CHANGELOG_MODE", "JSON_EXECUTION_PLAN",
				"COMPILE", "AND", "IF", "NOT", "EXISTS":
			default:
				return isWords(piece, "STATEMENT", "SET", "BEGIN")
			}
		}
		piece = piece[1:]
	}
	return false
}

// isSetEnd reports whether a statement is the END closing a statement set.
func isSetEnd(piece []token) bool {
	return len(piece) == 1 && isWords(piece, "END")
}

// isWords reports whether toks starts with the given unquoted words.
func isWords(toks []token, words ...string) bool {
	if len(toks) < len(words) {
		return false
	}
	for i, w := range words {
		if toks[i].kind != tIdent || !strings.EqualFold(toks[i].text, w) {
			return false
		}
	}
	return true
}
