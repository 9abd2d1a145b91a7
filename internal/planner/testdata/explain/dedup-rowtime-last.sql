-- Deduplication keeping the last row per key by event time (ORDER BY
-- rowtime DESC): a Deduplicate node keeping LastRow, which updates.
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
    SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY order_time DESC) AS row_num
    FROM orders)
WHERE row_num = 1;
