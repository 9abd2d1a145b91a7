-- 'How to find distinct values in a stream of events': ROW_NUMBER() ordered
-- by a computed timestamp, which is not a time attribute, so Flink plans a
-- Top-1 Rank (not a Deduplicate) that retracts its earlier pick.
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/deduplication/
-- expect: Rank [I,UB,UA]
-- expect: Sink [NONE]
CREATE TABLE clicks (
    ip_address VARCHAR,
    url VARCHAR,
    click_ts_raw BIGINT
) WITH (
    'connector' = 'kafka',
    'topic' = 'clicks',
    'properties.bootstrap.servers' = 'localhost:9092',
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
    'properties.bootstrap.servers' = 'localhost:9092',
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
