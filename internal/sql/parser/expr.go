package parser

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// Operator precedence, loosest first: OR, AND, NOT, comparisons and the
// IS / BETWEEN / IN / LIKE predicates, + - ||, * / %, unary + -.

func (p *parser) expr() ast.Expr {
	p.enter()
	defer p.leave()
	return p.or()
}

// exprList parses one or more comma-separated expressions.
func (p *parser) exprList() []ast.Expr {
	list := []ast.Expr{p.expr()}
	for p.acceptOp(",") {
		list = append(list, p.expr())
	}
	return list
}

func (p *parser) or() ast.Expr {
	defer p.restoreLinks(p.links)
	l := p.and()
	for p.isKw("OR") {
		p.link(p.next().pos)
		l = &ast.Binary{Pos: l.Position(), Op: "OR", L: l, R: p.and()}
	}
	return l
}

func (p *parser) and() ast.Expr {
	defer p.restoreLinks(p.links)
	l := p.not()
	for p.isKw("AND") {
		p.link(p.next().pos)
		l = &ast.Binary{Pos: l.Position(), Op: "AND", L: l, R: p.not()}
	}
	return l
}

func (p *parser) not() ast.Expr {
	if t := p.tok(); p.pending == nil && word(t) == "NOT" {
		p.enter()
		defer p.leave()
		p.next()
		return &ast.Unary{Pos: t.pos, Op: "NOT", X: p.not()}
	}
	return p.predicate()
}

// predicate parses an additive expression followed by any comparisons and
// IS, BETWEEN, IN, LIKE and SIMILAR TO predicates.
func (p *parser) predicate() ast.Expr {
	defer p.restoreLinks(p.links)
	l := p.additive()
	for {
		t := p.tok()
		if t.kind == tOp {
			switch t.text {
			case "=", "<>", "!=", "<", "<=", ">", ">=":
				p.link(t.pos)
				p.next()
				op := t.text
				if op == "!=" {
					op = "<>"
				}
				if q := word(p.tok()); (q == "ANY" || q == "SOME" || q == "ALL") && isOp(p.peek(1), "(") {
					l = p.quantified(l, op)
					continue
				}
				l = &ast.Binary{Pos: l.Position(), Op: op, L: l, R: p.additive()}
				continue
			}
			return l
		}
		w, not := word(t), false
		if w == "OVERLAPS" && isOp(p.peek(1), "(") {
			if row, ok := l.(*ast.RowExpr); ok && len(row.Items) == 2 {
				l = p.overlaps(row)
				continue
			}
		}
		switch w {
		case "NOT", "BETWEEN", "IN", "LIKE", "SIMILAR", "IS":
			p.link(t.pos)
		}
		if w == "NOT" {
			switch word(p.peek(1)) {
			case "BETWEEN", "IN", "LIKE", "SIMILAR":
				p.next()
				w, not = word(p.tok()), true
			default:
				return l
			}
		}
		switch w {
		case "BETWEEN":
			p.next()
			b := &ast.Between{Pos: l.Position(), X: l, Not: not}
			if p.acceptKw("SYMMETRIC") {
				b.Symmetric = true
			} else {
				p.acceptKw("ASYMMETRIC")
			}
			b.Lo = p.additive()
			p.expectKw("AND")
			b.Hi = p.additive()
			l = b
		case "IN":
			l = p.in(l, not)
		case "LIKE", "SIMILAR":
			p.next()
			lk := &ast.Like{Pos: l.Position(), X: l, Not: not, Similar: w == "SIMILAR"}
			if lk.Similar {
				p.expectKw("TO")
			}
			lk.Pattern = p.additive()
			if p.acceptKw("ESCAPE") {
				lk.Escape = p.additive()
			}
			l = lk
		case "IS":
			l = p.is(l)
		default:
			return l
		}
	}
}

// overlaps parses the period after (start, end) OVERLAPS and returns the
// predicate as a call of OVERLAPS with the four bounds.
func (p *parser) overlaps(left *ast.RowExpr) ast.Expr {
	p.link(p.next().pos)
	r := p.tok()
	right, ok := p.additive().(*ast.RowExpr)
	if !ok || len(right.Items) != 2 {
		p.failAt(r.pos, "OVERLAPS expects a period (start, end) on each side")
	}
	return &ast.FuncCall{Pos: left.Pos, Name: "OVERLAPS", Args: []ast.Expr{left.Items[0], left.Items[1], right.Items[0], right.Items[1]}}
}

// quantified parses the ANY, SOME or ALL (subquery or list) after x op,
// an ast.Quantified, which the planner rewrites.
func (p *parser) quantified(x ast.Expr, op string) ast.Expr {
	q := p.next()
	n := &ast.Quantified{Pos: x.Position(), Op: op, Quantifier: word(q), At: q.pos, Left: x}
	list := isOp(p.tok(), "(") && !p.queryAhead()
	open := p.expectOp("(").pos
	if list {
		n.List = p.exprList()
	} else {
		n.Subquery = p.query()
	}
	p.closeParen(open)
	return n
}

