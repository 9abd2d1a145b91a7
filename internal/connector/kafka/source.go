package kafka

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/format"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

const (
	defaultWatermarkInterval = 200 * time.Millisecond
	// commitRetryBackoff is the pause between attempts of a final commit.
	commitRetryBackoff = 100 * time.Millisecond
)

// scanSource is a table being read.
type scanSource struct {
	cfg  *tableConfig
	spec connector.SourceSpec
}

// NewInstance implements connector.ScanSource.
func (s *scanSource) NewInstance(i, n int) (runtime.Source, error) {
	cs, err := s.cfg.codecs(s.spec.TimeZone)
	if err != nil {
		return nil, err
	}
	src := &sourceInstance{
		cfg:      s.cfg,
		spec:     s.spec,
		instance: i,
		n:        n,
		key:      cs.key,
		value:    cs.value,
		changes:  cs.changes,
		inValue:  map[int]bool{},
		parts:    map[topicPartition]*partState{},
		health:   &brokerHealth{},
		pool:     runtime.NewChunkPool(runtime.PooledChunks),
		advance:  map[*partState]int64{},

		apiTimeout:     s.cfg.duration(propAPITimeout, defaultAPITimeout),
		commitInterval: s.cfg.duration(propCommitInterval, defaultCommitInterval),
	}
	src.rows, _ = cs.value.(format.RowsDecoder)
	if src.spec.WatermarkInterval <= 0 {
		src.spec.WatermarkInterval = defaultWatermarkInterval
	}
	if src.spec.TimeZone == nil {
		src.spec.TimeZone = time.UTC
	}
	if s.spec.Watermark != nil {
		src.tracker = runtime.NewWatermarkTracker(s.spec.IdleTimeout)
	}
	src.project(s.spec.Columns)
	for _, c := range s.cfg.value.cols {
		src.inValue[c] = true
	}
	if s.cfg.key != nil {
		for j, f := range s.cfg.key.fields {
			// A key field no column reads is not decoded: nil.
			var v *types.Vector
			if src.at[s.cfg.key.cols[j]] >= 0 {
				v = types.NewVector(f.Type, 1)
				src.readKey = true
			}
			src.keyScratch = append(src.keyScratch, v)
		}
	}
	src.newChunk()
	return src, nil
}

type topicPartition struct {
	topic     string
	partition int32
}

// partState is the progress of one assigned partition.
type partState struct {
	tp topicPartition
	id int32 // the partition's key in the watermark tracker
	// next is the offset after the last emitted record: where reading
	// resumes, and what is committed.
	next      int64
	committed int64
	// end is where a bounded source stops (exclusive), or -1.
	end int64
	// highWatermark is the partition's high watermark as of the latest
	// fetch, -1 before one.
	highWatermark int64
}

func (p *partState) done() bool { return p.end >= 0 && p.next >= p.end }

// sourceInstance reads the partitions p of each topic for which
// (topic index + p) mod n equals its instance number. It implements
// runtime.Quiescer.
type sourceInstance struct {
	cfg         *tableConfig
	spec        connector.SourceSpec
	instance, n int
	key, value  format.Codec
	// changes is the value codec of a changelog format (value is then
	// nil): a record gives any number of rows, each with its kind.
	changes format.ChangelogCodec
	// rows is value when its messages may hold several rows (nil
	// otherwise).
	rows     format.RowsDecoder
	colTypes []types.Type
	// at is the position of each table column in the chunks, -1 for a
	// column the source does not read (a projection pushed into it).
	at         []int
	inValue    map[int]bool // table columns the value format fills
	keyScratch []*types.Vector
	// readKey is set when a column reads a key field: the key is decoded.
	readKey bool
	// discard takes the values of the columns a changelog format decodes
	// but no column reads (those formats fill every vector).
	discard []*types.Vector
	health  *brokerHealth
	// apiTimeout is how long the brokers may stay unreachable.
	apiTimeout time.Duration
	// commitInterval is how often emitted offsets are committed.
	commitInterval time.Duration

	// Rows being collected for the next emit, in the chunk of a lease
	// from pool (the chunks the consumers handed back).
	pool      *runtime.ChunkPool
	lease     *runtime.Lease
	chunk     *types.Chunk
	valueCols []*types.Vector
	// rowParts and rowOffsets are the partition and offset of each row's
	// record.
	rowParts   []*partState
	rowOffsets []int64
	advance    map[*partState]int64
	// wms holds a chunk's watermark candidates, reused.
	wms types.Vector

	// restored are the positions (and bounded ends) of a checkpoint the
	// instance starts from, by partition.
	restored map[topicPartition]partPosition
	// batch is set when the job runs in batch mode (SourceContext.Batch):
	// it takes no checkpoints, so, as Flink's KafkaSource, which commits
	// only when a checkpoint completes, it commits no offsets at all (a
	// commit when the input has been read would make a restarted job,
	// whose result was not written yet, skip what it read).
	batch bool
	// checkpointing is set when the job takes checkpoints: offsets are
	// then committed when a checkpoint completes, not periodically.
	checkpointing bool

	// Shared with CaughtUp and with the checkpoint coordinator.
	mu      sync.Mutex
	adm     *kadm.Client
	parts   map[topicPartition]*partState
	tracker *runtime.WatermarkTracker
	ready   bool
	stopped bool
	// snapshots are the positions of checkpoints taken and not yet
	// complete, by checkpoint ID, to commit when they complete.
	snapshots map[int64]map[topicPartition]int64

	// bytesRead counts the keys' and values' bytes fetched.
	bytesRead atomic.Int64
}

