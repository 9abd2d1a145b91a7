// Package catalog holds catalogs, their databases and the tables and
// views declared in them, as Flink's CatalogManager does, and a session's
// temporary tables and views.
package catalog

import (
	"fmt"
	"maps"
	"slices"
	"strings"
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

// Table is a declared table: its schema and its WITH options. Catalog
// and Database name where it was declared (ID).
type Table struct {
	Catalog    string
	Database   string
	Name       string
	Pos        ast.Pos
	Columns    []Column
	PrimaryKey []string
	// PrimaryKeyName is the primary key constraint's name: as declared, or
	// DefaultPrimaryKeyName's.
	PrimaryKeyName string
	Watermark      *ast.WatermarkDef
	Comment        string
	Options        map[string]string
	OptionPos      map[string]ast.Pos
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

// ID returns the table's fully qualified name; a table outside any
// catalog (built from an execution plan that does not name one) is in
// Flink's built-in catalog and database.
func (t *Table) ID() ObjectID { return qualified(t.Catalog, t.Database, t.Name) }

// View is a named query. Its query's names resolve in ScopeCatalog and
// ScopeDatabase, the session's current catalog and database when it was
// created, as Flink expands a view's query with names qualified then.
type View struct {
	Catalog       string
	Database      string
	Name          string
	Columns       []string
	Query         ast.Query
	SQL           string
	ScopeCatalog  string
	ScopeDatabase string
	// Schema is what the query gave when the view was created (its
	// column names, before Columns renames them, and types): the view
	// keeps these columns, as Flink's CatalogView keeps its schema and
	// its expanded query lists the columns `*` stood for then. Nil for a
	// view whose query did not bind when a catalog file without it was
	// read: such a view reads what its query gives.
	Schema types.Schema
	// Expanded is the query as Flink expands it, derived when the view
	// was created; "" where Sluice does not derive it.
	Expanded string
}

// ID returns the view's fully qualified name.
func (v *View) ID() ObjectID { return qualified(v.Catalog, v.Database, v.Name) }

// Flink's built-in catalog and its default database, which every session
// starts in.
const (
	DefaultCatalog  = "default_catalog"
	DefaultDatabase = "default_database"
	// InMemoryType is the type of catalog Sluice creates (Flink's
	// GenericInMemoryCatalog); the built-in catalog is of this type too.
	InMemoryType = "generic_in_memory"
	// InMemoryDefaultDatabase is the default database of a catalog created
	// without 'default-database', as Flink's GenericInMemoryCatalogFactory.
	InMemoryDefaultDatabase = "default"
)

func qualified(cat, db, name string) ObjectID {
	if cat == "" {
		cat = DefaultCatalog
	}
	if db == "" {
		db = DefaultDatabase
	}
	return ObjectID{Catalog: cat, Database: db, Object: name}
}

// ObjectID is the fully qualified name of a table or view (Flink's
// ObjectIdentifier).
type ObjectID struct {
	Catalog, Database, Object string
}

// String renders id as Flink's ObjectIdentifier.asSerializableString:
// `catalog`.`database`.`object`.
func (id ObjectID) String() string {
	return quote(id.Catalog) + "." + quote(id.Database) + "." + quote(id.Object)
}

// Summary renders id as Flink's asSummaryString: catalog.database.object.
func (id ObjectID) Summary() string { return id.Catalog + "." + id.Database + "." + id.Object }

// Path renders the database and object as Flink's ObjectPath.getFullName:
// database.object.
func (id ObjectID) Path() string { return id.Database + "." + id.Object }

func quote(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// Database is one database of a catalog: its comment and properties, and
// the tables and views declared in it.
type Database struct {
	Name       string
	Comment    string
	Properties map[string]string
	tables     map[string]*Table
	views      map[string]*View
}

// NewDatabase returns an empty database.
func NewDatabase(name, comment string, props map[string]string) *Database {
	if props == nil {
		props = map[string]string{}
	}
	return &Database{Name: name, Comment: comment, Properties: props, tables: map[string]*Table{}, views: map[string]*View{}}
}

func (d *Database) exists(name string) bool {
	_, t := d.tables[name]
	_, v := d.views[name]
	return t || v
}

func (d *Database) empty() bool { return len(d.tables) == 0 && len(d.views) == 0 }

// clone copies d's maps; tables and views are never changed in place.
func (d *Database) clone() *Database {
	c := *d
	c.Properties, c.tables, c.views = maps.Clone(d.Properties), maps.Clone(d.tables), maps.Clone(d.views)
	return &c
}

// Catalog is one catalog: its type, options and comment as CREATE CATALOG
// gave them, and its databases.
type Catalog struct {
	Name    string
	Type    string
	Comment string
	Options map[string]string
	// DefaultDatabase is the database USE CATALOG makes current.
	DefaultDatabase string
	databases       map[string]*Database
}

// NewInMemoryCatalog returns a generic_in_memory catalog holding its
// default database, empty.
func NewInMemoryCatalog(name, comment string, options map[string]string) *Catalog {
	def := options["default-database"]
	if def == "" {
		def = InMemoryDefaultDatabase
	}
	return &Catalog{Name: name, Type: InMemoryType, Comment: comment, Options: options, DefaultDatabase: def,
		databases: map[string]*Database{def: NewDatabase(def, "", nil)}}
}

func (c *Catalog) clone() *Catalog {
	out := *c
	out.databases = make(map[string]*Database, len(c.databases))
	for k, d := range c.databases {
		out.databases[k] = d.clone()
	}
	return &out
}

// Manager holds the catalogs; safe for concurrent use. Errors carry the
// messages of Flink's CatalogManager and GenericInMemoryCatalog.
type Manager struct {
	mu       sync.RWMutex
	catalogs map[string]*Catalog
}

// New returns a manager holding the built-in catalog, default_catalog,
// with its empty database default_database.
func New() *Manager {
	builtIn := NewInMemoryCatalog(DefaultCatalog, "", map[string]string{"type": InMemoryType, "default-database": DefaultDatabase})
	return &Manager{catalogs: map[string]*Catalog{DefaultCatalog: builtIn}}
}

// CreateCatalog registers c; an existing catalog of that name is an error
// unless ifNotExists.
func (m *Manager) CreateCatalog(c *Catalog, ifNotExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.catalogs[c.Name]; ok {
		if ifNotExists {
			return nil
		}
		return fmt.Errorf("Catalog %s already exists.", c.Name)
	}
	m.catalogs[c.Name] = c
	return nil
}

// DropCatalog removes a catalog with everything in it.
func (m *Manager) DropCatalog(name string, ifExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.catalogs[name]; !ok {
		if ifExists {
			return nil
		}
		return fmt.Errorf("Catalog %s does not exist.", name)
	}
	delete(m.catalogs, name)
	return nil
}

// AlterCatalog gives a catalog another comment and options; its default
// database is the one the options name, created empty if it is missing,
// as a catalog always holds its default database.
func (m *Manager) AlterCatalog(name, comment string, options map[string]string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, err := m.catalog(name)
	if err != nil {
		return err
	}
	altered := NewInMemoryCatalog(name, comment, options)
	altered.databases = c.clone().databases
	if _, ok := altered.databases[altered.DefaultDatabase]; !ok {
		altered.databases[altered.DefaultDatabase] = NewDatabase(altered.DefaultDatabase, "", nil)
	}
	m.catalogs[name] = altered
	return nil
}

// CatalogInfo returns the catalog called name, without its databases.
func (m *Manager) CatalogInfo(name string) (Catalog, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	c, ok := m.catalogs[name]
	if !ok {
		return Catalog{}, false
	}
	out := *c
	out.databases = nil
	return out, true
}

// CatalogNames returns the names of the catalogs, sorted.
func (m *Manager) CatalogNames() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return slices.Sorted(maps.Keys(m.catalogs))
}

// catalog returns the catalog called name, or Flink's ValidationException
// of CatalogManager.getCatalogOrThrowException.
func (m *Manager) catalog(name string) (*Catalog, error) {
	c, ok := m.catalogs[name]
	if !ok {
		return nil, fmt.Errorf("Catalog %s does not exist", name)
	}
	return c, nil
}

// database returns a database, or the error of Flink's catalogs for one
// that is missing (DatabaseNotExistException).
func (m *Manager) database(cat, db string) (*Database, error) {
	c, err := m.catalog(cat)
	if err != nil {
		return nil, err
	}
	d, ok := c.databases[db]
	if !ok {
		return nil, fmt.Errorf("Database %s does not exist in Catalog %s.", db, cat)
	}
	return d, nil
}

// CreateDatabase adds d to the catalog cat.
func (m *Manager) CreateDatabase(cat string, d *Database, ifNotExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, err := m.catalog(cat)
	if err != nil {
		return err
	}
	if _, ok := c.databases[d.Name]; ok {
		if ifNotExists {
			return nil
		}
		return fmt.Errorf("Database %s already exists in Catalog %s.", d.Name, cat)
	}
	c.databases[d.Name] = d
	return nil
}

// DropDatabase removes a database; one holding tables or views only with
// cascade, which drops them too (Flink's RESTRICT and CASCADE).
func (m *Manager) DropDatabase(cat, db string, ifExists, cascade bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.catalogs[cat]
	if !ok {
		return fmt.Errorf("Catalog %s does not exist.", cat)
	}
	d, ok := c.databases[db]
	switch {
	case !ok && ifExists:
		return nil
	case !ok:
		return fmt.Errorf("Database %s does not exist in Catalog %s.", db, cat)
	case !cascade && !d.empty():
		return fmt.Errorf("Database %s in Catalog %s is not empty.", db, cat)
	}
	delete(c.databases, db)
	return nil
}

// AlterDatabase sets properties of a database, keeping the others.
func (m *Manager) AlterDatabase(cat, db string, set map[string]string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, err := m.database(cat, db)
	if err != nil {
		return err
	}
	altered := d.clone()
	maps.Copy(altered.Properties, set)
	m.catalogs[cat].databases[db] = altered
	return nil
}

// DatabaseInfo returns a database's name, comment and properties.
func (m *Manager) DatabaseInfo(cat, db string) (Database, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	d, err := m.database(cat, db)
	if err != nil {
		return Database{}, err
	}
	return Database{Name: d.Name, Comment: d.Comment, Properties: maps.Clone(d.Properties)}, nil
}

// DatabaseExists reports whether the catalog cat has the database db.
func (m *Manager) DatabaseExists(cat, db string) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	_, err := m.database(cat, db)
	return err == nil
}

// DatabaseNames returns the names of the databases of cat, sorted.
func (m *Manager) DatabaseNames(cat string) ([]string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	c, err := m.catalog(cat)
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(c.databases)), nil
}

