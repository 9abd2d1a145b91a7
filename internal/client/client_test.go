package client

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/devcluster"
)

// acceptanceDir holds the seed tutorials' golden cases, beside the repository.
const acceptanceDir = "../../../shared/acceptance"

// waitTimeout bounds every wait for the client.
const waitTimeout = 30 * time.Second

// The count-a-stream tutorial's statements, as printed in the tutorial; the
// hosts broker:9092 and schema-registry:8081 are replaced by the embedded
// cluster's.
const (
	movieTicketSalesDDL = `CREATE TABLE movie_ticket_sales (
    title STRING,
    sales_ts STRING,
    total_ticket_value INT
) WITH (
    'connector' = 'kafka',
    'topic' = 'movie-ticket-sales',
    'properties.bootstrap.servers' = 'broker:9092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'title',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://schema-registry:8081',
    'value.fields-include' = 'EXCEPT_KEY'
);`
	movieTicketSalesInsert = `INSERT INTO movie_ticket_sales VALUES
    ('Aliens', '2019-07-18T10:00:00Z', 10),
    ('Die Hard', '2019-07-18T10:00:00Z', 12),
    ('Die Hard', '2019-07-18T10:01:00Z', 12),
    ('The Godfather', '2019-07-18T10:01:31Z', 12),
    ('Die Hard', '2019-07-18T10:01:36Z', 24),
    ('The Godfather', '2019-07-18T10:02:00Z', 18),
    ('The Big Lebowski', '2019-07-18T11:03:21Z', 12),
    ('The Big Lebowski', '2019-07-18T11:03:50Z', 12),
    ('The Godfather', '2019-07-18T11:40:00Z', 36),
    ('The Godfather', '2019-07-18T11:40:09Z', 18);`
	countQuery = `SELECT title, COUNT(total_ticket_value) AS tickets_sold FROM movie_ticket_sales GROUP BY title;`
	// countQueryLines is countQuery as the tutorial prints it.
	countQueryLines = `SELECT title,
       COUNT(total_ticket_value) AS tickets_sold
FROM movie_ticket_sales
GROUP BY title;`
)

// countChangelog is the tutorial's changelog of countQuery.
const countChangelog = ` op                          title         tickets_sold
 +I                         Aliens                    1
 +I                       Die Hard                    1
 -U                       Die Hard                    1
 +U                       Die Hard                    2
 +I                  The Godfather                    1
 -U                       Die Hard                    2
 +U                       Die Hard                    3
 -U                  The Godfather                    1
 +U                  The Godfather                    2
 +I               The Big Lebowski                    1
 -U               The Big Lebowski                    1
 +U               The Big Lebowski                    2
 -U                  The Godfather                    2
 +U                  The Godfather                    3
 -U                  The Godfather                    3
 +U                  The Godfather                    4
`

