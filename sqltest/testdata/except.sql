-- EXCEPT (Flink docs: Set Operations): the distinct rows of the first query
-- not in the second, NULLs comparing equal, kept up to date: the job first
-- emits every row of a; rows of b written afterwards retract their equals.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/set-ops/#except
CREATE TABLE a (x INT, s STRING) WITH (
    'connector' = 'kafka', 'topic' = 'a', 'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
CREATE TABLE b (x INT, s STRING) WITH (
    'connector' = 'kafka', 'topic' = 'b', 'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
CREATE TABLE diff (x INT, s STRING, PRIMARY KEY (x) NOT ENFORCED) WITH (
    'connector' = 'upsert-kafka', 'topic' = 'diff', 'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'key.format' = 'json', 'value.format' = 'json');

INSERT INTO a VALUES (1, 'one'), (1, 'one'), (2, 'two'), (3, CAST(NULL AS STRING));

INSERT INTO diff SELECT x, s FROM a EXCEPT SELECT x, s FROM b;

INSERT INTO b VALUES (1, 'one'), (3, CAST(NULL AS STRING)), (4, 'four');

SELECT * FROM diff;
