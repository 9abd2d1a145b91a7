package planner

import (
	"fmt"
	"strings"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// SemiJoin keeps the rows of Left whose key has (or, Anti, has no) equal
// key in Right: `x [NOT] IN (subquery)` in a WHERE clause.
type SemiJoin struct {
	base
	Left, Right Node
	LeftKey     int
	RightKey    int
	Anti        bool
	// NullAware is set for NOT IN over a nullable subquery column, whose
	// NULLs make NOT IN UNKNOWN for every row.
	NullAware bool
}

// Inputs implements Node.
func (n *SemiJoin) Inputs() []Node { return []Node{n.Left, n.Right} }

// Mode implements Node: a semi join of appends only appends; an anti join,
// or any input that retracts, retracts.
func (n *SemiJoin) Mode() Mode {
	if !n.Anti && n.Left.Mode() == connector.InsertOnly && n.Right.Mode() == connector.InsertOnly {
		return connector.InsertOnly
	}
	return connector.Retract
}

// Describe implements Node.
func (n *SemiJoin) Describe() string {
	kind := "LeftSemiJoin"
	if n.Anti {
		kind = "LeftAntiJoin"
	}
	return fmt.Sprintf("Join(joinType=[%s], where=[=(%s, %s)], select=[%s])", kind,
		n.Left.Schema()[n.LeftKey].Name, n.Right.Schema()[n.RightKey].Name, strings.Join(n.schema.Names(), ", "))
}

// splitSubqueries takes the `x [NOT] IN (subquery)` conjuncts out of a
// WHERE clause (they become semi and anti joins, applied after the other
// conditions filter the rows), returning them and the conditions left.
func splitSubqueries(where ast.Expr) ([]*ast.In, ast.Expr) {
	var subqueries []*ast.In
	var rest []ast.Expr
	for _, c := range astConjuncts(where) {
		if in, ok := c.(*ast.In); ok && in.Subquery != nil {
			subqueries = append(subqueries, in)
		} else {
			rest = append(rest, c)
		}
	}
	return subqueries, andAST(rest)
}

// andAST joins conditions with AND, skipping nil ones; nil when none.
func andAST(es []ast.Expr) ast.Expr {
	var out ast.Expr
	for _, e := range es {
		switch {
		case e == nil:
		case out == nil:
			out = e
		default:
			out = &ast.Binary{Pos: out.Position(), Op: "AND", L: out, R: e}
		}
	}
	return out
}

func astConjuncts(e ast.Expr) []ast.Expr {
	if b, ok := e.(*ast.Binary); ok && b.Op == "AND" {
		return append(astConjuncts(b.L), astConjuncts(b.R)...)
	}
	return []ast.Expr{e}
}

// semiJoin plans one `x [NOT] IN (subquery)`. Both sides are compared in
// their common type.
func (b *Binder) semiJoin(rel *relation, in *ast.In) (*relation, error) {
	x, err := (&exprBinder{b: b, sc: rel.sc, where: "WHERE"}).bind(in.X)
	if err != nil {
		return nil, err
	}
	sub, err := b.query(in.Subquery)
	if err != nil {
		return nil, err
	}
	ss := sub.node.Schema()
	if len(ss) != 1 {
		return nil, errorf(in.Subquery, "a subquery in IN must return exactly one column, not %d", len(ss))
	}
	t, ok := types.CommonType(x.Type().Plain(), ss[0].Type.Plain())
	if !ok {
		return nil, errorf(in, "cannot compare %s with %s in IN", x.Type().Plain(), ss[0].Type.Plain())
	}
	rightSchema := types.Schema{{Name: ss[0].Name, Type: t.WithNotNull(ss[0].Type.NotNull)}}
	right := newCalc(sub.node, []expr.Expr{coerce(&expr.Column{Index: 0, Name: ss[0].Name, T: ss[0].Type}, t)}, nil, rightSchema)
	ls := rel.node.Schema()
	j := &SemiJoin{base: base{schema: ls}, Left: rel.node, Right: right, Anti: in.Not, NullAware: in.Not && !ss[0].Type.NotNull}
	if c, ok := x.(*expr.Column); ok && types.Equal(c.T.Nullable(), t.Nullable()) {
		j.LeftKey = c.Index
		return &relation{node: j, sc: rel.sc}, nil
	}
	// A computed or converted key travels as an extra column, dropped
	// after the join.
	j.schema = append(append(types.Schema{}, ls...), types.Field{Name: "$f" + itoa(len(ls)), Type: t.WithNotNull(x.Type().NotNull)})
	j.Left = newCalc(rel.node, append(identity(ls), coerce(x, t)), nil, j.schema)
	j.LeftKey = len(ls)
	return &relation{node: newCalc(j, identity(ls), nil, ls), sc: rel.sc}, nil
}
