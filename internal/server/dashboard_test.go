package server_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/server"
	"github.com/sluicesql/sluice/internal/testenv"
)

// chromium is Debian's Chromium, which drives the dashboard's test.
const chromium = "/usr/bin/chromium"

// browser starts headless Chromium and returns its context.
func browser(t *testing.T) context.Context {
	t.Helper()
	testenv.LookPath(t, chromium, "apt-get install chromium")
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.NoSandbox, // tests may run as root
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	// The first run starts the browser, which lives as long as its
	// context: the time limit goes on the contexts after it.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTimeout)
	return ctx
}

// waitFor waits until the JavaScript expression is true in the page.
func waitFor(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond),
		// Bounded by the context (the test's time limit), not a guess of
		// how slow a loaded machine is.
		chromedp.WithPollingTimeout(0))); err != nil {
		page, _ := chromedp.Run(context.WithoutCancel(ctx), chromedp.TextContent(chromedp.CSS("main")))
		t.Fatalf("waiting for %s (%s): %v\npage: %s", what, expr, err, page)
	}
}

// text returns the text of the first element matching selector.
func text(t *testing.T, ctx context.Context, selector string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(selector)))
	if err != nil {
		t.Fatalf("text of %s: %v", selector, err)
	}
	return s
}

// TestDashboard drives the dashboard in headless Chromium: the job list,
// one job's tasks (chains of operators), graph, checkpoints and Kafka lag, a failed job's
// cause, and a statement typed on the SQL page whose result updates as
// rows arrive.
func TestDashboard(t *testing.T) {
	ctx := browser(t)
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	c := start(t, server.Options{})
	rctx := testContext(t)
	session, err := c.OpenSession(rctx, map[string]string{"execution.checkpointing.interval": "100ms"})
	if err != nil {
		t.Fatal(err)
	}
	run := func(session, stmt string) string {
		t.Helper()
		rows, err := c.Run(rctx, session, stmt)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 1 && len(rows[0]) == 1 {
			s, _ := rows[0][0].(string)
			return s
		}
		return ""
	}
	run(session, `CREATE TABLE src (id BIGINT, name STRING) `+kafkaTable(cluster, "src", "json"))
	run(session, `CREATE TABLE dst (id BIGINT, name STRING) `+kafkaTable(cluster, "dst", "json"))
	run(session, `INSERT INTO src VALUES (1, 'a'), (2, 'b'), (3, 'a')`)
	job := run(session, `INSERT INTO dst SELECT id, UPPER(name) FROM src`)
	vertices := len(obj(getJSON(t, rctx, c, "GET", "/jobs/"+job, nil, 200), "vertices").([]any))

	// The job list.
	if err := chromedp.Do(ctx, chromedp.Navigate(c.Base+"/")); err != nil {
		t.Fatal(err)
	}
	row := fmt.Sprintf(`#running tr[data-jid="%s"]`, job)
	waitFor(t, ctx, "the running job listed", fmt.Sprintf(`document.querySelector('%s') !== null`, row))
	if got := text(t, ctx, row); !strings.Contains(got, "insert-into_default_catalog.default_database.dst") || !strings.Contains(got, "RUNNING") {
		t.Errorf("job row %q", got)
	}
	waitFor(t, ctx, "the finished loading job", `document.querySelectorAll('#finished tbody tr').length === 1`)

	// One job: its operators, graph, checkpoints and the source's lag.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(row+" a"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the job's operators", fmt.Sprintf(`document.querySelectorAll('#vertices tbody tr').length === %d && document.querySelectorAll('#graph g.vertex').length === %d`, vertices, vertices))
	if got := text(t, ctx, "#job-state"); got != "RUNNING" {
		t.Errorf("job state %q", got)
	}
	waitFor(t, ctx, "the source's 3 rows out and a lag of 0",
		`(() => { const r = document.querySelector('#vertices tbody tr'); return r && r.cells[4].textContent === '3' && r.cells[10].textContent === '0'; })()`)
	// A vertex is a chain, named as Flink names it, its operators a
	// line each in the graph.
	if got := text(t, ctx, "#vertices tbody tr"); !strings.Contains(got, "Source: src -> Calc") {
		t.Errorf("first task %q", got)
	}
	ops, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#graph g.vertex text.operator')].map(e => e.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Source: src", "→ Calc", "Sink: dst"}; !slices.Equal(ops, want) {
		t.Errorf("the graph's operators %q, want %q", ops, want)
	}
	if got := text(t, ctx, "#graph"); !strings.Contains(got, "Sink: dst") || !strings.Contains(got, "busy") {
		t.Errorf("graph text %q", got)
	}
	waitFor(t, ctx, "a completed checkpoint", `[...document.querySelectorAll('#checkpoints tbody tr')].some(r => r.cells[2].textContent === 'COMPLETED')`)

	// A failed job shows why.
	failing, err := c.OpenSession(rctx, map[string]string{"restart-strategy.type": "none"})
	if err != nil {
		t.Fatal(err)
	}
	run(failing, `CREATE TABLE raw_in (v STRING) `+kafkaTable(cluster, "bad", "raw"))
	run(failing, `INSERT INTO raw_in VALUES ('not json')`)
	run(failing, `CREATE TABLE bad (id BIGINT) `+kafkaTable(cluster, "bad", "json"))
	bad := run(failing, `INSERT INTO dst SELECT id, 'x' FROM bad`)
	if err := chromedp.Do(ctx, chromedp.Navigate(c.Base+"/#/job/"+bad)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the failure cause", `document.getElementById('job-state').textContent === 'FAILED' && document.getElementById('failure').textContent.includes('offset 0')`)

	// A statement typed on the SQL page, its result updating.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(c.Base+"/#/sql"),
		chromedp.WaitVisible(chromedp.CSS("#statement")),
		chromedp.SendKeys(chromedp.CSS("#statement"), "SELECT name, COUNT(*) AS n FROM src GROUP BY name"),
		chromedp.Click(chromedp.CSS("#run")),
	); err != nil {
		t.Fatal(err)
	}
	rowsAre := func(want ...string) string {
		return fmt.Sprintf(`JSON.stringify([...document.querySelectorAll('#result tbody tr')].map(r => [...r.cells].map(c => c.textContent).join('|')).sort()) === %q`,
			fmt.Sprintf(`["%s"]`, strings.Join(want, `","`)))
	}
	waitFor(t, ctx, "the query's counts", rowsAre("a|2", "b|1"))
	if got := text(t, ctx, "#result thead"); !strings.Contains(got, "name") || !strings.Contains(got, "n") {
		t.Errorf("result columns %q", got)
	}
	run(session, `INSERT INTO src VALUES (4, 'b'), (5, 'c')`)
	waitFor(t, ctx, "the counts updated", rowsAre("a|2", "b|2", "c|1"))
}
