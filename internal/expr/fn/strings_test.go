package fn

import (
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

func TestStringFunctions(t *testing.T) {
	nullStr := null(types.StringType)
	runScalarCases(t, utc, []scalarCase{
		// "CONCAT('AA', 'BB', 'CC') returns 'AABBCC'"
		{name: "CONCAT", args: []in{str_("AA"), str_("BB"), str_("CC")}, want: "AABBCC"},
		{name: "CONCAT", args: []in{str_("AA"), nullStr}, want: "NULL"},
		{name: "||", args: []in{str_("a"), str_("b")}, want: "ab"},
		{name: "CONCAT", args: []in{str_("a"), int_(1)}, wantErr: "CONCAT expects (STRING, STRING, ...) or (BYTES, BYTES, ...); got (STRING, INT)"},
		// "CONCAT_WS('~', 'AA', Null(STRING), 'BB', '', 'CC') returns 'AA~BB~~CC'"
		{name: "CONCAT_WS", args: []in{str_("~"), str_("AA"), nullStr, str_("BB"), str_(""), str_("CC")}, want: "AA~BB~~CC"},
		{name: "CONCAT_WS", args: []in{nullStr, str_("AA")}, want: "NULL"},
		// "SUBSTRING('Hello World', 1, 5)"-style positions are 1-based
		{name: "SUBSTRING", args: []in{str_("Hello World"), int_(1), int_(5)}, want: "Hello"},
		{name: "SUBSTRING", args: []in{str_("Hello World"), int_(7)}, want: "World"},
		{name: "SUBSTRING", args: []in{str_("Hello World"), int_(-5)}, want: "World"},
		{name: "SUBSTRING", args: []in{str_("Hello World"), int_(-5), int_(2)}, want: "Wo"},
		{name: "SUBSTRING", args: []in{str_("Hello"), int_(0), int_(2)}, want: "He"},
		{name: "SUBSTRING", args: []in{str_("Hello"), int_(10)}, want: ""},
		{name: "SUBSTRING", args: []in{str_("Hello"), int_(-10)}, want: ""},
		{name: "SUBSTRING", args: []in{str_("Hello"), int_(1), int_(-1)}, want: "NULL"},
		{name: "SUBSTR", args: []in{str_("héllo"), int_(2), int_(2)}, want: "él"},
		{name: "SUBSTRING", args: []in{str_("Hello")}, wantErr: "SUBSTRING expects (STRING, INT start [, INT length]); got (STRING)"},
		{name: "UPPER", args: []in{str_("hi")}, want: "HI"},
		{name: "LOWER", args: []in{str_("HI")}, want: "hi"},
		// "TRIM(' hello ') returns 'hello'"
		{name: "TRIM", args: []in{unit("BOTH"), str_(" hello ")}, want: "hello"},
		{name: "TRIM", args: []in{unit("LEADING"), str_("xxhixx"), str_("x")}, want: "hixx"},
		{name: "TRIM", args: []in{unit("TRAILING"), str_("xyhixy"), str_("xy")}, want: "xyhi"},
		{name: "TRIM", args: []in{str_("x")}, wantErr: "TRIM expects"},
		// "LTRIM(' This is a test String.') returns 'This is a test String.'"
		{name: "LTRIM", args: []in{str_(" This is a test String.")}, want: "This is a test String."},
		{name: "RTRIM", args: []in{str_("This is a test String. ")}, want: "This is a test String."},
		{name: "CHAR_LENGTH", args: []in{str_("héllo")}, want: "5"},
		{name: "CHARACTER_LENGTH", args: []in{str_("")}, want: "0"},
		{name: "POSITION", args: []in{str_("lo"), str_("héllo")}, want: "4"},
		{name: "POSITION", args: []in{str_("x"), str_("hello")}, want: "0"},
		{name: "LOCATE", args: []in{str_("l"), str_("hello"), int_(4)}, want: "4"},
		{name: "LOCATE", args: []in{str_("l"), str_("hello")}, want: "3"},
		// "REPLACE('hello world', 'world', 'flink') returns 'hello flink'"
		{name: "REPLACE", args: []in{str_("hello world"), str_("world"), str_("flink")}, want: "hello flink"},
		{name: "SPLIT_INDEX", args: []in{str_("a,b,c"), str_(","), int_(1)}, want: "b"},
		{name: "SPLIT_INDEX", args: []in{str_("a,,c"), str_(","), int_(1)}, want: ""},
		{name: "SPLIT_INDEX", args: []in{str_("a,b,c"), str_(","), int_(3)}, want: "NULL"},
		{name: "SPLIT_INDEX", args: []in{str_("a,b,c"), str_(","), int_(-1)}, want: "NULL"},
		// "LPAD('hi', 4, '??') returns '??hi'; LPAD('hi', 1, '??') returns 'h'"
		{name: "LPAD", args: []in{str_("hi"), int_(4), str_("??")}, want: "??hi"},
		{name: "LPAD", args: []in{str_("hi"), int_(1), str_("??")}, want: "h"},
		{name: "LPAD", args: []in{str_("hi"), int_(5), str_("ab")}, want: "abahi"},
		// "RPAD('hi', 4, '??') returns 'hi??', RPAD('hi', 1, '??') returns 'h'"
		{name: "RPAD", args: []in{str_("hi"), int_(4), str_("??")}, want: "hi??"},
		{name: "RPAD", args: []in{str_("hi"), int_(1), str_("??")}, want: "h"},
		{name: "RPAD", args: []in{str_("hi"), int_(-1), str_("??")}, want: "NULL"},
		{name: "RPAD", args: []in{str_("hi"), int_(4), str_("")}, want: "NULL"},
		// "REPEAT('This is a test String.', 2)"
		{name: "REPEAT", args: []in{str_("ab"), int_(2)}, want: "abab"},
		{name: "REPEAT", args: []in{str_("ab"), int_(-1)}, want: ""},
		// Strings built from smaller ones are bounded, so that a query
		// fails with the function's name instead of exhausting memory.
		{name: "REPEAT", args: []in{str_("ab"), int_(1<<29 + 1)}, wantErr: "REPEAT: result longer than 1 GiB"},
		{name: "REPLACE", args: []in{str_(strings.Repeat("x", 1025)), str_("x"), str_(strings.Repeat("y", 1<<20))}, wantErr: "REPLACE: result longer than 1 GiB"},
		{name: "REPLACE", args: []in{str_(strings.Repeat("x", 1024)), str_(""), str_(strings.Repeat("y", 1<<20))}, wantErr: "REPLACE: result longer than 1 GiB"},
		{name: "REPLACE", args: []in{str_("axbx"), str_(""), str_("-")}, want: "-a-x-b-x-"},
		{name: "REVERSE", args: []in{str_("héllo")}, want: "olléh"},
		{name: "INITCAP", args: []in{str_("hELLO wORLD-foo bar1x")}, want: "Hello World-Foo Bar1x"},
		// "TO_BASE64('hello world') returns 'aGVsbG8gd29ybGQ='"
		{name: "TO_BASE64", args: []in{str_("hello world")}, want: "aGVsbG8gd29ybGQ="},
		// "FROM_BASE64('aGVsbG8gd29ybGQ=') returns 'hello world'"
		{name: "FROM_BASE64", args: []in{str_("aGVsbG8gd29ybGQ=")}, want: "hello world"},
		{name: "FROM_BASE64", args: []in{str_("!!")}, wantErr: "FROM_BASE64"},
		{name: "LEFT", args: []in{str_("hello"), int_(2)}, want: "he"},
		{name: "LEFT", args: []in{str_("hello"), int_(-2)}, want: ""},
		{name: "RIGHT", args: []in{str_("hello"), int_(2)}, want: "lo"},
		{name: "RIGHT", args: []in{str_("hello"), int_(9)}, want: "hello"},
		// "ascii('abc') returns 97"
		{name: "ASCII", args: []in{str_("abc")}, want: "97"},
		{name: "ASCII", args: []in{str_("")}, want: "0"},
		// "chr(97) returns 'a'"
		{name: "CHR", args: []in{int_(97)}, want: "a"},
		{name: "CHR", args: []in{int_(353)}, want: "a"},
		{name: "MD5", args: []in{str_("")}, want: "d41d8cd98f00b204e9800998ecf8427e"},
		{name: "SHA256", args: []in{str_("abc")}, want: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{name: "SHA2", args: []in{str_("abc"), int_(224)}, want: "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"},
		{name: "SHA2", args: []in{str_("abc"), int_(100)}, want: "NULL"},
		{name: "UPPER", args: []in{nullStr}, want: "NULL"},
		{name: "UPPER", args: []in{int_(1)}, wantErr: "UPPER expects (STRING); got (INT)"},
	})
}

func TestRegexFunctions(t *testing.T) {
	runScalarCases(t, utc, []scalarCase{
		// "REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 2)" returns "bar"
		{name: "REGEXP_EXTRACT", args: []in{str_("foothebar"), str_("foo(.*?)(bar)"), int_(2)}, want: "bar"},
		{name: "REGEXP_EXTRACT", args: []in{str_("foothebar"), str_("foo(.*?)(bar)")}, want: "foothebar"},
		{name: "REGEXP_EXTRACT", args: []in{str_("foothebar"), str_("foo(.*?)(bar)"), int_(3)}, want: "NULL"},
		{name: "REGEXP_EXTRACT", args: []in{str_("foothebar"), str_("xyz")}, want: "NULL"},
		{name: "REGEXP_EXTRACT", args: []in{str_("foothebar"), str_("(")}, want: "NULL"},
		{name: "REGEXP_REPLACE", args: []in{str_(strings.Repeat("x", 1025)), str_("x"), str_(strings.Repeat("y", 1<<20))}, wantErr: "REGEXP_REPLACE: result longer than 1 GiB"},
		{name: "REGEXP_REPLACE", args: []in{str_(strings.Repeat("x", 1024)), str_("z"), str_(strings.Repeat("y", 1<<20))}, want: strings.Repeat("x", 1024)},
		{name: "REGEXP_EXTRACT", args: []in{str_("foobar"), str_("foo(?=bar)")}, wantErr: "lookahead (?= in \"foo(?=bar)\" is not supported"},
		{name: "REGEXP_EXTRACT", args: []in{str_("aa"), str_(`(a)\1`)}, wantErr: `backreference \1`},
		{name: "REGEXP_EXTRACT", args: []in{str_("aa"), col(str_(`a++`))}, wantErr: "possessive quantifier"},
		{name: "REGEXP_EXTRACT", args: []in{str_("k=v"), col(str_(`(\w+)=(\w+)`)), col(int_(2))}, want: "v"},
		// "REGEXP_REPLACE('foobar', 'oo|ar', '') returns "fb""
		{name: "REGEXP_REPLACE", args: []in{str_("foobar"), str_("oo|ar"), str_("")}, want: "fb"},
		{name: "REGEXP_REPLACE", args: []in{str_("foobar"), str_("(o+)"), str_("$1x")}, want: "f$1xbar"},
		{name: "REGEXP_REPLACE", args: []in{str_("foobar"), str_("["), str_("")}, want: "NULL"},
		{name: "REGEXP", args: []in{str_("foobar"), str_("o+b")}, want: "TRUE"},
		{name: "REGEXP", args: []in{str_("foobar"), str_("^b")}, want: "FALSE"},
		{name: "REGEXP", args: []in{str_("foobar"), str_("")}, want: "FALSE"},
		{name: "REGEXP", args: []in{str_("foobar"), str_("[")}, want: "FALSE"},
		{name: "REGEXP", args: []in{str_(`a\b`), str_(`\Qa\b\E`)}, want: "TRUE"},
	})
}

// TestRegexpReplaceLimit checks REGEXP_REPLACE's 1 GiB bound at its edge:
// the matched text counts as removed, so 1024 matches of "a" in "ab"
// repeated 1024 times, each replaced by 2^20-1 bytes, give exactly 2^30
// bytes (allowed) and one more byte of input passes the bound.
func TestRegexpReplaceLimit(t *testing.T) {
	re, err := compileRegex("REGEXP_REPLACE", "a")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Repeat("ab", 1024)
	r := 1<<20 - 1
	if got := regexpReplacedLen(re, s, r); got != maxBuiltString {
		t.Fatalf("length = %d, want %d", got, maxBuiltString)
	}
	check := func(s string) error {
		return checkReplaced("REGEXP_REPLACE", len(s), 0, r, func() int64 { return regexpReplacedLen(re, s, r) })
	}
	if err := check(s); err != nil {
		t.Fatalf("a result of exactly 1 GiB: %v", err)
	}
	if err := check(s + "b"); err == nil || !strings.Contains(err.Error(), "REGEXP_REPLACE: result longer than 1 GiB") {
		t.Fatalf("a result of 1 GiB + 1 byte: err = %v", err)
	}
	// An empty pattern matches at every position, also between matches of
	// a longer alternative: "" and "ab" in "abc" match at 0 (as "ab"), 2
	// and 3, leaving "c".
	alt, err := compileRegex("REGEXP_REPLACE", "ab|")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := regexpReplacedLen(alt, "abc", 5), int64(len(alt.ReplaceAllLiteralString("abc", "xxxxx"))); got != want {
		t.Fatalf("length = %d, want %d", got, want)
	}
	runScalarCases(t, utc, []scalarCase{
		{name: "REGEXP_REPLACE", args: []in{str_(s + "b"), str_("a"), str_(strings.Repeat("y", r))}, wantErr: "REGEXP_REPLACE: result longer than 1 GiB"},
	})
}

// TestRegexpReplaceLengthAllocs checks that measuring a replacement's
// result keeps no per-match state: a thousand times more matches take no
// more allocations.
func TestRegexpReplaceLengthAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates per call")
	}
	re, err := compileRegex("REGEXP_REPLACE", "a")
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(n int) float64 {
		s := strings.Repeat("a", n)
		return testing.AllocsPerRun(5, func() { regexpReplacedLen(re, s, 200) })
	}
	if few, many := allocs(100), allocs(100000); many > few {
		t.Fatalf("allocations: %v for 100 matches, %v for 100000", few, many)
	}
}

