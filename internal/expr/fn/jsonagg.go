package fn

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sluicesql/sluice/internal/types"
)

// JSON_OBJECTAGG([KEY] key VALUE value [{NULL | ABSENT} ON NULL]) and
// JSON_ARRAYAGG(items [{NULL | ABSENT} ON NULL]), after Flink's
// JsonObjectAggFunction and JsonArrayAggFunction.
//
// As Flink's WrapJsonAggFunctionArgumentsRule does, the parser hands these
// functions their values already as JSON text: each value wrapped in
// JSON_STRING, unless it is a JSON_OBJECT or JSON_ARRAY call, whose JSON
// is inserted as it is. The ON NULL clause picks the function: the plain
// names have the default behavior (NULL ON NULL for JSON_OBJECTAGG,
// ABSENT ON NULL for JSON_ARRAYAGG), the unlisted ones the other, as
// Flink's JSON_OBJECTAGG_ABSENT_ON_NULL and JSON_ARRAYAGG_NULL_ON_NULL.
//
// JSON_OBJECTAGG: "Builds a JSON object string by aggregating key-value
// expressions into a single JSON object. The key expression must return a
// non-nullable character string. ... Note that keys must be unique. If a
// key occurs multiple times, an error will be thrown." A retraction
// removes its key when the value matches. Sluice writes the members in
// key order (Flink's follow its state backend's map).
//
// JSON_ARRAYAGG: "Builds a JSON object string by aggregating items into an
// array." Items stay in arrival order; a retraction removes the earliest
// equal item.
//
// Both give STRING NOT NULL: '{}' and '[]' without input.

func init() {
	for _, f := range []struct {
		name           string
		object, absent bool
	}{
		{"JSON_OBJECTAGG", true, false},
		{"JSON_OBJECTAGG_ABSENT_ON_NULL", true, true},
		{"JSON_ARRAYAGG", false, true},
		{"JSON_ARRAYAGG_NULL_ON_NULL", false, false},
	} {
		registerAgg(bindJSONAgg(f.name, f.object, f.absent), f.name)
		aggregates[f.name].Unlisted = strings.HasSuffix(f.name, "_ON_NULL")
	}
}

func bindJSONAgg(name string, object, absent bool) aggBind {
	return func(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
		if object && !match(args, str, str) {
			return types.Type{}, nil, sigError(name, "(STRING key, JSON value)", args)
		}
		if !object && !match(args, str) {
			return types.Type{}, nil, sigError(name, "(JSON value)", args)
		}
		t := types.StringType.WithNotNull(true)
		if object {
			return t, withDistinct(args, distinct, func() Accumulator { return &jsonObjectAggAcc{absent: absent} }), nil
		}
		return t, withDistinct(args, distinct, func() Accumulator { return &jsonArrayAggAcc{absent: absent} }), nil
	}
}

// jsonObjectAggAcc holds each key's JSON value (NULL for a JSON null).
type jsonObjectAggAcc struct {
	absent bool
	keys   []string // sorted
	vals   []types.Value
	err    error // a NULL or duplicate key, reported by Result
}

func (j *jsonObjectAggAcc) find(k string) (int, bool) { return slices.BinarySearch(j.keys, k) }

func (j *jsonObjectAggAcc) Add(args []types.Value) {
	key, val := args[0], args[1]
	if j.err != nil {
		return
	}
	if key.Null {
		j.err = fmt.Errorf("JSON_OBJECTAGG: the key is NULL; a key must be a non-NULL string")
		return
	}
	i, dup := j.find(key.S)
	if dup {
		j.err = fmt.Errorf("JSON_OBJECTAGG: Key '%s' is already present. Duplicate keys are not allowed in JSON_OBJECTAGG. Please ensure that keys are unique.", key.S)
		return
	}
	if val.Null && j.absent {
		return
	}
	j.keys = slices.Insert(j.keys, i, key.S)
	j.vals = slices.Insert(j.vals, i, val)
}

func (j *jsonObjectAggAcc) Retract(args []types.Value) error {
	key, val := args[0], args[1]
	if key.Null {
		return nil
	}
	if i, ok := j.find(key.S); ok && j.vals[i].Null == val.Null && j.vals[i].S == val.S {
		j.keys = slices.Delete(j.keys, i, i+1)
		j.vals = slices.Delete(j.vals, i, i+1)
	}
	return nil
}

func (j *jsonObjectAggAcc) Result() (types.Value, error) {
	if j.err != nil {
		return types.Value{}, j.err
	}
	b := []byte{'{'}
	for i, k := range j.keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendJSONText(b, j.vals[i])
	}
	return types.StringValue(string(append(b, '}'))), nil
}

// appendJSONText appends a value's JSON text, or null.
func appendJSONText(b []byte, v types.Value) []byte {
	if v.Null {
		return append(b, "null"...)
	}
	return append(b, v.S...)
}

func (j *jsonObjectAggAcc) MarshalState() []byte {
	var e encoder
	e.int(int64(len(j.keys)))
	for i, k := range j.keys {
		e.str(k)
		e.value(types.PhysString, j.vals[i])
	}
	return e.b
}

func (j *jsonObjectAggAcc) UnmarshalState(b []byte) error {
	d := decoder{b: b}
	n := d.int()
	var keys []string
	var vals []types.Value
	for i := int64(0); i < n && d.err == nil; i++ {
		keys = append(keys, d.str())
		vals = append(vals, d.value(types.PhysString))
	}
	if err := d.done(); err != nil {
		return err
	}
	j.keys, j.vals = keys, vals
	return nil
}

// jsonArrayAggAcc holds the items' JSON in arrival order (NULL for a JSON
// null).
type jsonArrayAggAcc struct {
	absent bool
	items  []types.Value
}

func (j *jsonArrayAggAcc) Add(args []types.Value) {
	if args[0].Null && j.absent {
		return
	}
	j.items = append(j.items, args[0])
}

func (j *jsonArrayAggAcc) Retract(args []types.Value) error {
	v := args[0]
	i := slices.IndexFunc(j.items, func(x types.Value) bool { return x.Null == v.Null && x.S == v.S })
	if i >= 0 {
		j.items = slices.Delete(j.items, i, i+1)
	}
	return nil
}

func (j *jsonArrayAggAcc) Result() (types.Value, error) {
	b := []byte{'['}
	for i, v := range j.items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONText(b, v)
	}
	return types.StringValue(string(append(b, ']'))), nil
}

func (j *jsonArrayAggAcc) MarshalState() []byte {
	var e encoder
	e.int(int64(len(j.items)))
	for _, v := range j.items {
		e.value(types.PhysString, v)
	}
	return e.b
}

func (j *jsonArrayAggAcc) UnmarshalState(b []byte) error {
	d := decoder{b: b}
	n := d.int()
	var items []types.Value
	for i := int64(0); i < n && d.err == nil; i++ {
		items = append(items, d.value(types.PhysString))
	}
	if err := d.done(); err != nil {
		return err
	}
	j.items = items
	return nil
}
