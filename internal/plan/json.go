package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// marshal encodes v as compact JSON without HTML escaping, so that a
// plan's text shows "<" and "&" as they are.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// pathError is a decoding failure at a path inside a document, such as
// config.projects[2].args[0].
type pathError struct {
	path string
	err  error
}

func (e *pathError) Error() string { return e.path + ": " + e.err.Error() }

func (e *pathError) Unwrap() error { return e.err }

// at puts err at step (a field name or "[i]") of the path it occurred at.
func at(step string, err error) error {
	var pe *pathError
	if errors.As(err, &pe) && pe == err {
		sep := "."
		if strings.HasPrefix(pe.path, "[") {
			sep = ""
		}
		return &pathError{path: step + sep + pe.path, err: pe.err}
	}
	return &pathError{path: step, err: err}
}

// strict decodes one JSON value into v with encoding/json, rejecting
// unknown object keys, and says what was expected instead of Go's type
// names.
func strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("expected %s, found a JSON %s", jsonKind(reflect.TypeOf(v).Elem()), te.Value)
		}
		return err
	}
	if dec.More() {
		return errors.New("unexpected data after the value")
	}
	return nil
}

// jsonKind names the JSON value a Go type is read from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return t.String()
}

// decode reads the JSON document data into v (a pointer) strictly: an
// unknown object key or a value of the wrong kind is an error naming its
// path. Types with their own UnmarshalJSON or UnmarshalText read
// themselves.
func decode(data []byte, v any) error {
	return decodeValue(data, reflect.ValueOf(v).Elem())
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()
)

func decodeValue(data json.RawMessage, v reflect.Value) error {
	pt := v.Addr().Type()
	if pt.Implements(jsonUnmarshaler) {
		return v.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(data)
	}
	if pt.Implements(textUnmarshaler) {
		var s string
		if err := strict(data, &s); err != nil {
			return err
		}
		return v.Addr().Interface().(interface{ UnmarshalText([]byte) error }).UnmarshalText([]byte(s))
	}
	isNull := string(bytes.TrimSpace(data)) == "null"
	switch v.Kind() {
	case reflect.Struct:
		var fields map[string]json.RawMessage
		if err := strict(data, &fields); err != nil || isNull {
			return errors.New("expected an object")
		}
		byName := map[string][]int{}
		for _, f := range reflect.VisibleFields(v.Type()) {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous || !f.IsExported() || name == "" || name == "-" {
				continue
			}
			byName[name] = f.Index
		}
		for _, k := range slices.Sorted(maps.Keys(fields)) {
			raw := fields[k]
			idx, ok := byName[k]
			if !ok {
				return at(k, errors.New("unknown field"))
			}
			if err := decodeValue(raw, v.FieldByIndex(idx)); err != nil {
				return at(k, err)
			}
		}
		return nil
	case reflect.Slice:
		if isNull {
			v.SetZero()
			return nil
		}
		var items []json.RawMessage
		if err := strict(data, &items); err != nil {
			return errors.New("expected an array")
		}
		s := reflect.MakeSlice(v.Type(), len(items), len(items))
		for i, raw := range items {
			if err := decodeValue(raw, s.Index(i)); err != nil {
				return at(fmt.Sprintf("[%d]", i), err)
			}
		}
		v.Set(s)
		return nil
	case reflect.Pointer:
		if isNull {
			v.SetZero()
			return nil
		}
		p := reflect.New(v.Type().Elem())
		if err := decodeValue(data, p.Elem()); err != nil {
			return err
		}
		v.Set(p)
		return nil
	}
	return strict(data, v.Addr().Interface())
}
