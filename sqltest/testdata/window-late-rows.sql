-- Late rows and a window aggregation. The watermark trails the largest
-- timestamp seen by 5 seconds and is emitted periodically (every 200 ms by
-- default), so rows written together are not late to each other; the
-- runner lets every job process the rows of one INSERT (and emit their
-- watermark) before the next INSERT.
--
-- A window aggregation drops a row whose window has already fired, i.e. the
-- watermark has passed its end; a row behind the largest timestamp but ahead
-- of the watermark is still counted.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/create/#watermark
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/window-agg/
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/concepts/time/#lateness
--
-- Rows and watermarks:
--   a 12:00:01, b 12:00:04, c 12:00:16   -> watermark 12:00:11, fires [00, 10) = 2
--   d 12:00:07  window [00, 10) fired    -> dropped
--   e 12:00:12  behind c, ahead of 12:00:11 -> counted in [10, 20)
--   f 12:00:31                           -> watermark 12:00:26, fires [10, 20) = 2

CREATE TABLE clicks (
    user_id STRING,
    ts TIMESTAMP(3),
    WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'clicks',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

CREATE TABLE clicks_per_10s (
    window_start TIMESTAMP(3),
    window_end TIMESTAMP(3),
    clicks BIGINT
) WITH (
    'connector' = 'kafka',
    'topic' = 'clicks-per-10s',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

INSERT INTO clicks_per_10s
SELECT window_start, window_end, COUNT(*)
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end;

INSERT INTO clicks VALUES
    ('a', TIMESTAMP '2024-01-01 12:00:01'),
    ('b', TIMESTAMP '2024-01-01 12:00:04'),
    ('c', TIMESTAMP '2024-01-01 12:00:16');

INSERT INTO clicks VALUES
    ('d', TIMESTAMP '2024-01-01 12:00:07'),
    ('e', TIMESTAMP '2024-01-01 12:00:12');

INSERT INTO clicks VALUES
    ('f', TIMESTAMP '2024-01-01 12:00:31');

SELECT * FROM clicks_per_10s;
