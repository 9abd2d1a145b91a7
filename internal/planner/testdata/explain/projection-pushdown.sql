-- Projection pushdown into a Kafka source (Flink's
-- PushProjectIntoTableSourceScanRule and KafkaDynamicSource's
-- SupportsProjectionPushDown): the scan reads the physical columns the
-- query uses in the order it uses them (project=[...]), then the metadata
-- it uses (metadata=[...], by key, in declaration order, as in Flink's
-- KafkaTableITCase testProjectionPushdown* plans), plus the physical
-- columns its computed columns read and the watermark's column.
-- expect: TableSourceScan [I]
-- expect: Calc [I]
CREATE TABLE events (
    a STRING,
    b STRING,
    `topic` STRING NOT NULL METADATA VIRTUAL,
    c STRING,
    `part` INT NOT NULL METADATA FROM 'partition' VIRTUAL,
    d BIGINT,
    big_d AS d * 2,
    ts TIMESTAMP(3),
    WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'events',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

SELECT c, `part`, big_d, a, `topic` FROM events WHERE b <> 'x';
