package sluice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sluicesql/sluice/internal/atomicfile"
	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

// Catalog holds the tables and views of default_catalog.default_database,
// shared by the sessions over it. Kept in a data directory (OpenCatalog),
// it is written after every change, whole and atomically, to
// DATA/catalog.json: each table as its SHOW CREATE TABLE statement (so
// what ALTER TABLE changed is kept), each view as its CREATE VIEW
// statement. Safe for concurrent use.
type Catalog struct {
	mem *catalog.Catalog
	// path is the file the catalog is kept in; "" keeps it in memory.
	path string
	// mu orders changes and their writes.
	mu sync.Mutex
}

// catalogFile is the form of DATA/catalog.json.
type catalogFile struct {
	Tables []catalogEntry `json:"tables"`
	Views  []catalogEntry `json:"views"`
}

// catalogEntry is one table or view with the statement that creates it.
type catalogEntry struct {
	Name      string `json:"name"`
	Statement string `json:"statement"`
}

// NewCatalog returns an empty catalog kept in memory.
func NewCatalog() *Catalog { return &Catalog{mem: catalog.New()} }

// OpenCatalog returns the catalog kept in dir (DATA/catalog.json), with
// the tables and views it held, or an empty one if it has none yet. A
// table whose statement no longer binds (its options refer to a file that
// is gone, say) is an error naming it: the catalog is not opened with
// tables missing.
func OpenCatalog(ctx context.Context, dir string) (*Catalog, error) {
	if err := PrepareDataDir(dir); err != nil {
		return nil, err
	}
	c := &Catalog{mem: catalog.New(), path: filepath.Join(dir, "catalog.json")}
	data, err := os.ReadFile(c.path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	var f catalogFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("catalog %s: %w", c.path, err)
	}
	b := &planner.Binder{Catalog: c.mem, TimeZone: time.UTC, Ctx: ctx}
	for _, e := range f.Tables {
		st, err := parseOne(e.Statement)
		if err != nil {
			return nil, fmt.Errorf("catalog %s: table '%s': %w", c.path, e.Name, err)
		}
		ct, ok := st.(*ast.CreateTable)
		if !ok || ct.AsQuery != nil {
			return nil, fmt.Errorf("catalog %s: table '%s': not a CREATE TABLE statement", c.path, e.Name)
		}
		t, err := b.CreateTable(ct)
		if err == nil {
			err = c.mem.AddTable(t, false)
		}
		if err != nil {
			return nil, fmt.Errorf("catalog %s: table '%s': %w", c.path, e.Name, err)
		}
	}
	for _, e := range f.Views {
		st, err := parseOne(e.Statement)
		if err != nil {
			return nil, fmt.Errorf("catalog %s: view '%s': %w", c.path, e.Name, err)
		}
		cv, ok := st.(*ast.CreateView)
		if !ok {
			return nil, fmt.Errorf("catalog %s: view '%s': not a CREATE VIEW statement", c.path, e.Name)
		}
		v, err := newView(cv, e.Statement)
		if err == nil {
			err = c.mem.AddView(v, false)
		}
		if err != nil {
			return nil, fmt.Errorf("catalog %s: view '%s': %w", c.path, e.Name, err)
		}
	}
	return c, nil
}

// parseOne parses a text holding one statement.
func parseOne(text string) (ast.Statement, error) {
	stmts, err := parser.ParseScript(text)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, fmt.Errorf("expected one statement, found %d", len(stmts))
	}
	return stmts[0], nil
}

// newView is the catalog's view of a CREATE VIEW statement whose text is
// sql.
func newView(s *ast.CreateView, sql string) (*catalog.View, error) {
	name, err := planner.ObjectName(s.Name)
	if err != nil {
		return nil, err
	}
	return &catalog.View{Name: name, Columns: s.Columns, Query: s.Query, SQL: sql}, nil
}

// persistent reports whether the catalog is kept in a data directory.
func (c *Catalog) persistent() bool { return c.path != "" }

// change applies fn and, for a catalog kept in a data directory, writes
// the result; if the write fails, the catalog is left as it was.
func (c *Catalog) change(fn func(*catalog.Catalog) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.path == "" {
		return fn(c.mem)
	}
	before := c.mem.Clone()
	if err := fn(c.mem); err != nil {
		return err
	}
	if err := c.write(); err != nil {
		c.mem.Restore(before)
		return err
	}
	return nil
}

// write writes the catalog to its file, tables and views sorted by name.
func (c *Catalog) write() error {
	var f catalogFile
	for _, name := range c.mem.TableNames() {
		if t, ok := c.mem.Table(name); ok {
			f.Tables = append(f.Tables, catalogEntry{Name: name, Statement: createStatement(t, false)})
		} else if v, ok := c.mem.View(name); ok {
			f.Views = append(f.Views, catalogEntry{Name: name, Statement: v.SQL})
		}
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(c.path, data, 0o600); err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	return nil
}

// AddTable registers t (catalog.Catalog.AddTable).
func (c *Catalog) AddTable(t *catalog.Table, ifNotExists bool) error {
	return c.change(func(m *catalog.Catalog) error { return m.AddTable(t, ifNotExists) })
}

// AddView registers v (catalog.Catalog.AddView).
func (c *Catalog) AddView(v *catalog.View, ifNotExists bool) error {
	return c.change(func(m *catalog.Catalog) error { return m.AddView(v, ifNotExists) })
}

// RenameTable renames a table (catalog.Catalog.RenameTable).
func (c *Catalog) RenameTable(from, to string) error {
	return c.change(func(m *catalog.Catalog) error { return m.RenameTable(from, to) })
}

// ReplaceTable replaces a table's definition (catalog.Catalog.ReplaceTable).
func (c *Catalog) ReplaceTable(t *catalog.Table) error {
	return c.change(func(m *catalog.Catalog) error { return m.ReplaceTable(t) })
}

// Drop removes a table or view (catalog.Catalog.Drop).
func (c *Catalog) Drop(name string, view, ifExists bool) error {
	return c.change(func(m *catalog.Catalog) error { return m.Drop(name, view, ifExists) })
}

// Table returns the table called name.
func (c *Catalog) Table(name string) (*catalog.Table, bool) { return c.mem.Table(name) }

// View returns the view called name.
func (c *Catalog) View(name string) (*catalog.View, bool) { return c.mem.View(name) }

// TableNames returns the names of all tables and views, sorted.
func (c *Catalog) TableNames() []string { return c.mem.TableNames() }

// ViewNames returns the names of all views, sorted.
func (c *Catalog) ViewNames() []string { return c.mem.ViewNames() }
