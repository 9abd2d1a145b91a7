-- CURRENT_WATERMARK(rowtime) is the watermark of the operator evaluating it,
-- NULL before the first watermark. The watermark trails the largest
-- timestamp by 5 seconds and is emitted periodically, so the rows of the
-- first INSERT see none; the runner lets the job process them and emit
-- their watermark (12:00:15) before the second INSERT, whose rows see it,
-- the late row 3 included.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/functions/systemfunctions/#temporal-functions
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/create/#watermark

CREATE TABLE events (
    id INT,
    ts TIMESTAMP(3),
    WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'events',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

CREATE TABLE events_seen (
    id INT,
    ts TIMESTAMP(3),
    wm TIMESTAMP(3)
) WITH (
    'connector' = 'kafka',
    'topic' = 'events-seen',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

INSERT INTO events_seen SELECT id, ts, CURRENT_WATERMARK(ts) FROM events;

INSERT INTO events VALUES
    (1, TIMESTAMP '2024-01-01 12:00:10'),
    (2, TIMESTAMP '2024-01-01 12:00:20');

INSERT INTO events VALUES
    (3, TIMESTAMP '2024-01-01 12:00:12'),
    (4, TIMESTAMP '2024-01-01 12:00:30');

SELECT * FROM events_seen;
