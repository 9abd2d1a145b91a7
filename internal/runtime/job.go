package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// ExchangeKind says how rows travel from one stage to the next.
type ExchangeKind int

// Exchange kinds.
const (
	// Forward sends instance i's output to instance i downstream (same
	// parallelism on both sides).
	Forward ExchangeKind = iota
	// Hash routes each row to the instance chosen by a hash of key columns.
	Hash
	// Single sends everything to instance 0 (the downstream stage has
	// parallelism 1).
	Single
)

// Input connects a stage to one of its upstream stages.
type Input struct {
	Stage    int // index of the upstream stage in Graph.Stages
	Exchange ExchangeKind
	Keys     []int // key columns for Hash
}

// Stage is one operator (or source) of a graph, run as Parallelism instances.
type Stage struct {
	Name string
	// ID identifies the stage within its plan (checkpoints store state by
	// it); empty means Name.
	ID          string
	Parallelism int
	// NewSource is set for source stages.
	NewSource func(instance int) (Source, error)
	// NewOperator is set for all other stages.
	NewOperator func(instance int) (Operator, error)
	// Inputs lists the upstream stages, in input-number order.
	Inputs []Input
}

// Graph is a runnable dataflow: stages in topological order.
type Graph struct {
	Stages []*Stage
	// MaxParallelism is the number of key groups keys are hashed into
	// (pipeline.max-parallelism); 0 means DefaultMaxParallelism.
	MaxParallelism int
	// Checkpoints, when set, turns checkpointing on (Job.Checkpoint).
	Checkpoints *CheckpointConfig
	// Clock is the job's processing time; nil is WallClock.
	Clock Clock
	// DisableChaining runs every operator instance in a goroutine of its
	// own (pipeline.operator-chaining.enabled = false) instead of
	// chaining forward-connected stages (see chainable).
	DisableChaining bool
	// HoldWatermarks keeps the sources' watermarks back until their end,
	// where they emit the maximum one (batch execution: no row is late),
	// and keeps them from announcing idleness.
	HoldWatermarks bool
}

// msgKind tells what a message carries.
type msgKind uint8

const (
	msgChunk msgKind = iota
	msgWatermark
	msgIdle
	msgEnd
	// msgBarrier is checkpoint wm's barrier; msgComplete tells an
	// instance that checkpoint wm completed.
	msgBarrier
	msgComplete
)

// envelope is what travels on an instance's inbox.
type envelope struct {
	kind   msgKind
	input  int
	sender int
	chunk  *types.Chunk
	// lease is the chunk's lease (see Lease), nil for none.
	lease *Lease
	wm    int64 // a watermark, or a checkpoint ID
}

// edge is one downstream connection of a stage.
type edge struct {
	input    int
	exchange ExchangeKind
	keys     []int
	inboxes  []chan envelope
	// chained holds, for a forward edge whose downstream stage is chained
	// to this one, the downstream task of each instance (nil otherwise):
	// an instance hands it its messages by a direct call.
	chained []*task
	// owner is, for a hash exchange, the instance that owns each key
	// group, made when first needed (the edge's senders share it, each
	// in its own goroutine: ownerOnce).
	ownerOnce sync.Once
	owner     []uint16
}

// owners returns the instance that owns each of the maxParallelism key
// groups (InstanceForKeyGroup, looked up rather than divided per row).
func (ed *edge) owners(maxParallelism int) []uint16 {
	ed.ownerOnce.Do(func() {
		ed.owner = make([]uint16, maxParallelism)
		for g := range ed.owner {
			ed.owner[g] = uint16(InstanceForKeyGroup(g, maxParallelism, len(ed.inboxes)))
		}
	})
	return ed.owner
}

