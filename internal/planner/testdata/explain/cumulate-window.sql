-- A cumulating window aggregation: 10-minute windows growing by 2 minutes,
-- one insert per key and window step.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/window-tvf/#cumulate
-- expect: WindowAggregate [I]
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

SELECT window_start, window_end, SUM(amount) AS total
FROM TABLE(CUMULATE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '2' MINUTES, INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;
