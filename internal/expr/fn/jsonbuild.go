package fn

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sluicesql/sluice/internal/types"
)

// JSON construction: JSON_STRING, JSON_OBJECT, JSON_ARRAY and JSON, after
// Flink's JsonGenerateUtils: a value becomes a JSON node by its type and the
// node is written compactly as Jackson writes it.
//
// The parser passes JSON_OBJECT and JSON_ARRAY their ON NULL clause as a
// first Unit argument ("NULL ON NULL" or "ABSENT ON NULL"), and marks with
// a Unit argument JSONRaw each value that is inserted as JSON rather than
// as a string: a nested JSON_OBJECT or JSON_ARRAY call, or the argument of
// JSON(...).

// JSONRaw is the Unit that marks the next argument of JSON_OBJECT or
// JSON_ARRAY as JSON text to insert as is.
const JSONRaw = "JSON"

func init() {
	for _, n := range []string{"JSON_STRING", "JSON_OBJECT", "JSON_ARRAY"} {
		takesComposite[n] = true
	}
	register(bindJSONString, "JSON_STRING")
	register(bindJSONObject, "JSON_OBJECT")
	register(bindJSONArray, "JSON_ARRAY")
	register(func(args []Arg) (types.Type, Eval, error) {
		return types.Type{}, nil, fmt.Errorf("JSON(value) can only be used as a value of JSON_OBJECT or JSON_ARRAY")
	}, "JSON")
}

// jsonWriter appends the JSON form of a value of one type; it fails only
// for a value JSON cannot hold (a NULL map key).
type jsonWriter func(b []byte, v types.Value) ([]byte, error)

// infallible turns an appender that cannot fail into a jsonWriter.
func infallible(f func(b []byte, v types.Value) []byte) jsonWriter {
	return func(b []byte, v types.Value) ([]byte, error) { return f(b, v), nil }
}

// jsonWriterFor returns how values of type t are written, or an error for a
// type that has no JSON form ("Type ... is not scalar or cannot be
// converted into JSON"), as Flink's JsonGenerateUtils: ARRAY as a JSON
// array, ROW as an object of its fields, MAP (and MULTISET, the map of its
// elements to their counts) with character string keys as an object.
func jsonWriterFor(name string, t types.Type) (jsonWriter, error) {
	switch {
	case t.Kind == types.Null:
		return infallible(func(b []byte, _ types.Value) []byte { return append(b, "null"...) }), nil
	case t.IsString():
		return infallible(func(b []byte, v types.Value) []byte { return appendJSONString(b, v.S) }), nil
	case t.Kind == types.Boolean:
		return infallible(func(b []byte, v types.Value) []byte { return strconv.AppendBool(b, v.Bool()) }), nil
	case t.IsInteger():
		return infallible(func(b []byte, v types.Value) []byte { return strconv.AppendInt(b, v.I, 10) }), nil
	case t.Kind == types.Float || t.Kind == types.Double:
		bits := 64
		if t.Kind == types.Float {
			bits = 32
		}
		return infallible(func(b []byte, v types.Value) []byte {
			if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
				// Jackson writes non-finite numbers as strings
				return appendJSONString(b, string(types.AppendJavaFloat(nil, v.F, bits)))
			}
			return types.AppendJavaFloat(b, v.F, bits)
		}), nil
	case t.Kind == types.Decimal:
		return infallible(func(b []byte, v types.Value) []byte {
			return types.AppendJavaDecimal(b, types.DecimalUnscaled(t, v), t.Scale)
		}), nil
	case t.Kind == types.Timestamp:
		return infallible(func(b []byte, v types.Value) []byte { return appendJSONString(b, isoLocalDateTime(t.Precision, v)) }), nil
	case t.Kind == types.TimestampLTZ:
		return infallible(func(b []byte, v types.Value) []byte {
			return appendJSONString(b, isoLocalDateTime(t.Precision, v)+"Z")
		}), nil
	case t.Kind == types.Binary || t.Kind == types.Varbinary:
		return infallible(func(b []byte, v types.Value) []byte {
			return appendJSONString(b, base64.StdEncoding.EncodeToString([]byte(v.S)))
		}), nil
	case t.Kind == types.Array:
		return jsonArrayWriter(name, t.Elem())
	case t.Kind == types.RowType:
		return jsonRowWriter(name, t)
	case t.Kind == types.Map || t.Kind == types.Multiset:
		return jsonMapWriter(name, t)
	case t.Kind == types.Variant:
		// A VARIANT's JSON text (BinaryVariant.toJson).
		return func(b []byte, v types.Value) ([]byte, error) {
			j, err := types.VariantJSON(v.S)
			return append(b, j...), err
		}, nil
	}
	return nil, fmt.Errorf("%s: type %s cannot be converted into JSON", name, t.Plain().Nullable())
}

