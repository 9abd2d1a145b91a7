package server_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/server"
	"github.com/sluicesql/sluice/internal/server/servertest"
)

// startServer is start, returning the server as well.
func startServer(t *testing.T, opts server.Options) (*server.Server, *servertest.Client) {
	t.Helper()
	jobs := sluice.NewJobManager()
	gw := server.New(sluice.NewCatalog(), jobs, opts)
	c := serve(t, gw, opts.Token)
	t.Cleanup(func() {
		gw.Close()
		jobs.Close()
	})
	return gw, c
}

// wantError checks that a response is Flink's error shape with the status
// and a message containing msg.
func wantError(t *testing.T, what string, r *servertest.Response, status int, msg string) {
	t.Helper()
	errs, _ := r.JSON["errors"].([]any)
	var all []string
	for _, e := range errs {
		s, _ := e.(string)
		all = append(all, s)
	}
	if r.Status != status || keys(r.JSON) != "errors" || !strings.Contains(strings.Join(all, "\n"), msg) {
		t.Errorf("%s: %d %s, want %d with an error containing %q", what, r.Status, r.Body, status, msg)
	}
}

// do sends a request that must get an answer.
func do(ctx context.Context, t *testing.T, c *servertest.Client, method, path string, body any) *servertest.Response {
	t.Helper()
	r, err := c.Do(ctx, method, path, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return r
}

// TestConfigureSession: v2's configure-session runs SET, RESET and DDL at
// once and answers {}; other statements are refused by name.
func TestConfigureSession(t *testing.T) {
	_, c := startServer(t, server.Options{})
	ctx := testContext(t)
	session, err := c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := "/v2/sessions/" + session + "/configure-session"
	for _, stmt := range []string{
		"SET 'parallelism.default' = '4'",
		"CREATE TABLE t (a INT) WITH ('connector' = 'datagen')",
		"CREATE VIEW v AS SELECT a FROM t;",
		"ALTER TABLE t SET ('rows-per-second' = '5')",
	} {
		r := do(ctx, t, c, "POST", path, map[string]string{"statement": stmt})
		if r.Status != 200 || string(r.Body) != "{}" {
			t.Errorf("%s: %d %s", stmt, r.Status, r.Body)
		}
	}
	conf := do(ctx, t, c, "GET", "/v2/sessions/"+session, nil)
	if got := conf.JSON["properties"].(map[string]any)["parallelism.default"]; got != "4" {
		t.Errorf("parallelism.default after configure-session: %v", got)
	}
	if rows, err := c.Run(ctx, session, "SHOW TABLES"); err != nil || len(rows) != 2 || rows[0][0] != "t" || rows[1][0] != "v" {
		t.Errorf("SHOW TABLES: %v %v", rows, err)
	}
	for stmt, msg := range map[string]string{
		"SELECT 1":                        "Unsupported statement for configuring session at line 1, column 1",
		"CREATE TABLE u AS SELECT 1 AS x": "CREATE TABLE (without AS)",
		"SET":                             "Unsupported statement for configuring session",
		"SET 'a' = 'b'; SET 'c' = 'd'":    "Only single statement is supported now",
		"CREATE TABLE t (a INT) WITH ('connector' = 'datagen')": "already exists",
		"SELEC 1": "line 1, column 1",
	} {
		wantError(t, stmt, do(ctx, t, c, "POST", path, map[string]string{"statement": stmt}), 500, msg)
	}
	wantError(t, "no statement", do(ctx, t, c, "POST", path, map[string]string{}), 400, "the field 'statement' is missing")
	wantError(t, "unknown field", do(ctx, t, c, "POST", path, map[string]any{"statement": "SET 'a' = 'b'", "executionConfig": map[string]string{}}), 400, `unknown field "executionConfig"`)
}

// TestCompleteStatement: v2's complete-statement (a GET with a body)
// answers the completion hints of the word before the position.
func TestCompleteStatement(t *testing.T) {
	_, c := startServer(t, server.Options{})
	ctx := testContext(t)
	session, err := c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(ctx, session, "CREATE TABLE orders (a INT) WITH ('connector' = 'datagen')"); err != nil {
		t.Fatal(err)
	}
	path := "/v2/sessions/" + session + "/complete-statement"
	r := do(ctx, t, c, "GET", path, map[string]any{"statement": "SELECT * FROM ord", "position": 17})
	wantJSON(t, "candidates", r.JSON, map[string]any{"candidates": []any{"ORDER", "orders"}})
	r = do(ctx, t, c, "GET", path, map[string]any{"statement": "SELECT * FROM zzz", "position": 17})
	wantJSON(t, "no candidates", r.JSON, map[string]any{"candidates": []any{}})
	wantError(t, "position past the end", do(ctx, t, c, "GET", path, map[string]any{"statement": "SEL", "position": 9}), 400, "position 9 is outside the statement")
	wantError(t, "no position", do(ctx, t, c, "GET", path, map[string]any{"statement": "SEL"}), 400, "the field 'position' is missing")
	wantError(t, "v1", do(ctx, t, c, "GET", "/v1/sessions/"+session+"/complete-statement", map[string]any{"statement": "SEL", "position": 3}), 404, "Not found")
}

// TestExecutionConfig: a statement's executionConfig applies to it alone;
// a key Sluice does not act on is refused by name, a bad value fails the
// operation with the key's name.
func TestExecutionConfig(t *testing.T) {
	_, c := startServer(t, server.Options{})
	ctx := testContext(t)
	session, err := c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := do(ctx, t, c, "POST", "/v3/sessions/"+session+"/statements", map[string]any{
		"statement": "SET", "executionConfig": map[string]string{"parallelism.default": "3"}})
	op, _ := r.JSON["operationHandle"].(string)
	if st, err := c.Wait(ctx, session, op); err != nil || st != "FINISHED" {
		t.Fatalf("status %s, %v (%s)", st, err, r.Body)
	}
	res := do(ctx, t, c, "GET", "/v3/sessions/"+session+"/operations/"+op+"/result/0?rowFormat=JSON", nil)
	var got string
	for _, row := range servertest.Rows(res.JSON) {
		f := row["fields"].([]any)
		if f[0] == "parallelism.default" {
			got, _ = f[1].(string)
		}
	}
	if got != "3" {
		t.Errorf("the statement saw parallelism.default = %q: %s", got, res.Body)
	}
	conf := do(ctx, t, c, "GET", "/v3/sessions/"+session, nil)
	if p := conf.JSON["properties"].(map[string]any)["parallelism.default"]; p != "1" {
		t.Errorf("the session's parallelism.default became %v", p)
	}
	wantError(t, "unsupported key", do(ctx, t, c, "POST", "/v4/sessions/"+session+"/statements", map[string]any{
		"statement": "SELECT 1", "executionConfig": map[string]string{"table.exec.sink.upsert-materialise": "NONE"}}),
		400, "executionConfig: 'table.exec.sink.upsert-materialise' is not a setting Sluice supports")
	r = do(ctx, t, c, "POST", "/v4/sessions/"+session+"/statements", map[string]any{
		"statement": "SELECT 1", "executionConfig": map[string]string{"parallelism.default": "zero"}})
	op, _ = r.JSON["operationHandle"].(string)
	if st, err := c.Wait(ctx, session, op); err != nil || st != "ERROR" {
		t.Fatalf("a bad value: status %s, %v", st, err)
	}
	wantError(t, "a bad value", do(ctx, t, c, "GET", "/v4/sessions/"+session+"/operations/"+op+"/result/0?rowFormat=JSON", nil),
		500, "invalid value 'zero' for 'parallelism.default'")
}

// clock is a clock the test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestSessionExpiry: a session not accessed for
// sql-gateway.session.idle-timeout is gone, with Flink's error for its
// handle; any access (a heartbeat) keeps it; the periodic check closes
// idle sessions nobody asks for.
func TestSessionExpiry(t *testing.T) {
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	gw, c := startServer(t, server.Options{Now: clk.Now, SessionIdleTimeout: time.Minute, SessionCheckInterval: time.Millisecond})
	ctx := testContext(t)
	kept, err := c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	idle, err := c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	clk.advance(40 * time.Second)
	if r := do(ctx, t, c, "POST", "/v1/sessions/"+kept+"/heartbeat", nil); r.Status != 200 {
		t.Fatalf("heartbeat: %d %s", r.Status, r.Body)
	}
	clk.advance(40 * time.Second)
	wantError(t, "an idle session", do(ctx, t, c, "GET", "/v1/sessions/"+idle, nil), 500, "Session '"+idle+"' does not exist.")
	if r := do(ctx, t, c, "GET", "/v1/sessions/"+kept, nil); r.Status != 200 {
		t.Errorf("a session accessed 40 s ago: %d %s", r.Status, r.Body)
	}
	clk.advance(2 * time.Minute)
	for gw.Sessions() != 0 {
		select {
		case <-ctx.Done():
			t.Fatalf("%d sessions left after the idle timeout", gw.Sessions())
		case <-time.After(time.Millisecond):
		}
	}
	wantError(t, "the expired session", do(ctx, t, c, "POST", "/v1/sessions/"+kept+"/heartbeat", nil), 500, "Session '"+kept+"' does not exist.")
}

// TestMaxSessions: sql-gateway.session.max-num bounds the open sessions.
func TestMaxSessions(t *testing.T) {
	_, c := startServer(t, server.Options{MaxSessions: 2})
	ctx := testContext(t)
	first, err := c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.OpenSession(ctx, nil); err != nil {
		t.Fatal(err)
	}
	wantError(t, "a third session", do(ctx, t, c, "POST", "/v1/sessions", map[string]any{}), 500,
		"Failed to create session, the count of active sessions exceeds the max count: 2 (sql-gateway.session.max-num)")
	do(ctx, t, c, "DELETE", "/v1/sessions/"+first, nil)
	if _, err := c.OpenSession(ctx, nil); err != nil {
		t.Errorf("after one closed: %v", err)
	}
}

// TestOptionsSet: the options by their Flink names; 0 turns expiry off;
// others are refused by name.
func TestOptionsSet(t *testing.T) {
	var o server.Options
	for k, v := range map[string]string{
		server.OptSessionIdleTimeout:   "0",
		server.OptSessionCheckInterval: "30 s",
		server.OptMaxSessions:          "5",
		server.OptMaxContentLength:     "1024",
		server.OptMaxStatementLength:   "100",
	} {
		if err := o.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if o.SessionIdleTimeout >= 0 || o.SessionCheckInterval != 30*time.Second || o.MaxSessions != 5 || o.MaxContentLength != 1024 || o.MaxStatementLength != 100 {
		t.Errorf("options %+v", o)
	}
	for k, msg := range map[string]string{
		"sql-gateway.endpoint.rest.port": "'sql-gateway.endpoint.rest.port' is not an option of sluice server",
		server.OptMaxSessions:            "invalid value 'many' for 'sql-gateway.session.max-num'",
		server.OptSessionIdleTimeout:     "invalid value 'many' for 'sql-gateway.session.idle-timeout'",
	} {
		if err := o.Set(k, "many"); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want %q", k, err, msg)
		}
	}
}

// TestStatementTooLong: a statement over the limit is refused, naming the
// limit, before it is parsed.
func TestStatementTooLong(t *testing.T) {
	_, c := startServer(t, server.Options{MaxStatementLength: 100})
	ctx := testContext(t)
	session, err := c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	long := "SELECT '" + strings.Repeat("x", 100) + "'"
	for _, tc := range []struct {
		method, path string
		body         map[string]any
	}{
		{"POST", "/v2/sessions/" + session + "/statements", map[string]any{"statement": long}},
		{"POST", "/v2/sessions/" + session + "/configure-session", map[string]any{"statement": long}},
		{"GET", "/v2/sessions/" + session + "/complete-statement", map[string]any{"statement": long, "position": 1}},
	} {
		r := do(ctx, t, c, tc.method, tc.path, tc.body)
		wantError(t, tc.path, r, 413, "the statement is 109 bytes, over the limit of 100 bytes (sluice.server.max-statement-length)")
	}
}

// TestCrossSite: what a browser page on another site can send (a
// text/plain or form POST, or JSON that says it is cross-site) runs no
// statement and opens no session; Flink's clients still work.
func TestCrossSite(t *testing.T) {
	gw, c := startServer(t, server.Options{})
	ctx := testContext(t)
	session, err := c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	const create = `{"statement": "CREATE TABLE t (a INT) WITH ('connector' = 'datagen')"}`
	for _, tc := range []struct {
		name, path string
		headers    map[string]string
		status     int
	}{
		{"text/plain statement", "/v1/sessions/" + session + "/statements", map[string]string{"Content-Type": "text/plain"}, 415},
		{"form statement", "/v1/sessions/" + session + "/statements", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415},
		{"cross-site text/plain", "/v2/sessions/" + session + "/configure-session", map[string]string{"Content-Type": "text/plain", "Origin": "http://evil.test", "Sec-Fetch-Site": "cross-site"}, 403},
		{"cross-site JSON", "/v2/sessions/" + session + "/configure-session", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403},
		{"another origin", "/v1/sessions", map[string]string{"Content-Type": "application/json", "Origin": "http://localhost:3000"}, 403},
	} {
		req, err := http.NewRequestWithContext(ctx, "POST", c.Base+tc.path, strings.NewReader(create))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range tc.headers {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.status)
		}
	}
	if rows, err := c.Run(ctx, session, "SHOW TABLES"); err != nil || len(rows) != 0 {
		t.Errorf("tables after the refused requests: %v %v", rows, err)
	}
	if n := gw.Sessions(); n != 1 {
		t.Errorf("%d sessions after the refused requests, want 1", n)
	}
}

// TestSessionConfigMasked: the REST API shows a session's secrets as
// Flink does, ******.
func TestSessionConfigMasked(t *testing.T) {
	_, c := startServer(t, server.Options{})
	ctx := testContext(t)
	session, err := c.OpenSession(ctx, map[string]string{"s3.secret-key": "hunter2", "s3.access-key": "AKIA"})
	if err != nil {
		t.Fatal(err)
	}
	conf := do(ctx, t, c, "GET", "/v1/sessions/"+session, nil)
	props := conf.JSON["properties"].(map[string]any)
	if props["s3.secret-key"] != "******" || props["s3.access-key"] != "AKIA" || strings.Contains(string(conf.Body), "hunter2") {
		t.Errorf("session config %s", conf.Body)
	}
	rows, err := c.Run(ctx, session, "SET")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(rows, func(r []any) bool { return r[0] == "s3.secret-key" && r[1] == "******" }) {
		t.Errorf("SET lists %v", rows)
	}
}
