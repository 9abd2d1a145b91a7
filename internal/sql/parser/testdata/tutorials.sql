-- Statements of the Flink SQL tutorials (tumbling windows, aggregate count,
-- finding distinct values, stream-stream interval join), in tutorial order.

CREATE TABLE ratings (
    rating_id INT,
    title STRING,
    release_year INT,
    rating DOUBLE,
    ts TIMESTAMP(3),
    -- declare ts as event time attribute and use strictly ascending timestamp watermark strategy
    WATERMARK FOR ts AS ts
) WITH (
    'connector' = 'kafka',
    'topic' = 'ratings',
    'properties.bootstrap.servers' = 'broker:9092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'rating_id',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://schema-registry:8081',
    'value.fields-include' = 'EXCEPT_KEY'
);

INSERT INTO ratings VALUES
    (0, 'Die Hard', 1998, 8.2, TO_TIMESTAMP('2023-07-09 01:00:00')),
    (1, 'The Big Lebowski', 1998, 4.2, TO_TIMESTAMP('2023-07-09 02:00:00')),
    (2, 'Die Hard', 1998, 4.5, TO_TIMESTAMP('2023-07-09 05:00:00')),
    (3, 'The Big Lebowski', 1998, 9.9, TO_TIMESTAMP('2023-07-09 06:30:00')),
    (4, 'Die Hard', 1998, 5.1, TO_TIMESTAMP('2023-07-09 07:00:00')),
    (5, 'Tree of Life', 2011, 5.6, TO_TIMESTAMP('2023-07-09 08:00:00')),
    (6, 'Tree of Life', 2011, 4.9, TO_TIMESTAMP('2023-07-09 09:00:00')),
    (7, 'A Walk in the Clouds', 1995, 3.6, TO_TIMESTAMP('2023-07-09 12:00:00')),
    (8, 'A Walk in the Clouds', 1995, 6.0, TO_TIMESTAMP('2023-07-09 15:00:00')),
    (9, 'Super Mario Bros.', 1993, 3.5, TO_TIMESTAMP('2023-07-09 18:30:00')),
    (10, 'A Walk in the Clouds', 1995, 4.6, TO_TIMESTAMP('2023-07-10 01:00:00'));

SELECT title,
    COUNT(*) AS rating_count,
    AVG(rating) AS avg_rating,
    window_start,
    window_end
FROM TABLE(TUMBLE(TABLE ratings, DESCRIPTOR(ts), INTERVAL '6' HOURS))
GROUP BY title, window_start, window_end;

CREATE TABLE ratings_by_6hr_window (
    title STRING,
    rating_count BIGINT,
    avg_rating DOUBLE,
    window_start TIMESTAMP(3),
    window_end TIMESTAMP(3)
) WITH (
    'connector' = 'kafka',
    'topic' = 'ratings-by-6hr-window',
    'properties.bootstrap.servers' = 'broker:9092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'avro-confluent',
    'key.avro-confluent.url' = 'http://schema-registry:8081',
    'key.fields' = 'title;window_start;window_end',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://schema-registry:8081',
    'value.fields-include' = 'ALL'
);

INSERT INTO ratings_by_6hr_window
    SELECT title,
       COUNT(*) AS rating_count,
       AVG(rating) AS avg_rating,
       window_start,
       window_end
    FROM TABLE(TUMBLE(TABLE ratings, DESCRIPTOR(ts), INTERVAL '6' HOURS))
    GROUP BY title, window_start, window_end;

SET 'sql-client.execution.result-mode' = 'table';

select * from ratings_by_6hr_window;

CREATE TABLE ratings (
    rating_id INT,
    title STRING,
    release_year INT,
    rating DOUBLE,
    ts TIMESTAMP(3),
    -- declare ts as event time attribute and use strictly ascending timestamp watermark strategy
    WATERMARK FOR ts AS ts
) WITH (
    'connector' = 'kafka',
    'topic' = 'ratings',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'rating_id',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://localhost:SCHEMA_REGISTRY_PORT',
    'value.fields-include' = 'EXCEPT_KEY'
);

