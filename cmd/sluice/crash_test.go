package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice/internal/devcluster"
)

// crashRows and crashKeys size the crash test's input: rows {"k", "v"}
// with v = 0..crashRows-1 over crashKeys keys.
const (
	crashRows = 200_000
	crashKeys = 1000
)

// TestJobsSurviveKills is the crash test: a pipeline runs in a child
// process (sluice sql -external -data-dir D) that is killed with SIGKILL
// at random moments, SLUICE_CRASH_KILLS times (20 by default), and
// started again on the same data directory each time, while its input
// arrives in batches. The pipeline copies every row into a kafka topic
// (at least once) and counts and sums per key into an upsert-kafka topic;
// it reads from its group's offsets, so a run that did not take its
// positions and state from the checkpoint would miss or recount rows.
// At the end an independent reader finds every row in the at-least-once
// copy, every row exactly once in the exactly-once copy read committed,
// and, per key, the count and sum the input holds.
func TestJobsSurviveKills(t *testing.T) {
	kills := 20
	if v := os.Getenv("SLUICE_CRASH_KILLS"); v != "" {
		var err error
		if kills, err = strconv.Atoi(v); err != nil || kills < 1 {
			t.Fatalf("SLUICE_CRASH_KILLS=%q: want a positive number", v)
		}
	}
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	brokers := cluster.BootstrapServers()
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.AllowAutoTopicCreation(), kgo.ProducerLinger(0))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(3+kills/10)*time.Minute)
	defer cancel()

	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	pipeline := filepath.Join(dir, "pipeline.sql")
	writeFile(t, pipeline, crashPipeline(brokers, ""))
	resume := filepath.Join(dir, "resume.sql")
	writeFile(t, resume, "-- the jobs are resumed from the data directory\n")

	batch := crashRows / (kills + 1)
	next := 0
	produceBatch := func(n int) {
		t.Helper()
		recs := make([]*kgo.Record, 0, n)
		for ; n > 0 && next < crashRows; n-- {
			v := next
			recs = append(recs, &kgo.Record{Topic: "crash-in", Value: fmt.Appendf(nil, `{"k":"k%d","v":%d}`, v%crashKeys, v)})
			next++
		}
		if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	start := func(script string) *exec.Cmd {
		t.Helper()
		cmd := exec.Command(binary, "sql", "-external", "-data-dir", data, "-f", script)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	kill := func(cmd *exec.Cmd) {
		t.Helper()
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
	}

	// The first run starts the jobs; it is killed once both are in the job
	// store and have completed a checkpoint, so that every later run
	// resumes them.
	produceBatch(batch)
	cmd := start(pipeline)
	for !jobsCheckpointed(t, data, 3) {
		if ctx.Err() != nil {
			t.Fatal("the pipeline never completed a checkpoint")
		}
		time.Sleep(10 * time.Millisecond)
	}
	kill(cmd)
	for range kills - 1 {
		produceBatch(batch)
		cmd = start(resume)
		time.Sleep(time.Duration(rand.IntN(400)) * time.Millisecond) // a random moment
		kill(cmd)
	}
	produceBatch(crashRows)
	cmd = start(resume)
	defer kill(cmd)

	checkCrashOutput(t, ctx, brokers)
}

// crashPipeline is the crash tests' pipeline over brokers, with extra
// SET statements.
func crashPipeline(brokers, extra string) string {
	return fmt.Sprintf(`
CREATE TABLE src (k STRING, v BIGINT) WITH ('connector' = 'kafka', 'topic' = 'crash-in',
    'properties.bootstrap.servers' = '%[1]s', 'properties.group.id' = 'crash',
    'properties.auto.offset.reset' = 'earliest', 'scan.startup.mode' = 'group-offsets', 'format' = 'json');
CREATE TABLE copy (k STRING, v BIGINT) WITH ('connector' = 'kafka', 'topic' = 'crash-copy',
    'properties.bootstrap.servers' = '%[1]s', 'format' = 'json');
CREATE TABLE copy_eos (k STRING, v BIGINT) WITH ('connector' = 'kafka', 'topic' = 'crash-copy-eos',
    'properties.bootstrap.servers' = '%[1]s', 'format' = 'json',
    'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'crash');
CREATE TABLE totals (k STRING, n BIGINT, s BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (
    'connector' = 'upsert-kafka', 'topic' = 'crash-totals', 'properties.bootstrap.servers' = '%[1]s',
    'key.format' = 'json', 'value.format' = 'json');
SET 'execution.checkpointing.interval' = '100 ms';
SET 'restart-strategy.type' = 'fixed-delay';
SET 'restart-strategy.fixed-delay.attempts' = '1000';
SET 'restart-strategy.fixed-delay.delay' = '50 ms';
SET 'parallelism.default' = '2';
%[2]s
INSERT INTO copy SELECT k, v FROM src;
INSERT INTO copy_eos SELECT k, v FROM src;
INSERT INTO totals SELECT k, COUNT(*), SUM(v) FROM src GROUP BY k;
`, brokers, extra)
}

// checkCrashOutput waits until the totals count every input row, then
// checks each key's count and sum and that the copy holds every row.
func checkCrashOutput(t *testing.T, ctx context.Context, brokers string) {
	t.Helper()
	// Facts: the totals count every input row.
	var totals map[string][2]int64
	for {
		totals = readTotals(t, ctx, brokers)
		var n int64
		for _, v := range totals {
			n += v[0]
		}
		if n == crashRows {
			break
		}
		if n > crashRows {
			t.Fatalf("the totals count %d rows; the input has %d", n, crashRows)
		}
		if ctx.Err() != nil {
			t.Fatalf("the totals count %d of %d rows", n, crashRows)
		}
		time.Sleep(20 * time.Millisecond)
	}
	want := map[string][2]int64{}
	for v := range crashRows {
		k := fmt.Sprintf("k%d", v%crashKeys)
		w := want[k]
		want[k] = [2]int64{w[0] + 1, w[1] + int64(v)}
	}
	if len(totals) != len(want) {
		t.Fatalf("%d keys in the totals, want %d", len(totals), len(want))
	}
	for k, w := range want {
		if totals[k] != w {
			t.Fatalf("key %s: count and sum %v, want %v", k, totals[k], w)
		}
	}
	// The copy jobs go at their own pace: wait until they hold every row,
	// the at-least-once one at least once, the exactly-once one (read
	// committed) exactly once.
	for _, c := range []struct {
		topic     string
		committed bool
	}{{"crash-copy", false}, {"crash-copy-eos", true}} {
		for {
			seen := readCopy(t, ctx, brokers, c.topic, c.committed)
			if len(seen) == crashRows {
				if c.committed {
					for v, n := range seen {
						if n != 1 {
							t.Fatalf("row %d is %d times in %s, read committed", v, n, c.topic)
						}
					}
				}
				break
			}
			if ctx.Err() != nil {
				for v := range crashRows {
					if seen[int64(v)] == 0 {
						t.Fatalf("row %d is not in %s (%d distinct rows there)", v, c.topic, len(seen))
					}
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// jobsCheckpointed reports whether n jobs are in the data directory's job
// store and each has a complete checkpoint.
func jobsCheckpointed(t *testing.T, data string, n int) bool {
	t.Helper()
	entries, _ := os.ReadDir(filepath.Join(data, "jobs"))
	done := 0
	for _, en := range entries {
		id, ok := strings.CutSuffix(en.Name(), ".json")
		if !ok {
			continue
		}
		chks, _ := filepath.Glob(filepath.Join(data, "checkpoints", id, "chk-*", "_metadata"))
		if len(chks) > 0 {
			done++
		}
	}
	return done >= n
}

// readTopic calls f with every record of topic up to its end offsets now;
// with committed set, as a read_committed consumer, up to the last stable
// offsets, and only with the records of committed transactions.
func readTopic(t *testing.T, ctx context.Context, brokers, topic string, committed bool, f func(*kgo.Record)) {
	t.Helper()
	opts := []kgo.Opt{kgo.SeedBrokers(brokers), kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart())}
	if committed {
		// Transaction markers are kept so that reading reaches the last
		// stable offset even when a marker is the last record before it.
		opts = append(opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.KeepControlRecords())
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	list := adm.ListEndOffsets
	if committed {
		list = adm.ListCommittedOffsets
	}
	ends, err := list(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	remaining := map[int32]int64{}
	ends.Each(func(o kadm.ListedOffset) {
		if o.Offset > 0 {
			remaining[o.Partition] = o.Offset
		}
	})
	for len(remaining) > 0 {
		fs := cl.PollFetches(ctx)
		if err := fs.Err(); err != nil {
			t.Fatal(err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			end, ok := remaining[r.Partition]
			if !ok || r.Offset >= end {
				return
			}
			if !r.Attrs.IsControl() {
				f(r)
			}
			if r.Offset+1 >= end {
				delete(remaining, r.Partition)
			}
		})
	}
}

// readTotals returns the latest count and sum per key of the totals topic.
func readTotals(t *testing.T, ctx context.Context, brokers string) map[string][2]int64 {
	t.Helper()
	out := map[string][2]int64{}
	readTopic(t, ctx, brokers, "crash-totals", false, func(r *kgo.Record) {
		var key struct {
			K string `json:"k"`
		}
		if err := json.Unmarshal(r.Key, &key); err != nil {
			t.Fatalf("totals key at offset %d: %v", r.Offset, err)
		}
		if r.Value == nil {
			delete(out, key.K)
			return
		}
		var v struct {
			N int64 `json:"n"`
			S int64 `json:"s"`
		}
		if err := json.Unmarshal(r.Value, &v); err != nil {
			t.Fatalf("totals value at offset %d: %v", r.Offset, err)
		}
		out[key.K] = [2]int64{v.N, v.S}
	})
	return out
}

// readCopy returns how many times each v is in a copy topic (read
// committed transactions only, when committed is set).
func readCopy(t *testing.T, ctx context.Context, brokers, topic string, committed bool) map[int64]int {
	t.Helper()
	out := map[int64]int{}
	readTopic(t, ctx, brokers, topic, committed, func(r *kgo.Record) {
		var v struct {
			V int64 `json:"v"`
		}
		if err := json.Unmarshal(r.Value, &v); err != nil {
			t.Fatalf("%s at offset %d: %v", topic, r.Offset, err)
		}
		out[v.V]++
	})
	return out
}

// TestJobsSurviveBrokerRestarts: the broker (with its data directory) is
// stopped under the running pipeline five times, for a random while each
// time: jobs whose sources or sinks give up fail and are restarted from
// their latest checkpoint once it is back, and in the end every row is
// counted exactly once and copied at least once.
func TestJobsSurviveBrokerRestarts(t *testing.T) {
	cluster, err := devcluster.Start(devcluster.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	brokers := cluster.BootstrapServers()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	pipeline := filepath.Join(dir, "pipeline.sql")
	// Give up on an absent broker after two seconds, so that outages fail
	// the jobs and their restarts are exercised.
	writeFile(t, pipeline, strings.ReplaceAll(crashPipeline(brokers, ""), "'format' = 'json');",
		"'format' = 'json', 'properties.default.api.timeout.ms' = '2000');"))
	next := 0
	produce := func(n int) {
		t.Helper()
		cl, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.AllowAutoTopicCreation(), kgo.ProducerLinger(0))
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		recs := make([]*kgo.Record, 0, n)
		for ; n > 0 && next < crashRows; n-- {
			recs = append(recs, &kgo.Record{Topic: "crash-in", Value: fmt.Appendf(nil, `{"k":"k%d","v":%d}`, next%crashKeys, next)})
			next++
		}
		if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	produce(crashRows / 6)
	cmd := exec.Command(binary, "sql", "-external", "-data-dir", filepath.Join(dir, "data"), "-f", pipeline)
	logPath := filepath.Join(dir, "stderr")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd.Stderr = logFile
	defer func() {
		if t.Failed() {
			log, _ := os.ReadFile(logPath)
			t.Logf("the pipeline printed:\n%s", log)
		}
	}()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
	}()
	for !jobsCheckpointed(t, filepath.Join(dir, "data"), 3) {
		if ctx.Err() != nil {
			t.Fatal("the pipeline never completed a checkpoint")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for i := range 5 {
		cluster.StopKafka()
		// The first outage outlasts the jobs' timeout; the others are of
		// random length.
		outage := 4500 * time.Millisecond
		if i > 0 {
			outage = time.Duration(rand.IntN(4500)) * time.Millisecond
		}
		time.Sleep(outage)
		if err := cluster.StartKafka(); err != nil {
			t.Fatal(err)
		}
		produce(crashRows / 6)
	}
	produce(crashRows)
	checkCrashOutput(t, ctx, brokers)
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "failed, restarting") {
		t.Fatalf("no job restarted after a 4.5 s outage with a 2 s timeout; the process printed:\n%s", log)
	}
}
