package kafka

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/format"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// deliveryTimeout bounds the time a record may take to be written.
const deliveryTimeout = 2 * time.Minute

// sinkTarget is a table being written. Its input rows hold the table's
// persisted columns: the physical columns and the non-virtual metadata
// columns, in declaration order (Flink's consumed row type); computed and
// virtual metadata columns are not part of them.
type sinkTarget struct {
	cfg *tableConfig
	env connector.Env
	// input maps each input column to its position in the table schema.
	input []int
}

// Parallelism is the 'sink.parallelism' option, 0 when unset.
func (s *sinkTarget) Parallelism() int { return s.cfg.parallelism }

// NewInstance implements connector.SinkTarget.
func (s *sinkTarget) NewInstance(i, n int) (runtime.Operator, error) {
	key, value, err := s.cfg.codecs(s.env.TimeZone)
	if err != nil {
		return nil, err
	}
	loc := s.env.TimeZone
	if loc == nil {
		loc = time.UTC
	}
	in := &sinkInstance{cfg: s.cfg, loc: loc, instance: i, key: key, value: value, tsCol: -1, done: make(chan struct{})}
	pos := func(col int) int { return slices.Index(s.input, col) }
	if s.cfg.key != nil {
		for _, c := range s.cfg.key.cols {
			in.keyIdx = append(in.keyIdx, pos(c))
		}
		in.keyRow = make(types.Row, len(in.keyIdx))
	}
	for _, c := range s.cfg.value.cols {
		in.valueIdx = append(in.valueIdx, pos(c))
	}
	in.valueRow = make(types.Row, len(in.valueIdx))
	for _, m := range s.cfg.meta {
		if !m.virtual { // only 'timestamp' is writable, see NewSink
			in.tsCol, in.tsType = pos(m.col), m.typ
		}
	}
	return in, nil
}

// sinkInstance encodes rows into records and produces them asynchronously.
// It implements runtime.Quiescer.
type sinkInstance struct {
	cfg        *tableConfig
	loc        *time.Location
	instance   int
	key, value format.Codec
	// arenaHint is the bytes per record of the last chunk, to size the
	// next chunk's encoding arena.
	arenaHint        int
	keyIdx, valueIdx []int
	keyRow, valueRow types.Row
	tsCol            int
	tsType           types.Type

	cl        *kgo.Client
	job       *runtime.Job
	ctx       context.Context // the job's: produce and flush stop with it
	inFlight  atomic.Int64
	closeOnce sync.Once
	closing   atomic.Bool
	done      chan struct{}
	flusher   sync.WaitGroup

	errMu sync.Mutex
	err   error

	mu sync.Mutex
	// The upsert buffer ('sink.buffer-flush.*'): the last record per key,
	// in the order keys first appeared.
	buffered []*kgo.Record
	byKey    map[string]int
}

func (s *sinkInstance) errorf(f string, args ...any) error {
	return fmt.Errorf(s.cfg.connector+" sink: "+f, args...)
}

// Open implements runtime.Operator.
func (s *sinkInstance) Open(ctx *runtime.Context) error {
	opts := slices.Clone(s.cfg.clientOpts)
	opts = append(opts, kgo.DefaultProduceTopic(s.cfg.topics[0]))
	if s.tsCol < 0 {
		// Kafka's default delivery.timeout.ms: a record that cannot be
		// written in two minutes fails the job instead of blocking it.
		// franz-go measures it from the record's timestamp, so it cannot
		// apply when rows set the timestamp.
		opts = append(opts, kgo.RecordDeliveryTimeout(deliveryTimeout))
	}
	switch s.cfg.partitioner {
	case partitionFixed:
		opts = append(opts, kgo.RecordPartitioner(fixedPartitioner(s.instance)))
	case partitionRoundRobin:
		opts = append(opts, kgo.RecordPartitioner(kgo.RoundRobinPartitioner()))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return s.errorf("%v", err)
	}
	s.cl, s.job = cl, ctx.Job
	s.ctx = context.Background()
	if s.job != nil {
		s.ctx = s.job.Context()
	}
	if err := ensureTopics(s.ctx, kadm.NewClient(cl), s.cfg.topics); err != nil {
		s.close()
		return s.errorf("%v", err)
	}
	if s.job != nil {
		// Operators have no close hook: release the client when the job
		// ends, whether it finished or was cancelled.
		go func() {
			<-s.job.Done()
			s.close()
		}()
	}
	if s.cfg.flushRows > 0 {
		s.byKey = map[string]int{}
		s.flusher.Go(s.flushPeriodically)
	}
	return nil
}

// close stops the flusher and the client. Records still buffered are
// dropped: after Finish there are none, and a cancelled job drops them.
func (s *sinkInstance) close() {
	s.closeOnce.Do(func() {
		s.closing.Store(true)
		close(s.done)
		s.flusher.Wait()
		s.cl.Close()
	})
}

// fail records the first produce error and stops the job.
func (s *sinkInstance) fail(err error) {
	if s.closing.Load() {
		return // records failed by closing the client
	}
	s.errMu.Lock()
	first := s.err == nil
	if first {
		s.err = err
	}
	s.errMu.Unlock()
	if first && s.job != nil {
		s.job.Fail(err)
	}
}

func (s *sinkInstance) failure() error {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	return s.err
}

