package kafka

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/sluicesql/sluice/internal/state"
)

// Exactly-once delivery ('sink.delivery-guarantee' = 'exactly-once')
// follows Flink's KafkaSink: its ExactlyOnceKafkaWriter, KafkaCommitter and
// PROBING TransactionAbortStrategy.
//
// The records a sink instance receives between two checkpoint barriers go
// into one Kafka transaction. At a barrier (SnapshotState) the transaction
// is flushed and pre-committed: kept open, and recorded in the checkpoint
// with its producer id and epoch. Records after the barrier go into a new
// transaction, with a client of its own, since a producer has one
// transaction open at a time. When a checkpoint completes, the
// transactions of that checkpoint and of earlier ones are committed. At
// the end of a bounded input every transaction is committed (Flink's
// CommitterOperator.endInput), with or without checkpoints; a job stopped
// or cancelled aborts its open transaction and leaves the pre-committed
// ones to its next run, committing only those of checkpoints that
// completed.
//
// A restored instance commits the transactions recorded in its checkpoint
// (at another parallelism, those of the earlier instances it takes over:
// RestoreUnion): they belong to a complete checkpoint. It sends EndTxn with the recorded
// transactional id, producer id and epoch, which needs no producer of that
// id (Flink resumes one for the same purpose), and a transaction its
// previous run committed already is answered as a retry. It then aborts
// every transaction of its ids that the checkpoint does not know (from a
// run that died before its next checkpoint completed): initializing an id
// fences its producer and aborts what it left open. Readers with
// isolation.level=read_committed never see the records of a checkpoint
// that did not complete.
//
// A commit whose answer does not come (the broker went away, or failed the
// request) leaves the transaction's fate unknown to its producer. Flink's
// KafkaCommitter retries it later with the same producer, whose Java
// client sends the same EndTxn again. franz-go's producer instead
// re-initializes its id before its next request, which aborts the
// transaction if the broker still has it open: retried through that
// producer, a commit would lose the transaction's records. So the
// producer is closed after a failed commit, and the transaction is
// committed from then on by its producer id and epoch, as a restored one
// is: an EndTxn the broker completed already is answered as a retry.
//
// Transactional ids are '<prefix>-<instance>-<n>', n counting the
// instance's transactions. Transaction n+1 begins only after n was flushed
// (its id known to the broker), so the ids an instance used are
// consecutive, and the search for lingering ones stops at the first id the
// broker did not know (epoch 0 once initialized), as Flink's probing does.
// Flink numbers transactions by checkpoint and initializes a new id at
// every checkpoint; counting them begins one only when records come.

// transaction is one Kafka transaction of a sink instance.
type transaction struct {
	id string
	// checkpoint is the checkpoint whose barrier pre-committed the
	// transaction; producerID and epoch identify it at the broker.
	checkpoint int64
	producerID int64
	epoch      int16
	// cl is the producer; nil for a transaction restored from a
	// checkpoint, and once a commit through it failed.
	cl *kgo.Client
}

// release closes the transaction's producer, if it has one.
func (tx *transaction) release() {
	if tx.cl != nil {
		tx.cl.Close()
		tx.cl = nil
	}
}

// txnState is the exactly-once part of a sink instance.
type txnState struct {
	prefix string

	// mu guards the fields below: the sink's goroutine and the upsert
	// buffer's flusher open transactions, CaughtUp reads them.
	mu sync.Mutex
	// next numbers the next transaction.
	next uint64
	// current is the open transaction, nil until records come after a
	// barrier; pending are the pre-committed ones, oldest first.
	current *transaction
	pending []*transaction
}

// settled reports whether every record written is committed.
func (t *txnState) settled() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.current == nil && len(t.pending) == 0
}

// txnSnapshot is an exactly-once sink instance's checkpoint state: the
// prefix and instance its ids were named with, the number of the next
// transaction, and the pre-committed transactions.
type txnSnapshot struct {
	prefix   string
	instance int
	next     uint64
	pending  []*transaction
}

// txnSnapshotVersion is the first byte of an exactly-once sink's state.
const txnSnapshotVersion = 1

func (ts *txnSnapshot) encode() []byte {
	b := []byte{txnSnapshotVersion}
	b = state.AppendBytes(b, []byte(ts.prefix))
	b = state.AppendUvarint(b, uint64(ts.instance))
	b = state.AppendUvarint(b, ts.next)
	b = state.AppendUvarint(b, uint64(len(ts.pending)))
	for _, tx := range ts.pending {
		b = state.AppendBytes(b, []byte(tx.id))
		b = state.AppendVarint(b, tx.checkpoint)
		b = state.AppendVarint(b, tx.producerID)
		b = state.AppendVarint(b, int64(tx.epoch))
	}
	return b
}

