package expr

import (
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/types"
)

// VectorEvaluator computes an expression over every row of a chunk at
// once, appending one value per row to out (a vector of the expression's
// type).
type VectorEvaluator func(ctx *Context, ch *types.Chunk, out *types.Vector) error

// CompileVector compiles e for evaluation over whole chunks, by one
// goroutine at a time, when every part of it has a column form that cannot
// fail: column references, literals, AND, OR, NOT, IS [NOT] NULL, IS [NOT]
// TRUE, IS [NOT] FALSE, the calls fn.BindKernel has a kernel for and the
// casts of decimal arithmetic fn.DecimalArithIntoKernel computes. Since no part can fail, evaluating
// every operand of AND and OR on every row gives the values their left to
// right evaluation gives. ok is false for any other expression, which is
// then evaluated row by row; err is a binding failure.
func CompileVector(e Expr) (ev VectorEvaluator, ok bool, err error) {
	c := &vcompiler{}
	root := c.compile(e)
	if c.err != nil || root == nil {
		return nil, false, c.err
	}
	return func(ctx *Context, ch *types.Chunk, out *types.Vector) error {
		_, err := root(ctx, ch, out)
		return err
	}, true, nil
}

// vnode evaluates one part of an expression over the rows of a chunk. With
// dst set it appends the values to dst and returns it; otherwise it
// returns a vector of them that it owns or an input column, which the
// caller must not change and which stays valid until the node runs again.
type vnode func(ctx *Context, ch *types.Chunk, dst *types.Vector) (*types.Vector, error)

// vcompiler turns expressions into vnodes; a nil vnode means the
// expression has no column form.
type vcompiler struct {
	err error
}

func (c *vcompiler) compile(e Expr) vnode {
	switch x := e.(type) {
	case *Column:
		i := x.Index
		return func(_ *Context, ch *types.Chunk, dst *types.Vector) (*types.Vector, error) {
			if dst == nil {
				return ch.Cols[i], nil
			}
			appendRows(dst, ch.Cols[i])
			return dst, nil
		}
	case *Literal:
		return literalNode(x)
	case *Call:
		if test, ok := boolTests[x.Name]; ok && len(x.Args) == 1 {
			return c.boolTest(x.Args[0], test)
		}
		args := c.all(x.Args)
		if args == nil {
			return nil
		}
		ev, err := Bind(x)
		if err != nil {
			c.err = err
			return nil
		}
		k, ok := fn.BindKernel(x.Name, callArgs(x), x.T, ev)
		if !ok {
			return nil
		}
		return kernelNode(x.T, args, k)
	case *Cast:
		call, ok := x.X.(*Call)
		if !ok || len(call.Args) != 2 {
			return nil
		}
		k, ok := fn.DecimalArithIntoKernel(call.Name, call.Args[0].Type(), call.Args[1].Type(), x.T)
		if !ok {
			return nil
		}
		args := c.all(call.Args)
		if args == nil {
			return nil
		}
		return kernelNode(x.T, args, k)
	case *Logic:
		args := c.all(x.Args)
		if args == nil {
			return nil
		}
		return logicNode(x.Or, args)
	case *Not:
		in := c.compile(x.X)
		if in == nil {
			return nil
		}
		return boolNode(func(ctx *Context, ch *types.Chunk, nulls []bool, vals []int64) error {
			v, err := in(ctx, ch, nil)
			if err != nil {
				return err
			}
			for i := range vals {
				nulls[i], vals[i] = v.Nulls[i], b2i(!v.Nulls[i] && v.I64[i] == 0)
			}
			return nil
		})
	case *IsNull:
		in := c.compile(x.X)
		if in == nil {
			return nil
		}
		neg := x.Neg
		return boolNode(func(ctx *Context, ch *types.Chunk, _ []bool, vals []int64) error {
			v, err := in(ctx, ch, nil)
			if err != nil {
				return err
			}
			for i := range vals {
				vals[i] = b2i(v.Nulls[i] != neg)
			}
			return nil
		})
	}
	return nil
}

// boolTests are IS [NOT] TRUE and IS [NOT] FALSE: the value they give a
// NULL operand and the one they give a TRUE operand (a FALSE one gets its
// negation).
var boolTests = map[string][2]bool{
	"IS TRUE":      {false, true},
	"IS NOT TRUE":  {true, false},
	"IS FALSE":     {false, false},
	"IS NOT FALSE": {true, true},
}

