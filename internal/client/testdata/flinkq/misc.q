# misc.q - Miscellaneous statements, from Flink's SQL client test scripts
# (flink-table/flink-sql-client/src/test/resources/sql/misc.q).
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

# === test help ===
# sluice: differs: Sluice lists the statements it has (no INSERT OVERWRITE nor JARs; SHOW JOBS and STOP JOB) and points to its own docs
help;
The following commands are available:

HELP               		Prints the available commands.
QUIT/EXIT          		Quits the SQL client (asking first while jobs it started run).
CLEAR              		Clears the current terminal.
SET                		Sets a session configuration property. Syntax: "SET '<key>'='<value>';". Use "SET;" for listing all properties.
RESET              		Resets a session configuration property. Syntax: "RESET '<key>';". Use "RESET;" for reset all session properties.
INSERT INTO        		Inserts the results of a SQL SELECT query into a declared table sink, as a job that keeps running.
SELECT             		Executes a SQL SELECT query and shows its result as it changes.
EXPLAIN            		Describes the execution plan of a query or table with the given name.
BEGIN STATEMENT SET		Begins a statement set. Syntax: "BEGIN STATEMENT SET;"
END                		Ends a statement set. Syntax: "END;"
SHOW JOBS          		Lists the jobs with their status.
STOP JOB           		Stops a job. Syntax: "STOP JOB '<id>' [WITH SAVEPOINT [WITH DRAIN]];"

Hint: Make sure that a statement ends with ";" for finalizing (multi-line) statements.
You can also type any Flink SQL statement Sluice supports: see docs/sql.md.
!ok
