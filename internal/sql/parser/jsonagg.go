package parser

import "github.com/sluicesql/sluice/internal/sql/ast"

// The JSON aggregates' syntax, JSON_OBJECTAGG([KEY] key VALUE value
// [{NULL | ABSENT} ON NULL]) and JSON_ARRAYAGG(value [{NULL | ABSENT} ON
// NULL]), then FILTER and OVER as for any call.
//
// The call is named after its ON NULL behavior: JSON_OBJECTAGG and
// JSON_ARRAYAGG for their defaults (NULL ON NULL and ABSENT ON NULL),
// JSON_OBJECTAGG_ABSENT_ON_NULL and JSON_ARRAYAGG_NULL_ON_NULL for the
// others, as Flink's built-in function definitions are. As Flink's
// WrapJsonAggFunctionArgumentsRule, the value is wrapped in JSON_STRING,
// unless it is a JSON_OBJECT or JSON_ARRAY call, whose JSON goes in as it
// is; the formatter writes the call back in its syntax.

// jsonAggs maps the names of the JSON aggregates to their syntax's name
// and whether they leave NULL values out.
var jsonAggs = map[string]struct {
	base   string
	absent bool
}{
	"JSON_OBJECTAGG":                {"JSON_OBJECTAGG", false},
	"JSON_OBJECTAGG_ABSENT_ON_NULL": {"JSON_OBJECTAGG", true},
	"JSON_ARRAYAGG":                 {"JSON_ARRAYAGG", true},
	"JSON_ARRAYAGG_NULL_ON_NULL":    {"JSON_ARRAYAGG", false},
}

// jsonAggName is the name of the JSON aggregate base with the ON NULL
// behavior absent.
func jsonAggName(base string, absent bool) string {
	for n, a := range jsonAggs {
		if a.base == base && a.absent == absent {
			return n
		}
	}
	return base
}

// jsonAgg parses a JSON aggregate call; the current token is its name.
func (p *parser) jsonAgg(name string) *ast.FuncCall {
	agg := jsonAggs[name]
	pos := p.next().pos
	open := p.next().pos
	fc := &ast.FuncCall{Pos: pos}
	if agg.base == "JSON_OBJECTAGG" {
		if word(p.tok()) == "KEY" && word(p.peek(1)) != "VALUE" {
			p.next()
		}
		fc.Args = append(fc.Args, p.expr())
		p.expectKw("VALUE")
	}
	v := p.expr()
	if c, ok := v.(*ast.FuncCall); !ok || c.Name != "JSON_OBJECT" && c.Name != "JSON_ARRAY" || c.Over != nil || c.Filter != nil {
		v = &ast.FuncCall{Pos: v.Position(), Name: "JSON_STRING", Args: []ast.Expr{v}}
	}
	fc.Args = append(fc.Args, v)
	absent := agg.absent
	if w := word(p.tok()); (w == "NULL" || w == "ABSENT") && word(p.peek(1)) == "ON" {
		p.next()
		p.next()
		p.expectKw("NULL")
		absent = w == "ABSENT"
	}
	p.closeParen(open)
	fc.Name = jsonAggName(agg.base, absent)
	p.filterOver(fc)
	return fc
}

// jsonAggCall writes a JSON aggregate call made by jsonAgg in its syntax,
// up to its FILTER and OVER clauses, and reports whether c is one.
func (f *formatter) jsonAggCall(c *ast.FuncCall) bool {
	agg, ok := jsonAggs[c.Name]
	want := 1
	if agg.base == "JSON_OBJECTAGG" {
		want = 2
	}
	if !ok || c.Distinct || c.Star || c.ArgNames != nil || len(c.Args) != want {
		return false
	}
	f.WriteString(agg.base + "(")
	if want == 2 {
		f.WriteString("KEY ")
		f.expr(c.Args[0])
		f.WriteString(" VALUE ")
	}
	v := c.Args[want-1]
	if s, ok := v.(*ast.FuncCall); ok && s.Name == "JSON_STRING" && len(s.Args) == 1 && s.Over == nil && s.Filter == nil && !s.Distinct {
		v = s.Args[0]
	}
	f.expr(v)
	if agg.absent {
		f.WriteString(" ABSENT ON NULL)")
	} else {
		f.WriteString(" NULL ON NULL)")
	}
	return true
}
