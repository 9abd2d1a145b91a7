package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// isRankFunction tells whether name is a ranking function, planned as a
// Rank (Flink's FlinkLogicalRank takes the three).
func isRankFunction(name string) bool {
	return name == "ROW_NUMBER" || name == "RANK" || name == "DENSE_RANK"
}

// overRank plans ROW_NUMBER(), RANK() or DENSE_RANK() OVER (PARTITION BY
// ... ORDER BY ...), the one window call of a select list, as a Rank whose range a filter of the
// enclosing query sets (Flink's Top-N and deduplication patterns).
func (b *Binder) overRank(rel *relation, overs []*ast.FuncCall) (*relation, func(ast.Expr) (expr.Expr, bool, error), error) {
	call := overs[0] // the calls are all alike
	if len(call.Args) != 0 {
		return nil, nil, errorf(call, "Invalid number of arguments to function '%s'. Was expecting 0 arguments", call.Name)
	}
	spec := b.over(call)
	if spec != call.Over {
		// The Rank's checks read the call's window (rowNumberOver).
		resolved := *call
		resolved.Over = spec
		call = &resolved
	}
	if len(spec.OrderBy) == 0 {
		return nil, nil, errorf(call, "%s() requires ORDER BY in its OVER clause", call.Name)
	}
	for _, o := range overs {
		if o.Over.Frame != nil {
			// Calcite's validator: a ranking function allows no framing.
			return nil, nil, errorf(o.Over.Frame, "ROW/RANGE not allowed with RANK, DENSE_RANK or ROW_NUMBER functions")
		}
	}
	in := &exprBinder{b: b, sc: rel.sc, where: "OVER"}
	schema := rel.node.Schema()
	pre := identity(schema)
	preSchema := append(types.Schema{}, schema...)
	sc := &scope{cols: append([]scopeCol{}, rel.sc.cols...)}
	column := func(a ast.Expr) (int, error) {
		e, err := in.bind(a)
		if err != nil {
			return 0, err
		}
		if c, ok := e.(*expr.Column); ok {
			return c.Index, nil
		}
		pre = append(pre, e)
		name := "$f" + itoa(len(pre))
		preSchema = append(preSchema, types.Field{Name: name, Type: e.Type()})
		sc.cols = append(sc.cols, scopeCol{name: name, typ: e.Type()})
		return len(pre) - 1, nil
	}
	r := &Rank{Function: call.Name, call: call, Start: 1, End: unbounded}
	for _, p := range spec.PartitionBy {
		c, err := column(p)
		if err != nil {
			return nil, nil, err
		}
		if err := wantOrderable(p, preSchema[c].Type); err != nil {
			return nil, nil, err
		}
		r.PartitionKeys = append(r.PartitionKeys, c)
	}
	for _, o := range spec.OrderBy {
		c, err := column(o.Expr)
		if err != nil {
			return nil, nil, err
		}
		if t := preSchema[c].Type; t.IsComposite() {
			return nil, nil, errorf(o, "ORDER BY a value of type %s is not supported", t.Plain().Nullable())
		}
		nf := !o.Desc // Flink's default: NULLS FIRST for ASC, NULLS LAST for DESC
		if o.NullsFirst != nil {
			nf = *o.NullsFirst
		}
		r.Order = append(r.Order, SortKey{Col: c, Desc: o.Desc, NullsFirst: nf})
	}
	r.Input = newCalc(rel.node, pre, nil, preSchema)
	rn := types.Field{Name: "w0$o0", Type: types.BigIntType.WithNotNull(true)} // Flink's name for it
	r.schema = append(append(types.Schema{}, preSchema...), rn)
	sc.cols = append(sc.cols, scopeCol{name: "$rownum", typ: rn.Type})
	col := len(r.schema) - 1
	hook := func(e ast.Expr) (expr.Expr, bool, error) {
		for _, o := range overs {
			if e == ast.Expr(o) {
				return &expr.Column{Index: col, Name: rn.Name, T: rn.Type}, true, nil
			}
		}
		return nil, false, nil
	}
	return &relation{node: r, sc: sc}, hook, nil
}

