-- An OVER aggregation ordered by a processing-time attribute, as Flink's
-- OverAggregateTest.testProcTimeBoundedPartitionedRowsOver prints it:
-- orderBy=[pt ASC] and the ROWS frame; rows are emitted as they arrive.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/over-agg/
-- expect: OverAggregate [I]
CREATE TABLE clicks (
    user_id STRING,
    amount INT,
    pt AS PROCTIME()
) WITH (
    'connector' = 'kafka',
    'topic' = 'clicks',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

SELECT user_id,
    COUNT(amount) OVER (PARTITION BY user_id ORDER BY pt ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS cnt,
    SUM(amount) OVER (PARTITION BY user_id ORDER BY pt ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS total
FROM clicks;
