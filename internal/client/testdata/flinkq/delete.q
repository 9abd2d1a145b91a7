# delete.q - test delete statement, from Flink's SQL client test scripts
# (flink-table/flink-sql-client/src/test/resources/sql/delete.q).
#
# Licensed to the Apache Software Foundation (ASF) under one or more
# contributor license agreements.  See the NOTICE file distributed with
# this work for additional information regarding copyright ownership.
# The ASF licenses this file to you under the Apache License, Version 2.0
# (the "License"); you may not use this file except in compliance with
# the License.  You may obtain a copy of the License at
#
# http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# first set batch mode
# sluice: refused: batch execution
SET 'execution.runtime-mode' = 'batch';
[ERROR] Could not execute SQL statement. Reason:
'execution.runtime-mode' = 'batch' is not supported yet (batch execution prints final results instead of changelogs); only 'streaming' is
!error

SET 'sql-client.execution.result-mode' = 'tableau';
[INFO] Execute statement succeed.
!info

SET 'table.dml-sync' = 'true';
[INFO] Execute statement succeed.
!info

# create a table first
# sluice: adapted: 'test-update-delete' is a connector of Flink's tests; datagen gives its five rows
CREATE TABLE t (a int PRIMARY KEY NOT ENFORCED, b AS CONCAT('b_', CAST(a AS STRING)), c AS CAST(a * 2 AS DOUBLE))
WITH (
  'connector' = 'datagen',
  'fields.a.kind' = 'sequence',
  'fields.a.start' = '0',
  'fields.a.end' = '4'
);
[INFO] Execute statement succeed.
!info

# query the table first
# sluice: differs: runs in streaming mode, batch being refused
SELECT * FROM t;
+----+-------------+--------------------------------+--------------------------------+
| op |           a |                              b |                              c |
+----+-------------+--------------------------------+--------------------------------+
| +I |           0 |                            b_0 |                            0.0 |
| +I |           1 |                            b_1 |                            2.0 |
| +I |           2 |                            b_2 |                            4.0 |
| +I |           3 |                            b_3 |                            6.0 |
| +I |           4 |                            b_4 |                            8.0 |
+----+-------------+--------------------------------+--------------------------------+
Received a total of 5 rows
!ok

# delete the table with condition containing subquery which can't be push down, so that it'll submit a job;
# sluice: refused: streaming mode, as Flink refuses DELETE there
DELETE FROM t WHERE a >= (SELECT COUNT(1) FROM t WHERE c > 2);
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: DELETE is not supported: as Flink, Sluice runs no row-level DELETE in streaming mode
  DELETE FROM t WHERE a >= (SELECT COUNT(1) FROM t WHERE c > 2);
  ^
!error

# query the table
# sluice: differs: the rows remain, DELETE being refused
SELECT * FROM t;
+----+-------------+--------------------------------+--------------------------------+
| op |           a |                              b |                              c |
+----+-------------+--------------------------------+--------------------------------+
| +I |           0 |                            b_0 |                            0.0 |
| +I |           1 |                            b_1 |                            2.0 |
| +I |           2 |                            b_2 |                            4.0 |
| +I |           3 |                            b_3 |                            6.0 |
| +I |           4 |                            b_4 |                            8.0 |
+----+-------------+--------------------------------+--------------------------------+
Received a total of 5 rows
!ok

# delete the table with filter push down
# sluice: refused: streaming mode, as Flink refuses DELETE there
DELETE FROM t;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: DELETE is not supported: as Flink, Sluice runs no row-level DELETE in streaming mode
  DELETE FROM t;
  ^
!error
