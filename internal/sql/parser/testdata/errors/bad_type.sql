CREATE TABLE t (
    a INT,
    b TEXT
) WITH ('connector' = 'kafka');
