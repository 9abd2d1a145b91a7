// Package expr holds bound, typed expressions and compiles them into
// evaluators over rows. Built-in functions come from package fn; the
// constructs whose evaluation order matters (AND, OR, CASE, COALESCE, IN)
// are compiled here so that they short-circuit.
package expr

import (
	"fmt"
	"strings"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/types"
)

// Expr is a bound expression.
type Expr interface {
	// Type is the result type.
	Type() types.Type
	// String renders the expression for EXPLAIN, naming input columns.
	String() string
}

// Column reads input column Index.
type Column struct {
	Index int
	Name  string
	T     types.Type
}

// Literal is a constant.
type Literal struct {
	V types.Value
	T types.Type
	// Text is how the literal prints.
	Text string
}

// Call applies a bound scalar function.
type Call struct {
	Name string
	Args []Expr
	T    types.Type
	Eval fn.Eval
	// Units holds the bare unit arguments (e.g. HOUR) by position, "" else.
	Units []string
}

// Cast converts X to T (TRY_CAST returns NULL instead of failing).
type Cast struct {
	X   Expr
	T   types.Type
	Try bool
}

// Logic is AND or OR over two or more operands, with SQL three-valued logic.
type Logic struct {
	Or   bool
	Args []Expr
}

// Not is logical negation.
type Not struct{ X Expr }

// IsNull is X IS [NOT] NULL.
type IsNull struct {
	X   Expr
	Neg bool
}

// When is one arm of a Case.
type When struct{ Cond, Then Expr }

// Case is a searched CASE; Else may be nil (NULL).
type Case struct {
	Whens []When
	Else  Expr
	T     types.Type
}

// Coalesce returns its first non-NULL argument.
type Coalesce struct {
	Args []Expr
	T    types.Type
}

// In is X [NOT] IN (List...).
type In struct {
	X    Expr
	List []Expr
	Neg  bool
	Eq   []fn.Eval // one equality per list item
}

// CurrentWatermark is CURRENT_WATERMARK(rowtime): the operator's current
// watermark, NULL before the first one.
type CurrentWatermark struct{ T types.Type }

// Type implements Expr.
func (e *Column) Type() types.Type { return e.T }

// Type implements Expr.
func (e *Literal) Type() types.Type { return e.T }

// Type implements Expr.
func (e *Call) Type() types.Type { return e.T }

// Type implements Expr.
func (e *Cast) Type() types.Type { return e.T }

// Type implements Expr.
func (e *Logic) Type() types.Type { return nullability(types.BooleanType, e.Args...) }

// Type implements Expr.
func (e *Not) Type() types.Type { return nullability(types.BooleanType, e.X) }

// Type implements Expr.
func (e *IsNull) Type() types.Type { return types.BooleanType.WithNotNull(true) }

// Type implements Expr.
func (e *Case) Type() types.Type { return e.T }

// Type implements Expr.
func (e *Coalesce) Type() types.Type { return e.T }

// Type implements Expr.
func (e *In) Type() types.Type {
	return nullability(types.BooleanType, append([]Expr{e.X}, e.List...)...)
}

// Type implements Expr.
func (e *CurrentWatermark) Type() types.Type { return e.T }

// nullability returns t, NOT NULL when every argument is NOT NULL.
func nullability(t types.Type, args ...Expr) types.Type {
	for _, a := range args {
		if !a.Type().NotNull {
			return t.WithNotNull(false)
		}
	}
	return t.WithNotNull(true)
}

// String implements Expr.
func (e *Column) String() string { return e.Name }

// String implements Expr.
func (e *Literal) String() string { return e.Text }

// String implements Expr.
func (e *Call) String() string {
	if len(e.Args) == 2 && isOperator(e.Name) {
		return fmt.Sprintf("%s(%s, %s)", operatorName(e.Name), e.Args[0], e.Args[1])
	}
	parts := make([]string, len(e.Args))
	for i, a := range e.Args {
		if i < len(e.Units) && e.Units[i] != "" {
			parts[i] = e.Units[i]
			continue
		}
		parts[i] = a.String()
	}
	name := e.Name
	if name == "NEG" {
		name = "-"
	}
	return fmt.Sprintf("%s(%s)", name, strings.Join(parts, ", "))
}

// String implements Expr.
func (e *Cast) String() string {
	kw := "CAST"
	if e.Try {
		kw = "TRY_CAST"
	}
	return fmt.Sprintf("%s(%s AS %s)", kw, e.X, e.T.Plain())
}

