package sluice

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/plan"
)

// ttlCase is a query over the table clicks (u STRING, v STRING) run with
// settings, and the steps that feed it on the manual clock.
type ttlCase struct {
	name     string
	settings map[string]string
	query    string
	steps    []procTimeStep
}

// runTTLCases runs each case at parallelism 1 and 4, on the memory and
// the Pebble state backend (the latter writing every value back after
// every message), with table.exec.state.ttl set to one minute.
func runTTLCases(t *testing.T, cases []ttlCase) {
	t.Helper()
	brokers := startCluster(t).BootstrapServers()
	n := 0
	for _, p := range []string{"1", "4"} {
		for _, backend := range []string{"hashmap", "rocksdb"} {
			for _, c := range cases {
				t.Run(c.name+"/"+backend+"/parallelism="+p, func(t *testing.T) {
					n++
					e, clock := procTimeEngine(t, p)
					mustExecute(t, e, "SET 'state.backend.type' = '"+backend+"';")
					if backend == "rocksdb" {
						mustExecute(t, e, "SET 'state.backend.pebble.cache-entries' = '1';")
					}
					mustExecute(t, e, "SET 'table.exec.state.ttl' = '1 min';")
					for k, v := range c.settings {
						mustExecute(t, e, fmt.Sprintf("SET '%s' = '%s';", k, v))
					}
					mustExecute(t, e, kafkaTable("clicks", "u STRING, v STRING", fmt.Sprintf("ttl-%d", n), brokers, "json")+
						kafkaTable("other", "u STRING, w STRING", fmt.Sprintf("ttl-other-%d", n), brokers, "json"))
					s := mustExecute(t, e, c.query)[0].Stream
					t.Cleanup(s.Close)
					runProcTimeSteps(t, e, clock, s, c.steps)
				})
			}
		}
	}
}

// ttlSteps feed three rows in turn, at 10:00:00, 10:00:40 and 10:01:10,
// each step's rows handled within the second after it (a mini-batch ends
// then), with the results each gives.
func ttlSteps(first, second, third string, want1, want2, want3 []string) []procTimeStep {
	return []procTimeStep{
		{insert: "INSERT INTO clicks VALUES " + first + ";", advance: time.Second, want: want1},
		{advance: 39 * time.Second},
		{insert: "INSERT INTO clicks VALUES " + second + ";", advance: time.Second, want: want2},
		{advance: 29 * time.Second},
		{insert: "INSERT INTO clicks VALUES " + third + ";", advance: time.Second, want: want3},
	}
}

// groupCountSteps feed a COUNT(*) per u: a key written within the minute
// (a, at 10:00:40) keeps counting, one idle for the minute (b, last
// written at 10:00:00) starts afresh with +I.
var groupCountSteps = ttlSteps("('a', 'x'), ('b', 'x')", "('a', 'x')", "('a', 'x'), ('b', 'x')",
	[]string{"+I[a, 1]", "+I[b, 1]"}, []string{"-U[a, 1]", "+U[a, 2]"}, []string{"-U[a, 2]", "+U[a, 3]", "+I[b, 1]"})

// TestStateTTLGroupAggregate: table.exec.state.ttl expires the groups of
// an aggregation idle past it (Flink's GroupAggFunction with
// StateConfigUtil.createTtlConfig: OnCreateAndWrite, NeverReturnExpired,
// processing time), flat or boxed.
func TestStateTTLGroupAggregate(t *testing.T) {
	const count = "SELECT u, COUNT(*) AS c FROM clicks GROUP BY u;"
	runTTLCases(t, []ttlCase{
		{name: "count", query: count, steps: groupCountSteps},
		// The same result is emitted again (the distinct count of a stays
		// 1), as GroupAggFunction emits it when state expires: its results
		// renew the state downstream.
		{name: "boxed", query: "SELECT u, COUNT(DISTINCT v) AS c FROM clicks GROUP BY u;", steps: ttlSteps(
			"('a', 'x'), ('b', 'x')", "('a', 'x')", "('a', 'y'), ('b', 'x')",
			[]string{"+I[a, 1]", "+I[b, 1]"}, []string{"-U[a, 1]", "+U[a, 1]"}, []string{"-U[a, 1]", "+U[a, 2]", "+I[b, 1]"})},
	})
}

