package format

import (
	"testing"

	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/sluicesql/sluice/internal/types"
)

// benchSchema is a typical event row.
var benchSchema = types.Schema{
	field("id", types.BigIntType.WithNotNull(true)),
	field("user", types.StringType),
	field("action", types.StringType),
	field("amount", types.DecimalType(10, 2)),
	field("score", types.DoubleType),
	field("count", types.IntType),
	field("ok", types.BooleanType),
	field("ts", types.TimestampType(3)),
}

var benchRow = types.Row{
	types.IntValue(123456789),
	types.StringValue("user-4711"),
	types.StringValue("checkout"),
	types.IntValue(1999),
	types.FloatValue(0.875),
	types.IntValue(3),
	types.BoolValue(true),
	types.IntValue(1688864400123 * 1_000_000),
}

func benchDecode(b *testing.B, c Codec, data []byte) {
	cols := vectors(benchSchema)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%types.ChunkSize == 0 {
			for _, col := range cols {
				col.Reset()
			}
		}
		if err := c.Decode(data, cols); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

func benchEncode(b *testing.B, c Codec) {
	buf, err := c.Encode(nil, benchRow)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if buf, err = c.Encode(buf[:0], benchRow); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

func BenchmarkJSONDecode(b *testing.B) {
	c := newCodec(b, "json", benchSchema, nil)
	benchDecode(b, c, mustEncode(b, c, benchRow))
}

func BenchmarkJSONEncode(b *testing.B) {
	benchEncode(b, newCodec(b, "json", benchSchema, nil))
}

func BenchmarkAvroDecode(b *testing.B) {
	reg := srfake.New()
	defer reg.Close()
	c := newCodec(b, "avro-confluent", benchSchema, map[string]string{"url": reg.URL()})
	benchDecode(b, c, mustEncode(b, c, benchRow))
}

func BenchmarkAvroEncode(b *testing.B) {
	reg := srfake.New()
	defer reg.Close()
	benchEncode(b, newCodec(b, "avro-confluent", benchSchema, map[string]string{"url": reg.URL()}))
}
