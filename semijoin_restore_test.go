package sluice

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSemiJoinRestoresAcrossStateTTL: a semi join keeps its right side as
// the number of rows per key without a retention and as the rows with one
// (to expire them one by one, as Flink's StreamingSemiAntiJoinOperator
// keeps both sides in state views with the TTL). A savepoint taken with
// 'table.exec.state.ttl' restores without one, its rows as their number,
// as Flink 2.2 restores state taken with a TTL without it; one taken
// without cannot restore with a retention (it has no rows to expire), and
// the error says so, naming the operator and the setting.
func TestSemiJoinRestoresAcrossStateTTL(t *testing.T) {
	for _, backend := range []string{"hashmap", "rocksdb"} {
		t.Run(backend, func(t *testing.T) { testSemiJoinRestoresAcrossStateTTL(t, backend) })
	}
}

func testSemiJoinRestoresAcrossStateTTL(t *testing.T, backend string) {
	brokers := startCluster(t).BootstrapServers()
	n := 0
	savepoint := func(t *testing.T, ttl string) (string, string) {
		n++
		sp := t.TempDir()
		ddl := kafkaTable("clicks", "u STRING, v STRING", fmt.Sprintf("clicks-%d", n), brokers, "json") +
			kafkaTable("other", "u STRING, w STRING", fmt.Sprintf("other-%d", n), brokers, "json") +
			"SET 'state.backend.type' = '" + backend + "';\n" + fmt.Sprintf(`CREATE TABLE out_t (u STRING, v STRING, PRIMARY KEY (u, v) NOT ENFORCED) WITH (
    'connector' = 'upsert-kafka', 'topic' = 'out-%d', 'properties.bootstrap.servers' = '%s',
    'key.format' = 'json', 'value.format' = 'json');
`, n, brokers)
		e := newEngine(t)
		mustExecute(t, e, ddl+"SET 'state.savepoints.dir' = '"+sp+"';\nSET 'table.exec.state.ttl' = '"+ttl+"';\n"+
			"INSERT INTO other VALUES ('a', 'r'), ('b', 'r'), ('b', 'r');\nINSERT INTO clicks VALUES ('a', 'l1'), ('c', 'l1');")
		job := mustExecute(t, e, semiJoinInsert)[0].JobID
		if err := e.WaitQuiet(testContext(t)); err != nil {
			t.Fatal(err)
		}
		mustExecute(t, e, "STOP JOB '"+job+"' WITH SAVEPOINT;")
		return ddl, filepath.Join(sp, job, "chk-1")
	}

	t.Run("with a retention, restored without", func(t *testing.T) {
		ddl, path := savepoint(t, "1 h")
		e := newEngine(t)
		mustExecute(t, e, ddl+"SET 'execution.savepoint.path' = '"+path+"';\n"+semiJoinInsert+
			"\nRESET 'execution.savepoint.path';\nINSERT INTO clicks VALUES ('b', 'l2'), ('c', 'l2');")
		if err := e.WaitQuiet(testContext(t)); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range readTopic(t, brokers, fmt.Sprintf("out-%d", n)) {
			got = append(got, string(r.Key))
		}
		slices.Sort(got)
		// b's right rows were restored (as their number); c has none.
		want := []string{`{"u":"a","v":"l1"}`, `{"u":"b","v":"l2"}`}
		if !slices.Equal(got, want) {
			t.Fatalf("rows written %v, want %v", got, want)
		}
	})

	t.Run("without a retention, restored with one", func(t *testing.T) {
		ddl, path := savepoint(t, "0 ms")
		e := newEngine(t)
		_, err := e.Execute(testContext(t), ddl+"SET 'table.exec.state.ttl' = '1 h';\nSET 'execution.savepoint.path' = '"+path+"';\n"+semiJoinInsert)
		if err == nil || !strings.Contains(err.Error(), "SemiJoin") || !strings.Contains(err.Error(), "the checkpoint holds the number of right rows per key") ||
			!strings.Contains(err.Error(), "'table.exec.state.ttl' = '0 ms'") {
			t.Fatalf("restoring with a retention: %v", err)
		}
	})
}

// semiJoinInsert writes the clicks whose user has a row in other.
const semiJoinInsert = "INSERT INTO out_t SELECT u, v FROM clicks WHERE u IN (SELECT u FROM other);"
