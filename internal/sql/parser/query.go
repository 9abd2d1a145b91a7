package parser

import (
	"strings"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// query parses [WITH ...] set-expression [ORDER BY ...] [LIMIT n]
// [OFFSET n [ROWS]] [FETCH FIRST n ROWS ONLY].
func (p *parser) query() ast.Query {
	p.enter()
	defer p.leave()
	if p.pendingQuery == nil && p.isKw("WITH") {
		w := &ast.With{Pos: p.next().pos}
		for {
			w.CTEs = append(w.CTEs, p.cte())
			if !p.acceptOp(",") {
				break
			}
		}
		w.Body = p.orderLimit(p.setExpr())
		return w
	}
	return p.orderLimit(p.setExpr())
}

func (p *parser) cte() *ast.CTE {
	c := &ast.CTE{Pos: p.tok().pos, Name: p.ident("a query name")}
	if p.isOp("(") {
		c.Columns = p.identList("a column name")
	}
	p.expectKw("AS")
	open := p.expectOp("(").pos
	c.Query = p.query()
	p.closeParen(open)
	return c
}

// queryAhead reports whether the '(' at the current token opens a query.
func (p *parser) queryAhead() bool {
	k := 0
	for isOp(p.peek(k), "(") {
		k++
	}
	switch word(p.peek(k)) {
	case "SELECT", "WITH", "VALUES":
		return k > 0
	}
	return false
}

// setExpr parses queries combined with UNION and EXCEPT, which bind less
// tightly than INTERSECT.
func (p *parser) setExpr() ast.Query {
	defer p.restoreLinks(p.links)
	q := p.setTerm()
	for {
		op := word(p.tok())
		if op != "UNION" && op != "EXCEPT" && op != "MINUS" {
			return q
		}
		p.link(p.next().pos)
		if op == "MINUS" {
			op = "EXCEPT"
		}
		all := p.setQuantifier()
		q = &ast.SetOp{Pos: q.Position(), Op: op, All: all, Left: q, Right: p.setTerm()}
	}
}

func (p *parser) setTerm() ast.Query {
	defer p.restoreLinks(p.links)
	q := p.queryPrimary()
	for p.isKw("INTERSECT") {
		p.link(p.next().pos)
		all := p.setQuantifier()
		q = &ast.SetOp{Pos: q.Position(), Op: "INTERSECT", All: all, Left: q, Right: p.queryPrimary()}
	}
	return q
}

// setQuantifier parses the optional ALL or DISTINCT after a set operator.
func (p *parser) setQuantifier() bool {
	if p.acceptKw("ALL") {
		return true
	}
	p.acceptKw("DISTINCT")
	return false
}

func (p *parser) queryPrimary() ast.Query {
	if q := p.pendingQuery; q != nil {
		p.pendingQuery = nil
		return q
	}
	t := p.tok()
	switch {
	case word(t) == "SELECT":
		return p.selectCore()
	case word(t) == "VALUES":
		return p.values()
	case isOp(t, "("):
		p.next()
		q := p.query()
		p.closeParen(t.pos)
		return q
	}
	p.unexpected("SELECT, VALUES or WITH")
	return nil
}

// orderLimit parses the ORDER BY, LIMIT, OFFSET and FETCH clauses following
// q and attaches them to it, wrapping q in SELECT * FROM (q) when q cannot
// hold them itself.
func (p *parser) orderLimit(q ast.Query) ast.Query {
	var order []*ast.OrderItem
	var limit, offset ast.Expr
	if p.acceptKw("ORDER") {
		p.expectKw("BY")
		order = p.orderItems()
	}
	if p.acceptKw("LIMIT") {
		limit = p.expr()
	}
	if p.acceptKw("OFFSET") {
		offset = p.expr()
		if !p.acceptKw("ROWS") {
			p.acceptKw("ROW")
		}
	}
	if t := p.tok(); word(t) == "FETCH" {
		if limit != nil {
			p.failAt(t.pos, "LIMIT and FETCH cannot be combined")
		}
		p.next()
		if !p.acceptKw("FIRST") {
			p.expectKw("NEXT")
		}
		if p.isKw("ROW") || p.isKw("ROWS") {
			limit = &ast.Literal{Pos: p.tok().pos, Kind: ast.NumberLit, Text: "1"}
		} else {
			limit = p.expr()
		}
		if !p.acceptKw("ROWS") {
			p.expectKw("ROW")
		}
		p.expectKw("ONLY")
	}
	if order == nil && limit == nil && offset == nil {
		return q
	}
	return attachOrder(q, order, limit, offset)
}

func attachOrder(q ast.Query, order []*ast.OrderItem, limit, offset ast.Expr) ast.Query {
	switch q := q.(type) {
	case *ast.Select:
		if q.OrderBy == nil && q.Limit == nil && q.Offset == nil {
			q.OrderBy, q.Limit, q.Offset = order, limit, offset
			return q
		}
	case *ast.SetOp:
		if q.OrderBy == nil && q.Limit == nil && offset == nil {
			q.OrderBy, q.Limit = order, limit
			return q
		}
	case *ast.With:
		q.Body = attachOrder(q.Body, order, limit, offset)
		return q
	}
	pos := q.Position()
	return &ast.Select{
		Pos:     pos,
		Items:   []*ast.SelectItem{{Pos: pos, Star: true}},
		From:    &ast.SubqueryRef{Pos: pos, Query: q},
		OrderBy: order,
		Limit:   limit,
		Offset:  offset,
	}
}

func (p *parser) orderItems() []*ast.OrderItem {
	var items []*ast.OrderItem
	for {
		it := &ast.OrderItem{Pos: p.tok().pos, Expr: p.expr()}
		if p.acceptKw("DESC") {
			it.Desc = true
		} else {
			p.acceptKw("ASC")
		}
		if p.acceptKw("NULLS") {
			first := p.acceptKw("FIRST")
			if !first {
				p.expectKw("LAST")
			}
			it.NullsFirst = &first
		}
		items = append(items, it)
		if !p.acceptOp(",") {
			return items
		}
	}
}

func (p *parser) selectCore() *ast.Select {
	s := &ast.Select{Pos: p.next().pos}
	if p.isOp("/*+") {
		s.Hints = p.queryHints()
	}
	if p.acceptKw("DISTINCT") {
		s.Distinct = true
	} else {
		p.acceptKw("ALL")
	}
	for {
		s.Items = append(s.Items, p.selectItem())
		if !p.acceptOp(",") {
			break
		}
	}
	if p.acceptKw("FROM") {
		s.From = p.from()
	}
	if p.acceptKw("WHERE") {
		s.Where = p.expr()
	}
	if p.acceptKw("GROUP") {
		p.expectKw("BY")
		s.GroupBy = p.groupByList()
	}
	if p.acceptKw("HAVING") {
		s.Having = p.expr()
	}
	if p.acceptKw("WINDOW") {
		for {
			t := p.tok()
			name := p.ident("a window name")
			p.expectKw("AS")
			if !p.isOp("(") {
				p.unexpected("'('")
			}
			s.Windows = append(s.Windows, &ast.NamedWindow{Pos: t.pos, Name: name, Spec: p.windowSpec(p.tok().pos)})
			if !p.acceptOp(",") {
				break
			}
		}
	}
	return s
}

// groupByList parses the elements of GROUP BY: expressions, (), and
// GROUPING SETS, ROLLUP and CUBE.
func (p *parser) groupByList() []ast.Expr {
	var out []ast.Expr
	for {
		t := p.tok()
		if p.isOp("(") && isOp(p.peek(1), ")") {
			p.next()
			p.next()
			out = append(out, &ast.GroupingSets{Pos: t.pos, Kind: "GROUPING SETS", Items: [][]ast.Expr{{}}})
		} else if g := p.groupingSets(); g != nil {
			out = append(out, g)
		} else {
			out = append(out, p.expr())
		}
		if !p.acceptOp(",") {
			return out
		}
	}
}

// groupingSets parses GROUPING SETS (...), ROLLUP (...) or CUBE (...), or
// returns nil when none starts here.
func (p *parser) groupingSets() *ast.GroupingSets {
	t := p.tok()
	g := &ast.GroupingSets{Pos: t.pos}
	switch w := word(t); {
	case w == "GROUPING" && word(p.peek(1)) == "SETS":
		p.next()
		g.Kind = "GROUPING SETS"
	case (w == "ROLLUP" || w == "CUBE") && isOp(p.peek(1), "("):
		g.Kind = w
	default:
		return nil
	}
	p.enter()
	defer p.leave()
	p.next()
	open := p.expectOp("(").pos
	for {
		g.Items = append(g.Items, p.groupingItem(g.Kind == "GROUPING SETS"))
		if !p.acceptOp(",") {
			break
		}
	}
	p.closeParen(open)
	return g
}

// groupingItem parses one item of a grouping element: an expression, a
// parenthesized list of them, (), or in GROUPING SETS a nested element.
func (p *parser) groupingItem(nested bool) []ast.Expr {
	if p.isOp("(") && isOp(p.peek(1), ")") {
		p.next()
		p.next()
		return []ast.Expr{}
	}
	if nested {
		if g := p.groupingSets(); g != nil {
			return []ast.Expr{g}
		}
	}
	open := p.tok()
	e := p.expr()
	// (a, b) is a list; ROW(a, b), even in parentheses, one expression.
	if row, ok := e.(*ast.RowExpr); ok && isOp(open, "(") && row.Pos == open.pos {
		return row.Items
	}
	return []ast.Expr{e}
}

func (p *parser) selectItem() *ast.SelectItem {
	t := p.tok()
	if p.acceptOp("*") {
		return &ast.SelectItem{Pos: t.pos, Star: true}
	}
	// qualifier.*
	var qual []string
	for k := 0; isName(p.peek(k)) && isOp(p.peek(k+1), "."); k += 2 {
		qual = append(qual, p.peek(k).text)
		if isOp(p.peek(k+2), "*") {
			p.i += k + 3
			return &ast.SelectItem{Pos: t.pos, Star: true, StarQualifier: qual}
		}
	}
	it := &ast.SelectItem{Pos: t.pos, Expr: p.expr()}
	it.Alias = p.alias()
	return it
}

// alias parses an optional [AS] alias; an alias without AS cannot be a
// reserved word.
func (p *parser) alias() string {
	if p.acceptKw("AS") {
		return p.ident("an alias")
	}
	if isName(p.tok()) {
		return p.next().text
	}
	return ""
}

// from parses a FROM clause; a comma binds less tightly than JOIN.
func (p *parser) from() ast.TableRef {
	defer p.restoreLinks(p.links)
	left := p.joined()
	for p.isOp(",") {
		p.link(p.next().pos)
		left = &ast.Join{Pos: left.Position(), Kind: ast.CrossJoin, Left: left, Right: p.joined()}
	}
	return left
}

func (p *parser) joined() ast.TableRef {
	defer p.restoreLinks(p.links)
	left := p.tableRef()
	for {
		at := p.tok().pos
		kind, ok := p.joinKind()
		if !ok {
			return left
		}
		p.link(at)
		j := &ast.Join{Pos: left.Position(), Kind: kind, Left: left, Right: p.tableRef()}
		if kind != ast.CrossJoin {
			switch {
			case p.acceptKw("ON"):
				j.On = p.expr()
			case p.acceptKw("USING"):
				j.Using = p.identList("a column name")
			default:
				p.unexpected("ON or USING")
			}
		}
		left = j
	}
}

// joinKind consumes the keywords introducing a join.
func (p *parser) joinKind() (ast.JoinKind, bool) {
	var kind ast.JoinKind
	switch word(p.tok()) {
	case "JOIN":
		p.next()
		return ast.InnerJoin, true
	case "INNER":
		kind = ast.InnerJoin
	case "CROSS":
		kind = ast.CrossJoin
	case "LEFT":
		kind = ast.LeftJoin
	case "RIGHT":
		kind = ast.RightJoin
	case "FULL":
		kind = ast.FullJoin
	default:
		return 0, false
	}
	p.next()
	if kind != ast.InnerJoin && kind != ast.CrossJoin {
		p.acceptKw("OUTER")
	}
	p.expectKw("JOIN")
	return kind, true
}

func (p *parser) tableRef() ast.TableRef {
	p.enter()
	defer p.leave()
	t := p.tok()
	switch {
	case word(t) == "LATERAL":
		p.next()
		if p.isOp("(") && p.queryAhead() {
			open := p.next().pos
			ref := &ast.SubqueryRef{Pos: t.pos, Query: p.query(), Lateral: true}
			p.closeParen(open)
			ref.Alias, ref.ColumnAliases = p.tableAlias()
			return ref
		}
		if !p.isKw("TABLE") {
			p.unexpected("TABLE or a subquery after LATERAL")
		}
		return p.tableFunction(t.pos, true)
	case word(t) == "TABLE" && isOp(p.peek(1), "("):
		return p.tableFunction(t.pos, false)
	case word(t) == "UNNEST" && isOp(p.peek(1), "("):
		p.next()
		open := p.next().pos
		ref := &ast.UnnestRef{Pos: t.pos, Collection: p.expr()}
		for p.acceptOp(",") {
			ref.More = append(ref.More, p.expr())
		}
		p.closeParen(open)
		if p.acceptKw("WITH") {
			p.expectKw("ORDINALITY")
			ref.Ordinality = true
		}
		ref.Alias, ref.ColumnAliases = p.tableAlias()
		return ref
	case isOp(t, "(") && p.queryAhead():
		p.next()
		ref := &ast.SubqueryRef{Pos: t.pos, Query: p.query()}
		p.closeParen(t.pos)
		if p.isKw("MATCH_RECOGNIZE") {
			return p.matchRecognize(ref)
		}
		ref.Alias, ref.ColumnAliases = p.tableAlias()
		return ref
	case isOp(t, "("):
		p.next()
		ref := p.from()
		p.closeParen(t.pos)
		return ref
	}
	ref := &ast.TableName{Pos: t.pos, Name: p.objectName("a table name")}
	ref.Options = p.optionsHint()
	ref.AsOf = p.asOf()
	if p.isKw("MATCH_RECOGNIZE") {
		return p.matchRecognize(ref)
	}
	ref.Alias, ref.ColumnAliases = p.tableAlias()
	if ref.AsOf == nil {
		ref.AsOf = p.asOf()
	}
	return ref
}

// queryHints parses the query hints /*+ NAME(...), ... */ after SELECT:
// STATE_TTL('table' = 'duration', ...), Flink's hint of idle state
// retention; the others Flink has (join and lookup hints) are refused by
// name.
func (p *parser) queryHints() []*ast.QueryHint {
	p.next()
	var hints []*ast.QueryHint
	for {
		name := p.tok()
		if name.kind != tIdent {
			p.unexpected("a query hint name")
		}
		if !strings.EqualFold(name.text, "STATE_TTL") {
			p.failAt(name.pos, "query hint %s is not supported yet; the only query hint is STATE_TTL('table' = 'duration', ...)", strings.ToUpper(name.text))
		}
		p.next()
		h := &ast.QueryHint{Pos: name.pos, Name: "STATE_TTL", Options: p.options()}
		if len(h.Options) == 0 {
			// Flink's message (FlinkHintStrategies' STATE_TTL option checker).
			p.failAt(name.pos, "Invalid STATE_TTL hint, expecting at least one key-value options specified.")
		}
		hints = append(hints, h)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp("*/")
	return hints
}

// optionsHint parses an optional table hint /*+ OPTIONS('k' = 'v', ...) */,
// the only table hint there is; any other is an error rather than a
// comment silently ignored.
func (p *parser) optionsHint() []*ast.Option {
	if !p.isOp("/*+") {
		return nil
	}
	p.next()
	name := p.tok()
	if name.kind != tIdent || !strings.EqualFold(name.text, "OPTIONS") {
		p.failAt(name.pos, "expected OPTIONS: the only table hint is /*+ OPTIONS('key' = 'value', ...) */")
	}
	p.next()
	opts := p.options()
	if len(opts) == 0 {
		// Flink's message (FlinkHintStrategies' OPTIONS option checker).
		p.failAt(name.pos, "Hint [OPTIONS] only support non empty key value options")
	}
	p.expectOp("*/")
	return opts
}

// asOf parses an optional FOR SYSTEM_TIME AS OF expr.
func (p *parser) asOf() ast.Expr {
	if !p.acceptKw("FOR") {
		return nil
	}
	p.expectKw("SYSTEM_TIME", "AS", "OF")
	return p.expr()
}

// tableAlias parses an optional [AS] alias [(col, ...)].
func (p *parser) tableAlias() (string, []string) {
	alias := p.alias()
	if alias == "" || !p.isOp("(") {
		return alias, nil
	}
	return alias, p.identList("a column name")
}

// tableFunction parses TABLE(fn(args)) [[AS] alias [(cols)]], the TABLE
// keyword being the current token.
func (p *parser) tableFunction(pos ast.Pos, lateral bool) *ast.TableFunctionRef {
	p.next()
	open := p.expectOp("(").pos
	t := p.tok()
	call, ok := p.expr().(*ast.FuncCall)
	if !ok {
		p.failAt(t.pos, "expected a function call inside TABLE(...)")
	}
	p.closeParen(open)
	ref := &ast.TableFunctionRef{Pos: pos, Call: call, Lateral: lateral}
	ref.Alias, ref.ColumnAliases = p.tableAlias()
	return ref
}

func (p *parser) values() *ast.Values {
	v := &ast.Values{Pos: p.next().pos}
	for {
		t := p.tok()
		switch {
		case isOp(t, "("):
			p.next()
			v.Rows = append(v.Rows, p.exprList())
			p.closeParen(t.pos)
		case word(t) == "ROW" && isOp(p.peek(1), "("):
			p.next()
			open := p.next().pos
			v.Rows = append(v.Rows, p.exprList())
			p.closeParen(open)
		default:
			v.Rows = append(v.Rows, []ast.Expr{p.expr()})
		}
		if !p.acceptOp(",") {
			return v
		}
	}
}
