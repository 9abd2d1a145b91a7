package expr

import (
	"fmt"
	"slices"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/types"
)

// Context is the evaluation context of one operator instance.
type Context struct {
	Fn *fn.Context
	// Watermark is the operator's current watermark (for CURRENT_WATERMARK);
	// runtime.MinWatermark before the first.
	Watermark int64
	// HasWatermark is false until the first watermark arrived.
	HasWatermark bool
}

// Evaluator computes an expression on one input row.
type Evaluator func(ctx *Context, row types.Row) (types.Value, error)

// Holds reports whether the boolean ev is true on row: NULL counts as false.
func (ev Evaluator) Holds(ctx *Context, row types.Row) (bool, error) {
	v, err := ev(ctx, row)
	return err == nil && !v.Null && v.Bool(), err
}

// Compile turns e into an evaluator that is safe for concurrent use. It
// binds every function call to its argument types and fails when a
// function is unknown or its arguments no longer fit (an expression read
// from a stored plan).
func Compile(e Expr) (Evaluator, error) { return compile(e, false) }

// CompileLocal turns e into an evaluator for one goroutine at a time, such
// as one operator instance: function calls pass their arguments in buffers
// the evaluator owns instead of allocating them for every row.
func CompileLocal(e Expr) (Evaluator, error) { return compile(e, true) }

func compile(e Expr, local bool) (Evaluator, error) {
	c := &compiler{local: local}
	ev := c.compile(e)
	if c.err != nil {
		return nil, c.err
	}
	return ev, nil
}

// compiler turns expressions into evaluators.
type compiler struct {
	// local evaluators are used by one goroutine at a time.
	local bool
	// err is the first binding failure.
	err error
}

// args returns the source of the slice a function call site passes its n
// arguments in: a fresh slice per row, or, in a local evaluator, one buffer
// per call site (which is never entered again before its call returns: the
// calls nested in its arguments have their own).
func (c *compiler) args(n int) func() []types.Value {
	if c.local {
		buf := make([]types.Value, n)
		return func() []types.Value { return buf }
	}
	return func() []types.Value { return make([]types.Value, n) }
}

// bind binds a call site, keeping the first failure.
func (c *compiler) bind(x *Call) fn.Eval {
	ev, err := Bind(x)
	if err != nil && c.err == nil {
		c.err = err
	}
	return ev
}

// Bind binds the function x calls to its arguments' types (and constant
// values) and returns its evaluator. It fails, naming the function, when
// the function is unknown, rejects the arguments, or returns another type
// than x.T.
func Bind(x *Call) (fn.Eval, error) {
	f, ok := fn.LookupScalar(x.Name)
	if !ok {
		return nil, fmt.Errorf("unknown function '%s'", x.Name)
	}
	args := callArgs(x)
	t, ev, err := f.Bind(args)
	if err != nil {
		return nil, fmt.Errorf("function '%s': %w", x.Name, err)
	}
	if t != x.T {
		return nil, fmt.Errorf("function '%s' returns %s, not %s", x.Name, t, x.T)
	}
	return ev, nil
}

// BindAggregate binds the aggregate function name to arguments of the
// given types and constant values (nil where not constant) and returns its
// accumulator factory; appendOnly says the input has no retractions, for
// functions with a cheaper form then. It fails, naming the function, when
// the function is unknown, rejects the arguments, or returns another type
// than want.
func BindAggregate(name string, argTypes []types.Type, consts []*types.Value, distinct, appendOnly bool, want types.Type) (func() fn.Accumulator, error) {
	f, ok := fn.LookupAggregate(name)
	if !ok {
		return nil, fmt.Errorf("unknown aggregate function '%s'", name)
	}
	args := make([]fn.Arg, len(argTypes))
	for i, t := range argTypes {
		args[i] = fn.Arg{Type: t}
		if i < len(consts) {
			args[i].Const = consts[i]
		}
	}
	bind := f.Bind
	if appendOnly && f.BindAppendOnly != nil {
		bind = f.BindAppendOnly
	}
	t, newAcc, err := bind(args, distinct)
	if err != nil {
		return nil, fmt.Errorf("aggregate function '%s': %w", name, err)
	}
	// A grouped call may be NOT NULL where the function alone is not
	// (fn.GroupedNotNull).
	if t != want && !(want.NotNull && t == want.Nullable() && fn.GroupedNotNull(name, argTypes, t)) {
		return nil, fmt.Errorf("aggregate function '%s' returns %s, not %s", name, t, want)
	}
	return newAcc, nil
}

