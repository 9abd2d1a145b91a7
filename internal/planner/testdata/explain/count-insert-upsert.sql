-- 'How to count a stream of events': the persistent query writing the
-- counts to an upsert-kafka table keyed by title.
-- expect: Sink [NONE]
-- expect: GroupAggregate [I,UB,UA]
CREATE TABLE movie_ticket_sales (
    title STRING,
    sales_ts STRING,
    total_ticket_value BIGINT
) WITH (
    'connector' = 'kafka',
    'topic' = 'movie-ticket-sales',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'title',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://localhost:8081',
    'value.fields-include' = 'EXCEPT_KEY'
);

CREATE TABLE movie_ticket_sales_by_title (
    title STRING,
    tickets_sold BIGINT,
    PRIMARY KEY (title) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'movie-ticket-sales-by-title',
    'properties.bootstrap.servers' = 'localhost:9092',
    'key.format' = 'raw',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://localhost:8081',
    'value.fields-include' = 'EXCEPT_KEY'
);

INSERT INTO movie_ticket_sales_by_title
SELECT title, COUNT(total_ticket_value) AS tickets_sold
FROM movie_ticket_sales
GROUP BY title;
