package client

import (
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/server"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

// gatewayServer is a sluice server running in the test: its job manager,
// catalog and REST endpoint over an embedded cluster of its own.
type gatewayServer struct {
	cluster *devcluster.Cluster
	jobs    *sluice.JobManager
	catalog *sluice.Catalog
	gw      *server.Server
	url     string
}

// startGateway starts a server in memory; token, if set, is required.
func startGateway(t *testing.T, token string) *gatewayServer {
	t.Helper()
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := &gatewayServer{cluster: cluster, jobs: sluice.NewJobManager(), catalog: sluice.NewCatalog()}
	s.gw = server.New(s.catalog, s.jobs, server.Options{Token: token})
	hs := httptest.NewServer(s.gw)
	s.url = hs.URL
	t.Cleanup(func() {
		hs.Close()
		s.gw.Close()
		s.jobs.Close()
		cluster.Close()
	})
	return s
}

// openGateway opens a client session on the server.
func (s *gatewayServer) open(t *testing.T, token string) *Gateway {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	g, err := OpenGateway(ctx, s.url, token, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// execute runs one statement on a backend and returns its result.
func execute(t *testing.T, b Backend, sql string) *Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	st, err := parser.ParseStatement(sql)
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.Execute(ctx, st, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return res
}

// acceptanceRun is one run of a seed acceptance script through the client
// on a backend: what the client printed, and the rows of its query.
type acceptanceRun struct {
	printed string
	rows    []string
}

// runAcceptance runs the acceptance script name (NAME.sql) through the
// client's RunScript on b at the given parallelism, in the tableau
// result mode, with the script's ports those of cluster. The script's
// last statement is an unbounded query: once the jobs are quiet (quiet
// tells) and the query has printed as many rows as NAME.out holds, it is
// stopped as Ctrl-C stops it. The output is returned with the ports
// written as the script's placeholders and the job IDs as JOB.
func runAcceptance(t *testing.T, b Backend, cluster *devcluster.Cluster, quiet func(context.Context) error, name string, parallelism int) acceptanceRun {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(acceptanceDir, name+".sql"))
	if err != nil {
		t.Fatalf("the acceptance cases must sit beside the repository: %v", err)
	}
	golden, err := os.ReadFile(filepath.Join(acceptanceDir, name+".out"))
	if err != nil {
		t.Fatal(err)
	}
	wantRows := len(strings.Split(strings.TrimSuffix(string(golden), "\n"), "\n")) - 3
	ports := strings.NewReplacer("KAFKA_PORT", strconv.Itoa(cluster.KafkaPort()), "SCHEMA_REGISTRY_PORT", strconv.Itoa(cluster.RegistryPort()))
	script := ports.Replace(string(src))

	execute(t, b, fmt.Sprintf("SET 'parallelism.default' = '%d';", parallelism))
	execute(t, b, "SET 'sql-client.execution.result-mode' = 'tableau';")
	out := newOutput()
	intr := make(chan os.Signal)
	c := &Client{Backend: b, Out: out, Interrupts: intr}
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitTimeout)
	defer cancel()
	done := make(chan bool, 1)
	go func() { done <- c.RunScript(ctx, script) }()

	// wait waits until the output satisfies ok.
	wait := func(what string, ok func(string) bool) {
		t.Helper()
		for {
			o, changed := out.snapshot()
			if ok(o) {
				return
			}
			select {
			case <-changed:
			case <-done:
				t.Fatalf("the script ended before %s; printed:\n%s", what, o)
			case <-ctx.Done():
				t.Fatalf("timed out waiting for %s; printed:\n%s", what, o)
			}
		}
	}
	tableTop := regexp.MustCompile(`(?m)^\+----\+.*\n\| op \|.*\n\+----\+.*\n`)
	wait("the query's header", tableTop.MatchString)
	if err := quiet(ctx); err != nil {
		t.Fatalf("waiting for the jobs to settle: %v", err)
	}
	wait(fmt.Sprintf("%d rows", wantRows), func(o string) bool {
		loc := tableTop.FindStringIndex(o)
		return strings.Count(o[loc[1]:], "\n") >= wantRows
	})
	intr <- os.Interrupt
	if !<-done {
		o, _ := out.snapshot()
		t.Fatalf("the script failed; printed:\n%s", o)
	}
	printed, _ := out.snapshot()
	printed = regexp.MustCompile(`Job ID: [0-9a-f]{32}`).ReplaceAllString(printed, "Job ID: JOB")
	printed = strings.NewReplacer(strconv.Itoa(cluster.KafkaPort()), "KAFKA_PORT", strconv.Itoa(cluster.RegistryPort()), "SCHEMA_REGISTRY_PORT").Replace(printed)
	loc := tableTop.FindStringIndex(printed)
	end := strings.Index(printed, "Query terminated, received a total of ")
	return acceptanceRun{printed: printed, rows: strings.Split(strings.TrimSuffix(printed[loc[0]:end], "\n"), "\n")}
}

// TestGatewayAcceptance runs the four seed acceptance scripts through the
// client against a sluice server and against the embedded engine, at
// parallelism 1 and 4: the client prints the same, and the query prints
// NAME.out's lines (header and rows; the rows of different keys arrive in
// no fixed order at parallelism 4, so rows are compared sorted).
func TestGatewayAcceptance(t *testing.T) {
	for _, name := range []string{"aggregate-count", "finding-distinct", "interval-join", "tumbling-windows"} {
		for _, p := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/p%d", name, p), func(t *testing.T) {
				golden, err := os.ReadFile(filepath.Join(acceptanceDir, name+".out"))
				if err != nil {
					t.Fatal(err)
				}
				want := strings.Split(strings.TrimSuffix(string(golden), "\n"), "\n")

				srv := startGateway(t, "")
				g := srv.open(t, "")
				defer g.Close()
				watcher := sluice.NewSession(srv.catalog, srv.jobs)
				viaGateway := runAcceptance(t, g, srv.cluster, func(ctx context.Context) error { return watcher.WaitQuiet(ctx) }, name, p)

				cluster, err := devcluster.Start(devcluster.Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer cluster.Close()
				e := sluice.NewEngine()
				defer e.Close()
				embedded := runAcceptance(t, &Embedded{Engine: e}, cluster, func(ctx context.Context) error { return e.WaitQuiet(ctx) }, name, p)

				for _, run := range []struct {
					what string
					rows []string
				}{{"through the gateway", viaGateway.rows}, {"embedded", embedded.rows}} {
					if !slices.Equal(run.rows[:3], want[:3]) || !slices.Equal(sorted(run.rows[3:]), sorted(want[3:])) {
						t.Errorf("the query printed %s:\n%s\nwant (rows in any order):\n%s", run.what, strings.Join(run.rows, "\n"), golden)
					}
				}
				// The rest is the same text; the query's rows as sets.
				strip := func(r acceptanceRun) string { return strings.Replace(r.printed, strings.Join(r.rows, "\n"), "ROWS", 1) }
				if g, e := strip(viaGateway), strip(embedded); g != e {
					t.Errorf("the client printed through the gateway:\n%s\nembedded:\n%s", g, e)
				}
			})
		}
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestGatewayJobOutlivesClient: an INSERT started by a client of the
// server keeps running after the client quits (QUIT; does not ask, as the
// job is the server's), and another client sees it in SHOW JOBS and stops
// it.
func TestGatewayJobOutlivesClient(t *testing.T) {
	srv := startGateway(t, "")
	g := srv.open(t, "")
	out := newOutput()
	c := &Client{Backend: g, Out: out, Interactive: true}
	script := `CREATE TABLE gen (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10');
CREATE TABLE sink (n BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO sink SELECT n FROM gen;
QUIT;
`
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	if err := c.Run(ctx, strings.NewReader(script)); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	printed, _ := out.snapshot()
	id := regexp.MustCompile(`Job ID: ([0-9a-f]{32})`).FindStringSubmatch(printed)
	if id == nil {
		t.Fatalf("the INSERT printed no job ID:\n%s", printed)
	}
	if !strings.HasSuffix(printed, "\n"+prompt+"[INFO] Exiting Sluice SQL CLI Client...\n") {
		t.Errorf("QUIT; printed more than Flink's message:\n%s", printed)
	}
	j, ok := srv.jobs.Job(id[1])
	if !ok || j.Status() != "RUNNING" {
		t.Fatalf("job %s after the client quit: found %v, want RUNNING", id[1], ok)
	}

	other := srv.open(t, "")
	defer other.Close()
	res := execute(t, other, "SHOW JOBS;")
	if res.Kind != sluice.ResultTable || len(res.Rows) != 1 || res.Rows[0][0] != id[1] || res.Rows[0][2] != "RUNNING" {
		t.Fatalf("SHOW JOBS in another session = %+v, want the job RUNNING", res)
	}
	if res := execute(t, other, fmt.Sprintf("STOP JOB '%s';", id[1])); res.Kind != sluice.ResultOK {
		t.Fatalf("STOP JOB = %+v", res)
	}
	select {
	case <-j.Done():
	case <-ctx.Done():
		t.Fatal("the job did not end after STOP JOB")
	}
	if st := j.Status(); st == "RUNNING" || st == "FAILED" {
		t.Errorf("after STOP JOB the job is %s", st)
	}
}

// TestGatewayErrors: statements that fail print as the embedded client
// prints them, with their line and column; a server that cannot be
// reached, a session the server no longer has and a token that is
// missing are errors naming the endpoint.
func TestGatewayErrors(t *testing.T) {
	srv := startGateway(t, "")
	g := srv.open(t, "")
	defer g.Close()
	e := sluice.NewEngine()
	defer e.Close()
	script := "SELECT 1;\nSELECT nope\n  FROM (VALUES (1)) AS v(a);\n"
	print := func(b Backend) string {
		out := newOutput()
		c := &Client{Backend: b, Out: out}
		ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
		defer cancel()
		if c.Execute(ctx, "CREATE TABLE t (a INT) WITH ('connector' = 'nope');") {
			t.Error("CREATE TABLE with an unknown connector succeeded")
		}
		execute(t, b, "SET 'sql-client.execution.result-mode' = 'tableau';")
		// Fails as it runs: the header comes first, then the error.
		if c.Execute(ctx, "SELECT 1 / a FROM (VALUES (0)) AS v(a);") {
			t.Error("a query dividing by zero succeeded")
		}
		if c.RunScript(ctx, script) {
			t.Error("a script with a failing query succeeded")
		}
		o, _ := out.snapshot()
		return o
	}
	viaGateway, embedded := print(g), print(&Embedded{Engine: e})
	if viaGateway != embedded {
		t.Errorf("through the gateway:\n%s\nembedded:\n%s", viaGateway, embedded)
	}
	if !strings.Contains(viaGateway, "| op |      EXPR$0 |\n+----+-------------+\n[ERROR] Could not execute SQL statement. Reason:\nCalc: /: / by zero\n") {
		t.Errorf("the failing query's header and error are missing:\n%s", viaGateway)
	}
	if !strings.Contains(viaGateway, "line 1, column 8") {
		t.Errorf("the error does not give the line and column:\n%s", viaGateway)
	}

	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	t.Run("unreachable", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		_, err = OpenGateway(ctx, addr, "", nil)
		if err == nil || !strings.Contains(err.Error(), "cannot reach the SQL gateway at http://"+addr) {
			t.Errorf("OpenGateway(%s) = %v, want an error naming the endpoint", addr, err)
		}
	})
	t.Run("session gone", func(t *testing.T) {
		g := srv.open(t, "")
		defer g.Close()
		srv.gw.Close() // closes every session
		st, _ := parser.ParseStatement("SHOW TABLES;")
		_, err := g.Execute(ctx, st, "SHOW TABLES;")
		want := fmt.Sprintf("the SQL gateway at %s answered 500: Session '%s' does not exist.", srv.url, g.session)
		if err == nil || err.Error() != want {
			t.Errorf("a statement in a closed session: %v, want %q", err, want)
		}
	})
	t.Run("token", func(t *testing.T) {
		secured := startGateway(t, "s3cret")
		if _, err := OpenGateway(ctx, secured.url, "", nil); err == nil || !strings.Contains(err.Error(), "the SQL gateway at "+secured.url+" answered 401: Unauthorized") {
			t.Errorf("without the token: %v, want the server's 401 naming the endpoint", err)
		}
		g := secured.open(t, "s3cret")
		defer g.Close()
		if res := execute(t, g, "SHOW TABLES;"); res.Kind != sluice.ResultTable {
			t.Errorf("SHOW TABLES with the token = %+v", res)
		}
	})
}

