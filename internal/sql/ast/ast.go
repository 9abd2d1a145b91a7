// Package ast defines the syntax tree of Sluice's Flink SQL dialect. Every
// node carries the line and column where it starts.
package ast

import (
	"strconv"

	"github.com/sluicesql/sluice/internal/types"
)

// Pos is a 1-based line and column in the statement text.
type Pos struct {
	Line, Col int
}

// Position returns p; embedding Pos gives every node its position.
func (p Pos) Position() Pos { return p }

// Node is any syntax tree node.
type Node interface {
	Position() Pos
}

// ---------------------------------------------------------------- statements

// Statement is one top-level SQL statement.
type Statement interface {
	Node
	stmt()
}

// ObjectName is a possibly qualified name such as cat.db.tbl; Parts holds the
// identifiers with quotes removed.
type ObjectName struct {
	Pos
	Parts []string
}

// ColumnDef is one column of CREATE TABLE: physical, computed (AS expr) or
// metadata (METADATA [FROM 'key'] [VIRTUAL]).
type ColumnDef struct {
	Pos
	Name        string
	Type        types.Type // zero for computed columns
	Computed    Expr       // non-nil for `name AS expr`
	Metadata    bool       // METADATA column
	MetadataKey string     // FROM 'key', empty if omitted
	Virtual     bool       // VIRTUAL metadata column
	Comment     string
}

// WatermarkDef is `WATERMARK FOR column AS expr`.
type WatermarkDef struct {
	Pos
	Column string
	Expr   Expr
}

// Option is one 'key' = 'value' pair of a WITH clause.
type Option struct {
	Pos
	Key, Value string
}

// CreateTable is CREATE [TEMPORARY] TABLE [IF NOT EXISTS] ... WITH (...).
type CreateTable struct {
	Pos
	Name        ObjectName
	Temporary   bool
	IfNotExists bool
	Columns     []*ColumnDef
	PrimaryKey  []string // nil when absent
	PKName      string   // the constraint's name, "" when not given
	PKPos       Pos
	PKEnforced  bool // true unless NOT ENFORCED was given
	Watermark   *WatermarkDef
	Comment     string
	Options     []*Option
	// AsQuery is set for CREATE TABLE ... AS SELECT.
	AsQuery Query
	// Like is set for CREATE TABLE ... LIKE source [(options)].
	Like *LikeClause
}

// LikeClause is the LIKE part of CREATE TABLE: the source table and its
// merging options, e.g. EXCLUDING OPTIONS or OVERWRITING WATERMARKS.
type LikeClause struct {
	Pos
	Source ObjectName
	// Options maps a feature (ALL, CONSTRAINTS, GENERATED, METADATA,
	// OPTIONS, PARTITIONS, WATERMARKS) to its strategy (INCLUDING,
	// EXCLUDING or OVERWRITING), in the order written.
	Options []LikeOption
}

// LikeOption is one merging option of a LIKE clause.
type LikeOption struct {
	Strategy, Feature string
}

// CreateView is CREATE [TEMPORARY] VIEW [IF NOT EXISTS] name [(cols)] AS query.
type CreateView struct {
	Pos
	Name        ObjectName
	Temporary   bool
	IfNotExists bool
	Columns     []string
	Query       Query
}

// Drop is DROP [TEMPORARY] TABLE|VIEW [IF EXISTS] name.
type Drop struct {
	Pos
	View      bool
	IfExists  bool
	Name      ObjectName
	Temporary bool
}

// AlterTable is ALTER TABLE [IF EXISTS] name RENAME TO new | SET ('k' =
// 'v', ...) | RESET ('k', ...).
type AlterTable struct {
	Pos
	Name     ObjectName
	IfExists bool
	RenameTo *ObjectName // nil unless RENAME TO
	Set      []*Option
	Reset    []*Option    // keys only
	Schema   *AlterSchema // nil unless a change of columns, primary key or watermark
}

