-- JSON functions over a raw payload (Flink docs: System Functions, JSON
-- Functions): JSON_VALUE extracts scalars (RETURNING converts them, NULL on
-- error), JSON_QUERY JSON values, JSON_EXISTS tests a path.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/functions/systemfunctions/#json-functions
CREATE TABLE events (
    payload STRING
) WITH (
    'connector' = 'kafka',
    'topic' = 'events',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'scan.bounded.mode' = 'latest-offset',
    'format' = 'raw'
);

INSERT INTO events VALUES
    ('{"user": "alice", "amount": 12, "tags": ["a", "b"]}'),
    ('{"user": "bob", "amount": "n/a"}'),
    ('not json');

SELECT JSON_VALUE(payload, '$.user') AS who,
       JSON_VALUE(payload, '$.amount' RETURNING INT) AS amount,
       JSON_QUERY(payload, '$.tags') AS tags,
       JSON_EXISTS(payload, '$.tags[1]') AS has_two_tags
FROM events;
