package planner_test

import (
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/planner"
)

const ordersDDL = `CREATE TABLE orders (
    order_id INT,
    customer STRING,
    amount DOUBLE,
    order_time TIMESTAMP(3),
    WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH ('connector' = 'kafka', 'topic' = 'orders', 'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset', 'value.format' = 'json');
`

// TestRankRangeAcrossQueries: the rule RankRange sees the filters of
// every query over a ranking, merged into one, so a row-number bound in
// an outer query still makes a Top-N when an inner query filters other
// columns; the other conditions stay above the Rank.
func TestRankRangeAcrossQueries(t *testing.T) {
	got := planner.PhysicalPlan(true, plan(t, ordersDDL+`
SELECT customer, amount, row_num FROM (
  SELECT * FROM (
    SELECT customer, amount, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY amount DESC) AS row_num FROM orders)
  WHERE amount > 10 AND customer <> 'x')
WHERE row_num <= 3`)).Body
	for _, want := range []string{
		"Calc(select=[customer, amount, w0$o0 AS row_num], where=[AND(>(amount, 10), <>(customer, 'x'))]",
		"Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=3]",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in the plan:\n%s", want, got)
		}
	}
}

// TestDeduplicateAfterRankRange: the rule Deduplicate turns the Top-1 the
// rule RankRange made of a bound in an outer query, over a time
// attribute, into a deduplication.
func TestDeduplicateAfterRankRange(t *testing.T) {
	got := planner.PhysicalPlan(true, plan(t, ordersDDL+`
SELECT order_id, customer FROM (
  SELECT * FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY order_time DESC) AS rn FROM orders)
  WHERE amount > 10)
WHERE rn = 1`)).Body
	want := "Deduplicate(keep=[LastRow], key=[customer], order=[ROWTIME]"
	if !strings.Contains(got, want) {
		t.Errorf("want %q in the plan:\n%s", want, got)
	}
}

// TestDeduplicateOverIntervalJoin: the rule Deduplicate reads the
// changelog of its input as the rule IntervalJoin left it: an outer
// interval join appends (a regular outer join would retract).
func TestDeduplicateOverIntervalJoin(t *testing.T) {
	got := planner.PhysicalPlan(true, plan(t, ordersDDL+`
CREATE TABLE shipments (
    order_id INT,
    ship_time TIMESTAMP(3),
    WATERMARK FOR ship_time AS ship_time
) WITH ('connector' = 'kafka', 'topic' = 'shipments', 'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset', 'value.format' = 'json');
SELECT order_id, customer FROM (
  SELECT o.order_id, o.customer, ROW_NUMBER() OVER (PARTITION BY o.customer ORDER BY o.order_time) AS rn
  FROM orders o LEFT JOIN shipments s
    ON o.order_id = s.order_id AND s.ship_time BETWEEN o.order_time AND o.order_time + INTERVAL '1' HOUR)
WHERE rn = 1`)).Body
	for _, want := range []string{"Deduplicate(keep=[FirstRow], key=[customer], order=[ROWTIME]", "IntervalJoin(joinType=[LeftOuterJoin]"} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in the plan:\n%s", want, got)
		}
	}
}

// TestMatchOverDeduplication: MATCH_RECOGNIZE checks the changelog of its
// input as the rules leave it: a deduplication keeping each key's first
// row by processing time appends.
func TestMatchOverDeduplication(t *testing.T) {
	got := planner.PhysicalPlan(true, plan(t, `
CREATE TABLE ticker (
    symbol STRING,
    price INT,
    proctime AS PROCTIME()
) WITH ('connector' = 'kafka', 'topic' = 'ticker', 'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset', 'value.format' = 'json');
SELECT * FROM (
  SELECT symbol, price, proctime FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY symbol, price ORDER BY proctime) AS rn FROM ticker)
  WHERE rn = 1)
MATCH_RECOGNIZE (
  ORDER BY proctime
  MEASURES A.price AS aPrice
  PATTERN (A B)
  DEFINE A AS A.price > 10
) AS T`)).Body
	if want := "Deduplicate(keep=[FirstRow], key=[symbol, price], order=[PROCTIME]"; !strings.Contains(got, want) {
		t.Errorf("want %q in the plan:\n%s", want, got)
	}
}

// TestLateralTopOneDeduplicates: the Top-1 of a correlated LATERAL
// subquery ordered by a time attribute is a deduplication, as the rule
// Deduplicate makes of any Top-1.
func TestLateralTopOneDeduplicates(t *testing.T) {
	got := planner.PhysicalPlan(true, plan(t, ordersDDL+`
CREATE TABLE customers (id INT, name STRING) WITH ('connector' = 'kafka', 'topic' = 'customers',
    'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset', 'value.format' = 'json');
SELECT c.name, t.amount FROM customers c CROSS JOIN LATERAL (
  SELECT amount FROM orders o WHERE o.order_id = c.id ORDER BY order_time LIMIT 1) AS t`)).Body
	if want := "Deduplicate(keep=[FirstRow], key=[$k0], order=[ROWTIME]"; !strings.Contains(got, want) {
		t.Errorf("want %q in the plan:\n%s", want, got)
	}
}

