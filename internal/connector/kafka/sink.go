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

// maxBuffered is how many records a sink instance hands to the client
// before it waits for acknowledgements (franz-go's MaxBufferedRecords
// default).
const maxBuffered = 50000

// metadataRetryBackoff is the pause between attempts to learn a topic's
// partitions.
const metadataRetryBackoff = 100 * time.Millisecond

// probeTimeout bounds the metadata request that explains a delivery timeout.
const probeTimeout = 2 * time.Second

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
	cs, err := s.cfg.codecs(s.env.TimeZone)
	if err != nil {
		return nil, err
	}
	loc := s.env.TimeZone
	if loc == nil {
		loc = time.UTC
	}
	in := &sinkInstance{cfg: s.cfg, loc: loc, instance: i, parallelism: n, key: cs.key, value: cs.value, changes: cs.changes, tsCol: -1, done: make(chan struct{}),
		health: &brokerHealth{}, room: make(chan struct{}, 1),
		maxBlock: s.cfg.duration(propMaxBlock, defaultMaxBlock)}
	in.promise = in.acknowledged
	if s.cfg.guarantee == guaranteeExactlyOnce {
		in.txn = &txnState{prefix: s.cfg.txnPrefix}
	}
	// Without an explicit delivery.timeout.ms, the Java producer raises the
	// default to cover linger.ms + request.timeout.ms.
	in.deliveryTimeout = max(defaultDeliveryTimeout,
		s.cfg.duration(propLinger, 0)+s.cfg.duration(propRequestTimeout, defaultRequestTimeout))
	in.deliveryTimeout = s.cfg.duration(propDeliveryTimeout, in.deliveryTimeout)
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
// It implements runtime.Quiescer, runtime.Snapshotter,
// runtime.UnionRestorer and runtime.CheckpointListener.
type sinkInstance struct {
	// bytesWritten counts the keys' and values' bytes handed to the
	// client.
	bytesWritten atomic.Int64

	cfg *tableConfig
	loc *time.Location
	// instance is the instance's number of parallelism.
	instance, parallelism int
	key, value            format.Codec
	// changes is the value codec of a changelog format (value is then nil).
	changes format.ChangelogCodec
	// arenaHint is the bytes per record of the last chunk, to size the
	// encoding arena of a chunk whose records the upsert buffer keeps.
	arenaHint        int
	keyIdx, valueIdx []int
	keyRow, valueRow types.Row
	tsCol            int
	tsType           types.Type

	// cl produces, except with exactly-once, where each transaction has
	// a client of its own (sink_txn.go) made with opts, and cl serves
	// metadata and the requests that settle earlier runs' transactions.
	cl   *kgo.Client
	opts []kgo.Opt
	job  *runtime.Job
	// txn is the exactly-once state (nil with the other guarantees);
	// recovered is the exactly-once state, in the checkpoint the instance
	// was restored from, of the earlier instances whose transactions it
	// settles when it opens: its own, and at another parallelism those
	// of the instances i with i mod parallelism = instance.
	txn       *txnState
	recovered []*txnSnapshot
	// committer ends transactions by producer id and epoch, without
	// their producers (sink_txn.go); nil until one needs it. The
	// instance's goroutine uses it, and close once the job is over.
	committer *kgo.Client
	// ctx is the job's, cancelled also when the sink fails: produce and
	// flush stop with it.
	ctx    context.Context
	cancel context.CancelCauseFunc
	health *brokerHealth
	// unacked counts the records handed to the client whose batch is not
	// answered yet; at maxBuffered, the sink waits for room: waiting is
	// set while it does, and an answered batch then signals room.
	unacked         atomic.Int64
	waiting         atomic.Bool
	room            chan struct{}
	deliveryTimeout time.Duration
	maxBlock        time.Duration
	expired         atomic.Bool // a delivery timed out
	closeOnce       sync.Once
	closing         atomic.Bool
	done            chan struct{}
	flusher         sync.WaitGroup

	errMu sync.Mutex
	err   error
	// promise is the client's callback for every record (acknowledged),
	// made once; free holds batches whose records were all answered, for
	// reuse (a pool: as many batches as were in flight at a time, let go
	// when the sink is idle).
	promise func(*kgo.Record, error)
	free    sync.Pool

	mu sync.Mutex
	// The upsert buffer ('sink.buffer-flush.*'): the last record per key,
	// in the order keys first appeared.
	buffered []kgo.Record
	byKey    map[string]int
}

