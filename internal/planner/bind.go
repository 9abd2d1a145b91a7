package planner

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// Binder plans statements against the catalogs, a session's temporary
// objects and its current catalog and database.
type Binder struct {
	Catalog *catalog.Manager
	// Temporary holds the session's temporary tables and views (nil: none).
	Temporary *catalog.Temporary
	// CurrentCatalog and CurrentDatabase qualify names that leave them
	// out; empty, they are Flink's built-in ones.
	CurrentCatalog, CurrentDatabase string
	// session is the session's current catalog and database while a
	// view's query is bound in the scope of its definition.
	session *[2]string
	// TimeZone is table.local-time-zone.
	TimeZone *time.Location
	// DropNullsForNotNull is table.exec.sink.not-null-enforcer DROP: a
	// row with NULL for a NOT NULL sink column is dropped; otherwise
	// (ERROR, Flink's default) it fails the job.
	DropNullsForNotNull bool
	// MiniBatch is the session's mini-batch settings (minibatch.go).
	MiniBatch MiniBatch
	// Logical, when set, is given the root of every plan Query and Insert
	// build, before the rules rewrite it: EXPLAIN's Abstract Syntax Tree
	// (astexplain.go). The plan is changed in place after the call, so
	// whatever Logical needs of it, it takes then.
	Logical func(root Node)
	// StateTTL is table.exec.state.ttl, the idle state retention of
	// stateful operators without a STATE_TTL hint (ttl.go); 0 keeps their
	// state for ever.
	StateTTL time.Duration
	// Batch is execution.runtime-mode = 'batch': ORDER BY sorts on any
	// column, and a query's or INSERT's result is its final rows
	// (BatchSort), never a changelog.
	Batch bool
	// IdleTimeout is table.exec.source.idle-timeout, which EXPLAIN shows in
	// the watermark of a scan that takes it (explainscan.go); the runtime
	// reads it from the execution plan's configuration.
	IdleTimeout time.Duration
	// Ctx, when set, cancels planning: binding stops with its error, so
	// that a statement can be interrupted while it plans.
	Ctx  context.Context
	ctes map[string]*ast.CTE
	// expanding is how many view or WITH query references are being
	// planned; expanded counts the queries planned inside them.
	expanding, expanded int
	// inView is how many view references are being planned.
	inView int
	// ttlHint is the STATE_TTL hint of the SELECT being bound (ttl.go),
	// nil for none.
	ttlHint *ttlHint
	// quantified holds the rewrite of each quantified comparison bound
	// (rewriteQuantified).
	quantified map[*ast.Quantified]ast.Expr
	// windows holds the window of each call written with a window name
	// (resolveWindows).
	windows map[*ast.FuncCall]*ast.WindowSpec
}

// maxExpanded bounds the queries one statement plans inside views and WITH
// queries. Those are planned anew at every reference, as Flink expands
// them, so a chain of WITH queries that each read the previous one twice
// doubles the plan at every link: 25 links in a kilobyte of SQL would plan
// 2^25 queries and exhaust memory. 10,000 queries take some 20 MB to plan.
// (The statement's own queries are bounded by its length.)
const maxExpanded = 10000

// cancelled returns the error of a cancelled Ctx.
func (b *Binder) cancelled() error {
	if b.Ctx == nil || b.Ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("planning cancelled: %w", b.Ctx.Err())
}

func (b *Binder) loc() *time.Location {
	if b.TimeZone == nil {
		return time.UTC
	}
	return b.TimeZone
}

// relation is a bound FROM item or query: a plan node and the scope its
// columns are visible under.
type relation struct {
	node Node
	sc   *scope
}

