package planner

import (
	"fmt"
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
// ... ORDER BY ...) in a select list as a Rank whose range a filter of the
// enclosing query sets (Flink's Top-N and deduplication patterns).
func (b *Binder) overRank(rel *relation, overs []*ast.FuncCall) (*relation, func(ast.Expr) (expr.Expr, bool, error), error) {
	call := overs[0]
	for _, o := range overs[1:] {
		if !sameExpr(o, call) {
			return nil, nil, errorf(o, "only one %s() per select list is supported", call.Name)
		}
	}
	if len(call.Args) != 0 {
		return nil, nil, errorf(call, "Invalid number of arguments to function '%s'. Was expecting 0 arguments", call.Name)
	}
	spec := call.Over
	if len(spec.OrderBy) == 0 {
		return nil, nil, errorf(call, "%s() requires ORDER BY in its OVER clause", call.Name)
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

// foldRank applies a filter to a relation; when the relation is an
// unbounded Rank (possibly under a projection) and the filter bounds its
// row number, the bound becomes the Rank's range. It returns the new node
// and the part of the filter still to apply.
func foldRank(node Node, filter expr.Expr) (Node, expr.Expr) {
	calc, _ := node.(*Calc)
	rank, _ := node.(*Rank)
	rnCol := -1
	if calc != nil && calc.Filter == nil {
		rank, _ = calc.Input.(*Rank)
	}
	if rank == nil || rank.End != unbounded {
		return node, filter
	}
	last := len(rank.schema) - 1
	if calc != nil {
		for j, p := range calc.Projects {
			if c, ok := p.(*expr.Column); ok && c.Index == last {
				rnCol = j
			}
		}
	} else {
		rnCol = last
	}
	start, end := int64(1), int64(unbounded)
	endCol := -1
	var colBound expr.Expr
	var rest []expr.Expr
	bounded := false
	for _, c := range conjuncts(filter) {
		if lo, hi, ok := rowNumberBound(c, rnCol); ok {
			start, end = max(start, lo), min(end, hi)
			bounded = true
			continue
		}
		if col, ok := rowNumberColumnBound(c, rnCol, calc); ok && endCol < 0 && rank.Window == nil {
			endCol, colBound = col, c
			continue
		}
		rest = append(rest, c)
	}
	if endCol >= 0 && end != unbounded {
		// Both a constant and a column bound: the column's stays a
		// filter over the constant range's rows.
		rest = append(rest, colBound)
		endCol = -1
	}
	if end == unbounded && endCol < 0 {
		if !bounded {
			return node, filter
		}
		// A filter on the row number without an upper bound is a rank
		// without end, which Flink's FlinkLogicalRankRule refuses.
		r := *rank
		r.noEnd = true
		out := Node(&r)
		if calc != nil {
			c := *calc
			c.Input = out
			out = &c
		}
		return out, filter
	}
	r := *rank
	r.Start, r.End = start, end
	if endCol >= 0 {
		r.VariableEnd, r.EndCol = true, endCol
	}
	var out Node = &r
	// Only ROW_NUMBER is a deduplication (Flink's deduplicate rules match
	// no other rank type).
	first := r.Function == "ROW_NUMBER" && !r.VariableEnd && r.Start == 1 && r.End == 1 && len(r.Order) == 1 && r.Input.Mode() == connector.InsertOnly
	if w, startCol, endCol, ok := windowOf(r.Input); ok && contains(r.PartitionKeys, startCol) && contains(r.PartitionKeys, endCol) {
		w.EndCol = endCol
		r.Window = &w
		if first && r.Order[0].Col == w.TimeCol && w.TimeCol >= 0 {
			out = &Deduplicate{base: r.base, Input: r.Input, Keys: r.PartitionKeys, KeepLast: r.Order[0].Desc, TimeCol: w.TimeCol, RowTime: true, Window: &w}
		}
	} else if first {
		t := r.Input.Schema()[r.Order[0].Col].Type
		if t.Attr != types.NoTimeAttr {
			out = &Deduplicate{base: r.base, Input: r.Input, Keys: r.PartitionKeys, KeepLast: r.Order[0].Desc, TimeCol: r.Order[0].Col, RowTime: t.Attr == types.RowTime}
		}
	}
	if calc != nil {
		c := *calc
		c.Input = out
		out = &c
	}
	return out, and(rest)
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

// rowNumberBound recognizes `rn <op> n` and `n <op> rn` for an integer
// literal n, returning the inclusive range it allows.
// rowNumberColumnBound recognizes `rownum <= x` where x is a column of the
// rank's input (through calc, when the row number is read through a
// projection): Flink's VariableRankRange, whose end each partition takes
// from its first row. It returns x's position in the rank's input.
func rowNumberColumnBound(e expr.Expr, rnCol int, calc *Calc) (int, bool) {
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
	if calc == nil {
		return rc.Index, true
	}
	in, ok := calc.Projects[rc.Index].(*expr.Column)
	if !ok {
		return 0, false
	}
	return in.Index, true
}

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

// finalize checks the whole plan once it is built: every Rank must have a
// range (an unfiltered ROW_NUMBER becomes an OVER aggregation), and a
// Rank or Deduplicate outputs its row number only when a projection above
// reads it.
func finalize(n Node) error {
	if err := needsAppendOnly(n); err != nil {
		return err
	}
	if err := procTimeSupported(n); err != nil {
		return err
	}
	for i, in := range n.Inputs() {
		if r, ok := in.(*Rank); ok && r.unfilteredRowNumber() {
			over, err := rowNumberOver(r)
			if err != nil {
				return err
			}
			setInput(n, i, over)
			in = over
		}
		if err := finalize(in); err != nil {
			return err
		}
		reads := true
		if c, ok := n.(*Calc); ok {
			reads = readsColumn(c, len(in.Schema())-1)
		}
		switch r := in.(type) {
		case *Rank:
			if r.noEnd {
				return errorf(r.call, "Rank end is not specified. Currently rank only support TopN, which means the rank end must be specified.")
			}
			if r.End == unbounded && !r.VariableEnd {
				return &Error{Msg: r.Function + "() needs a filter on its result (for example WHERE rownum <= 3): only Top-N and deduplication queries are supported in streaming mode"}
			}
			if err := r.supported(); err != nil {
				return err
			}
			r.OutputRankNumber = reads
		case *Deduplicate:
			r.OutputRankNumber = reads
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