func (p *parser) in(x ast.Expr, not bool) ast.Expr {
	p.next()
	in := &ast.In{Pos: x.Position(), X: x, Not: not}
	open := p.expectOp("(").pos
	switch word(p.tok()) {
	case "SELECT", "WITH", "VALUES":
		in.Subquery = p.query()
	default:
		in.List = p.exprList()
	}
	p.closeParen(open)
	return in
}

func (p *parser) is(x ast.Expr) ast.Expr {
	p.next()
	not := p.acceptKw("NOT")
	switch w := word(p.tok()); w {
	case "NULL", "TRUE", "FALSE", "UNKNOWN":
		p.next()
		return &ast.IsPredicate{Pos: x.Position(), X: x, What: w, Not: not}
	case "DISTINCT":
		p.next()
		p.expectKw("FROM")
		return &ast.IsDistinctFrom{Pos: x.Position(), L: x, R: p.additive(), Not: not}
	case "JSON":
		// x IS [NOT] JSON [VALUE | SCALAR | ARRAY | OBJECT]: a call of
		// "IS JSON VALUE" (...), negated for NOT.
		p.next()
		kind := "VALUE"
		if w := word(p.tok()); w == "VALUE" || w == "SCALAR" || w == "ARRAY" || w == "OBJECT" {
			kind = w
			p.next()
		}
		var out ast.Expr = &ast.FuncCall{Pos: x.Position(), Name: "IS JSON " + kind, Args: []ast.Expr{x}}
		if not {
			out = &ast.Unary{Pos: x.Position(), Op: "NOT", X: out}
		}
		return out
	}
	p.unexpected("NULL, TRUE, FALSE, UNKNOWN, DISTINCT FROM or JSON after IS")
	return nil
}

func (p *parser) additive() ast.Expr {
	defer p.restoreLinks(p.links)
	l := p.multiplicative()
	for {
		t := p.tok()
		if !isOp(t, "+") && !isOp(t, "-") && !isOp(t, "||") {
			return l
		}
		p.link(t.pos)
		p.next()
		l = &ast.Binary{Pos: l.Position(), Op: t.text, L: l, R: p.multiplicative()}
	}
}

func (p *parser) multiplicative() ast.Expr {
	defer p.restoreLinks(p.links)
	l := p.unary()
	for {
		t := p.tok()
		if !isOp(t, "*") && !isOp(t, "/") && !isOp(t, "%") {
			return l
		}
		p.link(t.pos)
		p.next()
		l = &ast.Binary{Pos: l.Position(), Op: t.text, L: l, R: p.unary()}
	}
}

func (p *parser) unary() ast.Expr {
	if t := p.tok(); p.pending == nil && (isOp(t, "-") || isOp(t, "+")) {
		p.enter()
		defer p.leave()
		p.next()
		return &ast.Unary{Pos: t.pos, Op: t.text, X: p.unary()}
	}
	return p.primary()
}

// niladic lists the functions called without parentheses.
var niladic = map[string]bool{
	"CURRENT_TIMESTAMP": true,
	"CURRENT_DATE":      true,
	"CURRENT_TIME":      true,
	"LOCALTIMESTAMP":    true,
	"LOCALTIME":         true,
	"CURRENT_CATALOG":   true,
}

// primary parses a primary expression and the element and field accesses
// after it: x[i], m[k], r.f (Flink's value access functions).
func (p *parser) primary() ast.Expr {
	e := p.primaryBase()
	for {
		switch t := p.tok(); {
		case isOp(t, "["):
			p.enter()
			p.next()
			i := p.expr()
			if !p.isOp("]") {
				p.unexpected(fmt.Sprintf("']' to close the '[' at line %d, column %d", t.pos.Line, t.pos.Col))
			}
			p.next()
			p.leave()
			e = &ast.FuncCall{Pos: t.pos, Name: "$ITEM", Args: []ast.Expr{e, i}}
		case isOp(t, ".") && isName(p.peek(1)):
			p.next()
			f := p.next()
			e = &ast.FuncCall{Pos: f.pos, Name: "$DOT", Args: []ast.Expr{e, &ast.Literal{Pos: f.pos, Kind: ast.StringLit, Text: f.text}}}
		default:
			return e
		}
	}
}

// constructor parses ARRAY[...] or MAP[...]; the current token is the '['.
func (p *parser) constructor(pos ast.Pos, name string) ast.Expr {
	open := p.next().pos
	fc := &ast.FuncCall{Pos: pos, Name: name}
	if !p.isOp("]") {
		fc.Args = p.exprList()
	}
	if !p.isOp("]") {
		p.unexpected(fmt.Sprintf("',' or ']' to close the '[' at line %d, column %d", open.Line, open.Col))
	}
	p.next()
	return fc
}

