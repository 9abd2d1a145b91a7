package plan

import (
	"bytes"
	"encoding/json"
	"math"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/types"
)

// TestTypeText: every kind of type, with its parameters, nullability and
// time attribute, reads back as it was written; malformed type text fails.
func TestTypeText(t *testing.T) {
	for _, tc := range []struct {
		t    types.Type
		text string
	}{
		{types.BigIntType.WithNotNull(true), "BIGINT NOT NULL"},
		{types.StringType, "STRING"},
		{types.Type{Kind: types.Varchar, Length: 10}, "VARCHAR(10)"},
		{types.Type{Kind: types.Char, Length: 3, NotNull: true}, "CHAR(3) NOT NULL"},
		{types.Type{Kind: types.Varbinary, Length: types.MaxVarcharLength}, "BYTES"},
		{types.Type{Kind: types.Binary, Length: 16}, "BINARY(16)"},
		{types.DecimalType(10, 2), "DECIMAL(10, 2)"},
		{types.Type{Kind: types.Timestamp, Precision: 3, Attr: types.RowTime}, "TIMESTAMP(3) *ROWTIME*"},
		{types.Type{Kind: types.TimestampLTZ, Precision: 3, NotNull: true, Attr: types.ProcTime}, "TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*"},
		{types.Type{Kind: types.Time, Precision: 0}, "TIME(0)"},
		{types.Type{Kind: types.IntervalDayTime, Precision: 3, NotNull: true}, "INTERVAL SECOND(3) NOT NULL"},
		{types.Type{Kind: types.IntervalYearMonth}, "INTERVAL MONTH(0)"},
		{types.Type{Kind: types.Date}, "DATE"},
		{types.NullType, "NULL"},
	} {
		b, err := Type(tc.t).MarshalText()
		if err != nil || string(b) != tc.text {
			t.Errorf("%v written as %q (%v), want %q", tc.t, b, err, tc.text)
			continue
		}
		var back Type
		if err := back.UnmarshalText(b); err != nil || back.Logical() != tc.t {
			t.Errorf("%q read as %+v (%v), want %+v", b, back, err, tc.t)
		}
	}
	for _, bad := range []string{"", "BIGINTEGER", "DECIMAL(10)", "VARCHAR", "VARCHAR(x)", "INT(3)", "TIMESTAMP(3", "TIMESTAMP(03)", "STRING NOT", "DATE *EVENTTIME*"} {
		var ty Type
		if err := ty.UnmarshalText([]byte(bad)); err == nil || !strings.Contains(err.Error(), "invalid type") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
}

// TestValueJSON: values of every physical class survive JSON exactly,
// including the floats JSON has no numbers for and binary strings that are
// not UTF-8.
func TestValueJSON(t *testing.T) {
	bin := types.Type{Kind: types.Varbinary, Length: 8}
	for _, tc := range []struct {
		t    types.Type
		v    types.Value
		json string
	}{
		{types.BigIntType, types.IntValue(math.MinInt64), "-9223372036854775808"},
		{types.BooleanType, types.BoolValue(true), "true"},
		{types.DoubleType, types.FloatValue(0.1), "0.1"},
		{types.DoubleType, types.FloatValue(math.Copysign(0, -1)), "-0"},
		{types.DoubleType, types.FloatValue(math.Inf(-1)), `"-Infinity"`},
		{types.StringType, types.StringValue("Zoë <&>"), `"Zoë <&>"`},
		{bin, types.StringValue("\xff\x00"), `"/wA="`},
		{types.TimestampType(3), types.IntValue(1563444000000000000), "1563444000000000000"},
		{types.TimestampType(9), nanoTS(t, 1563444000000000, 7), "1563444000000000007"},
		{types.TimestampType(9), nanoTS(t, -1, 999), "-1"},
		{types.TimestampLTZType(7), nanoTS(t, -30610224000000000, 100), "[-30610224000000000,100]"},
		{types.TimestampType(9), nanoTS(t, 253402300799999999, 999), "[253402300799999999,999]"},
		{types.IntType, types.NullValue, "null"},
	} {
		b, err := marshalValue(tc.t, tc.v)
		if err != nil || string(b) != tc.json {
			t.Errorf("%v of %v written as %s (%v), want %s", tc.v, tc.t, b, err, tc.json)
			continue
		}
		back, err := unmarshalValue(tc.t, b)
		if err != nil || back != tc.v && !(math.Signbit(back.F) && math.Signbit(tc.v.F)) {
			t.Errorf("%s read as %+v (%v), want %+v", b, back, err, tc.v)
		}
	}
	if v, err := unmarshalValue(types.DoubleType, json.RawMessage(`"NaN"`)); err != nil || !math.IsNaN(v.F) {
		t.Errorf("NaN read as %v (%v)", v, err)
	}
	if _, err := marshalValue(types.StringType, types.StringValue("\xff")); err == nil {
		t.Error("a character string that is not UTF-8 was written")
	}
	for _, bad := range []struct {
		t    types.Type
		json string
	}{{types.IntType, `"1"`}, {types.IntType, "1.5"}, {types.DoubleType, `"one"`}, {types.StringType, "1"}, {bin, `"%"`}, {types.BooleanType, "1"},
		{types.TimestampType(9), "[0,1000]"}, {types.TimestampType(9), "[253402300799999999,-1]"}, {types.TimestampType(9), "[253402300800000000,0]"}, {types.TimestampType(9), `"1"`}} {
		if _, err := unmarshalValue(bad.t, json.RawMessage(bad.json)); err == nil || !strings.Contains(err.Error(), "invalid") {
			t.Errorf("%s as %v: error %v", bad.json, bad.t, err)
		}
	}
}

// nanoTS is the TIMESTAMP(9) us microseconds plus ns nanoseconds after the
// epoch.
func nanoTS(t *testing.T, us, ns int64) types.Value {
	v, ok := types.TimestampFromParts(9, us, ns)
	if !ok {
		t.Fatalf("%d+%d is outside the range", us, ns)
	}
	return v
}

// allKinds is an expression with every kind of expression node.
func allKinds() expr.Expr {
	price := &expr.Column{Index: 1, Name: "price", T: types.IntType}
	ts := &expr.Column{Index: 2, Name: "ts", T: types.Type{Kind: types.Timestamp, Precision: 3, Attr: types.RowTime}}
	five := &expr.Literal{V: types.IntValue(5), T: types.IntType.WithNotNull(true), Text: "5"}
	plus := &expr.Call{Name: "+", Args: []expr.Expr{price, five}, T: types.IntType}
	diff := &expr.Call{Name: "TIMESTAMPDIFF", Args: []expr.Expr{&expr.Literal{T: types.NullType, Text: "HOUR"}, ts, ts},
		T: types.IntType, Units: []string{"HOUR", "", ""}}
	return &expr.Case{
		Whens: []expr.When{
			{Cond: &expr.Logic{Or: true, Args: []expr.Expr{&expr.IsNull{X: price, Neg: true}, &expr.Not{X: &expr.In{X: price, List: []expr.Expr{five, plus}, Neg: true}}}},
				Then: &expr.Coalesce{Args: []expr.Expr{diff, plus}, T: types.IntType}},
			{Cond: &expr.Logic{Args: []expr.Expr{&expr.IsNull{X: &expr.CurrentWatermark{T: types.TimestampType(3)}}, &expr.Literal{V: types.BoolValue(true), T: types.BooleanType.WithNotNull(true), Text: "true"}}},
				Then: &expr.Cast{X: &expr.Literal{V: types.StringValue("7"), T: types.StringType.WithNotNull(true), Text: "'7'"}, T: types.IntType, Try: true}},
		},
		Else: &expr.Literal{V: types.NullValue, T: types.IntType, Text: "NULL"},
		T:    types.IntType,
	}
}

// TestExprJSON: an expression with every kind of node reads back equal,
// and writing it again gives the same bytes.
func TestExprJSON(t *testing.T) {
	e := allKinds()
	b, err := json.Marshal(Expr{e})
	if err != nil {
		t.Fatal(err)
	}
	var back Expr
	if err := back.UnmarshalJSON(b); err != nil {
		t.Fatalf("%v reading %s", err, b)
	}
	if !reflect.DeepEqual(back.E, e) {
		t.Errorf("read back as %s, want %s", back.E, e)
	}
	again, _ := json.Marshal(back)
	if !bytes.Equal(again, b) {
		t.Errorf("written again as\n%s\nwant\n%s", again, b)
	}
	if _, err := expr.Compile(back.E); err != nil {
		t.Errorf("the expression read back does not compile: %v", err)
	}
}

// TestExprJSONBooleanTests: x IS [NOT] TRUE and x IS [NOT] FALSE are calls
// that read back equal, and a plan written when they were bound as
// COALESCE (x IS TRUE as COALESCE(x, false), x IS NOT FALSE as
// NOT(COALESCE(NOT(x), false))) still loads and gives the values the calls
// give.
func TestExprJSONBooleanTests(t *testing.T) {
	const (
		d  = `{"kind":"column","index":0,"name":"d","type":"BOOLEAN"}`
		no = `{"kind":"literal","type":"BOOLEAN NOT NULL","value":false,"text":"false"}`
	)
	coalesce := func(x string) string {
		return `{"kind":"coalesce","type":"BOOLEAN NOT NULL","args":[` + x + `,` + no + `]}`
	}
	not := func(x string) string { return `{"kind":"not","arg":` + x + `}` }
	older := map[string]string{
		"IS TRUE":      coalesce(d),
		"IS NOT TRUE":  not(coalesce(d)),
		"IS FALSE":     coalesce(not(d)),
		"IS NOT FALSE": not(coalesce(not(d))),
	}
	column := &expr.Column{Index: 0, Name: "d", T: types.BooleanType}
	ctx := &expr.Context{Fn: &fn.Context{}}
	for name, old := range older {
		call := &expr.Call{Name: name, Args: []expr.Expr{column}, T: types.BooleanType.WithNotNull(true)}
		b, err := json.Marshal(Expr{call})
		if err != nil {
			t.Fatal(err)
		}
		var back, before Expr
		if err := back.UnmarshalJSON(b); err != nil || !reflect.DeepEqual(back.E, expr.Expr(call)) {
			t.Fatalf("%s read back as %v (%v) from %s", name, back.E, err, b)
		}
		if err := before.UnmarshalJSON([]byte(old)); err != nil {
			t.Fatalf("%s as COALESCE: %v", name, err)
		}
		now, err := expr.Compile(back.E)
		if err != nil {
			t.Fatal(err)
		}
		then, err := expr.Compile(before.E)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []types.Value{types.BoolValue(true), types.BoolValue(false), types.NullValue} {
			a, errA := now(ctx, types.Row{v})
			b, errB := then(ctx, types.Row{v})
			if errA != nil || errB != nil || a != b || a.Null {
				t.Errorf("%s of %v: %v (%v) as a call, %v (%v) as COALESCE", name, v, a, errA, b, errB)
			}
		}
	}
}

// TestExprJSONErrors: a malformed expression fails with the path of the
// faulty node.
func TestExprJSONErrors(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"kind":"call","function":"NO_SUCH_FN","type":"INT"}`, "function: unknown function 'NO_SUCH_FN'"},
		{`{"kind":"and","args":[{"kind":"column","index":0,"type":"BOOLEAN"},{"kind":"column","type":"BOOLEAN"}]}`, "args[1].index: missing in a column expression"},
		{`{"kind":"not","arg":{"kind":"colum","index":0,"type":"BOOLEAN"}}`, "arg.kind: unknown expression kind 'colum'"},
		{`{"kind":"column","index":0,"type":"INT","value":3}`, "value: not a field of a column expression"},
		{`{"kind":"column","index":0,"type":"INT","color":"red"}`, "color: unknown field"},
		{`{"kind":"column","index":-1,"type":"INT"}`, "index: negative column index -1"},
		{`{"kind":"column","index":"0","type":"INT"}`, "index: expected an integer, found a JSON string"},
		{`{"kind":"literal","type":"INT","value":"x"}`, `value: invalid INT value "x"`},
		{`{"kind":"cast","type":"INTEGER","arg":{"kind":"column","index":0,"type":"INT"}}`, "type: invalid type 'INTEGER'"},
		{`{"kind":"case","type":"INT","whens":[{"when":{"kind":"column","index":0,"type":"BOOLEAN"}}]}`, "whens[0].then: expected an expression"},
		{`{"kind":"unit","unit":"HOUR"}`, "a unit is only an argument of a call"},
	} {
		var e Expr
		if err := e.UnmarshalJSON([]byte(tc.json)); err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.json, err, tc.want)
		}
	}
}

// calcPlan is a plan of a Values node read by a Calc and a Collect.
func calcPlan(t *testing.T) *Plan {
	t.Helper()
	p := New()
	p.Configuration = map[string]string{"table.local-time-zone": "UTC"}
	v := &Node{Kind: KindValues, Parallelism: ParallelismSingle, Changelog: InsertOnly,
		Schema: []Field{{"x", Type(types.IntType.WithNotNull(true))}},
		Config: &ValuesConfig{Rows: [][]Expr{{{&expr.Literal{V: types.IntValue(1), T: types.IntType.WithNotNull(true)}}}}}}
	x := &expr.Column{Index: 0, Name: "x", T: types.IntType.WithNotNull(true)}
	c := &Node{Kind: KindCalc, Parallelism: ParallelismInput, Changelog: InsertOnly, Inputs: []Input{{Node: "", Exchange: Forward}},
		Schema: []Field{{"y", Type(types.IntType.WithNotNull(true))}},
		Config: &CalcConfig{Projects: []Expr{{&expr.Call{Name: "+", Args: []expr.Expr{x, x}, T: types.IntType.WithNotNull(true)}}}}}
	out := &Node{Kind: KindCollect, Parallelism: ParallelismSingle, Changelog: InsertOnly, Inputs: []Input{{Exchange: Single}},
		Schema: c.Schema, Config: &CollectConfig{}}
	for _, n := range []*Node{v, c, out} {
		if len(n.Inputs) > 0 {
			n.Inputs[0].Node = p.Nodes[len(p.Nodes)-1].ID
		}
		if err := p.Add(n); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestPlanJSON: a plan read back writes the same bytes, and its IDs are
// hashes of the nodes: equal nodes get an ordinal, a changed configuration
// a new ID.
func TestPlanJSON(t *testing.T) {
	p := calcPlan(t)
	text, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(text)
	if err != nil {
		t.Fatal(err)
	}
	again, err := back.Encode()
	if err != nil || !bytes.Equal(again, text) {
		t.Fatalf("written again as\n%s\nwant\n%s", again, text)
	}
	if !reflect.DeepEqual(back.Nodes, p.Nodes) || back.Version != p.Version || !reflect.DeepEqual(back.Configuration, p.Configuration) {
		t.Error("the plan read back differs from the one written")
	}
	if q := calcPlan(t); !reflect.DeepEqual(q.Nodes, p.Nodes) {
		t.Error("planning the same nodes again gave other IDs")
	}

	v := *p.Nodes[0]
	if err := p.Add(&v); err != nil || v.ID != p.Nodes[0].ID+"-1" {
		t.Errorf("an equal node got ID %q (%v), want %q", v.ID, err, p.Nodes[0].ID+"-1")
	}
	w := *p.Nodes[0]
	w.Config = &ValuesConfig{}
	if err := p.Add(&w); err != nil || strings.HasPrefix(w.ID, p.Nodes[0].ID) {
		t.Errorf("a node with another configuration got ID %q (%v)", w.ID, err)
	}
}

// TestDecodeErrors: a malformed plan fails with an error that says where:
// the JSON position of a syntax error, or the node's ID and the field.
func TestDecodeErrors(t *testing.T) {
	text, err := calcPlan(t).Encode()
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	nodes := doc["nodes"].([]any)
	calc := nodes[1].(map[string]any)
	id := calc["id"].(string)
	edit := func(f func()) string {
		t.Helper()
		var saved map[string]any
		b, _ := json.Marshal(doc)
		_ = json.Unmarshal(b, &saved)
		f()
		out, _ := json.Marshal(doc)
		doc = saved
		nodes = doc["nodes"].([]any)
		calc = nodes[1].(map[string]any)
		return string(out)
	}
	projects := func() []any { return calc["config"].(map[string]any)["projects"].([]any) }
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"syntax", strings.Replace(string(text), `"nodes": [`, `"nodes": [,`, 1), "malformed plan: invalid JSON at line 6, column 13"},
		{"version", edit(func() { doc["version"] = 1 }), "malformed plan: version: plan format version 1, this build reads version 2"},
		{"top-level field", edit(func() { doc["jobs"] = 1 }), "malformed plan: jobs: unknown field"},
		{"kind", edit(func() { calc["kind"] = "Calcul" }), "malformed plan: node '" + id + "': kind: unknown node kind 'Calcul'; known kinds: "},
		{"config field", edit(func() { calc["config"].(map[string]any)["where"] = nil }), "malformed plan: node '" + id + "' (Calc): config.where: unknown field"},
		{"function", edit(func() { projects()[0].(map[string]any)["function"] = "PLUS" }), "malformed plan: node '" + id + "' (Calc): config.projects[0].function: unknown function 'PLUS'"},
		{"type", edit(func() { calc["schema"].([]any)[0].(map[string]any)["type"] = "INTEGER" }), "malformed plan: nodes[1].schema[0].type: invalid type 'INTEGER'"},
		{"config missing", edit(func() { delete(calc, "config") }), "malformed plan: node '" + id + "' (Calc): config: missing"},
		{"input", edit(func() { calc["inputs"].([]any)[0].(map[string]any)["node"] = "nope" }), "malformed plan: node '" + id + "' (Calc): inputs[0].node: no node 'nope' before this one"},
		{"exchange", edit(func() { calc["inputs"].([]any)[0].(map[string]any)["exchange"] = "broadcast" }), "malformed plan: node '" + id + "' (Calc): inputs[0].exchange: unknown exchange 'broadcast'"},
		{"hash keys", edit(func() {
			calc["parallelism"] = "default"
			calc["inputs"].([]any)[0].(map[string]any)["exchange"] = "hash"
			calc["inputs"].([]any)[0].(map[string]any)["keys"] = []any{3}
		}), "malformed plan: node '" + id + "' (Calc): inputs[0].keys[0]: column 3 out of range (the input has 1 columns)"},
		{"parallelism", edit(func() { calc["parallelism"] = "all" }), "malformed plan: node '" + id + "' (Calc): parallelism: unknown rule 'all'"},
		{"changelog", edit(func() { calc["changelogMode"] = "I,D" }), "malformed plan: node '" + id + "' (Calc): changelogMode: unknown changelog mode 'I,D'"},
		{"unread", edit(func() { doc["nodes"] = nodes[:2] }), "malformed plan: node '" + id + "' (Calc): no node reads its output"},
		{"duplicate", edit(func() { nodes[2].(map[string]any)["id"] = id }), "malformed plan: nodes[2]: id: '" + id + "' is the ID of another node"},
		{"no nodes", edit(func() { doc["nodes"] = []any{} }), "malformed plan: nodes: the plan has no nodes"},
	} {
		_, err := Decode([]byte(tc.doc))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestNoRuntimeDependency: plans are data that nothing of the runtime
// takes part in, so the package imports no runtime package, directly or
// through another.
func TestNoRuntimeDependency(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for dep := range strings.SplitSeq(string(out), "\n") {
		if strings.HasPrefix(dep, "github.com/sluicesql/sluice/internal/runtime") || strings.HasPrefix(dep, "github.com/sluicesql/sluice/internal/connector") {
			t.Errorf("internal/plan depends on %s", dep)
		}
	}
}

// TestExprChain: a left-deep expression as deep as the parser allows
// (10,000 levels, through the first operands of calls, casts, NOT, IS
// NULL, IN, AND and COALESCE) is written as a chain that JSON readers take
// and reads back equal; a shallow one is written nested.
func TestExprChain(t *testing.T) {
	x := &expr.Column{Index: 0, Name: "x", T: types.IntType}
	one := &expr.Literal{V: types.IntValue(1), T: types.IntType.WithNotNull(true), Text: "1"}
	var e expr.Expr = x
	for i := range 9000 {
		switch i % 100 {
		case 10:
			e = &expr.Cast{X: e, T: types.IntType}
		case 20:
			e = &expr.Coalesce{Args: []expr.Expr{e, one}, T: types.IntType}
		default:
			e = &expr.Call{Name: "+", Args: []expr.Expr{e, one}, T: types.IntType}
		}
	}
	e = &expr.IsNull{X: e}
	for i := range 1000 {
		switch i % 3 {
		case 0:
			e = &expr.Not{X: e}
		case 1:
			e = &expr.In{X: e, List: []expr.Expr{&expr.Literal{V: types.BoolValue(true), T: types.BooleanType.WithNotNull(true), Text: "TRUE"}}}
		default:
			e = &expr.Logic{Args: []expr.Expr{e, &expr.IsNull{X: x}}}
		}
	}
	b, err := json.Marshal(Expr{e})
	if err != nil {
		t.Fatal(err)
	}
	var back Expr
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.E, e) {
		t.Error("the chain read back differs")
	}
	if again, _ := json.Marshal(back); !bytes.Equal(again, b) {
		t.Error("the chain read back writes differently")
	}
	if !strings.Contains(string(b), `"kind":"chain"`) {
		t.Error("a deep expression was not written as a chain")
	}
	if shallow, _ := json.Marshal(Expr{&expr.Call{Name: "+", Args: []expr.Expr{x, one}, T: types.IntType}}); strings.Contains(string(shallow), "chain") {
		t.Errorf("a shallow expression was written as a chain: %s", shallow)
	}
	for _, tc := range []struct{ json, want string }{
		{`{"kind":"chain","start":{"kind":"column","index":0,"type":"INT"},"steps":[{"kind":"column","index":1,"type":"INT"}]}`,
			"steps[0].kind: a column expression cannot be a step of a chain"},
		{`{"kind":"chain","start":{"kind":"column","index":0,"type":"INT"},"steps":[{"kind":"not","arg":{"kind":"column","index":1,"type":"BOOLEAN"}}]}`,
			"steps[0].arg: not a field of a not expression"},
		{`{"kind":"chain","start":{"kind":"not","arg":{"kind":"column","index":1,"type":"BOOLEAN"}},"steps":[]}`,
			"start: a not expression cannot start a chain"},
	} {
		var e Expr
		if err := e.UnmarshalJSON([]byte(tc.json)); err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.json, err, tc.want)
		}
	}
}

// TestIDsIgnoreTableOptions: a scan's or sink's ID does not change with
// the table's options (a restore after 'scan.startup.mode' or the brokers
// changed finds its state), but does with what the table is.
func TestIDsIgnoreTableOptions(t *testing.T) {
	id := func(kind string, cfg Config) string {
		t.Helper()
		h, err := (&Node{Kind: kind, Config: cfg}).hash()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	table := func(name string, opts map[string]string) Table {
		return Table{Name: name, Columns: []Column{{Name: "a", Type: Type(types.IntType)}}, Options: opts}
	}
	scan := id(KindScan, &ScanConfig{Table: table("t", map[string]string{"scan.startup.mode": "earliest-offset"})})
	if other := id(KindScan, &ScanConfig{Table: table("t", map[string]string{"scan.startup.mode": "latest-offset"})}); other != scan {
		t.Errorf("the scan's ID changed with its options: %s, %s", scan, other)
	}
	if other := id(KindScan, &ScanConfig{Table: table("u", nil)}); other == scan {
		t.Error("scans of two tables have one ID")
	}
	sink := id(KindSink, &SinkConfig{Table: table("t", map[string]string{"topic": "a"})})
	if other := id(KindSink, &SinkConfig{Table: table("t", map[string]string{"topic": "b"})}); other != sink {
		t.Errorf("the sink's ID changed with its options: %s, %s", sink, other)
	}
}
