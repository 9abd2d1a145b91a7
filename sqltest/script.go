package sqltest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/client/tableau"
	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// A script test (NAME.sqltest) holds many statements, each optionally
// followed by what it must give, in the spirit of sqllogictest:
//
//	CREATE TABLE t (k STRING, v INT) WITH (...);
//	INSERT INTO t VALUES ('a', 1), ('a', 2);
//
//	SELECT k, SUM(v) FROM t GROUP BY k;
//	---- rows per key k
//	+----+-----+-----+
//	| op |   k |  v  |
//	...
//
//	SELECT nope FROM t;
//	---- error validation 1:8
//	Column 'nope' not found in any table
//
// A statement without an expectation must succeed. An expectation starts
// with a line "---- rows" or "---- error" right after the statement and
// runs to the next blank line:
//
//   - "---- rows" is what the statement prints in the tableau result mode
//     (a query once the pipeline is quiescent, a SHOW/DESCRIBE table, an
//     EXPLAIN text). The frame (borders, column names, the closing "Received
//     a total of N rows", the lines of a text) must match exactly, but for
//     blank lines, left out (EXPLAIN has one between its sections). The rows compare as a multiset
//     by default, in order with "---- rows ordered" (ORDER BY, one
//     partition), and with "---- rows per key C1, C2" in order within each
//     value of the named columns and in any order across them: the
//     changelog of one key is ordered in Flink, the interleaving of keys is
//     not. "---- rows final" compares the rows the changelog leaves, as
//     the table result mode shows them (written as +I rows; the "Received
//     a total" line is not compared): for a result whose intermediate
//     updates depend on how its inputs interleave, such as a join's.
//   - "---- error KIND [LINE:COL]" is a failure of that kind (parse,
//     validation, runtime for a query or INSERT job that fails while
//     running, error for anything else) at that position of the statement
//     (positions count from the statement's first line, as in the client).
//     The lines after it are the message; a last line "..." makes them a
//     prefix of it.
//
// Lines starting with '#' outside expectations are comments, as are SQL
// comments. Statements run one by one on a fresh embedded cluster; before
// each INSERT and query the jobs already started process all their
// available input, and every job started must not fail unless expected to.

// Step is one statement of a script test and what it must give.
type Step struct {
	// Line is where the statement starts in the file.
	Line int
	// Text is the statement's text, from its first token to its ';'.
	Text string
	// Expect is nil for a statement that must simply succeed.
	Expect *Expectation
}

// Expectation is what a statement must give.
type Expectation struct {
	// Error is the kind of failure expected ("parse", "validation",
	// "runtime", "error"), or "" when rows are expected.
	Error string
	// Pos is the expected position of the failure (zero: none).
	Pos ast.Pos
	// Message is the expected failure message; Prefix makes it a prefix.
	Message string
	Prefix  bool
	// Rows is the expected printed output; Order says how its rows compare.
	Rows  string
	Order RowOrder
	// Keys are the columns of RowsPerKey.
	Keys []string
}

// RowOrder says how expected rows compare with printed ones.
type RowOrder int

// Row orders.
const (
	// RowsAnyOrder compares rows as a multiset.
	RowsAnyOrder RowOrder = iota
	// RowsOrdered compares rows in order.
	RowsOrdered
	// RowsPerKey compares rows in order within each key.
	RowsPerKey
	// RowsFinal compares the result the changelog leaves (as the table
	// result mode shows it) with the expected rows, all +I.
	RowsFinal
)

// Failure is one statement of a script test that did not give what was
// expected.
type Failure struct {
	// Line is where the statement starts in the file (0: the script as a
	// whole).
	Line int
	// Msg says what differed.
	Msg string
}

func (f Failure) String() string {
	if f.Line == 0 {
		return f.Msg
	}
	return fmt.Sprintf("line %d: %s", f.Line, f.Msg)
}

