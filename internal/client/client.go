// Package client is Sluice's interactive SQL client: it reads statements,
// runs them on an engine and prints results in the SQL client's result
// modes (table, tableau, changelog), with Flink's messages.
//
// The messages and the way statements, queries and Ctrl-C are handled follow
// Flink's SQL client (org.apache.flink.table.client.cli: CliClient,
// CliStrings, CliTableauResultView, CliChangelogResultView and
// CliTableResultView, Flink 1.16). On a terminal (RunTerminal) the
// changelog and table views are full-screen as Flink's (screen.go); on
// other input the changelog is printed inline and the table view prints
// the materialized result when the query ends.
package client

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/client/tableau"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// Client runs statements on a backend, an embedded engine or a SQL
// Gateway, and prints their results.
type Client struct {
	Backend Backend
	Out     io.Writer
	// Interactive enables prompts.
	Interactive bool
	// Interrupts delivers Ctrl-C presses: a running statement or query
	// stops on one, and one at the prompt discards the statement being
	// typed.
	Interrupts <-chan os.Signal

	// src supplies the input lines while Run runs.
	src lineSource
	// typed holds the lines of the statement typed so far, for the Tab
	// completion of the next one; run sets it before each read.
	typed string
	// newScreen, when set, opens the terminal for the full-screen table
	// and changelog views.
	newScreen func() (tcell.Screen, error)
	// hold, when set, keeps what jobs print while a full-screen view is
	// shown, until the function it returns is called.
	hold func() (release func())
	// colors, on a terminal, is the color schema the line being typed is
	// highlighted in (sql-client.display.color-schema).
	colors *colorSchema
	// inSet is set between BEGIN STATEMENT SET and END, and added counts
	// the INSERTs added to the set since.
	inSet bool
	added int
}

const (
	prompt       = "Sluice SQL> "
	continuation = "> "
	cliName      = "Sluice SQL CLI Client"
)

// Messages of Flink's SQL client (CliStrings).
const (
	msgExecutionError   = "Could not execute SQL statement."
	msgExecuteStatement = "Execute statement succeed."
	msgSubmitting       = "Submitting SQL update statement to the cluster..."
	msgSubmitted        = "SQL update statement has been successfully submitted to the cluster:"
	msgResultQuit       = "Result retrieval cancelled."
	msgExecuteFile      = "Executing SQL from file."
	msgQuit             = "Exiting " + cliName + "..."
	msgFinishStatement  = "Complete execution of the SQL update statement."
)

// errInterrupted is the cause of a statement's context cancelled by Ctrl-C.
var errInterrupted = errors.New("interrupted")

// input is one line read by Run, with its newline, or the error that ended
// the input.
type input struct {
	line string
	err  error
}

// Errors a line source ends a read with.
var (
	// errAborted: Ctrl-C discarded the line being edited.
	errAborted = errors.New("line aborted")
	// errQuit: the user ended the session (Ctrl-D on an empty line).
	errQuit = errors.New("end of session")
)

// A lineSource supplies the lines Run reads: those typed at its prompts and,
// while a statement runs, the line that stops a query shown in the table or
// changelog result mode.
type lineSource interface {
	// readLine shows the prompt p and reads the next line; the line or the
	// error that ended the input arrives on the returned channel.
	readLine(p string) <-chan input
	// watch reads the line typed next while a statement runs, until stop
	// is called: quit is closed if it is the quit key ("Q"); another line
	// is kept as the next one readLine returns.
	watch() (quit <-chan struct{}, stop func())
	// addHistory records a statement Run has read, as one entry however
	// many lines it spans.
	addHistory(stmt string) error
}

// Run reads statements from in and runs each as soon as its terminating ';'
// has been read, until in ends, ctx ends or the user enters QUIT; (or EXIT;).
// A Ctrl-C at the prompt discards the statement being typed. While a query
// is shown in the table or changelog result mode, a line "Q" stops it, like
// Ctrl-C. Run may return while a read from in is still in progress; its
// result is discarded.
func (c *Client) Run(ctx context.Context, in io.Reader) error {
	out := io.Discard
	if c.Interactive {
		out = c.Out
	}
	src := newReaderSource(in, out)
	defer src.close()
	return c.run(ctx, src)
}

