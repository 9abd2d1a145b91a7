-- Window join (Flink docs: Window Join, the FULL JOIN example): rows of
-- the same 5-minute window and num join when the window closes; unmatched
-- rows of either side are padded with NULLs; the result is insert-only.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/window-join/
CREATE TABLE LeftTable (
    row_time TIMESTAMP(3),
    num INT,
    id STRING,
    WATERMARK FOR row_time AS row_time - INTERVAL '1' MINUTE
) WITH (
    'connector' = 'kafka', 'topic' = 'left', 'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');

CREATE TABLE RightTable (
    row_time TIMESTAMP(3),
    num INT,
    id STRING,
    WATERMARK FOR row_time AS row_time - INTERVAL '1' MINUTE
) WITH (
    'connector' = 'kafka', 'topic' = 'right', 'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');

INSERT INTO LeftTable VALUES
    (TIMESTAMP '2020-04-15 12:02:00', 1, 'L1'),
    (TIMESTAMP '2020-04-15 12:06:00', 2, 'L2'),
    (TIMESTAMP '2020-04-15 12:03:00', 3, 'L3');

INSERT INTO RightTable VALUES
    (TIMESTAMP '2020-04-15 12:01:00', 2, 'R2'),
    (TIMESTAMP '2020-04-15 12:04:00', 3, 'R3'),
    (TIMESTAMP '2020-04-15 12:05:00', 4, 'R4');

SELECT L.num AS L_Num, L.id AS L_Id, R.num AS R_Num, R.id AS R_Id,
       COALESCE(L.window_start, R.window_start) AS window_start,
       COALESCE(L.window_end, R.window_end) AS window_end
FROM (SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) L
FULL JOIN (SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) R
ON L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end;
