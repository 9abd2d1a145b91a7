package fn

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sluicesql/sluice/internal/types"
)

// Collection functions of Flink's list ("Collection Functions" and the
// array and map functions of the string and JSON sections), over ARRAY,
// MAP and MULTISET values. Element equality (ARRAY_CONTAINS,
// ARRAY_DISTINCT, ARRAY_POSITION, ARRAY_REMOVE, ARRAY_UNION, ARRAY_EXCEPT,
// ARRAY_INTERSECT, map keys) is by value, NULL equal to NULL, as Flink's
// element comparisons (EqualityAndHashcodeProvider) are.
// https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/functions/systemfunctions/#collection-functions

var (
	arrayT typePred = func(t types.Type) bool { return t.Kind == types.Array }
	mapT   typePred = func(t types.Type) bool { return t.Kind == types.Map }
	collT  typePred = func(t types.Type) bool {
		return t.Kind == types.Array || t.Kind == types.Map || t.Kind == types.Multiset
	}
)

func init() {
	for _, n := range []string{"CARDINALITY", "ELEMENT", "ARRAY_APPEND", "ARRAY_PREPEND", "ARRAY_CONTAINS",
		"ARRAY_DISTINCT", "ARRAY_POSITION", "ARRAY_REMOVE", "ARRAY_REVERSE", "ARRAY_SLICE", "ARRAY_SORT",
		"ARRAY_UNION", "ARRAY_CONCAT", "ARRAY_EXCEPT", "ARRAY_INTERSECT", "ARRAY_MAX", "ARRAY_MIN",
		"ARRAY_JOIN", "MAP_KEYS", "MAP_VALUES", "MAP_ENTRIES", "MAP_UNION", "MAP_FROM_ARRAYS"} {
		takesComposite[n] = true
	}
	register(bindCardinality, "CARDINALITY")
	register(bindElement, "ELEMENT")
	register(bindArrayAdd("ARRAY_APPEND", false), "ARRAY_APPEND")
	register(bindArrayAdd("ARRAY_PREPEND", true), "ARRAY_PREPEND")
	register(bindArrayContains, "ARRAY_CONTAINS")
	register(bindArrayPosition, "ARRAY_POSITION")
	register(bindArrayRemove, "ARRAY_REMOVE")
	register(bindArrayReshape("ARRAY_DISTINCT", func(elem types.Type, vs []types.Value) []types.Value {
		return distinct(elem, vs)
	}), "ARRAY_DISTINCT")
	register(bindArrayReshape("ARRAY_REVERSE", func(_ types.Type, vs []types.Value) []types.Value {
		slices.Reverse(vs)
		return vs
	}), "ARRAY_REVERSE")
	register(bindArraySlice, "ARRAY_SLICE")
	register(bindArraySort, "ARRAY_SORT")
	register(bindArraySet("ARRAY_UNION", func(a, b []types.Value, eq func(a, b types.Value) bool) []types.Value {
		return append(a, b...)
	}), "ARRAY_UNION")
	register(bindArraySet("ARRAY_EXCEPT", func(a, b []types.Value, eq func(a, b types.Value) bool) []types.Value {
		return slices.DeleteFunc(a, func(x types.Value) bool { return contains(b, x, eq) })
	}), "ARRAY_EXCEPT")
	register(bindArraySet("ARRAY_INTERSECT", func(a, b []types.Value, eq func(a, b types.Value) bool) []types.Value {
		return slices.DeleteFunc(a, func(x types.Value) bool { return !contains(b, x, eq) })
	}), "ARRAY_INTERSECT")
	register(bindArrayConcat, "ARRAY_CONCAT")
	register(bindArrayExtreme("ARRAY_MAX", 1), "ARRAY_MAX")
	register(bindArrayExtreme("ARRAY_MIN", -1), "ARRAY_MIN")
	register(bindArrayJoin, "ARRAY_JOIN")
	register(bindMapPart("MAP_KEYS"), "MAP_KEYS")
	register(bindMapPart("MAP_VALUES"), "MAP_VALUES")
	register(bindMapPart("MAP_ENTRIES"), "MAP_ENTRIES")
	register(bindMapUnion, "MAP_UNION")
	register(bindMapFromArrays, "MAP_FROM_ARRAYS")
}

