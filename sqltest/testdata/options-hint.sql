-- Dynamic table options (Flink docs: Hints, "Dynamic Table Options"): an
-- OPTIONS hint overrides a table's options for one query. The table reads
-- from the latest offset by default; the hint reads it from the earliest,
-- bounded, so the query sees the rows already written and finishes.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/hints/
CREATE TABLE orders (
    id INT,
    customer STRING
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'latest-offset',
    'format' = 'json'
);

INSERT INTO orders VALUES (1, 'alice'), (2, 'bob');

SELECT id, customer
FROM orders /*+ OPTIONS('scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset') */;
