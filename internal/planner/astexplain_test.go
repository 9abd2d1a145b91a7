package planner_test

import (
	"strings"
	"testing"

	_ "github.com/sluicesql/sluice/internal/connector/blackhole" // the sink of table.q
	_ "github.com/sluicesql/sluice/internal/connector/datagen"   // the source of table.q
	"github.com/sluicesql/sluice/internal/planner"
)

// astTables are the tables of Flink's planner tests, as its test
// utilities declare them (TableTestBase.addTableSource): MyTable(a, b, c),
// CalcTest's MyTable3, the tables A, B, t and s of JoinTest, T, src and
// (as RtTable) MyTable of AggregateTest, MyTable4 and MyTable5 of
// IntervalJoinTest; TvfTable is
// WindowTableFunctionTest's MyTable.
const astTables = `
CREATE TABLE MyTable (a INT, b BIGINT, c STRING) WITH ('connector' = 'datagen');
CREATE TABLE MyTable2 (a INT, b BIGINT, c STRING) WITH ('connector' = 'datagen');
CREATE TABLE MyTable3 (a INT, b DATE, c TIME, d TIMESTAMP(3)) WITH ('connector' = 'datagen');
CREATE TABLE A (a1 INT, a2 BIGINT, a3 BIGINT) WITH ('connector' = 'datagen');
CREATE TABLE B (b1 INT, b2 BIGINT, b3 BIGINT) WITH ('connector' = 'datagen');
CREATE TABLE t (a INT, b BIGINT, c STRING) WITH ('connector' = 'datagen');
CREATE TABLE s (x INT, y BIGINT, z STRING) WITH ('connector' = 'datagen');
CREATE TABLE TvfTable (
  a INT, b BIGINT, c STRING, d DECIMAL(10, 3), rowtime TIMESTAMP(3),
  proctime AS PROCTIME(),
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'datagen');
CREATE TABLE orders (
  ` + "`user`" + ` BIGINT NOT NULL,
  product VARCHAR(32),
  amount INT,
  ts TIMESTAMP(3),
  ptime AS PROCTIME(),
  PRIMARY KEY (` + "`user`" + `) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECONDS
) WITH ('connector' = 'datagen');
CREATE TABLE orders2 (
  ` + "`user`" + ` BIGINT NOT NULL,
  product VARCHAR(32),
  amount INT,
  ts TIMESTAMP(3),
  PRIMARY KEY (` + "`user`" + `) NOT ENFORCED
) WITH ('connector' = 'blackhole');
CREATE TABLE T (a INT, b BIGINT, c STRING, d BOOLEAN) WITH ('connector' = 'datagen');
CREATE TABLE RtTable (
  a INT, b BIGINT, c STRING, proctime AS PROCTIME(), rowtime TIMESTAMP(3),
  WATERMARK FOR rowtime AS rowtime
) WITH ('connector' = 'datagen');
CREATE TABLE src (id INT, cnt INT) WITH ('connector' = 'datagen');
CREATE TABLE msrc (sys_col STRING METADATA FROM 'topic' VIRTUAL, id INT, cnt INT) WITH (
  'connector' = 'kafka', 'topic' = 'src', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json');
CREATE TABLE MyTable4 (a INT, b BIGINT, c STRING, rowtime AS TO_TIMESTAMP_LTZ(b, 3), WATERMARK FOR rowtime AS rowtime) WITH ('connector' = 'datagen');
CREATE TABLE MyTable5 (a INT, b BIGINT, c STRING, rowtime AS TO_TIMESTAMP_LTZ(b, 3), WATERMARK FOR rowtime AS rowtime) WITH ('connector' = 'datagen');
CREATE TABLE T1 (a1 INT, b1 BIGINT) WITH ('connector' = 'datagen');
CREATE TABLE T2 (a2 INT, b2 BIGINT) WITH ('connector' = 'datagen');
CREATE TABLE T3 (a3 INT, b3 BIGINT) WITH ('connector' = 'datagen');
CREATE VIEW V4 AS SELECT a3 AS a4, b3 AS b4 FROM T3;
CREATE VIEW V5 AS SELECT T1.* FROM T1 JOIN T2 ON T1.a1 = T2.a2;
CREATE TABLE MySink1 (` + "`first`" + ` STRING) WITH ('connector' = 'blackhole');
`