// Job is a running graph.
type Job struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// inflight counts messages sent and not yet processed; progress counts
	// every message ever sent plus the work that Progressed reports.
	inflight atomic.Int64
	progress atomic.Int64

	errMu sync.Mutex
	err   error
	// ended is closed when every instance has stopped, done once the
	// checkpoint coordinator has also stopped.
	ended, done chan struct{}

	quiescers []Quiescer
	sources   []*sourceInstance
	// maxParallelism is the number of key groups.
	maxParallelism int
	// coord runs checkpoints; nil when they are off.
	coord *coordinator
	// chains are the goroutines headed by an operator instance, to tell
	// their instances of completed checkpoints.
	chains []*chain
	// stages hold the instances' metrics, by stage.
	stages []*stageMetrics
	// vertices are the chains of stages, as Flink's job vertices, in
	// the order of their heads.
	vertices []*vertex
}

// sourceInstance is one running instance of a source stage.
type sourceInstance struct {
	src  Source
	part string
	// finished is set when the instance had ended by the checkpoint it
	// is restored from: it ends at once.
	finished bool
	// ended is set once the instance finished and its end of input is on
	// its way downstream.
	ended atomic.Bool

	// requested holds the checkpoints whose barrier the source has yet to
	// emit, in order; barrier is signalled when one is added.
	mu        sync.Mutex
	requested []int64
	barrier   chan struct{}
}

