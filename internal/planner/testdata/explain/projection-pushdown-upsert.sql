-- Projection pushdown into an upsert-kafka source keeps the primary key,
-- which the normalization keeps each key's last row by (Flink's
-- PushProjectIntoTableSourceScanRule.isPrimaryKeyFieldsRequired).
-- expect: ChangelogNormalize [I,UB,UA,D]
-- expect: TableSourceScan [I,UA,D]
CREATE TABLE users (
    id BIGINT,
    name STRING,
    city STRING,
    score INT,
    PRIMARY KEY (id) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'users',
    'properties.bootstrap.servers' = 'localhost:9092',
    'key.format' = 'json',
    'value.format' = 'json'
);

SELECT city, score FROM users WHERE score > 1;