// ProcessChunk implements runtime.Operator.
func (s *sinkInstance) ProcessChunk(_ int, c *types.Chunk, _ runtime.Emitter) error {
	if err := s.failure(); err != nil {
		return err
	}
	// One allocation of records and one growing byte arena per chunk
	// instead of three allocations per row: each key and value is a
	// capacity-limited slice of the arena (a grown arena leaves the earlier
	// slices on the old array, which their records keep alive).
	recs := make([]kgo.Record, 0, c.Len())
	arena := make([]byte, 0, s.arenaHint*c.Len())
	defer func() {
		if len(recs) > 0 {
			s.arenaHint = len(arena)/len(recs) + 1
		}
	}()
	encode := func(enc format.Encoder, row types.Row) ([]byte, error) {
		start := len(arena)
		out, err := enc.Encode(arena, row)
		if err != nil || out == nil {
			return nil, err
		}
		arena = out
		return arena[start:len(arena):len(arena)], nil
	}
	for i, kind := range c.Ops {
		switch {
		case !s.cfg.upsert && kind != types.Insert:
			return s.errorf("the '%s' connector only writes insert-only input, but got a %s row; use 'upsert-kafka' for updating results", s.cfg.connector, kind)
		case kind == types.UpdateBefore:
			continue // the +U that follows overwrites the key
		}
		recs = append(recs, kgo.Record{})
		r := &recs[len(recs)-1]
		var err error
		if s.key != nil {
			for j, col := range s.keyIdx {
				s.keyRow[j] = c.Cols[col].Get(i)
			}
			if r.Key, err = encode(s.key, s.keyRow); err != nil {
				return s.errorf("cannot encode key of row %s: %v", s.describeRow(c, i), err)
			}
		}
		if kind != types.Delete {
			for j, col := range s.valueIdx {
				s.valueRow[j] = c.Cols[col].Get(i)
			}
			if r.Value, err = encode(s.value, s.valueRow); err != nil {
				return s.errorf("cannot encode value of row %s: %v", s.describeRow(c, i), err)
			}
		}
		if s.tsCol >= 0 && !c.Cols[s.tsCol].Nulls[i] {
			r.Timestamp = instant(c.Cols[s.tsCol].I64[i], s.tsType, s.loc)
		}
		s.send(r)
	}
	return nil
}

func (s *sinkInstance) describeRow(c *types.Chunk, i int) string {
	parts := make([]string, len(c.Cols))
	for j, col := range c.Cols {
		parts[j] = types.PrintValue(col.Type, col.Get(i), s.loc)
	}
	return c.Ops[i].String() + "[" + strings.Join(parts, ", ") + "]"
}

// instant converts a TIMESTAMP_LTZ value, or a TIMESTAMP value read as
// wall-clock time in loc, to a time.
func instant(v int64, t types.Type, loc *time.Location) time.Time {
	if t.Kind == types.TimestampLTZ {
		return time.Unix(0, v)
	}
	w := time.Unix(0, v).UTC()
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), loc)
}

// send produces r, or buffers it when the upsert buffer is on.
func (s *sinkInstance) send(r *kgo.Record) {
	if s.byKey == nil {
		s.produce(r)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if i, ok := s.byKey[string(r.Key)]; ok {
		s.buffered[i] = r
	} else {
		s.byKey[string(r.Key)] = len(s.buffered)
		s.buffered = append(s.buffered, r)
	}
	if len(s.buffered) >= s.cfg.flushRows {
		s.flushBufferLocked()
	}
}

func (s *sinkInstance) produce(r *kgo.Record) {
	s.inFlight.Add(1)
	s.cl.Produce(s.ctx, r, func(r *kgo.Record, err error) {
		if err != nil && s.ctx.Err() == nil {
			s.fail(s.errorf("writing to topic '%s': %v", r.Topic, err))
		}
		if s.job != nil {
			s.job.Progressed() // another job may read the record now
		}
		s.inFlight.Add(-1)
	})
}

func (s *sinkInstance) flushBufferLocked() {
	for _, r := range s.buffered {
		s.produce(r)
	}
	s.buffered = s.buffered[:0]
	clear(s.byKey)
}

func (s *sinkInstance) flushBuffer() {
	s.mu.Lock()
	s.flushBufferLocked()
	s.mu.Unlock()
}

func (s *sinkInstance) flushPeriodically() {
	t := time.NewTicker(s.cfg.flushEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			s.flushBuffer()
		case <-s.done:
			return
		}
	}
}

// ProcessWatermark implements runtime.Operator; a sink has nothing to do.
func (s *sinkInstance) ProcessWatermark(int64, runtime.Emitter) error { return nil }

// Finish implements runtime.Operator: it writes out everything buffered
// and waits until the broker has acknowledged it.
func (s *sinkInstance) Finish(runtime.Emitter) error {
	defer s.close()
	if s.byKey != nil {
		s.flushBuffer()
	}
	if err := s.cl.Flush(s.ctx); err != nil {
		if s.ctx.Err() != nil {
			return nil // the job was stopped: nothing more to deliver
		}
		return s.errorf("%v", err)
	}
	return s.failure()
}

// CaughtUp implements runtime.Quiescer: nothing is buffered or in flight.
func (s *sinkInstance) CaughtUp(context.Context) (bool, error) {
	if err := s.failure(); err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.buffered) == 0 && s.inFlight.Load() == 0, nil
}

// fixedPartitioner is Flink's FlinkFixedPartitioner: sink instance i writes
// every record to partition i mod n.
type fixedPartitioner int

// ForTopic implements kgo.Partitioner.
func (p fixedPartitioner) ForTopic(string) kgo.TopicPartitioner { return p }

// RequiresConsistency implements kgo.TopicPartitioner.
func (fixedPartitioner) RequiresConsistency(*kgo.Record) bool { return true }

// Partition implements kgo.TopicPartitioner.
func (p fixedPartitioner) Partition(_ *kgo.Record, n int) int { return int(p) % n }