CREATE TABLE ratings_by_6hr_window (
   title STRING,
    rating_count BIGINT,
    avg_rating DOUBLE,
    window_start TIMESTAMP(3),
    window_end TIMESTAMP(3)
) WITH (
    'connector' = 'kafka',
    'topic' = 'ratings-by-6hr-window',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'avro-confluent',
    'key.avro-confluent.url' = 'http://localhost:SCHEMA_REGISTRY_PORT',
    'key.fields' = 'title;window_start;window_end',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://localhost:SCHEMA_REGISTRY_PORT',
    'value.fields-include' = 'ALL'
);

SELECT * FROM ratings_by_6hr_window;

CREATE TABLE movie_ticket_sales (
    title STRING,
    sales_ts STRING,
    total_ticket_value INT
) WITH (
    'connector' = 'kafka',
    'topic' = 'movie-ticket-sales',
    'properties.bootstrap.servers' = 'broker:9092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'title',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://schema-registry:8081',
    'value.fields-include' = 'EXCEPT_KEY'
);

INSERT INTO movie_ticket_sales VALUES
    ('Aliens', '2019-07-18T10:00:00Z', 10),
    ('Die Hard', '2019-07-18T10:00:00Z', 12),
    ('Die Hard', '2019-07-18T10:01:00Z', 12),
    ('The Godfather', '2019-07-18T10:01:31Z', 12),
    ('Die Hard', '2019-07-18T10:01:36Z', 24),
    ('The Godfather', '2019-07-18T10:02:00Z', 18),
    ('The Big Lebowski', '2019-07-18T11:03:21Z', 12),
    ('The Big Lebowski', '2019-07-18T11:03:50Z', 12),
    ('The Godfather', '2019-07-18T11:40:00Z', 36),
    ('The Godfather', '2019-07-18T11:40:09Z', 18);

SELECT title,
       COUNT(total_ticket_value) AS tickets_sold
FROM movie_ticket_sales
GROUP BY title;

CREATE TABLE movie_ticket_sales_by_title (
    title STRING,
    tickets_sold BIGINT,
    PRIMARY KEY (title) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'movie-ticket-sales-by-title',
    'properties.bootstrap.servers' = 'broker:9092',
    'key.format' = 'raw',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://schema-registry:8081',
    'value.fields-include' = 'EXCEPT_KEY'
);

INSERT INTO movie_ticket_sales_by_title
SELECT title,
       COUNT(total_ticket_value) AS tickets_sold
FROM movie_ticket_sales
GROUP BY title;

SELECT
    title,
    tickets_sold
FROM movie_ticket_sales_by_title;

CREATE TABLE movie_ticket_sales (
    title STRING,
    sales_ts STRING,
    total_ticket_value BIGINT
) WITH (
    'connector' = 'kafka',
    'topic' = 'movie-ticket-sales',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'title',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://localhost:SCHEMA_REGISTRY_PORT',
    'value.fields-include' = 'EXCEPT_KEY'
);

CREATE TABLE movie_ticket_sales_by_title (
    title STRING,
    tickets_sold BIGINT,
    PRIMARY KEY (title) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'movie-ticket-sales-by-title',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'key.format' = 'raw',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://localhost:SCHEMA_REGISTRY_PORT',
    'value.fields-include' = 'EXCEPT_KEY'
);

SELECT * FROM movie_ticket_sales_by_title;

CREATE TABLE clicks (
    ip_address VARCHAR,
    url VARCHAR,
    click_ts_raw BIGINT
) WITH (
    'connector' = 'kafka',
    'topic' = 'clicks',
    'properties.bootstrap.servers' = 'broker:29092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'ip_address',
    'value.format' = 'json',
    'value.fields-include' = 'EXCEPT_KEY'
);

INSERT INTO clicks
VALUES ( '10.0.0.1',  'https://acme.com/index.html',    1692812175),
       ( '10.0.0.12', 'https://amazon.com/index.html',  1692826575),
       ( '10.0.0.13', 'https://confluent/index.html',   1692826575),
       ( '10.0.0.1',  'https://acme.com/index.html',    1692812175),
       ( '10.0.0.12', 'https://amazon.com/index.html',  1692819375),
       ( '10.0.0.13', 'https://confluent/index.html',   1692826575);