// partPosition is a partition's place in a checkpoint: where reading
// resumes, and where a bounded source stops (-1 for none).
type partPosition struct{ next, end int64 }

// project sets the columns the chunks hold: the table's columns cols, in
// that order (all of them when nil).
func (s *sourceInstance) project(cols []int) {
	all := s.cfg.schema.Types()
	if cols == nil {
		cols = make([]int, len(all))
		for i := range cols {
			cols[i] = i
		}
	}
	s.at = make([]int, len(all))
	for i := range s.at {
		s.at[i] = -1
	}
	s.colTypes = make([]types.Type, len(cols))
	for p, c := range cols {
		s.at[c] = p
		s.colTypes[p] = all[c]
	}
}

// column returns the chunk's vector of table column col, nil when the
// source does not read it.
func (s *sourceInstance) column(col int) *types.Vector {
	if p := s.at[col]; p >= 0 {
		return s.chunk.Cols[p]
	}
	return nil
}

// newChunk starts collecting rows into a chunk emptied: the lease's, if
// its rows were not sent, or else a new lease's.
func (s *sourceInstance) newChunk() {
	if s.lease == nil {
		s.lease = s.pool.Get()
	}
	s.chunk = s.lease.Empty(s.colTypes, types.ChunkSize)
	s.valueCols = s.valueCols[:0]
	for _, c := range s.cfg.value.cols {
		s.valueCols = append(s.valueCols, s.column(c))
	}
	for _, m := range s.cfg.formatMeta {
		s.valueCols = append(s.valueCols, s.column(m.col))
	}
	if s.changes != nil {
		// Changelog formats fill every vector: unread columns go to
		// vectors of their own, emptied with each chunk.
		for i, v := range s.valueCols {
			if v != nil {
				continue
			}
			for len(s.discard) <= i {
				s.discard = append(s.discard, nil)
			}
			if s.discard[i] == nil {
				col := append(slices.Clone(s.cfg.value.cols), metaCols(s.cfg.formatMeta)...)[i]
				s.discard[i] = types.NewVector(s.cfg.schema[col].Type, types.ChunkSize)
			}
			s.discard[i].Reset()
			s.valueCols[i] = s.discard[i]
		}
	}
	s.rowParts = s.rowParts[:0]
	s.rowOffsets = s.rowOffsets[:0]
	clear(s.advance)
}

// metaCols returns the table columns of metadata columns ms.
func metaCols(ms []metaColumn) []int {
	out := make([]int, len(ms))
	for i, m := range ms {
		out[i] = m.col
	}
	return out
}

func (s *sourceInstance) errorf(f string, args ...any) error {
	return fmt.Errorf(s.cfg.connector+" source: "+f, args...)
}

