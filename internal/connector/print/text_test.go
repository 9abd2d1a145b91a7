package print

import (
	"testing"

	"github.com/sluicesql/sluice/internal/types"
)

func TestAppendJavaComposite(t *testing.T) {
	row := types.RowOf([]types.Field{{Name: "a", Type: types.IntType}, {Name: "b", Type: types.ArrayOf(types.StringType)}})
	v := types.EncodeRow(row, []types.Value{types.NullValue, types.EncodeArray(types.StringType, []types.Value{types.StringValue("x"), types.NullValue})})
	if got := string(appendJava(nil, row, v)); got != "+I[null, [x, null]]" {
		t.Errorf("got %s", got)
	}
}