// rankRange is the rule RankRange: a filter over an unbounded Rank that
// bounds its row number (rownum <= 3, rownum = 1, rownum BETWEEN 2 AND 5,
// rownum <= a column) sets the Rank's range, and the rest of the filter
// stays above it (Flink's FlinkLogicalRankRule).
func rankRange(n Node) Node {
	calc, ok := n.(*Calc)
	if !ok || calc.Filter == nil {
		return n
	}
	rank, ok := calc.Input.(*Rank)
	if !ok || rank.End != unbounded || rank.VariableEnd || rank.noEnd {
		return n
	}
	rnCol := len(rank.schema) - 1
	start, end := int64(1), int64(unbounded)
	endCol := -1
	var colBound expr.Expr
	bounded := false
	rest := dropConjuncts(calc.Filter, func(c expr.Expr) bool {
		if lo, hi, ok := rowNumberBound(c, rnCol); ok {
			start, end = max(start, lo), min(end, hi)
			bounded = true
			return true
		}
		if col, ok := rowNumberColumnBound(c, rnCol); ok && endCol < 0 {
			endCol, colBound = col, c
			return true
		}
		return false
	})
	if endCol >= 0 && end != unbounded {
		// Both a constant and a column bound: the column's stays a
		// filter over the constant range's rows.
		if rest == nil {
			rest = colBound
		} else {
			rest = and(append(slices.Clone(conjuncts(rest)), colBound))
		}
		endCol = -1
	}
	if end == unbounded && endCol < 0 {
		if !bounded {
			return n
		}
		// A filter on the row number without an upper bound is a rank
		// without end, which Flink's FlinkLogicalRankRule refuses.
		r := *rank
		r.noEnd = true
		c := *calc
		c.Input = &r
		return &c
	}
	r := *rank
	r.Start, r.End = start, end
	if endCol >= 0 {
		r.VariableEnd, r.EndCol = true, endCol
	}
	return newCalc(&r, calc.Projects, rest, calc.schema)
}

// windowRank is the rule WindowRank: a Top-N whose partition keys hold
// the window_start and window_end of a window its input's rows were
// assigned to ranks window by window (Flink's window Top-N).
func windowRank(n Node) Node {
	r, ok := n.(*Rank)
	if !ok || r.Window != nil || (r.End == unbounded && !r.VariableEnd) {
		return n
	}
	w, startCol, endCol, ok := windowOf(r.Input)
	if !ok || !contains(r.PartitionKeys, startCol) || !contains(r.PartitionKeys, endCol) {
		return n
	}
	w.EndCol = endCol
	out := *r
	out.Window = &w
	return &out
}

// deduplicate is the rule Deduplicate: a ROW_NUMBER Top-1 over an
// append-only input ordered by one time attribute keeps each key's first
// or last row (Flink's deduplication; only ROW_NUMBER, as Flink's
// deduplicate rules match no other rank type). A window Top-1 must be
// ordered by the window's time attribute.
func deduplicate(n Node) Node {
	r, ok := n.(*Rank)
	if !ok || r.Function != "ROW_NUMBER" || r.VariableEnd || r.Start != 1 || r.End != 1 || len(r.Order) != 1 || r.Input.Mode() != connector.InsertOnly {
		return n
	}
	order := r.Order[0]
	if w := r.Window; w != nil {
		if order.Col != w.TimeCol || w.TimeCol < 0 {
			return n
		}
		return &Deduplicate{base: r.base, Input: r.Input, Keys: r.PartitionKeys, KeepLast: order.Desc, TimeCol: w.TimeCol, RowTime: true, Window: w}
	}
	t := r.Input.Schema()[order.Col].Type
	if t.Attr == types.NoTimeAttr {
		return n
	}
	return &Deduplicate{base: r.base, Input: r.Input, Keys: r.PartitionKeys, KeepLast: order.Desc, TimeCol: order.Col, RowTime: t.Attr == types.RowTime}
}