// TestStateTTLDeduplicate: a deduplication's key idle past the retention
// since its state was last written emits its next row as a first row
// (Flink's ProcTimeDeduplicateKeepFirstRowFunction and
// ProcTimeDeduplicateKeepLastRowFunction with a TTL); keep-last emits an
// equal row again, as processLastRowOnProcTime does with state TTL.
func TestStateTTLDeduplicate(t *testing.T) {
	const first = `SELECT u, v FROM (SELECT u, v, ROW_NUMBER() OVER (PARTITION BY u ORDER BY pt) AS rn
FROM (SELECT *, PROCTIME() AS pt FROM clicks)) WHERE rn = 1;`
	const last = `SELECT u, v FROM (SELECT u, v, ROW_NUMBER() OVER (PARTITION BY u ORDER BY pt DESC) AS rn
FROM (SELECT *, PROCTIME() AS pt FROM clicks)) WHERE rn = 1;`
	runTTLCases(t, []ttlCase{
		// The first row of a at 10:00:00 is not renewed by later ones: a
		// emits again at 10:01:10, b too.
		{name: "first", query: first, steps: ttlSteps("('a', 'x'), ('b', 'x')", "('a', 'y')", "('a', 'z'), ('b', 'z')",
			[]string{"+I[a, x]", "+I[b, x]"}, nil, []string{"+I[a, z]", "+I[b, z]"})},
		{name: "last", query: last, steps: ttlSteps("('a', 'x'), ('b', 'x')", "('a', 'x')", "('a', 'z'), ('b', 'z')",
			[]string{"+I[a, x]", "+I[b, x]"}, []string{"-U[a, x]", "+U[a, x]"}, []string{"-U[a, x]", "+U[a, z]", "+I[b, z]"})},
	})
}

// TestStateTTLOverAggregate: a processing-time unbounded OVER
// aggregation's partition idle past the retention since its last row
// starts from fresh accumulators (Flink's
// ProcTimeUnboundedPrecedingFunction keeps them in a value state with the
// TTL, written by every row).
func TestStateTTLOverAggregate(t *testing.T) {
	const count = `SELECT u, v, COUNT(*) OVER (PARTITION BY u ORDER BY pt ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS c
FROM (SELECT *, PROCTIME() AS pt FROM clicks);`
	runTTLCases(t, []ttlCase{
		{name: "rows", query: count, steps: ttlSteps("('a', 'x'), ('b', 'x')", "('a', 'y')", "('a', 'z'), ('b', 'z')",
			[]string{"+I[a, x, 1]", "+I[b, x, 1]"}, []string{"+I[a, y, 2]"}, []string{"+I[a, z, 3]", "+I[b, z, 1]"})},
	})
}

// TestStateTTLJoin: a regular join's stored rows expire on their own
// side's retention, each from its last write (Flink's
// JoinRecordStateViews keep each row in a MapState entry with the TTL):
// a right row written at 10:00:00 no longer matches at 10:01:10, one
// written at 10:00:40 still does; a LEFT JOIN pads a left row whose
// match has expired.
func TestStateTTLJoin(t *testing.T) {
	steps := []procTimeStep{
		{insert: "INSERT INTO other VALUES ('a', 'r1'), ('b', 'r1');", advance: time.Second},
		{advance: 39 * time.Second},
		{insert: "INSERT INTO other VALUES ('b', 'r2');", advance: time.Second},
		{advance: 29 * time.Second},
		{insert: "INSERT INTO clicks VALUES ('a', 'l'), ('b', 'l');", advance: time.Second},
	}
	inner := append([]procTimeStep(nil), steps...)
	inner[4].want = []string{"+I[b, l, r2]"}
	left := append([]procTimeStep(nil), steps...)
	left[4].want = []string{"+I[a, l, <NULL>]", "+I[b, l, r2]"}
	runTTLCases(t, []ttlCase{
		{name: "inner", query: "SELECT clicks.u, v, w FROM clicks JOIN other ON clicks.u = other.u;", steps: inner},
		{name: "left", query: "SELECT clicks.u, v, w FROM clicks LEFT JOIN other ON clicks.u = other.u;", steps: left},
	})
}