// AddTable registers t in its database. It fails if a table or view of
// that name exists there, unless ifNotExists is set, in which case it does
// nothing.
func (m *Manager) AddTable(t *Table, ifNotExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	id := t.ID()
	d, err := m.free(id, ifNotExists)
	if d != nil {
		d.tables[id.Object] = t
	}
	return err
}

// AddView registers v, with the same rules as AddTable.
func (m *Manager) AddView(v *View, ifNotExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	id := v.ID()
	d, err := m.free(id, ifNotExists)
	if d != nil {
		d.views[id.Object] = v
	}
	return err
}

// free returns the database to add id to, or nil if there is none: an
// error, or the name is taken and ifNotExists is set. A missing catalog or
// database is Flink's error for CREATE TABLE there.
func (m *Manager) free(id ObjectID, ifNotExists bool) (*Database, error) {
	c, ok := m.catalogs[id.Catalog]
	if !ok {
		return nil, fmt.Errorf("Catalog %s does not exist.", id.Catalog)
	}
	d, ok := c.databases[id.Database]
	if !ok {
		return nil, fmt.Errorf("Database %s does not exist in Catalog %s.", id.Database, id.Catalog)
	}
	if d.exists(id.Object) {
		if ifNotExists {
			return nil, nil
		}
		return nil, fmt.Errorf("Table (or view) %s already exists in Catalog %s.", id.Path(), id.Catalog)
	}
	return d, nil
}

