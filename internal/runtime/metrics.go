package runtime

import (
	"strings"
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

// instanceMetrics are the counters of one operator or source instance.
type instanceMetrics struct {
	recordsIn, recordsOut atomic.Int64
	// watermark is the latest watermark the instance emitted, given the
	// latest one it was given (an operator's merged input watermark).
	watermark, given atomic.Int64
	// stateEntries is the number of state entries a stateful operator
	// holds, counted after a message at most every stateCountInterval.
	stateEntries atomic.Int64
	ended        atomic.Bool
}

func newInstanceMetrics() *instanceMetrics {
	m := &instanceMetrics{}
	m.watermark.Store(MinWatermark)
	m.given.Store(MinWatermark)
	return m
}

// chainMetrics are the counters of one chain, an instance of a vertex:
// Flink's task.
type chainMetrics struct {
	// busy, idle and backpressured are nanoseconds: handling a message
	// (less the time blocked sending), waiting for one, and blocked
	// sending to a full inbox. Under a source, busy and idle are the
	// source's (see sourceTimer).
	busy, idle, backpressured atomic.Int64
	// blocked is backpressured, read by the chain's goroutine alone.
	blocked int64
}

// sourceTimer times a chain headed by a source, as Flink times a task of
// a FLIP-27 source: the time the source waits for input (from
// SourceContext.Waiting to Working) is idle, the rest busy, less in both
// the time blocked sending (backpressure). It reads the clock when the
// source starts and ends, when it starts and stops waiting, and after
// each chunk it emits, never per row, and counts every interval between
// two readings once, so that busy, idle and backpressured add up to the
// time the source ran.
type sourceTimer struct {
	m *chainMetrics
	// start is when the source started; last is when the clock was last
	// read, since start, and blocked m.blocked then.
	start   time.Time
	last    time.Duration
	blocked int64
	// waiting is set while the source waits for input.
	waiting bool
}

func newSourceTimer(m *chainMetrics) *sourceTimer {
	return &sourceTimer{m: m, start: time.Now(), blocked: m.blocked}
}

// lap counts the time since the clock was last read as idle while the
// source waits, else as busy, less the time blocked sending meanwhile.
func (t *sourceTimer) lap() {
	now := time.Since(t.start)
	d := int64(now-t.last) - (t.m.blocked - t.blocked)
	if t.waiting {
		t.m.idle.Add(d)
	} else {
		t.m.busy.Add(d)
	}
	t.last, t.blocked = now, t.m.blocked
}

// wait counts the time until now as lap does, then sets whether the
// source waits from now on.
func (t *sourceTimer) wait(waiting bool) {
	t.lap()
	t.waiting = waiting
}

// stageMetrics are the instances of one stage.
type stageMetrics struct {
	stage     *Stage
	sources   []Source   // source stages: the instances' sources
	operators []Operator // other stages: the instances' operators
	instances []*instanceMetrics
	stateful  bool
	// exits is set when an output of the stage leaves its chain, ends
	// when it has no output at all (a sink).
	exits, ends bool
}

// vertex is a chain of stages, Flink's job vertex: its head, then the
// stages chained to it, in stage order.
type vertex struct {
	stages []*stageMetrics
	// chained holds, for each stage of the vertex, the positions in
	// stages of those chained to it.
	chained [][]int
	// chains are the counters of the vertex's instances.
	chains []*chainMetrics
}

// add chains stage sm to the vertex's stage at position up.
func (v *vertex) add(sm *stageMetrics, up int) {
	v.chained[up] = append(v.chained[up], len(v.stages))
	v.stages = append(v.stages, sm)
	v.chained = append(v.chained, nil)
}

// name names the chain from its stage at as Flink's
// StreamingJobGraphGenerator names a job vertex (createChainedName): the
// operator's name, then " -> " and the name of the one it chains, or of
// several in parentheses, separated by commas.
func (v *vertex) name(at int) string {
	name := v.stages[at].stage.Name
	switch next := v.chained[at]; len(next) {
	case 0:
		return name
	case 1:
		return name + " -> " + v.name(next[0])
	default:
		names := make([]string, len(next))
		for n, k := range next {
			names[n] = v.name(k)
		}
		return name + " -> (" + strings.Join(names, ", ") + ")"
	}
}

// VertexMetrics are one job vertex's metrics, over its instances. A
// vertex is a chain of operators (see chainable), as Flink's job vertex
// is: with chaining disabled, one per stage.
type VertexMetrics struct {
	// ID is the plan node ID of the chain's head (its name when it has
	// none); Name names the chain's operators (see vertex.name).
	ID, Name    string
	Parallelism int
	// Inputs are the vertices feeding this one, by index in the job's
	// vertices, with their exchanges.
	Inputs []Input
	// Source is set when the chain's head is a source.
	Source bool
	// Instances has one entry per instance of the chain (Flink's
	// subtask).
	Instances []InstanceMetrics
	// Operators are the chain's operators, its head first, with the
	// metrics Flink keeps per operator.
	Operators []OperatorMetrics
}

// InstanceMetrics are one chain instance's counters.
type InstanceMetrics struct {
	// RecordsIn counts the rows the chain received from upstream (none
	// for a source), RecordsOut the rows that left it for another
	// vertex (none for a chain ending in a sink).
	RecordsIn, RecordsOut int64
	// BytesIn counts the bytes a source read, when BytesKnown; BytesOut
	// the bytes the chain's sinks wrote, when BytesOutKnown.
	BytesIn, BytesOut         int64
	BytesKnown, BytesOutKnown bool
	// PendingRecords is a source's backlog (Kafka consumer lag), when
	// PendingKnown.
	PendingRecords int64
	PendingKnown   bool
	// Watermark is the latest watermark the chain emitted, the least of
	// its last operators' (a sink's: the one it was given; MinWatermark:
	// none).
	Watermark int64
	// Busy (processing), Idle (waiting for input: under a source, the
	// source's waits, see SourceContext.Waiting) and Backpressured
	// (blocked sending downstream) add up the instance's time.
	Busy, Idle, Backpressured time.Duration
	// StateEntries is the number of state entries of the chain's
	// stateful operators, when Stateful.
	StateEntries int64
	Stateful     bool
	// Ended is set once every operator of the chain instance finished
	// its input.
	Ended bool
}

// OperatorMetrics are the metrics of one operator of a vertex.
type OperatorMetrics struct {
	// ID is the stage's plan node ID (its name when it has none).
	ID, Name string
	// Instances has one entry per instance.
	Instances []OperatorInstanceMetrics
}

// OperatorInstanceMetrics are one operator instance's counters.
type OperatorInstanceMetrics struct {
	// RecordsIn counts the rows the operator received (none for a
	// source), RecordsOut the rows it emitted.
	RecordsIn, RecordsOut int64
	// Watermark is the latest watermark it emitted (MinWatermark: none).
	Watermark int64
	// StateEntries is the number of state entries, when Stateful.
	StateEntries int64
	Stateful     bool
}

// Vertices returns the metrics of every vertex of the job, in the order
// of their heads in the graph.
func (j *Job) Vertices() []VertexMetrics {
	// index is each stage's vertex, to number the vertices' inputs.
	index := map[*Stage]int{}
	for n, v := range j.vertices {
		for _, sm := range v.stages {
			index[sm.stage] = n
		}
	}
	out := make([]VertexMetrics, len(j.vertices))
	for n, v := range j.vertices {
		head := v.stages[0]
		s := head.stage
		vm := VertexMetrics{ID: stageID(s), Name: v.name(0), Parallelism: s.Parallelism, Source: s.NewSource != nil}
		for _, in := range s.Inputs {
			vm.Inputs = append(vm.Inputs, Input{Stage: index[j.stages[in.Stage].stage], Exchange: in.Exchange, Keys: in.Keys})
		}
		for _, sm := range v.stages {
			om := OperatorMetrics{ID: stageID(sm.stage), Name: sm.stage.Name}
			for _, m := range sm.instances {
				om.Instances = append(om.Instances, OperatorInstanceMetrics{RecordsIn: m.recordsIn.Load(), RecordsOut: m.recordsOut.Load(),
					Watermark: m.watermark.Load(), StateEntries: m.stateEntries.Load(), Stateful: sm.stateful})
			}
			vm.Operators = append(vm.Operators, om)
		}
		for k, cm := range v.chains {
			vm.Instances = append(vm.Instances, v.instance(k, cm))
		}
		out[n] = vm
	}
	return out
}

// instance reads the counters of the vertex's instance k, chain cm.
func (v *vertex) instance(k int, cm *chainMetrics) InstanceMetrics {
	head := v.stages[0]
	im := InstanceMetrics{
		RecordsIn:     head.instances[k].recordsIn.Load(),
		Watermark:     MaxWatermark,
		Busy:          time.Duration(cm.busy.Load()),
		Idle:          time.Duration(cm.idle.Load()),
		Backpressured: time.Duration(cm.backpressured.Load()),
		Ended:         true,
	}
	if head.stage.NewSource != nil {
		if in, ok := head.sources[k].(InputMetrics); ok {
			im.BytesIn, im.BytesKnown = in.BytesRead(), true
			im.PendingRecords, im.PendingKnown = in.PendingRecords()
		}
	}
	for at, sm := range v.stages {
		m := sm.instances[k]
		// The rows that leave the chain, each counted once however many
		// of its edges take it (as Flink's BroadcastingOutputCollector
		// counts a task's numRecordsOut), are the rows its stages
		// emitted where they have an edge out of it.
		if sm.exits {
			im.RecordsOut += m.recordsOut.Load()
		}
		im.Ended = im.Ended && m.ended.Load()
		if len(v.chained[at]) == 0 {
			// The chain's last operators: a sink emits no watermark,
			// so the one it was given stands for it.
			wm := &m.watermark
			if sm.ends {
				wm = &m.given
			}
			im.Watermark = min(im.Watermark, wm.Load())
		}
		if sm.stateful {
			im.StateEntries += m.stateEntries.Load()
			im.Stateful = true
		}
		if at > 0 || head.stage.NewSource == nil {
			if out, ok := sm.operators[k].(OutputMetrics); ok {
				im.BytesOut += out.BytesWritten()
				im.BytesOutKnown = true
			}
		}
	}
	return im
}

// stageID is a stage's plan node ID, its name when it has none.
func stageID(s *Stage) string {
	if s.ID == "" {
		return s.Name
	}
	return s.ID
}