// batch is records handed to the client together, a chunk's or the upsert
// buffer's, followed until the broker has acknowledged them all. Each
// record's Context is its batch, through which the sink's one promise
// finds it; the batch is the sink's context otherwise, which the client
// cancels the records with. Once every record is answered the client no
// longer refers to them, and the batch, its records and the arena their
// keys and values were encoded into are reused.
type batch struct {
	context.Context
	sink *sinkInstance
	recs []kgo.Record
	// arena holds the encoded keys and values of the records (none for
	// the upsert buffer's batches, whose records refer to the arenas of
	// the chunks they came from).
	arena   []byte
	pending atomic.Int64
	// handed is how many of the records were handed to the client.
	handed int64
	// timer fails the sink if the records are not all answered within
	// delivery.timeout.ms.
	timer *time.Timer
}

// maxBatch is the most records of a batch, far below maxBuffered: a batch
// waiting for room only waits for others.
const maxBatch = types.ChunkSize

// newBatch returns an answered batch for reuse, or a new one.
func (s *sinkInstance) newBatch() *batch {
	if b, ok := s.free.Get().(*batch); ok {
		clear(b.recs) // let go of the previous records' data
		b.recs, b.arena = b.recs[:0], b.arena[:0]
		return b
	}
	b := &batch{Context: s.ctx, sink: s}
	b.timer = time.AfterFunc(time.Hour, b.expired)
	b.timer.Stop()
	return b
}

// expired fails the sink when the batch's records are not all answered
// in time. The first expired batch fails the sink; the others need not
// ask the brokers why.
func (b *batch) expired() {
	s := b.sink
	if n := b.pending.Load(); n > 0 && !s.closing.Load() && s.ctx.Err() == nil && s.expired.CompareAndSwap(false, true) {
		s.fail(s.errorf("writing to topic '%s': %d record(s) not acknowledged within %s%s",
			s.cfg.topics[0], n, describeTimeout(propDeliveryTimeout, s.deliveryTimeout), s.brokerCause()))
	}
}

func (s *sinkInstance) errorf(f string, args ...any) error {
	return fmt.Errorf(s.cfg.connector+" sink: "+f, args...)
}

