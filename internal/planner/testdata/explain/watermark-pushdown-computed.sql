-- A Kafka table's watermark on a computed column is pushed into the scan
-- with the column's expression in it, and the Calc over the scan computes
-- the column, reinterpreted as a time attribute (Flink's
-- SourceWatermarkTest.xml, testWatermarkOnCurrentRowTimestampFunction and
-- testSimpleWatermarkPushDown).
-- expect: Calc [I]
-- expect: TableSourceScan [I]
CREATE TABLE clicks (
    user_id STRING,
    ms BIGINT,
    ts AS TO_TIMESTAMP_LTZ(ms, 3),
    WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'clicks',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

SELECT user_id, ts FROM clicks;
