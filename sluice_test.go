package sluice

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// testTimeout bounds every statement and stream read of these tests, so
// that a hang fails the test instead of the run. It is no measure of
// speed: on a loaded two-core machine the deepest plan tests (9,001-term
// expressions through a plan round trip) have taken over 40 seconds.
const testTimeout = 3 * time.Minute

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

func newEngine(t *testing.T) *Engine {
	t.Helper()
	e := NewEngine()
	t.Cleanup(e.Close)
	return e
}

// mustExecute runs a script that must succeed.
func mustExecute(t *testing.T, e *Engine, script string) []*Result {
	t.Helper()
	res, err := e.Execute(testContext(t), script)
	if err != nil {
		t.Fatalf("executing\n%s\n: %v", script, err)
	}
	return res
}

func startCluster(t *testing.T) *devcluster.Cluster {
	t.Helper()
	c, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// changelog renders changes the way Flink's TableResult.print() shows rows
// in changelog form, e.g. "+I[1, alice, <NULL>]".
func changelog(s *Stream, changes []Change) []string {
	out := make([]string, len(changes))
	for i, c := range changes {
		cells := make([]string, len(c.Row))
		for j, v := range c.Row {
			cells[j] = types.PrintValue(s.Schema[j].Type, v, s.TimeZone)
		}
		out[i] = c.Kind.String() + "[" + strings.Join(cells, ", ") + "]"
	}
	return out
}

// kafkaTable declares a kafka table over topic with the given columns and
// value format, reading from the earliest offset of brokers.
func kafkaTable(name, columns, topic, brokers, valueFormat string) string {
	return fmt.Sprintf(`CREATE TABLE %s (
    %s
) WITH (
    'connector' = 'kafka',
    'topic' = '%s',
    'properties.bootstrap.servers' = '%s',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = '%s'
);
`, name, columns, topic, brokers, valueFormat)
}

// errorCatalog is the session the validation errors are raised in. Planning
// never connects to the brokers it names.
var errorCatalog = kafkaTable("orders", `id INT,
    customer STRING,
    amount DOUBLE,
    ts TIMESTAMP(3),
    WATERMARK FOR ts AS ts - INTERVAL '5' SECOND`, "orders", "localhost:9092", "json") +
	kafkaTable("customers", `id INT,
    name STRING,
    created TIMESTAMP(3)`, "customers", "localhost:9092", "json") +
	kafkaTable("totals", `customer STRING,
    total DOUBLE`, "totals", "localhost:9092", "json") +
	kafkaTable("customers_seen", `customer STRING`, "customers-seen", "localhost:9092", "json") + `
CREATE TABLE prices (
    item STRING,
    price DOUBLE,
    ts TIMESTAMP(3),
    WATERMARK FOR ts AS ts,
    PRIMARY KEY (item) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'prices',
    'properties.bootstrap.servers' = 'localhost:9092',
    'key.format' = 'json',
    'value.format' = 'json'
);
`

// TestStatementErrors runs bad statements through the Engine: each must fail
// (not panic or hang) with its message, the line and column it is about, the
// source line and a caret under that column. Messages follow Flink's where
// Flink has one.
func TestStatementErrors(t *testing.T) {
	tests := []struct {
		name string
		sql  string
		want string
	}{{
		name: "syntax error",
		sql: `SELECT id,
       customer
  FROM orders
 WHERE amount > > 10`,
		want: `SQL parse error at line 4, column 17: expected an expression, found '>'
   WHERE amount > > 10
                  ^`,
	}, {
		name: "unknown table",
		sql: `SELECT *
FROM orderz`,
		want: `SQL validation error at line 2, column 6: Object 'orderz' not found
  FROM orderz
       ^`,
	}, {
		name: "unknown column",
		sql:  `SELECT id, amout FROM orders`,
		want: `SQL validation error at line 1, column 12: Column 'amout' not found in any table
  SELECT id, amout FROM orders
             ^`,
	}, {
		name: "column in the wrong case",
		sql:  `SELECT id, Customer FROM orders`,
		want: `SQL validation error at line 1, column 12: Column 'Customer' not found in any table; did you mean 'customer'?
  SELECT id, Customer FROM orders
             ^`,
	}, {
		name: "ambiguous column in a join",
		sql: `SELECT o.customer, id
FROM orders o JOIN customers c ON o.id = c.id`,
		want: `SQL validation error at line 1, column 20: Column 'id' is ambiguous
  SELECT o.customer, id
                     ^`,
	}, {
		name: "no connector option",
		sql:  `CREATE TABLE t (a INT) WITH ('topic' = 't')`,
		want: `SQL validation error at line 1, column 1: table 't' has no 'connector' option; available connectors: blackhole, datagen, kafka, nexmark, print, upsert-kafka
  CREATE TABLE t (a INT) WITH ('topic' = 't')
  ^`,
	}, {
		name: "unknown connector",
		sql:  `CREATE TABLE t (a INT) WITH ('connector' = 'kafak', 'topic' = 't')`,
		want: `SQL validation error at line 1, column 1: unknown connector 'kafak' for table 't'; available connectors: blackhole, datagen, kafka, nexmark, print, upsert-kafka
  CREATE TABLE t (a INT) WITH ('connector' = 'kafak', 'topic' = 't')
  ^`,
	}, {
		name: "missing required kafka option",
		sql: `CREATE TABLE t (a INT) WITH (
  'connector' = 'kafka',
  'topic' = 't',
  'value.format' = 'raw')`,
		want: `SQL validation error at line 1, column 1: invalid options for table 't': One or more required options are missing.

Missing required options are:

properties.bootstrap.servers
  CREATE TABLE t (a INT) WITH (
  ^`,
	}, {
		name: "unknown format",
		sql: `CREATE TABLE t (a INT) WITH (
  'connector' = 'kafka',
  'topic' = 't',
  'properties.bootstrap.servers' = 'localhost:9092',
  'value.format' = 'jsn')`,
		want: `SQL validation error at line 5, column 3: invalid options for table 't': invalid value for option 'value.format': unknown format 'jsn'; available formats: avro, avro-confluent, canal-json, csv, debezium-avro-confluent, debezium-json, json, maxwell-json, raw
    'value.format' = 'jsn')
    ^`,
	}, {
		name: "unknown Kafka client property",
		sql: `CREATE TABLE t (a INT) WITH (
  'connector' = 'kafka',
  'topic' = 't',
  'properties.bootstrap.servers' = 'localhost:9092',
  'properties.fetch.max.byte' = '1048576',
  'value.format' = 'raw')`,
		want: `SQL validation error at line 5, column 3: invalid options for table 't': Unsupported option 'properties.fetch.max.byte': not a Kafka client configuration; did you mean 'properties.fetch.max.bytes'?
    'properties.fetch.max.byte' = '1048576',
    ^`,
	}, {
		name: "column not grouped",
		sql: `SELECT customer, amount
FROM orders
GROUP BY customer`,
		want: `SQL validation error at line 1, column 18: Expression 'amount' is not being grouped
  SELECT customer, amount
                   ^`,
	}, {
		name: "INSERT with too few columns",
		sql:  `INSERT INTO totals SELECT customer FROM orders`,
		want: `SQL validation error at line 1, column 20: Column types of query result and sink for 'default_catalog.default_database.totals' do not match.
Cause: Different number of columns.

Query schema: [customer: STRING]
Sink schema:  [customer: STRING, total: DOUBLE]
  INSERT INTO totals SELECT customer FROM orders
                     ^`,
	}, {
		name: "INSERT with an incompatible column type",
		sql:  `INSERT INTO totals SELECT customer, ts FROM orders`,
		want: `SQL validation error at line 1, column 20: Column types of query result and sink for 'default_catalog.default_database.totals' do not match.
Cause: Incompatible types for sink column 'total' at position 1.

Query schema: [customer: STRING, ts: TIMESTAMP(3) *ROWTIME*]
Sink schema:  [customer: STRING, total: DOUBLE]
  INSERT INTO totals SELECT customer, ts FROM orders
                     ^`,
	}, {
		name: "updating query into an append-only kafka sink",
		sql: `INSERT INTO customers_seen
SELECT customer FROM orders GROUP BY customer`,
		want: `SQL validation error at line 1, column 1: Table sink 'default_catalog.default_database.customers_seen' doesn't support consuming update changes which is produced by node GroupAggregate(groupBy=[customer], select=[customer])
  INSERT INTO customers_seen
  ^`,
	}, {
		name: "window over a column that is not a time attribute",
		sql: `SELECT window_start, COUNT(*)
FROM TABLE(
    TUMBLE(TABLE customers, DESCRIPTOR(created), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end`,
		want: `SQL validation error at line 3, column 29: The window function requires the timecol is a time attribute type, but is TIMESTAMP(3).
      TUMBLE(TABLE customers, DESCRIPTOR(created), INTERVAL '1' MINUTE))
                              ^`,
	}, {
		name: "unknown function",
		sql:  `SELECT customer, FOO(id) FROM orders`,
		want: `SQL validation error at line 1, column 18: No match found for function signature FOO(<NUMERIC>)
  SELECT customer, FOO(id) FROM orders
                   ^`,
	}, {
		// Calcite names the function as written (Flink's table.q).
		name: "unknown function in lower case",
		sql:  `SELECT customer, foo_bar(id) FROM orders`,
		want: `SQL validation error at line 1, column 18: No match found for function signature foo_bar(<NUMERIC>)
  SELECT customer, foo_bar(id) FROM orders
                   ^`,
	}, {
		name: "window Top-N over an updating input",
		sql: `SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS rn
  FROM TABLE(TUMBLE(TABLE prices, DESCRIPTOR(ts), INTERVAL '1' MINUTE)))
WHERE rn <= 2`,
		want: `SQL validation error at line 1, column 1: WindowRank doesn't support consuming update and delete changes which is produced by node TableSourceScan(table=[[default_catalog, default_database, prices]], fields=[item, price, ts])
  SELECT * FROM (
  ^`,
	}, {
		name: "LIKE with a column the base table has",
		sql: `CREATE TABLE orders2 (
  customer STRING
) LIKE orders`,
		want: `SQL validation error at line 2, column 3: A column named 'customer' already exists in the base table.
    customer STRING
    ^`,
	}, {
		name: "LIKE with a second watermark",
		sql: `CREATE TABLE orders2 (
  WATERMARK FOR ts AS ts
) LIKE orders`,
		want: `SQL validation error at line 2, column 3: There already exists a watermark spec for column 'ts' in the base table. You might want to specify EXCLUDING WATERMARKS or OVERWRITING WATERMARKS.
    WATERMARK FOR ts AS ts
    ^`,
	}, {
		name: "INSERT assigning a column twice",
		sql:  `INSERT INTO totals (customer, customer) SELECT customer, customer FROM orders`,
		want: `SQL validation error at line 1, column 31: Target column 'customer' is assigned more than once
  INSERT INTO totals (customer, customer) SELECT customer, customer FROM orders
                                ^`,
	}, {
		name: "INSERT into an unknown column",
		sql:  `INSERT INTO totals (customer, nope) SELECT customer, customer FROM orders`,
		want: `SQL validation error at line 1, column 31: Unknown target column 'nope'
  INSERT INTO totals (customer, nope) SELECT customer, customer FROM orders
                                ^`,
	}, {
		name: "ORDER BY a column that is not a time attribute, without LIMIT",
		sql: `SELECT id, amount FROM orders
ORDER BY amount`,
		want: `SQL validation error at line 2, column 10: Sort on a non-time-attribute field is not supported.
  ORDER BY amount
           ^`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine(t)
			mustExecute(t, e, errorCatalog)
			_, err := e.Execute(testContext(t), tt.sql)
			if err == nil {
				t.Fatalf("no error for\n%s", tt.sql)
			}
			var parseErr *parser.Error
			var stmtErr *StatementError
			if !errors.As(err, &parseErr) && !errors.As(err, &stmtErr) {
				t.Errorf("error is a %T, not a positioned parse or statement error", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error:\n%s\nwant:\n%s", got, tt.want)
			}
			if jobs := e.Jobs(); len(jobs) != 0 {
				t.Errorf("a rejected statement started %d job(s)", len(jobs))
			}
		})
	}
}

// TestUndecodableAvroFailsQuery reads a topic holding records that are not
// Confluent-framed Avro through an avro-confluent table: the query must fail
// (not hang or skip the record) with an error naming the topic, partition and
// offset of the record and what is wrong with it.
func TestUndecodableAvroFailsQuery(t *testing.T) {
	cluster := startCluster(t)
	client, err := kgo.NewClient(kgo.SeedBrokers(cluster.BootstrapServers()), kgo.AllowAutoTopicCreation())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)

	tests := []struct {
		name   string
		values [][]byte // the records of the topic, in order
		want   string
	}{{
		// A record without a value (offset 0) is no row; the next one
		// fails.
		name:   "no magic byte",
		values: [][]byte{nil, []byte("not avro")},
		want:   "Source: garbage: kafka source: cannot decode value of record at topic 'garbage-no-magic-byte' partition 0 offset 1: invalid Avro record: unknown magic byte 0x6e (expected 0x00)",
	}, {
		name:   "too short for the header",
		values: [][]byte{{0, 0, 1}},
		want:   "Source: garbage: kafka source: cannot decode value of record at topic 'garbage-too-short-for-the-header' partition 0 offset 0: invalid Avro record: 3 bytes are too few for the Confluent header (5 bytes)",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			topic := "garbage-" + strings.ReplaceAll(tt.name, " ", "-")
			ctx := testContext(t)
			for _, v := range tt.values {
				if err := client.ProduceSync(ctx, &kgo.Record{Topic: topic, Value: v}).FirstErr(); err != nil {
					t.Fatal(err)
				}
			}
			e := newEngine(t)
			mustExecute(t, e, fmt.Sprintf(`CREATE TABLE garbage (
    title STRING,
    rating DOUBLE
) WITH (
    'connector' = 'kafka',
    'topic' = '%s',
    'properties.bootstrap.servers' = '%s',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = '%s'
);`, topic, cluster.BootstrapServers(), cluster.RegistryURL()))
			res := mustExecute(t, e, "SELECT * FROM garbage;")
			stream := res[0].Stream
			t.Cleanup(stream.Close)
			for {
				changes, ok, err := stream.Next(ctx)
				if err != nil {
					if got := err.Error(); got != tt.want {
						t.Errorf("query failed with\n%s\nwant\n%s", got, tt.want)
					}
					return
				}
				if !ok {
					t.Fatal("the query ended without an error")
				}
				t.Fatalf("the query emitted %d row(s) from undecodable records", len(changes))
			}
		})
	}
}

