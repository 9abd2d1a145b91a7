package fn

import (
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

// arr is a constant ARRAY of elements of type elem.
func arr(elem types.Type, vs ...types.Value) in {
	return lit(types.ArrayOf(elem).WithNotNull(true), types.EncodeArray(elem, vs))
}

func strs(ss ...string) in {
	vs := make([]types.Value, len(ss))
	for i, s := range ss {
		vs[i] = types.StringValue(s)
	}
	return arr(types.StringType, vs...)
}

func ints(is ...int64) in {
	vs := make([]types.Value, len(is))
	for i, n := range is {
		vs[i] = types.IntValue(n)
	}
	return arr(types.IntType, vs...)
}

func strMap(kv ...string) in {
	t := types.MapOf(types.StringType, types.StringType).WithNotNull(true)
	var ks, vs []types.Value
	for i := 0; i < len(kv); i += 2 {
		ks, vs = append(ks, types.StringValue(kv[i])), append(vs, types.StringValue(kv[i+1]))
	}
	return lit(t, types.EncodeMap(t, ks, vs))
}

// The examples of Flink's function list and edge cases: NULL and empty
// inputs.
func TestCollectionFunctions(t *testing.T) {
	nullArr := null(types.ArrayOf(types.IntType))
	withNull := arr(types.IntType, types.IntValue(3), types.NullValue, types.IntValue(1), types.IntValue(3))
	runScalarCases(t, utc, []scalarCase{
		{name: "CARDINALITY", args: []in{ints(1, 2, 3)}, want: "3"},
		{name: "CARDINALITY", args: []in{ints()}, want: "0"},
		{name: "CARDINALITY", args: []in{nullArr}, want: "NULL"},
		{name: "CARDINALITY", args: []in{strMap("a", "1", "b", "2")}, want: "2"},
		{name: "CARDINALITY", args: []in{str_("x")}, wantErr: "CARDINALITY expects (ARRAY), (MAP) or (MULTISET)"},
		{name: "ELEMENT", args: []in{ints(7)}, want: "7"},
		{name: "ELEMENT", args: []in{ints()}, want: "NULL"},
		{name: "ELEMENT", args: []in{ints(1, 2)}, wantErr: "ELEMENT: the array has more than one element"},
		// "SELECT ARRAY_CONTAINS(ARRAY['Java', 'SQL'], 'SQL')" returns TRUE
		{name: "ARRAY_CONTAINS", args: []in{strs("Java", "SQL"), str_("SQL")}, want: "TRUE"},
		{name: "ARRAY_CONTAINS", args: []in{withNull, null(types.IntType)}, want: "TRUE"},
		{name: "ARRAY_CONTAINS", args: []in{ints(1), null(types.IntType)}, want: "FALSE"},
		{name: "ARRAY_CONTAINS", args: []in{ints(1, 2), bigint(2)}, wantErr: "ARRAY_CONTAINS expects (ARRAY<T>, T)"},
		{name: "ARRAY_CONTAINS", args: []in{nullArr, int_(1)}, want: "NULL"},
		// "ARRAY_DISTINCT(ARRAY['SQL', 'Java', 'SQL', 'Python', 'SQL'])" returns [SQL, Java, Python]
		{name: "ARRAY_DISTINCT", args: []in{strs("SQL", "Java", "SQL", "Python", "SQL")}, want: "[SQL, Java, Python]"},
		{name: "ARRAY_DISTINCT", args: []in{withNull}, want: "[3, NULL, 1]"},
		{name: "ARRAY_POSITION", args: []in{withNull, int_(1)}, want: "3"},
		{name: "ARRAY_POSITION", args: []in{withNull, int_(9)}, want: "0"},
		{name: "ARRAY_POSITION", args: []in{withNull, null(types.IntType)}, want: "NULL"},
		{name: "ARRAY_REMOVE", args: []in{withNull, int_(3)}, want: "[NULL, 1]"},
		{name: "ARRAY_REMOVE", args: []in{withNull, null(types.IntType)}, want: "[3, 1, 3]"},
		{name: "ARRAY_REVERSE", args: []in{withNull}, want: "[3, 1, NULL, 3]"},
		{name: "ARRAY_APPEND", args: []in{ints(1), null(types.IntType)}, want: "[1, NULL]"},
		{name: "ARRAY_PREPEND", args: []in{ints(1), int_(0)}, want: "[0, 1]"},
		{name: "ARRAY_SLICE", args: []in{ints(1, 2, 3, 4), int_(2), int_(3)}, want: "[2, 3]"},
		{name: "ARRAY_SLICE", args: []in{ints(1, 2, 3, 4), int_(-2)}, want: "[3, 4]"},
		{name: "ARRAY_SLICE", args: []in{ints(1, 2, 3, 4), int_(0), int_(-3)}, want: "[1, 2]"},
		{name: "ARRAY_SLICE", args: []in{ints(1, 2, 3, 4), int_(3), int_(2)}, want: "[]"},
		{name: "ARRAY_SLICE", args: []in{ints(1, 2), int_(5), int_(9)}, want: "[]"},
		{name: "ARRAY_SLICE", args: []in{ints(1, 2), null(types.IntType)}, want: "NULL"},
		{name: "ARRAY_SORT", args: []in{withNull}, want: "[NULL, 1, 3, 3]"},
		{name: "ARRAY_SORT", args: []in{withNull, boolean_(false)}, want: "[3, 3, 1, NULL]"},
		{name: "ARRAY_SORT", args: []in{withNull, boolean_(false), boolean_(true)}, want: "[NULL, 3, 3, 1]"},
		{name: "ARRAY_SORT", args: []in{withNull, boolean_(true), boolean_(false)}, want: "[1, 3, 3, NULL]"},
		{name: "ARRAY_UNION", args: []in{ints(1, 2, 2), ints(3, 1)}, want: "[1, 2, 3]"},
		// "ARRAY_EXCEPT(ARRAY['SQL', 'Java', 'Python', 'Rust'], ARRAY['Python', 'Rust', 'Haskell', 'C#'])" returns [SQL, Java]
		{name: "ARRAY_EXCEPT", args: []in{strs("SQL", "Java", "Python", "Rust"), strs("Python", "Rust", "Haskell", "C#")}, want: "[SQL, Java]"},
		{name: "ARRAY_INTERSECT", args: []in{ints(1, 2, 2, 3), ints(2, 3, 4)}, want: "[2, 3]"},
		{name: "ARRAY_INTERSECT", args: []in{ints(1), nullArr}, want: "NULL"},
		{name: "ARRAY_CONCAT", args: []in{ints(1), ints(), ints(2, 2)}, want: "[1, 2, 2]"},
		{name: "ARRAY_CONCAT", args: []in{ints(1), arr(types.BigIntType, types.IntValue(5))}, want: "[1, 5]"},
		{name: "ARRAY_CONCAT", args: []in{ints(1), strs("a")}, wantErr: "ARRAY_CONCAT expects arrays of a common type"},
		{name: "ARRAY_MAX", args: []in{withNull}, want: "3"},
		{name: "ARRAY_MIN", args: []in{withNull}, want: "1"},
		{name: "ARRAY_MAX", args: []in{arr(types.IntType, types.NullValue)}, want: "NULL"},
		{name: "ARRAY_JOIN", args: []in{arr(types.StringType, types.StringValue("a"), types.NullValue, types.StringValue("b")), str_("-")}, want: "a-b"},
		{name: "ARRAY_JOIN", args: []in{arr(types.StringType, types.StringValue("a"), types.NullValue), str_("-"), str_("?")}, want: "a-?"},
		{name: "ARRAY_JOIN", args: []in{ints(1), str_("-")}, wantErr: "ARRAY_JOIN expects"},
		{name: "MAP_KEYS", args: []in{strMap("a", "1", "b", "2")}, want: "[a, b]"},
		{name: "MAP_VALUES", args: []in{strMap("a", "1", "b", "2")}, want: "[1, 2]"},
		{name: "MAP_ENTRIES", args: []in{strMap("a", "1")}, want: "[(a, 1)]"},
		{name: "MAP_UNION", args: []in{strMap("a", "1", "b", "2"), strMap("b", "3", "c", "4")}, want: "{a=1, b=3, c=4}"},
		{name: "MAP_FROM_ARRAYS", args: []in{strs("a", "b"), ints(1, 2)}, want: "{a=1, b=2}"},
		{name: "MAP_FROM_ARRAYS", args: []in{strs("a"), ints(1, 2)}, wantErr: "MAP_FROM_ARRAYS: the key and value arrays have different lengths (1 and 2)"},
		{name: "SPLIT", args: []in{str_("a,b,,c,"), str_(",")}, want: "[a, b, , c, ]"},
		{name: "SPLIT", args: []in{str_("abc"), str_("")}, want: "[a, b, c]"},
		{name: "SPLIT", args: []in{str_("abc"), str_("x")}, want: "[abc]"},
		{name: "SPLIT", args: []in{null(types.StringType), str_(",")}, want: "NULL"},
		{name: "STR_TO_MAP", args: []in{str_("a=1,b=2,c")}, want: "{a=1, b=2, c=NULL}"},
		{name: "STR_TO_MAP", args: []in{str_("k1:v1;k2:v2;;"), str_(";"), str_(":")}, want: "{k1=v1, k2=v2}"},
		{name: "STR_TO_MAP", args: []in{str_("a=1,a=2")}, want: "{a=2}"},
		// REGEXP_EXTRACT_ALL("abc123def456ghi789", "(\\d+)", 0) gives [123, 456, 789]
		{name: "REGEXP_EXTRACT_ALL", args: []in{str_("abc123def456ghi789"), str_(`(\d+)`), int_(0)}, want: "[123, 456, 789]"},
		{name: "REGEXP_EXTRACT_ALL", args: []in{str_("a1b2"), str_(`([a-z])(\d)`)}, want: "[a, b]"},
		{name: "REGEXP_EXTRACT_ALL", args: []in{str_("a1b2"), str_(`(\d)`), int_(2)}, want: "NULL"},
		{name: "REGEXP_EXTRACT_ALL", args: []in{str_("ab"), str_(`(x)?b`)}, want: "[NULL]"},
	})
}