// BenchmarkRegexpReplaceLength measures the result length of
// REGEXP_REPLACE(REPEAT('a', 1000000), 'a', REPEAT('x', 200)).
func BenchmarkRegexpReplaceLength(b *testing.B) {
	re, err := compileRegex("REGEXP_REPLACE", "a")
	if err != nil {
		b.Fatal(err)
	}
	s := strings.Repeat("a", 1000000)
	b.ReportAllocs()
	for b.Loop() {
		regexpReplacedLen(re, s, 200)
	}
}

func TestMathFunctions(t *testing.T) {
	runScalarCases(t, utc, []scalarCase{
		{name: "ABS", args: []in{int_(-3)}, want: "3"},
		{name: "ABS", args: []in{int_(-2147483648)}, want: "-2147483648"},
		{name: "ABS", args: []in{dec(-125, 5, 2)}, want: "1.25"},
		{name: "ABS", args: []in{dbl(-1.5)}, want: "1.5"},
		{name: "MOD", args: []in{int_(10), int_(3)}, want: "1"},
		{name: "POWER", args: []in{int_(2), int_(10)}, want: "1024"},
		{name: "POW", args: []in{dbl(4), dbl(0.5)}, want: "2"},
		{name: "SQRT", args: []in{int_(16)}, want: "4"},
		{name: "SQRT", args: []in{int_(-1)}, want: "NaN"},
		{name: "LN", args: []in{int_(1)}, want: "0"},
		{name: "LOG10", args: []in{int_(1000)}, want: "3"},
		{name: "LOG2", args: []in{int_(8)}, want: "3"},
		{name: "LOG", args: []in{int_(2), int_(8)}, want: "3"},
		{name: "EXP", args: []in{int_(0)}, want: "1"},
		{name: "PI", want: "3.141592653589793"},
		{name: "E", want: "2.718281828459045"},
		{name: "SIN", args: []in{int_(0)}, want: "0"},
		{name: "DEGREES", args: []in{dbl(3.141592653589793)}, want: "180"},
		{name: "SIGN", args: []in{int_(-5)}, want: "-1"},
		{name: "SIGN", args: []in{dec(-525, 5, 2)}, want: "-1.00"},
		{name: "SIGN", args: []in{dbl(2.5)}, want: "1"},
		{name: "CEIL", args: []in{dbl(1.2)}, want: "2"},
		{name: "FLOOR", args: []in{dbl(-1.2)}, want: "-2"},
		{name: "CEILING", args: []in{dec(-125, 5, 2)}, want: "-1"},
		{name: "FLOOR", args: []in{dec(-125, 5, 2)}, want: "-2"},
		{name: "FLOOR", args: []in{int_(7)}, want: "7"},
		// "ROUND(numeric, integer) ... E.g. ROUND(1.123, 2)"-style; HALF_UP
		{name: "ROUND", args: []in{dec(1125, 4, 3), int_(2)}, want: "1.13"},
		{name: "ROUND", args: []in{dec(-1125, 4, 3), int_(2)}, want: "-1.13"},
		{name: "ROUND", args: []in{dec(1125, 4, 3)}, want: "1"},
		{name: "ROUND", args: []in{dec(1555, 4, 1), int_(-1)}, want: "160"},
		{name: "ROUND", args: []in{dbl(2.675), int_(2)}, want: "2.68"},
		{name: "ROUND", args: []in{dbl(-2.5)}, want: "-3"},
		{name: "ROUND", args: []in{dbl(1234.5678), int_(-2)}, want: "1200"},
		{name: "ROUND", args: []in{int_(125), int_(-1)}, want: "130"},
		{name: "ROUND", args: []in{int_(125), int_(1)}, want: "125"},
		{name: "ROUND", args: []in{dec(1125, 4, 3), col(int_(2))}, wantErr: "constant INT digits"},
		{name: "TRUNCATE", args: []in{dec(1129, 4, 3), int_(2)}, want: "1.12"},
		{name: "TRUNCATE", args: []in{dbl(-1.99), int_(1)}, want: "-1.9"},
		{name: "TRUNCATE", args: []in{int_(129), int_(-1)}, want: "120"},
		// "BIN(4) returns '100' and BIN(12) returns '1100'"
		{name: "BIN", args: []in{int_(4)}, want: "100"},
		{name: "BIN", args: []in{int_(12)}, want: "1100"},
		// "a numeric 20 leads to "14", a numeric 100 leads to "64", a string
		// "hello,world" leads to "68656C6C6F2C776F726C64""
		{name: "HEX", args: []in{int_(20)}, want: "14"},
		{name: "HEX", args: []in{int_(100)}, want: "64"},
		{name: "HEX", args: []in{str_("hello,world")}, want: "68656C6C6F2C776F726C64"},
		{name: "SQRT", args: []in{str_("4")}, wantErr: "SQRT expects (NUMERIC); got (STRING)"},
	})
}