// Run implements runtime.Source.
func (s *sourceInstance) Run(ctx *runtime.SourceContext, out runtime.Emitter) error {
	// Control records (transaction markers) are kept so that reading
	// advances past them: the last offset of a partition may be one.
	cl, err := kgo.NewClient(append(slices.Clone(s.cfg.clientOpts),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.KeepControlRecords(), kgo.WithHooks(s.health))...)
	if err != nil {
		return s.errorf("%v", err)
	}
	defer cl.Close()
	defer s.stop()
	adm := kadm.NewClient(cl)
	if err := ensureTopics(ctx.Ctx, adm, s.cfg.topics); err != nil {
		return s.errorf("%v", err)
	}
	owned, err := s.ownedPartitions(ctx.Ctx, cl)
	if err != nil {
		return err
	}
	if err := s.assign(ctx.Ctx, cl, adm, owned, s.cfg.startup); err != nil {
		return err
	}
	s.mu.Lock()
	s.adm, s.ready = adm, true
	s.mu.Unlock()

	bounded := s.cfg.bounded.mode != modeUnbounded
	s.checkpointing = ctx.Checkpointing()
	s.batch = ctx.Batch()
	now := time.Now()
	nextWatermark := now.Add(s.spec.WatermarkInterval)
	nextCommit := now.Add(s.commitInterval)
	nextDiscovery := now.Add(s.cfg.discovery)
	// An unbounded source discovers new partitions; a bounded one only
	// looks whether its topics still exist, so that a topic deleted
	// before the source reached its end fails it rather than leave it
	// waiting for records that are gone.
	discover := s.cfg.discovery > 0
	if len(owned) == 0 {
		ctx.MarkIdle()
	}
	for {
		if bounded && s.allDone() {
			s.finalCommit(adm)
			return nil
		}
		deadline := nextWatermark
		if discover && nextDiscovery.Before(deadline) {
			deadline = nextDiscovery
		}
		// Waiting for records is idle time, as a Flink source task is
		// idle while its reader has none.
		ctx.Waiting()
		fetches, barrier := s.poll(ctx, cl, deadline)
		ctx.Working()
		if ctx.Ctx.Err() != nil {
			// Stopped or failed: what was emitted may still be on its way
			// to a sink, and is dropped with the job. Committing it would
			// make the group skip rows no sink wrote; the positions of a
			// checkpoint or savepoint are committed when it completes.
			return nil
		}
		if err := s.fetchError(fetches); err != nil {
			return err
		}
		if err := s.unreachable(); err != nil {
			return err
		}
		if err := s.process(cl, fetches, out); err != nil {
			return err
		}
		if barrier {
			// Everything read so far is emitted: the positions are exact.
			ctx.EmitBarriers()
		}
		now = time.Now()
		if !now.Before(nextWatermark) {
			s.emitWatermark(ctx, out, now)
			nextWatermark = now.Add(s.spec.WatermarkInterval)
		}
		if !now.Before(nextCommit) && !s.checkpointing && !s.batch {
			s.periodicCommit(adm)
			nextCommit = time.Now().Add(s.commitInterval)
		}
		if discover && !now.Before(nextDiscovery) {
			var err error
			if bounded {
				_, err = s.ownedPartitions(ctx.Ctx, cl)
			} else {
				err = s.discoverPartitions(ctx.Ctx, cl, adm)
			}
			if err != nil && ctx.Ctx.Err() == nil {
				return err
			}
			nextDiscovery = now.Add(s.cfg.discovery)
		}
	}
}

// poll fetches records until deadline, returning early when a checkpoint
// asks for this source's barrier (barrier is then true).
func (s *sourceInstance) poll(ctx *runtime.SourceContext, cl *kgo.Client, deadline time.Time) (kgo.Fetches, bool) {
	pctx, cancel := context.WithDeadline(ctx.Ctx, deadline)
	defer cancel()
	asked := make(chan bool, 1)
	go func() {
		select {
		case <-ctx.CheckpointRequested():
			cancel()
			asked <- true
		case <-pctx.Done():
			asked <- false
		}
	}()
	fetches := cl.PollRecords(pctx, types.ChunkSize)
	cancel()
	return fetches, <-asked
}

func (s *sourceInstance) stop() {
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
}

// ownedPartitions lists the partitions this instance reads.
func (s *sourceInstance) ownedPartitions(ctx context.Context, cl *kgo.Client) ([]topicPartition, error) {
	parts, err := topicPartitions(ctx, cl, s.cfg.topics)
	if err != nil {
		return nil, s.errorf("%v", err)
	}
	var owned []topicPartition
	for ti, t := range s.cfg.topics {
		for _, p := range parts[t] {
			if (ti+int(p))%s.n == s.instance {
				owned = append(owned, topicPartition{t, p})
			}
		}
	}
	return owned, nil
}

// assign starts reading the given partitions at the offsets the start spec
// resolves to, bounded by the bounded mode's end offsets.
func (s *sourceInstance) assign(ctx context.Context, cl *kgo.Client, adm *kadm.Client, tps []topicPartition, start offsetSpec) error {
	if len(tps) == 0 {
		return nil
	}
	// Partitions in the checkpoint resume where it left them; the others
	// start as the startup mode says.
	starts, ends := map[topicPartition]int64{}, map[topicPartition]int64{}
	var fresh []topicPartition
	for _, tp := range tps {
		if pos, ok := s.restored[tp]; ok {
			starts[tp], ends[tp] = pos.next, pos.end
		} else {
			fresh = append(fresh, tp)
		}
	}
	if len(fresh) > 0 {
		resolved, err := s.resolve(ctx, adm, start, fresh, s.cfg.props["auto.offset.reset"])
		if err != nil {
			return err
		}
		maps.Copy(starts, resolved)
		if s.cfg.bounded.mode != modeUnbounded {
			if resolved, err = s.resolve(ctx, adm, s.cfg.bounded, fresh, ""); err != nil {
				return err
			}
			maps.Copy(ends, resolved)
		}
	}
	if s.cfg.bounded.mode == modeUnbounded {
		ends = nil
	}
	consume := map[string]map[int32]kgo.Offset{}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, tp := range tps {
		ps := &partState{tp: tp, id: int32(len(s.parts)), next: starts[tp], committed: starts[tp], end: -1, highWatermark: -1}
		if ends != nil {
			ps.end = ends[tp]
		}
		s.parts[tp] = ps
		if s.tracker != nil {
			s.tracker.AddPartition(ps.id, now)
		}
		if ps.done() {
			continue
		}
		if consume[tp.topic] == nil {
			consume[tp.topic] = map[int32]kgo.Offset{}
		}
		consume[tp.topic][tp.partition] = kgo.NewOffset().At(ps.next)
	}
	cl.AddConsumePartitions(consume)
	return nil
}