// The tumbling-windows tutorial's statements (hosts replaced as above).
const (
	ratingsDDL = `CREATE TABLE ratings (
    rating_id INT,
    title STRING,
    release_year INT,
    rating DOUBLE,
    ts TIMESTAMP(3),
    -- declare ts as event time attribute and use strictly ascending timestamp watermark strategy
    WATERMARK FOR ts AS ts
) WITH (
    'connector' = 'kafka',
    'topic' = 'ratings',
    'properties.bootstrap.servers' = 'broker:9092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'rating_id',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://schema-registry:8081',
    'value.fields-include' = 'EXCEPT_KEY'
);`
	ratingsInsert = `INSERT INTO ratings VALUES
    (0, 'Die Hard', 1998, 8.2, TO_TIMESTAMP('2023-07-09 01:00:00')),
    (1, 'The Big Lebowski', 1998, 4.2, TO_TIMESTAMP('2023-07-09 02:00:00')),
    (2, 'Die Hard', 1998, 4.5, TO_TIMESTAMP('2023-07-09 05:00:00')),
    (3, 'The Big Lebowski', 1998, 9.9, TO_TIMESTAMP('2023-07-09 06:30:00')),
    (4, 'Die Hard', 1998, 5.1, TO_TIMESTAMP('2023-07-09 07:00:00')),
    (5, 'Tree of Life', 2011, 5.6, TO_TIMESTAMP('2023-07-09 08:00:00')),
    (6, 'Tree of Life', 2011, 4.9, TO_TIMESTAMP('2023-07-09 09:00:00')),
    (7, 'A Walk in the Clouds', 1995, 3.6, TO_TIMESTAMP('2023-07-09 12:00:00')),
    (8, 'A Walk in the Clouds', 1995, 6.0, TO_TIMESTAMP('2023-07-09 15:00:00')),
    (9, 'Super Mario Bros.', 1993, 3.5, TO_TIMESTAMP('2023-07-09 18:30:00')),
    (10, 'A Walk in the Clouds', 1995, 4.6, TO_TIMESTAMP('2023-07-10 01:00:00'));`
	windowQuery = `SELECT title,
    COUNT(*) AS rating_count,
    AVG(rating) AS avg_rating,
    window_start,
    window_end
FROM TABLE(TUMBLE(TABLE ratings, DESCRIPTOR(ts), INTERVAL '6' HOURS))
GROUP BY title, window_start, window_end;`
)

// windowChangelog is the tutorial's changelog of windowQuery: seven windows;
// the eleventh rating closes the last one but does not fire its own.
const windowChangelog = ` op                          title         rating_count                     avg_rating            window_start              window_end
 +I                       Die Hard                    2                           6.35 2023-07-09 00:00:00.000 2023-07-09 06:00:00.000
 +I               The Big Lebowski                    1                            4.2 2023-07-09 00:00:00.000 2023-07-09 06:00:00.000
 +I                       Die Hard                    1                            5.1 2023-07-09 06:00:00.000 2023-07-09 12:00:00.000
 +I                   Tree of Life                    2                           5.25 2023-07-09 06:00:00.000 2023-07-09 12:00:00.000
 +I               The Big Lebowski                    1                            9.9 2023-07-09 06:00:00.000 2023-07-09 12:00:00.000
 +I           A Walk in the Clouds                    2                            4.8 2023-07-09 12:00:00.000 2023-07-09 18:00:00.000
 +I              Super Mario Bros.                    1                            3.5 2023-07-09 18:00:00.000 2023-07-10 00:00:00.000
`

// countTable is the materialized result of countQuery, in the order Flink's
// table mode keeps it (a retraction removes the newest equal row, the update
// is appended).
const countTable = `+------------------+--------------+
|            title | tickets_sold |
+------------------+--------------+
|           Aliens |            1 |
|         Die Hard |            3 |
| The Big Lebowski |            2 |
|    The Godfather |            4 |
+------------------+--------------+
4 rows in set
`

// jobSubmitted matches what INSERT prints: Flink's messages and a job id of
// 32 hex digits.
var jobSubmitted = regexp.MustCompile(`\[INFO\] Submitting SQL update statement to the cluster\.\.\.\n` +
	`\[INFO\] SQL update statement has been successfully submitted to the cluster:\n` +
	`Job ID: [0-9a-f]{32}\n\n$`)

// output records what the client prints and lets a test wait for it.
type output struct {
	mu      sync.Mutex
	buf     strings.Builder
	changed chan struct{} // closed on the next write
}

func newOutput() *output { return &output{changed: make(chan struct{})} }

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf.Write(p)
	close(o.changed)
	o.changed = make(chan struct{})
	return len(p), nil
}

// snapshot returns the output so far and a channel closed on the next write.
func (o *output) snapshot() (string, <-chan struct{}) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String(), o.changed
}

// session is a client running Run on lines typed into a pipe, against an
// embedded cluster.
type session struct {
	t       *testing.T
	cluster *devcluster.Cluster
	engine  *sluice.Engine
	out     *output
	in      *io.PipeWriter
	intr    chan os.Signal
	streams chan *sluice.Stream
	ended   chan struct{} // closed when Run returns
	runErr  error
}

