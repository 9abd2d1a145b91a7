-- SELECT DISTINCT is a GroupAggregate over every selected column.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/select-distinct/
-- expect: GroupAggregate [I,UB,UA]
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

SELECT DISTINCT customer FROM orders;
