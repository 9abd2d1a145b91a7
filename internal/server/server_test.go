package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/server"
	"github.com/sluicesql/sluice/internal/server/servertest"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

var uuid = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// start runs a server over a fresh data directory and returns its client.
func start(t *testing.T, opts server.Options) *servertest.Client {
	t.Helper()
	dir := t.TempDir()
	jobs := sluice.NewJobManager()
	if err := jobs.SetDataDir(dir); err != nil {
		t.Fatal(err)
	}
	cat, err := sluice.OpenCatalog(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	gw := server.New(cat, jobs, opts)
	c := serve(t, gw, opts.Token)
	t.Cleanup(func() {
		gw.Close()
		jobs.Close()
	})
	return c
}

// serve serves gw over HTTP until the test ends and returns its client.
func serve(t *testing.T, gw *server.Server, token string) *servertest.Client {
	hs := httptest.NewServer(gw)
	t.Cleanup(hs.Close)
	return &servertest.Client{Base: hs.URL, Token: token}
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// aggregateCount returns the aggregate-count tutorial's statements for
// the cluster's ports.
func aggregateCount(t *testing.T, cluster *devcluster.Cluster) []string {
	t.Helper()
	src, err := os.ReadFile("../../../shared/acceptance/aggregate-count.sql")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer("KAFKA_PORT", strconv.Itoa(cluster.KafkaPort()),
		"SCHEMA_REGISTRY_PORT", strconv.Itoa(cluster.RegistryPort())).Replace(string(src))
	var out []string
	for _, c := range parser.SplitStatements(text) {
		out = append(out, c.Text)
	}
	return out
}

// wantJSON compares a value of a response with what Flink sends.
func wantJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", what, got, want)
	}
}

// keys returns the sorted keys of a JSON object.
func keys(m map[string]any) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}

var stringType = map[string]any{"type": "VARCHAR", "nullable": true, "length": float64(2147483647)}