// TestGatewayResultModes: values of every kind, and the tableau,
// changelog and table result modes, print the same through the gateway
// as embedded (TIMESTAMP_LTZ in the session's time zone, NULL, binary,
// intervals, fractions of TIME, arrays, maps and rows).
func TestGatewayResultModes(t *testing.T) {
	script := `SET 'table.local-time-zone' = 'Asia/Tokyo';
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM (VALUES (1, CAST(1.5 AS DECIMAL(10,2)), CAST(0.1 AS DOUBLE), TIMESTAMP '2024-01-02 03:04:05.123',
  CAST(NULL AS STRING), TIME '10:11:12.345', DATE '2024-02-29', TO_TIMESTAMP_LTZ(1000, 3), CAST(0.1 AS FLOAT),
  X'0aff', INTERVAL '2' DAY, 'Grüße')) AS v(a, b, c, d, e, f, g, h, i, j, k, l);
SET 'sql-client.execution.result-mode' = 'changelog';
SELECT a, COUNT(*) AS c FROM (VALUES (1), (1), (2)) AS v(a) GROUP BY a;
SET 'sql-client.execution.result-mode' = 'table';
SELECT a, COUNT(*) AS c FROM (VALUES (1), (1), (2)) AS v(a) GROUP BY a;
SELECT ARRAY[1, NULL] AS a, MAP['k', ROW('x', X'0a')] AS m;
SET 'sql-client.execution.result-mode' = 'changelog';
SELECT ARRAY[1, NULL] AS a, MAP['k', ROW('x', X'0a')] AS m;
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT ARRAY[1, NULL] AS a, MAP['k', ROW('x', X'0a')] AS m;
SHOW CREATE TABLE nope;
`
	viaGateway := sameAsEmbedded(t, script)
	for _, want := range []string{"| 1970-01-01 09:00:01.000 |", "| 10:11:12.345 |", "[1, NULL] | {k=(x, x'0a')} |", " +U           1                    2\n", "| 1 | 2 |\n", "Table with identifier `default_catalog`.`default_database`.`nope` does not exist."} {
		if !strings.Contains(viaGateway, want) {
			t.Errorf("through the gateway, %q is missing:\n%s", want, viaGateway)
		}
	}
}

