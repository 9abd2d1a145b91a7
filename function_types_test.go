package sluice

import (
	"fmt"
	"strings"
	"testing"
)

// functionTypeColumns are the argument columns of the function type cases:
// a column per argument type, nullable and NOT NULL.
const functionTypeColumns = `c5 CHAR(5), c5n CHAR(5) NOT NULL, v3 VARCHAR(3), v4n VARCHAR(4) NOT NULL, s STRING,
	d DECIMAL(10, 3), dn DECIMAL(10, 3) NOT NULL, d38 DECIMAL(38, 0) NOT NULL, i INT, inn INT NOT NULL,
	ti TINYINT, bn BIGINT NOT NULL, dbn DOUBLE NOT NULL, f FLOAT, tsn TIMESTAMP(6) NOT NULL,
	ts0 TIMESTAMP(0) NOT NULL, tln TIMESTAMP_LTZ(3) NOT NULL, dt DATE, dtn DATE NOT NULL, vb VARBINARY(5)`

// functionTypeCases are built-in function calls with the result type
// Flink's SQL planner infers for them, and the strategy that infers it:
// the return type inference of the function's definition in
// FlinkSqlOperatorTable (Calcite's SqlStdOperatorTable where it takes
// Calcite's, with FlinkTypeSystem and FlinkReturnTypes), or, for the
// functions with a runtime implementation, the output type strategy of
// BuiltInFunctionDefinitions.
var functionTypeCases = []struct{ expr, want, strategy string }{
	// Character strings whose length follows the argument's.
	{"UPPER(c5n)", "CHAR(5) NOT NULL", "Calcite UPPER: ReturnTypes.ARG0_NULLABLE"},
	{"LOWER(v3)", "VARCHAR(3)", "Calcite LOWER: ReturnTypes.ARG0_NULLABLE"},
	{"INITCAP(c5)", "CHAR(5)", "Calcite INITCAP: ReturnTypes.ARG0_NULLABLE"},
	{"UPPER('abc')", "CHAR(3) NOT NULL", "Calcite UPPER: ReturnTypes.ARG0_NULLABLE of a CHAR(3) literal"},
	{"c5 || c5n", "CHAR(10)", "Calcite CONCAT operator: DYADIC_STRING_SUM_PRECISION_NULLABLE"},
	{"c5n || v4n", "VARCHAR(9) NOT NULL", "DYADIC_STRING_SUM_PRECISION_NULLABLE: a varying right side makes a VARCHAR"},
	{"v4n || c5n", "VARCHAR(9) NOT NULL", "DYADIC_STRING_SUM_PRECISION_NULLABLE: the left side's kind"},
	{"'Fl' || 'ink'", "CHAR(5) NOT NULL", "DYADIC_STRING_SUM_PRECISION_NULLABLE"},
	{"s || v3", "STRING", "DYADIC_STRING_SUM_PRECISION_NULLABLE: capped at 2147483647"},
	{"SUBSTRING(c5n, 1)", "VARCHAR(5)", "FlinkSqlOperatorTable.SUBSTRING: ARG0_VARCHAR_FORCE_NULLABLE"},
	{"SUBSTR(v4n, 1, 2)", "VARCHAR(4)", "FlinkSqlOperatorTable.SUBSTR: ARG0_VARCHAR_FORCE_NULLABLE"},
	{"LEFT(v4n, 1)", "VARCHAR(4)", "FlinkSqlOperatorTable.LEFT: ARG0_VARCHAR_FORCE_NULLABLE"},
	{"RIGHT(c5, 2)", "VARCHAR(5)", "FlinkSqlOperatorTable.RIGHT: ARG0_VARCHAR_FORCE_NULLABLE"},
	{"TRIM(c5n)", "VARCHAR(5) NOT NULL", "Calcite SqlTrimFunction: ARG2, TO_NULLABLE, TO_VARYING"},
	{"TRIM(LEADING 'x' FROM v3)", "VARCHAR(3)", "Calcite SqlTrimFunction: ARG2, TO_NULLABLE, TO_VARYING"},
	{"LTRIM(v4n)", "VARCHAR(4) NOT NULL", "FlinkSqlOperatorTable.LTRIM: ARG0, TO_NULLABLE, TO_VARYING"},
	{"RTRIM(c5, 'x')", "VARCHAR(5)", "FlinkSqlOperatorTable.RTRIM: ARG0, TO_NULLABLE, TO_VARYING"},
	{"BTRIM(v4n)", "STRING NOT NULL", "BuiltInFunctionDefinitions.BTRIM: nullableIfArgs(explicit(STRING()))"},
	{"OVERLAY(v4n PLACING c5n FROM 2)", "VARCHAR(9) NOT NULL", "Calcite SqlOverlayFunction: DYADIC_STRING_SUM_PRECISION_NULLABLE_VARYING"},
	{"OVERLAY(c5 PLACING 'ab' FROM 2 FOR 1)", "VARCHAR(7)", "Calcite SqlOverlayFunction: DYADIC_STRING_SUM_PRECISION_NULLABLE_VARYING"},
	{"MD5(v4n)", "CHAR(32) NOT NULL", "FlinkSqlOperatorTable.MD5: explicit(CHAR, 32), TO_NULLABLE"},
	{"SHA1(v3)", "CHAR(40)", "FlinkSqlOperatorTable.SHA1: explicit(CHAR, 40), TO_NULLABLE"},
	{"SHA224(v4n)", "CHAR(56) NOT NULL", "FlinkSqlOperatorTable.SHA224: explicit(CHAR, 56), TO_NULLABLE"},
	{"SHA256(v4n)", "CHAR(64) NOT NULL", "FlinkSqlOperatorTable.SHA256: explicit(CHAR, 64), TO_NULLABLE"},
	{"SHA384(v4n)", "CHAR(96) NOT NULL", "FlinkSqlOperatorTable.SHA384: explicit(CHAR, 96), TO_NULLABLE"},
	{"SHA512(v4n)", "CHAR(128) NOT NULL", "FlinkSqlOperatorTable.SHA512: explicit(CHAR, 128), TO_NULLABLE"},
	{"SHA2(v4n, 256)", "VARCHAR(128) NOT NULL", "FlinkSqlOperatorTable.SHA2: explicit(VARCHAR, 128), TO_NULLABLE"},
	{"UUID()", "CHAR(36) NOT NULL", "FlinkSqlOperatorTable.UUID: explicit(CHAR, 36)"},
	// Character strings of any length.
	{"CONCAT(v4n, c5n)", "STRING NOT NULL", "FlinkSqlOperatorTable.CONCAT_FUNCTION: explicit(VARCHAR), TO_NULLABLE"},
	{"CONCAT(v3, c5n)", "STRING", "FlinkSqlOperatorTable.CONCAT_FUNCTION: explicit(VARCHAR), TO_NULLABLE"},
	{"CONCAT_WS('-', v4n, v3)", "STRING NOT NULL", "FlinkSqlOperatorTable.CONCAT_WS: explicit(VARCHAR), TO_NULLABLE"},
	{"LPAD(v4n, 3, 'x')", "STRING NOT NULL", "FlinkSqlOperatorTable.LPAD: explicit(VARCHAR), TO_NULLABLE"},
	{"RPAD(v3, 3, 'x')", "STRING", "FlinkSqlOperatorTable.RPAD: explicit(VARCHAR), TO_NULLABLE"},
	{"REPEAT(v4n, 2)", "STRING NOT NULL", "FlinkSqlOperatorTable.REPEAT: explicit(VARCHAR), TO_NULLABLE"},
	{"REPLACE(v4n, 'a', 'b')", "STRING NOT NULL", "FlinkSqlOperatorTable.REPLACE: explicit(VARCHAR), TO_NULLABLE"},
	{"TO_BASE64(v4n)", "STRING NOT NULL", "FlinkSqlOperatorTable.TO_BASE64: explicit(VARCHAR), TO_NULLABLE"},
	{"HEX(bn)", "STRING NOT NULL", "FlinkSqlOperatorTable.HEX: explicit(VARCHAR), TO_NULLABLE"},
	{"BIN(bn)", "STRING NOT NULL", "FlinkSqlOperatorTable.BIN: explicit(VARCHAR), TO_NULLABLE"},
	{"REVERSE(v4n)", "STRING", "FlinkSqlOperatorTable.REVERSE: VARCHAR_FORCE_NULLABLE"},
	{"SPLIT_INDEX(v4n, ',', 1)", "STRING", "FlinkSqlOperatorTable.SPLIT_INDEX: VARCHAR_FORCE_NULLABLE"},
	{"REGEXP_EXTRACT(v4n, 'a', 0)", "STRING", "FlinkSqlOperatorTable.REGEXP_EXTRACT: VARCHAR_FORCE_NULLABLE"},
	{"CHR(inn)", "STRING", "FlinkSqlOperatorTable.CHR: VARCHAR_FORCE_NULLABLE"},
	{"PARSE_URL(v4n, 'HOST')", "STRING", "FlinkSqlOperatorTable.PARSE_URL: VARCHAR_FORCE_NULLABLE"},
	{"DECODE(vb, 'UTF-8')", "STRING", "FlinkSqlOperatorTable.DECODE: VARCHAR_FORCE_NULLABLE"},
	{"TRANSLATE(v4n, 'a', v3)", "STRING NOT NULL", "BuiltInFunctionDefinitions.TRANSLATE: nullableIfArgs(to(0), explicit(STRING()))"},
	{"ELT(1, v4n, c5n)", "VARCHAR(5)", "BuiltInFunctionDefinitions.ELT: forceNullable(commonRange(from(1)))"},
	{"PRINTF('%s', v4n)", "STRING", "BuiltInFunctionDefinitions.PRINTF: explicit(STRING())"},
	{"URL_ENCODE(v4n)", "STRING", "BuiltInFunctionDefinitions.URL_ENCODE: explicit(STRING().nullable())"},
	{"URL_DECODE(v4n)", "STRING", "BuiltInFunctionDefinitions.URL_DECODE: explicit(STRING().nullable())"},
	{"REGEXP_SUBSTR(v4n, 'a')", "STRING", "BuiltInFunctionDefinitions.REGEXP_SUBSTR: explicit(STRING())"},
	{"JSON_QUOTE(v4n)", "STRING NOT NULL", "BuiltInFunctionDefinitions.JSON_QUOTE: nullableIfArgs(explicit(STRING()))"},
	{"TYPEOF(inn)", "STRING", "BuiltInFunctionDefinitions.TYPE_OF: explicit(STRING())"},
	{"CURRENT_DATABASE()", "STRING NOT NULL", "FlinkSqlOperatorTable.CURRENT_DATABASE: VARCHAR_NOT_NULL"},
	// Numbers out of strings.
	{"CHAR_LENGTH(c5n)", "INT NOT NULL", "Calcite CHAR_LENGTH: ReturnTypes.INTEGER_NULLABLE"},
	{"POSITION('a' IN v3)", "INT", "Calcite POSITION: ReturnTypes.INTEGER_NULLABLE"},
	{"ASCII(v4n)", "INT NOT NULL", "FlinkSqlOperatorTable.ASCII: ReturnTypes.INTEGER_NULLABLE"},
	{"LOCATE('a', v4n)", "INT NOT NULL", "FlinkSqlOperatorTable.LOCATE: ReturnTypes.INTEGER_NULLABLE"},
	{"INSTR(v4n, 'a')", "INT NOT NULL", "FlinkSqlOperatorTable.INSTR: ReturnTypes.INTEGER_NULLABLE"},
	{"REGEXP_COUNT(v4n, 'a')", "INT", "BuiltInFunctionDefinitions.REGEXP_COUNT: explicit(INT())"},
	{"REGEXP(v4n, 'a')", "BOOLEAN NOT NULL", "FlinkSqlOperatorTable.REGEXP: ReturnTypes.BOOLEAN_NULLABLE"},
	{"IS_DIGIT(v3)", "BOOLEAN NOT NULL", "FlinkSqlOperatorTable.IS_DIGIT: ReturnTypes.BOOLEAN"},
	{"STARTSWITH(v3, 'a')", "BOOLEAN", "BuiltInFunctionDefinitions.STARTS_WITH: nullableIfArgs(explicit(BOOLEAN()))"},
	// Numeric functions.
	{"ROUND(dn, 1)", "DECIMAL(9, 1) NOT NULL", "FlinkReturnTypes.ROUND_FUNCTION_NULLABLE: findRoundDecimalType(10, 3, 1)"},
	{"ROUND(d, -2)", "DECIMAL(8, 0)", "ROUND_FUNCTION_NULLABLE: findRoundDecimalType(10, 3, -2)"},
	{"ROUND(dn, 5)", "DECIMAL(10, 3) NOT NULL", "ROUND_FUNCTION_NULLABLE: a scale kept"},
	{"ROUND(dn)", "DECIMAL(8, 0) NOT NULL", "ROUND_FUNCTION_NULLABLE: findRoundDecimalType(10, 3, 0)"},
	{"ROUND(inn)", "INT NOT NULL", "ROUND_FUNCTION_NULLABLE: the argument's type"},
	{"ROUND(f, 1)", "FLOAT", "ROUND_FUNCTION_NULLABLE: the argument's type"},
	{"TRUNCATE(dn, 2)", "DECIMAL(10, 2) NOT NULL", "FlinkSqlOperatorTable.TRUNCATE: ROUND_FUNCTION_NULLABLE"},
	{"TRUNCATE(d38, -1)", "DECIMAL(38, 0) NOT NULL", "ROUND_FUNCTION_NULLABLE: findRoundDecimalType(38, 0, -1)"},
	{"TRUNCATE(ti, 1)", "TINYINT", "ROUND_FUNCTION_NULLABLE: the argument's type"},
	{"ABS(dn)", "DECIMAL(10, 3) NOT NULL", "Calcite ABS: ReturnTypes.ARG0"},
	{"ABS(ti)", "TINYINT", "Calcite ABS: ReturnTypes.ARG0"},
	{"SIGN(d)", "DECIMAL(10, 3)", "Calcite SIGN: ReturnTypes.ARG0"},
	{"MOD(dn, 3)", "DECIMAL(10, 3) NOT NULL", "Calcite MOD: NULLABLE_MOD, FlinkTypeSystem.deriveDecimalModType"},
	{"dn % inn", "DECIMAL(10, 3) NOT NULL", "Calcite PERCENT_REMAINDER: NULLABLE_MOD"},
	{"MOD(bn, inn)", "INT NOT NULL", "Calcite MOD: NULLABLE_MOD, ARG1_NULLABLE"},
	{"MOD(i, bn)", "BIGINT", "Calcite MOD: NULLABLE_MOD, ARG1_NULLABLE"},
	{"CEIL(dn)", "DECIMAL(10, 0) NOT NULL", "Calcite CEIL: ARG0_OR_EXACT_NO_SCALE"},
	{"FLOOR(d)", "DECIMAL(10, 0)", "Calcite FLOOR: ARG0_OR_EXACT_NO_SCALE"},
	{"CEIL(dbn)", "DOUBLE NOT NULL", "Calcite CEIL: ARG0_OR_EXACT_NO_SCALE"},
	{"dn + 1", "DECIMAL(14, 3) NOT NULL", "FlinkTypeSystem.deriveDecimalPlusType, TO_NULLABLE"},
	{"dn * dn", "DECIMAL(21, 6) NOT NULL", "FlinkTypeSystem.deriveDecimalMultiplyType, TO_NULLABLE"},
	{"dn / 2", "DECIMAL(21, 14) NOT NULL", "FlinkTypeSystem.deriveDecimalDivideType, TO_NULLABLE"},
	{"d - dn", "DECIMAL(11, 3)", "FlinkTypeSystem.deriveDecimalPlusType, TO_NULLABLE"},
	{"POWER(inn, 2)", "DOUBLE NOT NULL", "Calcite POWER: ReturnTypes.DOUBLE_NULLABLE"},
	{"SQRT(d)", "DOUBLE", "Calcite SQRT: ReturnTypes.DOUBLE_NULLABLE"},
	{"LOG(2, dbn)", "DOUBLE NOT NULL", "FlinkSqlOperatorTable.LOG: ReturnTypes.DOUBLE_NULLABLE"},
	{"PI()", "DOUBLE NOT NULL", "FlinkSqlOperatorTable.PI_FUNCTION: ReturnTypes.DOUBLE"},
	{"RAND()", "DOUBLE NOT NULL", "FlinkSqlOperatorTable.RAND: ReturnTypes.DOUBLE"},
	{"RAND_INTEGER(10)", "INT NOT NULL", "FlinkSqlOperatorTable.RAND_INTEGER: ReturnTypes.INTEGER"},
	// Time functions.
	{"YEAR(dtn)", "BIGINT NOT NULL", "Calcite SqlDatePartFunction: EXTRACT, BIGINT_NULLABLE"},
	{"EXTRACT(SECOND FROM tsn)", "BIGINT NOT NULL", "Calcite SqlExtractFunction: BIGINT_NULLABLE"},
	{"DAYOFWEEK(dt)", "BIGINT", "Calcite SqlDatePartFunction: EXTRACT, BIGINT_NULLABLE"},
	{"TIMESTAMPADD(DAY, 1, tsn)", "TIMESTAMP(6) NOT NULL", "SqlTimestampAddFunction.deduceType: the timestamp's type"},
	{"TIMESTAMPADD(DAY, inn, dtn)", "DATE NOT NULL", "SqlTimestampAddFunction.deduceType: the date's type"},
	{"TIMESTAMPADD(HOUR, 1, dt)", "TIMESTAMP(6)", "SqlTimestampAddFunction.deduceType: TIMESTAMP of the default precision"},
	{"TIMESTAMPADD(MILLISECOND, 1, ts0)", "TIMESTAMP(3) NOT NULL", "SqlTimestampAddFunction.deduceType: max(3, precision)"},
	{"TIMESTAMPADD(MICROSECOND, 1, tln)", "TIMESTAMP_LTZ(6) NOT NULL", "SqlTimestampAddFunction.deduceType: max(6, precision)"},
	{"TIMESTAMPDIFF(DAY, tsn, ts0)", "INT NOT NULL", "Calcite SqlTimestampDiffFunction: INTEGER, nullable if an argument is"},
	{"FLOOR(tsn TO DAY)", "TIMESTAMP(6) NOT NULL", "Calcite FLOOR: ARG0_OR_EXACT_NO_SCALE"},
	{"DATE_FORMAT(tsn, 'yyyy')", "STRING", "FlinkSqlOperatorTable.DATE_FORMAT: VARCHAR_FORCE_NULLABLE"},
	{"TO_TIMESTAMP(v4n)", "TIMESTAMP(3)", "FlinkSqlOperatorTable.TO_TIMESTAMP: explicit(TIMESTAMP, 3), FORCE_NULLABLE"},
	{"TO_DATE(v4n)", "DATE", "FlinkSqlOperatorTable.TO_DATE: explicit(DATE), FORCE_NULLABLE"},
	{"FROM_UNIXTIME(bn)", "STRING", "FlinkSqlOperatorTable.FROM_UNIXTIME: VARCHAR_FORCE_NULLABLE"},
	{"UNIX_TIMESTAMP(v4n)", "BIGINT NOT NULL", "FlinkSqlOperatorTable.UNIX_TIMESTAMP: BIGINT_NULLABLE"},
	{"CONVERT_TZ(v4n, 'UTC', 'UTC')", "STRING", "FlinkSqlOperatorTable.CONVERT_TZ: VARCHAR_FORCE_NULLABLE"},
	{"CURRENT_TIMESTAMP", "TIMESTAMP_LTZ(3) NOT NULL", "FlinkTimestampWithPrecisionDynamicFunction(TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3)"},
	{"LOCALTIMESTAMP", "TIMESTAMP(3) NOT NULL", "FlinkTimestampWithPrecisionDynamicFunction(TIMESTAMP, 3)"},
	{"CURRENT_TIME", "TIME(0) NOT NULL", "FlinkTimestampDynamicFunction(TIME)"},
	{"CURRENT_DATE", "DATE NOT NULL", "FlinkCurrentDateDynamicFunction"},
	{"CURRENT_ROW_TIMESTAMP()", "TIMESTAMP_LTZ(3) NOT NULL", "FlinkSqlOperatorTable.CURRENT_ROW_TIMESTAMP"},
	// Conditional functions.
	{"IF(inn > 1, inn, bn)", "BIGINT NOT NULL", "FlinkReturnTypes.IF_NULLABLE: leastRestrictive, TO_NULLABLE"},
	{"IF(i > 1, c5n, v4n)", "VARCHAR(5)", "FlinkReturnTypes.IF_NULLABLE: TO_NULLABLE counts the condition"},
	{"COALESCE(i, inn)", "INT NOT NULL", "BuiltInFunctionDefinitions.COALESCE: nullableIfAllArgs(COMMON)"},
	{"IFNULL(i, bn)", "BIGINT NOT NULL", "BuiltInFunctionDefinitions.IF_NULL: SpecificTypeStrategies.IF_NULL"},
	{"NULLIF(inn, 1)", "INT", "Calcite NULLIF: ARG0_FORCE_NULLABLE"},
	{"GREATEST(c5n, v4n)", "VARCHAR(5) NOT NULL", "BuiltInFunctionDefinitions.GREATEST: nullableIfArgs(COMMON)"},
	{"LEAST(i, inn)", "INT", "BuiltInFunctionDefinitions.LEAST: nullableIfArgs(COMMON)"},
	// JSON functions.
	{"JSON_VALUE(v4n, '$.a')", "STRING", "BuiltInFunctionDefinitions.JSON_VALUE: forceNullable(argument(2)), STRING by default"},
	{"JSON_VALUE(v4n, '$.a' RETURNING INT)", "INT", "BuiltInFunctionDefinitions.JSON_VALUE: forceNullable(argument(2))"},
	{"JSON_QUERY(v4n, '$')", "STRING", "BuiltInFunctionDefinitions.JSON_QUERY: forceNullable(argument(2))"},
	{"JSON_EXISTS(v4n, '$.a')", "BOOLEAN", "BuiltInFunctionDefinitions.JSON_EXISTS: explicit(BOOLEAN().nullable())"},
	{"v3 IS JSON", "BOOLEAN NOT NULL", "Calcite IS JSON VALUE: ReturnTypes.BOOLEAN"},
	{"JSON_OBJECT('a' VALUE inn)", "STRING NOT NULL", "BuiltInFunctionDefinitions.JSON_OBJECT: explicit(STRING().notNull())"},
	{"JSON_ARRAY(i)", "STRING NOT NULL", "BuiltInFunctionDefinitions.JSON_ARRAY: explicit(STRING().notNull())"},
	{"JSON_STRING(inn)", "STRING NOT NULL", "BuiltInFunctionDefinitions.JSON_STRING: nullableIfArgs(explicit(STRING()))"},
}

