package planner

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// exprBinder binds scalar expressions over a scope. hook, when set, is
// consulted first for every node: it lets aggregation and window-function
// binding substitute already computed columns.
type exprBinder struct {
	b     *Binder
	sc    *scope
	hook  func(e ast.Expr) (expr.Expr, bool, error)
	where string // clause name for "not allowed here" errors
}

func (x *exprBinder) bind(e ast.Expr) (expr.Expr, error) {
	if err := x.b.cancelled(); err != nil {
		return nil, err
	}
	if x.hook != nil {
		if out, ok, err := x.hook(e); ok || err != nil {
			return out, err
		}
	}
	switch n := e.(type) {
	case *ast.Ident:
		i, err := x.sc.resolve(n)
		if err != nil {
			return x.fieldPath(n, err)
		}
		c := x.sc.cols[i]
		return &expr.Column{Index: i, Name: c.name, T: c.typ}, nil
	case *ast.Literal:
		return literal(n)
	case *ast.TypedLiteral:
		v, err := types.ParseValue(n.Type, n.Value, x.b.loc())
		if err != nil {
			return nil, errorf(n, "%v", err)
		}
		return &expr.Literal{V: v, T: n.Type.WithNotNull(true), Text: n.Type.Plain().String() + " '" + n.Value + "'"}, nil
	case *ast.IntervalLiteral:
		return interval(n)
	case *ast.Unary:
		in, err := x.bind(n.X)
		if err != nil {
			return nil, err
		}
		switch n.Op {
		case "NOT":
			if err := wantBoolean(n.X, in); err != nil {
				return nil, err
			}
			return &expr.Not{X: in}, nil
		case "+":
			return in, nil
		}
		return x.call(n, "NEG", []expr.Expr{in}, nil)
	case *ast.Binary:
		return x.binary(n)
	case *ast.Between:
		return x.between(n)
	case *ast.In:
		return x.in(n)
	case *ast.Quantified:
		r := x.b.rewriteQuantified(n)
		if _, in := r.(*ast.In); in {
			return nil, errorf(n, "%s %s with a subquery (IN) is supported as a condition of WHERE %s(joined to the others with AND), not inside other expressions", n.Op, n.Quantifier, x.innerJoinNote())
		}
		return x.bind(r)
	case *ast.Like:
		args := []ast.Expr{n.X, n.Pattern}
		if n.Escape != nil {
			args = append(args, n.Escape)
		}
		name := "LIKE"
		if n.Similar {
			name = "SIMILAR TO"
		}
		out, err := x.callAST(n, name, args)
		if err != nil || !n.Not {
			return out, err
		}
		return &expr.Not{X: out}, nil
	case *ast.IsPredicate:
		return x.isPredicate(n)
	case *ast.IsDistinctFrom:
		name := "IS DISTINCT FROM"
		if n.Not {
			name = "IS NOT DISTINCT FROM"
		}
		return x.callAST(n, name, []ast.Expr{n.L, n.R})
	case *ast.Case:
		return x.caseExpr(n)
	case *ast.Cast:
		in, err := x.bind(n.X)
		if err != nil {
			return nil, err
		}
		if in.Type().Kind != types.Null && !types.CanCast(in.Type(), n.Type) {
			return nil, errorf(n, "Cast function cannot convert value of type %s to type %s", in.Type().Plain(), n.Type)
		}
		t := n.Type.WithNotNull(in.Type().NotNull && !n.Try)
		if in.Type().Kind == types.Null {
			return &expr.Literal{V: types.NullValue, T: t.WithNotNull(false), Text: "null:" + t.String()}, nil
		}
		return &expr.Cast{X: in, T: t, Try: n.Try}, nil
	case *ast.FuncCall:
		return x.funcCall(n)
	case *ast.SubqueryExpr:
		if n.Exists {
			return nil, errorf(n, "EXISTS is supported as a condition of WHERE %s(joined to the others with AND), not inside other expressions", x.innerJoinNote())
		}
		for i, c := range x.sc.cols {
			if c.scalar == n {
				return &expr.Column{Index: i, Name: c.name, T: c.typ}, nil
			}
		}
		return nil, errorf(n, "scalar subqueries are supported in the select list, WHERE and HAVING of a query %s, not %s", x.innerJoinNote(), x.whereText())
	case *ast.RowExpr:
		return x.funcCall(&ast.FuncCall{Pos: n.Pos, Name: "$ROW", Args: n.Items})
	case *ast.Descriptor:
		return nil, errorf(n, "DESCRIPTOR is only allowed as an argument of a window table function")
	case *ast.TableArg:
		return nil, errorf(n, "TABLE arguments are only allowed in table functions")
	case *ast.TimeUnitExpr:
		return nil, errorf(n, "unexpected time unit %s", n.Unit)
	}
	return nil, errorf(e, "unsupported expression")
}