// Start launches every instance of g and returns the running job.
func Start(parent context.Context, g *Graph) (*Job, error) {
	ctx, cancel := context.WithCancel(parent)
	j := &Job{ctx: ctx, cancel: cancel, ended: make(chan struct{}), done: make(chan struct{}), maxParallelism: g.MaxParallelism}
	if j.maxParallelism == 0 {
		j.maxParallelism = DefaultMaxParallelism
	}
	if g.Checkpoints != nil {
		j.coord = newCoordinator(j, *g.Checkpoints)
	}
	// built are the operator instances made so far: a failed start
	// closes their state backends.
	var built []Operator
	abort := func(err error) (*Job, error) {
		cancel()
		for _, op := range built {
			if s, ok := op.(Stateful); ok {
				err = errors.Join(err, s.State().Close())
			}
		}
		return nil, err
	}
	var rs *restorer
	if j.coord != nil {
		rs = newRestorer(ctx, &j.coord.cfg, j.maxParallelism)
	}
	// register registers an instance for checkpoints.
	register := func(part string, inst any) {
		if j.coord == nil {
			return
		}
		var listener CheckpointListener
		if _, isSource := inst.(Source); isSource {
			listener, _ = inst.(CheckpointListener)
		}
		j.coord.register(part, listener)
	}

	inboxes := make([][]chan envelope, len(g.Stages))
	for i, s := range g.Stages {
		if s.Parallelism < 1 || s.Parallelism > MaxInstances {
			return abort(fmt.Errorf("stage %s: parallelism %d is not between 1 and %d", s.Name, s.Parallelism, MaxInstances))
		}
		if err := CheckMaxParallelism(j.maxParallelism, s.Parallelism); err != nil {
			return abort(fmt.Errorf("stage %s: %w", s.Name, err))
		}
		inboxes[i] = make([]chan envelope, s.Parallelism)
		for k := range inboxes[i] {
			inboxes[i][k] = make(chan envelope, 64)
		}
	}
	outputs := make([][]*edge, len(g.Stages))
	senders := make([][]int, len(g.Stages)) // per stage, per input: number of upstream senders
	inEdges := make([][]*edge, len(g.Stages))
	for i, s := range g.Stages {
		senders[i] = make([]int, len(s.Inputs))
		for n, in := range s.Inputs {
			up := g.Stages[in.Stage]
			switch in.Exchange {
			case Forward:
				if up.Parallelism != s.Parallelism {
					return abort(fmt.Errorf("stage %s: forward exchange needs equal parallelism (%d vs %d)", s.Name, up.Parallelism, s.Parallelism))
				}
			case Single:
				if s.Parallelism != 1 {
					return abort(fmt.Errorf("stage %s: single exchange needs parallelism 1", s.Name))
				}
			}
			// A forward input has one sender per instance; the others
			// receive from every upstream instance.
			senders[i][n] = up.Parallelism
			if in.Exchange == Forward {
				senders[i][n] = 1
			}
			ed := &edge{input: n, exchange: in.Exchange, keys: in.Keys, inboxes: inboxes[i]}
			outputs[in.Stage] = append(outputs[in.Stage], ed)
			inEdges[i] = append(inEdges[i], ed)
		}
	}

	type starter func()
	var starts []starter
	// chains holds, per stage, the chain each instance runs in.
	chains := make([][]*chain, len(g.Stages))
	// vertexOf holds, per stage, its vertex and its position there.
	type place struct {
		v  *vertex
		at int
	}
	vertexOf := make([]place, len(g.Stages))
	for i, s := range g.Stages {
		sm := &stageMetrics{stage: s}
		j.stages = append(j.stages, sm)
		chains[i] = make([]*chain, s.Parallelism)
		var tasks []*task
		for k := 0; k < s.Parallelism; k++ {
			out := newEmitter(j, outputs[i], k)
			sm.instances = append(sm.instances, out.metrics)
			rctx := &Context{Instance: k, Parallelism: s.Parallelism, Job: j,
				KeyGroups: KeyGroupsOf(k, s.Parallelism, j.maxParallelism)}
			if s.NewSource == nil {
				rctx.ProcessingTime = NewProcessingTimeService(g.Clock, j)
			}
			if s.NewSource != nil {
				src, err := s.NewSource(k)
				if err != nil {
					return abort(fmt.Errorf("%s: %w", s.Name, err))
				}
				si := &sourceInstance{src: src, part: partName(s, i, k), barrier: make(chan struct{}, 1)}
				if rs != nil {
					if si.finished, err = rs.restoreSource(stageName(s, i), k, s.Parallelism, src); err != nil {
						return abort(fmt.Errorf("%s: %w", s.Name, err))
					}
				}
				register(si.part, src)
				sm.sources = append(sm.sources, src)
				out.hold = g.HoldWatermarks
				sc := &SourceContext{Context: rctx, Ctx: ctx, out: out, inst: si}
				j.sources = append(j.sources, si)
				c := &chain{metrics: out.chain}
				chains[i][k] = c
				starts = append(starts, func() { j.runSource(s.Name, sc, si, out, c) })
				continue
			}
			op, err := s.NewOperator(k)
			if err != nil {
				return abort(fmt.Errorf("%s: %w", s.Name, err))
			}
			built = append(built, op)
			if q, ok := op.(Quiescer); ok {
				j.quiescers = append(j.quiescers, q)
			}
			_, sm.stateful = op.(Stateful)
			sm.operators = append(sm.operators, op)
			part := partName(s, i, k)
			floor := MinWatermark
			if rs != nil {
				if floor, err = rs.restoreOperator(stageName(s, i), k, s.Parallelism, op); err != nil {
					return abort(fmt.Errorf("%s: %w", s.Name, err))
				}
			}
			register(part, op)
			tasks = append(tasks, newTask(j, s.Name, part, rctx, op, out, senders[i], floor))
		}
		head := func() {
			v := &vertex{stages: []*stageMetrics{sm}, chained: [][]int{nil}}
			for _, c := range chains[i] {
				v.chains = append(v.chains, c.metrics)
			}
			vertexOf[i] = place{v, 0}
			j.vertices = append(j.vertices, v)
		}
		if s.NewSource != nil {
			head()
			continue
		}
		chained := chainable(g, i)
		// The input's chain runs under a source when the input is one or
		// is chained into one: no loop of its own.
		if up := s.Inputs[0].Stage; chained && chains[up][0].inbox == nil {
			chained = !slices.ContainsFunc(tasks, func(t *task) bool { return needsLoop(t.op) })
		}
		if chained {
			up, ed := s.Inputs[0].Stage, inEdges[i][0]
			ed.chained = tasks
			for k, t := range tasks {
				chains[i][k] = chains[up][k]
				chains[i][k].add(t)
			}
			p := vertexOf[up]
			vertexOf[i] = place{p.v, len(p.v.stages)}
			p.v.add(sm, p.at)
			continue
		}
		for k, t := range tasks {
			c := &chain{inbox: inboxes[i][k], exited: make(chan struct{}), rang: t.rctx.ProcessingTime.rang, metrics: t.out.chain}
			c.add(t)
			chains[i][k] = c
			j.chains = append(j.chains, c)
			starts = append(starts, func() { j.runChain(c) })
		}
		head()
	}
	// A stage whose output leaves its chain counts the chain's records
	// out (see vertex.instance).
	for i, sm := range j.stages {
		sm.exits = slices.ContainsFunc(outputs[i], func(ed *edge) bool { return ed.chained == nil })
		sm.ends = len(outputs[i]) == 0
	}
	if rs != nil {
		if err := rs.unclaimed(); err != nil {
			return abort(err)
		}
	}
	j.wg.Add(len(starts))
	for _, st := range starts {
		go st()
	}
	periodic := make(chan struct{})
	if j.coord != nil && j.coord.cfg.Interval > 0 {
		go func() {
			defer close(periodic)
			j.coord.periodic()
		}()
	} else {
		close(periodic)
	}
	go func() {
		j.wg.Wait()
		cancel()
		close(j.ended)
		// Done means nothing of the job runs any more: no checkpoint
		// is being written, and none will start.
		<-periodic
		if j.coord != nil {
			j.coord.close()
		}
		close(j.done)
	}()
	return j, nil
}