// TestLeftJoinRetractsPaddedRow reads a LEFT JOIN's changelog while its
// inputs are written one after the other: an order without a shipment is
// emitted padded with NULLs, and when its shipment arrives the padded row is
// deleted before the joined row is inserted, as Flink's streaming join does
// for an outer side that had no match.
// https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/joins/#outer-equi-join
func TestLeftJoinRetractsPaddedRow(t *testing.T) {
	cluster := startCluster(t)
	brokers := cluster.BootstrapServers()
	for _, parallelism := range []string{"1", "4"} {
		t.Run("parallelism="+parallelism, func(t *testing.T) {
			ctx := testContext(t)
			e := newEngine(t)
			if err := e.Config().Set(ConfParallelism, parallelism); err != nil {
				t.Fatal(err)
			}
			orders, shipments := "orders-"+parallelism, "shipments-"+parallelism
			mustExecute(t, e, kafkaTable("orders", "order_id INT, customer STRING", orders, brokers, "json")+
				kafkaTable("shipments", "ship_id STRING, order_id INT", shipments, brokers, "json"))
			res := mustExecute(t, e, `SELECT o.order_id, o.customer, s.ship_id
FROM orders o LEFT JOIN shipments s ON o.order_id = s.order_id;`)
			stream := res[0].Stream
			t.Cleanup(stream.Close)

			// One key changes per step, so the order of the changes is
			// fixed.
			steps := []struct {
				insert string
				want   []string
			}{{
				insert: "INSERT INTO orders VALUES (1, 'alice');",
				want:   []string{"+I[1, alice, <NULL>]"},
			}, {
				insert: "INSERT INTO orders VALUES (2, 'bob');",
				want:   []string{"+I[2, bob, <NULL>]"},
			}, {
				insert: "INSERT INTO shipments VALUES ('s1', 1);",
				want:   []string{"-D[1, alice, <NULL>]", "+I[1, alice, s1]"},
			}, {
				insert: "INSERT INTO shipments VALUES ('s9', 9);",
				want:   nil,
			}}
			for _, step := range steps {
				mustExecute(t, e, step.insert)
				if err := e.WaitQuiet(ctx, stream); err != nil {
					t.Fatal(err)
				}
				got := changelog(stream, stream.Drain())
				if strings.Join(got, "\n") != strings.Join(step.want, "\n") {
					t.Errorf("after %s\ngot  %q\nwant %q", step.insert, got, step.want)
				}
			}
		})
	}
}

