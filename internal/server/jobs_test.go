package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/server"
	"github.com/sluicesql/sluice/internal/server/servertest"
)

// getJSON sends a request and decodes any JSON answer, checking its
// status.
func getJSON(t *testing.T, ctx context.Context, c *servertest.Client, method, path string, body any, status int) any {
	t.Helper()
	r, err := c.Do(ctx, method, path, body)
	var out any
	if err != nil && r == nil {
		// Do refuses answers that are no JSON object: ask again for arrays.
		req, _ := http.NewRequestWithContext(ctx, method, c.Base+path, nil)
		resp, err2 := http.DefaultClient.Do(req)
		if err2 != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != status {
			t.Fatalf("%s %s: %d, %v", method, path, resp.StatusCode, err)
		}
		return out
	}
	if r.Status != status {
		t.Fatalf("%s %s: %d %s, want %d", method, path, r.Status, r.Body, status)
	}
	return r.JSON
}

// obj walks a decoded JSON value along keys and array indexes.
func obj(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// poll asks path until ok accepts the answer.
func poll(t *testing.T, ctx context.Context, c *servertest.Client, path string, what string, ok func(any) bool) any {
	t.Helper()
	for {
		v := getJSON(t, ctx, c, "GET", path, nil, 200)
		if ok(v) {
			return v
		}
		if ctx.Err() != nil {
			t.Fatalf("%s: gave up waiting; last answer: %v", what, v)
		}
		select {
		case <-ctx.Done():
		case <-waitTick():
		}
	}
}

// waitTick is the pause between two polls.
func waitTick() <-chan time.Time { return time.After(10 * time.Millisecond) }

// kafkaTable is a Kafka table's WITH clause over topic in format.
func kafkaTable(cluster *devcluster.Cluster, topic, format string) string {
	return fmt.Sprintf(`WITH ('connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
		'scan.startup.mode' = 'earliest-offset', 'format' = '%s')`, topic, cluster.BootstrapServers(), format)
}

// TestJobAPI: Flink's monitoring endpoints over running, finished,
// failed, canceled and stopped jobs, field by field where Flink names
// them.
func TestJobAPI(t *testing.T) {
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	c := start(t, server.Options{})
	ctx := testContext(t)
	session, err := c.OpenSession(ctx, map[string]string{"execution.checkpointing.interval": "100ms"})
	if err != nil {
		t.Fatal(err)
	}
	run := func(stmt string) [][]any {
		t.Helper()
		rows, err := c.Run(ctx, session, stmt)
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	run(`CREATE TABLE src (id BIGINT, name STRING) ` + kafkaTable(cluster, "src", "json"))
	run(`CREATE TABLE dst (id BIGINT, name STRING) ` + kafkaTable(cluster, "dst", "json"))
	load := run(`INSERT INTO src VALUES (1, 'a'), (2, 'b'), (3, 'c')`)[0][0].(string)
	submitted := time.Now()
	job := run(`INSERT INTO dst SELECT id, UPPER(name) FROM src WHERE id > 1`)[0][0].(string)

	details := poll(t, ctx, c, "/jobs/"+job, "the job's sink to take 2 rows", func(v any) bool {
		vs, _ := obj(v, "vertices").([]any)
		return len(vs) > 0 && obj(vs[len(vs)-1], "metrics", "read-records") == 2.0
	})
	for _, k := range []string{"jid", "name", "isStoppable", "state", "start-time", "end-time", "duration", "maxParallelism", "now", "timestamps", "vertices", "status-counts", "plan"} {
		if _, ok := details.(map[string]any)[k]; !ok {
			t.Errorf("job details lack %q: %v", k, details)
		}
	}
	wantJSON(t, "jid", obj(details, "jid"), job)
	wantJSON(t, "state", obj(details, "state"), "RUNNING")
	wantJSON(t, "end-time", obj(details, "end-time"), -1.0)
	vs := obj(details, "vertices").([]any)
	src, sink := vs[0], vs[len(vs)-1]
	// The Calc runs in the source's chain, one vertex named as Flink
	// names chains; the rows the Calc keeps leave it (the Kafka sink, a
	// checkpoint listener, cannot chain into a source).
	wantJSON(t, "vertices", len(vs), 2)
	wantJSON(t, "source chain", obj(src, "name"), "Source: src -> Calc")
	wantJSON(t, "sink vertex", obj(sink, "name"), "Sink: dst")
	wantJSON(t, "source status", obj(src, "status"), "RUNNING")
	wantJSON(t, "source tasks running", obj(src, "tasks", "RUNNING"), obj(src, "parallelism"))
	wantJSON(t, "source read-records", obj(src, "metrics", "read-records"), 0.0)
	wantJSON(t, "source write-records", obj(src, "metrics", "write-records"), 2.0)
	if b, _ := obj(src, "metrics", "read-bytes").(float64); b <= 0 || obj(src, "metrics", "read-bytes-complete") != true {
		t.Errorf("source read-bytes %v (complete %v): the Kafka records' bytes", b, obj(src, "metrics", "read-bytes-complete"))
	}
	// The source's chain is timed as Flink times a FLIP-27 source's
	// task: idle while the source waits for records, which it does once
	// it has read those there are, and busy, idle and backpressured add
	// up to no more than the job has run.
	timed := poll(t, ctx, c, "/jobs/"+job, "the source chain's idle time", func(v any) bool {
		idle, _ := obj(v, "vertices", 0, "metrics", "accumulated-idle-time").(float64)
		return idle > 0
	})
	ran := time.Since(submitted)
	var total float64
	for _, k := range []string{"accumulated-busy-time", "accumulated-idle-time", "accumulated-backpressured-time"} {
		ms, ok := obj(timed, "vertices", 0, "metrics", k).(float64)
		if !ok || ms < 0 {
			t.Errorf("source chain %s %v, want milliseconds", k, obj(timed, "vertices", 0, "metrics", k))
		}
		total += ms
	}
	if total > float64(ran.Milliseconds()) {
		t.Errorf("source chain busy, idle and backpressured add up to %v ms, more than the %s the job ran", total, ran)
	}
	if b, _ := obj(sink, "metrics", "write-bytes").(float64); b <= 0 || obj(sink, "metrics", "write-bytes-complete") != true {
		t.Errorf("sink write-bytes %v (complete %v): the Kafka records' bytes", b, obj(sink, "metrics", "write-bytes-complete"))
	}
	if _, ok := obj(sink, "metrics", "accumulated-busy-time").(float64); !ok {
		t.Errorf("sink busy time %v", obj(sink, "metrics", "accumulated-busy-time"))
	}
	nodes := obj(details, "plan", "nodes").([]any)
	if len(nodes) != len(vs) || obj(nodes, len(nodes)-1, "inputs", 0, "id") != obj(vs, len(vs)-2, "id") {
		t.Errorf("plan nodes %v do not chain the vertices %v", nodes, vs)
	}

	srcID := obj(src, "id").(string)
	// The source records its position just after emitting: its lag
	// comes to 0. The chain's operators have metrics of their own,
	// scoped by their names as Flink's operator metrics.
	poll(t, ctx, c, "/jobs/"+job+"/vertices/"+srcID+"/metrics?get=0.pendingRecords,0.numRecordsOut,0.Source__src.numRecordsOut,0.Calc.numRecordsIn,0.Calc.numRecordsOut", "the source's metrics", func(v any) bool {
		return reflect.DeepEqual(v, []any{
			map[string]any{"id": "0.numRecordsOut", "value": "2"},
			map[string]any{"id": "0.pendingRecords", "value": "0"},
			map[string]any{"id": "0.Source__src.numRecordsOut", "value": "3"},
			map[string]any{"id": "0.Calc.numRecordsIn", "value": "3"},
			map[string]any{"id": "0.Calc.numRecordsOut", "value": "2"},
		})
	})
	names := getJSON(t, ctx, c, "GET", "/jobs/"+job+"/vertices/"+srcID+"/metrics", nil, 200)
	if !slices.ContainsFunc(names.([]any), func(m any) bool { return obj(m, "id") == "0.Calc.currentOutputWatermark" }) {
		t.Errorf("the source chain's metrics %v lack the Calc's watermark", names)
	}

	cps := poll(t, ctx, c, "/jobs/"+job+"/checkpoints", "a checkpoint", func(v any) bool {
		n, _ := obj(v, "counts", "completed").(float64)
		return n >= 1
	})
	wantJSON(t, "latest completed class", obj(cps, "latest", "completed", "className"), "completed")
	if size, _ := obj(cps, "latest", "completed", "state_size").(float64); size <= 0 {
		t.Errorf("latest checkpoint's state_size %v: the source's positions at least", size)
	}
	if _, ok := obj(cps, "history", 0, "end_to_end_duration").(float64); !ok {
		t.Errorf("history %v", obj(cps, "history"))
	}

	// The loading job's records were read: it ends soon after.
	overview := poll(t, ctx, c, "/jobs/overview", "the loading job to finish", func(v any) bool { return obj(v, "jobs", 1, "state") == "FINISHED" })
	wantJSON(t, "newest job", obj(overview, "jobs", 0, "jid"), job)
	wantJSON(t, "newest state", obj(overview, "jobs", 0, "state"), "RUNNING")
	wantJSON(t, "loader", obj(overview, "jobs", 1, "jid"), load)
	wantJSON(t, "loader state", obj(overview, "jobs", 1, "state"), "FINISHED")
	if _, ok := obj(overview, "jobs", 0, "tasks", "total").(float64); !ok {
		t.Errorf("overview tasks: %v", obj(overview, "jobs", 0))
	}
	ids := getJSON(t, ctx, c, "GET", "/jobs", nil, 200)
	wantJSON(t, "job ids", obj(ids, "jobs", 1), map[string]any{"id": job, "status": "RUNNING"})
	wantJSON(t, "cluster overview running", obj(getJSON(t, ctx, c, "GET", "/overview", nil, 200), "jobs-running"), 1.0)
	wantJSON(t, "dashboard config", obj(getJSON(t, ctx, c, "GET", "/config", nil, 200), "refresh-interval"), 3000.0)

	// Without chaining, every operator is a vertex of its own
	// (pipeline.operator-chaining.enabled = false).
	unchained, err := c.OpenSession(ctx, map[string]string{"pipeline.operator-chaining.enabled": "false"})
	if err != nil {
		t.Fatal(err)
	}
	started, err := c.Run(ctx, unchained, `INSERT INTO dst SELECT id, UPPER(name) FROM src WHERE id > 1`)
	if err != nil {
		t.Fatal(err)
	}
	apart := started[0][0].(string)
	each := poll(t, ctx, c, "/jobs/"+apart, "the unchained job's sink to take 2 rows", func(v any) bool {
		vs, _ := obj(v, "vertices").([]any)
		return len(vs) == 3 && obj(vs[2], "metrics", "read-records") == 2.0
	})
	var got []string
	for _, v := range obj(each, "vertices").([]any) {
		m := obj(v, "metrics").(map[string]any)
		got = append(got, fmt.Sprintf("%s %v/%v", obj(v, "name"), m["read-records"], m["write-records"]))
	}
	if want := []string{"Source: src 0/3", "Calc 3/2", "Sink: dst 2/0"}; !slices.Equal(got, want) {
		t.Errorf("unchained vertices %q, want %q", got, want)
	}
	getJSON(t, ctx, c, "PATCH", "/jobs/"+apart+"?mode=cancel", nil, 202)

	// Stop with a savepoint: a trigger, then its status.
	trigger := getJSON(t, ctx, c, "POST", "/jobs/"+job+"/stop", map[string]any{}, 202)
	id, _ := obj(trigger, "request-id").(string)
	if len(id) != 32 {
		t.Fatalf("trigger %v", trigger)
	}
	sp := poll(t, ctx, c, "/jobs/"+job+"/savepoints/"+id, "the savepoint", func(v any) bool { return obj(v, "status", "id") == "COMPLETED" })
	if loc, _ := obj(sp, "operation", "location").(string); !strings.Contains(loc, job+"/chk-") {
		t.Errorf("savepoint %v", sp)
	}
	wantJSON(t, "stopped state", obj(getJSON(t, ctx, c, "GET", "/jobs/"+job, nil, 200), "state"), "FINISHED")
	wantJSON(t, "savepoint in history", obj(getJSON(t, ctx, c, "GET", "/jobs/"+job+"/checkpoints", nil, 200), "latest", "savepoint", "is_savepoint"), true)

	// Cancel.
	again := run(`INSERT INTO dst SELECT * FROM src`)[0][0].(string)
	getJSON(t, ctx, c, "PATCH", "/jobs/"+again+"?mode=stop", nil, 400)
	getJSON(t, ctx, c, "PATCH", "/jobs/"+again+"?mode=cancel", nil, 202)
	poll(t, ctx, c, "/jobs/"+again, "the job to be canceled", func(v any) bool { return obj(v, "state") == "CANCELED" })

	// A job that fails for good tells why.
	failing, err := c.OpenSession(ctx, map[string]string{"restart-strategy.type": "none"})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []string{
		`CREATE TABLE raw_in (v STRING) ` + kafkaTable(cluster, "bad", "raw"),
		`INSERT INTO raw_in VALUES ('not json')`,
		`CREATE TABLE bad (id BIGINT) ` + kafkaTable(cluster, "bad", "json"),
	} {
		if _, err := c.Run(ctx, failing, st); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := c.Run(ctx, failing, `INSERT INTO dst SELECT id, 'x' FROM bad`)
	if err != nil {
		t.Fatal(err)
	}
	bad := rows[0][0].(string)
	poll(t, ctx, c, "/jobs/"+bad, "the job to fail", func(v any) bool { return obj(v, "state") == "FAILED" })
	exc := getJSON(t, ctx, c, "GET", "/jobs/"+bad+"/exceptions", nil, 200)
	if root, _ := obj(exc, "root-exception").(string); !strings.Contains(root, "offset 0") {
		t.Errorf("root exception %q: the record that failed", root)
	}
	wantJSON(t, "history's root cause", obj(exc, "exceptionHistory", "entries", 0, "stacktrace"), obj(exc, "root-exception"))
	wantJSON(t, "failed count", obj(getJSON(t, ctx, c, "GET", "/overview", nil, 200), "jobs-failed"), 1.0)

	// Bad input.
	getJSON(t, ctx, c, "GET", "/jobs/nope", nil, 400)
	getJSON(t, ctx, c, "GET", "/jobs/"+strings.Repeat("0", 32), nil, 404)
	getJSON(t, ctx, c, "GET", "/jobs/"+bad+"/savepoints/"+strings.Repeat("0", 32), nil, 404)
	getJSON(t, ctx, c, "POST", "/jobs/"+bad+"/stop", map[string]any{"formatType": "NATIVE"}, 400)
	// A job that is not running cannot be stopped: the trigger says why.
	trigger = getJSON(t, ctx, c, "POST", "/jobs/"+bad+"/stop", map[string]any{"drain": true}, 202)
	id, _ = obj(trigger, "request-id").(string)
	sp = poll(t, ctx, c, "/jobs/"+bad+"/savepoints/"+id, "the refused savepoint", func(v any) bool { return obj(v, "status", "id") == "COMPLETED" })
	if cause, _ := obj(sp, "operation", "failure-cause", "stack-trace").(string); !strings.Contains(cause, "not running (FAILED") {
		t.Errorf("stopping a failed job: %v", sp)
	}
	getJSON(t, ctx, c, "GET", "/jobs/"+bad+"/exceptions?maxExceptions=x", nil, 400)
}
