-- Top-N: the three largest orders per customer. A Rank node with
-- rankEnd=3 that retracts rows pushed out of the top three.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/topn/
-- expect: Rank [I,UB,UA,D]
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

SELECT customer, order_id, amount, row_num
FROM (
    SELECT customer, order_id, amount,
           ROW_NUMBER() OVER (PARTITION BY customer ORDER BY amount DESC) AS row_num
    FROM orders)
WHERE row_num <= 3;
