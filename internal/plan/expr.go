package plan

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/types"
)

// Expr is an expression in a plan. Its JSON form is a tree of objects,
// each with a "kind":
//
//	{"kind": "column", "index": 2, "name": "price", "type": "INT"}
//	{"kind": "literal", "type": "INT NOT NULL", "value": 5, "text": "5"}
//	{"kind": "call", "function": "+", "type": "INT", "args": [...]}
//	{"kind": "unit", "unit": "HOUR"}            a bare unit argument of a call
//	{"kind": "cast", "type": "STRING", "try": true, "arg": {...}}
//	{"kind": "and" | "or", "args": [...]}
//	{"kind": "not", "arg": {...}}
//	{"kind": "isNull", "negated": true, "arg": {...}}
//	{"kind": "case", "type": "INT", "whens": [{"when": {...}, "then": {...}}], "else": {...}}
//	{"kind": "coalesce", "type": "INT", "args": [...]}
//	{"kind": "in", "negated": true, "arg": {...}, "args": [...]}
//	{"kind": "currentWatermark", "type": "TIMESTAMP(3)"}
//	{"kind": "chain", "start": {...}, "steps": [...]}
//
// A chain is a long left-deep expression (a + b + c + ..., each operator
// nesting the expression before it as its first operand) written as a list
// instead of nested objects, which JSON readers refuse past some depth: the
// innermost first operand, then each enclosing node, innermost first,
// written without that operand. Expressions whose first operands nest more
// than chainLength deep are written so. Literal values are written as
// marshalValue writes them. A call names a
// built-in function (fn.LookupScalar) and keeps the result type planning
// gave it; the function is bound to its arguments again when the plan is
// built. The zero Expr is no expression (JSON null).
type Expr struct{ E expr.Expr }

// Exprs wraps expressions for a plan.
func Exprs(es []expr.Expr) []Expr {
	out := make([]Expr, len(es))
	for i, e := range es {
		out[i] = Expr{e}
	}
	return out
}

// exprJSON is the JSON form of one expression node.
type exprJSON struct {
	Kind     string          `json:"kind"`
	Function string          `json:"function,omitempty"`
	Unit     string          `json:"unit,omitempty"`
	Index    *int            `json:"index,omitempty"`
	Name     string          `json:"name,omitempty"`
	Type     *Type           `json:"type,omitempty"`
	Value    json.RawMessage `json:"value,omitempty"`
	Text     string          `json:"text,omitempty"`
	Try      bool            `json:"try,omitempty"`
	Negated  bool            `json:"negated,omitempty"`
	Arg      *exprJSON       `json:"arg,omitempty"`
	Args     []*exprJSON     `json:"args,omitempty"`
	Whens    []whenJSON      `json:"whens,omitempty"`
	Else     *exprJSON       `json:"else,omitempty"`
	Start    *exprJSON       `json:"start,omitempty"`
	Steps    []*exprJSON     `json:"steps,omitempty"`
}

// chainLength is the depth of first operands past which an expression is
// written as a chain.
const chainLength = 32

// spine returns e's first operand, through which left-deep chains nest,
// or nil.
func spine(e expr.Expr) expr.Expr {
	switch x := e.(type) {
	case *expr.Call:
		if len(x.Args) > 0 && (len(x.Units) == 0 || x.Units[0] == "") {
			return x.Args[0]
		}
	case *expr.Logic:
		return x.Args[0]
	case *expr.Coalesce:
		return x.Args[0]
	case *expr.Cast:
		return x.X
	case *expr.Not:
		return x.X
	case *expr.IsNull:
		return x.X
	case *expr.In:
		return x.X
	}
	return nil
}

type whenJSON struct {
	When *exprJSON `json:"when"`
	Then *exprJSON `json:"then"`
}

// MarshalJSON implements json.Marshaler.
func (e Expr) MarshalJSON() ([]byte, error) {
	if e.E == nil {
		return []byte("null"), nil
	}
	j, err := toJSON(e.E)
	if err != nil {
		return nil, err
	}
	return marshal(j)
}

// UnmarshalJSON implements json.Unmarshaler. It checks the tree's shape,
// its types and that every function exists; errors name the path inside
// the expression.
func (e *Expr) UnmarshalJSON(data []byte) error {
	var j *exprJSON
	if err := decode(data, &j); err != nil {
		return err
	}
	if j == nil {
		e.E = nil
		return nil
	}
	x, err := fromJSON(j)
	if err != nil {
		return err
	}
	e.E = x
	return nil
}

