package fn

import "github.com/sluicesql/sluice/internal/types"

// Result types of character string functions whose length follows their
// arguments, after the return type inference of Flink's SQL planner
// (Calcite's ReturnTypes as Flink's FlinkSqlOperatorTable and FlinkTypeSystem
// use them, and FlinkReturnTypes). The nullability is left to the caller.

// argStringType is the type of a function's string argument kept as it is
// (Calcite's ReturnTypes.ARG0 for UPPER, LOWER and INITCAP: UPPER of a
// CHAR(5) is a CHAR(5)). A NULL literal argument gives STRING.
func argStringType(t types.Type) types.Type {
	if !t.IsString() {
		return types.StringType
	}
	return types.Type{Kind: t.Kind, Length: t.Length}
}

// varyingStringType is the type of a string argument made varying
// (SqlTypeTransforms.TO_VARYING, FlinkReturnTypes.ARG0_VARCHAR_FORCE_NULLABLE):
// CHAR(n) becomes VARCHAR(n), as for SUBSTRING, LEFT, RIGHT, TRIM, LTRIM and
// RTRIM.
func varyingStringType(t types.Type) types.Type {
	if !t.IsString() {
		return types.StringType
	}
	return types.Type{Kind: types.Varchar, Length: t.Length}
}

// stringSumType is the type of a || b (Calcite's
// ReturnTypes.DYADIC_STRING_SUM_PRECISION): the lengths add up, capped at
// the maximum (FlinkTypeSystem.getMaxPrecision is 2147483647 for every
// string type); the result is of a's kind unless b varies (CHAR(2) ||
// CHAR(3) is CHAR(5), CHAR(2) || VARCHAR(3) is VARCHAR(5)). varying makes
// the result VARCHAR or VARBINARY whatever the arguments
// (DYADIC_STRING_SUM_PRECISION_NULLABLE_VARYING, OVERLAY's type).
func stringSumType(a, b types.Type, varying bool) types.Type {
	if a.Kind == types.Null || b.Kind == types.Null {
		a, b = nullAsString(a, b), nullAsString(b, a)
	}
	kind := a.Kind
	if b.Kind == types.Varchar || b.Kind == types.Varbinary || varying {
		kind = types.Varchar
		if a.Kind == types.Binary || a.Kind == types.Varbinary {
			kind = types.Varbinary
		}
	}
	return types.Type{Kind: kind, Length: int(min(int64(a.Length)+int64(b.Length), types.MaxVarcharLength))}
}

// nullAsString gives a NULL literal's type in a concatenation the maximal
// type of the other side's family.
func nullAsString(t, other types.Type) types.Type {
	if t.Kind != types.Null {
		return t
	}
	if other.Kind == types.Binary || other.Kind == types.Varbinary {
		return types.Type{Kind: types.Varbinary, Length: types.MaxVarcharLength}
	}
	return types.StringType
}

// decimalMayOverflow reports whether a DECIMAL result type t may be too
// narrow for the exact result, so that the value becomes NULL as Flink's
// DecimalData gives null on overflow: only a precision capped at 38 by
// LogicalTypeMerging's adjustment can be (the uncapped precisions of +, -,
// *, /, MOD and ROUND hold every result). The result of such a call is
// nullable even over NOT NULL arguments, unlike Flink's declared type.
func decimalMayOverflow(t types.Type) bool {
	return t.Kind == types.Decimal && t.Precision >= maxDecimalPrecision
}

// GroupedNotNull reports whether a call of the aggregate function name
// over arguments of types args, of result type t when bound, is NOT NULL
// in an aggregation with grouping keys and without FILTER: a group holds a
// row, so SUM, AVG, STDDEV_POP, VAR_POP (Calcite's ReturnTypes.AGG_SUM and
// AVG_AGG_FUNCTION), MIN, MAX and Flink's FIRST_VALUE and LAST_VALUE
// (ARG0_NULLABLE_IF_EMPTY) of a NOT NULL argument are never NULL there.
// A DECIMAL result of SUM or AVG, whose sum may overflow to NULL, stays
// nullable, as do STDDEV_SAMP, VAR_SAMP and VARIANCE, NULL for a single
// row (though Calcite types them as AVG).
func GroupedNotNull(name string, args []types.Type, t types.Type) bool {
	if len(args) != 1 || !args[0].NotNull {
		return false
	}
	switch name {
	case "MIN", "MAX", "FIRST_VALUE", "LAST_VALUE":
		return true
	case "SUM", "AVG", "STDDEV_POP", "VAR_POP":
		return t.Kind != types.Decimal
	}
	return false
}
