package format

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/hamba/avro/v2"

	"github.com/sluicesql/sluice/internal/types"
)

// ARRAY, MULTISET, MAP and ROW columns in the Avro formats.
//
// Schema derivation follows AvroSchemaConverter.convertToSchema: an ARRAY
// is {"type":"array","items":T}, a MAP {"type":"map","values":V} (keys
// must be character strings: "Avro format doesn't support non-string as
// key type of map"), a MULTISET the map of its elements to their counts
// (values INT, nullable as Flink's new IntType() is), a ROW a record named
// after its path: the row name of the enclosing record, "_" and the field
// name (org.apache.flink.avro.generated.record_r for a column r,
// record_r_s for its field s; array items and map values keep the name of
// their column). Every nullable child is the union ["null", T], and a
// nullable field of a nested record has "default": null, as at the top.
//
// Encoding follows RowDataToAvroConverters (arrays and maps in one block),
// decoding resolves the writer's arrays, maps and records against the
// declared types as Avro's schema resolution does (record fields by name,
// writer-only fields skipped, reader-only nullable fields NULL).

// compositeAvroColumn checks the children of a composite column type.
func compositeAvroColumn(t types.Type, legacy bool) (avroColumn, error) {
	var children []types.Type
	var base avroBase
	switch t.Kind {
	case types.Array:
		base, children = avroArray, []types.Type{t.Elem()}
	case types.Map, types.Multiset:
		if !t.KeyType().IsString() {
			return avroColumn{}, fmt.Errorf("Avro format doesn't support non-string as key type of map. The key type is: %s", t.KeyType())
		}
		base, children = avroMap, []types.Type{avroMapValueType(t)}
	default:
		base = avroRecord
		for _, f := range t.Fields() {
			if !validAvroName(f.Name) {
				return avroColumn{}, fmt.Errorf("field '%s' cannot be an Avro field: Illegal character in: %s", f.Name, f.Name)
			}
			children = append(children, f.Type)
		}
	}
	for _, c := range children {
		if _, err := avroColumnOf(c, legacy); err != nil {
			return avroColumn{}, err
		}
	}
	return avroColumn{base: base, legacy: legacy}, nil
}

// avroMapValueType is the type of a map's values in Avro: a MULTISET's
// counts are a nullable INT (extractValueTypeToAvroMap).
func avroMapValueType(t types.Type) types.Type {
	if t.Kind == types.Multiset {
		return types.IntType
	}
	return t.ValueType()
}

