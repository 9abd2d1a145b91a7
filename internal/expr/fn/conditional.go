package fn

import (
	"github.com/sluicesql/sluice/internal/types"
)

// Conditional functions, after Flink's "Conditional Functions"
// documentation. Their arguments are brought to a common type
// (types.CommonType, Flink's LogicalTypeMerging.findCommonType) and the
// values converted with types.Cast. CASE is compiled by the caller.

func init() {
	register(bindCoalesce, "COALESCE")
	register(bindIfNull, "IFNULL")
	register(bindIf, "IF")
	register(bindNullIf, "NULLIF")
	register(bindGreatestLeast("GREATEST", 1), "GREATEST")
	register(bindGreatestLeast("LEAST", -1), "LEAST")
}

// converter converts values of one type to another for an implicit cast.
type converter func(ctx *Context, v types.Value) (types.Value, error)

// convertTo returns the conversion of values of type from to type to:
// nothing when their stored form is the same, types.Cast otherwise.
func convertTo(from, to types.Type) converter {
	same := from.Kind == to.Kind && !from.IsComposite() &&
		(from.Kind != types.Decimal || from.Scale == to.Scale && from.IsWideDecimal() == to.IsWideDecimal()) &&
		from.IsNanoTimestamp() == to.IsNanoTimestamp() ||
		from.IsString() && to.IsString() || from.Kind == types.Null ||
		types.Equal(from.Nullable(), to.Nullable())
	if same {
		return func(_ *Context, v types.Value) (types.Value, error) { return v, nil }
	}
	from, to = from.Plain(), to.Plain()
	return func(ctx *Context, v types.Value) (types.Value, error) {
		return types.Cast(v, from, to, ctx.loc())
	}
}

// commonOf returns the common type of the arguments and a converter for
// each, or false when they have none.
func commonOf(args []Arg) (types.Type, []converter, bool) {
	if len(args) == 0 {
		return types.Type{}, nil, false
	}
	t := args[0].Type
	for _, a := range args {
		if a.Unit != "" {
			return types.Type{}, nil, false
		}
		if a.Type.Kind == types.Null {
			continue
		}
		if t.Kind == types.Null {
			t = a.Type
			continue
		}
		c, ok := types.CommonType(t, a.Type)
		if !ok {
			return types.Type{}, nil, false
		}
		t = c
	}
	convs := make([]converter, len(args))
	for i, a := range args {
		convs[i] = convertTo(a.Type, t)
	}
	return t.Plain(), convs, true
}

// COALESCE(value1, value2 [, value3]*): "Returns the first argument that is
// not NULL. If all arguments are NULL, it returns NULL as well." The result
// is NOT NULL when any argument is.
func bindCoalesce(args []Arg) (types.Type, Eval, error) {
	t, convs, ok := commonOf(args)
	if !ok {
		return types.Type{}, nil, sigError("COALESCE", "(T, T, ...) of types with a common type", args)
	}
	notNull := false
	for _, a := range args {
		notNull = notNull || a.Type.NotNull
	}
	return t.WithNotNull(notNull), func(ctx *Context, v []types.Value) (types.Value, error) {
		for i, x := range v {
			if !x.Null {
				return convs[i](ctx, x)
			}
		}
		return types.NullValue, nil
	}, nil
}

// IFNULL(input, null_replacement): "Returns null_replacement if input is
// NULL; otherwise input is returned."
func bindIfNull(args []Arg) (types.Type, Eval, error) {
	if len(args) != 2 {
		return types.Type{}, nil, sigError("IFNULL", "(T input, T null_replacement)", args)
	}
	t, eval, err := bindCoalesce(args)
	if err != nil {
		return types.Type{}, nil, sigError("IFNULL", "(T input, T null_replacement) of types with a common type", args)
	}
	return t, eval, nil
}

// IF(condition, true_value, false_value): "Returns the true_value if
// condition is met, otherwise false_value." A NULL condition counts as not
// met. The result is nullable when any argument is, the condition included
// (FlinkReturnTypes.IF_NULLABLE: SqlTypeTransforms.TO_NULLABLE).
func bindIf(args []Arg) (types.Type, Eval, error) {
	if len(args) != 3 || !match(args[:1], boolean) {
		return types.Type{}, nil, sigError("IF", "(BOOLEAN, T, T)", args)
	}
	t, convs, ok := commonOf(args[1:])
	if !ok {
		return types.Type{}, nil, sigError("IF", "(BOOLEAN, T, T) with a common type T", args)
	}
	t = t.WithNotNull(!anyNullable(args))
	return t, func(ctx *Context, v []types.Value) (types.Value, error) {
		if !v[0].Null && v[0].Bool() {
			return convs[0](ctx, v[1])
		}
		return convs[1](ctx, v[2])
	}, nil
}

// NULLIF(value1, value2): "Returns NULL if value1 is equal to value2;
// returns value1 otherwise." The result has value1's type.
func bindNullIf(args []Arg) (types.Type, Eval, error) {
	c, err := comparisonFor("NULLIF", args)
	if err != nil {
		return types.Type{}, nil, err
	}
	return args[0].Type.Plain().Nullable(), func(ctx *Context, v []types.Value) (types.Value, error) {
		if !v[0].Null && !v[1].Null && c.compare(ctx, v[0], v[1]) == 0 {
			return types.NullValue, nil
		}
		return v[0], nil
	}, nil
}

// GREATEST(value1[, value2]*) / LEAST: "Returns the greatest (least) value
// of the list of arguments. Returns NULL if any argument is NULL."
func bindGreatestLeast(name string, sign int) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		t, convs, ok := commonOf(args)
		if !ok || t.Kind == types.Null {
			return types.Type{}, nil, sigError(name, "(T, T, ...) of comparable types with a common type", args)
		}
		c, ok := newComparison(t, t)
		if !ok {
			return types.Type{}, nil, sigError(name, "(T, T, ...) of comparable types with a common type", args)
		}
		return strictType(t, args), strict(func(ctx *Context, v []types.Value) (types.Value, error) {
			var best types.Value
			for i, x := range v {
				x, err := convs[i](ctx, x)
				if err != nil {
					return types.Value{}, runtimeError(name, "%v", err)
				}
				if i == 0 || c.compare(ctx, x, best)*sign > 0 {
					best = x
				}
			}
			return best, nil
		}), nil
	}
}
