package sluice

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestSharedKafkaSourceReadsOnce: a statement set whose two INSERTs read
// one Kafka table alike reads the topic with one consumer when sources
// are reused (table.optimizer.reuse-source-enabled, Flink's default), and
// with two when they are not: the broker is asked for the topic's first
// record once, or twice. Both sinks get every row either way.
func TestSharedKafkaSourceReadsOnce(t *testing.T) {
	for _, c := range []struct {
		reuse  string
		starts int
	}{{"true", 1}, {"false", 2}} {
		t.Run("reuse-source-enabled="+c.reuse, func(t *testing.T) {
			cluster := startCluster(t)
			brokers := cluster.BootstrapServers()
			e := newEngine(t)
			bounded := strings.Replace(kafkaTable("src", "a BIGINT", "shared", brokers, "json"),
				"'scan.startup.mode' = 'earliest-offset',", "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',", 1)
			mustExecute(t, e, bounded+kafkaTable("out_a", "a BIGINT", "out-a", brokers, "json")+
				kafkaTable("out_b", "a BIGINT", "out-b", brokers, "json")+`
SET 'table.dml-sync' = 'true';
INSERT INTO src SELECT * FROM (VALUES (1), (2), (3), (4), (5)) AS v(a);
SET 'table.optimizer.reuse-source-enabled' = '`+c.reuse+`';`)

			// Count the fetches of the partition from its first offset:
			// each consumer of the topic asks for it once, since the
			// records are there before the job starts.
			var mu sync.Mutex
			starts := 0
			kc := cluster.Kafka()
			kc.ControlKey(int16(kmsg.Fetch), func(r kmsg.Request) (kmsg.Response, error, bool) {
				kc.KeepControl()
				for _, tp := range r.(*kmsg.FetchRequest).Topics {
					for _, p := range tp.Partitions {
						if p.FetchOffset == 0 {
							mu.Lock()
							starts++
							mu.Unlock()
						}
					}
				}
				return nil, nil, false
			})
			mustExecute(t, e, `EXECUTE STATEMENT SET BEGIN
INSERT INTO out_a SELECT a FROM src;
INSERT INTO out_b SELECT a FROM src;
END;`)
			mu.Lock()
			got := starts
			mu.Unlock()
			kc.DropControl()
			if got != c.starts {
				t.Errorf("the topic's first offset was fetched %d times, want %d", got, c.starts)
			}
			for _, topic := range []string{"out-a", "out-b"} {
				var values []string
				for _, r := range readTopic(t, brokers, topic) {
					values = append(values, string(r.Value))
				}
				slices.Sort(values)
				want := []string{}
				for i := 1; i <= 5; i++ {
					want = append(want, fmt.Sprintf(`{"a":%d}`, i))
				}
				if !slices.Equal(values, want) {
					t.Errorf("%s holds %v, want %v", topic, values, want)
				}
			}
		})
	}
}

// TestSavepointOfAPlanWithoutSharing: a savepoint of a job that read its
// table twice, planned without sub-plan reuse (as before reuse, or with it
// off), does not restore into the same statement planned with reuse, whose
// one scan and operators above it are others: the restore is refused,
// naming the state left over and the setting. With reuse off the statement plans as
// before and goes on from the savepoint.
func TestSavepointOfAPlanWithoutSharing(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	dir := t.TempDir()
	ctx := testContext(t)
	const twice = "INSERT INTO counts SELECT user_id, COUNT(*) FROM (SELECT user_id FROM clicks UNION ALL SELECT user_id FROM clicks) GROUP BY user_id;"

	e1 := newEngine(t)
	mustExecute(t, e1, countsDDL(brokers, "earliest-offset")+
		"SET 'state.savepoints.dir' = '"+dir+"';\nINSERT INTO clicks VALUES ('a'), ('b'), ('a');\n"+
		"SET 'table.optimizer.reuse-sub-plan-enabled' = 'false';")
	res := mustExecute(t, e1, twice)
	if err := e1.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	res = mustExecute(t, e1, "STOP JOB '"+res[0].JobID+"' WITH SAVEPOINT;")
	path := res[0].Rows[0][0]
	if got := latestCounts(t, brokers); !maps.Equal(got, map[string]int64{"a": 4, "b": 2}) {
		t.Fatalf("counts before the restore: %v", got)
	}

	e2 := newEngine(t)
	mustExecute(t, e2, countsDDL(brokers, "earliest-offset")+"SET 'execution.savepoint.path' = '"+path+"';")
	const hint = "which is no part of this plan (the plan shares equal parts of it, 'table.optimizer.reuse-sub-plan-enabled': a savepoint of the job planned without sharing restores with it set to 'false')"
	if _, err := e2.Execute(ctx, twice); err == nil || !strings.Contains(err.Error(), hint) {
		t.Fatalf("restoring with sub-plan reuse: %v, want the leftover state refused", err)
	}
	mustExecute(t, e2, "SET 'table.optimizer.reuse-sub-plan-enabled' = 'false';\n"+twice+"\nRESET 'execution.savepoint.path';\nINSERT INTO clicks VALUES ('c');")
	if err := e2.WaitQuiet(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := latestCounts(t, brokers), map[string]int64{"a": 4, "b": 2, "c": 2}; !maps.Equal(got, want) {
		t.Fatalf("counts after the restore: %v, want %v", got, want)
	}
}