func (p *parser) primaryBase() ast.Expr {
	if e := p.pending; e != nil {
		p.pending = nil
		return e
	}
	t := p.tok()
	switch t.kind {
	case tNumber:
		p.next()
		return &ast.Literal{Pos: t.pos, Kind: ast.NumberLit, Text: t.text}
	case tString:
		p.next()
		return &ast.Literal{Pos: t.pos, Kind: ast.StringLit, Text: t.text}
	case tBinary:
		p.next()
		return &ast.Literal{Pos: t.pos, Kind: ast.BinaryLit, Text: t.text}
	case tUnicode:
		return p.unicodeString()
	case tOp:
		if t.text == "(" {
			return p.paren()
		}
		p.unexpected("an expression")
	}
	w := word(t)
	switch w {
	case "TRUE", "FALSE":
		p.next()
		return &ast.Literal{Pos: t.pos, Kind: ast.BoolLit, Text: w}
	case "NULL":
		p.next()
		return &ast.Literal{Pos: t.pos, Kind: ast.NullLit, Text: w}
	case "INTERVAL":
		return p.interval()
	case "ARRAY", "MAP":
		if isOp(p.peek(1), "[") {
			p.next()
			return p.constructor(t.pos, "$"+w)
		}
	case "CASE":
		return p.caseExpr()
	case "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ":
		if p.peek(1).kind == tString {
			return p.typedLiteral()
		}
	case "TABLE":
		if isName(p.peek(1)) {
			p.next()
			arg := &ast.TableArg{Pos: t.pos, Name: p.objectName("a table name")}
			if p.acceptKw("PARTITION") {
				p.expectKw("BY")
				if p.isOp("(") {
					arg.PartitionBy = p.identList("a column name")
				} else {
					arg.PartitionBy = []string{p.ident("a column name")}
				}
			}
			return arg
		}
	}
	if niladic[w] && !isOp(p.peek(1), "(") {
		p.next()
		return &ast.FuncCall{Pos: t.pos, Name: w}
	}
	if isOp(p.peek(1), "(") {
		if e := p.specialForm(w); e != nil {
			return e
		}
		if w == "LEFT" || w == "RIGHT" {
			// the string functions LEFT(s, n) and RIGHT(s, n): reserved
			// words (of joins), but calls where an expression starts
			p.next()
			return p.call(t.pos, w)
		}
	}
	return p.identOrCall()
}

// paren parses a parenthesized expression, a row (a, b) or a scalar
// subquery.
func (p *parser) paren() ast.Expr {
	open := p.tok().pos
	q, e := p.parenthesized()
	if q != nil {
		return &ast.SubqueryExpr{Pos: open, Query: q}
	}
	return e
}

// parenthesized parses '(' ... ')' holding either a query or an expression
// (or row) and returns the one it found. An expression may itself start
// with a parenthesized query, as in ((SELECT 1) + 1), so a leading
// parenthesized query is parsed first and then continued as whichever it
// turns out to begin.
func (p *parser) parenthesized() (ast.Query, ast.Expr) {
	p.enter()
	defer p.leave()
	open := p.next().pos
	switch word(p.tok()) {
	case "SELECT", "WITH", "VALUES":
		q := p.query()
		p.closeParen(open)
		return q, nil
	}
	if p.isOp("(") && p.queryAhead() {
		inner := p.tok().pos
		q, e := p.parenthesized()
		if q != nil {
			switch w := word(p.tok()); {
			case p.isOp(")"), w == "UNION", w == "INTERSECT", w == "EXCEPT", w == "MINUS",
				w == "ORDER", w == "LIMIT", w == "OFFSET", w == "FETCH":
				p.pendingQuery = q
				q = p.query()
				p.closeParen(open)
				return q, nil
			}
			e = &ast.SubqueryExpr{Pos: inner, Query: q}
		}
		p.pending = e
	}
	e := p.expr()
	if p.isOp(",") {
		row := &ast.RowExpr{Pos: open, Items: []ast.Expr{e}}
		for p.acceptOp(",") {
			row.Items = append(row.Items, p.expr())
		}
		e = row
	}
	p.closeParen(open)
	return nil, e
}

// identOrCall parses a possibly qualified identifier, or a function call
// if it is followed by '('.
func (p *parser) identOrCall() ast.Expr {
	t := p.tok()
	if !isName(t) {
		p.unexpected("an expression")
	}
	parts := []string{t.text}
	name := []string{funcNamePart(t)}
	p.next()
	for p.isOp(".") && isName(p.peek(1)) {
		p.next()
		part := p.next()
		parts = append(parts, part.text)
		name = append(name, funcNamePart(part))
	}
	if p.isOp("(") {
		fc := p.call(t.pos, strings.Join(name, "."))
		fc.Written = strings.Join(parts, ".")
		return fc
	}
	return &ast.Ident{Pos: t.pos, Parts: parts}
}

// funcNamePart returns a part of a function name: upper-cased unless quoted.
func funcNamePart(t token) string {
	if t.kind == tQuoted {
		return t.text
	}
	return strings.ToUpper(t.text)
}

// call parses the arguments of a function call and any FILTER or OVER
// clause; the current token is the '('.
func (p *parser) call(pos ast.Pos, name string) *ast.FuncCall {
	open := p.next().pos
	fc := &ast.FuncCall{Pos: pos, Name: name}
	switch {
	case p.isOp(")"):
	case p.isOp("*") && isOp(p.peek(1), ")"):
		p.next()
		fc.Star = true
	default:
		if p.acceptKw("DISTINCT") {
			fc.Distinct = true
		} else {
			p.acceptKw("ALL")
		}
		p.args(fc)
	}
	p.closeParen(open)
	p.filterOver(fc)
	return fc
}