// MaxParallelism returns the number of key groups the job's keys are
// hashed into.
func (j *Job) MaxParallelism() int { return j.maxParallelism }

// Done is closed when every instance has stopped and no checkpoint is
// being taken or written any more.
func (j *Job) Done() <-chan struct{} { return j.done }

// Err returns the first failure, or nil; it is nil until Done.
func (j *Job) Err() error {
	select {
	case <-j.done:
	default:
		return nil
	}
	return j.failure()
}

// failure returns the first failure so far.
func (j *Job) failure() error {
	j.errMu.Lock()
	defer j.errMu.Unlock()
	return j.err
}

// Cancel stops the job.
func (j *Job) Cancel() { j.cancel() }

// Context is cancelled when the job is cancelled or fails; operators pass it
// to calls that may block, so that stopping the job does not wait on them.
func (j *Job) Context() context.Context { return j.ctx }

// Fail stops the job with err (the first failure wins).
func (j *Job) Fail(err error) {
	select {
	case <-j.ended:
		return // finished: its outcome is settled
	default:
	}
	j.errMu.Lock()
	if j.err == nil {
		j.err = err
	}
	j.errMu.Unlock()
	j.cancel()
}

// Quiet reports whether the job has nothing left to do for the input
// available now: no message in flight, every source either ended or caught
// up (a running source that is not a Quiescer, or a bounded one that has
// not ended yet, is not), and every stateful operator caught up. A finished
// job is quiet. Quiet alone cannot see work that moves between jobs; see
// Progress.
func (j *Job) Quiet(ctx context.Context) (bool, error) {
	select {
	case <-j.done:
		return true, nil
	default:
	}
	if j.inflight.Load() != 0 {
		return false, nil
	}
	for _, si := range j.sources {
		if si.ended.Load() {
			continue
		}
		q, ok := si.src.(Quiescer)
		if !ok {
			return false, nil
		}
		if ok, err := q.CaughtUp(ctx); err != nil || !ok {
			return false, err
		}
	}
	for _, q := range j.quiescers {
		ok, err := q.CaughtUp(ctx)
		if err != nil || !ok {
			return false, err
		}
	}
	return j.inflight.Load() == 0, nil
}