// ParseScriptTest reads the statements and expectations of a script test.
func ParseScriptTest(src string) ([]Step, error) {
	var steps []Step
	var sql strings.Builder
	sqlStart := 1 // the file line sql's first line is
	flush := func(expect *Expectation, at int) error {
		chunks := parser.SplitStatements(sql.String())
		if expect != nil && len(chunks) == 0 {
			return fmt.Errorf("line %d: an expectation without a statement before it", at)
		}
		for i, c := range chunks {
			line := sqlStart + c.Line - 1
			if !c.Terminated {
				return fmt.Errorf("line %d: the statement does not end with ';'", line)
			}
			st := Step{Line: line, Text: c.Text}
			if i == len(chunks)-1 {
				st.Expect = expect
			}
			steps = append(steps, st)
		}
		sql.Reset()
		return nil
	}
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if !strings.HasPrefix(line, "----") {
			if sql.Len() == 0 {
				sqlStart = i + 1
			}
			if strings.HasPrefix(line, "#") {
				line = "" // a comment; the blank keeps line numbers
			}
			sql.WriteString(line)
			sql.WriteByte('\n')
			continue
		}
		at := i + 1
		expect, err := parseExpectation(strings.TrimSpace(strings.TrimPrefix(line, "----")))
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", at, err)
		}
		var body []string
		for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
			i++
			body = append(body, lines[i])
		}
		if expect.Error != "" {
			if n := len(body); n > 0 && body[n-1] == "..." {
				expect.Prefix, body = true, body[:n-1]
			}
			expect.Message = strings.Join(body, "\n")
		} else {
			if len(body) == 0 {
				return nil, fmt.Errorf("line %d: '---- rows' needs the printed output below it", at)
			}
			expect.Rows = strings.Join(body, "\n")
		}
		if err := flush(expect, at); err != nil {
			return nil, err
		}
	}
	if err := flush(nil, len(lines)); err != nil {
		return nil, err
	}
	return steps, nil
}

// parseExpectation reads the words after "----".
func parseExpectation(head string) (*Expectation, error) {
	words := strings.Fields(head)
	if len(words) == 0 {
		return nil, errors.New("expected '---- rows' or '---- error KIND'")
	}
	switch words[0] {
	case "rows":
		e := &Expectation{}
		switch rest := words[1:]; {
		case len(rest) == 0:
		case len(rest) == 1 && rest[0] == "ordered":
			e.Order = RowsOrdered
		case len(rest) == 1 && rest[0] == "final":
			e.Order = RowsFinal
		case len(rest) >= 3 && rest[0] == "per" && rest[1] == "key":
			e.Order = RowsPerKey
			for _, k := range strings.Split(strings.Join(rest[2:], " "), ",") {
				if k = strings.TrimSpace(k); k == "" {
					return nil, fmt.Errorf("an empty column name in '---- %s'", head)
				}
				e.Keys = append(e.Keys, strings.TrimSpace(k))
			}
		default:
			return nil, fmt.Errorf("expected '---- rows', '---- rows ordered', '---- rows final' or '---- rows per key COLUMNS', found '---- %s'", head)
		}
		return e, nil
	case "error":
		if len(words) < 2 || len(words) > 3 {
			return nil, fmt.Errorf("expected '---- error KIND [LINE:COL]', found '---- %s'", head)
		}
		e := &Expectation{Error: words[1]}
		if !slices.Contains([]string{"parse", "validation", "runtime", "error"}, e.Error) {
			return nil, fmt.Errorf("unknown error kind '%s': expected parse, validation, runtime or error", e.Error)
		}
		if len(words) == 3 {
			l, c, ok := strings.Cut(words[2], ":")
			line, err1 := strconv.Atoi(l)
			col, err2 := strconv.Atoi(c)
			if !ok || err1 != nil || err2 != nil || line < 1 || col < 1 {
				return nil, fmt.Errorf("expected a position LINE:COL, found '%s'", words[2])
			}
			e.Pos = ast.Pos{Line: line, Col: col}
		}
		return e, nil
	}
	return nil, fmt.Errorf("expected '---- rows' or '---- error KIND', found '---- %s'", head)
}

// RunScriptFile runs the script test at path on a fresh embedded cluster.
// It returns the statements that did not give what was expected; an error
// is a script that could not be read or run at all.
func RunScriptFile(path string, opts Options) ([]Failure, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return RunScript(string(src), opts)
}

// RunScript runs a script test's text on a fresh embedded cluster.
func RunScript(src string, opts Options) ([]Failure, error) {
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		return nil, err
	}
	defer cluster.Close()
	steps, err := ParseScriptTest(withPorts(src, cluster))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), opts.timeout())
	defer cancel()
	e, err := newEngine(opts)
	if err != nil {
		return nil, err
	}
	defer e.Close()
	settle, err := newSettler(e, opts)
	if err != nil {
		return nil, err
	}
	defer settle.close()
	var failures []Failure
	for _, st := range steps {
		msg, fatal := runStep(ctx, e, settle, st)
		if msg != "" {
			failures = append(failures, Failure{Line: st.Line, Msg: msg})
		}
		if fatal {
			return failures, nil
		}
	}
	if err := e.WaitQuiet(ctx); err != nil {
		failures = append(failures, Failure{Msg: fmt.Sprintf("a job failed after the last statement: %v", err)})
	}
	return failures, nil
}

