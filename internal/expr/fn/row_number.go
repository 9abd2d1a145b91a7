package fn

import (
	"errors"

	"github.com/sluicesql/sluice/internal/types"
)

func init() {
	registerAgg(bindRowNumber, "ROW_NUMBER")
	aggregates["ROW_NUMBER"].OverOnly = true
}

// ROW_NUMBER() in an OVER aggregation that is not a Top-N or
// deduplication (no filter on it): "Assigns a unique, sequential number to
// each row, starting with one, according to the ordering of rows within
// the window partition", as Flink's RowNumberAggFunction computes it over
// the frame ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW: the number
// of rows accumulated so far. BIGINT NOT NULL.
func bindRowNumber(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
	if distinct || len(args) != 0 {
		return types.Type{}, nil, sigError("ROW_NUMBER", "()", args)
	}
	return types.BigIntType.WithNotNull(true), func() Accumulator { return &rowNumberAcc{} }, nil
}

// rowNumberAcc counts the rows of its partition.
type rowNumberAcc struct{ n int64 }

func (r *rowNumberAcc) Add([]types.Value) { r.n++ }

func (r *rowNumberAcc) Result() (types.Value, error) { return types.IntValue(r.n), nil }

func (r *rowNumberAcc) MarshalState() []byte { e := encoder{}; e.int(r.n); return e.b }

func (r *rowNumberAcc) UnmarshalState(b []byte) error {
	d := decoder{b: b}
	n := d.int()
	if err := d.done(); err != nil {
		return err
	}
	r.n = n
	return nil
}

func (r *rowNumberAcc) Retract([]types.Value) error {
	return errors.New("ROW_NUMBER cannot retract: it runs over an unbounded frame only")
}
