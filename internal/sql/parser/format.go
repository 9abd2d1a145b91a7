package parser

import (
	"regexp"
	"strings"

	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// FormatExpr renders e as SQL in a canonical, deterministic form: every
// binary operator and predicate is parenthesized, as in (a + b) or
// (x IS NULL); keywords and built-in function names are upper case; string
// literals use single quotes; identifiers are backquoted only when needed.
// Parsing the result gives back the same tree, positions aside.
func FormatExpr(e ast.Expr) string {
	var f formatter
	f.expr(e)
	return f.String()
}

// FormatQuery renders q as SQL on one line, in the same canonical form as
// FormatExpr.
func FormatQuery(q ast.Query) string {
	var f formatter
	f.query(q)
	return f.String()
}

// FormatFlinkExpr renders e as Flink's SHOW CREATE TABLE and DESCRIBE
// write a computed column or watermark (Calcite's unparse of the
// expression, as table.q of Flink's SQL client shows: `ts` - INTERVAL '1'
// SECOND): every identifier backquoted, operators without parentheses but
// around an operand that would otherwise bind to another operator, in
// Sluice's precedence and in Calcite's (which also puts || with * and /).
// Parsing the result gives back the same tree, positions aside.
func FormatFlinkExpr(e ast.Expr) string {
	f := formatter{flink: true}
	f.expr(e)
	return f.String()
}

type formatter struct {
	strings.Builder
	// flink writes identifiers and operators as FormatFlinkExpr does.
	flink bool
	// override, when set, writes the expressions it has a form of its own
	// for (see FormatExpanded) and reports whether it wrote e.
	override func(f *formatter, e ast.Expr) bool
	// asymmetric writes BETWEEN without SYMMETRIC as BETWEEN ASYMMETRIC,
	// as Calcite's expanded SQL does.
	asymmetric bool
}

// Binding levels of the parser, loosest first (see parser.expr); a level
// above unaryLevel is an expression whose own syntax delimits it.
const (
	orLevel = 1 + iota
	andLevel
	notLevel
	predicateLevel // comparisons, IS, BETWEEN, IN, LIKE, IS DISTINCT FROM
	additiveLevel  // + - ||
	multiplicativeLevel
	unaryLevel
	primaryLevel
)

// level is the binding level of e's outermost operator, and the operator
// of a binary expression.
func level(e ast.Expr) (int, string) {
	switch e := e.(type) {
	case *ast.Binary:
		switch e.Op {
		case "OR":
			return orLevel, e.Op
		case "AND":
			return andLevel, e.Op
		case "+", "-", "||":
			return additiveLevel, e.Op
		case "*", "/", "%":
			return multiplicativeLevel, e.Op
		}
		return predicateLevel, e.Op
	case *ast.Unary:
		if e.Op == "NOT" {
			return notLevel, ""
		}
		return unaryLevel, ""
	case *ast.Between, *ast.In, *ast.Quantified, *ast.Like, *ast.IsPredicate, *ast.IsDistinctFrom:
		return predicateLevel, ""
	}
	return primaryLevel, ""
}

// operand writes e as an operand of an operator of level parent (op, when
// it is a binary one), in parentheses where its own operator binds looser
// or as loose on the right (operators associate to the left), where both
// are predicates (whose relative precedence differs in Calcite), and where
// exactly one of two arithmetic operators is ||, which Calcite ranks with *
// and / and the parser with + and -.
func (f *formatter) operand(e ast.Expr, parent int, op string, right bool) {
	l, eop := level(e)
	arithmetic := func(l int) bool { return l == additiveLevel || l == multiplicativeLevel }
	if l < parent || l == parent && (right || l == predicateLevel) ||
		op != "" && arithmetic(l) && arithmetic(parent) && (op == "||") != (eop == "||") {
		f.WriteString("(")
		f.expr(e)
		f.WriteString(")")
		return
	}
	f.expr(e)
}

func (f *formatter) exprs(list []ast.Expr) {
	for i, e := range list {
		if i > 0 {
			f.WriteString(", ")
		}
		f.expr(e)
	}
}

func (f *formatter) expr(e ast.Expr) {
	if f.override != nil && f.override(f, e) {
		return
	}
	switch e := e.(type) {
	case *ast.Ident:
		if f.flink {
			quoted := make([]string, len(e.Parts))
			for i, p := range e.Parts {
				quoted[i] = "`" + strings.ReplaceAll(p, "`", "``") + "`"
			}
			f.WriteString(strings.Join(quoted, "."))
			return
		}
		f.WriteString(formatName(e.Parts))
	case *ast.Literal:
		switch e.Kind {
		case ast.StringLit:
			f.WriteString(QuoteString(e.Text))
		case ast.BinaryLit:
			f.WriteString("X'" + e.Text + "'")
		default:
			f.WriteString(e.Text)
		}
	case *ast.TypedLiteral:
		f.WriteString(literalKeyword[e.Type.Kind] + " " + QuoteString(e.Value))
	case *ast.IntervalLiteral:
		f.WriteString("INTERVAL ")
		if e.Negative {
			f.WriteString("-")
		}
		f.WriteString(QuoteString(e.Value) + " " + ast.IntervalQualifier(e))
	case *ast.TimeUnitExpr:
		f.WriteString(string(e.Unit))
	case *ast.Unary:
		if e.Op == "NOT" {
			f.WriteString("NOT ")
			if f.flink {
				f.operand(e.X, notLevel, "", true)
				return
			}
			f.expr(e.X)
			return
		}
		f.WriteString(e.Op)
		if _, nested := e.X.(*ast.Unary); f.flink && !nested {
			f.operand(e.X, unaryLevel, "", true)
			return
		}
		if _, nested := e.X.(*ast.Unary); nested {
			// Avoid "--", which would start a comment.
			f.WriteString("(")
			f.expr(e.X)
			f.WriteString(")")
			return
		}
		f.expr(e.X)
	case *ast.Binary:
		if f.flink {
			l, _ := level(e)
			f.operand(e.L, l, e.Op, false)
			f.WriteString(" " + e.Op + " ")
			f.operand(e.R, l, e.Op, true)
			return
		}
		f.WriteString("(")
		f.expr(e.L)
		f.WriteString(" " + e.Op + " ")
		f.expr(e.R)
		f.WriteString(")")
	case *ast.Between:
		f.open()
		f.part(e.X, predicateLevel, false)
		f.not(e.Not)
		f.WriteString(" BETWEEN ")
		if e.Symmetric {
			f.WriteString("SYMMETRIC ")
		} else if f.asymmetric {
			f.WriteString("ASYMMETRIC ")
		}
		f.part(e.Lo, additiveLevel, false)
		f.WriteString(" AND ")
		f.part(e.Hi, additiveLevel, false)
		f.close()
	case *ast.In:
		f.open()
		f.part(e.X, predicateLevel, false)
		f.not(e.Not)
		f.WriteString(" IN (")
		if e.Subquery != nil {
			f.query(e.Subquery)
		} else {
			f.exprs(e.List)
		}
		f.WriteString(")")
		f.close()
	case *ast.Quantified:
		f.open()
		f.part(e.Left, predicateLevel, false)
		f.WriteString(" " + e.Op + " " + e.Quantifier + " (")
		if e.Subquery != nil {
			f.query(e.Subquery)
		} else {
			f.exprs(e.List)
		}
		f.WriteString(")")
		f.close()
	case *ast.Like:
		f.open()
		f.part(e.X, predicateLevel, false)
		f.not(e.Not)
		if e.Similar {
			f.WriteString(" SIMILAR TO ")
		} else {
			f.WriteString(" LIKE ")
		}
		f.part(e.Pattern, additiveLevel, false)
		if e.Escape != nil {
			f.WriteString(" ESCAPE ")
			f.part(e.Escape, additiveLevel, false)
		}
		f.close()
	case *ast.IsPredicate:
		f.open()
		f.part(e.X, predicateLevel, false)
		f.WriteString(" IS")
		f.not(e.Not)
		f.WriteString(" " + e.What)
		f.close()
	case *ast.IsDistinctFrom:
		f.open()
		f.part(e.L, predicateLevel, false)
		f.WriteString(" IS")
		f.not(e.Not)
		f.WriteString(" DISTINCT FROM ")
		f.part(e.R, additiveLevel, false)
		f.close()
	case *ast.Case:
		f.WriteString("CASE")
		if e.Operand != nil {
			f.WriteString(" ")
			f.expr(e.Operand)
		}
		for _, w := range e.Whens {
			f.WriteString(" WHEN ")
			f.exprs(append([]ast.Expr{w.Cond}, w.More...))
			f.WriteString(" THEN ")
			f.expr(w.Result)
		}
		if e.Else != nil {
			f.WriteString(" ELSE ")
			f.expr(e.Else)
		}
		f.WriteString(" END")
	case *ast.Cast:
		if e.Try {
			f.WriteString("TRY_")
		}
		f.WriteString("CAST(")
		f.expr(e.X)
		f.WriteString(" AS " + e.Type.String() + ")")
	case *ast.FuncCall:
		f.call(e)
	case *ast.Descriptor:
		f.WriteString("DESCRIPTOR(")
		f.names(e.Columns)
		f.WriteString(")")
	case *ast.TableArg:
		f.WriteString("TABLE " + formatName(e.Name.Parts))
		if len(e.PartitionBy) > 0 {
			f.WriteString(" PARTITION BY (")
			f.names(e.PartitionBy)
			f.WriteString(")")
		}
	case *ast.SubqueryExpr:
		if e.Exists {
			f.WriteString("EXISTS ")
		}
		f.WriteString("(")
		f.query(e.Query)
		f.WriteString(")")
	case *ast.RowExpr:
		f.WriteString("ROW(")
		f.exprs(e.Items)
		f.WriteString(")")
	case *ast.GroupingSets:
		f.WriteString(e.Kind + " (")
		for i, item := range e.Items {
			if i > 0 {
				f.WriteString(", ")
			}
			if len(item) == 1 {
				if _, nested := item[0].(*ast.GroupingSets); nested {
					f.expr(item[0])
					continue
				}
			}
			f.WriteString("(")
			f.exprs(item)
			f.WriteString(")")
		}
		f.WriteString(")")
	}
}

// open and close parenthesize a predicate in the canonical form, which
// FormatFlinkExpr leaves to the operand's context.
func (f *formatter) open() {
	if !f.flink {
		f.WriteString("(")
	}
}

func (f *formatter) close() {
	if !f.flink {
		f.WriteString(")")
	}
}

// part writes e as an operand of a predicate: as operand does in Flink's
// form, as it is in the canonical one (where every operator is
// parenthesized).
func (f *formatter) part(e ast.Expr, parent int, right bool) {
	if f.flink {
		f.operand(e, parent, "", right)
		return
	}
	f.expr(e)
}

// jsonCall writes JSON_OBJECT and JSON_ARRAY in their syntax; see
// parser.jsonArgs for their arguments.
func (f *formatter) jsonCall(c *ast.FuncCall) {
	var items []ast.Expr // JSON(x) for x marked raw
	for i := 1; i < len(c.Args); i++ {
		e := c.Args[i]
		if u, ok := e.(*ast.TimeUnitExpr); ok && u.Unit == "JSON" && i+1 < len(c.Args) {
			i++
			e = c.Args[i]
			if call, ok := e.(*ast.FuncCall); !ok || call.Name != "JSON_OBJECT" && call.Name != "JSON_ARRAY" {
				e = &ast.FuncCall{Pos: e.Position(), Name: "JSON", Args: []ast.Expr{e}}
			}
		}
		items = append(items, e)
	}
	f.WriteString(c.Name + "(")
	object := c.Name == "JSON_OBJECT"
	for i, e := range items {
		switch {
		case object && i%2 == 0:
			if i > 0 {
				f.WriteString(", ")
			}
			f.WriteString("KEY ")
		case object:
			f.WriteString(" VALUE ")
		case i > 0:
			f.WriteString(", ")
		}
		f.expr(e)
	}
	if len(items) > 0 {
		f.WriteString(" ")
	}
	f.expr(c.Args[0])
	f.WriteString(")")
}

func (f *formatter) not(not bool) {
	if not {
		f.WriteString(" NOT")
	}
}

// jsonQueryCall writes JSON_VALUE, JSON_QUERY and JSON_EXISTS with their
// clauses (see parser.jsonValueArgs and jsonQueryArgs) and reports whether
// c was one of them.
func (f *formatter) jsonQueryCall(c *ast.FuncCall) bool {
	unitAt := func(i int) (string, bool) {
		if i >= len(c.Args) {
			return "", false
		}
		u, ok := c.Args[i].(*ast.TimeUnitExpr)
		if !ok {
			return "", false
		}
		return string(u.Unit), true
	}
	returning := func() (string, bool) {
		if len(c.Args) < 3 {
			return "", false
		}
		cast, ok := c.Args[2].(*ast.Cast)
		return " RETURNING " + cast.Type.String(), ok && !cast.Try
	}
	head := func() {
		f.WriteString(c.Name + "(")
		f.expr(c.Args[0])
		f.WriteString(", ")
		f.expr(c.Args[1])
	}
	switch {
	case c.Name == "JSON_EXISTS" && len(c.Args) == 3:
		u, ok := unitAt(2)
		if !ok {
			return false
		}
		head()
		f.WriteString(" " + u + ")")
	case c.Name == "JSON_VALUE" && len(c.Args) == 7:
		ret, ok := returning()
		onEmpty, ok1 := unitAt(3)
		onError, ok2 := unitAt(5)
		if !ok || !ok1 || !ok2 {
			return false
		}
		head()
		f.WriteString(ret)
		for i, b := range []string{onEmpty, onError} {
			f.WriteString(" " + b)
			if b == "DEFAULT" {
				f.WriteString(" ")
				f.expr(c.Args[4+2*i])
			}
			f.WriteString([]string{" ON EMPTY", " ON ERROR"}[i])
		}
		f.WriteString(")")
	case c.Name == "JSON_QUERY" && len(c.Args) == 6:
		ret, ok := returning()
		wrapper, ok1 := unitAt(3)
		onEmpty, ok2 := unitAt(4)
		onError, ok3 := unitAt(5)
		if !ok || !ok1 || !ok2 || !ok3 {
			return false
		}
		head()
		f.WriteString(ret)
		f.WriteString(map[string]string{"WITHOUT ARRAY": " WITHOUT ARRAY WRAPPER", "CONDITIONAL ARRAY": " WITH CONDITIONAL ARRAY WRAPPER",
			"UNCONDITIONAL ARRAY": " WITH UNCONDITIONAL ARRAY WRAPPER"}[wrapper])
		f.WriteString(" " + onEmpty + " ON EMPTY " + onError + " ON ERROR)")
	default:
		return false
	}
	return true
}

// postfixBase writes the operand of a postfix [i] or .field, in
// parentheses where its own form has none (a prefix operator).
func (f *formatter) postfixBase(e ast.Expr) {
	if l, _ := level(e); f.flink && l < primaryLevel {
		f.WriteString("(")
		f.expr(e)
		f.WriteString(")")
		return
	}
	if _, prefix := e.(*ast.Unary); !prefix {
		f.expr(e)
		return
	}
	f.WriteString("(")
	f.expr(e)
	f.WriteString(")")
}

func (f *formatter) call(c *ast.FuncCall) {
	plain := !c.Distinct && !c.Star && c.Filter == nil && c.Over == nil && c.ArgNames == nil
	unit := func(i int) bool {
		_, ok := c.Args[i].(*ast.TimeUnitExpr)
		return ok
	}
	switch {
	case plain && len(c.Args) == 0 && niladic[c.Name]:
		f.WriteString(c.Name)
		return
	case plain && c.Name == "EXTRACT" && len(c.Args) == 2 && unit(0):
		f.WriteString("EXTRACT(")
		f.expr(c.Args[0])
		f.WriteString(" FROM ")
		f.expr(c.Args[1])
		f.WriteString(")")
		return
	case plain && (c.Name == "FLOOR" || c.Name == "CEIL") && len(c.Args) == 2 && unit(1):
		f.WriteString(c.Name + "(")
		f.expr(c.Args[0])
		f.WriteString(" TO ")
		f.expr(c.Args[1])
		f.WriteString(")")
		return
	case plain && c.Name == "OVERLAPS" && len(c.Args) == 4:
		f.WriteString("((")
		f.exprs(c.Args[:2])
		f.WriteString(") OVERLAPS (")
		f.exprs(c.Args[2:])
		f.WriteString("))")
		return
	case plain && (c.Name == "JSON_OBJECT" || c.Name == "JSON_ARRAY") && len(c.Args) > 0 && unit(0):
		f.jsonCall(c)
		return
	case plain && f.jsonQueryCall(c):
		return
	case plain && (c.Name == "$ARRAY" || c.Name == "$MAP"):
		// The value constructors ARRAY[...] and MAP[...].
		f.WriteString(c.Name[1:] + "[")
		f.exprs(c.Args)
		f.WriteString("]")
		return
	case plain && c.Name == "$ITEM" && len(c.Args) == 2:
		f.postfixBase(c.Args[0])
		f.WriteString("[")
		f.expr(c.Args[1])
		f.WriteString("]")
		return
	case plain && c.Name == "$DOT" && len(c.Args) == 2:
		if name, ok := c.Args[1].(*ast.Literal); ok && name.Kind == ast.StringLit {
			f.postfixBase(c.Args[0])
			if f.flink {
				f.WriteString(".`" + strings.ReplaceAll(name.Text, "`", "``") + "`")
				return
			}
			f.WriteString("." + quoteIdent(name.Text))
			return
		}
	case plain && strings.HasPrefix(c.Name, "IS JSON ") && len(c.Args) == 1:
		f.WriteString("(")
		f.expr(c.Args[0])
		f.WriteString(" " + c.Name + ")")
		return
	case plain && (c.Name == "LEFT" || c.Name == "RIGHT"):
		f.WriteString(c.Name + "(")
		f.exprs(c.Args)
		f.WriteString(")")
		return
	case plain && c.Name == "POSITION" && len(c.Args) == 2:
		f.WriteString("POSITION(")
		f.expr(c.Args[0])
		f.WriteString(" IN ")
		f.expr(c.Args[1])
		f.WriteString(")")
		return
	case plain && c.Name == "OVERLAY" && (len(c.Args) == 3 || len(c.Args) == 4):
		f.WriteString("OVERLAY(")
		f.expr(c.Args[0])
		f.WriteString(" PLACING ")
		f.expr(c.Args[1])
		f.WriteString(" FROM ")
		f.expr(c.Args[2])
		if len(c.Args) == 4 {
			f.WriteString(" FOR ")
			f.expr(c.Args[3])
		}
		f.WriteString(")")
		return
	case plain && c.TrimMode != "" && (len(c.Args) == 1 || len(c.Args) == 2):
		f.WriteString("TRIM(" + c.TrimMode + " ")
		if len(c.Args) == 2 {
			f.expr(c.Args[1])
			f.WriteString(" ")
		}
		f.WriteString("FROM ")
		f.expr(c.Args[0])
		f.WriteString(")")
		return
	}
	if !f.jsonAggCall(c) {
		f.WriteString(formatFuncName(c.Name) + "(")
		if c.Distinct {
			f.WriteString("DISTINCT ")
		}
		if c.Star {
			f.WriteString("*")
		}
		for i, a := range c.Args {
			if i > 0 {
				f.WriteString(", ")
			}
			if c.ArgNames != nil {
				f.WriteString(formatArgName(c.ArgNames[i]) + " => ")
			}
			f.expr(a)
		}
		f.WriteString(")")
	}
	if c.Filter != nil {
		f.WriteString(" FILTER (WHERE ")
		f.expr(c.Filter)
		f.WriteString(")")
	}
	if c.Over != nil {
		f.WriteString(" OVER ")
		f.window(c.Over)
	}
}

// window prints a window as written: a name, or (...).
func (f *formatter) window(w *ast.WindowSpec) {
	if w.Named {
		f.WriteString(quoteIdent(w.Ref))
		return
	}
	f.WriteString("(")
	sep := ""
	if w.Ref != "" {
		f.WriteString(quoteIdent(w.Ref))
		sep = " "
	}
	if len(w.PartitionBy) > 0 {
		f.WriteString("PARTITION BY ")
		f.exprs(w.PartitionBy)
		sep = " "
	}
	if len(w.OrderBy) > 0 {
		f.WriteString(sep + "ORDER BY ")
		f.orderItems(w.OrderBy)
		sep = " "
	}
	if fr := w.Frame; fr != nil {
		f.WriteString(sep)
		if fr.Rows {
			f.WriteString("ROWS BETWEEN ")
		} else {
			f.WriteString("RANGE BETWEEN ")
		}
		f.frameBound(fr.Lo)
		f.WriteString(" AND ")
		f.frameBound(fr.Hi)
	}
	f.WriteString(")")
}

func (f *formatter) frameBound(b *ast.FrameBound) {
	if b.Offset != nil {
		f.expr(b.Offset)
		f.WriteString(" ")
	}
	f.WriteString(b.Kind)
}

func (f *formatter) orderItems(items []*ast.OrderItem) {
	for i, it := range items {
		if i > 0 {
			f.WriteString(", ")
		}
		f.expr(it.Expr)
		if it.Desc {
			f.WriteString(" DESC")
		}
		if it.NullsFirst != nil {
			if *it.NullsFirst {
				f.WriteString(" NULLS FIRST")
			} else {
				f.WriteString(" NULLS LAST")
			}
		}
	}
}

func (f *formatter) names(names []string) {
	for i, n := range names {
		if i > 0 {
			f.WriteString(", ")
		}
		f.WriteString(quoteIdent(n))
	}
}

func (f *formatter) query(q ast.Query) {
	switch q := q.(type) {
	case *ast.Select:
		f.WriteString("SELECT ")
		f.queryHints(q.Hints)
		if q.Distinct {
			f.WriteString("DISTINCT ")
		}
		for i, it := range q.Items {
			if i > 0 {
				f.WriteString(", ")
			}
			switch {
			case it.Star && len(it.StarQualifier) > 0:
				f.WriteString(formatName(it.StarQualifier) + ".*")
			case it.Star:
				f.WriteString("*")
			default:
				f.expr(it.Expr)
				if it.Alias != "" {
					f.WriteString(" AS " + quoteIdent(it.Alias))
				}
			}
		}
		if q.From != nil {
			f.WriteString(" FROM ")
			f.tableRef(q.From)
		}
		if q.Where != nil {
			f.WriteString(" WHERE ")
			f.expr(q.Where)
		}
		if len(q.GroupBy) > 0 {
			f.WriteString(" GROUP BY ")
			f.exprs(q.GroupBy)
		}
		if q.Having != nil {
			f.WriteString(" HAVING ")
			f.expr(q.Having)
		}
		for i, w := range q.Windows {
			if i == 0 {
				f.WriteString(" WINDOW ")
			} else {
				f.WriteString(", ")
			}
			f.WriteString(quoteIdent(w.Name) + " AS ")
			f.window(w.Spec)
		}
		f.orderLimit(q.OrderBy, q.Limit, q.Offset)
	case *ast.SetOp:
		f.subquery(q.Left)
		f.WriteString(" " + q.Op + " ")
		if q.All {
			f.WriteString("ALL ")
		}
		f.subquery(q.Right)
		f.orderLimit(q.OrderBy, q.Limit, nil)
	case *ast.Values:
		f.WriteString("VALUES ")
		for i, row := range q.Rows {
			if i > 0 {
				f.WriteString(", ")
			}
			f.WriteString("(")
			f.exprs(row)
			f.WriteString(")")
		}
	case *ast.With:
		f.WriteString("WITH ")
		for i, c := range q.CTEs {
			if i > 0 {
				f.WriteString(", ")
			}
			f.WriteString(quoteIdent(c.Name))
			if len(c.Columns) > 0 {
				f.WriteString(" (")
				f.names(c.Columns)
				f.WriteString(")")
			}
			f.WriteString(" AS ")
			f.subquery(c.Query)
		}
		f.WriteString(" ")
		f.query(q.Body)
	}
}

func (f *formatter) subquery(q ast.Query) {
	f.WriteString("(")
	f.query(q)
	f.WriteString(")")
}

func (f *formatter) orderLimit(order []*ast.OrderItem, limit, offset ast.Expr) {
	if len(order) > 0 {
		f.WriteString(" ORDER BY ")
		f.orderItems(order)
	}
	if limit != nil {
		f.WriteString(" LIMIT ")
		f.expr(limit)
	}
	if offset != nil {
		f.WriteString(" OFFSET ")
		f.expr(offset)
		f.WriteString(" ROWS")
	}
}

// queryHints writes a SELECT's query hints, /*+ NAME(...), ... */ and a
// space, if it has any.
func (f *formatter) queryHints(hints []*ast.QueryHint) {
	for i, h := range hints {
		if i == 0 {
			f.WriteString("/*+ ")
		} else {
			f.WriteString(", ")
		}
		f.WriteString(h.Name)
		f.hintOptions(h.Options)
		if i == len(hints)-1 {
			f.WriteString(" */ ")
		}
	}
}

// hintOptions writes a hint's options, ('key' = 'value', ...).
func (f *formatter) hintOptions(opts []*ast.Option) {
	f.WriteString("(")
	for i, o := range opts {
		if i > 0 {
			f.WriteString(", ")
		}
		f.WriteString(QuoteString(o.Key) + " = " + QuoteString(o.Value))
	}
	f.WriteString(")")
}

func (f *formatter) tableRef(r ast.TableRef) {
	switch r := r.(type) {
	case *ast.TableName:
		f.WriteString(formatName(r.Name.Parts))
		if len(r.Options) > 0 {
			f.WriteString(" /*+ OPTIONS")
			f.hintOptions(r.Options)
			f.WriteString(" */")
		}
		if r.AsOf != nil {
			f.WriteString(" FOR SYSTEM_TIME AS OF ")
			f.expr(r.AsOf)
		}
		f.alias(r.Alias, r.ColumnAliases)
	case *ast.SubqueryRef:
		if r.Lateral {
			f.WriteString("LATERAL ")
		}
		f.subquery(r.Query)
		f.alias(r.Alias, r.ColumnAliases)
	case *ast.TableFunctionRef:
		if r.Lateral {
			f.WriteString("LATERAL ")
		}
		f.WriteString("TABLE(")
		f.call(r.Call)
		f.WriteString(")")
		f.alias(r.Alias, r.ColumnAliases)
	case *ast.MatchRecognize:
		f.matchRecognize(r)
	case *ast.UnnestRef:
		f.WriteString("UNNEST(")
		f.exprs(append([]ast.Expr{r.Collection}, r.More...))
		f.WriteString(")")
		if r.Ordinality {
			f.WriteString(" WITH ORDINALITY")
		}
		f.alias(r.Alias, r.ColumnAliases)
	case *ast.Join:
		f.tableRef(r.Left)
		f.WriteString(" " + r.Kind.String() + " JOIN ")
		if _, nested := r.Right.(*ast.Join); nested {
			f.WriteString("(")
			f.tableRef(r.Right)
			f.WriteString(")")
		} else {
			f.tableRef(r.Right)
		}
		switch {
		case r.On != nil:
			f.WriteString(" ON ")
			f.expr(r.On)
		case len(r.Using) > 0:
			f.WriteString(" USING (")
			f.names(r.Using)
			f.WriteString(")")
		}
	}
}

func (f *formatter) alias(alias string, cols []string) {
	if alias == "" {
		return
	}
	f.WriteString(" AS " + quoteIdent(alias))
	if len(cols) > 0 {
		f.WriteString("(")
		f.names(cols)
		f.WriteString(")")
	}
}

var (
	plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$]*$`)
	plainFunc  = regexp.MustCompile(`^[A-Z_][A-Z0-9_$]*$`)
)

// quoteIdent backquotes name unless it reads back as the same identifier.
func quoteIdent(name string) string {
	up := strings.ToUpper(name)
	if plainIdent.MatchString(name) && !reserved[up] && !niladic[up] {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

func formatName(parts []string) string {
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = quoteIdent(p)
	}
	return strings.Join(quoted, ".")
}

// formatFuncName renders a function name. Unquoted function names and
// argument names are upper-cased when parsed, so parts that are not upper
// case are backquoted to read back unchanged.
func formatFuncName(name string) string {
	parts := strings.Split(name, ".")
	for i, p := range parts {
		if reserved[p] {
			parts[i] = "`" + p + "`"
		} else {
			parts[i] = formatArgName(p)
		}
	}
	return strings.Join(parts, ".")
}

// formatArgName renders the name of a named argument, which may be any word.
func formatArgName(name string) string {
	if plainFunc.MatchString(name) {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// literalKeyword is the keyword introducing a typed literal of each kind.
var literalKeyword = map[types.Kind]string{
	types.Date:         "DATE",
	types.Time:         "TIME",
	types.Timestamp:    "TIMESTAMP",
	types.TimestampLTZ: "TIMESTAMP_LTZ",
}

// QuoteString renders s as a SQL string literal, quotes doubled.
func QuoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