// appendAvroType appends the Avro type of a value of type t stored as c,
// in a union with null when t is nullable; name is the record name a ROW
// takes.
func appendAvroType(dst []byte, t types.Type, c avroColumn, name string) []byte {
	nullable := !t.NotNull && c.base != avroNull
	if nullable {
		dst = append(dst, `["null",`...)
	}
	switch c.base {
	case avroArray:
		dst = append(dst, `{"type":"array","items":`...)
		dst = appendAvroChild(dst, t.Elem(), c.legacy, name)
		dst = append(dst, '}')
	case avroMap:
		dst = append(dst, `{"type":"map","values":`...)
		dst = appendAvroChild(dst, avroMapValueType(t), c.legacy, name)
		dst = append(dst, '}')
	case avroRecord:
		dst = append(dst, `{"type":"record","name":`...)
		dst = strconv.AppendQuote(dst, name)
		dst = append(dst, `,"fields":[`...)
		for i, f := range t.Fields() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"name":`...)
			dst = strconv.AppendQuote(dst, f.Name)
			dst = append(dst, `,"type":`...)
			dst = appendAvroChild(dst, f.Type, c.legacy, name+"_"+f.Name)
			if !f.Type.NotNull {
				dst = append(dst, `,"default":null`...)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, "]}"...)
	default:
		dst = c.appendJSON(dst, t)
	}
	if nullable {
		dst = append(dst, ']')
	}
	return dst
}

func appendAvroChild(dst []byte, t types.Type, legacy bool, name string) []byte {
	c, _ := avroColumnOf(t, legacy) // checked by compositeAvroColumn
	return appendAvroType(dst, t, c, name)
}

// appendAvroComposite writes a non-NULL composite value of type t.
func appendAvroComposite(dst []byte, t types.Type, v types.Value, legacy bool) ([]byte, error) {
	switch t.Kind {
	case types.Array:
		vs, err := types.DecodeArray(t.Elem(), v.S)
		if err != nil {
			return dst, err
		}
		if len(vs) > 0 {
			dst = appendAvroLong(dst, int64(len(vs)))
			for _, x := range vs {
				if dst, err = appendAvroChildValue(dst, t.Elem(), x, legacy); err != nil {
					return dst, err
				}
			}
		}
		return appendAvroLong(dst, 0), nil
	case types.Map, types.Multiset:
		ks, vs, err := types.DecodeMap(t, v.S)
		if err != nil {
			return dst, err
		}
		if len(ks) > 0 {
			dst = appendAvroLong(dst, int64(len(ks)))
			for i, k := range ks {
				if k.Null {
					return dst, errors.New("a NULL map key cannot be written in Avro")
				}
				dst = appendAvroValue(dst, avroColumn{base: avroString}, k)
				if dst, err = appendAvroChildValue(dst, avroMapValueType(t), vs[i], legacy); err != nil {
					return dst, err
				}
			}
		}
		return appendAvroLong(dst, 0), nil
	}
	vs, err := types.DecodeRow(t, v.S)
	if err != nil {
		return dst, err
	}
	for i, f := range t.Fields() {
		if dst, err = appendAvroChildValue(dst, f.Type, vs[i], legacy); err != nil {
			return dst, fmt.Errorf("field '%s': %w", f.Name, err)
		}
	}
	return dst, nil
}

// appendAvroChildValue writes an element, map value or field as the
// derived schema has it: a union index first when t is nullable.
func appendAvroChildValue(dst []byte, t types.Type, v types.Value, legacy bool) ([]byte, error) {
	c, _ := avroColumnOf(t, legacy)
	if !t.NotNull && c.base != avroNull {
		if v.Null {
			return appendAvroLong(dst, 0), nil
		}
		dst = appendAvroLong(dst, 1)
	} else if v.Null {
		if c.base == avroNull {
			return dst, nil
		}
		return dst, fmt.Errorf("a NULL where %s is declared", t)
	}
	if c.base >= avroArray {
		return appendAvroComposite(dst, t, v, legacy)
	}
	if c.nanos {
		var err error
		if v, err = avroNanos(t, c, v); err != nil {
			return dst, err
		}
	}
	return appendAvroValue(dst, c, v), nil
}

// resolveComposite compiles reading writer schema w (not a union) into a
// value of composite type t.
func resolveComposite(w avro.Schema, f types.Field, c avroColumn, col int) avroStep {
	fail := func(msg string) avroStep {
		return avroStep{op: opFail, col: col, err: fmt.Sprintf("field '%s': %s", f.Name, msg)}
	}
	expect := avroBaseNames[c.base]
	st := avroStep{col: col, t: f.Type, store: c}
	switch w := w.(type) {
	case *avro.ArraySchema:
		if c.base != avroArray {
			break
		}
		st.op = opArray
		st.elem = []avroStep{resolveChild(w.Items(), f.Name+"[]", f.Type.Elem(), c.legacy, 0)}
		st.scratch = []*types.Vector{types.NewVector(f.Type.Elem(), 8)}
		return st
	case *avro.MapSchema:
		if c.base != avroMap {
			break
		}
		st.op = opMap
		st.elem = []avroStep{resolveChild(w.Values(), f.Name+"{}", avroMapValueType(f.Type), c.legacy, 0)}
		st.scratch = []*types.Vector{types.NewVector(avroMapValueType(f.Type), 8)}
		return st
	case *avro.RecordSchema:
		if c.base != avroRecord {
			break
		}
		st.op = opRecord
		fields := f.Type.Fields()
		for _, rf := range fields {
			st.scratch = append(st.scratch, types.NewVector(rf.Type, 1))
		}
		seen := make([]bool, len(fields))
		for _, wf := range w.Fields() {
			i := types.Schema(fields).Index(wf.Name())
			if i < 0 || seen[i] {
				st.elem = append(st.elem, discardStep(wf.Type()))
				continue
			}
			seen[i] = true
			st.elem = append(st.elem, resolveChild(wf.Type(), f.Name+"."+wf.Name(), fields[i].Type, c.legacy, i))
		}
		for i, rf := range fields {
			if !seen[i] && rf.Type.NotNull {
				return fail(fmt.Sprintf("the writer's record has no field '%s' and it is NOT NULL (no default)", rf.Name))
			}
		}
		return st
	}
	return fail(fmt.Sprintf("Found %s, expecting %s", avroTypeName(w), expect))
}

// resolveChild compiles reading an element, map value or field into the
// scratch vector col of its parent.
func resolveChild(w avro.Schema, path string, t types.Type, legacy bool, col int) avroStep {
	c, _ := avroColumnOf(t, legacy) // checked when the column was
	return resolveValue(w, types.Field{Name: path, Type: t}, c, col)
}

// readComposite reads an array, map or record for a step of opArray,
// opMap or opRecord: its children append to the step's scratch vectors.
func (st *avroStep) readComposite(r *avroReader) (types.Value, error) {
	defer func() {
		for _, v := range st.scratch {
			v.Reset()
		}
	}()
	if st.op == opRecord {
		for i := range st.elem {
			if err := st.elem[i].run(r, st.scratch); err != nil {
				return types.Value{}, err
			}
		}
		vs := make([]types.Value, len(st.scratch))
		for i, v := range st.scratch {
			vs[i] = types.NullValue
			if v.Len() > 0 {
				vs[i] = v.Get(v.Len() - 1) // a repeated writer field: the last
			}
		}
		return types.EncodeRow(st.t, vs), nil
	}
	elem, out := &st.elem[0], st.scratch[0]
	var keys []types.Value
	for {
		n, err := r.long()
		if err != nil {
			return types.Value{}, err
		}
		if n == 0 {
			break
		}
		if n < 0 {
			if _, err := r.long(); err != nil { // the block's size in bytes
				return types.Value{}, err
			}
			n = -n
		}
		if n > int64(len(r.b)-r.pos) {
			return types.Value{}, errTruncated
		}
		for ; n > 0; n-- {
			if st.op == opMap {
				k, err := r.bytes()
				if err != nil {
					return types.Value{}, err
				}
				keys = append(keys, types.StringValue(types.JavaString(k)))
			}
			if err := elem.run(r, st.scratch); err != nil {
				return types.Value{}, err
			}
		}
	}
	vals := make([]types.Value, out.Len())
	for i := range vals {
		vals[i] = out.Get(i)
	}
	if st.op == opArray {
		if err := checkNotNull(st.t.Elem(), vals); err != nil {
			return types.Value{}, fmt.Errorf("array: %w", err)
		}
		return types.EncodeArray(st.t.Elem(), vals), nil
	}
	if err := checkNotNull(st.t.ValueType(), vals); err != nil {
		return types.Value{}, fmt.Errorf("map: %w", err)
	}
	// A key read twice keeps its last value, as a Java map does.
	var uk, uv []types.Value
	for i := range keys {
		uk, uv = upsertEntry(uk, uv, keys[i], vals[i])
	}
	return types.EncodeMap(st.t, uk, uv), nil
}
