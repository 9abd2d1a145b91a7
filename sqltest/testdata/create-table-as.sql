-- CREATE TABLE ... AS SELECT (Flink docs: CREATE TABLE, "AS select_statement"):
-- the table takes the query's columns and a job writes the query into it.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/create/#as-select_statement
CREATE TABLE orders (
    id INT,
    customer STRING,
    amount DOUBLE
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'format' = 'json'
);

INSERT INTO orders VALUES (1, 'alice', 10.5), (2, 'bob', 3.0), (3, 'alice', 7.25);

CREATE TABLE big_orders WITH (
    'connector' = 'kafka',
    'topic' = 'big-orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'format' = 'json'
) AS SELECT id, UPPER(customer) AS customer FROM orders WHERE amount > 5;

SELECT * FROM big_orders;