// TestAbstractSyntaxTree: EXPLAIN's Abstract Syntax Tree writes each
// operator as Flink's EXPLAIN does, the expectations taken from Flink's
// test resources (named in each case; where the case's table has other
// columns in Flink, its query reads the same ones here, and a legacy
// source's ", source: [...]" in the scan's table is left out).
func TestAbstractSyntaxTree(t *testing.T) {
	cases := []struct {
		name, source, query, want string
	}{{
		name:   "scan, computed column, watermark, projection",
		source: "flink-sql-client/src/test/resources/sql/table.q, explain plan for select",
		query:  "SELECT `user`, product FROM orders",
		want: `LogicalProject(user=[$0], product=[$1])
+- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($3, 1000:INTERVAL SECOND)])
   +- LogicalProject(user=[$0], product=[$1], amount=[$2], ts=[$3], ptime=[PROCTIME()])
      +- LogicalTableScan(table=[[default_catalog, default_database, orders]])
`,
	}, {
		name:   "sink",
		source: "flink-sql-client/src/test/resources/sql/table.q, explain plan for insert",
		query:  "INSERT INTO orders2 SELECT `user`, product, amount, ts FROM orders",
		want: `LogicalSink(table=[default_catalog.default_database.orders2], fields=[user, product, amount, ts])
+- LogicalProject(user=[$0], product=[$1], amount=[$2], ts=[$3])
   +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($3, 1000:INTERVAL SECOND)])
      +- LogicalProject(user=[$0], product=[$1], amount=[$2], ts=[$3], ptime=[PROCTIME()])
         +- LogicalTableScan(table=[[default_catalog, default_database, orders]])
`,
	}, {
		name:   "filter",
		source: "flink-table-planner/src/test/resources/explain/testExecuteSqlWithExplainSelect.out",
		query:  "SELECT * FROM MyTable WHERE a > 10",
		want: `LogicalProject(a=[$0], b=[$1], c=[$2])
+- LogicalFilter(condition=[>($0, 10)])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		name:   "projection and filter",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/stream/sql/CalcTest.xml, testProjectAndFilter",
		query:  "SELECT a, b + 1 FROM MyTable WHERE b > 2",
		want: `LogicalProject(a=[$0], EXPR$1=[+($1, 1)])
+- LogicalFilter(condition=[>($1, 2)])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		// Calcite's SqlToRelConverter simplifies no condition: NOT of a
		// comparison stays a NOT, and AND true and 2 = 2 stay.
		name:   "NOT of a comparison, AND true",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/rules/logical/SimplifyFilterConditionRuleTest.xml, testSimpleCondition",
		query:  "SELECT * FROM MyTable WHERE (a = 1 AND b = 2) OR (NOT(a <> 1) AND c = '3') AND true AND 2 = 2",
		want: `LogicalProject(a=[$0], b=[$1], c=[$2])
+- LogicalFilter(condition=[OR(AND(=($0, 1), =($1, 2)), AND(NOT(<>($0, 1)), =($2, _UTF-16LE'3'), true, =(2, 2)))])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		name:   "subquery in FROM, a LogicalProject per query",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/rules/logical/FlinkCalcMergeRuleTest.xml, testCalcMergeWithSameDigest",
		query:  "SELECT a, b FROM (SELECT * FROM MyTable WHERE a = b) t WHERE b = a",
		want: `LogicalProject(a=[$0], b=[$1])
+- LogicalFilter(condition=[=($1, $0)])
   +- LogicalProject(a=[$0], b=[$1], c=[$2])
      +- LogicalFilter(condition=[=($0, $1)])
         +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		name:   "STATE_TTL hint on a join, ALIAS hints on its tables",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/hints/stream/StateTtlHintTest.xml, testSimpleJoinStateTtlHintWithEachSide",
		query:  "select /*+ STATE_TTL('T2' = '2d', 'T1' = '1d') */* from T1 join T2 on T1.a1 = T2.a2",
		want: `LogicalProject(a1=[$0], b1=[$1], a2=[$2], b2=[$3])
+- LogicalJoin(condition=[=($0, $2)], joinType=[inner], stateTtlHints=[[[STATE_TTL inheritPath:[0] options:{T1=1d, T2=2d}]]])
   :- LogicalTableScan(table=[[default_catalog, default_database, T1]], hints=[[[ALIAS inheritPath:[] options:[T1]]]])
   +- LogicalTableScan(table=[[default_catalog, default_database, T2]], hints=[[[ALIAS inheritPath:[] options:[T2]]]])
`,
	}, {
		name:   "STATE_TTL hint on a join under an aggregation",
		source: "StateTtlHintTest.xml, testJoinStateTtlHintWithAgg",
		query:  "select /*+ STATE_TTL('T1' = '1d', 'T2' = '2d')*/T1.b1, sum(T1.a1) from T1 join T2 on T1.b1 = T2.b2 group by T1.b1",
		want: `LogicalAggregate(group=[{0}], EXPR$1=[SUM($1)])
+- LogicalProject(b1=[$1], a1=[$0])
   +- LogicalJoin(condition=[=($1, $3)], joinType=[inner], stateTtlHints=[[[STATE_TTL inheritPath:[0, 0] options:{T1=1d, T2=2d}]]])
      :- LogicalTableScan(table=[[default_catalog, default_database, T1]], hints=[[[ALIAS inheritPath:[] options:[T1]]]])
      +- LogicalTableScan(table=[[default_catalog, default_database, T2]], hints=[[[ALIAS inheritPath:[] options:[T2]]]])
`,
	}, {
		name:   "STATE_TTL hint in a subquery, the subquery's ALIAS hint",
		source: "StateTtlHintTest.xml, testJoinStateTtlHintNotPropagateOutOfView",
		query:  "select T1.* from T1 join (select /*+ STATE_TTL('T1' = '2d')*/T1.* from T1 join T2 on T1.a1 = T2.a2) tmp on T1.a1 = tmp.a1",
		want: `LogicalProject(a1=[$0], b1=[$1])
+- LogicalJoin(condition=[=($0, $2)], joinType=[inner])
   :- LogicalTableScan(table=[[default_catalog, default_database, T1]], hints=[[[ALIAS inheritPath:[] options:[T1]]]])
   +- LogicalProject(a1=[$0], b1=[$1], hints=[[[ALIAS options:[tmp]]]])
      +- LogicalJoin(condition=[=($0, $2)], joinType=[inner], stateTtlHints=[[[STATE_TTL inheritPath:[0] options:{T1=2d}]]], hints=[[[ALIAS inheritPath:[0] options:[tmp]]]])
         :- LogicalTableScan(table=[[default_catalog, default_database, T1]], hints=[[[ALIAS inheritPath:[] options:[T1]]]])
         +- LogicalTableScan(table=[[default_catalog, default_database, T2]], hints=[[[ALIAS inheritPath:[] options:[T2]]]])
`,
	}, {
		name:   "STATE_TTL hint over a view, the view's ALIAS hint",
		source: "StateTtlHintTest.xml, testJoinStateTtlHintNotPropagateIntoView",
		query:  "select /*+ STATE_TTL('T1' = '1d')*/T1.* from T1 join V5 on T1.a1 = V5.a1",
		want: `LogicalProject(a1=[$0], b1=[$1])
+- LogicalJoin(condition=[=($0, $2)], joinType=[inner], stateTtlHints=[[[STATE_TTL inheritPath:[0] options:{T1=1d}]]])
   :- LogicalTableScan(table=[[default_catalog, default_database, T1]], hints=[[[ALIAS inheritPath:[] options:[T1]]]])
   +- LogicalProject(a1=[$0], b1=[$1], hints=[[[ALIAS options:[V5]]]])
      +- LogicalJoin(condition=[=($0, $2)], joinType=[inner], hints=[[[ALIAS inheritPath:[0] options:[V5]]]])
         :- LogicalTableScan(table=[[default_catalog, default_database, T1]])
         +- LogicalTableScan(table=[[default_catalog, default_database, T2]])
`,
	}, {
		name:   "STATE_TTL hint naming a view",
		source: "StateTtlHintTest.xml, testJoinStateTtlHintWithView",
		query:  "select /*+ STATE_TTL('T1' = '2d', 'V4' = '1d') */* from T1 join V4 on T1.a1 = V4.a4",
		want: `LogicalProject(a1=[$0], b1=[$1], a4=[$2], b4=[$3])
+- LogicalJoin(condition=[=($0, $2)], joinType=[inner], stateTtlHints=[[[STATE_TTL inheritPath:[0] options:{T1=2d, V4=1d}]]])
   :- LogicalTableScan(table=[[default_catalog, default_database, T1]], hints=[[[ALIAS inheritPath:[] options:[T1]]]])
   +- LogicalProject(a4=[$0], b4=[$1], hints=[[[ALIAS options:[V4]]]])
      +- LogicalTableScan(table=[[default_catalog, default_database, T3]])
`,
	}, {
		// No Flink test resource has an expression key; Calcite's
		// converter writes the OVER call's keys as the query does
		// (RexOver), the shape of RankTest.xml's column keys.
		name:   "ranking ordered by an expression, under a WHERE",
		source: "RankTest.xml, testRankEndLessThan1's shape with an expression key",
		query:  "SELECT a, rn FROM (SELECT a, ROW_NUMBER() OVER (PARTITION BY a ORDER BY b + 1 DESC) AS rn FROM MyTable WHERE c > 'x') WHERE rn <= 2",
		want: `LogicalProject(a=[$0], rn=[$1])
+- LogicalFilter(condition=[<=($1, 2)])
   +- LogicalProject(a=[$0], rn=[ROW_NUMBER() OVER (PARTITION BY $0 ORDER BY +($1, 1) DESC NULLS LAST)])
      +- LogicalFilter(condition=[>($2, _UTF-16LE'x')])
         +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		name:   "IN and a string literal",
		source: "CalcTest.xml, testIn",
		query:  "SELECT * FROM MyTable WHERE b IN (1, 3, 4, 5, 6) AND c = 'xx'",
		want: `LogicalProject(a=[$0], b=[$1], c=[$2])
+- LogicalFilter(condition=[AND(OR(=($1, 1), =($1, 3), =($1, 4), =($1, 5), =($1, 6)), =($2, _UTF-16LE'xx'))])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		name:   "NOT IN",
		source: "CalcTest.xml, testNotIn",
		query:  "SELECT * FROM MyTable WHERE b NOT IN (1, 3, 4, 5, 6) OR c = 'xx'",
		want: `LogicalProject(a=[$0], b=[$1], c=[$2])
+- LogicalFilter(condition=[OR(NOT(OR(=($1, 1), =($1, 3), =($1, 4), =($1, 5), =($1, 6))), =($2, _UTF-16LE'xx'))])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		name:   "IS NULL, non-ASCII literal",
		source: "CalcTest.xml, testOrWithIsNullPredicate and testFilterOnNonAsciiLiteral",
		query:  "SELECT * FROM MyTable WHERE a = 1 OR a = 10 OR a IS NULL OR c = '你好'",
		want: `LogicalProject(a=[$0], b=[$1], c=[$2])
+- LogicalFilter(condition=[OR(=($0, 1), =($0, 10), IS NULL($0), =($2, _UTF-16LE'你好'))])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		name:   "FILTER conditions",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/stream/sql/agg/AggregateTest.xml, testAggWithFilterClause",
		query:  "SELECT a, SUM(b) FILTER (WHERE c = 'A'), COUNT(DISTINCT c) FILTER (WHERE d is true), MAX(b) FROM T GROUP BY a",
		want: `LogicalAggregate(group=[{0}], EXPR$1=[SUM($1) FILTER $2], EXPR$2=[COUNT(DISTINCT $3) FILTER $4], EXPR$3=[MAX($1)])
+- LogicalProject(a=[$0], b=[$1], $f2=[IS TRUE(=($2, _UTF-16LE'A'))], c=[$2], $f4=[IS TRUE($3)])
   +- LogicalTableScan(table=[[default_catalog, default_database, T]])
`,
	}, {
		name:   "date and time literals",
		source: "CalcTest.xml, testFilterWithDateType",
		query:  "SELECT * FROM MyTable3 WHERE b = DATE '1984-07-12' AND c = TIME '14:34:24' AND d = TIMESTAMP '1984-07-12 14:34:24'",
		want: `LogicalProject(a=[$0], b=[$1], c=[$2], d=[$3])
+- LogicalFilter(condition=[AND(=($1, 1984-07-12), =($2, 14:34:24), =($3, 1984-07-12 14:34:24))])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable3]])
`,
	}, {
		name:   "decimal literals, ARRAY and MAP",
		source: "CalcTest.xml, testDecimalMapWithDifferentPrecision and testArrayType",
		query:  "SELECT MAP['a', 0.12, 'b', 0.5], ARRAY['Hi', 'Hello', c] FROM MyTable",
		want: `LogicalProject(EXPR$0=[MAP(_UTF-16LE'a', 0.12:DECIMAL(3, 2), _UTF-16LE'b', 0.5:DECIMAL(2, 1))], EXPR$1=[ARRAY(_UTF-16LE'Hi', _UTF-16LE'Hello', $2)])
+- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		name:   "union",
		source: "flink-table-planner/src/test/resources/explain/testExecuteSqlWithExplainDetailsAndUnion.out",
		query:  "SELECT * FROM MyTable UNION ALL SELECT * FROM MyTable2",
		want: `LogicalUnion(all=[true])
:- LogicalProject(a=[$0], b=[$1], c=[$2])
:  +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
+- LogicalProject(a=[$0], b=[$1], c=[$2])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable2]])
`,
	}, {
		name:   "statement set sink",
		source: "flink-table-planner/src/test/resources/explain/testStatementSet.out",
		query:  "INSERT INTO MySink1 SELECT c AS `first` FROM MyTable",
		want: `LogicalSink(table=[default_catalog.default_database.MySink1], fields=[first])
