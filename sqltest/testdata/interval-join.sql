-- An interval join on rowtime attributes: a shipment joins an order when it
-- ships within four hours of it, bounds included. Only matching pairs are
-- emitted, as inserts.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/joins/#interval-joins
--   order 1 10:00  s1 11:00 (+1h) joins, s5 13:59:59 joins
--   order 2 10:00  s2 15:00 (+5h) too late
--   order 3 10:00  s3 09:00 (before the order) does not join
--   order 4 12:00  s4 16:00 (+4h, the upper bound) joins

CREATE TABLE orders (
    order_id INT,
    order_time TIMESTAMP(3),
    WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

CREATE TABLE shipments (
    ship_id STRING,
    order_id INT,
    ship_time TIMESTAMP(3),
    WATERMARK FOR ship_time AS ship_time - INTERVAL '5' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'shipments',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

INSERT INTO orders VALUES
    (1, TIMESTAMP '2024-01-01 10:00:00'),
    (2, TIMESTAMP '2024-01-01 10:00:00'),
    (3, TIMESTAMP '2024-01-01 10:00:00'),
    (4, TIMESTAMP '2024-01-01 12:00:00');

INSERT INTO shipments VALUES
    ('s1', 1, TIMESTAMP '2024-01-01 11:00:00'),
    ('s2', 2, TIMESTAMP '2024-01-01 15:00:00'),
    ('s3', 3, TIMESTAMP '2024-01-01 09:00:00'),
    ('s4', 4, TIMESTAMP '2024-01-01 16:00:00'),
    ('s5', 1, TIMESTAMP '2024-01-01 13:59:59');

SELECT o.order_id, o.order_time, s.ship_id, s.ship_time
FROM orders o JOIN shipments s
ON o.order_id = s.order_id
AND s.ship_time BETWEEN o.order_time AND o.order_time + INTERVAL '4' HOUR;