// AlterSchema is ALTER TABLE's change of a table's schema: ADD or MODIFY
// of columns, a primary key and a watermark; DROP of columns, the primary
// key or the watermark; RENAME of a column.
type AlterSchema struct {
	Pos                       // of ADD, MODIFY, DROP or RENAME
	Verb       string         // "ADD", "MODIFY", "DROP" or "RENAME"
	Columns    []*AlterColumn // ADD, MODIFY: the columns; DROP, RENAME: the names
	PrimaryKey []string       // ADD, MODIFY: the new primary key, or nil
	PKName     string         // its constraint's name, "" when not given
	PKPos      Pos
	PKEnforced bool
	Watermark  *WatermarkDef // ADD, MODIFY: the new watermark, or nil
	// DROP PRIMARY KEY, DROP WATERMARK.
	DropPrimaryKey, DropWatermark bool
	// DROP CONSTRAINT name: the name (DropPrimaryKey is set too).
	DropConstraint    string
	DropConstraintPos Pos
	RenameTo          string // RENAME: the new name of Columns[0]
	RenameToPos       Pos
}

// AlterColumn is a column of ALTER TABLE ... ADD or MODIFY with where it
// goes: FIRST, AFTER a column, or neither (ADD: last; MODIFY: where it is).
type AlterColumn struct {
	*ColumnDef
	First    bool
	After    string
	AfterPos Pos
}

// Insert is INSERT INTO|OVERWRITE table [(cols)] query; Query may be *Values.
type Insert struct {
	Pos
	Table     ObjectName
	Columns   []*ColumnName
	Overwrite bool
	Query     Query
	// Options are the dynamic table options of an OPTIONS hint on the
	// target table.
	Options []*Option
}

// ColumnName is an unqualified column name with its position, such as an
// INSERT target column.
type ColumnName struct {
	Pos
	Name string
}

// QueryStatement is a query run for its result.
type QueryStatement struct {
	Pos
	Query Query
}

// Explain is EXPLAIN [PLAN FOR | detail [, detail]*] statement.
type Explain struct {
	Pos
	// Details are the EXPLAIN details asked for, upper case, each once:
	// CHANGELOG_MODE, JSON_EXECUTION_PLAN.
	Details   []string
	Statement Statement
}

// CompilePlan is COMPILE PLAN 'path' [IF NOT EXISTS] FOR statement, or
// COMPILE AND EXECUTE PLAN 'path' FOR statement (Execute set). Statement
// is an INSERT or a statement set as the grammar allows, or a query, which
// the engine refuses with Flink's message.
type CompilePlan struct {
	Pos
	Path        string
	IfNotExists bool
	Execute     bool
	Statement   Statement
}

// ExecutePlan is EXECUTE PLAN 'path'.
type ExecutePlan struct {
	Pos
	Path string
}

// Set is SET ['key' = 'value'], or SET alone (list all).
type Set struct {
	Pos
	Key, Value string
	HasKey     bool
}

// Reset is RESET ['key'].
type Reset struct {
	Pos
	Key string
}

// CreateCatalog is CREATE CATALOG [IF NOT EXISTS] name [COMMENT '...']
// WITH (...).
type CreateCatalog struct {
	Pos
	Name        string
	IfNotExists bool
	Comment     string
	Options     []*Option
}

// DropCatalog is DROP CATALOG [IF EXISTS] name.
type DropCatalog struct {
	Pos
	Name     string
	IfExists bool
}

// AlterCatalog is ALTER CATALOG name SET (...) | RESET ('key', ...) |
// COMMENT '...'; one of Set, Reset (keys only) and Comment is given.
type AlterCatalog struct {
	Pos
	Name    string
	Set     []*Option
	Reset   []*Option
	Comment *string
}

// DescribeCatalog is DESCRIBE|DESC CATALOG [EXTENDED] name.
type DescribeCatalog struct {
	Pos
	Name     string
	Extended bool
}

// UseCatalog is USE CATALOG name.
type UseCatalog struct {
	Pos
	Name string
}

// CreateDatabase is CREATE DATABASE [IF NOT EXISTS] [catalog.]name
// [COMMENT '...'] [WITH (...)].
type CreateDatabase struct {
	Pos
	Name        ObjectName
	IfNotExists bool
	Comment     string
	Options     []*Option
}

