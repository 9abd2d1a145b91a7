// Package catalog holds the tables and views a session has declared.
package catalog

import (
	"fmt"
	"maps"
	"sort"
	"sync"

	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// Column is one column of a table: physical (stored by the format),
// computed (AS expr) or metadata (METADATA [FROM 'key']).
type Column struct {
	Name        string
	Type        types.Type // for computed columns, the type the binder derived
	Computed    ast.Expr
	Metadata    bool
	MetadataKey string
	Virtual     bool
	Comment     string
	Pos         ast.Pos
}

// IsPhysical reports whether the column is stored in the record itself.
func (c Column) IsPhysical() bool { return c.Computed == nil && !c.Metadata }

// Table is a declared table: its schema and its WITH options.
type Table struct {
	Name       string
	Pos        ast.Pos
	Columns    []Column
	PrimaryKey []string
	Watermark  *ast.WatermarkDef
	Comment    string
	Options    map[string]string
	OptionPos  map[string]ast.Pos
}

// Schema returns every column of t (physical, metadata and computed) in
// declaration order.
func (t *Table) Schema() types.Schema {
	s := make(types.Schema, len(t.Columns))
	for i, c := range t.Columns {
		s[i] = types.Field{Name: c.Name, Type: c.Type}
	}
	return s
}

// PhysicalSchema returns the physical columns of t in declaration order.
func (t *Table) PhysicalSchema() types.Schema {
	var s types.Schema
	for _, c := range t.Columns {
		if c.IsPhysical() {
			s = append(s, types.Field{Name: c.Name, Type: c.Type})
		}
	}
	return s
}

// PrimaryKeyIndexes returns the positions of the primary key columns in
// Schema(), or nil.
func (t *Table) PrimaryKeyIndexes() []int {
	if len(t.PrimaryKey) == 0 {
		return nil
	}
	s := t.Schema()
	out := make([]int, len(t.PrimaryKey))
	for i, k := range t.PrimaryKey {
		out[i] = s.Index(k)
	}
	return out
}

// View is a named query.
type View struct {
	Name    string
	Columns []string
	Query   ast.Query
	SQL     string
}

// Catalog is a session's set of tables and views; safe for concurrent use.
type Catalog struct {
	mu     sync.RWMutex
	tables map[string]*Table
	views  map[string]*View
}

// New returns an empty catalog.
func New() *Catalog {
	return &Catalog{tables: map[string]*Table{}, views: map[string]*View{}}
}

// AddTable registers t. It fails if a table or view of that name exists,
// unless ifNotExists is set, in which case it does nothing.
func (c *Catalog) AddTable(t *Table, ifNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.exists(t.Name) {
		if ifNotExists {
			return nil
		}
		return fmt.Errorf("table or view '%s' already exists", t.Name)
	}
	c.tables[t.Name] = t
	return nil
}

// AddView registers v, with the same rules as AddTable.
func (c *Catalog) AddView(v *View, ifNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.exists(v.Name) {
		if ifNotExists {
			return nil
		}
		return fmt.Errorf("table or view '%s' already exists", v.Name)
	}
	c.views[v.Name] = v
	return nil
}

func (c *Catalog) exists(name string) bool {
	_, t := c.tables[name]
	_, v := c.views[name]
	return t || v
}

// RenameTable renames a table; the new name must be free.
func (c *Catalog) RenameTable(from, to string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.tables[from]
	if !ok {
		return fmt.Errorf("table '%s' does not exist", from)
	}
	if c.exists(to) {
		return fmt.Errorf("table or view '%s' already exists", to)
	}
	renamed := *t
	renamed.Name = to
	delete(c.tables, from)
	c.tables[to] = &renamed
	return nil
}

// ReplaceTable replaces the definition of an existing table (ALTER TABLE);
// jobs already running keep the definition they started with.
func (c *Catalog) ReplaceTable(t *Table) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.tables[t.Name]; !ok {
		return fmt.Errorf("table '%s' does not exist", t.Name)
	}
	c.tables[t.Name] = t
	return nil
}

// Drop removes the table (or view, if view is set) called name.
func (c *Catalog) Drop(name string, view, ifExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := map[bool]string{false: "table", true: "view"}[view]
	if view {
		if _, ok := c.views[name]; ok {
			delete(c.views, name)
			return nil
		}
	} else if _, ok := c.tables[name]; ok {
		delete(c.tables, name)
		return nil
	}
	if ifExists {
		return nil
	}
	return fmt.Errorf("%s '%s' does not exist", m, name)
}

// Table returns the table called name.
func (c *Catalog) Table(name string) (*Table, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, ok := c.tables[name]
	return t, ok
}

// View returns the view called name.
func (c *Catalog) View(name string) (*View, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.views[name]
	return v, ok
}

// TableNames returns the names of all tables and views, sorted.
func (c *Catalog) TableNames() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []string
	for n := range c.tables {
		out = append(out, n)
	}
	for n := range c.views {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ViewNames returns the names of all views, sorted.
func (c *Catalog) ViewNames() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []string
	for n := range c.views {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Clone returns a catalog with the same tables and views.
func (c *Catalog) Clone() *Catalog {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return &Catalog{tables: maps.Clone(c.tables), views: maps.Clone(c.views)}
}

// Restore makes c hold what from holds (a clone taken earlier).
func (c *Catalog) Restore(from *Catalog) {
	tables, views := maps.Clone(from.tables), maps.Clone(from.views)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tables, c.views = tables, views
}