// TestStateTTLInPlan: the retention is part of the execution plan, per
// operator state as Flink's compiled plan has it ("ttl" : "60000 ms"),
// set for the operators that honour it and read back with the plan; the
// operators Flink expires and Sluice does not yet refuse a retention by
// name, and a query planned with none keeps its state for ever.
func TestStateTTLInPlan(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, errorCatalog)
	mustExecute(t, e, "SET 'table.exec.state.ttl' = '1 min';")
	const query = "SELECT o.customer, COUNT(*) FROM orders o JOIN orders p ON o.customer = p.customer GROUP BY o.customer"
	text := mustExecute(t, e, "EXPLAIN JSON_EXECUTION_PLAN "+query)[0].Text
	_, js, _ := strings.Cut(text, "\n== Physical Execution Plan ==\n")
	p, err := plan.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	var ttls []string
	for _, n := range p.Nodes {
		for _, st := range n.State {
			ttls = append(ttls, fmt.Sprintf("%s.%s=%d", n.Kind, st.Name, st.TTL))
		}
	}
	if want := []string{"Join.left=60000", "Join.right=60000", "GroupAggregate.groups=60000"}; !slices.Equal(ttls, want) {
		t.Errorf("state retentions %v, want %v", ttls, want)
	}
	if !strings.Contains(js, `"ttl": "60000 ms"`) {
		t.Errorf("the plan's JSON has no ttl:\n%s", js)
	}
	for _, q := range []string{
		"SELECT * FROM orders WHERE customer NOT IN (SELECT customer FROM orders)",
		"SELECT * FROM orders LIMIT 3",
		"SELECT customer, COUNT(DISTINCT amount) OVER (PARTITION BY customer ORDER BY pt) FROM (SELECT *, PROCTIME() AS pt FROM orders)",
	} {
		if _, err := e.Execute(testContext(t), q); err == nil || !strings.Contains(err.Error(), "'table.exec.state.ttl' = '60000 ms' is not supported for") {
			t.Errorf("%s: %v", q, err)
		}
	}
	mustExecute(t, e, "RESET 'table.exec.state.ttl';")
	text = mustExecute(t, e, "EXPLAIN JSON_EXECUTION_PLAN "+query)[0].Text
	if strings.Contains(text, `"ttl"`) {
		t.Errorf("a plan without retention has a ttl:\n%s", text)
	}
}

// TestStateTTLHint: the STATE_TTL query hint (FLIP-373) gives the named
// input's state its retention whatever table.exec.state.ttl says: a
// join's side by its table name or alias, a group aggregation by its
// input's name; the other side keeps its rows.
func TestStateTTLHint(t *testing.T) {
	off := map[string]string{"table.exec.state.ttl": "0 ms"}
	steps := []procTimeStep{
		{insert: "INSERT INTO other VALUES ('a', 'r1'), ('b', 'r1'); INSERT INTO clicks VALUES ('c', 'l0');", advance: time.Second},
		{advance: 39 * time.Second},
		{insert: "INSERT INTO other VALUES ('b', 'r2');", advance: time.Second},
		{advance: 29 * time.Second},
		{insert: "INSERT INTO clicks VALUES ('a', 'l'), ('b', 'l'); INSERT INTO other VALUES ('c', 'r3');", advance: time.Second,
			want: []string{"+I[b, l, r2]", "+I[c, l0, r3]"}},
	}
	runTTLCases(t, []ttlCase{
		{name: "join", settings: off, steps: steps,
			query: "SELECT /*+ STATE_TTL('o' = '1 min') */ clicks.u, v, w FROM clicks JOIN other o ON clicks.u = o.u;"},
		{name: "aggregate", settings: off, steps: groupCountSteps,
			query: "SELECT /*+ STATE_TTL('c' = '60 s') */ u, COUNT(*) AS c FROM clicks c GROUP BY u;"},
	})
}

// TestStateTTLHintErrors: names that are no input of the SELECT's joins
// or aggregation, and durations that do not parse, are errors, in
// Flink's words (StateTtlHintTest); the hint reaches no subquery.
func TestStateTTLHintErrors(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, errorCatalog)
	for _, c := range []struct{ sql, want string }{
		{"SELECT /*+ STATE_TTL('T5' = '2d', 'o' = '1d', 'T6' = '1 h') */ * FROM orders o JOIN orders p ON o.customer = p.customer",
			"The options of following hints cannot match the name of input tables or views: \n`T5, T6` in `STATE_TTL`"},
		{"SELECT /*+ STATE_TTL('orders' = '2d') */ COUNT(*) FROM (SELECT customer, COUNT(*) AS n FROM orders GROUP BY customer) TMP GROUP BY n",
			"The options of following hints cannot match the name of input tables or views: \n`orders` in `STATE_TTL`"},
		{"SELECT /*+ STATE_TTL('orders' = 'a day') */ COUNT(*) FROM orders GROUP BY customer",
			"Invalid STATE_TTL hint value 'a day' for 'orders'"},
		{"SELECT /*+ STATE_TTL() */ COUNT(*) FROM orders GROUP BY customer",
			"Invalid STATE_TTL hint, expecting at least one key-value options specified."},
	} {
		if _, err := e.Execute(testContext(t), c.sql); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.sql, err, c.want)
		}
	}
	text := mustExecute(t, e, "EXPLAIN JSON_EXECUTION_PLAN SELECT /*+ STATE_TTL('TMP' = '2d') */ COUNT(*) FROM (SELECT customer, COUNT(*) AS n FROM orders GROUP BY customer) TMP GROUP BY n")[0].Text
	if n := strings.Count(text, `"ttl": "172800000 ms"`); n != 1 || strings.Count(text, `"ttl"`) != 1 {
		t.Errorf("the hint should set the outer aggregation's retention only:\n%s", text)
	}
	// A view keeps its query's hint: printed back, and planned with it.
	mustExecute(t, e, "CREATE VIEW hinted AS SELECT /*+ STATE_TTL('orders' = '2d') */ customer, COUNT(*) AS n FROM orders GROUP BY customer")
	if text := mustExecute(t, e, "SHOW CREATE VIEW hinted")[0].Text; !strings.Contains(text, "SELECT /*+ STATE_TTL('orders' = '2d') */ ") {
		t.Errorf("SHOW CREATE VIEW printed\n%s", text)
	}
	if text := mustExecute(t, e, "EXPLAIN JSON_EXECUTION_PLAN SELECT * FROM hinted")[0].Text; !strings.Contains(text, `"ttl": "172800000 ms"`) {
		t.Errorf("the view's hint is not in its plan:\n%s", text)
	}
}