// DropDatabase is DROP DATABASE [IF EXISTS] [catalog.]name [RESTRICT |
// CASCADE]; RESTRICT, Flink's default, refuses a database that is not
// empty.
type DropDatabase struct {
	Pos
	Name     ObjectName
	IfExists bool
	Cascade  bool
}

// AlterDatabase is ALTER DATABASE [catalog.]name SET (...).
type AlterDatabase struct {
	Pos
	Name ObjectName
	Set  []*Option
}

// Use is USE [catalog.]database.
type Use struct {
	Pos
	Name ObjectName
}

// ShowKind says what a SHOW statement lists.
type ShowKind int

// SHOW variants.
const (
	ShowTables ShowKind = iota
	ShowViews
	ShowFunctions
	ShowJobs
	ShowCreateTable
	ShowCatalogs
	ShowDatabases
	ShowCreateView
	ShowCurrentCatalog
	ShowCurrentDatabase
	ShowCreateCatalog
	ShowColumns
)

// Show is SHOW TABLES / VIEWS / FUNCTIONS / JOBS / CATALOGS / DATABASES /
// CURRENT CATALOG / CURRENT DATABASE / CREATE TABLE name / CREATE VIEW
// name, with FROM|IN and [NOT] LIKE|ILIKE 'pattern' where Flink takes them.
type Show struct {
	Pos
	Kind ShowKind
	// Name is the object of SHOW CREATE TABLE, SHOW CREATE VIEW and SHOW
	// COLUMNS, the catalog of SHOW CREATE CATALOG.
	Name ObjectName
	// From is the database (SHOW TABLES, VIEWS, FUNCTIONS) or catalog
	// (SHOW DATABASES) of FROM|IN, if given.
	From *ObjectName
	// Like is the pattern of [NOT] LIKE|ILIKE, if given.
	Like *ShowLike
	// User is set for SHOW USER FUNCTIONS.
	User bool
}

// ShowLike is the [NOT] LIKE|ILIKE 'pattern' of a SHOW statement.
type ShowLike struct {
	Pos
	Pattern string
	Not     bool
	// CaseInsensitive is ILIKE.
	CaseInsensitive bool
}

// Describe is DESCRIBE|DESC name.
type Describe struct {
	Pos
	Name ObjectName
}

// DescribeJob is DESCRIBE JOB 'id' (Flink 2.0's SQL client and gateway):
// the job's row of SHOW JOBS.
type DescribeJob struct {
	Pos
	ID string
	// IDPos is where the job ID is, for the error when there is no such
	// job.
	IDPos Pos
}

// StopJob is STOP JOB 'id' [WITH SAVEPOINT] [WITH DRAIN].
type StopJob struct {
	Pos
	ID            string
	WithSavepoint bool
	WithDrain     bool
	// DrainPos is where WITH DRAIN is, for its error.
	DrainPos Pos
}

// StatementSet is [EXECUTE] STATEMENT SET BEGIN insert; ... END: one or
// more INSERTs run as one job.
type StatementSet struct {
	Pos
	Inserts []*Insert
}

// BeginStatementSet is BEGIN STATEMENT SET: the INSERTs that follow, up
// to END, are collected into a statement set, which END runs.
type BeginStatementSet struct{ Pos }

// EndStatementSet is END, which runs the statement set begun by BEGIN
// STATEMENT SET.
type EndStatementSet struct{ Pos }

func (*CreateTable) stmt()       {}
func (*CreateView) stmt()        {}
func (*Drop) stmt()              {}
func (*AlterTable) stmt()        {}
func (*Insert) stmt()            {}
func (*QueryStatement) stmt()    {}
func (*Explain) stmt()           {}
func (*CompilePlan) stmt()       {}
func (*ExecutePlan) stmt()       {}
func (*Set) stmt()               {}
func (*Reset) stmt()             {}
func (*Show) stmt()              {}
func (*Describe) stmt()          {}
func (*StopJob) stmt()           {}
func (*DescribeJob) stmt()       {}
func (*StatementSet) stmt()      {}
func (*CreateCatalog) stmt()     {}
func (*DropCatalog) stmt()       {}
func (*UseCatalog) stmt()        {}
func (*AlterCatalog) stmt()      {}
func (*DescribeCatalog) stmt()   {}
func (*CreateDatabase) stmt()    {}
func (*DropDatabase) stmt()      {}
func (*AlterDatabase) stmt()     {}
func (*Use) stmt()               {}
func (*BeginStatementSet) stmt() {}
func (*EndStatementSet) stmt()   {}