// RenameTable renames a table within its database; the new name must be
// free.
func (m *Manager) RenameTable(from ObjectID, to string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, err := m.database(from.Catalog, from.Database)
	if err != nil {
		return err
	}
	t, ok := d.tables[from.Object]
	if !ok {
		return fmt.Errorf("Table (or view) %s does not exist in Catalog %s.", from.Path(), from.Catalog)
	}
	if d.exists(to) {
		return fmt.Errorf("Table (or view) %s.%s already exists in Catalog %s.", from.Database, to, from.Catalog)
	}
	renamed := *t
	renamed.Name = to
	delete(d.tables, from.Object)
	d.tables[to] = &renamed
	return nil
}

// ReplaceTable replaces the definition of an existing table (ALTER TABLE);
// jobs already running keep the definition they started with.
func (m *Manager) ReplaceTable(t *Table) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	id := t.ID()
	d, err := m.database(id.Catalog, id.Database)
	if err != nil {
		return err
	}
	if _, ok := d.tables[id.Object]; !ok {
		return fmt.Errorf("Table (or view) %s does not exist in Catalog %s.", id.Path(), id.Catalog)
	}
	d.tables[id.Object] = t
	return nil
}

// Drop removes the table (or view, if view is set) id, with the message
// of Flink's CatalogManager.dropTable and dropView when it does not exist.
func (m *Manager) Drop(id ObjectID, view, ifExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if d, err := m.database(id.Catalog, id.Database); err == nil {
		if view {
			if _, ok := d.views[id.Object]; ok {
				delete(d.views, id.Object)
				return nil
			}
		} else if _, ok := d.tables[id.Object]; ok {
			delete(d.tables, id.Object)
			return nil
		}
	}
	if ifExists {
		return nil
	}
	return fmt.Errorf("%s with identifier '%s' does not exist.", map[bool]string{false: "Table", true: "View"}[view], id.Summary())
}