func newSession(t *testing.T, interactive bool) *session {
	t.Helper()
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Close)
	e := sluice.NewEngine()
	t.Cleanup(e.Close)
	pr, pw := io.Pipe()
	s := &session{
		t:       t,
		cluster: cluster,
		engine:  e,
		out:     newOutput(),
		in:      pw,
		intr:    make(chan os.Signal),
		streams: make(chan *sluice.Stream, 8),
		ended:   make(chan struct{}),
	}
	c := &Client{
		Backend:     &Embedded{Engine: e, streamStarted: func(st *sluice.Stream) { s.streams <- st }},
		Out:         s.out,
		Interactive: interactive,
		Interrupts:  s.intr,
	}
	go func() {
		defer close(s.ended)
		s.runErr = c.Run(context.Background(), pr)
	}()
	t.Cleanup(func() {
		pw.Close()
		select {
		case <-s.ended:
		case <-time.After(waitTimeout):
			t.Error("Run did not return at the end of its input")
		}
	})
	if interactive {
		s.expect(0, "the first prompt", func(o string) bool { return o == prompt })
	}
	return s
}

// hosts points the tutorials' statements at the embedded cluster.
func (s *session) hosts(sql string) string {
	return strings.NewReplacer(
		"broker:9092", s.cluster.BootstrapServers(),
		"http://schema-registry:8081", s.cluster.RegistryURL(),
	).Replace(sql)
}

// mark returns the length of the output so far.
func (s *session) mark() int {
	o, _ := s.out.snapshot()
	return len(o)
}

// typeLines writes lines to the client's input one at a time, as a user
// types them, each ended by a newline.
func (s *session) typeLines(lines ...string) {
	s.t.Helper()
	for _, l := range lines {
		written := make(chan error, 1)
		go func() {
			_, err := io.WriteString(s.in, l+"\n")
			written <- err
		}()
		select {
		case err := <-written:
			if err != nil {
				s.t.Fatalf("typing %q: %v", l, err)
			}
		case <-time.After(waitTimeout):
			s.t.Fatalf("the client did not read the line %q", l)
		}
	}
}

// typeSQL types the lines of sql.
func (s *session) typeSQL(sql string) {
	s.t.Helper()
	s.typeLines(strings.Split(sql, "\n")...)
}

// expect waits until the output printed after mark satisfies ok, and
// returns it.
func (s *session) expect(mark int, what string, ok func(string) bool) string {
	s.t.Helper()
	deadline := time.After(waitTimeout)
	for {
		o, changed := s.out.snapshot()
		if ok(o[mark:]) {
			return o[mark:]
		}
		select {
		case <-changed:
		case <-s.ended:
			o, _ = s.out.snapshot()
			if !ok(o[mark:]) {
				s.t.Fatalf("Run returned (%v) before printing %s; printed:\n%s", s.runErr, what, o[mark:])
			}
		case <-deadline:
			s.t.Fatalf("timed out waiting for %s; printed:\n%s", what, o[mark:])
		}
	}
}

// atPrompt reports whether the output ends at a fresh prompt.
func atPrompt(o string) bool { return strings.HasSuffix(o, "\n"+prompt) }

// run types a statement and returns what the client printed up to the next
// prompt.
func (s *session) run(sql string) string {
	s.t.Helper()
	m := s.mark()
	s.typeSQL(sql)
	return s.expect(m, "the prompt after "+firstLine(sql), atPrompt)
}