// BindEquals binds "=" between values of types a and b (an IN list item).
func BindEquals(a, b types.Type) (fn.Eval, error) {
	eq, _ := fn.LookupScalar("=")
	_, ev, err := eq.Bind([]fn.Arg{{Type: a}, {Type: b}})
	return ev, err
}

func (c *compiler) compile(e Expr) Evaluator {
	switch x := e.(type) {
	case *Column:
		i := x.Index
		return func(_ *Context, row types.Row) (types.Value, error) { return row[i], nil }
	case *Literal:
		v := x.V
		return func(*Context, types.Row) (types.Value, error) { return v, nil }
	case *Call:
		return c.call(c.operands(x.Args), c.bind(x))
	case *Cast:
		if call, ok := x.X.(*Call); ok && len(call.Args) == 2 {
			// CAST(a op b AS DECIMAL(p <= 18, s)) of int64-held operands
			// whose Flink type is held in 16 bytes: computed straight
			// into the target type.
			if f, ok := fn.DecimalArithInto(call.Name, call.Args[0].Type(), call.Args[1].Type(), x.T); ok {
				return c.call(c.operands(call.Args), f)
			}
		}
		return c.cast(x)
	case *Logic:
		return c.logic(x)
	case *Not:
		in := c.compile(x.X)
		return func(ctx *Context, row types.Row) (types.Value, error) {
			v, err := in(ctx, row)
			if err != nil || v.Null {
				return v, err
			}
			return types.BoolValue(!v.Bool()), nil
		}
	case *IsNull:
		in := c.compile(x.X)
		neg := x.Neg
		return func(ctx *Context, row types.Row) (types.Value, error) {
			v, err := in(ctx, row)
			return types.BoolValue(v.Null != neg), err
		}
	case *Case:
		return c.caseWhen(x)
	case *Coalesce:
		args := c.all(x.Args)
		return func(ctx *Context, row types.Row) (types.Value, error) {
			for _, a := range args {
				v, err := a(ctx, row)
				if err != nil || !v.Null {
					return v, err
				}
			}
			return types.NullValue, nil
		}
	case *In:
		return c.inList(x)
	case *CurrentWatermark:
		return func(ctx *Context, _ types.Row) (types.Value, error) {
			if !ctx.HasWatermark {
				return types.NullValue, nil
			}
			return types.IntValue(ctx.Watermark), nil
		}
	}
	if c.err == nil {
		c.err = fmt.Errorf("unknown expression %T", e)
	}
	return nil
}

// operand is how a function call gets one argument: from an input column,
// as a constant, or evaluated.
type operand struct {
	col   int // the input column, or -1
	value types.Value
	eval  Evaluator // nil for a column or a constant
}

// call evaluates f over the operands.
func (c *compiler) call(args []operand, f fn.Eval) Evaluator {
	buf := c.args(len(args))
	return func(ctx *Context, row types.Row) (types.Value, error) {
		vals := buf()
		for i := range args {
			a := &args[i]
			switch {
			case a.eval != nil:
				v, err := a.eval(ctx, row)
				if err != nil {
					return types.Value{}, err
				}
				vals[i] = v
			case a.col >= 0:
				vals[i] = row[a.col]
			default:
				vals[i] = a.value
			}
		}
		return f(ctx.Fn, vals)
	}
}

// cast evaluates a CAST.
func (c *compiler) cast(x *Cast) Evaluator {
	in := c.compile(x.X)
	from, to, try := x.X.Type(), x.T, x.Try
	cast, invalid := types.Caster(from, to)
	return func(ctx *Context, row types.Row) (types.Value, error) {
		v, err := in(ctx, row)
		if err != nil || v.Null {
			return types.NullValue, err
		}
		out, err := types.NullValue, invalid
		if invalid == nil {
			out, err = cast(v, ctx.Fn.Loc)
		}
		if err != nil && try && !types.IsRangeError(err) {
			return types.NullValue, nil
		}
		return out, err
	}
}

func (c *compiler) operands(es []Expr) []operand {
	out := make([]operand, len(es))
	for i, e := range es {
		switch x := e.(type) {
		case *Column:
			out[i] = operand{col: x.Index}
		case *Literal:
			out[i] = operand{col: -1, value: x.V}
		default:
			out[i] = operand{col: -1, eval: c.compile(e)}
		}
	}
	return out
}

