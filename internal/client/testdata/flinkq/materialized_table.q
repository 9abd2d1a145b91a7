# materialized_table.q - CREATE/DROP/SHOW/ALTER MATERIALIZED TABLE, from Flink's SQL client
# test scripts (flink-table/flink-sql-client/src/test/resources/sql/materialized_table.q), with
# the messages of Flink 1.17-1.20's client ('Execute statement succeed.'; Flink 2 writes
# 'succeeded'). Sluice has no materialized tables (Flink refreshes them by a workflow
# scheduler or a continuous job that the SQL Gateway manages) and refuses their statements.
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

# ==========================================================================
# test create source table
# ==========================================================================

CREATE TABLE datagenSource (
  order_id BIGINT,
  order_number VARCHAR(20),
  user_id BIGINT,
  shop_id BIGINT,
  product_id BIGINT,
  status BIGINT,
  order_type BIGINT,
  order_created_at TIMESTAMP(3),
  payment_amount_cents BIGINT
)
WITH (
  'connector' = 'datagen',
  'rows-per-second' = '10'
);
[INFO] Execute statement succeed.
!info

# ==========================================================================
# test create materialized table without explicit FRESHNESS (uses default)
# REFRESH_MODE = CONTINUOUS to avoid workflow scheduler requirement
# ==========================================================================

# sluice: refused: materialized tables
CREATE MATERIALIZED TABLE users_shops
PARTITIONED BY (ds)
WITH(
   'connector' = 'blackhole'
)
REFRESH_MODE = CONTINUOUS
AS SELECT
  user_id,
  shop_id,
  ds,
  SUM (payment_amount_cents) AS payed_buy_fee_sum,
  SUM (1) AS pv
 FROM (
    SELECT user_id, shop_id, DATE_FORMAT(order_created_at, 'yyyy-MM-dd') AS ds, payment_amount_cents FROM datagenSource
 ) AS tmp
 GROUP BY user_id, shop_id, ds;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 8: CREATE MATERIALIZED TABLE is not supported: Sluice has no materialized tables (Flink's SQL Gateway refreshes them by jobs or workflows it schedules); use CREATE TABLE ... AS SELECT or INSERT INTO
  CREATE MATERIALIZED TABLE users_shops
         ^
!error

# ==========================================================================
# test SHOW CREATE MATERIALIZED TABLE displays enriched FRESHNESS
# ==========================================================================

# sluice: refused: materialized tables
SHOW CREATE MATERIALIZED TABLE users_shops;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 13: SHOW CREATE MATERIALIZED TABLE is not supported: Sluice has no materialized tables (Flink's SQL Gateway refreshes them by jobs or workflows it schedules); use CREATE TABLE ... AS SELECT or INSERT INTO
  SHOW CREATE MATERIALIZED TABLE users_shops;
              ^
!error

# ==========================================================================
# test create materialized table with explicit FRESHNESS
# ==========================================================================

# sluice: refused: materialized tables
CREATE MATERIALIZED TABLE users_shops_explicit
PARTITIONED BY (ds)
WITH(
   'connector' = 'blackhole'
)
FRESHNESS = INTERVAL '10' SECOND
REFRESH_MODE = CONTINUOUS
AS SELECT
  user_id,
  shop_id,
  ds,
  SUM (payment_amount_cents) AS payed_buy_fee_sum,
  SUM (1) AS pv
 FROM (
    SELECT user_id, shop_id, DATE_FORMAT(order_created_at, 'yyyy-MM-dd') AS ds, payment_amount_cents FROM datagenSource
 ) AS tmp
 GROUP BY user_id, shop_id, ds;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 8: CREATE MATERIALIZED TABLE is not supported: Sluice has no materialized tables (Flink's SQL Gateway refreshes them by jobs or workflows it schedules); use CREATE TABLE ... AS SELECT or INSERT INTO
  CREATE MATERIALIZED TABLE users_shops_explicit
         ^
!error

# verify explicit FRESHNESS is preserved
# sluice: refused: materialized tables
SHOW CREATE MATERIALIZED TABLE users_shops_explicit;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 13: SHOW CREATE MATERIALIZED TABLE is not supported: Sluice has no materialized tables (Flink's SQL Gateway refreshes them by jobs or workflows it schedules); use CREATE TABLE ... AS SELECT or INSERT INTO
  SHOW CREATE MATERIALIZED TABLE users_shops_explicit;
              ^
!error

# ==========================================================================
# test create materialized table without FRESHNESS or REFRESH_MODE
# ==========================================================================

# sluice: refused: materialized tables
CREATE MATERIALIZED TABLE users_shops_continuous
WITH(
   'connector' = 'blackhole'
)
AS SELECT
  user_id,
  shop_id,
  SUM (payment_amount_cents) AS payed_buy_fee_sum,
  SUM (1) AS pv
 FROM datagenSource
 GROUP BY user_id, shop_id;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 8: CREATE MATERIALIZED TABLE is not supported: Sluice has no materialized tables (Flink's SQL Gateway refreshes them by jobs or workflows it schedules); use CREATE TABLE ... AS SELECT or INSERT INTO
  CREATE MATERIALIZED TABLE users_shops_continuous
         ^
!error

# verify default CONTINUOUS mode with default freshness (3 minutes)
# sluice: refused: materialized tables
SHOW CREATE MATERIALIZED TABLE users_shops_continuous;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 13: SHOW CREATE MATERIALIZED TABLE is not supported: Sluice has no materialized tables (Flink's SQL Gateway refreshes them by jobs or workflows it schedules); use CREATE TABLE ... AS SELECT or INSERT INTO
  SHOW CREATE MATERIALIZED TABLE users_shops_continuous;
              ^
!error

# ==========================================================================
# test cleanup
# ==========================================================================

# sluice: refused: materialized tables
DROP MATERIALIZED TABLE users_shops;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: DROP MATERIALIZED TABLE is not supported: Sluice has no materialized tables (Flink's SQL Gateway refreshes them by jobs or workflows it schedules); use CREATE TABLE ... AS SELECT or INSERT INTO
  DROP MATERIALIZED TABLE users_shops;
       ^
!error

# sluice: refused: materialized tables
DROP MATERIALIZED TABLE users_shops_explicit;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: DROP MATERIALIZED TABLE is not supported: Sluice has no materialized tables (Flink's SQL Gateway refreshes them by jobs or workflows it schedules); use CREATE TABLE ... AS SELECT or INSERT INTO
  DROP MATERIALIZED TABLE users_shops_explicit;
       ^
!error

# sluice: refused: materialized tables
DROP MATERIALIZED TABLE users_shops_continuous;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: DROP MATERIALIZED TABLE is not supported: Sluice has no materialized tables (Flink's SQL Gateway refreshes them by jobs or workflows it schedules); use CREATE TABLE ... AS SELECT or INSERT INTO
  DROP MATERIALIZED TABLE users_shops_continuous;
       ^
!error

DROP TABLE datagenSource;
[INFO] Execute statement succeed.
!info