+- LogicalProject(first=[$2])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		name:   "full join",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/stream/sql/join/JoinTest.xml, testFullJoin",
		query:  "SELECT a1, b1 FROM A FULL JOIN B ON a1 = b1",
		want: `LogicalProject(a1=[$0], b1=[$3])
+- LogicalJoin(condition=[=($0, $3)], joinType=[full])
   :- LogicalTableScan(table=[[default_catalog, default_database, A]])
   +- LogicalTableScan(table=[[default_catalog, default_database, B]])
`,
	}, {
		name:   "join with a residual condition",
		source: "JoinTest.xml, testFullJoinNonEqui",
		query:  "SELECT a1, b1 FROM A FULL JOIN B ON a1 = b1 AND a2 > b2",
		want: `LogicalProject(a1=[$0], b1=[$3])
+- LogicalJoin(condition=[AND(=($0, $3), >($1, $4))], joinType=[full])
   :- LogicalTableScan(table=[[default_catalog, default_database, A]])
   +- LogicalTableScan(table=[[default_catalog, default_database, B]])
`,
	}, {
		name:   "join without keys, IS NULL",
		source: "JoinTest.xml, testDependentConditionDerivationInnerJoinWithNull",
		query:  "SELECT * FROM t JOIN s ON (a = 1 AND x = 1) OR (a = 2 AND y is null)",
		want: `LogicalProject(a=[$0], b=[$1], c=[$2], x=[$3], y=[$4], z=[$5])
+- LogicalJoin(condition=[OR(AND(=($0, 1), =($3, 1)), AND(=($0, 2), IS NULL($4)))], joinType=[inner])
   :- LogicalTableScan(table=[[default_catalog, default_database, t]])
   +- LogicalTableScan(table=[[default_catalog, default_database, s]])
`,
	}, {
		name:   "interval join condition, computed rowtime",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/stream/sql/join/IntervalJoinTest.xml, testIntervalJoinToRegularJoin",
		query: `SELECT t4.a FROM MyTable4 t4
 JOIN MyTable5 t5
 ON t4.a = t5.a
 AND t4.rowtime BETWEEN t5.rowtime - INTERVAL '5' SECOND AND t5.rowtime + INTERVAL '5' SECOND`,
		want: `LogicalProject(a=[$0])
+- LogicalJoin(condition=[AND(=($0, $4), >=($3, -($7, 5000:INTERVAL SECOND)), <=($3, +($7, 5000:INTERVAL SECOND)))], joinType=[inner])
   :- LogicalWatermarkAssigner(rowtime=[rowtime], watermark=[$3])
   :  +- LogicalProject(a=[$0], b=[$1], c=[$2], rowtime=[TO_TIMESTAMP_LTZ($1, 3)])
   :     +- LogicalTableScan(table=[[default_catalog, default_database, MyTable4]])
   +- LogicalWatermarkAssigner(rowtime=[rowtime], watermark=[$3])
      +- LogicalProject(a=[$0], b=[$1], c=[$2], rowtime=[TO_TIMESTAMP_LTZ($1, 3)])
         +- LogicalTableScan(table=[[default_catalog, default_database, MyTable5]])
`,
	}, {
		name:   "aggregates under a join",
		source: "JoinTest.xml, testFullJoinWithEqualPk",
		query:  "SELECT a1, b1 FROM (SELECT SUM(a2) AS a2, a1 FROM A GROUP BY a1) FULL JOIN (SELECT SUM(b2) AS b2, b1 FROM B GROUP BY b1) ON a1 = b1",
		want: `LogicalProject(a1=[$1], b1=[$3])
+- LogicalJoin(condition=[=($1, $3)], joinType=[full])
   :- LogicalProject(a2=[$1], a1=[$0])
   :  +- LogicalAggregate(group=[{0}], a2=[SUM($1)])
   :     +- LogicalProject(a1=[$0], a2=[$1])
   :        +- LogicalTableScan(table=[[default_catalog, default_database, A]])
   +- LogicalProject(b2=[$1], b1=[$0])
      +- LogicalAggregate(group=[{0}], b2=[SUM($1)])
         +- LogicalProject(b1=[$0], b2=[$1])
            +- LogicalTableScan(table=[[default_catalog, default_database, B]])
`,
	}, {
		name:   "COUNT(*)",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/stream/sql/agg/AggregateTest.xml, testCountStart",
		query:  "SELECT COUNT(*) FROM src",
		want: `LogicalAggregate(group=[{}], EXPR$0=[COUNT()])
+- LogicalTableScan(table=[[default_catalog, default_database, src]])
`,
	}, {
		// Flink's metadata column reads the key sys_col.
		name:   "metadata column",
		source: "AggregateTest.xml, testCountStartWithMetadata",
		query:  "SELECT COUNT(*) FROM msrc",
		want: `LogicalAggregate(group=[{}], EXPR$0=[COUNT()])
+- LogicalProject(sys_col=[$2], id=[$0], cnt=[$1])
   +- LogicalTableScan(table=[[default_catalog, default_database, msrc, metadata=[topic]]])
`,
	}, {
		name:   "aggregation of an aggregation",
		source: "AggregateTest.xml, testAvgWithRetract",
		query:  "SELECT AVG(a) FROM (SELECT AVG(a) AS a FROM T GROUP BY b)",
		want: `LogicalAggregate(group=[{}], EXPR$0=[AVG($0)])
+- LogicalProject(a=[$1])
   +- LogicalAggregate(group=[{0}], a=[AVG($1)])
      +- LogicalProject(b=[$1], a=[$0])
         +- LogicalTableScan(table=[[default_catalog, default_database, T]])
`,
	}, {
		name:   "watermark after a computed column, decimal literal",
		source: "AggregateTest.xml, testColumnIntervalValidation",
		query:  "SELECT b, SUM(a) FROM RtTable WHERE a > 0.1 and a < 10 GROUP BY b",
		want: `LogicalAggregate(group=[{0}], EXPR$1=[SUM($1)])
+- LogicalProject(b=[$1], a=[$0])
   +- LogicalFilter(condition=[AND(>($0, 0.1:DECIMAL(2, 1)), <($0, 10))])
      +- LogicalWatermarkAssigner(rowtime=[rowtime], watermark=[$4])
         +- LogicalProject(a=[$0], b=[$1], c=[$2], proctime=[PROCTIME()], rowtime=[$3])
            +- LogicalTableScan(table=[[default_catalog, default_database, RtTable]])
`,
	}, {
		name:   "ORDER BY ... LIMIT",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/stream/sql/SortLimitTest.xml, testOrderByLimit",
		query:  "SELECT * FROM MyTable ORDER BY a, b DESC LIMIT 10",
		want: `LogicalSort(sort0=[$0], sort1=[$1], dir0=[ASC-nulls-first], dir1=[DESC-nulls-last], fetch=[10])
+- LogicalProject(a=[$0], b=[$1], c=[$2])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		name:   "ranking",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/stream/sql/RankTest.xml, testRankEndLessThan1",
		query:  "SELECT * FROM (SELECT a, b, c, ROW_NUMBER() OVER (PARTITION BY a ORDER BY b DESC) AS row_num FROM MyTable) WHERE row_num <= 1",
		want: `LogicalProject(a=[$0], b=[$1], c=[$2], row_num=[$3])
+- LogicalFilter(condition=[<=($3, 1)])
   +- LogicalProject(a=[$0], b=[$1], c=[$2], row_num=[ROW_NUMBER() OVER (PARTITION BY $0 ORDER BY $1 DESC NULLS LAST)])
      +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		// The outer query reads the rankings by name (Flink's casts
		// them, and the binder keeps no name for a ranking only an
		// expression reads: it prints w0$o0).
		name:   "ranking over a filtered ranking",
		source: "RankTest.xml, testRankWithAnotherRankAsInput",
		query: `SELECT rna, rnb FROM (
  SELECT *, row_number() over (partition by a order by b desc) AS rnb
  FROM (
    SELECT *, row_number() over (partition by a, c order by b desc) AS rna
    FROM MyTable
  )
  WHERE rna <= 100
)
WHERE rnb <= 200`,
		want: `LogicalProject(rna=[$3], rnb=[$4])
+- LogicalFilter(condition=[<=($4, 200)])
   +- LogicalProject(a=[$0], b=[$1], c=[$2], rna=[$3], rnb=[ROW_NUMBER() OVER (PARTITION BY $0 ORDER BY $1 DESC NULLS LAST)])
      +- LogicalFilter(condition=[<=($3, 100)])
         +- LogicalProject(a=[$0], b=[$1], c=[$2], rna=[ROW_NUMBER() OVER (PARTITION BY $0, $2 ORDER BY $1 DESC NULLS LAST)])
            +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		name:   "CAST",
		source: "RankTest.xml, testRankWithAnotherRankAsInput (CAST($5):INTEGER NOT NULL)",
		query:  "SELECT CAST(b AS INT), CAST(a AS STRING) FROM MyTable",
		want: `LogicalProject(EXPR$0=[CAST($1):INTEGER], EXPR$1=[CAST($0):VARCHAR(2147483647) CHARACTER SET "UTF-16LE"])
+- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])
`,
	}, {
		name:   "values",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/stream/sql/ValuesTest.xml, testSingleRow",
		query:  "SELECT * FROM (VALUES (1, 2, 3)) AS T(a, b, c)",
		want: `LogicalProject(a=[$0], b=[$1], c=[$2])
