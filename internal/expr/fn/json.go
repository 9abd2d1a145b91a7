package fn

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/sluicesql/sluice/internal/types"
)

// The JSON query functions and predicates, after Flink's "JSON Functions"
// documentation and SqlJsonUtils: JSON_EXISTS, JSON_VALUE, JSON_QUERY and
// IS JSON. Paths are described in jsonpath.go. The parser passes the
// clauses as arguments (see parser.jsonValueArgs and jsonQueryArgs).

func init() {
	register(bindJSONValue, "JSON_VALUE")
	register(bindJSONQuery, "JSON_QUERY")
	register(bindJSONExists, "JSON_EXISTS")
	for _, kind := range []string{"VALUE", "SCALAR", "ARRAY", "OBJECT"} {
		register(bindIsJSON(kind), "IS JSON "+kind)
	}
}

// jsonPathArg compiles a constant path once; another path is parsed per
// row. A constant path Sluice does not run is refused (a path read from a
// row fails its call: see isUnsupportedPath).
func jsonPathArg(a Arg) (func(types.Value) (*jsonPath, error), error) {
	if a.Const != nil && !a.Const.Null {
		p, err := parseJSONPath(a.Const.S)
		if isUnsupportedPath(err) {
			return nil, err
		}
		if err != nil {
			// Flink fails such a call when it runs, under the error
			// behavior; a constant is known bad at once, but a call whose
			// error behavior hides it must still run.
			return func(types.Value) (*jsonPath, error) { return nil, err }, nil
		}
		return func(types.Value) (*jsonPath, error) { return p, nil }, nil
	}
	return func(v types.Value) (*jsonPath, error) { return parseJSONPath(v.S) }, nil
}

// JSON_EXISTS(json, path [{TRUE | FALSE | UNKNOWN | ERROR} ON ERROR]):
// "Determines whether a JSON string satisfies a given path search
// criterion. If the error behavior is omitted, FALSE ON ERROR is assumed":
// TRUE when the path leads to a value other than a JSON null (for an
// indefinite path, to a list, even an empty one), FALSE when it leads
// nowhere in lax mode; a strict path that leads nowhere, and text that is
// not JSON in strict mode, are errors. A NULL argument gives NULL.
func bindJSONExists(args []Arg) (types.Type, Eval, error) {
	onError := "FALSE ON ERROR"
	if len(args) == 3 && args[2].Unit != "" {
		onError, args = args[2].Unit, args[:2]
	}
	if !match(args, str, str) {
		return types.Type{}, nil, sigError("JSON_EXISTS", "(STRING json, STRING path [{TRUE | FALSE | UNKNOWN | ERROR} ON ERROR])", args)
	}
	path, err := jsonPathArg(args[1])
	if err != nil {
		return types.Type{}, nil, err
	}
	return types.BooleanType, func(_ *Context, v []types.Value) (types.Value, error) {
		if v[0].Null || v[1].Null {
			// NULL in, NULL out (JsonFunctionsITCase: JSON_EXISTS(CAST(NULL
			// AS STRING), 'lax $') is NULL)
			return types.NullValue, nil
		}
		p, err := path(v[1])
		if isUnsupportedPath(err) {
			return types.Value{}, runtimeError("JSON_EXISTS", "%v", err)
		}
		var found any
		if err == nil {
			found, err = jsonPathResult(v[0].S, p)
		}
		if err != nil {
			switch onError {
			case "TRUE ON ERROR":
				return types.BoolValue(true), nil
			case "UNKNOWN ON ERROR":
				return types.NullValue, nil
			case "ERROR ON ERROR":
				return types.Value{}, runtimeError("JSON_EXISTS", "%v", err)
			}
			return types.BoolValue(false), nil
		}
		return types.BoolValue(found != nil), nil
	}, nil
}

