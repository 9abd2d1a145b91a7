-- CUMULATE windows over the Bid table of Flink's window TVF documentation:
-- windows of at most 10 minutes growing by 2 minutes; a step window without
-- rows emits nothing. The source is bounded, so every window fires at the
-- end of input. Expected sums as in the documentation's example; price is a
-- DOUBLE here, so sums print as 11.0 rather than 11.00.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/window-agg/#cumulate

CREATE TABLE bid (
    bidtime TIMESTAMP(3),
    price DOUBLE,
    item STRING,
    WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'bid',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'scan.bounded.mode' = 'latest-offset',
    'value.format' = 'json'
);

INSERT INTO bid VALUES
    (TIMESTAMP '2020-04-15 08:05:00', 4.0, 'C'),
    (TIMESTAMP '2020-04-15 08:07:00', 2.0, 'A'),
    (TIMESTAMP '2020-04-15 08:09:00', 5.0, 'D'),
    (TIMESTAMP '2020-04-15 08:11:00', 3.0, 'B'),
    (TIMESTAMP '2020-04-15 08:13:00', 1.0, 'E'),
    (TIMESTAMP '2020-04-15 08:17:00', 6.0, 'F');

SELECT window_start, window_end, SUM(price) AS total_price
FROM TABLE(CUMULATE(TABLE bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES, INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;
