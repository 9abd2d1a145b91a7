-- 'How to create tumbling windows using Flink SQL': a window aggregation
-- emits each window once, when the watermark passes its end, so it is
-- insert-only and can feed a plain kafka sink.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/window-agg/
-- expect: WindowAggregate [I]
-- expect: Sink [NONE]
CREATE TABLE ratings (
    rating_id INT,
    title STRING,
    release_year INT,
    rating DOUBLE,
    ts TIMESTAMP(3),
    WATERMARK FOR ts AS ts
) WITH (
    'connector' = 'kafka',
    'topic' = 'ratings',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'raw',
    'key.fields' = 'rating_id',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://localhost:8081',
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
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'key.format' = 'avro-confluent',
    'key.avro-confluent.url' = 'http://localhost:8081',
    'key.fields' = 'title;window_start;window_end',
    'value.format' = 'avro-confluent',
    'value.avro-confluent.url' = 'http://localhost:8081',
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