// Open implements runtime.Operator.
func (s *sinkInstance) Open(ctx *runtime.Context) error {
	opts := slices.Clone(s.cfg.clientOpts)
	// The sink enforces delivery.timeout.ms itself, from the moment it
	// hands a record over: franz-go's RecordDeliveryTimeout counts from
	// the record's timestamp (which rows may set) and is only checked
	// when a request is sent or answered, which never happens while a
	// topic is missing. Unknown-topic errors are retried until then, as
	// the Java producer does, rather than failed after a count. The client
	// buffers one record more than the sink hands over (the answer to a
	// batch's last record frees the batch's room just before the client
	// counts that record gone), so it never blocks.
	opts = append(opts, kgo.DefaultProduceTopic(s.cfg.topics[0]), kgo.UnknownTopicRetries(-1),
		kgo.MaxBufferedRecords(maxBuffered+1), kgo.WithHooks(s.health))
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
	s.cl, s.opts, s.job = cl, opts, ctx.Job
	base := context.Background()
	if s.job != nil {
		base = s.job.Context()
	}
	s.ctx, s.cancel = context.WithCancelCause(base)
	if err := s.awaitTopics(); err != nil {
		s.close()
		return err
	}
	if err := s.recoverTxns(); err != nil {
		s.close()
		return err
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

// awaitTopics creates the topics if needed and waits until the brokers
// know their partitions, retrying after transient errors, for at most
// max.block.ms, as the Java producer's first send waits for the topic's
// metadata.
func (s *sinkInstance) awaitTopics() error {
	ctx, cancel := context.WithTimeout(s.ctx, s.maxBlock)
	defer cancel()
	for {
		err := ensureTopics(ctx, kadm.NewClient(s.cl), s.cfg.topics)
		if err == nil {
			_, err = topicPartitions(ctx, s.cl, s.cfg.topics)
		}
		if err == nil {
			return nil
		}
		if !transient(err) && ctx.Err() == nil {
			return s.errorf("%v", err)
		}
		select {
		case <-ctx.Done():
			if s.ctx.Err() != nil {
				return s.errorf("%v", err)
			}
			return s.errorf("topic '%s' not present in metadata after %s%s",
				strings.Join(s.cfg.topics, "', '"), describeTimeout(propMaxBlock, s.maxBlock), s.brokerCause())
		case <-time.After(metadataRetryBackoff):
		}
	}
}

// brokerCause explains records that are not getting written: brokers that
// do not answer, or what they say about the topic.
func (s *sinkInstance) brokerCause() string {
	if _, err := s.health.failing(time.Now()); err != nil {
		return fmt.Sprintf(": no broker of '%s' ('properties.bootstrap.servers') answers: %v", s.cfg.props["bootstrap.servers"], err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	md, err := kadm.NewClient(s.cl).Metadata(ctx, s.cfg.topics[0])
	if err != nil {
		return fmt.Sprintf(": asking the brokers about the topic: %v", err)
	}
	if t, ok := md.Topics[s.cfg.topics[0]]; ok && t.Err != nil {
		return fmt.Sprintf(": the brokers report for topic '%s': %v", s.cfg.topics[0], t.Err)
	}
	return ""
}

// close stops the flusher and the client. Records still buffered are
// dropped: after Finish there are none, and a cancelled job drops them
// (with exactly-once, it aborts their transaction).
func (s *sinkInstance) close() {
	s.closeOnce.Do(func() {
		s.closing.Store(true)
		s.cancel(nil) // also ends a flusher waiting for room
		close(s.done)
		s.flusher.Wait()
		if s.txn != nil {
			s.settleTxns()
		}
		if s.committer != nil {
			s.committer.Close()
		}
		s.cl.Close()
	})
}

// fail records the first error, stops producing and stops the job.
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
	if first {
		s.cancel(err)
		if s.job != nil {
			s.job.Fail(err)
		}
	}
}

func (s *sinkInstance) failure() error {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	return s.err
}

// ProcessChunk implements runtime.Operator. The chunk's records are
// encoded into a batch, their keys and values into one byte arena, and
// handed to the client together (or to the upsert buffer).
func (s *sinkInstance) ProcessChunk(_ int, c *types.Chunk, _ runtime.Emitter) error {
	if err := s.failure(); err != nil {
		return err
	}
	var b *batch
	if s.byKey == nil {
		b = s.newBatch()
		b.recs = slices.Grow(b.recs, c.Len())
	} else {
		// The buffer keeps records beyond this chunk: their arena is
		// the chunk's own, sized from the previous chunk.
		b = &batch{recs: make([]kgo.Record, 0, c.Len()), arena: make([]byte, 0, s.arenaHint*c.Len())}
		defer func() {
			if len(b.recs) > 0 {
				s.arenaHint = len(b.arena)/len(b.recs) + 1
			}
		}()
	}
	// Each key and value is a capacity-limited slice of the arena (a
	// grown arena leaves the earlier slices on the old array, which their
	// records keep alive). place keeps an encoding appended to the arena;
	// out extends it.
	place := func(out []byte, err error) ([]byte, error) {
		start := len(b.arena)
		if err != nil || out == nil {
			return nil, err
		}
		b.arena = out
		return b.arena[start:len(b.arena):len(b.arena)], nil
	}
	encode := func(enc format.Encoder, row types.Row) ([]byte, error) {
		return place(enc.Encode(b.arena, row))
	}
	for i, kind := range c.Ops {
		switch {
		case s.changes != nil:
			// A changelog format writes every change as a message.
		case !s.cfg.upsert && kind != types.Insert:
			return s.errorf("the '%s' connector only writes insert-only input, but got a %s row; use 'upsert-kafka' for updating results", s.cfg.connector, kind)
		case kind == types.UpdateBefore:
			continue // the +U that follows overwrites the key
		}
		b.recs = append(b.recs, kgo.Record{})
		r := &b.recs[len(b.recs)-1]
		var err error
		if s.key != nil {
			for j, col := range s.keyIdx {
				s.keyRow[j] = c.Cols[col].Get(i)
			}
			if r.Key, err = encode(s.key, s.keyRow); err != nil {
				return s.errorf("cannot encode key of row %s: %v", s.describeRow(c, i), err)
			}
		}
		if s.changes != nil || kind != types.Delete {
			for j, col := range s.valueIdx {
				s.valueRow[j] = c.Cols[col].Get(i)
			}
			if s.changes != nil {
				r.Value, err = place(s.changes.EncodeChange(b.arena, kind, s.valueRow))
			} else {
				r.Value, err = encode(s.value, s.valueRow)
			}
			if err != nil {
				return s.errorf("cannot encode value of row %s: %v", s.describeRow(c, i), err)
			}
		}
		if s.tsCol >= 0 && !c.Cols[s.tsCol].Nulls[i] {
			r.Timestamp = instant(c.Cols[s.tsCol].Get(i), s.tsType, s.loc)
		}
		if s.byKey == nil && len(b.recs) == maxBatch {
			if err := s.produce(b); err != nil {
				return err
			}
			b = s.newBatch()
		}
	}
	if s.byKey == nil {
		return s.produce(b)
	}
	return s.buffer(b.recs)
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
func instant(v types.Value, t types.Type, loc *time.Location) time.Time {
	if t.Kind == types.TimestampLTZ {
		return types.TimestampTime(t.Precision, v)
	}
	w := types.TimestampTime(t.Precision, v)
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), loc)
}

// buffer adds records to the upsert buffer, flushing it when full.
func (s *sinkInstance) buffer(recs []kgo.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range recs {
		if i, ok := s.byKey[string(r.Key)]; ok {
			s.buffered[i] = r
		} else {
			s.byKey[string(r.Key)] = len(s.buffered)
			s.buffered = append(s.buffered, r)
		}
		if len(s.buffered) >= s.cfg.flushRows {
			if err := s.flushBufferLocked(); err != nil {
				return err
			}
		}
	}
	return nil
}

// produce hands the records of b to the client, or the open
// transaction's. The job fails if they are not all acknowledged within
// delivery.timeout.ms of being handed over, or if the client's buffer has
// no room for them within max.block.ms. Records without a timestamp get
// the time they are handed over, as the client would give them one by
// one.
func (s *sinkInstance) produce(b *batch) error {
	if len(b.recs) == 0 {
		s.recycle(b)
		return nil
	}
	cl := s.cl
	if s.txn != nil {
		var err error
		if cl, err = s.transactional(); err != nil {
			return err
		}
	}
	// One more than the records, released once the timer is set.
	b.pending.Store(int64(len(b.recs)) + 1)
	var err error
	b.handed = 0
	for i := 0; i < len(b.recs); {
		n := s.reserve(len(b.recs) - i)
		if n == 0 {
			// Stopped or failed: the rest is not handed over.
			b.pending.Add(-int64(len(b.recs) - i))
			err = s.failure()
			break
		}
		// The bytes count before the records are handed over, so that
		// whoever sees them written sees their bytes too.
		var written int64
		for j := i; j < i+n; j++ {
			written += int64(len(b.recs[j].Key) + len(b.recs[j].Value))
		}
		s.bytesWritten.Add(written)
		now := time.Now()
		for j := i; j < i+n; j++ {
			r := &b.recs[j]
			r.Context = b
			if r.Timestamp.IsZero() {
				r.Timestamp = now
			}
			cl.Produce(s.ctx, r, s.promise)
		}
		i += n
		b.handed += int64(n)
	}
	b.timer.Reset(s.deliveryTimeout)
	s.settle(b)
	return err
}

// reserve waits for room in the client's buffer for up to want more
// records and returns how many it took room for. It fails the sink when
// there is none within max.block.ms, and returns 0 once the sink has
// failed or stopped. Records are handed over by one goroutine at a time
// (the operator's, or the upsert buffer's under its lock), and answered
// batches only free room; a batch is at most maxBatch records, so one
// waiting for room waits for others.
func (s *sinkInstance) reserve(want int) int {
	take := func() int {
		n := min(int64(want), maxBuffered-s.unacked.Load())
		if n <= 0 {
			return 0
		}
		s.unacked.Add(n)
		return int(n)
	}
	if n := take(); n > 0 {
		return n
	}
	timer := time.NewTimer(s.maxBlock)
	defer timer.Stop()
	defer s.waiting.Store(false)
	for {
		// An answer after waiting is set signals room; one before it is
		// seen by take.
		s.waiting.Store(true)
		if n := take(); n > 0 {
			return n
		}
		select {
		case <-s.room:
		case <-s.ctx.Done():
			return 0
		case <-timer.C:
			s.fail(s.errorf("writing to topic '%s': no room in the client's buffer (%d records not acknowledged) within %s%s",
				s.cfg.topics[0], maxBuffered, describeTimeout(propMaxBlock, s.maxBlock), s.brokerCause()))
			return 0
		}
	}
}

// acknowledged is the client's answer for one record of a batch.
func (s *sinkInstance) acknowledged(r *kgo.Record, err error) {
	b := r.Context.(*batch)
	if err != nil && s.ctx.Err() == nil {
		var hint string
		if s.txn != nil {
			hint = s.txnHint(err)
		}
		s.fail(s.errorf("writing to topic '%s': %v%s", r.Topic, err, hint))
	}
	s.settle(b)
}

// settle counts one record of b answered. After the last one, another
// job may read them all: the job's progress moves, once a batch, before
// the batch's records stop counting as unacknowledged (so that a sink
// seen caught up has moved it), which makes room for more; b is reused
// unless its timer fired.
func (s *sinkInstance) settle(b *batch) {
	if b.pending.Add(-1) != 0 {
		return
	}
	if s.job != nil {
		s.job.Progressed()
	}
	s.unacked.Add(-b.handed)
	if s.waiting.Load() {
		select {
		case s.room <- struct{}{}:
		default:
		}
	}
	if b.timer.Stop() {
		s.recycle(b)
	}
}

// recycle keeps an answered batch of the sink's for reuse.
func (s *sinkInstance) recycle(b *batch) { s.free.Put(b) }

func (s *sinkInstance) flushBufferLocked() error {
	var err error
	for rest := s.buffered; len(rest) > 0 && err == nil; {
		n := min(len(rest), maxBatch)
		b := s.newBatch()
		b.recs = append(b.recs, rest[:n]...)
		err = s.produce(b)
		rest = rest[n:]
	}
	clear(s.buffered)
	s.buffered = s.buffered[:0]
	clear(s.byKey)
	return err
}

func (s *sinkInstance) flushBuffer() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flushBufferLocked()
}

func (s *sinkInstance) flushPeriodically() {
	t := time.NewTicker(s.cfg.flushEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if err := s.flushBuffer(); err != nil {
				s.fail(err)
			}
		case <-s.done:
			return
		}
	}
}