// resolve turns an offset spec into concrete offsets for tps. reset is
// 'auto.offset.reset', used for 'group-offsets' when the group has no
// committed offset ("" and "none" fail).
func (s *sourceInstance) resolve(ctx context.Context, adm *kadm.Client, spec offsetSpec, tps []topicPartition, reset string) (map[topicPartition]int64, error) {
	topics := topicsOf(tps)
	list := func(l kadm.ListedOffsets, err error) (map[topicPartition]int64, error) {
		if err != nil {
			return nil, s.errorf("listing offsets: %v", err)
		}
		out := map[topicPartition]int64{}
		for _, tp := range tps {
			o, ok := l.Lookup(tp.topic, tp.partition)
			if !ok {
				return nil, s.errorf("no offset listed for topic '%s' partition %d", tp.topic, tp.partition)
			}
			if o.Err != nil {
				return nil, s.errorf("listing offsets of topic '%s' partition %d: %v", tp.topic, tp.partition, o.Err)
			}
			out[tp] = o.Offset
		}
		return out, nil
	}
	switch spec.mode {
	case modeEarliest:
		return list(adm.ListStartOffsets(ctx, topics...))
	case modeLatest:
		return list(s.endOffsets(ctx, adm, topics))
	case modeTimestamp:
		return list(adm.ListOffsetsAfterMilli(ctx, spec.millis, topics...))
	}
	// group-offsets, and the partitions specific-offsets leaves out
	// (Flink's SpecifiedOffsetsInitializer: committed, else earliest).
	var committed kadm.OffsetResponses
	if s.cfg.groupID != "" {
		var err error
		// A group that never committed is not found: it has no offsets.
		if committed, err = adm.FetchOffsets(ctx, s.cfg.groupID); err != nil && !errors.Is(err, kerr.GroupIDNotFound) {
			return nil, s.errorf("fetching committed offsets of group '%s': %v", s.cfg.groupID, err)
		}
	}
	out := map[topicPartition]int64{}
	var rest []topicPartition
	for _, tp := range tps {
		if off, ok := spec.specific[tp.partition]; ok && spec.mode == modeSpecific {
			out[tp] = off
		} else if c, ok := committed.Lookup(tp.topic, tp.partition); ok && c.Err == nil && c.At >= 0 {
			out[tp] = c.At
		} else {
			rest = append(rest, tp)
		}
	}
	if len(rest) == 0 {
		return out, nil
	}
	fallback := modeEarliest
	if spec.mode == modeGroup {
		switch reset {
		case "earliest":
		case "latest":
			fallback = modeLatest
		default:
			tp := rest[0]
			return nil, s.errorf("undefined offset with no reset policy for topic '%s' partition %d: group '%s' has no committed offset; "+
				"set 'properties.auto.offset.reset' to 'earliest' or 'latest'", tp.topic, tp.partition, s.cfg.groupID)
		}
	}
	more, err := s.resolve(ctx, adm, offsetSpec{mode: fallback}, rest, "")
	if err != nil {
		return nil, err
	}
	for tp, o := range more {
		out[tp] = o
	}
	return out, nil
}

// endOffsets lists where reading ends now: the high watermarks, or the last
// stable offsets for a read_committed consumer (the Kafka consumer's
// endOffsets).
func (s *sourceInstance) endOffsets(ctx context.Context, adm *kadm.Client, topics []string) (kadm.ListedOffsets, error) {
	if s.cfg.props["isolation.level"] == "read_committed" {
		return adm.ListCommittedOffsets(ctx, topics...)
	}
	return adm.ListEndOffsets(ctx, topics...)
}

func topicsOf(tps []topicPartition) []string {
	var ts []string
	for _, tp := range tps {
		if !slices.Contains(ts, tp.topic) {
			ts = append(ts, tp.topic)
		}
	}
	return ts
}

// discoverPartitions starts reading partitions added since the last look,
// from their earliest offset, as Flink does for discovered partitions.
func (s *sourceInstance) discoverPartitions(ctx context.Context, cl *kgo.Client, adm *kadm.Client) error {
	owned, err := s.ownedPartitions(ctx, cl)
	if err != nil {
		return err
	}
	var added []topicPartition
	s.mu.Lock()
	for _, tp := range owned {
		if s.parts[tp] == nil {
			added = append(added, tp)
		}
	}
	s.mu.Unlock()
	return s.assign(ctx, cl, adm, added, offsetSpec{mode: modeEarliest})
}

