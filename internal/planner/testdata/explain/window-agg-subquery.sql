-- A window aggregation over a subquery that selects and computes columns
-- of the window table function and filters its rows: still a
-- WindowAggregate (insert-only), the projection and filter moved below it.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/window-agg/
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

SELECT c, SUM(amount) AS total, window_start, window_end
FROM (
    SELECT UPPER(customer) AS c, amount, window_end, window_start
    FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '10' MINUTES))
    WHERE amount > 1
)
GROUP BY c, window_start, window_end;