// CreateTable validates a CREATE TABLE statement and returns the table.
// For CREATE TABLE ... AS SELECT the columns are the query's; the caller
// then starts the INSERT of the query into it.
func (b *Binder) CreateTable(ct *ast.CreateTable) (*catalog.Table, error) {
	id, err := b.Qualify(ct.Name)
	if err != nil {
		return nil, err
	}
	if ct.Like != nil {
		if ct.AsQuery != nil {
			return nil, errorf(ct.Like, "CREATE TABLE cannot both copy a table (LIKE) and take a query's columns (AS SELECT)")
		}
		merged, err := b.mergeLike(ct)
		if err != nil {
			return nil, err
		}
		ct = merged
	}
	if ct.AsQuery != nil {
		if len(ct.Columns) > 0 || ct.PrimaryKey != nil || ct.Watermark != nil {
			return nil, errorf(ct, "CREATE TABLE AS SELECT takes its columns from the query; declaring columns, a primary key or a watermark is not supported")
		}
		rel, err := b.query(ct.AsQuery)
		if err != nil {
			return nil, err
		}
		derived := *ct
		derived.AsQuery = nil
		for _, f := range rel.node.Schema() {
			derived.Columns = append(derived.Columns, &ast.ColumnDef{Pos: ct.AsQuery.Position(), Name: f.Name, Type: f.Type.Plain()})
		}
		ct = &derived
	}
	t := &catalog.Table{Catalog: id.Catalog, Database: id.Database, Name: id.Object, Pos: ct.Pos, Comment: ct.Comment,
		Options: map[string]string{}, OptionPos: map[string]ast.Pos{}}
	seen := map[string]bool{}
	physical := &scope{}
	for _, c := range ct.Columns {
		if seen[c.Name] {
			return nil, errorf(c, "A column named '%s' already exists in the table", c.Name)
		}
		seen[c.Name] = true
		if c.Computed == nil {
			physical.cols = append(physical.cols, scopeCol{name: c.Name, typ: c.Type})
		}
	}
	for _, c := range ct.Columns {
		col := catalog.Column{Name: c.Name, Type: c.Type, Computed: c.Computed, Metadata: c.Metadata,
			MetadataKey: c.MetadataKey, Virtual: c.Virtual, Comment: c.Comment, Pos: c.Pos}
		if c.Computed != nil {
			e, err := (&exprBinder{b: b, sc: physical, where: "a computed column"}).bind(c.Computed)
			if err != nil {
				return nil, err
			}
			// A computed column is a time attribute only as PROCTIME();
			// rowtimes come from WATERMARK declarations.
			col.Type = e.Type().Plain()
			if e.Type().Attr == types.ProcTime {
				col.Type.Attr = types.ProcTime
			}
		}
		t.Columns = append(t.Columns, col)
	}
	if ct.PrimaryKey != nil {
		if ct.PKEnforced {
			return nil, errorf(ct, "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data therefore the only supported mode is the NOT ENFORCED mode")
		}
		for _, k := range ct.PrimaryKey {
			i := t.Schema().Index(k)
			if i < 0 {
				return nil, &Error{Pos: ct.PKPos, Msg: fmt.Sprintf("Primary key column '%s' is not defined in the schema", k)}
			}
			if !t.Columns[i].IsPhysical() {
				return nil, &Error{Pos: ct.PKPos, Msg: fmt.Sprintf("Could not create a PRIMARY KEY with column '%s': only physical columns can be part of a primary key", k)}
			}
			t.Columns[i].Type.NotNull = true // primary key columns are NOT NULL
		}
		t.PrimaryKey, t.PrimaryKeyName = ct.PrimaryKey, ct.PKName
		if t.PrimaryKeyName == "" {
			t.PrimaryKeyName = catalog.DefaultPrimaryKeyName(ct.PrimaryKey)
		}
	}
	if ct.Watermark != nil {
		if err := b.checkWatermark(t, ct.Watermark); err != nil {
			return nil, err
		}
		t.Watermark = ct.Watermark
	}
	for _, o := range ct.Options {
		t.Options[o.Key] = o.Value
		t.OptionPos[o.Key] = o.Pos
	}
	f, err := connector.For(t)
	if err != nil {
		return nil, &Error{Pos: ct.Pos, Msg: err.Error()}
	}
	if err := f.Validate(t); err != nil {
		return nil, &Error{Pos: optionPos(t, err.Error(), ct.Pos), Msg: fmt.Sprintf("invalid options for table '%s': %v", t.Name, err)}
	}
	return t, nil
}