// Progress counts the job's work so far: every message sent between its
// instances and every unit of work reported with Progressed. A caller that
// sees the same count before and after finding every job quiet knows that
// nothing moved while it looked, including between jobs through Kafka.
func (j *Job) Progress() int64 { return j.progress.Load() }

// Progressed records work done outside the job's channels, such as a
// record acknowledged by the broker, for Progress.
func (j *Job) Progressed() { j.progress.Add(1) }

// runSource runs a source instance and the chain of operator instances
// its output is handed to in its goroutine.
func (j *Job) runSource(name string, sc *SourceContext, si *sourceInstance, out *emitter, c *chain) {
	defer j.wg.Done()
	defer c.close()
	if !c.open() {
		return
	}
	// The chain is timed as one task, as an operator's is (see
	// sourceTimer), until the source has ended or stopped.
	sc.timer = newSourceTimer(c.metrics)
	defer sc.timer.lap()
	var err error
	if !si.finished {
		err = si.src.Run(sc, &sourceOutput{out, sc.timer})
	}
	if err != nil {
		if j.ctx.Err() == nil {
			j.Fail(fmt.Errorf("%s: %w", name, err))
		}
		return
	}
	if j.ctx.Err() != nil {
		return
	}
	// A bounded source that finishes emits the maximum watermark, then ends.
	out.EmitWatermark(MaxWatermark)
	out.end()
	si.ended.Store(true)
	out.metrics.ended.Store(true)
	if j.coord != nil {
		// A finished source leaves a part of its header (a restore at
		// another parallelism learns from it how many instances ran)
		// and, if it can be restored at another parallelism, its final
		// state, which the instances that take its work over start from.
		var final []byte
		if _, ok := si.src.(UnionRestorer); ok {
			if final, _, err = snapshot(si.src, 0, sc.Context); err != nil {
				j.Fail(fmt.Errorf("%s: the state it ended with: %w", name, err))
				return
			}
		}
		j.coord.finish(si.part, encodePart(sourceHeader(sc.Context), final))
	}
}

// emitter sends one instance's output along its edges. It is used by the
// instance's goroutine only.
type emitter struct {
	job      *Job
	edges    []*edge
	instance int
	// idleSent is set once idleness was announced, until the next output.
	idleSent bool
	// muted drops everything sent: set on a source that has passed the
	// barrier of a savepoint that drains the job, after which it must
	// emit nothing.
	muted bool
	// hold drops a source's watermarks but the maximum one, and its
	// idleness (Graph.HoldWatermarks).
	hold bool
	// metrics are the instance's; chain those of the chain it runs in
	// (its own until it joins one).
	metrics *instanceMetrics
	chain   *chainMetrics

	// Reused by the hash exchange: the key hasher, each row's target
	// instance, the rows grouped by target, where each target's rows
	// start, and the counting sort's cursors.
	hash   keyHasher
	target []int
	order  []int
	starts []int
	next   []int
}

func newEmitter(j *Job, edges []*edge, instance int) *emitter {
	return &emitter{job: j, edges: edges, instance: instance, metrics: newInstanceMetrics(), chain: &chainMetrics{}}
}

// send puts env in an inbox, waiting while it is full (backpressure,
// timed for the metrics).
func (e *emitter) send(ch chan envelope, env envelope) {
	if e.muted {
		return
	}
	e.job.inflight.Add(1)
	e.job.progress.Add(1)
	select {
	case ch <- env:
		return
	default:
	}
	start := time.Now()
	select {
	case ch <- env:
	case <-e.job.ctx.Done():
		e.job.inflight.Add(-1)
	}
	d := int64(time.Since(start))
	e.chain.blocked += d
	e.chain.backpressured.Add(d)
}

// call hands env to the chained task t of a forward edge, in this
// goroutine; it counts as in flight, as a message sent, until t has
// handled it.
func (e *emitter) call(t *task, env envelope) {
	if e.muted {
		return
	}
	e.job.inflight.Add(1)
	e.job.progress.Add(1)
	t.deliver(env)
}