// appendJSONItem writes one element or field: null for a NULL.
func appendJSONItem(b []byte, w jsonWriter, v types.Value) ([]byte, error) {
	if v.Null {
		return append(b, "null"...), nil
	}
	return w(b, v)
}

func jsonArrayWriter(name string, elem types.Type) (jsonWriter, error) {
	w, err := jsonWriterFor(name, elem)
	if err != nil {
		return nil, err
	}
	return func(b []byte, v types.Value) ([]byte, error) {
		vs, err := types.DecodeArray(elem, v.S)
		if err != nil {
			return nil, runtimeError(name, "%v", err)
		}
		b = append(b, '[')
		for i, x := range vs {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendJSONItem(b, w, x); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}, nil
}

func jsonRowWriter(name string, t types.Type) (jsonWriter, error) {
	fields := t.Fields()
	ws := make([]jsonWriter, len(fields))
	for i, f := range fields {
		w, err := jsonWriterFor(name, f.Type)
		if err != nil {
			return nil, err
		}
		ws[i] = w
	}
	return func(b []byte, v types.Value) ([]byte, error) {
		vs, err := types.DecodeRow(t, v.S)
		if err != nil {
			return nil, runtimeError(name, "%v", err)
		}
		b = append(b, '{')
		for i, x := range vs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendJSONString(b, fields[i].Name), ':')
			if b, err = appendJSONItem(b, ws[i], x); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}, nil
}

func jsonMapWriter(name string, t types.Type) (jsonWriter, error) {
	if !t.KeyType().IsString() {
		return nil, fmt.Errorf("%s: type %s is not supported for JSON conversion; the key type must be a character string", name, t.KeyType().Plain().Nullable())
	}
	w, err := jsonWriterFor(name, t.ValueType())
	if err != nil {
		return nil, err
	}
	return func(b []byte, v types.Value) ([]byte, error) {
		keys, vals, err := types.DecodeMap(t, v.S)
		if err != nil {
			return nil, runtimeError(name, "%v", err)
		}
		b = append(b, '{')
		for i, k := range keys {
			if k.Null {
				return nil, runtimeError(name, "the key at index %d is NULL, which JSON cannot hold", i)
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendJSONString(b, k.S), ':')
			if b, err = appendJSONItem(b, w, vals[i]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}, nil
}

// appendJSONString writes s as Jackson does (types.AppendJacksonString).
func appendJSONString(b []byte, s string) []byte { return types.AppendJacksonString(b, s) }

// isoLocalDateTime formats wall-clock nanoseconds as
// DateTimeFormatter.ISO_LOCAL_DATE_TIME does: seconds always, the fraction
// only when not zero and without trailing zeros.
func isoLocalDateTime(p int, v types.Value) string {
	t := types.TimestampTime(p, v)
	s := t.Format("2006-01-02T15:04:05")
	if frac := t.Nanosecond(); frac != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%09d", frac), "0")
	}
	return s
}

// JSON_STRING(value): "Serializes a value into JSON. ... If the value is
// NULL, the function returns NULL. JSON_STRING(1) '1'; JSON_STRING(TRUE)
// 'true'; JSON_STRING('Hello, World!') '"Hello, World!"'."
func bindJSONString(args []Arg) (types.Type, Eval, error) {
	if len(args) != 1 || args[0].Unit != "" {
		return types.Type{}, nil, sigError("JSON_STRING", "(ANY)", args)
	}
	w, err := jsonWriterFor("JSON_STRING", args[0].Type)
	if err != nil {
		return types.Type{}, nil, err
	}
	return strictType(types.StringType, args), strict(func(_ *Context, v []types.Value) (types.Value, error) {
		b, err := w(nil, v[0])
		if err != nil {
			return types.Value{}, err
		}
		return types.StringValue(string(b)), nil
	}), nil
}

// jsonItem is one value of JSON_OBJECT or JSON_ARRAY.
type jsonItem struct {
	index int // argument index
	raw   bool
	write jsonWriter
}

// jsonItems reads the ON NULL unit (args[0]) and the items of args[1:],
// keys included for JSON_OBJECT.
func jsonItems(name string, args []Arg) (absentOnNull bool, items []jsonItem, err error) {
	if len(args) == 0 || args[0].Unit != "NULL ON NULL" && args[0].Unit != "ABSENT ON NULL" {
		return false, nil, fmt.Errorf("%s expects its ON NULL clause first", name)
	}
	absentOnNull = args[0].Unit == "ABSENT ON NULL"
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a.Unit == JSONRaw && i+1 < len(args) && args[i+1].Unit == "" {
			i++
			if !str(args[i].Type) {
				return false, nil, fmt.Errorf("%s: JSON(value) expects a string, got %s", name, args[i])
			}
			items = append(items, jsonItem{index: i, raw: true})
			continue
		}
		if a.Unit != "" {
			return false, nil, sigError(name, "(values [NULL|ABSENT ON NULL])", args)
		}
		w, err := jsonWriterFor(name, a.Type)
		if err != nil {
			return false, nil, err
		}
		items = append(items, jsonItem{index: i, write: w})
	}
	return absentOnNull, items, nil
}

