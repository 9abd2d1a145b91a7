-- A regular LEFT JOIN over a changelog: an order without a shipment is
-- emitted padded with NULLs; when its shipment arrives, the padded row is
-- retracted (-D) and the joined row inserted (+I). The join runs as a job
-- writing to an upsert-kafka table keyed by order_id, and the query reads
-- that table back (a tombstone per -D). The runner lets the job process
-- the orders before the shipment is written.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/joins/#outer-equi-join
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/concepts/dynamic_tables/#table-to-stream-conversion
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/table/upsert-kafka/

CREATE TABLE orders (
    order_id INT,
    customer STRING
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

CREATE TABLE shipments (
    ship_id STRING,
    order_id INT,
    warehouse STRING
) WITH (
    'connector' = 'kafka',
    'topic' = 'shipments',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

CREATE TABLE order_shipments (
    order_id INT,
    customer STRING,
    ship_id STRING,
    warehouse STRING,
    PRIMARY KEY (order_id) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'order-shipments',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'key.format' = 'json',
    'value.format' = 'json'
);

INSERT INTO order_shipments
SELECT o.order_id, o.customer, s.ship_id, s.warehouse
FROM orders o LEFT JOIN shipments s ON o.order_id = s.order_id;

INSERT INTO orders VALUES (1, 'alice'), (2, 'bob');

INSERT INTO shipments VALUES ('s1', 1, 'Boston');

SELECT * FROM order_shipments;
