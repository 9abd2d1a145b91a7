package runtime

import (
	"fmt"
	"time"
)

// Operator chaining, as Flink's (StreamingJobGraphGenerator.isChainable,
// pipeline.operator-chaining.enabled): a stage whose only input is a
// forward exchange from a stage of the same parallelism runs in the
// goroutine of its upstream instance, which hands it every message by a
// direct call instead of through an inbox. Flink chains a node to its
// input when the node has one input edge, the edge's partitioner is
// forward, both sides have the same parallelism (and max parallelism,
// unless pipeline.operator-chaining.chain-operators-with-different-max-
// parallelism, which is moot here: a job has one max parallelism) and
// chaining is enabled. A hash or single exchange, a second input, or
// another parallelism starts a new chain. An instance may chain several
// of its outputs (Flink's chained outputs are a tree too).
//
// A chain's goroutine runs its head, a source or an operator instance
// with an inbox, and every chained instance. Watermarks, idleness,
// barriers, checkpoint completions and the end of input reach a chained
// instance as they would through an inbox, in the same order, with the
// same per-instance watermark merging and barrier alignment (an
// instance with one forward sender aligns a barrier at once); its
// processing-time wake-ups ring the head's loop. A source runs its own
// loop (Source.Run), which cannot receive anything else: it chains only
// instances that need nothing from a loop of their own, neither a
// processing-time wake-up (ProcessingTimer) nor a completed checkpoint
// (CheckpointListener) nor a count of their state entries after their
// input pauses (Stateful).
//
// A chain is what Flink calls a task: its instances' stages are one job
// vertex in the metrics (Job.Vertices), and it is timed as a whole,
// however many instances handle a message: by its loop, two clock reads
// per message it takes, or under a source by a sourceTimer, a clock
// read per chunk the source emits and per wait for input.

// chainable reports whether stage i may run in the goroutine of its
// input's instances.
func chainable(g *Graph, i int) bool {
	s := g.Stages[i]
	if g.DisableChaining || s.NewSource != nil || len(s.Inputs) != 1 {
		return false
	}
	in := s.Inputs[0]
	return in.Exchange == Forward && g.Stages[in.Stage].Parallelism == s.Parallelism
}

// needsLoop reports whether an operator instance needs more than its
// input from the loop that runs it, which a source's does not give.
func needsLoop(op Operator) bool {
	_, timer := op.(ProcessingTimer)
	_, listener := op.(CheckpointListener)
	_, stateful := op.(Stateful)
	return timer || listener || stateful
}

// chain is the operator instances one goroutine runs: for an operator
// head, the head first, then the instances chained to it in stage order;
// for a source head, the instances chained to the source.
type chain struct {
	tasks []*task
	// inbox is the head operator's (nil under a source).
	inbox chan envelope
	// exited is closed when the goroutine has returned.
	exited chan struct{}
	// rang is signalled when a wake-up of any of the chain's instances
	// rings (their ProcessingTimeServices share it; nil under a source).
	rang chan struct{}
	// recount fires when a stateful instance skipped counting its state
	// entries (see task.count); nil when none is pending or under a
	// source.
	recount <-chan time.Time
	// metrics are the chain's, as Flink's task metrics (a job vertex's
	// instance is a chain; see Job.Vertices): its head's emitter's, which
	// the instances chained to it share.
	metrics *chainMetrics
	// now is when the message the chain's loop handles came.
	now time.Time
}

// add chains t: it takes its messages from the chain's goroutine, and
// its wake-ups ring the chain's loop.
func (c *chain) add(t *task) {
	t.chain = c
	t.out.chain = c.metrics
	if c.rang != nil {
		t.rctx.ProcessingTime.rang = c.rang
	}
	c.tasks = append(c.tasks, t)
}

// open opens every instance of the chain, reporting whether all did.
func (c *chain) open() bool {
	for _, t := range c.tasks {
		if !t.open() {
			return false
		}
	}
	return true
}

// close stops every instance of the chain.
func (c *chain) close() {
	for _, t := range c.tasks {
		t.close()
	}
}

