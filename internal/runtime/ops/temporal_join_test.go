package ops

import (
	"testing"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

var (
	// orders(currency, amount, order_time) and rates(currency, rate, update_time).
	tjOrderTypes = []types.Type{types.StringType, types.BigIntType, types.TimestampType(3)}
	tjRateTypes  = []types.Type{types.StringType, types.BigIntType, types.TimestampType(3)}
)

func newTemporalJoin(t *testing.T, kind JoinKind) *TemporalJoin {
	t.Helper()
	j, err := NewTemporalJoin(TemporalJoinConfig{
		JoinSpec: JoinSpec{Kind: kind, LeftTypes: tjOrderTypes, RightTypes: tjRateTypes, LeftKeys: []int{0}, RightKeys: []int{0}},
		LeftTime: 2, RightTime: 2,
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// feedInput sends c to the given input of op and returns the output lines.
func feedInput(t *testing.T, op runtime.Operator, r *recorder, input int, c *types.Chunk) []string {
	t.Helper()
	if err := op.ProcessChunk(input, c, r); err != nil {
		t.Fatal(err)
	}
	return r.take()
}

// TestTemporalJoinPicksTheVersionValidAtTheLeftTime follows Flink's
// event-time temporal join example: each order joins the rate of its
// currency that was valid at the order's time, once the watermark reaches
// it.
func TestTemporalJoinPicksTheVersionValidAtTheLeftTime(t *testing.T) {
	j, r := newTemporalJoin(t, InnerJoin), &recorder{}
	expect(t, feedInput(t, j, r, 1, chunk(tjRateTypes,
		ins("EUR", 114, ms(10)), ins("EUR", 116, ms(30)), ins("USD", 1, ms(5)))))
	expect(t, feedInput(t, j, r, 0, chunk(tjOrderTypes,
		ins("EUR", 2, ms(20)), ins("EUR", 3, ms(30)), ins("EUR", 4, ms(5)), ins("GBP", 9, ms(20)))))
	// The EUR order at 5ms precedes every EUR rate: no match (inner).
	expectSet(t, watermark(t, j, r, ms(30)),
		"+I[EUR, 2, 1970-01-01 00:00:00.020, EUR, 114, 1970-01-01 00:00:00.010]",
		"+I[EUR, 3, 1970-01-01 00:00:00.030, EUR, 116, 1970-01-01 00:00:00.030]",
		"WM 30000000")
}

// TestTemporalJoinLeftDeletesAndCleanup: a LEFT temporal join pads orders
// without a valid version; a deleted rate ends its version; versions no
// pending order can need are dropped.
func TestTemporalJoinLeftDeletesAndCleanup(t *testing.T) {
	j, r := newTemporalJoin(t, LeftJoin), &recorder{}
	feedInput(t, j, r, 1, chunk(tjRateTypes, ins("EUR", 114, ms(10)), ub("EUR", 114, ms(10)), ua("EUR", 115, ms(20)), del("EUR", 115, ms(40))))
	feedInput(t, j, r, 0, chunk(tjOrderTypes,
		ins("EUR", 1, ms(5)), ins("EUR", 2, ms(15)), ins("EUR", 3, ms(25)), ins("EUR", 4, ms(45))))
	expect(t, watermark(t, j, r, ms(50)),
		"+I[EUR, 1, 1970-01-01 00:00:00.005, NULL, NULL, NULL]",
		"+I[EUR, 2, 1970-01-01 00:00:00.015, EUR, 114, 1970-01-01 00:00:00.010]",
		"+I[EUR, 3, 1970-01-01 00:00:00.025, EUR, 115, 1970-01-01 00:00:00.020]",
		"+I[EUR, 4, 1970-01-01 00:00:00.045, NULL, NULL, NULL]",
		"WM 50000000")
	if n := j.State().Len(); n != 0 {
		t.Fatalf("state holds %d keys after every version expired, want 0", n)
	}
}
