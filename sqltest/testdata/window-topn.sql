-- Window Top-N (Flink docs: Window Top-N): the two highest prices per 10-minute tumbling window, emitted once per window when it closes.
CREATE TABLE bids (item STRING, price DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector'='kafka','topic'='bids','properties.bootstrap.servers'='localhost:KAFKA_PORT','scan.startup.mode'='earliest-offset','scan.bounded.mode'='latest-offset','format'='json');
INSERT INTO bids VALUES ('A', 4.0, TIMESTAMP '2020-04-15 08:05:00'), ('B', 2.0, TIMESTAMP '2020-04-15 08:07:00'), ('C', 5.0, TIMESTAMP '2020-04-15 08:09:00'),
 ('A', 3.0, TIMESTAMP '2020-04-15 08:11:00'), ('B', 1.0, TIMESTAMP '2020-04-15 08:13:00'), ('C', 6.0, TIMESTAMP '2020-04-15 08:17:00');
SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) as rownum
  FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' MINUTES))) WHERE rownum <= 2;