// run reads statements from src and runs them, as Run describes.
func (c *Client) run(ctx context.Context, src lineSource) error {
	c.src = src
	defer func() { c.src = nil }()

	var buf strings.Builder
	p := prompt
	var lines <-chan input // the line being read
	for {
		if lines == nil {
			c.typed = buf.String()
			lines = src.readLine(p)
		}
		var r input
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.Interrupts:
			// Flink's CliClient: "user cancelled line with Ctrl+C". The
			// read goes on, after a fresh prompt.
			buf.Reset()
			p = prompt
			if c.Interactive {
				fmt.Fprint(c.Out, "\n"+p)
			}
			continue
		case r = <-lines:
			lines = nil
		}
		if r.line != "" {
			buf.WriteString(r.line)
			text := buf.String()
			chunks := parser.SplitStatements(text)
			switch {
			case len(chunks) == 0:
				// Only blanks and comments so far.
				buf.Reset()
				p = prompt
			case chunks[len(chunks)-1].Terminated || len(chunks) == 1 && isQuit(chunks[0].Text):
				buf.Reset()
				p = prompt
				if err := src.addHistory(text); err != nil {
					c.warn(fmt.Sprintf("Could not save the statement in the history file: %v", err))
				}
				if _, quit := c.execute(ctx, chunks, false); quit {
					return nil
				}
			default:
				p = continuation
			}
		}
		switch {
		case r.err == nil:
		case r.err == io.EOF:
			if chunks := parser.SplitStatements(buf.String()); len(chunks) > 0 {
				c.execute(ctx, chunks, false)
			}
			return nil
		case r.err == errAborted:
			// The line editor's Ctrl-C, which it has echoed.
			buf.Reset()
			p = prompt
		case r.err == errQuit:
			fmt.Fprintln(c.Out)
			if !c.confirmQuit(ctx) {
				buf.Reset()
				p = prompt
				continue
			}
			c.info(msgQuit)
			return nil
		default:
			return r.err
		}
	}
}

// readerSource is the lineSource of a plain reader, such as a pipe: a
// goroutine reads ahead, a line at a time.
type readerSource struct {
	out   io.Writer // where prompts go
	lines chan input
	// ahead holds a line read by watch that was not the quit key.
	ahead chan input
	stop  chan struct{}
}

func newReaderSource(in io.Reader, out io.Writer) *readerSource {
	r := &readerSource{out: out, lines: make(chan input), ahead: make(chan input, 1), stop: make(chan struct{})}
	go readLines(in, r.lines, r.stop)
	return r
}

