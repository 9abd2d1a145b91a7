-- INTERSECT (Flink docs: Set Operations): the distinct rows of
-- the first query that are in the second, NULLs comparing equal.
-- Both inputs are complete when the query starts (bounded sources), so the
-- result holds only its final rows.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/set-ops/
CREATE TABLE a (x INT, s STRING) WITH (
    'connector' = 'kafka', 'topic' = 'a', 'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE b (x INT, s STRING) WITH (
    'connector' = 'kafka', 'topic' = 'b', 'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');

INSERT INTO a VALUES (1, 'one'), (1, 'one'), (2, 'two'), (3, CAST(NULL AS STRING));
INSERT INTO b VALUES (1, 'one'), (3, CAST(NULL AS STRING)), (4, 'four');

SELECT x, s FROM a INTERSECT SELECT x, s FROM b;