// TestStateTTLMiniBatchAggregate: a mini-batch group aggregation on the
// manual processing-time clock ends its batches as the clock moves (the
// ProcTimeMiniBatchAssignerOperator's timer), and a key idle past the
// retention restarts its count (Flink's MiniBatchGroupAggFunction with
// StateConfigUtil.createTtlConfig), in one phase and in two.
func TestStateTTLMiniBatchAggregate(t *testing.T) {
	const count = "SELECT u, COUNT(*) AS c FROM clicks GROUP BY u;"
	miniBatch := map[string]string{
		"table.exec.mini-batch.enabled":       "true",
		"table.exec.mini-batch.allow-latency": "1 ms",
		"table.exec.mini-batch.size":          "1000",
	}
	twoPhase := map[string]string{"table.optimizer.agg-phase-strategy": "TWO_PHASE"}
	for k, v := range miniBatch {
		twoPhase[k] = v
	}
	runTTLCases(t, []ttlCase{
		{name: "one-phase", settings: miniBatch, query: count, steps: groupCountSteps},
		{name: "two-phase", settings: twoPhase, query: count, steps: groupCountSteps},
	})
}

// TestStateTTLSemiAntiJoin: a semi or anti join's rows expire each on
// its own, from its last write, as Flink's StreamingSemiAntiJoinOperator
// keeps both sides in state views with the TTL: a right row written at
// 10:00:00 no longer lets a left row through at 10:01:10, one written at
// 10:00:40 still does; when an anti join's only matching right row
// expires, nothing is emitted (the left row it held back stays held
// back), and a left row arriving after passes.
func TestStateTTLSemiAntiJoin(t *testing.T) {
	semi := []procTimeStep{
		{insert: "INSERT INTO other VALUES ('a', 'r1'), ('b', 'r1');", advance: time.Second},
		{advance: 39 * time.Second},
		{insert: "INSERT INTO other VALUES ('b', 'r2');", advance: time.Second},
		{advance: 29 * time.Second},
		{insert: "INSERT INTO clicks VALUES ('a', 'l'), ('b', 'l');", advance: time.Second, want: []string{"+I[b, l]"}},
	}
	anti := []procTimeStep{
		{insert: "INSERT INTO clicks VALUES ('a', 'l0');", advance: time.Second, want: []string{"+I[a, l0]"}},
		{insert: "INSERT INTO other VALUES ('a', 'r1');", advance: time.Second, want: []string{"-D[a, l0]"}},
		{advance: 68 * time.Second},
		{insert: "INSERT INTO clicks VALUES ('a', 'l1');", advance: time.Second, want: []string{"+I[a, l1]"}},
	}
	runTTLCases(t, []ttlCase{
		{name: "in", query: "SELECT u, v FROM clicks WHERE u IN (SELECT u FROM other);", steps: semi},
		{name: "exists-condition", steps: semi,
			query: "SELECT u, v FROM clicks WHERE EXISTS (SELECT * FROM other WHERE other.u = clicks.u AND other.w <> clicks.v);"},
		{name: "not-exists", query: "SELECT u, v FROM clicks WHERE NOT EXISTS (SELECT * FROM other WHERE other.u = clicks.u);", steps: anti},
	})
}
