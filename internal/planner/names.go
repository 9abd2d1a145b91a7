package planner

import (
	"strings"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/sql/ast"
)

// Qualify resolves a possibly qualified table or view name (object,
// database.object or catalog.database.object) against the current catalog
// and database, as Flink's CatalogManager.qualifyIdentifier: the parts a
// name leaves out are the current ones. It does not look the object up.
func Qualify(n ast.ObjectName, currentCatalog, currentDatabase string) (catalog.ObjectID, error) {
	p := n.Parts
	switch len(p) {
	case 1:
		return catalog.ObjectID{Catalog: currentCatalog, Database: currentDatabase, Object: p[0]}, nil
	case 2:
		return catalog.ObjectID{Catalog: currentCatalog, Database: p[0], Object: p[1]}, nil
	case 3:
		return catalog.ObjectID{Catalog: p[0], Database: p[1], Object: p[2]}, nil
	}
	return catalog.ObjectID{}, errorf(&n, "'%s' is not a valid object identifier: it has at most three parts, catalog.database.object", strings.Join(p, "."))
}

// current returns the binder's current catalog and database, Flink's
// built-in ones unless set.
func (b *Binder) current() (string, string) {
	cat, db := b.CurrentCatalog, b.CurrentDatabase
	if cat == "" {
		cat = catalog.DefaultCatalog
	}
	if db == "" {
		db = catalog.DefaultDatabase
	}
	return cat, db
}

// Qualify resolves n against the binder's current catalog and database.
func (b *Binder) Qualify(n ast.ObjectName) (catalog.ObjectID, error) {
	cat, db := b.current()
	return Qualify(n, cat, db)
}

// Lookup returns the table or view id names: a temporary one of the
// session first, which shadows a permanent one, as Flink's
// CatalogManager.getTable.
func (b *Binder) Lookup(id catalog.ObjectID) (*catalog.Table, *catalog.View) {
	if t, v := b.Temporary.Lookup(id); t != nil || v != nil {
		return t, v
	}
	if t, ok := b.Catalog.Table(id); ok {
		return t, nil
	}
	if v, ok := b.Catalog.View(id); ok {
		return nil, v
	}
	return nil, nil
}

// notFound is Calcite's error for a table reference that names nothing
// (IdentifierNamespace.resolveImpl): the first part that does not exist,
// and within what, when a catalog or database it names does.
func (b *Binder) notFound(n ast.ObjectName, id catalog.ObjectID) error {
	p := n.Parts
	schemaExists := func(cat, db string) bool {
		if b.Catalog.DatabaseExists(cat, db) {
			return true
		}
		tables, views := b.Temporary.In(cat, db)
		return len(tables)+len(views) > 0
	}
	switch {
	case len(p) == 1:
		return errorf(&n, "Object '%s' not found", p[0])
	case schemaExists(id.Catalog, id.Database):
		return errorf(&n, "Object '%s' not found within '%s.%s'", id.Object, id.Catalog, id.Database)
	case len(p) == 3 && b.catalogExists(id.Catalog):
		return errorf(&n, "Object '%s' not found within '%s'", id.Database, id.Catalog)
	}
	return errorf(&n, "Object '%s' not found", p[0])
}

func (b *Binder) catalogExists(name string) bool {
	_, ok := b.Catalog.CatalogInfo(name)
	return ok
}

// resolve qualifies n and looks it up; a name that names nothing is
// Calcite's error.
func (b *Binder) resolve(n ast.ObjectName) (catalog.ObjectID, *catalog.Table, *catalog.View, error) {
	id, err := b.Qualify(n)
	if err != nil {
		return id, nil, nil, err
	}
	t, v := b.Lookup(id)
	if t == nil && v == nil {
		return id, nil, nil, b.notFound(n, id)
	}
	return id, t, v, nil
}

// inScope runs fn with names resolving in the catalog and database of a
// view's definition, and without the statement's WITH queries, which a
// view's query does not see.
func (b *Binder) inScope(v *catalog.View, fn func() error) error {
	if b.session == nil {
		cat, db := b.current()
		b.session = &[2]string{cat, db}
		defer func() { b.session = nil }()
	}
	cat, db, ctes := b.CurrentCatalog, b.CurrentDatabase, b.ctes
	b.CurrentCatalog, b.CurrentDatabase, b.ctes = v.ScopeCatalog, v.ScopeDatabase, nil
	defer func() { b.CurrentCatalog, b.CurrentDatabase, b.ctes = cat, db, ctes }()
	return fn()
}

// sessionCurrent returns the session's current catalog and database, also
// while a view's query is bound in the scope of its definition.
func (b *Binder) sessionCurrent() (string, string) {
	if b.session != nil {
		return b.session[0], b.session[1]
	}
	return b.current()
}
