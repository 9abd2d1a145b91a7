package fn

import (
	"github.com/sluicesql/sluice/internal/types"
)

// Logical operators with SQL's three-valued logic: FALSE AND NULL is FALSE,
// TRUE OR NULL is TRUE, NOT NULL is NULL. AND and OR take two or more
// operands. The IS predicates never return NULL.

func init() {
	register(bindJunction("AND", false), "AND")
	register(bindJunction("OR", true), "OR")
	register(bindNot, "NOT")
	for name, test := range isPredicates {
		register(bindIsPredicate(name, test), name)
	}
}

// bindJunction builds AND (dominant false) or OR (dominant true): the
// dominant value wins over NULL, NULL wins over the other value.
func bindJunction(name string, dominant bool) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if len(args) < 2 {
			return types.Type{}, nil, sigError(name, "(BOOLEAN, BOOLEAN, ...)", args)
		}
		for _, a := range args {
			if !match([]Arg{a}, boolean) {
				return types.Type{}, nil, sigError(name, "(BOOLEAN, BOOLEAN, ...)", args)
			}
		}
		return strictType(types.BooleanType, args), func(_ *Context, v []types.Value) (types.Value, error) {
			sawNull := false
			for _, x := range v {
				switch {
				case x.Null:
					sawNull = true
				case x.Bool() == dominant:
					return types.BoolValue(dominant), nil
				}
			}
			if sawNull {
				return types.NullValue, nil
			}
			return types.BoolValue(!dominant), nil
		}, nil
	}
}

func bindNot(args []Arg) (types.Type, Eval, error) {
	if !match(args, boolean) {
		return types.Type{}, nil, sigError("NOT", "(BOOLEAN)", args)
	}
	return strictType(types.BooleanType, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		return types.BoolValue(!v[0].Bool()), nil
	}), nil
}

// isPredicates are x IS [NOT] NULL / TRUE / FALSE / UNKNOWN; the boolean
// ones require a BOOLEAN operand.
var isPredicates = map[string]func(v types.Value) bool{
	"IS NULL":        func(v types.Value) bool { return v.Null },
	"IS NOT NULL":    func(v types.Value) bool { return !v.Null },
	"IS TRUE":        func(v types.Value) bool { return !v.Null && v.Bool() },
	"IS NOT TRUE":    func(v types.Value) bool { return v.Null || !v.Bool() },
	"IS FALSE":       func(v types.Value) bool { return !v.Null && !v.Bool() },
	"IS NOT FALSE":   func(v types.Value) bool { return v.Null || v.Bool() },
	"IS UNKNOWN":     func(v types.Value) bool { return v.Null },
	"IS NOT UNKNOWN": func(v types.Value) bool { return !v.Null },
}

func bindIsPredicate(name string, test func(types.Value) bool) bindFunc {
	operand, expects := boolean, "(BOOLEAN)"
	if name == "IS NULL" || name == "IS NOT NULL" {
		operand, expects = anyType, "(any type)"
	}
	return func(args []Arg) (types.Type, Eval, error) {
		if !match(args, operand) {
			return types.Type{}, nil, sigError(name, expects, args)
		}
		return types.BooleanType.WithNotNull(true), func(_ *Context, v []types.Value) (types.Value, error) {
			return types.BoolValue(test(v[0])), nil
		}, nil
	}
}
