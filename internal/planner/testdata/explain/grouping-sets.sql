-- GROUPING SETS as Flink plans them (DecomposeGroupingSetsRule): an Expand
-- emits each row once per grouping set, the columns a set leaves out NULL
-- and the set's expand id $e last; the aggregation groups by the columns
-- and $e, and a Calc computes GROUPING_ID from $e.
-- expect: Expand [I]
-- expect: GroupAggregate [I,UB,UA]
CREATE TABLE sales (
    region STRING,
    product STRING,
    amount INT
) WITH (
    'connector' = 'kafka',
    'topic' = 'sales',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

SELECT region, product, SUM(amount) AS total, GROUPING_ID(region, product) AS gid
FROM sales
GROUP BY GROUPING SETS ((region, product), (region), ());
