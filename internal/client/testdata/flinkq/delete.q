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
SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeed.
!info

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
SELECT * FROM t;
+---+-----+-----+
| a |   b |   c |
+---+-----+-----+
| 0 | b_0 | 0.0 |
| 1 | b_1 | 2.0 |
| 2 | b_2 | 4.0 |
| 3 | b_3 | 6.0 |
| 4 | b_4 | 8.0 |
+---+-----+-----+
5 rows in set
!ok

# delete the table with condition containing subquery which can't be push down, so that it'll submit a job;
# sluice: refused: tables over Kafka topics take no row-level DELETE
DELETE FROM t WHERE a >= (SELECT COUNT(1) FROM t WHERE c > 2);
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: DELETE is not supported: tables over Kafka topics take no row-level DELETE (Flink runs it in batch mode on connectors that support it)
  DELETE FROM t WHERE a >= (SELECT COUNT(1) FROM t WHERE c > 2);
  ^
!error

# query the table
# sluice: differs: the rows remain, DELETE being refused
SELECT * FROM t;
+---+-----+-----+
| a |   b |   c |
+---+-----+-----+
| 0 | b_0 | 0.0 |
| 1 | b_1 | 2.0 |
| 2 | b_2 | 4.0 |
| 3 | b_3 | 6.0 |
| 4 | b_4 | 8.0 |
+---+-----+-----+
5 rows in set
!ok

# delete the table with filter push down
# sluice: refused: tables over Kafka topics take no row-level DELETE
DELETE FROM t;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: DELETE is not supported: tables over Kafka topics take no row-level DELETE (Flink runs it in batch mode on connectors that support it)
  DELETE FROM t;
  ^
!error
