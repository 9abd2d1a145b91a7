# function.q - CREATE/DROP/ALTER FUNCTION, from Flink's SQL client test scripts
# (flink-table/flink-sql-client/src/test/resources/sql/function.q).
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


# this also tests user classloader because the LowerUDF is in user jar

# sluice: refused: Sluice runs no user-defined functions
create function func1 as 'LowerUDF' LANGUAGE JAVA;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 8: CREATE FUNCTION is not supported: Sluice runs no user-defined functions (JARs or Python)
  create function func1 as 'LowerUDF' LANGUAGE JAVA;
         ^
!error

# sluice: differs: no user-defined functions were created
show user functions;
Empty set
!ok

# sluice: differs: no user-defined functions were created
show user functions like 'func%';
Empty set
!ok

# sluice: differs: no user-defined functions were created
show user functions ilike 'func%';
Empty set
!ok

SET 'sql-client.execution.result-mode' = 'tableau';
[INFO] Execute statement succeed.
!info


# run a query to verify the registered UDF works

# sluice: differs: the function was not created
SELECT id, func1(str) FROM (VALUES (1, 'Hello World'), (2, 'Hi')) as T(id, str);
[ERROR] Could not execute SQL statement. Reason:
SQL validation error at line 1, column 12: No match found for function signature func1(<CHARACTER>)
  SELECT id, func1(str) FROM (VALUES (1, 'Hello World'), (2, 'Hi')) as T(id, str);
             ^
!error


# ====== test temporary function ======

# sluice: refused: Sluice runs no user-defined functions
create temporary function if not exists func2 as 'LowerUDF' LANGUAGE JAVA;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 18: CREATE FUNCTION is not supported: Sluice runs no user-defined functions (JARs or Python)
  create temporary function if not exists func2 as 'LowerUDF' LANGUAGE JAVA;
                   ^
!error

# sluice: differs: no user-defined functions were created
show user functions;
Empty set
!ok

# sluice: differs: no user-defined functions were created
show user functions like 'func1%';
Empty set
!ok

# sluice: differs: no user-defined functions were created
show user functions ilike 'func2%';
Empty set
!ok


# ====== test function with full qualified name ======

create catalog c1 with ('type'='generic_in_memory');
[INFO] Execute statement succeed.
!info

use catalog c1;
[INFO] Execute statement succeed.
!info

create database db;
[INFO] Execute statement succeed.
!info

use catalog default_catalog;
[INFO] Execute statement succeed.
!info

# sluice: refused: Sluice runs no user-defined functions
create function c1.db.func3 as 'LowerUDF' LANGUAGE JAVA;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 8: CREATE FUNCTION is not supported: Sluice runs no user-defined functions (JARs or Python)
  create function c1.db.func3 as 'LowerUDF' LANGUAGE JAVA;
         ^
!error

# sluice: refused: Sluice runs no user-defined functions
create temporary function if not exists c1.db.func4 as 'LowerUDF' LANGUAGE JAVA;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 18: CREATE FUNCTION is not supported: Sluice runs no user-defined functions (JARs or Python)
  create temporary function if not exists c1.db.func4 as 'LowerUDF' LANGUAGE JAVA;
                   ^
!error


# no func3 and func4 because we are not under catalog c1

# sluice: differs: no user-defined functions were created
show user functions;
Empty set
!ok


# ====== test function with specified catalog and db ======

# we are not under catalog c1

# sluice: differs: no user-defined functions were created
show user functions from c1.db;
Empty set
!ok

# sluice: differs: no user-defined functions were created
show user functions from c1.db like 'func3%';
Empty set
!ok

# sluice: differs: no user-defined functions were created
show user functions in c1.db ilike 'FUNC3%';
Empty set
!ok

use catalog c1;
[INFO] Execute statement succeed.
!info

use db;
[INFO] Execute statement succeed.
!info


# should show func3 and func4 now

# sluice: differs: no user-defined functions were created
show user functions;
Empty set
!ok


# test create function with database name

# sluice: refused: Sluice runs no user-defined functions
create function `default`.func5 as 'LowerUDF';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 8: CREATE FUNCTION is not supported: Sluice runs no user-defined functions (JARs or Python)
  create function `default`.func5 as 'LowerUDF';
         ^
!error

# sluice: refused: Sluice runs no user-defined functions
create function `default`.func6 as 'LowerUDF';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 8: CREATE FUNCTION is not supported: Sluice runs no user-defined functions (JARs or Python)
  create function `default`.func6 as 'LowerUDF';
         ^
!error

use `default`;
[INFO] Execute statement succeed.
!info


# should show func5 and func6

# sluice: differs: no user-defined functions were created
show user functions;
Empty set
!ok


# ==========================================================================
# test drop function
# ==========================================================================

