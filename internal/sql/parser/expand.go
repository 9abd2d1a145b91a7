package parser

import (
	"strings"

	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// Expansion is what a binder resolved in a query, for FormatExpanded: the
// names it qualified and the columns `*` stands for.
type Expansion struct {
	// Tables holds the catalog, database and name of each table or view
	// the query reads.
	Tables map[*ast.TableName][]string
	// Stars holds the columns each `*` (or `t.*`) of a select list stands
	// for, each as its table's alias and its name.
	Stars map[*ast.SelectItem][][]string
	// Columns holds each column reference qualified by its table's alias
	// (followed by the fields of a ROW it reads).
	Columns map[*ast.Ident][]string
}

// NewExpansion returns an empty Expansion.
func NewExpansion() *Expansion {
	return &Expansion{Tables: map[*ast.TableName][]string{}, Stars: map[*ast.SelectItem][][]string{},
		Columns: map[*ast.Ident][]string{}}
}

// FormatExpanded writes q as Flink stores a view's expanded query
// (SqlNodeConvertUtils.toCatalogView: Calcite's unparse of the validated
// query, with identifier expansion, in the ANSI dialect with back-quotes):
// a clause per line (SELECT, FROM, each JOIN, WHERE, GROUP BY, HAVING, a
// set operator), tables fully qualified and given their alias (FROM
// `cat`.`db`.`t` AS `t`), `*` replaced by the columns it stands for,
// column references qualified; BETWEEN written BETWEEN ASYMMETRIC, a CASE
// with an operand as one with conditions (x = v, or x IN (v, w) for WHEN
// v, w) and ELSE NULL where it has no ELSE, as Calcite's parser builds
// them (SqlCase.createSwitched), and
// types of CAST as Calcite writes them (INTEGER).
//
// x must hold every name of q; the binder that fills it decides which
// queries can be expanded (Binder.ExpandQuery).
func FormatExpanded(q ast.Query, x *Expansion) string {
	p := &expander{x: x}
	p.f = formatter{flink: true, asymmetric: true, override: p.override}
	p.query(q)
	return p.f.String()
}

type expander struct {
	f formatter
	x *Expansion
}

func (p *expander) write(s string) { p.f.WriteString(s) }

func quoteParts(parts []string) string {
	quoted := make([]string, len(parts))
	for i, s := range parts {
		quoted[i] = types.QuoteIdent(s)
	}
	return strings.Join(quoted, ".")
}

func (p *expander) query(q ast.Query) {
	switch q := q.(type) {
	case *ast.Select:
		p.write("SELECT ")
		p.f.queryHints(q.Hints)
		if q.Distinct {
			p.write("DISTINCT ")
		}
		sep := ""
		for _, it := range q.Items {
			if it.Star {
				for _, c := range p.x.Stars[it] {
					p.write(sep + quoteParts(c))
					sep = ", "
				}
				continue
			}
			p.write(sep)
			sep = ", "
			p.f.expr(it.Expr)
			if it.Alias != "" {
				p.write(" AS " + types.QuoteIdent(it.Alias))
			}
		}
		p.write("\nFROM ")
		p.from(q.From)
		if q.Where != nil {
			p.write("\nWHERE ")
			p.f.expr(q.Where)
		}
		if len(q.GroupBy) > 0 {
			p.write("\nGROUP BY ")
			p.f.exprs(q.GroupBy)
		}
		if q.Having != nil {
			p.write("\nHAVING ")
			p.f.expr(q.Having)
		}
	case *ast.SetOp:
		p.query(q.Left)
		p.write("\n" + q.Op)
		if q.All {
			p.write(" ALL")
		}
		p.write("\n")
		p.query(q.Right)
	}
}

// from writes a FROM item; Calcite's SqlJoin starts each join on a line
// of its own.
func (p *expander) from(r ast.TableRef) {
	switch r := r.(type) {
	case *ast.TableName:
		alias := r.Alias
		if alias == "" {
			alias = r.Name.Parts[len(r.Name.Parts)-1]
		}
		p.write(quoteParts(p.x.Tables[r]) + " AS " + types.QuoteIdent(alias))
	case *ast.SubqueryRef:
		p.write("(")
		p.query(r.Query)
		p.write(") AS " + types.QuoteIdent(r.Alias))
	case *ast.Join:
		p.from(r.Left)
		p.write("\n" + r.Kind.String() + " JOIN ")
		p.from(r.Right)
		p.write(" ON ")
		p.f.expr(r.On)
	}
}

// override writes the expressions whose expanded form differs from
// FormatFlinkExpr's.
func (p *expander) override(f *formatter, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		f.WriteString(quoteParts(p.x.Columns[e]))
	case *ast.Case:
		f.WriteString("CASE")
		for _, w := range e.Whens {
			f.WriteString(" WHEN ")
			switch {
			case e.Operand != nil && len(w.More) > 0:
				f.expr(&ast.In{Pos: w.Pos, X: e.Operand, List: append([]ast.Expr{w.Cond}, w.More...)})
			case e.Operand != nil:
				f.expr(&ast.Binary{Pos: w.Pos, Op: "=", L: e.Operand, R: w.Cond})
			default:
				f.expr(w.Cond)
			}
			f.WriteString(" THEN ")
			f.expr(w.Result)
		}
		f.WriteString(" ELSE ")
		if e.Else != nil {
			f.expr(e.Else)
		} else {
			f.WriteString("NULL")
		}
		f.WriteString(" END")
	case *ast.Cast:
		if e.Try {
			f.WriteString("TRY_")
		}
		f.WriteString("CAST(")
		f.expr(e.X)
		name, _ := CalciteTypeName(e.Type)
		f.WriteString(" AS " + name + ")")
	case *ast.SubqueryExpr:
		if e.Exists {
			f.WriteString("EXISTS ")
		}
		f.WriteString("(")
		f.WriteString(FormatExpanded(e.Query, p.x))
		f.WriteString(")")
	case *ast.In:
		if e.Subquery == nil {
			return false
		}
		f.part(e.X, predicateLevel, false)
		f.not(e.Not)
		f.WriteString(" IN (" + FormatExpanded(e.Subquery, p.x) + ")")
	default:
		return false
	}
	return true
}

// CalciteTypeName is the name Calcite's parser gives t when unparsing a
// CAST (SqlDataTypeSpec.unparse; Flink's STRING and BYTES keep their
// names, SqlAlienSystemTypeNameSpec), and false for a type whose written
// form its parsed type does not tell (TIMESTAMP and TIMESTAMP(6), DECIMAL
// and DECIMAL(10, 0), ...).
func CalciteTypeName(t types.Type) (string, bool) {
	if t.NotNull || t.Attr != types.NoTimeAttr {
		return "", false
	}
	switch t.Kind {
	case types.Boolean, types.TinyInt, types.SmallInt, types.BigInt, types.Float, types.Double, types.Date:
		return t.String(), true
	case types.Int:
		return "INTEGER", true
	case types.Varchar, types.Varbinary:
		if t.Length == types.MaxVarcharLength {
			return t.String(), true
		}
		fallthrough
	case types.Char, types.Binary:
		if t.Length > 1 {
			return t.String(), true
		}
	}
	return "", false
}
