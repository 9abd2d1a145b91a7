package topic

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"

	"github.com/hamba/avro/v2"
	"github.com/twmb/franz-go/pkg/sr"

	"github.com/sluicesql/sluice/internal/types"
)

// confluentHeaderSize is the length of Confluent's wire format header: the
// magic byte 0x00 and the schema id as a 4-byte big-endian integer.
const confluentHeaderSize = 5

// registryDecoder prints Confluent wire-format Avro records in Avro's JSON
// encoding, as kafka-avro-console-consumer does, fetching each writer schema
// from the Schema Registry once.
type registryDecoder struct {
	client  *sr.Client
	schemas map[int]avro.Schema
}

func newRegistryDecoder(url string) (*registryDecoder, error) {
	client, err := sr.NewClient(sr.URLs(url), sr.HTTPClient(&http.Client{Timeout: RequestTimeout}))
	if err != nil {
		return nil, fmt.Errorf("schema registry %q: %w", url, err)
	}
	return &registryDecoder{client: client, schemas: map[int]avro.Schema{}}, nil
}

// appendJSON appends the JSON encoding of the wire-format record in data.
func (d *registryDecoder) appendJSON(ctx context.Context, dst, data []byte) ([]byte, error) {
	if len(data) < confluentHeaderSize || data[0] != 0 {
		return nil, errors.New("not in the Confluent Avro wire format (magic byte 0x00, schema id, Avro body)")
	}
	id := int(binary.BigEndian.Uint32(data[1:confluentHeaderSize]))
	s, err := d.schema(ctx, id)
	if err != nil {
		return nil, err
	}
	r := avro.NewReader(nil, 0).Reset(data[confluentHeaderSize:])
	dst = appendAvroJSON(dst, r, s)
	if r.Error != nil {
		return nil, fmt.Errorf("decoding Avro with schema id %d: %w", id, r.Error)
	}
	return dst, nil
}

// schema returns the parsed writer schema with the given id.
func (d *registryDecoder) schema(ctx context.Context, id int) (avro.Schema, error) {
	if s, ok := d.schemas[id]; ok {
		return s, nil
	}
	ss, err := d.client.SchemaByID(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("fetching schema id %d from the registry: %w", id, err)
	}
	if ss.Type != sr.TypeAvro {
		return nil, fmt.Errorf("schema id %d is a %s schema, not Avro", id, ss.Type)
	}
	// A cache per schema: writer schemas of different ids may reuse names.
	cache := &avro.SchemaCache{}
	if err := d.parseReferences(ctx, ss.References, cache); err != nil {
		return nil, fmt.Errorf("schema id %d: %w", id, err)
	}
	s, err := avro.ParseWithCache(ss.Schema, "", cache)
	if err != nil {
		return nil, fmt.Errorf("schema id %d: %w", id, err)
	}
	d.schemas[id] = s
	return s, nil
}

// parseReferences parses the referenced schemas into cache, depth first.
func (d *registryDecoder) parseReferences(ctx context.Context, refs []sr.SchemaReference, cache *avro.SchemaCache) error {
	for _, ref := range refs {
		ss, err := d.client.SchemaByVersion(ctx, ref.Subject, ref.Version)
		if err != nil {
			return fmt.Errorf("fetching referenced schema %s (subject '%s' version %d): %w", ref.Name, ref.Subject, ref.Version, err)
		}
		if err := d.parseReferences(ctx, ss.References, cache); err != nil {
			return err
		}
		if _, err := avro.ParseWithCache(ss.Schema.Schema, "", cache); err != nil {
			return fmt.Errorf("referenced schema %s: %w", ref.Name, err)
		}
	}
	return nil
}

