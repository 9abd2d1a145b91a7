-- A self-join without sub-plan reuse reads its table twice: two scans,
-- the second with the first one's ID and -1, and no reuse markers, as
-- Flink plans it with table.optimizer.reuse-sub-plan-enabled off
-- (SubplanReuseTest.testDisableReuseTableSource).
-- reuse: none
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/config/#table-optimizer-reuse-source-enabled
-- expect: Join [I]
-- expect: TableSourceScan [I]
CREATE TABLE orders (
    order_id INT,
    customer STRING,
    amount DOUBLE
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

SELECT o1.order_id, o1.amount, o2.order_id, o2.amount
FROM orders o1 JOIN orders o2 ON o1.customer = o2.customer;
