-- NOT EXISTS with a correlated subquery (Flink docs: Set Operations,
-- EXISTS): the orders of customers not in the VIP list, an anti join. The
-- job first emits every order; alice's is retracted when she enters the
-- list. Unlike NOT IN, a NULL in the list matches nothing and changes no
-- result.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/set-ops/#in
CREATE TABLE orders (
    id INT,
    customer STRING
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'format' = 'json'
);

CREATE TABLE vips (
    customer STRING
) WITH (
    'connector' = 'kafka',
    'topic' = 'vips',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'format' = 'json'
);

CREATE TABLE regular_orders (
    id INT,
    customer STRING,
    PRIMARY KEY (id) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'regular-orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'key.format' = 'json',
    'value.format' = 'json'
);

INSERT INTO orders VALUES (1, 'alice'), (2, 'bob'), (3, 'carol');

INSERT INTO regular_orders
SELECT id, customer FROM orders o
WHERE NOT EXISTS (SELECT customer FROM vips WHERE vips.customer = o.customer);

INSERT INTO vips VALUES ('alice');

INSERT INTO vips VALUES (CAST(NULL AS STRING));

SELECT * FROM regular_orders;