// runOK runs a statement that must print exactly the continuation prompts
// of its lines, want, a blank line and the prompt.
func (s *session) runOK(sql, want string) {
	s.t.Helper()
	got := s.run(sql)
	full := strings.Repeat(continuation, strings.Count(sql, "\n")) + want + "\n" + prompt
	if got != full {
		s.t.Errorf("%s printed\n%q\nwant\n%q", firstLine(sql), got, full)
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// interrupt presses Ctrl-C.
func (s *session) interrupt() {
	s.t.Helper()
	select {
	case s.intr <- os.Interrupt:
	case <-time.After(waitTimeout):
		s.t.Fatal("the client did not take the interrupt")
	}
}

// stream returns the stream of the query the client started.
func (s *session) stream() *sluice.Stream {
	s.t.Helper()
	select {
	case st := <-s.streams:
		return st
	case <-time.After(waitTimeout):
		s.t.Fatal("no query started")
		return nil
	}
}

// settle waits until the jobs and the query have processed all input.
func (s *session) settle(st *sluice.Stream) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	if err := s.engine.WaitQuiet(ctx, st); err != nil {
		s.t.Fatalf("waiting for the pipeline to settle: %v", err)
	}
}

// quit types QUIT; and checks that Run ends.
func (s *session) quit() {
	s.t.Helper()
	// The jobs the session started (bounded INSERTs) end before QUIT;,
	// which would otherwise ask whether to stop them.
	for _, j := range s.engine.Jobs() {
		select {
		case <-j.Done():
		case <-time.After(waitTimeout):
			s.t.Fatalf("job %s (%s) is still %s at QUIT;", j.ID, j.Name, j.Status())
		}
	}
	m := s.mark()
	s.typeLines("QUIT;")
	select {
	case <-s.ended:
	case <-time.After(waitTimeout):
		s.t.Fatal("Run did not return after QUIT;")
	}
	if s.runErr != nil {
		s.t.Errorf("Run: %v", s.runErr)
	}
	if o, _ := s.out.snapshot(); o[m:] != "[INFO] Exiting Sluice SQL CLI Client...\n" {
		s.t.Errorf("QUIT; printed %q", o[m:])
	}
}

// loadMovieTicketSales creates the count tutorial's table and inserts its
// ten sales, checking the messages.
func (s *session) loadMovieTicketSales() {
	s.t.Helper()
	s.runOK(s.hosts(movieTicketSalesDDL), "[INFO] Execute statement succeed.\n")
	got := s.run(movieTicketSalesInsert)
	got = strings.TrimPrefix(got, strings.Repeat(continuation, 10))
	if !jobSubmitted.MatchString(strings.TrimSuffix(got, prompt)) {
		s.t.Errorf("INSERT printed %q, want Flink's submission messages and a job id", got)
	}
}

// lines returns the number of complete lines in s.
func lines(s string) int { return strings.Count(s, "\n") }

func TestCountTutorialChangelog(t *testing.T) {
	s := newSession(t, true)
	s.runOK("SET 'sql-client.execution.result-mode' = 'changelog';", "[INFO] Execute statement succeed.\n")
	// A line holding only a comment shows the prompt again.
	m := s.mark()
	s.typeLines("-- count a stream of events")
	s.expect(m, "a new prompt", func(o string) bool { return o == prompt })
	s.loadMovieTicketSales()

	m = s.mark()
	s.typeSQL(countQueryLines)
	st := s.stream()
	want := strings.Repeat(continuation, 3) + countChangelog
	s.expect(m, "the tutorial's changelog", func(o string) bool { return lines(o) >= lines(want) })
	s.settle(st)
	s.interrupt()
	got := s.expect(m, "the prompt after the query", atPrompt)
	if want += "[INFO] Result retrieval cancelled.\n\n" + prompt; got != want {
		t.Errorf("the query printed\n%s\nwant\n%s", got, want)
	}

	// The client goes on with the next statement.
	s.runOK("SHOW TABLES;", "+--------------------+\n|         table name |\n+--------------------+\n| movie_ticket_sales |\n+--------------------+\n1 row in set\n")
	s.quit()
}

func TestCountTutorialTableau(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join(acceptanceDir, "aggregate-count.out"))
	if err != nil {
		t.Fatalf("the acceptance cases must sit beside the repository: %v", err)
	}
	// The golden file is the tableau of the tutorial's sink table, whose
	// columns are the query's: title and tickets_sold.
	gl := strings.Split(strings.TrimSuffix(string(golden), "\n"), "\n")
	header, rows := gl[:3], gl[3:]
	if !strings.Contains(header[1], " title | ") || !strings.Contains(header[1], " tickets_sold |") {
		t.Fatalf("unexpected header in aggregate-count.out: %q", header[1])
	}
	// Put the golden rows in the tutorial's changelog order (one partition,
	// parallelism 1): each is used once.
	byChange := map[string][]string{}
	for _, r := range rows {
		k := strings.Join(strings.Fields(strings.ReplaceAll(r, "|", " ")), " ")
		byChange[k] = append(byChange[k], r)
	}
	var ordered []string
	for _, l := range strings.Split(strings.TrimSuffix(countChangelog, "\n"), "\n")[1:] {
		k := strings.Join(strings.Fields(l), " ")
		if len(byChange[k]) == 0 {
			t.Fatalf("aggregate-count.out lacks the change %q", k)
		}
		ordered = append(ordered, byChange[k][0])
		byChange[k] = byChange[k][1:]
	}
	if len(ordered) != len(rows) {
		t.Fatalf("aggregate-count.out has %d rows, the tutorial's changelog %d", len(rows), len(ordered))
	}

	s := newSession(t, true)
	s.runOK("SET 'sql-client.execution.result-mode' = 'tableau';", "[INFO] Execute statement succeed.\n")
	s.loadMovieTicketSales()

	// Ctrl-C at the prompt discards what was typed, and is not kept for the
	// next query.
	m := s.mark()
	s.typeLines("SELECT title,")
	s.expect(m, "the continuation prompt", func(o string) bool { return o == continuation })
	s.interrupt()
	s.expect(m, "a new prompt", func(o string) bool { return o == continuation+"\n"+prompt })

	m = s.mark()
	s.typeLines(countQuery)
	st := s.stream()
	want := strings.Join(append(header, ordered...), "\n") + "\n"
	s.expect(m, "the tutorial's rows", func(o string) bool { return lines(o) >= lines(want) })
	s.settle(st)
	s.interrupt()
	got := s.expect(m, "the prompt after the query", atPrompt)
	if want += "Query terminated, received a total of 16 rows\n\n" + prompt; got != want {
		t.Errorf("the query printed\n%s\nwant\n%s", got, want)
	}
	s.runOK("SHOW TABLES;", "+--------------------+\n|         table name |\n+--------------------+\n| movie_ticket_sales |\n+--------------------+\n1 row in set\n")
	s.quit()
}