func wantBoolean(n ast.Node, e expr.Expr) error {
	if k := e.Type().Kind; k != types.Boolean && k != types.Null {
		return errorf(n, "expected a BOOLEAN expression, got %s", e.Type().Plain())
	}
	return nil
}

// literal types numbers the way Flink does: integers as INT (BIGINT when
// they do not fit), decimals as DECIMAL(p, s), exponents as DOUBLE; strings
// as CHAR(n) NOT NULL.
func literal(n *ast.Literal) (expr.Expr, error) {
	switch n.Kind {
	case ast.NullLit:
		return &expr.Literal{V: types.NullValue, T: types.NullType, Text: "null"}, nil
	case ast.BoolLit:
		b := strings.EqualFold(n.Text, "TRUE")
		return &expr.Literal{V: types.BoolValue(b), T: types.BooleanType.WithNotNull(true), Text: strings.ToLower(n.Text)}, nil
	case ast.StringLit:
		t := types.Type{Kind: types.Char, Length: max(1, len([]rune(n.Text))), NotNull: true}
		if n.Text == "" {
			t = types.Type{Kind: types.Char, Length: 0, NotNull: true}
		}
		return &expr.Literal{V: types.StringValue(n.Text), T: t, Text: parser.QuoteString(n.Text)}, nil
	case ast.BinaryLit:
		b, err := hexBytes(n.Text)
		if err != nil {
			return nil, errorf(n, "invalid binary literal: %v", err)
		}
		return &expr.Literal{V: types.StringValue(string(b)), T: types.Type{Kind: types.Binary, Length: len(b), NotNull: true}, Text: "X'" + n.Text + "'"}, nil
	}
	text := n.Text
	if strings.ContainsAny(text, "eE") {
		f, err := types.ParseFloat(text, 64)
		if err != nil {
			return nil, errorf(n, "invalid number %s", text)
		}
		return &expr.Literal{V: types.FloatValue(f), T: types.DoubleType.WithNotNull(true), Text: text}, nil
	}
	if !strings.Contains(text, ".") {
		i, err := strconv.ParseInt(text, 10, 64)
		if err == nil {
			t := types.IntType
			if i > math.MaxInt32 || i < math.MinInt32 {
				t = types.BigIntType
			}
			return &expr.Literal{V: types.IntValue(i), T: t.WithNotNull(true), Text: text}, nil
		}
		// An integer literal beyond BIGINT is a DECIMAL(p, 0), as in
		// Calcite's SqlLiteral.createExactNumeric.
	}
	intPart, frac, _ := strings.Cut(text, ".")
	intPart = strings.TrimLeft(intPart, "0")
	digits := intPart + frac
	p, s := max(len(strings.TrimLeft(digits, "0")), len(frac), 1), len(frac)
	if p < s {
		p = s
	}
	if p > types.MaxDecimalPrecision {
		return nil, errorf(n, "DECIMAL literal %s needs precision %d; the maximum precision is %d", text, p, types.MaxDecimalPrecision)
	}
	if strings.Trim(digits, "0123456789") != "" {
		return nil, errorf(n, "invalid number %s", text)
	}
	t := types.DecimalType(p, s).WithNotNull(true)
	return &expr.Literal{V: types.DecimalOf(t, types.DecimalDigits(strings.TrimLeft(digits, "0"))), T: t, Text: text}, nil
}

