-- OVER aggregation (Flink docs: Over Aggregation): the sum of the amounts of
-- the same product in the hour up to each order, and a count over the
-- current and previous order. Each row is emitted once the watermark passes
-- its time; the bounded source ends with the maximum watermark, so every row
-- is emitted and the query finishes.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/over-agg/
CREATE TABLE orders (
    order_id INT,
    product STRING,
    amount INT,
    order_time TIMESTAMP(3),
    WATERMARK FOR order_time AS order_time - INTERVAL '1' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'scan.bounded.mode' = 'latest-offset',
    'format' = 'json'
);

INSERT INTO orders VALUES
    (1, 'apple', 10, TIMESTAMP '2024-01-01 10:00:00'),
    (2, 'pear', 5, TIMESTAMP '2024-01-01 10:10:00'),
    (3, 'apple', 20, TIMESTAMP '2024-01-01 10:30:00'),
    (4, 'apple', 30, TIMESTAMP '2024-01-01 11:00:00'),
    (5, 'apple', 40, TIMESTAMP '2024-01-01 11:20:00'),
    (6, 'pear', 7, TIMESTAMP '2024-01-01 12:00:00');

SELECT order_id, product, order_time,
       SUM(amount) OVER (PARTITION BY product ORDER BY order_time
           RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS hour_sum,
       COUNT(*) OVER (PARTITION BY product ORDER BY order_time
           RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS hour_count
FROM orders;
