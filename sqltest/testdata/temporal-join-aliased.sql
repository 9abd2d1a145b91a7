-- Event-time temporal join whose versioned table is renamed by column
-- aliases (Flink docs: Joins, "Event Time Temporal Join"): the same rows as
-- temporal-join.sql, with the rate table's columns read under new names.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/joins/#event-time-temporal-join
CREATE TABLE currency_rates (
    currency STRING,
    conversion_rate DECIMAL(4, 3),
    update_time TIMESTAMP(3),
    WATERMARK FOR update_time AS update_time,
    PRIMARY KEY (currency) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'currency-rates',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'key.format' = 'raw',
    'value.format' = 'json'
);

CREATE TABLE orders (
    order_id INT,
    price DECIMAL(10, 2),
    currency STRING,
    order_time TIMESTAMP(3),
    WATERMARK FOR order_time AS order_time
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'format' = 'json'
);

INSERT INTO currency_rates VALUES
    ('EUR', 1.140, TIMESTAMP '2024-01-01 09:00:00'),
    ('GBP', 1.300, TIMESTAMP '2024-01-01 09:00:00'),
    ('EUR', 1.160, TIMESTAMP '2024-01-01 10:15:00'),
    ('GBP', 1.310, TIMESTAMP '2024-01-01 11:00:00');

INSERT INTO orders VALUES
    (1, 10.00, 'EUR', TIMESTAMP '2024-01-01 10:00:00'),
    (2, 20.00, 'GBP', TIMESTAMP '2024-01-01 10:05:00'),
    (3, 30.00, 'EUR', TIMESTAMP '2024-01-01 10:30:00'),
    (4, 40.00, 'USD', TIMESTAMP '2024-01-01 10:40:00'),
    (5, 50.00, 'EUR', TIMESTAMP '2024-01-01 11:30:00');

SELECT o.order_id, r.cur, o.price, r.rate, o.order_time
FROM orders AS o
JOIN currency_rates FOR SYSTEM_TIME AS OF o.order_time AS r (cur, rate, ts)
ON o.currency = r.cur;