func hexBytes(s string) ([]byte, error) {
	if len(s)%2 != 0 {
		return nil, strconv.ErrSyntax
	}
	out := make([]byte, len(s)/2)
	for i := range out {
		v, err := strconv.ParseUint(s[2*i:2*i+2], 16, 8)
		if err != nil {
			return nil, err
		}
		out[i] = byte(v)
	}
	return out, nil
}

// unitMillis is the length of fixed time units in milliseconds.
var unitMillis = map[ast.TimeUnit]int64{
	ast.Day: 86400000, ast.Hour: 3600000, ast.Minute: 60000, ast.Second: 1000,
}

// secondaryMax is the largest value of an interval field after the first
// (SQL:2003 4.6.3, as Calcite's isSecondaryFieldInRange).
var secondaryMax = map[ast.TimeUnit]int64{ast.Month: 11, ast.Hour: 23, ast.Minute: 59, ast.Second: 59}

// interval evaluates an interval literal as Calcite's
// SqlIntervalQualifier.evaluateIntervalLiteral does: fields by the pattern
// of the qualifier ('y-m', 'd h:m:s.f', ...), the leading field within its
// precision (2 digits unless given, at most 10; a precision of 10 allows up
// to 2147483647), the others within their unit, up to the fractional second
// precision (6 unless given) of digits cut to milliseconds. Day-time
// intervals are milliseconds, year-month intervals months.
func interval(n *ast.IntervalLiteral) (expr.Expr, error) {
	qual := ast.IntervalQualifier(n)
	bad := errorf(n, "Illegal interval literal format '%s' for INTERVAL %s", n.Value, qual)
	sign := int64(1)
	val := strings.TrimSpace(n.Value)
	if strings.HasPrefix(val, "-") {
		sign, val = -1, val[1:]
	} else {
		val = strings.TrimPrefix(val, "+")
	}
	units := intervalFields(n.Unit, n.ToUnit)
	fraction := n.FracPrecision
	if fraction == 0 {
		fraction = 6
	}
	var fields []int64
	var millis int64
	rest := val
	for i, u := range units {
		if i > 0 {
			sep := ":"
			if u == ast.Month {
				sep = "-"
			} else if units[i-1] == ast.Day {
				sep = " "
			}
			if !strings.HasPrefix(rest, sep) {
				return nil, bad
			}
			rest = rest[1:]
		}
		digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
		if digits == 0 || i > 0 && digits > 2 {
			return nil, bad
		}
		text := rest[:digits]
		rest = rest[digits:]
		if i == 0 {
			v, ok := leadingField(text, n.Precision)
			if !ok {
				shown := strings.TrimLeft(text, "0")
				if sign < 0 {
					shown = "-" + shown
				}
				return nil, errorf(n, "Interval field value %s exceeds precision of %s(%d) field", shown, units[0], max(n.Precision, 2))
			}
			fields = append(fields, v)
			continue
		}
		v, _ := strconv.ParseInt(text, 10, 64)
		if v > secondaryMax[u] {
			return nil, bad
		}
		fields = append(fields, v)
	}
	if units[len(units)-1] == ast.Second && strings.HasPrefix(rest, ".") {
		f := rest[1:]
		digits := len(f) - len(strings.TrimLeft(f, "0123456789"))
		if digits == 0 || digits > fraction {
			return nil, bad
		}
		millis, _ = strconv.ParseInt((f[:digits] + "00")[:3], 10, 64)
		rest = f[digits:]
	}
	if rest != "" {
		return nil, bad
	}
	if n.Negative {
		sign = -sign
	}
	text := "INTERVAL '" + n.Value + "' " + qual
	if units[0] == ast.Year || units[0] == ast.Month {
		months := fields[0]
		if units[0] == ast.Year {
			months *= 12
			if len(fields) == 2 {
				months += fields[1]
			}
		}
		return &expr.Literal{V: types.IntValue(sign * months), T: types.Type{Kind: types.IntervalYearMonth, NotNull: true}, Text: text}, nil
	}
	if n.Precision > types.MaxDayTimeIntervalPrecision {
		return nil, errorf(n, "DAY_INTERVAL_TYPES precision is not supported: %d", n.Precision)
	}
	for i, u := range units {
		millis += fields[i] * unitMillis[u]
	}
	return &expr.Literal{V: types.IntValue(sign * millis), T: types.Type{Kind: types.IntervalDayTime, NotNull: true, Precision: 3}, Text: text}, nil
}