func TestRoundTypes(t *testing.T) {
	for _, c := range []struct {
		arg  in
		want string
	}{
		{dec(1125, 4, 3), "DECIMAL(4, 2)"},
		{dec(1555, 4, 1), "DECIMAL(4, 0)"},
		{dbl(1), "DOUBLE"},
		{int_(1), "INT"},
	} {
		digits := int_(2)
		if c.arg.arg.Type.Scale == 1 {
			digits = int_(-1)
		}
		rt, _, err := call(utc, "ROUND", c.arg, digits)
		if err != nil {
			t.Fatal(err)
		}
		if got := rt.Nullable().String(); got != c.want {
			t.Errorf("ROUND(%s, ...) type %s, want %s", c.arg.arg.Type, got, c.want)
		}
	}
}

func TestNondeterministic(t *testing.T) {
	for _, name := range []string{"RAND", "UUID", "CURRENT_TIMESTAMP", "NOW", "UNIX_TIMESTAMP", "RAND_INTEGER"} {
		if s, _ := LookupScalar(name); !s.Dynamic {
			t.Errorf("%s is not marked Dynamic", name)
		}
	}
	if s, _ := LookupScalar("UPPER"); s.Dynamic {
		t.Error("UPPER is marked Dynamic")
	}
	_, v, err := call(utc, "UUID")
	if err != nil || len(v.S) != 36 || v.S[14] != '4' {
		t.Errorf("UUID() = %q, %v", v.S, err)
	}
	_, a, _ := call(utc, "RAND", int_(42))
	_, b, _ := call(utc, "RAND", int_(42))
	if a.F != b.F || a.F < 0 || a.F >= 1 {
		t.Errorf("RAND(42) gave %v and %v", a.F, b.F)
	}
	_, r, err := call(utc, "RAND_INTEGER", int_(10))
	if err != nil || r.I < 0 || r.I >= 10 {
		t.Errorf("RAND_INTEGER(10) = %d, %v", r.I, err)
	}
}

