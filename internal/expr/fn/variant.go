package fn

import (
	"github.com/sluicesql/sluice/internal/types"
)

// Flink's VARIANT functions (docs/data/sql_functions.yml, "variant"
// section, Flink 2.1+): PARSE_JSON and TRY_PARSE_JSON, and item access
// v['key'] and v[index] (bindItem).

func init() {
	register(bindParseJSON("PARSE_JSON", false), "PARSE_JSON")
	register(bindParseJSON("TRY_PARSE_JSON", true), "TRY_PARSE_JSON")
}

// PARSE_JSON(json_string [, allow_duplicate_keys]) → VARIANT: "Parses a
// JSON string into a Variant. If the JSON string is invalid, an error will
// be thrown. ... If allow_duplicate_keys is true, the parser will keep the
// last occurrence of all fields with the same key, otherwise it will throw
// an error." TRY_PARSE_JSON gives NULL instead of failing. A NULL string
// gives NULL; so does a NULL allow_duplicate_keys, which the function
// never sees a value of in Flink either (its eval takes a primitive
// boolean, so a NULL argument short-cuts the call). The error is
// ParseJsonFunction's, "Failed to parse json string: ..." followed by its
// cause (the syntax error with its line and column, or
// VARIANT_DUPLICATE_KEY).
func bindParseJSON(name string, try bool) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		ok := len(args) == 1 || len(args) == 2
		for i, a := range args {
			switch {
			case a.Unit != "":
				ok = false
			case i == 0:
				ok = ok && (a.Type.IsString() || a.Type.Kind == types.Null)
			default:
				ok = ok && (a.Type.Kind == types.Boolean || a.Type.Kind == types.Null)
			}
		}
		if !ok {
			return types.Type{}, nil, sigError(name, "(STRING [, BOOLEAN allowDuplicateKeys])", args)
		}
		t := strictType(types.VariantType, args)
		if try {
			t = types.VariantType
		}
		return t, strict(func(_ *Context, v []types.Value) (types.Value, error) {
			dups := len(v) == 2 && v[1].I != 0
			enc, err := types.ParseVariantJSON(v[0].S, dups)
			if err != nil {
				if try {
					return types.NullValue, nil
				}
				return types.NullValue, runtimeError(name, "Failed to parse json string: %s: %v", v[0].S, err)
			}
			return types.StringValue(enc), nil
		}), nil
	}
}

// bindVariantItem is v['key'] and v[index] of a VARIANT (Flink 2.1+):
// the field of an object or the element of an array (1-based) as a
// VARIANT, NULL when v holds no object (array), no such field (index), or
// is NULL.
func bindVariantItem(args []Arg) (types.Type, Eval, error) {
	i := args[1].Type
	switch {
	case i.IsString():
		return types.VariantType, strict(func(_ *Context, v []types.Value) (types.Value, error) {
			return variantItem(types.VariantField(v[0].S, v[1].S))
		}), nil
	case i.IsInteger():
		return types.VariantType, strict(func(_ *Context, v []types.Value) (types.Value, error) {
			return variantItem(types.VariantElement(v[0].S, v[1].I))
		}), nil
	}
	return types.Type{}, nil, sigError("ITEM", "variant[string] or variant[integer]", args)
}

func variantItem(s string, found bool, err error) (types.Value, error) {
	if err != nil || !found {
		return types.NullValue, err
	}
	return types.StringValue(s), nil
}
