package ops

import (
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// ChangelogNormalizeConfig configures a ChangelogNormalize.
type ChangelogNormalizeConfig struct {
	// InputTypes are the input's column types (also the output's).
	InputTypes []types.Type
	// Keys are the primary key columns of the upsert stream.
	Keys []int
	// GenerateUpdateBefore emits -U(previous) before each +U.
	GenerateUpdateBefore bool
	// StateTTL is the keys' idle state retention (lastRows); 0 keeps
	// them for ever.
	StateTTL time.Duration
}

// ChangelogNormalize turns an upsert stream (+I/+U carry the full row of a
// key, -U/-D remove the key and may carry only its key columns, as Kafka
// tombstones do) into a complete changelog, after Flink's
// ChangelogNormalize (ProcTimeDeduplicateKeepLastRowFunction on a changelog
// input, i.e. DeduplicateFunctionHelper.processLastRowOnChangelog):
//
//   - +I/+U for a new key emits +I;
//   - +I/+U for a known key emits -U(previous) (with GenerateUpdateBefore)
//     and +U(new), or nothing when the row equals the previous one (values
//     compared, row kinds ignored; with a state retention, emitted all the
//     same, as Flink emits it then);
//   - -U/-D for a known key emits -D(previous row, which has the full
//     content) and forgets the key; for an unknown key it is ignored.
type ChangelogNormalize struct {
	passThrough
	cfg  ChangelogNormalizeConfig
	st   state.Backend
	last *lastRows
	out  *output
	key  []byte
}

// NewChangelogNormalize returns a ChangelogNormalize for cfg.
func NewChangelogNormalize(cfg ChangelogNormalizeConfig, st state.Backend) (*ChangelogNormalize, error) {
	if err := checkCols("normalize key", cfg.Keys, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	n := &ChangelogNormalize{cfg: cfg, st: st, out: newOutput(cfg.InputTypes)}
	n.last = newLastRows(n.st, cfg.InputTypes, cfg.GenerateUpdateBefore, cfg.StateTTL)
	return n, nil
}

// State implements Stateful.
func (n *ChangelogNormalize) State() state.Backend { return n.st }

// Open implements runtime.Operator.
func (n *ChangelogNormalize) Open(ctx *runtime.Context) error {
	startTTL(ctx, n.last.ttl)
	return nil
}

// ProcessChunk implements runtime.Operator.
func (n *ChangelogNormalize) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	w := n.out.to(out)
	defer w.flush()
	for i := range c.Len() {
		n.key = state.AppendChunkKey(n.key[:0], c, i, n.cfg.Keys)
		n.last.expire(n.key)
		if c.Ops[i].IsAccumulate() {
			n.last.upsert(w, n.key, c.Row(i))
		} else {
			n.last.remove(w, n.key)
		}
	}
	return nil
}

// lastRows keeps the latest row per key and emits its changes, as Flink's
// DeduplicateFunctionHelper does for keep-last-row on processing time
// (processLastRowOnProcTime with generateInsert) and on changelogs
// (processLastRowOnChangelog). With a retention (ttl), a key's row is
// dropped once idle past it, and a row equal to the key's is emitted as
// a change all the same (those functions skip it only without state
// retention).
type lastRows struct {
	rows                 *state.Table[types.Row]
	ttl                  *state.TTL
	generateUpdateBefore bool
	// rankOne appends a constant row number 1 to every output row.
	rankOne bool
	buf     types.Row
}

func newLastRows(st state.Backend, ts []types.Type, generateUpdateBefore bool, ttl time.Duration) *lastRows {
	l := &lastRows{rows: state.NewTable(st, "last", state.RowCodec(ts)), generateUpdateBefore: generateUpdateBefore}
	l.ttl = state.NewTTL(st, "last", ttl, func(key string) { l.rows.DeleteString(key) })
	return l
}

// expire drops key's row if it is idle past the retention.
func (l *lastRows) expire(key []byte) {
	if l.ttl != nil {
		l.ttl.Expire(key)
	}
}

// upsert makes row the key's latest row: +I for a new key, -U/+U for a
// changed row, nothing for an equal one (without a retention).
func (l *lastRows) upsert(w *output, key []byte, row types.Row) {
	prev, ok := l.rows.Get(key)
	if ok && l.ttl == nil && rowsEqual(prev, row) {
		return
	}
	l.replace(w, key, prev, ok, row)
}

// replace makes row the key's latest row, emitting +I when there was no
// previous row and -U(prev)/+U(row) otherwise (DeduplicateFunctionHelper.
// updateDeduplicateResult).
func (l *lastRows) replace(w *output, key []byte, prev types.Row, hadPrev bool, row types.Row) {
	if !hadPrev {
		l.emit(w, types.Insert, row)
	} else {
		if l.generateUpdateBefore {
			l.emit(w, types.UpdateBefore, prev)
		}
		l.emit(w, types.UpdateAfter, row)
	}
	l.rows.Put(key, row)
	if l.ttl != nil {
		l.ttl.Touch(key)
	}
}

// remove forgets the key, emitting -D of its latest row if it had one.
func (l *lastRows) remove(w *output, key []byte) {
	if prev, ok := l.rows.Get(key); ok {
		l.emit(w, types.Delete, prev)
		l.rows.Delete(key)
		if l.ttl != nil {
			l.ttl.Forget(key)
		}
	}
}

func (l *lastRows) emit(w *output, k types.RowKind, row types.Row) {
	if l.rankOne {
		row = appendRank(&l.buf, row, 1)
	}
	w.add(k, row)
}
