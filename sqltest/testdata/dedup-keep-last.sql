-- Deduplication keeping the last row per user by event time (ORDER BY the
-- rowtime DESC, rownum = 1). Without mini-batches each row is decided when it
-- arrives: a row whose rowtime is greater than or equal to the kept one's
-- replaces it (-U/+U), an earlier one is dropped.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/deduplication/
--   u1 /home 10:00:05   +I
--   u2 /cart 10:00:06   +I
--   u1 /about 10:00:02  earlier than /home: dropped
--   u1 /shop 10:00:09   -U /home, +U /shop
--   u2 /pay 10:00:06    equal to /cart: -U /cart, +U /pay

CREATE TABLE visits (
    user_id STRING,
    page STRING,
    ts TIMESTAMP(3),
    WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'visits',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

INSERT INTO visits VALUES
    ('u1', '/home',  TIMESTAMP '2024-01-01 10:00:05'),
    ('u2', '/cart',  TIMESTAMP '2024-01-01 10:00:06'),
    ('u1', '/about', TIMESTAMP '2024-01-01 10:00:02'),
    ('u1', '/shop',  TIMESTAMP '2024-01-01 10:00:09'),
    ('u2', '/pay',   TIMESTAMP '2024-01-01 10:00:06');

SELECT user_id, page, ts
FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY ts DESC) AS rownum
    FROM visits)
WHERE rownum = 1;
