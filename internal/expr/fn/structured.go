package fn

import (
	"fmt"
	"strings"

	"github.com/sluicesql/sluice/internal/types"
)

// Flink's structured type constructors (docs/data/sql_functions.yml,
// "valueconstruction" section, Flink 2.1+): OBJECT_OF and OBJECT_UPDATE,
// with the checks and messages of ObjectOfInputTypeStrategy and
// ObjectUpdateInputTypeStrategy.

func init() {
	takesComposite["OBJECT_OF"] = true
	takesComposite["OBJECT_UPDATE"] = true
	register(bindObjectOf, "OBJECT_OF")
	register(bindObjectUpdate, "OBJECT_UPDATE")
}

// fieldKeys checks the keys of the key-value pairs args[1:] (odd
// positions): constant, non-NULL character strings, each once. It returns
// them in order.
func fieldKeys(name string, args []Arg) ([]string, error) {
	var keys []string
	for i := 1; i < len(args); i += 2 {
		a := args[i]
		if a.Unit != "" || !a.Type.IsString() {
			return nil, fmt.Errorf("%s: The field key at position %d must be a non-null character string, but was %s.", name, i+1, a)
		}
		k, ok := constString(a)
		if !ok {
			return nil, fmt.Errorf("%s: The field key at position %d must be a non-null character string literal.", name, i+1)
		}
		for _, seen := range keys {
			if seen == k {
				return nil, fmt.Errorf("%s: The field name '%s' at position %d is repeated.", name, k, i+1)
			}
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// OBJECT_OF(className, [key, value [, key, value, ...]]): "Creates a
// structured object from a list of key-value pairs." The result is the
// inline structured type of the class, the attributes named by the keys
// and typed as their values (ObjectOfTypeStrategy), nullable; a NULL value
// gives a NULL attribute.
func bindObjectOf(args []Arg) (types.Type, Eval, error) {
	if len(args)%2 == 0 {
		return types.Type{}, nil, sigError("OBJECT_OF", "(STRING class name [, STRING, ANY]*)", args)
	}
	c := args[0]
	if c.Unit != "" || !c.Type.IsString() {
		return types.Type{}, nil, fmt.Errorf("OBJECT_OF: The first argument must be a non-nullable character string representing the class name, but was %s.", c)
	}
	class, ok := constString(c)
	if !ok {
		return types.Type{}, nil, fmt.Errorf("OBJECT_OF: The first argument must be a non-nullable character string literal representing the class name.")
	}
	if !types.ValidClassName(class) {
		return types.Type{}, nil, fmt.Errorf("OBJECT_OF: Invalid class name '%s'. The class name must comply with JVM identifier rules.", class)
	}
	keys, err := fieldKeys("OBJECT_OF", args)
	if err != nil {
		return types.Type{}, nil, err
	}
	fields := make([]types.Field, len(keys))
	for i, k := range keys {
		v := args[2*i+2]
		if v.Unit != "" {
			return types.Type{}, nil, sigError("OBJECT_OF", "(STRING class name [, STRING, ANY]*)", args)
		}
		fields[i] = types.Field{Name: k, Type: v.Type}
	}
	t := types.StructuredOf(class, fields)
	return t, func(_ *Context, v []types.Value) (types.Value, error) {
		vals := make([]types.Value, len(keys))
		for i := range vals {
			vals[i] = v[2*i+2]
		}
		return types.EncodeRow(t, vals), nil
	}, nil
}

// OBJECT_UPDATE(object, key, value [, key, value, ...]): "Updates existing
// fields in a structured object by providing key-value pairs." The result
// is the object's structured type with each updated attribute typed as its
// new value (ObjectUpdateTypeStrategy), attributes in their declared
// order. A NULL object gives NULL.
func bindObjectUpdate(args []Arg) (types.Type, Eval, error) {
	if len(args) < 3 || len(args)%2 == 0 {
		return types.Type{}, nil, sigError("OBJECT_UPDATE", "(STRUCTURED_TYPE object, [STRING, ANY]+)", args)
	}
	in := args[0].Type
	if args[0].Unit != "" || in.Kind != types.Structured {
		return types.Type{}, nil, fmt.Errorf("OBJECT_UPDATE: The first argument must be a structured type, but was %s.", args[0])
	}
	keys, err := fieldKeys("OBJECT_UPDATE", args)
	if err != nil {
		return types.Type{}, nil, err
	}
	fields := append([]types.Field(nil), in.Fields()...)
	at := make([]int, len(keys))
	for i, k := range keys {
		at[i] = types.Schema(fields).Index(k)
		if at[i] < 0 {
			names := types.Schema(fields).Names()
			return types.Type{}, nil, fmt.Errorf("OBJECT_UPDATE: The field name '%s' at position %d is not part of the structured type attributes. Available attributes: [%s].",
				k, 2*i+2, strings.Join(names, ", "))
		}
		if args[2*i+2].Unit != "" {
			return types.Type{}, nil, sigError("OBJECT_UPDATE", "(STRUCTURED_TYPE object, [STRING, ANY]+)", args)
		}
		fields[at[i]].Type = args[2*i+2].Type
	}
	t := types.StructuredOf(in.ClassName(), fields)
	return t, func(_ *Context, v []types.Value) (types.Value, error) {
		if v[0].Null {
			return types.NullValue, nil
		}
		vals, err := types.DecodeRow(in, v[0].S)
		if err != nil {
			return types.NullValue, err
		}
		for i, j := range at {
			vals[j] = v[2*i+2]
		}
		return types.EncodeRow(t, vals), nil
	}, nil
}
