-- A bounded datagen source: 'id' is a sequence, so the source ends after
-- its values whatever the parallelism (Flink splits a sequence across the
-- source's subtasks, and 'number-of-rows' with it: the first 500 rows are
-- ids 1 to 500). The other fields are random within their options:
-- lengths, ranges and null rates, checked row by row.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/table/datagen/
CREATE TABLE gen (
    id BIGINT,
    code STRING,
    small VARCHAR(8),
    score INT,
    ratio DOUBLE,
    nothing INT,
    label STRING,
    twice AS id * 2
) WITH (
    'connector' = 'datagen',
    'rows-per-second' = '1000000',
    'number-of-rows' = '500',
    'fields.id.kind' = 'sequence',
    'fields.id.start' = '1',
    'fields.id.end' = '1000',
    'fields.code.length' = '5',
    'fields.score.min' = '-3',
    'fields.score.max' = '3',
    'fields.ratio.min' = '0.25',
    'fields.ratio.max' = '0.5',
    'fields.nothing.null-rate' = '1.0',
    'fields.label.kind' = 'sequence',
    'fields.label.start' = '101',
    'fields.label.end' = '2000'
);

SELECT id, twice, label, CHAR_LENGTH(code) AS code_len, CHAR_LENGTH(small) AS small_len,
    score BETWEEN -3 AND 3 AS score_ok, ratio BETWEEN 0.25 AND 0.5 AS ratio_ok, nothing
FROM gen
WHERE id <= 3 OR id >= 499;
