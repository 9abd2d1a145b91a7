-- A self-join reads its table once: the scan, with the exchange in front
-- of it, is one node both sides of the join read, as Flink's
-- SubplanReuser shares equal sub-plans (table.optimizer.reuse-sub-plan-enabled
-- and table.optimizer.reuse-source-enabled, on by default); the execution
-- plan marks it (reuse_id=[1]) and its second use Reused(reference_id=[1])
-- (SubplanReuseTest.testSourceReuseWithEmptyFilterCondAndIgnoreEmptyFilter).
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