// collectionTypeCases are calls of collection functions over the columns
// a ARRAY<INT> NOT NULL, an ARRAY<INT>, m MAP<STRING, INT> NOT NULL,
// sa ARRAY<STRING> NOT NULL, inn INT NOT NULL, i INT and v4n VARCHAR(4)
// NOT NULL, all of them with a runtime implementation but STR_TO_MAP.
var collectionTypeCases = []struct{ expr, want, strategy string }{
	{"CARDINALITY(an)", "INT", "Calcite CARDINALITY: ReturnTypes.INTEGER_NULLABLE"},
	{"ELEMENT(a)", "INT", "Calcite ELEMENT: MULTISET_ELEMENT_NULLABLE"},
	{"ARRAY_CONTAINS(a, i)", "BOOLEAN NOT NULL", "BuiltInFunctionDefinitions.ARRAY_CONTAINS: nullableIfArgs(of(0), explicit(BOOLEAN()))"},
	{"ARRAY_POSITION(a, inn)", "INT NOT NULL", "BuiltInFunctionDefinitions.ARRAY_POSITION: nullableIfArgs(explicit(INT()))"},
	{"ARRAY_REMOVE(a, i)", "ARRAY<INT> NOT NULL", "BuiltInFunctionDefinitions.ARRAY_REMOVE: nullableIfArgs(of(0), argument(0))"},
	{"ARRAY_APPEND(a, inn)", "ARRAY<INT> NOT NULL", "BuiltInFunctionDefinitions.ARRAY_APPEND: nullableIfArgs(ARRAY_APPEND_PREPEND)"},
	{"ARRAY_PREPEND(a, i)", "ARRAY<INT>", "BuiltInFunctionDefinitions.ARRAY_PREPEND: nullableIfArgs(ARRAY_APPEND_PREPEND)"},
	{"ARRAY_MAX(a)", "INT", "BuiltInFunctionDefinitions.ARRAY_MAX: forceNullable(ARRAY_ELEMENT)"},
	{"ARRAY_UNION(a, an)", "ARRAY<INT>", "BuiltInFunctionDefinitions.ARRAY_UNION: nullableIfArgs(COMMON)"},
	{"ARRAY_JOIN(sa, ',')", "STRING NOT NULL", "BuiltInFunctionDefinitions.ARRAY_JOIN: nullableIfArgs(explicit(STRING()))"},
	{"SPLIT(v4n, ',')", "ARRAY<STRING> NOT NULL", "BuiltInFunctionDefinitions.SPLIT: nullableIfArgs(explicit(ARRAY(STRING())))"},
	{"MAP_KEYS(m)", "ARRAY<STRING> NOT NULL", "BuiltInFunctionDefinitions.MAP_KEYS: nullableIfArgs(MAP_KEYS)"},
	{"REGEXP_EXTRACT_ALL(v4n, 'a')", "ARRAY<STRING>", "BuiltInFunctionDefinitions.REGEXP_EXTRACT_ALL: explicit(ARRAY(STRING()))"},
	{"STR_TO_MAP(v4n)", "MAP<STRING, STRING>", "FlinkSqlOperatorTable.STR_TO_MAP: FlinkReturnTypes.STR_MAP_NULLABLE"},
}