// appendAvroJSON reads one value of schema s from r and appends it in Avro's
// JSON encoding as Java's JsonEncoder writes it: records with their fields
// in schema order, non-null union values wrapped as {"type": value}, bytes
// and fixed as strings of code points U+0000 to U+00FF, logical types as
// their underlying type. Errors are left in r.Error.
func appendAvroJSON(dst []byte, r *avro.Reader, s avro.Schema) []byte {
	if r.Error != nil {
		return dst
	}
	switch s := s.(type) {
	case *avro.RefSchema:
		return appendAvroJSON(dst, r, s.Schema())
	case *avro.RecordSchema:
		dst = append(dst, '{')
		for i, f := range s.Fields() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = types.AppendJacksonString(dst, f.Name())
			dst = append(dst, ':')
			dst = appendAvroJSON(dst, r, f.Type())
		}
		return append(dst, '}')
	case *avro.EnumSchema:
		i := r.ReadInt()
		sym, ok := s.Symbol(int(i))
		if !ok && r.Error == nil {
			r.ReportError("enum", fmt.Sprintf("symbol index %d out of range for %s", i, s.FullName()))
		}
		return types.AppendJacksonString(dst, sym)
	case *avro.ArraySchema:
		dst = append(dst, '[')
		first := true
		readBlocks(r, func() {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendAvroJSON(dst, r, s.Items())
		})
		return append(dst, ']')
	case *avro.MapSchema:
		dst = append(dst, '{')
		first := true
		readBlocks(r, func() {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = types.AppendJacksonString(dst, r.ReadString())
			dst = append(dst, ':')
			dst = appendAvroJSON(dst, r, s.Values())
		})
		return append(dst, '}')
	case *avro.UnionSchema:
		i := r.ReadLong()
		branches := s.Types()
		if i < 0 || i >= int64(len(branches)) {
			if r.Error == nil {
				r.ReportError("union", fmt.Sprintf("branch index %d out of range for %s", i, s))
			}
			return dst
		}
		b := branches[i]
		if b.Type() == avro.Null {
			return append(dst, "null"...)
		}
		dst = append(dst, '{')
		dst = types.AppendJacksonString(dst, unionBranchName(b))
		dst = append(dst, ':')
		dst = appendAvroJSON(dst, r, b)
		return append(dst, '}')
	case *avro.FixedSchema:
		buf := make([]byte, s.Size())
		r.Read(buf)
		return appendJSONBytes(dst, buf)
	}
	switch s.Type() {
	case avro.Null:
		return append(dst, "null"...)
	case avro.Boolean:
		return strconv.AppendBool(dst, r.ReadBool())
	case avro.Int:
		return strconv.AppendInt(dst, int64(r.ReadInt()), 10)
	case avro.Long:
		return strconv.AppendInt(dst, r.ReadLong(), 10)
	case avro.Float:
		return appendJSONFloat(dst, float64(r.ReadFloat()), 32)
	case avro.Double:
		return appendJSONFloat(dst, r.ReadDouble(), 64)
	case avro.Bytes:
		return appendJSONBytes(dst, r.ReadBytes())
	case avro.String:
		return types.AppendJacksonString(dst, r.ReadString())
	}
	r.ReportError("decode", fmt.Sprintf("unsupported schema type %s", s.Type()))
	return dst
}

// readBlocks calls item for each item of an array or map, stopping at the
// first error.
func readBlocks(r *avro.Reader, item func()) {
	for r.Error == nil {
		n, _ := r.ReadBlockHeader()
		if n == 0 {
			return
		}
		for ; n > 0 && r.Error == nil; n-- {
			item()
		}
	}
}

// unionBranchName is the key of a union value in the JSON encoding: the
// full name of a named type, else the type's name.
func unionBranchName(s avro.Schema) string {
	if ref, ok := s.(*avro.RefSchema); ok {
		s = ref.Schema()
	}
	if n, ok := s.(avro.NamedSchema); ok {
		return n.FullName()
	}
	return string(s.Type())
}

// appendJSONFloat appends f as Java's Double.toString (Float.toString when
// bits is 32) writes it, with NaN and the infinities quoted, as Jackson
// writes them.
func appendJSONFloat(dst []byte, f float64, bits int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(types.AppendJavaFloat(append(dst, '"'), f, bits), '"')
	}
	return types.AppendJavaFloat(dst, f, bits)
}

// appendJSONBytes appends b as a JSON string of the code points U+0000 to
// U+00FF, one per byte.
func appendJSONBytes(dst, b []byte) []byte {
	runes := make([]rune, len(b))
	for i, c := range b {
		runes[i] = rune(c)
	}
	return types.AppendJacksonString(dst, string(runes))
}
