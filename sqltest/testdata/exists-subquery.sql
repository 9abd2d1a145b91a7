-- EXISTS with a correlated subquery (Flink docs: Set Operations, EXISTS):
-- the orders (id > 1) of customers in the VIP list, a semi join on the
-- correlation's equality kept up to date as either side changes. The VIP
-- list is written after the job started.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/set-ops/#exists
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

CREATE TABLE vip_orders (
    id INT,
    customer STRING,
    PRIMARY KEY (id) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'vip-orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'key.format' = 'json',
    'value.format' = 'json'
);

INSERT INTO orders VALUES (1, 'alice'), (2, 'bob'), (3, 'carol'), (4, 'alice');

INSERT INTO vip_orders
SELECT id, customer FROM orders o
WHERE EXISTS (SELECT * FROM vips v WHERE v.customer = o.customer AND v.customer <> 'nobody') AND id > 1;

INSERT INTO vips VALUES ('alice'), ('dave');

SELECT * FROM vip_orders;
