package kafka

import (
	"testing"

	"github.com/sluicesql/sluice/internal/runtime"
)

var (
	_ runtime.InputMetrics  = (*sourceInstance)(nil)
	_ runtime.OutputMetrics = (*sinkInstance)(nil)
)

// TestPendingRecords: a source's lag is, over the partitions it has
// fetched from, the high watermark (or a bounded end before it) less the
// position; before any fetch it is not known.
func TestPendingRecords(t *testing.T) {
	s := &sourceInstance{parts: map[topicPartition]*partState{
		{"t", 0}: {next: 5, end: -1, highWatermark: -1},
	}}
	if _, known := s.PendingRecords(); known {
		t.Error("lag known before any fetch")
	}
	s.parts[topicPartition{"t", 0}].highWatermark = 12
	s.parts[topicPartition{"t", 1}] = &partState{next: 3, end: 4, highWatermark: 10}  // bounded at 4
	s.parts[topicPartition{"t", 2}] = &partState{next: 9, end: -1, highWatermark: -1} // not fetched yet
	if lag, known := s.PendingRecords(); !known || lag != 7+1 {
		t.Errorf("lag %d (%v), want 8", lag, known)
	}
}