// TestGatewayBatchMode: execution.runtime-mode = 'batch' holds in a
// session of the server as in the embedded engine: a query prints its
// final rows without the "op" column, sorted by any column; the changelog
// result mode is refused as in Flink's client (ResultDescriptor); SET
// lists the mode; 'streaming' brings the changelog back.
func TestGatewayBatchMode(t *testing.T) {
	script := `SET 'execution.runtime-mode' = 'batch';
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT a, COUNT(*) AS c FROM (VALUES (1), (1), (2)) AS v(a) GROUP BY a ORDER BY c DESC;
SET 'sql-client.execution.result-mode' = 'table';
SELECT a, COUNT(*) AS c FROM (VALUES (1), (1), (2)) AS v(a) GROUP BY a ORDER BY a DESC;
SET 'sql-client.execution.result-mode' = 'changelog';
SELECT 1;
SET;
SET 'execution.runtime-mode' = 'streaming';
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT a, COUNT(*) AS c FROM (VALUES (1), (1)) AS v(a) GROUP BY a;
`
	viaGateway := sameAsEmbedded(t, script)
	for _, want := range []string{
		"+---+---+\n| a | c |\n+---+---+\n| 1 | 2 |\n| 2 | 1 |\n+---+---+\n2 rows in set\n",
		"+---+---+\n| a | c |\n+---+---+\n| 2 | 1 |\n| 1 | 2 |\n+---+---+\n2 rows in set\n",
		"Results of batch queries can only be served in table or tableau mode.",
		"| +U |           1 |                    2 |\n",
	} {
		if !strings.Contains(viaGateway, want) {
			t.Errorf("through the gateway, %q is missing:\n%s", want, viaGateway)
		}
	}
	if !regexp.MustCompile(`\| +execution\.runtime-mode \| +batch \|`).MatchString(viaGateway) {
		t.Errorf("SET does not list execution.runtime-mode = batch:\n%s", viaGateway)
	}
}

// sameAsEmbedded runs script through a gateway's session and in an
// embedded engine, checks that both print the same, and returns what the
// gateway's printed.
func sameAsEmbedded(t *testing.T, script string) string {
	t.Helper()
	run := func(b Backend) string {
		out := newOutput()
		c := &Client{Backend: b, Out: out}
		ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
		defer cancel()
		if err := c.Run(ctx, strings.NewReader(script)); err != nil {
			t.Fatal(err)
		}
		o, _ := out.snapshot()
		return o
	}
	srv := startGateway(t, "")
	g := srv.open(t, "")
	defer g.Close()
	e := sluice.NewEngine()
	defer e.Close()
	viaGateway, embedded := run(g), run(&Embedded{Engine: e})
	if viaGateway != embedded {
		t.Errorf("through the gateway:\n%s\nembedded:\n%s", viaGateway, embedded)
	}
	return viaGateway
}
