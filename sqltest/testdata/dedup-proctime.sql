-- Deduplication on processing time (Flink docs: Deduplication): PROCTIME() declares a
-- processing-time attribute; ROW_NUMBER ordered by it ascending keeps each key's first
-- row, emitted as it arrives (append-only).
-- https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/deduplication/
CREATE TABLE clicks (ip STRING, url STRING, pt AS PROCTIME())
WITH ('connector'='kafka','topic'='clicks','properties.bootstrap.servers'='localhost:KAFKA_PORT','scan.startup.mode'='earliest-offset','format'='json');
INSERT INTO clicks VALUES ('1','a'),('2','b'),('1','c'),('2','d'),('3','e');
SELECT ip, url FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY ip ORDER BY pt ASC) AS rn FROM clicks) WHERE rn = 1;