+- LogicalValues(tuples=[[{ 1, 2, 3 }]])
`,
	}, {
		name:   "CUMULATE window table function",
		source: "flink-table-planner/src/test/resources/org/apache/flink/table/planner/plan/stream/sql/WindowTableFunctionTest.xml, testCumulateTVF",
		query:  "SELECT * FROM TABLE(CUMULATE(TABLE TvfTable, DESCRIPTOR(rowtime), INTERVAL '10' MINUTE, INTERVAL '1' HOUR))",
		want: `LogicalProject(a=[$0], b=[$1], c=[$2], d=[$3], rowtime=[$4], proctime=[$5], window_start=[$6], window_end=[$7], window_time=[$8])
+- LogicalTableFunctionScan(invocation=[CUMULATE(DESCRIPTOR($4), 600000:INTERVAL MINUTE, 3600000:INTERVAL HOUR)], rowType=[RecordType(INTEGER a, BIGINT b, VARCHAR(2147483647) c, DECIMAL(10, 3) d, TIMESTAMP(3) *ROWTIME* rowtime, TIMESTAMP_LTZ(3) *PROCTIME* proctime, TIMESTAMP(3) window_start, TIMESTAMP(3) window_end, TIMESTAMP(3) *ROWTIME* window_time)])
   +- LogicalProject(a=[$0], b=[$1], c=[$2], d=[$3], rowtime=[$4], proctime=[$5])
      +- LogicalWatermarkAssigner(rowtime=[rowtime], watermark=[-($4, 1000:INTERVAL SECOND)])
         +- LogicalProject(a=[$0], b=[$1], c=[$2], d=[$3], rowtime=[$4], proctime=[PROCTIME()])
            +- LogicalTableScan(table=[[default_catalog, default_database, TvfTable]])