// task is one operator instance: its operator and what the runtime keeps
// for it between messages (merged watermark, barrier alignment, metrics).
type task struct {
	job        *Job
	name, part string
	rctx       *Context
	op         Operator
	out        *emitter
	chain      *chain

	wms          *valve
	align        *aligner
	ended, total int
	// current is the merged watermark the operator was given last; it
	// starts at the watermark restored from a checkpoint.
	current int64
	// replay are held messages to process before the next one.
	replay []envelope
	// release lets a state backend write back the values the operator
	// was handed during a message.
	release func() error
	st      Stateful
	timer   ProcessingTimer
	taker   LeaseTaker
	// counted is when the state entries were last counted, stale
	// whether a count was skipped since.
	counted time.Time
	stale   bool
	// stopped is set once the instance has finished or failed: what
	// reaches it afterwards is dropped.
	stopped bool
}

// newTask returns the task of operator instance op, with the numbers of
// senders of each of its inputs, starting at watermark floor.
func newTask(j *Job, name, part string, rctx *Context, op Operator, out *emitter, senders []int, floor int64) *task {
	t := &task{job: j, name: name, part: part, rctx: rctx, op: op, out: out, current: floor,
		wms: newValve(senders), align: newAligner(senders, j.coord == nil || j.coord.cfg.Mode == ExactlyOnce),
		release: func() error { return nil }}
	for _, c := range senders {
		t.total += c
	}
	if s, ok := op.(Stateful); ok {
		t.st, t.release = s, s.State().Release
	}
	t.timer, _ = op.(ProcessingTimer)
	t.taker, _ = op.(LeaseTaker)
	return t
}

// fail stops the instance and the job with err.
func (t *task) fail(err error) {
	t.stopped = true
	t.job.Fail(fmt.Errorf("%s: %w", t.name, err))
}

// open opens the operator and gives it the watermark it was restored
// at, reporting whether it is running.
func (t *task) open() bool {
	if err := t.op.Open(t.rctx); err != nil {
		t.fail(err)
		return false
	}
	if t.current > MinWatermark {
		t.out.metrics.given.Store(t.current)
		if err := t.op.ProcessWatermark(t.current, t.out); err != nil {
			t.fail(err)
			return false
		}
	}
	return true
}

// close stops the instance's wake-ups, then closes its state backend.
func (t *task) close() {
	t.rctx.ProcessingTime.close()
	if t.st != nil {
		if err := t.st.State().Close(); err != nil {
			t.job.Fail(fmt.Errorf("%s: closing the state: %w", t.name, err))
		}
	}
}

// deliver handles env, a message in flight, then the messages a barrier
// it completed released, and reports whether the instance has stopped.
// A message held back for alignment stays in flight until handled.
func (t *task) deliver(env envelope) (stopped bool) {
	if t.stopped {
		t.job.inflight.Add(-1)
		return true
	}
	for {
		if t.align.holds(env) {
			t.align.held = append(t.align.held, env)
		} else if !t.process(env) {
			return true
		}
		if len(t.replay) == 0 {
			return false
		}
		env, t.replay = t.replay[0], t.replay[1:]
	}
}

// process handles one message that alignment does not hold and reports
// whether the instance goes on.
func (t *task) process(env envelope) bool {
	j, op, out := t.job, t.op, t.out
	m := out.metrics
	var err error
	switch env.kind {
	case msgBarrier:
		if t.align.barrier(env) {
			err = t.barrier()
		}
	case msgComplete:
		if l, ok := op.(CheckpointListener); ok {
			err = l.CheckpointComplete(env.wm)
		}
	case msgChunk:
		t.wms.activate(t.wms.sender(env.input, env.sender))
		m.recordsIn.Add(int64(env.chunk.Len()))
		if t.taker != nil {
			err = t.taker.ProcessLeased(env.input, env.chunk, env.lease, out)
		} else {
			err = op.ProcessChunk(env.input, env.chunk, out)
		}
	case msgWatermark:
		t.wms.observe(t.wms.sender(env.input, env.sender), env.wm)
		err = t.advance()
	case msgIdle:
		t.wms.markIdle(t.wms.sender(env.input, env.sender))
		if _, active := t.wms.merged(); active {
			err = t.advance()
		} else {
			out.idle()
		}
	case msgEnd:
		if t.align.end(env.input, env.sender) {
			err = t.barrier()
		}
		t.ended++
		t.wms.observe(t.wms.sender(env.input, env.sender), MaxWatermark)
		if err == nil {
			err = t.advance()
		}
		if err == nil && t.ended == t.total {
			err = op.Finish(out)
			if err == nil {
				out.end()
			}
			j.inflight.Add(-1)
			if err != nil {
				t.fail(err)
				return false
			}
			t.stopped = true
			m.ended.Store(true)
			if j.coord != nil {
				j.coord.finish(t.part, nil)
			}
			return false
		}
	}
	if err == nil {
		err = t.release()
	}
	t.count(t.chain.now)
	j.inflight.Add(-1)
	if err != nil {
		t.fail(err)
		return false
	}
	return true
}