// filterOver parses the FILTER and OVER clauses that may follow a call.
func (p *parser) filterOver(fc *ast.FuncCall) {
	if t := p.tok(); word(t) == "FILTER" {
		p.next()
		open := p.expectOp("(").pos
		p.expectKw("WHERE")
		fc.Filter = p.expr()
		p.closeParen(open)
	}
	if t := p.tok(); word(t) == "OVER" {
		p.next()
		fc.Over = p.window(t.pos)
	}
}

// args parses positional or named (name => value) arguments.
func (p *parser) args(fc *ast.FuncCall) {
	for {
		t := p.tok()
		named := (t.kind == tIdent || t.kind == tQuoted) && isOp(p.peek(1), "=>")
		if len(fc.Args) > 0 && named != (fc.ArgNames != nil) {
			p.failAt(t.pos, "cannot mix named and positional arguments")
		}
		if named {
			p.next()
			p.next()
			fc.ArgNames = append(fc.ArgNames, funcNamePart(t))
		}
		fc.Args = append(fc.Args, p.expr())
		if !p.acceptOp(",") {
			return
		}
	}
}

// window parses what follows OVER: a window name or (...).
func (p *parser) window(pos ast.Pos) *ast.WindowSpec {
	if t := p.tok(); isName(t) {
		p.next()
		return &ast.WindowSpec{Pos: t.pos, Ref: t.text, RefPos: t.pos, Named: true}
	}
	if !p.isOp("(") {
		p.unexpected("'(' or a window name after OVER")
	}
	return p.windowSpec(pos)
}

// windowSpec parses ([window name] [PARTITION BY ...] [ORDER BY ...]
// [frame]), the current token being the '('.
func (p *parser) windowSpec(pos ast.Pos) *ast.WindowSpec {
	open := p.next().pos
	w := &ast.WindowSpec{Pos: pos}
	if t := p.tok(); isName(t) {
		p.next()
		w.Ref, w.RefPos = t.text, t.pos
	}
	if p.acceptKw("PARTITION") {
		p.expectKw("BY")
		w.PartitionBy = p.exprList()
	}
	if p.acceptKw("ORDER") {
		p.expectKw("BY")
		w.OrderBy = p.orderItems()
	}
	if t := p.tok(); word(t) == "ROWS" || word(t) == "RANGE" {
		p.next()
		f := &ast.Frame{Pos: t.pos, Rows: word(t) == "ROWS"}
		if p.acceptKw("BETWEEN") {
			f.Lo = p.frameBound()
			p.expectKw("AND")
			f.Hi = p.frameBound()
		} else {
			f.Lo = p.frameBound()
			f.Hi = &ast.FrameBound{Pos: f.Lo.Pos, Kind: "CURRENT ROW"}
		}
		w.Frame = f
	}
	p.closeParen(open)
	return w
}

func (p *parser) frameBound() *ast.FrameBound {
	b := &ast.FrameBound{Pos: p.tok().pos}
	switch {
	case p.acceptKw("UNBOUNDED"):
		if p.acceptKw("PRECEDING") {
			b.Kind = "UNBOUNDED PRECEDING"
		} else {
			p.expectKw("FOLLOWING")
			b.Kind = "UNBOUNDED FOLLOWING"
		}
	case p.acceptKw("CURRENT"):
		p.expectKw("ROW")
		b.Kind = "CURRENT ROW"
	default:
		b.Offset = p.additive()
		switch {
		case p.acceptKw("PRECEDING"):
			b.Kind = "PRECEDING"
		case p.acceptKw("FOLLOWING"):
			b.Kind = "FOLLOWING"
		default:
			p.unexpected("PRECEDING or FOLLOWING")
		}
	}
	return b
}

func (p *parser) caseExpr() ast.Expr {
	t := p.next()
	c := &ast.Case{Pos: t.pos}
	if !p.isKw("WHEN") {
		c.Operand = p.expr()
	}
	for p.isKw("WHEN") {
		w := &ast.When{Pos: p.next().pos, Cond: p.expr()}
		for c.Operand != nil && p.acceptOp(",") {
			w.More = append(w.More, p.expr())
		}
		p.expectKw("THEN")
		w.Result = p.expr()
		c.Whens = append(c.Whens, w)
	}
	if len(c.Whens) == 0 {
		p.unexpected("WHEN")
	}
	if p.acceptKw("ELSE") {
		c.Else = p.expr()
	}
	if !p.isKw("END") {
		p.unexpected(fmt.Sprintf("END to close CASE at line %d, column %d", t.pos.Line, t.pos.Col))
	}
	p.next()
	return c
}

// typedLiteral parses DATE, TIME, TIMESTAMP or TIMESTAMP_LTZ 'text'. A time
// or timestamp literal's precision is its number of fractional digits.
func (p *parser) typedLiteral() ast.Expr {
	t := p.next()
	lit := &ast.TypedLiteral{Pos: t.pos, Value: p.next().text}
	switch word(t) {
	case "DATE":
		lit.Type = types.Type{Kind: types.Date}
	case "TIME":
		lit.Type = types.Type{Kind: types.Time}
	case "TIMESTAMP":
		lit.Type = types.Type{Kind: types.Timestamp}
	default:
		lit.Type = types.Type{Kind: types.TimestampLTZ}
	}
	lit.Type.NotNull = true
	if lit.Type.Kind != types.Date {
		if i := strings.LastIndexByte(lit.Value, '.'); i >= 0 && strings.Contains(lit.Value[:i], ":") {
			n := 0
			for n < len(lit.Value)-i-1 && isDigit(lit.Value[i+1+n]) {
				n++
			}
			lit.Type.Precision = min(n, 9)
		}
	}
	return lit
}

