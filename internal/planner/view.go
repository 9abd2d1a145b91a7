package planner

import (
	"slices"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// ViewDefinition binds view v's query where the view is created and
// returns what the view keeps from then on, as Flink's CREATE VIEW keeps
// a CatalogView (SqlNodeConvertUtils.toCatalogView): the columns its query
// gives (names and types), and its expanded query (ExpandQuery; "" where
// Sluice does not derive it), both as of now. Later changes to the tables
// under the view change neither: a column added to a table read with `*`
// is not the view's, as Flink's expansion lists the columns `*` stood for.
func (b *Binder) ViewDefinition(v *catalog.View) (types.Schema, string, error) {
	var schema types.Schema
	var expanded string
	err := b.inScope(v, func() error {
		rel, err := b.query(v.Query)
		if err != nil {
			return err
		}
		schema = queryColumns(rel)
		if text, ok := b.ExpandQuery(v.Query); ok {
			expanded = text
		}
		return nil
	})
	return schema, expanded, err
}

// queryColumns returns a query's columns by the names its scope gives them.
func queryColumns(rel *relation) types.Schema {
	out := make(types.Schema, len(rel.sc.cols))
	for i, c := range rel.sc.cols {
		out[i] = types.Field{Name: c.name, Type: c.typ}
	}
	return out
}

// viewColumns fits rel, what view v's query gives now, to the columns the
// view was created with (v.Schema), by name: columns its tables gained
// since are left out, as Flink's SqlCatalogViewTable reads the expanded
// query of the view's creation and casts it to the view's schema. A column
// gone, or of another type (other than one that became NOT NULL; time
// attributes aside), makes the view fail at ref, naming the view and the
// column: Sluice does not cast a column to a type its values may not fit.
func viewColumns(rel *relation, v *catalog.View, ref *ast.TableName) (*relation, error) {
	now := queryColumns(rel)
	if v.Schema == nil || slices.Equal(v.Schema, now) {
		return rel, nil
	}
	projects := make([]expr.Expr, len(v.Schema))
	out := make(types.Schema, len(v.Schema))
	sc := &scope{cols: make([]scopeCol, len(v.Schema))}
	for i, f := range v.Schema {
		j := i
		if j >= len(now) || now[j].Name != f.Name {
			j = now.Index(f.Name)
		}
		if j < 0 {
			return nil, errorf(ref, "View %s does not bind: its query no longer gives the column '%s' (%s) the view was created with", v.ID(), f.Name, f.Type)
		}
		t := now[j].Type
		if !types.Equal(t, f.Type) && (f.Type.NotNull || !types.Equal(t.WithNotNull(false), f.Type)) {
			return nil, errorf(ref, "View %s does not bind: its query gives the column '%s' the type %s, the view was created with %s", v.ID(), f.Name, t.Plain(), f.Type.Plain())
		}
		// A time attribute is the query's as it reads now.
		want := f.Type
		want.Attr = t.Attr
		projects[i] = coerce(&expr.Column{Index: j, Name: f.Name, T: t}, want)
		sc.cols[i] = rel.sc.cols[j]
		sc.cols[i].typ = want
		out[i] = types.Field{Name: f.Name, Type: want}
	}
	return &relation{node: newCalc(rel.node, projects, nil, out), sc: sc}, nil
}
