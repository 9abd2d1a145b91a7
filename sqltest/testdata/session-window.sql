-- Session windows per item (Flink docs: Windowing TVF, SESSION with PARTITION BY): a session closes after 5 minutes without rows.
CREATE TABLE bids (item STRING, price DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector'='kafka','topic'='bids','properties.bootstrap.servers'='localhost:KAFKA_PORT','scan.startup.mode'='earliest-offset','scan.bounded.mode'='latest-offset','format'='json');
INSERT INTO bids VALUES ('A', 4.0, TIMESTAMP '2020-04-15 08:05:00'), ('A', 2.0, TIMESTAMP '2020-04-15 08:07:00'), ('C', 5.0, TIMESTAMP '2020-04-15 08:09:00'),
 ('A', 3.0, TIMESTAMP '2020-04-15 08:11:00'), ('C', 1.0, TIMESTAMP '2020-04-15 08:13:00'), ('A', 6.0, TIMESTAMP '2020-04-15 08:17:00');
SELECT window_start, window_end, item, SUM(price) AS total FROM TABLE(SESSION(TABLE bids PARTITION BY item, DESCRIPTOR(ts), INTERVAL '5' MINUTES)) GROUP BY item, window_start, window_end;
