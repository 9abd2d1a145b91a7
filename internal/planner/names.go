package planner

import (
	"strings"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// Flink's built-in catalog and its database: the only ones Sluice has, so
// that a name qualified with them means what it means in Flink.
const (
	DefaultCatalog  = "default_catalog"
	DefaultDatabase = "default_database"
)

// ObjectName resolves a possibly qualified table or view name
// (object, database.object or catalog.database.object, as Flink's
// identifiers) to the object's name in the catalog. A qualifier naming
// another catalog or database is an error at the name, never dropped:
// the object it names is not the one of the same name here.
func ObjectName(n ast.ObjectName) (string, error) {
	p := n.Parts
	switch {
	case len(p) > 3:
		return "", errorf(&n, "'%s' is not a valid object identifier: it has at most three parts, catalog.database.object", strings.Join(p, "."))
	case len(p) == 3 && p[0] != DefaultCatalog:
		return "", errorf(&n, "Catalog '%s' does not exist: Sluice has one catalog, '%s' (CREATE CATALOG is not supported yet)", p[0], DefaultCatalog)
	case len(p) >= 2 && p[len(p)-2] != DefaultDatabase:
		return "", errorf(&n, "Database '%s' does not exist in catalog '%s': it has one database, '%s' (CREATE DATABASE is not supported yet)", p[len(p)-2], DefaultCatalog, DefaultDatabase)
	}
	return p[len(p)-1], nil
}