// elements decodes an ARRAY value.
func elements(t types.Type, v types.Value) ([]types.Value, error) {
	return types.DecodeArray(t.Elem(), v.S)
}

func contains(vs []types.Value, x types.Value, eq func(a, b types.Value) bool) bool {
	return slices.ContainsFunc(vs, func(y types.Value) bool { return eq(x, y) })
}

// distinct keeps the first of equal elements, in order.
func distinct(elem types.Type, vs []types.Value) []types.Value {
	eq := scalarEquality(elem)
	out := vs[:0]
	for _, x := range vs {
		if !contains(out, x, eq) {
			out = append(out, x)
		}
	}
	return out
}

// CARDINALITY(array), CARDINALITY(map), CARDINALITY(multiset): "Returns
// the number of elements in array", "the number of entries in map", "the
// number of elements in multiset" (counting repeated elements).
func bindCardinality(args []Arg) (types.Type, Eval, error) {
	if !match(args, collT) {
		return types.Type{}, nil, sigError("CARDINALITY", "(ARRAY), (MAP) or (MULTISET)", args)
	}
	t := args[0].Type
	return strictType(types.IntType, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		if t.Kind == types.Array {
			vs, err := elements(t, v[0])
			return types.IntValue(int64(len(vs))), err
		}
		ks, counts, err := types.DecodeMap(t, v[0].S)
		if t.Kind == types.Map {
			return types.IntValue(int64(len(ks))), err
		}
		var n int64
		for _, c := range counts {
			n += c.I
		}
		return types.IntValue(n), err
	}), nil
}

// ELEMENT(array): "Returns the sole element of array (whose cardinality
// should be one); returns NULL if array is empty. Throws an exception if
// array has more than one element."
func bindElement(args []Arg) (types.Type, Eval, error) {
	if !match(args, arrayT) {
		return types.Type{}, nil, sigError("ELEMENT", "(ARRAY)", args)
	}
	t := args[0].Type
	return t.Elem().Nullable(), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		vs, err := elements(t, v[0])
		switch {
		case err != nil:
			return types.NullValue, err
		case len(vs) > 1:
			return types.NullValue, runtimeError("ELEMENT", "the array has more than one element")
		case len(vs) == 0:
			return types.NullValue, nil
		}
		return vs[0], nil
	}), nil
}

// elementArg checks that a takes the place of an element of array type t
// and returns its conversion to the element type (Flink casts it
// implicitly).
func elementArg(name string, t types.Type, a Arg, args []Arg) (converter, error) {
	if a.Unit != "" || a.Type.Kind != types.Null && !types.ImplicitCast(a.Type.Nullable(), t.Elem().Nullable()) {
		return nil, sigError(name, "(ARRAY<T>, T)", args)
	}
	return convertTo(a.Type, t.Elem().Nullable()), nil
}

// arrayElementCall binds name(array, element), a function of an array and
// a value of its element type, implicitly cast to it. It returns the
// array's type and an evaluator that gives f the array's elements and the
// converted element; a NULL array gives NULL, and with strictElement so
// does a NULL element.
func arrayElementCall(name string, args []Arg, strictElement bool, f func(t types.Type, vs []types.Value, x types.Value) types.Value) (types.Type, Eval, error) {
	if len(args) != 2 || !arrayT(args[0].Type) {
		return types.Type{}, nil, sigError(name, "(ARRAY<T>, T)", args)
	}
	t := args[0].Type
	conv, err := elementArg(name, t, args[1], args)
	if err != nil {
		return types.Type{}, nil, err
	}
	return t, func(ctx *Context, v []types.Value) (types.Value, error) {
		if v[0].Null || strictElement && v[1].Null {
			return types.NullValue, nil
		}
		vs, err := elements(t, v[0])
		if err != nil {
			return types.NullValue, err
		}
		x, err := conv(ctx, v[1])
		if err != nil {
			return types.NullValue, err
		}
		return f(t, vs, x), nil
	}, nil
}

