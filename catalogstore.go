package sluice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sluicesql/sluice/internal/atomicfile"
	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// Catalog holds the catalogs, their databases and the tables and views in
// them, shared by the sessions over it (a session's current catalog and
// database and its temporary objects are its own). Kept in a data
// directory (OpenCatalog), the built-in catalog default_catalog, every
// database of it with its tables and views, is written after every
// change, whole and atomically, to DATA/catalog.json: each table as its
// SHOW CREATE TABLE statement (so what ALTER TABLE changed is kept), each
// view as its CREATE VIEW statement with the catalog and database its
// names resolve in. Catalogs made by CREATE CATALOG are of Flink's type
// generic_in_memory and, as in Flink, are not kept: they are gone when the
// process ends. Safe for concurrent use.
type Catalog struct {
	mem *catalog.Manager
	// path is the file the catalog is kept in; "" keeps it in memory.
	path string
	// mu orders changes and their writes.
	mu sync.Mutex
}

// catalogVersion is the version of DATA/catalog.json written now: the
// databases of default_catalog. Version 0 (no version field) held the
// tables and views of default_database only.
const catalogVersion = 2

// catalogFile is the form of DATA/catalog.json.
type catalogFile struct {
	Version   int             `json:"version,omitempty"`
	Databases []databaseEntry `json:"databases,omitempty"`
	// Tables and Views are default_database's in a file of version 0.
	Tables []catalogEntry `json:"tables,omitempty"`
	Views  []catalogEntry `json:"views,omitempty"`
}

// databaseEntry is one database of default_catalog.
type databaseEntry struct {
	Name       string            `json:"name"`
	Comment    string            `json:"comment,omitempty"`
	Properties map[string]string `json:"properties,omitempty"`
	Tables     []catalogEntry    `json:"tables"`
	Views      []catalogEntry    `json:"views"`
}

// catalogEntry is one table or view with the statement that creates it;
// a view's also with the catalog and database its statement's names
// resolve in, and the columns and expanded query it was created with
// (catalog.View's Schema and Expanded; a file written before views kept
// them has neither, and its views take them when the file is read).
type catalogEntry struct {
	Name          string       `json:"name"`
	Statement     string       `json:"statement"`
	ScopeCatalog  string       `json:"scopeCatalog,omitempty"`
	ScopeDatabase string       `json:"scopeDatabase,omitempty"`
	Columns       []viewColumn `json:"columns,omitempty"`
	Expanded      string       `json:"expanded,omitempty"`
}

// viewColumn is a column a view was created with.
type viewColumn struct {
	Name string    `json:"name"`
	Type plan.Type `json:"type"`
}

// NewCatalog returns a catalog kept in memory, holding default_catalog
// with its empty database default_database.
func NewCatalog() *Catalog { return &Catalog{mem: catalog.New()} }

// OpenCatalog returns the catalog kept in dir (DATA/catalog.json), with
// the databases, tables and views it held, or a new one if it has none
// yet. A table whose statement no longer binds (its options refer to a
// file that is gone, say) is an error naming it: the catalog is not opened
// with tables missing.
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
	switch f.Version {
	case 0:
		f.Databases = []databaseEntry{{Name: catalog.DefaultDatabase, Tables: f.Tables, Views: f.Views}}
	case catalogVersion:
		if len(f.Tables)+len(f.Views) > 0 {
			return nil, fmt.Errorf("catalog %s: tables and views outside a database", c.path)
		}
	default:
		return nil, fmt.Errorf("catalog %s: version %d is not one this Sluice reads (%d)", c.path, f.Version, catalogVersion)
	}
	// default_database is there only if the file lists it: it may have
	// been dropped.
	if err := c.mem.DropDatabase(catalog.DefaultCatalog, catalog.DefaultDatabase, false, false); err != nil {
		return nil, err
	}
	for _, d := range f.Databases {
		if err := c.mem.CreateDatabase(catalog.DefaultCatalog, catalog.NewDatabase(d.Name, d.Comment, d.Properties), false); err != nil {
			return nil, fmt.Errorf("catalog %s: %w", c.path, err)
		}
	}
	var unpinned []*catalog.View
	for _, d := range f.Databases {
		views, err := c.load(ctx, d)
		if err != nil {
			return nil, fmt.Errorf("catalog %s: %w", c.path, err)
		}
		unpinned = append(unpinned, views...)
	}
	// Views of a file that did not keep their columns take those their
	// query gives now, once every view they may read is there; one whose
	// query does not bind any more keeps none, and fails when it is read.
	for _, v := range unpinned {
		b := &planner.Binder{Catalog: c.mem, TimeZone: time.UTC, Ctx: ctx}
		if schema, expanded, err := b.ViewDefinition(v); err == nil {
			v.Schema, v.Expanded = schema, expanded
		}
	}
	return c, nil
}

