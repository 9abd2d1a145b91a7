-- CREATE TABLE ... LIKE (Flink docs: CREATE TABLE, LIKE): a table with the
-- columns and options of another plus a watermark of its own, and an
-- option overridden (OVERWRITING OPTIONS is the default): here it reads the
-- same topic bounded, with event time, so its window fires at the end.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/create/#like
CREATE TABLE orders (
    id INT,
    amount INT,
    order_time TIMESTAMP(3)
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'latest-offset',
    'format' = 'json'
);

CREATE TABLE orders_with_watermark (
    WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
    'scan.startup.mode' = 'earliest-offset',
    'scan.bounded.mode' = 'latest-offset'
)
LIKE orders;

INSERT INTO orders VALUES
    (1, 10, TIMESTAMP '2024-01-01 10:00:10'),
    (2, 20, TIMESTAMP '2024-01-01 10:00:50'),
    (3, 30, TIMESTAMP '2024-01-01 10:01:10');

SELECT window_start, SUM(amount) AS total
FROM TABLE(TUMBLE(TABLE orders_with_watermark, DESCRIPTOR(order_time), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end;
