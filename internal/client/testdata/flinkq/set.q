# set.q - SET/RESET configuration, from Flink's SQL client test scripts
# (flink-table/flink-sql-client/src/test/resources/sql/set.q).
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

# test set a configuration
SET 'sql-client.execution.result-mode' = 'tableau';
[INFO] Execute statement succeed.
!info

SET 'table.dml-sync' = 'true';
[INFO] Execute statement succeed.
!info

# test "ctas"
# sluice: adapted: a Kafka topic instead of a file ('filesystem' is not among Sluice's connectors)
CREATE TABLE foo with(
  'connector' = 'kafka',
  'topic' = 'set_foo',
  'properties.bootstrap.servers' = '$VAR_BOOTSTRAP_SERVERS',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'format' = 'json'
) as select id FROM (VALUES (1)) T(id);
[INFO] Complete execution of the SQL update statement.
!info

RESET 'table.dml-sync';
[INFO] Execute statement succeed.
!info

SELECT * from foo;
+----+-------------+
| op |          id |
+----+-------------+
| +I |           1 |
+----+-------------+
Received a total of 1 row
!ok

# test add jar
# sluice: refused: Sluice runs no code from JARs
ADD JAR '$VAR_UDF_JAR_PATH';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: ADD JAR is not supported: Sluice runs no user code from JARs
  ADD JAR '$VAR_UDF_JAR_PATH';
  ^
!error

# sluice: refused: Sluice runs no code from JARs
SHOW JARS;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: SHOW JARS is not supported: Sluice runs no user code from JARs
  SHOW JARS;
       ^
!error

# sluice: refused: Sluice runs no code from JARs
REMOVE JAR '$VAR_UDF_JAR_PATH';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: REMOVE JAR is not supported: Sluice runs no user code from JARs
  REMOVE JAR '$VAR_UDF_JAR_PATH';
  ^
!error

# sluice: refused: Sluice runs no code from JARs
SHOW JARS;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: SHOW JARS is not supported: Sluice runs no user code from JARs
  SHOW JARS;
       ^
!error

reset 'table.resources.download-dir';
[INFO] Execute statement succeed.
!info

# list the configured configuration
# sluice: differs: Sluice lists every setting in effect, defaults included; Flink lists those of its configuration file and the session
set;
+------------------------------------------------------------------+------------------------+
|                                                              key |                  value |
+------------------------------------------------------------------+------------------------+
|        execution.checkpointing.externalized-checkpoint-retention | RETAIN_ON_CANCELLATION |
|                              execution.checkpointing.incremental |                  false |
|               execution.checkpointing.max-concurrent-checkpoints |                      1 |
|                                execution.checkpointing.min-pause |                   0 ms |
|                                     execution.checkpointing.mode |           EXACTLY_ONCE |
|                             execution.checkpointing.num-retained |                      1 |
|                                  execution.checkpointing.timeout |                 10 min |
|             execution.checkpointing.tolerable-failed-checkpoints |                      0 |
|                        execution.checkpointing.unaligned.enabled |                  false |
|                  execution.state-recovery.ignore-unclaimed-state |                  false |
|                                              parallelism.default |                      1 |
|                                 pipeline.auto-watermark-interval |                 200 ms |
|                                         pipeline.max-parallelism |                    128 |
|                               pipeline.operator-chaining.enabled |                   true |
| restart-strategy.exponential-delay.attempts-before-reset-backoff |             2147483647 |
|            restart-strategy.exponential-delay.backoff-multiplier |                    1.5 |
|               restart-strategy.exponential-delay.initial-backoff |                    1 s |
|                 restart-strategy.exponential-delay.jitter-factor |                    0.1 |
|                   restart-strategy.exponential-delay.max-backoff |                  1 min |
|       restart-strategy.exponential-delay.reset-backoff-threshold |                    1 h |
|                              restart-strategy.failure-rate.delay |                    1 s |
|              restart-strategy.failure-rate.failure-rate-interval |                  1 min |
|          restart-strategy.failure-rate.max-failures-per-interval |                      1 |
|                            restart-strategy.fixed-delay.attempts |                      1 |
|                               restart-strategy.fixed-delay.delay |                    1 s |
|                                  sql-client.display.color-schema |                DEFAULT |
|                               sql-client.display.print-time-cost |                  false |
|                       sql-client.execution.max-table-result.rows |                1000000 |
|                                 sql-client.execution.result-mode |                tableau |
|                                               sql-client.verbose |                  false |
|                                               state.backend.type |                hashmap |
|                                   table.display.max-column-width |                     30 |
|                                                   table.dml-sync |                  false |
|                              table.exec.mini-batch.allow-latency |                   0 ms |
|                                    table.exec.mini-batch.enabled |                  false |
|                                       table.exec.mini-batch.size |                     -1 |
|                          table.exec.resource.default-parallelism |                     -1 |
|                                table.exec.sink.not-null-enforcer |                  ERROR |
|                                   table.exec.source.idle-timeout |                   0 ms |
|                                            table.local-time-zone |                default |
|                               table.optimizer.agg-phase-strategy |                   AUTO |
|                             table.optimizer.reuse-source-enabled |                   true |
|                           table.optimizer.reuse-sub-plan-enabled |                   true |
|                                       table.plan.force-recompile |                  false |
|                                                table.sql-dialect |                default |
+------------------------------------------------------------------+------------------------+
45 rows in set
!ok