func TestTumblingWindowsChangelog(t *testing.T) {
	s := newSession(t, true)
	s.runOK("SET 'sql-client.execution.result-mode' = 'changelog';", "[INFO] Execute statement succeed.\n")
	s.runOK(s.hosts(ratingsDDL), "[INFO] Execute statement succeed.\n")
	if got := s.run(ratingsInsert); !jobSubmitted.MatchString(strings.TrimSuffix(strings.TrimLeft(got, "> "), prompt)) {
		t.Errorf("INSERT printed %q", got)
	}

	m := s.mark()
	s.typeSQL(windowQuery)
	st := s.stream()
	want := strings.Split(strings.TrimSuffix(windowChangelog, "\n"), "\n")
	s.expect(m, "seven windows", func(o string) bool { return lines(o) >= len(want) })
	s.settle(st)
	s.interrupt()
	got := s.expect(m, "the prompt after the query", atPrompt)

	got, ok := strings.CutPrefix(got, strings.Repeat(continuation, 6))
	if !ok {
		t.Fatalf("expected the continuation prompts of the query's lines; printed:\n%s", got)
	}
	got, ok = strings.CutSuffix(got, "[INFO] Result retrieval cancelled.\n\n"+prompt)
	if !ok {
		t.Fatalf("expected the query to be cancelled; printed:\n%s", got)
	}
	gotLines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if gotLines[0] != want[0] {
		t.Errorf("header\n%q\nwant\n%q", gotLines[0], want[0])
	}
	// Windows fire in order of their end; within a window the order of the
	// titles is not defined.
	ends := func(ls []string) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l[len(l)-23:])
		}
		return out
	}
	if e := ends(gotLines[1:]); !slices.IsSorted(e) {
		t.Errorf("windows fired out of order:\n%s", got)
	}
	g, w := slices.Sorted(slices.Values(gotLines[1:])), slices.Sorted(slices.Values(want[1:]))
	if !slices.Equal(g, w) {
		t.Errorf("the query printed\n%s\nwant the rows of\n%s", got, windowChangelog)
	}
	s.quit()
}

