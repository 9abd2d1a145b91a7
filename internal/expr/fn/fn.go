// Package fn is the registry of Sluice's built-in scalar functions,
// operators and aggregate functions. Their semantics follow Flink SQL's
// "System (Built-in) Functions" (Flink 1.16–1.20) and, for edge cases, the
// behaviour of Flink's runtime (org.apache.flink.table.utils.DateTimeUtils,
// SqlFunctionUtils, DecimalDataUtils and the planner's code generator).
//
// A function is bound once per call site: Bind checks the argument types and
// returns the result type and an evaluator specialised to those types, so the
// per-row code does no type switching.
//
// Operators are registered under their SQL symbols ("+", "-", "*", "/", "%",
// "=", "<>", "<", "<=", ">", ">=", "||") and keywords ("AND", "OR", "NOT",
// "NEG" for unary minus, "LIKE", "SIMILAR TO", "IS DISTINCT FROM",
// "IS NOT DISTINCT FROM"). A few constructs are compiled by the caller rather
// than looked up here:
//
//   - x BETWEEN a AND b is x >= a AND x <= b (NOT BETWEEN is its negation;
//     SYMMETRIC orders a and b first);
//   - x IN (a, b, ...) is x = a OR x = b OR ... with three-valued logic;
//   - CASE, CAST and TRY_CAST (CAST uses types.Cast);
//   - CURRENT_WATERMARK, which reads operator state, is not a function here.
package fn

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// Arg describes one argument of a call at plan time.
type Arg struct {
	// Type is the argument's logical type; zero when Unit is set.
	Type types.Type
	// Const holds the value of a literal (or constant-folded) argument, nil
	// otherwise. Some functions require constants (e.g. the precision of
	// TO_TIMESTAMP_LTZ) or precompile them (formats, regular expressions).
	Const *types.Value
	// Unit is a time unit or keyword argument written bare, upper case:
	// "HOUR" in TIMESTAMPDIFF(HOUR, a, b), "DAY" in EXTRACT(DAY FROM x) and
	// FLOOR(x TO DAY), and TRIM's mode "BOTH", "LEADING" or "TRAILING" (passed
	// as TRIM's first argument).
	Unit string
}

// String renders the argument the way signature errors show it.
func (a Arg) String() string {
	if a.Unit != "" {
		return a.Unit
	}
	return a.Type.Plain().Nullable().String()
}

// Context is the per-query evaluation context.
type Context struct {
	// Loc is the session time zone (table.local-time-zone).
	Loc *time.Location
	// Now returns the current instant; CURRENT_TIMESTAMP and friends use it.
	Now func() time.Time
}

func (c *Context) loc() *time.Location {
	if c == nil || c.Loc == nil {
		return time.UTC
	}
	return c.Loc
}

func (c *Context) now() time.Time {
	if c == nil || c.Now == nil {
		return time.Now()
	}
	return c.Now()
}

// Eval evaluates one call on one row. It receives the argument values in
// argument order (a Unit argument is passed as a zero Value).
type Eval func(ctx *Context, args []types.Value) (types.Value, error)

// Scalar is a built-in scalar function or operator.
type Scalar struct {
	// Name is the canonical, upper-case name or operator symbol.
	Name string
	// Bind checks the arguments and returns the result type and an evaluator
	// specialised to them, or an error stating the expected signatures.
	Bind func(args []Arg) (types.Type, Eval, error)
	// Dynamic marks functions whose result is not determined by their
	// arguments (CURRENT_TIMESTAMP, RAND, UUID, ...): calls must not be
	// constant-folded.
	Dynamic bool
}

// Aggregate is a built-in aggregate function.
type Aggregate struct {
	// Name is the canonical, upper-case name.
	Name string
	// Bind checks the arguments (empty for COUNT(*)) and returns the result
	// type and a factory of fresh accumulators.
	Bind func(args []Arg, distinct bool) (types.Type, func() Accumulator, error)
	// BindAppendOnly, when set, is Bind for an input without retractions,
	// whose accumulators need not be able to undo a row (Flink's
	// MaxAggFunction rather than MaxWithRetractAggFunction). Its
	// accumulators' state must restore from Bind's and the reverse, since
	// a job's plan may change from one to the other.
	BindAppendOnly func(args []Arg, distinct bool) (types.Type, func() Accumulator, error)
	// OverOnly marks a window function that only an OVER window computes
	// (LAG), never a group aggregation.
	OverOnly bool
	// Unlisted leaves a function Flink does not list out of SHOW
	// FUNCTIONS (SINGLE_VALUE).
	Unlisted bool
}

// Accumulator is the running state of one aggregate for one group.
type Accumulator interface {
	// Add accumulates one input row (values in argument order).
	Add(args []types.Value)
	// Retract removes a row previously added; it fails for aggregates
	// that cannot retract.
	Retract(args []types.Value) error
	// Result returns the current aggregate value.
	Result() (types.Value, error)
	// MarshalState encodes the state deterministically.
	MarshalState() []byte
	// UnmarshalState replaces the state with one produced by MarshalState.
	UnmarshalState([]byte) error
}