func decodeTxnSnapshot(data []byte) (*txnSnapshot, error) {
	r := state.NewReader(data)
	if v := r.Uvarint(); r.Err() == nil && v != txnSnapshotVersion {
		return nil, fmt.Errorf("unknown checkpoint state version %d", v)
	}
	ts := &txnSnapshot{prefix: string(r.Bytes())}
	instance := r.Uvarint()
	ts.next = r.Uvarint()
	for n := r.Uvarint(); n > 0 && r.Err() == nil; n-- {
		tx := &transaction{id: string(r.Bytes()), checkpoint: r.Varint(), producerID: r.Varint()}
		epoch := r.Varint()
		if epoch < 0 || epoch > math.MaxInt16 {
			return nil, fmt.Errorf("producer epoch %d of transaction '%s' is out of range", epoch, tx.id)
		}
		tx.epoch = int16(epoch)
		ts.pending = append(ts.pending, tx)
	}
	if err := r.Done(); err != nil {
		return nil, err
	}
	if instance > math.MaxInt32 {
		return nil, fmt.Errorf("instance %d is out of range", instance)
	}
	ts.instance = int(instance)
	return ts, nil
}

// txnID names transaction n of an instance.
func txnID(prefix string, instance int, n uint64) string {
	return fmt.Sprintf("%s-%d-%d", prefix, instance, n)
}

// maxTxnPrefix is the longest 'sink.transactional-id-prefix': a
// transactional id is a Kafka string, at most 32767 bytes, and the sink
// appends '-<instance>-<n>' (at most 26 bytes) to the prefix.
const maxTxnPrefix = math.MaxInt16 - 26

// endOfInput is the checkpoint of the transaction an instance commits
// at the end of its input.
const endOfInput = math.MaxInt64

// checkExactlyOnce checks the options an exactly-once sink needs, when the
// sink is created, as Flink's KafkaDynamicTableFactory does
// (validateDeliveryGuarantee), and refuses the Kafka client properties that
// would contradict transactions rather than ignore them.
func (c *tableConfig) checkExactlyOnce() error {
	if c.guarantee != guaranteeExactlyOnce {
		return nil
	}
	switch prefix, ok := c.txnPrefix, c.hasTxnPrefix; {
	case !ok:
		return fmt.Errorf("%s must be specified when using DeliveryGuarantee.EXACTLY_ONCE.", optTxnPrefix)
	case prefix == "":
		return fmt.Errorf("'%s' must not be empty: it keeps the transactions of this sink apart from those of other applications.", optTxnPrefix)
	case len(prefix) > maxTxnPrefix:
		return fmt.Errorf("The configured prefix is too long and the resulting transactionalId might exceed Kafka's transactionalIds size: '%s' has %d bytes, at most %d are allowed.",
			optTxnPrefix, len(prefix), maxTxnPrefix)
	}
	if !idempotent(c.props) {
		// Kafka's ProducerConfig: "Cannot set a transactional.id without
		// also enabling idempotence."
		return fmt.Errorf("'%s' = '%s' needs the idempotent producer, which %s turns off.",
			optGuarantee, guaranteeExactlyOnce, idempotenceOff(c.props))
	}
	return nil
}

// idempotenceOff names the property that turns idempotence off, as
// idempotent decides.
func idempotenceOff(props map[string]string) string {
	off := propIdempotence
	if _, ok := props[propIdempotence]; !ok {
		switch a := props[propAcks]; {
		case a != "" && a != "all" && a != "-1":
			off = propAcks
		case retriesZero(props):
			off = propRetries
		default:
			off = propInFlight
		}
	}
	return fmt.Sprintf("'%s%s' = '%s'", propertiesPrefix, off, props[off])
}

// retriesZero tells whether retries is set to 0.
func retriesZero(props map[string]string) bool {
	r, err := strconv.ParseInt(props[propRetries], 10, 64)
	return err == nil && r == 0
}

