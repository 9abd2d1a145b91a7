package planner

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// unbounded marks a Rank whose range has not been set by a filter yet.
const unbounded = math.MaxInt64

func (b *Binder) query(q ast.Query) (*relation, error) {
	if err := b.cancelled(); err != nil {
		return nil, err
	}
	if b.expanding > 0 {
		if b.expanded++; b.expanded > maxExpanded {
			return nil, errorf(q, "views and WITH queries expand to more than %d queries: they are planned again at every reference", maxExpanded)
		}
	}
	switch n := q.(type) {
	case *ast.Select:
		return b.selectQuery(n)
	case *ast.Values:
		return b.values(n)
	case *ast.SetOp:
		return b.setOp(n)
	case *ast.With:
		saved := b.ctes
		b.ctes = map[string]*ast.CTE{}
		for k, v := range saved {
			b.ctes[k] = v
		}
		for _, c := range n.CTEs {
			b.ctes[c.Name] = c
		}
		defer func() { b.ctes = saved }()
		return b.query(n.Body)
	}
	return nil, errorf(q, "unsupported query")
}

func (b *Binder) values(v *ast.Values) (*relation, error) {
	x := &exprBinder{b: b, sc: &scope{}, where: "VALUES"}
	var rows [][]expr.Expr
	for _, r := range v.Rows {
		if len(rows) > 0 && len(r) != len(rows[0]) {
			return nil, errorf(v, "Values rows have different numbers of columns: %d and %d", len(rows[0]), len(r))
		}
		bound, err := x.bindAll(r)
		if err != nil {
			return nil, err
		}
		rows = append(rows, bound)
	}
	if len(rows) == 0 {
		return nil, errorf(v, "VALUES needs at least one row")
	}
	schema := make(types.Schema, len(rows[0]))
	for c := range schema {
		col := make([]expr.Expr, len(rows))
		notNull := true
		for i, r := range rows {
			col[i] = r[c]
			notNull = notNull && r[c].Type().NotNull
		}
		t, err := commonType(v, "VALUES column", col...)
		if err != nil {
			return nil, err
		}
		if t.Kind == types.Char {
			t = types.Type{Kind: types.Char, Length: maxLength(col)}
			if !sameLength(col) {
				t.Kind = types.Varchar
			}
		}
		schema[c] = types.Field{Name: "EXPR$" + itoa(c), Type: t.WithNotNull(notNull)}
	}
	out := &Values{base: base{schema: schema}}
	for _, r := range rows {
		for c := range r {
			r[c] = coerce(r[c], schema[c].Type)
		}
		row, err := b.constRow(r)
		if err != nil {
			return nil, errorf(v, "%v", err)
		}
		out.Rows = append(out.Rows, row)
	}
	return &relation{node: out, sc: newScope("", schema)}, nil
}

func maxLength(es []expr.Expr) int {
	m := 0
	for _, e := range es {
		m = max(m, e.Type().Length)
	}
	return m
}

func sameLength(es []expr.Expr) bool {
	for _, e := range es {
		if e.Type().Length != es[0].Type().Length {
			return false
		}
	}
	return true
}

func itoa(i int) string { return types.FormatValue(types.IntType, types.IntValue(int64(i)), nil) }