func typeOf(t types.Type) *Type { pt := Type(t); return &pt }

func toJSON(e expr.Expr) (*exprJSON, error) {
	depth := 0
	for s := e; s != nil && depth <= chainLength; s = spine(s) {
		depth++
	}
	if depth <= chainLength {
		return writeNode(e, false)
	}
	var nodes []expr.Expr
	x := e
	for ; spine(x) != nil; x = spine(x) {
		nodes = append(nodes, x)
	}
	start, err := writeNode(x, false)
	if err != nil {
		return nil, err
	}
	j := &exprJSON{Kind: "chain", Start: start, Steps: make([]*exprJSON, len(nodes))}
	for i := range nodes {
		if j.Steps[i], err = writeNode(nodes[len(nodes)-1-i], true); err != nil {
			return nil, err
		}
	}
	return j, nil
}

// writeNode writes one node of e's tree; without its first operand (its
// spine) when it is a step of a chain.
func writeNode(e expr.Expr, step bool) (*exprJSON, error) {
	operand := func(x expr.Expr) (*exprJSON, error) {
		if step {
			return nil, nil
		}
		return toJSON(x)
	}
	rest := func(es []expr.Expr) []expr.Expr {
		if step {
			return es[1:]
		}
		return es
	}
	switch x := e.(type) {
	case *expr.Column:
		i := x.Index
		return &exprJSON{Kind: "column", Index: &i, Name: x.Name, Type: typeOf(x.T)}, nil
	case *expr.Literal:
		v, err := marshalValue(x.T, x.V)
		if err != nil {
			return nil, fmt.Errorf("literal %s: %w", x.String(), err)
		}
		// A folded constant's text is the expression it was folded from.
		return &exprJSON{Kind: "literal", Type: typeOf(x.T), Value: v, Text: x.String()}, nil
	case *expr.Call:
		j := &exprJSON{Kind: "call", Function: x.Name, Type: typeOf(x.T)}
		for i, a := range x.Args {
			switch {
			case i < len(x.Units) && x.Units[i] != "":
				j.Args = append(j.Args, &exprJSON{Kind: "unit", Unit: x.Units[i]})
			case i > 0 || !step:
				aj, err := toJSON(a)
				if err != nil {
					return nil, err
				}
				j.Args = append(j.Args, aj)
			}
		}
		return j, nil
	case *expr.Cast:
		arg, err := operand(x.X)
		return &exprJSON{Kind: "cast", Type: typeOf(x.T), Try: x.Try, Arg: arg}, err
	case *expr.Logic:
		args, err := allToJSON(rest(x.Args))
		return &exprJSON{Kind: map[bool]string{false: "and", true: "or"}[x.Or], Args: args}, err
	case *expr.Not:
		arg, err := operand(x.X)
		return &exprJSON{Kind: "not", Arg: arg}, err
	case *expr.IsNull:
		arg, err := operand(x.X)
		return &exprJSON{Kind: "isNull", Negated: x.Neg, Arg: arg}, err
	case *expr.Case:
		j := &exprJSON{Kind: "case", Type: typeOf(x.T)}
		for _, w := range x.Whens {
			c, err := toJSON(w.Cond)
			if err != nil {
				return nil, err
			}
			t, err := toJSON(w.Then)
			if err != nil {
				return nil, err
			}
			j.Whens = append(j.Whens, whenJSON{When: c, Then: t})
		}
		if x.Else != nil {
			var err error
			if j.Else, err = toJSON(x.Else); err != nil {
				return nil, err
			}
		}
		return j, nil
	case *expr.Coalesce:
		args, err := allToJSON(rest(x.Args))
		return &exprJSON{Kind: "coalesce", Type: typeOf(x.T), Args: args}, err
	case *expr.In:
		arg, err := operand(x.X)
		if err != nil {
			return nil, err
		}
		args, err := allToJSON(x.List)
		return &exprJSON{Kind: "in", Negated: x.Neg, Arg: arg, Args: args}, err
	case *expr.CurrentWatermark:
		return &exprJSON{Kind: "currentWatermark", Type: typeOf(x.T)}, nil
	}
	return nil, fmt.Errorf("expression %T cannot be written", e)
}

