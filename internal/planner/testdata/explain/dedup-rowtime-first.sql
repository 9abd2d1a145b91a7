-- Deduplication keeping the first row per key by event time: ROW_NUMBER()
-- over a rowtime attribute with rownum = 1 becomes a Deduplicate node. A
-- rowtime keep-first deduplication still updates its pick when an earlier
-- row arrives late, so it produces updates.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/deduplication/
-- expect: Deduplicate [I,UB,UA]
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

SELECT order_id, customer, amount, order_time
FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY order_time ASC) AS row_num
    FROM orders)
WHERE row_num = 1;