// readLines sends the lines of in, the last one with the error that ended
// the input, until stop is closed.
func readLines(in io.Reader, out chan<- input, stop <-chan struct{}) {
	r := bufio.NewReader(in)
	for {
		line, err := r.ReadString('\n')
		select {
		case out <- input{line, err}:
		case <-stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// close stops reading, once the read in progress ends.
func (r *readerSource) close() { close(r.stop) }

func (r *readerSource) readLine(p string) <-chan input {
	fmt.Fprint(r.out, p)
	if len(r.ahead) > 0 {
		return r.ahead
	}
	return r.lines
}

func (r *readerSource) watch() (<-chan struct{}, func()) {
	if len(r.ahead) > 0 {
		// Typed ahead already: leave the rest for the prompt.
		return nil, func() {}
	}
	read := func(done <-chan struct{}) (input, bool) {
		select {
		case in := <-r.lines:
			return in, true
		case <-done:
			return input{}, false
		}
	}
	return watchLine(read, func(in input) { r.ahead <- in })
}

func (r *readerSource) addHistory(string) error { return nil }

// isQuit reports whether a statement is QUIT or EXIT.
func isQuit(stmt string) bool {
	return isCommand(stmt, "QUIT") || isCommand(stmt, "EXIT")
}

// isCommand reports whether a statement is the client command cmd (QUIT,
// HELP, CLEAR), which the client runs itself, as Flink's does.
func isCommand(stmt, cmd string) bool {
	s := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(stmt), ";"))
	return strings.EqualFold(s, cmd)
}

// helpText is what HELP prints: the commands in the layout of Flink's
// client (CliStrings.MESSAGE_HELP), with Sluice's.
var helpText = func() string {
	commands := [][2]string{
		{"HELP", "Prints the available commands."},
		{"QUIT/EXIT", "Quits the SQL client (asking first while jobs it started run)."},
		{"CLEAR", "Clears the current terminal."},
		{"SET", `Sets a session configuration property. Syntax: "SET '<key>'='<value>';". Use "SET;" for listing all properties.`},
		{"RESET", `Resets a session configuration property. Syntax: "RESET '<key>';". Use "RESET;" for reset all session properties.`},
		{"INSERT INTO", "Inserts the results of a SQL SELECT query into a declared table sink, as a job that keeps running."},
		{"SELECT", "Executes a SQL SELECT query and shows its result as it changes."},
		{"EXPLAIN", "Describes the execution plan of a query or table with the given name."},
		{"BEGIN STATEMENT SET", `Begins a statement set. Syntax: "BEGIN STATEMENT SET;"`},
		{"END", `Ends a statement set. Syntax: "END;"`},
		{"SHOW JOBS", "Lists the jobs with their status."},
		{"STOP JOB", `Stops a job. Syntax: "STOP JOB '<id>' [WITH SAVEPOINT [WITH DRAIN]];"`},
	}
	var b strings.Builder
	b.WriteString("The following commands are available:\n\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "%-19s\t\t%s\n", c[0], c[1])
	}
	b.WriteString("\nHint: Make sure that a statement ends with \";\" for finalizing (multi-line) statements.\n")
	b.WriteString("You can also type any Flink SQL statement Sluice supports: see docs/sql.md.\n")
	return b.String()
}()

// isQuitKey reports whether a line typed while a query is shown leaves the
// table or changelog view: Q, the key Flink's full-screen views quit on.
func isQuitKey(line string) bool {
	return strings.EqualFold(strings.TrimSpace(line), "q")
}

// jobsOwner is a backend whose jobs end with the client (the embedded
// engine's), unlike a SQL gateway's.
type jobsOwner interface {
	// runningJobs describes the jobs running: "ID (name)" each.
	runningJobs() []string
	// resumable reports whether the jobs resume when the client starts
	// again (they are kept in a data directory).
	resumable() bool
}

// confirmQuit asks, at an interactive prompt, whether to quit when jobs
// that end with the client are running, and reports whether to. Anything
// but "y" or "yes" (Ctrl-C, Ctrl-D) keeps the client running.
func (c *Client) confirmQuit(ctx context.Context) bool {
	owner, ok := c.Backend.(jobsOwner)
	if !c.Interactive || c.src == nil || !ok {
		return true
	}
	jobs := owner.runningJobs()
	if len(jobs) == 0 {
		return true
	}
	what := fmt.Sprintf("%d jobs are running", len(jobs))
	stop := "Quitting stops them"
	if len(jobs) == 1 {
		what, stop = "1 job is running", "Quitting stops it"
	}
	if owner.resumable() {
		stop += " until the client starts again on the same -data-dir"
	}
	c.warn(fmt.Sprintf("%s: %s", what, strings.Join(jobs, ", ")))
	var r input
	select {
	case <-ctx.Done():
		return true
	case <-c.Interrupts:
		fmt.Fprintln(c.Out)
		return false
	case r = <-c.src.readLine(stop + ". Quit? (y/N) "):
	}
	switch {
	case r.err == io.EOF && strings.TrimSpace(r.line) == "":
		fmt.Fprintln(c.Out)
		return true // the input has ended: no answer can come
	case r.err != nil && r.err != io.EOF:
		fmt.Fprintln(c.Out)
		return false
	}
	answer := strings.ToLower(strings.TrimSpace(r.line))
	return answer == "y" || answer == "yes"
}

// Execute runs the statements of text one after the other and prints their
// outcomes, each followed by a blank line. It stops at the first statement
// that fails and then returns false.
func (c *Client) Execute(ctx context.Context, text string) bool {
	ok, _ := c.execute(ctx, parser.SplitStatements(text), false)
	return ok
}

// RunScript runs a SQL script the way Flink's SQL client runs a file given
// with -f: it announces the file, echoes every statement after the prompt,
// stops at the first failing statement (returning false) or at QUIT, and
// accepts queries only in the tableau result mode.
func (c *Client) RunScript(ctx context.Context, script string) bool {
	c.info(msgExecuteFile)
	ok, _ := c.execute(ctx, parser.SplitStatements(script), true)
	return ok
}

// Init runs an initialization script (sql-client.sh -i): statements that
// set the session up (DDL, SET, RESET), silently; queries and INSERTs are
// refused, as Flink's client does. It reports whether every statement ran.
func (c *Client) Init(ctx context.Context, path, script string) bool {
	for _, ch := range parser.SplitStatements(script) {
		st, err := parser.ParseStatement(ch.Text)
		if err == nil {
			switch st.(type) {
			case *ast.QueryStatement, *ast.Insert, *ast.StatementSet, *ast.BeginStatementSet, *ast.EndStatementSet, *ast.Explain:
				err = fmt.Errorf("unsupported statement in the initialization file %s: only DDL, SET and RESET set a session up\n  %s", path, strings.TrimSpace(ch.Text))
			default:
				_, err = c.Backend.Execute(ctx, st, ch.Text)
			}
		}
		if err != nil {
			c.printError(ctx, err)
			fmt.Fprintln(c.Out)
			return false
		}
	}
	c.info("Successfully initialized from sql script: file:" + path)
	fmt.Fprintln(c.Out)
	return true
}

// execute runs statements until one fails or quits. Each statement is parsed
// on its own, so that error positions are relative to it, as in Flink.
func (c *Client) execute(ctx context.Context, chunks []parser.Chunk, script bool) (ok, quit bool) {
	for _, ch := range chunks {
		if ctx.Err() != nil {
			return false, false // the session is ending: run no more
		}
		if script {
			fmt.Fprintf(c.Out, "%s%s\n", prompt, ch.Text)
		}
		if isQuit(ch.Text) {
			if !script && !c.confirmQuit(ctx) {
				return true, false
			}
			c.info(msgQuit)
			return true, true
		}
		if isCommand(ch.Text, "HELP") {
			fmt.Fprintln(c.Out, helpText)
			continue
		}
		if isCommand(ch.Text, "CLEAR") {
			if c.Interactive {
				fmt.Fprint(c.Out, clearScreen)
			}
			continue
		}
		err := c.statement(ctx, ch.Text, script)
		if err != nil {
			c.printError(ctx, err)
		}
		// Flink's CliClient leaves a blank line after every statement.
		fmt.Fprintln(c.Out)
		if err != nil {
			return false, false
		}
	}
	return true, false
}

func (c *Client) info(msg string) {
	fmt.Fprintf(c.Out, "[INFO] %s\n", msg)
}

func (c *Client) warn(msg string) {
	fmt.Fprintf(c.Out, "[WARNING] %s\n", msg)
}

// printError prints a statement's error as Flink's client does; with
// sql-client.verbose, followed by each of its causes that says more.
func (c *Client) printError(ctx context.Context, err error) {
	fmt.Fprintf(c.Out, "[ERROR] %s Reason:\n%v\n", msgExecutionError, err)
	if s, serr := c.settings(ctx); serr != nil || !s.verbose {
		return
	}
	for _, cause := range causes(err) {
		fmt.Fprintf(c.Out, "Caused by: %s\n", cause)
	}
}

// causes lists the messages of err's chain of wrapped errors after err's
// own, as Java's "Caused by:" lines list an exception's causes; a cause
// whose message is its wrapper's is left out.
func causes(err error) []string {
	var out []string
	shown := err.Error()
	for {
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			errs := u.Unwrap()
			if len(errs) != 1 {
				return out
			}
			err = errs[0]
		default:
			return out
		}
		if err == nil {
			return out
		}
		if msg := err.Error(); msg != shown {
			out = append(out, msg)
			shown = msg
		}
	}
}