`,
	}, {
		name:   "HOP window table function",
		source: "WindowTableFunctionTest.xml, testHopTVF",
		query:  "SELECT * FROM TABLE(HOP(TABLE TvfTable, DESCRIPTOR(rowtime), INTERVAL '5' MINUTE, INTERVAL '10' MINUTE))",
		want: `LogicalProject(a=[$0], b=[$1], c=[$2], d=[$3], rowtime=[$4], proctime=[$5], window_start=[$6], window_end=[$7], window_time=[$8])
+- LogicalTableFunctionScan(invocation=[HOP(DESCRIPTOR($4), 300000:INTERVAL MINUTE, 600000:INTERVAL MINUTE)], rowType=[RecordType(INTEGER a, BIGINT b, VARCHAR(2147483647) c, DECIMAL(10, 3) d, TIMESTAMP(3) *ROWTIME* rowtime, TIMESTAMP_LTZ(3) *PROCTIME* proctime, TIMESTAMP(3) window_start, TIMESTAMP(3) window_end, TIMESTAMP(3) *ROWTIME* window_time)])
   +- LogicalProject(a=[$0], b=[$1], c=[$2], d=[$3], rowtime=[$4], proctime=[$5])
      +- LogicalWatermarkAssigner(rowtime=[rowtime], watermark=[-($4, 1000:INTERVAL SECOND)])
         +- LogicalProject(a=[$0], b=[$1], c=[$2], d=[$3], rowtime=[$4], proctime=[PROCTIME()])
            +- LogicalTableScan(table=[[default_catalog, default_database, TvfTable]])