func TestTableModeWithoutTerminal(t *testing.T) {
	s := newSession(t, false)
	s.typeSQL(s.hosts(movieTicketSalesDDL))
	s.typeSQL(movieTicketSalesInsert)
	m := s.mark()
	s.typeLines("SET 'sql-client.execution.result-mode' = 'table';")
	s.expect(m, "the SET message", func(o string) bool { return strings.HasSuffix(o, "[INFO] Execute statement succeed.\n\n") })

	// Without a terminal the final table is printed when the query stops:
	// here on a line "Q", the key that leaves Flink's table view.
	m = s.mark()
	s.typeLines(countQuery)
	s.settle(s.stream())
	s.typeLines("Q")
	want := countTable + "[INFO] Result retrieval cancelled.\n\n"
	if got := s.expect(m, "the final table", func(o string) bool { return strings.HasSuffix(o, "\n\n") }); got != want {
		t.Errorf("the query printed\n%s\nwant\n%s", got, want)
	}

	// A statement typed while the query runs waits for the prompt; Ctrl-C
	// stops the query.
	m = s.mark()
	s.typeLines(countQuery)
	s.settle(s.stream())
	s.typeLines("SHOW TABLES;")
	s.interrupt()
	want += "+--------------------+\n|         table name |\n+--------------------+\n| movie_ticket_sales |\n+--------------------+\n1 row in set\n\n"
	if got := s.expect(m, "the final table and SHOW TABLES", func(o string) bool { return strings.HasSuffix(o, "set\n\n") }); got != want {
		t.Errorf("printed\n%s\nwant\n%s", got, want)
	}
}

func TestSetAndReset(t *testing.T) {
	s := newSession(t, true)
	mode := func() string { return s.engine.Config().Get(sluice.ConfResultMode) }
	s.runOK("SET 'sql-client.execution.result-mode' = 'tableau';", "[INFO] Execute statement succeed.\n")
	if mode() != "tableau" {
		t.Errorf("result mode %q after SET", mode())
	}
	listed := regexp.MustCompile(`(?m)^\| +sql-client.execution.result-mode \| +tableau \|\n(.*\n)*\| +table.dml-sync \| +false \|$`)
	if got := s.run("SET;"); !listed.MatchString(got) {
		t.Errorf("SET; printed\n%s", got)
	}
	s.runOK("RESET 'sql-client.execution.result-mode';", "[INFO] Execute statement succeed.\n")
	if mode() != "table" {
		t.Errorf("result mode %q after RESET, want the default, table", mode())
	}
	s.runOK("SET 'parallelism.default' = '4';", "[INFO] Execute statement succeed.\n")
	s.runOK("RESET;", "[INFO] Execute statement succeed.\n")
	if p := s.engine.Config().Parallelism(); p != 1 {
		t.Errorf("parallelism %d after RESET;", p)
	}
	if got := s.run("SET 'sql-client.execution.result-mode' = 'fancy';"); !strings.HasPrefix(got, "[ERROR] Could not execute SQL statement. Reason:\n") || !strings.Contains(got, "'fancy'") {
		t.Errorf("an invalid SET printed\n%s", got)
	}
}