// unitWords maps the spellings of time units, plural ones included.
var unitWords = func() map[string]ast.TimeUnit {
	m := map[string]ast.TimeUnit{
		"DOW": ast.DayOfWeek, "DOY": ast.DayOfYear, "EPOCH": ast.Epoch,
	}
	for _, u := range []ast.TimeUnit{
		ast.Year, ast.Quarter, ast.Month, ast.Week, ast.Day, ast.Hour, ast.Minute,
		ast.Second, ast.Millisecond, ast.Microsecond, ast.Nanosecond,
	} {
		m[string(u)] = u
		m[string(u)+"S"] = u
	}
	return m
}()

// unitExpr parses a time unit used as an argument.
func (p *parser) unitExpr() *ast.TimeUnitExpr {
	t := p.tok()
	u, ok := unitWords[word(t)]
	if !ok {
		p.unexpected("a time unit such as HOUR or DAY")
	}
	p.next()
	return &ast.TimeUnitExpr{Pos: t.pos, Unit: u}
}

// intervalUnits orders the units an interval literal may use.
var intervalUnits = []ast.TimeUnit{ast.Year, ast.Month, ast.Day, ast.Hour, ast.Minute, ast.Second}

// intervalUnit parses the unit of an interval and its optional precisions
// (-1 when not given), returning the unit's rank in intervalUnits.
func (p *parser) intervalUnit() (u ast.TimeUnit, rank, precision, fraction int) {
	u, ok := unitWords[word(p.tok())]
	rank = -1
	for i, iu := range intervalUnits {
		if ok && u == iu {
			rank = i
		}
	}
	if rank < 0 {
		p.unexpected("an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE or SECOND)")
	}
	p.next()
	precision, fraction = -1, -1
	if p.isOp("(") {
		open := p.next().pos
		precision = p.intArg("a precision")
		if p.acceptOp(",") {
			fraction = p.intArg("a precision")
		}
		p.closeParen(open)
	}
	return u, rank, precision, fraction
}

// interval parses INTERVAL [-]'value' unit[(p[, f])] [TO unit[(f)]].
func (p *parser) interval() ast.Expr {
	iv := &ast.IntervalLiteral{Pos: p.next().pos}
	if p.acceptOp("-") {
		iv.Negative = true
	} else {
		p.acceptOp("+")
	}
	if t := p.tok(); t.kind == tString || t.kind == tNumber {
		iv.Value = p.next().text
	} else {
		p.unexpected("an interval value such as '1'")
	}
	qual := p.tok().pos
	u, from, precision, fraction := p.intervalUnit()
	iv.Unit = u
	if t := p.tok(); word(t) == "TO" {
		p.next()
		to, toRank, toPrecision, toFraction := p.intervalUnit()
		// YEAR TO MONTH, or from DAY, HOUR or MINUTE to a finer unit.
		yearMonth := u == ast.Year && to == ast.Month
		dayTime := from >= 2 && toRank > from
		if !yearMonth && !dayTime || fraction >= 0 || toFraction >= 0 || toPrecision >= 0 && to != ast.Second {
			p.failAt(t.pos, "invalid interval qualifier %s TO %s", u, to)
		}
		iv.ToUnit, fraction = to, toPrecision
	} else if fraction >= 0 && u != ast.Second {
		p.failAt(qual, "invalid interval qualifier %s(%d, %d)", u, precision, fraction)
	}
	// Calcite's SqlValidatorImpl.validateIntervalQualifier: a leading
	// precision of 1 to 10, a fractional second precision of 1 to 9.
	iv.Precision, iv.FracPrecision = max(precision, 0), max(fraction, 0)
	if precision == 0 || precision > maxIntervalPrecision {
		p.failAt(qual, "Interval leading field precision '%d' out of range for INTERVAL %s(%d)", precision, u, precision)
	}
	if fraction == 0 || fraction > maxIntervalFraction {
		p.failAt(qual, "Interval fractional second precision '%d' out of range for INTERVAL %s", fraction, ast.IntervalQualifier(iv))
	}
	return iv
}

// The largest interval precisions (Calcite's
// SqlTypeName.MAX_INTERVAL_START_PRECISION and
// MAX_INTERVAL_FRACTIONAL_SECOND_PRECISION).
const (
	maxIntervalPrecision = 10
	maxIntervalFraction  = 9
)