// clientSettings are the session settings the client acts on.
type clientSettings struct {
	mode      string // sql-client.execution.result-mode, lower case
	dmlSync   bool   // table.dml-sync
	width     int    // table.display.max-column-width
	maxRows   int    // sql-client.execution.max-table-result.rows
	verbose   bool   // sql-client.verbose
	printTime bool   // sql-client.display.print-time-cost
	batch     bool   // execution.runtime-mode = 'batch'
	// since, with printTime, is how long the statement has taken.
	since func() time.Duration
}

// tableauOptions are the printers' options under these settings.
func (s clientSettings) tableauOptions() []tableau.Option {
	opts := []tableau.Option{tableau.WithMaxColumnWidth(s.width)}
	if s.since != nil {
		opts = append(opts, tableau.WithTimeCost(s.since))
	}
	return opts
}

// settings reads the session's settings the client acts on.
func (c *Client) settings(ctx context.Context) (clientSettings, error) {
	m, err := c.Backend.Settings(ctx)
	if err != nil {
		return clientSettings{}, err
	}
	get := func(k string) string { return m[k] }
	flag := func(k string) bool { b, _ := strconv.ParseBool(strings.TrimSpace(m[k])); return b }
	rows, _ := strconv.Atoi(strings.TrimSpace(m[sluice.ConfMaxTableResultRows]))
	return clientSettings{
		mode:      strings.ToLower(m[sluice.ConfResultMode]),
		dmlSync:   flag(sluice.ConfDMLSync),
		width:     sluice.MaxColumnWidth(get),
		maxRows:   rows,
		verbose:   flag(sluice.ConfVerbose),
		printTime: flag(sluice.ConfPrintTimeCost),
		batch:     strings.EqualFold(strings.TrimSpace(m[sluice.ConfRuntimeMode]), "batch"),
	}, nil
}