// ProcessWatermark implements runtime.Operator; a sink has nothing to do.
func (s *sinkInstance) ProcessWatermark(int64, runtime.Emitter) error { return nil }

// Finish implements runtime.Operator: it writes out everything buffered
// and waits until the broker has acknowledged it; with exactly-once, it
// commits every transaction, as Flink commits at the end of the input.
func (s *sinkInstance) Finish(runtime.Emitter) error {
	defer s.close()
	if s.txn != nil {
		if err := s.finishTxns(); err != nil {
			return err
		}
		return s.failure()
	}
	if s.byKey != nil {
		if err := s.flushBuffer(); err != nil {
			return err
		}
	}
	if err := s.cl.Flush(s.ctx); err != nil && s.ctx.Err() == nil {
		return s.errorf("%v", err)
	}
	// Nil when the job was stopped: nothing more to deliver.
	return s.failure()
}

// SnapshotState implements runtime.Snapshotter: with
// 'sink.delivery-guarantee' at-least-once, every record received before
// the barrier is written and acknowledged before the checkpoint counts, as
// Flink's KafkaWriter flushes on checkpoints (upsert-kafka's buffer
// included), and the sink keeps no state of its own; with exactly-once,
// the records go into a transaction that is pre-committed, and the state
// is the transactions to commit once the checkpoint completes. A failed
// flush fails the checkpoint.
func (s *sinkInstance) SnapshotState(id int64) ([]byte, error) {
	switch s.cfg.guarantee {
	case guaranteeNone:
		return nil, nil
	case guaranteeExactlyOnce:
		snap, err := s.precommit(id)
		if err != nil {
			return nil, err
		}
		return snap.encode(), nil
	}
	if s.byKey != nil {
		if err := s.flushBuffer(); err != nil {
			return nil, err
		}
	}
	if err := s.cl.Flush(s.ctx); err != nil {
		return nil, s.errorf("flushing for a checkpoint: %v", err)
	}
	if err := s.ctx.Err(); err != nil {
		// (Records that failed under the cancelled context did not fail
		// the sink; the checkpoint must not count them as written.)
		return nil, s.errorf("flushing for a checkpoint: %v", err)
	}
	return nil, s.failure()
}