func TestErrorsLeaveTheClientRunning(t *testing.T) {
	s := newSession(t, true)
	// A parse error on the second line of a statement: the position is
	// relative to the statement, with the line and a caret.
	got := s.run("SELECT title\nFROM WHERE;")
	want := continuation + "[ERROR] Could not execute SQL statement. Reason:\nSQL parse error at line 2, column 6: "
	if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "\n  FROM WHERE;\n       ^\n\n"+prompt) {
		t.Errorf("printed\n%s\nwant %q ... the line and a caret under column 6", got, want)
	}
	got = s.run("SELECT * FROM nosuch;")
	want = "[ERROR] Could not execute SQL statement. Reason:\nSQL validation error at line 1, column 15: "
	if !strings.HasPrefix(got, want) || !strings.Contains(got, "nosuch") || !strings.HasSuffix(got, "\n                ^\n\n"+prompt) {
		t.Errorf("printed\n%s\nwant %q ... 'nosuch' and a caret under column 15", got, want)
	}
	// CREATE TEMPORARY TABLE ... AS SELECT is refused before anything is
	// submitted, as Flink's SqlCreateTableAs.validate refuses it: no
	// "Submitting ..." line comes first.
	got = s.run("CREATE TEMPORARY TABLE copy AS SELECT 1 AS n;")
	want = "[ERROR] Could not execute SQL statement. Reason:\nSQL validation error at line 1, column 1: CREATE TABLE AS SELECT syntax does not support to create temporary table yet."
	if !strings.HasPrefix(got, want) {
		t.Errorf("printed\n%s\nwant %q ...", got, want)
	}
	s.runOK("SHOW TABLES;", "Empty set\n")
	s.quit()
}

func TestSemicolonInsideStringLiteral(t *testing.T) {
	s := newSession(t, true)
	s.runOK("SET 'sql-client.execution.result-mode' = 'tableau';", "[INFO] Execute statement succeed.\n")
	// The ';' inside the literals do not end the statement, neither in the
	// middle of a line nor at the end of one.
	got := s.run("SELECT 'a;b' AS s,\n  'c;\nd' AS t;")
	if !strings.HasPrefix(got, continuation+continuation+"+----+") || strings.Contains(got, "[ERROR]") ||
		!strings.Contains(got, fmt.Sprintf("| +I | %30s | %30s |\n", "a;b", "c;\nd")) ||
		!strings.HasSuffix(got, "Received a total of 1 row\n\n"+prompt) {
		t.Errorf("printed\n%s", got)
	}
}

func TestQuitAndEndOfInput(t *testing.T) {
	for _, quit := range []string{"QUIT;", "exit;", "quit"} {
		t.Run(quit, func(t *testing.T) {
			s := newSession(t, true)
			s.typeLines(quit)
			select {
			case <-s.ended:
			case <-time.After(waitTimeout):
				t.Fatal("Run did not return")
			}
			if o, _ := s.out.snapshot(); o != prompt+"[INFO] Exiting Sluice SQL CLI Client...\n" || s.runErr != nil {
				t.Errorf("Run returned %v and printed %q", s.runErr, o)
			}
		})
	}
	t.Run("EOF", func(t *testing.T) {
		// At the end of the input an unterminated statement still runs.
		s := newSession(t, false)
		s.typeLines("SHOW TABLES")
		s.in.Close()
		<-s.ended
		if o, _ := s.out.snapshot(); o != "Empty set\n\n" || s.runErr != nil {
			t.Errorf("Run returned %v and printed %q", s.runErr, o)
		}
	})
}