// runStep runs one statement and says how it differed from its
// expectation ("" if it did not); fatal stops the script (a job failed or
// time ran out, so what follows cannot be trusted).
func runStep(ctx context.Context, e *sluice.Engine, settle *settler, st Step) (msg string, fatal bool) {
	want := st.Expect
	stmt, err := parser.ParseStatement(st.Text)
	if err != nil {
		return checkError(want, err, false), false
	}
	switch stmt.(type) {
	case *ast.QueryStatement, *ast.Insert, *ast.StatementSet, *ast.EndStatementSet:
		if err := settle.settle(ctx); err != nil {
			return fmt.Sprintf("before this statement a job failed: %v", err), true
		}
	}
	res, err := e.ExecuteStatement(ctx, stmt, st.Text)
	if err != nil {
		return checkError(want, err, false), false
	}
	var printed strings.Builder
	switch res.Kind {
	case sluice.ResultStream:
		defer res.Stream.Close()
		if err := e.WaitQuiet(ctx, res.Stream); err != nil {
			return checkError(want, err, true), ctx.Err() != nil
		}
		if err := printStream(&printed, res.Stream); err != nil {
			return checkError(want, err, true), false
		}
	case sluice.ResultJob:
		if want != nil && want.Error == "runtime" {
			if err := e.WaitQuiet(ctx); err != nil {
				return checkError(want, err, true), false
			}
			return "the job did not fail; expected a runtime error", true
		}
	case sluice.ResultTable:
		if err := tableau.PrintStatic(&printed, res.Headers, res.Rows); err != nil {
			return err.Error(), false
		}
	case sluice.ResultText:
		printed.WriteString(res.Text)
	}
	switch {
	case want == nil:
		if res.Kind == sluice.ResultStream {
			return "a query needs '---- rows' or '---- error' after it", false
		}
		return "", false
	case want.Error != "":
		return fmt.Sprintf("succeeded; expected a %s error", want.Error), false
	case printed.Len() == 0:
		return "printed nothing; expected rows", false
	}
	return compareRows(printed.String(), want), false
}

// printStream renders what a query has produced so far in the tableau
// result mode, closing with the total when the query has ended.
func printStream(w *strings.Builder, s *sluice.Stream) error {
	if s.Batch {
		return printBatch(w, s)
	}
	p := tableau.NewStreaming(w, s.Schema, s.TimeZone)
	if err := p.Header(); err != nil {
		return err
	}
	changes := s.Drain()
	for _, c := range changes {
		if err := p.Row(c.Kind, c.Row); err != nil {
			return err
		}
	}
	if err := s.Err(); err != nil {
		return err
	}
	if s.Ended() {
		return p.Footer(len(changes))
	}
	return nil
}

// printBatch renders the final rows of a query run in batch mode as the
// tableau result mode prints them then: once the query has ended, without
// the "op" column.
func printBatch(w *strings.Builder, s *sluice.Stream) error {
	changes := s.Drain()
	if err := s.Err(); err != nil {
		return err
	}
	if !s.Ended() {
		return errors.New("the batch query has not ended")
	}
	rows := make([]types.Row, len(changes))
	for i, c := range changes {
		if c.Kind != types.Insert {
			return fmt.Errorf("the batch query's result holds a %s row", c.Kind)
		}
		rows[i] = c.Row
	}
	return tableau.PrintBatch(w, s.Schema, rows, s.TimeZone)
}

// checkError compares a failure with the expectation; running says it
// happened while a query or job ran rather than when it was submitted.
func checkError(want *Expectation, err error, running bool) string {
	kind, pos, msg := "error", ast.Pos{}, err.Error()
	var pe *parser.Error
	var ve *planner.Error
	switch {
	case running:
		kind = "runtime"
	case errors.As(err, &pe):
		kind, pos, msg = "parse", pe.Pos, pe.Msg
	case errors.As(err, &ve):
		kind, pos, msg = "validation", ve.Pos, ve.Msg
	}
	got := fmt.Sprintf("%s error", kind)
	if pos.Line > 0 {
		got += fmt.Sprintf(" at %d:%d", pos.Line, pos.Col)
	}
	got += ": " + msg
	switch {
	case want == nil || want.Error == "":
		return "failed with " + got
	case want.Error != kind:
		return fmt.Sprintf("failed with %s; expected a %s error", got, want.Error)
	case want.Pos != pos:
		return fmt.Sprintf("failed with %s; expected the position %d:%d", got, want.Pos.Line, want.Pos.Col)
	case want.Prefix && !strings.HasPrefix(msg, want.Message), !want.Prefix && msg != want.Message:
		return fmt.Sprintf("failed with the message\n%s\nexpected\n%s", msg, want.Message)
	}
	return ""
}

