package planner

import (
	"regexp"
	"strings"

	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// ExpandQuery returns q as Flink's CREATE VIEW stores it expanded (the
// CatalogView's expanded query, SqlNodeConvertUtils.toCatalogView:
// Calcite's unparse of the validated query), printed by
// parser.FormatExpanded over the names as the binder resolves them: each
// table or view with the catalog and database it is found in, each `*`
// as the columns of its FROM items, each column reference with the alias
// of the FROM item it is found in (or of an enclosing query's, for a
// correlated one).
//
// It reports false for a query whose expansion Sluice does not derive
// exactly, which SHOW CREATE VIEW then prints as written: a query with
// WITH, VALUES, ORDER BY, LIMIT or OFFSET, a FROM item other than tables,
// views, aliased subqueries and joins with ON, a select list or FROM item
// a name is ambiguous in or that repeats a column name, OVER, GROUPING
// SETS, quantified comparisons, a prefix minus or plus other than a
// negative number, functions Calcite rewrites or writes in a syntax of
// their own, and literals and CAST types whose written form the parsed one
// does not keep.
func (b *Binder) ExpandQuery(q ast.Query) (string, bool) {
	e := &expansion{b: b, x: parser.NewExpansion(), seen: map[ast.Expr]bool{}}
	if !e.query(q, nil) {
		return "", false
	}
	return parser.FormatExpanded(q, e.x), true
}

// expansion resolves the names of a query for parser.FormatExpanded.
type expansion struct {
	b *Binder
	x *parser.Expansion
	// seen holds the expressions walked: the parser writes some forms
	// (quantified comparisons over a list of values) as others that read
	// an operand more than once, which the expansion does not write back.
	seen map[ast.Expr]bool
}

// query resolves the names of q, whose correlated references resolve in
// outer (innermost first).
func (e *expansion) query(q ast.Query, outer []*scope) bool {
	switch q := q.(type) {
	case *ast.Select:
		if q.From == nil || len(q.OrderBy) > 0 || q.Limit != nil || q.Offset != nil {
			return false
		}
		sc, ok := e.from(q.From)
		if !ok {
			return false
		}
		scopes := append([]*scope{sc}, outer...)
		names := map[string]bool{}
		for i, it := range q.Items {
			var cols []string
			if it.Star {
				if !e.star(it, sc) {
					return false
				}
				for _, c := range e.x.Stars[it] {
					cols = append(cols, c[1])
				}
			} else {
				if !e.expr(it.Expr, scopes) {
					return false
				}
				name := it.Alias
				if name == "" {
					name = exprName(it.Expr, i)
				}
				cols = []string{name}
			}
			for _, c := range cols {
				// Calcite makes repeated names unique (name0), which the
				// expansion would then alias.
				if names[c] {
					return false
				}
				names[c] = true
			}
		}
		for _, x := range append([]ast.Expr{q.Where, q.Having}, q.GroupBy...) {
			if _, sets := x.(*ast.GroupingSets); sets || x != nil && !e.expr(x, scopes) {
				return false
			}
		}
		return true
	case *ast.SetOp:
		_, nestedL := q.Left.(*ast.SetOp)
		_, nestedR := q.Right.(*ast.SetOp)
		return !nestedL && !nestedR && len(q.OrderBy) == 0 && q.Limit == nil &&
			e.query(q.Left, outer) && e.query(q.Right, outer)
	}
	return false
}

// from resolves the names of a FROM item and returns its scope, as the
// binder builds it.
func (e *expansion) from(ref ast.TableRef) (*scope, bool) {
	switch r := ref.(type) {
	case *ast.TableName:
		if len(r.Options) > 0 || r.AsOf != nil || len(r.ColumnAliases) > 0 {
			return nil, false
		}
		if _, cte := e.b.ctes[r.Name.Parts[len(r.Name.Parts)-1]]; cte {
			return nil, false
		}
		id, _, _, err := e.b.resolve(r.Name)
		if err != nil {
			return nil, false
		}
		rel, err := e.b.tableName(r)
		if err != nil {
			return nil, false
		}
		e.x.Tables[r] = []string{id.Catalog, id.Database, id.Object}
		return rel.sc, true
	case *ast.SubqueryRef:
		if r.Lateral || r.Alias == "" || len(r.ColumnAliases) > 0 || !e.query(r.Query, nil) {
			return nil, false
		}
		rel, err := e.b.from(r)
		if err != nil {
			return nil, false
		}
		return rel.sc, true
	case *ast.Join:
		if r.Kind == ast.CrossJoin || r.On == nil || len(r.Using) > 0 {
			return nil, false
		}
		if _, nested := r.Right.(*ast.Join); nested {
			return nil, false
		}
		l, ok := e.from(r.Left)
		if !ok {
			return nil, false
		}
		rs, ok := e.from(r.Right)
		if !ok {
			return nil, false
		}
		sc := l.join(rs)
		return sc, e.expr(r.On, []*scope{sc})
	}
	return nil, false
}

// star records the columns a `*` or `t.*` stands for, as expandStars
// expands them.
func (e *expansion) star(it *ast.SelectItem, sc *scope) bool {
	var qual string
	if len(it.StarQualifier) > 0 {
		qual = it.StarQualifier[len(it.StarQualifier)-1]
		if len(it.StarQualifier) > 1 || !sc.hasQualifier(qual) {
			return false
		}
	}
	var cols [][]string
	for _, c := range sc.cols {
		if (qual != "" && c.qual != qual) || isHidden(c.name) || (qual == "" && c.merged) {
			continue
		}
		if c.qual == "" {
			return false
		}
		cols = append(cols, []string{c.qual, c.name})
	}
	e.x.Stars[it] = cols
	return true
}

// plainNumber is a numeric literal Calcite writes back as it is written.
var plainNumber = regexp.MustCompile(`^(0|[1-9][0-9]*)(\.[0-9]+)?$`)

// calciteSyntax are the functions Calcite rewrites while validating
// (COALESCE and NULLIF become CASE) or writes in a syntax of their own.
var calciteSyntax = map[string]bool{
	"COALESCE": true, "NULLIF": true, "SUBSTRING": true, "TRIM": true, "POSITION": true, "OVERLAY": true,
	"OVERLAPS": true, "CONVERT": true, "TRANSLATE": true, "LEFT": true, "RIGHT": true, "$DOT": true,
	"JSON_OBJECT": true, "JSON_ARRAY": true, "JSON_VALUE": true, "JSON_QUERY": true, "JSON_EXISTS": true,
	"JSON_OBJECTAGG": true, "JSON_ARRAYAGG": true,
}

// expr resolves the names of an expression in scopes (innermost first)
// and reports whether the expansion writes it exactly.
func (e *expansion) expr(x ast.Expr, scopes []*scope) bool {
	ok := true
	walkAST(x, func(n ast.Expr) bool {
		if !ok || e.seen[n] {
			ok = false
			return false
		}
		e.seen[n] = true
		switch n := n.(type) {
		case *ast.Unary:
			// Calcite writes a prefix minus apart from its operand (- `a`),
			// but -1 is a literal.
			lit, isLit := n.X.(*ast.Literal)
			ok = n.Op == "NOT" || n.Op == "-" && isLit && lit.Kind == ast.NumberLit
		case *ast.Ident:
			parts, found := resolveIn(n, scopes)
			e.x.Columns[n] = parts
			ok = found
			return false
		case *ast.Literal:
			switch n.Kind {
			case ast.NumberLit:
				ok = plainNumber.MatchString(n.Text)
			case ast.StringLit:
				ok = isASCII(n.Text)
			}
		case *ast.TypedLiteral:
			ok = n.Type.Kind == types.Date
		case *ast.Cast:
			_, ok = parser.CalciteTypeName(n.Type)
		case *ast.Case:
			for _, w := range n.Whens {
				ok = ok && (len(w.More) == 0 || n.Operand != nil)
			}
		case *ast.FuncCall:
			ok = n.Over == nil && n.ArgNames == nil && n.TrimMode == "" && !calciteSyntax[n.Name] &&
				!strings.HasPrefix(n.Name, "IS JSON")
		case *ast.SubqueryExpr:
			ok = e.query(n.Query, scopes)
			return false
		case *ast.In:
			if n.Subquery != nil {
				ok = e.expr(n.X, scopes) && e.query(n.Subquery, scopes)
				return false
			}
		case *ast.IntervalLiteral, *ast.TimeUnitExpr, *ast.Binary, *ast.Between, *ast.Like,
			*ast.IsPredicate, *ast.IsDistinctFrom:
		default:
			ok = false
		}
		return ok
	})
	return ok
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// resolveIn resolves a column reference as the binder does: in the
// innermost scope that has it, as a column or as a ROW column followed by
// field names; it returns the column qualified by its FROM item's alias.
func resolveIn(id *ast.Ident, scopes []*scope) ([]string, bool) {
	for _, sc := range scopes {
		i, n := sc.lookup(id)
		if n > 1 {
			return nil, false
		}
		if n == 1 {
			c := sc.cols[i]
			return []string{c.qual, c.name}, c.qual != "" && c.scalar == nil
		}
		for k := len(id.Parts) - 1; k >= 1; k-- {
			i, err := sc.resolve(&ast.Ident{Pos: id.Pos, Parts: id.Parts[:k]})
			if err != nil || !sc.cols[i].typ.HasFields() {
				continue
			}
			c := sc.cols[i]
			return append([]string{c.qual, c.name}, id.Parts[k:]...), c.qual != "" && c.scalar == nil
		}
	}
	return nil, false
}