func (s *sourceInstance) allDone() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ps := range s.parts {
		if !ps.done() {
			return false
		}
	}
	return true
}

// fetchError returns the first error of a poll that the client does not
// retry by itself.
func (s *sourceInstance) fetchError(fs kgo.Fetches) error {
	for _, fe := range fs.Errors() {
		switch {
		case errors.Is(fe.Err, context.DeadlineExceeded), errors.Is(fe.Err, context.Canceled),
			kerr.IsRetriable(fe.Err):
			continue
		}
		var loss *kgo.ErrDataLoss
		if errors.As(fe.Err, &loss) {
			continue // the client resumed at the next available offset
		}
		return s.errorf("reading topic '%s' partition %d: %v", fe.Topic, fe.Partition, fe.Err)
	}
	return nil
}

// process turns fetched records into rows, emitting full chunks, then the
// remainder.
func (s *sourceInstance) process(cl *kgo.Client, fs kgo.Fetches, out runtime.Emitter) error {
	var finished map[string][]int32
	var err error
	fs.EachPartition(func(p kgo.FetchTopicPartition) {
		if err != nil {
			return
		}
		s.mu.Lock()
		ps := s.parts[topicPartition{p.Topic, p.Partition}]
		if ps != nil && p.Err == nil {
			ps.highWatermark = p.HighWatermark
		}
		s.mu.Unlock()
		if ps == nil {
			return
		}
		var read int64
		defer func() { s.bytesRead.Add(read) }()
		for _, r := range p.Records {
			if ps.end >= 0 && r.Offset >= ps.end {
				s.advance[ps] = ps.end
				break
			}
			read += int64(len(r.Key) + len(r.Value))
			if r.Attrs.IsControl() {
				s.advance[ps] = r.Offset + 1
				continue
			}
			if err = s.appendRecord(r, ps); err != nil {
				return
			}
			s.advance[ps] = r.Offset + 1
			// A changelog record may add several rows.
			if s.chunk.Len() >= types.ChunkSize {
				if err = s.flush(out); err != nil {
					return
				}
			}
		}
		// The last record may have been emitted by a flush already.
		if ps.end >= 0 && max(s.advance[ps], ps.next) >= ps.end {
			if finished == nil {
				finished = map[string][]int32{}
			}
			finished[p.Topic] = append(finished[p.Topic], p.Partition)
		}
	})
	if err != nil {
		return err
	}
	if err := s.flush(out); err != nil {
		return err
	}
	if finished != nil {
		cl.RemoveConsumePartitions(finished)
	}
	return nil
}

// appendRecord adds the rows of one record to the chunk: one, or one per
// element of a 'json' value that is an array. A record the value format
// yields no row for is skipped.
func (s *sourceInstance) appendRecord(r *kgo.Record, ps *partState) error {
	c := s.chunk
	kind := types.Insert
	n := 1
	tombstone := r.Value == nil && s.cfg.upsert
	if tombstone {
		// A tombstone deletes the row with the record's key.
		kind = types.Delete
		for _, col := range s.cfg.value.cols {
			if v := s.column(col); v != nil && !slices.Contains(s.cfg.key.cols, col) {
				v.AppendNull()
			}
		}
		if err := s.appendKey(r, true); err != nil {
			return err
		}
	} else if s.changes != nil {
		return s.appendChanges(r, ps)
	} else {
		var err error
		if s.rows != nil {
			n, err = s.rows.DecodeRows(r.Value, s.valueCols)
		} else {
			err = s.value.Decode(r.Value, s.valueCols)
		}
		if err != nil {
			if errors.Is(err, format.ErrNoRow) {
				return nil
			}
			return s.decodeError("value", r, err)
		}
	}
	for range n {
		if !tombstone && s.key != nil && s.readKey {
			if err := s.appendKey(r, false); err != nil {
				return err
			}
		}
		for _, m := range s.cfg.meta {
			v := s.column(m.col)
			if v == nil {
				continue
			}
			if err := s.appendMeta(v, m, r); err != nil {
				return s.errorf("record at topic '%s' partition %d offset %d: %v", r.Topic, r.Partition, r.Offset, err)
			}
		}
		c.Ops = append(c.Ops, kind)
		s.rowParts = append(s.rowParts, ps)
		s.rowOffsets = append(s.rowOffsets, r.Offset)
	}
	return nil
}

// appendChanges adds the rows of one record of a changelog format, each
// with its kind and the record's key and metadata columns.
func (s *sourceInstance) appendChanges(r *kgo.Record, ps *partState) error {
	c := s.chunk
	n := len(c.Ops)
	var err error
	if c.Ops, err = s.changes.DecodeChanges(r.Value, s.valueCols, c.Ops); err != nil {
		return s.decodeError("value", r, err)
	}
	for range len(c.Ops) - n {
		if s.key != nil && s.readKey {
			if err := s.appendKey(r, false); err != nil {
				return err
			}
		}
		for _, m := range s.cfg.meta {
			if v := s.column(m.col); v != nil {
				s.appendMeta(v, m, r)
			}
		}
		s.rowParts = append(s.rowParts, ps)
		s.rowOffsets = append(s.rowOffsets, r.Offset)
	}
	return nil
}

