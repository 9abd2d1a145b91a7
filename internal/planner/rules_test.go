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
