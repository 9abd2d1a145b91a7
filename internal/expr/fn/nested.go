package fn

import (
	"fmt"
	"strconv"

	"github.com/sluicesql/sluice/internal/types"
)

// Value constructors and element access of composite types, after
// Flink's "Value Construction" and "Value Access" functions. The parser
// turns ARRAY[...], MAP[...], ROW(...) and (a, b), x[i] and r.f into calls
// of the internal names below, which SQL text cannot name.
const (
	// ArrayCtor is ARRAY[v, ...].
	ArrayCtor = "$ARRAY"
	// MapCtor is MAP[k, v, ...].
	MapCtor = "$MAP"
	// RowCtor is ROW(v, ...) and (v1, v2, ...).
	RowCtor = "$ROW"
	// Item is array[index] and map[key].
	Item = "$ITEM"
	// Dot is row.field; its second argument is the field name, a constant.
	Dot = "$DOT"
)

func init() {
	for _, n := range []string{ArrayCtor, MapCtor, RowCtor, Item, Dot} {
		takesComposite[n] = true
	}
	register(bindArrayCtor, ArrayCtor)
	register(bindMapCtor, MapCtor)
	register(bindRowCtor, RowCtor)
	register(bindItem, Item)
	register(bindDot, Dot)
}

// elementsOf is the common type of a constructor's items and their
// conversions to it.
func elementsOf(what string, args []Arg) (types.Type, []converter, error) {
	t, convs, ok := commonOf(args)
	if !ok || t.Kind == types.Null {
		return types.Type{}, nil, sigError(what, "values of one type (with a common type that is not NULL)", args)
	}
	notNull := true
	for _, a := range args {
		notNull = notNull && a.Type.NotNull
	}
	return t.WithNotNull(notNull), convs, nil
}

// ARRAY[value1 [, value2]*]: "Returns an array created from a list of
// values." The element type is the items' common type, NOT NULL when
// every item is.
func bindArrayCtor(args []Arg) (types.Type, Eval, error) {
	if len(args) == 0 {
		return types.Type{}, nil, sigError("ARRAY", "at least one value", args)
	}
	elem, convs, err := elementsOf("ARRAY", args)
	if err != nil {
		return types.Type{}, nil, err
	}
	return types.ArrayOf(elem).WithNotNull(true), func(ctx *Context, v []types.Value) (types.Value, error) {
		vs := make([]types.Value, len(v))
		for i, x := range v {
			y, err := convs[i](ctx, x)
			if err != nil {
				return types.NullValue, err
			}
			vs[i] = y
		}
		return types.EncodeArray(elem, vs), nil
	}, nil
}

// MAP[key1, value1 [, key2, value2]*]: "Returns a map created from a list
// of key-value pairs." A key given twice keeps its first position and its
// last value, as Java's LinkedHashMap that Flink builds the map with.
func bindMapCtor(args []Arg) (types.Type, Eval, error) {
	if len(args) == 0 || len(args)%2 != 0 {
		return types.Type{}, nil, sigError("MAP", "an even number of arguments, keys and values in turn", args)
	}
	var ks, vs []Arg
	for i, a := range args {
		if i%2 == 0 {
			ks = append(ks, a)
		} else {
			vs = append(vs, a)
		}
	}
	kt, kconv, err := elementsOf("MAP keys", ks)
	if err != nil {
		return types.Type{}, nil, err
	}
	vt, vconv, err := elementsOf("MAP values", vs)
	if err != nil {
		return types.Type{}, nil, err
	}
	t := types.MapOf(kt, vt).WithNotNull(true)
	eq := scalarEquality(kt)
	return t, func(ctx *Context, v []types.Value) (types.Value, error) {
		keys := make([]types.Value, 0, len(ks))
		vals := make([]types.Value, 0, len(vs))
	entries:
		for i := 0; i < len(v); i += 2 {
			k, err := kconv[i/2](ctx, v[i])
			if err != nil {
				return types.NullValue, err
			}
			x, err := vconv[i/2](ctx, v[i+1])
			if err != nil {
				return types.NullValue, err
			}
			for j, old := range keys {
				if eq(old, k) {
					vals[j] = x
					continue entries
				}
			}
			keys, vals = append(keys, k), append(vals, x)
		}
		return types.EncodeMap(t, keys, vals), nil
	}, nil
}