// AlterOptions returns t with the options of ALTER TABLE ... SET added or
// replaced and those of ... RESET removed, validated again.
func (b *Binder) AlterOptions(t *catalog.Table, set, reset []*ast.Option) (*catalog.Table, error) {
	for _, o := range reset {
		if o.Key == "connector" {
			return nil, errorf(o, "ALTER TABLE RESET does not support changing 'connector'")
		}
	}
	return withOptions(t, set, reset)
}

// withOptions returns a copy of t with the options of set added or replaced
// and the keys of reset removed, validated again: an OPTIONS hint (Flink's
// table.dynamic-table-options.enabled, on by default) or ALTER TABLE.
func withOptions(t *catalog.Table, set, reset []*ast.Option) (*catalog.Table, error) {
	if len(set)+len(reset) == 0 {
		return t, nil
	}
	// Errors point into the statement that changes the options, so only
	// its options keep positions.
	c := *t
	c.Options, c.OptionPos = maps.Clone(t.Options), map[string]ast.Pos{}
	for _, o := range reset {
		delete(c.Options, o.Key)
	}
	for _, o := range set {
		c.Options[o.Key] = o.Value
		c.OptionPos[o.Key] = o.Pos
	}
	at := slices.Concat(set, reset)[0].Pos
	f, err := connector.For(&c)
	if err != nil {
		return nil, &Error{Pos: at, Msg: err.Error()}
	}
	if err := f.Validate(&c); err != nil {
		return nil, &Error{Pos: optionPos(&c, err.Error(), at), Msg: fmt.Sprintf("invalid options for table '%s': %v", t.Name, err)}
	}
	return &c, nil
}

// optionPos points an option error at the option it names: the longest
// option key quoted in the message or listed on a line of its own before
// any list of supported options; otherwise at the statement.
func optionPos(t *catalog.Table, msg string, def ast.Pos) ast.Pos {
	named, _, _ := strings.Cut(msg, "Supported options")
	lines := map[string]bool{}
	for _, l := range strings.Split(named, "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	best := ""
	for k := range t.OptionPos {
		if len(k) > len(best) && (strings.Contains(msg, "'"+k+"'") || lines[k]) {
			best = k
		}
	}
	if best == "" {
		return def
	}
	return t.OptionPos[best]
}

func (b *Binder) checkWatermark(t *catalog.Table, w *ast.WatermarkDef) error {
	i := t.Schema().Index(w.Column)
	if i < 0 {
		return errorf(w, "The rowtime attribute field '%s' is not defined in the table schema", w.Column)
	}
	ct := t.Columns[i].Type
	if !ct.IsTimestamp() || ct.Precision > 3 {
		return errorf(w, "Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the time field type is %s", ct)
	}
	e, err := (&exprBinder{b: b, sc: newScope("", t.Schema()), where: "a watermark"}).bind(w.Expr)
	if err != nil {
		return err
	}
	if !e.Type().IsTimestamp() {
		return errorf(w.Expr, "Watermark strategy %s must be of type TIMESTAMP or TIMESTAMP_LTZ but is of type '%s'", exprTextAST(w.Expr), e.Type().Plain())
	}
	if e.Type().Precision > 3 { // DefaultSchemaResolver.validateWatermarkExpression
		return errorf(w.Expr, "Invalid data type of expression for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the watermark expression type is %s", e.Type().Plain())
	}
	return nil
}

// Query plans a query run for its result.
func (b *Binder) Query(q ast.Query) (*Collect, error) {
	rel, err := b.query(q)
	if err != nil {
		return nil, err
	}
	out := &Collect{base: base{schema: rel.node.Schema()}, Input: rel.node}
	if b.Logical != nil {
		b.Logical(out)
	}
	out = rewrite(out).(*Collect)
	if err := finalize(out); err != nil {
		return nil, at(err, q)
	}
	out.Input = b.final(out.Input)
	pushProjections(out)
	if err := b.applyStateTTL(out); err != nil {
		return nil, err
	}
	return out, b.applyMiniBatch(out)
}

// Insert plans INSERT INTO: the query's columns are mapped to the table's
// by position and cast where Flink casts implicitly.
func (b *Binder) Insert(ins *ast.Insert) (*Sink, error) {
	id, t, _, err := b.resolve(ins.Table)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, errorf(&ins.Table, "View '%s' cannot be written to", id.Summary())
	}
	return b.InsertInto(t, ins)
}