# sluice: refused: Sluice runs no user-defined functions
create function c1.db.func10 as 'LowerUDF';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 8: CREATE FUNCTION is not supported: Sluice runs no user-defined functions (JARs or Python)
  create function c1.db.func10 as 'LowerUDF';
         ^
!error

# sluice: refused: Sluice runs no user-defined functions
create function c1.db.func11 as 'LowerUDF';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 8: CREATE FUNCTION is not supported: Sluice runs no user-defined functions (JARs or Python)
  create function c1.db.func11 as 'LowerUDF';
         ^
!error

# sluice: refused: Sluice runs no user-defined functions
drop function if exists c1.db.func10;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: DROP FUNCTION is not supported: Sluice has no user-defined functions
  drop function if exists c1.db.func10;
       ^
!error

use catalog c1;
[INFO] Execute statement succeed.
!info

use db;
[INFO] Execute statement succeed.
!info

# sluice: refused: Sluice runs no user-defined functions
drop function if exists non_func;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: DROP FUNCTION is not supported: Sluice has no user-defined functions
  drop function if exists non_func;
       ^
!error


# should contain func11, not contain func10

# sluice: differs: no user-defined functions were created
show user functions;
Empty set
!ok


# ==========================================================================
# test alter function
# ==========================================================================

# sluice: refused: Sluice runs no user-defined functions
alter function func11 as 'org.apache.flink.table.client.gateway.local.ExecutorImplITCase$TestScalaFunction';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: ALTER FUNCTION is not supported: Sluice has no user-defined functions
  alter function func11 as 'org.apache.flink.table.client.gateway.local.ExecutorImplITCase$TestScalaFu...
  ^
!error


# TODO: show func11 when we support DESCRIBE FUNCTION

# sluice: refused: Sluice runs no user-defined functions
create temporary function tmp_func as 'LowerUDF';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 18: CREATE FUNCTION is not supported: Sluice runs no user-defined functions (JARs or Python)
  create temporary function tmp_func as 'LowerUDF';
                   ^
!error


# should throw unsupported error

# sluice: refused: Sluice runs no user-defined functions
alter temporary function tmp_func as 'org.apache.flink.table.client.gateway.local.ExecutorImplITCase$TestScalaFunction';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: ALTER FUNCTION is not supported: Sluice has no user-defined functions
  alter temporary function tmp_func as 'org.apache.flink.table.client.gateway.local.ExecutorImplITCase...
  ^
!error


# ==========================================================================
# test create function using jar
# ==========================================================================

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

# sluice: refused: Sluice runs no user-defined functions
create temporary function temp_upperudf AS 'UpperUDF' using jar '$VAR_UDF_JAR_PATH';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 18: CREATE FUNCTION is not supported: Sluice runs no user-defined functions (JARs or Python)
  create temporary function temp_upperudf AS 'UpperUDF' using jar '$VAR_UDF_JAR_PATH';
                   ^
!error

# sluice: refused: Sluice runs no code from JARs
SHOW JARS;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: SHOW JARS is not supported: Sluice runs no user code from JARs
  SHOW JARS;
       ^
!error

# sluice: refused: Sluice runs no user-defined functions
create function upperudf AS 'UpperUDF' using jar '$VAR_UDF_JAR_PATH';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 8: CREATE FUNCTION is not supported: Sluice runs no user-defined functions (JARs or Python)
  create function upperudf AS 'UpperUDF' using jar '$VAR_UDF_JAR_PATH';
         ^
!error


# `SHOW JARS` does not list the jars being used by function, it only list all the jars added by `ADD JAR`

# sluice: refused: Sluice runs no code from JARs
SHOW JARS;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: SHOW JARS is not supported: Sluice runs no user code from JARs
  SHOW JARS;
       ^
!error


# run a query to verify the registered UDF works

# sluice: differs: the function was not created
SELECT id, upperudf(str) FROM (VALUES (1, 'hello world'), (2, 'hi')) as T(id, str);
[ERROR] Could not execute SQL statement. Reason:
SQL validation error at line 1, column 12: No match found for function signature upperudf(<CHARACTER>)
  SELECT id, upperudf(str) FROM (VALUES (1, 'hello world'), (2, 'hi')) as T(id, str);
             ^
!error


# Each query registers its jar to resource manager could not affect the session in sql gateway

# sluice: refused: Sluice runs no code from JARs
SHOW JARS;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: SHOW JARS is not supported: Sluice runs no user code from JARs
  SHOW JARS;
       ^
!error


# Show all users functions which should not add function jars to session resource manager

# sluice: differs: no user-defined functions were created
show user functions;
Empty set
!ok


# Show functions will not affect the session in sql gateway

# sluice: refused: Sluice runs no code from JARs
SHOW JARS;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: SHOW JARS is not supported: Sluice runs no user code from JARs
  SHOW JARS;
       ^
!error