// scalarEquality tells whether two values of type t are the same key:
// NULL equals NULL, numbers and strings by value, composite values by
// their encodings.
func scalarEquality(t types.Type) func(a, b types.Value) bool {
	return func(a, b types.Value) bool {
		if a.Null || b.Null {
			return a.Null == b.Null
		}
		switch t.Physical() {
		case types.PhysFloat:
			return a.F == b.F
		case types.PhysString:
			return a.S == b.S
		}
		return a.I == b.I
	}
}

// ROW(value1 [, value2]*) and (value1, value2 [, value3]*): "Returns a row
// created from a list of values." Its fields are named EXPR$0, EXPR$1,
// ..., as Flink names them.
func bindRowCtor(args []Arg) (types.Type, Eval, error) {
	fields := make([]types.Field, len(args))
	for i, a := range args {
		if a.Unit != "" {
			return types.Type{}, nil, sigError("ROW", "values", args)
		}
		fields[i] = types.Field{Name: "EXPR$" + strconv.Itoa(i), Type: a.Type.Plain()}
	}
	t := types.RowOf(fields).WithNotNull(true)
	return t, func(_ *Context, v []types.Value) (types.Value, error) {
		return types.EncodeRow(t, v), nil
	}, nil
}

// array[index] (1-based) and map[key]: "Returns the element at position
// INT in array. The index starts from 1." and "Returns the value specified
// by key value in map." An index out of the array's bounds, or a key the
// map does not hold, gives NULL, as Flink's ITEM does.
func bindItem(args []Arg) (types.Type, Eval, error) {
	if len(args) != 2 || args[0].Unit != "" || args[1].Unit != "" {
		return types.Type{}, nil, sigError("ITEM", "array[integer] or map[key]", args)
	}
	c, i := args[0].Type, args[1].Type
	switch {
	case c.Kind == types.Variant:
		return bindVariantItem(args)
	case c.Kind == types.Array && (i.IsInteger() || i.Kind == types.Null):
		elem := c.Elem()
		return elem.Nullable(), strict(func(_ *Context, v []types.Value) (types.Value, error) {
			vs, err := types.DecodeArray(elem, v[0].S)
			if err != nil {
				return types.NullValue, err
			}
			if n := v[1].I; n >= 1 && n <= int64(len(vs)) {
				return vs[n-1], nil
			}
			return types.NullValue, nil
		}), nil
	case c.Kind == types.Map:
		kt := c.KeyType()
		if !types.ImplicitCast(i.Nullable(), kt.Nullable()) {
			return types.Type{}, nil, sigError("ITEM", fmt.Sprintf("a key of type %s for a %s", kt.Nullable(), c.Plain().Nullable()), args)
		}
		conv := convertTo(i, kt.Nullable())
		eq := scalarEquality(kt)
		return c.ValueType().Nullable(), strict(func(ctx *Context, v []types.Value) (types.Value, error) {
			k, err := conv(ctx, v[1])
			if err != nil {
				return types.NullValue, err
			}
			ks, vs, err := types.DecodeMap(c, v[0].S)
			if err != nil {
				return types.NullValue, err
			}
			for j := range ks {
				if eq(ks[j], k) {
					return vs[j], nil
				}
			}
			return types.NullValue, nil
		}), nil
	}
	return types.Type{}, nil, sigError("ITEM", "array[integer] or map[key]", args)
}

// row.field: the field of a ROW (or the attribute of a structured
// value), NULL when the row is.
func bindDot(args []Arg) (types.Type, Eval, error) {
	if len(args) != 2 || !args[0].Type.HasFields() || args[1].Const == nil || !args[1].Type.IsString() {
		return types.Type{}, nil, sigError("DOT", "a ROW and a field name", args)
	}
	row, name := args[0].Type, args[1].Const.S
	at := -1
	for j, f := range row.Fields() {
		if f.Name == name {
			at = j
		}
	}
	if at < 0 {
		return types.Type{}, nil, fmt.Errorf("%s has no field '%s'", row.Plain().Nullable(), name)
	}
	t := row.Fields()[at].Type
	if !row.NotNull {
		t = t.Nullable()
	}
	return t, func(_ *Context, v []types.Value) (types.Value, error) {
		if v[0].Null {
			return types.NullValue, nil
		}
		vs, err := types.DecodeRow(row, v[0].S)
		if err != nil {
			return types.NullValue, err
		}
		return vs[at], nil
	}, nil
}