// TestCreateTableAsRejectedKeepsNoTable: a CREATE TABLE ... AS SELECT whose
// query updates cannot write into an append-only kafka table; the statement
// fails as a whole, leaving neither the table nor a job behind.
func TestCreateTableAsRejectedKeepsNoTable(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, errorCatalog)
	_, err := e.Execute(testContext(t), `CREATE TABLE per_customer WITH (
    'connector' = 'kafka',
    'topic' = 'per-customer',
    'properties.bootstrap.servers' = 'localhost:9092',
    'format' = 'json'
) AS SELECT customer, COUNT(*) AS n FROM orders GROUP BY customer`)
	want := "Table sink 'default_catalog.default_database.per_customer' doesn't support consuming update changes which is produced by node GroupAggregate(groupBy=[customer], select=[customer, COUNT(*) AS n])"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error = %v, want one containing %q", err, want)
	}
	if _, ok := e.catalog.mem.Table(catalog.ObjectID{Catalog: catalog.DefaultCatalog, Database: catalog.DefaultDatabase, Object: "per_customer"}); ok {
		t.Error("the table of a rejected CREATE TABLE AS SELECT was kept")
	}
	if len(e.Jobs()) != 0 {
		t.Error("a rejected CREATE TABLE AS SELECT started a job")
	}
}

