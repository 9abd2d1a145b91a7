// Package sluice is Sluice's Go API: an Engine runs Flink SQL statements
// against Kafka topics, the way Flink's TableEnvironment.executeSql does.
// It is made of parts with one job each, which sluice server wires
// together differently: a JobManager owns jobs, a Catalog holds tables
// and views, and Sessions, over both, hold settings and run statements.
//
//	e := sluice.NewEngine()
//	defer e.Close()
//	res, err := e.Execute(ctx, "CREATE TABLE t (...) WITH (...)")
package sluice

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/catalog"
	_ "github.com/sluicesql/sluice/internal/connector/blackhole" // registers blackhole
	_ "github.com/sluicesql/sluice/internal/connector/datagen"   // registers datagen
	_ "github.com/sluicesql/sluice/internal/connector/kafka"     // registers kafka and upsert-kafka
	_ "github.com/sluicesql/sluice/internal/connector/nexmark"   // registers nexmark
	_ "github.com/sluicesql/sluice/internal/connector/print"     // registers print
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/runtime/ops"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// ResultKind tells what a statement produced.
type ResultKind int

// Result kinds.
const (
	// ResultOK is a statement that only changed the session (DDL, SET).
	ResultOK ResultKind = iota
	// ResultTable is a small static table (SHOW, DESCRIBE, SET).
	ResultTable
	// ResultStream is a query whose changelog is read from Stream.
	ResultStream
	// ResultJob is an INSERT submitted as a job.
	ResultJob
	// ResultText is preformatted text (EXPLAIN).
	ResultText
)

// Result is the outcome of one statement.
type Result struct {
	Kind ResultKind
	// Headers and Rows hold a ResultTable.
	Headers []string
	Rows    [][]string
	// Stream delivers a ResultStream.
	Stream *Stream
	// JobID identifies a ResultJob.
	JobID string
	// Text holds a ResultText.
	Text string
}

// Session runs statements as a Flink SQL session does: it has its own
// settings (SET, RESET), current catalog and database (USE) and temporary
// tables and views, and dispatches each statement, sharing its catalogs
// and job manager with the other sessions over them. Jobs it starts
// belong to the job manager and outlive it. A session runs one statement
// at a time.
type Session struct {
	catalog *Catalog
	jobs    *JobManager
	config  *Config
	// temp holds the session's temporary tables and views, never kept.
	temp *catalog.Temporary
	// curCatalog and curDatabase qualify the names that leave them out.
	curCatalog, curDatabase string
	// roundTrip sends every plan through JSON before it is built.
	roundTrip bool
	// set is the session's statement set, shared with the sessions
	// WithSettings derives for one statement.
	set *statementSet
	// out is where its jobs print; nil: its job manager's output.
	out *output
}

// NewSession returns a session with default settings over a catalog and a
// job manager; the job manager's data directory, if it has one, gives the
// defaults of where checkpoints and savepoints go.
func NewSession(c *Catalog, jobs *JobManager) *Session {
	return &Session{catalog: c, jobs: jobs, config: &Config{values: map[string]string{}, base: jobs.defaults},
		temp: catalog.NewTemporary(), curCatalog: catalog.DefaultCatalog, curDatabase: catalog.DefaultDatabase, set: &statementSet{}}
}

// Config returns the session configuration.
func (e *Session) Config() *Config { return e.config }

// Engine is Sluice embedded: one session over a catalog and a job manager
// of its own, whose jobs end when it closes (or, with a data directory,
// wait there for the next engine to recover them).
type Engine struct {
	*Session
}

// NewEngine returns an engine with an empty catalog, kept in memory, and
// default settings.
func NewEngine() *Engine {
	return &Engine{Session: NewSession(NewCatalog(), NewJobManager())}
}

// SetDataDir keeps the engine's jobs in dir (DATA/jobs), takes their
// checkpoints every 10 seconds into DATA/checkpoints and their savepoints
// into DATA/savepoints unless the session says otherwise. The catalog
// stays in memory (KeepCatalog keeps it there too). Call it before
// starting jobs; Recover starts those a previous engine left running.
func (e *Engine) SetDataDir(dir string) error {
	if err := e.jobs.SetDataDir(dir); err != nil {
		return err
	}
	e.config.base = e.jobs.defaults
	return nil
}

// KeepCatalog replaces the engine's catalog with the one kept in dir
// (DATA/catalog.json, OpenCatalog), as sluice server keeps its own: the
// tables and views a previous engine created there are back, and every
// change is written. Call it before running statements.
func (e *Engine) KeepCatalog(ctx context.Context, dir string) error {
	c, err := OpenCatalog(ctx, dir)
	if err != nil {
		return err
	}
	e.catalog = c
	return nil
}