// TestRankRangeInJoinCondition: a bound on the row number in the condition
// of an inner join filters that side before the join, so the rule
// RankRange makes a Top-N of it.
func TestRankRangeInJoinCondition(t *testing.T) {
	got := planner.PhysicalPlan(true, plan(t, ordersDDL+`
CREATE TABLE customers (id INT, name STRING) WITH ('connector' = 'kafka', 'topic' = 'customers',
    'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset', 'value.format' = 'json');
SELECT c.id, r.amount FROM (
  SELECT customer, amount, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY amount DESC) AS row_num FROM orders) r
JOIN customers c ON r.customer = c.name AND r.row_num <= 2`)).Body
	if want := "rankRange=[rankStart=1, rankEnd=2]"; !strings.Contains(got, want) {
		t.Errorf("want %q in the plan:\n%s", want, got)
	}
}

// bidDDL is the table of Flink's window aggregation examples
// (https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/window-agg/).
const bidDDL = `CREATE TABLE bid (
    bidtime TIMESTAMP(3),
    price DECIMAL(10, 2),
    item STRING,
    supplier_id STRING,
    WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND
) WITH ('connector' = 'kafka', 'topic' = 'bid', 'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset', 'value.format' = 'json');
`

// TestWindowAggregateFires: the rule WindowAggregate makes a window
// aggregation of an aggregation that groups by window_start and
// window_end of a window table function (through a subquery that passes
// them on, with grouping sets, in any order of the keys), by a legacy
// group window, or that is a SELECT DISTINCT of the window's columns, as
// Flink's StreamPhysicalWindowAggregateRule matches any aggregation whose
// grouping contains the window's start and end
// (WindowUtil.groupingContainsWindowStartEnd).
func TestWindowAggregateFires(t *testing.T) {
	for name, tc := range map[string]struct{ query, want string }{
		"tvf": {`SELECT window_end, item, SUM(price) AS s FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
GROUP BY item, window_end, window_start`,
			"WindowAggregate(groupBy=[item], window=[TUMBLE(time_col=[bidtime], size=[10 min])], select=[item, SUM(price) AS s, start('w$) AS window_start, end('w$) AS window_end, rowtime('w$) AS window_time]"},
		"subquery": {`SELECT ws, we, c, COUNT(*) AS n FROM (
  SELECT window_start AS ws, window_end AS we, UPPER(item) AS c FROM TABLE(HOP(TABLE bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES))
  WHERE price > 1)
GROUP BY ws, we, c`,
			"WindowAggregate(groupBy=[c], window=[HOP(time_col=[bidtime], size=[10 min], slide=[5 min])], select=[c, COUNT(*) AS n, start('w$) AS window_start"},
		"grouping sets": {`SELECT window_start, item, COUNT(*) AS n FROM TABLE(CUMULATE(TABLE bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES, INTERVAL '10' MINUTES))
GROUP BY window_start, window_end, ROLLUP (item)`,
			"WindowAggregate(groupBy=[item, $e], window=[CUMULATE(time_col=[bidtime], max_size=[10 min], step=[2 min])], select=[item, $e, COUNT(*) AS n"},
		"group window": {`SELECT item, TUMBLE_END(bidtime, INTERVAL '10' MINUTE) AS e, COUNT(*) AS n FROM bid
GROUP BY TUMBLE(bidtime, INTERVAL '10' MINUTE), item`,
			"WindowAggregate(groupBy=[item], window=[TUMBLE(time_col=[bidtime], size=[10 min])], select=[item, COUNT(*) AS n, start('w$) AS window_start"},
		"distinct": {`SELECT DISTINCT window_start, window_end, item FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))`,
			"WindowAggregate(groupBy=[item], window=[TUMBLE(time_col=[bidtime], size=[10 min])], select=[item, start('w$) AS window_start"},
	} {
		t.Run(name, func(t *testing.T) {
			got := planner.PhysicalPlan(true, plan(t, bidDDL+tc.query)).Body
			if !strings.Contains(got, tc.want) {
				t.Errorf("want %q in the plan:\n%s", tc.want, got)
			}
			if strings.Contains(got, "GroupAggregate") || strings.Contains(got, "WindowTableFunction") {
				t.Errorf("want the aggregation over the window function planned as a window aggregation alone:\n%s", got)
			}
		})
	}
}

// TestWindowAggregateDoesNotFire: an aggregation that groups by only one of
// window_start and window_end, by window_time alone, or by an expression
// of a window column (which has no value before the window is assigned)
// stays a regular aggregation over the window function, as Flink's
// WindowUtil.groupingContainsWindowStartEnd leaves it.
func TestWindowAggregateDoesNotFire(t *testing.T) {
	for name, query := range map[string]string{
		"start only": `SELECT window_start, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
GROUP BY window_start`,
		"end and time": `SELECT window_end, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
GROUP BY window_end, window_time`,
		"expression": `SELECT h, COUNT(*) AS n FROM (
  SELECT HOUR(window_start) AS h, window_start, window_end FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)))
GROUP BY window_start, window_end, h`,
		"filter": `SELECT window_start, COUNT(*) AS n FROM (
  SELECT * FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)) WHERE window_start > TIMESTAMP '2020-01-01 00:00:00')
GROUP BY window_start, window_end`,
	} {
		t.Run(name, func(t *testing.T) {
			got := planner.PhysicalPlan(true, plan(t, bidDDL+query)).Body
			if strings.Contains(got, "WindowAggregate") || !strings.Contains(got, "GroupAggregate") {
				t.Errorf("want a regular aggregation:\n%s", got)
			}
		})
	}
}