// specialForm parses the functions with a syntax of their own; the current
// token is the name, followed by '('. It returns nil for other names.
func (p *parser) specialForm(name string) ast.Expr {
	t := p.tok()
	switch name {
	case "CAST", "TRY_CAST":
		p.next()
		open := p.next().pos
		c := &ast.Cast{Pos: t.pos, Try: name == "TRY_CAST", X: p.expr()}
		p.expectKw("AS")
		c.Type = p.dataType()
		p.closeParen(open)
		return c
	case "EXISTS":
		p.next()
		open := p.next().pos
		q := p.query()
		p.closeParen(open)
		return &ast.SubqueryExpr{Pos: t.pos, Query: q, Exists: true}
	case "ROW":
		p.next()
		open := p.next().pos
		row := &ast.RowExpr{Pos: t.pos}
		if !p.isOp(")") {
			row.Items = p.exprList()
		}
		p.closeParen(open)
		return row
	case "DESCRIPTOR":
		p.next()
		return &ast.Descriptor{Pos: t.pos, Columns: p.identList("a column name")}
	case "EXTRACT":
		return p.builtin(t.pos, name, func(fc *ast.FuncCall) {
			u := p.unitExpr()
			p.expectKw("FROM")
			fc.Args = []ast.Expr{u, p.expr()}
		})
	case "FLOOR", "CEIL", "CEILING":
		if name == "CEILING" {
			name = "CEIL"
		}
		return p.builtin(t.pos, name, func(fc *ast.FuncCall) {
			fc.Args = []ast.Expr{p.expr()}
			if p.acceptKw("TO") {
				fc.Args = append(fc.Args, p.unitExpr())
			}
		})
	case "TIMESTAMPDIFF", "TIMESTAMPADD":
		return p.builtin(t.pos, name, func(fc *ast.FuncCall) {
			u := p.unitExpr()
			p.expectOp(",")
			a := p.expr()
			p.expectOp(",")
			fc.Args = []ast.Expr{u, a, p.expr()}
		})
	case "SUBSTRING":
		return p.builtin(t.pos, name, func(fc *ast.FuncCall) {
			fc.Args = []ast.Expr{p.expr()}
			switch {
			case p.acceptKw("FROM"):
				fc.Args = append(fc.Args, p.expr())
				if p.acceptKw("FOR") {
					fc.Args = append(fc.Args, p.expr())
				}
			case p.acceptOp(","):
				fc.Args = append(fc.Args, p.expr())
				if p.acceptOp(",") {
					fc.Args = append(fc.Args, p.expr())
				}
			default:
				p.unexpected("FROM or ','")
			}
		})
	case "POSITION":
		return p.builtin(t.pos, name, func(fc *ast.FuncCall) {
			needle := p.additive()
			p.expectKw("IN")
			fc.Args = []ast.Expr{needle, p.expr()}
		})
	case "OVERLAY":
		return p.builtin(t.pos, name, func(fc *ast.FuncCall) {
			s := p.expr()
			p.expectKw("PLACING")
			r := p.expr()
			p.expectKw("FROM")
			fc.Args = []ast.Expr{s, r, p.expr()}
			if p.acceptKw("FOR") {
				fc.Args = append(fc.Args, p.expr())
			}
		})
	case "TRIM":
		return p.builtin(t.pos, name, p.trimArgs)
	case "JSON_OBJECT":
		return p.builtin(t.pos, name, func(fc *ast.FuncCall) { p.jsonArgs(fc, true) })
	case "JSON_ARRAY":
		return p.builtin(t.pos, name, func(fc *ast.FuncCall) { p.jsonArgs(fc, false) })
	case "JSON_OBJECTAGG", "JSON_OBJECTAGG_ABSENT_ON_NULL", "JSON_ARRAYAGG", "JSON_ARRAYAGG_NULL_ON_NULL":
		return p.jsonAgg(name)
	case "JSON_VALUE":
		return p.builtin(t.pos, name, p.jsonValueArgs)
	case "JSON_QUERY":
		return p.builtin(t.pos, name, p.jsonQueryArgs)
	case "JSON_EXISTS":
		return p.builtin(t.pos, name, func(fc *ast.FuncCall) {
			fc.Args = []ast.Expr{p.expr()}
			p.expectOp(",")
			fc.Args = append(fc.Args, p.expr())
			if w := word(p.tok()); w == "TRUE" || w == "FALSE" || w == "UNKNOWN" || w == "ERROR" {
				pos := p.next().pos
				p.expectKw("ON", "ERROR")
				fc.Args = append(fc.Args, &ast.TimeUnitExpr{Pos: pos, Unit: ast.TimeUnit(w + " ON ERROR")})
			}
		})
	}
	return nil
}

// jsonQueryHead parses the json and path arguments of JSON_VALUE and
// JSON_QUERY and their optional RETURNING clause, which it passes on as a
// NULL cast to the type (STRING unless given).
func (p *parser) jsonQueryHead(fc *ast.FuncCall) {
	fc.Args = []ast.Expr{p.expr()}
	p.expectOp(",")
	fc.Args = append(fc.Args, p.expr())
	pos := p.tok().pos
	returning := types.StringType
	if p.acceptKw("RETURNING") {
		returning = p.dataType()
	}
	fc.Args = append(fc.Args, &ast.Cast{Pos: pos, X: &ast.Literal{Pos: pos, Kind: ast.NullLit, Text: "NULL"}, Type: returning})
}