// InsertInto plans ins writing into t, the table ins names (CREATE TABLE
// ... AS SELECT names the table it has just created, which a temporary
// table of the same name would otherwise shadow).
func (b *Binder) InsertInto(t *catalog.Table, ins *ast.Insert) (*Sink, error) {
	name := t.ID().Summary()
	if ins.Overwrite {
		return nil, errorf(ins, "INSERT OVERWRITE is not supported for streaming tables")
	}
	t, err := withOptions(t, ins.Options, nil)
	if err != nil {
		return nil, err
	}
	rel, err := b.query(ins.Query)
	if err != nil {
		return nil, err
	}
	var targets []int // table column index per query column
	if len(ins.Columns) > 0 {
		for _, c := range ins.Columns {
			i := t.Schema().Index(c.Name)
			if i < 0 {
				return nil, errorf(c, "Unknown target column '%s'", c.Name)
			}
			if contains(targets, i) {
				return nil, errorf(c, "Target column '%s' is assigned more than once", c.Name)
			}
			targets = append(targets, i)
		}
	} else {
		for i, c := range t.Columns {
			if c.Computed == nil && !c.Virtual {
				targets = append(targets, i)
			}
		}
	}
	in := rel.node.Schema()
	if len(in) != len(targets) {
		return nil, errorf(ins.Query, "Column types of query result and sink for '%s' do not match.\nCause: Different number of columns.\n\nQuery schema: [%s]\nSink schema:  [%s]", name, schemaText(in), schemaText(writable(t, targets)))
	}
	// One projection in sink column order; columns not written are NULL.
	// A nullable value for a NOT NULL column is enforced as Flink's
	// SinkNotNullEnforcer does: the job fails on a NULL, or with DROP the
	// row is dropped.
	var out types.Schema
	var projects, dropNulls []expr.Expr
	for i, c := range t.Columns {
		if c.Computed != nil || c.Virtual {
			continue
		}
		pos := -1
		for q, ti := range targets {
			if ti == i {
				pos = q
			}
		}
		ft := c.Type
		out = append(out, types.Field{Name: c.Name, Type: ft})
		if pos < 0 {
			if ft.NotNull {
				return nil, errorf(ins, "Column '%s' has no default value and does not allow NULLs", c.Name)
			}
			projects = append(projects, &expr.Literal{V: types.NullValue, T: ft, Text: "null:" + ft.String()})
			continue
		}
		src := in[pos].Type.Plain()
		col := &expr.Column{Index: pos, Name: in[pos].Name, T: src}
		if src.Kind != types.Null && !types.ImplicitCast(src, ft.Nullable()) {
			return nil, errorf(ins.Query, "Column types of query result and sink for '%s' do not match.\nCause: Incompatible types for sink column '%s' at position %d.\n\nQuery schema: [%s]\nSink schema:  [%s]", name, c.Name, pos, schemaText(in), schemaText(writable(t, targets)))
		}
		value := coerce(col, ft.WithNotNull(src.NotNull))
		if ft.NotNull && !src.NotNull {
			if b.DropNullsForNotNull {
				dropNulls = append(dropNulls, &expr.Call{Name: "IS NOT NULL", Args: []expr.Expr{col}, T: types.BooleanType.WithNotNull(true)})
				value = coerce(col, ft)
			} else {
				name := &expr.Literal{V: types.StringValue(c.Name), T: types.StringType.WithNotNull(true), Text: "'" + c.Name + "'"}
				value = &expr.Call{Name: fn.NotNullEnforcer, Args: []expr.Expr{value, name}, T: ft}
			}
		}
		projects = append(projects, value)
	}
	input := newCalc(rel.node, projects, and(dropNulls), out)
	f, err := connector.For(t)
	if err != nil {
		return nil, errorf(&ins.Table, "%v", err)
	}
	// The connector says which changes its sink consumes.
	accepts := f.Accepts(t)
	upsert := accepts == connector.Upsert && len(t.PrimaryKey) > 0
	sink := &Sink{base: base{schema: out}, Input: input, Table: t, Upsert: upsert}
	if b.Logical != nil {
		// Flink's LogicalSink names the query's columns.
		b.Logical(&Sink{base: base{schema: logicalSinkSchema(in, targets, t)}, Input: input, Table: t})
	}
	sink = rewrite(sink).(*Sink)
	sink.Input = b.final(sink.Input)
	if sink.Input.Mode() != connector.InsertOnly && !upsert && accepts != connector.Retract {
		return nil, errorf(ins, "Table sink '%s' doesn't support consuming update changes which is produced by node %s", name, updatingNode(sink.Input).Describe())
	}
	if err := finalize(sink); err != nil {
		return nil, at(err, ins.Query)
	}
	pushProjections(sink)
	if err := b.applyStateTTL(sink); err != nil {
		return nil, err
	}
	return sink, b.applyMiniBatch(sink)
}

