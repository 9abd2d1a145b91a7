package fn

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/sluicesql/sluice/internal/types"
)

func init() {
	register(bindJSONValue, "JSON_VALUE")
	register(bindJSONQuery, "JSON_QUERY")
	register(bindJSONExists, "JSON_EXISTS")
}

// jsonStep is one step of a JSON path: a member name, or an array index
// when index >= 0.
type jsonStep struct {
	name  string
	index int
}

// parseJSONPath parses the lax SQL/JSON paths Flink's JSON functions take:
// `$`, then `.name`, `."name"`, `['name']` and `[n]` steps (`lax` may
// precede the `$`; `strict` is not supported).
func parseJSONPath(path string) ([]jsonStep, error) {
	p := strings.TrimSpace(path)
	if rest, ok := strings.CutPrefix(p, "lax "); ok {
		p = strings.TrimSpace(rest)
	}
	if strings.HasPrefix(p, "strict ") {
		return nil, fmt.Errorf("strict JSON paths are not supported yet")
	}
	if !strings.HasPrefix(p, "$") {
		return nil, fmt.Errorf("a JSON path starts with '$': %q", path)
	}
	var steps []jsonStep
	for i := 1; i < len(p); {
		switch p[i] {
		case '.':
			i++
			if i < len(p) && p[i] == '"' {
				end := strings.IndexByte(p[i+1:], '"')
				if end < 0 {
					return nil, fmt.Errorf("unterminated name in JSON path %q", path)
				}
				steps = append(steps, jsonStep{name: p[i+1 : i+1+end], index: -1})
				i += end + 2
				continue
			}
			j := i
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			if j == i {
				return nil, fmt.Errorf("empty member name in JSON path %q", path)
			}
			steps = append(steps, jsonStep{name: p[i:j], index: -1})
			i = j
		case '[':
			end := strings.IndexByte(p[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("unterminated '[' in JSON path %q", path)
			}
			inner := strings.TrimSpace(p[i+1 : i+end])
			if len(inner) >= 2 && inner[0] == '\'' && inner[len(inner)-1] == '\'' {
				steps = append(steps, jsonStep{name: inner[1 : len(inner)-1], index: -1})
			} else if n, err := strconv.Atoi(inner); err == nil && n >= 0 {
				steps = append(steps, jsonStep{index: n})
			} else {
				return nil, fmt.Errorf("unsupported JSON path step [%s] in %q", inner, path)
			}
			i += end + 1
		default:
			return nil, fmt.Errorf("unexpected %q in JSON path %q", p[i], path)
		}
	}
	return steps, nil
}

// jsonLookup evaluates a parsed path on a JSON text; ok is false when the
// text is not JSON or the path leads nowhere (lax mode: both are empty).
func jsonLookup(text string, steps []jsonStep) (any, bool) {
	var v any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	for _, s := range steps {
		switch x := v.(type) {
		case map[string]any:
			if s.index >= 0 {
				return nil, false
			}
			var ok bool
			if v, ok = x[s.name]; !ok {
				return nil, false
			}
		case []any:
			if s.index < 0 || s.index >= len(x) {
				return nil, false
			}
			v = x[s.index]
		default:
			return nil, false
		}
	}
	return v, true
}

// jsonPathArg compiles a constant path argument once; a non-constant one
// is parsed per row.
func jsonPathArg(name string, a Arg) (func(types.Value) ([]jsonStep, error), error) {
	if a.Const != nil && !a.Const.Null {
		steps, err := parseJSONPath(a.Const.S)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return func(types.Value) ([]jsonStep, error) { return steps, nil }, nil
	}
	return func(v types.Value) ([]jsonStep, error) { return parseJSONPath(v.S) }, nil
}

// JSON_VALUE(json, path): "Extracts a scalar from a JSON string." The
// scalar is returned as a STRING (the caller casts for RETURNING); a
// missing value, an object or array, invalid JSON or an invalid path give
// NULL (Flink's default NULL ON EMPTY and NULL ON ERROR).
func bindJSONValue(args []Arg) (types.Type, Eval, error) {
	return bindJSON("JSON_VALUE", args, types.StringType, func(v any) types.Value {
		switch x := v.(type) {
		case string:
			return types.StringValue(x)
		case json.Number:
			return types.StringValue(x.String())
		case bool:
			return types.StringValue(strconv.FormatBool(x))
		}
		return types.NullValue // null, objects and arrays
	})
}

// JSON_QUERY(json, path): "Extracts JSON values from a JSON string", as
// JSON text; a scalar or a missing value gives NULL (WITHOUT ARRAY WRAPPER,
// NULL ON EMPTY, NULL ON ERROR).
func bindJSONQuery(args []Arg) (types.Type, Eval, error) {
	return bindJSON("JSON_QUERY", args, types.StringType, func(v any) types.Value {
		switch v.(type) {
		case map[string]any, []any:
			b, err := json.Marshal(v)
			if err != nil {
				return types.NullValue
			}
			return types.StringValue(string(b))
		}
		return types.NullValue
	})
}

// JSON_EXISTS(json, path): "Determines whether a JSON string satisfies a
// given path search criterion": TRUE when the path leads to a value, FALSE
// otherwise (FALSE ON ERROR).
func bindJSONExists(args []Arg) (types.Type, Eval, error) {
	return bindJSON("JSON_EXISTS", args, types.BooleanType, nil)
}

// bindJSON binds a JSON function of (STRING json, STRING path); result
// maps the value found (nil for JSON_EXISTS).
func bindJSON(name string, args []Arg, t types.Type, result func(any) types.Value) (types.Type, Eval, error) {
	if !match(args, str, str) {
		return types.Type{}, nil, sigError(name, "(STRING json, STRING path)", args)
	}
	path, err := jsonPathArg(name, args[1])
	if err != nil {
		return types.Type{}, nil, err
	}
	return t, func(_ *Context, v []types.Value) (types.Value, error) {
		if v[0].Null || v[1].Null {
			if result == nil {
				return types.BoolValue(false), nil
			}
			return types.NullValue, nil
		}
		steps, err := path(v[1])
		if err != nil {
			if result == nil {
				return types.BoolValue(false), nil
			}
			return types.NullValue, nil
		}
		found, ok := jsonLookup(v[0].S, steps)
		if result == nil {
			return types.BoolValue(ok), nil
		}
		if !ok {
			return types.NullValue, nil
		}
		return result(found), nil
	}, nil
}
