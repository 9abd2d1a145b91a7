package format

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/sluicesql/sluice/internal/types"
)

// nestedGen makes random nested types and values of them.
type nestedGen struct {
	r *rand.Rand
	n int // names made so far, for unique field names
}

var leafTypes = []types.Type{types.IntType, types.BigIntType, types.DoubleType, types.StringType, types.BooleanType}

func (g *nestedGen) typ(depth int) types.Type {
	var t types.Type
	switch k := g.r.IntN(6); {
	case depth == 0 || k < 2:
		t = leafTypes[g.r.IntN(len(leafTypes))]
	case k == 2:
		t = types.ArrayOf(g.typ(depth - 1))
	case k == 3:
		t = types.MapOf(types.StringType.WithNotNull(true), g.typ(depth-1))
	case k == 4:
		t = types.MultisetOf(types.StringType.WithNotNull(true))
	default:
		fields := make([]types.Field, 1+g.r.IntN(3))
		for i := range fields {
			g.n++
			fields[i] = types.Field{Name: fmt.Sprintf("f%d", g.n), Type: g.typ(depth - 1)}
		}
		t = types.RowOf(fields)
	}
	return t.WithNotNull(g.r.IntN(4) == 0)
}

func (g *nestedGen) value(t types.Type) types.Value {
	if !t.NotNull && g.r.IntN(5) == 0 {
		return types.NullValue
	}
	n := g.r.IntN(4)
	switch t.Kind {
	case types.Int:
		return types.IntValue(int64(g.r.Int32()))
	case types.BigInt:
		return types.IntValue(g.r.Int64() - g.r.Int64())
	case types.Double:
		return types.FloatValue(g.r.NormFloat64() * 1e6)
	case types.Varchar:
		return types.StringValue(fmt.Sprintf("s\"%d\\é", g.r.IntN(1000)))
	case types.Boolean:
		return types.BoolValue(g.r.IntN(2) == 0)
	case types.Array:
		vs := make([]types.Value, n)
		for i := range vs {
			vs[i] = g.value(t.Elem())
		}
		return types.EncodeArray(t.Elem(), vs)
	case types.Map, types.Multiset:
		ks, vs := make([]types.Value, n), make([]types.Value, n)
		for i := range ks {
			ks[i] = types.StringValue(fmt.Sprintf("k%d", i))
			if t.Kind == types.Multiset {
				vs[i] = types.IntValue(1 + g.r.Int64N(5))
			} else {
				vs[i] = g.value(t.ValueType())
			}
		}
		return types.EncodeMap(t, ks, vs)
	}
	fs := t.Fields()
	vs := make([]types.Value, len(fs))
	for i, f := range fs {
		vs[i] = g.value(f.Type)
	}
	return types.EncodeRow(t, vs)
}

// TestNestedFormatsProperty writes random values of random nested types
// through json, avro and avro-confluent and reads them back: every value
// equals itself.
func TestNestedFormatsProperty(t *testing.T) {
	reg := srfake.New()
	defer reg.Close()
	g := &nestedGen{r: rand.New(rand.NewPCG(1, 2))}
	for round := range 150 {
		fields := types.Schema{{Name: "id", Type: types.IntType}}
		for i := range 1 + g.r.IntN(3) {
			fields = append(fields, types.Field{Name: fmt.Sprintf("c%d", i), Type: g.typ(3)})
		}
		rows := make([]types.Row, 4)
		for i := range rows {
			rows[i] = types.Row{types.IntValue(int64(i))}
			for _, f := range fields[1:] {
				rows[i] = append(rows[i], g.value(f.Type))
			}
		}
		for _, name := range []string{"json", "avro", "avro-confluent"} {
			opts := map[string]string{}
			if name == "avro-confluent" {
				opts["url"] = reg.URL()
				opts["subject"] = fmt.Sprintf("p%d-value", round)
			}
			c := newCodec(t, name, fields, opts)
			for _, row := range rows {
				data := mustEncode(t, c, row)
				got := mustDecode(t, c, fields, data)
				for j, f := range fields {
					if got[j] != row[j] {
						t.Fatalf("%s, %s: wrote %s, read %s", name, f.Type,
							types.PrintValue(f.Type, row[j], nil), types.PrintValue(f.Type, got[j], nil))
					}
				}
			}
		}
	}
}
