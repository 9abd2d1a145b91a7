package fn

import (
	"math"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

func TestArithmetic(t *testing.T) {
	runScalarCases(t, utc, []scalarCase{
		{name: "+", args: []in{int_(1), int_(2)}, want: "3"},
		// Java int overflow wraps: Integer.MAX_VALUE + 1
		{name: "+", args: []in{int_(2147483647), int_(1)}, want: "-2147483648"},
		{name: "+", args: []in{tiny(100), tiny(100)}, want: "-56"},
		{name: "+", args: []in{int_(2147483647), bigint(1)}, want: "2147483648"},
		{name: "*", args: []in{bigint(9223372036854775807), bigint(2)}, want: "-2"},
		{name: "-", args: []in{small(-32768), small(1)}, want: "32767"},
		// integer division truncates toward zero: 7 / 2 = 3, -7 / 2 = -3
		{name: "/", args: []in{int_(7), int_(2)}, want: "3"},
		{name: "/", args: []in{int_(-7), int_(2)}, want: "-3"},
		{name: "/", args: []in{int_(-2147483648), int_(-1)}, want: "-2147483648"},
		{name: "/", args: []in{int_(1), int_(0)}, wantErr: "/ by zero"},
		{name: "%", args: []in{int_(1), int_(0)}, wantErr: "/ by zero"},
		{name: "%", args: []in{int_(-7), int_(3)}, want: "-1"},
		{name: "MOD", args: []in{bigint(7), int_(3)}, want: "1"},
		{name: "/", args: []in{dbl(1), dbl(0)}, want: "+Inf"},
		{name: "/", args: []in{dbl(7), int_(2)}, want: "3.5"},
		{name: "+", args: []in{flt(0.1), int_(1)}, want: "1.1"},
		{name: "+", args: []in{dbl(0.1), dbl(0.2)}, want: "0.30000000000000004"},
		// DECIMAL(3,1) + DECIMAL(3,2) = DECIMAL(5,2)
		{name: "+", args: []in{dec(15, 3, 1), dec(125, 3, 2)}, want: "2.75"},
		{name: "+", args: []in{int_(1), dec(5, 2, 1)}, want: "1.5"},
		{name: "*", args: []in{dec(15, 3, 1), dec(15, 3, 1)}, want: "2.25"},
		// DECIMAL(2,1) / DECIMAL(2,1): scale max(6, 1+2+1) = 6
		{name: "/", args: []in{dec(10, 2, 1), dec(30, 2, 1)}, want: "0.333333"},
		{name: "/", args: []in{dec(20, 2, 1), dec(30, 2, 1)}, want: "0.666667"},
		{name: "/", args: []in{dec(10, 2, 1), dec(0, 2, 1)}, wantErr: "Division by zero"},
		{name: "%", args: []in{dec(75, 2, 1), dec(20, 2, 1)}, want: "1.5"},
		{name: "+", args: []in{dec(15, 3, 1), dbl(1)}, want: "2.5"},
		// Results take Flink's types up to DECIMAL(38, _) (DECIMAL(37, 0),
		// DECIMAL(19, 0), DECIMAL(23, 13)); overflowing Flink's type gives
		// NULL, as DecimalData.fromBigDecimal does: 10^18 / 10^-18 needs
		// 36 + 6 digits of DECIMAL(38, 6).
		{name: "*", args: []in{dec(999999999999999999, 18, 0), dec(999999999999999999, 18, 0)},
			want: "999999999999999998000000000000000001"},
		{name: "+", args: []in{dec(999999999999999999, 18, 0), dec(1, 18, 0)}, want: "1000000000000000000"},
		{name: "/", args: []in{dec(999999999999999999, 18, 0), dec(1, 18, 18)}, want: "NULL"},
		{name: "/", args: []in{dec(100, 10, 2), dec(300, 10, 2)}, want: "0.3333333333333"},
		// DecimalDataUtils.divide rounds the quotient to 38 digits first:
		// ...000.00000049999999999999999999500... becomes ...000.0000005
		// and then 0.000001 at scale 6.
		{name: "/", args: []in{wideDec("100000000000000000051000000000000", 38, 0), wideDec("100000000000000000001", 38, 0)},
			want: "1000000000000.000001"},
		{name: "*", args: []in{wideDec("99999999999999999999999999999999999999", 38, 0), dec(10, 2, 0)}, want: "NULL"},
		{name: "+", args: []in{wideDec("99999999999999999999999999999999999999", 38, 0), dec(1, 1, 0)}, want: "NULL"},
		{name: "-", args: []in{wideDec("-99999999999999999999999999999999999999", 38, 0), wideDec("99999999999999999999999999999999999999", 38, 0)}, want: "NULL"},
		{name: "-", args: []in{wideDec("-12345678901234567890123", 30, 3), dec(5, 2, 1)}, want: "-12345678901234567890.623"},
		{name: "%", args: []in{wideDec("12345678901234567890123", 30, 3), dec(7, 1, 0)}, want: "1.123"},
		{name: "%", args: []in{wideDec("10000000000000000000000000000000000000", 38, 0), dec(1, 7, 6)}, wantErr: "Division impossible"},
		{name: "NEG", args: []in{wideDec("-12345678901234567890123", 30, 3)}, want: "12345678901234567890.123"},
		{name: "=", args: []in{wideDec("12345678901234567890000", 30, 3), wideDec("12345678901234567890", 20, 0)}, want: "TRUE"},
		{name: "<", args: []in{wideDec("-12345678901234567890000", 30, 3), wideDec("-12345678901234567889", 30, 0)}, want: "TRUE"},
		{name: "<", args: []in{wideDec("-2", 30, 0), wideDec("1", 30, 0)}, want: "TRUE"},
		{name: ">", args: []in{wideDec("12345678901234567890", 30, 0), dbl(1e19)}, want: "TRUE"},
		{name: "-", args: []in{dec(-5, 18, 2), dec(5, 18, 2)}, want: "-0.10"},
		{name: "+", args: []in{int_(1), null(types.IntType)}, want: "NULL"},
		{name: "+", args: []in{int_(1), str_("a")}, wantErr: "+ expects (NUMERIC, NUMERIC); got (INT, STRING)"},
		{name: "%", args: []in{dbl(1), dbl(2)}, wantErr: "% expects (exact NUMERIC, exact NUMERIC)"},
		{name: "NEG", args: []in{int_(-2147483648)}, want: "-2147483648"},
		{name: "NEG", args: []in{dec(15, 3, 1)}, want: "-1.5"},
		{name: "NEG", args: []in{str_("x")}, wantErr: "expects (NUMERIC) or (INTERVAL)"},
	})
}

func TestArithmeticTypes(t *testing.T) {
	for _, c := range []struct {
		op   string
		a, b types.Type
		want string
	}{
		{"+", types.IntType, types.IntType, "INT"},
		{"+", types.IntType, types.BigIntType, "BIGINT"},
		{"/", types.IntType, types.IntType, "INT"},
		{"%", types.BigIntType, types.IntType, "INT"},
		{"+", types.Type{Kind: types.Float}, types.IntType, "FLOAT"},
		{"+", types.Type{Kind: types.Float}, types.DecimalType(5, 2), "DOUBLE"},
		{"+", types.DecimalType(10, 2), types.DecimalType(5, 3), "DECIMAL(12, 3)"},
		{"*", types.DecimalType(5, 2), types.DecimalType(5, 2), "DECIMAL(11, 4)"},
		{"/", types.DecimalType(5, 2), types.DecimalType(5, 2), "DECIMAL(13, 8)"},
		{"%", types.DecimalType(5, 2), types.DecimalType(5, 1), "DECIMAL(5, 2)"},
		{"%", types.DecimalType(10, 0), types.IntType, "INT"},
		// past 18 digits: Flink's types, held in 128 bits
		{"*", types.DecimalType(18, 2), types.DecimalType(18, 2), "DECIMAL(37, 4)"},
		{"/", types.DecimalType(18, 0), types.DecimalType(18, 18), "DECIMAL(38, 6)"},
		// Flink's documented examples (LogicalTypeMerging).
		{"/", types.DecimalType(10, 2), types.DecimalType(10, 2), "DECIMAL(23, 13)"},
		{"*", types.DecimalType(38, 10), types.DecimalType(38, 10), "DECIMAL(38, 6)"},
		{"+", types.DecimalType(38, 10), types.DecimalType(10, 2), "DECIMAL(38, 9)"},
		{"%", types.DecimalType(38, 10), types.DecimalType(10, 2), "DECIMAL(18, 10)"},
		{"+", types.IntType, types.DecimalType(10, 2), "DECIMAL(13, 2)"},
	} {
		s, _ := LookupScalar(c.op)
		a, b := c.a.WithNotNull(true), c.b.WithNotNull(true)
		rt, _, err := s.Bind([]Arg{{Type: a}, {Type: b}})
		if err != nil {
			t.Errorf("%s %s %s: %v", c.a, c.op, c.b, err)
			continue
		}
		if got := strings.TrimSuffix(rt.String(), " NOT NULL"); got != c.want {
			t.Errorf("%s %s %s: type %s, want %s", c.a, c.op, c.b, got, c.want)
		}
	}
}

func TestTemporalArithmetic(t *testing.T) {
	runScalarCases(t, utc, []scalarCase{
		{name: "+", args: []in{ts("2023-01-31 10:00:00"), interval(3_600_000)}, want: "2023-01-31 11:00:00"},
		{name: "-", args: []in{ts("2023-01-31 10:00:00"), interval(86_400_000)}, want: "2023-01-30 10:00:00"},
		{name: "+", args: []in{interval(60_000), ts("2023-01-31 10:00:00")}, want: "2023-01-31 10:01:00"},
		// month arithmetic clamps to the end of the month
		{name: "+", args: []in{ts("2023-01-31 10:00:00"), months(1)}, want: "2023-02-28 10:00:00"},
		{name: "-", args: []in{date("2024-03-31"), months(1)}, want: "2024-02-29"},
		{name: "+", args: []in{date("2024-03-31"), interval(2 * 86_400_000)}, want: "2024-04-02"},
		{name: "+", args: []in{interval(1000), interval(2000)}, want: "3000"},
		{name: "*", args: []in{interval(1000), int_(3)}, want: "3000"},
		{name: "-", args: []in{interval(1000), ts("2023-01-31 10:00:00")}, wantErr: "- expects"},
		{name: "-", args: []in{ts("2023-01-31 10:00:00"), ts("2023-01-31 10:00:00")}, wantErr: "- expects"},
	})
}

func TestComparison(t *testing.T) {
	runScalarCases(t, utc, []scalarCase{
		{name: "=", args: []in{int_(1), bigint(1)}, want: "TRUE"},
		{name: "=", args: []in{int_(1), dec(10, 2, 1)}, want: "TRUE"},
		{name: "<", args: []in{dec(15, 2, 1), dec(151, 3, 2)}, want: "TRUE"},
		{name: "<", args: []in{int_(1), dbl(1.5)}, want: "TRUE"},
		{name: "<>", args: []in{str_("a"), str_("b")}, want: "TRUE"},
		{name: "<", args: []in{str_("B"), str_("a")}, want: "TRUE"},
		{name: ">=", args: []in{date("2023-01-02"), date("2023-01-01")}, want: "TRUE"},
		{name: "=", args: []in{date("2023-01-02"), ts("2023-01-02 00:00:00")}, want: "TRUE"},
		{name: "<", args: []in{boolean_(false), boolean_(true)}, want: "TRUE"},
		{name: "=", args: []in{dbl(0), dbl(math.Copysign(0, -1))}, want: "TRUE"},
		{name: "=", args: []in{int_(1), null(types.IntType)}, want: "NULL"},
		{name: "=", args: []in{int_(1), str_("1")}, wantErr: "= expects two comparable operands"},
		{name: "IS DISTINCT FROM", args: []in{int_(1), null(types.IntType)}, want: "TRUE"},
		{name: "IS DISTINCT FROM", args: []in{null(types.IntType), null(types.IntType)}, want: "FALSE"},
		{name: "IS NOT DISTINCT FROM", args: []in{null(types.IntType), null(types.IntType)}, want: "TRUE"},
		{name: "IS NOT DISTINCT FROM", args: []in{int_(2), bigint(2)}, want: "TRUE"},
	})
}

// A TIMESTAMP compares with a TIMESTAMP_LTZ by reading it in the session
// time zone.
func TestComparisonTimeZone(t *testing.T) {
	shanghai := &Context{Loc: mustLoc(t, "Asia/Shanghai")}
	runScalarCases(t, shanghai, []scalarCase{
		{name: "=", args: []in{ts("2023-01-01 08:00:00"), ltz("2023-01-01 00:00:00")}, want: "TRUE"},
	})
	runScalarCases(t, utc, []scalarCase{
		{name: "=", args: []in{ts("2023-01-01 08:00:00"), ltz("2023-01-01 00:00:00")}, want: "FALSE"},
	})
}

func TestLogic(t *testing.T) {
	T, F, N := boolean_(true), boolean_(false), null(types.BooleanType)
	runScalarCases(t, utc, []scalarCase{
		{name: "AND", args: []in{T, T}, want: "TRUE"},
		{name: "AND", args: []in{T, F}, want: "FALSE"},
		{name: "AND", args: []in{F, N}, want: "FALSE"},
		{name: "AND", args: []in{N, F}, want: "FALSE"},
		{name: "AND", args: []in{T, N}, want: "NULL"},
		{name: "OR", args: []in{T, N}, want: "TRUE"},
		{name: "OR", args: []in{N, T}, want: "TRUE"},
		{name: "OR", args: []in{F, N}, want: "NULL"},
		{name: "OR", args: []in{F, F}, want: "FALSE"},
		{name: "NOT", args: []in{N}, want: "NULL"},
		{name: "NOT", args: []in{F}, want: "TRUE"},
		{name: "IS NULL", args: []in{N}, want: "TRUE"},
		{name: "IS NOT NULL", args: []in{int_(1)}, want: "TRUE"},
		{name: "IS TRUE", args: []in{N}, want: "FALSE"},
		{name: "IS NOT FALSE", args: []in{N}, want: "TRUE"},
		{name: "AND", args: []in{T, int_(1)}, wantErr: "AND expects (BOOLEAN, BOOLEAN, ...)"},
	})
}

func TestLike(t *testing.T) {
	runScalarCases(t, utc, []scalarCase{
		{name: "LIKE", args: []in{str_("abc"), str_("a%")}, want: "TRUE"},
		{name: "LIKE", args: []in{str_("abc"), str_("_b_")}, want: "TRUE"},
		{name: "LIKE", args: []in{str_("abc"), str_("b%")}, want: "FALSE"},
		{name: "LIKE", args: []in{str_("a\nc"), str_("a%c")}, want: "TRUE"},
		{name: "LIKE", args: []in{str_("a.c"), str_("a.c")}, want: "TRUE"},
		{name: "LIKE", args: []in{str_("abc"), str_("a.c")}, want: "FALSE"},
		{name: "LIKE", args: []in{str_("10%"), str_("10!%"), str_("!")}, want: "TRUE"},
		{name: "LIKE", args: []in{str_("100"), str_("10!%"), str_("!")}, want: "FALSE"},
		{name: "LIKE", args: []in{str_("a"), str_("!a"), str_("!")}, wantErr: "invalid escape sequence"},
		{name: "LIKE", args: []in{col(str_("abc")), col(str_("%c"))}, want: "TRUE"},
		{name: "LIKE", args: []in{null(types.StringType), str_("%")}, want: "NULL"},
		{name: "SIMILAR TO", args: []in{str_("abc"), str_("(a|x)b%")}, want: "TRUE"},
		{name: "SIMILAR TO", args: []in{str_("a.c"), str_("a.c")}, want: "TRUE"},
		{name: "SIMILAR TO", args: []in{str_("abc"), str_("a.c")}, want: "FALSE"},
	})
}