// aggregateTypeCases are aggregate calls with the result type Flink infers
// for them in a query with GROUP BY (SqlCallBinding.getGroupCount() > 0),
// where an aggregate of a NOT NULL argument need not be nullable.
var aggregateTypeCases = []struct{ expr, want, strategy string }{
	{"COUNT(*)", "BIGINT NOT NULL", "Calcite COUNT: ReturnTypes.BIGINT"},
	{"COUNT(i)", "BIGINT NOT NULL", "Calcite COUNT: ReturnTypes.BIGINT"},
	{"SUM(inn)", "INT NOT NULL", "Calcite SUM: AGG_SUM, FlinkTypeSystem.deriveSumType (findSumAggType)"},
	{"SUM(i)", "INT", "Calcite SUM: AGG_SUM"},
	{"SUM(inn) FILTER (WHERE inn > 0)", "INT", "Calcite SUM: AGG_SUM, nullable with a filter"},
	{"SUM(dbn)", "DOUBLE NOT NULL", "Calcite SUM: AGG_SUM"},
	{"AVG(inn)", "INT NOT NULL", "Calcite AVG: AVG_AGG_FUNCTION, FlinkTypeSystem.deriveAvgAggType (findAvgAggType)"},
	{"MIN(c5n)", "CHAR(5) NOT NULL", "Calcite MIN: ARG0_NULLABLE_IF_EMPTY"},
	{"MAX(d)", "DECIMAL(10, 3)", "Calcite MAX: ARG0_NULLABLE_IF_EMPTY"},
	{"STDDEV_POP(ti)", "TINYINT", "Calcite STDDEV_POP: AVG_AGG_FUNCTION (findAvgAggType)"},
	{"VAR_POP(bn)", "BIGINT NOT NULL", "Calcite VAR_POP: AVG_AGG_FUNCTION (findAvgAggType)"},
	{"FIRST_VALUE(v4n)", "VARCHAR(4) NOT NULL", "Flink SqlFirstLastValueAggFunction: ARG0_NULLABLE_IF_EMPTY"},
	{"LAST_VALUE(inn)", "INT NOT NULL", "Flink SqlFirstLastValueAggFunction: ARG0_NULLABLE_IF_EMPTY"},
}