`,
	}, {
		name:   "SESSION window table function with partition keys",
		source: "WindowTableFunctionTest.xml, testSessionTVFWithPartitionKeys",
		query:  "SELECT * FROM TABLE(SESSION(TABLE TvfTable PARTITION BY (b, a), DESCRIPTOR(rowtime), INTERVAL '15' MINUTE))",
		want: `LogicalProject(a=[$0], b=[$1], c=[$2], d=[$3], rowtime=[$4], proctime=[$5], window_start=[$6], window_end=[$7], window_time=[$8])
+- LogicalTableFunctionScan(invocation=[SESSION(PARTITION BY($1, $0), DESCRIPTOR($4), 900000:INTERVAL MINUTE)], rowType=[RecordType(INTEGER a, BIGINT b, VARCHAR(2147483647) c, DECIMAL(10, 3) d, TIMESTAMP(3) *ROWTIME* rowtime, TIMESTAMP_LTZ(3) *PROCTIME* proctime, TIMESTAMP(3) window_start, TIMESTAMP(3) window_end, TIMESTAMP(3) *ROWTIME* window_time)])
   +- LogicalProject(a=[$0], b=[$1], c=[$2], d=[$3], rowtime=[$4], proctime=[$5])
      +- LogicalWatermarkAssigner(rowtime=[rowtime], watermark=[-($4, 1000:INTERVAL SECOND)])
         +- LogicalProject(a=[$0], b=[$1], c=[$2], d=[$3], rowtime=[$4], proctime=[PROCTIME()])
            +- LogicalTableScan(table=[[default_catalog, default_database, TvfTable]])