func (b *Binder) setOp(s *ast.SetOp) (*relation, error) {
	l, err := b.query(s.Left)
	if err != nil {
		return nil, err
	}
	r, err := b.query(s.Right)
	if err != nil {
		return nil, err
	}
	ls, rs := l.node.Schema(), r.node.Schema()
	if len(ls) != len(rs) {
		return nil, errorf(s, "Column count mismatch in %s: %d and %d", s.Op, len(ls), len(rs))
	}
	schema := make(types.Schema, len(ls))
	for i := range ls {
		t, ok := types.CommonType(ls[i].Type.Plain(), rs[i].Type.Plain())
		if !ok {
			return nil, errorf(s, "Type mismatch in column %d of %s: %s and %s", i+1, s.Op, ls[i].Type.Plain(), rs[i].Type.Plain())
		}
		schema[i] = types.Field{Name: ls[i].Name, Type: t}
	}
	cast := func(n Node) Node {
		ps := identity(n.Schema())
		for i := range ps {
			ps[i] = coerce(ps[i], schema[i].Type)
		}
		return newCalc(n, ps, nil, schema)
	}
	if !s.All || s.Op != "UNION" {
		for i, f := range schema {
			var at ast.Node = s
			if n := setOpColumn(s.Left, i); n != nil {
				at = n
			}
			if err := wantOrderable(at, f.Type); err != nil {
				return nil, err
			}
		}
	}
	keys := seq(len(schema))
	var node Node
	switch {
	case s.Op == "UNION":
		left, right := cast(l.node), cast(r.node)
		if u, ok := left.(*Union); ok {
			// a UNION ALL b UNION ALL c is one union of three inputs, not
			// a chain of unions as deep as the statement is long. The left
			// union was planned for this statement just now and nothing
			// else refers to it, so it takes the new input itself.
			u.Items = append(u.Items, right)
			u.schema = schema
			node = u
		} else {
			node = &Union{base: base{schema: schema}, Items: []Node{left, right}}
		}
		if !s.All {
			node = &GroupAggregate{base: base{schema: schema}, Input: node, Keys: keys}
		}
	case s.All:
		var err error
		if node, err = b.setOpAll(s, schema, cast(l.node), cast(r.node)); err != nil {
			return nil, err
		}
	default:
		// INTERSECT and EXCEPT: the distinct left rows with (without) an
		// equal row on the right, NULLs comparing equal.
		distinct := &GroupAggregate{base: base{schema: schema}, Input: cast(l.node), Keys: keys}
		node = &SemiJoin{base: base{schema: schema}, Left: distinct, Right: cast(r.node),
			LeftKeys: keys, RightKeys: keys, Anti: s.Op == "EXCEPT", NullSafe: true}
	}
	if len(s.OrderBy) > 0 || s.Limit != nil {
		return b.orderLimit(&relation{node: node, sc: newScope("", schema)}, len(schema), s.OrderBy, s.Limit, nil)
	}
	return &relation{node: node, sc: newScope("", schema)}, nil
}

// from binds one FROM item.
func (b *Binder) from(ref ast.TableRef) (*relation, error) {
	switch n := ref.(type) {
	case *ast.TableName:
		return b.tableName(n)
	case *ast.SubqueryRef:
		if err := quantifiedColumns(n, -1); err != nil {
			return nil, err
		}
		rel, err := b.query(n.Query)
		if err != nil {
			return nil, err
		}
		queryLevel(rel.node, n.Alias)
		if err := quantifiedColumns(n, len(rel.sc.cols)); err != nil {
			return nil, err
		}
		return aliased(rel, n.Alias, n.ColumnAliases, n)
	case *ast.Join:
		return b.join(n)
	case *ast.UnnestRef:
		return b.unnest(n, nil, false)
	case *ast.MatchRecognize:
		return b.matchRecognize(n)
	case *ast.TableFunctionRef:
		rel, err := b.windowTVF(n)
		if err != nil {
			return nil, err
		}
		return aliased(rel, n.Alias, n.ColumnAliases, n)
	}
	return nil, errorf(ref, "unsupported FROM item")
}