// TestGatewayRoundTrip runs the aggregate-count tutorial through the REST
// API as Flink's SQL Gateway clients do, checking the responses field by
// field against Flink's specification (rest_v1_sql_gateway.yml) and
// serializers, then closes the session and finds its job running from
// another one.
func TestGatewayRoundTrip(t *testing.T) {
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	c := start(t, server.Options{})
	ctx := testContext(t)

	info, err := c.Do(ctx, "GET", "/v1/info", nil)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "info status", info.Status, 200)
	wantJSON(t, "info keys", keys(info.JSON), "productName,version")
	wantJSON(t, "productName", info.JSON["productName"], "Sluice")
	versions, err := c.Do(ctx, "GET", "/v1/api_versions", nil)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "versions", versions.JSON["versions"], []any{"V1", "V2", "V3", "V4"})

	session, err := c.OpenSession(ctx, map[string]string{"parallelism.default": "2"})
	if err != nil {
		t.Fatal(err)
	}
	if !uuid.MatchString(session) {
		t.Fatalf("session handle %q is not a UUID", session)
	}
	conf, err := c.Do(ctx, "GET", "/v1/sessions/"+session, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "session config keys", keys(conf.JSON), "properties")
	wantJSON(t, "parallelism.default", conf.JSON["properties"].(map[string]any)["parallelism.default"], "2")
	hb, err := c.Do(ctx, "POST", "/v1/sessions/"+session+"/heartbeat", nil)
	if err != nil || hb.Status != 200 {
		t.Fatalf("heartbeat: %v %v", hb, err)
	}

	stmts := aggregateCount(t, cluster)
	query := stmts[len(stmts)-1]
	var insertJob string
	for i, st := range stmts[:len(stmts)-1] {
		op, err := c.Submit(ctx, session, st)
		if err != nil {
			t.Fatal(err)
		}
		if !uuid.MatchString(op) {
			t.Fatalf("operation handle %q is not a UUID", op)
		}
		if s, err := c.Wait(ctx, session, op); err != nil || s != "FINISHED" {
			t.Fatalf("statement %d: status %s, %v", i, s, err)
		}
		base := "/v1/sessions/" + session + "/operations/" + op + "/result/"
		first, err := c.Do(ctx, "GET", base+"0", nil)
		if err != nil {
			t.Fatal(err)
		}
		r := first.JSON
		wantJSON(t, "resultType", r["resultType"], "PAYLOAD")
		wantJSON(t, "isQueryResult", r["isQueryResult"], false)
		wantJSON(t, "nextResultUri", r["nextResultUri"], base+"1")
		results := r["results"].(map[string]any)
		wantJSON(t, "results keys", keys(results), "columns,data,rowFormat")
		wantJSON(t, "rowFormat", results["rowFormat"], "JSON")
		data := results["data"].([]any)
		if strings.HasPrefix(st, "CREATE") {
			wantJSON(t, "resultKind", r["resultKind"], "SUCCESS")
			wantJSON(t, "columns", results["columns"], []any{map[string]any{"name": "result", "logicalType": stringType, "comment": nil}})
			wantJSON(t, "data", data, []any{map[string]any{"kind": "INSERT", "fields": []any{"OK"}}})
			if _, ok := r["jobID"]; ok {
				t.Errorf("a CREATE TABLE has a jobID: %s", first.Body)
			}
		} else {
			wantJSON(t, "resultKind", r["resultKind"], "SUCCESS_WITH_CONTENT")
			wantJSON(t, "columns", results["columns"], []any{map[string]any{"name": "job id", "logicalType": stringType, "comment": nil}})
			job, _ := r["jobID"].(string)
			if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(job) {
				t.Errorf("jobID %q is not Flink's JobID pattern", job)
			}
			wantJSON(t, "data", data, []any{map[string]any{"kind": "INSERT", "fields": []any{job}}})
			insertJob = job
		}
		again, err := c.Do(ctx, "GET", base+"0", nil)
		if err != nil {
			t.Fatal(err)
		}
		wantJSON(t, "the previous token fetched again", again.JSON, r)
		eos, err := c.Do(ctx, "GET", base+"1", nil)
		if err != nil {
			t.Fatal(err)
		}
		wantJSON(t, "EOS keys", keys(eos.JSON), "isQueryResult,resultKind,resultType,results")
		wantJSON(t, "EOS resultType", eos.JSON["resultType"], "EOS")
	}

	// The query's changelog, through the tokens, until it has the counts.
	op, err := c.Submit(ctx, session, query)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]any{}
	want := map[string]any{"Aliens": 1.0, "Die Hard": 3.0, "The Godfather": 4.0, "The Big Lebowski": 2.0}
	payloads := 0
	last, err := c.Fetch(ctx, "/v1/sessions/"+session+"/operations/"+op+"/result/0", func(r map[string]any) bool {
		if r["resultType"] == "NOT_READY" {
			wantJSON(t, "NOT_READY keys", keys(r), "nextResultUri,resultType")
			return true
		}
		payloads++
		if payloads == 1 {
			wantJSON(t, "query isQueryResult", r["isQueryResult"], true)
			wantJSON(t, "query columns", r["results"].(map[string]any)["columns"], []any{
				map[string]any{"name": "title", "logicalType": map[string]any{"type": "VARCHAR", "nullable": false, "length": float64(2147483647)}, "comment": nil},
				map[string]any{"name": "tickets_sold", "logicalType": map[string]any{"type": "BIGINT", "nullable": true}, "comment": nil},
			})
		}
		if err := servertest.Apply(counts, r); err != nil {
			t.Fatal(err)
		}
		return !reflect.DeepEqual(counts, want)
	})
	if err != nil {
		t.Fatalf("%v (counts so far %v)", err, counts)
	}
	// One more fetch (nothing new: an empty payload) moves the token on.
	next, _ := last["nextResultUri"].(string)
	more, err := c.Do(ctx, "GET", next, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "a fetch with nothing new", more.JSON["resultType"], "PAYLOAD")
	next, _ = more.JSON["nextResultUri"].(string)
	base := "/v1/sessions/" + session + "/operations/" + op + "/result/"
	token, err := strconv.Atoi(strings.TrimPrefix(next, base))
	if err != nil || token < 2 {
		t.Fatalf("a running query's next URI is %q after %d payloads", next, payloads)
	}
	for _, stale := range []int{token - 2, token + 1} {
		r, err := c.Do(ctx, "GET", base+strconv.Itoa(stale), nil)
		if err != nil {
			t.Fatal(err)
		}
		msg := fmt.Sprintf("Expecting token to be %d or %d, but found %d.", token, token-1, stale)
		errs, _ := r.JSON["errors"].([]any)
		if r.Status != 500 || len(errs) != 2 || errs[0] != "Internal server error." || !strings.Contains(fmt.Sprint(errs[1]), msg) {
			t.Errorf("token %d: %d %s, want 500 with %q", stale, r.Status, r.Body, msg)
		}
	}
	closed, err := c.Do(ctx, "DELETE", "/v1/sessions/"+session+"/operations/"+op+"/close", nil)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "closed operation", closed.JSON, map[string]any{"status": "CLOSED"})
	gone, err := c.Do(ctx, "GET", "/v1/sessions/"+session+"/operations/"+op+"/status", nil)
	if err != nil {
		t.Fatal(err)
	}
	if gone.Status != 500 || !strings.Contains(string(gone.Body), "Can not find the submitted operation") {
		t.Errorf("status of a closed operation: %d %s", gone.Status, gone.Body)
	}

	// The session closes; its job keeps running, seen from another one.
	bye, err := c.Do(ctx, "DELETE", "/v1/sessions/"+session, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "closed session", bye.JSON, map[string]any{"status": "CLOSED"})
	if r, _ := c.Do(ctx, "GET", "/v1/sessions/"+session, nil); r == nil || r.Status != 500 || !strings.Contains(string(r.Body), "Session '"+session+"' does not exist.") {
		t.Errorf("a closed session answers %v", r)
	}
	other, err := c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := jobStatus(ctx, t, c, other, insertJob); got != "RUNNING" {
		t.Fatalf("job %s is %s after its session closed", insertJob, got)
	}
	if rows, err := c.Run(ctx, other, "SHOW TABLES"); err != nil || len(rows) != 2 {
		t.Errorf("SHOW TABLES in another session: %v %v", rows, err)
	}
	if _, err := c.Run(ctx, other, "STOP JOB '"+insertJob+"'"); err != nil {
		t.Fatal(err)
	}
	if got := jobStatus(ctx, t, c, other, insertJob); got != "CANCELED" {
		t.Errorf("job %s is %s after STOP JOB from another session", insertJob, got)
	}
}

