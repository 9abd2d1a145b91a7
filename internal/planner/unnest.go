package planner

import (
	"fmt"
	"strings"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// Correlate joins each input row with the rows of UNNEST of a collection
// computed from it (Flink's Correlate of $UNNEST_ROWS): `FROM t CROSS JOIN
// UNNEST(t.arr) AS u(x)`, `FROM t, UNNEST(...)`, `LEFT JOIN UNNEST(...) ON
// TRUE`, `WITH ORDINALITY`.
//
// With More, the collections are unnested side by side: the i-th output
// row holds the i-th element of each, NULLs for a collection with fewer
// (the SQL standard's UNNEST of several collections, and Calcite's since
// CALCITE-7583: zipped and padded to the longest).
//
// With Replicate, Collection is a BIGINT count instead, and each input row
// is emitted that many times (Flink's $REPLICATE_ROWS$, the table function
// of INTERSECT ALL and EXCEPT ALL).
type Correlate struct {
	base
	Input      Node
	Collection expr.Expr
	More       []expr.Expr
	Ordinality bool
	Left       bool
	Replicate  bool
}

// Inputs implements Node.
func (n *Correlate) Inputs() []Node { return []Node{n.Input} }

// Mode implements Node: each output row keeps its input row's kind.
func (n *Correlate) Mode() Mode { return n.Input.Mode() }

// Describe implements Node.
func (n *Correlate) Describe() string { return n.describe(prefix) }

func (n *Correlate) describe(f exprFormat) string {
	join := "INNER"
	if n.Left {
		join = "LEFT"
	}
	fn := "UNNEST"
	if n.Replicate {
		fn = "$REPLICATE_ROWS$"
	}
	args := exprText(n.Collection, n.Input.Schema(), f)
	for _, m := range n.More {
		args += ", " + exprText(m, n.Input.Schema(), f)
	}
	s := "Correlate(invocation=[" + fn + "(" + args + ")"
	if n.Ordinality {
		s += " WITH ORDINALITY"
	}
	return s + "], select=[" + strings.Join(n.schema.Names(), ", ") + "], joinType=[" + join + "])"
}

// unnestColumns are the columns UNNEST gives for its collection of type t
// that is argument i, named as Calcite names them (SqlUnnestOperator): a
// ROW element's fields, EXPR$i for another element, KEY and VALUE for a
// map's entries.
func unnestColumns(t types.Type, i int) (types.Schema, bool) {
	var out types.Schema
	switch {
	case t.Kind == types.Map:
		out = types.Schema{{Name: "KEY", Type: t.KeyType()}, {Name: "VALUE", Type: t.ValueType()}}
	case (t.Kind == types.Array || t.Kind == types.Multiset) && t.Elem().Kind == types.RowType:
		for _, f := range t.Elem().Fields() {
			ft := f.Type
			if !t.Elem().NotNull {
				ft = ft.Nullable()
			}
			out = append(out, types.Field{Name: f.Name, Type: ft})
		}
	case t.Kind == types.Array || t.Kind == types.Multiset:
		out = types.Schema{{Name: "EXPR$" + itoa(i), Type: t.Elem()}}
	default:
		return nil, false
	}
	return out, true
}

// unnest binds UNNEST(...) over the rows of l (nil for UNNEST alone in
// FROM, over one empty row); left is LEFT JOIN ... ON TRUE.
func (b *Binder) unnest(ref *ast.UnnestRef, l *relation, left bool) (*relation, error) {
	if l == nil {
		l = &relation{node: &Values{Rows: []types.Row{{}}}, sc: &scope{}}
	}
	var colls []expr.Expr
	var cols types.Schema
	for i, c := range append([]ast.Expr{ref.Collection}, ref.More...) {
		coll, err := (&exprBinder{b: b, sc: l.sc, where: "UNNEST"}).bind(c)
		if err != nil {
			return nil, err
		}
		cs, ok := unnestColumns(coll.Type(), i)
		if !ok {
			return nil, errorf(c, "UNNEST expects an ARRAY, MULTISET or MAP, got %s", coll.Type().Plain().Nullable())
		}
		if i > 0 {
			// Padded with NULLs where another collection is longer.
			for j := range cs {
				cs[j].Type = cs[j].Type.Nullable()
			}
			for j := range cols {
				cols[j].Type = cols[j].Type.Nullable()
			}
		}
		colls = append(colls, coll)
		cols = append(cols, cs...)
	}
	if ref.Ordinality {
		cols = append(cols, types.Field{Name: "ORDINALITY", Type: types.IntType.WithNotNull(true)})
	}
	if len(ref.ColumnAliases) > 0 {
		if len(ref.ColumnAliases) != len(cols) {
			return nil, errorf(ref, "List of column aliases must have same degree as table; table has %d columns (%s), whereas alias list has %d columns",
				len(cols), quoteNames(cols.Names()), len(ref.ColumnAliases))
		}
		for i := range cols {
			cols[i].Name = ref.ColumnAliases[i]
		}
	}
	if left {
		for i := range cols {
			cols[i].Type = cols[i].Type.Nullable()
		}
	}
	in := l.node.Schema()
	schema := append(append(types.Schema{}, in...), cols...)
	// The output names are unique, as a join's.
	used := map[string]bool{}
	for _, f := range in {
		used[f.Name] = true
	}
	for i := len(in); i < len(schema); i++ {
		name := schema[i].Name
		for n := 0; used[name]; n++ {
			name = fmt.Sprintf("%s%d", schema[i].Name, n)
		}
		used[name] = true
		schema[i].Name = name
	}
	sc := &scope{cols: append([]scopeCol{}, l.sc.cols...)}
	for i, c := range cols {
		sc.cols = append(sc.cols, scopeCol{qual: ref.Alias, name: c.Name, typ: schema[len(in)+i].Type})
	}
	node := &Correlate{base: base{schema: schema}, Input: l.node, Collection: colls[0], Ordinality: ref.Ordinality, Left: left}
	if len(colls) > 1 {
		node.More = colls[1:]
	}
	return &relation{node: node, sc: sc}, nil
}

func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	return strings.Join(q, ", ")
}

