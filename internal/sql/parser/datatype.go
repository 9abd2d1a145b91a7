package parser

import (
	"fmt"
	"strconv"

	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// dataType parses a data type with an optional NOT NULL or NULL.
func (p *parser) dataType() types.Type {
	t := p.tok()
	name := word(t)
	if name == "" {
		p.unexpected("a data type")
	}
	p.next()
	var ty types.Type
	switch name {
	case "BOOLEAN":
		ty.Kind = types.Boolean
	case "TINYINT":
		ty.Kind = types.TinyInt
	case "SMALLINT":
		ty.Kind = types.SmallInt
	case "INT", "INTEGER":
		ty.Kind = types.Int
	case "BIGINT":
		ty.Kind = types.BigInt
	case "FLOAT", "REAL":
		ty.Kind = types.Float
	case "DOUBLE":
		p.acceptKw("PRECISION")
		ty.Kind = types.Double
	case "DECIMAL", "DEC", "NUMERIC":
		ty = types.DecimalType(10, 0)
		if p.isOp("(") {
			open := p.next().pos
			ty.Precision = p.intArgIn("DECIMAL precision", 1, 38)
			ty.Scale = 0
			if p.acceptOp(",") {
				ty.Scale = p.intArgIn("DECIMAL scale", 0, ty.Precision)
			}
			p.closeParen(open)
		}
	case "CHAR", "CHARACTER":
		if p.acceptKw("VARYING") {
			ty = types.Type{Kind: types.Varchar, Length: p.length("VARCHAR", types.MaxVarcharLength)}
		} else {
			ty = types.Type{Kind: types.Char, Length: p.length("CHAR", 1)}
		}
	case "VARCHAR":
		// Flink SQL reads VARCHAR without a length as STRING.
		ty = types.Type{Kind: types.Varchar, Length: p.length(name, types.MaxVarcharLength)}
	case "STRING":
		ty = types.StringType
	case "BINARY":
		ty = types.Type{Kind: types.Binary, Length: p.length(name, 1)}
	case "VARBINARY":
		ty = types.Type{Kind: types.Varbinary, Length: p.length(name, types.MaxVarcharLength)}
	case "BYTES":
		ty = types.Type{Kind: types.Varbinary, Length: types.MaxVarcharLength}
	case "DATE":
		ty.Kind = types.Date
	case "TIME":
		ty = types.Type{Kind: types.Time, Precision: p.precision(name, 0)}
		if p.acceptKw("WITHOUT") {
			p.expectKw("TIME", "ZONE")
		}
	case "TIMESTAMP":
		ty = types.TimestampType(p.precision(name, 6))
		switch {
		case p.acceptKw("WITHOUT"):
			p.expectKw("TIME", "ZONE")
		case p.isKw("WITH"):
			with := p.next()
			if !p.acceptKw("LOCAL") {
				p.expectKw("TIME", "ZONE")
				p.failAt(with.pos, "type TIMESTAMP WITH TIME ZONE is not supported; use TIMESTAMP WITH LOCAL TIME ZONE")
			}
			p.expectKw("TIME", "ZONE")
			ty.Kind = types.TimestampLTZ
		}
	case "TIMESTAMP_LTZ":
		ty = types.TimestampLTZType(p.precision(name, 6))
	case "INTERVAL":
		u, _, precision, _ := p.intervalUnit()
		to := u
		if p.acceptKw("TO") {
			to, _, _, _ = p.intervalUnit()
		}
		if u == ast.Year || u == ast.Month {
			if to != ast.Year && to != ast.Month {
				p.failAt(t.pos, "invalid interval qualifier %s TO %s", u, to)
			}
			ty.Kind = types.IntervalYearMonth
		} else {
			if precision > types.MaxDayTimeIntervalPrecision {
				p.failAt(t.pos, "DAY_INTERVAL_TYPES precision is not supported: %d", precision)
			}
			ty = types.Type{Kind: types.IntervalDayTime, Precision: 3}
		}
	case "ARRAY", "MULTISET":
		open := p.expectOp("<").pos
		elem := p.nestedType()
		p.closeAngle(open)
		if name == "ARRAY" {
			ty = types.ArrayOf(elem)
		} else {
			ty = types.MultisetOf(elem)
		}
	case "MAP":
		open := p.expectOp("<").pos
		k := p.nestedType()
		p.expectOp(",")
		v := p.nestedType()
		p.closeAngle(open)
		ty = types.MapOf(k, v)
	case "ROW":
		ty = p.rowType()
	case "VARIANT":
		ty = types.VariantType
	case "STRUCTURED":
		ty = p.structuredType()
	case "RAW":
		p.failAt(t.pos, "type %s is not supported yet", name)
	default:
		p.failAt(t.pos, "unknown data type '%s'", t.text)
	}
	// Flink's postfix forms: INT ARRAY, STRING MULTISET ARRAY.
	for {
		if p.acceptKw("ARRAY") {
			ty = types.ArrayOf(ty)
		} else if p.acceptKw("MULTISET") {
			ty = types.MultisetOf(ty)
		} else {
			break
		}
	}
	if p.acceptKw("NOT", "NULL") {
		ty.NotNull = true
	} else if word(p.peek(1)) != "ON" {
		// (NULL ON EMPTY after JSON_VALUE's RETURNING type is a clause.)
		p.acceptKw("NULL")
	}
	return ty
}

// nestedType parses the type of an element, key, value or field, within
// the parser's bound on nesting.
func (p *parser) nestedType() types.Type {
	p.enter()
	defer p.leave()
	return p.dataType()
}

// closeAngle consumes the '>' closing a type's '<' at open.
func (p *parser) closeAngle(open ast.Pos) {
	if !p.isOp(">") {
		p.unexpected(fmt.Sprintf("'>' to close the '<' at line %d, column %d", open.Line, open.Col))
	}
	p.next()
}

// rowType parses the fields of ROW<name type, ...> or ROW(name type, ...)
// (ROW<> and ROW() have none). Field names are unique, as Flink's RowType
// requires.
func (p *parser) rowType() types.Type {
	angle := p.isOp("<")
	var open ast.Pos
	switch {
	case p.isOp("<>"):
		p.next()
		return types.RowOf(nil)
	case angle || p.isOp("("):
		open = p.next().pos
	default:
		p.unexpected("'<' or '(' after ROW")
	}
	closed := func() bool { return angle && p.isOp(">") || !angle && p.isOp(")") }
	fields := p.fields(nil, closed)
	if angle {
		p.closeAngle(open)
	} else {
		p.closeParen(open)
	}
	return types.RowOf(fields)
}

// structuredType parses the class name and attributes of an inline
// structured type, STRUCTURED<'com.example.User', name type, ...>
// (Flink 2.1+). The class name must be a qualified Java name, as
// StructuredType checks.
func (p *parser) structuredType() types.Type {
	open := p.expectOp("<").pos
	at := p.tok().pos
	class := p.stringLit("the class name of a STRUCTURED type")
	if !types.ValidClassName(class) {
		p.failAt(at, "Invalid class name '%s'. The class name must comply with JVM identifier rules.", class)
	}
	var fields []types.Field
	if p.acceptOp(",") {
		fields = p.fields(fields, func() bool { return p.isOp(">") })
	}
	p.closeAngle(open)
	return types.StructuredOf(class, fields)
}

// fields parses the fields of a ROW or the attributes of a structured
// type up to closed, separated by commas, each name unique.
func (p *parser) fields(fields []types.Field, closed func() bool) []types.Field {
	for first := true; !closed(); first = false {
		if !first {
			p.expectOp(",")
		}
		at := p.tok().pos
		name := p.ident("a field name")
		for _, f := range fields {
			if f.Name == name {
				p.failAt(at, "Field names must be unique. Found duplicates: [%s]", name)
			}
		}
		ft := p.nestedType()
		if p.tok().kind == tString {
			p.failAt(p.tok().pos, "descriptions of ROW fields are not supported yet")
		}
		fields = append(fields, types.Field{Name: name, Type: ft})
	}
	return fields
}

// length parses the optional (n) of a string or binary type.
func (p *parser) length(typ string, def int) int {
	if !p.isOp("(") {
		return def
	}
	open := p.next().pos
	n := p.intArgIn(typ+" length", 1, types.MaxVarcharLength)
	p.closeParen(open)
	return n
}

// precision parses the optional (p) of a time or timestamp type.
func (p *parser) precision(typ string, def int) int {
	if !p.isOp("(") {
		return def
	}
	open := p.next().pos
	n := p.intArgIn(typ+" precision", 0, 9)
	p.closeParen(open)
	return n
}

// intArgIn parses an integer literal that must lie in [lo, hi].
func (p *parser) intArgIn(what string, lo, hi int) int {
	t := p.tok()
	n := p.intArg(what)
	if n < lo || n > hi {
		p.failAt(t.pos, "%s must be between %d and %d, found %s", what, lo, hi, t.text)
	}
	return n
}

// intArg parses a non-negative integer literal.
func (p *parser) intArg(what string) int {
	t := p.tok()
	if t.kind != tNumber {
		p.unexpected(what)
	}
	n, err := strconv.Atoi(t.text)
	if err != nil {
		p.failAt(t.pos, "%s must be an integer, found %s", what, t.text)
	}
	p.next()
	return n
}
