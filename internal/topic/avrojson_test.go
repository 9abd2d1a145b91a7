package topic

import (
	"math"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"
)

func TestAvroJSONEncoding(t *testing.T) {
	schema := avro.MustParse(`{"type": "record", "name": "Sale", "namespace": "movies", "fields": [
		{"name": "title", "type": "string"},
		{"name": "seats", "type": "int"},
		{"name": "ok", "type": "boolean"},
		{"name": "price", "type": "float"},
		{"name": "rating", "type": ["null", "double"]},
		{"name": "raw", "type": "bytes"},
		{"name": "code", "type": {"type": "fixed", "name": "Code", "size": 2}},
		{"name": "day", "type": {"type": "int", "logicalType": "date"}},
		{"name": "genre", "type": {"type": "enum", "name": "Genre", "symbols": ["DRAMA", "ACTION"]}},
		{"name": "tags", "type": {"type": "array", "items": "string"}},
		{"name": "counts", "type": {"type": "map", "values": "long"}},
		{"name": "prev", "type": ["null", "Sale"]},
		{"name": "none", "type": "null"}]}`)
	prev := map[string]any{
		"title": "B", "seats": int32(1), "ok": false, "price": float32(0.5), "rating": nil,
		"raw": []byte{}, "code": [2]byte{0, 0}, "day": int32(0), "genre": "DRAMA",
		"tags": []any{}, "counts": map[string]any{}, "prev": nil, "none": nil,
	}
	sale := map[string]any{
		"title": "Die \"Hard\"\n", "seats": int32(-3), "ok": true, "price": float32(2),
		"rating": map[string]any{"double": 6.35}, "raw": []byte{0x00, 0xff, 'a'},
		"code": [2]byte{1, 'b'}, "day": int32(19547), "genre": "ACTION",
		"tags": []any{"a", "b"}, "counts": map[string]any{"x": int64(1)},
		"prev": map[string]any{"movies.Sale": prev}, "none": nil,
	}
	data, err := avro.Marshal(schema, sale)
	if err != nil {
		t.Fatal(err)
	}
	r := avro.NewReader(nil, 0).Reset(data)
	got := string(appendAvroJSON(nil, r, schema))
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	want := `{"title":"Die \"Hard\"\n","seats":-3,"ok":true,"price":2.0,"rating":{"double":6.35},` +
		`"raw":"\u0000ÿa","code":"\u0001b","day":19547,"genre":"ACTION","tags":["a","b"],"counts":{"x":1},` +
		`"prev":{"movies.Sale":{"title":"B","seats":1,"ok":false,"price":0.5,"rating":null,"raw":"","code":"\u0000\u0000",` +
		`"day":0,"genre":"DRAMA","tags":[],"counts":{},"prev":null,"none":null}},"none":null}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}

	// A truncated body is an error, never a partial line.
	r = avro.NewReader(nil, 0).Reset(data[:len(data)/2])
	appendAvroJSON(nil, r, schema)
	if r.Error == nil {
		t.Fatal("no error for a truncated record")
	}
	// So is a union branch that does not exist.
	r = avro.NewReader(nil, 0).Reset([]byte{0x04})
	appendAvroJSON(nil, r, avro.MustParse(`["null", "long"]`))
	if r.Error == nil || !strings.Contains(r.Error.Error(), "branch index 2") {
		t.Fatalf("bad union branch: got %v", r.Error)
	}
}

func TestJSONFloatAsJava(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		bits int
		want string
	}{
		{0, 64, "0.0"},
		{math.Copysign(0, -1), 64, "-0.0"},
		{1, 64, "1.0"},
		{6.35, 64, "6.35"},
		{-2.5, 64, "-2.5"},
		{0.001, 64, "0.001"},
		{0.0001, 64, "1.0E-4"},
		{1234567, 64, "1234567.0"},
		{1e7, 64, "1.0E7"},
		{1.5e10, 64, "1.5E10"},
		{float64(float32(0.1)), 32, "0.1"},
		{math.NaN(), 64, `"NaN"`},
		{math.Inf(-1), 64, `"-Infinity"`},
	} {
		if got := string(appendJSONFloat(nil, tc.f, tc.bits)); got != tc.want {
			t.Errorf("appendJSONFloat(%v, %d) = %s, want %s", tc.f, tc.bits, got, tc.want)
		}
	}
}