// ---------------------------------------------------------------- queries

// Query is a query expression: *Select, *SetOp, *Values or *With.
type Query interface {
	Node
	query()
}

// SelectItem is one item of a select list: an expression with optional
// alias, or a star (`*` or `t.*`).
type SelectItem struct {
	Pos
	Expr          Expr
	Alias         string
	Star          bool
	StarQualifier []string // t in t.*
}

// OrderItem is one ORDER BY item.
type OrderItem struct {
	Pos
	Expr       Expr
	Desc       bool
	NullsFirst *bool // nil when not given
}

// Select is SELECT ... FROM ... WHERE ... GROUP BY ... HAVING ... ORDER BY ... LIMIT.
type Select struct {
	Pos
	// Hints are the query hints after SELECT (/*+ STATE_TTL(...) */).
	Hints    []*QueryHint
	Distinct bool
	Items    []*SelectItem
	From     TableRef // nil for SELECT without FROM
	Where    Expr
	GroupBy  []Expr
	Having   Expr
	OrderBy  []*OrderItem
	Limit    Expr // nil when absent
	Offset   Expr // nil when absent
	// Windows are the named windows of the WINDOW clause.
	Windows []*NamedWindow
}

// NamedWindow is one `name AS (window)` of a WINDOW clause.
type NamedWindow struct {
	Pos
	Name string
	Spec *WindowSpec
}

// QueryHint is a query hint, NAME('key' = 'value', ...), of the
// /*+ ... */ after a SELECT.
type QueryHint struct {
	Pos
	Name    string
	Options []*Option
}

// SetOp is UNION / INTERSECT / EXCEPT [ALL].
type SetOp struct {
	Pos
	Op          string // "UNION", "INTERSECT", "EXCEPT"
	All         bool
	Left, Right Query
	OrderBy     []*OrderItem
	Limit       Expr
}

// Values is VALUES (row), (row), ...
type Values struct {
	Pos
	Rows [][]Expr
}

// CTE is one `name [(cols)] AS (query)` of a WITH clause.
type CTE struct {
	Pos
	Name    string
	Columns []string
	Query   Query
}

// With is WITH cte, ... body.
type With struct {
	Pos
	CTEs []*CTE
	Body Query
}

func (*Select) query() {}
func (*SetOp) query()  {}
func (*Values) query() {}
func (*With) query()   {}

// ---------------------------------------------------------------- FROM

// TableRef is an item of a FROM clause.
type TableRef interface {
	Node
	tableRef()
}

// TableName is a named table or view, optionally aliased, optionally
// `FOR SYSTEM_TIME AS OF expr`.
type TableName struct {
	Pos
	Name          ObjectName
	Alias         string
	ColumnAliases []string
	AsOf          Expr
	// Options are the dynamic table options of an OPTIONS hint
	// (`t /*+ OPTIONS('k' = 'v') */`), overriding the table's own.
	Options []*Option
}

// SubqueryRef is `(query) [AS] alias [(cols)]`; Alias may be empty.
type SubqueryRef struct {
	Pos
	Query         Query
	Alias         string
	ColumnAliases []string
	// Lateral marks LATERAL (query), which may read the columns of the
	// FROM items before it.
	Lateral bool
}

// JoinKind is the kind of a join.
type JoinKind int

// Join kinds.
const (
	InnerJoin JoinKind = iota
	LeftJoin
	RightJoin
	FullJoin
	CrossJoin
)

// String returns the SQL keyword(s) of k.
func (k JoinKind) String() string {
	return [...]string{"INNER", "LEFT", "RIGHT", "FULL", "CROSS"}[k]
}