// Recover starts again the jobs a previous engine on the data directory
// left running (JobManager.Recover).
func (e *Engine) Recover(ctx context.Context) ([]*Job, error) { return e.jobs.Recover(ctx) }

// Jobs returns the jobs started so far, oldest first.
func (e *Engine) Jobs() []*Job { return e.jobs.Jobs() }

// WaitJobs blocks until every job has ended or ctx is done
// (JobManager.WaitJobs).
func (e *Engine) WaitJobs(ctx context.Context) error { return e.jobs.WaitJobs(ctx) }

// JobFailures reports every job that has failed (JobManager.JobFailures).
func (e *Engine) JobFailures() error { return e.jobs.JobFailures() }

// finalCheckpointTimeout bounds the last checkpoint of a job whose job
// manager closes.
const finalCheckpointTimeout = 30 * time.Second

// Close stops every job the engine started (JobManager.Close) and waits
// until they have ended.
func (e *Engine) Close() { e.jobs.Close() }

// Execute parses and runs every statement of a script, stopping at the
// first error. Errors carry the statement's line and column.
func (e *Session) Execute(ctx context.Context, script string) ([]*Result, error) {
	stmts, err := parser.ParseScript(script)
	if err != nil {
		return nil, err
	}
	var out []*Result
	for _, st := range stmts {
		r, err := e.run(ctx, st, script)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// run executes one parsed statement; src is the text positions refer to.
func (e *Session) run(ctx context.Context, st ast.Statement, src string) (*Result, error) {
	r, err := e.exec(ctx, st, src)
	if err != nil {
		if pe, ok := err.(*planner.Error); ok && pe.Pos.Line > 0 {
			return nil, &StatementError{Msg: parser.FormatError(src, pe.Pos, "validation", pe.Msg), Cause: err}
		}
		return nil, clipped(err)
	}
	return r, nil
}

// clipped returns err with what its message echoes of long input
// shortened (parser.ClipMessage), keeping err as its cause.
func clipped(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if short := parser.ClipMessage(msg); short != msg {
		return &StatementError{Msg: short, Cause: err}
	}
	return err
}

// StatementError is a statement's error as shown: a validation error
// rendered with its source line and a caret under the position, or an
// error whose message echoed long input, shortened.
type StatementError struct {
	Msg   string
	Cause error
}

func (e *StatementError) Error() string { return e.Msg }

// Unwrap returns the underlying error.
func (e *StatementError) Unwrap() error { return e.Cause }

// binder returns a planner over the session's catalogs, temporary objects
// and current catalog and database; ctx cancels the planning of a
// statement.
func (e *Session) binder(ctx context.Context) *planner.Binder {
	return &planner.Binder{Catalog: e.catalog.mem, Temporary: e.temp, CurrentCatalog: e.curCatalog, CurrentDatabase: e.curDatabase,
		TimeZone: e.config.TimeZone(), Ctx: ctx, DropNullsForNotNull: strings.EqualFold(e.config.Get(ConfSinkNotNullEnforcer), "DROP"),
		MiniBatch: e.config.miniBatch(), StateTTL: e.config.duration(ConfStateTTL), Batch: e.config.Batch(),
		IdleTimeout: e.config.duration(ConfIdleTimeout)}
}

// ok is the result of a statement that only changed the session or the
// catalogs, or err.
func ok(err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	return &Result{Kind: ResultOK}, nil
}

func (e *Session) exec(ctx context.Context, st ast.Statement, src string) (*Result, error) {
	if e.set.open {
		return e.inStatementSet(ctx, st, src)
	}
	switch s := st.(type) {
	case *ast.CreateTable:
		if s.Temporary && s.AsQuery != nil {
			// Flink's SqlCreateTableAs.validate.
			return nil, &planner.Error{Pos: s.Pos, Msg: "CREATE TABLE AS SELECT syntax does not support to create temporary table yet."}
		}
		t, err := e.binder(ctx).CreateTable(s)
		if err != nil {
			return nil, err
		}
		if s.AsQuery != nil {
			return e.createTableAs(ctx, t, s, src)
		}
		if s.Temporary {
			return ok(at(s.Name.Pos, e.temp.AddTable(t, s.IfNotExists)))
		}
		return ok(at(s.Name.Pos, e.catalog.change(func(m *catalog.Manager) error { return m.AddTable(t, s.IfNotExists) })))
	case *ast.CreateView:
		v, err := newView(s, statementText(src, s.Pos), e.curCatalog, e.curDatabase)
		if err != nil {
			return nil, err
		}
		b := e.binder(ctx)
		if _, err := b.Query(s.Query); err != nil {
			return nil, err
		}
		if v.Schema, v.Expanded, err = b.ViewDefinition(v); err != nil {
			return nil, err
		}
		if s.Temporary {
			return ok(at(s.Name.Pos, e.temp.AddView(v, s.IfNotExists)))
		}
		return ok(at(s.Name.Pos, e.catalog.change(func(m *catalog.Manager) error { return m.AddView(v, s.IfNotExists) })))
	case *ast.AlterTable:
		return e.alterTable(ctx, s)
	case *ast.Drop:
		return ok(e.drop(ctx, s))
	case *ast.CreateCatalog:
		return ok(e.createCatalog(s))
	case *ast.DropCatalog:
		return ok(e.dropCatalog(s))
	case *ast.UseCatalog:
		return ok(e.useCatalog(s))
	case *ast.AlterCatalog:
		return ok(e.alterCatalog(s))
	case *ast.DescribeCatalog:
		return e.describeCatalog(s)
	case *ast.CreateDatabase:
		return ok(e.createDatabase(s))
	case *ast.DropDatabase:
		return ok(e.dropDatabase(s))
	case *ast.AlterDatabase:
		return ok(e.alterDatabase(s))
	case *ast.Use:
		return ok(e.use(s))
	case *ast.Set:
		if !s.HasKey {
			res := &Result{Kind: ResultTable, Headers: []string{"key", "value"}}
			for _, kv := range e.config.All() {
				res.Rows = append(res.Rows, []string{kv[0], MaskValue(kv[0], kv[1])})
			}
			return res, nil
		}
		return &Result{Kind: ResultOK}, e.config.Set(s.Key, s.Value)
	case *ast.Reset:
		e.config.Reset(s.Key)
		return &Result{Kind: ResultOK}, nil
	case *ast.Show:
		return e.show(ctx, s)
	case *ast.Describe:
		return e.describe(ctx, s)
	case *ast.Explain:
		return e.explain(ctx, s)
	case *ast.CompilePlan:
		if e.config.Batch() {
			return nil, errCompiledPlanBatch
		}
		return e.compilePlan(ctx, s, src)
	case *ast.ExecutePlan:
		if e.config.Batch() {
			return nil, errCompiledPlanBatch
		}
		return e.executePlanFile(s.Path, s.Pos, statementText(src, s.Pos))
	case *ast.QueryStatement:
		root, err := e.binder(ctx).Query(s.Query)
		if err != nil {
			return nil, err
		}
		stream, err := e.startQuery(ctx, root)
		if err != nil {
			return nil, err
		}
		return &Result{Kind: ResultStream, Stream: stream}, nil
	case *ast.Insert:
		sink, err := e.binder(ctx).Insert(s)
		if err != nil {
			return nil, err
		}
		return e.runInserts(ctx, []*planner.Sink{sink}, statementText(src, s.Pos))
	case *ast.StatementSet:
		return e.statementSet(ctx, s, src)
	case *ast.BeginStatementSet:
		*e.set = statementSet{open: true}
		return &Result{Kind: ResultOK}, nil
	case *ast.EndStatementSet:
		return nil, errNoStatementSet
	case *ast.DescribeJob:
		j, ok := e.jobs.Job(s.ID)
		if !ok {
			return nil, &planner.Error{Pos: s.IDPos, Msg: fmt.Sprintf("could not describe job '%s': no such job", s.ID)}
		}
		return &Result{Kind: ResultTable, Headers: jobHeaders, Rows: [][]string{jobRow(j)}}, nil
	case *ast.StopJob:
		if s.WithDrain && !s.WithSavepoint {
			// Flink's gateway cancels the job then, ignoring the drain.
			return nil, &planner.Error{Pos: s.DrainPos, Msg: "WITH DRAIN takes effect only together with WITH SAVEPOINT: STOP JOB 'id' WITH SAVEPOINT WITH DRAIN"}
		}
		j, ok := e.jobs.Job(s.ID)
		if !ok {
			return nil, fmt.Errorf("could not stop job '%s': no such job", s.ID)
		}
		if !s.WithSavepoint {
			j.stop()
			return &Result{Kind: ResultOK}, nil
		}
		path, err := e.stopWithSavepoint(ctx, j, s.WithDrain)
		if err != nil {
			return nil, err
		}
		// Flink's client shows the path in a table.
		return &Result{Kind: ResultTable, Headers: []string{"savepoint path"}, Rows: [][]string{{path}}}, nil
	}
	return nil, fmt.Errorf("unsupported statement at line %d, column %d", st.Position().Line, st.Position().Col)
}

// drop runs DROP [TEMPORARY] TABLE|VIEW, with the rules of Flink's
// CatalogManager: a temporary object is dropped only by DROP TEMPORARY,
// and a permanent one not while a temporary one of its name shadows it.
func (e *Session) drop(ctx context.Context, s *ast.Drop) error {
	id, err := e.binder(ctx).Qualify(s.Name)
	if err != nil {
		return err
	}
	if s.Temporary {
		return at(s.Name.Pos, e.temp.Drop(id, s.View, s.IfExists))
	}
	kind := map[bool]string{false: "table", true: "view"}[s.View]
	if t, v := e.temp.Lookup(id); t != nil && !s.View || v != nil && s.View {
		return &planner.Error{Pos: s.Name.Pos, Msg: fmt.Sprintf("Temporary %s with identifier '%s' exists. Drop it first before removing the permanent %s.", kind, id, kind)}
	}
	return at(s.Name.Pos, e.catalog.change(func(m *catalog.Manager) error { return m.Drop(id, s.View, s.IfExists) }))
}

// alterTable renames a table or changes its options or its schema; running
// jobs keep the definition they started with, as in Flink.
func (e *Session) alterTable(ctx context.Context, s *ast.AlterTable) (*Result, error) {
	b := e.binder(ctx)
	id, err := b.Qualify(s.Name)
	if err != nil {
		return nil, err
	}
	t, view := b.Lookup(id)
	if tt, tv := e.temp.Lookup(id); t == nil || tt != nil || tv != nil {
		if s.IfExists && view == nil && tt == nil {
			return &Result{Kind: ResultOK}, nil
		}
		// Flink's SqlAlterTableConverter.
		return nil, &planner.Error{Pos: s.Name.Pos, Msg: fmt.Sprintf("Table %s doesn't exist or is a temporary table.", id)}
	}
	if s.RenameTo != nil {
		to, err := b.Qualify(*s.RenameTo)
		if err != nil {
			return nil, err
		}
		if to.Catalog != id.Catalog || to.Database != id.Database {
			return nil, &planner.Error{Pos: s.RenameTo.Pos, Msg: fmt.Sprintf("ALTER TABLE ... RENAME TO renames a table within its database: %s cannot become %s", id, to)}
		}
		return ok(at(s.Pos, e.catalog.change(func(m *catalog.Manager) error { return m.RenameTable(id, to.Object) })))
	}
	if s.Schema != nil {
		altered, err := alterSchema(b, t, s.Schema)
		if err != nil {
			return nil, err
		}
		return ok(at(s.Pos, e.catalog.change(func(m *catalog.Manager) error { return m.ReplaceTable(altered) })))
	}
	if s.Reset != nil && len(s.Reset) == 0 {
		// Flink's SqlAlterTableReset.
		return nil, &planner.Error{Pos: s.Pos, Msg: "ALTER TABLE RESET does not support empty key"}
	}
	altered, err := b.AlterOptions(t, s.Set, s.Reset)
	if err != nil {
		return nil, err
	}
	return ok(at(s.Pos, e.catalog.change(func(m *catalog.Manager) error { return m.ReplaceTable(altered) })))
}

// statementSet runs the INSERTs of EXECUTE STATEMENT SET as one job, or
// none: all are planned before the job starts.
func (e *Session) statementSet(ctx context.Context, s *ast.StatementSet, src string) (*Result, error) {
	sinks := make([]*planner.Sink, len(s.Inserts))
	for i, ins := range s.Inserts {
		sink, err := e.binder(ctx).Insert(ins)
		if err != nil {
			return nil, err
		}
		sinks[i] = sink
	}
	return e.runInserts(ctx, sinks, statementText(src, s.Pos))
}

// createTableAs registers the table of a CREATE TABLE ... AS SELECT and
// starts the job writing the query into it; if the query cannot be written
// there, the table is not kept.
func (e *Session) createTableAs(ctx context.Context, t *catalog.Table, s *ast.CreateTable, src string) (*Result, error) {
	if _, exists := e.catalog.mem.Table(t.ID()); exists && s.IfNotExists {
		return &Result{Kind: ResultOK}, nil
	}
	if err := e.catalog.change(func(m *catalog.Manager) error { return m.AddTable(t, false) }); err != nil {
		return nil, at(s.Name.Pos, err)
	}
	ins := &ast.Insert{Pos: s.Pos, Table: s.Name, Query: s.AsQuery}
	sink, err := e.binder(ctx).InsertInto(t, ins)
	var j *Job
	if err == nil {
		j, err = e.startJob([]*planner.Sink{sink}, statementText(src, s.Pos))
	}
	if err != nil {
		_ = e.catalog.change(func(m *catalog.Manager) error { return m.Drop(t.ID(), false, true) })
		return nil, err
	}
	return e.jobResult(ctx, j)
}

// plan plans a query, an INSERT or a statement set's INSERTs for EXPLAIN:
// the roots of its physical plan. logical is given each root as the
// binder built it, before the rules (planner.Binder.Logical).
func (e *Session) plan(ctx context.Context, st ast.Statement, logical func(planner.Node)) ([]planner.Node, error) {
	binder := func() *planner.Binder {
		b := e.binder(ctx)
		b.Logical = logical
		return b
	}
	var inserts []*ast.Insert
	switch s := st.(type) {
	case *ast.QueryStatement:
		root, err := binder().Query(s.Query)
		if err != nil {
			return nil, err
		}
		return []planner.Node{root}, nil
	case *ast.Insert:
		inserts = []*ast.Insert{s}
	case *ast.StatementSet:
		inserts = s.Inserts
	default:
		return nil, fmt.Errorf("EXPLAIN supports queries, INSERT statements and statement sets")
	}
	roots := make([]planner.Node, len(inserts))
	for i, ins := range inserts {
		sink, err := binder().Insert(ins)
		if err != nil {
			return nil, err
		}
		roots[i] = sink
	}
	return roots, nil
}

func (e *Session) show(ctx context.Context, s *ast.Show) (*Result, error) {
	one := func(header string, names []string) *Result {
		r := &Result{Kind: ResultTable, Headers: []string{header}}
		for _, n := range names {
			r.Rows = append(r.Rows, []string{n})
		}
		return r
	}
	switch s.Kind {
	case ast.ShowTables, ast.ShowViews:
		cat, db, err := e.showDatabase(s)
		if err != nil {
			return nil, err
		}
		header := map[ast.ShowKind]string{ast.ShowTables: "table name", ast.ShowViews: "view name"}[s.Kind]
		return one(header, filterLike(e.objectNames(cat, db, s.Kind == ast.ShowViews), s.Like)), nil
	case ast.ShowFunctions:
		if _, _, err := e.showDatabase(s); err != nil {
			return nil, err
		}
		if s.User {
			// Sluice has no user-defined functions.
			return one("function name", nil), nil
		}
		return one("function name", filterLike(fn.Names(), s.Like)), nil
	case ast.ShowCatalogs:
		return one("catalog name", e.catalog.mem.CatalogNames()), nil
	case ast.ShowCurrentCatalog:
		return one("current catalog name", []string{e.curCatalog}), nil
	case ast.ShowCurrentDatabase:
		return one("current database name", []string{e.curDatabase}), nil
	case ast.ShowDatabases:
		cat, pos := e.curCatalog, s.Pos
		if s.From != nil {
			cat, pos = s.From.Parts[0], s.From.Pos
		}
		names, err := e.catalog.mem.DatabaseNames(cat)
		if err != nil {
			return nil, at(pos, err)
		}
		return one("database name", filterLike(names, s.Like)), nil
	case ast.ShowJobs:
		r := &Result{Kind: ResultTable, Headers: jobHeaders}
		for _, j := range e.jobs.Jobs() {
			r.Rows = append(r.Rows, jobRow(j))
		}
		return r, nil
	case ast.ShowCreateTable, ast.ShowCreateView:
		return e.showCreate(ctx, s)
	case ast.ShowCreateCatalog:
		return e.showCreateCatalog(s)
	case ast.ShowColumns:
		// DESCRIBE's table of the columns LIKE matches (Flink's
		// ShowColumnsOperation).
		r, err := e.describe(ctx, &ast.Describe{Pos: s.Pos, Name: s.Name})
		if err != nil {
			return nil, err
		}
		names := make([]string, len(r.Rows))
		for i, row := range r.Rows {
			names[i] = row[0]
		}
		keep := filterLike(names, s.Like)
		r.Rows = slices.DeleteFunc(r.Rows, func(row []string) bool { return !slices.Contains(keep, row[0]) })
		return r, nil
	}
	return nil, fmt.Errorf("unsupported SHOW statement")
}

// jobHeaders are the columns of SHOW JOBS and DESCRIBE JOB, as Flink's
// gateway names them; jobRow is a job's row.
var jobHeaders = []string{"job id", "job name", "status", "start time"}

func jobRow(j *Job) []string {
	return []string{j.ID, j.Name, j.Status(), j.Started.Format("2006-01-02T15:04:05.000Z07:00")}
}

// showCreate runs SHOW CREATE TABLE and SHOW CREATE VIEW, with the
// messages of Flink's TableEnvironmentImpl for a name that is missing or
// of the other kind.
func (e *Session) showCreate(ctx context.Context, s *ast.Show) (*Result, error) {
	b := e.binder(ctx)
	id, err := b.Qualify(s.Name)
	if err != nil {
		return nil, err
	}
	t, v := b.Lookup(id)
	tt, tv := e.temp.Lookup(id)
	temporary := tt != nil || tv != nil
	if s.Kind == ast.ShowCreateTable {
		switch {
		case v != nil:
			return nil, &planner.Error{Pos: s.Name.Pos, Msg: fmt.Sprintf("SHOW CREATE TABLE is only supported for tables, but %s is a view. Please use SHOW CREATE VIEW instead.", id)}
		case t == nil:
			return nil, &planner.Error{Pos: s.Name.Pos, Msg: fmt.Sprintf("Could not execute SHOW CREATE TABLE. Table with identifier %s does not exist.", id)}
		}
		return &Result{Kind: ResultText, Text: createStatement(t, temporary, true)}, nil
	}
	switch {
	case t != nil:
		return nil, &planner.Error{Pos: s.Name.Pos, Msg: fmt.Sprintf("SHOW CREATE VIEW is only supported for views, but %s is a table. Please use SHOW CREATE TABLE instead.", id)}
	case v == nil:
		return nil, &planner.Error{Pos: s.Name.Pos, Msg: fmt.Sprintf("Could not execute SHOW CREATE VIEW. View with identifier %s does not exist.", id)}
	}
	// Flink lists the view's columns whether or not they were declared,
	// and its query as expanded when the view was created, which the
	// tables' later changes do not change.
	// (A view read from an old catalog file whose query did not bind then
	// has no columns known.)
	cols := v.Columns
	if len(cols) == 0 {
		cols = v.Schema.Names()
	}
	expanded := v.Expanded
	if expanded == "" {
		expanded = parser.FormatQuery(v.Query)
	}
	return &Result{Kind: ResultText, Text: createViewStatement(v, cols, expanded, temporary)}, nil
}

// createViewStatement renders a view as Flink's SHOW CREATE VIEW does
// (ShowCreateUtil.buildShowCreateViewRow), with its fully qualified name,
// column list (columns, or none where only the declared ones are known)
// and query (expanded, or as written where Sluice does not expand it).
func createViewStatement(v *catalog.View, columns []string, query string, temporary bool) string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if temporary {
		b.WriteString("TEMPORARY ")
	}
	b.WriteString("VIEW " + v.ID().String())
	if len(columns) > 0 {
		cols := make([]string, len(columns))
		for i, c := range columns {
			cols[i] = "  " + quoteIdent(c)
		}
		b.WriteString(" (\n" + strings.Join(cols, ",\n") + "\n)")
	}
	b.WriteString("\nAS " + query + "\n")
	return b.String()
}

// quoteIdent quotes a name with backquotes, as Flink's
// EncodingUtils.escapeIdentifier.
func quoteIdent(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// createStatement renders a table's definition as Flink's SHOW CREATE TABLE
// does: CREATE [TEMPORARY] TABLE with its fully qualified name, the current
// columns (their types serializable, as Flink's ShowCreateUtil writes
// them: VARCHAR(2147483647) for STRING), watermark, primary key and options
// (after any ALTER TABLE), names quoted, computed columns and the watermark as Flink writes them
// (parser.FormatFlinkExpr), options sorted; with mask, the values of sensitive options
// hidden (MaskValue), for showing.
func createStatement(t *catalog.Table, temporary, mask bool) string {
	var lines []string
	for _, c := range t.Columns {
		l := "  " + quoteIdent(c.Name) + " "
		switch {
		case c.Computed != nil:
			l += "AS " + parser.FormatFlinkExpr(c.Computed)
		case c.Metadata:
			l += c.Type.SerializableString() + " METADATA"
			if c.MetadataKey != "" {
				l += " FROM '" + c.MetadataKey + "'"
			}
			if c.Virtual {
				l += " VIRTUAL"
			}
		default:
			l += c.Type.SerializableString()
		}
		if c.Comment != "" {
			l += " COMMENT " + parser.QuoteString(c.Comment)
		}
		lines = append(lines, l)
	}
	if w := t.Watermark; w != nil {
		lines = append(lines, "  WATERMARK FOR "+quoteIdent(w.Column)+" AS "+parser.FormatFlinkExpr(w.Expr))
	}
	if len(t.PrimaryKey) > 0 {
		pk := make([]string, len(t.PrimaryKey))
		for i, k := range t.PrimaryKey {
			pk[i] = quoteIdent(k)
		}
		name := t.PrimaryKeyName
		if name == "" {
			name = catalog.DefaultPrimaryKeyName(t.PrimaryKey)
		}
		lines = append(lines, "  CONSTRAINT "+quoteIdent(name)+" PRIMARY KEY ("+strings.Join(pk, ", ")+") NOT ENFORCED")
	}
	keys := slices.Sorted(maps.Keys(t.Options))
	opts := make([]string, len(keys))
	for i, k := range keys {
		v := t.Options[k]
		if mask {
			v = MaskValue(k, v)
		}
		opts[i] = "  " + parser.QuoteString(k) + " = " + parser.QuoteString(v)
	}
	comment := ""
	if t.Comment != "" {
		// As Flink 1.16's ShowCreateUtil: ") COMMENT '...'", a line break,
		// then WITH.
		comment = "COMMENT " + parser.QuoteString(t.Comment) + "\n"
	}
	kind := "TABLE "
	if temporary {
		kind = "TEMPORARY TABLE "
	}
	return "CREATE " + kind + t.ID().String() + " (\n" + strings.Join(lines, ",\n") +
		"\n) " + comment + "WITH (\n" + strings.Join(opts, ",\n") + "\n)\n"
}

// describe lists a table's columns the way Flink's DESCRIBE does.
func (e *Session) describe(ctx context.Context, s *ast.Describe) (*Result, error) {
	b := e.binder(ctx)
	id, err := b.Qualify(s.Name)
	if err != nil {
		return nil, err
	}
	t, v := b.Lookup(id)
	if t == nil && v == nil {
		// Flink's DescribeTableOperation.
		return nil, &planner.Error{Pos: s.Name.Pos, Msg: fmt.Sprintf("Tables or views with the identifier '%s' doesn't exist.", id.Summary())}
	}
	node, err := b.Query(&ast.Select{Items: []*ast.SelectItem{{Star: true}}, From: &ast.TableName{Name: s.Name}})
	if err != nil {
		return nil, err
	}
	schema := node.Schema()
	var pk []string
	var wm, extras, comments map[string]string
	if t != nil {
		comments = columnComments(t)
		pk = t.PrimaryKey
		if t.Watermark != nil {
			// Flink's watermark column is the expression alone (table.q).
			wm = map[string]string{t.Watermark.Column: parser.FormatFlinkExpr(t.Watermark.Expr)}
		}
		extras = columnExtras(t)
	}
	r := &Result{Kind: ResultTable, Headers: []string{"name", "type", "null", "key", "extras", "watermark"}}
	if len(comments) > 0 {
		// Flink's ShowColumnsOperation and DescribeTableOperation add the
		// column when a column has a comment.
		r.Headers = append(r.Headers, "comment")
	}
	for _, f := range schema {
		key := ""
		for _, k := range pk {
			if k == f.Name {
				key = "PRI(" + strings.Join(pk, ", ") + ")"
			}
		}
		t := f.Type
		null := "TRUE"
		if t.NotNull {
			null = "FALSE"
		}
		row := []string{f.Name, t.Nullable().String(), null, key, extras[f.Name], wm[f.Name]}
		if len(comments) > 0 {
			row = append(row, comments[f.Name])
		}
		r.Rows = append(r.Rows, row)
	}
	return r, nil
}

// columnComments gives the comments of t's columns that have one.
func columnComments(t *catalog.Table) map[string]string {
	out := map[string]string{}
	for _, c := range t.Columns {
		if c.Comment != "" {
			out[c.Name] = c.Comment
		}
	}
	return out
}

// columnExtras is DESCRIBE's extras column: how computed and metadata
// columns are defined.
func columnExtras(t *catalog.Table) map[string]string {
	out := map[string]string{}
	for _, c := range t.Columns {
		switch {
		case c.Computed != nil:
			out[c.Name] = "AS " + parser.FormatFlinkExpr(c.Computed)
		case c.Metadata:
			s := "METADATA"
			if c.MetadataKey != "" {
				s += " FROM '" + c.MetadataKey + "'"
			}
			if c.Virtual {
				s += " VIRTUAL"
			}
			out[c.Name] = s
		}
	}
	return out
}

// statementText cuts the statement starting at pos out of src, up to its
// terminating semicolon.
func statementText(src string, pos ast.Pos) string {
	off := offsetOf(src, pos)
	rest := src[off:]
	chunks := parser.SplitStatements(rest)
	if len(chunks) > 0 {
		return strings.TrimSuffix(strings.TrimSpace(chunks[0].Text), ";")
	}
	return strings.TrimSpace(rest)
}

func offsetOf(src string, pos ast.Pos) int {
	line, off := 1, 0
	for off < len(src) && line < pos.Line {
		if src[off] == '\n' {
			line++
		}
		off++
	}
	off += pos.Col - 1
	return min(max(off, 0), len(src))
}

func newJobID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// startJob starts the job of one INSERT or of a statement set's: one job
// writing every sink; text is the statement.
func (e *Session) startJob(sinks []*planner.Sink, text string) (*Job, error) {
	roots := make([]planner.Node, len(sinks))
	for i, s := range sinks {
		roots[i] = s
	}
	p, err := e.executionPlan(roots...)
	if err != nil {
		return nil, err
	}
	return e.startPlan(p, text)
}

func (e *Session) startQuery(ctx context.Context, root *planner.Collect) (*Stream, error) {
	p, err := e.executionPlan(root)
	if err != nil {
		return nil, err
	}
	g, err := e.build(p)
	if err != nil {
		return nil, err
	}
	run, err := runtime.Start(ctx, g.Graph)
	if err != nil {
		return nil, err
	}
	return &Stream{Schema: root.Schema(), TimeZone: e.config.TimeZone(), Batch: batchPlan(p), run: run, out: g.Collector}, nil
}

// Stream is the changelog of a running query.
type Stream struct {
	Schema   types.Schema
	TimeZone *time.Location
	// Batch is set for a query run in batch mode: its changes are its
	// final rows, insert-only, in the order of its ORDER BY if it has one.
	Batch bool
	run   *runtime.Job
	out   *ops.Collector
}

// Change is one changelog row of a query result.
type Change = ops.Change

// Next returns the next batch of changes, waiting until some arrive, the
// query ends (io.EOF-like: ok false with a nil error), it fails, or ctx ends.
func (s *Stream) Next(ctx context.Context) ([]Change, bool, error) {
	for {
		changes, ended := s.out.Take()
		if len(changes) > 0 {
			return changes, true, nil
		}
		if ended {
			return nil, false, nil
		}
		select {
		case <-s.out.Ready():
		case <-s.run.Done():
			if err := s.run.Err(); err != nil {
				return nil, false, clipped(err)
			}
			if changes, _ := s.out.Take(); len(changes) > 0 {
				return changes, true, nil
			}
			return nil, false, nil
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
	}
}

// Drain returns the changes available now without waiting.
func (s *Stream) Drain() []Change {
	changes, _ := s.out.Take()
	return changes
}

// Ended reports whether the query's result is complete: its input ended
// (bounded sources) or a LIMIT has all its rows.
func (s *Stream) Ended() bool {
	if s.out.Finished() {
		return true
	}
	select {
	case <-s.run.Done():
		return s.run.Err() == nil && s.out.Finished()
	default:
		return false
	}
}

// Err returns the query's failure, if it failed.
func (s *Stream) Err() error { return clipped(s.run.Err()) }

// Close cancels the query.
func (s *Stream) Close() {
	s.run.Cancel()
	<-s.run.Done()
}

// WaitQuiet blocks until every running job and the given streams have
// processed all input available: every job is quiet (runtime.Job.Quiet) and
// no job made progress while that was checked, so that data moving between
// jobs through Kafka is not missed. It fails when a job fails.
func (e *Session) WaitQuiet(ctx context.Context, streams ...*Stream) error {
	jobs := e.jobs.Jobs()
	for {
		runs, settled, err := currentRuns(jobs, streams)
		if err != nil {
			return err
		}
		progress := func() (n int64) {
			for _, r := range runs {
				n += r.Progress()
			}
			return n
		}
		before := progress()
		quiet, err := allQuiet(ctx, runs)
		if err != nil {
			return err
		}
		if settled && quiet && progress() == before {
			return nil
		}
		// Polled: watermarks and idleness advance on the sources' own
		// schedule, which nothing here can be told of.
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// currentRuns returns the attempts of the jobs that are still running and
// the streams' runs; settled is false while a job waits to restart. A job
// that failed for good is an error.
func currentRuns(jobs []*Job, streams []*Stream) (runs []*runtime.Job, settled bool, err error) {
	settled = true
	for _, j := range jobs {
		select {
		case <-j.Done():
			if err := j.Err(); err != nil {
				return nil, false, err
			}
			continue
		default:
		}
		r := j.current()
		select {
		case <-r.Done():
			if r.Err() != nil {
				settled = false // failed, about to be restarted
				continue
			}
		default:
		}
		runs = append(runs, r)
	}
	for _, s := range streams {
		if err := s.run.Err(); err != nil {
			return nil, false, err
		}
		runs = append(runs, s.run)
	}
	return runs, settled, nil
}

// allQuiet reports whether every run is quiet. A run that failed is not;
// currentRuns tells, next time round, whether that is for good.
func allQuiet(ctx context.Context, runs []*runtime.Job) (bool, error) {
	for _, r := range runs {
		select {
		case <-r.Done():
			if r.Err() != nil {
				return false, nil
			}
			continue
		default:
		}
		q, err := r.Quiet(ctx)
		if err != nil || !q {
			return false, err
		}
	}
	return true, nil
}

// ExecuteStatement runs one parsed statement; src is the script text its
// positions refer to (for error carets and SHOW CREATE TABLE).
func (e *Session) ExecuteStatement(ctx context.Context, st ast.Statement, src string) (*Result, error) {
	return e.run(ctx, st, src)
}

// SetClock makes the engine's jobs read processing time from c
// (JobManager.SetClock).
func (e *Engine) SetClock(c runtime.Clock) { e.jobs.SetClock(c) }
