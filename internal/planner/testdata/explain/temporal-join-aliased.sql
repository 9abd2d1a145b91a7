-- A temporal join whose versioned table is given column aliases: the
-- primary key (currency, renamed cur) is still found among the join keys.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/joins/#event-time-temporal-join
-- expect: TemporalJoin [I]
CREATE TABLE currency_rates (
    currency STRING,
    conversion_rate DECIMAL(4, 3),
    update_time TIMESTAMP(3),
    WATERMARK FOR update_time AS update_time,
    PRIMARY KEY (currency) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'currency-rates',
    'properties.bootstrap.servers' = 'localhost:9092',
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
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'format' = 'json'
);

SELECT o.order_id, r.cur, r.rate
FROM orders AS o
JOIN currency_rates FOR SYSTEM_TIME AS OF o.order_time AS r (cur, rate, ts)
ON o.currency = r.cur;
