-- A view is expanded into the query that reads it: the filter of the view
-- and the projection of the query merge into one Calc over the scan.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/create/#create-view
-- expect: Calc [I]
-- expect: TableSourceScan [I]
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

CREATE VIEW big_orders AS
SELECT order_id, customer, amount FROM orders WHERE amount > 100;

SELECT customer, amount * 2 AS doubled FROM big_orders;
