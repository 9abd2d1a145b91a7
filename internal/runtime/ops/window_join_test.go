package ops

import (
	"testing"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// rows of both sides: id, window_start, window_end (TIMESTAMP(3)).
var wjTypes = []types.Type{types.IntType, types.TimestampType(3), types.TimestampType(3)}

func newWindowJoin(t *testing.T, kind JoinKind) *WindowJoin {
	t.Helper()
	j, err := NewWindowJoin(WindowJoinConfig{
		JoinSpec: JoinSpec{Kind: kind, LeftTypes: wjTypes, RightTypes: wjTypes, LeftKeys: []int{0, 1, 2}, RightKeys: []int{0, 1, 2}},
		LeftEnd:  2, RightEnd: 2,
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// TestWindowJoinFiresPerWindow: rows of the same window and key join when
// the watermark passes the window end; a FULL join pads the unmatched
// rows; a row of a fired window is late and dropped; state is released.
func TestWindowJoinFiresPerWindow(t *testing.T) {
	j, r := newWindowJoin(t, FullJoin), &recorder{}
	expect(t, feedInput(t, j, r, 0, chunk(wjTypes, ins(1, ms(0), ms(10)), ins(2, ms(0), ms(10)), ins(1, ms(10), ms(20)))))
	expect(t, feedInput(t, j, r, 1, chunk(wjTypes, ins(1, ms(0), ms(10)), ins(3, ms(0), ms(10)))))
	expectSet(t, watermark(t, j, r, ms(9)),
		"+I[1, 1970-01-01 00:00:00.000, 1970-01-01 00:00:00.010, 1, 1970-01-01 00:00:00.000, 1970-01-01 00:00:00.010]",
		"+I[2, 1970-01-01 00:00:00.000, 1970-01-01 00:00:00.010, NULL, NULL, NULL]",
		"+I[NULL, NULL, NULL, 3, 1970-01-01 00:00:00.000, 1970-01-01 00:00:00.010]",
		"WM 9000")
	expect(t, feedInput(t, j, r, 1, chunk(wjTypes, ins(2, ms(0), ms(10)))))
	if j.Dropped() != 1 {
		t.Fatalf("dropped %d rows, want the late one", j.Dropped())
	}
	expect(t, watermark(t, j, r, ms(19)),
		"+I[1, 1970-01-01 00:00:00.010, 1970-01-01 00:00:00.020, NULL, NULL, NULL]",
		"WM 19000")
	if n := j.State().Len(); n != 0 {
		t.Fatalf("%d windows still buffered", n)
	}
}