// forward sends env along the forward edge ed: to this instance's
// chained task, or to its instance's inbox.
func (e *emitter) forward(ed *edge, env envelope) {
	if ed.chained != nil {
		e.call(ed.chained[e.instance], env)
		return
	}
	e.send(ed.inboxes[e.instance], env)
}

// Emit implements Emitter.
func (e *emitter) Emit(c *types.Chunk) { e.EmitLease(c, nil) }

// EmitLease implements LeaseEmitter: the lease goes with c to its one
// consumer, and is dropped when c has several.
func (e *emitter) EmitLease(c *types.Chunk, l *Lease) {
	e.idleSent = false
	if c.Len() == 0 || len(e.edges) == 0 {
		l.Release() // nobody is handed c
		return
	}
	if !e.muted {
		e.metrics.recordsOut.Add(int64(c.Len()))
	}
	if len(e.edges) > 1 {
		l = nil
	}
	for _, ed := range e.edges {
		switch ed.exchange {
		case Forward:
			e.forward(ed, envelope{kind: msgChunk, input: ed.input, sender: 0, chunk: c, lease: l})
		case Single:
			e.send(ed.inboxes[0], envelope{kind: msgChunk, input: ed.input, sender: e.instance, chunk: c, lease: l})
		case Hash:
			e.emitHashed(ed, c, l)
		}
	}
}

// emitHashed splits c by the hash of its key columns into one chunk per
// target instance, keeping the order of the rows within each. The lease
// l of c goes with it to an instance that takes every row; a split
// copies the rows and releases it.
func (e *emitter) emitHashed(ed *edge, c *types.Chunk, l *Lease) {
	n := len(ed.inboxes)
	if n == 1 {
		e.send(ed.inboxes[0], envelope{kind: msgChunk, input: ed.input, sender: e.instance, chunk: c, lease: l})
		return
	}
	rows := c.Len()
	e.target = slices.Grow(e.target[:0], rows)[:rows]
	e.starts = slices.Grow(e.starts[:0], n+1)[:n+1]
	clear(e.starts)
	owner := ed.owners(e.job.maxParallelism)
	// A power-of-two number of key groups (the default 128) takes the
	// key group with a mask rather than a division.
	mask := uint64(len(owner) - 1)
	pow2 := len(owner)&(len(owner)-1) == 0
	for i := range rows {
		h := e.hash.hash(c, ed.keys, i)
		var g int
		if pow2 {
			g = int(h & mask)
		} else {
			g = KeyGroupFor(h, len(owner))
		}
		k := int(owner[g])
		e.target[i] = k
		e.starts[k+1]++
	}
	if k := e.target[0]; e.starts[k+1] == rows { // every row goes to k
		e.send(ed.inboxes[k], envelope{kind: msgChunk, input: ed.input, sender: e.instance, chunk: c, lease: l})
		return
	}
	// A stable counting sort: target k's rows go to order[starts[k]:starts[k+1]].
	for k := range n {
		e.starts[k+1] += e.starts[k]
	}
	e.next = append(e.next[:0], e.starts[:n]...)
	e.order = slices.Grow(e.order[:0], rows)[:rows]
	for i, k := range e.target {
		e.order[e.next[k]] = i
		e.next[k]++
	}
	for k := range n {
		if sel := e.order[e.starts[k]:e.starts[k+1]]; len(sel) > 0 {
			e.send(ed.inboxes[k], envelope{kind: msgChunk, input: ed.input, sender: e.instance, chunk: SelectRows(c, sel)})
		}
	}
	l.Release()
}

// SelectRows returns a new chunk holding rows sel of c, in that order.
func SelectRows(c *types.Chunk, sel []int) *types.Chunk {
	out := &types.Chunk{Ops: pick(c.Ops, sel), Cols: make([]*types.Vector, len(c.Cols))}
	for j, col := range c.Cols {
		out.Cols[j] = Gather(col, col.Type, sel)
	}
	return out
}

