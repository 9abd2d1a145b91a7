package format

import (
	"slices"
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
	types.IntValue(1688864400123 * 1_000), // microseconds
}

// bidSchema is the Nexmark bid, whose JSON encoding of bidRow is 210
// bytes, like the bids of 'sluice bench nexmark'.
var bidSchema = types.Schema{
	field("auction", types.BigIntType),
	field("bidder", types.BigIntType),
	field("price", types.BigIntType),
	field("channel", types.StringType),
	field("url", types.StringType),
	field("dateTime", types.TimestampType(3)),
	field("extra", types.StringType),
}

var bidRow = types.Row{
	types.IntValue(1000),
	types.IntValue(1001),
	types.IntValue(2997),
	types.StringValue("Google"),
	types.StringValue("https://www.nexmark.com/mnr/xhr/item.htm?query=1&channel_id=1184235520"),
	types.IntValue(1688864400123 * 1_000), // microseconds
	types.StringValue("cgfdhqXyUdWtgzcfbaLpRbhSNhgpTBdfkbdTsaMnoJrO"),
}

func benchDecode(b *testing.B, c Codec, data []byte) {
	benchDecodeInto(b, c, data, vectors(benchSchema))
}

// benchDecodeInto decodes data into cols (nil for fields projected away)
// over and over, a chunk's worth at a time.
func benchDecodeInto(b *testing.B, c Codec, data []byte, cols []*types.Vector) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%types.ChunkSize == 0 {
			for _, col := range cols {
				if col != nil {
					col.Reset()
				}
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

// bidCols returns vectors for the bid's fields, nil for those not in
// used (every field when used is empty).
func bidCols(used ...string) []*types.Vector {
	cols := vectors(bidSchema)
	if len(used) == 0 {
		return cols
	}
	for i, f := range bidSchema {
		if !slices.Contains(used, f.Name) {
			cols[i] = nil
		}
	}
	return cols
}

func BenchmarkJSONDecodeBid(b *testing.B) {
	c := newCodec(b, "json", bidSchema, nil)
	benchDecodeInto(b, c, mustEncode(b, c, bidRow), bidCols())
}

// BenchmarkJSONDecodeBidProjected decodes what Nexmark's q2 reads.
func BenchmarkJSONDecodeBidProjected(b *testing.B) {
	c := newCodec(b, "json", bidSchema, nil)
	benchDecodeInto(b, c, mustEncode(b, c, bidRow), bidCols("auction", "price"))
}

func BenchmarkAvroDecodeBid(b *testing.B) {
	reg := srfake.New()
	defer reg.Close()
	c := newCodec(b, "avro-confluent", bidSchema, map[string]string{"url": reg.URL()})
	benchDecodeInto(b, c, mustEncode(b, c, bidRow), bidCols())
}

func BenchmarkAvroDecodeBidProjected(b *testing.B) {
	reg := srfake.New()
	defer reg.Close()
	c := newCodec(b, "avro-confluent", bidSchema, map[string]string{"url": reg.URL()})
	benchDecodeInto(b, c, mustEncode(b, c, bidRow), bidCols("auction", "price"))
}