func allToJSON(es []expr.Expr) ([]*exprJSON, error) {
	out := make([]*exprJSON, len(es))
	for i, e := range es {
		j, err := toJSON(e)
		if err != nil {
			return nil, err
		}
		out[i] = j
	}
	return out, nil
}

// exprFields lists, per kind, the fields an expression of that kind has
// (besides "kind"); any other field present is an error, so that nothing
// in a plan is silently ignored.
var exprFields = map[string][]string{
	"column":           {"index", "name", "type"},
	"literal":          {"type", "value", "text"},
	"call":             {"function", "type", "args"},
	"unit":             {"unit"},
	"cast":             {"type", "try", "arg"},
	"and":              {"args"},
	"or":               {"args"},
	"not":              {"arg"},
	"isNull":           {"negated", "arg"},
	"case":             {"type", "whens", "else"},
	"coalesce":         {"type", "args"},
	"in":               {"negated", "arg", "args"},
	"currentWatermark": {"type"},
	"chain":            {"start", "steps"},
}

// required lists the fields an expression of a kind cannot do without.
var required = map[string][]string{
	"column":           {"index", "type"},
	"literal":          {"type", "value"},
	"call":             {"function", "type"},
	"unit":             {"unit"},
	"cast":             {"type", "arg"},
	"and":              {"args"},
	"or":               {"args"},
	"not":              {"arg"},
	"isNull":           {"arg"},
	"case":             {"type", "whens"},
	"coalesce":         {"type", "args"},
	"in":               {"arg", "args"},
	"currentWatermark": {"type"},
	"chain":            {"start", "steps"},
}

// steps are the kinds that can be a step of a chain: they have a first
// operand.
var steps = []string{"call", "cast", "and", "or", "not", "isNull", "coalesce", "in"}

// present lists the fields j sets.
func (j *exprJSON) present() []string {
	var out []string
	add := func(name string, set bool) {
		if set {
			out = append(out, name)
		}
	}
	add("function", j.Function != "")
	add("unit", j.Unit != "")
	add("index", j.Index != nil)
	add("name", j.Name != "")
	add("type", j.Type != nil)
	add("value", j.Value != nil)
	add("text", j.Text != "")
	add("try", j.Try)
	add("negated", j.Negated)
	add("arg", j.Arg != nil)
	add("args", j.Args != nil)
	add("whens", j.Whens != nil)
	add("else", j.Else != nil)
	add("start", j.Start != nil)
	add("steps", j.Steps != nil)
	return out
}

// checkFields checks that j's kind is known and that j has the fields of
// its kind and no other; a step of a chain has no "arg" (its first operand
// is the chain so far), and needs no "args".
func checkFields(j *exprJSON, step bool) error {
	allowed, ok := exprFields[j.Kind]
	if !ok {
		return at("kind", fmt.Errorf("unknown expression kind '%s'", j.Kind))
	}
	if step && !slices.Contains(steps, j.Kind) {
		return at("kind", fmt.Errorf("a %s expression cannot be a step of a chain", j.Kind))
	}
	have := j.present()
	for _, f := range have {
		if !slices.Contains(allowed, f) || step && f == "arg" {
			return at(f, fmt.Errorf("not a field of a %s expression", j.Kind))
		}
	}
	for _, f := range required[j.Kind] {
		if !slices.Contains(have, f) && !(step && (f == "arg" || f == "args")) {
			return at(f, fmt.Errorf("missing in a %s expression", j.Kind))
		}
	}
	return nil
}

// fromJSON reads an expression.
func fromJSON(j *exprJSON) (expr.Expr, error) {
	if j.Kind != "chain" {
		return readNode(j, nil)
	}
	if err := checkFields(j, false); err != nil {
		return nil, err
	}
	x, err := sub("start", j.Start)
	if err != nil {
		return nil, err
	}
	if spine(x) != nil {
		return nil, at("start", fmt.Errorf("a %s expression cannot start a chain", j.Start.Kind))
	}
	for i, st := range j.Steps {
		if st == nil {
			return nil, at(fmt.Sprintf("steps[%d]", i), errors.New("expected an expression"))
		}
		if x, err = readNode(st, x); err != nil {
			return nil, at(fmt.Sprintf("steps[%d]", i), err)
		}
	}
	return x, nil
}