// ARRAY_APPEND(array, element): "Appends an element to the end of the
// array and returns the result. If the array itself is null, the function
// will return null. If an element to add is null, the null element will be
// added to the end of the array." ARRAY_PREPEND(array, element) adds it at
// the beginning. The element type becomes nullable when the element is,
// and so does the array (BuiltInFunctionDefinitions.ARRAY_APPEND:
// nullableIfArgs(ARRAY_APPEND_PREPEND)).
func bindArrayAdd(name string, front bool) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		var elem types.Type
		t, ev, err := arrayElementCall(name, args, false, func(_ types.Type, vs []types.Value, x types.Value) types.Value {
			if front {
				vs = append([]types.Value{x}, vs...)
			} else {
				vs = append(vs, x)
			}
			return types.EncodeArray(elem, vs)
		})
		if err != nil {
			return types.Type{}, nil, err
		}
		elem = t.Elem().WithNotNull(t.Elem().NotNull && args[1].Type.NotNull)
		return types.ArrayOf(elem).WithNotNull(!anyNullable(args)), ev, nil
	}
}

// ARRAY_CONTAINS(haystack, needle): "Returns whether the given element
// exists in an array. Checking for null elements in the array is
// supported. If the array itself is null, the function will return null.
// The given element is cast implicitly to the array's element type if
// necessary."
func bindArrayContains(args []Arg) (types.Type, Eval, error) {
	var eq func(a, b types.Value) bool
	t, ev, err := arrayElementCall("ARRAY_CONTAINS", args, false, func(_ types.Type, vs []types.Value, x types.Value) types.Value {
		return types.BoolValue(contains(vs, x, eq))
	})
	if err != nil {
		return types.Type{}, nil, err
	}
	eq = scalarEquality(t.Elem())
	return types.BooleanType.WithNotNull(t.NotNull), ev, nil
}

// ARRAY_POSITION(haystack, needle): "Returns the position of the first
// occurrence of element in the given array as int. Returns 0 if the given
// value could not be found in the array. Returns null if either of the
// arguments are null. And this is not zero based, but 1-based index."
func bindArrayPosition(args []Arg) (types.Type, Eval, error) {
	var eq func(a, b types.Value) bool
	t, ev, err := arrayElementCall("ARRAY_POSITION", args, true, func(_ types.Type, vs []types.Value, x types.Value) types.Value {
		for i, y := range vs {
			if eq(x, y) {
				return types.IntValue(int64(i + 1))
			}
		}
		return types.IntValue(0)
	})
	if err != nil {
		return types.Type{}, nil, err
	}
	eq = scalarEquality(t.Elem())
	return strictType(types.IntType, args), ev, nil
}

// ARRAY_REMOVE(haystack, needle): "Removes all elements that equal to
// element from array. If the array itself is null, the function will
// return null. Keeps ordering of elements." A NULL needle removes the NULL
// elements.
func bindArrayRemove(args []Arg) (types.Type, Eval, error) {
	var eq func(a, b types.Value) bool
	t, ev, err := arrayElementCall("ARRAY_REMOVE", args, false, func(t types.Type, vs []types.Value, x types.Value) types.Value {
		return types.EncodeArray(t.Elem(), slices.DeleteFunc(vs, func(y types.Value) bool { return eq(x, y) }))
	})
	if err != nil {
		return types.Type{}, nil, err
	}
	eq = scalarEquality(t.Elem())
	return t, ev, nil
}

// bindArrayReshape binds a function of one array to an array of the same
// type: ARRAY_DISTINCT ("Returns an array with unique elements. ... Keeps
// ordering of elements.") and ARRAY_REVERSE ("Returns an array in reverse
// order."), NULL for NULL.
func bindArrayReshape(name string, f func(elem types.Type, vs []types.Value) []types.Value) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if !match(args, arrayT) {
			return types.Type{}, nil, sigError(name, "(ARRAY)", args)
		}
		t := args[0].Type
		return t, strict(func(_ *Context, v []types.Value) (types.Value, error) {
			vs, err := elements(t, v[0])
			if err != nil {
				return types.NullValue, err
			}
			return types.EncodeArray(t.Elem(), f(t.Elem(), vs)), nil
		}), nil
	}
}

