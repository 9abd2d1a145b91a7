package sluice

import (
	"fmt"
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