// readNode reads one node; first, when set, is its first operand (the
// node is a step of a chain).
func readNode(j *exprJSON, first expr.Expr) (expr.Expr, error) {
	step := first != nil
	if err := checkFields(j, step); err != nil {
		return nil, err
	}
	var t types.Type
	if j.Type != nil {
		t = types.Type(*j.Type)
	}
	// operand is the node's first operand: the chain so far, or its "arg".
	operand := func() (expr.Expr, error) {
		if step {
			return first, nil
		}
		return sub("arg", j.Arg)
	}
	// operands are the node's operands in "args", after the chain so far.
	operands := func() ([]expr.Expr, error) {
		args, err := subs("args", j.Args)
		if step {
			args = append([]expr.Expr{first}, args...)
		}
		return args, err
	}
	switch j.Kind {
	case "column":
		if *j.Index < 0 {
			return nil, at("index", fmt.Errorf("negative column index %d", *j.Index))
		}
		return &expr.Column{Index: *j.Index, Name: j.Name, T: t}, nil
	case "literal":
		v, err := unmarshalValue(t, j.Value)
		if err != nil {
			return nil, at("value", err)
		}
		return &expr.Literal{V: v, T: t, Text: j.Text}, nil
	case "call":
		if _, ok := fn.LookupScalar(j.Function); !ok {
			return nil, at("function", fmt.Errorf("unknown function '%s'", j.Function))
		}
		c := &expr.Call{Name: j.Function, T: t}
		if step {
			c.Args = []expr.Expr{first}
		}
		for i, aj := range j.Args {
			field := fmt.Sprintf("args[%d]", i)
			if aj == nil {
				return nil, at(field, errors.New("expected an expression"))
			}
			if aj.Kind != "unit" {
				a, err := fromJSON(aj)
				if err != nil {
					return nil, at(field, err)
				}
				c.Args = append(c.Args, a)
				continue
			}
			if err := checkFields(aj, false); err != nil {
				return nil, at(field, err)
			}
			if c.Units == nil {
				c.Units = make([]string, len(c.Args)-i+len(j.Args))
			}
			c.Units[len(c.Args)] = aj.Unit
			c.Args = append(c.Args, &expr.Literal{T: types.NullType, Text: aj.Unit})
		}
		return c, nil
	case "unit":
		return nil, errors.New("a unit is only an argument of a call")
	case "cast":
		x, err := operand()
		return &expr.Cast{X: x, T: t, Try: j.Try}, err
	case "and", "or":
		args, err := operands()
		return &expr.Logic{Or: j.Kind == "or", Args: args}, err
	case "not":
		x, err := operand()
		return &expr.Not{X: x}, err
	case "isNull":
		x, err := operand()
		return &expr.IsNull{X: x, Neg: j.Negated}, err
	case "case":
		c := &expr.Case{T: t}
		for i, w := range j.Whens {
			step := fmt.Sprintf("whens[%d]", i)
			cond, err := sub("when", w.When)
			if err != nil {
				return nil, at(step, err)
			}
			then, err := sub("then", w.Then)
			if err != nil {
				return nil, at(step, err)
			}
			c.Whens = append(c.Whens, expr.When{Cond: cond, Then: then})
		}
		if j.Else != nil {
			var err error
			if c.Else, err = sub("else", j.Else); err != nil {
				return nil, err
			}
		}
		return c, nil
	case "coalesce":
		args, err := operands()
		return &expr.Coalesce{Args: args, T: t}, err
	case "in":
		x, err := operand()
		if err != nil {
			return nil, err
		}
		list, err := subs("args", j.Args)
		return &expr.In{X: x, List: list, Neg: j.Negated}, err
	case "currentWatermark":
		return &expr.CurrentWatermark{T: t}, nil
	}
	return nil, at("kind", fmt.Errorf("a %s expression cannot stand here", j.Kind))
}

// sub reads the sub-expression at field name.
func sub(name string, j *exprJSON) (expr.Expr, error) {
	if j == nil {
		return nil, at(name, errors.New("expected an expression"))
	}
	x, err := fromJSON(j)
	if err != nil {
		return nil, at(name, err)
	}
	return x, nil
}

// subs reads the sub-expressions of the array at field name.
func subs(name string, js []*exprJSON) ([]expr.Expr, error) {
	out := make([]expr.Expr, len(js))
	for i, j := range js {
		x, err := sub(fmt.Sprintf("%s[%d]", name, i), j)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}