// rankNumber is the rule RankNumber: a Rank or Deduplicate outputs its
// row number (Flink's outputRankNumber) unless the projection above it
// does not read it, which makes a Top-1 an update stream rather than a
// retracting one.
func rankNumber(n Node) Node {
	ins := n.Inputs()
	var out []Node
	for i, in := range ins {
		want := true
		if c, ok := n.(*Calc); ok {
			want = readsColumn(c, len(in.Schema())-1)
		}
		var changed Node
		switch r := in.(type) {
		case *Rank:
			if r.OutputRankNumber != want {
				c := *r
				c.OutputRankNumber = want
				changed = &c
			}
		case *Deduplicate:
			if r.OutputRankNumber != want {
				c := *r
				c.OutputRankNumber = want
				changed = &c
			}
		}
		if changed != nil {
			if out == nil {
				out = slices.Clone(ins)
			}
			out[i] = changed
		}
	}
	if out == nil {
		return n
	}
	return withInputs(n, out)
}

// dropConjuncts returns e without the conjuncts for which drop holds,
// looking into nested ANDs and keeping the rest as they were nested (a
// filter merged from several WHERE clauses is an AND of ANDs); nil when
// nothing is left.
func dropConjuncts(e expr.Expr, drop func(expr.Expr) bool) expr.Expr {
	l, ok := e.(*expr.Logic)
	if !ok || l.Or {
		if drop(e) {
			return nil
		}
		return e
	}
	var kept []expr.Expr
	for _, a := range l.Args {
		if k := dropConjuncts(a, drop); k != nil {
			kept = append(kept, k)
		}
	}
	if slices.Equal(kept, l.Args) {
		return e
	}
	return and(kept)
}

// windowOf finds the window a relation's rows were assigned to: a window
// table function or window aggregation, possibly under projections that
// keep its columns in place. It returns the window (TimeCol is -1 after an
// aggregation) and the positions of window_start and window_end.
func windowOf(n Node) (Window, int, int, bool) {
	switch x := n.(type) {
	case *Calc:
		// A projection may move the window columns; it must pass them on.
		w, s, e, ok := windowOf(x.Input)
		if !ok {
			return Window{}, 0, 0, false
		}
		ns, ne, nt := -1, -1, -1
		for j, p := range x.Projects {
			if c, ok := p.(*expr.Column); ok {
				switch c.Index {
				case s:
					ns = j
				case e:
					ne = j
				case w.TimeCol:
					nt = j
				}
			}
		}
		if ns < 0 || ne < 0 {
			return Window{}, 0, 0, false
		}
		w.TimeCol = nt
		return w, ns, ne, true
	case *WindowTableFunction:
		s := len(x.Input.Schema())
		return x.Window, s, s + 1, true
	case *WindowAggregate:
		s := len(x.Keys) + len(x.Aggs)
		w := x.Window
		w.TimeCol = -1
		return w, s, s + 1, true
	}
	return Window{}, 0, 0, false
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func conjuncts(e expr.Expr) []expr.Expr {
	if l, ok := e.(*expr.Logic); ok && !l.Or {
		return l.Args
	}
	return []expr.Expr{e}
}

func and(es []expr.Expr) expr.Expr {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	return &expr.Logic{Args: es}
}

// rowNumberColumnBound recognizes `rownum <= x` where x is an integer
// column of the rank's input: Flink's VariableRankRange, whose end each
// partition takes from its first row. It returns x's position.
func rowNumberColumnBound(e expr.Expr, rnCol int) (int, bool) {
	c, isCall := e.(*expr.Call)
	if !isCall || len(c.Args) != 2 || c.Name != "<=" && c.Name != ">=" {
		return 0, false
	}
	l, r := c.Args[0], c.Args[1]
	if c.Name == ">=" {
		l, r = r, l
	}
	lc, lok := l.(*expr.Column)
	rc, rok := r.(*expr.Column)
	if !lok || !rok || lc.Index != rnCol || rc.Index == rnCol || !rc.T.IsInteger() {
		return 0, false
	}
	return rc.Index, true
}

// rowNumberBound recognizes `rn <op> n` and `n <op> rn` for an integer
// literal n, returning the inclusive range it allows.
func rowNumberBound(e expr.Expr, col int) (lo, hi int64, ok bool) {
	c, isCall := e.(*expr.Call)
	if !isCall || len(c.Args) != 2 {
		return 0, 0, false
	}
	op := c.Name
	l, r := c.Args[0], c.Args[1]
	if lit, isLit := l.(*expr.Literal); isLit {
		l, r = r, lit
		op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}[op]
	}
	lc, isCol := l.(*expr.Column)
	lit, isLit := r.(*expr.Literal)
	if !isCol || lc.Index != col || !isLit || lit.V.Null || !lit.T.IsInteger() {
		return 0, 0, false
	}
	n := lit.V.I
	switch op {
	case "<":
		return 1, n - 1, true
	case "<=":
		return 1, n, true
	case "=":
		return n, n, true
	case ">":
		return n + 1, unbounded, true
	case ">=":
		return n, unbounded, true
	}
	return 0, 0, false
}

