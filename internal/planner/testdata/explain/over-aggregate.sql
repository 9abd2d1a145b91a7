-- OVER aggregation: a sum over the previous hour of each customer's orders,
-- ordered by the rowtime attribute. An OverAggregate node, append-only.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/over-agg/
-- expect: OverAggregate [I]
CREATE TABLE orders (
    order_id INT,
    customer STRING,
    amount DOUBLE,
    order_time TIMESTAMP(3),
    WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

SELECT order_id, customer,
       SUM(amount) OVER (PARTITION BY customer ORDER BY order_time
           RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS hour_total
FROM orders;
