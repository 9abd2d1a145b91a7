package ops

import (
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
)

// cleanupTimers are the processing-time cleanup timers by which Flink's
// operators with a state retention that predates state TTL clear an idle
// key (KeyedProcessFunctionWithCleanupState,
// BaseTwoInputStreamOperatorWithStateRetention): a key has at most one,
// which a registration at processing time now moves to now + 1.5 times
// the retention when now + the retention lies past it
// (CleanupState.registerProcessingCleanupTimer), and which rings a
// millisecond after its time, as Flink's timer service rings a timer.
// Nothing is cleaned up with a retention of 1 ms or less
// (stateCleaningEnabled). The operator keeps each key's cleanup time in
// its state, so that the timers are snapshotted, as Flink's are, and
// sets them again from it when restored.
type cleanupTimers struct {
	// min and max are the retention and 1.5 times it, in milliseconds.
	min, max int64
	// queue holds the timers, by millisecond.
	queue *timerQueue
	pt    *runtime.ProcessingTimeService
}

// newCleanupTimers returns the cleanup timers of a retention ttl, nil
// without one.
func newCleanupTimers(ttl time.Duration) *cleanupTimers {
	if ttl <= 0 {
		return nil
	}
	return &cleanupTimers{min: ttl.Milliseconds(), max: ttl.Milliseconds() * 3 / 2, queue: newTimerQueue()}
}

// enabled reports whether keys are cleaned up.
func (c *cleanupTimers) enabled() bool { return c != nil && c.min > 1 && c.pt != nil }

// start gives the timers the operator's processing time and asks for a
// wake-up for the earliest (at once for one due while the job was down).
func (c *cleanupTimers) start(ctx *runtime.Context) {
	if c == nil || ctx == nil || ctx.ProcessingTime == nil {
		return
	}
	c.pt = ctx.ProcessingTime
	c.arm()
}

// register moves the cleanup timer of key, at at if has, for a
// registration now, and returns its time.
func (c *cleanupTimers) register(key string, at int64, has bool) int64 {
	now := floorMilli(c.pt.Now()) / millisecond
	if has && now+c.min <= at {
		return at
	}
	at = now + c.max
	c.queue.add(at, key)
	c.pt.Register((at + 1) * millisecond)
	return at
}

// rebuild replaces the timers with those of restored state.
func (c *cleanupTimers) rebuild(ts []timer) { c.queue.rebuildTimers(ts) }

// partitionTable declares in st the table of the partitions' cleanup
// times, from which c's timers are rebuilt when st is restored.
func (c *cleanupTimers) partitionTable(st state.Backend) *state.Table[int64] {
	t := state.NewTable(st, state.TTLTableName("partitions"), state.Int64Codec)
	t.OnRestore(func() {
		var ts []timer
		for k, at := range t.All() {
			ts = append(ts, timer{time: at, key: k})
		}
		c.rebuild(ts)
	})
	return t
}

// ring calls f for each timer due at now (microseconds), with its time
// and key (f tells a stale timer by the key's state), and asks for a
// wake-up for the next one.
func (c *cleanupTimers) ring(now int64, f func(at int64, key string)) {
	_ = c.queue.fire(floorMilli(now)/millisecond-1, func(at int64, key string) error {
		f(at, key)
		return nil
	})
	c.arm()
}

// arm asks for a wake-up a millisecond after the earliest timer.
func (c *cleanupTimers) arm() {
	if t, ok := c.queue.next(); ok {
		c.pt.Register((t + 1) * millisecond)
	}
}
