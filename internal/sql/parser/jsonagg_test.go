package parser

import (
	"testing"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// TestJSONAggregates parses the JSON aggregates' syntax: the ON NULL
// clause picks the name, the value is wrapped in JSON_STRING unless it is
// JSON, and the call is written back as it was written.
func TestJSONAggregates(t *testing.T) {
	for _, tc := range []struct{ src, want, name string }{
		{"JSON_OBJECTAGG(KEY k VALUE v)", "JSON_OBJECTAGG(KEY k VALUE v NULL ON NULL)", "JSON_OBJECTAGG"},
		{"JSON_OBJECTAGG(k VALUE v ABSENT ON NULL)", "JSON_OBJECTAGG(KEY k VALUE v ABSENT ON NULL)", "JSON_OBJECTAGG_ABSENT_ON_NULL"},
		{"json_objectagg(key VALUE JSON_OBJECT(KEY 'a' VALUE v))", "JSON_OBJECTAGG(KEY key VALUE JSON_OBJECT(KEY 'a' VALUE v NULL ON NULL) NULL ON NULL)", "JSON_OBJECTAGG"},
		{"JSON_ARRAYAGG(x)", "JSON_ARRAYAGG(x ABSENT ON NULL)", "JSON_ARRAYAGG"},
		{"JSON_ARRAYAGG(x + 1 NULL ON NULL) FILTER (WHERE x > 0)", "JSON_ARRAYAGG((x + 1) NULL ON NULL) FILTER (WHERE (x > 0))", "JSON_ARRAYAGG_NULL_ON_NULL"},
		{"JSON_ARRAYAGG(JSON_STRING(x))", "JSON_ARRAYAGG(JSON_STRING(x) ABSENT ON NULL)", "JSON_ARRAYAGG"},
		{"JSON_ARRAYAGG(JSON_ARRAY(x)) OVER (ORDER BY ts)", "JSON_ARRAYAGG(JSON_ARRAY(x ABSENT ON NULL) ABSENT ON NULL) OVER (ORDER BY ts)", "JSON_ARRAYAGG"},
		{"JSON_ARRAYAGG_NULL_ON_NULL(x)", "JSON_ARRAYAGG(x NULL ON NULL)", "JSON_ARRAYAGG_NULL_ON_NULL"},
	} {
		e, err := ParseExpr(tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		fc := e.(*ast.FuncCall)
		if fc.Name != tc.name {
			t.Errorf("%s: named %s, want %s", tc.src, fc.Name, tc.name)
		}
		v := fc.Args[len(fc.Args)-1].(*ast.FuncCall)
		if raw := v.Name == "JSON_ARRAY" || v.Name == "JSON_OBJECT"; !raw && (v.Name != "JSON_STRING" || len(v.Args) != 1) {
			t.Errorf("%s: value %s is not wrapped in JSON_STRING", tc.src, v.Name)
		}
		if got := FormatExpr(e); got != tc.want {
			t.Errorf("%s: written as %s, want %s", tc.src, got, tc.want)
		}
		again, err := ParseExpr(tc.want)
		if err != nil || FormatExpr(again) != tc.want {
			t.Errorf("%s does not read back as itself: %v", tc.want, err)
		}
	}
	for _, src := range []string{"JSON_OBJECTAGG(k, v)", "JSON_ARRAYAGG(x ORDER BY x)", "JSON_ARRAYAGG(x, y)", "JSON_OBJECTAGG(KEY k VALUE v EMPTY ON NULL)"} {
		if _, err := ParseExpr(src); err == nil {
			t.Errorf("%s parsed", src)
		}
	}
}