// TestDescribe lists a table's columns the way Flink's DESCRIBE does: type
// with time attribute, nullability, primary key, how computed and metadata
// columns are defined, and the watermark, expressions as Flink writes them
// (table.q of Flink's SQL client: `ts` - INTERVAL '1' SECOND).
func TestDescribe(t *testing.T) {
	e := newEngine(t)
	res := mustExecute(t, e, `CREATE TABLE clicks (
    ip STRING,
    ts TIMESTAMP(3),
    part INT METADATA FROM 'partition' VIRTUAL,
    pt AS PROCTIME(),
    host AS UPPER(SPLIT_INDEX(ip, ':', 0)) || '.' || CAST(part * (2 + 1) AS STRING),
    WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
    PRIMARY KEY (ip) NOT ENFORCED
) WITH ('connector' = 'upsert-kafka', 'topic' = 'clicks', 'properties.bootstrap.servers' = 'localhost:9092',
    'key.format' = 'raw', 'value.format' = 'json');
DESCRIBE clicks;`)
	got := res[len(res)-1].Rows
	want := [][]string{
		{"ip", "STRING", "FALSE", "PRI(ip)", "", ""},
		{"ts", "TIMESTAMP(3) *ROWTIME*", "TRUE", "", "", "`ts` - INTERVAL '5' SECOND"},
		{"part", "INT", "TRUE", "", "METADATA FROM 'partition' VIRTUAL", ""},
		{"pt", "TIMESTAMP_LTZ(3) *PROCTIME*", "FALSE", "", "AS PROCTIME()", ""},
		{"host", "STRING", "TRUE", "", "AS UPPER(SPLIT_INDEX(`ip`, ':', 0)) || '.' || CAST(`part` * (2 + 1) AS STRING)", ""},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("DESCRIBE rows:\n%q\nwant:\n%q", got, want)
	}
}

