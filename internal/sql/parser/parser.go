// Package parser turns Flink SQL text into the syntax tree of package ast.
//
// The lexer and the recursive-descent parser are hand written. Keywords are
// case-insensitive; unquoted identifiers keep their case, except function
// names, which are upper-cased so that built-ins can be looked up without
// regard to case. Identifiers may be quoted with backquotes (`my col`).
//
// Every node records the 1-based line and column where it starts, relative
// to the whole text handed to the parser. Syntax errors are *Error values
// that render with the offending source line and a caret; FormatError
// renders other positioned errors the same way.
package parser

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// ParseScript parses a script of statements separated by ';', split as by
// SplitStatements: a statement set (BEGIN STATEMENT SET; ...; END or EXECUTE
// STATEMENT SET BEGIN ...; END) is one statement. Positions are relative to
// the whole script. On a syntax error it returns the statements before the
// faulty one together with the error, so that a caller may run what
// precedes it.
func ParseScript(src string) ([]ast.Statement, error) {
	var stmts []ast.Statement
	for _, sp := range splitTokens(lex(src)) {
		s, err := parseSpan(src, sp.toks)
		if err != nil {
			return stmts, err
		}
		stmts = append(stmts, s)
	}
	return stmts, nil
}

// ParseStatement parses a single statement, optionally followed by ';'.
func ParseStatement(src string) (ast.Statement, error) {
	toks := lex(src)
	spans := splitTokens(toks)
	switch len(spans) {
	case 0:
		eof := toks[len(toks)-1]
		return nil, errorAt(src, eof.pos, "unexpected end of input, expected a statement")
	}
	s, err := parseSpan(src, spans[0].toks)
	if err != nil || len(spans) == 1 {
		return s, err
	}
	p := &parser{src: src, toks: spans[1].toks}
	return nil, p.catch(func() { p.unexpected("end of input") })
}