// appendKey decodes the record key and appends the key columns the value
// does not hold (all key columns when all is set). A key the format yields
// no row for gives NULL key columns.
func (s *sourceInstance) appendKey(r *kgo.Record, all bool) error {
	for _, v := range s.keyScratch {
		if v != nil {
			v.Reset()
		}
	}
	err := s.key.Decode(r.Key, s.keyScratch)
	noRow := errors.Is(err, format.ErrNoRow)
	if err != nil && !noRow {
		return s.decodeError("key", r, err)
	}
	for j, col := range s.cfg.key.cols {
		v := s.column(col)
		switch {
		case v == nil:
		case !all && s.inValue[col]:
		case noRow:
			v.AppendNull()
		default:
			v.Append(s.keyScratch[j].Get(0))
		}
	}
	return nil
}

// rowError reports an error computing a computed column or the watermark
// of the collected rows, naming the record of the row it names.
func (s *sourceInstance) rowError(err error) error {
	var re *connector.RowError
	if errors.As(err, &re) && re.Row >= 0 && re.Row < len(s.rowOffsets) {
		tp := s.rowParts[re.Row].tp
		return s.errorf("record at topic '%s' partition %d offset %d: %v", tp.topic, tp.partition, s.rowOffsets[re.Row], re.Err)
	}
	return s.errorf("%v", err)
}

func (s *sourceInstance) decodeError(what string, r *kgo.Record, err error) error {
	return s.errorf("cannot decode %s of record at topic '%s' partition %d offset %d: %v", what, r.Topic, r.Partition, r.Offset, err)
}

func (s *sourceInstance) appendMeta(v *types.Vector, m metaColumn, r *kgo.Record) error {
	switch m.key {
	case metaTopic:
		v.AppendString(r.Topic)
	case metaPartition:
		v.AppendInt(int64(r.Partition))
	case metaLeaderEpoch:
		if r.LeaderEpoch < 0 {
			v.AppendNull()
		} else {
			v.AppendInt(int64(r.LeaderEpoch))
		}
	case metaOffset:
		v.AppendInt(r.Offset)
	case metaTimestamp:
		ts, ok := timestampValue(r.Timestamp.UnixMilli(), m.typ, s.spec.TimeZone)
		if !ok {
			return &types.RangeError{What: fmt.Sprintf("the record timestamp %d ms", r.Timestamp.UnixMilli())}
		}
		v.Append(ts)
	case metaTimestampType:
		v.AppendString(timestampTypeName(r.Attrs.TimestampType()))
	}
	return nil
}

// timestampTypeName names a record's timestamp type as Kafka's
// TimestampType.toString does.
func timestampTypeName(t int8) string {
	switch t {
	case 0:
		return "CreateTime"
	case 1:
		return "LogAppendTime"
	}
	return "NoTimestampType"
}

// timestampValue converts epoch milliseconds to a value of t: the instant
// for TIMESTAMP_LTZ, the wall-clock time in loc for TIMESTAMP (Flink's cast
// from TIMESTAMP_LTZ to TIMESTAMP); false outside the range of timestamps.
func timestampValue(ms int64, t types.Type, loc *time.Location) (types.Value, bool) {
	instant := time.UnixMilli(ms)
	if t.Kind == types.TimestampLTZ {
		return types.TimestampOf(t.Precision, instant)
	}
	_, offset := instant.In(loc).Zone()
	return types.TimestampOf(t.Precision, instant.Add(time.Duration(offset)*time.Second))
}

// flush completes and emits the collected rows, then records the progress
// of the partitions they came from.
func (s *sourceInstance) flush(out runtime.Emitter) error {
	var wms *types.Vector
	if s.chunk.Len() > 0 {
		// Completing a chunk may drop columns: it is the lease's view.
		l := s.lease
		c := l.ViewChunk()
		if s.spec.Complete != nil {
			if err := s.spec.Complete(c); err != nil {
				return s.rowError(err)
			}
		}
		if s.spec.Watermark != nil {
			wms = &s.wms
			if err := s.spec.Watermark(c, wms); err != nil {
				return s.rowError(err)
			}
		}
		s.lease = nil
		runtime.EmitShared(out, c, l)
	} else if len(s.advance) == 0 {
		return nil
	}
	s.mu.Lock()
	if wms != nil {
		now := time.Now()
		for i, ps := range s.rowParts {
			if wms.Nulls[i] {
				s.tracker.Touch(ps.id, now)
			} else {
				s.tracker.Observe(ps.id, wms.I64[i], now)
			}
		}
	}
	for ps, next := range s.advance {
		ps.next = next
	}
	s.mu.Unlock()
	s.newChunk()
	return nil
}