// TestDescribeComments: with a commented column, DESCRIBE and SHOW COLUMNS
// add Flink's comment column (ShowColumnsOperation); an unknown table is
// named in full (Flink's table.q).
func TestDescribeComments(t *testing.T) {
	e := newEngine(t)
	res := mustExecute(t, e, `CREATE TABLE c (a INT COMMENT 'the ''a''', b STRING) WITH ('connector' = 'datagen');
DESCRIBE c;
SHOW COLUMNS FROM c LIKE 'b';`)
	if got, want := res[1].Headers, []string{"name", "type", "null", "key", "extras", "watermark", "comment"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("DESCRIBE headers %q, want %q", got, want)
	}
	for i, want := range [][][]string{
		{{"a", "INT", "TRUE", "", "", "", "the 'a'"}, {"b", "STRING", "TRUE", "", "", "", ""}},
		{{"b", "STRING", "TRUE", "", "", "", ""}},
	} {
		if got := res[i+1].Rows; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("statement %d rows:\n%q\nwant:\n%q", i+2, got, want)
		}
	}
	_, err := e.Execute(testContext(t), "DESCRIBE nope")
	if want := "Tables or views with the identifier 'default_catalog.default_database.nope' doesn't exist."; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("DESCRIBE of an unknown table: %v, want %q", err, want)
	}
}