// ARRAY_SLICE(array, start_offset[, end_offset]): "Returns a subarray of
// the input array between 'start_offset' and 'end_offset' inclusive. The
// offsets are 1-based however 0 is also treated as the beginning of the
// array. Positive values are counted from the beginning of the array while
// negative from the end. If 'end_offset' is omitted then this offset is
// treated as the length of the array. If 'start_offset' is after
// 'end_offset' or both are out of array bounds an empty array will be
// returned. Returns null if any input is null."
func bindArraySlice(args []Arg) (types.Type, Eval, error) {
	if !match(args, arrayT, integer) && !match(args, arrayT, integer, integer) {
		return types.Type{}, nil, sigError("ARRAY_SLICE", "(ARRAY, INT start [, INT end])", args)
	}
	t := args[0].Type
	return t.WithNotNull(!anyNullable(args)), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		vs, err := elements(t, v[0])
		if err != nil {
			return types.NullValue, err
		}
		n := int64(len(vs))
		pos := func(o int64) int64 { // a 1-based position
			switch {
			case o < 0:
				return n + o + 1
			case o == 0:
				return 1
			}
			return o
		}
		start, end := pos(v[1].I), n
		if len(v) > 2 {
			end = pos(v[2].I)
		}
		start, end = max(start, 1), min(end, n)
		if start > end {
			return types.EncodeArray(t.Elem(), nil), nil
		}
		return types.EncodeArray(t.Elem(), vs[start-1:end]), nil
	}), nil
}

// ARRAY_SORT(array[, ascending_order[, null_first]]): "Returns the array in
// sorted order. The function sorts an array, defaulting to ascending order
// with NULLs at the start when only the array is input. Specifying
// ascending_order as true orders the array in ascending with NULLs first,
// and setting it to false orders it in descending with NULLs last.
// Independently, null_first as true moves NULLs to the beginning, and as
// false to the end, irrespective of the sorting order. The function
// returns null if any input is null."
func bindArraySort(args []Arg) (types.Type, Eval, error) {
	if !match(args, arrayT) && !match(args, arrayT, boolean) && !match(args, arrayT, boolean, boolean) {
		return types.Type{}, nil, sigError("ARRAY_SORT", "(ARRAY [, BOOLEAN ascending [, BOOLEAN nulls_first]])", args)
	}
	t := args[0].Type
	c, ok := newComparison(t.Elem(), t.Elem())
	if !ok || c.equalityOnly {
		return types.Type{}, nil, sigError("ARRAY_SORT", "an ARRAY of comparable elements", args)
	}
	return t.WithNotNull(!anyNullable(args)), strict(func(ctx *Context, v []types.Value) (types.Value, error) {
		vs, err := elements(t, v[0])
		if err != nil {
			return types.NullValue, err
		}
		asc := len(v) < 2 || v[1].Bool()
		nullsFirst := asc
		if len(v) > 2 {
			nullsFirst = v[2].Bool()
		}
		slices.SortStableFunc(vs, func(a, b types.Value) int {
			switch {
			case a.Null || b.Null:
				if a.Null == b.Null {
					return 0
				}
				if a.Null == nullsFirst {
					return -1
				}
				return 1
			}
			r := c.compare(ctx, a, b)
			if r == unordered {
				r = 0
			}
			if !asc {
				r = -r
			}
			return r
		})
		return types.EncodeArray(t.Elem(), vs), nil
	}), nil
}

// arrayCommon is the common type of array arguments, with each one's
// conversion to it.
func arrayCommon(name string, args []Arg) (types.Type, []converter, error) {
	for _, a := range args {
		if a.Unit != "" || a.Type.Kind != types.Array {
			return types.Type{}, nil, sigError(name, "arrays of a common type", args)
		}
	}
	t, convs, ok := commonOf(args)
	if !ok {
		return types.Type{}, nil, sigError(name, "arrays of a common type", args)
	}
	return t.WithNotNull(!anyNullable(args)), convs, nil
}

// convertedElements converts every argument to the common array type and
// decodes it.
func convertedElements(ctx *Context, t types.Type, convs []converter, v []types.Value) ([][]types.Value, error) {
	out := make([][]types.Value, len(v))
	for i, x := range v {
		y, err := convs[i](ctx, x)
		if err != nil {
			return nil, err
		}
		if out[i], err = elements(t, y); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// bindArraySet binds ARRAY_UNION ("Returns an array of the elements in the
// union of array1 and array2, without duplicates."), ARRAY_EXCEPT
// ("Returns an array that contains the elements from array1 that are not
// in array2, without duplicates. The order of the elements from array1 is
// retained.") and ARRAY_INTERSECT (those also in array2); NULL if either
// array is.
func bindArraySet(name string, combine func(a, b []types.Value, eq func(a, b types.Value) bool) []types.Value) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if len(args) != 2 {
			return types.Type{}, nil, sigError(name, "(ARRAY, ARRAY)", args)
		}
		t, convs, err := arrayCommon(name, args)
		if err != nil {
			return types.Type{}, nil, err
		}
		eq := scalarEquality(t.Elem())
		return t, strict(func(ctx *Context, v []types.Value) (types.Value, error) {
			all, err := convertedElements(ctx, t, convs, v)
			if err != nil {
				return types.NullValue, err
			}
			return types.EncodeArray(t.Elem(), distinct(t.Elem(), combine(all[0], all[1], eq))), nil
		}), nil
	}
}