// intervalFields lists the fields of an interval qualifier, from its unit to
// its end unit.
func intervalFields(from, to ast.TimeUnit) []ast.TimeUnit {
	if to == "" {
		return []ast.TimeUnit{from}
	}
	order := []ast.TimeUnit{ast.Year, ast.Month, ast.Day, ast.Hour, ast.Minute, ast.Second}
	var out []ast.TimeUnit
	in := false
	for _, u := range order {
		in = in || u == from
		if in {
			out = append(out, u)
		}
		if u == to {
			break
		}
	}
	return out
}

// leadingField reads the digits of an interval's leading field, false when
// they exceed its precision (Calcite's isLeadFieldInRange: below
// 10^precision, or below 2^31 for a precision of 10).
func leadingField(digits string, precision int) (int64, bool) {
	if precision == 0 {
		precision = 2
	}
	digits = strings.TrimLeft(digits, "0")
	if len(digits) > 10 {
		return 0, false
	}
	v, _ := strconv.ParseInt("0"+digits, 10, 64)
	if precision >= 10 {
		return v, v <= math.MaxInt32
	}
	limit := int64(1)
	for range precision {
		limit *= 10
	}
	return v, v < limit
}

func (x *exprBinder) binary(n *ast.Binary) (expr.Expr, error) {
	if n.Op == "AND" || n.Op == "OR" {
		return x.logic(n)
	}
	return x.callAST(n, n.Op, []ast.Expr{n.L, n.R})
}

// logic binds a chain a AND b AND c ... (or OR) into one flat Logic. The
// chain is a left-deep tree; its operands are collected in a loop and
// bound in order, so that binding costs the chain's length rather than
// its length squared (flattening level by level copies the operands of
// every level). Operands are checked as nested binary operators would be:
// the first two once both are bound, the others as each is bound.
func (x *exprBinder) logic(n *ast.Binary) (expr.Expr, error) {
	var operands []ast.Expr
	var pre expr.Expr // the bound leftmost operand, when a hook bound it
	for e := ast.Expr(n); ; {
		b, ok := e.(*ast.Binary)
		if ok && b.Op == n.Op && e != ast.Expr(n) && x.hook != nil {
			out, hooked, err := x.hook(e)
			if err != nil {
				return nil, err
			}
			if hooked {
				operands, pre = append(operands, e), out
				break
			}
		}
		if !ok || b.Op != n.Op {
			operands = append(operands, e)
			break
		}
		operands = append(operands, b.R)
		e = b.L
	}
	slices.Reverse(operands)
	or := n.Op == "OR"
	out := &expr.Logic{Or: or}
	var first expr.Expr
	for i, o := range operands {
		a := pre
		if i > 0 || a == nil {
			var err error
			if a, err = x.bind(o); err != nil {
				return nil, err
			}
		}
		switch i {
		case 0:
			first = a
			continue
		case 1:
			if err := wantBoolean(operands[0], first); err != nil {
				return nil, err
			}
			out.Args = appendLogic(out.Args, first, or)
		}
		if err := wantBoolean(o, a); err != nil {
			return nil, err
		}
		out.Args = appendLogic(out.Args, a, or)
	}
	return out, nil
}

// appendLogic appends operand a of an AND (or OR) to args, flattening an
// operand that is itself an AND (OR).
func appendLogic(args []expr.Expr, a expr.Expr, or bool) []expr.Expr {
	if lg, ok := a.(*expr.Logic); ok && lg.Or == or {
		return append(args, lg.Args...)
	}
	return append(args, a)
}