// TestOptionsHintErrorPointsAtTheHint: an OPTIONS hint is validated like
// the table's own options, and an error points at the hint's option.
func TestOptionsHintErrorPointsAtTheHint(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, errorCatalog)
	_, err := e.Execute(testContext(t), `SELECT id
FROM orders /*+ OPTIONS('scan.startup.mod' = 'earliest-offset') */`)
	if err == nil {
		t.Fatal("no error for an unknown option in a hint")
	}
	msg := err.Error()
	const head = "SQL validation error at line 2, column 25: invalid options for table 'orders': Unsupported options found for 'kafka'."
	const caret = "\n  FROM orders /*+ OPTIONS('scan.startup.mod' = 'earliest-offset') */\n                          ^"
	if !strings.HasPrefix(msg, head) || !strings.HasSuffix(msg, caret) {
		t.Errorf("error:\n%s\nwant it to start with\n%s\nand end with%s", msg, head, caret)
	}
}

// TestStatementSetIsAllOrNothing: a statement set whose second INSERT is
// invalid starts no job at all.
func TestStatementSetIsAllOrNothing(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, errorCatalog)
	_, err := e.Execute(testContext(t), `EXECUTE STATEMENT SET BEGIN
INSERT INTO customers_seen SELECT customer FROM orders;
INSERT INTO customers_seen SELECT nope FROM orders;
END;`)
	if err == nil || !strings.Contains(err.Error(), "Column 'nope' not found") {
		t.Fatalf("error = %v, want the second INSERT's unknown column", err)
	}
	if n := len(e.Jobs()); n != 0 {
		t.Fatalf("%d job(s) started for a failed statement set", n)
	}
}

// TestAlterTable renames a table and changes its options; SHOW CREATE TABLE
// renders the current definition, its computed column and watermark as
// Flink writes them (table.q: WATERMARK FOR `ts` AS `ts` - INTERVAL '1'
// SECOND), names with their backquotes doubled.
func TestAlterTable(t *testing.T) {
	e := newEngine(t)
	res := mustExecute(t, e, `CREATE TABLE t (a INT, ts TIMESTAMP(3), c AS a + 1, `+"`b``q` INT, d AS -`b``q`,"+` WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'kafka', 'topic' = 'd', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json');
ALTER TABLE t SET ('scan.startup.mode' = 'earliest-offset');
ALTER TABLE t RENAME TO t2;
ALTER TABLE t2 SET ('properties.group.id' = 'g');
ALTER TABLE t2 RESET ('properties.group.id');
SHOW CREATE TABLE t2;`)
	want := "CREATE TABLE `default_catalog`.`default_database`.`t2` (\n" +
		"  `a` INT,\n  `ts` TIMESTAMP(3),\n  `c` AS `a` + 1,\n  `b``q` INT,\n  `d` AS -`b``q`,\n  WATERMARK FOR `ts` AS `ts` - INTERVAL '1' SECOND\n" +
		") WITH (\n  'connector' = 'kafka',\n  'format' = 'json',\n" +
		"  'properties.bootstrap.servers' = 'localhost:9092',\n  'scan.startup.mode' = 'earliest-offset',\n  'topic' = 'd'\n)\n"
	if got := res[len(res)-1].Text; got != want {
		t.Errorf("SHOW CREATE TABLE:\n%s\nwant:\n%s", got, want)
	}
	if _, err := e.Execute(testContext(t), "SELECT * FROM t"); err == nil || !strings.Contains(err.Error(), "Object 't' not found") {
		t.Errorf("the old name still resolves: %v", err)
	}
	if _, err := e.Execute(testContext(t), "ALTER TABLE t2 RESET ()"); err == nil || !strings.Contains(err.Error(), "line 1, column 1: ALTER TABLE RESET does not support empty key") {
		t.Errorf("resetting no key: error %v, want Flink's", err)
	}
	if _, err := e.Execute(testContext(t), "ALTER TABLE t2 RESET ('format')"); err == nil || !strings.Contains(err.Error(), "invalid options for table 't2'") {
		t.Errorf("resetting the only format: error %v, want an option error", err)
	}
	mustExecute(t, e, "CREATE TABLE u (a INT) WITH ('connector' = 'datagen')")
	if _, err := e.Execute(testContext(t), "ALTER TABLE t2 RENAME TO u"); err == nil || !strings.Contains(err.Error(), "line 1, column 1: Table (or view) default_database.u already exists in Catalog default_catalog.") {
		t.Errorf("renaming onto an existing table: %v", err)
	}
}

