package types

import (
	"math"
	"slices"
	"testing"
)

// TestRows: rows of every storage class go into a Rows store from chunks
// and rows and come out as values, rows and vectors unchanged, NULLs
// included; Move and Truncate compact them.
func TestRows(t *testing.T) {
	ts := []Type{BigIntType, StringType, DoubleType, TimestampType(3), StringType}
	rows := []Row{
		{IntValue(1), StringValue("a"), FloatValue(1.5), IntValue(10), StringValue("x")},
		{NullValue, NullValue, NullValue, NullValue, NullValue},
		{IntValue(-3), StringValue(""), FloatValue(math.Inf(-1)), IntValue(30), StringValue("zz")},
		{IntValue(4), StringValue("d"), FloatValue(-0.5), IntValue(40), NullValue},
	}
	c := NewChunk(ts, len(rows))
	for _, r := range rows {
		c.AppendRow(Insert, r)
	}
	l := NewRowLayout(ts)
	var fromChunk, fromRows Rows
	for i, r := range rows {
		l.AppendChunkRow(&fromChunk, c, i)
		l.AppendRow(&fromRows, r)
	}
	for _, r := range []*Rows{&fromChunk, &fromRows} {
		if r.Len() != len(rows) {
			t.Fatalf("%d rows, want %d", r.Len(), len(rows))
		}
		out := NewChunk(ts, 0)
		for k, want := range rows {
			if got := l.Row(nil, r, k); !slices.Equal(got, want) {
				t.Errorf("row %d: %v, want %v", k, got, want)
			}
			l.AppendTo(out.Cols, r, k)
			out.Ops = append(out.Ops, Insert)
		}
		for k, want := range rows {
			if got := out.Row(k); !slices.Equal(got, want) {
				t.Errorf("vectors, row %d: %v, want %v", k, got, want)
			}
		}
	}
	if got := l.Int(&fromChunk, 2, 3); got != 30 {
		t.Errorf("Int: %d, want 30", got)
	}
	// Keep rows 1 and 3.
	l.Move(&fromChunk, 0, 1)
	l.Move(&fromChunk, 1, 3)
	l.Truncate(&fromChunk, 2)
	if fromChunk.Len() != 2 || !slices.Equal(l.Row(nil, &fromChunk, 0), rows[1]) || !slices.Equal(l.Row(nil, &fromChunk, 1), rows[3]) {
		t.Errorf("after compaction: %d rows, %v, %v", fromChunk.Len(), l.Row(nil, &fromChunk, 0), l.Row(nil, &fromChunk, 1))
	}
	l.AppendRow(&fromChunk, rows[0])
	if got := l.Row(nil, &fromChunk, 2); !slices.Equal(got, rows[0]) {
		t.Errorf("appended after compaction: %v", got)
	}
}