// RestoreState implements runtime.Snapshotter: an exactly-once sink's
// transactions, settled when the instance opens (whatever the guarantee
// is now: they belong to a complete checkpoint).
func (s *sinkInstance) RestoreState(data []byte) error {
	if len(data) == 0 {
		return nil
	}
	snap, err := decodeTxnSnapshot(data)
	if err != nil {
		return s.errorf("corrupt checkpoint state: %v", err)
	}
	s.recovered = []*txnSnapshot{snap}
	return nil
}

// RestoreUnion implements runtime.UnionRestorer: restored at another
// parallelism, the instance settles the transactions of the earlier
// instances i with i mod parallelism = instance (so each earlier
// instance's are settled by exactly one), as Flink's KafkaCommitter
// takes over the committables of a rescaled job.
func (s *sinkInstance) RestoreUnion(parts [][]byte) error {
	s.recovered = nil
	for _, data := range parts {
		if len(data) == 0 {
			continue
		}
		snap, err := decodeTxnSnapshot(data)
		if err != nil {
			return s.errorf("corrupt checkpoint state: %v", err)
		}
		if snap.instance%s.parallelism == s.instance {
			s.recovered = append(s.recovered, snap)
		}
	}
	return nil
}

// CheckpointComplete implements runtime.CheckpointListener: with
// exactly-once, the transactions of checkpoint id and earlier ones are
// committed.
func (s *sinkInstance) CheckpointComplete(id int64) error {
	if s.txn == nil {
		return nil
	}
	return s.commitThrough(id)
}

// BytesWritten implements runtime.OutputMetrics.
func (s *sinkInstance) BytesWritten() int64 { return s.bytesWritten.Load() }

// CaughtUp implements runtime.Quiescer: nothing is buffered or in flight,
// and with exactly-once every record is committed.
func (s *sinkInstance) CaughtUp(context.Context) (bool, error) {
	if err := s.failure(); err != nil {
		return false, err
	}
	if s.txn != nil && !s.txn.settled() {
		return false, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.buffered) == 0 && s.unacked.Load() == 0, nil
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