// TestFunctionResultTypes checks the result type of each case, as DESCRIBE
// shows it for a view of the calls.
func TestFunctionResultTypes(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, "CREATE TABLE ft ("+functionTypeColumns+") WITH ('connector' = 'datagen')")
	checkResultTypes(t, e, functionTypeCases, "FROM ft")
	checkResultTypes(t, e, aggregateTypeCases, "FROM ft GROUP BY s")
	mustExecute(t, e, `CREATE TABLE fc (a ARRAY<INT> NOT NULL, an ARRAY<INT>, m MAP<STRING, INT> NOT NULL,
	sa ARRAY<STRING> NOT NULL, inn INT NOT NULL, i INT, v4n VARCHAR(4) NOT NULL) WITH ('connector' = 'kafka',
	'topic' = 'fc', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json')`)
	checkResultTypes(t, e, collectionTypeCases, "FROM fc")
}

// checkResultTypes compares the types DESCRIBE gives for a view of the
// cases' calls (SELECT calls tail) with the cases' types.
func checkResultTypes(t *testing.T, e *Engine, cases []struct{ expr, want, strategy string }, tail string) {
	t.Helper()
	cols := make([]string, len(cases))
	for i, c := range cases {
		cols[i] = fmt.Sprintf("%s AS c%d", c.expr, i)
	}
	res := mustExecute(t, e, "CREATE TEMPORARY VIEW fv AS SELECT "+strings.Join(cols, ",\n  ")+" "+tail+";\nDESCRIBE fv;\nDROP TEMPORARY VIEW fv;")
	rows := res[1].Rows
	if len(rows) != len(cases) {
		t.Fatalf("DESCRIBE gave %d rows for %d calls", len(rows), len(cases))
	}
	for i, c := range cases {
		got := rows[i][1]
		if rows[i][2] == "FALSE" {
			got += " NOT NULL"
		}
		if got != c.want {
			t.Errorf("%s is %s, want %s (%s)", c.expr, got, c.want, c.strategy)
		}
	}
}
