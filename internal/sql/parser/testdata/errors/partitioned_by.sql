CREATE TABLE t (a INT, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'datagen');