// aliased renames a relation's qualifier and, optionally, its columns.
func aliased(rel *relation, alias string, cols []string, at ast.Node) (*relation, error) {
	sc := &scope{cols: append([]scopeCol{}, rel.sc.cols...)}
	for i := range sc.cols {
		sc.cols[i].qual = alias
	}
	if len(cols) > 0 {
		if len(cols) != len(sc.cols) {
			return nil, errorf(at, "List of column aliases must have same degree as table; table has %d columns, whereas alias list has %d columns", len(sc.cols), len(cols))
		}
		schema := rel.node.Schema()
		out := make(types.Schema, len(schema))
		for i := range sc.cols {
			sc.cols[i].name = cols[i]
			out[i] = types.Field{Name: cols[i], Type: schema[i].Type}
		}
		return &relation{node: newCalc(rel.node, identity(schema), nil, out), sc: sc}, nil
	}
	return &relation{node: rel.node, sc: sc}, nil
}

func (b *Binder) tableName(n *ast.TableName) (*relation, error) {
	if n.AsOf != nil {
		return nil, errorf(n.AsOf, "FOR SYSTEM_TIME AS OF is only supported on the right side of a join (a temporal join)")
	}
	name := n.Name.Parts[len(n.Name.Parts)-1]
	alias := n.Alias
	if alias == "" {
		alias = name
	}
	if c, ok := b.ctes[name]; ok && len(n.Name.Parts) == 1 {
		return b.namedQuery(c.Query, name, c.Columns, n, alias, nil)
	}
	_, t, v, err := b.resolve(n.Name)
	if err != nil {
		return nil, err
	}
	if t != nil {
		t, err := withOptions(t, n.Options, nil)
		if err != nil {
			return nil, err
		}
		node, err := b.scan(t, n)
		if err != nil {
			return nil, err
		}
		if b.inView == 0 {
			hintAlias(node, alias)
		}
		return aliased(&relation{node: node, sc: newScope(alias, node.Schema())}, alias, n.ColumnAliases, n)
	}
	if len(n.Options) > 0 {
		// Flink's message (SqlToRelConverter): hints apply to tables only.
		return nil, errorf(n.Options[0], "View '%s' cannot be enriched with new options. Hints can only be applied to tables.", v.ID())
	}
	var rel *relation
	err = b.inScope(v, func() (err error) {
		rel, err = b.namedQuery(v.Query, v.Name, v.Columns, n, alias, v)
		return err
	})
	return rel, err
}

// inView places an error in a view's query at the view's name in the
// statement: positions in the view's query are not the statement's, so the
// message keeps them and names the view.
func inView(err error, v *catalog.View, n *ast.TableName) error {
	e, ok := err.(*Error)
	if !ok {
		return err
	}
	where := ""
	if e.Pos.Line > 0 {
		where = fmt.Sprintf("at line %d, column %d of its query: ", e.Pos.Line, e.Pos.Col)
	}
	return errorf(n, "View %s does not bind: %s%s", v.ID(), where, e.Msg)
}

// namedQuery binds a view's (view) or common table expression's query
// under its name and column names, then under the reference's alias.
func (b *Binder) namedQuery(q ast.Query, name string, cols []string, ref *ast.TableName, alias string, view *catalog.View) (*relation, error) {
	b.expanding++
	if view != nil {
		b.inView++
	}
	rel, err := b.query(q)
	if view != nil {
		b.inView--
	}
	b.expanding--
	if err != nil {
		if view != nil {
			err = inView(err, view, ref)
		}
		return nil, err
	}
	queryLevel(rel.node, alias)
	if view != nil {
		if rel, err = viewColumns(rel, view, ref); err != nil {
			return nil, err
		}
	}
	if rel, err = aliased(rel, name, cols, ref); err != nil {
		return nil, err
	}
	return aliased(rel, alias, ref.ColumnAliases, ref)
}

// selectQuery binds SELECT ... FROM ... WHERE ... GROUP BY ... HAVING ...
// ORDER BY ... LIMIT.
func (b *Binder) selectQuery(s *ast.Select) (*relation, error) {
	hint, err := newTTLHint(s.Hints)
	if err != nil {
		return nil, err
	}
	outer := b.ttlHint
	b.ttlHint = hint
	defer func() { b.ttlHint = outer }()
	rel, err := b.selectBody(s)
	if err != nil {
		return nil, err
	}
	return rel, hint.check()
}

