-- A blackhole sink swallows any changelog: an INSERT of an updating
-- aggregation is accepted (a kafka sink would reject it) and its job runs
-- to the end of its bounded datagen input. The query reads the source
-- again to show the job left it untouched.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/table/blackhole/
CREATE TABLE gen (
    id INT,
    name STRING
) WITH (
    'connector' = 'datagen',
    'rows-per-second' = '1000000',
    'fields.id.kind' = 'sequence',
    'fields.id.start' = '1',
    'fields.id.end' = '100'
);

CREATE TABLE sink (
    k INT,
    cnt BIGINT
) WITH (
    'connector' = 'blackhole'
);

INSERT INTO sink SELECT id % 3, COUNT(*) FROM gen GROUP BY id % 3;

SELECT id FROM gen WHERE id > 98;