func TestConditionalFunctions(t *testing.T) {
	nullInt := null(types.IntType)
	runScalarCases(t, utc, []scalarCase{
		// "COALESCE(NULL, 5) returns 5"
		{name: "COALESCE", args: []in{nullInt, int_(5)}, want: "5"},
		{name: "COALESCE", args: []in{nullInt, nullInt}, want: "NULL"},
		{name: "COALESCE", args: []in{int_(1), dbl(2.5)}, want: "1"},
		{name: "COALESCE", args: []in{nullInt, dec(25, 2, 1)}, want: "2.5"},
		{name: "COALESCE", args: []in{int_(1), str_("x")}, wantErr: "COALESCE expects"},
		{name: "IFNULL", args: []in{nullInt, bigint(7)}, want: "7"},
		{name: "IFNULL", args: []in{int_(3), bigint(7)}, want: "3"},
		{name: "IF", args: []in{boolean_(true), int_(1), int_(2)}, want: "1"},
		{name: "IF", args: []in{null(types.BooleanType), int_(1), int_(2)}, want: "2"},
		{name: "IF", args: []in{boolean_(false), int_(1), dec(25, 2, 1)}, want: "2.5"},
		{name: "IF", args: []in{int_(1), int_(1), int_(2)}, wantErr: "IF expects (BOOLEAN, T, T)"},
		// "NULLIF(5, 5) returns NULL; NULLIF(5, 0) returns 5"
		{name: "NULLIF", args: []in{int_(5), int_(5)}, want: "NULL"},
		{name: "NULLIF", args: []in{int_(5), int_(0)}, want: "5"},
		{name: "NULLIF", args: []in{int_(5), nullInt}, want: "5"},
		{name: "GREATEST", args: []in{int_(1), int_(3), int_(2)}, want: "3"},
		{name: "GREATEST", args: []in{int_(1), dbl(1.5)}, want: "1.5"},
		{name: "GREATEST", args: []in{int_(1), nullInt}, want: "NULL"},
		{name: "LEAST", args: []in{str_("b"), str_("a")}, want: "a"},
		{name: "LEAST", args: []in{ts("2023-01-02 00:00:00"), ts("2023-01-01 00:00:00")}, want: "2023-01-01 00:00:00"},
	})
	rt, _, _ := call(utc, "COALESCE", col(int_(1)), int_(0))
	if !rt.NotNull {
		t.Errorf("COALESCE(nullable, NOT NULL) type %s is nullable", rt)
	}
}