// jsonValueArgs parses the arguments of JSON_VALUE(json, path [RETURNING
// type] [{NULL | ERROR | DEFAULT expr} ON EMPTY] [{NULL | ERROR | DEFAULT
// expr} ON ERROR]) into (json, path, CAST(NULL AS type), behavior on empty,
// its default, behavior on error, its default): the typed NULL carries the
// RETURNING type (STRING unless given), the behaviors are units ("NULL",
// "ERROR" or "DEFAULT") and each default is an expression (a NULL when
// there is none).
func (p *parser) jsonValueArgs(fc *ast.FuncCall) {
	p.jsonQueryHead(fc)
	for _, on := range []string{"EMPTY", "ERROR"} {
		at := p.tok().pos
		behavior := &ast.TimeUnitExpr{Pos: at, Unit: "NULL"}
		var def ast.Expr = &ast.Literal{Pos: at, Kind: ast.NullLit, Text: "NULL"}
		switch w := word(p.tok()); w {
		case "NULL", "ERROR", "DEFAULT":
			// ERROR ON ERROR and NULL ON ERROR without an ON EMPTY clause
			// before them: the clause is ON ERROR's.
			if on == "EMPTY" && w != "DEFAULT" && word(p.peek(2)) == "ERROR" {
				break
			}
			if on == "EMPTY" && w == "DEFAULT" && !p.defaultIsFor("EMPTY") {
				break
			}
			p.next()
			behavior.Unit = ast.TimeUnit(w)
			if w == "DEFAULT" {
				def = p.expr()
			}
			p.expectKw("ON", on)
		}
		fc.Args = append(fc.Args, behavior, def)
	}
}

// defaultIsFor reports whether the DEFAULT expr clause at the current token
// ends with ON which (EMPTY or ERROR), looking ahead without consuming.
func (p *parser) defaultIsFor(which string) bool {
	depth := 0
	for i := 1; ; i++ {
		t := p.peek(i)
		switch {
		case t.kind == tEOF:
			return false
		case t.kind == tOp && t.text == "(":
			depth++
		case t.kind == tOp && t.text == ")":
			if depth == 0 {
				return false
			}
			depth--
		case depth == 0 && word(t) == "ON":
			return word(p.peek(i+1)) == which
		}
	}
}

// jsonQueryArgs parses the arguments of JSON_QUERY(json, path [RETURNING
// type] [{WITHOUT | WITH [CONDITIONAL | UNCONDITIONAL]} [ARRAY] WRAPPER]
// [{NULL | EMPTY ARRAY | EMPTY OBJECT | ERROR} ON EMPTY] [... ON ERROR])
// into (json, path, CAST(NULL AS type), wrapper, on empty, on error), the
// last three as units: "WITHOUT ARRAY", "CONDITIONAL ARRAY" or
// "UNCONDITIONAL ARRAY" (WITH alone is UNCONDITIONAL), and "NULL", "EMPTY
// ARRAY", "EMPTY OBJECT" or "ERROR".
func (p *parser) jsonQueryArgs(fc *ast.FuncCall) {
	p.jsonQueryHead(fc)
	wrapper := &ast.TimeUnitExpr{Pos: p.tok().pos, Unit: "WITHOUT ARRAY"}
	switch word(p.tok()) {
	case "WITHOUT":
		p.next()
		p.acceptKw("ARRAY")
		p.expectKw("WRAPPER")
	case "WITH":
		p.next()
		wrapper.Unit = "UNCONDITIONAL ARRAY"
		if p.acceptKw("CONDITIONAL") {
			wrapper.Unit = "CONDITIONAL ARRAY"
		} else {
			p.acceptKw("UNCONDITIONAL")
		}
		p.acceptKw("ARRAY")
		p.expectKw("WRAPPER")
	}
	fc.Args = append(fc.Args, wrapper)
	for _, on := range []string{"EMPTY", "ERROR"} {
		behavior := &ast.TimeUnitExpr{Pos: p.tok().pos, Unit: "NULL"}
		var what string
		n := 1
		switch w := word(p.tok()); w {
		case "NULL", "ERROR":
			what = w
		case "EMPTY":
			if w2 := word(p.peek(1)); w2 == "ARRAY" || w2 == "OBJECT" {
				what, n = "EMPTY "+w2, 2
			}
		}
		if what != "" && word(p.peek(n)) == "ON" && word(p.peek(n+1)) == on {
			for range n {
				p.next()
			}
			p.expectKw("ON", on)
			behavior.Unit = ast.TimeUnit(what)
		}
		fc.Args = append(fc.Args, behavior)
	}
}

// builtin parses name(...) with args parsing what is between the
// parentheses.
func (p *parser) builtin(pos ast.Pos, name string, args func(*ast.FuncCall)) ast.Expr {
	p.next()
	open := p.next().pos
	fc := &ast.FuncCall{Pos: pos, Name: name}
	args(fc)
	p.closeParen(open)
	return fc
}

