package nexmark

import (
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

const defaultWatermarkInterval = 200 * time.Millisecond

// scanSource is a nexmark table being read.
type scanSource struct {
	cfg  *config
	spec connector.SourceSpec
}

// NewInstance implements connector.ScanSource: instance i of n is
// generator i of n.
func (s *scanSource) NewInstance(i, n int) (runtime.Source, error) {
	spec := s.spec
	if spec.WatermarkInterval <= 0 {
		spec.WatermarkInterval = defaultWatermarkInterval
	}
	in := &instance{cfg: s.cfg, spec: spec, gen: NewGenerator(s.cfg.gen, i, n), index: i, pool: runtime.NewChunkPool(runtime.PooledChunks)}
	if !slices.ContainsFunc(s.cfg.fields, func(f field) bool { return f.extra }) {
		in.gen.OmitExtra()
	}
	in.representable = in.gen.Representable()
	if spec.Watermark != nil {
		in.tracker = runtime.NewWatermarkTracker(spec.IdleTimeout)
	}
	return in, nil
}

// instance generates the events of its kind in its generator's range. It
// is no runtime.Quiescer: a generator has more events until it ends.
type instance struct {
	cfg     *config
	spec    connector.SourceSpec
	gen     *Generator
	ev      Event
	tracker *runtime.WatermarkTracker
	// wms holds a chunk's watermark candidates, reused.
	wms types.Vector
	// pool holds the chunks the consumers handed back.
	pool *runtime.ChunkPool
	// index is the instance's; representable is how many of its events
	// have times a TIMESTAMP holds.
	index         int
	representable int64
}

// Run implements runtime.Source.
func (s *instance) Run(ctx *runtime.SourceContext, out runtime.Emitter) error {
	start := time.Now()
	if s.tracker != nil {
		s.tracker.AddPartition(0, start)
	}
	// Paced, event k is due when the wall clock is as far from the start
	// as its event time from the base time; the events produced before a
	// restore count from the start.
	first := s.gen.Timestamp(s.gen.Produced())
	nextWatermark := start.Add(s.spec.WatermarkInterval)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for !s.gen.Done() {
		if ctx.Ctx.Err() != nil {
			return nil
		}
		select {
		case <-ctx.CheckpointRequested():
			ctx.EmitBarriers()
		default:
		}
		now := time.Now()
		var until int64 = -1 // event numbers due, -1 for all
		if !s.cfg.maxSpeed {
			until = s.due(first, now.Sub(start))
		}
		if until < 0 || until > s.gen.Produced() {
			if err := s.emit(out, until, now); err != nil {
				return err
			}
		}
		if !now.Before(nextWatermark) {
			if s.tracker != nil {
				s.tracker.Emit(ctx, out, now)
			}
			nextWatermark = now.Add(s.spec.WatermarkInterval)
		}
		if until >= 0 && until <= s.gen.Produced() && !s.gen.Done() {
			wait := time.Duration(s.gen.Timestamp(s.gen.Produced())-first)*time.Millisecond - time.Since(start)
			timer.Reset(max(0, min(wait, time.Until(nextWatermark))))
			// Waiting for the next event to be due is idle time.
			ctx.Waiting()
			barrier := false
			select {
			case <-ctx.Ctx.Done():
				return nil
			case <-ctx.CheckpointRequested():
				barrier = true
			case <-timer.C:
			}
			ctx.Working()
			if barrier {
				ctx.EmitBarriers()
			}
		}
	}
	return nil
}

// due returns the number of the first event not yet due elapsed after
// the start, whose first event had event time first.
func (s *instance) due(first int64, elapsed time.Duration) int64 {
	ms := first + elapsed.Milliseconds()
	k := s.gen.Produced()
	// Event times rise with the event number: step ahead a chunk's worth
	// of events at most.
	for end := k + types.ChunkSize; k < end && k < s.gen.Count() && s.gen.Timestamp(k) <= ms; k++ {
	}
	return k
}

// emit generates up to a chunk of events of the table's kind, among the
// events up to number until (-1: no limit), completes and sends them. The
// chunk is leased from the instance's pool, so that one its consumers are
// done with is filled again.
func (s *instance) emit(out runtime.Emitter, until int64, now time.Time) error {
	l := s.pool.Get()
	c := l.Empty(s.cfg.colTypes, types.ChunkSize)
	if until < 0 || until > s.representable {
		until = s.representable
	}
	for c.Len() < types.ChunkSize && s.gen.NextBefore(s.cfg.kind, until, &s.ev) {
		for _, f := range s.cfg.fields {
			f.fill(c.Cols[f.col], &s.ev)
		}
		c.Ops = append(c.Ops, types.Insert)
	}
	if c.Len() == 0 && s.gen.Produced() >= s.representable && !s.gen.Done() {
		l.Release()
		return fmt.Errorf("nexmark: event %d of instance %d would be after %s, the last time a TIMESTAMP holds: lower 'base-time' or 'events.num', or raise 'first-event.rate'",
			s.gen.Produced(), s.index, time.UnixMilli(MaxMillis).UTC().Format("2006-01-02 15:04:05.000"))
	}
	if c.Len() == 0 {
		l.Release()
		return nil
	}
	// Completing a chunk may drop columns: it is the lease's view.
	c = l.ViewChunk()
	if s.spec.Complete != nil {
		if err := s.spec.Complete(c); err != nil {
			return err
		}
	}
	if s.spec.Watermark != nil {
		wms := &s.wms
		if err := s.spec.Watermark(c, wms); err != nil {
			return err
		}
		// The rows' largest watermark, observed once for the chunk.
		hi, any := int64(0), false
		for i, null := range wms.Nulls[:c.Len()] {
			if !null && (!any || wms.I64[i] > hi) {
				hi, any = wms.I64[i], true
			}
		}
		if any {
			s.tracker.Observe(0, hi, now)
		} else {
			s.tracker.Touch(0, now)
		}
	}
	runtime.EmitShared(out, c, l)
	return nil
}

// SnapshotState implements runtime.Snapshotter: an instance's state is how
// many events of its range it has produced or skipped.
func (s *instance) SnapshotState(int64) ([]byte, error) {
	return binary.AppendVarint(nil, s.gen.Produced()), nil
}

// RestoreState implements runtime.Snapshotter.
func (s *instance) RestoreState(b []byte) error {
	n, k := binary.Varint(b)
	if k != len(b) || n < 0 || n > s.gen.Count() {
		return fmt.Errorf("nexmark: invalid state of %d bytes", len(b))
	}
	s.gen.SetProduced(n)
	return nil
}
