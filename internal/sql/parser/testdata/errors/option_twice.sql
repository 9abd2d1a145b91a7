CREATE TABLE t (a INT) WITH (
  'connector' = 'kafka',
  'format' = 'json',
  'topic' = 't',
  'format' = 'csv'
);