// transactional returns the client of the open transaction, beginning the
// next one if none is open.
func (s *sinkInstance) transactional() (*kgo.Client, error) {
	t := s.txn
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.current != nil {
		return t.current.cl, nil
	}
	id := txnID(t.prefix, s.instance, t.next)
	cl, err := kgo.NewClient(append(slices.Clone(s.opts), kgo.TransactionalID(id), kgo.TransactionTimeout(s.txnTimeout()))...)
	if err != nil {
		return nil, s.errorf("%v", err)
	}
	if err := cl.BeginTransaction(); err != nil {
		cl.Close()
		return nil, s.errorf("beginning transaction '%s': %v", id, err)
	}
	t.next++
	t.current = &transaction{id: id, cl: cl}
	return cl, nil
}

// precommit flushes the open transaction (upsert-kafka's buffer first)
// and makes it pending as checkpoint id's; records from now on go into a
// new transaction. It returns the instance's state as of the barrier: the
// number of the next transaction and the pending ones. A transaction that
// cannot be flushed cannot be committed: it is aborted, and the sink fails
// unless its job is stopping. The upsert buffer's flusher, which could
// begin the next transaction, waits until the flush is over: the next id
// is taken only once the broker knows the previous one.
func (s *sinkInstance) precommit(id int64) (*txnSnapshot, error) {
	t := s.txn
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byKey != nil {
		if err := s.flushBufferLocked(); err != nil {
			return nil, err
		}
	}
	t.mu.Lock()
	tx := t.current
	t.current = nil
	if tx != nil {
		tx.checkpoint = id
		t.pending = append(t.pending, tx)
	}
	snap := &txnSnapshot{prefix: t.prefix, instance: s.instance, next: t.next}
	t.mu.Unlock()
	if tx != nil {
		if err := s.flushTxn(tx); err != nil {
			t.mu.Lock()
			t.pending = slices.DeleteFunc(t.pending, func(p *transaction) bool { return p == tx })
			t.mu.Unlock()
			s.abort(tx)
			if s.ctx.Err() == nil {
				s.fail(err)
			}
			return nil, err
		}
	}
	t.mu.Lock()
	snap.pending = slices.Clone(t.pending)
	t.mu.Unlock()
	return snap, nil
}

// flushTxn waits until the broker has every record of tx, then records its
// producer id and epoch.
func (s *sinkInstance) flushTxn(tx *transaction) error {
	if err := tx.cl.Flush(s.ctx); err != nil {
		if cause := s.failure(); cause != nil {
			return cause
		}
		return s.errorf("flushing transaction '%s': %v", tx.id, err)
	}
	if err := s.failure(); err != nil {
		return err
	}
	if err := s.ctx.Err(); err != nil {
		// Records produced under the cancelled context may have failed
		// without failing the sink (acknowledged ignores errors once the
		// sink stops): the transaction may miss rows, so it must not be
		// pre-committed.
		return s.errorf("flushing transaction '%s': %v", tx.id, err)
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.maxBlock)
	defer cancel()
	pid, epoch, err := tx.cl.ProducerID(ctx)
	if err != nil {
		return s.errorf("transaction '%s': %v", tx.id, err)
	}
	tx.producerID, tx.epoch = pid, epoch
	return nil
}

// commitThrough commits the pending transactions of checkpoint id and
// earlier ones, oldest first. A transaction that fails to commit stays
// pending, with the later ones.
func (s *sinkInstance) commitThrough(id int64) error {
	t := s.txn
	t.mu.Lock()
	due := slices.Clone(t.pending)
	t.mu.Unlock()
	for _, tx := range due {
		if tx.checkpoint > id {
			break
		}
		if err := s.commit(tx); err != nil {
			return err
		}
		tx.release()
		t.mu.Lock()
		t.pending = slices.DeleteFunc(t.pending, func(p *transaction) bool { return p == tx })
		t.mu.Unlock()
	}
	return nil
}

// finishTxns commits everything at the end of the input.
func (s *sinkInstance) finishTxns() error {
	if _, err := s.precommit(endOfInput); err != nil {
		return err
	}
	return s.commitThrough(endOfInput)
}

// commit commits a transaction, waiting at most max.block.ms, as the Java
// producer's commitTransaction does: with its own producer, or by its
// producer id and epoch once it has none. A failed commit through the
// producer closes it (see the top of this file): its outcome is unknown,
// and the next attempt goes by id.
func (s *sinkInstance) commit(tx *transaction) error {
	if tx.cl == nil {
		return s.commitByID(context.Background(), tx)
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.maxBlock)
	defer cancel()
	if err := tx.cl.EndTransaction(ctx, kgo.TryCommit); err != nil {
		tx.release()
		return s.txnError("committing", tx, err)
	}
	if s.job != nil {
		s.job.Progressed() // read_committed readers see its records now
	}
	return nil
}