// Join is `left [kind] JOIN right ON cond | USING (cols)`; a comma in FROM is a
// CrossJoin.
type Join struct {
	Pos
	Kind        JoinKind
	Left, Right TableRef
	On          Expr
	Using       []string
}

// TableFunctionRef is `TABLE(fn(args)) [AS] alias`, e.g. a window TVF, or
// `LATERAL TABLE(fn(args))`.
type TableFunctionRef struct {
	Pos
	Call          *FuncCall
	Lateral       bool
	Alias         string
	ColumnAliases []string
}

// UnnestRef is `UNNEST(expr, ...) [WITH ORDINALITY] [AS] alias [(cols)]`: a
// row per element of an ARRAY or MULTISET, or per entry of a MAP; with
// several collections, their elements side by side.
type UnnestRef struct {
	Pos
	Collection Expr
	// More are the collections after the first, nil for one.
	More          []Expr
	Ordinality    bool
	Alias         string
	ColumnAliases []string
}

func (*UnnestRef) tableRef()        {}
func (*TableName) tableRef()        {}
func (*SubqueryRef) tableRef()      {}
func (*Join) tableRef()             {}
func (*TableFunctionRef) tableRef() {}

// ---------------------------------------------------------------- expressions

// Expr is a scalar expression.
type Expr interface {
	Node
	expr()
}

// Ident is a column reference, possibly qualified (t.col).
type Ident struct {
	Pos
	Parts []string
}

// LiteralKind is the kind of a literal.
type LiteralKind int

// Literal kinds.
const (
	NumberLit LiteralKind = iota // 12, 1.5, 1e3
	StringLit                    // 'text' (quotes removed, '' unescaped)
	BoolLit                      // TRUE / FALSE (Text is "TRUE"/"FALSE")
	NullLit                      // NULL
	BinaryLit                    // X'0A0B' (Text holds the hex digits)
)

// Literal is a constant.
type Literal struct {
	Pos
	Kind LiteralKind
	Text string
}

// TypedLiteral is DATE 'x', TIME 'x', TIMESTAMP 'x' or TIMESTAMP_LTZ 'x'.
type TypedLiteral struct {
	Pos
	Type  types.Type
	Value string
}

// TimeUnit is a unit of an interval, EXTRACT, FLOOR/CEIL or TIMESTAMPDIFF.
type TimeUnit string

// Time units, singular and upper case (HOURS parses as HOUR, etc.).
const (
	Year        TimeUnit = "YEAR"
	Quarter     TimeUnit = "QUARTER"
	Month       TimeUnit = "MONTH"
	Week        TimeUnit = "WEEK"
	Day         TimeUnit = "DAY"
	Hour        TimeUnit = "HOUR"
	Minute      TimeUnit = "MINUTE"
	Second      TimeUnit = "SECOND"
	Millisecond TimeUnit = "MILLISECOND"
	Microsecond TimeUnit = "MICROSECOND"
	Nanosecond  TimeUnit = "NANOSECOND"
	DayOfWeek   TimeUnit = "DOW"
	DayOfYear   TimeUnit = "DOY"
	Epoch       TimeUnit = "EPOCH"
)

// IntervalLiteral is INTERVAL [-]'value' unit [TO unit], e.g.
// INTERVAL '6' HOURS or INTERVAL '1:30' HOUR TO MINUTE.
type IntervalLiteral struct {
	Pos
	Negative bool
	Value    string
	Unit     TimeUnit
	ToUnit   TimeUnit // empty unless `unit TO unit`
	// Precision is the leading field's precision, as in DAY(3); 0 when
	// not given.
	Precision int
	// FracPrecision is the fractional second precision, as in SECOND(2, 6)
	// or DAY TO SECOND(6); 0 when not given.
	FracPrecision int
}

// TimeUnitExpr is a bare time unit used as a function argument, as in
// TIMESTAMPDIFF(HOUR, a, b) or TIMESTAMPADD(DAY, 1, ts).
type TimeUnitExpr struct {
	Pos
	Unit TimeUnit
}

