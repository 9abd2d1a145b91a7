CREATE TABLE t (a INT) WITH ('k' = 1);