// emitWatermark sends the merged watermark of the partitions if it
// advanced, or marks the instance idle when all of them are.
func (s *sourceInstance) emitWatermark(ctx *runtime.SourceContext, out runtime.Emitter, now time.Time) {
	if s.tracker == nil {
		return
	}
	// The lock is held while sending so that CaughtUp never sees the
	// watermark as sent before it is on its way.
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tracker.Emit(ctx, out, now)
}

// unreachable fails reading when no broker has answered for the API
// timeout: the brokers went away and did not come back in time.
func (s *sourceInstance) unreachable() error {
	since, err := s.health.failing(time.Now())
	if err == nil || since < s.apiTimeout {
		return nil
	}
	return s.errorf("no broker of '%s' ('properties.bootstrap.servers') answered for %s: %v",
		s.cfg.props["bootstrap.servers"], describeTimeout(propAPITimeout, s.apiTimeout), err)
}

// attemptTimeout bounds one commit attempt.
func (s *sourceInstance) attemptTimeout() time.Duration { return min(s.apiTimeout, commitTimeout) }

// periodicCommit commits the emitted offsets once. A failure is logged; the
// offsets are committed with the next attempt.
func (s *sourceInstance) periodicCommit(adm *kadm.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), s.attemptTimeout())
	defer cancel()
	if err := s.commit(ctx, adm); err != nil {
		slog.Warn(fmt.Sprintf("%v; retrying in %d ms", err, s.commitInterval.Milliseconds()))
	}
}

// finalCommit commits the emitted offsets when a bounded input ends, retrying
// failed attempts for a bounded time. A failure is logged: the next run
// of the group reads the uncommitted records again (at least once).
func (s *sourceInstance) finalCommit(adm *kadm.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), s.attemptTimeout())
	defer cancel()
	for {
		err := s.commit(ctx, adm)
		if err == nil {
			return
		}
		select {
		case <-ctx.Done():
			slog.Warn(fmt.Sprintf("%v; giving up after %d ms", err, s.attemptTimeout().Milliseconds()))
			return
		case <-time.After(commitRetryBackoff):
		}
	}
}

// commit stores the offsets of the emitted records in the consumer group,
// if there is one.
func (s *sourceInstance) commit(ctx context.Context, adm *kadm.Client) error {
	if s.checkpointing || s.batch {
		return nil // offsets are committed when checkpoints complete
	}
	s.mu.Lock()
	emitted := map[topicPartition]int64{}
	for tp, ps := range s.parts {
		emitted[tp] = ps.next
	}
	s.mu.Unlock()
	return s.commitOffsets(ctx, adm, emitted)
}

// commitOffsets stores the given positions in the consumer group, if there
// is one, skipping those already committed.
func (s *sourceInstance) commitOffsets(ctx context.Context, adm *kadm.Client, positions map[topicPartition]int64) error {
	if s.cfg.groupID == "" || adm == nil {
		return nil
	}
	offsets := kadm.Offsets{}
	s.mu.Lock()
	for tp, next := range positions {
		if ps := s.parts[tp]; ps != nil && next > ps.committed {
			offsets.AddOffset(tp.topic, tp.partition, next, -1)
		}
	}
	s.mu.Unlock()
	if len(offsets) == 0 {
		return nil
	}
	resp, err := adm.CommitOffsets(ctx, s.cfg.groupID, offsets)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		// Unreachable brokers make the client report unknown topics:
		// name the cause instead.
		if _, down := s.health.failing(time.Now()); down != nil {
			err = fmt.Errorf("no broker of '%s' answers: %w", s.cfg.props["bootstrap.servers"], down)
		}
		return s.errorf("committing offsets of group '%s': %v", s.cfg.groupID, err)
	}
	s.mu.Lock()
	offsets.Each(func(o kadm.Offset) {
		if ps := s.parts[topicPartition{o.Topic, o.Partition}]; ps.committed < o.At {
			ps.committed = o.At
		}
	})
	s.mu.Unlock()
	return nil
}

// snapshotVersion is the first byte of a source's checkpoint state.
const snapshotVersion = 1

// SnapshotState implements runtime.Snapshotter: the position of every
// assigned partition after the records emitted so far, and where a
// bounded source stops, as Flink's KafkaPartitionSplit keeps them. It is
// called at the source's barrier, from Run's goroutine.
func (s *sourceInstance) SnapshotState(id int64) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	positions := make(map[topicPartition]int64, len(s.parts))
	tps := slices.SortedFunc(maps.Keys(s.parts), func(a, b topicPartition) int {
		return cmp.Or(cmp.Compare(a.topic, b.topic), cmp.Compare(a.partition, b.partition))
	})
	b := []byte{snapshotVersion}
	b = state.AppendUvarint(b, uint64(len(tps)))
	for _, tp := range tps {
		ps := s.parts[tp]
		positions[tp] = ps.next
		b = state.AppendBytes(b, []byte(tp.topic))
		b = state.AppendVarint(b, int64(tp.partition))
		b = state.AppendVarint(b, ps.next)
		b = state.AppendVarint(b, ps.end)
	}
	if s.snapshots == nil {
		s.snapshots = map[int64]map[topicPartition]int64{}
	}
	s.snapshots[id] = positions
	return b, nil
}

