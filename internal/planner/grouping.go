package planner

import (
	"math/bits"
	"slices"
	"strconv"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// groupingSets is GROUP BY expanded: the distinct grouping expressions in
// order of appearance, and the grouping sets over them, each a bit mask
// (bit i for expression i), in the order Calcite expands them: a ROLLUP of
// n items gives its n+1 prefixes longest first, a CUBE every subset from
// the full set down (its first item the highest bit), GROUPING SETS its
// items in order, and several elements the cross product of theirs.
type groupingSets struct {
	exprs []ast.Expr
	sets  []uint64
	// dup gives, for each set, how many equal sets come before it: its
	// GROUP_ID(). A repeated set groups its rows again, as Calcite's
	// rewrite of duplicate grouping sets into a UNION ALL of aggregations
	// does (RelBuilder.rewriteAggregateWithDuplicateGroupSets).
	dup []int
	// keys gives, for each key column of the aggregation, the grouping
	// expression it holds (window columns are none of them).
	keys []int
}

// maxGroupingColumns is Flink's bound on the grouping expressions of a
// query with grouping sets (DecomposeGroupingSetsRule: "group count must
// be less than 64"), as the expand id is a BIGINT bit mask.
const maxGroupingColumns = 63

// expandGroupBy expands the elements of GROUP BY. Without GROUPING SETS,
// ROLLUP, CUBE or (), the expressions are GROUP BY's own, in one set.
func expandGroupBy(groupBy []ast.Expr) (*groupingSets, error) {
	g := &groupingSets{}
	plain := true
	for _, e := range groupBy {
		if _, ok := e.(*ast.GroupingSets); ok {
			plain = false
		}
	}
	if plain {
		g.exprs = groupBy
		g.sets = []uint64{1<<min(len(groupBy), 64) - 1}
		g.dup = []int{0}
		return g, nil
	}
	sets := []uint64{0}
	for _, e := range groupBy {
		mine, err := g.element(e)
		if err != nil {
			return nil, err
		}
		var cross []uint64
		for _, s := range sets {
			for _, m := range mine {
				cross = append(cross, s|m)
			}
		}
		sets = cross
	}
	seen := map[uint64]int{}
	for _, s := range sets {
		g.dup = append(g.dup, seen[s])
		seen[s]++
		// the occurrence goes into the expand id above the expressions' bits
		if seen[s] > 1 && len(g.exprs)+bits.Len(uint(seen[s]-1)) > maxGroupingColumns {
			return nil, errorf(groupBy[0], "group count must be less than 64.")
		}
	}
	g.sets = sets
	return g, nil
}

// element gives the grouping sets of one GROUP BY element.
func (g *groupingSets) element(e ast.Expr) ([]uint64, error) {
	gs, ok := e.(*ast.GroupingSets)
	if !ok {
		m, err := g.mask([]ast.Expr{e})
		return []uint64{m}, err
	}
	var out []uint64
	switch gs.Kind {
	case "ROLLUP":
		items := make([]uint64, len(gs.Items))
		for i, it := range gs.Items {
			m, err := g.mask(it)
			if err != nil {
				return nil, err
			}
			items[i] = m
		}
		for n := len(items); n >= 0; n-- {
			var s uint64
			for _, m := range items[:n] {
				s |= m
			}
			out = append(out, s)
		}
	case "CUBE":
		items := make([]uint64, len(gs.Items))
		for i, it := range gs.Items {
			m, err := g.mask(it)
			if err != nil {
				return nil, err
			}
			items[i] = m
		}
		if len(items) > maxGroupingColumns {
			return nil, errorf(gs, "group count must be less than 64.")
		}
		n := len(items)
		for sub := uint64(1)<<n - 1; ; sub-- {
			var s uint64
			for i, m := range items {
				if sub&(1<<(n-1-i)) != 0 {
					s |= m
				}
			}
			out = append(out, s)
			if sub == 0 {
				break
			}
		}
	default: // GROUPING SETS
		for _, it := range gs.Items {
			if len(it) == 1 {
				if _, nested := it[0].(*ast.GroupingSets); nested {
					sub, err := g.element(it[0])
					if err != nil {
						return nil, err
					}
					out = append(out, sub...)
					continue
				}
			}
			m, err := g.mask(it)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
	}
	return out, nil
}

// mask gives the bits of es, adding those not seen yet to the grouping
// expressions.
func (g *groupingSets) mask(es []ast.Expr) (uint64, error) {
	var m uint64
	for _, e := range es {
		i := g.index(e)
		if i < 0 {
			if len(g.exprs) == maxGroupingColumns {
				return 0, errorf(e, "group count must be less than 64.")
			}
			g.exprs = append(g.exprs, e)
			i = len(g.exprs) - 1
		}
		m |= 1 << i
	}
	return m, nil
}

// index is the position of e among the grouping expressions, or -1.
func (g *groupingSets) index(e ast.Expr) int {
	for i, x := range g.exprs {
		if sameExpr(e, x) {
			return i
		}
	}
	return -1
}

// expanded tells whether the aggregation needs an Expand: more than one
// grouping set.
func (g *groupingSets) expanded() bool { return len(g.sets) > 1 }

// inAll tells whether grouping expression i is in every grouping set, so
// that it is never NULL for being left out.
func (g *groupingSets) inAll(i int) bool {
	if !g.expanded() {
		return true
	}
	for _, s := range g.sets {
		if s&(1<<i) == 0 {
			return false
		}
	}
	return true
}

// expandID is the value of the expand id column ($e) for set k, as
// Flink's ExpandUtil.genExpandId computes it: one bit per grouping
// expression, the first the highest, set for those the set leaves out;
// above them, the set's occurrence among equal ones (0 but for repeated
// sets).
func (g *groupingSets) expandID(k int) int64 {
	n := len(g.exprs)
	v := int64(g.dup[k]) << n
	for i := range n {
		if g.sets[k]&(1<<i) == 0 {
			v |= 1 << (n - 1 - i)
		}
	}
	return v
}

// repeated tells whether a grouping set appears more than once.
func (g *groupingSets) repeated() bool {
	for _, d := range g.dup {
		if d > 0 {
			return true
		}
	}
	return false
}

// isGroupingFunction tells whether name is one of the grouping functions,
// which the aggregation computes from the grouping set of each row.
func isGroupingFunction(name string) bool {
	return name == "GROUPING" || name == "GROUPING_ID" || name == "GROUP_ID"
}

// groupingFunction binds GROUPING(e, ...), GROUPING_ID(e, ...) or
// GROUP_ID() over an aggregation: a constant with one grouping set, else a
// CASE over the expand id column eCol, as Flink's DecomposeGroupingSetsRule
// lowers them. GROUPING and GROUPING_ID give, for their arguments in
// order, a bit per argument (the first the highest), set when the row's
// grouping set leaves it out; GROUP_ID gives the set's occurrence among
// equal ones, 0 for distinct sets.
func (g *groupingSets) groupingFunction(in *exprBinder, f *ast.FuncCall, eCol int) (expr.Expr, error) {
	var args []int
	if f.Name == "GROUP_ID" {
		if len(f.Args) != 0 {
			return nil, errorf(f, "Invalid number of arguments to function 'GROUP_ID'. Was expecting 0 arguments")
		}
	} else if len(f.Args) == 0 {
		return nil, errorf(f, "Invalid number of arguments to function '%s'. Was expecting 1 arguments", f.Name)
	}
	for _, a := range f.Args {
		i := g.index(a)
		if i < 0 {
			return nil, errorf(a, "Argument to %s operator must be a grouped expression", f.Name)
		}
		args = append(args, i)
	}
	value := func(k int) expr.Expr {
		if f.Name == "GROUP_ID" {
			return bigint(int64(g.dup[k]))
		}
		var v int64
		for _, i := range args {
			v <<= 1
			if g.sets[k]&(1<<i) == 0 {
				v |= 1
			}
		}
		return bigint(v)
	}
	if !g.expanded() || f.Name == "GROUP_ID" && !g.repeated() {
		return value(0), nil
	}
	e := &expr.Column{Index: eCol, Name: "$e", T: types.BigIntType.WithNotNull(true)}
	c := &expr.Case{T: types.BigIntType.WithNotNull(true)}
	last := len(g.sets) - 1
	for k := range last {
		eq, err := in.call(f, "=", []expr.Expr{e, bigint(g.expandID(k))}, nil)
		if err != nil {
			return nil, err
		}
		c.Whens = append(c.Whens, expr.When{Cond: eq, Then: value(k)})
	}
	c.Else = value(last)
	return c, nil
}

// expand gives the input of an aggregation and its key columns. With one
// grouping set, they are in and keys. With several, the input is an
// Expand over in, emitting per grouping set a projection with the
// expressions it leaves out set to NULL and its expand id last, and the
// keys are keys and the expand id. keys are the columns of in holding the
// key columns of g.keys.
func (g *groupingSets) expand(in Node, keys []int) (Node, []int) {
	if !g.expanded() {
		return in, keys
	}
	s := in.Schema()
	schema := make(types.Schema, 0, len(s)+1)
	for j, f := range s {
		schema = append(schema, f)
		for i, k := range keys {
			if k == j && !g.inAll(g.keys[i]) {
				schema[j].Type = f.Type.Plain().Nullable()
			}
		}
	}
	schema = append(schema, types.Field{Name: "$e", Type: types.BigIntType.WithNotNull(true)})
	x := &Expand{base: base{schema: schema}, Input: in}
	for k, set := range g.sets {
		ps := make([]expr.Expr, 0, len(schema))
		for j, f := range s {
			ps = append(ps, &expr.Column{Index: j, Name: f.Name, T: f.Type})
		}
		for i, k := range keys {
			if set&(1<<g.keys[i]) == 0 {
				ps[k] = &expr.Literal{V: types.NullValue, T: schema[k].Type, Text: "null"}
			}
		}
		x.Projects = append(x.Projects, append(ps, bigint(g.expandID(k))))
	}
	return x, append(slices.Clone(keys), len(s))
}

// bigint is a BIGINT NOT NULL literal.
func bigint(v int64) *expr.Literal {
	return &expr.Literal{V: types.IntValue(v), T: types.BigIntType.WithNotNull(true), Text: strconv.FormatInt(v, 10)}
}