// final is what a query's result is made of: in batch mode, the final rows
// of an updating input (a BatchSort that materializes it); otherwise the
// input itself.
func (b *Binder) final(in Node) Node {
	if !b.Batch || in.Mode() == connector.InsertOnly {
		return in
	}
	return &BatchSort{base: base{schema: in.Schema()}, Input: in, N: -1}
}

func writable(t *catalog.Table, idx []int) types.Schema {
	var s types.Schema
	for _, i := range idx {
		s = append(s, types.Field{Name: t.Columns[i].Name, Type: t.Columns[i].Type})
	}
	return s
}

func schemaText(s types.Schema) string {
	parts := make([]string, len(s))
	for i, f := range s {
		parts[i] = f.Name + ": " + f.Type.String()
	}
	return strings.Join(parts, ", ")
}

// updatingNode finds the node that first produces updates.
func updatingNode(n Node) Node {
	for _, in := range n.Inputs() {
		if in.Mode() != connector.InsertOnly {
			return updatingNode(in)
		}
	}
	return n
}

// newCalc builds a Calc, merging it into an input Calc when possible and
// dropping it when it is an identity.
func newCalc(in Node, projects []expr.Expr, filter expr.Expr, out types.Schema) Node {
	if filter == nil && isIdentity(projects, in.Schema(), out) {
		return in
	}
	if c, ok := in.(*Calc); ok {
		sub := func(col *expr.Column) expr.Expr { return c.Projects[col.Index] }
		merged := make([]expr.Expr, len(projects))
		for i, p := range projects {
			merged[i] = expr.Remap(p, sub)
		}
		f := c.Filter
		if filter != nil {
			nf := expr.Remap(filter, sub)
			if f == nil {
				f = nf
			} else {
				f = &expr.Logic{Args: []expr.Expr{f, nf}}
			}
		}
		m := &Calc{base: base{schema: out}, Input: c.Input, Projects: merged, Filter: f}
		switch {
		case c.level:
			m.stacked = &Calc{base: base{schema: out}, Input: c, Projects: projects, Filter: filter}
		case c.stacked != nil:
			m.stacked = newCalc(c.stacked, projects, filter, out).(*Calc)
		}
		return m
	}
	return &Calc{base: base{schema: out}, Input: in, Projects: projects, Filter: filter}
}