SELECT ip_address, url, FROM_UNIXTIME(click_ts_raw) as click_timestamp
FROM (
       SELECT *,
       ROW_NUMBER() OVER ( PARTITION BY ip_address ORDER BY TO_TIMESTAMP(FROM_UNIXTIME(click_ts_raw)) ) as rownum FROM clicks
      )
WHERE rownum = 1;

CREATE TABLE deduplicated_clicks (
    ip_address VARCHAR,
    url VARCHAR,
    click_ts VARCHAR,
    PRIMARY KEY (ip_address) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'deduplicated_clicks',
    'properties.bootstrap.servers' = 'broker:29092',
    'key.format' = 'raw',
    'value.format' = 'json',
    'value.fields-include' = 'EXCEPT_KEY'
);

INSERT INTO deduplicated_clicks
    SELECT ip_address, url, FROM_UNIXTIME(click_ts_raw) as click_timestamp
    FROM (
          SELECT *,
          ROW_NUMBER() OVER ( PARTITION BY ip_address ORDER BY TO_TIMESTAMP(FROM_UNIXTIME(click_ts_raw)) ) as rownum FROM clicks
         )
    WHERE rownum = 1;

SELECT * FROM deduplicated_clicks;

CREATE TABLE clicks (
    ip_address VARCHAR,
    url VARCHAR,
    click_ts_raw BIGINT
) WITH (
    'connector' = 'kafka',
    'topic' = 'clicks',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'ip_address',
    'value.format' = 'json',
    'value.fields-include' = 'EXCEPT_KEY'
);

CREATE TABLE deduplicated_clicks (
    ip_address VARCHAR,
    url VARCHAR,
    click_ts VARCHAR,
    PRIMARY KEY (ip_address) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'deduplicated_clicks',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'key.format' = 'raw',
    'value.format' = 'json',
    'value.fields-include' = 'EXCEPT_KEY'
);

CREATE TABLE orders (
    id INT,
    total_amount DOUBLE,
    customer_name VARCHAR,
    order_ts_raw BIGINT
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'broker:29092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'id',
    'value.format' = 'json',
    'value.fields-include' = 'ALL'
);

CREATE TABLE shipments (
    id VARCHAR,
    order_id INT,
    warehouse VARCHAR,
    ship_ts_raw BIGINT
) WITH (
    'connector' = 'kafka',
    'topic' = 'shipments',
    'properties.bootstrap.servers' = 'broker:29092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'id',
    'value.format' = 'json',
    'value.fields-include' = 'ALL'
);

INSERT INTO orders
VALUES ( 1, 404.89, 'Art Vandelay',    1692812175),
       ( 2,  50.45, 'Bob Sacamanto',   1692826575),
       ( 3, 113.23, 'Bilbo Baggins',   1692826575),
       ( 4,  90.43, 'Harry Potter',    1692812175),
       ( 5, 495.22, 'John Hechinger',  1692819375),
       ( 6, 410.13, 'Mandelorean',     1692826575),
       ( 7, 333.84, 'Jane Smith',      1692822975),
       ( 8,  26.14, 'HJ Pennypacker' , 1692819375),
       ( 9, 450.77, 'Colonel Mustard', 1692812175),
       ( 10,195.13, 'Prof. Jones',     1692822975);

INSERT INTO shipments
VALUES ('shipment_1',   1, 'Bar Harbor',     1692815775),
       ('shipment_2',   2, 'Boston',         1692851775),
       ('shipment_3',   3, 'Providence',     1692851775),
       ('shipment_4',   4, 'Springfield',    1692826575),
       ('shipment_5',   5, 'Bar Harbor',     1692822975),
       ('shipment_6',   6, 'Boston',         1692851775),
       ('shipment_7',   7, 'Jackson Hole',   1692840975),
       ('shipment_8',   8, 'Whitefish'   ,   1692822975),
       ('shipment_9',   9, 'Jackson Hole',   1692984975),
       ('shipment_10', 10, 'Columbia Falls', 1692984975);

 SET sql-client.execution.result-mode=tableau;