// ARRAY_CONCAT(array1, ...): "Returns an array that is the result of
// concatenating at least one array. This array contains all the elements
// in the first array, followed by all the elements in the second array,
// and so forth, up to the Nth array. If any input array is NULL, the
// function returns NULL."
func bindArrayConcat(args []Arg) (types.Type, Eval, error) {
	if len(args) == 0 {
		return types.Type{}, nil, sigError("ARRAY_CONCAT", "at least one array", args)
	}
	t, convs, err := arrayCommon("ARRAY_CONCAT", args)
	if err != nil {
		return types.Type{}, nil, err
	}
	return t, strict(func(ctx *Context, v []types.Value) (types.Value, error) {
		all, err := convertedElements(ctx, t, convs, v)
		if err != nil {
			return types.NullValue, err
		}
		return types.EncodeArray(t.Elem(), slices.Concat(all...)), nil
	}), nil
}

// ARRAY_MAX(array) and ARRAY_MIN(array): "Returns the maximum (minimum)
// value from the array, if array itself is null, the function returns
// null." NULL elements are left out; an array of none gives NULL.
func bindArrayExtreme(name string, sign int) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if !match(args, arrayT) {
			return types.Type{}, nil, sigError(name, "(ARRAY)", args)
		}
		t := args[0].Type
		c, ok := newComparison(t.Elem(), t.Elem())
		if !ok || c.equalityOnly {
			return types.Type{}, nil, sigError(name, "an ARRAY of comparable elements", args)
		}
		return t.Elem().Nullable(), strict(func(ctx *Context, v []types.Value) (types.Value, error) {
			vs, err := elements(t, v[0])
			if err != nil {
				return types.NullValue, err
			}
			best := types.NullValue
			for _, x := range vs {
				if !x.Null && (best.Null || c.compare(ctx, x, best) == sign) {
					best = x
				}
			}
			return best, nil
		}), nil
	}
}

// ARRAY_JOIN(array, delimiter[, nullReplacement]): "Returns a string that
// represents the concatenation of the elements in the given array and the
// elements' data type in the given array is string. The delimiter is a
// string that separates each pair of consecutive elements of the array.
// The optional nullReplacement is a string that replaces null elements in
// the array. If nullReplacement is not specified, null elements in the
// array will be omitted from the resulting string. Returns null if input
// array or delimiter or nullReplacement are null."
func bindArrayJoin(args []Arg) (types.Type, Eval, error) {
	strArray := func(t types.Type) bool { return t.Kind == types.Array && t.Elem().IsString() }
	if !match(args, strArray, str) && !match(args, strArray, str, str) {
		return types.Type{}, nil, sigError("ARRAY_JOIN", "(ARRAY<STRING>, STRING delimiter [, STRING null_replacement])", args)
	}
	t := args[0].Type
	return strictType(types.StringType, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		vs, err := elements(t, v[0])
		if err != nil {
			return types.NullValue, err
		}
		parts := make([]string, 0, len(vs))
		for _, x := range vs {
			switch {
			case !x.Null:
				parts = append(parts, x.S)
			case len(v) > 2:
				parts = append(parts, v[2].S)
			}
		}
		return types.StringValue(strings.Join(parts, v[1].S)), nil
	}), nil
}