// append writes one item; ok is false for a NULL left out.
func (it jsonItem) append(name string, b []byte, v types.Value, absentOnNull bool) ([]byte, bool, error) {
	switch {
	case v.Null || it.raw && v.S == "":
		// JSON(NULL) and JSON('') are NULL
		if absentOnNull {
			return b, false, nil
		}
		return append(b, "null"...), true, nil
	case it.raw:
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(v.S)); err != nil {
			return nil, false, runtimeError(name, "JSON(value) got invalid JSON %q: %v", v.S, err)
		}
		return append(b, buf.Bytes()...), true, nil
	}
	b, err := it.write(b, v)
	return b, err == nil, err
}

// JSON_OBJECT([[KEY] key VALUE value]* [{NULL|ABSENT} ON NULL]): "Builds a
// JSON object string from a list of key-value pairs. Note that keys must be
// non-NULL string literals, while values may be arbitrary expressions. ...
// If omitted, NULL ON NULL is assumed by default." A key given twice keeps
// its first place and its last value, as Jackson's ObjectNode.set does.
func bindJSONObject(args []Arg) (types.Type, Eval, error) {
	absent, items, err := jsonItems("JSON_OBJECT", args)
	if err != nil {
		return types.Type{}, nil, err
	}
	if len(items)%2 != 0 {
		return types.Type{}, nil, sigError("JSON_OBJECT", "([KEY] key VALUE value, ...)", args)
	}
	for k := 0; k < len(items); k += 2 {
		key := args[items[k].index]
		if items[k].raw || !key.Type.IsString() {
			return types.Type{}, nil, fmt.Errorf("JSON_OBJECT: a key must be a non-NULL string, got %s", key)
		}
	}
	return types.StringType.WithNotNull(true), func(_ *Context, v []types.Value) (types.Value, error) {
		var keys []string
		vals := map[string][]byte{}
		for k := 0; k < len(items); k += 2 {
			key := v[items[k].index]
			if key.Null {
				return types.Value{}, runtimeError("JSON_OBJECT", "a key is NULL")
			}
			val, ok, err := items[k+1].append("JSON_OBJECT", nil, v[items[k+1].index], absent)
			if err != nil {
				return types.Value{}, err
			}
			if !ok {
				continue
			}
			if _, seen := vals[key.S]; !seen {
				keys = append(keys, key.S)
			}
			vals[key.S] = val
		}
		b := []byte{'{'}
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			b = append(b, vals[k]...)
		}
		return types.StringValue(string(append(b, '}'))), nil
	}, nil
}

// JSON_ARRAY([value]* [{NULL|ABSENT} ON NULL]): "Builds a JSON array string
// from a list of values. ... If omitted, ABSENT ON NULL is assumed by
// default."
func bindJSONArray(args []Arg) (types.Type, Eval, error) {
	absent, items, err := jsonItems("JSON_ARRAY", args)
	if err != nil {
		return types.Type{}, nil, err
	}
	return types.StringType.WithNotNull(true), func(_ *Context, v []types.Value) (types.Value, error) {
		b := []byte{'['}
		n := 0
		for _, it := range items {
			if n > 0 {
				b = append(b, ',')
			}
			next, ok, err := it.append("JSON_ARRAY", b, v[it.index], absent)
			if err != nil {
				return types.Value{}, err
			}
			if ok {
				b, n = next, n+1
			} else if n > 0 {
				b = b[:len(b)-1] // the comma written for it
			}
		}
		return types.StringValue(string(append(b, ']'))), nil
	}, nil
}
