package planner

import (
	"fmt"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// Error is a validation or planning error at a position of the statement.
type Error struct {
	Pos ast.Pos
	Msg string
}

// Error renders the position and message; the client adds the source line
// and a caret with parser.FormatError.
func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("SQL validation error at line %d, column %d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

func errorf(n ast.Node, format string, a ...any) error {
	var p ast.Pos
	if n != nil {
		p = n.Position()
	}
	return &Error{Pos: p, Msg: fmt.Sprintf(format, a...)}
}

// at gives a planning error without a position the position of n.
func at(err error, n ast.Node) error {
	if e, ok := err.(*Error); ok && e.Pos.Line == 0 {
		return &Error{Pos: n.Position(), Msg: e.Msg}
	}
	return err
}