// submits reports whether a statement submits a job when it runs: an
// INSERT outside a statement set, the END of a set that holds INSERTs,
// EXECUTE STATEMENT SET, CREATE TABLE AS (never TEMPORARY), EXECUTE PLAN and COMPILE AND
// EXECUTE PLAN.
func (c *Client) submits(st ast.Statement) bool {
	switch s := st.(type) {
	case *ast.Insert:
		return !c.inSet
	case *ast.EndStatementSet:
		return c.inSet && c.added > 0
	case *ast.StatementSet, *ast.ExecutePlan:
		return !c.inSet
	case *ast.CreateTable:
		// CREATE TEMPORARY TABLE ... AS SELECT is refused before it is
		// submitted (Flink's SqlCreateTableAs.validate).
		return !c.inSet && s.AsQuery != nil && !s.Temporary
	case *ast.CompilePlan:
		return !c.inSet && s.Execute
	}
	return false
}

// statement parses and runs one statement; a Ctrl-C cancels it.
func (c *Client) statement(ctx context.Context, src string, script bool) error {
	st, err := parser.ParseStatement(src)
	if err != nil {
		return err
	}
	set, err := c.settings(ctx)
	if err != nil {
		return err
	}
	began := time.Now()
	if set.printTime {
		set.since = func() time.Duration { return time.Since(began) }
	}
	_, query := st.(*ast.QueryStatement)
	if query && script && set.mode != "tableau" {
		// CliClient rejects other result modes in non-interactive execution.
		return fmt.Errorf("In non-interactive mode, it only supports to use TABLEAU as value of %[1]s when execute query. Please add 'SET %[1]s=TABLEAU;' in the sql file.", sluice.ConfResultMode)
	}
	if query && set.batch && set.mode == "changelog" {
		// Flink's ResultDescriptor.createResult.
		return errors.New("Results of batch queries can only be served in table or tableau mode.")
	}
	submits := c.submits(st)
	if submits && !set.dmlSync {
		c.info(msgSubmitting)
	}
	// A query shown full-screen reads its keys itself; one shown inline
	// stops on a line "Q".
	quitLine := query && set.mode != "tableau" && c.newScreen == nil
	sctx, stop := c.interruptible(ctx, quitLine || submits && set.dmlSync)
	defer stop()
	res, err := c.Backend.Execute(sctx, st, src)
	c.track(st, err)
	switch st.(type) {
	case *ast.Set, *ast.Reset:
		c.refreshColors(ctx)
	}
	if err != nil {
		return err
	}
	switch res.Kind {
	case sluice.ResultOK:
		switch s := st.(type) {
		case *ast.Set:
			// Flink's client since 1.17 answers SET and RESET as any
			// other statement (set.q, select.q).
			c.info(msgExecuteStatement)
			if w := sluice.SettingWarning(s.Key); w != "" {
				c.warn(w)
			}
		default:
			c.info(msgExecuteStatement)
		}
	case sluice.ResultTable:
		return tableau.PrintStatic(c.Out, res.Headers, res.Rows, set.tableauOptions()...)
	case sluice.ResultText:
		// Flink's client since 1.17 prints the one "result" row of EXPLAIN
		// and SHOW CREATE as any other table (table.q, view.q).
		return tableau.PrintStatic(c.Out, []string{"result"}, [][]string{{res.Text}}, set.tableauOptions()...)
	case sluice.ResultJob:
		if !submits && !set.dmlSync {
			c.info(msgSubmitting)
		}
		if set.dmlSync {
			c.info(msgFinishStatement)
		} else {
			c.info(msgSubmitted)
			fmt.Fprintf(c.Out, "Job ID: %s\n", res.JobID)
		}
	case sluice.ResultStream:
		return c.show(sctx, res.Stream, set)
	}
	return nil
}