`,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, got := planLogical(t, astTables+c.query+";")
			if got != c.want {
				t.Errorf("%s\nprints\n%s\nnot, as Flink (%s),\n%s", c.query, got, c.source, c.want)
			}
		})
	}
}

// TestAbstractSyntaxTreeSection: the section joins the trees of a
// statement set's sinks with a blank line between them, as Flink's
// testStatementSet.out shows.
func TestAbstractSyntaxTreeSection(t *testing.T) {
	_, first := planLogical(t, astTables+"INSERT INTO MySink1 SELECT c FROM MyTable;")
	_, second := planLogical(t, astTables+"INSERT INTO MySink1 SELECT c FROM MyTable2;")
	got := planner.Explain(planner.AbstractSyntaxTree(first, second))
	want := "== Abstract Syntax Tree ==\n" + first + "\n" + second
	if got != want || strings.Count(got, "LogicalSink(") != 2 {
		t.Errorf("the section is\n%s", got)
	}
}

// TestJoinStateTTLHintInPhysicalPlan: a regular join shows the retention
// a STATE_TTL hint gives each of its sides, as Flink's Join does
// (StateTtlHintTest.xml, testJoinStateTtlHintOnlyWithRightSide and
// testSimpleJoinStateTtlHintWithEachSide; Flink's line also has the
// inputs' unique keys, leftInputSpec and rightInputSpec, which Sluice's
// has not).
func TestJoinStateTTLHintInPhysicalPlan(t *testing.T) {
	for query, want := range map[string]string{
		"select /*+ STATE_TTL('T2' = '2d') */* from T1 join T2 on T1.a1 = T2.a2":              "select=[a1, b1, a2, b2], stateTtlHints=[[[STATE_TTL options:{RIGHT=2d}]]])",
		"select /*+ STATE_TTL('T2' = '2d', 'T1' = '1d') */* from T1 join T2 on T1.a1 = T2.a2": "select=[a1, b1, a2, b2], stateTtlHints=[[[STATE_TTL options:{LEFT=1d, RIGHT=2d}]]])",
		"select * from T1 join T2 on T1.a1 = T2.a2":                                           "select=[a1, b1, a2, b2])",
	} {
		root, _ := planLogical(t, astTables+query+";")
		if got := planner.PhysicalPlan(false, root).Body; !strings.Contains(got, want) {
			t.Errorf("%s\nprints\n%s\nwith no %s", query, got, want)
		}
	}
}
