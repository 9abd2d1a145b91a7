package format

import (
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

func TestCivilDays(t *testing.T) {
	for days := int64(-800_000); days <= 3_000_000; days += 97 {
		want := time.Unix(days*86400, 0).UTC()
		y, m, d := civilFromDays(days)
		if y != int64(want.Year()) || m != int64(want.Month()) || d != int64(want.Day()) {
			t.Fatalf("civilFromDays(%d) = %d-%d-%d, want %s", days, y, m, d, want)
		}
		if back := daysFromCivil(y, m, d); back != days {
			t.Fatalf("daysFromCivil(%d-%d-%d) = %d, want %d", y, m, d, back, days)
		}
		if last := daysIn(y, m); time.Date(int(y), time.Month(m), int(last)+1, 0, 0, 0, 0, time.UTC).Day() != 1 {
			t.Fatalf("daysIn(%d, %d) = %d", y, m, last)
		}
	}
}

// TestTimestampDecodeRange decodes timestamps at and past the edges of the
// range of timestamps: the edges are exact; past them (a value Flink reads)
// the error names the value and is not hidden by ignore-parse-errors.
func TestTimestampDecodeRange(t *testing.T) {
	fields := types.Schema{field("ts", types.TimestampType(9))}
	for _, opts := range []map[string]string{nil, {"ignore-parse-errors": "true"}} {
		c := newCodec(t, "json", fields, opts)
		for in, want := range map[string]string{
			`{"ts":"9999-12-31 23:59:59.999999999"}`: "9999-12-31 23:59:59.999999999",
			`{"ts":"0000-01-01 00:00:00"}`:           "0000-01-01 00:00:00.000000000",
			`{"ts":"1500-01-01 00:00:00.000000001"}`: "1500-01-01 00:00:00.000000001",
			`{"ts":"2262-04-11 23:47:16.854775808"}`: "2262-04-11 23:47:16.854775808",
		} {
			got := mustDecode(t, c, fields, []byte(in))
			if s := types.FormatValue(fields[0].Type, got[0], nil); s != want {
				t.Errorf("%v: %s decoded as %s", opts, in, s)
			}
		}
		for _, in := range []string{`{"ts":"+10000-01-01 00:00:00"}`, `{"ts":"-0001-12-31 23:59:59.999999999"}`} {
			if _, err := decodeRow(t, c, fields, []byte(in)); !types.IsRangeError(err) {
				t.Errorf("%v: %s: %v, want a range error", opts, in, err)
			}
		}
	}
	ts3 := types.Schema{field("ts", types.TimestampType(3))}
	c := newCodec(t, "json", ts3, nil)
	for in, want := range map[string]string{
		`{"ts":"0000-01-01 00:00:00"}`:        "0000-01-01 00:00:00.000",
		`{"ts":"1500-06-15 12:30:00.5"}`:      "1500-06-15 12:30:00.500",
		`{"ts":"9999-12-31 23:59:59.999999"}`: "9999-12-31 23:59:59.999999",
	} {
		got := mustDecode(t, c, ts3, []byte(in))
		if s := types.FormatValue(ts3[0].Type, got[0], nil); s != want {
			t.Errorf("%s decoded as %s, want %s", in, s, want)
		}
	}
	for _, in := range []string{`{"ts":"+10000-01-01 00:00:00"}`, `{"ts":"-0001-12-31 23:59:59"}`} {
		if _, err := decodeRow(t, c, ts3, []byte(in)); !types.IsRangeError(err) {
			t.Errorf("%s: %v, want a range error", in, err)
		}
	}
	avro := types.Schema{field("ts", types.TimestampType(6))}
	c = newCodec(t, "avro", avro, map[string]string{"timestamp_mapping.legacy": "false"})
	// local-timestamp-micros of year 3000: 32503680000000000 µs.
	data := appendAvroLong([]byte{0x02}, 32503680000000000) // the union branch of the value
	if got := mustDecode(t, c, avro, data); got[0].I != 32503680000000000 {
		t.Errorf("avro year 3000: %d", got[0].I)
	}
	// 10000-01-01 is past the range.
	data = appendAvroLong([]byte{0x02}, 253402300800000000)
	if _, err := decodeRow(t, c, avro, data); !types.IsRangeError(err) {
		t.Errorf("avro year 10000: %v, want a range error", err)
	}

}
