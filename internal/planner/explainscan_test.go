package planner_test

import (
	"testing"

	_ "github.com/sluicesql/sluice/internal/connector/kafka"   // a source that takes the watermark
	_ "github.com/sluicesql/sluice/internal/connector/nexmark" // a source whose projection is Sluice's own
	"github.com/sluicesql/sluice/internal/planner"
)

// TestScanShapes: EXPLAIN's execution plan shows a table's scan as
// Flink's optimizer leaves it, the expectations taken from Flink's test
// resources (named in each case): a source that takes the watermark in
// Flink (Kafka) lists it in its scan, any other has a WatermarkAssigner
// over a Calc of the columns read.
func TestScanShapes(t *testing.T) {
	cases := []struct {
		name, source, query, want string
	}{{
		name:   "datagen: projection pushed below the watermark assigner",
		source: "flink-sql-client/src/test/resources/sql/table.q, explain plan for select",
		query:  "SELECT `user`, product FROM orders",
		want: `Calc(select=[user, product])
+- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
   +- Calc(select=[user, product, ts])
      +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[user, product, amount, ts])
`,
	}, {
		name:   "datagen: an identity projection above the assigner is not shown",
		source: "flink-sql-client/src/test/resources/sql/table.q, explain plan for insert",
		query:  "INSERT INTO orders2 SELECT `user`, product, amount, ts FROM orders",
		want: `Sink(table=[default_catalog.default_database.orders2], fields=[user, product, amount, ts])
+- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
   +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[user, product, amount, ts])
`,
	}, {
		// testAggWithMiniBatch without its mini-batch assigner: the
		// columns in the order the aggregation's input reads them.
		name:   "datagen: columns in the order the query reads them",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/stream/sql/agg/AggregateTest.xml, testAggWithMiniBatch",
		query:  "SELECT b, COUNT(DISTINCT a), MAX(b) FROM RtTable GROUP BY b",
		want: `GroupAggregate(groupBy=[b], select=[b, COUNT(DISTINCT a) AS EXPR$1, MAX(b) AS EXPR$2])
+- Exchange(distribution=[hash[b]])
   +- Calc(select=[b, a])
      +- WatermarkAssigner(rowtime=[rowtime], watermark=[rowtime])
         +- Calc(select=[b, a, rowtime])
            +- TableSourceScan(table=[[default_catalog, default_database, RtTable]], fields=[a, b, c, rowtime])
`,
	}, {
		// The nexmark benchmark's NexmarkTableSource implements neither
		// push-down (nexmark-flink/src/main/java/com/github/nexmark/flink/
		// source/NexmarkTableSource.java): Sluice's scan reads the columns
		// the query uses, and EXPLAIN shows Flink's shape, as for datagen.
		name:   "nexmark: neither the projection nor the watermark in the scan",
		source: "flink-sql-client/src/test/resources/sql/table.q, explain plan for select",
		query:  "SELECT auction, price FROM bid",
		want: `Calc(select=[auction, price])
+- WatermarkAssigner(rowtime=[dateTime], watermark=[(dateTime - 4000:INTERVAL SECOND)])
   +- Calc(select=[auction, price, dateTime])
      +- TableSourceScan(table=[[default_catalog, default_database, bid]], fields=[auction, bidder, price, channel, url, dateTime, extra])
`,
	}, {
		// Flink 1.18 on adds the emit strategy (WatermarkPushDownSpec's
		// digest).
		name:   "kafka: watermark in the scan, computed time attribute reinterpreted",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/stream/sql/SourceWatermarkTest.xml, testWatermarkOnCurrentRowTimestampFunction",
		query:  "SELECT * FROM timeTestTable",
		want: `Calc(select=[a, b, Reinterpret(TO_TIMESTAMP_LTZ(b, 0)) AS rowtime])
+- TableSourceScan(table=[[default_catalog, default_database, timeTestTable, watermark=[TO_TIMESTAMP_LTZ(b, 0)], watermarkEmitStrategy=[on-periodic]]], fields=[a, b])
`,
	}, {
		name:   "kafka: watermark on a computed column, a projection passing the columns on not shown",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/stream/sql/SourceWatermarkTest.xml, testSimpleWatermarkPushDown",
		query:  "SELECT a, b, c FROM VirtualTable",
		want: `TableSourceScan(table=[[default_catalog, default_database, VirtualTable, watermark=[-(+(c, 5000:INTERVAL SECOND), 5000:INTERVAL SECOND)], watermarkEmitStrategy=[on-periodic]]], fields=[a, b, c])
`,
	}}
	const kafka = `'connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json'`
	tables := astTables + `
CREATE TABLE timeTestTable (a INT, b BIGINT, rowtime AS TO_TIMESTAMP_LTZ(b, 0), WATERMARK FOR rowtime AS rowtime) WITH (` + kafka + `);
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND) WITH ('connector' = 'nexmark', 'kind' = 'bid');
CREATE TABLE VirtualTable (a INT, b BIGINT, c TIMESTAMP(3), d AS c + INTERVAL '5' SECOND, WATERMARK FOR d AS d - INTERVAL '5' SECOND) WITH (` + kafka + `);
`
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, _ := planLogical(t, tables+c.query+";")
			p, err := planner.ExecutionPlan(planner.Reuse{SubPlans: true, Sources: true}, root)
			if err != nil {
				t.Fatal(err)
			}
			if got := planner.OptimizedExecutionPlan(p).Body; got != c.want {
				t.Errorf("%s\nprints\n%s\nnot, as Flink (%s),\n%s", c.query, got, c.source, c.want)
			}
		})
	}
}
