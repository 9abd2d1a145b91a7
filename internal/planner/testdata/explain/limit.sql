-- LIMIT without ORDER BY keeps the first rows that arrive.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/limit/
-- expect: Limit [I]
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

SELECT order_id, customer FROM orders LIMIT 3;
