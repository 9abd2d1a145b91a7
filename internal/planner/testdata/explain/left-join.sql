-- A regular LEFT JOIN: rows without a match are padded with NULLs and
-- retracted when a match arrives, so the join produces a full changelog.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/joins/#outer-equi-join
-- expect: Join [I,UB,UA,D]
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

CREATE TABLE shipments (
    ship_id STRING,
    order_id INT,
    warehouse STRING,
    ship_time TIMESTAMP(3),
    WATERMARK FOR ship_time AS ship_time - INTERVAL '5' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'shipments',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

SELECT o.order_id, o.customer, s.ship_id, s.warehouse
FROM orders o LEFT JOIN shipments s ON o.order_id = s.order_id;
