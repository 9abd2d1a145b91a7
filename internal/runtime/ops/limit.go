package ops

import (
	"fmt"
	"math"
	"time"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// LimitConfig configures a Limit.
type LimitConfig struct {
	// InputTypes are the input's column types.
	InputTypes []types.Type
	// Order is the ORDER BY of a sort-limit (ORDER BY ... LIMIT n); empty
	// for a plain LIMIT, which keeps rows in arrival order.
	Order []SortKey
	// Offset is the number of leading rows skipped (OFFSET).
	Offset int64
	// N is the maximum number of rows kept (LIMIT), negative for no
	// limit (OFFSET alone).
	N int64
	// InputInsertOnly says the input only has +I rows.
	InputInsertOnly bool
	// GenerateUpdateBefore emits -U rows before +U rows.
	GenerateUpdateBefore bool
	// StateTTL is the rows' idle state retention, which only a first-N
	// form takes (Rank); 0 keeps them for ever.
	StateTTL time.Duration
}

// NewLimit returns the operator of a global LIMIT / OFFSET, with or without
// ORDER BY, for an input of parallelism 1. As in Flink (StreamExecLimit and
// StreamExecSortLimit extend StreamExecRank) it is a Top-N without
// partition keys over rows Offset+1..Offset+N: over an insert-only input a
// plain LIMIT emits the first N rows (after the offset) as +I and ignores
// the rest; a sort-limit emits -D/+I as better rows arrive; over an
// updating input a retracted row is replaced by the next one. Without a
// limit the range is open-ended (Flink's SortUtil.getLimitEnd).
func NewLimit(cfg LimitConfig, st state.Backend) (*Rank, error) {
	if cfg.Offset < 0 || cfg.Offset == math.MaxInt64 {
		return nil, fmt.Errorf("limit: invalid offset %d", cfg.Offset)
	}
	end := int64(math.MaxInt64)
	if cfg.N >= 0 && cfg.N < math.MaxInt64-cfg.Offset {
		end = cfg.Offset + cfg.N
	}
	return NewRank(RankConfig{
		InputTypes:           cfg.InputTypes,
		Order:                cfg.Order,
		Start:                cfg.Offset + 1,
		End:                  end,
		InputInsertOnly:      cfg.InputInsertOnly,
		GenerateUpdateBefore: cfg.GenerateUpdateBefore,
		StateTTL:             cfg.StateTTL,
	}, st)
}