func (x *exprBinder) between(n *ast.Between) (expr.Expr, error) {
	v, err := x.bind(n.X)
	if err != nil {
		return nil, err
	}
	lo, err := x.bind(n.Lo)
	if err != nil {
		return nil, err
	}
	hi, err := x.bind(n.Hi)
	if err != nil {
		return nil, err
	}
	ge, err := x.call(n, ">=", []expr.Expr{v, lo}, nil)
	if err != nil {
		return nil, err
	}
	le, err := x.call(n, "<=", []expr.Expr{v, hi}, nil)
	if err != nil {
		return nil, err
	}
	var out expr.Expr = &expr.Logic{Args: []expr.Expr{ge, le}}
	if n.Symmetric {
		ge2, _ := x.call(n, ">=", []expr.Expr{v, hi}, nil)
		le2, _ := x.call(n, "<=", []expr.Expr{v, lo}, nil)
		out = &expr.Logic{Or: true, Args: []expr.Expr{out, &expr.Logic{Args: []expr.Expr{ge2, le2}}}}
	}
	if n.Not {
		out = &expr.Not{X: out}
	}
	return out, nil
}

// innerJoinNote adds, in a join condition, where subqueries may be in
// one: the ON of an inner join.
func (x *exprBinder) innerJoinNote() string {
	if x.where != "a join condition" {
		return ""
	}
	return "or of the ON of an INNER JOIN "
}

func (x *exprBinder) in(n *ast.In) (expr.Expr, error) {
	if n.Subquery != nil {
		return nil, errorf(n, "IN with a subquery is supported as a condition of WHERE %s(joined to the others with AND), not inside other expressions", x.innerJoinNote())
	}
	v, err := x.bind(n.X)
	if err != nil {
		return nil, err
	}
	out := &expr.In{X: v, Neg: n.Not}
	for _, item := range n.List {
		it, err := x.bind(item)
		if err != nil {
			return nil, err
		}
		if _, err := expr.BindEquals(v.Type(), it.Type()); err != nil {
			return nil, errorf(item, "cannot compare %s with %s in IN list", v.Type().Plain(), it.Type().Plain())
		}
		out.List = append(out.List, it)
	}
	return out, nil
}

func (x *exprBinder) isPredicate(n *ast.IsPredicate) (expr.Expr, error) {
	v, err := x.bind(n.X)
	if err != nil {
		return nil, err
	}
	if n.What == "NULL" || n.What == "UNKNOWN" {
		return &expr.IsNull{X: v, Neg: n.Not}, nil
	}
	// Calls of their own, as Calcite's IS_TRUE, IS_NOT_TRUE, IS_FALSE and
	// IS_NOT_FALSE, which never return NULL.
	name := "IS " + n.What
	if n.Not {
		name = "IS NOT " + n.What
	}
	return x.call(n, name, []expr.Expr{v}, nil)
}

func falseLit() expr.Expr {
	return &expr.Literal{V: types.BoolValue(false), T: types.BooleanType.WithNotNull(true), Text: "false"}
}

// commonType finds the type all of es can be converted to, or an error at n.
func commonType(n ast.Node, what string, es ...expr.Expr) (types.Type, error) {
	var t types.Type
	first := true
	for _, e := range es {
		if e == nil {
			continue
		}
		if first {
			t, first = e.Type().Plain(), false
			continue
		}
		c, ok := types.CommonType(t, e.Type().Plain())
		if !ok {
			return t, errorf(n, "cannot find a common type for %s: %s and %s", what, t, e.Type().Plain())
		}
		t = c
	}
	if first {
		return types.NullType, nil
	}
	return t, nil
}

// coerce wraps e in a cast to t when its kind or parameters differ.
func coerce(e expr.Expr, t types.Type) expr.Expr {
	et := e.Type()
	if types.Equal(et.WithNotNull(t.NotNull), t) {
		return e
	}
	if et.Kind == types.Null {
		return &expr.Literal{V: types.NullValue, T: t.WithNotNull(false), Text: "null:" + t.String()}
	}
	return &expr.Cast{X: e, T: t.WithNotNull(et.NotNull && t.NotNull)}
}