// finalize checks the whole plan once the rules have rewritten it: every
// Rank must have a range (an unfiltered ranking becomes an OVER
// aggregation) and a ranking function Flink runs, and the operators that
// consume appends only must have them.
func finalize(n Node) error {
	if err := needsAppendOnly(n); err != nil {
		return err
	}
	if err := procTimeSupported(n); err != nil {
		return err
	}
	for _, in := range n.Inputs() {
		if r, ok := in.(*Rank); ok && r.unfilteredRanking() {
			// The rule RankingOver left it: its order is not one an
			// OVER aggregation takes.
			if _, err := rowNumberOver(r); err != nil {
				return err
			}
		}
		if err := finalize(in); err != nil {
			return err
		}
		if r, ok := in.(*Rank); ok {
			if r.noEnd {
				return errorf(r.call, "Rank end is not specified. Currently rank only support TopN, which means the rank end must be specified.")
			}
			if err := r.supported(); err != nil {
				return err
			}
		}
	}
	return nil
}

// supported refuses the ranking functions Flink's streaming Top-N does not
// run, with its messages (StreamExecRank, StreamExecWindowRank): only
// ROW_NUMBER.
func (r *Rank) supported() error {
	switch {
	case r.Function == "ROW_NUMBER":
		return nil
	case r.Window != nil:
		return errorf(r.call, "%s() function is not supported on Window TopN currently, only ROW_NUMBER() is supported.", r.Function)
	}
	return errorf(r.call, "%s() on streaming table is not supported currently", r.Function)
}

// needsAppendOnly rejects an updating input to the operators that only
// consume appends in Flink: window Top-N and deduplication, interval joins,
// temporal sorts and deduplication (window aggregation accepts changelogs
// since Flink 1.15).
func needsAppendOnly(n Node) error {
	switch x := n.(type) {
	case *IntervalJoin, *Sort, *Deduplicate, *OverAggregate, *WindowJoin:
	case *TemporalJoin:
		if x.Left.Mode() != connector.InsertOnly {
			return &Error{Msg: fmt.Sprintf("TemporalJoin doesn't support consuming update and delete changes which is produced by node %s", updatingNode(x.Left).Describe())}
		}
		return nil
	case *Rank:
		if x.Window == nil {
			return nil
		}
	default:
		return nil
	}
	for _, in := range n.Inputs() {
		if in.Mode() != connector.InsertOnly {
			kind, _, _ := strings.Cut(n.Describe(), "(")
			return &Error{Msg: fmt.Sprintf("%s doesn't support consuming update and delete changes which is produced by node %s", kind, updatingNode(in).Describe())}
		}
	}
	return nil
}

func readsColumn(c *Calc, col int) bool {
	found := false
	check := func(e expr.Expr) {
		expr.Walk(e, func(x expr.Expr) {
			if cc, ok := x.(*expr.Column); ok && cc.Index == col {
				found = true
			}
		})
	}
	for _, p := range c.Projects {
		check(p)
	}
	if c.Filter != nil {
		check(c.Filter)
	}
	return found
}