# reset the configuration
reset;
[INFO] Execute statement succeed.
!info

# sluice: differs: Sluice lists every setting in effect, defaults included; Flink lists those of its configuration file and the session
set;
+------------------------------------------------------------------+------------------------+
|                                                              key |                  value |
+------------------------------------------------------------------+------------------------+
|        execution.checkpointing.externalized-checkpoint-retention | RETAIN_ON_CANCELLATION |
|                              execution.checkpointing.incremental |                  false |
|               execution.checkpointing.max-concurrent-checkpoints |                      1 |
|                                execution.checkpointing.min-pause |                   0 ms |
|                                     execution.checkpointing.mode |           EXACTLY_ONCE |
|                             execution.checkpointing.num-retained |                      1 |
|                                  execution.checkpointing.timeout |                 10 min |
|             execution.checkpointing.tolerable-failed-checkpoints |                      0 |
|                        execution.checkpointing.unaligned.enabled |                  false |
|                  execution.state-recovery.ignore-unclaimed-state |                  false |
|                                              parallelism.default |                      1 |
|                                 pipeline.auto-watermark-interval |                 200 ms |
|                                         pipeline.max-parallelism |                    128 |
|                               pipeline.operator-chaining.enabled |                   true |
| restart-strategy.exponential-delay.attempts-before-reset-backoff |             2147483647 |
|            restart-strategy.exponential-delay.backoff-multiplier |                    1.5 |
|               restart-strategy.exponential-delay.initial-backoff |                    1 s |
|                 restart-strategy.exponential-delay.jitter-factor |                    0.1 |
|                   restart-strategy.exponential-delay.max-backoff |                  1 min |
|       restart-strategy.exponential-delay.reset-backoff-threshold |                    1 h |
|                              restart-strategy.failure-rate.delay |                    1 s |
|              restart-strategy.failure-rate.failure-rate-interval |                  1 min |
|          restart-strategy.failure-rate.max-failures-per-interval |                      1 |
|                            restart-strategy.fixed-delay.attempts |                      1 |
|                               restart-strategy.fixed-delay.delay |                    1 s |
|                                  sql-client.display.color-schema |                DEFAULT |
|                               sql-client.display.print-time-cost |                  false |
|                       sql-client.execution.max-table-result.rows |                1000000 |
|                                 sql-client.execution.result-mode |                  table |
|                                               sql-client.verbose |                  false |
|                                               state.backend.type |                hashmap |
|                                   table.display.max-column-width |                     30 |
|                                                   table.dml-sync |                  false |
|                              table.exec.mini-batch.allow-latency |                   0 ms |
|                                    table.exec.mini-batch.enabled |                  false |
|                                       table.exec.mini-batch.size |                     -1 |
|                          table.exec.resource.default-parallelism |                     -1 |
|                                table.exec.sink.not-null-enforcer |                  ERROR |
|                                   table.exec.source.idle-timeout |                   0 ms |
|                                            table.local-time-zone |                default |
|                               table.optimizer.agg-phase-strategy |                   AUTO |
|                             table.optimizer.reuse-source-enabled |                   true |
|                           table.optimizer.reuse-sub-plan-enabled |                   true |
|                                       table.plan.force-recompile |                  false |
|                                                table.sql-dialect |                default |
+------------------------------------------------------------------+------------------------+
45 rows in set
!ok

