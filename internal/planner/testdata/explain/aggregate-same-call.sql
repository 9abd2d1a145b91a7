-- The same aggregate call written twice (in the select list and in HAVING)
-- is one aggregate, and an argument read twice one column, as Calcite's
-- AggConverter builds them: Flink plans
--   LogicalFilter(condition=[>($1, 1)])
--   +- LogicalAggregate(group=[{0}], EXPR$1=[COUNT()], s=[SUM($1)])
-- expect: GroupAggregate [I,UB,UA]
CREATE TABLE t (a INT, b INT) WITH ('connector' = 'datagen');

SELECT a, COUNT(*), SUM(b) AS s, SUM(b) + 1 AS s1
FROM t
GROUP BY a
HAVING COUNT(*) > 1 AND SUM(b) > 2 AND MAX(b) > SUM(b);
