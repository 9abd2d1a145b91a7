-- 'How to count a stream of events': the transient query counting tickets
-- per title. An unbounded GROUP BY updates its result as rows arrive.
-- expect: GroupAggregate [I,UB,UA]
-- expect: TableSourceScan [I]
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

SELECT title, COUNT(total_ticket_value) AS tickets_sold
FROM movie_ticket_sales
GROUP BY title;