// selectBody binds a SELECT, whose STATE_TTL hint, if any, is b.ttlHint.
func (b *Binder) selectBody(s *ast.Select) (*relation, error) {
	from, where := b.whereIntoJoin(s.From, s.Where)
	var rel *relation
	if from == nil {
		for _, it := range s.Items {
			if it.Star && len(it.StarQualifier) == 0 {
				// Calcite's SqlValidatorImpl.expandStar, at the star.
				return nil, errorf(it, "SELECT * requires a FROM clause")
			}
		}
		v := &Values{base: base{schema: types.Schema{}}, Rows: []types.Row{{}}}
		rel = &relation{node: v, sc: &scope{}}
	} else {
		var err error
		if rel, err = b.from(from); err != nil {
			return nil, err
		}
	}
	rel, err := b.where(rel, where)
	if err != nil {
		return nil, err
	}
	items, err := expandStars(s.Items, rel.sc)
	if err != nil {
		return nil, err
	}
	windowScope := rel.sc
	var aggCalls []*ast.FuncCall
	for _, it := range items {
		aggCalls = append(aggCalls, findAggregates(it.Expr)...)
	}
	if s.Having != nil {
		aggCalls = append(aggCalls, findAggregates(s.Having)...)
	}
	var hook func(ast.Expr) (expr.Expr, bool, error)
	if len(s.GroupBy) > 0 || len(aggCalls) > 0 {
		names := map[*ast.FuncCall]string{}
		for i, it := range items {
			if f, ok := it.Expr.(*ast.FuncCall); ok {
				names[f] = it.Alias
				if it.Alias == "" {
					names[f] = exprName(it.Expr, i)
				}
			}
		}
		if rel, hook, err = b.aggregate(rel, s.GroupBy, aggCalls, names); err != nil {
			return nil, err
		}
		if g := groupAggregateOf(rel.node); g != nil && from != nil {
			b.ttlHint.apply(&g.ttl, 0, from)
		}
	} else if s.Having != nil {
		return nil, errorf(s.Having, "HAVING requires GROUP BY or an aggregate")
	}
	var overs []*ast.FuncCall
	for _, it := range items {
		overs = append(overs, findOvers(it.Expr)...)
	}
	if err := b.resolveWindows(s, windowScope, overs); err != nil {
		return nil, err
	}
	if len(overs) > 0 {
		if hook != nil {
			return nil, errorf(overs[0], "window functions over aggregated results are not supported yet")
		}
		// One ranking call (written once or more) is a Rank, which a
		// filter on it makes a Top-N; several calls are an OVER
		// aggregation, as Flink's FlinkLogicalRankRule takes a window of
		// one ranking call only.
		over := b.overAggregate
		if isRankFunction(overs[0].Name) && slices.IndexFunc(overs, func(o *ast.FuncCall) bool { return !sameExpr(o, overs[0]) }) < 0 {
			over = b.overRank
		}
		if rel, hook, err = over(rel, overs); err != nil {
			return nil, err
		}
	}
	selected := []ast.Expr{s.Having}
	for _, it := range items {
		selected = append(selected, it.Expr)
	}
	if subs := b.scalarSubqueries(selected...); len(subs) > 0 {
		if rel, err = b.joinScalarSubqueries(rel, subs, &exprBinder{b: b, sc: rel.sc, hook: hook, where: "the select list"}); err != nil {
			return nil, err
		}
	}
	x := &exprBinder{b: b, sc: rel.sc, hook: hook, where: "the select list"}
	var filter expr.Expr
	if s.Having != nil {
		if filter, err = x.bind(s.Having); err != nil {
			return nil, err
		}
	}
	projects := make([]expr.Expr, len(items))
	schema := make(types.Schema, len(items))
	outScope := &scope{}
	// Column names are unique, as Calcite makes a select list's
	// (SqlValidatorUtil.uniquify, EXPR_SUGGESTER): SELECT a.n, b.n
	// returns the columns n and n0.
	used := map[string]int{}
	for i, it := range items {
		e, err := x.bind(it.Expr)
		if err != nil {
			return nil, err
		}
		name := itemName(used, it, i)
		projects[i] = e
		schema[i] = types.Field{Name: name, Type: e.Type()}
		qual := ""
		if c, ok := e.(*expr.Column); ok && it.Alias == "" {
			qual = rel.sc.cols[c.Index].qual
		}
		outScope.cols = append(outScope.cols, scopeCol{qual: qual, name: name, typ: e.Type()})
	}
	// ORDER BY may name input columns the select list does not return
	// (Calcite resolves it against FROM too): they travel as hidden columns
	// until the sort, then are projected away.
	order, hidden, err := b.hiddenOrderColumns(s.OrderBy, x, outScope, &projects, &schema)
	if err != nil {
		return nil, err
	}
	out := &relation{node: newCalc(rel.node, projects, filter, schema), sc: outScope}
	if s.Distinct {
		for i, it := range items {
			if err := wantOrderable(it.Expr, schema[i].Type); err != nil {
				return nil, err
			}
		}
		out.node = &GroupAggregate{base: base{schema: plainSchema(schema)}, Input: out.node, Keys: seq(len(schema))}
	}
	if len(order) == 0 && s.Limit == nil && s.Offset == nil {
		return out, nil
	}
	sorted, err := b.orderLimit(out, len(schema)-hidden, order, s.Limit, s.Offset)
	if err != nil || hidden == 0 {
		return sorted, err
	}
	keep := len(schema) - hidden
	sorted.sc.cols = sorted.sc.cols[:keep]
	sorted.node = newCalc(sorted.node, identity(schema[:keep]), nil, schema[:keep])
	return sorted, nil
}