// track follows the statement set of the session as Flink's client does:
// BEGIN STATEMENT SET opens it, an INSERT added counts, END closes it
// whatever its outcome.
func (c *Client) track(st ast.Statement, err error) {
	switch st.(type) {
	case *ast.BeginStatementSet:
		if err == nil {
			c.inSet, c.added = true, 0
		}
	case *ast.Insert:
		if err == nil && c.inSet {
			c.added++
		}
	case *ast.EndStatementSet:
		c.inSet, c.added = false, 0
	}
}

// interruptible returns a context for running one statement that the next
// Ctrl-C cancels with the cause errInterrupted, or, when quitKey is set,
// also the quit key typed to Run's line source. The returned function
// releases the context.
func (c *Client) interruptible(ctx context.Context, quitKey bool) (context.Context, func()) {
	sctx, cancel := context.WithCancelCause(ctx)
	var quit <-chan struct{}
	stopWatching := func() {}
	if quitKey && c.src != nil {
		quit, stopWatching = c.src.watch()
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-c.Interrupts:
			cancel(errInterrupted)
		case <-quit:
			cancel(errInterrupted)
		case <-done:
		case <-sctx.Done():
		}
	}()
	return sctx, func() {
		close(done)
		<-stopped
		stopWatching()
		cancel(nil)
	}
}

// view prints a query result in one of the result modes.
type view interface {
	start() error
	add(changes []Change) error
	// end finishes the view after n changes; interrupted is set when the
	// user stopped the query.
	end(n int, interrupted bool) error
}