// jsonReturning is the RETURNING type a JSON function's typed NULL
// argument carries.
func jsonReturning(name string, a Arg, allowed func(types.Type) bool) (types.Type, error) {
	if a.Unit != "" || a.Const == nil || !a.Const.Null {
		return types.Type{}, fmt.Errorf("%s: the RETURNING argument must be a typed NULL", name)
	}
	t := a.Type.Plain().Nullable()
	if !allowed(t) {
		return types.Type{}, fmt.Errorf("%s does not support RETURNING %s", name, t)
	}
	return t, nil
}

// JSON_VALUE(json, path [RETURNING type] [{NULL | ERROR | DEFAULT expr} ON
// EMPTY] [{NULL | ERROR | DEFAULT expr} ON ERROR]): "Extracts a scalar from
// a JSON string", as SqlJsonUtils.jsonValue: no value (a missing member in
// lax mode, a JSON null, or an object or array in lax mode) is the ON EMPTY
// case, an error (strict mode's missing member, invalid JSON or object or
// array value, or a value that does not convert to the RETURNING type) the
// ON ERROR case; both give NULL unless told otherwise. Arguments: json,
// path, a typed NULL carrying the RETURNING type, then for EMPTY and ERROR
// a behavior unit and a default of the RETURNING type.
func bindJSONValue(args []Arg) (types.Type, Eval, error) {
	if len(args) != 7 || !match(args[:2], str, str) || args[3].Unit == "" || args[5].Unit == "" {
		return types.Type{}, nil, sigError("JSON_VALUE", "(STRING json, STRING path [RETURNING type] [... ON EMPTY] [... ON ERROR])", args)
	}
	t, err := jsonReturning("JSON_VALUE", args[2], func(t types.Type) bool {
		return t.IsString() || t.Kind == types.Boolean || t.IsNumeric()
	})
	if err != nil {
		return types.Type{}, nil, err
	}
	path, err := jsonPathArg(args[1])
	if err != nil {
		return types.Type{}, nil, err
	}
	convert := jsonScalarConverter(t)
	onEmpty, onError := args[3].Unit, args[5].Unit
	// A default is returned as Flink returns the Java object: as its
	// String.valueOf for a STRING result (DEFAULT FALSE gives 'false'),
	// cast otherwise.
	defaults := map[int]func(types.Value) (types.Value, error){}
	for _, i := range []int{4, 6} {
		from := args[i].Type
		switch {
		case from.Kind == types.Null:
			defaults[i] = func(types.Value) (types.Value, error) { return types.NullValue, nil }
		case t.IsString():
			defaults[i] = func(v types.Value) (types.Value, error) {
				if v.Null {
					return v, nil
				}
				return types.StringValue(javaString(from, v)), nil
			}
		default:
			if err := types.ValidateCast(from, t); err != nil {
				return types.Type{}, nil, fmt.Errorf("JSON_VALUE: the default %s is not a value of RETURNING %s", from.Plain(), t)
			}
			defaults[i] = func(v types.Value) (types.Value, error) {
				out, err := types.Cast(v, from, t, nil)
				if err == nil && !jsonChecked(v, from, out, t) {
					return types.Value{}, fmt.Errorf("the default %s is out of the range of RETURNING %s", javaString(from, v), t)
				}
				return out, err
			}
		}
	}
	return t, func(_ *Context, v []types.Value) (types.Value, error) {
		if v[0].Null || v[1].Null {
			return types.NullValue, nil
		}
		failed := func(err error) (types.Value, error) {
			switch onError {
			case "ERROR":
				return types.Value{}, runtimeError("JSON_VALUE", "%v", err)
			case "DEFAULT":
				out, err := defaults[6](v[6])
				if err != nil {
					return types.Value{}, runtimeError("JSON_VALUE", "%v", err)
				}
				return out, nil
			}
			return types.NullValue, nil
		}
		p, err := path(v[1])
		if isUnsupportedPath(err) {
			return types.Value{}, runtimeError("JSON_VALUE", "%v", err)
		}
		if err != nil {
			return failed(err)
		}
		found, err := jsonPathResult(v[0].S, p)
		if err != nil {
			return failed(err)
		}
		if found == nil || !p.strict && !isJSONScalar(found) {
			switch onEmpty {
			case "ERROR":
				return types.Value{}, runtimeError("JSON_VALUE", "Empty result of JSON_VALUE function is not allowed")
			case "DEFAULT":
				out, err := defaults[4](v[4])
				if err != nil {
					// "If the default value itself raises an error, it
					// falls through to the error behavior for ON EMPTY."
					return failed(err)
				}
				return out, nil
			}
			return types.NullValue, nil
		}
		if !isJSONScalar(found) {
			return failed(fmt.Errorf("Strict jsonpath mode requires scalar value, and the actual value is: '%s'", jsonJavaString(found)))
		}
		out, err := convert(found)
		if err != nil {
			return failed(err)
		}
		return out, nil
	}, nil
}