// ParseExpr parses a scalar expression.
func ParseExpr(src string) (ast.Expr, error) {
	p := &parser{src: src, toks: lex(src)}
	var e ast.Expr
	err := p.catch(func() {
		e = p.expr()
		p.expectEnd("end of input")
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// parseSpan parses the tokens of one statement.
func parseSpan(src string, toks []token) (ast.Statement, error) {
	last := toks[len(toks)-1]
	eof := token{kind: tEOF, pos: last.endPos, endPos: last.endPos, off: last.end, end: last.end}
	p := &parser{src: src, toks: append(toks[:len(toks):len(toks)], eof)}
	var s ast.Statement
	err := p.catch(func() {
		s = p.statement()
		p.expectEnd("';'")
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

func errorAt(src string, pos ast.Pos, msg string) *Error {
	return &Error{Pos: pos, Msg: msg, Line: sourceLine(src, pos.Line)}
}

// parser is a recursive-descent parser over the tokens of one statement.
// Syntax errors abort parsing by panicking with an *Error, which catch
// turns back into an error value.
type parser struct {
	src   string
	toks  []token // ends with tEOF
	i     int
	depth int // nesting of expressions, queries and table references
	// links counts the operators of the left-deep chains being parsed
	// (a + b + c, a OR b OR c, a UNION b UNION c, a JOIN b JOIN c): each
	// puts the operands before it one level deeper in the tree.
	links int

	// pending and pendingQuery hold an already parsed leading operand that
	// the next expression or query starts with; see parenthesized.
	pending      ast.Expr
	pendingQuery ast.Query
}

// maxDepth bounds the nesting of parenthesized expressions, subqueries
// and prefix operators, which keeps the recursion of the parser itself
// within reasonable limits.
const maxDepth = 500

// maxTreeDepth bounds the depth of the syntax tree, where each operator of
// a chain such as 1 + 1 + ... + 1 counts one level. The parser builds a
// chain in a loop, but binding, constant folding, EXPLAIN and evaluation
// walk the tree recursively, at up to about 1 kB of stack per level
// (measured: a 100,000-level chain needs between 64 and 128 MB). Go grows
// a goroutine's stack to 1 GB and then aborts the whole process, so the
// depth is refused here instead, with an error at the operator: 10,000
// levels keep those walks within about 10 MB.
const maxTreeDepth = 10000

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.failAt(p.tok().pos, "expression or query nested too deeply (more than %d levels)", maxDepth)
	}
	p.checkTreeDepth(p.tok().pos)
}

func (p *parser) leave() { p.depth-- }

// link counts one more operator, at pos, of a left-deep chain. The
// function parsing the chain restores the count when it returns (see
// restoreLinks).
func (p *parser) link(pos ast.Pos) {
	p.links++
	p.checkTreeDepth(pos)
}

// restoreLinks resets the count of chain operators to n, as it was before
// a chain began.
func (p *parser) restoreLinks(n int) { p.links = n }

func (p *parser) checkTreeDepth(pos ast.Pos) {
	if p.depth+p.links > maxTreeDepth {
		p.failAt(pos, "expression or query nested too deeply (more than %d levels; each operator of a chain such as a + b + c counts as one)", maxTreeDepth)
	}
}

// catch runs f and returns the syntax error it raised, if any.
func (p *parser) catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	f()
	return nil
}

// ---------------------------------------------------------------- tokens

func (p *parser) tok() token { return p.toks[p.i] }

// peek returns the token k places ahead of the current one.
func (p *parser) peek(k int) token {
	return p.toks[min(p.i+k, len(p.toks)-1)]
}

func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

// word returns the upper-cased text of t if it is an unquoted word, else "".
func word(t token) string {
	if t.kind != tIdent {
		return ""
	}
	return strings.ToUpper(t.text)
}

func (p *parser) isKw(kw string) bool { return word(p.tok()) == kw }

func isOp(t token, op string) bool { return t.kind == tOp && t.text == op }

func (p *parser) isOp(op string) bool { return isOp(p.tok(), op) }

// acceptKw consumes the words kws if the input continues with all of them.
func (p *parser) acceptKw(kws ...string) bool {
	for k, kw := range kws {
		if word(p.peek(k)) != kw {
			return false
		}
	}
	p.i += len(kws)
	return true
}

func (p *parser) expectKw(kws ...string) token {
	t := p.tok()
	for _, kw := range kws {
		if !p.isKw(kw) {
			p.unexpected(kw)
		}
		p.next()
	}
	return t
}

func (p *parser) acceptOp(op string) bool {
	if p.isOp(op) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expectOp(op string) token {
	if !p.isOp(op) {
		p.unexpected("'" + op + "'")
	}
	return p.next()
}

// closeParen consumes the ')' matching the '(' at open.
func (p *parser) closeParen(open ast.Pos) {
	if !p.isOp(")") {
		p.unexpected(fmt.Sprintf("')' to close '(' opened at line %d, column %d", open.Line, open.Col))
	}
	p.next()
}

func (p *parser) expectEnd(what string) {
	if p.tok().kind != tEOF {
		p.unexpected(what)
	}
}

// ---------------------------------------------------------------- errors

func (p *parser) failAt(pos ast.Pos, format string, args ...any) {
	panic(errorAt(p.src, pos, fmt.Sprintf(format, args...)))
}

// unexpected reports that the current token is not what was expected.
func (p *parser) unexpected(expected string) {
	t := p.tok()
	switch t.kind {
	case tEOF:
		p.failAt(t.pos, "unexpected end of input, expected %s", expected)
	case tIllegal:
		p.failAt(t.pos, "%s", t.text)
	}
	p.failAt(t.pos, "expected %s, found %s", expected, describe(t))
}

// describe renders a token for an error message.
func describe(t token) string {
	const max = 40
	text := t.text
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		text = text[:i] + "..."
	}
	if len(text) > max {
		text = text[:max] + "..."
	}
	switch t.kind {
	case tString:
		return "string '" + strings.ReplaceAll(text, "'", "''") + "'"
	case tBinary:
		return "binary literal X'" + text + "'"
	case tQuoted:
		return "'`" + strings.ReplaceAll(text, "`", "``") + "`'"
	}
	return "'" + text + "'"
}

// ---------------------------------------------------------------- names

// reserved words cannot be used as unquoted identifiers or implicit aliases.
var reserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`ALL AND ANY AS ASC BETWEEN BY CASE CAST
		CONSTRAINT CROSS CURRENT DESC DISTINCT ELSE END ESCAPE EXCEPT EXISTS
		FALSE FETCH FILTER FOR FROM FULL GROUP HAVING IN INNER INTERSECT
		INTERVAL INTO IS JOIN LATERAL LEFT LIKE LIMIT MATCH_RECOGNIZE MINUS
		NATURAL NOT NULL OFFSET ON OR ORDER OUTER OVER PARTITION RANGE RIGHT
		ROW ROWS SELECT SIMILAR SOME TABLE TABLESAMPLE THEN TRUE UNION UNKNOWN
		USING VALUES WHEN WHERE WINDOW WITH`) {
		reserved[w] = true
	}
}

// isName reports whether t can be used as an identifier.
func isName(t token) bool {
	return t.kind == tQuoted || t.kind == tIdent && !reserved[strings.ToUpper(t.text)]
}

// ident consumes an identifier; what describes it for error messages.
func (p *parser) ident(what string) string {
	if !isName(p.tok()) {
		p.unexpected(what)
	}
	return p.next().text
}

// objectName consumes a possibly qualified name such as cat.db.tbl.
func (p *parser) objectName(what string) ast.ObjectName {
	n := ast.ObjectName{Pos: p.tok().pos, Parts: []string{p.ident(what)}}
	for p.isOp(".") {
		p.next()
		n.Parts = append(n.Parts, p.ident("an identifier after '.'"))
	}
	return n
}

// identList consumes `(name, ...)`.
func (p *parser) identList(what string) []string {
	cols := p.columnNames(what)
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return names
}

// columnNames consumes a parenthesized list of names, keeping positions.
func (p *parser) columnNames(what string) []*ast.ColumnName {
	open := p.expectOp("(").pos
	var cols []*ast.ColumnName
	for {
		cols = append(cols, &ast.ColumnName{Pos: p.tok().pos, Name: p.ident(what)})
		if !p.acceptOp(",") {
			break
		}
	}
	p.closeParen(open)
	return cols
}

func (p *parser) stringLit(what string) string {
	if p.tok().kind != tString {
		p.unexpected(what)
	}
	return p.next().text
}

// ---------------------------------------------------------------- statements

func (p *parser) statement() ast.Statement {
	t := p.tok()
	switch word(t) {
	case "SELECT", "WITH", "VALUES":
		return &ast.QueryStatement{Pos: t.pos, Query: p.query()}
	case "CREATE":
		return p.create()
	case "DROP":
		return p.drop()
	case "ALTER":
		return p.alter()
	case "INSERT":
		return p.insert()
	case "EXPLAIN":
		p.next()
		e := &ast.Explain{Pos: t.pos}
		if !p.acceptKw("PLAN", "FOR") {
			e.Details = p.explainDetails()
		}
		if p.isKw("STATEMENT") {
			e.Statement = p.statementSet(p.expectKw("STATEMENT", "SET", "BEGIN").pos)
			return e
		}
		// Flink's SqlRichExplain takes a statement set, a query or an
		// INSERT; anything else fails to parse at its first word.
		at := p.tok()
		e.Statement = p.statement()
		switch e.Statement.(type) {
		case *ast.QueryStatement, *ast.Insert:
		default:
			p.failAt(at.pos, "EXPLAIN takes a query, an INSERT or a statement set, not %s", describe(at))
		}
		return e
	case "COMPILE":
		return p.compilePlan()
	case "SET":
		return p.set()
	case "RESET":
		return p.reset()
	case "SHOW":
		return p.show()
	case "USE":
		return p.use()
	case "DESCRIBE", "DESC":
		p.next()
		if p.acceptKw("CATALOG") {
			d := &ast.DescribeCatalog{Pos: t.pos, Extended: p.acceptKw("EXTENDED")}
			d.Name = p.ident("a catalog name")
			return d
		}
		// DESCRIBE JOB 'id'; DESCRIBE job still describes a table job.
		if p.isKw("JOB") && p.peek(1).kind == tString {
			p.next()
			return &ast.DescribeJob{Pos: t.pos, IDPos: p.tok().pos, ID: p.stringLit("a job ID string")}
		}
		return &ast.Describe{Pos: t.pos, Name: p.objectName("a table name")}
	case "STOP":
		p.next()
		p.expectKw("JOB")
		st := &ast.StopJob{Pos: t.pos, ID: p.stringLit("a job ID string")}
		for p.isKw("WITH") {
			p.next()
			switch {
			case p.isKw("SAVEPOINT") && st.WithSavepoint, p.isKw("DRAIN") && st.WithDrain:
				p.failAt(p.tok().pos, "WITH %s is given twice", word(p.tok()))
			case p.isKw("SAVEPOINT"):
				st.WithSavepoint = true
			case p.isKw("DRAIN"):
				st.WithDrain, st.DrainPos = true, p.tok().pos
			default:
				p.unexpected("SAVEPOINT or DRAIN")
			}
			p.next()
		}
		return st
	case "EXECUTE":
		p.next()
		if p.isKw("INSERT") {
			return p.insert()
		}
		if p.acceptKw("PLAN") {
			return &ast.ExecutePlan{Pos: t.pos, Path: p.stringLit("a plan file path string")}
		}
		p.expectKw("STATEMENT", "SET", "BEGIN")
		return p.statementSet(t.pos)
	case "BEGIN":
		p.next()
		p.expectKw("STATEMENT", "SET")
		return &ast.BeginStatementSet{Pos: t.pos}
	case "END":
		p.next()
		return &ast.EndStatementSet{Pos: t.pos}
	}
	if isOp(t, "(") {
		return &ast.QueryStatement{Pos: t.pos, Query: p.query()}
	}
	if why, ok := unsupportedStatements[word(t)]; ok {
		p.failAt(t.pos, "%s is not supported: %s", why[0], why[1])
	}
	p.unexpected("a statement")
	return nil
}

// unsupportedStatements are the statements of Flink's SQL client that
// Sluice refuses, by their first word: what they are and why.
var unsupportedStatements = map[string][2]string{
	"ADD":      {"ADD JAR", "Sluice runs no user code from JARs"},
	"REMOVE":   {"REMOVE JAR", "Sluice runs no user code from JARs"},
	"LOAD":     {"LOAD MODULE", "Sluice has only the functions of Flink's core module"},
	"UNLOAD":   {"UNLOAD MODULE", "Sluice has only the functions of Flink's core module"},
	"DELETE":   {"DELETE", "tables over Kafka topics take no row-level DELETE (Flink runs it in batch mode on connectors that support it)"},
	"UPDATE":   {"UPDATE", "tables over Kafka topics take no row-level UPDATE (Flink runs it in batch mode on connectors that support it)"},
	"TRUNCATE": {"TRUNCATE TABLE", "tables over Kafka topics cannot be truncated"},
	"CALL":     {"CALL", "Sluice has no stored procedures"},
	"ANALYZE":  {"ANALYZE TABLE", "Sluice plans without table statistics"},
}

// explainDetails parses the ExplainDetails after EXPLAIN, a
// comma-separated list (Flink's ParseExplainDetail): CHANGELOG_MODE and
// JSON_EXECUTION_PLAN; ESTIMATED_COST and PLAN_ADVICE, which need a cost
// model and an advisor Sluice does not have, are refused.
func (p *parser) explainDetails() []string {
	var details []string
	for {
		t := p.tok()
		d := word(t)
		switch d {
		case "CHANGELOG_MODE", "JSON_EXECUTION_PLAN":
		case "ESTIMATED_COST", "PLAN_ADVICE":
			p.failAt(t.pos, "EXPLAIN %s is not supported yet", d)
		default:
			if len(details) > 0 {
				p.unexpected("an EXPLAIN detail (CHANGELOG_MODE or JSON_EXECUTION_PLAN)")
			}
			return nil
		}
		if slices.Contains(details, d) {
			p.failAt(t.pos, "Duplicate EXPLAIN DETAIL is not allowed.")
		}
		p.next()
		details = append(details, d)
		if !p.acceptOp(",") {
			return details
		}
	}
}

// compilePlan parses COMPILE [AND EXECUTE] PLAN 'path' [IF NOT EXISTS] FOR
// an INSERT or a statement set (after Flink's SqlCompilePlan and
// SqlCompileAndExecutePlan; IF NOT EXISTS follows the path and only
// COMPILE PLAN takes it). A query after FOR is parsed for the engine to
// refuse.
func (p *parser) compilePlan() ast.Statement {
	c := &ast.CompilePlan{Pos: p.next().pos}
	c.Execute = p.acceptKw("AND", "EXECUTE")
	p.expectKw("PLAN")
	c.Path = p.stringLit("a plan file path string")
	if !c.Execute {
		c.IfNotExists = p.acceptKw("IF", "NOT", "EXISTS")
	}
	p.expectKw("FOR")
	t := p.tok()
	switch word(t) {
	case "INSERT":
		c.Statement = p.insert()
	case "EXECUTE", "STATEMENT":
		p.acceptKw("EXECUTE")
		c.Statement = p.statementSet(p.expectKw("STATEMENT", "SET", "BEGIN").pos)
	case "SELECT", "WITH", "VALUES":
		c.Statement = &ast.QueryStatement{Pos: t.pos, Query: p.query()}
	default:
		if !isOp(t, "(") {
			p.unexpected("INSERT or STATEMENT SET")
		}
		c.Statement = &ast.QueryStatement{Pos: t.pos, Query: p.query()}
	}
	return c
}

// statementSet parses the INSERTs of a statement set up to its END: one
// or more, each ending with ';' (Flink's SqlStatementSet).
func (p *parser) statementSet(pos ast.Pos) *ast.StatementSet {
	set := &ast.StatementSet{Pos: pos}
	for len(set.Inserts) == 0 || !p.isKw("END") {
		if !p.isKw("INSERT") {
			if len(set.Inserts) == 0 {
				p.unexpected("INSERT")
			}
			p.unexpected("INSERT or END")
		}
		set.Inserts = append(set.Inserts, p.insert())
		p.expectOp(";")
	}
	p.next()
	return set
}

func (p *parser) create() ast.Statement {
	pos := p.next().pos
	temporary := p.acceptKw("TEMPORARY")
	if t := p.tok(); temporary && (word(t) == "CATALOG" || word(t) == "DATABASE") {
		p.failAt(t.pos, "expected TABLE or VIEW after CREATE TEMPORARY, found %s: catalogs and databases are not temporary", describe(t))
	}
	p.refuseMaterialized("CREATE")
	switch {
	case p.acceptKw("CATALOG"):
		c := &ast.CreateCatalog{Pos: pos}
		c.IfNotExists = p.acceptKw("IF", "NOT", "EXISTS")
		c.Name = p.ident("a catalog name")
		if p.acceptKw("COMMENT") {
			c.Comment = p.stringLit("a comment string")
		}
		p.expectKw("WITH")
		c.Options = p.options()
		return c
	case p.acceptKw("DATABASE"):
		d := &ast.CreateDatabase{Pos: pos}
		d.IfNotExists = p.acceptKw("IF", "NOT", "EXISTS")
		d.Name = p.databaseName()
		if p.acceptKw("COMMENT") {
			d.Comment = p.stringLit("a comment string")
		}
		if p.acceptKw("WITH") {
			d.Options = p.options()
		}
		return d
	case p.isKw("FUNCTION") || p.isKw("SYSTEM"):
		p.failAt(p.tok().pos, "CREATE FUNCTION is not supported: Sluice runs no user-defined functions (JARs or Python)")
	case p.acceptKw("TABLE"):
		return p.createTable(pos, temporary)
	case p.acceptKw("VIEW"):
		v := &ast.CreateView{Pos: pos, Temporary: temporary}
		v.IfNotExists = p.acceptKw("IF", "NOT", "EXISTS")
		v.Name = p.objectName("a view name")
		if p.isOp("(") {
			v.Columns = p.identList("a column name")
		}
		if p.acceptKw("COMMENT") {
			p.stringLit("a comment string")
		}
		p.expectKw("AS")
		v.Query = p.query()
		return v
	}
	p.unexpected("TABLE, VIEW, CATALOG or DATABASE")
	return nil
}

// noPartitions says why the statements about a table's partitions are
// refused.
const noPartitions = "tables over Kafka topics have no partitions in Flink's sense (those of the filesystem and Hive connectors)"

// noMaterializedTables says why the statements about materialized tables
// are refused.
const noMaterializedTables = "Sluice has no materialized tables (Flink's SQL Gateway refreshes them by jobs or workflows it schedules); use CREATE TABLE ... AS SELECT or INSERT INTO"

// refuseMaterialized refuses a statement about a MATERIALIZED TABLE, the
// words before it being verb.
func (p *parser) refuseMaterialized(verb string) {
	if t := p.tok(); word(t) == "MATERIALIZED" {
		p.failAt(t.pos, "%s MATERIALIZED TABLE is not supported: %s", verb, noMaterializedTables)
	}
}

// databaseName consumes [catalog.]database.
func (p *parser) databaseName() ast.ObjectName {
	n := p.objectName("a database name")
	if len(n.Parts) > 2 {
		p.failAt(n.Pos, "'%s' is not a valid database identifier: it has at most two parts, catalog.database", strings.Join(n.Parts, "."))
	}
	return n
}

// use parses USE CATALOG name and USE [catalog.]database.
func (p *parser) use() ast.Statement {
	pos := p.next().pos
	if t := p.tok(); word(t) == "MODULES" {
		p.failAt(t.pos, "USE MODULES is not supported")
	}
	if p.acceptKw("CATALOG") {
		return &ast.UseCatalog{Pos: pos, Name: p.ident("a catalog name")}
	}
	return &ast.Use{Pos: pos, Name: p.databaseName()}
}

func (p *parser) createTable(pos ast.Pos, temporary bool) *ast.CreateTable {
	ct := &ast.CreateTable{Pos: pos, Temporary: temporary}
	ct.IfNotExists = p.acceptKw("IF", "NOT", "EXISTS")
	ct.Name = p.objectName("a table name")
	if p.isOp("(") {
		open := p.next().pos
		for {
			p.tableElement(ct)
			if !p.acceptOp(",") {
				break
			}
		}
		p.closeParen(open)
	}
	if p.acceptKw("COMMENT") {
		ct.Comment = p.stringLit("a comment string")
	}
	if t := p.tok(); word(t) == "PARTITIONED" {
		p.failAt(t.pos, "PARTITIONED BY is not supported: %s", noPartitions)
	}
	if p.acceptKw("WITH") {
		ct.Options = p.options()
	}
	if t := p.tok(); word(t) == "LIKE" {
		p.next()
		ct.Like = &ast.LikeClause{Pos: t.pos, Source: p.objectName("a table name")}
		if p.isOp("(") {
			open := p.next().pos
			for !p.isOp(")") && p.tok().kind != tEOF {
				strategy := word(p.tok())
				if strategy != "INCLUDING" && strategy != "EXCLUDING" && strategy != "OVERWRITING" {
					p.unexpected("INCLUDING, EXCLUDING or OVERWRITING")
				}
				p.next()
				feature := word(p.tok())
				switch feature {
				case "ALL", "CONSTRAINTS", "GENERATED", "METADATA", "OPTIONS", "PARTITIONS", "WATERMARKS":
				default:
					p.unexpected("ALL, CONSTRAINTS, GENERATED, METADATA, OPTIONS, PARTITIONS or WATERMARKS")
				}
				p.next()
				ct.Like.Options = append(ct.Like.Options, ast.LikeOption{Strategy: strategy, Feature: feature})
			}
			p.closeParen(open)
		}
	}
	if p.acceptKw("AS") {
		ct.AsQuery = p.query()
	}
	return ct
}

// tableElement parses a column, a PRIMARY KEY constraint or a watermark.
func (p *parser) tableElement(ct *ast.CreateTable) {
	t := p.tok()
	switch {
	case word(t) == "CONSTRAINT" || word(t) == "PRIMARY" && word(p.peek(1)) == "KEY":
		p.primaryKey(ct, nil)
		return
	case word(t) == "WATERMARK" && word(p.peek(1)) == "FOR":
		if ct.Watermark != nil {
			p.failAt(t.pos, "a table can have only one WATERMARK")
		}
		p.next()
		p.next()
		wm := &ast.WatermarkDef{Pos: t.pos, Column: p.ident("a column name")}
		p.expectKw("AS")
		wm.Expr = p.expr()
		ct.Watermark = wm
		return
	}
	col := &ast.ColumnDef{Pos: t.pos, Name: p.ident("a column name, PRIMARY KEY or WATERMARK")}
	ct.Columns = append(ct.Columns, col)
	if p.acceptKw("AS") {
		col.Computed = p.expr()
	} else {
		col.Type = p.dataType()
	}
	for {
		switch {
		case col.Computed == nil && p.acceptKw("METADATA"):
			col.Metadata = true
			if p.acceptKw("FROM") {
				col.MetadataKey = p.stringLit("a metadata key string")
			}
			col.Virtual = p.acceptKw("VIRTUAL")
		case p.isKw("CONSTRAINT") || p.isKw("PRIMARY"):
			p.primaryKey(ct, col)
		case p.acceptKw("COMMENT"):
			col.Comment = p.stringLit("a comment string")
		default:
			return
		}
	}
}

// primaryKey parses [CONSTRAINT name] PRIMARY KEY [(cols)] [NOT ENFORCED];
// the column list is absent when the key is declared inline on col.
func (p *parser) primaryKey(ct *ast.CreateTable, col *ast.ColumnDef) {
	pos := p.tok().pos
	name := ""
	if p.acceptKw("CONSTRAINT") {
		name = p.ident("a constraint name")
	}
	p.expectKw("PRIMARY", "KEY")
	if ct.PrimaryKey != nil {
		p.failAt(pos, "a table can have only one PRIMARY KEY")
	}
	ct.PKName = name
	if col != nil {
		ct.PrimaryKey = []string{col.Name}
	} else {
		ct.PrimaryKey = p.identList("a column name")
	}
	ct.PKPos = pos
	ct.PKEnforced = !p.acceptKw("NOT", "ENFORCED")
	if ct.PKEnforced {
		p.acceptKw("ENFORCED")
	}
}

// options parses ('key' = 'value', ...). A key given again with another
// value is an error at its second place: Flink takes the last value, which
// silently drops the first one given.
func (p *parser) options() []*ast.Option {
	open := p.expectOp("(").pos
	var opts []*ast.Option
	// first is each key's first place, so that a long list is checked in
	// linear time.
	first := map[string]*ast.Option{}
	for !p.isOp(")") {
		o := &ast.Option{Pos: p.tok().pos, Key: p.stringLit("an option key string")}
		p.expectOp("=")
		o.Value = p.stringLit("an option value string")
		if prev, ok := first[o.Key]; !ok {
			first[o.Key] = o
		} else if prev.Value != o.Value {
			p.failAt(o.Pos, "option '%s' is given twice, as '%s' (line %d, column %d) and as '%s'",
				o.Key, prev.Value, prev.Line, prev.Col, o.Value)
		}
		opts = append(opts, o)
		if !p.acceptOp(",") {
			break
		}
	}
	p.closeParen(open)
	return opts
}

// alter parses ALTER TABLE [IF EXISTS] name RENAME TO new | SET (options)
// | RESET ('key', ...) | ADD ... | MODIFY ... | DROP ... | RENAME column TO
// new.
func (p *parser) alter() ast.Statement {
	pos := p.next().pos
	p.refuseMaterialized("ALTER")
	if p.acceptKw("CATALOG") {
		return p.alterCatalog(pos)
	}
	if p.acceptKw("DATABASE") {
		d := &ast.AlterDatabase{Pos: pos, Name: p.databaseName()}
		p.expectKw("SET")
		d.Set = p.options()
		return d
	}
	if p.isKw("FUNCTION") || p.isKw("TEMPORARY") && word(p.peek(1)) == "FUNCTION" {
		p.failAt(pos, "ALTER FUNCTION is not supported: Sluice has no user-defined functions")
	}
	if p.isKw("VIEW") {
		// Flink's ALTER VIEW v RENAME TO v2 and ALTER VIEW v AS query.
		p.failAt(p.tok().pos, "ALTER VIEW is not supported yet: DROP VIEW and CREATE VIEW it again")
	}
	a := &ast.AlterTable{Pos: pos}
	if !p.isKw("TABLE") {
		p.unexpected("TABLE, DATABASE or CATALOG")
	}
	p.next()
	a.IfExists = p.acceptKw("IF", "EXISTS")
	a.Name = p.objectName("a table name")
	switch w := word(p.tok()); w {
	case "RENAME":
		if word(p.peek(1)) != "TO" {
			s := &ast.AlterSchema{Pos: p.next().pos, Verb: w}
			s.Columns = []*ast.AlterColumn{{ColumnDef: &ast.ColumnDef{Pos: p.tok().pos, Name: p.ident("a column name")}}}
			p.expectKw("TO")
			s.RenameToPos = p.tok().pos
			s.RenameTo = p.ident("a column name")
			a.Schema = s
			break
		}
		p.next()
		p.expectKw("TO")
		to := p.objectName("a table name")
		a.RenameTo = &to
	case "SET":
		p.next()
		a.Set = p.options()
	case "RESET":
		p.next()
		a.Reset = p.optionKeys()
	case "ADD", "MODIFY":
		a.Schema = p.alterSchema(w)
	case "DROP":
		a.Schema = p.alterDrop()
	default:
		p.unexpected("RENAME, SET, RESET, ADD, MODIFY or DROP")
	}
	return a
}

// alterSchema parses ALTER TABLE's ADD or MODIFY of an element of the
// schema or a parenthesized list of them, each column followed by FIRST
// or AFTER column if it goes there.
func (p *parser) alterSchema(verb string) *ast.AlterSchema {
	s := &ast.AlterSchema{Pos: p.next().pos, Verb: verb}
	elements := &ast.CreateTable{}
	element := func() {
		n := len(elements.Columns)
		p.tableElement(elements)
		if len(elements.Columns) == n {
			return
		}
		c := &ast.AlterColumn{ColumnDef: elements.Columns[n]}
		switch {
		case p.acceptKw("FIRST"):
			c.First = true
		case p.acceptKw("AFTER"):
			c.AfterPos = p.tok().pos
			c.After = p.ident("a column name")
		}
		s.Columns = append(s.Columns, c)
	}
	if p.isOp("(") {
		open := p.next().pos
		for {
			element()
			if !p.acceptOp(",") {
				break
			}
		}
		p.closeParen(open)
	} else {
		element()
	}
	s.PrimaryKey, s.PKName, s.PKPos, s.PKEnforced, s.Watermark = elements.PrimaryKey, elements.PKName, elements.PKPos, elements.PKEnforced, elements.Watermark
	return s
}

// alterDrop parses ALTER TABLE's DROP of a column, a parenthesized list
// of columns, the PRIMARY KEY, a CONSTRAINT by name (a primary key's, the
// only constraint a table has) or the WATERMARK.
func (p *parser) alterDrop() *ast.AlterSchema {
	s := &ast.AlterSchema{Pos: p.next().pos, Verb: "DROP"}
	switch {
	case p.acceptKw("PRIMARY", "KEY"):
		s.DropPrimaryKey = true
	case p.acceptKw("WATERMARK"):
		s.DropWatermark = true
	case p.acceptKw("CONSTRAINT"):
		s.DropPrimaryKey, s.DropConstraintPos = true, p.tok().pos
		s.DropConstraint = p.ident("a constraint name")
	case p.isOp("("):
		for _, c := range p.columnNames("a column name") {
			s.Columns = append(s.Columns, &ast.AlterColumn{ColumnDef: &ast.ColumnDef{Pos: c.Pos, Name: c.Name}})
		}
	default:
		s.Columns = []*ast.AlterColumn{{ColumnDef: &ast.ColumnDef{Pos: p.tok().pos, Name: p.ident("a column name")}}}
	}
	return s
}

// alterCatalog parses what follows ALTER CATALOG: name SET (options) |
// RESET ('key', ...) | COMMENT 'text'.
func (p *parser) alterCatalog(pos ast.Pos) ast.Statement {
	a := &ast.AlterCatalog{Pos: pos, Name: p.ident("a catalog name")}
	switch {
	case p.acceptKw("SET"):
		a.Set = p.options()
	case p.acceptKw("RESET"):
		a.Reset = p.optionKeys()
	case p.acceptKw("COMMENT"):
		c := p.stringLit("a comment string")
		a.Comment = &c
	default:
		p.unexpected("SET, RESET or COMMENT")
	}
	return a
}

// optionKeys parses ('key', ...), possibly empty.
func (p *parser) optionKeys() []*ast.Option {
	open := p.expectOp("(").pos
	keys := []*ast.Option{}
	for !p.isOp(")") {
		keys = append(keys, &ast.Option{Pos: p.tok().pos, Key: p.stringLit("an option key string")})
		if !p.acceptOp(",") {
			break
		}
	}
	p.closeParen(open)
	return keys
}

func (p *parser) drop() ast.Statement {
	pos := p.next().pos
	p.refuseMaterialized("DROP")
	switch {
	case p.acceptKw("CATALOG"):
		c := &ast.DropCatalog{Pos: pos}
		c.IfExists = p.acceptKw("IF", "EXISTS")
		c.Name = p.ident("a catalog name")
		return c
	case p.acceptKw("DATABASE"):
		d := &ast.DropDatabase{Pos: pos}
		d.IfExists = p.acceptKw("IF", "EXISTS")
		d.Name = p.databaseName()
		if !p.acceptKw("RESTRICT") {
			d.Cascade = p.acceptKw("CASCADE")
		}
		return d
	}
	d := &ast.Drop{Pos: pos}
	d.Temporary = p.acceptKw("TEMPORARY")
	switch {
	case p.isKw("FUNCTION") || p.isKw("SYSTEM"):
		p.failAt(p.tok().pos, "DROP FUNCTION is not supported: Sluice has no user-defined functions")
	case p.acceptKw("VIEW"):
		d.View = true
	case p.acceptKw("TABLE"):
	default:
		p.unexpected("TABLE or VIEW")
	}
	d.IfExists = p.acceptKw("IF", "EXISTS")
	what := "a table name"
	if d.View {
		what = "a view name"
	}
	d.Name = p.objectName(what)
	return d
}

func (p *parser) insert() *ast.Insert {
	ins := &ast.Insert{Pos: p.expectKw("INSERT").pos}
	switch {
	case p.acceptKw("INTO"):
	case p.acceptKw("OVERWRITE"):
		ins.Overwrite = true
	default:
		p.unexpected("INTO or OVERWRITE")
	}
	ins.Table = p.objectName("a table name")
	ins.Options = p.optionsHint()
	if t := p.tok(); word(t) == "PARTITION" {
		p.failAt(t.pos, "INSERT INTO ... PARTITION is not supported: %s", noPartitions)
	}
	if p.isOp("(") && !p.queryAhead() {
		ins.Columns = p.columnNames("a column name")
	}
	ins.Query = p.query()
	return ins
}

// set parses SET, SET 'key' = 'value' and the unquoted SET key = value.
func (p *parser) set() ast.Statement {
	s := &ast.Set{Pos: p.next().pos}
	if p.tok().kind == tEOF {
		return s
	}
	rest := p.rest()
	eq := slices.IndexFunc(rest, func(t token) bool { return isOp(t, "=") })
	switch {
	case eq == 0:
		p.failAt(rest[0].pos, "expected a configuration key before '='")
	case eq < 0:
		last := rest[len(rest)-1]
		p.failAt(last.endPos, "expected '=' and a value after the configuration key")
	case eq == len(rest)-1:
		p.failAt(rest[eq].endPos, "expected a value after '='")
	}
	s.HasKey = true
	s.Key = p.rawText(rest[:eq])
	s.Value = p.rawText(rest[eq+1:])
	return s
}

// reset parses RESET and RESET 'key' (or an unquoted key).
func (p *parser) reset() ast.Statement {
	r := &ast.Reset{Pos: p.next().pos}
	if p.tok().kind != tEOF {
		r.Key = p.rawText(p.rest())
	}
	return r
}

// rest consumes and returns the remaining tokens of the statement, which
// must not contain an unterminated string, identifier or comment.
func (p *parser) rest() []token {
	start := p.i
	for p.tok().kind != tEOF {
		if t := p.tok(); t.kind == tIllegal && strings.HasPrefix(t.text, "unterminated") {
			p.unexpected("")
		}
		p.next()
	}
	return p.toks[start:p.i]
}

// rawText returns the source text of toks, unquoted if it is a single
// string or quoted identifier.
func (p *parser) rawText(toks []token) string {
	if len(toks) == 1 && (toks[0].kind == tString || toks[0].kind == tQuoted) {
		return toks[0].text
	}
	return p.src[toks[0].off:toks[len(toks)-1].end]
}

func (p *parser) show() ast.Statement {
	s := &ast.Show{Pos: p.next().pos}
	t := p.tok()
	switch word(t) {
	case "TABLES":
		s.Kind = ast.ShowTables
	case "VIEWS":
		s.Kind = ast.ShowViews
	case "FUNCTIONS":
		s.Kind = ast.ShowFunctions
	case "USER":
		p.next()
		if !p.isKw("FUNCTIONS") {
			p.unexpected("FUNCTIONS")
		}
		s.Kind, s.User = ast.ShowFunctions, true
	case "JOBS":
		s.Kind = ast.ShowJobs
	case "JARS", "MODULES", "FULL", "PROCEDURES", "PARTITIONS", "MATERIALIZED":
		what := map[string]string{"JARS": "SHOW JARS: Sluice runs no user code from JARs", "MODULES": "SHOW MODULES: Sluice has only Flink's core module",
			"FULL": "SHOW FULL MODULES: Sluice has only Flink's core module", "PROCEDURES": "SHOW PROCEDURES: Sluice has no stored procedures",
			"PARTITIONS":   "SHOW PARTITIONS: " + noPartitions,
			"MATERIALIZED": "SHOW MATERIALIZED TABLES: " + noMaterializedTables}[word(t)]
		name, why, _ := strings.Cut(what, ": ")
		p.failAt(t.pos, "%s is not supported: %s", name, why)
	case "CATALOGS":
		s.Kind = ast.ShowCatalogs
	case "DATABASES":
		s.Kind = ast.ShowDatabases
	case "COLUMNS":
		p.next()
		if !p.acceptKw("FROM") && !p.acceptKw("IN") {
			p.unexpected("FROM or IN")
		}
		s.Kind = ast.ShowColumns
		s.Name = p.objectName("a table or view name")
		s.Like = p.showLike()
		return s
	case "CURRENT":
		p.next()
		switch {
		case p.acceptKw("CATALOG"):
			s.Kind = ast.ShowCurrentCatalog
		case p.acceptKw("DATABASE"):
			s.Kind = ast.ShowCurrentDatabase
		default:
			p.unexpected("CATALOG or DATABASE")
		}
		return s
	case "CREATE":
		p.next()
		p.refuseMaterialized("SHOW CREATE")
		switch {
		case p.acceptKw("TABLE"):
			s.Kind = ast.ShowCreateTable
			s.Name = p.objectName("a table name")
		case p.acceptKw("VIEW"):
			s.Kind = ast.ShowCreateView
			s.Name = p.objectName("a view name")
		case p.acceptKw("CATALOG"):
			s.Kind = ast.ShowCreateCatalog
			s.Name = ast.ObjectName{Pos: p.tok().pos, Parts: []string{p.ident("a catalog name")}}
		default:
			p.unexpected("TABLE, VIEW or CATALOG")
		}
		return s
	default:
		p.unexpected("TABLES, VIEWS, COLUMNS, [USER] FUNCTIONS, JOBS, CATALOGS, DATABASES, CURRENT CATALOG, CURRENT DATABASE, CREATE TABLE, CREATE VIEW or CREATE CATALOG")
	}
	p.next()
	switch s.Kind {
	case ast.ShowTables, ast.ShowViews, ast.ShowFunctions, ast.ShowDatabases:
		if p.acceptKw("FROM") || p.acceptKw("IN") {
			what := "a database name"
			if s.Kind == ast.ShowDatabases {
				what = "a catalog name"
			}
			from := p.objectName(what)
			if s.Kind == ast.ShowDatabases && len(from.Parts) > 1 {
				// Flink's parser (SqlShowDatabases).
				p.failAt(from.Pos, "Show databases from/in identifier [ %s ] format error, catalog must be a single part identifier.", strings.Join(from.Parts, "."))
			}
			s.From = &from
		}
		s.Like = p.showLike()
	}
	return s
}

// showLike parses the [NOT] LIKE|ILIKE 'pattern' ending a SHOW statement.
func (p *parser) showLike() *ast.ShowLike {
	l := &ast.ShowLike{Pos: p.tok().pos}
	l.Not = p.acceptKw("NOT")
	switch {
	case p.acceptKw("LIKE"):
	case p.acceptKw("ILIKE"):
		l.CaseInsensitive = true
	case l.Not:
		p.unexpected("LIKE or ILIKE")
	default:
		return nil
	}
	l.Pattern = p.stringLit("a pattern string")
	return l
}
