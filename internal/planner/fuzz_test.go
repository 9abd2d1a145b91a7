package planner_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

// FuzzBind binds and plans every statement of a script against a catalog
// the script's own DDL fills: no input may make the binder or planner
// panic, a query or INSERT that fails does so with a *planner.Error, and a
// plan that binds renders as EXPLAIN's abstract syntax tree, physical plan
// and, when it translates, execution plan. The seeds are the EXPLAIN cases
// (the tutorials' tables and queries among them).
//
//	go test ./internal/planner -run '^$' -fuzz FuzzBind -fuzztime 60s
func FuzzBind(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "explain", "*.sql"))
	if len(files) == 0 {
		f.Fatal("no seeds in testdata/explain")
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, script string) {
		stmts, err := parser.ParseScript(script)
		if err != nil {
			return
		}
		b := &planner.Binder{Catalog: catalog.New(), Logical: func(n planner.Node) {
			if text := planner.LogicalPlan(n); !strings.HasSuffix(text, ")\n") {
				t.Fatalf("the logical plan renders as\n%s", text)
			}
		}}
		for _, st := range stmts {
			bindStatement(t, b, st)
		}
	})
}

// bindStatement binds one statement, adding the tables and views it
// creates to b's catalog.
func bindStatement(t *testing.T, b *planner.Binder, st ast.Statement) {
	var root planner.Node
	var err error
	switch s := st.(type) {
	case *ast.CreateTable:
		if s.AsQuery != nil || s.Like != nil {
			return // they read other tables' definitions through the engine
		}
		tbl, err := b.CreateTable(s)
		if err == nil {
			_ = b.Catalog.AddTable(tbl, true)
		}
		return
	case *ast.CreateView:
		if _, err := b.Query(s.Query); err == nil {
			v := &catalog.View{Name: s.Name.Parts[len(s.Name.Parts)-1], Columns: s.Columns, Query: s.Query,
				ScopeCatalog: catalog.DefaultCatalog, ScopeDatabase: catalog.DefaultDatabase}
			_ = b.Catalog.AddView(v, true)
		}
		return
	case *ast.Explain:
		bindStatement(t, b, s.Statement)
		return
	case *ast.QueryStatement:
		root, err = b.Query(s.Query)
	case *ast.Insert:
		root, err = b.Insert(s)
	default:
		return
	}
	if err != nil {
		var pe *planner.Error
		if !errors.As(err, &pe) {
			t.Fatalf("planning %T failed with a %T, not a *planner.Error: %v", st, err, err)
		}
		return
	}
	if text := planner.PhysicalPlan(true, root).Body; !strings.Contains(text, "changelogMode=") {
		t.Fatalf("the plan renders without changelog modes:\n%s", text)
	}
	if p, err := planner.ExecutionPlan(planner.Reuse{SubPlans: true, Sources: true}, root); err == nil && planner.OptimizedExecutionPlan(p).Body == "" {
		t.Fatal("the execution plan renders empty")
	}
}
