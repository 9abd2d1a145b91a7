package sluice

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// countsDDL declares a kafka table of clicks read from startup and an
// upsert-kafka table of counts per user.
func countsDDL(brokers, startup string) string {
	return fmt.Sprintf(`
CREATE TABLE clicks (user_id STRING) WITH (
    'connector' = 'kafka', 'topic' = 'clicks', 'properties.bootstrap.servers' = '%[1]s',
    'scan.startup.mode' = '%[2]s', 'format' = 'json');
CREATE TABLE counts (user_id STRING, n BIGINT, PRIMARY KEY (user_id) NOT ENFORCED) WITH (
    'connector' = 'upsert-kafka', 'topic' = 'counts', 'properties.bootstrap.servers' = '%[1]s',
    'key.format' = 'json', 'value.format' = 'json');
`, brokers, startup)
}

// readTopic reads topic from its start to its current end.
func readTopic(t *testing.T, brokers, topic string) []*kgo.Record {
	t.Helper()
	ctx := testContext(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ends, err := kadm.NewClient(cl).ListEndOffsets(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	remaining := map[int32]int64{}
	ends.Each(func(o kadm.ListedOffset) {
		if o.Offset > 0 {
			remaining[o.Partition] = o.Offset
		}
	})
	var out []*kgo.Record
	for len(remaining) > 0 {
		fs := cl.PollFetches(ctx)
		if err := fs.Err(); err != nil {
			t.Fatal(err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			out = append(out, r)
			if end, ok := remaining[r.Partition]; ok && r.Offset+1 >= end {
				delete(remaining, r.Partition)
			}
		})
	}
	return out
}

// latestCounts reads the counts topic to its current end and returns each
// user's last count.
func latestCounts(t *testing.T, brokers string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, r := range readTopic(t, brokers, "counts") {
		var v struct {
			User string `json:"user_id"`
			N    int64  `json:"n"`
		}
		if err := json.Unmarshal(r.Value, &v); err != nil {
			t.Fatalf("record %d: %v", r.Offset, err)
		}
		out[v.User] = v.N
	}
	return out
}

// TestStopWithSavepointAndRestore: a job stopped with a savepoint and
// started again from it, in another session, goes on from the savepoint's
// positions with the savepoint's state: rows written while it was stopped
// are counted once, on top of the counts before, although the new table
// would start reading at the latest offset.
func TestStopWithSavepointAndRestore(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	dir := t.TempDir()
	ctx := testContext(t)

	e1 := newEngine(t)
	mustExecute(t, e1, countsDDL(brokers, "earliest-offset")+
		"SET 'state.savepoints.dir' = '"+dir+"';\nINSERT INTO clicks VALUES ('a'), ('b'), ('a');")
	res := mustExecute(t, e1, "INSERT INTO counts SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id;")
	if err := e1.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	job := res[0].JobID
	res = mustExecute(t, e1, "STOP JOB '"+job+"' WITH SAVEPOINT;")
	path := filepath.Join(dir, job, "chk-1")
	if res[0].Kind != ResultTable || strings.Join(res[0].Headers, ",") != "savepoint path" || res[0].Rows[0][0] != path {
		t.Fatalf("STOP JOB WITH SAVEPOINT gave %+v, want the path %s", res[0], path)
	}
	if _, err := os.Stat(filepath.Join(path, "_metadata")); err != nil {
		t.Fatal(err)
	}
	// Flink ends a job stopped with a savepoint FINISHED.
	if s := e1.Jobs()[1].Status(); s != "FINISHED" {
		t.Fatalf("the stopped job is %s", s)
	}
	mustExecute(t, e1, "INSERT INTO clicks VALUES ('a'), ('c');")
	if err := e1.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	if got := latestCounts(t, brokers); !maps.Equal(got, map[string]int64{"a": 2, "b": 1}) {
		t.Fatalf("counts before the restore: %v", got)
	}

	e2 := newEngine(t)
	mustExecute(t, e2, countsDDL(brokers, "latest-offset")+
		"SET 'execution.savepoint.path' = '"+path+"';\nINSERT INTO counts SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id;")
	if err := e2.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := latestCounts(t, brokers), map[string]int64{"a": 3, "b": 1, "c": 1}; !maps.Equal(got, want) {
		t.Fatalf("counts after the restore: %v, want %v", got, want)
	}

	// The savepoint holds the state of that query's plan only.
	mustExecute(t, e2, "CREATE TABLE other (user_id STRING, n BIGINT) WITH ('connector' = 'blackhole');")
	_, err := e2.Execute(ctx, "INSERT INTO other SELECT user_id, CHAR_LENGTH(user_id) FROM clicks;")
	if err == nil || !strings.Contains(err.Error(), "which is no part of this plan") {
		t.Fatalf("restoring another plan: %v", err)
	}
	mustExecute(t, e2, "SET 'execution.savepoint.ignore-unclaimed-state' = 'true';\nINSERT INTO other SELECT user_id, CHAR_LENGTH(user_id) FROM clicks;")
}

// TestStopWithSavepointAndDrain: STOP JOB ... WITH SAVEPOINT WITH DRAIN
// fires the windows the watermark has not closed yet, as Flink's drain
// does by sending the maximum watermark ahead of the savepoint's barrier,
// so that their results are written before the job ends FINISHED; a job
// restored from that savepoint does not fire them again.
func TestStopWithSavepointAndDrain(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	dir := t.TempDir()
	ctx := testContext(t)
	ddl := fmt.Sprintf(`
CREATE TABLE events (user_id STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH (
    'connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '%[1]s',
    'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
CREATE TABLE per_minute (user_id STRING, window_start TIMESTAMP(3), n BIGINT) WITH (
    'connector' = 'kafka', 'topic' = 'per_minute', 'properties.bootstrap.servers' = '%[1]s', 'format' = 'json');
SET 'state.savepoints.dir' = '%[2]s';
`, brokers, dir)
	query := `INSERT INTO per_minute SELECT user_id, window_start, COUNT(*) FROM TABLE(
    TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY user_id, window_start, window_end;`
	e1 := newEngine(t)
	mustExecute(t, e1, ddl+"INSERT INTO events VALUES ('a', TIMESTAMP '2026-01-01 10:00:10'), ('a', TIMESTAMP '2026-01-01 10:00:20');")
	res := mustExecute(t, e1, query)
	if err := e1.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	if got := readTopic(t, brokers, "per_minute"); len(got) != 0 {
		t.Fatalf("a window fired before its end: %d records", len(got))
	}
	job := res[0].JobID
	res = mustExecute(t, e1, "STOP JOB '"+job+"' WITH SAVEPOINT WITH DRAIN;")
	path := res[0].Rows[0][0]
	if s := e1.Jobs()[1].Status(); s != "FINISHED" {
		t.Fatalf("the drained job is %s", s)
	}
	want := `{"user_id":"a","window_start":"2026-01-01 10:00:00","n":2}`
	values := func() []string {
		var out []string
		for _, r := range readTopic(t, brokers, "per_minute") {
			out = append(out, string(r.Value))
		}
		return out
	}
	if got := values(); len(got) != 1 || got[0] != want {
		t.Fatalf("after the drain: %q, want [%s]", got, want)
	}

	// Restored, the job reads on from the savepoint: the drained window
	// is not fired again, a later one fires when its end passes.
	e2 := newEngine(t)
	mustExecute(t, e2, ddl+"SET 'execution.savepoint.path' = '"+path+"';\n"+query)
	mustExecute(t, e1, "INSERT INTO events VALUES ('a', TIMESTAMP '2026-01-01 10:01:10'), ('a', TIMESTAMP '2026-01-01 10:02:30');")
	if err := e1.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e2.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	want2 := `{"user_id":"a","window_start":"2026-01-01 10:01:00","n":1}`
	if got := values(); len(got) != 2 || got[0] != want || got[1] != want2 {
		t.Fatalf("after the restore: %q, want [%s %s]", got, want, want2)
	}
}

func TestCheckpointSettings(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct{ stmt, want string }{
		{"SET 'execution.checkpointing.interval' = '5 ms';", "invalid value '5 ms' for 'execution.checkpointing.interval': expected a duration of at least 10 ms"},
		{"SET 'execution.checkpointing.mode' = 'twice';", "invalid value 'twice' for 'execution.checkpointing.mode': expected EXACTLY_ONCE or AT_LEAST_ONCE"},
		{"SET 'execution.checkpointing.tolerable-failed-checkpoints' = '-1';", "invalid value '-1' for 'execution.checkpointing.tolerable-failed-checkpoints': expected a non-negative integer"},
		{"SET 'state.checkpoints.num-retained' = '0';", "invalid value '0' for 'state.checkpoints.num-retained': expected a positive integer"},
		{"SET 'execution.checkpointing.max-concurrent-checkpoints' = '2';", "'execution.checkpointing.max-concurrent-checkpoints' = '2' is not supported yet (checkpoints are taken one at a time); only '1' is"},
		{"SET 'execution.checkpointing.unaligned.enabled' = 'true';", "'execution.checkpointing.unaligned.enabled' = 'true' is not supported yet (barriers are aligned); only 'false' is"},
		{"SET 'state.backend.type' = 'forst';", "invalid value 'forst' for 'state.backend.type': the ForSt state backend (disaggregated state) is not supported; expected 'hashmap' or 'rocksdb'"},
		{"SET 'state.backend' = 'memory';", "invalid value 'memory' for 'state.backend': expected 'hashmap' or 'rocksdb' (on disk, in Pebble)"},
		{"SET 'execution.checkpointing.incremental' = 'yes';", "invalid value 'yes' for 'execution.checkpointing.incremental': expected true or false"},
		{"STOP JOB 'x' WITH DRAIN;", "WITH DRAIN takes effect only together with WITH SAVEPOINT"},
	} {
		_, err := e.Execute(testContext(t), c.stmt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.stmt, err, c.want)
		}
	}
	mustExecute(t, e, "CREATE TABLE one (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1');\nCREATE TABLE none (a INT) WITH ('connector' = 'blackhole');")
	// Flink ignores incremental checkpoints where the backend cannot take
	// them (state.backend.incremental's description); Sluice refuses.
	mustExecute(t, e, "SET 'state.backend.incremental' = 'true';")
	if _, err := e.Execute(testContext(t), "INSERT INTO none SELECT a FROM one;"); err == nil ||
		err.Error() != "'state.backend.incremental' = 'true' needs the on-disk state backend ('state.backend.type' = 'rocksdb'): the 'hashmap' backend takes whole checkpoints" {
		t.Fatalf("incremental checkpoints with the hashmap backend: %v", err)
	}
	mustExecute(t, e, "RESET 'state.backend.incremental';")
	mustExecute(t, e, "SET 'execution.checkpointing.mode' = 'at_least_once';\nSET 'execution.checkpointing.interval' = '1 min';")
	mustExecute(t, e, "CREATE TABLE g (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1');\nCREATE TABLE bh (a INT) WITH ('connector' = 'blackhole');")
	_, err := e.Execute(testContext(t), "INSERT INTO bh SELECT a FROM g;")
	if err == nil || err.Error() != "'execution.checkpointing.interval' is set but 'execution.checkpointing.dir' is not: set where checkpoints are stored" {
		t.Fatalf("a checkpoint interval without a directory: %v", err)
	}
}

// TestPeriodicCheckpoints: with an interval and a directory, a job takes
// checkpoints by itself, numbered on, keeping state.checkpoints.num-retained
// of them.
func TestPeriodicCheckpoints(t *testing.T) {
	dir := t.TempDir() // removed after the engine has closed
	e := newEngine(t)
	res := mustExecute(t, e, `
SET 'execution.checkpointing.interval' = '20 ms';
SET 'state.checkpoints.dir' = '`+dir+`';
SET 'state.checkpoints.num-retained' = '2';
CREATE TABLE g (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100', 'fields.a.kind' = 'sequence', 'fields.a.start' = '1', 'fields.a.end' = '1000000');
CREATE TABLE bh (a BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO bh SELECT a FROM g;`)
	job := res[len(res)-1].JobID
	ctx := testContext(t)
	complete := func(id int) bool {
		_, err := os.Stat(filepath.Join(dir, job, fmt.Sprintf("chk-%d", id), "_metadata"))
		return err == nil
	}
	for !complete(4) {
		if ctx.Err() != nil {
			t.Fatal("the job did not take four checkpoints")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Checkpoints are taken one at a time, each pruning the older ones
	// when it completes: by the fourth, the first is gone.
	if _, err := os.Stat(filepath.Join(dir, job, "chk-1")); !os.IsNotExist(err) {
		t.Fatalf("chk-1 is still there with two retained and chk-4 complete: %v", err)
	}
	if s := e.Jobs()[0].Status(); s != "RUNNING" {
		t.Fatalf("the job is %s", s)
	}
}

// TestRecoverAfterEngineCloses: an engine with a data directory that
// closes takes a last checkpoint of its running jobs and leaves them
// RUNNING in its job store; the next engine on the directory starts them
// again with their IDs and state, and rows written in between count once.
// A job stopped with STOP JOB stays stopped.
func TestRecoverAfterEngineCloses(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	dir := t.TempDir()
	ctx := testContext(t)

	e1 := NewEngine()
	if err := e1.SetDataDir(dir); err != nil {
		t.Fatal(err)
	}
	res := mustExecute(t, e1, countsDDL(brokers, "earliest-offset")+`
CREATE TABLE bh (user_id STRING) WITH ('connector' = 'blackhole');
INSERT INTO clicks VALUES ('a'), ('b'), ('a');
INSERT INTO counts SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id;`)
	counting := res[len(res)-1].JobID
	stopped := mustExecute(t, e1, "INSERT INTO bh SELECT user_id FROM clicks;")[0].JobID
	mustExecute(t, e1, "STOP JOB '"+stopped+"';")
	if err := e1.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	e1.Close()
	if s := e1.jobs.jobs[counting].Status(); s != "CANCELED" {
		t.Fatalf("after Close the job is %s in the closed engine", s)
	}

	// Rows written while no engine runs.
	e0 := newEngine(t)
	mustExecute(t, e0, countsDDL(brokers, "earliest-offset")+"INSERT INTO clicks VALUES ('a'), ('c');")
	if err := e0.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}

	e2 := newEngine(t)
	if err := e2.SetDataDir(dir); err != nil {
		t.Fatal(err)
	}
	jobs, err := e2.Recover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 1 || jobs[0].ID != counting || jobs[0].Status() != "RUNNING" {
		t.Fatalf("recovered %d jobs (%v), want only %s running", len(jobs), jobs, counting)
	}
	if err := e2.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := latestCounts(t, brokers), map[string]int64{"a": 3, "b": 1, "c": 1}; !maps.Equal(got, want) {
		t.Fatalf("counts after the recovery: %v, want %v", got, want)
	}
	// Once stopped with STOP JOB, a job is over for the next engine too.
	mustExecute(t, e2, "STOP JOB '"+counting+"';")
	e2.Close()
	e3 := newEngine(t)
	if err := e3.SetDataDir(dir); err != nil {
		t.Fatal(err)
	}
	if jobs, err := e3.Recover(ctx); err != nil || len(jobs) != 0 {
		t.Fatalf("after STOP JOB: recovered %d jobs, %v", len(jobs), err)
	}
}

// TestExactlyOnceNeedsCheckpointsWhenUnbounded: an exactly-once sink
// commits at checkpoints, so an INSERT from a source that never ends into
// one, in a job without checkpoints, would never show a row: refused. From
// a bounded source it commits at the end, as in Flink.
func TestExactlyOnceNeedsCheckpointsWhenUnbounded(t *testing.T) {
	cluster := startCluster(t)
	e := newEngine(t)
	mustExecute(t, e, fmt.Sprintf(`
CREATE TABLE out_eos (a BIGINT) WITH ('connector' = 'kafka', 'topic' = 'eos', 'properties.bootstrap.servers' = '%s',
    'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'eos-test');
CREATE TABLE forever (a BIGINT) WITH ('connector' = 'datagen');
CREATE TABLE three (a BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');`, cluster.BootstrapServers()))
	_, err := e.Execute(testContext(t), "INSERT INTO out_eos SELECT a FROM forever;")
	want := "table 'out_eos' makes its rows visible only when a checkpoint completes ('sink.delivery-guarantee' = 'exactly-once'), but the job takes no checkpoints and reads 'forever', which does not end: set 'execution.checkpointing.interval'"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	mustExecute(t, e, "INSERT INTO out_eos SELECT a FROM three;")
	if err := e.WaitJobs(testContext(t)); err != nil {
		t.Fatal(err)
	}
}

// TestExactlyOnceSinkAfterChainedCalc: an exactly-once Kafka sink forward
// after a Calc, which runs chained into its source, commits at completed
// checkpoints (it heads a chain of its own, whose loop hears of them):
// its rows become visible to a read-committed reader while the job runs.
func TestExactlyOnceSinkAfterChainedCalc(t *testing.T) {
	cluster := startCluster(t)
	dir := t.TempDir() // removed after the engine has closed
	e := newEngine(t)
	mustExecute(t, e, fmt.Sprintf(`
SET 'execution.checkpointing.interval' = '20 ms';
SET 'state.checkpoints.dir' = '%s';
CREATE TABLE g (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000', 'fields.a.kind' = 'sequence', 'fields.a.start' = '1', 'fields.a.end' = '1000000');
CREATE TABLE out_eos (a BIGINT) WITH ('connector' = 'kafka', 'topic' = 'eos-calc', 'properties.bootstrap.servers' = '%s',
    'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'eos-calc');
INSERT INTO out_eos SELECT a + 1 FROM g WHERE a > 1;`, dir, cluster.BootstrapServers()))
	cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.BootstrapServers()), kgo.ConsumeTopics("eos-calc"),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx := testContext(t)
	for {
		fs := cl.PollFetches(ctx)
		if err := fs.Err(); err != nil {
			t.Fatalf("no row of the sink was committed: %v", err)
		}
		if fs.NumRecords() > 0 {
			return
		}
	}
}

// TestSinkNotNullEnforced: by default (table.exec.sink.not-null-enforcer
// ERROR) a NULL written into a NOT NULL sink column fails the job with
// Flink's message, and nothing of that row reaches the sink.
func TestSinkNotNullEnforced(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	ctx := testContext(t)
	e := newEngine(t)
	mustExecute(t, e, kafkaTable("src", "id INT, name STRING", "nn-src", brokers, "json")+
		kafkaTable("dst", "id INT, name STRING NOT NULL", "nn-dst", brokers, "json")+
		"INSERT INTO src VALUES (2, CAST(NULL AS STRING));")
	if err := e.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	res := mustExecute(t, e, "INSERT INTO dst SELECT id, name FROM src;")
	var job *Job
	for _, j := range e.Jobs() {
		if j.ID == res[0].JobID {
			job = j
		}
	}
	select {
	case <-job.Done():
	case <-ctx.Done():
		t.Fatal("the job did not fail")
	}
	want := "Column 'name' is NOT NULL, however, a null value is being written into it. You can set job configuration 'table.exec.sink.not-null-enforcer'='DROP' to suppress this exception and drop such records silently."
	if err := job.Err(); err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("the job ended with %v; want an error ending %q", err, want)
	}
	if got := readTopic(t, brokers, "nn-dst"); len(got) != 0 {
		t.Errorf("the sink holds %d records", len(got))
	}
}