// load binds the tables and views of one database kept in the file, and
// returns the views the file kept no columns for.
func (c *Catalog) load(ctx context.Context, d databaseEntry) ([]*catalog.View, error) {
	b := &planner.Binder{Catalog: c.mem, TimeZone: time.UTC, Ctx: ctx, CurrentCatalog: catalog.DefaultCatalog, CurrentDatabase: d.Name}
	for _, e := range d.Tables {
		st, err := parseOne(e.Statement)
		if err != nil {
			return nil, fmt.Errorf("table '%s': %w", e.Name, err)
		}
		ct, ok := st.(*ast.CreateTable)
		if !ok || ct.AsQuery != nil {
			return nil, fmt.Errorf("table '%s': not a CREATE TABLE statement", e.Name)
		}
		t, err := b.CreateTable(ct)
		if err == nil {
			err = c.mem.AddTable(t, false)
		}
		if err != nil {
			return nil, fmt.Errorf("table '%s': %w", e.Name, err)
		}
	}
	var unpinned []*catalog.View
	for _, e := range d.Views {
		st, err := parseOne(e.Statement)
		if err != nil {
			return nil, fmt.Errorf("view '%s': %w", e.Name, err)
		}
		cv, ok := st.(*ast.CreateView)
		if !ok {
			return nil, fmt.Errorf("view '%s': not a CREATE VIEW statement", e.Name)
		}
		scopeCat, scopeDB := e.ScopeCatalog, e.ScopeDatabase
		if scopeCat == "" {
			scopeCat, scopeDB = catalog.DefaultCatalog, d.Name
		}
		v, err := newView(cv, e.Statement, scopeCat, scopeDB)
		if err == nil && e.Columns != nil {
			v.Expanded = e.Expanded
			for _, col := range e.Columns {
				v.Schema = append(v.Schema, types.Field{Name: col.Name, Type: col.Type.Logical()})
			}
		} else if err == nil {
			unpinned = append(unpinned, v)
		}
		if err == nil {
			err = c.mem.AddView(v, false)
		}
		if err != nil {
			return nil, fmt.Errorf("view '%s': %w", e.Name, err)
		}
	}
	return unpinned, nil
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
// sql, run with the current catalog and database scopeCat and scopeDB.
func newView(s *ast.CreateView, sql, scopeCat, scopeDB string) (*catalog.View, error) {
	id, err := planner.Qualify(s.Name, scopeCat, scopeDB)
	if err != nil {
		return nil, err
	}
	return &catalog.View{Catalog: id.Catalog, Database: id.Database, Name: id.Object, Columns: s.Columns, Query: s.Query, SQL: sql,
		ScopeCatalog: scopeCat, ScopeDatabase: scopeDB}, nil
}

// change applies fn to the catalogs and, for a catalog kept in a data
// directory, writes the result; if the write fails, the catalogs are left
// as they were.
func (c *Catalog) change(fn func(*catalog.Manager) error) error {
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

// write writes default_catalog to the catalog's file, databases, tables
// and views sorted by name.
func (c *Catalog) write() error {
	f := catalogFile{Version: catalogVersion, Databases: []databaseEntry{}}
	names, err := c.mem.DatabaseNames(catalog.DefaultCatalog)
	if err != nil {
		return err
	}
	for _, name := range names {
		info, err := c.mem.DatabaseInfo(catalog.DefaultCatalog, name)
		if err != nil {
			return err
		}
		d := databaseEntry{Name: name, Comment: info.Comment, Tables: []catalogEntry{}, Views: []catalogEntry{}}
		if len(info.Properties) > 0 {
			d.Properties = maps.Clone(info.Properties)
		}
		tables, _ := c.mem.Tables(catalog.DefaultCatalog, name)
		for _, t := range tables {
			d.Tables = append(d.Tables, catalogEntry{Name: t.Name, Statement: createStatement(t, false, false)})
		}
		views, _ := c.mem.Views(catalog.DefaultCatalog, name)
		for _, v := range views {
			e := catalogEntry{Name: v.Name, Statement: v.SQL, ScopeCatalog: v.ScopeCatalog, ScopeDatabase: v.ScopeDatabase, Expanded: v.Expanded}
			for _, f := range v.Schema {
				e.Columns = append(e.Columns, viewColumn{Name: f.Name, Type: plan.Type(f.Type)})
			}
			d.Views = append(d.Views, e)
		}
		f.Databases = append(f.Databases, d)
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