func TestNames(t *testing.T) {
	names := Names()
	has := map[string]bool{}
	for _, n := range names {
		has[n] = true
	}
	for _, want := range []string{"FROM_UNIXTIME", "COUNT", "SUBSTRING", "DATE_FORMAT", "MOD"} {
		if !has[want] {
			t.Errorf("Names() lacks %s", want)
		}
	}
	for _, not := range []string{"+", "NEG", "AND", "IS NULL", "LIKE"} {
		if has[not] {
			t.Errorf("Names() lists operator %s", not)
		}
	}
	if _, ok := LookupScalar("from_unixtime"); !ok {
		t.Error("lookup is case-sensitive")
	}
	if _, ok := LookupScalar("CURRENT_WATERMARK"); ok {
		t.Error("CURRENT_WATERMARK is the planner's")
	}
}

// Strict functions return NULL as soon as any argument is NULL.
func TestNullPropagation(t *testing.T) {
	samples := []struct {
		name string
		args []in
	}{
		{"+", []in{int_(1), int_(2)}},
		{"/", []in{dec(10, 2, 1), dec(30, 2, 1)}},
		{"=", []in{str_("a"), str_("a")}},
		{"FROM_UNIXTIME", []in{bigint(1), str_("yyyy")}},
		{"UNIX_TIMESTAMP", []in{str_("2023-01-01 00:00:00")}},
		{"TO_TIMESTAMP", []in{str_("2023-01-01 00:00:00"), str_("yyyy-MM-dd HH:mm:ss")}},
		{"TO_TIMESTAMP_LTZ", []in{bigint(1)}},
		{"TO_DATE", []in{str_("2023-01-01")}},
		{"DATE_FORMAT", []in{ts("2023-01-01 00:00:00"), str_("yyyy")}},
		{"TIMESTAMPDIFF", []in{unit("DAY"), ts("2023-01-01 00:00:00"), ts("2023-01-02 00:00:00")}},
		{"TIMESTAMPADD", []in{unit("DAY"), int_(1), ts("2023-01-01 00:00:00")}},
		{"EXTRACT", []in{unit("DAY"), date("2023-01-01")}},
		{"FLOOR", []in{ts("2023-01-01 00:00:00"), unit("DAY")}},
		{"CONCAT", []in{str_("a"), str_("b")}},
		{"SUBSTRING", []in{str_("abc"), int_(1), int_(2)}},
		{"TRIM", []in{unit("BOTH"), str_(" a "), str_(" ")}},
		{"REGEXP_EXTRACT", []in{str_("abc"), str_("b"), int_(0)}},
		{"REGEXP_REPLACE", []in{str_("abc"), str_("b"), str_("x")}},
		{"LIKE", []in{str_("abc"), str_("a%"), str_("!")}},
		{"LPAD", []in{str_("a"), int_(3), str_("x")}},
		{"SPLIT_INDEX", []in{str_("a,b"), str_(","), int_(0)}},
		{"ROUND", []in{dbl(1.5), int_(0)}},
		{"POWER", []in{dbl(2), dbl(3)}},
		{"GREATEST", []in{int_(1), int_(2)}},
	}
	for _, c := range samples {
		for i, a := range c.args {
			if a.arg.Unit != "" {
				continue
			}
			args := append([]in(nil), c.args...)
			args[i] = col(null(a.arg.Type))
			_, v, err := call(utc, c.name, args...)
			if err != nil || !v.Null {
				t.Errorf("%s with argument %d NULL = %v, %v; want NULL", c.name, i+1, v, err)
			}
		}
	}
}
