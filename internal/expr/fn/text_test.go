package fn

import (
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// Examples from Flink's function list (docs/data/sql_functions.yml) and
// edge cases of the runtime implementations the functions follow.
func TestMoreStringFunctions(t *testing.T) {
	nullStr := null(types.StringType)
	runScalarCases(t, utc, []scalarCase{
		// "BTRIM('  www.apache.org  ') ... returns "www.apache.org",
		// BTRIM('/www.apache.org/', '/') ... returns "www.apache.org""
		{name: "BTRIM", args: []in{str_("  www.apache.org  ")}, want: "www.apache.org"},
		{name: "BTRIM", args: []in{str_("/www.apache.org/"), str_("/")}, want: "www.apache.org"},
		{name: "BTRIM", args: []in{str_("\twx\t")}, want: "\twx\t"},
		{name: "BTRIM", args: []in{str_("xyhixy"), nullStr}, want: "NULL"},
		{name: "LTRIM", args: []in{str_(" This is a test String.")}, want: "This is a test String."},
		{name: "LTRIM", args: []in{str_("xxhixx"), str_("x")}, want: "hixx"},
		{name: "RTRIM", args: []in{str_("xxhixx"), str_("x")}, want: "xxhi"},
		// "'xxxxxtest'.overlay('xxxx', 6) returns "xxxxxxxxx";
		// 'xxxxxtest'.overlay('xxxx', 6, 2) returns "xxxxxxxxxst""
		{name: "OVERLAY", args: []in{str_("xxxxxtest"), str_("xxxx"), int_(6)}, want: "xxxxxxxxx"},
		{name: "OVERLAY", args: []in{str_("xxxxxtest"), str_("xxxx"), int_(6), int_(2)}, want: "xxxxxxxxxst"},
		{name: "OVERLAY", args: []in{str_("abc"), str_("X"), int_(0)}, want: "abc"},
		{name: "OVERLAY", args: []in{str_("abc"), str_("X"), int_(4)}, want: "abc"},
		{name: "OVERLAY", args: []in{str_("héllo"), str_("E"), int_(2), int_(1)}, want: "hEllo"},
		{name: "OVERLAY", args: []in{str_("abc"), str_("X"), int_(2), int_(0)}, want: "aX"},
		{name: "STARTSWITH", args: []in{str_("flink"), str_("fl")}, want: "TRUE"},
		{name: "STARTSWITH", args: []in{str_("flink"), str_("")}, want: "TRUE"},
		{name: "STARTSWITH", args: []in{str_("flink"), str_("ink")}, want: "FALSE"},
		{name: "ENDSWITH", args: []in{str_("flink"), str_("ink")}, want: "TRUE"},
		{name: "ENDSWITH", args: []in{str_("flink"), nullStr}, want: "NULL"},
		{name: "STARTSWITH", args: []in{str_("flink"), int_(1)}, wantErr: "STARTSWITH expects (STRING, STRING) or (BYTES, BYTES); got (STRING, INT)"},
		// "TRANSLATE('www.apache.org', 'wapcheorg', ' APCHEcom') returns "   .APACHE.com""
		{name: "TRANSLATE", args: []in{str_("www.apache.org"), str_("wapcheorg"), str_(" APCHEcom")}, want: "   .APACHE.com"},
		{name: "TRANSLATE", args: []in{str_("abcabc"), str_("abc"), str_("x")}, want: "xx"},
		{name: "TRANSLATE", args: []in{str_("aab"), str_("aa"), str_("xy")}, want: "xxb"},
		{name: "TRANSLATE", args: []in{str_("abc"), nullStr, str_("x")}, want: "abc"},
		{name: "TRANSLATE", args: []in{str_("abc"), str_("b"), nullStr}, want: "ac"},
		{name: "TRANSLATE", args: []in{nullStr, str_("b"), str_("c")}, want: "NULL"},
		{name: "INSTR", args: []in{str_("hello world"), str_("o")}, want: "5"},
		{name: "INSTR", args: []in{str_("héllo"), str_("llo")}, want: "3"},
		{name: "INSTR", args: []in{str_("hello"), str_("z")}, want: "0"},
		{name: "INSTR", args: []in{str_("hello"), nullStr}, want: "NULL"},
		// "ELT(2, 'scala-1', 'java-2', 'go-3') returns "java-2""
		{name: "ELT", args: []in{int_(2), str_("scala-1"), str_("java-2"), str_("go-3")}, want: "java-2"},
		{name: "ELT", args: []in{int_(0), str_("a")}, want: "NULL"},
		{name: "ELT", args: []in{int_(3), str_("a"), str_("b")}, want: "NULL"},
		{name: "ELT", args: []in{null(types.IntType), str_("a")}, want: "NULL"},
		{name: "ELT", args: []in{int_(1), int_(1)}, wantErr: "ELT expects"},
		{name: "JSON_QUOTE", args: []in{str_(`a"b\c/d` + "\n\té")}, want: `"a\"b\\c\/d\n\t\u00e9"`},
		{name: "JSON_QUOTE", args: []in{str_("😀")}, want: `"\ud83d\ude00"`},
		{name: "JSON_UNQUOTE", args: []in{str_(`"a\"b\\c\/d\n\t\u00e9"`)}, want: `a"b\c/d` + "\n\té"},
		{name: "JSON_UNQUOTE", args: []in{str_(`"\ud83d\ude00"`)}, want: "😀"},
		{name: "JSON_UNQUOTE", args: []in{str_(`[1, 2]`)}, want: `[1, 2]`},
		{name: "JSON_UNQUOTE", args: []in{str_(`"bad \x"`)}, want: `"bad \x"`},
		{name: "JSON_UNQUOTE", args: []in{str_(`"a"b"`)}, want: `"a"b"`},
		{name: "IS_ALPHA", args: []in{str_("abcÄ")}, want: "TRUE"},
		{name: "IS_ALPHA", args: []in{str_("ab1")}, want: "FALSE"},
		{name: "IS_ALPHA", args: []in{str_("")}, want: "FALSE"},
		{name: "IS_ALPHA", args: []in{nullStr}, want: "FALSE"},
		{name: "IS_DIGIT", args: []in{str_("0123")}, want: "TRUE"},
		{name: "IS_DIGIT", args: []in{str_("-1")}, want: "FALSE"},
		{name: "IS_DIGIT", args: []in{nullStr}, want: "FALSE"},
		{name: "IS_DECIMAL", args: []in{str_("-1.5e3")}, want: "TRUE"},
		{name: "IS_DECIMAL", args: []in{str_(" 12 ")}, want: "TRUE"},
		{name: "IS_DECIMAL", args: []in{str_("1.5f")}, want: "TRUE"},
		{name: "IS_DECIMAL", args: []in{str_("NaN")}, want: "TRUE"},
		{name: "IS_DECIMAL", args: []in{str_("1.2.3")}, want: "FALSE"},
		{name: "IS_DECIMAL", args: []in{str_("abc")}, want: "FALSE"},
		{name: "IS_DECIMAL", args: []in{nullStr}, want: "FALSE"},
		// "DECODE(UNHEX('466C696E6B'), 'UTF-8') returns "Flink""
		{name: "UNHEX", args: []in{str_("466C696E6B")}, want: "Flink"},
		{name: "UNHEX", args: []in{str_("F")}, want: "\x0f"},
		{name: "UNHEX", args: []in{str_("zz")}, want: "NULL"},
	})
}

func TestRegexpFindFunctions(t *testing.T) {
	runScalarCases(t, utc, []scalarCase{
		{name: "REGEXP_COUNT", args: []in{str_("ab1cd22"), str_(`\d+`)}, want: "2"},
		{name: "REGEXP_COUNT", args: []in{str_("abc"), str_("")}, want: "4"},
		// Java's Matcher.find also counts the empty match at the end: 3
		{name: "REGEXP_COUNT", args: []in{str_("baaa"), str_("a*")}, want: "2"},
		{name: "REGEXP_COUNT", args: []in{str_("abc"), str_("(")}, want: "NULL"},
		{name: "REGEXP_COUNT", args: []in{str_("abc"), null(types.StringType)}, want: "NULL"},
		{name: "REGEXP_INSTR", args: []in{str_("héllo 42"), str_(`\d`)}, want: "7"},
		{name: "REGEXP_INSTR", args: []in{str_("hello"), str_(`\d`)}, want: "0"},
		{name: "REGEXP_SUBSTR", args: []in{str_("order 42 of 7"), str_(`\d+`)}, want: "42"},
		{name: "REGEXP_SUBSTR", args: []in{str_("hello"), str_(`\d+`)}, want: "NULL"},
		{name: "REGEXP_SUBSTR", args: []in{str_("aa"), str_(`(a)\1`)}, wantErr: "REGEXP_SUBSTR: the Java regular expression construct backreference \\1"},
		{name: "REGEXP_INSTR", args: []in{str_("ab"), str_(`a(?=b)`)}, wantErr: "REGEXP_INSTR: the Java regular expression construct lookahead"},
	})
}

func TestURLFunctions(t *testing.T) {
	const u = "http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1"
	runScalarCases(t, utc, []scalarCase{
		// "parse_url('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'HOST'), returns 'facebook.com'"
		{name: "PARSE_URL", args: []in{str_(u), str_("HOST")}, want: "facebook.com"},
		// "parse_url(..., 'QUERY', 'k1') returns 'v1'"
		{name: "PARSE_URL", args: []in{str_(u), str_("QUERY"), str_("k1")}, want: "v1"},
		{name: "PARSE_URL", args: []in{str_(u), str_("QUERY"), str_("k3")}, want: "NULL"},
		{name: "PARSE_URL", args: []in{str_(u), str_("PATH")}, want: "/path1/p.php"},
		{name: "PARSE_URL", args: []in{str_(u), str_("QUERY")}, want: "k1=v1&k2=v2"},
		{name: "PARSE_URL", args: []in{str_(u), str_("REF")}, want: "Ref1"},
		{name: "PARSE_URL", args: []in{str_(u), str_("PROTOCOL")}, want: "http"},
		{name: "PARSE_URL", args: []in{str_(u), str_("FILE")}, want: "/path1/p.php?k1=v1&k2=v2"},
		{name: "PARSE_URL", args: []in{str_(u), str_("AUTHORITY")}, want: "facebook.com"},
		{name: "PARSE_URL", args: []in{str_(u), str_("USERINFO")}, want: "NULL"},
		{name: "PARSE_URL", args: []in{str_("https://me:pw@h.io:8080/x"), str_("USERINFO")}, want: "me:pw"},
		{name: "PARSE_URL", args: []in{str_("https://me:pw@h.io:8080/x"), str_("HOST")}, want: "h.io"},
		{name: "PARSE_URL", args: []in{str_("https://me:pw@h.io:8080/x"), str_("AUTHORITY")}, want: "me:pw@h.io:8080"},
		{name: "PARSE_URL", args: []in{str_(u), str_("host")}, want: "NULL"},
		{name: "PARSE_URL", args: []in{str_("nonsense"), str_("HOST")}, want: "NULL"},
		{name: "PARSE_URL", args: []in{str_("gopher://x/y"), str_("HOST")}, want: "NULL"},
		// "-- returns "http%3A%2F%2Fconfluent.io""-style form encoding
		{name: "URL_ENCODE", args: []in{str_("http://flink.apache.org/a b?x=é&y=*~")}, want: "http%3A%2F%2Fflink.apache.org%2Fa+b%3Fx%3D%C3%A9%26y%3D*%7E"},
		{name: "URL_DECODE", args: []in{str_("http%3A%2F%2Fflink.apache.org%2Fa+b%3Fx%3D%C3%A9")}, want: "http://flink.apache.org/a b?x=é"},
		{name: "URL_DECODE", args: []in{str_("bad%zz")}, want: "NULL"},
		{name: "URL_DECODE", args: []in{str_("%FF")}, want: "\uFFFD"},
	})
}

func TestPrintf(t *testing.T) {
	nullInt := null(types.IntType)
	runScalarCases(t, utc, []scalarCase{
		{name: "PRINTF", args: []in{str_("%s-%d"), str_("a"), int_(42)}, want: "a-42"},
		{name: "PRINTF", args: []in{str_("%5s|%-5s|%.2s"), str_("ab"), str_("cd"), str_("xyz")}, want: "   ab|cd   |xy"},
		{name: "PRINTF", args: []in{str_("%05d|%+d|%,d|%(d|% d"), int_(42), int_(42), bigint(1234567), int_(-5), int_(7)}, want: "00042|+42|1,234,567|(5)| 7"},
		{name: "PRINTF", args: []in{str_("%x|%X|%#x|%o|%x"), int_(255), int_(255), int_(255), int_(8), int_(-1)}, want: "ff|FF|0xff|10|ffffffff"},
		{name: "PRINTF", args: []in{str_("%x"), tiny(-1)}, want: "ff"},
		{name: "PRINTF", args: []in{str_("%.2f|%f|%.1f|%.1f"), dbl(3.14159), dbl(1), dbl(0.25), dbl(0.15)}, want: "3.14|1.000000|0.3|0.2"},
		{name: "PRINTF", args: []in{str_("%e|%.2E|%g|%g|%g"), dbl(12345.678), dbl(0.000123), dbl(0.0001), dbl(123456789), dbl(0)}, want: "1.234568e+04|1.23E-04|0.000100000|1.23457e+08|0.00000"},
		{name: "PRINTF", args: []in{str_("%,.2f|%08.2f|%s|%s"), dbl(1234567.891), dbl(-3.5), dbl(1e10), flt(1.1)}, want: "1,234,567.89|-0003.50|1.0E10|1.1"},
		{name: "PRINTF", args: []in{str_("%b|%b|%b|%c|%%|%n"), boolean_(false), nullInt, int_(0), int_(65)}, want: "false|false|true|A|%|\n"},
		{name: "PRINTF", args: []in{str_("%s %d"), nullInt, nullInt}, want: "null null"},
		{name: "PRINTF", args: []in{str_("%2$s %1$s %<s"), str_("a"), str_("b")}, want: "b a a"},
		{name: "PRINTF", args: []in{str_("%s"), dec(12345, 10, 2)}, want: "123.45"},
		// Java refuses these: NULL
		{name: "PRINTF", args: []in{str_("%d"), str_("x")}, want: "NULL"},
		{name: "PRINTF", args: []in{str_("%d"), dec(1, 10, 2)}, want: "NULL"},
		{name: "PRINTF", args: []in{str_("%f"), int_(1)}, want: "NULL"},
		{name: "PRINTF", args: []in{str_("%s %s"), str_("x")}, want: "NULL"},
		{name: "PRINTF", args: []in{str_("%q"), str_("x")}, want: "NULL"},
		{name: "PRINTF", args: []in{str_("%#d"), int_(1)}, want: "NULL"},
		{name: "PRINTF", args: []in{str_("%-d"), int_(1)}, want: "NULL"},
		{name: "PRINTF", args: []in{str_("50%")}, want: "NULL"},
		{name: "PRINTF", args: []in{null(types.StringType), int_(1)}, want: "NULL"},
		{name: "PRINTF", args: []in{str_("%tY"), int_(1)}, wantErr: "PRINTF: the conversion %t is not supported yet"},
		{name: "PRINTF", args: []in{str_("%s"), date("2024-01-01")}, wantErr: "arguments of type DATE are not supported yet"},
	})
}

// timeOfDay is a TIME(0) literal 'HH:mm:ss'.
func timeOfDay(s string) in {
	c, err := time.Parse("15:04:05", s)
	if err != nil {
		panic(err)
	}
	ns := int64(c.Hour()*3600+c.Minute()*60+c.Second()) * int64(time.Second)
	return lit(types.Type{Kind: types.Time}, types.IntValue(ns))
}

func TestSystemAndTimeFunctions(t *testing.T) {
	bytes := types.Type{Kind: types.Varbinary, Length: types.MaxVarcharLength}
	bin := func(s string) in { return lit(bytes, types.StringValue(s)) }
	hour := interval(3600 * 1000)
	runScalarCases(t, utc, []scalarCase{
		{name: "TYPEOF", args: []in{int_(1)}, want: "INT NOT NULL"},
		{name: "TYPEOF", args: []in{col(str_("x"))}, want: "STRING"},
		{name: "TYPEOF", args: []in{col(str_("x")), boolean_(true)}, want: "VARCHAR(2147483647)"},
		{name: "TYPEOF", args: []in{ltz("2024-01-01 00:00:00"), boolean_(true)}, want: "TIMESTAMP(3) WITH LOCAL TIME ZONE"},
		{name: "TYPEOF", args: []in{int_(1), col(boolean_(true))}, wantErr: "constant force_serializable"},
		{name: "ENCODE", args: []in{str_("Flink"), str_("UTF-8")}, want: "Flink"},
		{name: "ENCODE", args: []in{str_("é"), str_("utf-16be")}, want: "\x00\xe9"},
		{name: "ENCODE", args: []in{str_("é"), str_("UTF-16")}, want: "\xfe\xff\x00\xe9"},
		{name: "ENCODE", args: []in{str_("é€"), str_("ISO-8859-1")}, want: "\xe9?"},
		{name: "ENCODE", args: []in{str_("é"), str_("US-ASCII")}, want: "?"},
		{name: "ENCODE", args: []in{str_("x"), str_("EBCDIC")}, wantErr: "ENCODE: unsupported character set 'EBCDIC'"},
		{name: "DECODE", args: []in{bin("\xe9"), str_("ISO-8859-1")}, want: "é"},
		{name: "DECODE", args: []in{bin("\xe9\x00"), str_("UTF-16LE")}, want: "é"},
		{name: "DECODE", args: []in{bin("\xff\xfe\xe9\x00"), str_("UTF-16")}, want: "é"},
		{name: "DECODE", args: []in{bin("a\xff"), str_("UTF-8")}, want: "a\uFFFD"},
		{name: "DECODE", args: []in{bin("a\xff"), str_("US-ASCII")}, want: "a\uFFFD"},
		{name: "DECODE", args: []in{str_("a"), str_("UTF-8")}, wantErr: "DECODE expects (BYTES, STRING charset)"},
		// "CONVERT_TZ('1970-01-01 00:00:00', 'UTC', 'America/Los_Angeles') returns '1969-12-31 16:00:00'"
		{name: "CONVERT_TZ", args: []in{str_("1970-01-01 00:00:00"), str_("UTC"), str_("America/Los_Angeles")}, want: "1969-12-31 16:00:00"},
		{name: "CONVERT_TZ", args: []in{str_("1970-01-01 00:00:00"), str_("PST"), str_("GMT+08:00")}, want: "1970-01-01 16:00:00"},
		{name: "CONVERT_TZ", args: []in{str_("2024-06-01 12:00:00"), str_("EST"), str_("UTC")}, want: "2024-06-01 17:00:00"},
		{name: "CONVERT_TZ", args: []in{str_("not a time"), str_("UTC"), str_("UTC")}, want: "NULL"},
		{name: "CONVERT_TZ", args: []in{str_("1970-01-01 00:00:00"), str_("Mars/Base"), str_("UTC")}, wantErr: "CONVERT_TZ: unknown time zone 'Mars/Base'"},
		{name: "CONVERT_TZ", args: []in{str_("2024-01-01 12:00:00"), str_("CET"), str_("UTC")}, want: "2024-01-01 11:00:00"},
		{name: "CONVERT_TZ", args: []in{str_("2024-01-01 12:00:00"), str_("Local"), str_("UTC")}, wantErr: "unknown time zone 'Local'"},
		// TO_TIMESTAMP_LTZ(string1[, string2[, string3]]): the text in
		// string3's zone, UTC by default
		{name: "TO_TIMESTAMP_LTZ", args: []in{str_("2023-01-01 00:00:00")}, want: "2023-01-01 00:00:00Z"},
		{name: "TO_TIMESTAMP_LTZ", args: []in{str_("2023-01-01 00:00:00.123456")}, want: "2023-01-01 00:00:00.123Z"},
		{name: "TO_TIMESTAMP_LTZ", args: []in{str_("01/02/2023 10:00"), str_("MM/dd/yyyy HH:mm")}, want: "2023-01-02 10:00:00Z"},
		{name: "TO_TIMESTAMP_LTZ", args: []in{str_("2023-01-01 00:00:00"), str_("yyyy-MM-dd HH:mm:ss"), str_("Asia/Shanghai")}, want: "2022-12-31 16:00:00Z"},
		{name: "TO_TIMESTAMP_LTZ", args: []in{str_("nonsense")}, want: "NULL"},
		{name: "TO_TIMESTAMP_LTZ", args: []in{str_("2023-01-01 00:00:00"), str_("yyyy-MM-dd HH:mm:ss"), str_("Nowhere")}, wantErr: "TO_TIMESTAMP_LTZ: unknown time zone 'Nowhere'"},
		// "FLOOR(TIME '12:44:31' TO MINUTE) returns 12:44:00",
		// "CEIL(TIME '12:44:31' TO MINUTE) returns 12:45:00"
		{name: "FLOOR", args: []in{timeOfDay("12:44:31"), unit("MINUTE")}, want: "12:44:00"},
		{name: "CEIL", args: []in{timeOfDay("12:44:31"), unit("MINUTE")}, want: "12:45:00"},
		{name: "CEIL", args: []in{timeOfDay("12:44:00"), unit("HOUR")}, want: "13:00:00"},
		{name: "CEIL", args: []in{timeOfDay("23:59:31"), unit("MINUTE")}, want: "00:00:00"},
		{name: "FLOOR", args: []in{timeOfDay("12:44:31"), unit("DAY")}, wantErr: "FLOOR expects (TIME TO HOUR|MINUTE|SECOND|MILLISECOND)"},
		// "(TIME '2:55:00', INTERVAL '1' HOUR) OVERLAPS (TIME '3:30:00', INTERVAL '2' HOUR) returns TRUE"
		{name: "OVERLAPS", args: []in{timeOfDay("02:55:00"), hour, timeOfDay("03:30:00"), interval(2 * 3600 * 1000)}, want: "TRUE"},
		// "(TIME '9:00:00', TIME '10:00:00') OVERLAPS (TIME '10:15:00', INTERVAL '3' HOUR) returns FALSE"
		{name: "OVERLAPS", args: []in{timeOfDay("09:00:00"), timeOfDay("10:00:00"), timeOfDay("10:15:00"), interval(3 * 3600 * 1000)}, want: "FALSE"},
		{name: "OVERLAPS", args: []in{ts("2024-01-02 00:00:00"), ts("2024-01-01 00:00:00"), ts("2024-01-02 00:00:00"), hour}, want: "TRUE"},
		{name: "OVERLAPS", args: []in{date("2024-01-01"), months(1), date("2024-03-01"), date("2024-02-02")}, want: "FALSE"},
		{name: "OVERLAPS", args: []in{date("2024-01-01"), timeOfDay("10:00:00"), date("2024-03-01"), date("2024-02-02")}, wantErr: "OVERLAPS expects"},
		{name: "OVERLAPS", args: []in{null(types.Type{Kind: types.Time}), hour, timeOfDay("03:30:00"), hour}, want: "NULL"},
	})
}