// Unary is a prefix operator: "-", "+", "NOT".
type Unary struct {
	Pos
	Op string
	X  Expr
}

// Binary is an infix operator: "+", "-", "*", "/", "%", "||", "=", "<>",
// "<", "<=", ">", ">=", "AND", "OR". "!=" is normalized to "<>".
type Binary struct {
	Pos
	Op   string
	L, R Expr
}

// Between is x [NOT] BETWEEN [SYMMETRIC|ASYMMETRIC] lo AND hi.
type Between struct {
	Pos
	X, Lo, Hi Expr
	Not       bool
	Symmetric bool
}

// In is x [NOT] IN (list) or x [NOT] IN (subquery).
type In struct {
	Pos
	X        Expr
	List     []Expr
	Subquery Query
	Not      bool
}

// Quantified is a comparison with a subquery's rows or a list of values,
// `x op ANY (q)`, `x op SOME (v1, v2)`, `x op ALL (q)`, kept as written;
// the planner rewrites it as it binds it.
type Quantified struct {
	Pos
	Op         string // "=", "<>", "<", "<=", ">", ">=" ("!=" is "<>")
	Quantifier string // "ANY", "SOME" or "ALL", as written
	// At is the quantifier's position.
	At   Pos
	Left Expr
	// Subquery is the subquery compared with, or nil for List.
	Subquery Query
	List     []Expr
}

// All reports a comparison with every row (ALL), not with some row (ANY
// or SOME).
func (q *Quantified) All() bool { return q.Quantifier == "ALL" }

// Like is x [NOT] LIKE|SIMILAR TO pattern [ESCAPE e].
type Like struct {
	Pos
	X, Pattern Expr
	Escape     Expr
	Not        bool
	Similar    bool
}

// IsPredicate is x IS [NOT] NULL|TRUE|FALSE|UNKNOWN.
type IsPredicate struct {
	Pos
	X    Expr
	What string // "NULL", "TRUE", "FALSE", "UNKNOWN"
	Not  bool
}

// IsDistinctFrom is l IS [NOT] DISTINCT FROM r.
type IsDistinctFrom struct {
	Pos
	L, R Expr
	Not  bool
}

// When is one WHEN ... THEN ... arm of a CASE.
type When struct {
	Pos
	Cond, Result Expr
	// More holds the further values of a simple CASE's WHEN (CASE x WHEN 2,
	// 3 THEN ...), which matches when x equals any of Cond and More.
	More []Expr
}

// Case is CASE [operand] WHEN ... THEN ... [ELSE ...] END.
type Case struct {
	Pos
	Operand Expr
	Whens   []*When
	Else    Expr
}

// Cast is CAST(x AS type) or TRY_CAST(x AS type).
type Cast struct {
	Pos
	X    Expr
	Type types.Type
	Try  bool
}

// WindowSpec is the OVER (...) of a window function call, or the (...) of a
// named window of a WINDOW clause.
type WindowSpec struct {
	Pos
	// Ref names the window of the query's WINDOW clause it builds on (OVER
	// w, OVER (w ...), WINDOW w2 AS (w ...)), empty when none; RefPos is
	// where that name is written.
	Ref    string
	RefPos Pos
	// Named is OVER w, a window name without parentheses.
	Named       bool
	PartitionBy []Expr
	OrderBy     []*OrderItem
	// Frame is the frame clause (e.g. ROWS BETWEEN 2 PRECEDING AND CURRENT
	// ROW), nil when absent.
	Frame *Frame
}

// FrameBound is one bound of a window frame.
type FrameBound struct {
	Pos
	Kind   string // "UNBOUNDED PRECEDING", "PRECEDING", "CURRENT ROW", "FOLLOWING", "UNBOUNDED FOLLOWING"
	Offset Expr   // for n PRECEDING / n FOLLOWING (a number or an interval)
}

// Frame is ROWS|RANGE BETWEEN lo AND hi (or a single bound, meaning lo AND CURRENT ROW).
type Frame struct {
	Pos
	Rows   bool // ROWS when true, RANGE when false
	Lo, Hi *FrameBound
}

