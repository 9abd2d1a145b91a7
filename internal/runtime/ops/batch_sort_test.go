package ops

import (
	"strconv"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/runtime"
)

// TestBatchSortAppliesChangelog: the final rows are what the changelog
// leaves, emitted once at the end, in the order of their first insertion
// without sort keys (an update counts as one), then the maximum watermark; the watermarks before
// wait.
func TestBatchSortAppliesChangelog(t *testing.T) {
	s, err := NewBatchSort(BatchSortConfig{InputTypes: numTypes, N: -1})
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feed(t, s, r, chunk(numTypes, ins("a", 1), ins("b", 1), ub("a", 1), ua("a", 2), ins("c", 3), del("b", 1))))
	expect(t, watermark(t, s, r, ms(10)))
	expect(t, finish(t, s, r), "+I[a, 2]", "+I[c, 3]", maxWM)
}

// TestBatchSortOrdersAndLimits: ORDER BY on any column, NULLS placement
// and direction per key, ties in arrival order, then OFFSET and LIMIT
// (Flink's batch Sort and SortLimit).
func TestBatchSortOrdersAndLimits(t *testing.T) {
	rows := chunk(numTypes, ins("a", 5), ins("b", nil), ins("c", 1), ins("d", 5), ins("e", 9))
	for _, tc := range []struct {
		cfg  BatchSortConfig
		want []string
	}{
		{BatchSortConfig{Order: []SortKey{{Col: 1}}, N: -1}, []string{"+I[c, 1]", "+I[a, 5]", "+I[d, 5]", "+I[e, 9]", "+I[b, NULL]"}},
		{BatchSortConfig{Order: []SortKey{{Col: 1, Desc: true, NullsFirst: true}}, N: -1}, []string{"+I[b, NULL]", "+I[e, 9]", "+I[a, 5]", "+I[d, 5]", "+I[c, 1]"}},
		{BatchSortConfig{Order: []SortKey{{Col: 1}}, Offset: 1, N: 2}, []string{"+I[a, 5]", "+I[d, 5]"}},
		{BatchSortConfig{Order: []SortKey{{Col: 1}}, Offset: 7, N: -1}, nil},
		{BatchSortConfig{Order: []SortKey{{Col: 0, Desc: true}}, N: 0}, nil},
	} {
		tc.cfg.InputTypes = numTypes
		s, err := NewBatchSort(tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := &recorder{}
		feed(t, s, r, rows)
		expect(t, finish(t, s, r), append(tc.want, maxWM)...)
	}
}

// TestBatchSortRefuses: a retraction of a row it does not hold is an
// error, as are keys out of range and a negative offset.
func TestBatchSortRefuses(t *testing.T) {
	s, _ := NewBatchSort(BatchSortConfig{InputTypes: numTypes, N: -1})
	if err := s.ProcessChunk(0, chunk(numTypes, ins("a", 1), del("a", 2)), &recorder{}); err == nil || !strings.Contains(err.Error(), "does not hold") {
		t.Errorf("retraction of a missing row: %v", err)
	}
	if _, err := NewBatchSort(BatchSortConfig{InputTypes: numTypes, Order: []SortKey{{Col: 2}}, N: -1}); err == nil {
		t.Error("a sort key out of range is accepted")
	}
	if _, err := NewBatchSort(BatchSortConfig{InputTypes: numTypes, Offset: -1, N: -1}); err == nil {
		t.Error("a negative offset is accepted")
	}
}

// maxWM is how the recorder shows the maximum watermark.
var maxWM = "WM " + strconv.FormatInt(runtime.MaxWatermark, 10)
