-- NOT IN with a subquery: an anti join on the customer, with the other
-- WHERE conditions filtering before it. A nullable subquery column makes it
-- NULL-aware (one instance sees every NULL).
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/set-ops/#in
-- expect: Join [I,UB,UA,D]
CREATE TABLE orders (id INT, customer STRING) WITH (
    'connector' = 'kafka', 'topic' = 'orders', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json');
CREATE TABLE vips (customer STRING) WITH (
    'connector' = 'kafka', 'topic' = 'vips', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json');
SELECT id FROM orders WHERE customer NOT IN (SELECT customer FROM vips) AND id > 3;
