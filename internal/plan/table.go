package plan

import (
	"fmt"
	"maps"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

// Table is the full definition of a connector table a plan reads or
// writes, so that the plan can be built without the session's catalog:
// its columns and their kinds, primary key and WITH options (after any
// OPTIONS hint). CatalogName and DatabaseName are written only for a table
// outside Flink's built-in catalog and database, so that the plans of
// tables there, written before Sluice had other catalogs, keep their node
// IDs.
type Table struct {
	CatalogName  string            `json:"catalog,omitempty"`
	DatabaseName string            `json:"database,omitempty"`
	Name         string            `json:"name"`
	Columns      []Column          `json:"columns"`
	PrimaryKey   []string          `json:"primaryKey,omitempty"`
	Options      map[string]string `json:"options"`
}

// Column is one column of a Table: physical, metadata (with the key it
// reads, when it is not the column name) or computed (with the SQL text of
// its expression).
type Column struct {
	Name        string `json:"name"`
	Type        Type   `json:"type"`
	Computed    string `json:"computed,omitempty"`
	Metadata    bool   `json:"metadata,omitempty"`
	MetadataKey string `json:"metadataKey,omitempty"`
	Virtual     bool   `json:"virtual,omitempty"`
}

// TableOf returns the plan's form of t.
func TableOf(t *catalog.Table) Table {
	out := Table{Name: t.Name, PrimaryKey: t.PrimaryKey, Options: maps.Clone(t.Options)}
	if id := t.ID(); id.Catalog != catalog.DefaultCatalog || id.Database != catalog.DefaultDatabase {
		out.CatalogName, out.DatabaseName = id.Catalog, id.Database
	}
	for _, c := range t.Columns {
		col := Column{Name: c.Name, Type: Type(c.Type), Metadata: c.Metadata, MetadataKey: c.MetadataKey, Virtual: c.Virtual}
		if c.Computed != nil {
			col.Computed = parser.FormatExpr(c.Computed)
		}
		out.Columns = append(out.Columns, col)
	}
	return out
}

// Catalog returns t as the catalog's table that connectors read, parsing
// the computed columns' expressions.
func (t Table) Catalog() (*catalog.Table, error) {
	out := &catalog.Table{Catalog: t.CatalogName, Database: t.DatabaseName, Name: t.Name, PrimaryKey: t.PrimaryKey, Options: maps.Clone(t.Options)}
	for i, c := range t.Columns {
		col := catalog.Column{Name: c.Name, Type: c.Type.Logical(), Metadata: c.Metadata, MetadataKey: c.MetadataKey, Virtual: c.Virtual}
		if c.Computed != "" {
			if c.Metadata {
				return nil, at(fmt.Sprintf("columns[%d]", i), fmt.Errorf("column '%s' is both computed and metadata", c.Name))
			}
			e, err := parser.ParseExpr(c.Computed)
			if err != nil {
				return nil, at(fmt.Sprintf("columns[%d].computed", i), err)
			}
			col.Computed = e
		}
		out.Columns = append(out.Columns, col)
	}
	for i, k := range t.PrimaryKey {
		if out.Schema().Index(k) < 0 {
			return nil, at(fmt.Sprintf("primaryKey[%d]", i), fmt.Errorf("no column '%s'", k))
		}
	}
	if out.Options == nil {
		out.Options = map[string]string{}
	}
	return out, nil
}

// ID returns the table's fully qualified name.
func (t Table) ID() catalog.ObjectID {
	return (&catalog.Table{Catalog: t.CatalogName, Database: t.DatabaseName, Name: t.Name}).ID()
}
