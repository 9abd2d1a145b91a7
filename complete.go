package sluice

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

// Complete returns completion hints for the word that ends at position (a
// character index) of statement, as Flink's SQL Gateway completeStatement
// gives them: the keywords (upper case), then the tables and views of the
// current database (the session's temporary ones too), the columns of the
// current database's tables that the statement names, the catalogs and
// the current catalog's databases, then the functions (upper case) whose
// names begin with the word, ignoring case. An empty word is completed by
// every keyword.
func (e *Session) Complete(statement string, position int) ([]string, error) {
	text := []rune(statement)
	if position < 0 || position > len(text) {
		return nil, fmt.Errorf("position %d is outside the statement (%d characters)", position, len(text))
	}
	start := position
	for start > 0 && isWordRune(text[start-1]) {
		start--
	}
	word := strings.ToUpper(string(text[start:position]))
	var out []string
	add := func(names []string, upper bool) {
		for _, n := range names {
			if strings.HasPrefix(strings.ToUpper(n), word) {
				if upper {
					n = strings.ToUpper(n)
				}
				if !slices.Contains(out, n) {
					out = append(out, n)
				}
			}
		}
	}
	add(parser.Keywords(), true)
	if word == "" {
		return out, nil
	}
	add(e.objectNames(e.curCatalog, e.curDatabase, false), false)
	add(e.namedColumns(text), false)
	add(e.catalog.mem.CatalogNames(), false)
	dbs, _ := e.catalog.mem.DatabaseNames(e.curCatalog)
	add(dbs, false)
	add(fn.Names(), true)
	return out, nil
}

// isWordRune reports whether r can be part of an unquoted identifier.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// namedColumns returns the columns of the current database's tables
// (temporary ones first) whose names are words of the statement.
func (e *Session) namedColumns(statement []rune) []string {
	words := strings.FieldsFunc(strings.ToLower(string(statement)), func(r rune) bool { return !isWordRune(r) })
	temp, _ := e.temp.In(e.curCatalog, e.curDatabase)
	tables, _ := e.catalog.mem.Tables(e.curCatalog, e.curDatabase)
	var out []string
	for _, t := range slices.Concat(temp, tables) {
		if slices.Contains(words, strings.ToLower(t.Name)) {
			for _, c := range t.Columns {
				out = append(out, c.Name)
			}
		}
	}
	return out
}