// whereIntoJoin makes the WHERE of an inner join part of its condition,
// so that equalities become join keys and time bounds an interval join.
// IN (subquery) conditions stay in WHERE, to become semi joins; so do
// conditions with scalar subqueries, joined to the rows before WHERE
// filters them. It returns the FROM item and the WHERE left.
func (b *Binder) whereIntoJoin(from ast.TableRef, where ast.Expr) (ast.TableRef, ast.Expr) {
	j, ok := from.(*ast.Join)
	if !ok || where == nil || len(j.Using) != 0 || (j.Kind != ast.InnerJoin && j.Kind != ast.CrossJoin) || len(findAggregates(where)) != 0 {
		return from, where
	}
	subqueries, cond := b.splitSubqueries(where)
	var scalars, rest []ast.Expr
	for _, c := range astConjuncts(cond) {
		if len(b.scalarSubqueries(c)) > 0 {
			scalars = append(scalars, c)
		} else {
			rest = append(rest, c)
		}
	}
	if len(scalars) > 0 {
		subqueries, cond = append(subqueries, scalars...), andAST(rest)
	}
	if cond == nil {
		return from, where
	}
	merged := *j
	if r, isSub := j.Right.(*ast.SubqueryRef); !isSub || !r.Lateral {
		// A LATERAL subquery stays CROSS JOINed: a correlated one
		// (lateralJoin) filters the joined rows by the condition.
		merged.Kind = ast.InnerJoin
	}
	merged.On = andAST([]ast.Expr{j.On, cond})
	return &merged, andAST(subqueries)
}

