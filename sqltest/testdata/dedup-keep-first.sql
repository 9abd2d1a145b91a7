-- Deduplication keeping the first row per user by event time (ORDER BY the
-- rowtime ASC, rownum = 1). Without mini-batches each row is decided when it
-- arrives: a row with a smaller rowtime than the kept one replaces it (-U/+U),
-- a later or equal one is dropped.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/deduplication/
--   u1 /home 10:00:05   +I
--   u2 /cart 10:00:06   +I
--   u1 /about 10:00:02  earlier than /home: -U /home, +U /about
--   u1 /shop 10:00:09   dropped
--   u2 /pay 10:00:06    not earlier than /cart: dropped

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
    SELECT *, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY ts ASC) AS rownum
    FROM visits)
WHERE rownum = 1;