// RestoreState implements runtime.Snapshotter: reading resumes at the
// checkpoint's positions, before Run.
func (s *sourceInstance) RestoreState(data []byte) error {
	return s.RestoreUnion([][]byte{data})
}

// RestoreUnion implements runtime.UnionRestorer, for a restore at another
// parallelism: given the positions of every instance of the earlier run,
// the instance resumes the partitions it now owns where they left them,
// as Flink's Kafka source reassigns its splits.
func (s *sourceInstance) RestoreUnion(parts [][]byte) error {
	restored := map[topicPartition]partPosition{}
	for _, data := range parts {
		r := state.NewReader(data)
		if v := r.Uvarint(); r.Err() == nil && v != snapshotVersion {
			return s.errorf("unknown checkpoint state version %d", v)
		}
		for n := r.Uvarint(); n > 0 && r.Err() == nil; n-- {
			tp := topicPartition{topic: string(r.Bytes()), partition: int32(r.Varint())}
			if _, dup := restored[tp]; dup {
				return s.errorf("corrupt checkpoint state: two positions for partition %d of '%s'", tp.partition, tp.topic)
			}
			restored[tp] = partPosition{next: r.Varint(), end: r.Varint()}
		}
		if err := r.Done(); err != nil {
			return s.errorf("corrupt checkpoint state: %v", err)
		}
	}
	s.restored = restored
	return nil
}

// CheckpointComplete implements runtime.CheckpointListener: the positions
// of checkpoint id are committed to the consumer group, for monitoring, as
// Flink does. A failure is logged, never fatal: the next checkpoint
// commits again.
func (s *sourceInstance) CheckpointComplete(id int64) error {
	s.mu.Lock()
	positions := s.snapshots[id]
	for old := range s.snapshots {
		if old <= id {
			delete(s.snapshots, old)
		}
	}
	adm := s.adm
	s.mu.Unlock()
	if positions == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.attemptTimeout())
	defer cancel()
	if err := s.commitOffsets(ctx, adm, positions); err != nil {
		slog.Warn(fmt.Sprintf("%v; the next checkpoint commits again", err))
	}
	return nil
}

// BytesRead implements runtime.InputMetrics.
func (s *sourceInstance) BytesRead() int64 { return s.bytesRead.Load() }

// PendingRecords implements runtime.InputMetrics: the records between
// each partition's position and its high watermark as of the latest fetch
// (its end, if bounded, and earlier), which is Kafka's consumer lag.
func (s *sourceInstance) PendingRecords() (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var lag int64
	known := false
	for _, ps := range s.parts {
		if ps.highWatermark < 0 {
			continue
		}
		known = true
		hw := ps.highWatermark
		if ps.end >= 0 {
			hw = min(hw, ps.end)
		}
		lag += max(0, hw-ps.next)
	}
	return lag, known
}

// CaughtUp implements runtime.Quiescer: every emitted offset has reached
// the partition's current end offset (or the bounded end, short of which a
// bounded source waits for more records) and no watermark is waiting to be
// sent.
func (s *sourceInstance) CaughtUp(ctx context.Context) (bool, error) {
	s.mu.Lock()
	// A stopped source has finished (the runtime reports its end once it
	// is on its way) or was cancelled with its job.
	if s.stopped || !s.ready || s.tracker != nil && s.tracker.Pending(time.Now()) {
		s.mu.Unlock()
		return false, nil
	}
	type progress struct{ next, end int64 }
	parts := map[topicPartition]progress{}
	finished := s.cfg.bounded.mode != modeUnbounded
	for tp, ps := range s.parts {
		parts[tp] = progress{ps.next, ps.end}
		finished = finished && ps.done()
	}
	if finished {
		// A bounded source that has read everything is about to end; the
		// runtime sees it when it has.
		s.mu.Unlock()
		return false, nil
	}
	adm := s.adm
	s.mu.Unlock()
	if len(parts) == 0 {
		return true, nil
	}
	tps := make([]topicPartition, 0, len(parts))
	for tp := range parts {
		tps = append(tps, tp)
	}
	ends, err := s.endOffsets(ctx, adm, topicsOf(tps))
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		// Brokers that do not answer now leave the end unknown (Run fails
		// the job if they stay away), as does a client closed under the
		// request by a stopping source.
		return false, nil
	}
	for tp, p := range parts {
		o, _ := ends.Lookup(tp.topic, tp.partition)
		target := o.Offset
		if p.end >= 0 && p.end < target {
			target = p.end
		}
		if p.next < target {
			return false, nil
		}
	}
	return true, nil
}