// where binds a WHERE clause over rel: its conditions as a filter, its
// scalar subqueries joined to the rows first, its IN and EXISTS
// subqueries as semi (anti) joins after.
func (b *Binder) where(rel *relation, where ast.Expr) (*relation, error) {
	if where == nil {
		return rel, nil
	}
	subqueries, where := b.splitSubqueries(where)
	if subs := b.scalarSubqueries(where); len(subs) > 0 {
		var err error
		if rel, err = b.joinScalarSubqueries(rel, subs, &exprBinder{b: b, sc: rel.sc, where: "WHERE"}); err != nil {
			return nil, err
		}
	}
	if where != nil {
		if agg := findAggregates(where); len(agg) > 0 {
			return nil, errorf(agg[0], "Aggregate functions are not allowed in WHERE")
		}
		f, err := (&exprBinder{b: b, sc: rel.sc, where: "WHERE"}).bind(where)
		if err != nil {
			return nil, err
		}
		if err := wantBoolean(where, f); err != nil {
			return nil, err
		}
		// A bound on a ranking's row number stays a filter here: the rule
		// RankRange folds it (rules.go).
		schema := rel.node.Schema()
		rel = &relation{node: newCalc(rel.node, identity(schema), f, schema), sc: rel.sc}
	}
	for _, c := range subqueries {
		var err error
		if rel, err = b.subqueryJoin(rel, c); err != nil {
			return nil, err
		}
	}
	return rel, nil
}

// hiddenOrderColumns rewrites ORDER BY items that are not output columns
// into references to hidden columns appended to the projection.
func (b *Binder) hiddenOrderColumns(items []*ast.OrderItem, x *exprBinder, out *scope, projects *[]expr.Expr, schema *types.Schema) ([]*ast.OrderItem, int, error) {
	var order []*ast.OrderItem
	hidden := 0
	for _, o := range items {
		if id, ok := o.Expr.(*ast.Ident); ok {
			if _, err := out.resolve(id); err == nil {
				order = append(order, o)
				continue
			}
		}
		if _, ok := orderOrdinal(o.Expr); ok {
			order = append(order, o)
			continue
		}
		e, err := x.bind(o.Expr)
		if err != nil {
			return nil, 0, err
		}
		name := "$order" + itoa(hidden)
		if c, ok := e.(*expr.Column); ok && schema.Index(x.sc.cols[c.Index].name) < 0 {
			name = x.sc.cols[c.Index].name
		}
		hidden++
		*projects = append(*projects, e)
		*schema = append(*schema, types.Field{Name: name, Type: e.Type()})
		out.cols = append(out.cols, scopeCol{name: name, typ: e.Type()})
		item := *o
		item.Expr = &ast.Ident{Pos: o.Expr.Position(), Parts: []string{name}}
		order = append(order, &item)
	}
	return order, hidden, nil
}

func plainSchema(s types.Schema) types.Schema {
	out := make(types.Schema, len(s))
	for i, f := range s {
		out[i] = types.Field{Name: f.Name, Type: f.Type.Plain()}
	}
	return out
}

func expandStars(items []*ast.SelectItem, sc *scope) ([]*ast.SelectItem, error) {
	var out []*ast.SelectItem
	for _, it := range items {
		if !it.Star {
			out = append(out, it)
			continue
		}
		var qual string
		if len(it.StarQualifier) > 0 {
			qual = it.StarQualifier[len(it.StarQualifier)-1]
			if row, ok := sc.rowPath(it.StarQualifier); ok && (len(it.StarQualifier) > 1 || !sc.hasQualifier(qual)) {
				// r.* and t.r.*: the fields of a ROW column.
				for _, f := range row.Fields() {
					parts := append(append([]string{}, it.StarQualifier...), f.Name)
					out = append(out, &ast.SelectItem{Pos: it.Pos, Expr: &ast.Ident{Pos: it.Pos, Parts: parts}, Alias: f.Name})
				}
				continue
			}
			if !sc.hasQualifier(qual) {
				return nil, errorf(it, "Unknown identifier '%s'", qual)
			}
		}
		for _, c := range sc.cols {
			if (qual != "" && c.qual != qual) || isHidden(c.name) || (qual == "" && c.merged) {
				continue
			}
			parts := []string{c.name}
			if c.qual != "" {
				parts = []string{c.qual, c.name}
			}
			out = append(out, &ast.SelectItem{Pos: it.Pos, Expr: &ast.Ident{Pos: it.Pos, Parts: parts}})
		}
	}
	return out, nil
}

