package parser

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// FuzzParseScript checks that no input makes the parser panic, that errors
// are *Error values, and that the canonical rendering of every parsed query
// and expression reads back as itself.
func FuzzParseScript(f *testing.F) {
	for _, src := range acceptanceFiles(f) {
		f.Add(src)
	}
	paths, _ := filepath.Glob("testdata/*.sql")
	more, _ := filepath.Glob("testdata/errors/*.sql")
	for _, p := range append(paths, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	for _, tests := range [][]struct{ src, want string }{statementTests, queryTests, exprTests} {
		for _, tt := range tests {
			f.Add(tt.src)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		SplitStatements(src)
		if e, err := ParseExpr(src); err == nil {
			checkExprRoundTrip(t, e)
		}
		stmts, err := ParseScript(src)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is a %T", err, err)
			}
			_ = pe.Error()
		}
		for _, s := range stmts {
			checkStatementRoundTrip(t, s)
		}
	})
}

func checkStatementRoundTrip(t *testing.T, s ast.Statement) {
	t.Helper()
	switch s := s.(type) {
	case *ast.QueryStatement:
		checkQueryRoundTrip(t, s.Query)
	case *ast.Insert:
		checkQueryRoundTrip(t, s.Query)
	case *ast.CreateView:
		checkQueryRoundTrip(t, s.Query)
	case *ast.Explain:
		checkStatementRoundTrip(t, s.Statement)
	case *ast.CompilePlan:
		checkStatementRoundTrip(t, s.Statement)
	case *ast.StatementSet:
		for _, ins := range s.Inserts {
			checkQueryRoundTrip(t, ins.Query)
		}
	case *ast.CreateTable:
		if s.AsQuery != nil {
			checkQueryRoundTrip(t, s.AsQuery)
		}
		for _, c := range s.Columns {
			if c.Computed != nil {
				checkExprRoundTrip(t, c.Computed)
			}
		}
		if s.Watermark != nil {
			checkExprRoundTrip(t, s.Watermark.Expr)
		}
	}
}

func checkQueryRoundTrip(t *testing.T, q ast.Query) {
	t.Helper()
	text := FormatQuery(q)
	s, err := ParseStatement(text)
	if err != nil {
		t.Fatalf("canonical query %s does not parse: %v", text, err)
	}
	qs, ok := s.(*ast.QueryStatement)
	if !ok {
		t.Fatalf("canonical query %s parses as %T", text, s)
	}
	if again := FormatQuery(qs.Query); again != text {
		t.Fatalf("canonical query %s reads back as %s", text, again)
	}
}

func checkExprRoundTrip(t *testing.T, e ast.Expr) {
	t.Helper()
	text := FormatExpr(e)
	e2, err := ParseExpr(text)
	if err != nil {
		t.Fatalf("canonical expression %s does not parse: %v", text, err)
	}
	if again := FormatExpr(e2); again != text {
		t.Fatalf("canonical expression %s reads back as %s", text, again)
	}
	flink := FormatFlinkExpr(e)
	e3, err := ParseExpr(flink)
	if err != nil {
		t.Fatalf("Flink's form %s of %s does not parse: %v", flink, text, err)
	}
	if again := FormatExpr(e3); again != text {
		t.Fatalf("Flink's form %s of %s reads back as %s", flink, text, again)
	}
}