// unnestJoin binds `l [CROSS|INNER|LEFT] JOIN UNNEST(...)` and `l,
// UNNEST(...)`: an inner join's condition filters the joined rows; a left
// join takes ON TRUE only, as Flink.
func (b *Binder) unnestJoin(j *ast.Join, ref *ast.UnnestRef) (*relation, error) {
	l, err := b.from(j.Left)
	if err != nil {
		return nil, err
	}
	if len(j.Using) > 0 {
		return nil, errorf(j, "JOIN UNNEST ... USING is not supported; use CROSS JOIN UNNEST or ON TRUE")
	}
	switch j.Kind {
	case ast.CrossJoin, ast.InnerJoin:
		rel, err := b.unnest(ref, l, false)
		if err != nil || j.On == nil || isTrue(j.On) {
			return rel, err
		}
		cond, err := (&exprBinder{b: b, sc: rel.sc, where: "a join condition"}).bind(j.On)
		if err != nil {
			return nil, err
		}
		if err := wantBoolean(j.On, cond); err != nil {
			return nil, err
		}
		return &relation{node: filtered(rel.node, []expr.Expr{cond}), sc: rel.sc}, nil
	case ast.LeftJoin:
		if !isTrue(j.On) {
			return nil, errorf(j, "LEFT JOIN UNNEST supports only ON TRUE")
		}
		return b.unnest(ref, l, true)
	}
	return nil, errorf(j, "%s JOIN UNNEST is not supported; UNNEST can be the right side of a CROSS, INNER or LEFT join", j.Kind)
}

// isTrue reports whether e is the literal TRUE.
func isTrue(e ast.Expr) bool {
	l, ok := e.(*ast.Literal)
	return ok && l.Kind == ast.BoolLit && strings.EqualFold(l.Text, "TRUE")
}
