package expr

import (
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

// Compile turns e into an evaluator.
func Compile(e Expr) Evaluator {
	switch x := e.(type) {
	case *Column:
		i := x.Index
		return func(_ *Context, row types.Row) (types.Value, error) { return row[i], nil }
	case *Literal:
		v := x.V
		return func(*Context, types.Row) (types.Value, error) { return v, nil }
	case *Call:
		args := compileAll(x.Args)
		f := x.Eval
		return func(ctx *Context, row types.Row) (types.Value, error) {
			vals := make([]types.Value, len(args))
			for i, a := range args {
				v, err := a(ctx, row)
				if err != nil {
					return types.Value{}, err
				}
				vals[i] = v
			}
			return f(ctx.Fn, vals)
		}
	case *Cast:
		in := Compile(x.X)
		from, to, try := x.X.Type(), x.T, x.Try
		return func(ctx *Context, row types.Row) (types.Value, error) {
			v, err := in(ctx, row)
			if err != nil || v.Null {
				return types.NullValue, err
			}
			out, err := types.Cast(v, from, to, ctx.Fn.Loc)
			if err != nil && try {
				return types.NullValue, nil
			}
			return out, err
		}
	case *Logic:
		return compileLogic(x)
	case *Not:
		in := Compile(x.X)
		return func(ctx *Context, row types.Row) (types.Value, error) {
			v, err := in(ctx, row)
			if err != nil || v.Null {
				return v, err
			}
			return types.BoolValue(!v.Bool()), nil
		}
	case *IsNull:
		in := Compile(x.X)
		neg := x.Neg
		return func(ctx *Context, row types.Row) (types.Value, error) {
			v, err := in(ctx, row)
			return types.BoolValue(v.Null != neg), err
		}
	case *Case:
		return compileCase(x)
	case *Coalesce:
		args := compileAll(x.Args)
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
		return compileIn(x)
	case *CurrentWatermark:
		return func(ctx *Context, _ types.Row) (types.Value, error) {
			if !ctx.HasWatermark {
				return types.NullValue, nil
			}
			return types.IntValue(ctx.Watermark), nil
		}
	}
	panic("expr: unknown expression type")
}

func compileAll(es []Expr) []Evaluator {
	out := make([]Evaluator, len(es))
	for i, e := range es {
		out[i] = Compile(e)
	}
	return out
}

// compileLogic evaluates AND/OR left to right with three-valued logic,
// stopping at the first operand that decides the result.
func compileLogic(x *Logic) Evaluator {
	args := compileAll(x.Args)
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

func compileCase(x *Case) Evaluator {
	conds := make([]Evaluator, len(x.Whens))
	thens := make([]Evaluator, len(x.Whens))
	for i, w := range x.Whens {
		conds[i], thens[i] = Compile(w.Cond), Compile(w.Then)
	}
	var els Evaluator
	if x.Else != nil {
		els = Compile(x.Else)
	}
	return func(ctx *Context, row types.Row) (types.Value, error) {
		for i, c := range conds {
			v, err := c(ctx, row)
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

func compileIn(x *In) Evaluator {
	in := Compile(x.X)
	list := compileAll(x.List)
	eqs, neg := x.Eq, x.Neg
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
			eq, err := eqs[i](ctx.Fn, []types.Value{v, w})
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

// Predicate compiles a boolean expression into a filter: NULL counts as false.
func Predicate(e Expr) func(ctx *Context, row types.Row) (bool, error) {
	ev := Compile(e)
	return func(ctx *Context, row types.Row) (bool, error) {
		v, err := ev(ctx, row)
		return err == nil && !v.Null && v.Bool(), err
	}
}
