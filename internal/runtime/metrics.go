package runtime

import (
	"sync/atomic"
	"time"
)

// Metrics of a running job, after Flink's task metrics: every operator
// and source instance counts what it does in counters of its own, written
// only by its goroutine with atomic adds (once per chunk or message, never
// per row, and without locks), and read by whoever asks (the REST API,
// a Prometheus scrape) with atomic loads.

// InputMetrics is implemented by sources that know more of their input
// than the rows they emit.
type InputMetrics interface {
	// BytesRead is the number of bytes read so far (a Kafka record's key
	// and value).
	BytesRead() int64
	// PendingRecords is how many records the input holds that the
	// source has not read yet (FLIP-33's pendingRecords: a Kafka
	// partition's high watermark less the source's position, summed over
	// its partitions), as of its latest fetch; false when it does not
	// know yet.
	PendingRecords() (int64, bool)
}

// stateCountInterval is how often at most a stateful operator instance
// counts its state entries for the metrics (a state backend on disk may
// have to look before it can tell).
const stateCountInterval = 200 * time.Millisecond

// OutputMetrics is implemented by sinks that know the bytes they wrote.
type OutputMetrics interface {
	// BytesWritten is the number of bytes written so far (a Kafka
	// record's key and value, handed to the client).
	BytesWritten() int64
}

// instanceMetrics are the counters of one instance.
type instanceMetrics struct {
	recordsIn, recordsOut atomic.Int64
	// watermark is the latest watermark the instance emitted.
	watermark atomic.Int64
	// busy, idle and backpressured are nanoseconds: processing a message
	// (less the time blocked sending), waiting for one, and blocked
	// sending to a full inbox. Sources measure only backpressure.
	busy, idle, backpressured atomic.Int64
	// stateEntries is the number of state entries a stateful operator
	// holds, counted after a message at most every stateCountInterval.
	stateEntries atomic.Int64
	ended        atomic.Bool
}

func newInstanceMetrics() *instanceMetrics {
	m := &instanceMetrics{}
	m.watermark.Store(MinWatermark)
	return m
}

// stageMetrics are the instances of one stage.
type stageMetrics struct {
	stage     *Stage
	index     int
	sources   []Source   // source stages: the instances' sources
	operators []Operator // other stages: the instances' operators
	instances []*instanceMetrics
	stateful  bool
}

// VertexMetrics are one stage's metrics, over its instances.
type VertexMetrics struct {
	// ID is the stage's plan node ID (its name when it has none); Name
	// is what the operator does.
	ID, Name    string
	Parallelism int
	// Inputs are the stages feeding this one, by index in the job's
	// vertices, with their exchanges.
	Inputs []Input
	Source bool
	// Instances has one entry per instance.
	Instances []InstanceMetrics
}

// InstanceMetrics are one instance's counters.
type InstanceMetrics struct {
	// RecordsIn counts the rows the instance received from upstream
	// (none for a source); RecordsOut the rows it emitted.
	RecordsIn, RecordsOut int64
	// BytesIn counts the bytes a source read, when BytesKnown; BytesOut
	// the bytes a sink wrote, when BytesOutKnown.
	BytesIn, BytesOut         int64
	BytesKnown, BytesOutKnown bool
	// PendingRecords is a source's backlog (Kafka consumer lag), when
	// PendingKnown.
	PendingRecords int64
	PendingKnown   bool
	// Watermark is the latest watermark emitted (MinWatermark: none).
	Watermark int64
	// Busy (processing), Idle (waiting for input) and Backpressured
	// (blocked sending downstream) add up the instance's time; a source
	// measures only Backpressured (TimesKnown is false).
	Busy, Idle, Backpressured time.Duration
	TimesKnown                bool
	// StateEntries is the number of state entries, when Stateful.
	StateEntries int64
	Stateful     bool
	// Ended is set once the instance finished its input.
	Ended bool
}

// Vertices returns the metrics of every stage of the job, in the graph's
// order.
func (j *Job) Vertices() []VertexMetrics {
	out := make([]VertexMetrics, len(j.stages))
	for i, sm := range j.stages {
		s := sm.stage
		id := s.ID
		if id == "" {
			id = s.Name
		}
		v := VertexMetrics{ID: id, Name: s.Name, Parallelism: s.Parallelism, Inputs: s.Inputs, Source: s.NewSource != nil}
		for k, m := range sm.instances {
			im := InstanceMetrics{
				RecordsIn:     m.recordsIn.Load(),
				RecordsOut:    m.recordsOut.Load(),
				Watermark:     m.watermark.Load(),
				Backpressured: time.Duration(m.backpressured.Load()),
				Ended:         m.ended.Load(),
				Stateful:      sm.stateful,
			}
			if v.Source {
				if k < len(sm.sources) {
					if in, ok := sm.sources[k].(InputMetrics); ok {
						im.BytesIn, im.BytesKnown = in.BytesRead(), true
						im.PendingRecords, im.PendingKnown = in.PendingRecords()
					}
				}
			} else {
				if k < len(sm.operators) {
					if out, ok := sm.operators[k].(OutputMetrics); ok {
						im.BytesOut, im.BytesOutKnown = out.BytesWritten(), true
					}
				}
				im.TimesKnown = true
				im.Busy = time.Duration(m.busy.Load())
				im.Idle = time.Duration(m.idle.Load())
			}
			if sm.stateful {
				im.StateEntries = m.stateEntries.Load()
			}
			v.Instances = append(v.Instances, im)
		}
		out[i] = v
	}
	return out
}
