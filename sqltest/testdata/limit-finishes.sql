-- LIMIT over an append-only Kafka table: the result is complete after the first 3 rows
-- (one partition, so the first rows are the first offsets), and the query finishes
-- with the closing border and Flink's "Received a total of 3 rows" footer.
CREATE TABLE orders (
    id INT,
    total_amount DOUBLE,
    customer_name VARCHAR
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'format' = 'json'
);

INSERT INTO orders VALUES
    (1, 404.89, 'Art Vandelay'),
    (2, 50.45, 'Bob Sacamanto'),
    (3, 113.23, 'Bilbo Baggins'),
    (4, 90.43, 'Harry Potter');

SELECT id, customer_name FROM orders LIMIT 3;