// String implements Expr.
func (e *Logic) String() string {
	name := "AND"
	if e.Or {
		name = "OR"
	}
	return fmt.Sprintf("%s(%s)", name, joinExprs(e.Args))
}

// String implements Expr.
func (e *Not) String() string { return fmt.Sprintf("NOT(%s)", e.X) }

// String implements Expr.
func (e *IsNull) String() string {
	if e.Neg {
		return fmt.Sprintf("IS NOT NULL(%s)", e.X)
	}
	return fmt.Sprintf("IS NULL(%s)", e.X)
}

// String implements Expr.
func (e *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE(")
	for i, w := range e.Whens {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s, %s", w.Cond, w.Then)
	}
	if e.Else != nil {
		fmt.Fprintf(&b, ", %s", e.Else)
	}
	b.WriteString(")")
	return b.String()
}

// String implements Expr.
func (e *Coalesce) String() string { return fmt.Sprintf("COALESCE(%s)", joinExprs(e.Args)) }

// String implements Expr.
func (e *In) String() string {
	s := fmt.Sprintf("IN(%s, %s)", e.X, joinExprs(e.List))
	if e.Neg {
		return "NOT(" + s + ")"
	}
	return s
}

// String implements Expr.
func (e *CurrentWatermark) String() string { return "CURRENT_WATERMARK()" }

func joinExprs(es []Expr) string {
	parts := make([]string, len(es))
	for i, a := range es {
		parts[i] = a.String()
	}
	return strings.Join(parts, ", ")
}

var operatorNames = map[string]string{
	"+": "+", "-": "-", "*": "*", "/": "/", "%": "MOD", "||": "||",
	"=": "=", "<>": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
	"LIKE": "LIKE", "IS DISTINCT FROM": "IS DISTINCT FROM", "IS NOT DISTINCT FROM": "IS NOT DISTINCT FROM",
}

func isOperator(name string) bool { _, ok := operatorNames[name]; return ok }

func operatorName(name string) string { return operatorNames[name] }

// Walk calls f on e and every sub-expression, depth first.
func Walk(e Expr, f func(Expr)) {
	f(e)
	switch x := e.(type) {
	case *Call:
		for _, a := range x.Args {
			Walk(a, f)
		}
	case *Cast:
		Walk(x.X, f)
	case *Logic:
		for _, a := range x.Args {
			Walk(a, f)
		}
	case *Not:
		Walk(x.X, f)
	case *IsNull:
		Walk(x.X, f)
	case *Case:
		for _, w := range x.Whens {
			Walk(w.Cond, f)
			Walk(w.Then, f)
		}
		if x.Else != nil {
			Walk(x.Else, f)
		}
	case *Coalesce:
		for _, a := range x.Args {
			Walk(a, f)
		}
	case *In:
		Walk(x.X, f)
		for _, a := range x.List {
			Walk(a, f)
		}
	}
}

// Remap returns a copy of e with every column index i replaced by m[i]
// (used when a projection moves columns).
func Remap(e Expr, m func(c *Column) Expr) Expr {
	switch x := e.(type) {
	case *Column:
		return m(x)
	case *Call:
		c := *x
		c.Args = remapAll(x.Args, m)
		return &c
	case *Cast:
		c := *x
		c.X = Remap(x.X, m)
		return &c
	case *Logic:
		return &Logic{Or: x.Or, Args: remapAll(x.Args, m)}
	case *Not:
		return &Not{X: Remap(x.X, m)}
	case *IsNull:
		return &IsNull{X: Remap(x.X, m), Neg: x.Neg}
	case *Case:
		c := &Case{T: x.T}
		for _, w := range x.Whens {
			c.Whens = append(c.Whens, When{Cond: Remap(w.Cond, m), Then: Remap(w.Then, m)})
		}
		if x.Else != nil {
			c.Else = Remap(x.Else, m)
		}
		return c
	case *Coalesce:
		return &Coalesce{Args: remapAll(x.Args, m), T: x.T}
	case *In:
		return &In{X: Remap(x.X, m), List: remapAll(x.List, m), Neg: x.Neg, Eq: x.Eq}
	}
	return e
}

func remapAll(es []Expr, m func(c *Column) Expr) []Expr {
	out := make([]Expr, len(es))
	for i, a := range es {
		out[i] = Remap(a, m)
	}
	return out
}
