-- 'How to join a stream and a stream using Flink SQL': the bounds are on
-- computed timestamps, not time attributes, so this is a regular join; an
-- inner join of two insert-only inputs is insert-only.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/joins/
-- expect: Join [I]
-- expect: Sink [NONE]
CREATE TABLE orders (
    id INT,
    total_amount DOUBLE,
    customer_name VARCHAR,
    order_ts_raw BIGINT
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'id',
    'value.format' = 'json',
    'value.fields-include' = 'ALL'
);

CREATE TABLE shipments (
    id VARCHAR,
    order_id INT,
    warehouse VARCHAR,
    ship_ts_raw BIGINT
) WITH (
    'connector' = 'kafka',
    'topic' = 'shipments',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'id',
    'value.format' = 'json',
    'value.fields-include' = 'ALL'
);

CREATE TABLE shipped_orders (
    order_id INT,
    order_ts VARCHAR,
    total DOUBLE,
    customer VARCHAR,
    ship_id VARCHAR,
    ship_ts VARCHAR,
    warehouse VARCHAR,
    hours_to_ship INT
) WITH (
    'connector' = 'kafka',
    'topic' = 'shipped_orders',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'ship_id',
    'value.format' = 'json',
    'value.fields-include' = 'ALL'
);

INSERT INTO shipped_orders
    SELECT o.id as order_id,
           FROM_UNIXTIME(o.order_ts_raw) as ORDER_TS,
           o.total_amount as TOTAL,
           o.customer_name as CUSTOMER,
           s.id as SHIP_ID,
           FROM_UNIXTIME(s.ship_ts_raw) as SHIP_TS,
           s.warehouse,
           TIMESTAMPDIFF(HOUR,
             TO_TIMESTAMP(FROM_UNIXTIME(o.order_ts_raw)),
             TO_TIMESTAMP(FROM_UNIXTIME(s.ship_ts_raw))) as HR_TO_SHIP
    FROM orders o inner join shipments s
    ON o.id = s.order_id
    AND TO_TIMESTAMP(FROM_UNIXTIME(s.ship_ts_raw))
     BETWEEN TO_TIMESTAMP(FROM_UNIXTIME(o.order_ts_raw))
     AND TO_TIMESTAMP(FROM_UNIXTIME(o.order_ts_raw))  + INTERVAL '7' DAY;
