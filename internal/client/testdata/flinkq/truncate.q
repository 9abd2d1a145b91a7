# truncate.q - test truncate table statement, from Flink's SQL client test scripts
# (flink-table/flink-sql-client/src/test/resources/sql/truncate.q).
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

# truncate the table
# sluice: refused: tables over Kafka topics cannot be truncated
TRUNCATE TABLE t;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: TRUNCATE TABLE is not supported: tables over Kafka topics cannot be truncated
  TRUNCATE TABLE t;
  ^
!error

# query the table again
# sluice: differs: the rows remain, TRUNCATE being refused
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
