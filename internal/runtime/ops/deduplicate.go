package ops

import (
	"errors"
	"time"

	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// DeduplicateConfig configures a Deduplicate.
type DeduplicateConfig struct {
	// InputTypes are the input's column types.
	InputTypes []types.Type
	// Keys are the PARTITION BY columns.
	Keys []int
	// KeepLast keeps the last row per key (ORDER BY time DESC); otherwise
	// the first (ORDER BY time ASC).
	KeepLast bool
	// TimeCol is the time attribute in the ORDER BY; read only when RowTime
	// is set (a processing-time order is the arrival order).
	TimeCol int
	// RowTime says the order is on an event-time attribute.
	RowTime bool
	// GenerateUpdateBefore emits -U rows before +U rows.
	GenerateUpdateBefore bool
	// OutputRankNumber appends the row number, always 1, as a BIGINT NOT
	// NULL column.
	OutputRankNumber bool
	// StateTTL is the keys' idle state retention; 0 keeps them for ever.
	StateTTL time.Duration
}

// Deduplicate is ROW_NUMBER() OVER (PARTITION BY keys ORDER BY time) = 1
// over an insert-only input, after Flink's deduplicate functions:
//
//   - processing time, keep first (ProcTimeDeduplicateKeepFirstRowFunction):
//     the first row of a key is emitted as +I, later ones are dropped; the
//     output is insert-only.
//   - processing time, keep last (ProcTimeDeduplicateKeepLastRowFunction,
//     DeduplicateFunctionHelper.processLastRowOnProcTime): +I for the first
//     row, then -U(previous)/+U(new) for each later row, nothing when the new
//     row equals the previous one.
//   - event time (RowTimeDeduplicateFunction, DeduplicateFunctionHelper.
//     shouldKeepCurrentRow): keep-first replaces the kept row only with a row
//     of strictly smaller time, keep-last with a row of greater or equal
//     time; a replacement emits -U(previous)/+U(new) even when the rows are
//     equal, the first row +I. A NULL time reads as 0, as Flink reads the
//     long of a null field.
//
// With a retention (StateTTL), a key idle past it since its state was
// last written (its first row, kept or replaced) is dropped: its next row
// is a first row again, emitted as +I.
type Deduplicate struct {
	passThrough
	cfg  DeduplicateConfig
	st   state.Backend
	seen *state.Table[struct{}]
	// seenTTL is the retention of seen (last's is its own).
	seenTTL *state.TTL
	last    *lastRows
	out     *output
	key     []byte
}

// NewDeduplicate returns a Deduplicate for cfg.
func NewDeduplicate(cfg DeduplicateConfig, st state.Backend) (*Deduplicate, error) {
	if err := checkCols("deduplicate key", cfg.Keys, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	if cfg.RowTime {
		if err := checkCols("deduplicate time column", []int{cfg.TimeCol}, len(cfg.InputTypes)); err != nil {
			return nil, err
		}
	}
	d := &Deduplicate{cfg: cfg, st: st, out: newOutput(rankOutputTypes(cfg.InputTypes, cfg.OutputRankNumber))}
	if !cfg.KeepLast && !cfg.RowTime {
		d.seen = state.NewTable(d.st, "seen", state.Codec[struct{}]{
			Append: func(b []byte, _ struct{}) []byte { return b },
			Decode: func(b []byte) (struct{}, error) { return struct{}{}, state.NewReader(b).Done() },
		})
		d.seenTTL = state.NewTTL(d.st, "seen", cfg.StateTTL, func(key string) { d.seen.DeleteString(key) })
	} else {
		d.last = newLastRows(d.st, cfg.InputTypes, cfg.GenerateUpdateBefore, cfg.StateTTL)
		d.last.rankOne = cfg.OutputRankNumber
	}
	return d, nil
}

// State implements Stateful.
func (d *Deduplicate) State() state.Backend { return d.st }

// Open implements runtime.Operator.
func (d *Deduplicate) Open(ctx *runtime.Context) error {
	if d.last != nil {
		startTTL(ctx, d.last.ttl)
	}
	startTTL(ctx, d.seenTTL)
	return nil
}

// ProcessChunk implements runtime.Operator.
func (d *Deduplicate) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	w := d.out.to(out)
	defer w.flush()
	for i := range c.Len() {
		if c.Ops[i] != types.Insert {
			return errors.New("deduplicate: input must be insert-only")
		}
		d.key = state.AppendChunkKey(d.key[:0], c, i, d.cfg.Keys)
		switch {
		case d.seen != nil:
			if d.seenTTL != nil {
				d.seenTTL.Expire(d.key)
			}
			if _, ok := d.seen.Get(d.key); !ok {
				d.seen.Put(d.key, struct{}{})
				if d.seenTTL != nil {
					d.seenTTL.Touch(d.key)
				}
				row := c.Row(i)
				if d.cfg.OutputRankNumber {
					row = append(row, types.IntValue(1))
				}
				w.add(types.Insert, row)
			}
		case !d.cfg.RowTime:
			d.last.expire(d.key)
			d.last.upsert(w, d.key, c.Row(i))
		default:
			d.last.expire(d.key)
			prev, ok := d.last.rows.Get(d.key)
			row := c.Row(i)
			if !ok || shouldKeep(d.cfg.KeepLast, prev[d.cfg.TimeCol].I, row[d.cfg.TimeCol].I) {
				d.last.replace(w, d.key, prev, ok, row)
			}
		}
	}
	return nil
}

// shouldKeep reports whether a row at time t replaces the kept row at time
// prev (DeduplicateFunctionHelper.shouldKeepCurrentRow): keep-last on a time
// at least as late, keep-first on a strictly earlier time.
func shouldKeep(keepLast bool, prev, t int64) bool {
	if keepLast {
		return prev <= t
	}
	return t < prev
}