// jobStatus returns a job's status as SHOW JOBS lists it.
func jobStatus(ctx context.Context, t *testing.T, c *servertest.Client, session, id string) string {
	t.Helper()
	rows, err := c.Run(ctx, session, "SHOW JOBS")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r[0] == id {
			return r[2].(string)
		}
	}
	t.Fatalf("SHOW JOBS does not list %s: %v", id, rows)
	return ""
}

// TestRowFormats: the JSON row format gives typed fields, PLAIN_TEXT
// (v2) the SQL client's text, NULL as null in both; a bounded query
// ends with EOS.
func TestRowFormats(t *testing.T) {
	c := start(t, server.Options{})
	ctx := testContext(t)
	session, err := c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	const q = "SELECT 1 + 1 AS n, CAST(NULL AS INT) AS z, TRUE AS b, CAST(1.50 AS DECIMAL(5, 2)) AS d, " +
		"DATE '2019-07-18' AS dt, TIMESTAMP '2019-07-18 10:00:00.5' AS ts, 'x' AS s"
	for _, tc := range []struct {
		path string
		want []any
	}{
		{"/v1/sessions/%s/operations/%s/result/0", []any{float64(2), nil, true, 1.5, "2019-07-18", "2019-07-18T10:00:00.5", "x"}},
		{"/v2/sessions/%s/operations/%s/result/0?rowFormat=PLAIN_TEXT", []any{"2", nil, "TRUE", "1.50", "2019-07-18", "2019-07-18 10:00:00.5", "x"}},
	} {
		op, err := c.Submit(ctx, session, q)
		if err != nil {
			t.Fatal(err)
		}
		var rows [][]any
		last, err := c.Fetch(ctx, fmt.Sprintf(tc.path, session, op), func(r map[string]any) bool {
			for _, row := range servertest.Rows(r) {
				rows = append(rows, row["fields"].([]any))
			}
			if next, ok := r["nextResultUri"].(string); ok && strings.HasPrefix(tc.path, "/v2") && !strings.HasSuffix(next, "?rowFormat=PLAIN_TEXT") {
				t.Errorf("v2 next URI %q does not keep the row format", next)
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		wantJSON(t, "last resultType", last["resultType"], "EOS")
		wantJSON(t, "rows of "+tc.path, rows, [][]any{tc.want})
	}
}

// TestBadInput: unknown handles, malformed bodies, unknown paths, a body
// over the limit, a statement that fails and a missing token are answered
// with Flink's error shape and status, never a panic or a hang.
func TestBadInput(t *testing.T) {
	c := start(t, server.Options{MaxContentLength: 1024})
	ctx := testContext(t)
	session, err := c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	unknown := "0b5b0a8e-5d43-4c2a-9f4e-3c1d2e3f4a5b"
	for _, tc := range []struct {
		method, path string
		body         any
		status       int
		msg          string
	}{
		{"GET", "/v1/sessions/" + unknown, nil, 500, "Session '" + unknown + "' does not exist."},
		{"POST", "/v1/sessions/" + unknown + "/statements", map[string]string{"statement": "SHOW TABLES"}, 500, "does not exist"},
		{"GET", "/v1/sessions/not-a-handle", nil, 400, `Cannot resolve path parameter (session_handle) from value "not-a-handle"`},
		{"GET", "/v1/sessions/" + session + "/operations/" + unknown + "/status", nil, 500, "Can not find the submitted operation"},
		{"GET", "/v1/sessions/" + session + "/operations/" + unknown + "/result/0", nil, 500, "Can not find the submitted operation"},
		{"GET", "/v1/sessions/" + session + "/operations/" + unknown + "/result/x", nil, 400, "(token)"},
		{"POST", "/v1/sessions/" + session + "/statements", `{"statement": "SHOW TABLES"`, 400, "Request did not match expected format ExecuteStatementRequestBody"},
		{"POST", "/v1/sessions/" + session + "/statements", `{"statment": "SHOW TABLES"}`, 400, `unknown field "statment"`},
		{"POST", "/v1/sessions/" + session + "/statements", map[string]any{"statement": "SHOW TABLES", "executionConfig": map[string]string{"a": "b"}}, 400, "executionConfig: 'a' is not a setting Sluice supports"},
		{"POST", "/v1/sessions/" + session + "/statements", map[string]string{"statement": "SELECT '" + strings.Repeat("x", 2000) + "'"}, 413, "rest.server.max-content-length"},
		{"GET", "/v1/nowhere", nil, 404, "Not found: /v1/nowhere"},
		{"GET", "/v9/info", nil, 404, "Not found: /v9/info"},
		{"PUT", "/v1/sessions", nil, 405, "Method not allowed: PUT /v1/sessions (it takes POST)"},
		{"GET", "/v1/sessions/" + session + "/statements", nil, 405, "(it takes POST)"},
		{"POST", "/v1/sessions/" + session + "/configure-session", map[string]string{"statement": "SET 'a' = 'b'"}, 404, "Not found"},
		{"POST", "/v3/sessions/" + session + "/materialized-tables/t/refresh", nil, 501, "Sluice has no materialized tables"},
		{"POST", "/v4/sessions/" + session + "/scripts", nil, 501, "deploying a script in application mode"},
		{"POST", "/v1/sessions/" + session + "/statements", map[string]any{"statement": "SHOW TABLES", "executionTimeout": -1}, 400, "'executionTimeout' -1"},
		{"POST", "/v1/sessions/" + session + "/statements", map[string]any{}, 400, "the field 'statement' is missing"},
		{"POST", "/v1/sessions/" + session + "/statements", `[1, 2]`, 400, "Request did not match expected format ExecuteStatementRequestBody"},
		{"POST", "/v1/sessions/" + session + "/statements", `{"statement": 7}`, 400, "Request did not match expected format ExecuteStatementRequestBody"},
		{"POST", "/v1/sessions/" + session + "/statements", `{"statement": "SHOW TABLES"} {}`, 400, "more than one JSON value"},
		// Not UTF-8 (Latin-1 text): refused, as Jackson refuses it, rather
		// than read with U+FFFD in place of the byte.
		{"POST", "/v1/sessions/" + session + "/statements", "{\"statement\": \"SELECT 'caf\xe9'\"}", 400, "Request did not match expected format ExecuteStatementRequestBody: invalid UTF-8 byte 0xe9 at offset 26"},
	} {
		r, err := c.Do(ctx, tc.method, tc.path, tc.body)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.method, tc.path, err)
		}
		errs, _ := r.JSON["errors"].([]any)
		if r.Status != tc.status || keys(r.JSON) != "errors" || len(errs) == 0 || !strings.Contains(fmt.Sprint(errs), tc.msg) {
			t.Errorf("%s %s: %d %s, want %d with an error containing %q", tc.method, tc.path, r.Status, r.Body, tc.status, tc.msg)
		}
		if tc.status == 500 && (len(errs) != 2 || errs[0] != "Internal server error.") {
			t.Errorf("%s %s: a service error is not in Flink's form: %s", tc.method, tc.path, r.Body)
		}
	}

	for stmt, msg := range map[string]string{
		"SELECT * FROM nope":     "line 1, column 15",
		"SHOW TABLES; SHOW JOBS": "Only single statement is supported now",
		"SELEC 1":                "line 1, column 1",
	} {
		op, err := c.Submit(ctx, session, stmt)
		if err != nil {
			t.Fatal(err)
		}
		if s, err := c.Wait(ctx, session, op); err != nil || s != "ERROR" {
			t.Fatalf("%s: status %s, %v", stmt, s, err)
		}
		r, err := c.Do(ctx, "GET", "/v1/sessions/"+session+"/operations/"+op+"/result/0", nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != 500 || !strings.Contains(string(r.Body), msg) {
			t.Errorf("%s: %d %s, want an error containing %q", stmt, r.Status, r.Body, msg)
		}
		cancel, err := c.Do(ctx, "POST", "/v1/sessions/"+session+"/operations/"+op+"/cancel", nil)
		if err != nil {
			t.Fatal(err)
		}
		if cancel.Status != 500 || !strings.Contains(string(cancel.Body), "from ERROR to CANCELED") {
			t.Errorf("canceling a failed operation: %d %s", cancel.Status, cancel.Body)
		}
	}
}

// TestToken: a server with a token refuses requests without it.
func TestToken(t *testing.T) {
	c := start(t, server.Options{Token: "s3cret"})
	ctx := testContext(t)
	anonymous := &servertest.Client{Base: c.Base}
	wrong := &servertest.Client{Base: c.Base, Token: "guess"}
	for _, cl := range []*servertest.Client{anonymous, wrong} {
		r, err := cl.Do(ctx, "POST", "/v1/sessions", nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != http.StatusUnauthorized || !strings.Contains(string(r.Body), "Bearer") {
			t.Errorf("token %q: %d %s", cl.Token, r.Status, r.Body)
		}
	}
	if _, err := c.OpenSession(ctx, nil); err != nil {
		t.Errorf("with the token: %v", err)
	}
}

// TestDashboardLogin: with a token, a browser opening the dashboard is
// sent to /login; the right token there sets an HttpOnly, SameSite=Strict
// cookie (not the token itself) that then authorizes its requests; a
// wrong token or a forged cookie does not.
func TestDashboardLogin(t *testing.T) {
	c := start(t, server.Options{Token: "s3cret"})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string, cookie *http.Cookie) *http.Response {
		t.Helper()
		req, err := http.NewRequest("GET", c.Base+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if cookie != nil {
			req.AddCookie(cookie)
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if r := get("/", nil); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login" {
		t.Fatalf("GET / without the token: %d, Location %q", r.StatusCode, r.Header.Get("Location"))
	}
	if r := get("/login", nil); r.StatusCode != http.StatusOK {
		t.Fatalf("GET /login: %d", r.StatusCode)
	}
	login := func(token string) *http.Response {
		t.Helper()
		resp, err := http.Post(c.Base+"/login", "application/json", strings.NewReader(`{"token": "`+token+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if r := login("guess"); r.StatusCode != http.StatusUnauthorized || len(r.Cookies()) != 0 {
		t.Fatalf("login with a wrong token: %d, cookies %v", r.StatusCode, r.Cookies())
	}
	r := login("s3cret")
	if r.StatusCode != http.StatusOK || len(r.Cookies()) != 1 {
		t.Fatalf("login: %d, cookies %v", r.StatusCode, r.Cookies())
	}
	cookie := r.Cookies()[0]
	if !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode || strings.Contains(cookie.Value, "s3cret") {
		t.Errorf("the login cookie %+v: want HttpOnly, SameSite=Strict, without the token", cookie)
	}
	if r := get("/jobs/overview", cookie); r.StatusCode != http.StatusOK {
		t.Errorf("GET /jobs/overview with the cookie: %d", r.StatusCode)
	}
	if r := get("/", cookie); r.StatusCode != http.StatusOK {
		t.Errorf("GET / with the cookie: %d", r.StatusCode)
	}
	forged := &http.Cookie{Name: cookie.Name, Value: strings.Repeat("0", len(cookie.Value))}
	if r := get("/jobs/overview", forged); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET /jobs/overview with a forged cookie: %d", r.StatusCode)
	}
}
