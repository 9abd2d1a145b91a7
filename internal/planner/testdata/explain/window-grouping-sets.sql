-- GROUPING SETS in a window aggregation: the Expand sits between the
-- window function's input and the window aggregation, which groups by the
-- columns and $e in every window.
-- expect: Expand [I]
-- expect: WindowAggregate [I]
CREATE TABLE bid (
    bidtime TIMESTAMP(3),
    price DECIMAL(10, 2),
    item STRING,
    supplier_id STRING,
    WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'bid',
    'properties.bootstrap.servers' = 'localhost:9092',
    'scan.startup.mode' = 'earliest-offset',
    'value.format' = 'json'
);

SELECT window_start, window_end, supplier_id, SUM(price) AS total_price, GROUPING(supplier_id) AS g
FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end, GROUPING SETS ((supplier_id), ());
