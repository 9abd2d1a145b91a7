# add.q - ADD JAR, from Flink's SQL client test scripts
# (flink-table/flink-sql-client/src/test/resources/sql/add.q).
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

# test add jar statement
# sluice: refused: Sluice runs no code from JARs
ADD JAR foo.jar;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: ADD JAR is not supported: Sluice runs no user code from JARs
  ADD JAR foo.jar;
  ^
!error

# sluice: refused: Sluice runs no code from JARs
ADD JAR /path/jar/foo.jar;
[ERROR] Could not execute SQL statement. Reason:
SQL parse error at line 1, column 1: ADD JAR is not supported: Sluice runs no user code from JARs
  ADD JAR /path/jar/foo.jar;
  ^
!error