func (x *exprBinder) caseExpr(n *ast.Case) (expr.Expr, error) {
	out := &expr.Case{}
	var operand expr.Expr
	if n.Operand != nil {
		var err error
		if operand, err = x.bind(n.Operand); err != nil {
			return nil, err
		}
	}
	results := []expr.Expr{}
	for _, w := range n.Whens {
		var cond expr.Expr
		var err error
		if operand != nil {
			// CASE x WHEN a, b THEN: x = a OR x = b
			var eqs []expr.Expr
			for _, value := range append([]ast.Expr{w.Cond}, w.More...) {
				v, err := x.bind(value)
				if err != nil {
					return nil, err
				}
				eq, err := x.call(value, "=", []expr.Expr{operand, v}, nil)
				if err != nil {
					return nil, err
				}
				eqs = append(eqs, eq)
			}
			cond = eqs[0]
			if len(eqs) > 1 {
				cond = &expr.Logic{Or: true, Args: eqs}
			}
		} else if cond, err = x.bind(w.Cond); err != nil {
			return nil, err
		} else if err := wantBoolean(w.Cond, cond); err != nil {
			return nil, err
		}
		then, err := x.bind(w.Result)
		if err != nil {
			return nil, err
		}
		out.Whens = append(out.Whens, expr.When{Cond: cond, Then: then})
		results = append(results, then)
	}
	if n.Else != nil {
		e, err := x.bind(n.Else)
		if err != nil {
			return nil, err
		}
		out.Else = e
		results = append(results, e)
	}
	t, err := commonType(n, "CASE branches", results...)
	if err != nil {
		return nil, err
	}
	notNull := n.Else != nil
	for _, r := range results {
		notNull = notNull && r.Type().NotNull
	}
	t = t.WithNotNull(notNull)
	for i := range out.Whens {
		out.Whens[i].Then = coerce(out.Whens[i].Then, t)
	}
	if out.Else != nil {
		out.Else = coerce(out.Else, t)
	}
	out.T = t
	return out, nil
}

