package fn

import (
	"fmt"

	"github.com/sluicesql/sluice/internal/types"
)

// NotNullEnforcer is the internal function the planner wraps around a
// nullable value written into a NOT NULL sink column, with
// table.exec.sink.not-null-enforcer ERROR (Flink's default): it passes
// the value on, and fails the job on a NULL with Flink's message
// (SinkNotNullEnforcer). Its name is no SQL identifier, so SHOW FUNCTIONS
// leaves it out.
const NotNullEnforcer = "$SINK_NOT_NULL"

func init() {
	takesComposite[NotNullEnforcer] = true
	register(bindNotNullEnforcer, NotNullEnforcer)
}

// bindNotNullEnforcer binds $SINK_NOT_NULL(value, 'column'): the column's
// name is a constant.
func bindNotNullEnforcer(args []Arg) (types.Type, Eval, error) {
	if len(args) != 2 || args[1].Const == nil || args[1].Const.Null {
		return types.Type{}, nil, fmt.Errorf("%s expects a value and the column's name", NotNullEnforcer)
	}
	column := args[1].Const.S
	return args[0].Type.WithNotNull(true), func(_ *Context, v []types.Value) (types.Value, error) {
		if v[0].Null {
			return types.Value{}, fmt.Errorf("Column '%s' is NOT NULL, however, a null value is being written into it. "+
				"You can set job configuration 'table.exec.sink.not-null-enforcer'='DROP' to suppress this exception and drop such records silently.", column)
		}
		return v[0], nil
	}, nil
}
