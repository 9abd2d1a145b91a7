# module.q - LOAD/UNLOAD MODULE, USE/LIST/LIST FULL MODULES, from Flink's SQL client test scripts
# (flink-table/flink-sql-client/src/test/resources/sql/module.q); the statements after
# LOAD MODULE hive, which Sluice refuses, are those that repeat the ones above.
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

SET sql-client.execution.result-mode = tableau;
[INFO] Execute statement succeed.
!info

# sluice: refused: Sluice has Flink's core module only
SHOW MODULES;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: SHOW MODULES is not supported: Sluice has only Flink's core module
  SHOW MODULES;
       ^
!error

# sluice: refused: Sluice has Flink's core module only
SHOW FULL MODULES;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: SHOW FULL MODULES is not supported: Sluice has only Flink's core module
  SHOW FULL MODULES;
       ^
!error

# sluice: refused: Sluice has Flink's core module only
LOAD MODULE core;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: LOAD MODULE is not supported: Sluice has only the functions of Flink's core module
  LOAD MODULE core;
  ^
!error

# use hive built-in function without loading hive module
SELECT SUBSTRING_INDEX('www.apache.org', '.', 2) FROM (VALUES (1, 'Hello World')) AS T(id, str);
[ERROR] Could not execute SQL statement. Reason:
org.apache.calcite.sql.validate.SqlValidatorException: No match found for function signature SUBSTRING_INDEX(<CHARACTER>, <CHARACTER>, <NUMERIC>)
!error

# sluice: refused: Sluice has Flink's core module only
LOAD MODULE 'hive';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: LOAD MODULE is not supported: Sluice has only the functions of Flink's core module
  LOAD MODULE 'hive';
  ^
!error

# sluice: refused: Sluice has Flink's core module only
LOAD MODULE Hive;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: LOAD MODULE is not supported: Sluice has only the functions of Flink's core module
  LOAD MODULE Hive;
  ^
!error

# sluice: refused: Sluice has Flink's core module only
LOAD MODULE myhive WITH ('type' = 'hive');
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: LOAD MODULE is not supported: Sluice has only the functions of Flink's core module
  LOAD MODULE myhive WITH ('type' = 'hive');
  ^
!error

# sluice: refused: Sluice has Flink's core module only
LOAD MODULE hive;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: LOAD MODULE is not supported: Sluice has only the functions of Flink's core module
  LOAD MODULE hive;
  ^
!error

# sluice: refused: Sluice has Flink's core module only
USE MODULES hive, core, hive;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 5: USE MODULES is not supported
  USE MODULES hive, core, hive;
      ^
!error

# sluice: refused: Sluice has Flink's core module only
USE MODULES hive, core;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 5: USE MODULES is not supported
  USE MODULES hive, core;
      ^
!error

# sluice: refused: Sluice has Flink's core module only
USE MODULES core;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 5: USE MODULES is not supported
  USE MODULES core;
      ^
!error

# sluice: refused: Sluice has Flink's core module only
UNLOAD MODULE core;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: UNLOAD MODULE is not supported: Sluice has only the functions of Flink's core module
  UNLOAD MODULE core;
  ^
!error
