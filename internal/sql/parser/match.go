package parser

import (
	"strconv"
	"strings"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// matchRecognize parses `MATCH_RECOGNIZE ( ... )` after the table
// reference in, the MATCH_RECOGNIZE keyword being the current token, with
// Calcite's grammar: PARTITION BY, ORDER BY, MEASURES, ONE ROW PER MATCH or
// ALL ROWS PER MATCH, AFTER MATCH SKIP, PATTERN, WITHIN, SUBSET and DEFINE,
// in that order.
func (p *parser) matchRecognize(in ast.TableRef) *ast.MatchRecognize {
	p.enter()
	defer p.leave()
	m := &ast.MatchRecognize{Pos: p.next().pos, Input: in}
	open := p.expectOp("(").pos
	if p.acceptKw("PARTITION") {
		p.expectKw("BY")
		m.PartitionBy = p.exprList()
	}
	if p.acceptKw("ORDER") {
		p.expectKw("BY")
		m.OrderBy = p.orderItems()
	}
	if p.acceptKw("MEASURES") {
		for {
			it := &ast.Measure{Pos: p.tok().pos, Expr: p.expr()}
			p.expectKw("AS")
			it.Alias = p.ident("an alias")
			m.Measures = append(m.Measures, it)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	switch {
	case p.acceptKw("ONE"):
		p.expectKw("ROW", "PER", "MATCH")
	case p.isKw("ALL"):
		pos := p.next().pos
		m.AllRows = &pos
		p.expectKw("ROWS", "PER", "MATCH")
		switch {
		case p.acceptKw("SHOW"), p.acceptKw("OMIT"):
			p.expectKw("EMPTY", "MATCHES")
		case p.acceptKw("WITH"):
			p.expectKw("UNMATCHED", "ROWS")
		}
	}
	if p.isKw("AFTER") {
		m.After = p.afterMatch()
	}
	p.expectKw("PATTERN")
	m.Pattern = p.rowPattern(m)
	if p.acceptKw("WITHIN") {
		m.Within = p.expr()
	}
	if p.acceptKw("SUBSET") {
		for {
			v := p.patternVar()
			m.Subsets = append(m.Subsets, v)
			p.expectOp("=")
			sub := p.expectOp("(").pos
			for {
				p.patternVar()
				if !p.acceptOp(",") {
					break
				}
			}
			p.closeParen(sub)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	p.expectKw("DEFINE")
	for {
		v := p.patternVar()
		p.expectKw("AS")
		m.Define = append(m.Define, &ast.PatternDefine{Pos: v.Pos, Var: v.Name, Cond: p.expr()})
		if !p.acceptOp(",") {
			break
		}
	}
	p.closeParen(open)
	m.Alias, m.ColumnAliases = p.tableAlias()
	return m
}

// afterMatch parses AFTER MATCH SKIP {PAST LAST ROW | TO NEXT ROW | TO
// FIRST var | TO LAST var | TO var}.
func (p *parser) afterMatch() *ast.AfterMatch {
	a := &ast.AfterMatch{Pos: p.tok().pos}
	p.expectKw("AFTER", "MATCH", "SKIP")
	switch {
	case p.acceptKw("PAST"):
		p.expectKw("LAST", "ROW")
		a.Kind = "PAST LAST ROW"
	case p.acceptKw("TO", "NEXT", "ROW"):
		a.Kind = "TO NEXT ROW"
	case p.acceptKw("TO", "FIRST"):
		a.Kind, a.Var = "TO FIRST", p.patternVar()
	case p.acceptKw("TO", "LAST"):
		a.Kind, a.Var = "TO LAST", p.patternVar()
	case p.acceptKw("TO"):
		a.Kind, a.Var = "TO LAST", p.patternVar()
	default:
		p.unexpected("PAST LAST ROW, TO NEXT ROW, TO FIRST, TO LAST or TO after AFTER MATCH SKIP")
	}
	return a
}

func (p *parser) patternVar() *ast.PatternVar {
	t := p.tok()
	return &ast.PatternVar{Pos: t.pos, Name: p.ident("a pattern variable")}
}

// rowPattern parses PATTERN's parenthesized pattern with its anchors.
func (p *parser) rowPattern(m *ast.MatchRecognize) ast.PatternTerm {
	open := p.expectOp("(").pos
	if p.isOp("^") {
		pos := p.next().pos
		m.StrictStart = &pos
	}
	alt := p.patternAlt()
	if p.isOp("$") {
		pos := p.next().pos
		m.StrictEnd = &pos
	}
	p.closeParen(open)
	if seq, ok := alt.(*ast.PatternSeq); ok && len(seq.Items) == 1 {
		return seq.Items[0]
	}
	return alt
}

// patternAlt parses terms separated by '|'.
func (p *parser) patternAlt() ast.PatternTerm {
	p.enter()
	defer p.leave()
	first := p.patternSeq()
	if !p.isOp("|") {
		return first
	}
	alt := &ast.PatternAlt{Pos: first.Position(), Items: []ast.PatternTerm{first}}
	for p.acceptOp("|") {
		alt.Items = append(alt.Items, p.patternSeq())
	}
	return alt
}

// patternSeq parses one or more factors in a row.
func (p *parser) patternSeq() ast.PatternTerm {
	seq := &ast.PatternSeq{Pos: p.tok().pos}
	for {
		t := p.tok()
		if isOp(t, ")") || isOp(t, "|") || isOp(t, "$") || isOp(t, ",") || isOp(t, "-") && isOp(p.peek(1), "}") || t.kind == tEOF {
			break
		}
		seq.Items = append(seq.Items, p.patternFactor())
	}
	if len(seq.Items) == 0 {
		p.unexpected("a pattern variable")
	}
	return seq
}

// patternFactor parses a primary and its quantifier, if any.
func (p *parser) patternFactor() ast.PatternTerm {
	t := p.tok()
	var x ast.PatternTerm
	switch {
	case isOp(t, "("):
		p.next()
		inner := p.patternAlt()
		p.closeParen(t.pos)
		if seq, ok := inner.(*ast.PatternSeq); ok {
			seq.Pos, seq.Paren = t.pos, true
		}
		x = inner
	case isOp(t, "{") && isOp(p.peek(1), "-"):
		p.next()
		p.next()
		inner := p.patternAlt()
		p.expectOp("-")
		p.expectOp("}")
		x = &ast.PatternExclude{Pos: t.pos, X: inner}
	case word(t) == "PERMUTE" && isOp(p.peek(1), "("):
		p.next()
		open := p.next().pos
		perm := &ast.PatternPermute{Pos: t.pos}
		for {
			perm.Items = append(perm.Items, p.patternAlt())
			if !p.acceptOp(",") {
				break
			}
		}
		p.closeParen(open)
		x = perm
	default:
		x = p.patternVar()
	}
	return p.quantifier(x)
}

// quantifier parses an optional quantifier after x: *, +, ?, {n}, {n,},
// {n,m} or {,m}, each optionally followed by '?' (reluctant).
func (p *parser) quantifier(x ast.PatternTerm) ast.PatternTerm {
	t := p.tok()
	q := &ast.PatternQuant{Pos: x.Position(), X: x}
	switch {
	case isOp(t, "*"):
		p.next()
		q.Min, q.Max, q.Text = 0, -1, "*"
	case isOp(t, "+"):
		p.next()
		q.Min, q.Max, q.Text = 1, -1, "+"
	case isOp(t, "?"):
		p.next()
		q.Min, q.Max, q.Text = 0, 1, "?"
	case isOp(t, "{") && !isOp(p.peek(1), "-"):
		p.next()
		comma := false
		q.Min, q.Max = 0, -1
		if !p.isOp(",") {
			q.Min = p.repeatCount()
			q.Max = q.Min
		}
		if p.acceptOp(",") {
			comma = true
			q.Max = -1
			if !p.isOp("}") {
				q.Max = p.repeatCount()
			}
		}
		p.expectOp("}")
		q.Text = quantText(q.Min, q.Max, !comma)
	default:
		return x
	}
	if p.acceptOp("?") {
		q.Reluctant = true
	}
	return q
}

// repeatCount parses the unsigned integer of a {n,m} quantifier.
func (p *parser) repeatCount() int {
	t := p.tok()
	if t.kind != tNumber || strings.ContainsAny(t.text, ".eE") {
		p.unexpected("an unsigned integer")
	}
	n, err := strconv.Atoi(t.text)
	if err != nil || n > 1<<30 {
		p.failAt(t.pos, "repetition count %s is too large", t.text)
	}
	p.next()
	return n
}

// quantText renders a {..} quantifier: {n} when exact, else {n,}, {n,m}
// or {,m}.
func quantText(lo, hi int, exact bool) string {
	switch {
	case exact:
		return "{" + strconv.Itoa(lo) + "}"
	case hi < 0:
		return "{" + strconv.Itoa(lo) + ",}"
	case lo == 0:
		return "{," + strconv.Itoa(hi) + "}"
	}
	return "{" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "}"
}

// FormatPattern renders a row pattern in canonical form.
func FormatPattern(t ast.PatternTerm) string {
	var f formatter
	f.pattern(t)
	return f.String()
}

func (f *formatter) pattern(t ast.PatternTerm) {
	switch t := t.(type) {
	case *ast.PatternVar:
		f.WriteString(quoteIdent(t.Name))
	case *ast.PatternSeq:
		if t.Paren {
			f.WriteString("(")
		}
		for i, it := range t.Items {
			if i > 0 {
				f.WriteString(" ")
			}
			f.pattern(it)
		}
		if t.Paren {
			f.WriteString(")")
		}
	case *ast.PatternAlt:
		f.WriteString("(")
		for i, it := range t.Items {
			if i > 0 {
				f.WriteString(" | ")
			}
			f.pattern(it)
		}
		f.WriteString(")")
	case *ast.PatternQuant:
		f.pattern(t.X)
		f.WriteString(t.Text)
		if t.Reluctant {
			f.WriteString("?")
		}
	case *ast.PatternPermute:
		f.WriteString("PERMUTE(")
		for i, it := range t.Items {
			if i > 0 {
				f.WriteString(", ")
			}
			f.pattern(it)
		}
		f.WriteString(")")
	case *ast.PatternExclude:
		f.WriteString("{- ")
		f.pattern(t.X)
		f.WriteString(" -}")
	}
}

// matchRecognize renders a MATCH_RECOGNIZE clause and its input.
func (f *formatter) matchRecognize(m *ast.MatchRecognize) {
	f.tableRef(m.Input)
	f.WriteString(" MATCH_RECOGNIZE (")
	if len(m.PartitionBy) > 0 {
		f.WriteString("PARTITION BY ")
		f.exprs(m.PartitionBy)
		f.WriteString(" ")
	}
	if len(m.OrderBy) > 0 {
		f.WriteString("ORDER BY ")
		f.orderItems(m.OrderBy)
		f.WriteString(" ")
	}
	if len(m.Measures) > 0 {
		f.WriteString("MEASURES ")
		for i, it := range m.Measures {
			if i > 0 {
				f.WriteString(", ")
			}
			f.expr(it.Expr)
			f.WriteString(" AS " + quoteIdent(it.Alias))
		}
		f.WriteString(" ")
	}
	if m.AllRows != nil {
		f.WriteString("ALL ROWS PER MATCH ")
	} else {
		f.WriteString("ONE ROW PER MATCH ")
	}
	if a := m.After; a != nil {
		f.WriteString("AFTER MATCH SKIP " + a.Kind)
		if a.Var != nil {
			f.WriteString(" " + quoteIdent(a.Var.Name))
		}
		f.WriteString(" ")
	}
	f.WriteString("PATTERN (")
	if m.StrictStart != nil {
		f.WriteString("^ ")
	}
	f.pattern(m.Pattern)
	if m.StrictEnd != nil {
		f.WriteString(" $")
	}
	f.WriteString(")")
	if m.Within != nil {
		f.WriteString(" WITHIN ")
		f.expr(m.Within)
	}
	f.WriteString(" DEFINE ")
	for i, d := range m.Define {
		if i > 0 {
			f.WriteString(", ")
		}
		f.WriteString(quoteIdent(d.Var) + " AS ")
		f.expr(d.Cond)
	}
	f.WriteString(")")
	f.alias(m.Alias, m.ColumnAliases)
}