// TestWaitJobs waits for every INSERT job: a bounded one finishes, a
// stopped one is not a failure, and one reading an undecodable record is
// reported with its job.
func TestWaitJobs(t *testing.T) {
	cluster := startCluster(t)
	client, err := kgo.NewClient(kgo.SeedBrokers(cluster.BootstrapServers()), kgo.AllowAutoTopicCreation())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	ctx := testContext(t)
	if err := client.ProduceSync(ctx, &kgo.Record{Topic: "waits", Value: []byte(`{"a": "x"}`)}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	e := newEngine(t)
	mustExecute(t, e, kafkaTable("bad", "a INT", "waits", cluster.BootstrapServers(), "json")+`
CREATE TABLE gen (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '100');
CREATE TABLE forever (a INT) WITH ('connector' = 'datagen', 'rows-per-second' = '10');
CREATE TABLE bh (a INT) WITH ('connector' = 'blackhole');
INSERT INTO bh SELECT a FROM gen;
INSERT INTO bh SELECT a FROM forever;`)
	jobs := e.Jobs()
	mustExecute(t, e, "STOP JOB '"+jobs[1].ID+"'")
	mustExecute(t, e, "INSERT INTO bh SELECT a FROM bad")
	err = e.WaitJobs(ctx)
	failed := e.Jobs()[2]
	want := "job " + failed.ID + " (insert-into_default_catalog.default_database.bh) failed: Source: bad: kafka source: cannot decode value of record at topic 'waits' partition 0 offset 0"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("WaitJobs: %v\nwant an error starting %q", err, want)
	}
	if s := jobs[0].Status(); s != "FINISHED" {
		t.Errorf("bounded job: %s", s)
	}
}

// TestCloseStopsJobs: Close stops the running jobs (CANCELED, not failed)
// and waits for them; a job that failed earlier stays reported, also by a
// WaitJobs whose context ended.
func TestCloseStopsJobs(t *testing.T) {
	cluster := startCluster(t)
	client, err := kgo.NewClient(kgo.SeedBrokers(cluster.BootstrapServers()), kgo.AllowAutoTopicCreation())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	ctx := testContext(t)
	if err := client.ProduceSync(ctx, &kgo.Record{Topic: "closes", Value: []byte(`{"a": "x"}`)}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	e := NewEngine()
	mustExecute(t, e, kafkaTable("bad", "a INT", "closes", cluster.BootstrapServers(), "json")+`
CREATE TABLE forever (a INT) WITH ('connector' = 'datagen', 'rows-per-second' = '10');
CREATE TABLE bh (a INT) WITH ('connector' = 'blackhole');
INSERT INTO bh SELECT a FROM forever;
INSERT INTO bh SELECT a FROM bad;`)
	running, failed := e.Jobs()[0], e.Jobs()[1]
	for !strings.HasPrefix(failed.Status(), "FAILED") {
		if ctx.Err() != nil {
			t.Fatalf("the job reading a bad record did not fail: %s", failed.Status())
		}
		time.Sleep(5 * time.Millisecond)
	}
	want := "job " + failed.ID + " (insert-into_default_catalog.default_database.bh) failed: "
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := e.WaitJobs(done); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), want) {
		t.Errorf("WaitJobs after its context ended: %v, want context.Canceled and %q", err, want)
	}
	e.Close()
	if s := running.Status(); s != "CANCELED" {
		t.Errorf("after Close, the running job is %s", s)
	}
	if err := e.JobFailures(); err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), running.ID) {
		t.Errorf("JobFailures: %v, want only %q", err, want)
	}
}