// abort aborts an open transaction and closes its client, as Flink's
// writer does when it closes. A transaction the broker fenced is over
// already; another failure is logged: the broker aborts the transaction
// after transaction.timeout.ms, and the next run of the job aborts it when
// it starts.
func (s *sinkInstance) abort(tx *transaction) {
	defer tx.cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), s.maxBlock)
	defer cancel()
	err := tx.cl.AbortBufferedRecords(ctx)
	if err == nil {
		err = tx.cl.EndTransaction(ctx, kgo.TryAbort)
	}
	if err != nil && !fenced(err) {
		slog.Warn(fmt.Sprintf("%v; it stays open until the broker aborts it after %s, or the job runs again",
			s.txnError("aborting", tx, err), describeTimeout(propTxnTimeout, s.txnTimeout())))
	}
}

// settleTxns is the end of a stopped or failed instance: the open
// transaction is aborted; the pre-committed ones are committed if their
// checkpoint completed (the notice may not have reached the instance) and
// left open otherwise, for the job's next run to commit or abort.
func (s *sinkInstance) settleTxns() {
	t := s.txn
	t.mu.Lock()
	open, pending := t.current, t.pending
	t.current, t.pending = nil, nil
	t.mu.Unlock()
	if open != nil {
		s.abort(open)
	}
	var completed int64
	if s.job != nil {
		completed = s.job.CompletedCheckpoint()
	}
	for _, tx := range pending {
		if tx.checkpoint <= completed {
			if err := s.commit(tx); err != nil {
				slog.Warn(fmt.Sprintf("%v; restoring the job from checkpoint %d commits it", err, completed))
			}
		}
		tx.release()
	}
}

// txnTimeout is 'properties.transaction.timeout.ms'.
func (s *sinkInstance) txnTimeout() time.Duration {
	return s.cfg.duration(propTxnTimeout, defaultTxnTimeout)
}

// txnError describes a failed transaction request, with the likely cause
// when the broker fenced the producer.
func (s *sinkInstance) txnError(what string, tx *transaction, err error) error {
	where := fmt.Sprintf("transaction '%s'", tx.id)
	if tx.checkpoint > 0 && tx.checkpoint < endOfInput {
		where += fmt.Sprintf(" of checkpoint %d", tx.checkpoint)
	}
	return s.errorf("%s %s: %v%s", what, where, err, s.txnHint(err))
}

// txnHint explains the broker errors that end transactions.
func (s *sinkInstance) txnHint(err error) string {
	switch {
	case errors.Is(err, kerr.InvalidTransactionTimeout):
		return fmt.Sprintf(" (the broker refuses a transaction timeout of %s, above its transaction.max.timeout.ms, 15 minutes by default: lower the property or raise the broker's limit)",
			describeTimeout(propTxnTimeout, s.txnTimeout()))
	case fenced(err):
		return fmt.Sprintf(" (the broker no longer knows the transaction as open: it aborted it after %s, or a producer with the same '%s' took over its id; "+
			"transactions commit when checkpoints complete ('execution.checkpointing.interval') or at the end of a bounded input)",
			describeTimeout(propTxnTimeout, s.txnTimeout()), optTxnPrefix)
	}
	return ""
}