// TestQuitWithRunningJobs: QUIT; at the interactive prompt while a job
// runs names the job and asks; anything but y keeps the client and the
// job running, y quits.
func TestQuitWithRunningJobs(t *testing.T) {
	s := newSession(t, true)
	s.runOK("CREATE TABLE gen (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '5');", "[INFO] Execute statement succeed.\n")
	s.runOK("CREATE TABLE sink (n BIGINT) WITH ('connector' = 'blackhole');", "[INFO] Execute statement succeed.\n")
	if got := s.run("INSERT INTO sink SELECT n FROM gen;"); !jobSubmitted.MatchString(strings.TrimSuffix(got, prompt)) {
		t.Fatalf("INSERT printed %q", got)
	}
	j := s.engine.Jobs()[0]
	question := fmt.Sprintf("[WARNING] 1 job is running: %s (%s)\nQuitting stops it. Quit? (y/N) ", j.ID, j.Name)
	for _, answer := range []string{"", "n", "no"} {
		m := s.mark()
		s.typeLines("QUIT;")
		s.expect(m, "the question", func(o string) bool { return o == question })
		s.typeLines(answer)
		s.expect(m, "the prompt", func(o string) bool { return o == question+prompt })
		if st := j.Status(); st != "RUNNING" {
			t.Fatalf("after answering %q the job is %s", answer, st)
		}
	}
	m := s.mark()
	s.typeLines("QUIT;")
	s.expect(m, "the question", func(o string) bool { return o == question })
	s.typeLines("y")
	select {
	case <-s.ended:
	case <-time.After(waitTimeout):
		t.Fatal("Run did not return after y")
	}
	if o, _ := s.out.snapshot(); o[m:] != question+"[INFO] Exiting Sluice SQL CLI Client...\n" {
		t.Errorf("QUIT; y printed %q", o[m:])
	}
}

func TestRunScript(t *testing.T) {
	script := `-- a script
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM (VALUES (1), (2)) AS v(a);
RESET;
SELECT * FROM (VALUES (1)) AS v(a);
SHOW TABLES;
`
	out := newOutput()
	e := sluice.NewEngine()
	defer e.Close()
	c := &Client{Backend: &Embedded{Engine: e}, Out: out}
	if c.RunScript(context.Background(), script) {
		t.Error("RunScript succeeded; a query in the table result mode must fail")
	}
	want := fmt.Sprintf(`[INFO] Executing SQL from file.
%[1]sSET 'sql-client.execution.result-mode' = 'tableau';
[INFO] Execute statement succeed.

%[1]sSELECT * FROM (VALUES (1), (2)) AS v(a);
+----+-------------+
| op |           a |
+----+-------------+
| +I |           1 |
| +I |           2 |
+----+-------------+
Received a total of 2 rows

%[1]sRESET;
[INFO] Execute statement succeed.

%[1]sSELECT * FROM (VALUES (1)) AS v(a);
[ERROR] Could not execute SQL statement. Reason:
In non-interactive mode, it only supports to use TABLEAU as value of sql-client.execution.result-mode when execute query. Please add 'SET sql-client.execution.result-mode=TABLEAU;' in the sql file.

`, prompt)
	if got, _ := out.snapshot(); got != want {
		t.Errorf("printed\n%s\nwant\n%s", got, want)
	}
}

// TestHelpAndClear: HELP and CLEAR are the client's own commands, as in
// Flink's client: HELP lists the commands, CLEAR clears a terminal and
// writes nothing to a script's output; neither reaches the parser.
func TestHelpAndClear(t *testing.T) {
	out := newOutput()
	e := sluice.NewEngine()
	defer e.Close()
	c := &Client{Backend: &Embedded{Engine: e}, Out: out}
	if !c.RunScript(context.Background(), "help;\nCLEAR;\nSHOW TABLES;\n") {
		o, _ := out.snapshot()
		t.Fatalf("the script failed:\n%s", o)
	}
	got, _ := out.snapshot()
	want := fmt.Sprintf("[INFO] Executing SQL from file.\n%[1]shelp;\n%[2]s\n%[1]sCLEAR;\n%[1]sSHOW TABLES;\nEmpty set\n\n", prompt, helpText)
	if got != want {
		t.Errorf("printed\n%q\nwant\n%q", got, want)
	}
	for _, cmd := range []string{"HELP", "QUIT/EXIT", "CLEAR", "SET", "RESET", "STOP JOB"} {
		if !strings.Contains(helpText, "\n"+cmd+" ") {
			t.Errorf("HELP does not list %s", cmd)
		}
	}
}
