package datagen

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

const defaultWatermarkInterval = 200 * time.Millisecond

// instance produces rows i, i+n, i+2n, ... of the source at its share of
// 'rows-per-second'. It is no runtime.Quiescer: a generator has more rows until it ends.
type instance struct {
	cfg         *config
	spec        connector.SourceSpec
	instance, n int
	// rows is how many rows the instance produces, -1 for unbounded.
	rows    int64
	emitted int64
	bucket  *tokenBucket
	state   genState
	tracker *runtime.WatermarkTracker
	// wms holds a chunk's watermark candidates, reused.
	wms types.Vector
	// pool holds the chunks the consumers handed back.
	pool *runtime.ChunkPool
}

func newInstance(cfg *config, spec connector.SourceSpec, i, n int) *instance {
	if spec.WatermarkInterval <= 0 {
		spec.WatermarkInterval = defaultWatermarkInterval
	}
	if spec.TimeZone == nil {
		spec.TimeZone = time.UTC
	}
	s := &instance{cfg: cfg, spec: spec, instance: i, n: n, rows: cfg.rows(i, n), pool: runtime.NewChunkPool(runtime.PooledChunks),
		state: genState{rnd: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), loc: spec.TimeZone}}
	if spec.Watermark != nil {
		s.tracker = runtime.NewWatermarkTracker(spec.IdleTimeout)
	}
	return s
}

// Run implements runtime.Source.
func (s *instance) Run(ctx *runtime.SourceContext, out runtime.Emitter) error {
	now := time.Now()
	s.bucket = newTokenBucket(float64(s.cfg.rowsPerSecond)/float64(s.n), now)
	if s.tracker != nil {
		s.tracker.AddPartition(0, now)
	}
	nextWatermark := now.Add(s.spec.WatermarkInterval)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for s.rows < 0 || s.emitted < s.rows {
		if ctx.Ctx.Err() != nil {
			return nil
		}
		select {
		case <-ctx.CheckpointRequested():
			ctx.EmitBarriers()
		default:
		}
		want := s.cfg.chunkRows
		if s.rows >= 0 {
			want = int(min(int64(want), s.rows-s.emitted))
		}
		now = time.Now()
		n := s.bucket.take(now, want)
		if n > 0 {
			if err := s.emit(out, n, now); err != nil {
				return err
			}
		}
		if !now.Before(nextWatermark) {
			s.emitWatermark(ctx, out, now)
			nextWatermark = now.Add(s.spec.WatermarkInterval)
		}
		if n == 0 {
			// Waiting for the rate to allow the next row is idle time,
			// as Flink's rate-limited source reader is.
			timer.Reset(min(s.bucket.wait(), time.Until(nextWatermark)))
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

// emit generates, completes and sends a chunk of n rows, leased from the
// instance's pool.
func (s *instance) emit(out runtime.Emitter, n int, now time.Time) error {
	l := s.pool.Get()
	c := l.Empty(s.cfg.colTypes, n)
	s.state.now = now
	for k := range n {
		pos := int64(s.instance) + (s.emitted+int64(k))*int64(s.n)
		for _, f := range s.cfg.fields {
			f.gen(c.Cols[f.col], &s.state, pos)
		}
		c.Ops = append(c.Ops, types.Insert)
	}
	s.emitted += int64(n)
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
		for i := range n {
			if wms.Nulls[i] {
				s.tracker.Touch(0, now)
			} else {
				s.tracker.Observe(0, wms.I64[i], now)
			}
		}
	}
	runtime.EmitShared(out, c, l)
	return nil
}

// emitWatermark sends the instance's watermark if it advanced, or marks
// the instance idle once it has had no rows for the idle timeout.
func (s *instance) emitWatermark(ctx *runtime.SourceContext, out runtime.Emitter, now time.Time) {
	if s.tracker == nil {
		return
	}
	s.tracker.Emit(ctx, out, now)
}

// tokenBucket paces an instance: tokens (rows) accrue at rate per second
// up to a burst of a tenth of a second's worth (at least one row, at most
// a chunk), so that rows leave in chunks without exceeding the rate.
type tokenBucket struct {
	rate, burst, tokens float64
	last                time.Time
}

func newTokenBucket(rate float64, now time.Time) *tokenBucket {
	burst := max(1, min(float64(types.ChunkSize), rate/10))
	return &tokenBucket{rate: rate, burst: burst, tokens: burst, last: now}
}

// take removes up to n whole tokens at time now and returns how many.
func (b *tokenBucket) take(now time.Time, n int) int {
	if now.After(b.last) {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
		b.last = now
	}
	k := min(n, int(b.tokens))
	b.tokens -= float64(k)
	return k
}

// wait is how long until the next whole token.
func (b *tokenBucket) wait() time.Duration {
	if b.tokens >= 1 {
		return 0
	}
	return time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
}

// SnapshotState implements runtime.Snapshotter: an instance's state is how
// many rows it has produced, so a sequence resumes where it stopped (random
// values are drawn anew, as in Flink's DataGen source).
func (s *instance) SnapshotState(int64) ([]byte, error) {
	return binary.AppendVarint(nil, s.emitted), nil
}

// RestoreState implements runtime.Snapshotter.
func (s *instance) RestoreState(b []byte) error {
	n, k := binary.Varint(b)
	if k != len(b) || n < 0 || s.rows >= 0 && n > s.rows {
		return fmt.Errorf("datagen: invalid state of %d bytes", len(b))
	}
	s.emitted = n
	return nil
}