// Gather returns rows sel of v, in that order, as a new vector of type t,
// which must store values as v's type does. With a nil sel it returns all
// rows, sharing v's storage: a vector is not modified once its chunk has
// been emitted, and appending to the new one copies.
func Gather(v *types.Vector, t types.Type, sel []int) *types.Vector {
	out := &types.Vector{Type: t, Nulls: pick(v.Nulls, sel)}
	switch t.Physical() {
	case types.PhysFloat:
		out.F64 = pick(v.F64, sel)
	case types.PhysString:
		out.Str = pick(v.Str, sel)
	default:
		out.I64 = pick(v.I64, sel)
	}
	return out
}

// pick returns a new slice of the elements sel of src, or src itself, its
// capacity cut to its length, when sel is nil.
func pick[T any](src []T, sel []int) []T {
	if sel == nil {
		return src[:len(src):len(src)]
	}
	out := make([]T, len(sel))
	for j, i := range sel {
		out[j] = src[i]
	}
	return out
}

// EmitWatermark implements Emitter.
func (e *emitter) EmitWatermark(wm int64) {
	if e.hold && wm != MaxWatermark {
		return
	}
	e.idleSent = false
	if !e.muted {
		e.metrics.watermark.Store(wm)
	}
	e.broadcast(envelope{kind: msgWatermark, wm: wm})
}

// idle tells downstream that this instance has no data for now.
func (e *emitter) idle() {
	if e.idleSent || e.hold {
		return
	}
	e.idleSent = true
	e.broadcast(envelope{kind: msgIdle})
}

// snapshot returns an instance's state for checkpoint id, nil if it keeps
// none; a state backend's keyed entries are split by key group, or, in
// an incremental checkpoint of a backend that can, refer to shared files,
// which the coordinator releases.
func snapshot(inst any, id int64, ctx *Context) ([]byte, *sharedFiles, error) {
	switch s := inst.(type) {
	case Snapshotter:
		st, err := s.SnapshotState(id)
		return st, nil, err
	case Stateful:
		if inc, ok := s.State().(state.Incremental); ok && ctx.Job.coord.incremental(id) {
			st, files, release, err := inc.SnapshotIncremental(ctx.Job.maxParallelism, ctx.KeyGroups)
			if err != nil {
				return nil, nil, err
			}
			return st, &sharedFiles{files: files, release: release}, nil
		}
		st, err := s.State().Snapshot(ctx.Job.maxParallelism, ctx.KeyGroups)
		return st, nil, err
	}
	return nil, nil, nil
}

// requestBarriers asks every running source instance for checkpoint id's
// barrier. Instances that ended acknowledge it through the coordinator.
func (j *Job) requestBarriers(id int64) {
	for _, si := range j.sources {
		si.mu.Lock()
		si.requested = append(si.requested, id)
		si.mu.Unlock()
		select {
		case si.barrier <- struct{}{}:
		default:
		}
	}
}

// notifyComplete tells every operator instance that checkpoint id
// completed, through the inbox of its chain's head, so that it hears it
// between messages.
func (j *Job) notifyComplete(id int64) {
	for _, c := range j.chains {
		j.inflight.Add(1)
		select {
		case c.inbox <- envelope{kind: msgComplete, wm: id}:
		case <-c.exited:
			j.inflight.Add(-1)
		case <-j.ctx.Done():
			j.inflight.Add(-1)
		}
	}
}

// end tells downstream that this instance's output is complete.
func (e *emitter) end() { e.broadcast(envelope{kind: msgEnd}) }

func (e *emitter) broadcast(env envelope) {
	for _, ed := range e.edges {
		env.input = ed.input
		env.sender = e.instance
		switch ed.exchange {
		case Forward:
			env.sender = 0 // the only sender of that instance's input
			e.forward(ed, env)
		case Single:
			e.send(ed.inboxes[0], env)
		default:
			for _, ch := range ed.inboxes {
				e.send(ch, env)
			}
		}
	}
}