// boolTest compiles a boolean test of x, which is never NULL: x's values
// are written where the test's go and replaced in place.
func (c *vcompiler) boolTest(x Expr, test [2]bool) vnode {
	in := c.compile(x)
	if in == nil {
		return nil
	}
	onNull, onTrue := b2i(test[0]), b2i(test[1])
	own := types.NewVector(types.BooleanType.WithNotNull(true), 0)
	return func(ctx *Context, ch *types.Chunk, dst *types.Vector) (*types.Vector, error) {
		if dst == nil {
			own.Reset()
			dst = own
		}
		m := dst.Len()
		if _, err := in(ctx, ch, dst); err != nil {
			return nil, err
		}
		nulls, vals := dst.Nulls[m:], dst.I64[m:]
		for i := range vals {
			switch {
			case nulls[i]:
				nulls[i], vals[i] = false, onNull
			case vals[i] != 0:
				vals[i] = onTrue
			default:
				vals[i] = 1 - onTrue
			}
		}
		return dst, nil
	}
}

// all compiles es, nil when one has no column form.
func (c *vcompiler) all(es []Expr) []vnode {
	out := make([]vnode, len(es))
	for i, e := range es {
		if out[i] = c.compile(e); out[i] == nil {
			return nil
		}
	}
	return out
}

// callArgs describes x's arguments to its function: their types, units
// and constant values.
func callArgs(x *Call) []fn.Arg {
	args := make([]fn.Arg, len(x.Args))
	for i, a := range x.Args {
		if i < len(x.Units) && x.Units[i] != "" {
			args[i] = fn.Arg{Unit: x.Units[i]}
			continue
		}
		args[i] = fn.Arg{Type: a.Type()}
		if lit, ok := a.(*Literal); ok {
			v := lit.V
			args[i].Const = &v
		}
	}
	return args
}

// appendRows appends every row of src to dst.
func appendRows(dst, src *types.Vector) {
	dst.Nulls = append(dst.Nulls, src.Nulls...)
	switch dst.Type.Physical() {
	case types.PhysFloat:
		dst.F64 = append(dst.F64, src.F64...)
	case types.PhysString:
		dst.Str = append(dst.Str, src.Str...)
	default:
		dst.I64 = append(dst.I64, src.I64...)
	}
}

// literalNode repeats the literal once per row.
func literalNode(x *Literal) vnode {
	v := types.NewVector(x.T, 0)
	return func(_ *Context, ch *types.Chunk, dst *types.Vector) (*types.Vector, error) {
		n := ch.Len()
		if v.Len() != n {
			v.Reset()
			for range n {
				v.Append(x.V)
			}
		}
		if dst == nil {
			return v, nil
		}
		appendRows(dst, v)
		return dst, nil
	}
}

// kernelNode runs k over its arguments' vectors.
func kernelNode(t types.Type, args []vnode, k fn.Kernel) vnode {
	vecs := make([]*types.Vector, len(args))
	own := types.NewVector(t, 0)
	return func(ctx *Context, ch *types.Chunk, dst *types.Vector) (*types.Vector, error) {
		for i, a := range args {
			v, err := a(ctx, ch, nil)
			if err != nil {
				return nil, err
			}
			vecs[i] = v
		}
		if dst == nil {
			own.Reset()
			dst = own
		}
		return dst, k(ctx.Fn, vecs, dst)
	}
}

// boolNode is a BOOLEAN-valued node whose fill sets the null flags and
// values of the chunk's rows (all false and 0 when it is called).
func boolNode(fill func(ctx *Context, ch *types.Chunk, nulls []bool, vals []int64) error) vnode {
	own := types.NewVector(types.BooleanType, 0)
	return func(ctx *Context, ch *types.Chunk, dst *types.Vector) (*types.Vector, error) {
		if dst == nil {
			own.Reset()
			dst = own
		}
		m, n := dst.Len(), ch.Len()
		dst.Nulls = append(dst.Nulls, make([]bool, n)...)
		dst.I64 = append(dst.I64, make([]int64, n)...)
		return dst, fill(ctx, ch, dst.Nulls[m:], dst.I64[m:])
	}
}

// logicNode is AND (or false) or OR over BOOLEAN operands, with SQL's
// three-valued logic: the decisive value (FALSE for AND, TRUE for OR) if
// any operand has it, else NULL if any operand is NULL, else the other.
func logicNode(or bool, args []vnode) vnode {
	decisive := b2i(or)
	return boolNode(func(ctx *Context, ch *types.Chunk, nulls []bool, vals []int64) error {
		for i := range vals {
			vals[i] = 1 - decisive
		}
		for _, a := range args {
			v, err := a(ctx, ch, nil)
			if err != nil {
				return err
			}
			for i := range vals {
				switch {
				case v.Nulls[i]:
					nulls[i] = nulls[i] || vals[i] != decisive
				case (v.I64[i] != 0) == or:
					nulls[i], vals[i] = false, decisive
				}
			}
		}
		for i := range vals {
			if nulls[i] {
				vals[i] = 0
			}
		}
		return nil
	})
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
