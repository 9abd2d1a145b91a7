# call_procedure.q - CALL, from Flink's SQL client test scripts
# (flink-table/flink-sql-client/src/test/resources/sql/call_procedure.q).
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

# sluice: adapted: 'generic_in_memory' for 'test_procedure_catalog', a catalog of Flink's tests (with procedures)
create catalog test_procedure_catalog with ('type'='generic_in_memory');
[INFO] Execute statement succeed.
!info

# sluice: refused: Sluice has no stored procedures
call `test_procedure_catalog`.`system`.generate_n(2);
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: CALL is not supported: Sluice has no stored procedures
  call `test_procedure_catalog`.`system`.generate_n(2);
  ^
!error

# sluice: refused: Sluice has no stored procedures
call `test_procedure_catalog`.`system`.generate_n(1);
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: CALL is not supported: Sluice has no stored procedures
  call `test_procedure_catalog`.`system`.generate_n(1);
  ^
!error

# switch current catalog to test_procedure_catalog
use catalog test_procedure_catalog;
[INFO] Execute statement succeed.
!info

# create a database `system` to avoid DatabaseNotExistException in the following `show procedure` statement
create database `system`;
[INFO] Execute statement succeed.
!info

# sluice: refused: Sluice has no stored procedures
show procedures in `system` ilike 'gEnerate%';
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 6: SHOW PROCEDURES is not supported: Sluice has no stored procedures
  show procedures in `system` ilike 'gEnerate%';
       ^
!error

# test call procedure will pojo as return type
# sluice: refused: Sluice has no stored procedures
call `system`.generate_user('yuxia', 18);
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: CALL is not supported: Sluice has no stored procedures
  call `system`.generate_user('yuxia', 18);
  ^
!error
