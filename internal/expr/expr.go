// Package expr holds bound, typed expressions and compiles them into
// evaluators over rows (Compile) and, where every part has a column form,
// over whole chunks (CompileVector, vector.go). An expression is plain data (function names,
// arguments, literal values and types), so a plan holding it can be
// written out and read back; built-in functions come from package fn and
// are bound to their argument types when an expression is compiled. The
// constructs whose evaluation order matters (AND, OR, CASE, COALESCE, IN)
// are compiled here so that they short-circuit.
package expr

import (
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
	// Folded, when set, is the constant expression the planner evaluated
	// into this literal; the literal prints as that expression, rendered
	// only when printed (a fold per level of a deep expression would
	// otherwise render it at every level).
	Folded Expr
}

// Call applies a built-in scalar function (fn.LookupScalar) whose
// arguments were checked when it was bound: T is the result type that
// binding gave. Compile binds it again to get its evaluator.
type Call struct {
	Name string
	Args []Expr
	T    types.Type
	// Units holds the bare unit arguments (e.g. HOUR) by position, "" else;
	// their Args entries are NULL-typed literals that are never read.
	Units []string
}

// Cast converts X to T (TRY_CAST returns NULL instead of failing, except
// for a value outside the range Sluice stores: see types.RangeError).
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

// In is X [NOT] IN (List...), comparing X with each item by "=".
type In struct {
	X    Expr
	List []Expr
	Neg  bool
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
func (e *Column) String() string { return render(e) }

// String implements Expr.
func (e *Literal) String() string { return render(e) }

// String implements Expr.
func (e *Call) String() string { return render(e) }

// String implements Expr.
func (e *Cast) String() string { return render(e) }

// String implements Expr.
func (e *Logic) String() string { return render(e) }

// String implements Expr.
func (e *Not) String() string { return render(e) }

// String implements Expr.
func (e *IsNull) String() string { return render(e) }

// String implements Expr.
func (e *Case) String() string { return render(e) }

// String implements Expr.
func (e *Coalesce) String() string { return render(e) }

// String implements Expr.
func (e *In) String() string { return render(e) }

// String implements Expr.
func (e *CurrentWatermark) String() string { return render(e) }

// Infix renders e as Flink writes expressions in its execution plans
// (FlinkRexUtil.getExpressionString with ExpressionFormat.Infix): binary
// arithmetic, comparisons, AND and OR between their operands in
// parentheses, (a > 10), and the IS [NOT] NULL / TRUE / FALSE / UNKNOWN
// tests after their operand, a IS NULL; everything else as String writes
// it (String writes the prefix form of Flink's physical plans, >(a, 10)).
func Infix(e Expr) string {
	var b strings.Builder
	write(&b, e, true)
	return b.String()
}

// render renders e for EXPLAIN in one pass over the tree, so that a deep
// expression costs its size, not its size times its depth.
func render(e Expr) string {
	var b strings.Builder
	write(&b, e, false)
	return b.String()
}

// write appends the rendering of e to b, in the infix form of Infix or
// the prefix form of String.
func write(b *strings.Builder, e Expr, infix bool) {
	switch x := e.(type) {
	case *Column:
		b.WriteString(x.Name)
	case *Literal:
		if x.Folded != nil {
			write(b, x.Folded, infix)
		} else {
			b.WriteString(x.Text)
		}
	case *Call:
		if x.Name == fn.NotNullEnforcer && len(x.Args) == 2 {
			// Flink enforces a sink's NOT NULL columns inside the sink
			// (SinkNotNullEnforcer), out of the plans EXPLAIN prints.
			write(b, x.Args[0], infix)
			return
		}
		name := x.Name
		if name == fn.Dot && len(x.Args) == 2 {
			if lit, ok := x.Args[1].(*Literal); ok {
				write(b, x.Args[0], infix)
				b.WriteString("." + lit.V.S)
				return
			}
		}
		switch {
		case name == fn.ArrayCtor || name == fn.MapCtor || name == fn.RowCtor || name == fn.Item:
			// the internal names of value constructors and accesses
			name = name[1:]
		case len(x.Args) == 2 && isOperator(name):
			name = operatorName(name)
			if infix && infixOperators[name] {
				b.WriteByte('(')
				write(b, x.Args[0], infix)
				b.WriteString(" " + name + " ")
				write(b, x.Args[1], infix)
				b.WriteByte(')')
				return
			}
		case name == "NEG":
			name = "-"
		case infix && len(x.Args) == 1 && postfixTests[name]:
			write(b, x.Args[0], infix)
			b.WriteString(" " + name)
			return
		}
		b.WriteString(name)
		b.WriteByte('(')
		for i, a := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			if i < len(x.Units) && x.Units[i] != "" {
				b.WriteString(x.Units[i])
			} else {
				write(b, a, infix)
			}
		}
		b.WriteByte(')')
	case *Cast:
		if x.Try {
			b.WriteString("TRY_")
		}
		b.WriteString("CAST(")
		write(b, x.X, infix)
		b.WriteString(" AS " + x.T.Plain().String() + ")")
	case *Logic:
		op := "AND"
		if x.Or {
			op = "OR"
		}
		if !infix {
			b.WriteString(op + "(")
			writeList(b, x.Args, infix)
			b.WriteByte(')')
			return
		}
		b.WriteByte('(')
		for i, a := range x.Args {
			if i > 0 {
				b.WriteString(" " + op + " ")
			}
			write(b, a, infix)
		}
		b.WriteByte(')')
	case *Not:
		b.WriteString("NOT(")
		write(b, x.X, infix)
		b.WriteByte(')')
	case *IsNull:
		op := "IS NULL"
		if x.Neg {
			op = "IS NOT NULL"
		}
		if infix {
			write(b, x.X, infix)
			b.WriteString(" " + op)
			return
		}
		b.WriteString(op + "(")
		write(b, x.X, infix)
		b.WriteByte(')')
	case *Case:
		b.WriteString("CASE(")
		for i, w := range x.Whens {
			if i > 0 {
				b.WriteString(", ")
			}
			write(b, w.Cond, infix)
			b.WriteString(", ")
			write(b, w.Then, infix)
		}
		if x.Else != nil {
			b.WriteString(", ")
			write(b, x.Else, infix)
		}
		b.WriteByte(')')
	case *Coalesce:
		b.WriteString("COALESCE(")
		writeList(b, x.Args, infix)
		b.WriteByte(')')
	case *In:
		if x.Neg {
			b.WriteString("NOT(")
		}
		b.WriteString("IN(")
		write(b, x.X, infix)
		b.WriteString(", ")
		writeList(b, x.List, infix)
		b.WriteByte(')')
		if x.Neg {
			b.WriteByte(')')
		}
	case *CurrentWatermark:
		b.WriteString("CURRENT_WATERMARK()")
	default:
		b.WriteString(e.String())
	}
}