// isHidden tells internal helper columns, which `*` does not expand to.
func isHidden(name string) bool { return len(name) > 0 && name[0] == '$' }

// findAggregates returns the aggregate calls in e that are not inside an
// OVER clause or a nested aggregate.
func findAggregates(e ast.Expr) []*ast.FuncCall {
	var out []*ast.FuncCall
	walkAST(e, func(n ast.Expr) bool {
		if f, ok := n.(*ast.FuncCall); ok && f.Over == nil {
			if _, isAgg := fn.LookupAggregate(f.Name); isAgg {
				out = append(out, f)
				return false
			}
		}
		return true
	})
	return out
}

func findOvers(e ast.Expr) []*ast.FuncCall {
	var out []*ast.FuncCall
	walkAST(e, func(n ast.Expr) bool {
		if f, ok := n.(*ast.FuncCall); ok && f.Over != nil {
			out = append(out, f)
			return false
		}
		return true
	})
	return out
}

// walkAST visits e and its sub-expressions while f returns true.
func walkAST(e ast.Expr, f func(ast.Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch n := e.(type) {
	case *ast.Unary:
		walkAST(n.X, f)
	case *ast.Binary:
		walkAST(n.L, f)
		walkAST(n.R, f)
	case *ast.Between:
		walkAST(n.X, f)
		walkAST(n.Lo, f)
		walkAST(n.Hi, f)
	case *ast.In:
		walkAST(n.X, f)
		for _, a := range n.List {
			walkAST(a, f)
		}
	case *ast.Quantified:
		walkAST(n.Left, f)
		for _, a := range n.List {
			walkAST(a, f)
		}
	case *ast.Like:
		walkAST(n.X, f)
		walkAST(n.Pattern, f)
		walkAST(n.Escape, f)
	case *ast.IsPredicate:
		walkAST(n.X, f)
	case *ast.IsDistinctFrom:
		walkAST(n.L, f)
		walkAST(n.R, f)
	case *ast.Case:
		walkAST(n.Operand, f)
		for _, w := range n.Whens {
			walkAST(w.Cond, f)
			for _, v := range w.More {
				walkAST(v, f)
			}
			walkAST(w.Result, f)
		}
		walkAST(n.Else, f)
	case *ast.Cast:
		walkAST(n.X, f)
	case *ast.FuncCall:
		for _, a := range n.Args {
			walkAST(a, f)
		}
		walkAST(n.Filter, f)
	}
}

// orderLimit plans ORDER BY, LIMIT (FETCH) and OFFSET on a query's output,
// as Flink's stream rules do: LIMIT 0 is an empty result
// (PruneEmptyRules.SORT_FETCH_ZERO_INSTANCE in FlinkStreamRuleSets, formerly
// FlinkLimit0RemoveRule), whatever the input; a LIMIT or OFFSET without ORDER BY is a Limit
// (StreamPhysicalLimitRule), with ORDER BY a SortLimit
// (StreamPhysicalSortLimitRule), both keeping rows OFFSET+1 to
// OFFSET+LIMIT, or all after OFFSET without a LIMIT (SortUtil.getLimitEnd);
// ORDER BY alone must lead with an ascending time attribute
// (StreamPhysicalTemporalSortRule).
func (b *Binder) orderLimit(rel *relation, visible int, order []*ast.OrderItem, limit, offset ast.Expr) (*relation, error) {
	n, err := rowCount("LIMIT", limit, -1)
	if err != nil {
		return nil, err
	}
	off, err := rowCount("OFFSET", offset, 0)
	if err != nil {
		return nil, err
	}
	var keys []SortKey
	for _, o := range order {
		var e expr.Expr
		if i, ok := orderOrdinal(o.Expr); ok {
			if i < 1 || i > visible {
				return nil, errorf(o.Expr, "Ordinal out of range")
			}
			c := rel.sc.cols[i-1]
			e = &expr.Column{Index: i - 1, Name: c.name, T: c.typ}
		} else if e, err = (&exprBinder{b: b, sc: rel.sc, where: "ORDER BY"}).bind(o.Expr); err != nil {
			return nil, err
		}
		k, err := sortKey(o, e)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	switch {
	case n == 0:
		return &relation{node: &Values{base: base{schema: rel.node.Schema()}}, sc: rel.sc}, nil
	case b.Batch && len(keys) > 0:
		// Flink's batch Sort and SortLimit order by any column.
		return &relation{node: &BatchSort{base: base{schema: rel.node.Schema()}, Input: rel.node, Order: keys, Offset: off, N: n}, sc: rel.sc}, nil
	case limit != nil || offset != nil:
		return &relation{node: &Limit{base: base{schema: rel.node.Schema()}, Input: rel.node, Order: keys, Offset: off, N: n}, sc: rel.sc}, nil
	}
	// A rowtime attribute sorts as the watermark passes, a processing-time
	// one as rows arrive (StreamExecTemporalSort).
	first := rel.node.Schema()[keys[0].Col].Type
	if first.Attr == types.NoTimeAttr || keys[0].Desc {
		return nil, errorf(order[0], "Sort on a non-time-attribute field is not supported.")
	}
	return &relation{node: &Sort{base: base{schema: rel.node.Schema()}, Input: rel.node, Keys: keys}, sc: rel.sc}, nil
}

// orderOrdinal reads an ORDER BY item that is an integer literal as the
// position of a column of the select list, from 1 (ORDER BY 2 DESC), as
// Calcite's validator does under Flink's conformance
// (FlinkSqlConformance.isSortByOrdinal); 0 when the integer is too large
// for a position. Any other expression, 1 + 0 or -1, is a value.
func orderOrdinal(e ast.Expr) (int, bool) {
	l, ok := e.(*ast.Literal)
	if !ok || l.Kind != ast.NumberLit || l.Text == "" || strings.Trim(l.Text, "0123456789") != "" {
		return 0, false
	}
	i, err := strconv.Atoi(l.Text)
	if err != nil {
		return 0, true
	}
	return i, true
}

// sortKey is the sort key of ORDER BY item o bound to e, which must be a
// column: NULLS FIRST for ASC and NULLS LAST for DESC unless o says.
func sortKey(o *ast.OrderItem, e expr.Expr) (SortKey, error) {
	c, ok := e.(*expr.Column)
	if !ok {
		return SortKey{}, errorf(o, "ORDER BY supports only columns of the select list")
	}
	if c.T.IsComposite() {
		return SortKey{}, errorf(o, "ORDER BY a value of type %s is not supported", c.T.Plain().Nullable())
	}
	nf := !o.Desc
	if o.NullsFirst != nil {
		nf = *o.NullsFirst
	}
	return SortKey{Col: c.Index, Desc: o.Desc, NullsFirst: nf}, nil
}

// rowCount reads the row count of a LIMIT or OFFSET clause: a
// non-negative integer literal, def when the clause is absent.
func rowCount(clause string, e ast.Expr, def int64) (int64, error) {
	if e == nil {
		return def, nil
	}
	l, ok := e.(*ast.Literal)
	if !ok || l.Kind != ast.NumberLit {
		return 0, errorf(e, "%s expects an integer literal", clause)
	}
	v, err := literal(l)
	if err != nil || !v.Type().IsInteger() || v.(*expr.Literal).V.I < 0 {
		return 0, errorf(e, "%s expects a non-negative integer literal", clause)
	}
	return v.(*expr.Literal).V.I, nil
}