// FlatAccumulator is an Accumulator whose state is a fixed number of
// bytes that it can also keep outside itself: an operator then keeps the
// states of all its groups in pointer-free memory (state.FlatTable), and
// one accumulator of the aggregate's factory serves them all through the
// Flat methods, which read and change the state s only. The state of
// all zero bytes is a fresh accumulator's.
type FlatAccumulator interface {
	Accumulator
	// FlatSize is the state's size in bytes.
	FlatSize() int
	// FlatAdd accumulates row i of the argument columns into s.
	FlatAdd(s []byte, args []*types.Vector, i int)
	// FlatRetract removes row i of the argument columns from s, as
	// Retract does.
	FlatRetract(s []byte, args []*types.Vector, i int) error
	// AppendFlatResults appends to dst the aggregate values of n states,
	// the i-th at states[i*stride:].
	AppendFlatResults(dst *types.Vector, states []byte, stride, n int) error
	// AppendFlatState appends the encoding of s that MarshalState gives
	// for the same state.
	AppendFlatState(b, s []byte) []byte
	// ReadFlatState sets s from an encoding of MarshalState, as
	// UnmarshalState does.
	ReadFlatState(s, b []byte) error
}

var (
	scalars    = map[string]*Scalar{}
	aggregates = map[string]*Aggregate{}
)

// LookupScalar finds a scalar function or operator by name, ignoring case.
func LookupScalar(name string) (*Scalar, bool) {
	s, ok := scalars[strings.ToUpper(name)]
	return s, ok
}

// LookupAggregate finds an aggregate function by name, ignoring case.
func LookupAggregate(name string) (*Aggregate, bool) {
	a, ok := aggregates[strings.ToUpper(name)]
	return a, ok
}

// Names returns the names of all registered functions (operators excluded),
// sorted, for SHOW FUNCTIONS.
func Names() []string {
	var out []string
	for n := range scalars {
		if isWordName(n) {
			out = append(out, n)
		}
	}
	for n, a := range aggregates {
		if !a.Unlisted {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func isWordName(n string) bool {
	for _, r := range n {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return n != "NEG" && n != "AND" && n != "OR" && n != "NOT" && n != "LIKE"
}

// bindFunc is the signature of Scalar.Bind.
type bindFunc = func(args []Arg) (types.Type, Eval, error)

// register adds a deterministic scalar under one or more names.
func register(bind bindFunc, names ...string) {
	for _, n := range names {
		scalars[n] = &Scalar{Name: n, Bind: refuseComposite(n, bind)}
	}
}

// registerDynamic adds a scalar whose result is not a function of its
// arguments.
func registerDynamic(bind bindFunc, names ...string) {
	for _, n := range names {
		scalars[n] = &Scalar{Name: n, Bind: refuseComposite(n, bind), Dynamic: true}
	}
}

// takesComposite names the functions and operators that take ARRAY,
// MULTISET, MAP and ROW arguments; every other one refuses them by name,
// so that no function reads a composite value as the string that holds
// its encoding.
var takesComposite = map[string]bool{
	"=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true, "IS DISTINCT FROM": true, "IS NOT DISTINCT FROM": true,
	"IF": true, "IFNULL": true, "TYPEOF": true,
	"JSON_QUERY": true, // its RETURNING ARRAY<STRING> carrier; it checks its arguments itself
}

// refuseComposite wraps the binding of function name so that composite
// arguments are refused, unless takesComposite lists it.
func refuseComposite(name string, bind bindFunc) bindFunc {
	if takesComposite[name] {
		return bind
	}
	return func(args []Arg) (types.Type, Eval, error) {
		if err := noComposite(name, args); err != nil {
			return types.Type{}, nil, err
		}
		return bind(args)
	}
}

func noComposite(name string, args []Arg) error {
	for _, a := range args {
		if a.Unit == "" && a.Type.IsComposite() {
			return fmt.Errorf("%s does not take arguments of type %s yet", name, a.Type.Plain().Nullable())
		}
	}
	return nil
}

func registerAgg(bind func([]Arg, bool) (types.Type, func() Accumulator, error), names ...string) {
	for _, n := range names {
		b := bind
		if n != "COUNT" && n != "ARRAY_AGG" {
			b = func(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
				if err := noComposite(n, args); err != nil {
					return types.Type{}, nil, err
				}
				return bind(args, distinct)
			}
		}
		aggregates[n] = &Aggregate{Name: n, Bind: b}
	}
}

// sigError reports a call whose arguments match none of the signatures.
func sigError(name, expects string, args []Arg) error {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.String()
	}
	return fmt.Errorf("%s expects %s; got (%s)", name, expects, strings.Join(parts, ", "))
}

// runtimeError names the function in an evaluation error.
func runtimeError(name string, format string, a ...any) error {
	return fmt.Errorf("%s: %s", name, fmt.Sprintf(format, a...))
}

// strict wraps e so that it returns NULL when any argument is NULL, which is
// the behaviour of almost every SQL function.
func strict(e Eval) Eval {
	return func(ctx *Context, args []types.Value) (types.Value, error) {
		for _, a := range args {
			if a.Null {
				return types.NullValue, nil
			}
		}
		return e(ctx, args)
	}
}

// anyNullable reports whether any typed argument may be NULL.
func anyNullable(args []Arg) bool {
	for _, a := range args {
		if a.Unit == "" && !a.Type.NotNull {
			return true
		}
	}
	return false
}

// strictType returns t made NOT NULL exactly when no argument is nullable:
// the result type of a strict function that never yields NULL otherwise.
func strictType(t types.Type, args []Arg) types.Type {
	return t.WithNotNull(!anyNullable(args))
}

// constString returns the value of a constant, non-NULL string argument.
func constString(a Arg) (string, bool) {
	if a.Const == nil || a.Const.Null || !a.Type.IsString() {
		return "", false
	}
	return a.Const.S, true
}

// constInt returns the value of a constant, non-NULL integer argument.
func constInt(a Arg) (int64, bool) {
	if a.Const == nil || a.Const.Null || !a.Type.IsInteger() {
		return 0, false
	}
	return a.Const.I, true
}