// fieldPath binds a name that is no column as a ROW column followed by
// field names (r.f, t.r.f, r.f.g), the longest column name first; err is
// the column's resolution error, returned when no prefix is a ROW column.
func (x *exprBinder) fieldPath(n *ast.Ident, err error) (expr.Expr, error) {
	for k := len(n.Parts) - 1; k >= 1; k-- {
		i, e := x.sc.resolve(&ast.Ident{Pos: n.Pos, Parts: n.Parts[:k]})
		if e != nil || !x.sc.cols[i].typ.HasFields() {
			continue
		}
		c := x.sc.cols[i]
		var out expr.Expr = &expr.Column{Index: i, Name: c.name, T: c.typ}
		for _, f := range n.Parts[k:] {
			name, err := literal(&ast.Literal{Pos: n.Pos, Kind: ast.StringLit, Text: f})
			if err != nil {
				return nil, err
			}
			if out, err = x.call(n, "$DOT", []expr.Expr{out, name}, nil); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, err
}

func (x *exprBinder) funcCall(n *ast.FuncCall) (expr.Expr, error) {
	if n.Over != nil {
		return nil, errorf(n, "window function %s is only supported in the select list of a Top-N or deduplication query", n.Name)
	}
	switch n.Name {
	case "ROW_NUMBER", "RANK", "DENSE_RANK", "LEAD", "CUME_DIST", "PERCENT_RANK", "NTILE":
		return nil, errorf(n, "OVER clause is necessary for window functions")
	}
	if _, ok := fn.LookupAggregate(n.Name); ok {
		return nil, errorf(n, "aggregate function %s is not allowed %s", n.Name, x.whereText())
	}
	switch n.Name {
	case "MATCH_ROWTIME", "MATCH_PROCTIME", "CLASSIFIER":
		// Calcite's validator (functionMatchRecognizeOnly).
		return nil, errorf(n, "Function '%s' can only be used in MATCH_RECOGNIZE", parser.FormatExpr(n))
	}
	if isGroupingFunction(n.Name) {
		// An aggregation binds them (Binder.aggregate); here there is none,
		// or they are in a clause that is not computed from its results.
		if x.where == "the select list" || x.where == "HAVING" || x.where == "ORDER BY" {
			return nil, errorf(n, "%s operator may only occur in an aggregate query", n.Name)
		}
		return nil, errorf(n, "%s operator may only occur in SELECT, HAVING or ORDER BY clause", n.Name)
	}
	switch n.Name {
	case "CURRENT_CATALOG", "CURRENT_DATABASE":
		if len(n.Args) != 0 {
			break // the function's own signature error
		}
		// The session's current catalog or database when the statement is
		// planned (inside a view too, as Flink expands views), kept in
		// the plan as a constant.
		cat, db := x.b.sessionCurrent()
		v := map[string]string{"CURRENT_CATALOG": cat, "CURRENT_DATABASE": db}[n.Name]
		return &expr.Literal{V: types.StringValue(v), T: types.StringType.WithNotNull(true), Text: parser.QuoteString(v)}, nil
	case "CURRENT_WATERMARK":
		if len(n.Args) != 1 {
			return nil, errorf(n, "CURRENT_WATERMARK expects one rowtime attribute argument")
		}
		a, err := x.bind(n.Args[0])
		if err != nil {
			return nil, err
		}
		if a.Type().Attr != types.RowTime {
			return nil, errorf(n.Args[0], "CURRENT_WATERMARK expects a rowtime attribute, got %s", a.Type())
		}
		return &expr.CurrentWatermark{T: a.Type().Plain().Nullable()}, nil
	case "COALESCE":
		args, err := x.bindAll(n.Args)
		if err != nil {
			return nil, err
		}
		t, err := commonType(n, "COALESCE arguments", args...)
		if err != nil {
			return nil, err
		}
		notNull := false
		for _, a := range args {
			notNull = notNull || a.Type().NotNull
		}
		t = t.WithNotNull(notNull)
		for i := range args {
			args[i] = coerce(args[i], t)
		}
		return &expr.Coalesce{Args: args, T: t}, nil
	}
	args := make([]expr.Expr, 0, len(n.Args)+1)
	units := make([]string, 0, len(n.Args)+1)
	if n.TrimMode != "" || n.Name == "TRIM" {
		mode := n.TrimMode
		if mode == "" {
			mode = "BOTH"
		}
		args = append(args, nil)
		units = append(units, mode)
	}
	for _, a := range n.Args {
		if u, ok := a.(*ast.TimeUnitExpr); ok {
			args = append(args, nil)
			units = append(units, string(u.Unit))
			continue
		}
		e, err := x.bind(a)
		if err != nil {
			return nil, err
		}
		args = append(args, e)
		units = append(units, "")
	}
	return x.call(n, n.Name, args, units)
}

func (x *exprBinder) whereText() string {
	if x.where == "" {
		return "here"
	}
	return "in " + x.where
}

func (x *exprBinder) bindAll(es []ast.Expr) ([]expr.Expr, error) {
	out := make([]expr.Expr, len(es))
	for i, e := range es {
		b, err := x.bind(e)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

func (x *exprBinder) callAST(n ast.Node, name string, args []ast.Expr) (expr.Expr, error) {
	bound, err := x.bindAll(args)
	if err != nil {
		return nil, err
	}
	return x.call(n, name, bound, nil)
}

// call binds a built-in scalar; nil args with a units entry are bare units.
func (x *exprBinder) call(n ast.Node, name string, args []expr.Expr, units []string) (expr.Expr, error) {
	f, ok := fn.LookupScalar(name)
	if !ok {
		if fc, ok := n.(*ast.FuncCall); ok && fc.Written != "" {
			name = fc.Written // as Calcite names it, unquoted names keeping their case
		}
		return nil, errorf(n, "No match found for function signature %s(%s)", name, argFamilies(args, units))
	}
	fargs := make([]fn.Arg, len(args))
	for i, a := range args {
		if a == nil {
			fargs[i] = fn.Arg{Unit: units[i]}
			continue
		}
		fargs[i] = fn.Arg{Type: a.Type()}
		if lit, ok := a.(*expr.Literal); ok {
			v := lit.V
			fargs[i].Const = &v
		}
	}
	t, _, err := f.Bind(fargs)
	if err != nil {
		return nil, errorf(n, "%v", err)
	}
	for i, a := range args {
		if a == nil {
			args[i] = &expr.Literal{V: types.Value{}, T: types.NullType, Text: units[i]}
		}
	}
	call := &expr.Call{Name: f.Name, Args: args, T: t, Units: units}
	if !f.Dynamic && allLiterals(args) {
		return x.fold(call), nil
	}
	return call, nil
}

// argFamilies renders argument types the way Calcite names type families
// in "No match found for function signature" errors, e.g. <NUMERIC>.
func argFamilies(args []expr.Expr, units []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == nil {
			out[i] = units[i]
			continue
		}
		t := a.Type()
		switch {
		case t.IsNumeric():
			out[i] = "<NUMERIC>"
		case t.IsString():
			out[i] = "<CHARACTER>"
		case t.Kind == types.Boolean:
			out[i] = "<BOOLEAN>"
		case t.Kind == types.Binary || t.Kind == types.Varbinary:
			out[i] = "<BINARY>"
		case t.Kind == types.Date:
			out[i] = "<DATE>"
		case t.Kind == types.Time:
			out[i] = "<TIME>"
		case t.IsTimestamp():
			out[i] = "<TIMESTAMP>"
		case t.Kind == types.IntervalDayTime:
			out[i] = "<INTERVAL_DAY_TIME>"
		case t.Kind == types.IntervalYearMonth:
			out[i] = "<INTERVAL_YEAR_MONTH>"
		default:
			out[i] = "<NULL>"
		}
	}
	return strings.Join(out, ", ")
}

func allLiterals(args []expr.Expr) bool {
	for _, a := range args {
		if _, ok := a.(*expr.Literal); !ok {
			return false
		}
	}
	return true
}

// fold evaluates a call on constants at plan time in the session time zone
// (as Flink's planner reduces constant expressions); errors stay run-time
// errors.
func (x *exprBinder) fold(c *expr.Call) expr.Expr {
	ev, err := expr.Compile(c)
	if err != nil {
		return c
	}
	v, err := ev(&expr.Context{Fn: &fn.Context{Loc: x.b.loc()}}, nil)
	if err != nil {
		return c
	}
	return &expr.Literal{V: v, T: c.T, Folded: c}
}

// exprName is the column name Flink gives a select item without alias.
func exprName(e ast.Expr, i int) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Parts[len(id.Parts)-1]
	}
	return "EXPR$" + strconv.Itoa(i)
}

// sameExpr reports whether two expressions are written the same way: the
// same syntax tree, positions aside. It walks both trees together and
// stops at the first difference, so that matching every node of a long
// expression against a short GROUP BY expression costs the short one's
// size per node, not the node's (rendering both and comparing the text
// made that quadratic).
func sameExpr(a, b ast.Expr) bool { return sameTree(reflect.ValueOf(a), reflect.ValueOf(b)) }

// sameWindow reports whether two OVER specifications are written the same
// way, positions aside: partition expressions, order expressions and
// directions, and frames. The order of NULLs is not compared: OVER windows
// are ordered by a time attribute, which is never NULL.
func sameWindow(a, b *ast.WindowSpec) bool {
	return slices.EqualFunc(a.PartitionBy, b.PartitionBy, sameExpr) &&
		slices.EqualFunc(a.OrderBy, b.OrderBy, func(x, y *ast.OrderItem) bool { return x.Desc == y.Desc && sameExpr(x.Expr, y.Expr) }) &&
		sameTree(reflect.ValueOf(a.Frame), reflect.ValueOf(b.Frame))
}

var posType = reflect.TypeFor[ast.Pos]()

// sameTree compares two values of the syntax tree field by field, ignoring
// positions.
func sameTree(a, b reflect.Value) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Interface, reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameTree(a.Elem(), b.Elem())
	case reflect.Struct:
		if a.Type() == posType {
			return true
		}
		for i := range a.NumField() {
			if !sameTree(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameTree(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	}
	return a.Equal(b)
}
