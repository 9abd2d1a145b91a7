-- A tumbling window over processing time: PROCTIME() is computed as rows
-- are read, and the window's time property is proctime('w$), as Flink
-- prints it.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/window-agg/
-- expect: WindowAggregate [I]
CREATE TABLE clicks (
    user_id STRING,
    url STRING,
    pt AS PROCTIME()
) WITH (
    'connector' = 'kafka',
    'topic' = 'clicks',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

SELECT window_start, window_end, user_id, COUNT(*) AS cnt
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(pt), INTERVAL '1' MINUTES))
GROUP BY window_start, window_end, user_id;
