package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/server/servertest"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

// serverProcess is a running sluice server.
type serverProcess struct {
	cmd *exec.Cmd
	url string
	mu  sync.Mutex
	log strings.Builder // what it printed to stderr
}

// startServer starts sluice server with args on a free port and returns
// once its REST endpoint is up.
func startServer(t *testing.T, ctx context.Context, args ...string) *serverProcess {
	t.Helper()
	p := &serverProcess{cmd: exec.Command(binary, append([]string{"server", "-port", "0"}, args...)...)}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	up := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.log.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			if url, ok := strings.CutPrefix(sc.Text(), "SQL Gateway REST endpoint at "); ok {
				up <- url
			}
		}
		close(up)
	}()
	select {
	case url, ok := <-up:
		if !ok {
			_ = p.cmd.Wait()
			t.Fatalf("sluice server ended before serving:\n%s", p.printed())
		}
		p.url = url
	case <-ctx.Done():
		p.kill()
		t.Fatalf("sluice server did not start:\n%s", p.printed())
	}
	return p
}

// printed returns what the server printed so far.
func (p *serverProcess) printed() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// kill ends the server with SIGKILL and waits for it.
func (p *serverProcess) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	_ = p.cmd.Wait()
}

// TestServerBinarySurvivesKill runs the aggregate-count tutorial against
// the sluice server binary over a data directory, closes the session,
// kills the server with SIGKILL once the job has a checkpoint, starts it
// again on the directory, and finds the tables and the job there, the job
// running and its counts going on exactly from where they were.
func TestServerBinarySurvivesKill(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	src, err := os.ReadFile(filepath.Join(acceptanceDir, "aggregate-count.sql"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer("KAFKA_PORT", strconv.Itoa(cluster.KafkaPort()),
		"SCHEMA_REGISTRY_PORT", strconv.Itoa(cluster.RegistryPort())).Replace(string(src))
	var stmts []string
	for _, c := range parser.SplitStatements(text) {
		stmts = append(stmts, c.Text)
	}
	query := stmts[len(stmts)-1]
	data := t.TempDir()

	srv := startServer(t, ctx, "-external", "-data-dir", data)
	defer func() { srv.kill() }()
	c := &servertest.Client{Base: srv.url}
	session, err := c.OpenSession(ctx, map[string]string{"execution.checkpointing.interval": "100 ms"})
	if err != nil {
		t.Fatal(err)
	}
	var job string
	for _, st := range stmts[:len(stmts)-1] {
		rows, err := c.Run(ctx, session, st)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(st, "GROUP BY") {
			job = rows[0][0].(string)
		}
	}
	counts := func(session string, want map[string]any) {
		t.Helper()
		op, err := c.Submit(ctx, session, query)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]any{}
		if _, err := c.Fetch(ctx, "/v1/sessions/"+session+"/operations/"+op+"/result/0", func(r map[string]any) bool {
			if err := servertest.Apply(got, r); err != nil {
				t.Fatal(err)
			}
			return !reflect.DeepEqual(got, want)
		}); err != nil {
			t.Fatalf("%v; counts %v, want %v\n%s", err, got, want, srv.printed())
		}
		if _, err := c.Do(ctx, "DELETE", "/v1/sessions/"+session+"/operations/"+op+"/close", nil); err != nil {
			t.Fatal(err)
		}
	}
	counts(session, map[string]any{"Aliens": 1.0, "Die Hard": 3.0, "The Godfather": 4.0, "The Big Lebowski": 2.0})
	if _, err := c.Do(ctx, "DELETE", "/v1/sessions/"+session, nil); err != nil {
		t.Fatal(err)
	}
	for {
		chks, _ := filepath.Glob(filepath.Join(data, "checkpoints", job, "chk-*", "_metadata"))
		if len(chks) > 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("job %s never completed a checkpoint:\n%s", job, srv.printed())
		}
		time.Sleep(10 * time.Millisecond)
	}
	srv.kill()

	srv = startServer(t, ctx, "-external", "-data-dir", data)
	if !strings.Contains(srv.printed(), "Recovered job "+job) {
		t.Errorf("the restarted server does not say it recovered %s:\n%s", job, srv.printed())
	}
	c.Base = srv.url
	session, err = c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := c.Run(ctx, session, "SHOW TABLES")
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]any{{"movie_ticket_sales"}, {"movie_ticket_sales_by_title"}}; !reflect.DeepEqual(tables, want) {
		t.Errorf("SHOW TABLES after the restart: %v, want %v", tables, want)
	}
	jobs, err := c.Run(ctx, session, "SHOW JOBS")
	if err != nil {
		t.Fatal(err)
	}
	running := false
	for _, r := range jobs {
		running = running || r[0] == job && r[2] == "RUNNING"
	}
	if !running {
		t.Fatalf("SHOW JOBS after the restart does not list %s running: %v", job, jobs)
	}
	if _, err := c.Run(ctx, session, "INSERT INTO movie_ticket_sales VALUES ('Aliens', '2019-07-18T12:00:00Z', 10), ('Jaws', '2019-07-18T12:00:00Z', 8)"); err != nil {
		t.Fatal(err)
	}
	counts(session, map[string]any{"Aliens": 2.0, "Die Hard": 3.0, "The Godfather": 4.0, "The Big Lebowski": 2.0, "Jaws": 1.0})

	// SIGTERM stops the server in order.
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := srv.cmd.Wait(); err != nil {
		t.Errorf("the server stopped by SIGTERM: %v\n%s", err, srv.printed())
	}
}