// queryLevel marks n, the plan of a subquery or view in FROM that the
// query refers to as alias, as a query level of its own for EXPLAIN's
// Abstract Syntax Tree (Calc.level).
func queryLevel(n Node, alias string) {
	if c, ok := n.(*Calc); ok {
		c.level, c.alias = true, alias
	}
}

func isIdentity(projects []expr.Expr, in, out types.Schema) bool {
	if len(projects) != len(in) {
		return false
	}
	for i, p := range projects {
		c, ok := p.(*expr.Column)
		if !ok || c.Index != i || in[i].Name != out[i].Name || in[i].Type != out[i].Type {
			return false
		}
	}
	return true
}

// identity returns column references for every column of s.
func identity(s types.Schema) []expr.Expr {
	out := make([]expr.Expr, len(s))
	for i, f := range s {
		out[i] = &expr.Column{Index: i, Name: f.Name, T: f.Type}
	}
	return out
}

// scan plans the read of a table: computed columns, the watermark, and
// normalization of upsert sources.
func (b *Binder) scan(t *catalog.Table, ref ast.Node) (Node, error) {
	schema := t.Schema()
	s := &Scan{Table: t, Computed: make([]expr.Expr, len(schema)), idleTimeout: b.IdleTimeout, batch: b.Batch}
	physical := &scope{}
	for _, c := range t.Columns {
		if c.Computed == nil {
			physical.cols = append(physical.cols, scopeCol{name: c.Name, typ: c.Type})
		}
	}
	for i, c := range t.Columns {
		if c.Computed == nil {
			continue
		}
		e, err := (&exprBinder{b: b, sc: physical}).bind(c.Computed)
		if err != nil {
			return nil, err
		}
		// Computed expressions read the physical row; remap to table positions.
		s.Computed[i] = expr.Remap(e, func(col *expr.Column) expr.Expr {
			return &expr.Column{Index: schema.Index(col.Name), Name: col.Name, T: col.T}
		})
	}
	if t.Watermark != nil {
		e, err := (&exprBinder{b: b, sc: newScope("", schema)}).bind(t.Watermark.Expr)
		if err != nil {
			return nil, err
		}
		s.Watermark = e
		i := schema.Index(t.Watermark.Column)
		schema[i].Type.Attr = types.RowTime
	}
	s.schema = schema
	f, err := connector.For(t)
	if err != nil {
		return nil, errorf(ref, "%v", err)
	}
	s.Upsert = f.Produces(t) == connector.Upsert
	s.Changelog = f.Produces(t) == connector.Retract
	if s.Upsert {
		if len(t.PrimaryKey) == 0 {
			return nil, errorf(ref, "table '%s' is read as upserts but declares no PRIMARY KEY", t.Name)
		}
		return &Normalize{base: base{schema: schema}, Input: s, Keys: t.PrimaryKeyIndexes()}, nil
	}
	return s, nil
}

// constRow evaluates a VALUES row at plan time.
func (b *Binder) constRow(es []expr.Expr) (types.Row, error) {
	row := make(types.Row, len(es))
	ctx := &expr.Context{Fn: &fn.Context{Loc: b.loc()}}
	for i, e := range es {
		ev, err := expr.Compile(e)
		if err != nil {
			return nil, err
		}
		v, err := ev(ctx, nil)
		if err != nil {
			return nil, err
		}
		row[i] = v
	}
	return row, nil
}

func exprTextAST(e ast.Expr) string { return parser.FormatExpr(e) }
