-- A datagen table's watermark is a WatermarkAssigner over the scan, as
-- Flink's DataGenTableSource does not implement SupportsWatermarkPushDown:
-- the projection the query reads (with the time attribute) is pushed
-- below it, computed columns computed there, and the filter stays above
-- (flink-sql-client's table.q, "test explain plan for select";
-- ProjectWatermarkAssignerTransposeRule).
-- expect: WatermarkAssigner [I]
-- expect: TableSourceScan [I]
CREATE TABLE orders (
    `user` BIGINT,
    product STRING,
    amount INT,
    ts TIMESTAMP(3),
    total AS amount * 2,
    ptime AS PROCTIME(),
    WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'datagen');

SELECT product, total FROM orders WHERE amount > 10;