// TestServerRefusesOpenAddressWithoutToken: listening beyond loopback
// needs a token.
func TestServerRefusesOpenAddressWithoutToken(t *testing.T) {
	r := runSluice(t, nil, "server", "-external", "-address", "0.0.0.0", "-port", "0")
	if r.code != 1 || !strings.Contains(r.stderr, `refusing to serve on "0.0.0.0" without a token`) {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

// TestSQLClientOnServer runs sluice sql -endpoint against the server
// binary: a script (-f, with an initialization script -i) starts a job
// and the client exits at once; the job runs on, and a second client,
// with the token from the environment, sees it in SHOW JOBS and stops it.
// Flags of the embedded engine are refused with -endpoint, and a server
// that is not there is an error naming it.
func TestSQLClientOnServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := startServer(t, ctx, "-external", "-token", "s3cret")
	defer srv.kill()
	dir := t.TempDir()
	initFile, script := filepath.Join(dir, "init.sql"), filepath.Join(dir, "job.sql")
	writeFile(t, initFile, "CREATE TABLE gen (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '5');\n")
	writeFile(t, script, "CREATE TABLE sink (n BIGINT) WITH ('connector' = 'blackhole');\nINSERT INTO sink SELECT n FROM gen;\n")

	r := runSluice(t, nil, "sql", "-endpoint", srv.url, "-token", "s3cret", "-i", initFile, "-f", script)
	if r.code != 0 {
		t.Fatalf("sluice sql -endpoint -f exited %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	m := regexp.MustCompile(`Job ID: ([0-9a-f]{32})`).FindStringSubmatch(r.stdout)
	if m == nil || !strings.HasPrefix(r.stdout, "[INFO] Successfully initialized from sql script: file:"+initFile) {
		t.Fatalf("sluice sql -endpoint -f printed:\n%s", r.stdout)
	}

	cmd := exec.CommandContext(ctx, binary, "sql", "-endpoint", srv.url)
	cmd.Env = append(os.Environ(), "SLUICE_SERVER_TOKEN=s3cret")
	cmd.Stdin = strings.NewReader("SHOW JOBS;\nSTOP JOB '" + m[1] + "';\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sluice sql -endpoint: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`\| `+m[1]+` \| .* \|\s+RUNNING \|`).Match(out) || !strings.Contains(string(out), "[INFO] Execute statement succeed.") {
		t.Errorf("the second client printed:\n%s\nwant the job RUNNING in SHOW JOBS, then stopped", out)
	}

	r = runSluice(t, nil, "sql", "-endpoint", srv.url, "-data-dir", dir)
	if r.code == 0 || !strings.Contains(r.stderr, "-data-dir: not with -endpoint") {
		t.Errorf("-data-dir with -endpoint: exit %d, %s", r.code, r.stderr)
	}
	r = runSluice(t, nil, "sql", "-endpoint", "http://127.0.0.1:1")
	if r.code != 1 || !strings.Contains(r.stderr, "cannot reach the SQL gateway at http://127.0.0.1:1") {
		t.Errorf("an endpoint with no server: exit %d, %s", r.code, r.stderr)
	}
}