// compareRows compares printed output with the expected one: the frame
// exactly, the rows as the expectation's order says.
func compareRows(got string, want *Expectation) string {
	gFrame, gRows := splitTable(got)
	wFrame, wRows := splitTable(want.Rows)
	if want.Order == RowsFinal {
		// The count of changelog rows depends on how the inputs
		// interleaved; the rows left do not.
		gFrame, wFrame = withoutTotal(gFrame), withoutTotal(wFrame)
		gRows = finalRows(gRows)
	}
	same := slices.Equal(gFrame, wFrame)
	if same {
		switch want.Order {
		case RowsFinal:
			same = slices.Equal(sorted(gRows), sorted(wRows))
		case RowsOrdered:
			same = slices.Equal(gRows, wRows)
		case RowsAnyOrder:
			same = slices.Equal(sorted(gRows), sorted(wRows))
		case RowsPerKey:
			gKeys, err := byKey(gFrame, gRows, want.Keys)
			if err != nil {
				return err.Error()
			}
			wKeys, _ := byKey(gFrame, wRows, want.Keys)
			same = len(gKeys) == len(wKeys)
			for k, rows := range wKeys {
				same = same && slices.Equal(gKeys[k], rows)
			}
		}
	}
	if same {
		return ""
	}
	return fmt.Sprintf("printed\n%s\nexpected\n%s", strings.TrimRight(got, "\n"), want.Rows)
}

// withoutTotal drops the "Received a total of N rows" line of a frame.
func withoutTotal(frame []string) []string {
	return slices.DeleteFunc(slices.Clone(frame), func(l string) bool { return strings.HasPrefix(l, "Received a total of") })
}

// finalRows applies a printed changelog: +I and +U rows add a row (shown
// as +I), -U and -D rows take an equal one away.
func finalRows(rows []string) []string {
	var out []string
	for _, r := range rows {
		op, rest, _ := strings.Cut(strings.TrimPrefix(r, "|"), "|")
		switch strings.TrimSpace(op) {
		case "+I", "+U":
			out = append(out, strings.Replace(r, strings.TrimSpace(op), "+I", 1))
		case "-U", "-D":
			for i, o := range out {
				if _, orest, _ := strings.Cut(strings.TrimPrefix(o, "|"), "|"); orest == rest {
					out = slices.Delete(out, i, i+1)
					break
				}
			}
		}
	}
	return out
}

// splitTable separates a printed table's rows (the lines starting with '|'
// after the column names) from its frame (all other lines but blank ones,
// which an expectation cannot hold).
func splitTable(s string) (frame, rows []string) {
	header := false
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		l = strings.TrimRight(l, "\r")
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "|") && header {
			rows = append(rows, l)
			continue
		}
		header = header || strings.HasPrefix(l, "|")
		frame = append(frame, l)
	}
	return frame, rows
}

// cells splits a table line into its trimmed cells.
func cells(line string) []string {
	parts := strings.Split(strings.Trim(line, "|"), "|")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}

// byKey groups rows, in order, by the values of the named columns, which
// the frame's column-name line gives the places of.
func byKey(frame, rows []string, keys []string) (map[string][]string, error) {
	var names []string
	for _, l := range frame {
		if strings.HasPrefix(l, "|") {
			names = cells(l)
			break
		}
	}
	var idx []int
	for _, k := range keys {
		i := slices.Index(names, k)
		if i < 0 {
			return nil, fmt.Errorf("'---- rows per key': no column '%s' in %v", k, names)
		}
		idx = append(idx, i)
	}
	out := map[string][]string{}
	for _, r := range rows {
		c := cells(r)
		var key strings.Builder
		for _, i := range idx {
			if i < len(c) {
				key.WriteString(c[i])
			}
			key.WriteByte(0)
		}
		out[key.String()] = append(out[key.String()], r)
	}
	return out, nil
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// IsScriptTest reports whether path names a script test rather than a
// NAME.sql + NAME.out case.
func IsScriptTest(path string) bool { return strings.HasSuffix(path, ".sqltest") }

// timeout bounds a whole run; 0 means one minute.
func (o Options) timeout() time.Duration {
	if o.Timeout == 0 {
		return time.Minute
	}
	return o.Timeout
}