// FuncCall is name([DISTINCT] args) [FILTER (WHERE ...)] [OVER (...)], including
// COUNT(*) (Star set). Special syntaxes are normalized into calls:
// SUBSTRING(x FROM a FOR b) -> SUBSTRING(x, a, b); POSITION(a IN b) ->
// POSITION(a, b); TRIM([BOTH|LEADING|TRAILING] [chars] FROM x) -> TRIM with
// TrimMode set and Args [x] or [x, chars]; EXTRACT(unit FROM x) ->
// EXTRACT(TimeUnitExpr, x); FLOOR/CEIL(x TO unit) -> FLOOR/CEIL(x,
// TimeUnitExpr); TIMESTAMPDIFF/TIMESTAMPADD take a TimeUnitExpr first.
// Name is upper-cased for built-ins written without quotes.
type FuncCall struct {
	Pos
	Name     string
	Written  string // the name as written, for messages (Name is upper-cased unless quoted)
	Args     []Expr
	ArgNames []string // named arguments (name => value); nil when positional
	Distinct bool
	Star     bool
	Filter   Expr
	Over     *WindowSpec
	TrimMode string // "BOTH", "LEADING" or "TRAILING" for TRIM
}

// Descriptor is DESCRIPTOR(col, ...), an argument of window TVFs.
type Descriptor struct {
	Pos
	Columns []string
}

// TableArg is `TABLE name [PARTITION BY cols]`, a table argument of a table
// function; PARTITION BY is used by SESSION windows.
type TableArg struct {
	Pos
	Name        ObjectName
	PartitionBy []string
}

// SubqueryExpr is a scalar subquery `(SELECT ...)` or EXISTS (SELECT ...).
type SubqueryExpr struct {
	Pos
	Query  Query
	Exists bool
}

// GroupingSets is a GROUP BY element naming several grouping sets: Kind
// is "GROUPING SETS", "ROLLUP" or "CUBE". Each item is a list of
// expressions grouped together: one for a plain expression, several for a
// parenthesized list (a, b), none for the empty set (). An item of
// GROUPING SETS may be a single nested GroupingSets. GROUP BY () is a
// GROUPING SETS of the one empty item.
type GroupingSets struct {
	Pos
	Kind  string
	Items [][]Expr
}

// RowExpr is ROW(a, b) or (a, b).
type RowExpr struct {
	Pos
	Items []Expr
}

func (*Ident) expr()           {}
func (*Literal) expr()         {}
func (*TypedLiteral) expr()    {}
func (*IntervalLiteral) expr() {}
func (*TimeUnitExpr) expr()    {}
func (*Unary) expr()           {}
func (*Binary) expr()          {}
func (*Between) expr()         {}
func (*In) expr()              {}
func (*Quantified) expr()      {}
func (*Like) expr()            {}
func (*IsPredicate) expr()     {}
func (*IsDistinctFrom) expr()  {}
func (*Case) expr()            {}
func (*Cast) expr()            {}
func (*FuncCall) expr()        {}
func (*Descriptor) expr()      {}
func (*TableArg) expr()        {}
func (*SubqueryExpr) expr()    {}
func (*RowExpr) expr()         {}
func (*GroupingSets) expr()    {}

// IntervalQualifier writes the qualifier of an interval literal as Calcite
// does: "DAY", "SECOND(2, 6)", "DAY(3) TO SECOND(6)".
func IntervalQualifier(n *IntervalLiteral) string {
	s := string(n.Unit)
	switch {
	case n.Precision != 0 && n.ToUnit == "" && n.FracPrecision != 0:
		s += "(" + strconv.Itoa(n.Precision) + ", " + strconv.Itoa(n.FracPrecision) + ")"
	case n.Precision != 0:
		s += "(" + strconv.Itoa(n.Precision) + ")"
	}
	if n.ToUnit != "" {
		s += " TO " + string(n.ToUnit)
		if n.FracPrecision != 0 {
			s += "(" + strconv.Itoa(n.FracPrecision) + ")"
		}
	}
	return s
}