// jsonScalarConverter converts a JSON scalar to t: STRING takes its text
// (String.valueOf of what Jackson read), other types its text cast to them,
// BOOLEAN only from a JSON boolean or the text TRUE/FALSE.
func jsonScalarConverter(t types.Type) func(any) (types.Value, error) {
	return func(v any) (types.Value, error) {
		s := jsonJavaString(v)
		if t.IsString() {
			return types.StringValue(s), nil
		}
		out, err := types.ParseValue(t, s, nil)
		if err != nil || !jsonChecked(out, t, out, t) {
			return types.Value{}, fmt.Errorf("the value '%s' is not a %s", s, t)
		}
		return out, nil
	}
}

// jsonChecked reports whether out, v of type from converted to t, is a
// value Flink's SqlJsonUtils converts to (toCheckedInt, toCheckedDouble
// and their kin): no integer out of t's range, never wrapped or clamped,
// and no FLOAT or DOUBLE that is infinite or NaN.
func jsonChecked(v types.Value, from types.Type, out types.Value, t types.Type) bool {
	if v.Null || out.Null {
		return true
	}
	if t.Kind == types.Float || t.Kind == types.Double {
		return !math.IsInf(out.F, 0) && !math.IsNaN(out.F)
	}
	if !t.IsInteger() {
		return true
	}
	if from.IsInteger() {
		return out.I == v.I
	}
	f := v.F
	if from.Physical() != types.PhysFloat {
		d, err := types.Cast(v, from, types.DoubleType, nil)
		if err != nil {
			return false
		}
		f = d.F
	}
	// t's range is [lo, -lo), both powers of two that a float64 holds.
	lo := map[types.Kind]float64{types.TinyInt: math.MinInt8, types.SmallInt: math.MinInt16, types.Int: math.MinInt32, types.BigInt: math.MinInt64}[t.Kind]
	f = math.Trunc(f)
	return f >= lo && f < -lo
}