// show prints a query's result until the query ends or ctx ends. When an
// interrupt cancelled ctx, the changes collected until then are shown, then
// the view ends the way Flink's ends on Ctrl-C. On a terminal the table and
// changelog views are full-screen.
func (c *Client) show(ctx context.Context, s Stream, set clientSettings) error {
	defer s.Close()
	if set.mode != "tableau" && c.newScreen != nil {
		return c.showScreen(ctx, s, set, set.mode != "changelog")
	}
	// Values come printed already: the printers need no time zone.
	var v view
	opts := set.tableauOptions()
	switch {
	case set.mode == "tableau" && set.batch:
		v = &batchView{c: c, header: s.Schema().Names(), opts: opts}
	case set.mode == "tableau":
		v = &tableauView{p: tableau.NewStreaming(c.Out, s.Schema(), nil, opts...)}
	case set.mode == "changelog":
		v = &changelogView{c: c, p: tableau.NewChangelog(c.Out, s.Schema(), nil, opts...)}
	default:
		v = &tableView{c: c, header: s.Schema().Names(), table: materialized{maxRows: set.maxRows}, opts: opts}
	}
	if err := v.start(); err != nil {
		return err
	}
	n := 0
	for {
		changes, more, err := s.Next(ctx)
		if len(changes) > 0 {
			n += len(changes)
			if err := v.add(changes); err != nil {
				return err
			}
			continue
		}
		switch {
		case context.Cause(ctx) == errInterrupted, errors.Is(err, context.Canceled) && ctx.Err() != nil:
			return v.end(n, true)
		case err != nil:
			return err
		case !more:
			return v.end(n, false)
		}
	}
}

// tableauView prints rows as they change, like CliTableauResultView.
type tableauView struct{ p *tableau.Streaming }

func (v *tableauView) start() error { return v.p.Header() }

func (v *tableauView) add(changes []Change) error {
	for _, ch := range changes {
		if err := v.p.Cells(ch.Kind, ch.Cells); err != nil {
			return err
		}
	}
	return nil
}

func (v *tableauView) end(n int, interrupted bool) error {
	if interrupted {
		return v.p.Interrupted(n)
	}
	return v.p.Footer(n)
}

// batchView prints a batch query's final rows when it has ended, as
// CliTableauResultView.printBatchResults: no "op" column, widths fitted to
// the rows, "n rows in set". The rows come insert-only (the engine
// materializes a batch query's result).
type batchView struct {
	c      *Client
	header []string
	rows   [][]string
	opts   []tableau.Option
}

func (v *batchView) start() error { return nil }

func (v *batchView) add(changes []Change) error {
	for _, ch := range changes {
		if ch.Kind != types.Insert {
			return fmt.Errorf("a batch query's result holds a %s row", ch.Kind)
		}
		v.rows = append(v.rows, ch.Cells)
	}
	return nil
}

func (v *batchView) end(n int, interrupted bool) error {
	if interrupted {
		return tableau.NewStreaming(v.c.Out, nil, nil, v.opts...).Interrupted(n)
	}
	return tableau.PrintBatchCells(v.c.Out, v.header, v.rows, v.opts...)
}

// changelogView prints the changes inline in the layout of Flink's changelog
// view; leaving it prints "Result retrieval cancelled." as CliClient does.
type changelogView struct {
	c *Client
	p *tableau.Changelog
}

func (v *changelogView) start() error { return v.p.Header() }

func (v *changelogView) add(changes []Change) error {
	for _, ch := range changes {
		if err := v.p.Cells(ch.Kind, ch.Cells); err != nil {
			return err
		}
	}
	return nil
}

func (v *changelogView) end(_ int, interrupted bool) error {
	if interrupted {
		v.c.info(msgResultQuit)
	}
	return nil
}

// clearScreen clears the terminal, for CLEAR.
const clearScreen = "\x1b[H\x1b[2J"

// tableView materializes the changelog into the current result table, as
// the SQL client's table mode does (MaterializedCollectStreamResult), and
// prints the table when the query ends or is stopped: the table view
// without a terminal.
type tableView struct {
	c      *Client
	header []string
	table  materialized
	opts   []tableau.Option
}

func (v *tableView) start() error { return nil }

func (v *tableView) add(changes []Change) error {
	v.table.apply(changes)
	return nil
}

func (v *tableView) end(_ int, interrupted bool) error {
	if err := tableau.PrintBatchCells(v.c.Out, v.header, v.table.rows, v.opts...); err != nil {
		return err
	}
	if interrupted {
		v.c.info(msgResultQuit)
	}
	return nil
}

// NotifyInterrupts returns a channel of Ctrl-C presses that do not kill
// the process.
func NotifyInterrupts() <-chan os.Signal {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	return ch
}