SELECT o.id as order_id,
           FROM_UNIXTIME(o.order_ts_raw) as ORDER_TS,
           o.total_amount as TOTAL,
           o.customer_name as CUSTOMER,
           s.id as SHIP_ID,
           FROM_UNIXTIME(s.ship_ts_raw) as SHIP_TS,
           s.warehouse,
           TIMESTAMPDIFF(HOUR,
             TO_TIMESTAMP(FROM_UNIXTIME(o.order_ts_raw)),
             TO_TIMESTAMP(FROM_UNIXTIME(s.ship_ts_raw))) as HR_TO_SHIP
    FROM orders o inner join shipments s
    ON o.id = s.order_id
    AND TO_TIMESTAMP(FROM_UNIXTIME(s.ship_ts_raw))
     BETWEEN TO_TIMESTAMP(FROM_UNIXTIME(o.order_ts_raw))
     AND TO_TIMESTAMP(FROM_UNIXTIME(o.order_ts_raw))  + INTERVAL '7' DAY;

CREATE TABLE shipped_orders (
    order_id INT,
    order_ts VARCHAR,
    total DOUBLE,
    customer VARCHAR,
    ship_id VARCHAR,
    ship_ts VARCHAR,
    warehouse VARCHAR,
    hours_to_ship INT
) WITH (
    'connector' = 'kafka',
    'topic' = 'shipped_orders',
    'properties.bootstrap.servers' = 'broker:29092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'ship_id',
    'value.format' = 'json',
    'value.fields-include' = 'ALL'
);

INSERT INTO shipped_orders
    SELECT o.id as order_id,
           FROM_UNIXTIME(o.order_ts_raw) as ORDER_TS,
           o.total_amount as TOTAL,
           o.customer_name as CUSTOMER,
           s.id as SHIP_ID,
           FROM_UNIXTIME(s.ship_ts_raw) as SHIP_TS,
           s.warehouse,
           TIMESTAMPDIFF(HOUR,
             TO_TIMESTAMP(FROM_UNIXTIME(o.order_ts_raw)),
             TO_TIMESTAMP(FROM_UNIXTIME(s.ship_ts_raw))) as HR_TO_SHIP
    FROM orders o inner join shipments s
    ON o.id = s.order_id
    AND TO_TIMESTAMP(FROM_UNIXTIME(s.ship_ts_raw))
     BETWEEN TO_TIMESTAMP(FROM_UNIXTIME(o.order_ts_raw))
     AND TO_TIMESTAMP(FROM_UNIXTIME(o.order_ts_raw))  + INTERVAL '7' DAY;

SELECT * FROM shipped_orders LIMIT 3;

CREATE TABLE orders (
    id INT,
    total_amount DOUBLE,
    customer_name VARCHAR,
    order_ts_raw BIGINT
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'id',
    'value.format' = 'json',
    'value.fields-include' = 'ALL'
);

CREATE TABLE shipments (
    id VARCHAR,
    order_id INT,
    warehouse VARCHAR,
    ship_ts_raw BIGINT
) WITH (
    'connector' = 'kafka',
    'topic' = 'shipments',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'id',
    'value.format' = 'json',
    'value.fields-include' = 'ALL'
);

CREATE TABLE shipped_orders (
    order_id INT,
    order_ts VARCHAR,
    total DOUBLE,
    customer VARCHAR,
    ship_id VARCHAR,
    ship_ts VARCHAR,
    warehouse VARCHAR,
    hours_to_ship INT
) WITH (
    'connector' = 'kafka',
    'topic' = 'shipped_orders',
    'properties.bootstrap.servers' = 'localhost:KAFKA_PORT',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'ship_id',
    'value.format' = 'json',
    'value.fields-include' = 'ALL'
);

SELECT * FROM shipped_orders;

SET 'sql-client.execution.result-mode' = 'changelog';

SET 'sql-client.execution.result-mode' = 'tableau';
