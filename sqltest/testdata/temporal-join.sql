-- Event-time temporal join (Flink docs: Joins, "Event Time Temporal Join"):
-- each order is converted with the rate of its currency that was valid at
-- the order's time, taken from a versioned upsert-kafka table. The rates
-- side keeps its versions; an order waits until the watermark of both
-- sides passes its time. The last EUR order follows a later rate: its
-- result waits for a watermark past 10:30, which the rates' next update
-- (GBP at 11:00) provides.
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

SELECT o.order_id, o.currency, o.price, r.conversion_rate, o.order_time
FROM orders AS o
JOIN currency_rates FOR SYSTEM_TIME AS OF o.order_time AS r
ON o.currency = r.currency;