// jsonArgs parses the arguments of JSON_OBJECT([[KEY] k VALUE v, ...]
// [{NULL|ABSENT} ON NULL]) and JSON_ARRAY([v, ...] [{NULL|ABSENT} ON
// NULL]): the ON NULL clause first (NULL ON NULL by default for objects,
// ABSENT ON NULL for arrays), then the keys and values. A value inserted
// as JSON — a JSON_OBJECT or JSON_ARRAY call, or JSON(x) — is preceded by
// the unit JSON (and JSON(x) becomes x).
func (p *parser) jsonArgs(fc *ast.FuncCall, object bool) {
	onNull := &ast.TimeUnitExpr{Pos: p.tok().pos, Unit: "ABSENT ON NULL"}
	if object {
		onNull.Unit = "NULL ON NULL"
	}
	fc.Args = []ast.Expr{onNull}
	onNullClause := func() bool {
		w := word(p.tok())
		if (w == "NULL" || w == "ABSENT") && word(p.peek(1)) == "ON" {
			p.next()
			p.next()
			p.expectKw("NULL")
			onNull.Unit = ast.TimeUnit(w + " ON NULL")
			return true
		}
		return false
	}
	value := func() {
		e := p.expr()
		if c, ok := e.(*ast.FuncCall); ok && len(c.Args) == 1 && c.Name == "JSON" && c.Over == nil && c.Filter == nil {
			e = c.Args[0]
		} else if !ok || c.Name != "JSON_OBJECT" && c.Name != "JSON_ARRAY" {
			fc.Args = append(fc.Args, e)
			return
		}
		fc.Args = append(fc.Args, &ast.TimeUnitExpr{Pos: e.Position(), Unit: "JSON"}, e)
	}
	if p.isOp(")") || onNullClause() {
		return
	}
	for {
		if object {
			if word(p.tok()) == "KEY" && word(p.peek(1)) != "VALUE" {
				p.next()
			}
			fc.Args = append(fc.Args, p.expr())
			p.expectKw("VALUE")
		}
		value()
		if onNullClause() || !p.acceptOp(",") {
			return
		}
	}
}

// trimArgs parses the arguments of TRIM([BOTH|LEADING|TRAILING] [chars]
// FROM x) or TRIM(x).
func (p *parser) trimArgs(fc *ast.FuncCall) {
	fc.TrimMode = "BOTH"
	switch w := word(p.tok()); w {
	case "BOTH", "LEADING", "TRAILING":
		p.next()
		fc.TrimMode = w
		if p.acceptKw("FROM") {
			fc.Args = []ast.Expr{p.expr()}
			return
		}
		chars := p.expr()
		p.expectKw("FROM")
		fc.Args = []ast.Expr{p.expr(), chars}
		return
	}
	first := p.expr()
	if p.acceptKw("FROM") {
		fc.Args = []ast.Expr{p.expr(), first}
		return
	}
	fc.Args = []ast.Expr{first}
}

// unicodeString parses a Unicode string literal, U&'...' [UESCAPE 'c'], as
// Calcite does (SqlLiteral.unescapeUnicode, SqlParserUtil
// .checkUnicodeEscapeChar): the escape character (a backslash unless
// UESCAPE names another) followed by four hex digits is that UTF-16 code
// unit, doubled it stands for itself.
func (p *parser) unicodeString() ast.Expr {
	t := p.next()
	esc := '\\'
	if p.isKw("UESCAPE") {
		p.next()
		e := p.tok()
		s := p.stringLit("a string literal of one character")
		r := []rune(s)
		if len(r) != 1 {
			p.failAt(e.pos, "Unicode escape character '%s' must have length 1", s)
		}
		c := r[0]
		if c >= '0' && c <= '9' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '+' || c == '"' ||
			c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' {
			p.failAt(e.pos, "Unicode escape character '%s' is illegal", s)
		}
		esc = c
	}
	text, bad, lone := unescapeUnicode(t.text, esc)
	if bad >= 0 {
		p.failAt(t.pos, "Unicode escape sequence starting at character %d is not exactly four hex digits", bad)
	}
	if lone >= 0 {
		// Calcite keeps the lone code unit, which Flink's UTF-8 encoding
		// then replaces with '?'.
		p.failAt(t.pos, "Unicode escape sequence starting at character %d is a lone UTF-16 surrogate, which encodes no character", lone)
	}
	return &ast.Literal{Pos: t.pos, Kind: ast.StringLit, Text: text}
}

// unescapeUnicode decodes the escapes of a Unicode string literal's text;
// bad is the index (in characters) of a malformed escape, lone of an
// escape of a surrogate that is not half of a pair, or -1.
func unescapeUnicode(s string, esc rune) (text string, bad, lone int) {
	r := []rune(s)
	var units []uint16
	// at is where each escaped surrogate's escape starts, by its unit.
	at := map[int]int{}
	for i := 0; i < len(r); i++ {
		if r[i] != esc {
			units = utf16.AppendRune(units, r[i])
			continue
		}
		if i+1 < len(r) && r[i+1] == esc {
			units = utf16.AppendRune(units, esc)
			i++
			continue
		}
		if i+4 >= len(r) {
			return "", i, -1
		}
		v, err := strconv.ParseUint(string(r[i+1:i+5]), 16, 16)
		if err != nil {
			return "", i, -1
		}
		if utf16.IsSurrogate(rune(v)) {
			at[len(units)] = i
		}
		units = append(units, uint16(v))
		i += 4
	}
	for j := 0; j < len(units); j++ {
		if !utf16.IsSurrogate(rune(units[j])) {
			continue
		}
		if j+1 < len(units) && units[j] < 0xdc00 && units[j+1] >= 0xdc00 && units[j+1] <= 0xdfff {
			j++ // a pair
			continue
		}
		return "", -1, at[j]
	}
	return string(utf16.Decode(units)), -1, -1
}
