package planner

import (
	"strings"

	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// scopeCol is a column visible to expressions: its qualifier (table name or
// alias), name and type, at its position in the input row.
type scopeCol struct {
	qual string
	name string
	typ  types.Type
	// merged marks the right side's copy of a USING column: the column is
	// one for unqualified references and `*`, which mean the left copy.
	merged bool
	// scalar is the scalar subquery whose value the column holds; only
	// that subquery expression reads it.
	scalar *ast.SubqueryExpr
}

// scope is the list of columns of the row an expression is evaluated on.
type scope struct {
	cols []scopeCol
}

func newScope(qual string, s types.Schema) *scope {
	sc := &scope{cols: make([]scopeCol, len(s))}
	for i, f := range s {
		sc.cols[i] = scopeCol{qual: qual, name: f.Name, typ: f.Type}
	}
	return sc
}

// join returns the scope of left's columns followed by right's.
func (s *scope) join(r *scope) *scope {
	return &scope{cols: append(append([]scopeCol{}, s.cols...), r.cols...)}
}

// resolve finds the column id names. Names are case-sensitive as in Flink;
// a near miss in case is suggested.
func (s *scope) resolve(id *ast.Ident) (int, error) {
	name := id.Parts[len(id.Parts)-1]
	var qual string
	if len(id.Parts) > 1 {
		qual = id.Parts[len(id.Parts)-2]
	}
	found, n := s.lookup(id)
	if n > 1 {
		return 0, errorf(id, "Column '%s' is ambiguous", name)
	}
	if n == 1 {
		return found, nil
	}
	if qual != "" && !s.hasQualifier(qual) {
		return 0, errorf(id, "Table '%s' not found", qual)
	}
	for _, c := range s.cols {
		if strings.EqualFold(c.name, name) {
			return 0, errorf(id, "Column '%s' not found in any table; did you mean '%s'?", strings.Join(id.Parts, "."), c.name)
		}
	}
	if qual != "" {
		return 0, errorf(id, "Column '%s' not found in table '%s'", name, qual)
	}
	return 0, errorf(id, "Column '%s' not found in any table", name)
}

// lookup returns the first column id names and how many columns it
// names (more than one: id is ambiguous).
func (s *scope) lookup(id *ast.Ident) (found, n int) {
	name := id.Parts[len(id.Parts)-1]
	var qual string
	if len(id.Parts) > 1 {
		qual = id.Parts[len(id.Parts)-2]
	}
	found = -1
	for i, c := range s.cols {
		if c.name != name || (qual != "" && c.qual != qual) || (qual == "" && c.merged) || c.scalar != nil {
			continue
		}
		if n++; found < 0 {
			found = i
		}
	}
	return found, n
}

func (s *scope) hasQualifier(q string) bool {
	for _, c := range s.cols {
		if c.qual == q {
			return true
		}
	}
	return false
}

// rowPath returns the type of a ROW that parts name: a ROW column (t.r or
// r), or a ROW field of one (r.f, t.r.f.g).
func (s *scope) rowPath(parts []string) (types.Type, bool) {
	for k := len(parts); k >= 1; k-- {
		i, err := s.resolve(&ast.Ident{Parts: parts[:k]})
		if err != nil {
			continue
		}
		t := s.cols[i].typ
		for _, name := range parts[k:] {
			if t.Kind != types.RowType {
				return types.Type{}, false
			}
			j := types.Schema(t.Fields()).Index(name)
			if j < 0 {
				return types.Type{}, false
			}
			t = t.Fields()[j].Type
		}
		return t, t.Kind == types.RowType
	}
	return types.Type{}, false
}
