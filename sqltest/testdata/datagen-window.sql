-- Tumbling windows over a bounded datagen sequence: the rowtime is computed
-- from the sequence (second i for id i) and the watermark follows each
-- source instance's rows, so no row is late at any parallelism, and the end
-- of the source fires the last window. One row per window, in any order.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/table/datagen/
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/window-agg/
CREATE TABLE gen (
    id BIGINT,
    ts AS TO_TIMESTAMP_LTZ(id * 1000, 3),
    WATERMARK FOR ts AS ts
) WITH (
    'connector' = 'datagen',
    'rows-per-second' = '1000000',
    'fields.id.kind' = 'sequence',
    'fields.id.start' = '1',
    'fields.id.end' = '30'
);

SET 'table.local-time-zone' = 'UTC';

SELECT window_start, window_end, COUNT(*) AS cnt, SUM(id) AS total, MIN(id) AS lo, MAX(id) AS hi
FROM TABLE(TUMBLE(TABLE gen, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end;