func (c *compiler) all(es []Expr) []Evaluator {
	out := make([]Evaluator, len(es))
	for i, e := range es {
		out[i] = c.compile(e)
	}
	return out
}

// logic evaluates AND/OR left to right with three-valued logic, stopping at
// the first operand that decides the result.
func (c *compiler) logic(x *Logic) Evaluator {
	args := c.all(x.Args)
	decisive := x.Or // OR stops at TRUE, AND at FALSE
	return func(ctx *Context, row types.Row) (types.Value, error) {
		sawNull := false
		for _, a := range args {
			v, err := a(ctx, row)
			if err != nil {
				return v, err
			}
			if v.Null {
				sawNull = true
				continue
			}
			if v.Bool() == decisive {
				return types.BoolValue(decisive), nil
			}
		}
		if sawNull {
			return types.NullValue, nil
		}
		return types.BoolValue(!decisive), nil
	}
}

func (c *compiler) caseWhen(x *Case) Evaluator {
	conds := make([]Evaluator, len(x.Whens))
	thens := make([]Evaluator, len(x.Whens))
	for i, w := range x.Whens {
		conds[i], thens[i] = c.compile(w.Cond), c.compile(w.Then)
	}
	var els Evaluator
	if x.Else != nil {
		els = c.compile(x.Else)
	}
	return func(ctx *Context, row types.Row) (types.Value, error) {
		for i, cond := range conds {
			v, err := cond(ctx, row)
			if err != nil {
				return v, err
			}
			if !v.Null && v.Bool() {
				return thens[i](ctx, row)
			}
		}
		if els == nil {
			return types.NullValue, nil
		}
		return els(ctx, row)
	}
}

func (c *compiler) inList(x *In) Evaluator {
	in := c.compile(x.X)
	list := c.all(x.List)
	eqs := make([]fn.Eval, len(x.List))
	for i, l := range x.List {
		eq, err := BindEquals(x.X.Type(), l.Type())
		if err != nil && c.err == nil {
			c.err = fmt.Errorf("IN: cannot compare %s with %s: %w", x.X.Type().Plain(), l.Type().Plain(), err)
		}
		eqs[i] = eq
	}
	neg, buf := x.Neg, c.args(2)
	return func(ctx *Context, row types.Row) (types.Value, error) {
		v, err := in(ctx, row)
		if err != nil || v.Null {
			return types.NullValue, err
		}
		sawNull := false
		for i, l := range list {
			w, err := l(ctx, row)
			if err != nil {
				return w, err
			}
			if w.Null {
				sawNull = true
				continue
			}
			pair := buf()
			pair[0], pair[1] = v, w
			eq, err := eqs[i](ctx.Fn, pair)
			if err != nil {
				return eq, err
			}
			if !eq.Null && eq.Bool() {
				return types.BoolValue(!neg), nil
			}
		}
		if sawNull {
			return types.NullValue, nil
		}
		return types.BoolValue(neg), nil
	}
}

// Columns returns the input columns the expressions read, in increasing
// order, each once; nil expressions are skipped.
func Columns(es ...Expr) []int {
	var out []int
	for _, e := range es {
		out = appendColumns(out, e)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func appendColumns(dst []int, e Expr) []int {
	switch x := e.(type) {
	case nil, *Literal, *CurrentWatermark:
	case *Column:
		dst = append(dst, x.Index)
	case *Call:
		dst = appendAll(dst, x.Args)
	case *Cast:
		dst = appendColumns(dst, x.X)
	case *Logic:
		dst = appendAll(dst, x.Args)
	case *Not:
		dst = appendColumns(dst, x.X)
	case *IsNull:
		dst = appendColumns(dst, x.X)
	case *Case:
		for _, w := range x.Whens {
			dst = appendColumns(appendColumns(dst, w.Cond), w.Then)
		}
		dst = appendColumns(dst, x.Else)
	case *Coalesce:
		dst = appendAll(dst, x.Args)
	case *In:
		dst = appendAll(appendColumns(dst, x.X), x.List)
	default:
		panic("expr: unknown expression type")
	}
	return dst
}

func appendAll(dst []int, es []Expr) []int {
	for _, e := range es {
		dst = appendColumns(dst, e)
	}
	return dst
}
