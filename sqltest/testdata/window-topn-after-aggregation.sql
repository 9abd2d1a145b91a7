-- Window Top-N after a window aggregation (Flink docs: Window Top-N, the
-- first example): the top 3 suppliers by sales per 10-minute window.
-- Prices are DOUBLE here (the docs use DECIMAL(10, 2), whose SUM Sluice
-- types as DECIMAL(18, 2) instead of Flink's DECIMAL(38, 2)).
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/window-topn/
CREATE TABLE Bid (
    bidtime TIMESTAMP(3),
    price DOUBLE,
    item STRING,
    supplier_id STRING,
    WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND
) WITH (
    'connector' = 'kafka', 'topic' = 'bid', 'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');

INSERT INTO Bid VALUES
    (TIMESTAMP '2020-04-15 08:05:00', 4.0, 'A', 'supplier1'),
    (TIMESTAMP '2020-04-15 08:06:00', 4.0, 'C', 'supplier2'),
    (TIMESTAMP '2020-04-15 08:07:00', 2.0, 'G', 'supplier1'),
    (TIMESTAMP '2020-04-15 08:08:00', 2.0, 'B', 'supplier3'),
    (TIMESTAMP '2020-04-15 08:09:00', 5.0, 'D', 'supplier4'),
    (TIMESTAMP '2020-04-15 08:11:00', 2.0, 'B', 'supplier3'),
    (TIMESTAMP '2020-04-15 08:13:00', 1.0, 'E', 'supplier1'),
    (TIMESTAMP '2020-04-15 08:15:00', 3.0, 'H', 'supplier2'),
    (TIMESTAMP '2020-04-15 08:17:00', 6.0, 'F', 'supplier5');

SELECT * FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS rownum
    FROM (
        SELECT window_start, window_end, supplier_id, SUM(price) AS price, COUNT(*) AS cnt
        FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
        GROUP BY window_start, window_end, supplier_id
    )
) WHERE rownum <= 3;