// advance forwards the merged watermark if it moved.
func (t *task) advance() error {
	merged, any := t.wms.merged()
	if !any || merged <= t.current {
		return nil
	}
	t.current = merged
	t.out.metrics.given.Store(merged)
	return t.op.ProcessWatermark(t.current, t.out)
}

// barrier snapshots the instance once a checkpoint's barrier is
// complete, passes the barrier on, and releases what alignment held.
func (t *task) barrier() error {
	id, held := t.align.complete()
	var flushErr error
	if p, ok := t.op.(BarrierPreparer); ok {
		flushErr = p.PrepareSnapshotPreBarrier(t.out)
	}
	var st []byte
	var files *sharedFiles
	err := flushErr
	if err == nil {
		st, files, err = snapshot(t.op, id, t.rctx)
	}
	h := partHeader{wm: t.current, maxParallelism: t.job.maxParallelism, parallelism: t.rctx.Parallelism, instance: t.rctx.Instance}
	t.job.coord.ack(id, t.part, encodePart(h, st), files, err)
	t.out.broadcast(envelope{kind: msgBarrier, wm: id})
	t.replay = append(held, t.replay...)
	return flushErr
}

// count counts the state entries of a stateful instance, at most every
// stateCountInterval: a count skipped marks it stale, and has the
// chain's loop count again once the interval has passed, so that the
// last count is never stale for long.
func (t *task) count(now time.Time) {
	if t.st == nil {
		return
	}
	if since := now.Sub(t.counted); since < stateCountInterval {
		t.stale = true
		if c := t.chain; c.recount == nil {
			c.recount = time.After(stateCountInterval - since)
		}
		return
	}
	t.out.metrics.stateEntries.Store(int64(t.st.State().Len()))
	t.counted, t.stale = now, false
}

// fire calls the operator's OnProcessingTime if its wake-up is due.
func (t *task) fire() {
	if t.stopped {
		return
	}
	var err error
	if t.timer != nil {
		err = t.rctx.ProcessingTime.Fire(t.timer, t.out)
	}
	if err == nil {
		err = t.release()
	}
	if err != nil {
		t.fail(err)
	}
}

// runChain runs a chain headed by an operator instance: it takes the
// head's messages from its inbox, and its instances' wake-ups, until the
// head has finished or failed or the job stops.
func (j *Job) runChain(c *chain) {
	defer j.wg.Done()
	defer close(c.exited)
	defer c.close()
	if !c.open() {
		return
	}
	head := c.tasks[0]
	// The chain is timed as one task (Flink's busy and idle time are a
	// task's): two clock reads per message it takes from its inbox or
	// wake-up, however many instances it runs.
	last := time.Now()
	for {
		var stopped bool
		select {
		case env := <-c.inbox:
			last, stopped = c.timed(last, func() bool {
				if head.deliver(env) {
					return true
				}
				if env.kind == msgComplete {
					// The chained instances hear of it at once: they
					// took their part of the checkpoint when the head
					// passed its barrier on.
					for _, t := range c.tasks[1:] {
						j.inflight.Add(1)
						t.deliver(env)
					}
				}
				return false
			})
		case <-j.ctx.Done():
			return
		case now := <-c.recount:
			c.recount = nil
			for _, t := range c.tasks {
				if t.stale && !t.stopped {
					t.count(now)
				}
			}
		case <-c.rang:
			last, stopped = c.timed(last, func() bool {
				// One ring stands for every due wake-up of the chain:
				// each instance fires if its own is due.
				for _, t := range c.tasks {
					t.fire()
				}
				j.inflight.Add(-1)
				return head.stopped
			})
		}
		if stopped {
			return
		}
	}
}

// timed runs handle, the chain's work on one message that came after
// the chain was last done at last, counting the time since as idle and
// the time it takes, less the time blocked sending, as busy. It returns
// when the chain was done and what handle returned.
func (c *chain) timed(last time.Time, handle func() bool) (time.Time, bool) {
	m := c.metrics
	c.now = time.Now()
	m.idle.Add(int64(c.now.Sub(last)))
	blocked := m.blocked
	stopped := handle()
	done := time.Now()
	m.busy.Add(int64(done.Sub(c.now)) - (m.blocked - blocked))
	return done, stopped
}
