package ops

import (
	"github.com/sluicesql/sluice/internal/state"
	"testing"
)

func newOver(t *testing.T, rows bool, preceding int64) *OverAggregate {
	t.Helper()
	o, err := NewOverAggregate(OverAggregateConfig{
		InputTypes: evTypes, PartitionKeys: []int{0}, TimeCol: 2, Rows: rows, Preceding: preceding,
		Aggs: []AggSpec{aggCall(t, "SUM", evTypes, 1), aggCall(t, "COUNT", evTypes, 1)},
	}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestOverRowsBounded: SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN
// 1 PRECEDING AND CURRENT ROW): each row sees itself and the row before it
// of its partition, in time order, once the watermark reaches it.
func TestOverRowsBounded(t *testing.T) {
	o := newOver(t, true, 1)
	r := &recorder{}
	expect(t, feed(t, o, r, chunk(evTypes,
		ins("a", 1, ms(30)), ins("a", 2, ms(10)), ins("b", 5, ms(10)), ins("a", 4, ms(20)),
	)))
	expectSet(t, watermark(t, o, r, ms(20)),
		"+I[a, 2, 1970-01-01 00:00:00.010, 2, 1]",
		"+I[a, 4, 1970-01-01 00:00:00.020, 6, 2]",
		"+I[b, 5, 1970-01-01 00:00:00.010, 5, 1]",
		"WM 20000")
	expect(t, watermark(t, o, r, ms(30)),
		"+I[a, 1, 1970-01-01 00:00:00.030, 5, 2]",
		"WM 30000")
}

// TestOverRangePeersAndLateRows: RANGE BETWEEN INTERVAL '10' MILLISECOND
// PRECEDING AND CURRENT ROW: rows of equal time are peers with the same
// result; rows older than ts - 10ms leave the frame; a row at or before
// the last processed time of its partition is dropped.
func TestOverRangePeersAndLateRows(t *testing.T) {
	o := newOver(t, false, ms(10))
	r := &recorder{}
	expect(t, feed(t, o, r, chunk(evTypes,
		ins("a", 1, ms(10)), ins("a", 2, ms(20)), ins("a", 3, ms(20)), ins("a", 4, ms(31)),
	)))
	expect(t, watermark(t, o, r, ms(40)),
		"+I[a, 1, 1970-01-01 00:00:00.010, 1, 1]",
		"+I[a, 2, 1970-01-01 00:00:00.020, 6, 3]",
		"+I[a, 3, 1970-01-01 00:00:00.020, 6, 3]",
		"+I[a, 4, 1970-01-01 00:00:00.031, 4, 1]",
		"WM 40000")
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 9, ms(31)))))
	if o.Dropped() != 1 {
		t.Fatalf("dropped %d rows, want the late one", o.Dropped())
	}
}

// TestOverUnboundedAndSnapshot: UNBOUNDED PRECEDING keeps no rows, only
// the accumulators; the state survives a snapshot and restore.
func TestOverUnboundedAndSnapshot(t *testing.T) {
	o := newOver(t, false, -1)
	r := &recorder{}
	feed(t, o, r, chunk(evTypes, ins("a", 1, ms(10)), ins("a", 2, ms(20)), ins("a", 5, ms(30))))
	watermark(t, o, r, ms(20))
	restored := newOver(t, false, -1)
	moveState(t, o, restored)
	r.take()
	expect(t, watermark(t, restored, r, ms(30)),
		"+I[a, 5, 1970-01-01 00:00:00.030, 8, 3]",
		"WM 30000")
}

// TestOverRowsBeforeTheEpoch: rows of times before 1970-01-01 (negative)
// are aggregated as any others; none is taken for late in a partition
// that has processed nothing yet.
func TestOverRowsBeforeTheEpoch(t *testing.T) {
	o := newOver(t, false, -1)
	r := &recorder{}
	expect(t, feed(t, o, r, chunk(evTypes, ins("a", 1, ms(-20)), ins("a", 2, ms(-10)))))
	expect(t, watermark(t, o, r, ms(0)),
		"+I[a, 1, 1969-12-31 23:59:59.980, 1, 1]",
		"+I[a, 2, 1969-12-31 23:59:59.990, 3, 2]",
		"WM 0")
	if o.Dropped() != 0 {
		t.Fatalf("dropped %d rows", o.Dropped())
	}
}
