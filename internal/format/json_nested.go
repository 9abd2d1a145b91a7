package format

import (
	"errors"
	"fmt"

	"github.com/sluicesql/sluice/internal/types"
)

// ARRAY, MULTISET, MAP and ROW columns in the 'json' format, after
// RowDataToJsonConverters (createArrayConverter, createMapConverter,
// createRowConverter) and JsonToRowDataConverters: an ARRAY is a JSON
// array, a MAP an object whose member names are the keys (a MULTISET the
// object of its elements to their counts), a ROW an object with a member
// per field, in field order.

// checkMapKeys refuses maps and multisets whose keys are not character
// strings, as both of Flink's converters do when they are created.
func checkMapKeys(f types.Field) error {
	var bad types.Type
	if f.Type.Contains(func(t types.Type) bool {
		if (t.Kind == types.Map || t.Kind == types.Multiset) && !t.KeyType().IsString() {
			bad = t
			return true
		}
		return false
	}) {
		return fmt.Errorf("column '%s': JSON format doesn't support non-string as key type of map. The type is: %s",
			f.Name, bad.Plain())
	}
	return nil
}

// errNullMapKey is Flink's message for a NULL map key in mode FAIL.
var errNullMapKey = errors.New("JSON format doesn't support to serialize map data with null keys. " +
	"You can drop null key entries or encode null in literals by specifying map-null-key.mode option.")

// appendComposite writes a non-NULL composite value.
func (c *jsonCodec) appendComposite(dst []byte, t types.Type, v types.Value) ([]byte, error) {
	var err error
	switch t.Kind {
	case types.Array:
		vs, derr := types.DecodeArray(t.Elem(), v.S)
		if derr != nil {
			return dst, derr
		}
		dst = append(dst, '[')
		for i, x := range vs {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = c.appendAny(dst, t.Elem(), x); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case types.Map, types.Multiset:
		ks, vs, derr := types.DecodeMap(t, v.S)
		if derr != nil {
			return dst, derr
		}
		dst = append(dst, '{')
		first := true
		for i, k := range ks {
			key := k.S
			if k.Null {
				switch c.mapNullKey {
				case "DROP":
					continue
				case "LITERAL":
					key = c.mapNullLiteral
				default:
					return dst, errNullMapKey
				}
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(types.AppendJacksonString(dst, key), ':')
			if dst, err = c.appendAny(dst, t.ValueType(), vs[i]); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	vs, derr := types.DecodeRow(t, v.S)
	if derr != nil {
		return dst, derr
	}
	dst = append(dst, '{')
	first := true
	for i, f := range t.Fields() {
		if vs[i].Null && c.ignoreNulls {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(types.AppendJacksonString(dst, f.Name), ':')
		if dst, err = c.appendAny(dst, f.Type, vs[i]); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// appendAny writes a value of any type.
func (c *jsonCodec) appendAny(dst []byte, t types.Type, v types.Value) ([]byte, error) {
	if !v.Null && t.IsComposite() {
		return c.appendComposite(dst, t, v)
	}
	return c.appendValue(dst, t, v), nil
}

// convertComposite reads a JSON array or object, already validated by the
// scanner, into a composite value of type t.
func (c *jsonCodec) convertComposite(data []byte, t types.Type, sp jsonSpan) (types.Value, error) {
	want := jsonObject
	if t.Kind == types.Array {
		want = jsonArray
	}
	if sp.kind != want {
		return types.Value{}, fmt.Errorf("expected a JSON %s for %s, got %s", jsonKindNames[want], t.Plain().Nullable(), jsonKindNames[sp.kind])
	}
	s := &jsonScanner{data: data[:sp.end], pos: sp.start + 1}
	var keys, vals []types.Value
	var fieldSpans []jsonSpan
	if t.Kind == types.RowType {
		fieldSpans = make([]jsonSpan, len(t.Fields()))
	}
	s.ws()
	for s.pos < sp.end-1 {
		var ksp jsonSpan
		if want == jsonObject {
			k, err := s.str()
			if err != nil {
				return types.Value{}, err
			}
			ksp = k
			s.ws()
			s.pos++ // the colon
			s.ws()
		}
		vsp, err := s.value()
		if err != nil {
			return types.Value{}, err
		}
		switch t.Kind {
		case types.Array:
			v, err := c.convertAny(data, t.Elem(), vsp)
			if err != nil {
				return types.Value{}, fmt.Errorf("element %d: %w", len(vals)+1, err)
			}
			vals = append(vals, v)
		case types.Map, types.Multiset:
			k, err := c.convertAny(data, t.KeyType(), ksp)
			if err != nil {
				return types.Value{}, fmt.Errorf("key %q: %w", text(data, ksp), err)
			}
			v, err := c.convertAny(data, t.ValueType(), vsp)
			if err != nil {
				return types.Value{}, fmt.Errorf("key %q: %w", text(data, ksp), err)
			}
			if v.Null && t.Kind == types.Multiset {
				return types.Value{}, fmt.Errorf("key %q: a MULTISET count is never NULL", text(data, ksp))
			}
			keys, vals = upsertEntry(keys, vals, k, v)
		default:
			name := text(data, ksp)
			for i, f := range t.Fields() {
				if f.Name == name {
					fieldSpans[i] = vsp // a repeated member replaces the earlier one
				}
			}
		}
		s.ws()
		if s.pos < len(s.data) && s.data[s.pos] == ',' {
			s.pos++
			s.ws()
		}
	}
	switch t.Kind {
	case types.Array:
		if err := checkNotNull(t.Elem(), vals); err != nil {
			return types.Value{}, err
		}
		return types.EncodeArray(t.Elem(), vals), nil
	case types.Map, types.Multiset:
		if err := checkNotNull(t.ValueType(), vals); err != nil {
			return types.Value{}, err
		}
		return types.EncodeMap(t, keys, vals), nil
	}
	row := make([]types.Value, len(fieldSpans))
	for i, f := range t.Fields() {
		if fieldSpans[i].kind == 0 {
			if c.failOnMissing {
				return types.Value{}, fmt.Errorf("could not find field with name '%s'", f.Name)
			}
			row[i] = types.NullValue
		} else {
			v, err := c.convertAny(data, f.Type, fieldSpans[i])
			if err != nil {
				return types.Value{}, fmt.Errorf("field '%s': %w", f.Name, err)
			}
			row[i] = v
		}
		if row[i].Null && f.Type.NotNull {
			return types.Value{}, fmt.Errorf("field '%s' is NULL but declared %s", f.Name, f.Type)
		}
	}
	return types.EncodeRow(t, row), nil
}

// upsertEntry adds a map entry; a repeated key replaces the value of the
// earlier one, as a JSON object read into a Java map.
func upsertEntry(keys, vals []types.Value, k, v types.Value) ([]types.Value, []types.Value) {
	for i, old := range keys {
		if old.Null == k.Null && old.S == k.S {
			vals[i] = v
			return keys, vals
		}
	}
	return append(keys, k), append(vals, v)
}

// checkNotNull refuses a NULL where t is declared NOT NULL.
func checkNotNull(t types.Type, vs []types.Value) error {
	if !t.NotNull {
		return nil
	}
	for _, v := range vs {
		if v.Null {
			return fmt.Errorf("a NULL where %s is declared", t)
		}
	}
	return nil
}

// convertAny reads a value of any type.
func (c *jsonCodec) convertAny(data []byte, t types.Type, sp jsonSpan) (types.Value, error) {
	if sp.kind != jsonNull && t.IsComposite() {
		return c.convertComposite(data, t, sp)
	}
	return c.convert(data, t, sp)
}
