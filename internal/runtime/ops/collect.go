package ops

import (
	"sync"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// Change is one row of a changelog delivered to a client.
type Change struct {
	Kind types.RowKind
	Row  types.Row
}

// Collector is the sink of a query whose result goes to a client: it
// buffers changes until the client takes them, so a slow reader never
// stalls the job's channels.
type Collector struct {
	mu      sync.Mutex
	changes []Change
	ended   bool
	notify  chan struct{}
	// limit, unless negative, ends the result after that many rows: the
	// query's result is complete then (LIMIT over an insert-only input).
	limit int64
	seen  int64
}

// NewCollector returns an empty collector; a limit other than -1 ends the
// result once that many rows have arrived.
func NewCollector(limit int64) *Collector {
	return &Collector{notify: make(chan struct{}, 1), limit: limit, ended: limit == 0}
}

// Open implements runtime.Operator.
func (c *Collector) Open(*runtime.Context) error { return nil }

// ProcessChunk implements runtime.Operator.
func (c *Collector) ProcessChunk(_ int, ch *types.Chunk, _ runtime.Emitter) error {
	c.mu.Lock()
	for i := 0; i < ch.Len() && !c.ended; i++ {
		c.changes = append(c.changes, Change{Kind: ch.Ops[i], Row: ch.Row(i)})
		c.seen++
		c.ended = c.limit >= 0 && c.seen >= c.limit
	}
	c.mu.Unlock()
	c.wake()
	return nil
}

// ProcessLeased implements runtime.LeaseTaker: the changes copy the
// chunk's values.
func (c *Collector) ProcessLeased(input int, ch *types.Chunk, l *runtime.Lease, out runtime.Emitter) error {
	err := c.ProcessChunk(input, ch, out)
	l.Release()
	return err
}

// ProcessWatermark implements runtime.Operator.
func (c *Collector) ProcessWatermark(int64, runtime.Emitter) error { return nil }

// Finish implements runtime.Operator.
func (c *Collector) Finish(runtime.Emitter) error {
	c.mu.Lock()
	c.ended = true
	c.mu.Unlock()
	c.wake()
	return nil
}

func (c *Collector) wake() {
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

// Take returns the changes buffered so far and whether the input ended.
func (c *Collector) Take() ([]Change, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.changes
	c.changes = nil
	return out, c.ended
}

// Finished reports whether the input ended (all rows may not be taken yet).
func (c *Collector) Finished() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ended
}

// Ready is signalled when new changes may be available.
func (c *Collector) Ready() <-chan struct{} { return c.notify }
