package format

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// bigIntBytes is BigInteger.toByteArray(): the shortest big-endian two's
// complement bytes of x.
func bigIntBytes(x *big.Int) []byte {
	n := x.BitLen()/8 + 1
	m := new(big.Int).Set(x)
	if x.Sign() < 0 {
		m.Add(m, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
	}
	b := m.FillBytes(make([]byte, n))
	return trimSignBytes(b)
}

// TestWideDecimalRoundTrips writes random DECIMAL values of precisions 1
// to 38 through JSON and Avro and reads them back; Avro's bytes are
// BigInteger.toByteArray() of the unscaled value, and JSON's text is
// BigDecimal's with trailing zeros stripped.
func TestWideDecimalRoundTrips(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		p := 1 + r.IntN(38)
		s := r.IntN(p + 1)
		dt := types.DecimalType(p, s).WithNotNull(true)
		var digits strings.Builder
		for range 1 + r.IntN(p) {
			digits.WriteByte(byte('0' + r.IntN(10)))
		}
		u, _ := new(big.Int).SetString(digits.String(), 10)
		if r.IntN(2) == 0 {
			u.Neg(u)
		}
		v := types.DecimalOfBig(dt, u)
		fields := types.Schema{field("v", dt)}
		for _, name := range []string{"json", "avro"} {
			c := newCodec(t, name, fields, nil)
			data := mustEncode(t, c, types.Row{v})
			if name == "avro" && !bytes.Equal(data[1:], bigIntBytes(u)) {
				t.Fatalf("%s %s: avro bytes % x, want % x", dt, u, data[1:], bigIntBytes(u))
			}
			back := mustDecode(t, c, fields, data)
			if back[0] != v {
				t.Fatalf("%s unscaled %s through %s (%q): read back as %s", dt, u, name, data, types.FormatValue(dt, back[0], nil))
			}
		}
	}
}

// TestWideDecimalFormats: JSON numbers wider than the column are NULL, as
// DecimalData.fromBigDecimal gives; Avro bytes too.
func TestWideDecimalFormats(t *testing.T) {
	dt := types.DecimalType(20, 2)
	fields := types.Schema{field("v", dt)}
	c := newCodec(t, "json", fields, nil)
	for in, want := range map[string]string{
		`{"v":123456789012345678.125}`:  "123456789012345678.13",
		`{"v":-1.5E17}`:                 "-150000000000000000.00",
		`{"v":1234567890123456789.125}`: "NULL",
		`{"v":"-0.005"}`:                "-0.01",
	} {
		row := mustDecode(t, c, fields, []byte(in))
		if got := types.FormatValue(dt, row[0], nil); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
	a := newCodec(t, "avro", fields, nil)
	wide := bigIntBytes(new(big.Int).Exp(big.NewInt(10), big.NewInt(20), nil))
	row := mustDecode(t, a, fields, append([]byte{0x02, byte(2 * len(wide))}, wide...))
	if !row[0].Null {
		t.Errorf("10^20 unscaled as %s: %s, want NULL", dt, types.FormatValue(dt, row[0], nil))
	}
}

// FuzzWideDecimalDecode decodes arbitrary JSON and Avro records into
// DECIMAL columns held in 16 bytes: what decodes is a valid value of its
// column (at most its precision's digits) and encodes again to a record
// that reads back the same.
func FuzzWideDecimalDecode(f *testing.F) {
	fields := types.Schema{field("a", types.DecimalType(30, 4)), field("b", types.DecimalType(38, 0)), field("c", types.DecimalType(19, 19))}
	for _, s := range []string{
		`{"a":12345678901234567890123456.12345,"b":-99999999999999999999999999999999999999,"c":0.5}`,
		`{"a":"1E+25","b":1e38,"c":-9.99999999999999999999}`,
		"\x02\x02\x80\x02\x20\x7f\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00",
	} {
		f.Add([]byte(s), strings.HasPrefix(s, "{"))
	}
	jc, ac := newCodec(f, "json", fields, nil), newCodec(f, "avro", fields, nil)
	f.Fuzz(func(t *testing.T, data []byte, json bool) {
		c := ac
		if json {
			c = jc
		}
		if checkDecode(t, c, fields, data) != nil {
			return
		}
		row := mustDecode(t, c, fields, data)
		for i, v := range row {
			if !v.Null && !types.CheckDecimal(fields[i].Type, v.S) {
				t.Fatalf("column %s holds an invalid value % x", fields[i].Name, v.S)
			}
		}
		if back := mustDecode(t, c, fields, mustEncode(t, c, row)); !sameRow(back, row) {
			t.Fatalf("%v reads back as %v", row, back)
		}
	})
}