// fenced reports whether the broker answered that the transaction is no
// longer open under its producer id and epoch.
func fenced(err error) bool {
	for _, e := range []error{kerr.ProducerFenced, kerr.InvalidProducerEpoch, kerr.InvalidProducerIDMapping,
		kerr.InvalidTxnState, kerr.TransactionalIDNotFound} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// recoverTxns settles the transactions of a previous run, when the
// instance opens: it commits those the checkpoint recorded for the
// earlier instances it took over, then aborts the later ones of their
// ids and of its own.
func (s *sinkInstance) recoverTxns() error {
	var pending []*transaction
	for _, r := range s.recovered {
		pending = append(pending, r.pending...)
	}
	for _, tx := range pending {
		if err := s.commitByID(s.ctx, tx); err != nil {
			return err
		}
	}
	t := s.txn
	own := func(r *txnSnapshot) bool { return t != nil && r.prefix == t.prefix && r.instance == s.instance }
	for _, r := range s.recovered {
		if own(r) {
			t.next = r.next
		} else if err := s.abortLingering(r.prefix, r.instance, r.next); err != nil {
			return err
		}
	}
	if t == nil {
		return nil
	}
	return s.abortLingering(t.prefix, s.instance, t.next)
}

// commitByID commits a transaction without its producer, by its
// transactional id, producer id and epoch (Flink resumes a producer of
// them for the same purpose): one recorded in the checkpoint the instance
// was restored from, or one whose commit through its producer failed.
// A transaction the broker no longer has open is logged and skipped, as
// Flink's committer does (signalFailedWithKnownReason): a retry cannot
// commit it.
func (s *sinkInstance) commitByID(parent context.Context, tx *transaction) error {
	cl, err := s.committerClient(parent)
	if err != nil {
		return err
	}
	req := kmsg.NewPtrEndTxnRequest()
	req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.Commit = tx.id, tx.producerID, tx.epoch, true
	err = s.txnRequest(parent, func(ctx context.Context) (int16, error) {
		resp, err := req.RequestWith(ctx, cl)
		if err != nil {
			return 0, err
		}
		return resp.ErrorCode, nil
	})
	if fenced(err) {
		// As Flink's KafkaCommitter: the broker no longer has the
		// transaction open (it aborted it, or lost it), so its records
		// are lost; failing the job again would not bring them back and
		// would never let it run. Logged as the error it is.
		slog.Error(fmt.Sprintf("%v; its records are most likely lost: check the broker's logs", s.txnError("committing", tx, err)))
		return nil
	}
	if err != nil {
		return s.txnError("committing", tx, err)
	}
	if s.job != nil {
		s.job.Progressed()
	}
	return nil
}

// committerClient returns the client that ends transactions by producer
// id and epoch, creating it at first use, at the EndTxn version franz-go's
// producers use: version 5 (KIP-890 part 2) only on a cluster whose
// transaction.version is 2.
func (s *sinkInstance) committerClient(parent context.Context) (*kgo.Client, error) {
	if s.committer != nil {
		return s.committer, nil
	}
	ctx, cancel := context.WithTimeout(parent, s.maxBlock)
	defer cancel()
	versions, err := kadm.NewClient(s.cl).ApiVersions(ctx)
	if err != nil {
		return nil, s.errorf("asking the brokers for their versions: %v", err)
	}
	tv2 := false
	for _, v := range versions {
		if v.Err != nil {
			continue
		}
		for _, f := range v.Raw().FinalizedFeatures {
			tv2 = tv2 || f.Name == "transaction.version" && f.MaxVersionLevel >= 2
		}
	}
	opts := slices.Clone(s.cfg.clientOpts)
	if !tv2 {
		max := kversion.Stable()
		max.SetMaxKeyVersion(int16(kmsg.EndTxn), 4)
		opts = append(opts, kgo.MaxVersions(max))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, s.errorf("%v", err)
	}
	s.committer = cl
	return cl, nil
}

// abortLingering aborts the transactions prefix-instance-n from n = from
// on, as Flink's probing TransactionAbortStrategy does: initializing an id
// bumps its epoch, which aborts a transaction it left open; an id the
// broker did not know comes back with epoch 0, and ends the search.
func (s *sinkInstance) abortLingering(prefix string, instance int, from uint64) error {
	timeout := s.txnTimeout()
	for n := from; ; n++ {
		id := txnID(prefix, instance, n)
		req := kmsg.NewPtrInitProducerIDRequest()
		req.TransactionalID = &id
		req.TransactionTimeoutMillis = int32(timeout.Milliseconds())
		var epoch int16
		err := s.txnRequest(s.ctx, func(ctx context.Context) (int16, error) {
			resp, err := req.RequestWith(ctx, s.cl)
			if err != nil {
				return 0, err
			}
			epoch = resp.ProducerEpoch
			return resp.ErrorCode, nil
		})
		if err != nil {
			return s.txnError("aborting lingering", &transaction{id: id}, err)
		}
		if epoch == 0 {
			return nil
		}
	}
}

// txnBackoff is the pause before asking a transaction coordinator again.
const txnBackoff = 100 * time.Millisecond

// txnRequest sends a request to a transaction coordinator until it
// succeeds or fails for good, for at most max.block.ms within parent: a
// coordinator still completing an earlier transaction answers
// CONCURRENT_TRANSACTIONS, one that is loading COORDINATOR_LOAD_IN_PROGRESS.
func (s *sinkInstance) txnRequest(parent context.Context, send func(context.Context) (int16, error)) error {
	ctx, cancel := context.WithTimeout(parent, s.maxBlock)
	defer cancel()
	for {
		code, err := send(ctx)
		if err == nil {
			err = kerr.ErrorForCode(code)
		}
		if err == nil || !kerr.IsRetriable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(txnBackoff):
		}
	}
}