// MAP_KEYS(map): "Returns the keys of the map as array. No order
// guaranteed." MAP_VALUES(map): its values. MAP_ENTRIES(map): "Returns
// an array of all entries in the given map. No order guaranteed." as rows
// of `key` and `value`. Here in the map's order.
func bindMapPart(name string) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if !match(args, mapT) {
			return types.Type{}, nil, sigError(name, "(MAP)", args)
		}
		t := args[0].Type
		var elem types.Type
		switch name {
		case "MAP_KEYS":
			elem = t.KeyType()
		case "MAP_VALUES":
			elem = t.ValueType()
		default:
			elem = types.RowOf([]types.Field{{Name: "key", Type: t.KeyType()}, {Name: "value", Type: t.ValueType()}}).WithNotNull(true)
		}
		return types.ArrayOf(elem).WithNotNull(t.NotNull), strict(func(_ *Context, v []types.Value) (types.Value, error) {
			ks, vs, err := types.DecodeMap(t, v[0].S)
			if err != nil {
				return types.NullValue, err
			}
			switch name {
			case "MAP_KEYS":
				return types.EncodeArray(elem, ks), nil
			case "MAP_VALUES":
				return types.EncodeArray(elem, vs), nil
			}
			rows := make([]types.Value, len(ks))
			for i := range ks {
				rows[i] = types.EncodeRow(elem, []types.Value{ks[i], vs[i]})
			}
			return types.EncodeArray(elem, rows), nil
		}), nil
	}
}

// MAP_UNION(map1, ...): "Returns a map created by merging at least one
// map. These maps should have a common map type. If there are overlapping
// keys, the value from 'map2' will overwrite the value from 'map1', the
// value from 'map3' will overwrite the value from 'map2', the value from
// 'mapn' will overwrite the value from 'map(n-1)'. If any of maps is null,
// return null."
func bindMapUnion(args []Arg) (types.Type, Eval, error) {
	for _, a := range args {
		if a.Unit != "" || a.Type.Kind != types.Map {
			return types.Type{}, nil, sigError("MAP_UNION", "maps of a common type", args)
		}
	}
	t, convs, ok := commonOf(args)
	if len(args) == 0 || !ok {
		return types.Type{}, nil, sigError("MAP_UNION", "maps of a common type", args)
	}
	t = t.WithNotNull(!anyNullable(args))
	eq := scalarEquality(t.KeyType())
	return t, strict(func(ctx *Context, v []types.Value) (types.Value, error) {
		var keys, vals []types.Value
		for i, x := range v {
			y, err := convs[i](ctx, x)
			if err != nil {
				return types.NullValue, err
			}
			ks, vs, err := types.DecodeMap(t, y.S)
			if err != nil {
				return types.NullValue, err
			}
			for j := range ks {
				keys, vals = putEntry(keys, vals, ks[j], vs[j], eq)
			}
		}
		return types.EncodeMap(t, keys, vals), nil
	}), nil
}

// putEntry sets key k to v, in place when the key is already there.
func putEntry(keys, vals []types.Value, k, v types.Value, eq func(a, b types.Value) bool) ([]types.Value, []types.Value) {
	if i := slices.IndexFunc(keys, func(x types.Value) bool { return eq(x, k) }); i >= 0 {
		vals[i] = v
		return keys, vals
	}
	return append(keys, k), append(vals, v)
}

// MAP_FROM_ARRAYS(array_of_keys, array_of_values): "Returns a map created
// from an arrays of keys and values. Note that the lengths of two arrays
// should be the same." Arrays of different lengths are an error; a key
// given twice keeps its last value.
func bindMapFromArrays(args []Arg) (types.Type, Eval, error) {
	if !match(args, arrayT, arrayT) {
		return types.Type{}, nil, sigError("MAP_FROM_ARRAYS", "(ARRAY keys, ARRAY values)", args)
	}
	kt, vt := args[0].Type, args[1].Type
	t := types.MapOf(kt.Elem(), vt.Elem()).WithNotNull(!anyNullable(args))
	eq := scalarEquality(kt.Elem())
	return t, strict(func(_ *Context, v []types.Value) (types.Value, error) {
		ks, err := elements(kt, v[0])
		if err != nil {
			return types.NullValue, err
		}
		vs, err := elements(vt, v[1])
		if err != nil {
			return types.NullValue, err
		}
		if len(ks) != len(vs) {
			return types.NullValue, runtimeError("MAP_FROM_ARRAYS", "%s",
				fmt.Sprintf("the key and value arrays have different lengths (%d and %d)", len(ks), len(vs)))
		}
		var keys, vals []types.Value
		for i := range ks {
			keys, vals = putEntry(keys, vals, ks[i], vs[i], eq)
		}
		return types.EncodeMap(t, keys, vals), nil
	}), nil
}