# should fail because default dialect doesn't support hive dialect
# sluice: refused: partitioned tables (Flink, in the default dialect, reads PARTITIONED BY's list as column names and stops at the type)
CREATE TABLE hive_table2 (
  product_id STRING,
  product_name STRING,
  unit_price DECIMAL(10, 4),
  pv_count BIGINT,
  like_count BIGINT,
  comment_count BIGINT,
  update_time TIMESTAMP(3),
  update_user STRING
) PARTITIONED BY (pt_year STRING, pt_month STRING, pt_day STRING) TBLPROPERTIES (
  'streaming-source.enable' = 'true'
);
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 10, column 3: PARTITIONED BY is not supported: tables over Kafka topics have no partitions in Flink's sense (those of the filesystem and Hive connectors)
  ) PARTITIONED BY (pt_year STRING, pt_month STRING, pt_day STRING) TBLPROPERTIES (
    ^
!error

set 'sql-client.verbose' = 'true';
[INFO] Execute statement succeed.
!info

# sluice: differs: Sluice lists every setting in effect, defaults included; Flink lists those of its configuration file and the session
set;
+------------------------------------------------------------------+------------------------+
|                                                              key |                  value |
+------------------------------------------------------------------+------------------------+
|        execution.checkpointing.externalized-checkpoint-retention | RETAIN_ON_CANCELLATION |
|                              execution.checkpointing.incremental |                  false |
|               execution.checkpointing.max-concurrent-checkpoints |                      1 |
|                                execution.checkpointing.min-pause |                   0 ms |
|                                     execution.checkpointing.mode |           EXACTLY_ONCE |
|                             execution.checkpointing.num-retained |                      1 |
|                                  execution.checkpointing.timeout |                 10 min |
|             execution.checkpointing.tolerable-failed-checkpoints |                      0 |
|                        execution.checkpointing.unaligned.enabled |                  false |
|                  execution.state-recovery.ignore-unclaimed-state |                  false |
|                                              parallelism.default |                      1 |
|                                 pipeline.auto-watermark-interval |                 200 ms |
|                                         pipeline.max-parallelism |                    128 |
|                               pipeline.operator-chaining.enabled |                   true |
| restart-strategy.exponential-delay.attempts-before-reset-backoff |             2147483647 |
|            restart-strategy.exponential-delay.backoff-multiplier |                    1.5 |
|               restart-strategy.exponential-delay.initial-backoff |                    1 s |
|                 restart-strategy.exponential-delay.jitter-factor |                    0.1 |
|                   restart-strategy.exponential-delay.max-backoff |                  1 min |
|       restart-strategy.exponential-delay.reset-backoff-threshold |                    1 h |
|                              restart-strategy.failure-rate.delay |                    1 s |
|              restart-strategy.failure-rate.failure-rate-interval |                  1 min |
|          restart-strategy.failure-rate.max-failures-per-interval |                      1 |
|                            restart-strategy.fixed-delay.attempts |                      1 |
|                               restart-strategy.fixed-delay.delay |                    1 s |
|                                  sql-client.display.color-schema |                DEFAULT |
|                               sql-client.display.print-time-cost |                  false |
|                       sql-client.execution.max-table-result.rows |                1000000 |
|                                 sql-client.execution.result-mode |                  table |
|                                               sql-client.verbose |                   true |
|                                               state.backend.type |                hashmap |
|                                   table.display.max-column-width |                     30 |
|                                                   table.dml-sync |                  false |
|                              table.exec.mini-batch.allow-latency |                   0 ms |
|                                    table.exec.mini-batch.enabled |                  false |
|                                       table.exec.mini-batch.size |                     -1 |
|                          table.exec.resource.default-parallelism |                     -1 |
|                                table.exec.sink.not-null-enforcer |                  ERROR |
|                                   table.exec.source.idle-timeout |                   0 ms |
|                                            table.local-time-zone |                default |
|                               table.optimizer.agg-phase-strategy |                   AUTO |
|                             table.optimizer.reuse-source-enabled |                   true |
|                           table.optimizer.reuse-sub-plan-enabled |                   true |
|                                       table.plan.force-recompile |                  false |
|                                                table.sql-dialect |                default |
+------------------------------------------------------------------+------------------------+
45 rows in set
!ok

# sluice: refused: the client stays attached to the jobs it runs
set 'execution.attached' = 'false';
[ERROR] Could not execute SQL statement. Reason:
'execution.attached' = 'false' is not supported (the client stays attached to the jobs it runs); only 'true' is
!error

reset 'execution.attached';
[INFO] Execute statement succeed.
!info

# sluice: differs: Sluice lists every setting in effect, defaults included; Flink lists those of its configuration file and the session
set;
+------------------------------------------------------------------+------------------------+
|                                                              key |                  value |
+------------------------------------------------------------------+------------------------+
|        execution.checkpointing.externalized-checkpoint-retention | RETAIN_ON_CANCELLATION |
|                              execution.checkpointing.incremental |                  false |
|               execution.checkpointing.max-concurrent-checkpoints |                      1 |
|                                execution.checkpointing.min-pause |                   0 ms |
|                                     execution.checkpointing.mode |           EXACTLY_ONCE |
|                             execution.checkpointing.num-retained |                      1 |
|                                  execution.checkpointing.timeout |                 10 min |
|             execution.checkpointing.tolerable-failed-checkpoints |                      0 |
|                        execution.checkpointing.unaligned.enabled |                  false |
|                  execution.state-recovery.ignore-unclaimed-state |                  false |
|                                              parallelism.default |                      1 |
|                                 pipeline.auto-watermark-interval |                 200 ms |
|                                         pipeline.max-parallelism |                    128 |
|                               pipeline.operator-chaining.enabled |                   true |
| restart-strategy.exponential-delay.attempts-before-reset-backoff |             2147483647 |
|            restart-strategy.exponential-delay.backoff-multiplier |                    1.5 |
|               restart-strategy.exponential-delay.initial-backoff |                    1 s |
|                 restart-strategy.exponential-delay.jitter-factor |                    0.1 |
|                   restart-strategy.exponential-delay.max-backoff |                  1 min |
|       restart-strategy.exponential-delay.reset-backoff-threshold |                    1 h |
|                              restart-strategy.failure-rate.delay |                    1 s |
|              restart-strategy.failure-rate.failure-rate-interval |                  1 min |
|          restart-strategy.failure-rate.max-failures-per-interval |                      1 |
|                            restart-strategy.fixed-delay.attempts |                      1 |
|                               restart-strategy.fixed-delay.delay |                    1 s |
|                                  sql-client.display.color-schema |                DEFAULT |
|                               sql-client.display.print-time-cost |                  false |
|                       sql-client.execution.max-table-result.rows |                1000000 |
|                                 sql-client.execution.result-mode |                  table |
|                                               sql-client.verbose |                   true |
|                                               state.backend.type |                hashmap |
|                                   table.display.max-column-width |                     30 |
|                                                   table.dml-sync |                  false |
|                              table.exec.mini-batch.allow-latency |                   0 ms |
|                                    table.exec.mini-batch.enabled |                  false |
|                                       table.exec.mini-batch.size |                     -1 |
|                          table.exec.resource.default-parallelism |                     -1 |
|                                table.exec.sink.not-null-enforcer |                  ERROR |
|                                   table.exec.source.idle-timeout |                   0 ms |
|                                            table.local-time-zone |                default |
|                               table.optimizer.agg-phase-strategy |                   AUTO |
|                             table.optimizer.reuse-source-enabled |                   true |
|                           table.optimizer.reuse-sub-plan-enabled |                   true |
|                                       table.plan.force-recompile |                  false |
|                                                table.sql-dialect |                default |
+------------------------------------------------------------------+------------------------+
45 rows in set
!ok

# test reset can work with add jar
# sluice: refused: Sluice runs no code from JARs
ADD JAR '$VAR_UDF_JAR_PATH';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: ADD JAR is not supported: Sluice runs no user code from JARs
  ADD JAR '$VAR_UDF_JAR_PATH';
  ^
!error

# sluice: refused: Sluice runs no code from JARs
SHOW JARS;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: SHOW JARS is not supported: Sluice runs no user code from JARs
  SHOW JARS;
       ^
!error

# sluice: differs: Sluice lists every setting in effect, defaults included; Flink lists those of its configuration file and the session
set;
+------------------------------------------------------------------+------------------------+
|                                                              key |                  value |
+------------------------------------------------------------------+------------------------+
|        execution.checkpointing.externalized-checkpoint-retention | RETAIN_ON_CANCELLATION |
|                              execution.checkpointing.incremental |                  false |
|               execution.checkpointing.max-concurrent-checkpoints |                      1 |
|                                execution.checkpointing.min-pause |                   0 ms |
|                                     execution.checkpointing.mode |           EXACTLY_ONCE |
|                             execution.checkpointing.num-retained |                      1 |
|                                  execution.checkpointing.timeout |                 10 min |
|             execution.checkpointing.tolerable-failed-checkpoints |                      0 |
|                        execution.checkpointing.unaligned.enabled |                  false |
|                  execution.state-recovery.ignore-unclaimed-state |                  false |
|                                              parallelism.default |                      1 |
|                                 pipeline.auto-watermark-interval |                 200 ms |
|                                         pipeline.max-parallelism |                    128 |
|                               pipeline.operator-chaining.enabled |                   true |
| restart-strategy.exponential-delay.attempts-before-reset-backoff |             2147483647 |
|            restart-strategy.exponential-delay.backoff-multiplier |                    1.5 |
|               restart-strategy.exponential-delay.initial-backoff |                    1 s |
|                 restart-strategy.exponential-delay.jitter-factor |                    0.1 |
|                   restart-strategy.exponential-delay.max-backoff |                  1 min |
|       restart-strategy.exponential-delay.reset-backoff-threshold |                    1 h |
|                              restart-strategy.failure-rate.delay |                    1 s |
|              restart-strategy.failure-rate.failure-rate-interval |                  1 min |
|          restart-strategy.failure-rate.max-failures-per-interval |                      1 |
|                            restart-strategy.fixed-delay.attempts |                      1 |
|                               restart-strategy.fixed-delay.delay |                    1 s |
|                                  sql-client.display.color-schema |                DEFAULT |
|                               sql-client.display.print-time-cost |                  false |
|                       sql-client.execution.max-table-result.rows |                1000000 |
|                                 sql-client.execution.result-mode |                  table |
|                                               sql-client.verbose |                   true |
|                                               state.backend.type |                hashmap |
|                                   table.display.max-column-width |                     30 |
|                                                   table.dml-sync |                  false |
|                              table.exec.mini-batch.allow-latency |                   0 ms |
|                                    table.exec.mini-batch.enabled |                  false |
|                                       table.exec.mini-batch.size |                     -1 |
|                          table.exec.resource.default-parallelism |                     -1 |
|                                table.exec.sink.not-null-enforcer |                  ERROR |
|                                   table.exec.source.idle-timeout |                   0 ms |
|                                            table.local-time-zone |                default |
|                               table.optimizer.agg-phase-strategy |                   AUTO |
|                             table.optimizer.reuse-source-enabled |                   true |
|                           table.optimizer.reuse-sub-plan-enabled |                   true |
|                                       table.plan.force-recompile |                  false |
|                                                table.sql-dialect |                default |
+------------------------------------------------------------------+------------------------+
45 rows in set
!ok

reset;
[INFO] Execute statement succeed.
!info

# sluice: refused: Sluice runs no code from JARs
SHOW JARS;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: SHOW JARS is not supported: Sluice runs no user code from JARs
  SHOW JARS;
       ^
!error

SET 'sql-client.execution.result-mode' = 'tableau';
[INFO] Execute statement succeed.
!info

SET 'sql-client.display.print-time-cost' = 'false';
[INFO] Execute statement succeed.
!info

# sluice: refused: Sluice runs no user-defined functions
create function func1 as 'LowerUDF' LANGUAGE JAVA;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 8: CREATE FUNCTION is not supported: Sluice runs no user-defined functions (JARs or Python)
  create function func1 as 'LowerUDF' LANGUAGE JAVA;
         ^
!error

# sluice: differs: the function was not created
SELECT id, func1(str) FROM (VALUES (1, 'Hello World')) AS T(id, str) ;
[ERROR] Could not execute SQL statement. Reason:
SQL validation error at line 1, column 12: No match found for function signature func1(<CHARACTER>)
  SELECT id, func1(str) FROM (VALUES (1, 'Hello World')) AS T(id, str) ;
             ^
!error

# sluice: refused: Sluice runs no code from JARs
REMOVE JAR '$VAR_UDF_JAR_PATH';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: REMOVE JAR is not supported: Sluice runs no user code from JARs
  REMOVE JAR '$VAR_UDF_JAR_PATH';
  ^
!error

# sluice: refused: Sluice runs no code from JARs
SHOW JARS;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: SHOW JARS is not supported: Sluice runs no user code from JARs
  SHOW JARS;
       ^
!error
