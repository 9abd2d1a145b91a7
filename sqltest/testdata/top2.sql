-- Top-2 scores per game with the row number selected. When a row enters the
-- top 2, every row whose rank changes is retracted and re-emitted with its
-- new rank (-U/+U), and a row pushed beyond rank 2 is no longer shown.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/topn/
--   g p1 10   +I (g, p1, 10, 1)
--   g p2 20   -U (g, p1, 10, 1), +U (g, p2, 20, 1), +I (g, p1, 10, 2)
--   g p3 15   -U (g, p1, 10, 2), +U (g, p3, 15, 2)
--   g p4 5    outside the top 2: nothing
--   h p5 7    +I (h, p5, 7, 1)

CREATE TABLE scores (
    player STRING,
    game STRING,
    score INT
) WITH (
    'connector' = 'kafka',
    'topic' = 'scores',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

INSERT INTO scores VALUES
    ('p1', 'g', 10),
    ('p2', 'g', 20),
    ('p3', 'g', 15),
    ('p4', 'g', 5),
    ('p5', 'h', 7);

SELECT game, player, score, row_num
FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY game ORDER BY score DESC) AS row_num
    FROM scores)
WHERE row_num <= 2;