// Table returns the table id.
func (m *Manager) Table(id ObjectID) (*Table, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	d, err := m.database(id.Catalog, id.Database)
	if err != nil {
		return nil, false
	}
	t, ok := d.tables[id.Object]
	return t, ok
}

// View returns the view id.
func (m *Manager) View(id ObjectID) (*View, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	d, err := m.database(id.Catalog, id.Database)
	if err != nil {
		return nil, false
	}
	v, ok := d.views[id.Object]
	return v, ok
}

// Tables returns the tables of a database, sorted by name.
func (m *Manager) Tables(cat, db string) ([]*Table, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	d, err := m.database(cat, db)
	if err != nil {
		return nil, err
	}
	out := make([]*Table, 0, len(d.tables))
	for _, n := range slices.Sorted(maps.Keys(d.tables)) {
		out = append(out, d.tables[n])
	}
	return out, nil
}

// Views returns the views of a database, sorted by name.
func (m *Manager) Views(cat, db string) ([]*View, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	d, err := m.database(cat, db)
	if err != nil {
		return nil, err
	}
	out := make([]*View, 0, len(d.views))
	for _, n := range slices.Sorted(maps.Keys(d.views)) {
		out = append(out, d.views[n])
	}
	return out, nil
}

// Clone returns a manager with the same catalogs, databases, tables and
// views.
func (m *Manager) Clone() *Manager {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := &Manager{catalogs: make(map[string]*Catalog, len(m.catalogs))}
	for k, c := range m.catalogs {
		out.catalogs[k] = c.clone()
	}
	return out
}

// Restore makes m hold what from holds (a clone taken earlier).
func (m *Manager) Restore(from *Manager) {
	from.mu.RLock()
	catalogs := from.catalogs
	from.mu.RUnlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.catalogs = catalogs
}

// Temporary holds a session's temporary tables and views, in one
// namespace of fully qualified names as Flink's CatalogManager keeps
// them: they need no catalog or database of their name to exist, and
// shadow the permanent table or view of the same name. Safe for
// concurrent use.
type Temporary struct {
	mu      sync.RWMutex
	objects map[ObjectID]temporaryObject
}

// temporaryObject is a temporary table or view (one of the two).
type temporaryObject struct {
	table *Table
	view  *View
}

// NewTemporary returns an empty set of temporary objects.
func NewTemporary() *Temporary { return &Temporary{objects: map[ObjectID]temporaryObject{}} }

// AddTable registers a temporary table; a temporary table or view of that
// name is an error unless ifNotExists.
func (s *Temporary) AddTable(t *Table, ifNotExists bool) error {
	return s.add(t.ID(), temporaryObject{table: t}, ifNotExists)
}

// AddView registers a temporary view, with the rules of AddTable.
func (s *Temporary) AddView(v *View, ifNotExists bool) error {
	return s.add(v.ID(), temporaryObject{view: v}, ifNotExists)
}

func (s *Temporary) add(id ObjectID, o temporaryObject, ifNotExists bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.objects[id]; ok {
		if ifNotExists {
			return nil
		}
		return fmt.Errorf("Temporary table '%s' already exists", id)
	}
	s.objects[id] = o
	return nil
}

// Drop removes the temporary table (or view, if view is set) id.
func (s *Temporary) Drop(id ObjectID, view, ifExists bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if o, ok := s.objects[id]; ok && (o.view != nil) == view {
		delete(s.objects, id)
		return nil
	}
	if ifExists {
		return nil
	}
	return fmt.Errorf("Temporary table or view with identifier '%s' does not exist.", id.Summary())
}

// Lookup returns the temporary table or view id, if there is one.
func (s *Temporary) Lookup(id ObjectID) (*Table, *View) {
	if s == nil {
		return nil, nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	o := s.objects[id]
	return o.table, o.view
}

// In returns the temporary tables and views in a database, sorted by name.
func (s *Temporary) In(cat, db string) (tables []*Table, views []*View) {
	if s == nil {
		return nil, nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for id, o := range s.objects {
		if id.Catalog != cat || id.Database != db {
			continue
		}
		if o.table != nil {
			tables = append(tables, o.table)
		} else {
			views = append(views, o.view)
		}
	}
	slices.SortFunc(tables, func(a, b *Table) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(views, func(a, b *View) int { return strings.Compare(a.Name, b.Name) })
	return tables, views
}

// DefaultPrimaryKeyName is the name Flink gives a primary key constraint
// declared without one: PK_ and the columns joined by underscores
// (Schema.Builder.primaryKey, MergeTableLikeUtil).
func DefaultPrimaryKeyName(columns []string) string {
	return "PK_" + strings.Join(columns, "_")
}