// writeList appends the renderings of es, separated by ", ".
func writeList(b *strings.Builder, es []Expr, infix bool) {
	for i, a := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		write(b, a, infix)
	}
}

var operatorNames = map[string]string{
	"+": "+", "-": "-", "*": "*", "/": "/", "%": "MOD", "||": "||",
	"=": "=", "<>": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
	"LIKE": "LIKE", "IS DISTINCT FROM": "IS DISTINCT FROM", "IS NOT DISTINCT FROM": "IS NOT DISTINCT FROM",
}

// infixOperators are the binary operators Infix writes between their
// operands: Calcite's TIMES, DIVIDE, PLUS, MINUS, comparisons (AND and OR
// are Logic).
var infixOperators = map[string]bool{
	"+": true, "-": true, "*": true, "/": true,
	"=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true,
}

// postfixTests are the tests Infix writes after their operand (IS NULL
// and IS NOT NULL are IsNull).
var postfixTests = map[string]bool{
	"IS TRUE": true, "IS NOT TRUE": true, "IS FALSE": true, "IS NOT FALSE": true, "IS UNKNOWN": true,
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
	return MapLeaves(e, func(x Expr) Expr {
		if c, ok := x.(*Column); ok {
			return m(c)
		}
		return x
	})
}

// MapLeaves returns a copy of e with every expression without operands
// (a column, a literal, ...) x replaced by m(x).
func MapLeaves(e Expr, m func(x Expr) Expr) Expr {
	switch x := e.(type) {
	case *Call:
		c := *x
		c.Args = remapAll(x.Args, m)
		return &c
	case *Cast:
		c := *x
		c.X = MapLeaves(x.X, m)
		return &c
	case *Logic:
		return &Logic{Or: x.Or, Args: remapAll(x.Args, m)}
	case *Not:
		return &Not{X: MapLeaves(x.X, m)}
	case *IsNull:
		return &IsNull{X: MapLeaves(x.X, m), Neg: x.Neg}
	case *Case:
		c := &Case{T: x.T}
		for _, w := range x.Whens {
			c.Whens = append(c.Whens, When{Cond: MapLeaves(w.Cond, m), Then: MapLeaves(w.Then, m)})
		}
		if x.Else != nil {
			c.Else = MapLeaves(x.Else, m)
		}
		return c
	case *Coalesce:
		return &Coalesce{Args: remapAll(x.Args, m), T: x.T}
	case *In:
		return &In{X: MapLeaves(x.X, m), List: remapAll(x.List, m), Neg: x.Neg}
	}
	return m(e)
}

func remapAll(es []Expr, m func(x Expr) Expr) []Expr {
	out := make([]Expr, len(es))
	for i, a := range es {
		out[i] = MapLeaves(a, m)
	}
	return out
}
