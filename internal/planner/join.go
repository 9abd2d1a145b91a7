package planner

import (
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// join plans a join: equality conjuncts between the sides become keys; a
// right side FOR SYSTEM_TIME AS OF a left time attribute makes a temporal
// join; otherwise it is a regular join, which the rule WindowJoin makes a
// window join when both sides are windowed alike and joined on their
// windows, and the rule IntervalJoin an interval join when both sides
// carry rowtime (or both proctime) attributes and the rest of the
// condition bounds one by the other.
func (b *Binder) join(j *ast.Join) (*relation, error) {
	if conds, rest := b.onSubqueries(j); conds != nil {
		rel, err := b.join(rest)
		if err != nil {
			return nil, err
		}
		return b.withSubqueries(rel, conds)
	}
	if u, ok := j.Right.(*ast.UnnestRef); ok {
		return b.unnestJoin(j, u)
	}
	l, err := b.from(j.Left)
	if err != nil {
		return nil, err
	}
	right, asOf := j.Right, ast.Expr(nil)
	if tn, ok := j.Right.(*ast.TableName); ok && tn.AsOf != nil {
		versioned := *tn
		versioned.AsOf, asOf, right = nil, tn.AsOf, &versioned
	}
	r, err := b.from(right)
	if ref, lateral := right.(*ast.SubqueryRef); err != nil && lateral && ref.Lateral {
		return b.lateralJoin(j, l, ref, err)
	}
	if err != nil {
		return nil, err
	}
	sc := l.sc.join(r.sc)
	nl := len(l.sc.cols)
	var cond expr.Expr
	switch {
	case len(j.Using) > 0:
		var eqs []expr.Expr
		x := &exprBinder{b: b, sc: sc}
		for _, u := range j.Using {
			li, err := l.sc.resolve(&ast.Ident{Pos: j.Pos, Parts: []string{u}})
			if err != nil {
				return nil, err
			}
			ri, err := r.sc.resolve(&ast.Ident{Pos: j.Pos, Parts: []string{u}})
			if err != nil {
				return nil, err
			}
			sc.cols[nl+ri].merged = true
			eq, err := x.call(j, "=", []expr.Expr{
				&expr.Column{Index: li, Name: u, T: l.sc.cols[li].typ},
				&expr.Column{Index: nl + ri, Name: u, T: r.sc.cols[ri].typ}}, nil)
			if err != nil {
				return nil, err
			}
			eqs = append(eqs, eq)
		}
		cond = and(eqs)
	case j.On != nil:
		if cond, err = (&exprBinder{b: b, sc: sc, where: "a join condition"}).bind(j.On); err != nil {
			return nil, err
		}
		if err := wantBoolean(j.On, cond); err != nil {
			return nil, err
		}
	}
	kind := map[ast.JoinKind]JoinKind{ast.InnerJoin: InnerJoin, ast.CrossJoin: InnerJoin, ast.LeftJoin: LeftJoin, ast.RightJoin: RightJoin, ast.FullJoin: FullJoin}[j.Kind]
	jn := Join{Kind: kind}
	if asOf == nil {
		// A STATE_TTL hint reaches regular joins only: Flink resolves it on
		// Join and Aggregate nodes, when a temporal join is still a
		// Correlate (QueryHintsResolver), and its temporal join operator
		// keeps the session's retention. A name of a temporal join's input
		// is thus no input of the hint's (ttlHint.check).
		jn.hint = b.ttlHint
		b.ttlHint.apply(&jn.ttl, 0, j.Left)
		b.ttlHint.apply(&jn.ttl, 1, j.Right)
	}
	var rest, leftOnly, rightOnly []expr.Expr
	if cond != nil {
		written := onConjuncts(j.On)
		for i, c := range conjuncts(cond) {
			if lk, rk, ok := equiKey(c, nl); ok {
				var at ast.Node = j
				if j.On != nil && len(written) == len(conjuncts(cond)) {
					at = written[i]
				}
				if err := wantOrderable(at, sc.cols[lk].typ); err != nil {
					return nil, err
				}
				jn.LeftKeys = append(jn.LeftKeys, lk)
				jn.RightKeys = append(jn.RightKeys, rk-nl)
				continue
			}
			// A condition on one side only filters that side before the
			// join where that keeps the join's meaning: for the inner
			// side(s), never for the side whose rows are kept unmatched.
			lo, hi := columnRange(c)
			switch {
			case hi < nl && hi >= 0 && (kind == InnerJoin || kind == RightJoin):
				leftOnly = append(leftOnly, c)
			case lo >= nl && (kind == InnerJoin || kind == LeftJoin) && asOf == nil:
				// (Filtering a versioned table would change which version
				// is valid when, so a temporal join keeps it.)
				rightOnly = append(rightOnly, shift(c, -nl))
			default:
				rest = append(rest, c)
			}
		}
	}
	jn.Left = filtered(l.node, leftOnly)
	jn.Right = filtered(r.node, rightOnly)
	ls, rs := l.node.Schema(), r.node.Schema()
	if asOf != nil {
		return b.temporalJoin(jn, asOf, right.(*ast.TableName), l, r, and(rest), sc)
	}
	jn.Cond = and(rest)
	// The rules WindowJoin and IntervalJoin make it a window or an
	// interval join. An interval join's output keeps the time attributes
	// of both sides: the binder types the join with the rules' own tests,
	// as Flink's RelTimeIndicatorConverter keeps a join's time attributes
	// when it satisfies an interval join.
	iv := windowJoinOf(&jn) == nil && intervalOf(&jn) != nil
	jn.schema = joinSchema(ls, rs, kind, iv, iv)
	return &relation{node: &jn, sc: joinScope(sc, jn.schema)}, nil
}

// intervalJoin is the rule IntervalJoin: a regular join whose condition
// bounds the right side's time attribute by the left side's (see
// intervalBounds) joins rows within those bounds (Flink's
// StreamPhysicalIntervalJoinRule).
func intervalJoin(n Node) Node {
	if j, ok := n.(*Join); ok {
		if iv := intervalOf(j); iv != nil {
			return iv
		}
	}
	return n
}

// intervalOf returns j as an interval join, with the conditions that bound
// the time attributes taken out of its condition; nil when j is none.
func intervalOf(j *Join) *IntervalJoin {
	if j.Cond == nil {
		return nil
	}
	iv, rest := intervalBounds(conjuncts(j.Cond), j.Left.Schema(), j.Right.Schema())
	if iv == nil {
		return nil
	}
	iv.Join = *j
	iv.Cond = and(rest)
	return iv
}

// joinSchema is the output of a join: the left columns then the right ones,
// with unique names, nullable on an outer side, keeping the time attributes
// of a side only when the join preserves them.
func joinSchema(ls, rs types.Schema, kind JoinKind, leftTime, rightTime bool) types.Schema {
	var schema types.Schema
	used := map[string]int{}
	nl := len(ls)
	for i, f := range append(append(types.Schema{}, ls...), rs...) {
		t := f.Type
		if (i < nl && !leftTime) || (i >= nl && !rightTime) {
			t = t.Plain()
		}
		if (i < nl && (kind == RightJoin || kind == FullJoin)) || (i >= nl && (kind == LeftJoin || kind == FullJoin)) {
			t = t.Nullable()
		}
		schema = append(schema, types.Field{Name: uniqueName(used, f.Name), Type: t})
	}
	return schema
}

// joinScope is sc with the column types of a join's output.
func joinScope(sc *scope, schema types.Schema) *scope {
	out := &scope{cols: append([]scopeCol{}, sc.cols...)}
	for i := range out.cols {
		out.cols[i].typ = schema[i].Type
	}
	return out
}

// itemName is the column name of the i-th select item: its alias, or the
// name Calcite derives from its expression, made unique among used.
func itemName(used map[string]int, it *ast.SelectItem, i int) string {
	name := it.Alias
	if name == "" {
		name = exprName(it.Expr, i)
	}
	return uniqueName(used, name)
}

// uniqueName returns name, or name with a number appended when it is taken
// (order_id, order_id0, order_id1, ...), as Calcite names join fields.
func uniqueName(used map[string]int, name string) string {
	n, taken := used[name]
	used[name] = n + 1
	if !taken {
		return name
	}
	for {
		cand := name + itoa(n-1)
		if _, clash := used[cand]; !clash {
			used[cand] = 1
			return cand
		}
		n++
	}
}

// columnRange returns the smallest and largest column e reads (-1, -1 for
// none).
func columnRange(e expr.Expr) (lo, hi int) {
	lo, hi = -1, -1
	expr.Walk(e, func(x expr.Expr) {
		if c, ok := x.(*expr.Column); ok {
			if lo < 0 || c.Index < lo {
				lo = c.Index
			}
			hi = max(hi, c.Index)
		}
	})
	return lo, hi
}

// shift moves every column reference of e by d.
func shift(e expr.Expr, d int) expr.Expr {
	return expr.Remap(e, func(c *expr.Column) expr.Expr {
		return &expr.Column{Index: c.Index + d, Name: c.Name, T: c.T}
	})
}

// filtered applies conds to n, if any.
func filtered(n Node, conds []expr.Expr) Node {
	if len(conds) == 0 {
		return n
	}
	return newCalc(n, identity(n.Schema()), and(conds), n.Schema())
}

// equiKey recognizes `left_col = right_col` (either order).
func equiKey(e expr.Expr, nl int) (int, int, bool) {
	c, ok := e.(*expr.Call)
	if !ok || c.Name != "=" {
		return 0, 0, false
	}
	a, aok := c.Args[0].(*expr.Column)
	b, bok := c.Args[1].(*expr.Column)
	if !aok || !bok {
		return 0, 0, false
	}
	switch {
	case a.Index < nl && b.Index >= nl:
		return a.Index, b.Index, true
	case b.Index < nl && a.Index >= nl:
		return b.Index, a.Index, true
	}
	return 0, 0, false
}

// timeTerm is `column [+|- interval]` over a time attribute.
type timeTerm struct {
	col    int
	offset int64 // nanoseconds
	attr   types.TimeAttr
}

func asTimeTerm(e expr.Expr) (timeTerm, bool) {
	if c, ok := e.(*expr.Column); ok {
		return timeTerm{col: c.Index, attr: c.T.Attr}, c.T.Attr != types.NoTimeAttr
	}
	call, ok := e.(*expr.Call)
	if !ok || (call.Name != "+" && call.Name != "-") || len(call.Args) != 2 {
		return timeTerm{}, false
	}
	c, cok := call.Args[0].(*expr.Column)
	lit, lok := call.Args[1].(*expr.Literal)
	if !cok || !lok || c.T.Attr == types.NoTimeAttr || lit.T.Kind != types.IntervalDayTime {
		return timeTerm{}, false
	}
	off := lit.V.I * 1e6
	if call.Name == "-" {
		off = -off
	}
	return timeTerm{col: c.Index, offset: off, attr: c.T.Attr}, true
}

// intervalBounds looks for conditions that bound the right side's time
// attribute by the left side's, both rowtime or both proctime (Flink's
// IntervalJoinUtil): right.t >= left.t + lower and right.t <= left.t +
// upper (strict comparisons shift by one millisecond, as Flink does).
func intervalBounds(conds []expr.Expr, ls, rs types.Schema) (*IntervalJoin, []expr.Expr) {
	nl := len(ls)
	var lower, upper *int64
	iv := &IntervalJoin{LeftTime: -1, RightTime: -1}
	var rest []expr.Expr
	for _, c := range conds {
		call, ok := c.(*expr.Call)
		if !ok || len(call.Args) != 2 {
			rest = append(rest, c)
			continue
		}
		a, aok := asTimeTerm(call.Args[0])
		b, bok := asTimeTerm(call.Args[1])
		op := call.Name
		bound := op == "<" || op == "<=" || op == ">" || op == ">="
		if !bound || !aok || !bok || (a.col < nl) == (b.col < nl) || a.attr != b.attr {
			rest = append(rest, c)
			continue
		}
		// Normalize to: right.t - left.t <op> d.
		if a.col < nl {
			a, b = b, a
			op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
		}
		// a is right, b is left: right.t + a.off <op> left.t + b.off.
		d := b.offset - a.offset
		if (iv.LeftTime >= 0 && iv.LeftTime != b.col) || (iv.RightTime >= 0 && iv.RightTime != a.col-nl) {
			rest = append(rest, c)
			continue
		}
		iv.LeftTime, iv.RightTime = b.col, a.col-nl
		iv.ProcTime = a.attr == types.ProcTime
		switch op {
		case ">=":
			lower = &d
		case ">":
			v := d + 1e6
			lower = &v
		case "<=":
			upper = &d
		case "<":
			v := d - 1e6
			upper = &v
		}
	}
	if lower == nil || upper == nil {
		return nil, conds
	}
	iv.Lower, iv.Upper = *lower, *upper
	return iv, rest
}

// onSubqueries takes the conditions with subqueries (IN, EXISTS, scalar
// ones, quantified comparisons) out of the ON of an inner join, returning
// them and the join with the conditions left. For an inner join, a
// condition of ON filters the joined rows as WHERE does, so they are
// planned as WHERE's are, over the join (as Calcite's SubQueryRemoveRule
// rewrites a join condition's subqueries for Flink: a join between the
// two sides' join and the subquery's relation, before any join above).
// Other joins keep them, and binding them fails by name.
func (b *Binder) onSubqueries(j *ast.Join) (ast.Expr, *ast.Join) {
	if j.On == nil || j.Kind != ast.InnerJoin {
		return nil, j
	}
	var moved, kept []ast.Expr
	for _, c := range astConjuncts(j.On) {
		if b.isSubqueryCondition(c) || len(b.scalarSubqueries(c)) > 0 {
			moved = append(moved, c)
		} else {
			kept = append(kept, c)
		}
	}
	if len(moved) == 0 {
		return nil, j
	}
	rest := *j
	rest.On = andAST(kept)
	if rest.On == nil {
		rest.On = &ast.Literal{Pos: j.Pos, Kind: ast.BoolLit, Text: "TRUE"}
	}
	return andAST(moved), &rest
}

// withSubqueries filters the rows of an inner join (rel) by the
// conditions with subqueries of its ON, as a WHERE over it, and leaves
// the join's columns only.
func (b *Binder) withSubqueries(rel *relation, conds ast.Expr) (*relation, error) {
	schema := rel.node.Schema()
	out, err := b.where(rel, conds)
	if err != nil || len(out.node.Schema()) == len(schema) {
		return out, err
	}
	// Drop the values of scalar subqueries, joined as hidden columns.
	sc := &scope{cols: out.sc.cols[:len(schema)]}
	return &relation{node: newCalc(out.node, identity(schema), nil, schema), sc: sc}, nil
}