// JSON_QUERY(json, path [RETURNING STRING | ARRAY<STRING>] [wrapper] [...
// ON EMPTY] [... ON ERROR]): "Extracts JSON values from a JSON string", as
// SqlJsonUtils.jsonQuery: the value found, wrapped in an array
// unconditionally, or when it is not one already (CONDITIONAL); no value,
// or a scalar in lax mode, is the ON EMPTY case, and in strict mode a
// scalar, a missing member or invalid JSON the ON ERROR case, each giving
// NULL, an empty array, an empty object or an error. The result is the
// JSON text, or for ARRAY<STRING> the elements' texts (a scalar's
// String.valueOf). Arguments: json, path, a typed NULL carrying the
// RETURNING type, the wrapper unit, the ON EMPTY and ON ERROR units.
func bindJSONQuery(args []Arg) (types.Type, Eval, error) {
	if len(args) != 6 || !match(args[:2], str, str) || args[3].Unit == "" || args[4].Unit == "" || args[5].Unit == "" {
		return types.Type{}, nil, sigError("JSON_QUERY", "(STRING json, STRING path [RETURNING type] [wrapper] [... ON EMPTY] [... ON ERROR])", args)
	}
	arrayOf := types.ArrayOf(types.StringType)
	t, err := jsonReturning("JSON_QUERY", args[2], func(t types.Type) bool {
		return t.IsString() || types.Equal(t, arrayOf)
	})
	if err != nil {
		return types.Type{}, nil, err
	}
	asArray := t.Kind == types.Array
	path, err := jsonPathArg(args[1])
	if err != nil {
		return types.Type{}, nil, err
	}
	wrapper, onEmpty, onError := args[3].Unit, args[4].Unit, args[5].Unit
	if asArray && (onEmpty == "EMPTY OBJECT" || onError == "EMPTY OBJECT") {
		return types.Type{}, nil, errors.New("JSON_QUERY: EMPTY OBJECT is not a value of RETURNING ARRAY<STRING>")
	}
	behave := func(b string, err error) (types.Value, error) {
		switch b {
		case "ERROR":
			return types.Value{}, runtimeError("JSON_QUERY", "%v", err)
		case "EMPTY ARRAY":
			if asArray {
				return types.EncodeArray(types.StringType.WithNotNull(false), nil), nil
			}
			return types.StringValue("[]"), nil
		case "EMPTY OBJECT":
			return types.StringValue("{}"), nil
		}
		return types.NullValue, nil
	}
	return t, func(_ *Context, v []types.Value) (types.Value, error) {
		if v[0].Null || v[1].Null {
			return types.NullValue, nil
		}
		p, err := path(v[1])
		if isUnsupportedPath(err) {
			return types.Value{}, runtimeError("JSON_QUERY", "%v", err)
		}
		if err != nil {
			return behave(onError, err)
		}
		found, err := jsonPathResult(v[0].S, p)
		if err != nil {
			return behave(onError, err)
		}
		if found != nil {
			switch wrapper {
			case "UNCONDITIONAL ARRAY":
				found = []any{found}
			case "CONDITIONAL ARRAY":
				if _, isArray := found.([]any); !isArray {
					found = []any{found}
				}
			}
		}
		if found == nil || !p.strict && isJSONScalar(found) {
			return behave(onEmpty, errors.New("Empty result of JSON_QUERY function is not allowed"))
		}
		if isJSONScalar(found) {
			return behave(onError, fmt.Errorf("Strict jsonpath mode requires array or object value, and the actual value is: '%s'", jsonJavaString(found)))
		}
		if !asArray {
			return types.StringValue(string(appendJackson(nil, found))), nil
		}
		list, isList := found.([]any)
		if !isList {
			return behave(onError, fmt.Errorf("the value '%s' is not an array", jsonJavaString(found)))
		}
		elems := make([]types.Value, len(list))
		for i, e := range list {
			switch {
			case e == nil:
				elems[i] = types.NullValue
			case isJSONScalar(e):
				elems[i] = types.StringValue(jsonJavaString(e))
			default:
				elems[i] = types.StringValue(string(appendJackson(nil, e)))
			}
		}
		return types.EncodeArray(types.StringType, elems), nil
	}, nil
}

// x IS JSON [VALUE | SCALAR | ARRAY | OBJECT]: whether x is JSON text, of
// that kind; FALSE for NULL, as SqlJsonUtils.isJsonValue and its siblings
// give (the parser negates it for IS NOT JSON).
func bindIsJSON(kind string) bindFunc {
	return func(args []Arg) (types.Type, Eval, error) {
		if !match(args, str) {
			return types.Type{}, nil, sigError("IS JSON "+kind, "(STRING)", args)
		}
		return types.BooleanType.WithNotNull(true), func(_ *Context, v []types.Value) (types.Value, error) {
			if v[0].Null {
				return types.BoolValue(false), nil
			}
			doc, err := parseJSONDoc(strings.TrimSpace(v[0].S))
			if err != nil {
				return types.BoolValue(false), nil
			}
			_, isArray := doc.([]any)
			_, isObject := doc.(map[string]any)
			switch kind {
			case "SCALAR":
				return types.BoolValue(!isArray && !isObject), nil
			case "ARRAY":
				return types.BoolValue(isArray), nil
			case "OBJECT":
				return types.BoolValue(isObject), nil
			}
			return types.BoolValue(true), nil
		}, nil
	}
}
